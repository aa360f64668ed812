/* Temperature and health of a device: the source chosen per transport. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "ata.h"
#include "hwmon.h"
#include "nvme.h"
#include "probe.h"
#include "sysroot.h"

void probe_health_init(struct probe_health *h)
{
	memset(h, 0, sizeof(*h));
	h->temp_c = h->warning_c = h->critical_c = h->mntmt_c = h->mxtmt_c = NAN;
	h->hctma = -1;
	profile_health_init(&h->log);
}

/* The richest source first: admin commands / SMART (root), then hwmon. */
static int smart_read(const char *sysroot, const struct probe_dev *d, bool with_id,
		      struct probe_health *h)
{
	char path[PATH_MAX];
	int ret;

	if (d->transport == PROFILE_TR_NVME && d->controller) {
		char status[160];

		ret = probe_nvme_read(sysroot, d->controller, with_id, h, status, sizeof(status));
		if (ret == 0) {
			snprintf(h->source, sizeof(h->source), "nvme smart log (libnvme)");
			if (!isnan(h->temp_c))
				return 0;
			/* nvmet's targets (NVMe over Fabrics) report none */
			snprintf(h->why, sizeof(h->why), "the SMART log of /dev/%s has no temperature",
				 d->controller);
			return -ENODATA;
		}
		snprintf(h->why, sizeof(h->why), "NVMe admin commands on /dev/%s: %s%s",
			 d->controller, status[0] ? status : strerror(-ret),
			 ret == -EACCES || ret == -EPERM ? " (needs root)" : "");
		return ret;
	}
	if (d->transport == PROFILE_TR_SATA || d->transport == PROFILE_TR_SAS ||
	    d->transport == PROFILE_TR_USB) {
		if (probe_sys_path(sysroot, path, sizeof(path), "dev/%s", d->name) < 0)
			return -ENAMETOOLONG;
		ret = probe_ata_read(path, h);
		if (ret == 0)
			return 0;
		snprintf(h->why, sizeof(h->why), "ATA SMART on %s: %s%s", d->path,
			 ret == -EOPNOTSUPP ? "not available" : strerror(-ret),
			 d->transport == PROFILE_TR_USB ? " (USB bridges often hide SMART)" :
			 ret == -EACCES || ret == -EPERM ? " (needs root)" : "");
		return ret;
	}
	snprintf(h->why, sizeof(h->why), "%s devices have no temperature sensor",
		 profile_transport_name(d->transport));
	return -ENODEV;
}

static int health_get(const char *sysroot, const struct probe_dev *d, bool with_id,
		      struct probe_health *h)
{
	int ret;

	probe_health_init(h);
	ret = smart_read(sysroot, d, with_id, h);
	if (ret == 0)
		return ret;
	if (probe_hwmon_read(sysroot, d, h) == 0) {
		if (ret == -ENODEV)
			h->why[0] = '\0';	/* no SMART expected; hwmon is the sensor */
		return 0;	/* h->why still says why SMART was not read */
	}
	if (ret == -ENODEV)
		return ret;
	snprintf(h->why + strlen(h->why), sizeof(h->why) - strlen(h->why),
		 "; no hwmon temperature either");
	return ret;
}

/* The first read of each drive (probe_health_read), per sysroot. */
#define DRIVES_MAX 256
static struct drive_read {
	char *drive, *root;
	char dev[32];
	struct probe_health h;
	int ret;
} drives[DRIVES_MAX];
static size_t n_drives;
static pthread_mutex_t drives_mu = PTHREAD_MUTEX_INITIALIZER;

/* The cached read of d's drive into h (true), or false.  Under drives_mu. */
static bool drive_cached(const char *root, const struct probe_dev *d, struct probe_health *h,
			 int *ret)
{
	for (size_t i = 0; i < n_drives; i++)
		if (!strcmp(drives[i].drive, d->drive_id) && !strcmp(drives[i].root, root)) {
			*h = drives[i].h;
			snprintf(h->shared_with, sizeof(h->shared_with), "%s", drives[i].dev);
			*ret = drives[i].ret;
			return true;
		}
	return false;
}

/* Keep h as the read of d's drive (nothing when the table is full or out
 * of memory: the next namespace reads again).  Under drives_mu. */
static void drive_keep(const char *root, const struct probe_dev *d,
		       const struct probe_health *h, int ret)
{
	struct drive_read *e = &drives[n_drives];

	if (n_drives == DRIVES_MAX || !(e->drive = strdup(d->drive_id)))
		return;
	if (!(e->root = strdup(root))) {
		free(e->drive);
		return;
	}
	snprintf(e->dev, sizeof(e->dev), "%s", d->name ? d->name : "?");
	e->h = *h;
	e->ret = ret;
	n_drives++;
}

int probe_health_read(const char *sysroot, const struct probe_dev *d,
		      struct probe_health *h)
{
	const char *root = sysroot ? sysroot : "/";
	int ret;

	if (!d->drive_id)
		return health_get(sysroot, d, true, h);
	pthread_mutex_lock(&drives_mu);	/* one read per drive, even side by side */
	if (!drive_cached(root, d, h, &ret)) {
		ret = health_get(sysroot, d, true, h);
		drive_keep(root, d, h, ret);
	}
	pthread_mutex_unlock(&drives_mu);
	return ret;
}

int probe_health_sample(const char *sysroot, const struct probe_dev *d,
			struct probe_health *h)
{
	return health_get(sysroot, d, false, h);
}

double probe_hwmon_temp(const char *sysroot, const struct probe_dev *d)
{
	struct probe_health h;

	probe_health_init(&h);
	return probe_hwmon_read(sysroot, d, &h) == 0 ? h.temp_c : NAN;
}
