/* Temperatures from hwmon: NVMe's own hwmon and SATA's drivetemp.
 * Reading hwmon needs no root; each NVMe hwmon read is an admin command,
 * so callers poll at most once a second. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwmon.h"
#include "sysroot.h"

/* The first hwmonN entry of sys/block/NAME/SUB into rel: 0 or -ENOENT. */
static int hwmon_under(const char *sysroot, const char *name, const char *sub,
		       char *rel, size_t len)
{
	char **names;
	size_t n;
	int ret = -ENOENT;

	if (probe_sys_list(sysroot, &names, &n, "sys/block/%s/%s", name, sub) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < n && ret; i++) {
		if (strncmp(names[i], "hwmon", 5) || !names[i][5])
			continue;
		if (snprintf(rel, len, "sys/block/%s/%s/%s", name, sub, names[i]) < (int)len)
			ret = 0;
	}
	probe_sys_names_free(names, n);
	return ret;
}

/* The hwmon directory of a device: <device>/hwmon/hwmonN (drivetemp) or
 * <device>/hwmonN (NVMe: the controller). */
static int hwmon_dir(const char *sysroot, const char *name, char *rel, size_t len)
{
	if (hwmon_under(sysroot, name, "device/hwmon", rel, len) == 0)
		return 0;
	return hwmon_under(sysroot, name, "device", rel, len);
}

static double millideg(const char *sysroot, const char *rel, const char *attr)
{
	char *s = probe_sys_str(sysroot, "%s/%s", rel, attr), *end;
	double v;

	if (!s)
		return NAN;
	v = strtod(s, &end);
	if (end == s)
		v = NAN;
	free(s);
	/* Whole degrees: drive sensors report whole Kelvin (NVMe) or Celsius
	 * (ATA), and the NVMe driver's K − 273.15 turns 323 K into 49.85.
	 * Outside [-50, 200] °C (inf, a broken sensor) is no reading: the
	 * profile would refuse it. */
	v = round(v / 1000.0);
	return v >= -50 && v <= 200 ? v : NAN;
}

int probe_hwmon_read(const char *sysroot, const char *name, struct probe_health *h)
{
	char rel[PATH_MAX], *chip;
	int ret = hwmon_dir(sysroot, name, rel, sizeof(rel));

	if (ret < 0)
		return ret;
	h->temp_c = millideg(sysroot, rel, "temp1_input");
	if (isnan(h->temp_c))
		return -ENODATA;
	h->warning_c = millideg(sysroot, rel, "temp1_max");
	h->critical_c = millideg(sysroot, rel, "temp1_crit");
	chip = probe_sys_str(sysroot, "%s/name", rel);
	snprintf(h->source, sizeof(h->source), "hwmon (%s)", chip ? chip : "unknown");
	free(chip);
	return 0;
}
