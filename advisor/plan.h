/* plan.h — the placement plan: which device holds which tier, why, and how
 * to mount it.
 *
 * advisor_plan_make() scores every device against the policies of each tier
 * (model/score.h), finds the assignment of devices to tiers with the highest
 * total score that meets each tier's capacity need (advisor_optimize(), an
 * exact branch and bound), groups like devices into md arrays, derives the
 * warnings the measurements support and the mount suggestions.  Pure: never
 * prints, never touches a device; renderers in cli/ print the plan.  The
 * method is documented in docs/advisor.md.
 */
#ifndef TW_PLAN_H
#define TW_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "advisor.h"
#include "policy.h"
#include "profile.h"
#include "score.h"

#define PLAN_SCHEMA "tierwise.plan/1"

/* ---- the optimiser: n devices × 3 tiers, pure numbers ---------------- */

#define ADVISOR_OPT_MAX_DEVICES 64
/* Objective points lost by a tier with none of its need met (see optimize.c). */
#define ADVISOR_SHORTFALL_PENALTY 100.0

struct advisor_opt_input {
	size_t n;			/* devices, ≤ ADVISOR_OPT_MAX_DEVICES */
	double score[ADVISOR_OPT_MAX_DEVICES][ADVISOR_TIER_COUNT];
					/* 0–100; NAN = ineligible */
	double capacity[ADVISOR_OPT_MAX_DEVICES];	/* usable bytes */
	double need[ADVISOR_TIER_COUNT];	/* bytes; 0 = no need */
};

/* tier[d] is the tier of device d, or -1 (unassigned). */
struct advisor_assignment {
	int tier[ADVISOR_OPT_MAX_DEVICES];
	double value;		/* Σ over tiers of the tier value (see below) */
	double shortfall;	/* Σ over tiers of need − capacity, when > 0 */
	double objective;	/* value − penalty × Σ share of need uncovered */
	bool valid;
};

struct advisor_opt_result {
	struct advisor_assignment best, runner_up;	/* runner_up.valid may be false */
	unsigned long nodes;	/* search nodes visited */
	bool exact;		/* false when the node limit stopped the search */
};

/*
 * The value of one tier holding the devices in set: the capacity-weighted
 * mean score of its devices (Σ score × capacity ÷ Σ capacity), 0 for an
 * empty tier.  Pure; exposed for tests and the brute-force reference.
 */
double advisor_tier_value(const struct advisor_opt_input *in, int tier,
			  const int *assign);

/*
 * Evaluate a complete assignment (tier per device, -1 = none): fills
 * value, shortfall and objective; valid is false when a device sits in a tier it is
 * ineligible for.
 */
void advisor_evaluate(const struct advisor_opt_input *in, const int *assign,
		      struct advisor_assignment *out);

/*
 * The optimum: the highest objective (value minus the shortfall penalty),
 * then fewer devices, and then unassigned devices identical to one in a
 * tier join it (same objective: more capacity); and the runner-up: for each tier, the optimum with
 * the optimum's leading device (highest score in that tier) barred from
 * it, the best of those (valid = false when no tier has a device).  Exact
 * (branch and bound) unless a search needs more than max_nodes nodes
 * (0 = 20 million), then exact = false and the results are the best found.
 * Returns 0, -EINVAL when n is out of range, -ENOMEM.
 */
int advisor_optimize(const struct advisor_opt_input *in, unsigned long max_nodes,
		     struct advisor_opt_result *out);

/* ---- what the inventory says about a device (optional) --------------- */

struct advisor_part {
	char *name, *fstype, *uuid, *label;
	int64_t size_bytes;		/* -1 = unknown */
	size_t n_mounts;
	char **mounts;
};

struct advisor_disk {
	char *name, *path, *serial;	/* nvme0n1, /dev/nvme0n1; serial or NULL */
	char *fstype, *uuid, *label, *pttype;	/* whole-device signatures or NULL */
	size_t n_mounts;
	char **mounts;
	size_t n_holders;
	char **holders;		/* md127, dm-0: the device is in use by them */
	size_t n_parts;
	struct advisor_part *parts;
	bool root;		/* holds the running root filesystem */
	bool swap;
	char *cls;		/* what the device is ("disk", "optical",
				 * "removable", … as `tierwise list` says);
				 * NULL = unknown (a fixed disk) */
	char *cls_why;		/* the reason it is not a fixed disk, or NULL */
};

/* Free what one advisor_disk owns (not the struct).  NULL-safe. */
void advisor_disk_clear(struct advisor_disk *d);

/* ---- the plan -------------------------------------------------------- */

struct advisor_need {
	const char *policy;	/* name of a policy in the set */
	int64_t bytes;
};

struct advisor_options {
	const struct advisor_need *needs;	/* override need_bytes per policy */
	size_t n_needs;
	double fill;		/* usable share of a device's capacity; 0 = 0.8 */
	const char *mount_base;	/* NULL = "/srv" */
	const char *mount_point[ADVISOR_TIER_COUNT];
		/* NULL = mount_base + "/vector-db", "/models", "/archive" */
	bool include_removable;	/* plan optical, removable and tape devices too */
	const char *const *include;	/* …or only these (ids or kernel names) */
	size_t n_include;
};

enum advisor_raid_level { ADVISOR_RAID_NONE, ADVISOR_RAID0, ADVISOR_RAID1,
			  ADVISOR_RAID10, ADVISOR_RAID5, ADVISOR_RAID6, ADVISOR_RAID_COUNT };

/* "raid0", "raid1", "raid10", "raid5", "raid6"; NULL for NONE / out of range. */
const char *advisor_raid_name(enum advisor_raid_level l);

struct advisor_raid {
	enum advisor_raid_level level;
	size_t n;			/* members */
	size_t *members;		/* device indices (into plan->devs) */
	char *name;			/* md device name: "md-models" */
	int64_t capacity_bytes;		/* usable array capacity */
	double seq_read_mbps, seq_write_mbps;	/* estimated; NAN = unknown */
	char *basis;			/* how the estimate was made */
	char *tradeoff;			/* the data-loss trade-off, one line */
};

/* One filesystem to mount for a tier: a device, an array or a directory. */
struct advisor_mount {
	char *point;		/* /srv/models */
	char *fs;		/* "xfs", "ext4", or the existing type */
	char *options;		/* "noatime,nofail,x-systemd.device-timeout=10s" */
	char *why;		/* why this filesystem, one line */
	char *source;		/* /dev/nvme0n1, /dev/md/md-models, or dir path */
	char *uuid;		/* existing filesystem UUID, or NULL (new) */
	bool reuse;		/* an existing filesystem, kept as it is */
	bool directory;		/* a directory on an existing filesystem (root disk) */
	bool raid;		/* source is the tier's array */
	ptrdiff_t dev;		/* device index, or -1 for an array */
};

struct advisor_plan_estimate {
	char *policy;		/* policy name */
	char *label;		/* "an 18 GB model" */
	double value;		/* NAN = unknown */
	const char *unit;	/* "s" or "h" */
	const char *device;	/* id it was computed for, or the array name */
};

struct advisor_plan_tier {
	enum advisor_tier tier;
	size_t n_policies;
	const struct model_policy **policies;	/* in the set; not owned */
	size_t n_devices;
	size_t *devices;	/* device indices, best score first */
	double *scores;		/* tier score per device, same order */
	double score;		/* the tier value (capacity-weighted mean) */
	int64_t need_bytes;	/* Σ needs of its policies, -1 = none */
	int64_t usable_bytes;	/* Σ usable capacity of its devices */
	bool shared;		/* no device of its own: directories on shared_dev */
	ptrdiff_t shared_dev;	/* device index when shared, else -1 */
	struct advisor_raid raid;	/* level NONE = no array */
	size_t n_mounts;
	struct advisor_mount *mounts;
	size_t n_est;
	struct advisor_plan_estimate *est;
	size_t n_notes;
	char **notes;		/* "archive needs 20 TB, 8.2 TB available" */
};

struct advisor_warning {
	ptrdiff_t dev;		/* device index, or -1 for the plan */
	const char *kind;	/* "heat", "write-trap", "cache-cliff", … */
	char *message;
};

struct advisor_plan_device {
	const struct profile_device *p;	/* the profile device (not owned) */
	const struct advisor_disk *disk;	/* inventory facts, or NULL */
	double tier_score[ADVISOR_TIER_COUNT];	/* NAN = ineligible */
	char *why_not[ADVISOR_TIER_COUNT];	/* why ineligible, or NULL */
	bool has_data;		/* signatures, partitions, mounts or holders */
	bool reusable;		/* has_data and a filesystem to keep */
	bool excluded;		/* kept out of the plan (data it cannot reuse,
				 * RAM-backed, not a fixed disk) */
	const char *cls;	/* not a fixed disk: "optical", "removable",
				 * "tape", "changer", "boot-area", "read-only";
				 * NULL for a fixed disk (points into disk or
				 * a static string) */
	const char *cls_why;	/* what it is and how we know, when cls */
	bool named;		/* cls, yet in the plan: the user named it */
	int tier;		/* assigned tier, -1 = none */
	int best_tier;		/* its best eligible tier, -1 = none */
};

struct advisor_plan {
	size_t n_devs;
	struct advisor_plan_device *devs;
	struct advisor_plan_tier tiers[ADVISOR_TIER_COUNT];
	size_t n_unassigned;
	size_t *unassigned;	/* device indices */
	size_t n_warnings;
	struct advisor_warning *warnings;
	double score;		/* the optimum's value */
	bool exact;		/* the optimiser proved it */
	unsigned long nodes;
	/* runner-up: the tier of each device, -1 = none; n_devs entries */
	bool has_runner_up;
	int *runner_up;
	double runner_up_score, gap;
	size_t n_notes;
	char **notes;		/* plan-wide notes */
	double fill;
	char *mount_point[ADVISOR_TIER_COUNT];	/* per tier, from the options */
};

/*
 * Make the plan for devs (n, each with its profile) against the policies
 * of set, with optional inventory facts (disks[i] for devs[i], NULL entries
 * or disks == NULL when unknown).  On success returns 0 and *out owns the
 * plan (advisor_plan_free()); devs, disks and set must outlive it.
 * -EINVAL with a message in err when an option is wrong (a need naming no
 * policy), -E2BIG for more than ADVISOR_OPT_MAX_DEVICES devices, -ENOMEM.
 */
int advisor_plan_make(const struct profile_device *const *devs,
		      const struct advisor_disk *const *disks, size_t n,
		      const struct model_policy_set *set,
		      const struct advisor_options *opt,
		      struct advisor_plan **out, char *err, size_t errlen);

/* Free a plan.  NULL-safe. */
void advisor_plan_free(struct advisor_plan *plan);

/* ---- warnings from the data (warn.c) ---------------------------------- */

/*
 * Append to plan->warnings what the measurements of plan->devs show (for
 * every device, assigned or not; kinds "write-trap", "cache-cliff",
 * "heat", "throttling", "hdd-tail-latency" (a rotational device in the hot
 * tier: devs[].tier), "health", "burst"), each message one line with the
 * figures that triggered it.  Thresholds in docs/advisor.md.  Returns 0, -EINVAL for a NULL plan (or devs NULL with n_devs > 0), or
 * -ENOMEM (warnings added so far are kept).
 */
int advisor_warnings_make(struct advisor_plan *plan);

/* ---- mount suggestions (mount.c) -------------------------------------- */

/*
 * Fill tier->mounts for a tier whose devices, raid and shared fields are
 * set (and plan->devs[].disk, has_data, reusable): one mount per array,
 * per device not in the array, or one directory when the tier is shared or
 * its device holds the root filesystem; filesystem, options, why, source,
 * uuid and mount point (plan->mount_point[tier], then "-2", "-3" … for
 * further devices).  Returns 0 or -ENOMEM.
 */
int advisor_mounts_make(struct advisor_plan *plan, struct advisor_plan_tier *tier);

/* Free tier->mounts and what each holds; tier->n_mounts becomes 0. */
void advisor_mounts_clear(struct advisor_plan_tier *tier);

#endif
