/* The inventory: what a device is — a fixed disk, or not a tier candidate
 * (optical, removable, tape, changer, boot area, read-only). */
#include <blkid/blkid.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inventory_priv.h"
#include "sysroot.h"
#include "tw_util.h"

/* ---- what a device is: a fixed disk, or not a tier candidate ---- */

static const char *const class_names[PROBE_CLASS_COUNT] = {
	"disk", "optical", "removable", "tape", "changer", "boot-area", "read-only",
};

const char *probe_class_name(enum probe_class c)
{
	return (unsigned)c < PROBE_CLASS_COUNT ? class_names[c] : NULL;
}

bool probe_dev_candidate(const struct probe_dev *d)
{
	return d->cls == PROBE_CLASS_DISK;
}

static int set_class(struct probe_dev *d, enum probe_class c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record the class and why.  Returns 0 or -ENOMEM. */
static int set_class(struct probe_dev *d, enum probe_class c, const char *fmt, ...)
{
	va_list ap;
	int r;

	d->cls = c;
	va_start(ap, fmt);
	r = vasprintf(&d->cls_why, fmt, ap);
	va_end(ap);
	if (r < 0) {
		d->cls_why = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The SCSI peripheral device type (device/type), -1 when there is none. */
static int scsi_type(const struct probe_sysdev *h)
{
	uint64_t v;

	if (probe_sysdev_u64(h, "device/type", &v) < 0 || v > 31)
		return -1;
	return (int)v;
}

static unsigned dev_major(const struct probe_dev *d)
{
	return (unsigned)strtoul(d->majmin, NULL, 10);
}

/* mmcblk0boot0, mmcblk0boot1, mmcblk0rpmb: eMMC hardware partitions. */
static const char *emmc_area(const char *name)
{
	const char *p = name + strlen("mmcblk");

	if (strncmp(name, "mmcblk", 6) || !isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p))
		p++;
	if (!strncmp(p, "boot", 4) && isdigit((unsigned char)p[4]))
		return "eMMC boot area (holds the boot loader; read-only until force_ro is cleared)";
	if (!strcmp(p, "rpmb"))
		return "eMMC replay-protected memory block (RPMB)";
	return NULL;
}

/* SCSI types that are not disks: optical drives, tapes, changers. */
static int class_from_scsi(struct probe_dev *d, int type)
{
	switch (type) {
	case 1:
		return set_class(d, PROBE_CLASS_TAPE, "tape drive (SCSI type 1)");
	case 4: case 5: case 7:
		d->media = PROFILE_MEDIA_OPTICAL;
		return set_class(d, PROBE_CLASS_OPTICAL, "optical drive (SCSI type %d%s)",
				 type, dev_major(d) == 11 ? ", sr major 11" : "");
	case 8:
		return set_class(d, PROBE_CLASS_CHANGER, "media changer (SCSI type 8)");
	default:
		return 1;	/* not decided here */
	}
}

/* Removable media: removable = 1, or an SD card (mmc leaves removable 0). */
static int class_removable(const struct probe_sysdev *h, struct probe_dev *d)
{
	char *mmc = d->transport == PROFILE_TR_MMC ?
		probe_sysdev_str(h, "device/type") : NULL;
	bool sd = mmc && !strcmp(mmc, "SD");
	int r = 1;

	free(mmc);
	if (d->removable)
		r = set_class(d, PROBE_CLASS_REMOVABLE, "removable media (removable = 1%s)",
			      d->transport == PROFILE_TR_USB ? ", USB: a stick or a card reader" :
			      dev_major(d) == 2 ? ", floppy" : "");
	else if (sd)
		r = set_class(d, PROBE_CLASS_REMOVABLE, "SD card (mmc type SD)");
	if (r == 0)
		d->media = PROFILE_MEDIA_REMOVABLE;
	return r;
}

/*
 * Decide what d is from sysfs facts read through h, d's directory (after
 * its identity and queue were read), and set optical or removable media.
 * Returns 0 or -ENOMEM.
 */
int probe_inv_classify(const struct probe_sysdev *h, struct probe_dev *d)
{
	int type = scsi_type(h), r;
	const char *area = emmc_area(d->name);

	if (type < 0 && dev_major(d) == 11)
		type = 5;	/* sr without a device/type to read */
	r = class_from_scsi(d, type);
	if (r <= 0)
		return r;
	if (area)
		return set_class(d, PROBE_CLASS_BOOT_AREA, "%s", area);
	if (dev_major(d) == 31 || !strncmp(d->name, "mtdblock", 8))
		return set_class(d, PROBE_CLASS_BOOT_AREA, "MTD flash (firmware, boot loader)");
	r = class_removable(h, d);
	if (r <= 0)
		return r;
	if (d->readonly)
		return set_class(d, PROBE_CLASS_READONLY, "read-only device (ro = 1)");
	d->cls = PROBE_CLASS_DISK;
	return 0;
}

/* The first member of md/dm device d that is no fixed disk, or NULL. */
static const struct probe_dev *non_disk_slave(const struct probe_inventory *inv,
					      const struct probe_dev *d)
{
	for (size_t s = 0; s < d->slaves.n; s++) {
		const struct probe_dev *x = probe_inventory_find(inv, d->slaves.v[s]);

		if (x && x->cls != PROBE_CLASS_DISK && x->cls != PROBE_CLASS_READONLY)
			return x;
	}
	return NULL;
}

/*
 * An md or dm device built on a device that is no fixed disk (LVM on a USB
 * stick) is none either: it takes that member's class, through every level
 * of stacking.  Returns 0 or -ENOMEM.
 */
int probe_inv_class_from_slaves(struct probe_inventory *inv)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (size_t i = 0; i < inv->n; i++) {
			struct probe_dev *d = &inv->v[i];
			const struct probe_dev *x;

			if (d->cls != PROBE_CLASS_DISK || !(x = non_disk_slave(inv, d)))
				continue;
			if (set_class(d, x->cls, "built on %s: %s", x->name, x->cls_why) < 0)
				return -ENOMEM;
			changed = true;
		}
	}
	return 0;
}

