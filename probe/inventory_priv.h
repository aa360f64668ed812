/* inventory_priv.h — what the inventory's files share (not public): the
 * scan state and the helpers each file offers the others.
 *   inventory.c        the scan, identities, signatures, the device list
 *   inventory_mounts.c proc/self/mountinfo and proc/swaps
 *   inventory_class.c  what a device is (a fixed disk or not a tier candidate)
 *   inventory_pcie.c   the PCIe link of a device
 *   inventory_judge.c  the two safety verdicts and their reasons
 *   inventory_nvme.c   NVMe multipath heads, their paths, the physical drive
 *   inventory_base.c   the device lookup and the string list's free, which
 *                      the others use
 */
#ifndef TW_INVENTORY_PRIV_H
#define TW_INVENTORY_PRIV_H

#include <stdbool.h>

#include "probe.h"

struct probe_sysdev;	/* sysroot.h */

/* One line of proc/self/mountinfo, or of proc/swaps (point = NULL). */
struct probe_mnt {
	char majmin[16];
	char *source, *point, *fstype;
	char *root;		/* mountinfo's root: "/" for the filesystem's
				 * own mount, a path inside it for a bind mount */
};

struct probe_mnts {
	size_t n;
	struct probe_mnt *v;
};

struct probe_scan {
	const char *root;
	struct probe_mnts mounts, swaps;
	char root_majmin[16];
};

/* Free every string of s; s is empty afterwards (inventory_base.c). */
void probe_inv_strv_free(struct probe_strv *s);

/* ---- inventory_mounts.c ---- */

/* Free the mount list. */
void probe_inv_mnts_free(struct probe_mnts *m);

/* Read sysroot's proc/self/mountinfo into sc->mounts (and root_majmin),
 * or with swaps its proc/swaps into sc->swaps, with libmount; lines it
 * cannot parse are skipped, an absent file is no mount.  Returns 0 or
 * -ENOMEM. */
int probe_inv_read_mounts(struct probe_scan *sc, bool swaps);

/* The mount points of device name (majmin) into mounts, swap use into
 * *swap; a mounted filesystem also fills sig when libblkid could not.
 * A tree mounted at many places (one device and one root: kubelet's bind
 * mounts of a volume into every pod) is listed once, at its first place;
 * the filesystem's own mount (root "/") comes first when there is one.
 * Returns 0 or -ENOMEM. */
int probe_inv_find_mounts(const struct probe_scan *sc, const char *name, const char *majmin,
		    struct probe_strv *mounts, bool *swap, struct probe_sig *sig);

/* ---- inventory_class.c ---- */

/* What d is: d->cls and d->cls_why from sysfs facts read through h, d's
 * sysfs directory.  Returns 0 or -ENOMEM. */
int probe_inv_classify(const struct probe_sysdev *h, struct probe_dev *d);

/* md/dm devices built on a device that is no fixed disk take its class.
 * Returns 0 or -ENOMEM. */
int probe_inv_class_from_slaves(struct probe_inventory *inv);

/* ---- inventory_pcie.c ---- */

/* d->pcie (and NUMA node, local CPUs, top port) from the PCI functions in
 * real, the device's path under sys/devices.  Returns 0 or -ENOMEM. */
int probe_inv_read_pcie(const struct probe_scan *sc, struct probe_dev *d, const char *real);

/* The link alone into pc (all unknown first) from the PCI functions in real,
 * a path under sys/devices (an NVMe path's controller).  Returns 0 or
 * -ENOMEM; pc's upstream is the caller's to free (probe_inv_strv_free). */
int probe_inv_read_link(const struct probe_scan *sc, struct probe_pcie *pc, const char *real);

/* numa_node of a sysfs directory (relative to the sysroot): -1 when
 * missing, "-1" or not a node number. */
int probe_inv_read_numa(const struct probe_scan *sc, const char *dir);

/* ---- inventory_nvme.c ---- */

/* NVMe facts of d (transport nvme), h its directory and real its path under
 * sys/devices: the subsystem NQN; for a multipath head (under
 * nvme-subsystem) also model, serial, firmware and iopolicy from the
 * subsystem, its paths, and the controller of its best path with that
 * controller's PCIe link and NUMA node.  A controller whose transport is a
 * fabric (tcp, rdma, fc, loop) makes d network-attached: d->fabric and
 * d->fabric_address set, no link, NUMA node or PCI port.  Returns 0 or
 * -ENOMEM. */
int probe_inv_read_nvme(const struct probe_scan *sc, const struct probe_sysdev *h,
		  struct probe_dev *d, const char *real);

/* d->drive_id from the subsystem NQN, else the serial.  0 or -ENOMEM. */
int probe_inv_drive_id(struct probe_dev *d);

/* Free the strings of p.  NULL members are fine. */
void probe_inv_nvme_path_free(struct probe_nvme_path *p);

/* ---- inventory_judge.c ---- */

/* The two verdicts of d, each with every reason against it.  Returns 0 or
 * -ENOMEM. */
int probe_inv_judge(struct probe_dev *d);

#endif
