/* plan_priv.h — helpers shared by the advisor's sources (not public); the
 * leaf ones (strings, warnings, bytes, signatures) live in plan_util.c. */
#ifndef TW_PLAN_PRIV_H
#define TW_PLAN_PRIV_H

#include <stdarg.h>
#include <stdbool.h>

#include "plan.h"
#include "tw_util.h"

/* Append a warning (message formatted).  Returns 0 or -ENOMEM. */
int advisor_warn(struct advisor_plan *plan, ptrdiff_t dev, const char *kind,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "12.0 TB", "894 GB": decimal units, for messages (tw_fmt_bytes). */
void advisor_fmt_bytes(char *buf, size_t len, double bytes);

/* The default mount point of each tier: /srv/vector-db, /srv/models,
 * /srv/archive (under advisor_options.mount_base, the last component). */
extern const char *const advisor_default_point[TW_TIER_COUNT];

/*
 * Is a signature (libblkid TYPE) a filesystem one could mount and keep
 * using?  False for LVM/md/ZFS members, swap, LUKS, bcache …
 */
bool advisor_is_filesystem(const char *fstype);

/*
 * Judge what a device is: cls and cls_why when it is not a fixed disk (from
 * its inventory class, else its profile media), named when opt includes it
 * anyway (include_removable; read-only devices and boot areas never).
 */
void advisor_judge_class(struct advisor_plan_device *pd, const struct advisor_options *opt);

/* Judge a device's inventory facts: has_data, reusable (see plan.h). */
void advisor_judge_disk(struct advisor_plan_device *pd);

/* Is d RAM-backed (zram, brd): whatever is stored there is gone at reboot? */
bool advisor_volatile(const struct profile_device *d);

/* ---- the policies of each tier, device scores (plan_score.c) ---- */

/* What advisor_plan_make() works with. */
struct advisor_ctx {
	struct advisor_plan *plan;
	const struct model_policy_set *set;
	const struct advisor_options *opt;
	int64_t *need;		/* per policy in set order, -1 = none */
	bool *given;		/* per policy: its need came from the options */
};

/* The need of policy p (c->need), -1 when none or p is not in the set. */
int64_t advisor_policy_need(const struct advisor_ctx *c, const struct model_policy *p);

/* c->need: the policies' need_bytes, overridden by the options (caller
 * frees c->need).  Returns 0, -ENOMEM, or -EINVAL with a message in err
 * when an option names no policy. */
int advisor_resolve_needs(struct advisor_ctx *c, char *err, size_t errlen);

/* Tier t's policies, need, what they want (redundancy, refetchable, writes)
 * and so its array rule.  Returns 0 or -ENOMEM. */
int advisor_collect_policies(struct advisor_ctx *c, struct advisor_plan_tier *t);

/* Device i's score in tier t (c->plan->devs[i].tier_score, why_not).
 * Returns 0 or -ENOMEM. */
int advisor_score_tier(struct advisor_ctx *c, size_t i, struct advisor_plan_tier *t);

/* ---- notes (plan_notes.c); each returns 0 or -ENOMEM ---- */

/* Tier t short of its need: a warning, a note, and with prices what would
 * meet it. */
int advisor_need_note(struct advisor_plan *plan, struct advisor_plan_tier *t);

/* What a measured figure can tell apart, as a share of it: the ± band the
 * probe reached for it, or one I/O of those counted, whichever is wider; 0
 * for a figure with neither (catalog data).  raid.c. */
double advisor_io_resolution(const struct profile_io *io);
int advisor_shared_need_note(struct advisor_plan *plan, struct advisor_plan_tier *t);

/* Tier t's failure domain against what its policies ask. */
int advisor_failure_note(const struct advisor_ctx *c, struct advisor_plan_tier *t);

/* The best device for tier t kept out of it by its media class alone. */
int advisor_class_note(struct advisor_plan *plan, struct advisor_plan_tier *t);

/* No HDD in the cold tier: what holds it instead. */
int advisor_cold_note(struct advisor_plan *plan, struct advisor_plan_tier *t);

/* Warnings on devices left out (RAM-backed, no fixed disk, data to keep)
 * or re-used as they are. */
int advisor_data_warnings(struct advisor_plan *plan);

/* A note per drive whose namespaces the plan placed (two or more). */
int advisor_drive_notes(struct advisor_plan *plan);

/* A tier note per host-managed zoned device beside others in its tier. */
int advisor_zoned_notes(struct advisor_plan *plan);

/* ---- estimates (plan_estimate.c) ---- */

/* Tier t's estimates, of what is built: its array, volume or devices.
 * Returns 0 or -ENOMEM. */
int advisor_tier_estimates(struct advisor_plan *plan, struct advisor_plan_tier *t);

/*
 * Group like devices of tier t into an md array (tier->raid), with the
 * estimates recomputed for it; failing that, when the tier's policies want
 * redundancy (advisor_redundant_rule), its mirror mates at the smallest's
 * size (tier->raid.unlike, said in a note).  Returns 0 or -ENOMEM.
 */
int advisor_raid_make(struct advisor_plan *plan, struct advisor_plan_tier *tier);

/* Could a and b form an md array: both new, not the root disk, and like
 * devices (same model, figures within raid.c's tolerance), not two
 * namespaces of one drive (advisor_one_drive)? */
bool advisor_alike(const struct advisor_plan_device *a, const struct advisor_plan_device *b);

/* Could a and b mirror each other in tier t: both new, not the root disk,
 * one media class there (advisor_media_class), not two namespaces of one
 * drive?  Like or unlike: md uses each at the smaller size. */
bool advisor_mirror_mates(const struct advisor_plan_device *a,
			  const struct advisor_plan_device *b, int t);

/* Does tier t build mirror or parity arrays: its policies want redundancy
 * (preferred or required) and its rule is not a stripe? */
bool advisor_redundant_rule(const struct advisor_plan_tier *t);

/* Do devices a and b (plan->devs indices) share a measured bottleneck, one
 * of the profiles' links? */
bool advisor_share_link(const struct advisor_plan *plan, size_t a, size_t b);

/*
 * Of the devices idx[0..n), two that sit under one PCIe bridge (a switch:
 * their links' upstream lists meet) and share no measured link: that
 * bridge's address, the two in *a and *b; NULL when none.  What its uplink
 * carries is not in the profile: an array or volume over both assumes it
 * carries their sum, and says so.
 */
const char *advisor_unmeasured_bridge(const struct advisor_plan *plan, const size_t *idx,
				      size_t n, size_t *a, size_t *b);

/* ---- md levels (raid_level.c) ---- */

/* The level of an array of n like devices built by rule r in tier t. */
enum advisor_raid_level advisor_array_level(enum advisor_array_rule r, int t, size_t n);

/* Data-bearing members of an array of level l and n members: how many
 * disks' worth of bandwidth and capacity (RAID0 n, RAID10 n / 2, RAID5
 * n − 1, RAID6 n − 2, else 1). */
size_t advisor_raid_level_data_disks(enum advisor_raid_level l, size_t n);

/* ---- what the warnings keep a device off (warn.c) ---- */

/* Warnings that bind the optimiser: a device is kept off a tier by them. */
enum advisor_objection {
	ADVISOR_OBJ_WRITE_TRAP = 1u << 0,	/* write-trap: tiers that write */
	ADVISOR_OBJ_HEAT = 1u << 1,	/* heat under load, throttling: tiers that write */
	ADVISOR_OBJ_HEALTH = 1u << 2,	/* worn or failing: tiers holding the only copy */
	ADVISOR_OBJ_HDD = 1u << 3,		/* a hard disk: the latency and loading tiers */
	ADVISOR_OBJ_USB = 1u << 4,		/* a USB bridge: the latency tier */
	ADVISOR_OBJ_COUNT_BITS = 5
};

/*
 * The objections of the warnings against device d in tier t (a mask of
 * enum advisor_objection; 0 = none), from d's figures and the tier's
 * policies (plan->tiers[t].writes, refetchable).  Pure.
 */
unsigned advisor_objections(const struct advisor_plan *plan, size_t d, int t);

/* "an OEM write trap", "heat under load", …: one objection bit in words. */
const char *advisor_objection_text(unsigned bit);

/*
 * Soft costs of the warnings: the factor (≤ 1) on device d's score in tier
 * t for figures the plan cannot trust in full — write figures from a burst
 * only, a cache cliff — in a tier that writes.  1 when none.
 */
double advisor_objection_cost(const struct advisor_plan *plan, size_t d, int t);

/* ---- devices, drives and tiers (plan_util.c) ---- */

/*
 * The media class of a device in tier t: a tier never mixes hard disks
 * with solid state, and in the latency tier (hot) never storage-class
 * memory (3D XPoint) with NAND: its reads would run at either speed by
 * chance.  ADVISOR_CLASS_SSD (NAND, unknown), _HDD, _SCM (only in hot).
 */
enum { ADVISOR_CLASS_SSD, ADVISOR_CLASS_HDD, ADVISOR_CLASS_SCM };
int advisor_media_class(const struct profile_device *p, int t);

/* Usable bytes of device i: its capacity × plan->fill (1 when unknown). */
double advisor_usable(const struct advisor_plan *plan, size_t i);

/* Are a and b two devices of one physical drive (namespaces of one NVMe
 * drive): distinct, with one non-null drive_id?  They share its flash, link
 * and heat: an array or volume over both gains neither redundancy nor
 * bandwidth. */
bool advisor_one_drive(const struct profile_device *a, const struct profile_device *b);

/* Is p a host-managed zoned device (the profile's zoned block)?  It takes
 * only zone-sequential writes: no ext4/XFS, and neither md nor LVM takes it. */
bool advisor_host_managed(const struct profile_device *p);

/* Does another device placed in tier t (devs[].tier) share device d's drive? */
bool advisor_drive_in_tier(const struct advisor_plan *plan, size_t d, int t);

/* Is device d a member of tier t's array (a level other than none)? */
bool advisor_in_raid(const struct advisor_plan_tier *t, size_t d);

/* The names of tier t's policies with a need (not in t->off), "a + b",
 * into buf (always terminated; cut at len). */
void advisor_need_names(const struct advisor_plan_tier *t, char *buf, size_t len);

/* ---- the optimiser bridge (plan_opt.c) ---- */

/*
 * Solve the assignment for plan->devs (tier scores set, excluded judged):
 * every device's tier, the plan's score, bounds, runner-up and the notes of
 * what was traded or placed despite a warning.  Returns 0 or -ENOMEM.
 */
int advisor_run_optimizer(struct advisor_plan *plan, const struct advisor_options *opt);

/* ---- one volume per tier (volume.c) ---- */

/*
 * The tier's LVM volume over its md array and blank devices outside it, when
 * there are two or more (tier->volume), linear or striped, and a note on
 * which policy's data goes where.  Returns 0 or -ENOMEM.
 */
int advisor_volume_make(struct advisor_plan *plan, struct advisor_plan_tier *t);

/* Free what a volume owns.  NULL-safe. */
void advisor_volume_clear(struct advisor_volume *v);

/* ---- buying (buy.c) ---- */

/*
 * The stock for --buy: max_each copies of each catalog entry with a price
 * (plan->stock, plan->origin), *out the pointers to them for the plan (the
 * caller frees the array), and a plan note naming the entries not for sale.
 * Returns 0 or -ENOMEM.
 */
int advisor_buy_stock(struct advisor_plan *plan, const struct profile_device *const *devs,
		      size_t n, unsigned max_each, const struct profile_device ***out,
		      size_t *n_out);

/* Count the copies in each tier into plan->buy, and a note per tier on its
 * leading model against the best cheaper one.  Returns 0 or -ENOMEM. */
int advisor_buy_list(struct advisor_plan *plan);

/* Free the stock and the buy list. */
void advisor_buy_clear(struct advisor_plan *plan);

/* Free what a raid suggestion owns.  NULL-safe. */
void advisor_raid_clear(struct advisor_raid *r);

#endif
