/* plan.h — the placement plan: which device holds which tier, why, and how
 * to mount it.
 *
 * advisor_plan_make() scores every device against the policies of each tier
 * (model/score.h), finds the assignment of devices to tiers with the highest
 * coverage of each tier's capacity need, then the best score
 * (advisor_optimize(), an integer programme solved by GLPK), groups like devices into md arrays, derives the
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

/* Points a plan's score loses per need left wholly uncovered (reporting). */
#define ADVISOR_SHORTFALL_PENALTY 100.0
/* Default wall-clock limit of one optimisation, seconds. */
#define ADVISOR_OPT_DEFAULT_SECONDS 10.0

/* How like devices of a tier form an md array (raid_level.c's levels). */
enum advisor_array_rule {
	ADVISOR_ARRAY_BY_TIER,	/* the tier's own: hot MIRROR, warm STRIPE, cold PARITY */
	ADVISOR_ARRAY_STRIPE,	/* RAID0: every member holds data, no redundancy */
	ADVISOR_ARRAY_MIRROR,	/* RAID1 of two or three, RAID10 from four */
	ADVISOR_ARRAY_PARITY,	/* RAID1 of two, RAID5 of three, RAID6 from four */
};

/* The rule r stands for in tier t: BY_TIER resolved, others as they are. */
enum advisor_array_rule advisor_array_rule_of(enum advisor_array_rule r, int tier);

struct advisor_opt_input {
	size_t n;			/* devices, any number */
	const double (*score)[TW_TIER_COUNT];
					/* n rows: 0–100; NAN = ineligible */
	const double *capacity;		/* n usable bytes */
	const int *group;		/* n like-device groups (md arrays): the index
					   of the group's first device (group[id] == id),
					   -1 = none; NULL = no groups */
	double need[TW_TIER_COUNT];	/* bytes; 0 = no need */
	const int (*cls)[TW_TIER_COUNT];
					/* n rows: device d's media class in tier t
					   (any int); a tier holds one class only;
					   NULL = classes may mix */
	enum advisor_array_rule rule[TW_TIER_COUNT];	/* arrays per tier */
	bool required[TW_TIER_COUNT];	/* redundancy required: only a
					   mirror or parity array of two or more
					   like devices holds the need */
	/* buying (tierwise plan --buy): NULL price = the devices are there */
	const double *price;		/* n: what device d costs to buy */
	double budget;			/* > 0: Σ price of the devices used ≤ budget */
	bool cheapest;			/* then: the cheapest plan meeting as many needs
					   within margin points of the best score */
	double margin;
	bool no_runner_up;		/* the optimum only (runner_up.valid false) */
};

/* What one complete assignment is worth (see advisor_evaluate()). */
struct advisor_eval {
	unsigned met;		/* tiers whose need is met in full */
	double coverage;	/* Σ over tiers with a need of the share covered */
	double quality;		/* Σ over tiers of the tier quality × its share */
	double score;		/* quality − penalty × Σ share uncovered */
	double tier_quality[TW_TIER_COUNT];	/* per tier, 0–100 */
	double tier_usable[TW_TIER_COUNT];	/* usable bytes after arrays */
	unsigned used;		/* devices assigned */
	double cost;		/* Σ price of the devices assigned (0 without prices) */
	bool valid;		/* no device in a tier it is ineligible for, one media
				   class per tier, within budget */
};

struct advisor_assignment {
	int *tier;		/* n entries: tier of device d, or -1 */
	struct advisor_eval e;
	bool valid;		/* an assignment was found */
};

struct advisor_opt_result {
	struct advisor_assignment best, runner_up;	/* runner_up.valid may be false */
	unsigned long nodes;	/* branch-and-bound nodes of the solver, all solves */
	bool exact;		/* proven optimal (within 1e-6 of a point) */
	double bound;		/* no plan meeting as many needs scores above this */
	double met_bound;	/* no plan meets more needs */
	double seconds;		/* wall time of the optimisation */
};

/*
 * The data disks a tier's md array of n like devices holds (raid_level.c's
 * levels): warm RAID0 n; hot RAID1 1 (two or three), RAID10 n / 2 (four or
 * more); cold RAID1 1 (two), RAID5 2 (three), RAID6 n − 2 (four or more).
 * n for n ≤ 1 (no array).
 */
size_t advisor_raid_data_disks(int tier, size_t n);

/* The same for an array of n like devices built by rule r in tier t. */
size_t advisor_array_data_disks(enum advisor_array_rule r, int tier, size_t n);

/*
 * Evaluate a complete assignment (tier per device, -1 = none).  A tier with
 * a need: its usable capacity (like devices of one group in hot or cold
 * count as their array: advisor_raid_data_disks() × the group's smallest
 * member), the share of the need it covers, and its quality: the
 * capacity-weighted mean score of the capacity that holds the need, best
 * first.  A tier with no need: quality = the capacity-weighted mean score
 * of its devices.  valid is false when a device sits in a tier it is
 * ineligible for.  Returns 0 or -ENOMEM.
 */
int advisor_evaluate(const struct advisor_opt_input *in, const int *assign,
		     struct advisor_eval *out);

/*
 * The optimum, needs first: the largest coverage of the needs, then the
 * best quality, then fewer devices (an integer programme solved by GLPK);
 * each tier with no need then takes the best spare device for it, and
 * unassigned devices identical to one in a tier join it when that loses
 * nothing.  The runner-up: for each tier, the optimum with the optimum's
 * leading device (highest score in that tier) and its twins barred from it,
 * the best of those (valid = false when no tier has a device).  Stops at
 * time_limit seconds (≤ 0: ADVISOR_OPT_DEFAULT_SECONDS): exact = false and
 * bound / coverage_bound say how far from optimal the plan can be.
 * Returns 0, -EINVAL for a NULL argument, -ENOMEM.
 */
int advisor_optimize(const struct advisor_opt_input *in, double time_limit,
		     struct advisor_opt_result *out);

/* Free what a result owns.  NULL-safe. */
void advisor_opt_result_clear(struct advisor_opt_result *r);

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
	unsigned logical_bs;	/* bytes per logical block; 0 = unknown.
				 * LVM takes no volume group over unlike ones */
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
	double time_limit;	/* seconds for the optimiser; 0 = its default */
	const char *mount_base;	/* NULL = "/srv" */
	const char *policies_from;	/* where the policies came from, for
					 * people (the plan keeps a copy); NULL */
	const char *mount_point[TW_TIER_COUNT];
		/* NULL = mount_base + "/vector-db", "/models", "/archive" */
	bool include_removable;	/* plan optical, removable and tape devices too */
	/* devices found sharing a bottleneck (the profiles' links), or none */
	const struct profile_shared *const *links;
	size_t n_links;
	const char *const *include;	/* …or only these (ids or kernel names) */
	size_t n_include;
	/* buying (tierwise plan --buy): each device with a price is a model
	 * that can be bought up to max_each times */
	bool buy;
	double budget;		/* > 0: the best plan within it; else the cheapest
				   plan within margin points of the best */
	unsigned max_each;	/* 0 = ADVISOR_BUY_MAX_EACH */
	double margin;		/* < 0 = ADVISOR_BUY_MARGIN */
};

#define ADVISOR_BUY_MAX_EACH 8
#define ADVISOR_BUY_MARGIN 5.0

/* One line of what to buy: count × a catalog model, for one tier. */
struct advisor_buy {
	const struct profile_device *p;	/* the catalog entry (not owned) */
	int tier;
	unsigned count;
	double price;		/* one device: price per TB × its TB */
	double cost;		/* count × price */
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
	bool unlike;			/* members of one media class, not alike:
					   md uses each at the smallest's size */
	bool refused;			/* level NONE: an array of its unlike
					   devices would not hold the need */
};

/* One LVM volume over a tier's unlike devices (volume.c); n == 0: none. */
struct advisor_volume {
	size_t n;			/* physical volumes */
	ptrdiff_t *pv;			/* device index, or -1 for the tier's md array */
	char *vg, *lv;			/* "tw-models", "models": /dev/tw-models/models */
	bool striped;			/* else linear */
	char *why;			/* linear or striped, and why; one line */
	int64_t capacity_bytes;		/* Σ units (linear), n × the smallest (striped) */
};

struct advisor_plan_tier;
/* Is device d a physical volume of the tier's volume? */
bool advisor_volume_has(const struct advisor_plan_tier *t, size_t d);

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
	bool volume;		/* source is the tier's LVM volume */
	ptrdiff_t dev;		/* device index, or -1 for an array */
};

struct advisor_plan_estimate {
	char *policy;		/* policy name */
	char *label;		/* "an 18 GB model" */
	const struct model_policy_estimate *pe;	/* the workload (in the policy) */
	struct model_workload_est w;	/* every figure, for what is built; its
					   fits against the tier's usable bytes */
	double value;		/* the headline (model_workload_value), NAN = unknown */
	const char *unit;	/* "s" or "accelerators" */
	const char *device;	/* id it was computed for, the array's or the volume's name */
	const char *layout;	/* how: "device", "linear" (each member by its
				   share of the capacity), "striped" (n × the
				   slowest), "raid0", "raid1", …, "mounts" (separate
				   mounts, by share) — static string */
	double best, worst;	/* the fastest and slowest member's own value when
				   they differ by more than 20 %; NAN otherwise */
	const char *best_device, *worst_device;	/* their ids, or NULL */
	double link_share;	/* a striped volume's reads capped to this share
				   of n × the slowest: members share a measured
				   link (link_mbps together); 1 = not capped */
	double link_mbps;
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
	int64_t *need_of;	/* per policy (policies' order): its need, -1 = none */
	bool *need_given;	/* per policy: the need came from the options
				   (--need), not the policy's need_bytes */
	enum model_redundancy redundancy;	/* the most any of its policies wants */
	bool refetchable;	/* every policy's data can be fetched again */
	enum advisor_array_rule rule;	/* how its like devices form an array:
				   STRIPE when it wants no redundancy,
				   else its tier's (hot MIRROR, cold PARITY,
				   warm MIRROR) */
	unsigned long long sized;	/* bit k: policies[k] has a need above 0
				   (the need is theirs: named in messages about
				   it; need 0 is not on this server, no need is a
				   size left to the user) */
	bool writes;		/* a policy of it scores write figures (the tier
				   writes: checkpoints, logs, backups) */
	int64_t usable_bytes;	/* Σ usable capacity of its devices */
	double cost;		/* Σ price per TB × capacity of its devices; 0 with
				   no device; NAN when a device has no price */
	double cost_per_usable_tb;	/* cost ÷ usable TB; NAN when unknown or none */
	size_t n_unpriced;	/* its devices without a price per TB */
	bool mate_moved;	/* its lone device got a mirror mate after the
				   optimum (plan_opt.c): no more joins */
	bool shared;		/* no device of its own: directories on shared_dev */
	ptrdiff_t shared_dev;	/* device index when shared, else -1 */
	struct advisor_raid raid;	/* level NONE = no array */
	struct advisor_volume volume;	/* n == 0 = none */
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
	double tier_score[TW_TIER_COUNT];	/* NAN = ineligible */
	char *why_not[TW_TIER_COUNT];	/* why ineligible, or NULL */
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
	const struct model_policy *own;	/* in its tier, the data of this policy
				   alone, a mount of its own (plan_opt.c's
				   per-policy placement); NULL: the tier's */
};

struct advisor_plan {
	char *policies_from;	/* from the options, or NULL */
	const struct profile_shared *const *links;	/* from the options */
	size_t n_links;
	size_t n_devs;
	struct advisor_plan_device *devs;
	struct advisor_plan_tier tiers[TW_TIER_COUNT];
	size_t n_unassigned;
	size_t *unassigned;	/* device indices */
	size_t n_warnings;
	struct advisor_warning *warnings;
	double score;		/* the optimum's score (advisor_eval.score) */
	double coverage;	/* Σ share of each need covered (1 per tier with a need) */
	unsigned needs_met;	/* tiers whose need is met in full */
	int n_needs;		/* tiers with a need */
	bool exact;		/* the optimiser proved it */
	unsigned mirror_moves;	/* devices then moved to make a mirror
				   (plan_opt.c): score is the plan's own */
	double bound;		/* no plan meeting as many needs scores above this */
	double met_bound;	/* no plan meets more needs */
	double seconds;		/* the optimiser's wall time */
	unsigned long nodes;
	/* runner-up: the tier of each device, -1 = none; n_devs entries */
	bool has_runner_up;
	int *runner_up;
	double runner_up_score, gap;
	bool runner_up_covers_less;	/* it covers less of the needs: the plan
				   is better whatever the scores (its score
				   may be higher: a tier with no need adds) */
	size_t n_notes;
	char **notes;		/* plan-wide notes */
	double fill;
	char *mount_point[TW_TIER_COUNT];	/* per tier, from the options */
	double cost_total;	/* Σ tier costs; NAN when any is unknown */
	bool priced;		/* some device of the profiles has a price per TB */
	/* buying: devs are copies of the catalog entries ("optane905p-2") */
	bool buying;
	double budget;		/* as asked; 0 = none */
	size_t n_buy;
	struct advisor_buy *buy;	/* by tier, then most bought first */
	struct profile_device *stock;	/* owned copies (their ids owned) */
	size_t n_stock;
	const struct profile_device **origin;	/* per device: the catalog entry */
};

/*
 * Make the plan for devs (n, each with its profile) against the policies
 * of set, with optional inventory facts (disks[i] for devs[i], NULL entries
 * or disks == NULL when unknown).  On success returns 0 and *out owns the
 * plan (advisor_plan_free()); devs, disks and set must outlive it.
 * -EINVAL with a message in err when an option is wrong (a need naming no
 * policy), -ENOMEM.
 */
int advisor_plan_make(const struct profile_device *const *devs,
		      const struct advisor_disk *const *disks, size_t n,
		      const struct model_policy_set *set,
		      const struct advisor_options *opt,
		      struct advisor_plan **out, char *err, size_t errlen);

/* Free a plan.  NULL-safe. */
void advisor_plan_free(struct advisor_plan *plan);

/* The policies of tier t with a need above 0, the largest first (ties in
 * the tier's order), as indices into t->policies in idx (max at most);
 * their count.  What its need is made of, for the renderers. */
size_t advisor_need_order(const struct advisor_plan_tier *t, size_t *idx, size_t max);

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
