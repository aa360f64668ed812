/* plan_disks.h — inventory facts for the advisor: from a live (or sysroot)
 * scan, or from a `tierwise list --json` file, matched to profile devices.
 */
#ifndef TW_PLAN_DISKS_H
#define TW_PLAN_DISKS_H

#include "plan.h"
#include "probe.h"

struct cli_plan_disks {
	size_t n;
	struct advisor_disk *v;
};

/* Copy what the advisor needs from an inventory.  Returns 0 or -ENOMEM. */
int cli_plan_disks_from_inventory(const struct probe_inventory *inv, struct cli_plan_disks *out);

/*
 * Read a tierwise.inventory/1 document (the output of `tierwise list
 * --json`).  Returns 0; -EINVAL with "FILE: message" in err when it is not
 * one; -errno when unreadable; -ENOMEM.
 */
int cli_plan_disks_load_json(const char *path, struct cli_plan_disks *out, char *err, size_t errlen);

/*
 * The disk of profile device d: same serial when both have one, else the
 * same path or kernel name; NULL when none matches (catalog devices).
 */
const struct advisor_disk *cli_plan_disks_match(const struct cli_plan_disks *disks,
					    const struct profile_device *d);

/* Free the disks.  NULL-safe. */
void cli_plan_disks_free(struct cli_plan_disks *disks);

#endif
