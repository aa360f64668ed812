/* plan_notes.c — the plan's notes and its warnings on the devices it
 * leaves out: short by (and what would meet it), failure domain, media
 * class, no HDD for cold, namespaces of one drive, zoned devices
 * (see plan_priv.h).
 */
#include "plan_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The model to buy more of for tier t: its leading device's when priced,
 * else the best-scoring priced device of the profiles the tier may take (no
 * warning against it there, the tier's media class).  -1 when none.
 */
static ptrdiff_t model_to_add(const struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	ptrdiff_t best = -1;

	if (t->n_devices && !isnan(model_device_price(plan->devs[t->devices[0]].p)))
		return (ptrdiff_t)t->devices[0];
	for (size_t i = 0; i < plan->n_devs; i++) {
		const struct advisor_plan_device *pd = &plan->devs[i];
		bool hdd = pd->p->rotational || pd->p->media == PROFILE_MEDIA_HDD;

		if (pd->excluded || isnan(pd->tier_score[t->tier]) ||
		    isnan(model_device_price(pd->p)) || advisor_objections(plan, i, (int)t->tier))
			continue;
		if (t->n_devices && hdd != (plan->devs[t->devices[0]].p->rotational ||
					    plan->devs[t->devices[0]].p->media == PROFILE_MEDIA_HDD))
			continue;
		if (best < 0 || pd->tier_score[t->tier] > plan->devs[best].tier_score[t->tier])
			best = (ptrdiff_t)i;
	}
	return best;
}

/* With prices: how many more of which model would meet the shortfall. */
static int short_buy_note(struct advisor_plan *plan, struct advisor_plan_tier *t, double shortfall)
{
	ptrdiff_t d = plan->buying ? -1 : model_to_add(plan, t);
	double each, price, k;
	char cap[32];

	if (d < 0)
		return 0;
	each = advisor_usable(plan, (size_t)d);
	price = model_device_price(plan->devs[d].p);
	k = ceil(shortfall / each);
	if (t->redundancy == MODEL_REDUNDANCY_REQUIRED)
		k *= 2;	/* mirrored: two for one */
	advisor_fmt_bytes(cap, sizeof(cap), (double)plan->devs[d].p->capacity_bytes);
	return tw_strv_addf(&t->notes, &t->n_notes,
			     "to meet it: %.0f more %s (%s, %.0f each: %.0f in all)%s", k,
			     plan->devs[d].p->model ? plan->devs[d].p->model : plan->devs[d].p->id,
			     cap, price, k * price,
			     t->redundancy == MODEL_REDUNDANCY_REQUIRED ? ", mirrored in pairs" : "");
}

int advisor_need_note(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	char need[32], have[32], shortby[32], names[256];

	if (t->need_bytes <= 0 || t->usable_bytes >= t->need_bytes)
		return 0;
	advisor_need_names(t, names, sizeof(names));
	advisor_fmt_bytes(need, sizeof(need), (double)t->need_bytes);
	advisor_fmt_bytes(have, sizeof(have), (double)t->usable_bytes);
	advisor_fmt_bytes(shortby, sizeof(shortby), (double)(t->need_bytes - t->usable_bytes));
	if (advisor_warn(plan, -1, "need", "%s tier: %s needs %s, only %s usable (%.0f %% of the "
		      "capacity of its devices, the rest kept free): short by %s; the plan does "
		      "not meet this need", advisor_tier_name(t->tier), names, need, have,
		      plan->fill * 100, shortby) < 0)
		return -ENOMEM;
	if (tw_strv_addf(&t->notes, &t->n_notes,
			 "%s needs %s, %s available (%.0f %% of the capacity of its "
			 "devices, the rest kept free): short by %s", names, need, have,
			 plan->fill * 100, shortby) < 0)
		return -ENOMEM;
	return short_buy_note(plan, t, (double)(t->need_bytes - t->usable_bytes));
}

/* A tier with a need and no device of its own (share_tier): a directory on
 * another tier's device holds nothing of the need; a binding warning. */
int advisor_shared_need_note(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	const struct advisor_plan_device *on;
	char need[32], names[256];

	if (!t->shared || t->need_bytes <= 0 || t->shared_dev < 0)
		return 0;
	on = &plan->devs[t->shared_dev];
	advisor_need_names(t, names, sizeof(names));
	advisor_fmt_bytes(need, sizeof(need), (double)t->need_bytes);
	return advisor_warn(plan, -1, "need", "%s tier: %s needs %s and has no device of its "
			    "own: a directory on %s, which the %s tier holds (%s), shares its "
			    "space; the plan does not meet this need", advisor_tier_name(t->tier),
			    names, need, on->p->id, advisor_tier_name(on->tier),
			    plan->mount_point[on->tier]) < 0 ? -ENOMEM : 0;
}

/* The tier's policies wanting level r or more, "a + b" (those with a need). */
static void wanting(const struct advisor_ctx *c, const struct advisor_plan_tier *t,
		    enum model_redundancy r, bool refetchable, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t k = 0; k < t->n_policies && at < len; k++) {
		const struct model_policy *p = t->policies[k];

		if (advisor_policy_need(c, p) == 0 || (refetchable ? !p->refetchable : p->redundancy < r))
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " + " : "", p->name);
	}
}

/* Does the tier's storage survive one failed device?  Only when all of it
 * is one mirror or parity array. */
static bool survives_one(const struct advisor_plan_tier *t)
{
	return t->raid.level != ADVISOR_RAID_NONE && t->raid.level != ADVISOR_RAID0 &&
	       t->raid.n == t->n_devices && !(t->volume.n > 1);
}

/*
 * The tier's failure domain: how many devices, what one failure loses, and
 * what its policies ask (redundancy none / preferred / required, data that
 * can or cannot be fetched again).
 */
int advisor_failure_note(const struct advisor_ctx *c, struct advisor_plan_tier *t)
{
	char what[256], pref[256], refetch[256];
	const bool ok = survives_one(t);

	if (!t->n_devices && t->redundancy == MODEL_REDUNDANCY_REQUIRED && t->need_bytes > 0) {
		wanting(c, t, MODEL_REDUNDANCY_REQUIRED, false, pref, sizeof(pref));
		return tw_strv_addf(&t->notes, &t->n_notes,
				     "redundancy required by %s: only a mirror or parity array of two "
				     "or more like devices (same model and size) may hold it, and no "
				     "such devices are free for it", pref);
	}
	if (!t->n_devices)
		return 0;
	if (t->n_devices == 1)
		snprintf(what, sizeof(what), "one device: its failure loses all of the tier");
	else if (ok)
		snprintf(what, sizeof(what), "%zu devices in md %s: survives one failed device",
			 t->n_devices, advisor_raid_name(t->raid.level));
	else if (t->volume.n > 1 && t->raid.level != ADVISOR_RAID_NONE &&
		 t->raid.level != ADVISOR_RAID0)
		snprintf(what, sizeof(what), "%zu devices in one %s volume, %s (md %s) inside: "
			 "one failed device outside %s loses all of it", t->n_devices,
			 t->volume.striped ? "striped" : "linear", t->raid.name,
			 advisor_raid_name(t->raid.level), t->raid.name);
	else if (t->volume.n > 1)
		snprintf(what, sizeof(what), "%zu devices in one %s volume: one failed device "
			 "loses all of it", t->n_devices, t->volume.striped ? "striped" : "linear");
	else if (t->raid.level == ADVISOR_RAID0 && t->raid.n == t->n_devices)
		snprintf(what, sizeof(what), "%zu devices in md raid0: one failed device loses "
			 "all of it", t->n_devices);
	else
		snprintf(what, sizeof(what), "%zu devices%s: one failed device loses what is on it%s",
			 t->n_devices, t->raid.level == ADVISOR_RAID0 ? ", md raid0 among them" : "",
			 t->raid.level == ADVISOR_RAID0 ? " (all of the array for one of it)" : "");
	wanting(c, t, MODEL_REDUNDANCY_PREFERRED, false, pref, sizeof(pref));
	wanting(c, t, MODEL_REDUNDANCY_NONE, true, refetch, sizeof(refetch));
	if (ok)
		return tw_strv_addf(&t->notes, &t->n_notes, "failure domain: %s", what);
	if (t->redundancy == MODEL_REDUNDANCY_REQUIRED)
		return tw_strv_addf(&t->notes, &t->n_notes,
				     "failure domain: %s; redundancy required by %s: a mirror needs "
				     "two like devices (same model and size), so this storage holds "
				     "none of that need", what, pref);
	if (t->redundancy == MODEL_REDUNDANCY_PREFERRED)
		return tw_strv_addf(&t->notes, &t->n_notes,
				     "failure domain: %s; no redundancy, wanted by %s (data with no "
				     "other copy): %s; until then back it up%s%s%s", what, pref,
				     t->raid.level == ADVISOR_RAID0 ? "mirrored, its like devices would "
				     "not hold the need: add capacity to mirror them" :
				     t->raid.refused ? "mirrored, its devices would not hold the need "
				     "at the smallest's size: add capacity to mirror them" :
				     "a mirror needs a second device of its media class (md mirrors "
				     "unlike ones at the smaller size)",
				     refetch[0] ? "; " : "", refetch,
				     refetch[0] ? " can be downloaded again" : "");
	return tw_strv_addf(&t->notes, &t->n_notes, "failure domain: %s; no redundancy: %s",
			    what, t->refetchable ? "what it holds can be downloaded again"
						 : "its policies ask none; keep a copy elsewhere");
}

static const char *class_name(int c)
{
	return c == ADVISOR_CLASS_HDD ? "hard disks" : c == ADVISOR_CLASS_SCM ?
	       "storage-class memory" : "NAND flash";
}

/*
 * The device that scores best for a tier with a need, left out of it
 * because of its media class: why (it alone cannot hold the need, and a
 * tier never mixes classes) and where it went.
 */
int advisor_class_note(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	ptrdiff_t top = -1;
	int tc, dc;
	char cap[32], need[32];

	if (t->need_bytes <= 0 || !t->n_devices)
		return 0;
	for (size_t i = 0; i < plan->n_devs; i++)
		if (!plan->devs[i].excluded && !isnan(plan->devs[i].tier_score[t->tier]) &&
		    !advisor_objections(plan, i, (int)t->tier) &&
		    (top < 0 || plan->devs[i].tier_score[t->tier] >
				plan->devs[top].tier_score[t->tier]))
			top = (ptrdiff_t)i;
	if (top < 0 || plan->devs[top].tier == (int)t->tier || plan->buying ||
	    advisor_usable(plan, (size_t)top) >= (double)t->need_bytes)
		return 0;	/* not kept out by its class alone */
	tc = advisor_media_class(plan->devs[t->devices[0]].p, (int)t->tier);
	dc = advisor_media_class(plan->devs[top].p, (int)t->tier);
	if (tc == dc)
		return 0;
	advisor_fmt_bytes(cap, sizeof(cap), advisor_usable(plan, (size_t)top));
	advisor_fmt_bytes(need, sizeof(need), (double)t->need_bytes);
	return tw_strv_addf(&t->notes, &t->n_notes,
			     "%s scores best for the %s tier (%.1f), but its %s usable cannot "
			     "hold the %s need alone, and a tier never mixes %s with %s (its reads "
			     "would run at either speed by chance): the %s tier is %s%s%s%s",
			     plan->devs[top].p->id, advisor_tier_name(t->tier),
			     plan->devs[top].tier_score[t->tier], cap, need, class_name(dc),
			     class_name(tc), advisor_tier_name(t->tier), class_name(tc),
			     plan->devs[top].tier >= 0 ? "; " : "",
			     plan->devs[top].tier >= 0 ? plan->devs[top].p->id : "",
			     plan->devs[top].tier >= 0 ? (plan->devs[top].tier == ADVISOR_HOT ?
			     " serves the hot tier" : plan->devs[top].tier == ADVISOR_WARM ?
			     " serves the warm tier" : " serves the cold tier") : "");
}

/* No HDD in the cold tier: say what holds it instead. */
int advisor_cold_note(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	bool hdd = false;

	if (t->tier != ADVISOR_COLD || !t->n_devices)
		return 0;
	for (size_t k = 0; k < plan->n_devs; k++)
		if (plan->devs[k].p->media == PROFILE_MEDIA_HDD || plan->devs[k].p->rotational)
			hdd = true;
	if (hdd)
		return 0;
	return tw_strv_addf(&t->notes, &t->n_notes,
			     "no HDD: the cold tier goes to %s, the best remaining device for "
			     "cost per TB and capacity", plan->devs[t->devices[0]].p->id);
}

/* A device that is not a fixed disk: left out, or in because it was named. */
static int class_warning(struct advisor_plan *plan, size_t i)
{
	const struct advisor_plan_device *pd = &plan->devs[i];
	bool ro = !strcmp(pd->cls, "read-only") || !strcmp(pd->cls, "boot-area");

	if (pd->named)
		return advisor_warn(plan, (ptrdiff_t)i, "removable",
				 "%s: %s, no fixed disk: in the plan only because "
				 "--include-removable names it; it can be unplugged or ejected",
				 pd->p->id, pd->cls_why);
	if (ro)
		return advisor_warn(plan, (ptrdiff_t)i, "read-only",
				 "%s: %s, no fixed disk: left out of the plan; it cannot hold "
				 "a tier", pd->p->id, pd->cls_why);
	return advisor_warn(plan, (ptrdiff_t)i, "removable",
			 "%s: %s, no fixed disk: left out of the plan; "
			 "--include-removable=%s uses it", pd->p->id, pd->cls_why, pd->p->id);
}

int advisor_data_warnings(struct advisor_plan *plan)
{
	int ret = 0;

	for (size_t i = 0; i < plan->n_devs && !ret; i++) {
		const struct advisor_plan_device *pd = &plan->devs[i];

		if (advisor_volatile(pd->p))
			ret = advisor_warn(plan, (ptrdiff_t)i, "volatile",
					"%s is RAM-backed (%s): what it holds is gone at reboot; left "
					"out of the plan (a swap or cache device, never a tier)",
					pd->p->id, profile_transport_name(pd->p->transport));
		else if (pd->cls && !(pd->named && pd->excluded))
			ret = class_warning(plan, i);
		else if (pd->excluded)
			ret = advisor_warn(plan, (ptrdiff_t)i, "data",
					"%s holds data (%s) that is no filesystem to keep: left out of "
					"the plan; tierwise never proposes to reformat it",
					pd->p->id, pd->disk->n_holders ? "in use by another device"
					: pd->disk->fstype ? pd->disk->fstype : "partitions");
		else if (pd->tier >= 0 && pd->has_data && !(pd->disk && pd->disk->root))
			ret = advisor_warn(plan, (ptrdiff_t)i, "data",
					"%s already holds a filesystem: re-used as it is, not "
					"reformatted", pd->p->id);
	}
	return ret;
}

/* Is device i placed (in a tier, not left out)? */
static bool placed(const struct advisor_plan *plan, size_t i)
{
	return !plan->devs[i].excluded && plan->devs[i].tier >= 0;
}

/*
 * The note on the placed devices of device i's drive (i the first of them):
 * a tier note when they share a tier, else a plan note naming each one's
 * tier.  Nothing when i's drive has no other placed device.
 * Returns 0 or -ENOMEM.
 */
static int drive_note(struct advisor_plan *plan, size_t i)
{
	const struct profile_device *p = plan->devs[i].p;
	const int t = plan->devs[i].tier;
	size_t idx[64], n = 0;
	bool one_tier = true;
	char list[768] = "";
	size_t at = 0;

	idx[n++] = i;
	for (size_t j = i + 1; j < plan->n_devs && n < ARRAY_SIZE(idx); j++)
		if (placed(plan, j) && advisor_one_drive(p, plan->devs[j].p)) {
			idx[n++] = j;
			one_tier = one_tier && plan->devs[j].tier == t;
		}
	if (n < 2)
		return 0;
	for (size_t k = 0; k < n && at < sizeof(list); k++) {
		const struct advisor_plan_device *pd = &plan->devs[idx[k]];

		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s%s%s%s",
				       !k ? "" : k + 1 < n ? ", " : " and ", pd->p->id,
				       one_tier ? "" : " (", one_tier ? "" : advisor_tier_name(pd->tier),
				       one_tier ? "" : ")");
	}
	if (one_tier)
		return tw_strv_addf(&plan->tiers[t].notes, &plan->tiers[t].n_notes,
				     "%s are namespaces of one drive (%s %s): they share its flash, "
				     "link and heat, so no array or volume spans two of them (neither "
				     "redundancy nor bandwidth gained); its failure loses all of them",
				     list, strncmp(p->drive_id, "nqn.", 4) ? "serial" : "NQN",
				     p->drive_id);
	return tw_strv_addf(&plan->notes, &plan->n_notes,
			     "%s are namespaces of one drive (%s %s): they share its flash, link "
			     "and heat, so load on one tier slows the other, and the drive's "
			     "failure hits every tier on it", list,
			     strncmp(p->drive_id, "nqn.", 4) ? "serial" : "NQN", p->drive_id);
}

/* A note per drive whose namespaces the plan placed (two or more). */
int advisor_drive_notes(struct advisor_plan *plan)
{
	int ret = 0;

	for (size_t i = 0; i < plan->n_devs && !ret; i++) {
		bool first = placed(plan, i) && plan->devs[i].p->drive_id;

		for (size_t k = 0; first && k < i; k++)
			first = !(placed(plan, k) && advisor_one_drive(plan->devs[k].p, plan->devs[i].p));
		if (first)
			ret = drive_note(plan, i);
	}
	return ret;
}

/*
 * A tier note per host-managed zoned device placed beside other devices of
 * its tier whose tier has an array or a volume: it stays a mount of its own,
 * since neither md nor LVM takes a zoned device (raid.c, volume.c).
 * Returns 0 or -ENOMEM.
 */
int advisor_zoned_notes(struct advisor_plan *plan)
{
	int ret = 0;

	for (size_t i = 0; i < plan->n_devs && !ret; i++) {
		const struct advisor_plan_tier *t;

		if (!placed(plan, i) || !advisor_host_managed(plan->devs[i].p))
			continue;
		t = &plan->tiers[plan->devs[i].tier];
		if (t->n_devices < 2)
			continue;
		ret = tw_strv_addf(&plan->tiers[plan->devs[i].tier].notes,
				   &plan->tiers[plan->devs[i].tier].n_notes,
				   "%s is host-managed zoned: a filesystem of its own (btrfs in "
				   "zoned mode), in no md array or LVM volume, which take no "
				   "zoned device", plan->devs[i].p->id);
	}
	return ret;
}
