/* SATA/SAS temperature and SMART health through libatasmart (needs root). */
#include <stddef.h>
#include <stdint.h>

#include <atasmart.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "ata.h"

int probe_ata_read(const char *devpath, struct probe_health *h)
{
	SkBool avail = 0, good = 0;
	uint64_t mk = 0, ms = 0, bad = 0;
	SkDisk *d = NULL;
	int ret = 0;

	if (sk_disk_open(devpath, &d) < 0)
		return -errno;
	if (sk_disk_smart_is_available(d, &avail) < 0 || !avail) {
		ret = -EOPNOTSUPP;	/* e.g. a USB bridge that hides SMART */
		goto out;
	}
	if (sk_disk_smart_read_data(d) < 0) {
		ret = errno ? -errno : -EIO;
		goto out;
	}
	h->log.present = true;
	if (sk_disk_smart_status(d, &good) == 0)
		h->log.smart_ok = good ? 1 : 0;
	if (sk_disk_smart_get_power_on(d, &ms) == 0)
		h->log.power_on_hours = (long)(ms / 3600000ULL);
	if (sk_disk_smart_get_bad(d, &bad) == 0)
		h->log.media_errors = (long)bad;
	if (sk_disk_smart_get_temperature(d, &mk) == 0 && mk)
		h->temp_c = (double)mk / 1000.0 - 273.15;
	snprintf(h->source, sizeof(h->source), "ata smart (libatasmart)");
	if (isnan(h->temp_c))
		ret = -ENODATA;
out:
	sk_disk_free(d);
	return ret;
}
