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

/* The first hwmonN entry of the device's directory sub into hw: 0,
 * -ENOENT or -ENOMEM. */
static int hwmon_under(const struct probe_sysdev *dev, const char *sub,
		       struct probe_sysdev *hw)
{
	char **names;
	size_t n;
	int ret = -ENOENT;

	if (probe_sysdev_list(dev, sub, &names, &n) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < n && ret; i++) {
		char rel[NAME_MAX + 32];

		if (strncmp(names[i], "hwmon", 5) || !names[i][5])
			continue;
		if (snprintf(rel, sizeof(rel), "%s/%s", sub, names[i]) < (int)sizeof(rel) &&
		    probe_sysdev_sub(hw, dev, rel) == 0)
			ret = 0;
	}
	probe_sys_names_free(names, n);
	return ret;
}

/* The hwmon directory of a device: <device>/hwmon/hwmonN (drivetemp) or
 * <device>/hwmonN (NVMe: the controller); for an NVMe multipath head, whose
 * device is the subsystem, the hwmon of the controller d->controller, found
 * through its path (multipath/<path>/device/hwmonN, newer kernels)
 * or the subsystem's link to it (device/<controller>/hwmonN). */
static int hwmon_dir(const struct probe_sysdev *dev, const struct probe_dev *d,
		     struct probe_sysdev *hw)
{
	char sub[NAME_MAX + 32];

	if (hwmon_under(dev, "device/hwmon", hw) == 0)
		return 0;
	for (size_t i = 0; d->controller && i < d->n_paths; i++)
		if (d->paths[i].controller && !strcmp(d->paths[i].controller, d->controller) &&
		    snprintf(sub, sizeof(sub), "multipath/%s/device", d->paths[i].name) <
		    (int)sizeof(sub) && hwmon_under(dev, sub, hw) == 0)
			return 0;
	if (d->nvme_head && d->controller &&
	    snprintf(sub, sizeof(sub), "device/%s", d->controller) < (int)sizeof(sub))
		return hwmon_under(dev, sub, hw);
	return hwmon_under(dev, "device", hw);
}

static double millideg(const struct probe_sysdev *hw, const char *attr)
{
	char *s = probe_sysdev_str(hw, attr), *end;
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

int probe_hwmon_read(const char *sysroot, const struct probe_dev *d,
		     struct probe_health *h)
{
	struct probe_sysdev dev, hw;
	char *chip;
	int ret;

	if (probe_sysdev_init(&dev, sysroot, d->name) < 0)
		return -ENOENT;	/* no such directory under sys/block */
	ret = hwmon_dir(&dev, d, &hw);
	if (ret < 0)
		return ret;
	h->temp_c = millideg(&hw, "temp1_input");
	if (isnan(h->temp_c))
		return -ENODATA;
	h->warning_c = millideg(&hw, "temp1_max");
	h->critical_c = millideg(&hw, "temp1_crit");
	chip = probe_sysdev_str(&hw, "name");
	snprintf(h->source, sizeof(h->source), "hwmon (%s)", chip ? chip : "unknown");
	free(chip);
	return 0;
}
