/* plan_priv.h — helpers shared by the advisor's sources (not public). */
#ifndef TW_PLAN_PRIV_H
#define TW_PLAN_PRIV_H

#include <stdarg.h>
#include <stdbool.h>

#include "plan.h"

/* Append a printf-formatted string to (*v, *n).  Returns 0 or -ENOMEM. */
int plan_strv_add(char ***v, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append a warning (message formatted).  Returns 0 or -ENOMEM. */
int plan_warn(struct advisor_plan *plan, ptrdiff_t dev, const char *kind,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "12.0 TB", "894 GB": decimal units, for messages. */
void plan_fmt_bytes(char *buf, size_t len, double bytes);

/*
 * Is a signature (libblkid TYPE) a filesystem one could mount and keep
 * using?  False for LVM/md/ZFS members, swap, LUKS, bcache …
 */
bool plan_is_filesystem(const char *fstype);

/* Judge a device's inventory facts: has_data, reusable (see plan.h). */
void plan_judge_disk(struct advisor_plan_device *pd);

/*
 * Group like devices of tier t into an md array (tier->raid), with the
 * estimates recomputed for it.  Returns 0 or -ENOMEM.
 */
int plan_raid_make(struct advisor_plan *plan, struct advisor_plan_tier *tier);

/* Could a and b form an md array: both new, not the root disk, and like
 * devices (same model, figures within raid.c's tolerance)? */
bool plan_alike(const struct advisor_plan_device *a, const struct advisor_plan_device *b);

/* Free what a raid suggestion owns.  NULL-safe. */
void plan_raid_clear(struct advisor_raid *r);

#endif
