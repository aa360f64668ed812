/* plan.c — advisor_plan_make(): scores per tier, the optimum, fall-backs,
 * notes, then arrays, estimates, warnings and mounts (see plan.h).
 */
#include "plan_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_FILL 0.8

void plan_judge_disk(struct advisor_plan_device *pd)
{
	const struct advisor_disk *k = pd->disk;

	pd->has_data = pd->reusable = false;
	if (!k)
		return;
	pd->has_data = k->fstype || k->pttype || k->n_mounts || k->n_holders ||
		       k->n_parts || k->swap;
	if (k->n_holders || k->swap)
		return;		/* in use by md/dm or swap: not ours to reuse */
	if (k->fstype && k->uuid && plan_is_filesystem(k->fstype))
		pd->reusable = true;
	for (size_t i = 0; i < k->n_parts; i++)
		if (k->parts[i].fstype && k->parts[i].uuid &&
		    plan_is_filesystem(k->parts[i].fstype))
			pd->reusable = true;
}

/* RAM-backed (zram, brd): whatever is stored there is gone at reboot. */
static bool volatile_dev(const struct profile_device *d)
{
	return d->media == PROFILE_MEDIA_RAM || d->transport == PROFILE_TR_ZRAM;
}

/* ---- scores per tier -------------------------------------------------- */

struct ctx {
	struct advisor_plan *plan;
	const struct model_policy_set *set;
	const struct advisor_options *opt;
	int64_t *need;		/* per policy in set order, -1 = none */
};

static int64_t policy_need(const struct ctx *c, const struct model_policy *p)
{
	for (size_t i = 0; i < c->set->n; i++)
		if (c->set->v[i] == p)
			return c->need[i];
	return -1;
}

/* Needs: the policies' need_bytes, overridden by the options. */
static int resolve_needs(struct ctx *c, char *err, size_t errlen)
{
	c->need = calloc(c->set->n ? c->set->n : 1, sizeof(*c->need));
	if (!c->need)
		return -ENOMEM;
	for (size_t i = 0; i < c->set->n; i++)
		c->need[i] = c->set->v[i]->need_bytes;
	for (size_t j = 0; c->opt && j < c->opt->n_needs; j++) {
		const struct advisor_need *nd = &c->opt->needs[j];
		size_t i;

		for (i = 0; i < c->set->n; i++)
			if (!strcmp(c->set->v[i]->name, nd->policy))
				break;
		if (i == c->set->n) {
			snprintf(err, errlen, "--need %s: no policy of that name", nd->policy);
			return -EINVAL;
		}
		c->need[i] = nd->bytes;
	}
	return 0;
}

/* Does policy p score a write figure (the workload writes)? */
static bool policy_writes(const struct model_policy *p)
{
	static const char *const prefixes[] = { "seq_write.", "sustained_write.", "mixed_70_30." };

	for (size_t k = 0; k < p->n_metrics; k++)
		for (size_t j = 0; j < ARRAY_SIZE(prefixes); j++)
			if (p->metrics[k].weight > 0 &&
			    !strncmp(p->metrics[k].desc->path, prefixes[j], strlen(prefixes[j])))
				return true;
	return false;
}

/*
 * What the tier's policies want (those with a need other than 0; all of them
 * when none has one: a spare tier holds what they say): the most redundancy
 * any asks, whether all
 * their data can be fetched again, whether any writes; and so how its like
 * devices form an array: striped when none wants redundancy, else mirrored
 * (hot, warm) or with parity (cold).
 */
static void tier_redundancy(const struct ctx *c, struct advisor_plan_tier *t)
{
	bool any = false;

	for (size_t k = 0; k < t->n_policies; k++)
		any = any || policy_need(c, t->policies[k]) != 0;
	t->refetchable = true;
	t->redundancy = MODEL_REDUNDANCY_NONE;
	for (size_t k = 0; k < t->n_policies; k++) {
		const struct model_policy *p = t->policies[k];

		if (any && policy_need(c, p) == 0)	/* not on this server */
			continue;
		t->refetchable = t->refetchable && p->refetchable;
		if (p->redundancy > t->redundancy)
			t->redundancy = p->redundancy;
		t->writes = t->writes || policy_writes(p);
	}
	if (t->redundancy == MODEL_REDUNDANCY_NONE)
		t->rule = ADVISOR_ARRAY_STRIPE;
	else if (advisor_array_rule_of(ADVISOR_ARRAY_BY_TIER, (int)t->tier) == ADVISOR_ARRAY_STRIPE)
		t->rule = ADVISOR_ARRAY_MIRROR;
	else
		t->rule = ADVISOR_ARRAY_BY_TIER;
}

static int collect_policies(struct ctx *c, struct advisor_plan_tier *t)
{
	const char *name = advisor_tier_name(t->tier);

	t->policies = calloc(c->set->n ? c->set->n : 1, sizeof(*t->policies));
	if (!t->policies)
		return -ENOMEM;
	t->need_bytes = -1;
	for (size_t i = 0; i < c->set->n; i++) {
		const struct model_policy *p = c->set->v[i];

		if (strcmp(p->tier, name))
			continue;
		if (c->need[i] == 0 && t->n_policies < 64)
			t->off |= 1ull << t->n_policies;
		t->policies[t->n_policies++] = p;
		if (c->need[i] >= 0)
			t->need_bytes = (t->need_bytes < 0 ? 0 : t->need_bytes) + c->need[i];
	}
	tier_redundancy(c, t);
	return 0;
}

/*
 * The tier score of device i: the mean of its policy scores weighted by
 * each policy's need (equal weights when none has a need); NAN when the
 * device fails a hard constraint of any policy of the tier.
 */
static int score_tier(struct ctx *c, size_t i, struct advisor_plan_tier *t)
{
	struct advisor_plan_device *pd = &c->plan->devs[i];
	double sum = 0.0, wsum = 0.0;

	for (size_t k = 0; k < t->n_policies; k++) {
		const struct model_policy *p = t->policies[k];
		int64_t need = policy_need(c, p);
		double w = need > 0 ? (double)need : 1.0;
		struct model_score s;

		if (model_score_device(p, pd->p, &s))
			return -ENOMEM;
		if (!s.eligible || isnan(s.score)) {
			if (!pd->why_not[t->tier] &&
			    asprintf(&pd->why_not[t->tier], "%s: %s", p->name,
				     s.n_failed ? s.failed[0].msg : "no weighted metric measured") < 0)
				pd->why_not[t->tier] = NULL;
			model_score_clear(&s);
			pd->tier_score[t->tier] = NAN;
			return 0;
		}
		sum += w * s.score;
		wsum += w;
		model_score_clear(&s);
	}
	pd->tier_score[t->tier] = wsum > 0 ? sum / wsum : NAN;
	return 0;
}

/* ---- the assignment --------------------------------------------------- */

/* Tier members, best tier score first. */
static int fill_members(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	size_t n = 0;

	t->devices = calloc(plan->n_devs ? plan->n_devs : 1, sizeof(*t->devices));
	t->scores = calloc(plan->n_devs ? plan->n_devs : 1, sizeof(*t->scores));
	if (!t->devices || !t->scores)
		return -ENOMEM;
	for (size_t i = 0; i < plan->n_devs; i++) {
		double s;
		size_t j;

		if (plan->devs[i].tier != (int)t->tier)
			continue;
		s = plan->devs[i].tier_score[t->tier];
		for (j = n; j > 0 && t->scores[j - 1] < s; j--) {
			t->devices[j] = t->devices[j - 1];
			t->scores[j] = t->scores[j - 1];
		}
		t->devices[j] = i;
		t->scores[j] = s;
		t->usable_bytes += (int64_t)plan_usable(plan, i);
		n++;
	}
	t->n_devices = n;	/* t->score: the optimiser's tier quality */
	return 0;
}

/* ---- fall-backs and notes --------------------------------------------- */

/* A tier with no device of its own: directories on the best eligible one. */
static int share_tier(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	ptrdiff_t best = -1;
	const char *name = advisor_tier_name(t->tier);

	for (size_t i = 0; i < plan->n_devs; i++) {
		double s = plan->devs[i].tier_score[t->tier];

		if (plan->devs[i].excluded || isnan(s) || plan->devs[i].tier < 0)
			continue;
		if (best < 0 || s > plan->devs[best].tier_score[t->tier])
			best = (ptrdiff_t)i;
	}
	if (best < 0)
		return tw_strv_addf(&t->notes, &t->n_notes,
				     "no device can hold the %s tier: every candidate fails a "
				     "constraint of its policies (see `tierwise explain`)", name);
	t->shared = true;
	t->shared_dev = best;
	return tw_strv_addf(&t->notes, &t->n_notes,
			     "no device left for the %s tier: a directory on %s (%s tier), "
			     "score %.1f for %s", name, plan->devs[best].p->id,
			     advisor_tier_name(plan->devs[best].tier),
			     plan->devs[best].tier_score[t->tier], name);
}

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
		    isnan(model_device_price(pd->p)) || plan_objections(plan, i, (int)t->tier))
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
	each = plan_usable(plan, (size_t)d);
	price = model_device_price(plan->devs[d].p);
	k = ceil(shortfall / each);
	if (t->redundancy == MODEL_REDUNDANCY_REQUIRED)
		k *= 2;	/* mirrored: two for one */
	plan_fmt_bytes(cap, sizeof(cap), (double)plan->devs[d].p->capacity_bytes);
	return tw_strv_addf(&t->notes, &t->n_notes,
			     "to meet it: %.0f more %s (%s, %.0f each: %.0f in all)%s", k,
			     plan->devs[d].p->model ? plan->devs[d].p->model : plan->devs[d].p->id,
			     cap, price, k * price,
			     t->redundancy == MODEL_REDUNDANCY_REQUIRED ? ", mirrored in pairs" : "");
}

static int need_note(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	char need[32], have[32], shortby[32], names[256];

	if (t->need_bytes <= 0 || t->usable_bytes >= t->need_bytes)
		return 0;
	plan_need_names(t, names, sizeof(names));
	plan_fmt_bytes(need, sizeof(need), (double)t->need_bytes);
	plan_fmt_bytes(have, sizeof(have), (double)t->usable_bytes);
	plan_fmt_bytes(shortby, sizeof(shortby), (double)(t->need_bytes - t->usable_bytes));
	if (plan_warn(plan, -1, "need", "%s tier: %s needs %s, only %s usable (%.0f %% of the "
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

/* The tier's policies wanting level r or more, "a + b" (those with a need). */
static void wanting(const struct ctx *c, const struct advisor_plan_tier *t,
		    enum model_redundancy r, bool refetchable, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t k = 0; k < t->n_policies && at < len; k++) {
		const struct model_policy *p = t->policies[k];

		if (policy_need(c, p) == 0 || (refetchable ? !p->refetchable : p->redundancy < r))
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
static int failure_note(const struct ctx *c, struct advisor_plan_tier *t)
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
				     "not hold the need: add capacity to mirror them" : "a mirror needs "
				     "two like devices (same model and size)",
				     refetch[0] ? "; " : "", refetch,
				     refetch[0] ? " can be downloaded again" : "");
	return tw_strv_addf(&t->notes, &t->n_notes, "failure domain: %s; no redundancy: %s",
			    what, t->refetchable ? "what it holds can be downloaded again"
						 : "its policies ask none; keep a copy elsewhere");
}

static const char *class_name(int c)
{
	return c == PLAN_CLASS_HDD ? "hard disks" : c == PLAN_CLASS_SCM ?
	       "storage-class memory" : "NAND flash";
}

/*
 * The device that scores best for a tier with a need, left out of it
 * because of its media class: why (it alone cannot hold the need, and a
 * tier never mixes classes) and where it went.
 */
static int class_note(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	ptrdiff_t top = -1;
	int tc, dc;
	char cap[32], need[32];

	if (t->need_bytes <= 0 || !t->n_devices)
		return 0;
	for (size_t i = 0; i < plan->n_devs; i++)
		if (!plan->devs[i].excluded && !isnan(plan->devs[i].tier_score[t->tier]) &&
		    !plan_objections(plan, i, (int)t->tier) &&
		    (top < 0 || plan->devs[i].tier_score[t->tier] >
				plan->devs[top].tier_score[t->tier]))
			top = (ptrdiff_t)i;
	if (top < 0 || plan->devs[top].tier == (int)t->tier || plan->buying ||
	    plan_usable(plan, (size_t)top) >= (double)t->need_bytes)
		return 0;	/* not kept out by its class alone */
	tc = plan_media_class(plan->devs[t->devices[0]].p, (int)t->tier);
	dc = plan_media_class(plan->devs[top].p, (int)t->tier);
	if (tc == dc)
		return 0;
	plan_fmt_bytes(cap, sizeof(cap), plan_usable(plan, (size_t)top));
	plan_fmt_bytes(need, sizeof(need), (double)t->need_bytes);
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
static int cold_note(struct advisor_plan *plan, struct advisor_plan_tier *t)
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
		return plan_warn(plan, (ptrdiff_t)i, "removable",
				 "%s: %s, no fixed disk: in the plan only because "
				 "--include-removable names it; it can be unplugged or ejected",
				 pd->p->id, pd->cls_why);
	if (ro)
		return plan_warn(plan, (ptrdiff_t)i, "read-only",
				 "%s: %s, no fixed disk: left out of the plan; it cannot hold "
				 "a tier", pd->p->id, pd->cls_why);
	return plan_warn(plan, (ptrdiff_t)i, "removable",
			 "%s: %s, no fixed disk: left out of the plan; "
			 "--include-removable=%s uses it", pd->p->id, pd->cls_why, pd->p->id);
}

static int data_warnings(struct advisor_plan *plan)
{
	int ret = 0;

	for (size_t i = 0; i < plan->n_devs && !ret; i++) {
		const struct advisor_plan_device *pd = &plan->devs[i];

		if (volatile_dev(pd->p))
			ret = plan_warn(plan, (ptrdiff_t)i, "volatile",
					"%s is RAM-backed (%s): what it holds is gone at reboot; left "
					"out of the plan (a swap or cache device, never a tier)",
					pd->p->id, profile_transport_name(pd->p->transport));
		else if (pd->cls && !(pd->named && pd->excluded))
			ret = class_warning(plan, i);
		else if (pd->excluded)
			ret = plan_warn(plan, (ptrdiff_t)i, "data",
					"%s holds data (%s) that is no filesystem to keep: left out of "
					"the plan; tierwise never proposes to reformat it",
					pd->p->id, pd->disk->n_holders ? "in use by another device"
					: pd->disk->fstype ? pd->disk->fstype : "partitions");
		else if (pd->tier >= 0 && pd->has_data && !(pd->disk && pd->disk->root))
			ret = plan_warn(plan, (ptrdiff_t)i, "data",
					"%s already holds a filesystem: re-used as it is, not "
					"reformatted", pd->p->id);
	}
	return ret;
}

/* ---- estimates -------------------------------------------------------- */

/* Members differing by more than this show their best and worst. */
#define EST_SPREAD 1.2

/*
 * A unit of a tier's storage: its md array (dev -1) or one device outside
 * it; cap its usable bytes, v its value of the estimate being made.
 */
struct unit {
	ptrdiff_t dev;
	double cap, v;
};

/* The tier's units: the array first, then each device not in it. */
static size_t tier_units(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
			 struct unit *u)
{
	size_t n = 0;

	if (t->raid.level != ADVISOR_RAID_NONE)
		u[n++] = (struct unit){ -1, t->raid.capacity_bytes > 0 ?
					(double)t->raid.capacity_bytes : NAN, NAN };
	for (size_t k = 0; k < t->n_devices; k++) {
		size_t d = t->devices[k];

		if (!plan_in_raid(t, d))
			u[n++] = (struct unit){ (ptrdiff_t)d, plan_usable(plan, d) / plan->fill, NAN };
	}
	return n;
}

/* Estimate j of policy p on device d alone: NAN when not measured. */
static double dev_value(const struct model_policy *p, const struct profile_device *d, size_t j,
			int *err)
{
	struct model_score s;
	double v = NAN;

	if (model_score_device(p, d, &s)) {
		*err = -ENOMEM;
		return NAN;
	}
	if (j < s.n_est)
		v = s.est[j].value;
	model_score_clear(&s);
	return v;
}

/* The array's value: size ÷ its rate for loads and backups; its first
 * member's for searches (one read at a time: a member's latency). */
static double array_value(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
			  const struct model_policy *p, size_t j, int *err)
{
	const struct model_policy_estimate *pe = &p->estimates[j];
	const struct advisor_raid *r = &t->raid;

	if (pe->kind == MODEL_EST_LOAD)
		return pe->size_gb * 1000.0 / r->seq_read_mbps;
	if (pe->kind == MODEL_EST_BACKUP)
		return pe->size_tb * 1e6 / r->seq_write_mbps / 3600.0;
	return dev_value(p, plan->devs[r->members[0]].p, j, err);
}

/* The id a unit goes by: the device's, or the array's name. */
static const char *unit_name(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
			     const struct unit *u)
{
	return u->dev < 0 ? t->raid.name : plan->devs[u->dev].p->id;
}

/*
 * Combine the units' values as the tier is built: one unit, its own; a
 * striped volume, n × the slowest for streams (its time ÷ n) and the mean
 * for searches; else (a linear volume, separate mounts) each unit by its
 * share of the capacity, where uniform reads and files land.
 */
static double combine(const struct advisor_plan_tier *t, const struct unit *u, size_t n,
		      enum model_estimate_kind kind, const char **layout)
{
	double sum = 0.0, cap = 0.0, worst = 0.0;

	if (n == 1) {
		*layout = u[0].dev < 0 ? advisor_raid_name(t->raid.level) : "device";
		return u[0].v;
	}
	for (size_t k = 0; k < n; k++) {
		if (isnan(u[k].v) || isnan(u[k].cap))
			return NAN;
		worst = fmax(worst, u[k].v);
		sum += u[k].v;
		cap += u[k].cap;
	}
	if (t->volume.n && t->volume.striped && t->volume.n == n) {
		*layout = "striped";
		return kind == MODEL_EST_SEARCH ? sum / (double)n : worst / (double)n;
	}
	*layout = t->volume.n == n ? "linear" : "mounts";
	sum = 0.0;
	for (size_t k = 0; k < n; k++)
		sum += u[k].v * u[k].cap / cap;
	return sum;
}

/* Best and worst member (a device, or the array as one) when they differ
 * by more than EST_SPREAD. */
static void spread(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
		   const struct unit *u, size_t n, struct advisor_plan_estimate *e)
{
	size_t lo = 0, hi = 0;

	e->best = e->worst = NAN;
	e->best_device = e->worst_device = NULL;
	for (size_t k = 1; k < n; k++) {
		lo = u[k].v < u[lo].v ? k : lo;
		hi = u[k].v > u[hi].v ? k : hi;
	}
	if (n < 2 || isnan(u[lo].v) || isnan(u[hi].v) || !(u[hi].v > u[lo].v * EST_SPREAD))
		return;
	e->best = u[lo].v;
	e->worst = u[hi].v;
	e->best_device = unit_name(plan, t, &u[lo]);
	e->worst_device = unit_name(plan, t, &u[hi]);
}

static int add_estimate(struct advisor_plan *plan, struct advisor_plan_tier *t,
			const struct model_policy *p, size_t j, struct unit *u, size_t n)
{
	struct advisor_plan_estimate *nv = realloc(t->est, (t->n_est + 1) * sizeof(*nv));
	const struct model_policy_estimate *pe = &p->estimates[j];
	int err = 0;

	if (!nv)
		return -ENOMEM;
	t->est = nv;
	nv += t->n_est;
	memset(nv, 0, sizeof(*nv));
	for (size_t k = 0; k < n && !err; k++)
		u[k].v = u[k].dev < 0 ? array_value(plan, t, p, j, &err)
				      : dev_value(p, plan->devs[u[k].dev].p, j, &err);
	if (err)
		return err;
	nv->value = combine(t, u, n, pe->kind, &nv->layout);
	spread(plan, t, u, n, nv);
	nv->device = n == 1 ? unit_name(plan, t, &u[0]) : t->volume.n == n ? t->volume.vg
		     : advisor_tier_name(t->tier);
	nv->unit = pe->kind == MODEL_EST_BACKUP ? "h" : "s";
	nv->policy = strdup(p->name);
	nv->label = strdup(pe->label ? pe->label : model_estimate_kind_name(pe->kind));
	if (!nv->policy || !nv->label) {
		free(nv->policy);
		free(nv->label);
		return -ENOMEM;
	}
	t->n_est++;
	return 0;
}

/* The tier's estimates, of what is built: its array, volume or devices. */
static int tier_estimates(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	struct unit *u;
	size_t n;
	int ret = 0;

	if (!t->n_devices)
		return 0;
	u = calloc(t->n_devices + 1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	n = tier_units(plan, t, u);
	for (size_t k = 0; k < t->n_policies && !ret; k++)
		for (size_t j = 0; j < t->policies[k]->n_estimates && !ret; j++)
			ret = add_estimate(plan, t, t->policies[k], j, u, n);
	free(u);
	return ret;
}

/* ---- make / free ------------------------------------------------------ */

static int init_plan(struct advisor_plan *plan, const struct profile_device *const *devs,
		     const struct advisor_disk *const *disks, size_t n,
		     const struct advisor_options *opt)
{
	const char *base = opt && opt->mount_base ? opt->mount_base : "/srv";

	plan->fill = opt && opt->fill > 0 && opt->fill <= 1 ? opt->fill : DEFAULT_FILL;
	if (opt && opt->policies_from && !(plan->policies_from = strdup(opt->policies_from)))
		return -ENOMEM;
	plan->n_devs = n;
	plan->devs = calloc(n ? n : 1, sizeof(*plan->devs));
	if (!plan->devs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct advisor_plan_device *pd = &plan->devs[i];

		pd->p = devs[i];
		pd->disk = disks ? disks[i] : NULL;
		pd->tier = pd->best_tier = -1;
		plan_judge_disk(pd);
		plan_judge_class(pd, opt);
		pd->excluded = (pd->has_data && !pd->reusable && !(pd->disk && pd->disk->root)) ||
			       volatile_dev(pd->p) || (pd->cls && !pd->named);
	}
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const char *mp = opt ? opt->mount_point[t] : NULL;

		plan->tiers[t].tier = (enum advisor_tier)t;
		plan->tiers[t].shared_dev = -1;
		if (mp ? !(plan->mount_point[t] = strdup(mp))
		       : asprintf(&plan->mount_point[t], "%s%s", base, strrchr(plan_default_point[t], '/')) < 0) {
			plan->mount_point[t] = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * Copies of one catalog model that can still help tier t: its need over one
 * copy's usable capacity, rounded up, doubled for a mirror, plus two for a
 * parity array's parity disks.
 */
static size_t useful_copies(const struct advisor_plan *plan, size_t i, int t)
{
	const struct advisor_plan_tier *tier = &plan->tiers[t];
	double cap = plan_usable(plan, i), k;
	enum advisor_array_rule r = advisor_array_rule_of(tier->rule, t);

	if (tier->need_bytes <= 0 || isnan(plan->devs[i].tier_score[t]))
		return 1;	/* a tier with no need takes one spare at most */
	k = ceil((double)tier->need_bytes / cap);
	return r == ADVISOR_ARRAY_MIRROR ? (size_t)(2 * k) :
	       r == ADVISOR_ARRAY_PARITY ? (size_t)k + 2 : (size_t)k;
}

/*
 * Buying: copies of a model past what any tier could use are no candidates
 * (their scores NAN): a smaller search, the same optimum.
 */
static void trim_stock(struct advisor_plan *plan)
{
	for (size_t i = 0; i < plan->n_devs; i++) {
		size_t copy = 0, keep = 0;

		for (size_t j = 0; j < i; j++)	/* copies of its model before it */
			copy += plan->origin[j] == plan->origin[i];
		for (int t = 0; t < TW_TIER_COUNT; t++) {
			size_t u = useful_copies(plan, i, t);

			keep = u > keep ? u : keep;
		}
		for (int t = 0; copy >= keep && t < TW_TIER_COUNT; t++)
			plan->devs[i].tier_score[t] = NAN;
	}
}

static void best_tiers(struct advisor_plan *plan)
{
	for (size_t i = 0; i < plan->n_devs; i++) {
		struct advisor_plan_device *pd = &plan->devs[i];

		for (int t = 0; t < TW_TIER_COUNT; t++)
			if (!pd->excluded && !isnan(pd->tier_score[t]) &&
			    (pd->best_tier < 0 || pd->tier_score[t] > pd->tier_score[pd->best_tier]))
				pd->best_tier = t;
	}
}

static int unassigned_list(struct advisor_plan *plan)
{
	plan->unassigned = calloc(plan->n_devs ? plan->n_devs : 1, sizeof(size_t));
	if (!plan->unassigned)
		return -ENOMEM;
	for (size_t i = 0; i < plan->n_devs && !plan->buying; i++)	/* stock: not bought */
		if (plan->devs[i].tier < 0)
			plan->unassigned[plan->n_unassigned++] = i;
	return 0;
}

/* With an array, the tier offers the array's capacity, not its disks'. */
static void array_usable(const struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	const struct advisor_raid *r = &t->raid;

	if (r->level == ADVISOR_RAID_NONE || r->capacity_bytes < 0)
		return;
	for (size_t k = 0; k < r->n; k++)
		t->usable_bytes -= (int64_t)plan_usable(plan, r->members[k]);
	t->usable_bytes += (int64_t)((double)r->capacity_bytes * plan->fill);
}

/*
 * What the tier's devices cost: price per decimal TB × capacity, summed; and
 * per usable TB (after the fill and the array).  Unknown when a device has
 * no price (or no capacity).
 */
static void tier_cost(const struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	double cost = 0.0;

	t->n_unpriced = 0;
	for (size_t k = 0; k < t->n_devices; k++) {
		double price = model_device_price(plan->devs[t->devices[k]].p);

		if (isnan(price))
			t->n_unpriced++;
		else
			cost += price;
	}
	t->cost = t->n_unpriced ? NAN : cost;
	t->cost_per_usable_tb = !isnan(t->cost) && t->usable_bytes > 0 ?
				t->cost / ((double)t->usable_bytes / 1e12) : NAN;
}

static void plan_cost(struct advisor_plan *plan)
{
	plan->cost_total = 0.0;
	for (int t = 0; t < TW_TIER_COUNT; t++)
		plan->cost_total += plan->tiers[t].cost;	/* NAN stays NAN */
	for (size_t i = 0; i < plan->n_devs; i++)
		plan->priced = plan->priced || !isnan(plan->devs[i].p->price_per_tb);
}

/* A striped volume offers n × its smallest unit, not the sum. */
static void volume_usable(const struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	const struct advisor_volume *v = &t->volume;

	if (!v->n || !v->striped)
		return;
	for (size_t k = 0; k < v->n; k++)
		t->usable_bytes -= v->pv[k] < 0 ?
			(int64_t)((double)t->raid.capacity_bytes * plan->fill) :
			(int64_t)plan_usable(plan, (size_t)v->pv[k]);
	t->usable_bytes += (int64_t)((double)v->capacity_bytes * plan->fill);
}

/* ---- namespaces of one drive ------------------------------------------ */

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
		if (placed(plan, j) && plan_one_drive(p, plan->devs[j].p)) {
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
static int drive_notes(struct advisor_plan *plan)
{
	int ret = 0;

	for (size_t i = 0; i < plan->n_devs && !ret; i++) {
		bool first = placed(plan, i) && plan->devs[i].p->drive_id;

		for (size_t k = 0; first && k < i; k++)
			first = !(placed(plan, k) && plan_one_drive(plan->devs[k].p, plan->devs[i].p));
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
static int zoned_notes(struct advisor_plan *plan)
{
	int ret = 0;

	for (size_t i = 0; i < plan->n_devs && !ret; i++) {
		const struct advisor_plan_tier *t;

		if (!placed(plan, i) || !plan_host_managed(plan->devs[i].p))
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

static int build_tiers(struct ctx *c)
{
	struct advisor_plan *plan = c->plan;
	int ret = 0;

	for (int t = 0; t < TW_TIER_COUNT && !ret; t++) {
		struct advisor_plan_tier *tier = &plan->tiers[t];

		ret = fill_members(plan, tier);
		if (!ret && !tier->n_devices && !(tier->need_bytes > 0 && (plan->buying ||
		    tier->redundancy == MODEL_REDUNDANCY_REQUIRED)))
			ret = share_tier(plan, tier);	/* else said short: nothing bought,
							   no array to hold it */
		if (!ret)
			ret = plan_raid_make(plan, tier);
		if (!ret) {
			array_usable(plan, tier);
			ret = plan_volume_make(plan, tier);
		}
		if (!ret) {
			volume_usable(plan, tier);
			tier_cost(plan, tier);
		}
		if (!ret && !tier->shared)
			ret = need_note(plan, tier);
		if (!ret)
			ret = cold_note(plan, tier);
		if (!ret)
			ret = failure_note(c, tier);
		if (!ret)
			ret = class_note(plan, tier);
		if (!ret)
			ret = tier_estimates(plan, tier);
	}
	plan_cost(plan);
	/* mounts last: a shared tier's directory lives on another tier's mount */
	for (int t = 0; t < TW_TIER_COUNT && !ret; t++)
		ret = advisor_mounts_make(plan, &plan->tiers[t]);
	return ret;
}

static int make(struct ctx *c, char *err, size_t errlen)
{
	struct advisor_plan *plan = c->plan;
	int ret = resolve_needs(c, err, errlen);

	for (int t = 0; t < TW_TIER_COUNT && !ret; t++)
		ret = collect_policies(c, &plan->tiers[t]);
	for (size_t i = 0; i < plan->n_devs && !ret; i++)
		for (int t = 0; t < TW_TIER_COUNT && !ret; t++)
			ret = score_tier(c, i, &plan->tiers[t]);
	if (ret)
		return ret;
	if (plan->buying)
		trim_stock(plan);
	best_tiers(plan);
	ret = plan_run_optimizer(plan, c->opt);
	if (!ret)
		ret = unassigned_list(plan);
	if (!ret)
		ret = build_tiers(c);
	if (!ret)
		ret = drive_notes(plan);
	if (!ret)
		ret = zoned_notes(plan);
	if (!ret && plan->buying)
		ret = plan_buy_list(plan);
	if (!ret)
		ret = data_warnings(plan);
	if (!ret)
		ret = advisor_warnings_make(plan);
	if (!ret && !plan->exact)
		ret = tw_strv_addf(&plan->notes, &plan->n_notes,
				    "the search stopped at its time limit (%.1f s, %lu nodes): no plan "
				    "scores more than %.2f above this one (score at most %.2f)%s",
				    plan->seconds, plan->nodes, plan->bound - plan->score, plan->bound,
				    plan->met_bound > plan->needs_met ?
				    "; one might meet more of the needs" : "");
	return ret;
}

int advisor_plan_make(const struct profile_device *const *devs,
		      const struct advisor_disk *const *disks, size_t n,
		      const struct model_policy_set *set,
		      const struct advisor_options *opt,
		      struct advisor_plan **out, char *err, size_t errlen)
{
	struct ctx c = { .set = set, .opt = opt };
	const struct profile_device **stock = NULL;
	int ret = 0;

	*out = NULL;
	c.plan = calloc(1, sizeof(*c.plan));
	if (!c.plan)
		return -ENOMEM;
	if (opt && opt->buy) {	/* the plan is made over the stock */
		c.plan->buying = true;
		c.plan->budget = opt->budget > 0 ? opt->budget : 0.0;
		ret = plan_buy_stock(c.plan, devs, n, opt->max_each ? opt->max_each
					: ADVISOR_BUY_MAX_EACH, &stock, &n);
		devs = stock;
		disks = NULL;
	}
	if (opt && !c.plan->buying) {
		c.plan->links = opt->links;
		c.plan->n_links = opt->n_links;
	}
	if (!ret)
		ret = init_plan(c.plan, devs, disks, n, opt);
	if (!ret)
		ret = make(&c, err, errlen);
	free(stock);
	free(c.need);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		advisor_plan_free(c.plan);
		return ret;
	}
	*out = c.plan;
	return 0;
}

static void tier_clear(struct advisor_plan_tier *t)
{
	free(t->policies);
	free(t->devices);
	free(t->scores);
	plan_raid_clear(&t->raid);
	plan_volume_clear(&t->volume);
	advisor_mounts_clear(t);
	for (size_t i = 0; i < t->n_est; i++) {
		free(t->est[i].policy);
		free(t->est[i].label);
	}
	free(t->est);
	tw_strv_free(t->notes, t->n_notes);
}

void advisor_plan_free(struct advisor_plan *plan)
{
	if (!plan)
		return;
	free(plan->policies_from);
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		tier_clear(&plan->tiers[t]);
		free(plan->mount_point[t]);
	}
	for (size_t i = 0; i < plan->n_devs; i++)
		for (int t = 0; t < TW_TIER_COUNT; t++)
			free(plan->devs[i].why_not[t]);
	free(plan->devs);
	free(plan->unassigned);
	for (size_t i = 0; i < plan->n_warnings; i++)
		free(plan->warnings[i].message);
	free(plan->warnings);
	free(plan->runner_up);
	tw_strv_free(plan->notes, plan->n_notes);
	plan_buy_clear(plan);
	free(plan);
}

void advisor_disk_clear(struct advisor_disk *d)
{
	if (!d)
		return;
	free(d->name);
	free(d->path);
	free(d->serial);
	free(d->fstype);
	free(d->uuid);
	free(d->label);
	free(d->pttype);
	free(d->cls);
	free(d->cls_why);
	tw_strv_free(d->mounts, d->n_mounts);
	tw_strv_free(d->holders, d->n_holders);
	for (size_t i = 0; i < d->n_parts; i++) {
		free(d->parts[i].name);
		free(d->parts[i].fstype);
		free(d->parts[i].uuid);
		free(d->parts[i].label);
		tw_strv_free(d->parts[i].mounts, d->parts[i].n_mounts);
	}
	free(d->parts);
	memset(d, 0, sizeof(*d));
}
