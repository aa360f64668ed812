/* plan.c — advisor_plan_make(), the pipeline: scores per tier
 * (plan_score.c), the optimum (plan_opt.c), fall-backs, then per tier its
 * array, volume, capacity, cost, notes (plan_notes.c) and estimates
 * (plan_estimate.c), the mounts, and the warnings (see plan.h).
 */
#include "plan_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_FILL 0.8

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
		t->usable_bytes += (int64_t)advisor_usable(plan, i);
		n++;
	}
	t->n_devices = n;	/* t->score: the optimiser's tier quality */
	return 0;
}

/* ---- fall-backs ------------------------------------------------------- */

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
		advisor_judge_disk(pd);
		advisor_judge_class(pd, opt);
		pd->excluded = (pd->has_data && !pd->reusable && !(pd->disk && pd->disk->root)) ||
			       advisor_volatile(pd->p) || (pd->cls && !pd->named);
	}
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const char *mp = opt ? opt->mount_point[t] : NULL;

		plan->tiers[t].tier = (enum advisor_tier)t;
		plan->tiers[t].shared_dev = -1;
		if (mp ? !(plan->mount_point[t] = strdup(mp))
		       : asprintf(&plan->mount_point[t], "%s%s", base, strrchr(advisor_default_point[t], '/')) < 0) {
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
	double cap = advisor_usable(plan, i), k;
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
		t->usable_bytes -= (int64_t)advisor_usable(plan, r->members[k]);
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
			(int64_t)advisor_usable(plan, (size_t)v->pv[k]);
	t->usable_bytes += (int64_t)((double)v->capacity_bytes * plan->fill);
}

static int build_tiers(struct advisor_ctx *c)
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
			ret = advisor_raid_make(plan, tier);
		if (!ret) {
			array_usable(plan, tier);
			ret = advisor_volume_make(plan, tier);
		}
		if (!ret) {
			volume_usable(plan, tier);
			tier_cost(plan, tier);
		}
		if (!ret)
			ret = tier->shared ? advisor_shared_need_note(plan, tier)
					   : advisor_need_note(plan, tier);
		if (!ret)
			ret = advisor_cold_note(plan, tier);
		if (!ret)
			ret = advisor_failure_note(c, tier);
		if (!ret)
			ret = advisor_class_note(plan, tier);
		if (!ret)
			ret = advisor_tier_estimates(plan, tier);
	}
	plan_cost(plan);
	/* mounts last: a shared tier's directory lives on another tier's mount */
	for (int t = 0; t < TW_TIER_COUNT && !ret; t++)
		ret = advisor_mounts_make(plan, &plan->tiers[t]);
	return ret;
}

static int make(struct advisor_ctx *c, char *err, size_t errlen)
{
	struct advisor_plan *plan = c->plan;
	int ret = advisor_resolve_needs(c, err, errlen);

	for (int t = 0; t < TW_TIER_COUNT && !ret; t++)
		ret = advisor_collect_policies(c, &plan->tiers[t]);
	for (size_t i = 0; i < plan->n_devs && !ret; i++)
		for (int t = 0; t < TW_TIER_COUNT && !ret; t++)
			ret = advisor_score_tier(c, i, &plan->tiers[t]);
	if (ret)
		return ret;
	if (plan->buying)
		trim_stock(plan);
	best_tiers(plan);
	ret = advisor_run_optimizer(plan, c->opt);
	if (!ret)
		ret = unassigned_list(plan);
	if (!ret)
		ret = build_tiers(c);
	if (!ret)
		ret = advisor_drive_notes(plan);
	if (!ret)
		ret = advisor_zoned_notes(plan);
	if (!ret && plan->buying)
		ret = advisor_buy_list(plan);
	if (!ret)
		ret = advisor_data_warnings(plan);
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
	struct advisor_ctx c = { .set = set, .opt = opt };
	const struct profile_device **stock = NULL;
	int ret = 0;

	*out = NULL;
	c.plan = calloc(1, sizeof(*c.plan));
	if (!c.plan)
		return -ENOMEM;
	if (opt && opt->buy) {	/* the plan is made over the stock */
		c.plan->buying = true;
		c.plan->budget = opt->budget > 0 ? opt->budget : 0.0;
		ret = advisor_buy_stock(c.plan, devs, n, opt->max_each ? opt->max_each
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
	free(c.given);
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
	free(t->need_of);
	free(t->need_given);
	free(t->devices);
	free(t->scores);
	advisor_raid_clear(&t->raid);
	advisor_volume_clear(&t->volume);
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
	advisor_buy_clear(plan);
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
