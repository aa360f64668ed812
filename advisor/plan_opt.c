/* plan_opt.c — the bridge from a plan to the optimiser (advisor_optimize()): its
 * input (scores, usable capacities, like groups, media classes, what the
 * warnings keep each device off), the buying runs, the trades off shared
 * links, the mirror mates moved after it (redundancy before a tier that
 * needs nothing), and the optimum taken back into the plan (see
 * plan_priv.h).
 */
#include "plan_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does a device of like group g among devs[0..i) share device i's drive?  A
 * group is an array's candidates: one device per drive. */
static bool drive_in_group(const struct advisor_plan *plan, const int *group, size_t i, int g)
{
	for (size_t k = 0; k < i; k++)
		if (group[k] == g && advisor_one_drive(plan->devs[k].p, plan->devs[i].p))
			return true;
	return false;
}

/* The optimiser's input: scores (after the warnings' soft costs; pairs
 * their objections bar are NAN), usable capacities, like groups, media
 * classes, array rules, needs.  *objected: some pair was barred. */
static int opt_input(const struct advisor_plan *plan, struct advisor_opt_input *in,
		     bool *objected)
{
	size_t n = plan->n_devs ? plan->n_devs : 1;
	int (*cls)[TW_TIER_COUNT] = calloc(n, sizeof(*cls));
	double (*score)[TW_TIER_COUNT] = calloc(n, sizeof(*score));
	double *cap = calloc(n, sizeof(*cap));
	int *group = calloc(n, sizeof(*group));
	double *price = plan->buying ? calloc(n, sizeof(*price)) : NULL;

	memset(in, 0, sizeof(*in));
	in->score = (const double (*)[TW_TIER_COUNT])score;
	in->capacity = cap;
	in->group = group;
	in->price = price;
	in->cls = (const int (*)[TW_TIER_COUNT])cls;
	*objected = false;
	if (!score || !cap || !group || !cls || (plan->buying && !price))
		return -ENOMEM;
	for (size_t i = 0; price && i < plan->n_devs; i++)
		price[i] = model_device_price(plan->devs[i].p);
	in->n = plan->n_devs;
	for (size_t i = 0; i < plan->n_devs; i++) {
		for (int t = 0; t < TW_TIER_COUNT; t++) {
			score[i][t] = plan->devs[i].excluded ? NAN : plan->devs[i].tier_score[t] *
				      advisor_objection_cost(plan, i, t);
			cls[i][t] = advisor_media_class(plan->devs[i].p, t);
			if (!isnan(score[i][t]) && advisor_objections(plan, i, t)) {
				score[i][t] = NAN;
				*objected = true;
			}
		}
		cap[i] = advisor_usable(plan, i);
		group[i] = (int)i;	/* its own group, or the first like device's */
		for (size_t j = 0; j < i; j++)
			if (group[j] == (int)j && advisor_alike(&plan->devs[j], &plan->devs[i]) &&
			    !drive_in_group(plan, group, i, (int)j)) {
				group[i] = (int)j;
				break;
			}
	}
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		in->need[t] = plan->tiers[t].need_bytes > 0 ? (double)plan->tiers[t].need_bytes : 0.0;
		/* preferred: the whole capacity counts, and raid.c mirrors only
		 * when the need still fits; required: only arrays hold it; when
		 * buying, preferred is bought as required: what is bought for
		 * data with no other copy is its mirror or parity too */
		in->required[t] = plan->tiers[t].redundancy == MODEL_REDUNDANCY_REQUIRED ||
				  (plan->buying &&
				   plan->tiers[t].redundancy == MODEL_REDUNDANCY_PREFERRED);
		in->rule[t] = in->required[t] ? plan->tiers[t].rule : ADVISOR_ARRAY_STRIPE;
		/* a tier holds one md array (raid.c): in a tier where only arrays
		 * hold the need, one like group, as one media class */
		for (size_t i = 0; in->required[t] && i < plan->n_devs; i++)
			cls[i][t] += ADVISOR_CLASS_SCM + 1 + (ADVISOR_CLASS_SCM + 1) * group[i];
	}
	return 0;
}

/* Score kept by a pair a warning objects to, when no plan without it meets
 * as many needs: low, so no such pair is taken where another would do. */
#define OBJECTED_KEEP 0.2

/* The input again with the barred pairs allowed, at keep × their score
 * (in->score is written in place). */
static void allow_objected(const struct advisor_plan *plan, struct advisor_opt_input *in,
			   double keep)
{
	double (*score)[TW_TIER_COUNT] = (double (*)[TW_TIER_COUNT])in->score;

	for (size_t i = 0; i < plan->n_devs; i++)
		for (int t = 0; t < TW_TIER_COUNT; t++)
			if (!plan->devs[i].excluded && !isnan(plan->devs[i].tier_score[t]) &&
			    advisor_objections(plan, i, t))
				score[i][t] = plan->devs[i].tier_score[t] *
					      advisor_objection_cost(plan, i, t) * keep;
}

static void opt_input_clear(struct advisor_opt_input *in)
{
	free((void *)in->score);
	free((void *)in->capacity);
	free((void *)in->group);
	free((void *)in->price);
	free((void *)in->cls);
}

static int take_result(struct advisor_plan *plan, const struct advisor_opt_result *r)
{
	plan->score = r->best.e.score;
	plan->coverage = r->best.e.coverage;
	plan->exact = r->exact;
	plan->bound = r->bound;
	plan->met_bound = r->met_bound;
	plan->needs_met = r->best.e.met;
	plan->nodes = r->nodes;
	plan->seconds = r->seconds;
	for (int t = 0; t < TW_TIER_COUNT; t++)
		plan->n_needs += plan->tiers[t].need_bytes > 0;
	for (size_t i = 0; i < plan->n_devs; i++)
		plan->devs[i].tier = r->best.tier[i];
	for (int t = 0; t < TW_TIER_COUNT; t++)
		plan->tiers[t].score = r->best.e.tier_quality[t];
	if (r->runner_up.valid) {
		plan->runner_up = calloc(plan->n_devs ? plan->n_devs : 1, sizeof(int));
		if (!plan->runner_up)
			return -ENOMEM;
		for (size_t i = 0; i < plan->n_devs; i++)
			plan->runner_up[i] = r->runner_up.tier[i];
		plan->has_runner_up = true;
		plan->runner_up_score = r->runner_up.e.score;
		plan->gap = fmax(0.0, r->best.e.score - r->runner_up.e.score);
		plan->runner_up_covers_less = r->runner_up.e.coverage < r->best.e.coverage - 1e-9;
	}
	return 0;
}

/* Tiers with a need. */
static int plan_count_needs(const struct advisor_plan *plan)
{
	int n = 0;

	for (int t = 0; t < TW_TIER_COUNT; t++)
		n += plan->tiers[t].need_bytes > 0;
	return n;
}

/* Seconds the least-budget hint may take (its plan is not the one shown). */
#define BUY_HINT_SECONDS 3.0

/*
 * Buying: with a budget, the best plan within it (and, when it meets fewer
 * needs than the catalog could, the least budget that would); without, the
 * best plan first, then the cheapest within opt->margin points of it.
 */
static int buy_optimize(struct advisor_plan *plan, const struct advisor_options *opt,
			struct advisor_opt_input *in, struct advisor_opt_result *r)
{
	double margin = opt->margin >= 0 ? opt->margin : ADVISOR_BUY_MARGIN;
	struct advisor_opt_result alt;
	int ret;

	in->budget = plan->budget;
	in->cheapest = !(plan->budget > 0);
	in->margin = margin;
	if (plan->budget > 0) {
		ret = advisor_optimize(in, opt->time_limit, r);
		if (ret)
			return ret;
		if (r->best.e.met == (unsigned)plan_count_needs(plan))
			return tw_strv_addf(&plan->notes, &plan->n_notes,
					    "budget %.0f: this plan costs %.0f", plan->budget,
					    r->best.e.cost);
		in->budget = 0;
		in->cheapest = true;
		in->margin = 1e9;	/* the cheapest plan meeting the most needs */
		in->no_runner_up = true;	/* a hint: a few seconds at most */
		ret = advisor_optimize(in, fmin(opt->time_limit > 0 ? opt->time_limit :
					ADVISOR_OPT_DEFAULT_SECONDS, BUY_HINT_SECONDS), &alt);
		in->no_runner_up = false;
		if (!ret && alt.best.e.met > r->best.e.met)
			ret = tw_strv_addf(&plan->notes, &plan->n_notes,
					    "the budget of %.0f meets %u of the needs; %u can be met, "
					    "from a budget of %s%.0f", plan->budget, r->best.e.met,
					    alt.best.e.met, alt.exact ? "" : "at most ", alt.best.e.cost);
		else if (!ret)
			ret = tw_strv_addf(&plan->notes, &plan->n_notes,
					    "budget %.0f: this plan costs %.0f", plan->budget,
					    r->best.e.cost);
		advisor_opt_result_clear(&alt);
		return ret;
	}
	in->cheapest = false;
	ret = advisor_optimize(in, opt->time_limit, &alt);
	if (ret)
		return ret;
	in->cheapest = true;
	ret = advisor_optimize(in, opt->time_limit, r);
	if (!ret)
		ret = tw_strv_addf(&plan->notes, &plan->n_notes,
				    "no budget: the cheapest plan within %.1f points of the best "
				    "score: %.1f for %.0f, where the best scores %.1f for %.0f "
				    "(--budget AMOUNT for the best within a budget)", margin,
				    r->best.e.score, r->best.e.cost, alt.best.e.score, alt.best.e.cost);
	advisor_opt_result_clear(&alt);
	if (ret)
		advisor_opt_result_clear(r);
	return ret;
}

/* How many devices of tier t other than d and skip share a link with d. */
static size_t link_mates(const struct advisor_plan *plan, const int *assign, int t,
			 size_t d, size_t skip)
{
	size_t m = 0;

	for (size_t i = 0; t >= 0 && i < plan->n_devs; i++)
		m += assign[i] == t && i != d && i != skip && advisor_share_link(plan, d, i);
	return m;
}

/* The note of a trade: c took b's place in tier t (b moved), at a cost. */
static int spread_note(struct advisor_plan *plan, const int *a, size_t b, size_t c, int t,
		       double cost)
{
	const char *mate = "?";
	char price[64] = "at no cost in score";

	for (size_t i = 0; i < plan->n_devs; i++)
		if (a[i] == t && i != c && advisor_share_link(plan, b, i)) {
			mate = plan->devs[i].p->id;
			break;
		}
	if (cost > 0.05)
		snprintf(price, sizeof(price), "for %.1f points of score", cost);
	return tw_strv_addf(&plan->notes, &plan->n_notes,
			    "%s takes the place of %s in the %s tier, %s: %s shares a link "
			    "with %s, and an array over both would get what the link carries",
			    plan->devs[c].p->id, plan->devs[b].p->id, advisor_tier_name(t), price,
			    plan->devs[b].p->id, mate);
}

/*
 * Arrays off shared links: a device of a tier that shares a measured
 * bottleneck with another there trades places with a like device (same
 * model and size, raid.c) that shares less with that tier, when the trade
 * leaves as many needs met and at least SPREAD_KEEP of the score and makes
 * no other tier share more.  Like devices score alike, so this mostly costs
 * nothing; where it does, the plan's score is the traded plan's.
 * r->best is updated.  Returns 0 or -ENOMEM.
 */
#define SPREAD_KEEP 0.99
static int spread_links(struct advisor_plan *plan, const struct advisor_opt_input *in,
			struct advisor_opt_result *r)
{
	int *a = r->best.tier;
	bool moved = plan->n_links > 0;

	for (size_t pass = 0; moved && pass < plan->n_devs; pass++) {
		moved = false;
		for (size_t b = 0; b < plan->n_devs && !moved; b++) {
			int t = a[b];
			size_t now = link_mates(plan, a, t, b, b);

			for (size_t c = 0; t >= 0 && now && c < plan->n_devs && !moved; c++) {
				int u = a[c];
				struct advisor_eval e;
				int ret;

				if (u == t || !advisor_alike(&plan->devs[b], &plan->devs[c]) ||
				    link_mates(plan, a, t, c, b) >= now ||
				    (u >= 0 && link_mates(plan, a, u, b, c) > link_mates(plan, a, u, c, c)))
					continue;
				a[b] = u;
				a[c] = t;
				ret = advisor_evaluate(in, a, &e);
				if (ret)
					return ret;
				if (e.valid && e.met == r->best.e.met &&
				    e.score >= r->best.e.score * SPREAD_KEEP - 1e-9) {
					ret = spread_note(plan, a, b, c, t, r->best.e.score - e.score);
					r->best.e = e;
					moved = true;
					if (ret)
						return ret;
				} else {
					a[b] = t;
					a[c] = u;
				}
			}
		}
	}
	return 0;
}

/* Each device placed against a warning: the sentence that says why. */
static int despite_notes(struct advisor_plan *plan, const int *assign, unsigned met_without)
{
	for (size_t i = 0; i < plan->n_devs; i++) {
		int t = assign[i];
		unsigned o = t >= 0 ? advisor_objections(plan, i, t) : 0;
		char need[32], names[256];

		for (unsigned b = 1; o && b < (1u << ADVISOR_OBJ_COUNT_BITS); b <<= 1) {
			if (!(o & b))
				continue;
			advisor_fmt_bytes(need, sizeof(need), (double)plan->tiers[t].need_bytes);
			advisor_need_names(&plan->tiers[t], names, sizeof(names));
			if (advisor_warn(plan, (ptrdiff_t)i, "placed-despite",
				      "%s: placed in the %s tier despite %s, because without it no "
				      "plan meets the %s need (%s %s): without it the plan meets %u "
				      "of %d needs", plan->devs[i].p->id, advisor_tier_name(t),
				      advisor_objection_text(b), advisor_tier_name(t), names, need,
				      met_without, plan_count_needs(plan)) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * The warnings bind: the optimum with every pair a warning objects to
 * barred; then, when some pair was barred, the optimum with them allowed
 * at a fraction of their score, taken only when it meets more needs — and
 * then each such placement gets its "placed despite … because …" warning.
 * r holds the plan taken (its score re-evaluated on the true scores).
 */
static int bound_optimize(struct advisor_plan *plan, const struct advisor_options *opt,
			  struct advisor_opt_input *in, bool objected,
			  struct advisor_opt_result *r)
{
	double limit = opt ? opt->time_limit : 0.0;
	struct advisor_opt_result alt;
	unsigned met;
	int ret = advisor_optimize(in, limit, r);

	if (ret || !objected || r->best.e.met == (unsigned)plan_count_needs(plan))
		return ret;
	allow_objected(plan, in, OBJECTED_KEEP);
	ret = advisor_optimize(in, limit, &alt);
	if (ret) {
		advisor_opt_result_clear(r);
		return ret;
	}
	if (alt.best.e.met <= r->best.e.met) {
		advisor_opt_result_clear(&alt);
		return 0;
	}
	met = r->best.e.met;
	advisor_opt_result_clear(r);
	*r = alt;
	allow_objected(plan, in, 1.0);	/* the plan's score on the devices' own scores */
	ret = advisor_evaluate(in, r->best.tier, &r->best.e);
	if (!ret && r->runner_up.valid)
		ret = advisor_evaluate(in, r->runner_up.tier, &r->runner_up.e);
	return ret ? ret : despite_notes(plan, r->best.tier, met);
}

/* ---- each policy's data where it belongs -------------------------------- */

/*
 * The score of device d for policy k of tier t (its own metrics), NAN when
 * it is not eligible for it.  Returns 0 or -ENOMEM.
 */
static int policy_score(const struct advisor_plan *plan, int t, size_t k, size_t d, double *out)
{
	struct model_score s;

	if (model_score_device(plan->tiers[t].policies[k], plan->devs[d].p, &s))
		return -ENOMEM;
	*out = s.eligible ? s.score : NAN;
	model_score_clear(&s);
	return 0;
}

/* A pin: device dev holds policy k of its tier alone. */
struct pin {
	ptrdiff_t dev;
	size_t k;
	double score, in_tier;	/* dev's score for k; the best of the tier's own */
};

/*
 * The pin of tier t in assignment a, if any: when two or more of its
 * policies have a need, the one with the largest need, when its best
 * device (its own score, eligible for the tier, no warning against it) is
 * not in the tier, holds that need alone but not the tier's sum (the sum
 * kept it out), and serves it better than every device there.
 * p->dev = -1: none.  Returns 0 or -ENOMEM.
 */
static int find_pin(const struct advisor_plan *plan, const int *a, int t, const bool *taken,
		    struct pin *p)
{
	const struct advisor_plan_tier *tier = &plan->tiers[t];
	double top = -INFINITY, inside = -INFINITY, x, need;
	size_t sized = 0, k = 0;
	ptrdiff_t best = -1;
	int ret = 0;

	p->dev = -1;
	for (size_t j = 0; j < tier->n_policies; j++) {
		sized += tier->need_of[j] > 0;
		if (tier->need_of[j] > tier->need_of[k])
			k = j;
	}
	if (sized < 2)
		return 0;
	need = (double)tier->need_of[k];
	for (size_t d = 0; d < plan->n_devs && !ret; d++) {
		const struct advisor_plan_device *pd = &plan->devs[d];

		if (pd->excluded || isnan(pd->tier_score[t]) || advisor_objections(plan, d, t) ||
		    (ret = policy_score(plan, t, k, d, &x)) || isnan(x))
			continue;
		if (a[d] == t)
			inside = fmax(inside, x);
		else if (!taken[d] && x > top) {
			top = x;
			best = (ptrdiff_t)d;
		}
	}
	if (!ret && best >= 0 && top > inside && advisor_usable(plan, (size_t)best) >= need &&
	    advisor_usable(plan, (size_t)best) < (double)tier->need_bytes)
		*p = (struct pin){ best, k, top, inside };
	return ret;
}

static int pin_note(struct advisor_plan *plan, int t, const struct pin *p)
{
	const struct advisor_plan_tier *tier = &plan->tiers[t];
	char need[32], all[32], use[32], inside[48] = "";

	advisor_fmt_bytes(need, sizeof(need), (double)tier->need_of[p->k]);
	advisor_fmt_bytes(all, sizeof(all), (double)tier->need_bytes);
	advisor_fmt_bytes(use, sizeof(use), advisor_usable(plan, (size_t)p->dev));
	if (isfinite(p->in_tier))
		snprintf(inside, sizeof(inside), ", against %.1f for the tier's best", p->in_tier);
	return tw_strv_addf(&plan->notes, &plan->n_notes,
			    "%s holds %s alone in the %s tier, a mount of its own: it serves %s "
			    "best (%.1f%s) and holds its %s need (%s usable), where the tier's "
			    "%s of all its policies is more than it holds; the tier's other "
			    "devices hold the other policies", plan->devs[p->dev].p->id,
			    tier->policies[p->k]->name, advisor_tier_name(t),
			    tier->policies[p->k]->name, p->score, inside, need, use, all);
}

/*
 * Each policy's data where it belongs: a tier of two or more policies with
 * a need whose need, summed, keeps out the device that serves its largest
 * best and holds that one's need alone (the Optane for a 700 GB vector DB,
 * beside 200 GB of logs: 900 GB is more than its 768 GB) gets that device
 * for that policy alone (find_pin()), and the optimum is found again for
 * the rest: the pinned devices out of it, each tier's need less what its
 * pin holds, every pair a warning objects to barred.  Taken when it meets
 * as many needs and covers as much of them; its score is the whole
 * plan's, the pinned device counted in its tier (as of the tier's media
 * class: it is a mount of its own, never in a volume or array with the
 * others).  r is updated.  Returns 0 or -ENOMEM.
 */
static int place_policies(struct advisor_plan *plan, const struct advisor_options *opt,
			  struct advisor_opt_input *in, struct advisor_opt_result *r)
{
	double (*score)[TW_TIER_COUNT] = (double (*)[TW_TIER_COUNT])in->score;
	int (*cls)[TW_TIER_COUNT] = (int (*)[TW_TIER_COUNT])in->cls;
	struct pin pin[TW_TIER_COUNT];
	double *keep = calloc((plan->n_devs ? plan->n_devs : 1) * TW_TIER_COUNT, sizeof(*keep));
	bool *taken = calloc(plan->n_devs ? plan->n_devs : 1, sizeof(*taken));
	double need[TW_TIER_COUNT];
	int was[TW_TIER_COUNT] = { 0 };
	struct advisor_opt_result alt;
	bool any = false;
	int ret = keep && taken ? 0 : -ENOMEM;

	for (int t = 0; t < TW_TIER_COUNT && !ret; t++) {
		ret = find_pin(plan, r->best.tier, t, taken, &pin[t]);
		if (!ret && pin[t].dev >= 0)
			any = taken[pin[t].dev] = true;
	}
	if (ret || !any) {
		free(keep);
		free(taken);
		return ret;
	}
	memcpy(keep, score, plan->n_devs * sizeof(*score));
	memcpy(need, in->need, sizeof(need));
	for (size_t d = 0; d < plan->n_devs; d++)
		for (int t = 0; t < TW_TIER_COUNT; t++)
			if (taken[d] || advisor_objections(plan, d, t))
				score[d][t] = NAN;
	for (int t = 0; t < TW_TIER_COUNT; t++)
		if (pin[t].dev >= 0)
			in->need[t] = fmax(0.0, in->need[t] -
					   (double)plan->tiers[t].need_of[pin[t].k]);
	ret = advisor_optimize(in, opt ? opt->time_limit : 0.0, &alt);
	memcpy(score, keep, plan->n_devs * sizeof(*score));
	memcpy(in->need, need, sizeof(need));
	free(keep);
	free(taken);
	if (ret)
		return ret;
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		ptrdiff_t d = pin[t].dev;

		if (d < 0)
			continue;
		alt.best.tier[d] = t;
		was[t] = cls[d][t];
		/* counted as of the tier's class from here on (the evaluations
		 * after this one too): a mount of its own, never mixed */
		for (size_t j = 0; j < plan->n_devs; j++)
			if (alt.best.tier[j] == t && (ptrdiff_t)j != d) {
				cls[d][t] = cls[j][t];
				break;
			}
	}
	ret = advisor_evaluate(in, alt.best.tier, &alt.best.e);
	if (!ret && (!alt.best.e.valid || alt.best.e.met < r->best.e.met ||
		     alt.best.e.coverage < r->best.e.coverage - 1e-9)) {
		for (int t = 0; t < TW_TIER_COUNT; t++)	/* not taken: classes as they were */
			if (pin[t].dev >= 0)
				cls[pin[t].dev][t] = was[t];
		advisor_opt_result_clear(&alt);
		return 0;
	}
	if (ret) {
		advisor_opt_result_clear(&alt);
		return ret;
	}
	advisor_opt_result_clear(r);
	*r = alt;
	r->runner_up.valid = false;	/* of the problem without the pins */
	for (int t = 0; t < TW_TIER_COUNT && !ret; t++)
		if (pin[t].dev >= 0) {
			plan->devs[pin[t].dev].own = plan->tiers[t].policies[pin[t].k];
			ret = pin_note(plan, t, &pin[t]);
		}
	return ret;
}

/* Does c, joining lone device one in tier t, make a mirror that holds the
 * tier's need (a required tier: a mirror is the only way to hold it)? */
static bool mate_holds(const struct advisor_plan *plan, int t, size_t one, size_t c)
{
	const struct advisor_plan_tier *tier = &plan->tiers[t];

	return tier->redundancy == MODEL_REDUNDANCY_REQUIRED || tier->need_bytes <= 0 ||
	       fmin(advisor_usable(plan, one), advisor_usable(plan, c)) >=
	       (double)tier->need_bytes;
}

/* Is mate c better than mate b for lone device one in tier t: like first,
 * then an idle one, then the higher score there? */
static bool better_mate(const struct advisor_plan *plan, const int *a, int t, size_t one,
			size_t c, size_t b)
{
	bool lc = advisor_alike(&plan->devs[one], &plan->devs[c]);
	bool lb = advisor_alike(&plan->devs[one], &plan->devs[b]);

	if (lc != lb)
		return lc;
	if ((a[c] < 0) != (a[b] < 0))
		return a[c] < 0;
	return plan->devs[c].tier_score[t] > plan->devs[b].tier_score[t];
}

/* The note of a mate moved: c joins one in tier t, from tier u (-1 idle). */
static int mate_note(struct advisor_plan *plan, int t, size_t one, size_t c, int u,
		     double optimum, double score)
{
	char cost[128] = "";

	if (score < optimum - 0.05)
		snprintf(cost, sizeof(cost), " (the plan scores %.1f; the optimum by score "
			 "alone, without the mirror, %.1f)", score, optimum);
	if (u < 0)
		return tw_strv_addf(&plan->notes, &plan->n_notes,
				    "%s, idle until then, joins %s in the %s tier as its mirror: "
				    "the tier's policies want redundancy%s", plan->devs[c].p->id,
				    plan->devs[one].p->id, advisor_tier_name(t), cost);
	return tw_strv_addf(&plan->notes, &plan->n_notes,
			    "%s joins %s in the %s tier as its mirror, taken from the %s tier, "
			    "which needs nothing: the %s tier's policies want redundancy, and a "
			    "tier that needs nothing comes after it%s", plan->devs[c].p->id,
			    plan->devs[one].p->id, advisor_tier_name(t), advisor_tier_name(u),
			    advisor_tier_name(t), cost);
}

/*
 * Redundancy before a tier that needs nothing: a tier that builds mirror or
 * parity arrays (advisor_redundant_rule) and holds one device alone takes a
 * mirror mate for it (advisor_mirror_mates: like first, then unlike of its
 * media class) from the idle devices, else from a tier whose need is 0,
 * when the mirror at the smaller size still holds its need.  Never a device
 * a warning keeps off the tier.  r->best is the plan after the moves, its
 * score its own; the runner-up goes when it scores above it.  Returns 0 or
 * -ENOMEM.
 */
static int mirror_first(struct advisor_plan *plan, const struct advisor_opt_input *in,
			struct advisor_opt_result *r)
{
	int *a = r->best.tier;

	for (int t = 0; t < TW_TIER_COUNT; t++) {
		size_t one = 0, count = 0;
		ptrdiff_t best = -1;
		double optimum = r->best.e.score;
		int u, ret;

		for (size_t d = 0; d < plan->n_devs; d++)
			if (a[d] == t && ++count)
				one = d;
		if (count != 1 || !advisor_redundant_rule(&plan->tiers[t]))
			continue;
		for (size_t c = 0; c < plan->n_devs; c++) {
			u = a[c];
			if (u == t || plan->devs[c].excluded ||
			    (u >= 0 && !(plan->tiers[u].need_bytes == 0 &&
					 plan->tiers[t].need_bytes > 0)) ||
			    isnan(plan->devs[c].tier_score[t]) || advisor_objections(plan, c, t) ||
			    !advisor_mirror_mates(&plan->devs[one], &plan->devs[c], t) ||
			    !mate_holds(plan, t, one, c))
				continue;
			if (best < 0 || better_mate(plan, a, t, one, c, (size_t)best))
				best = (ptrdiff_t)c;
		}
		if (best < 0)
			continue;
		u = a[best];
		a[best] = t;
		ret = advisor_evaluate(in, a, &r->best.e);
		if (!ret)
			ret = mate_note(plan, t, one, (size_t)best, u, optimum, r->best.e.score);
		if (ret)
			return ret;
		plan->mirror_moves++;
		plan->tiers[t].mate_moved = true;
		if (r->runner_up.valid && r->runner_up.e.score > r->best.e.score)
			r->runner_up.valid = false;
	}
	return 0;
}

/*
 * A tier whose policies want redundancy (preferred or required) takes the
 * idle devices like one of its own (same model and size, raid.c): the
 * optimiser counted the whole capacity of what it chose, and a like disk
 * that would stand idle is the mirror or parity of the only copy of a
 * database or an archive at no loss (raid.c builds the array when the need
 * still fits).  Never a device a warning keeps off the tier, nor one whose
 * drive is there already (a namespace of it: no redundancy), nor into a
 * tier whose lone device got its mate (mirror_first()): a twin of the mate
 * would make the like pair the array and leave the lone device outside it.
 */
static void join_like_idle(struct advisor_plan *plan)
{
	for (size_t d = 0; d < plan->n_devs; d++) {
		struct advisor_plan_device *pd = &plan->devs[d];

		for (size_t j = 0; pd->tier < 0 && !pd->excluded && j < plan->n_devs; j++) {
			int t = plan->devs[j].tier;

			if (t < 0 || plan->tiers[t].redundancy == MODEL_REDUNDANCY_NONE ||
			    plan->tiers[t].mate_moved ||
			    isnan(pd->tier_score[t]) || advisor_objections(plan, d, t) ||
			    !advisor_alike(&plan->devs[j], pd) || advisor_drive_in_tier(plan, d, t))
				continue;
			pd->tier = t;
		}
	}
}

/* Usable bytes of the devices placed in tier t, each counted whole. */
static double placed_usable(const struct advisor_plan *plan, int t)
{
	double u = 0.0;

	for (size_t d = 0; d < plan->n_devs; d++)
		if (plan->devs[d].tier == t)
			u += advisor_usable(plan, d);
	return u;
}

/* The lowest score for tier t of the devices placed there (INFINITY: none). */
static double placed_low(const struct advisor_plan *plan, int t)
{
	double low = INFINITY;

	for (size_t d = 0; d < plan->n_devs; d++)
		if (plan->devs[d].tier == t)
			low = fmin(low, plan->devs[d].tier_score[t]);
	return low;
}

/*
 * A tier short of its need leaves no device idle that serves it as well as
 * one it has: each idle device that may serve it (a score there at least
 * its lowest device's, no warning against it, not a namespace of a drive
 * already there) joins it, the largest first, until the need is covered —
 * the HDD that scores best for the archive, left out because the NAND
 * beside it held more, joins the tier the NAND holds.  A device that serves
 * the tier worse than all of its own is not added to fill it: the need
 * note says what would meet it.  One of another media class than the
 * tier's is never in one volume or array with them (volume.c): a mount of
 * its own, with its own estimate and failure domain.  Said in a plan note.
 */
static int join_short_idle(struct advisor_plan *plan)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		double need = (double)plan->tiers[t].need_bytes, have = placed_usable(plan, t);
		const double low = placed_low(plan, t);

		while (need > 0 && have < need * (1.0 - 1e-9)) {
			ptrdiff_t best = -1;
			char hb[32], nb[32];

			for (size_t d = 0; d < plan->n_devs; d++) {
				const struct advisor_plan_device *pd = &plan->devs[d];

				if (pd->tier >= 0 || pd->excluded || isnan(pd->tier_score[t]) ||
				    pd->tier_score[t] < low || advisor_objections(plan, d, t) ||
				    advisor_drive_in_tier(plan, d, t) || !(advisor_usable(plan, d) > 0))
					continue;
				if (best < 0 || advisor_usable(plan, d) > advisor_usable(plan, (size_t)best))
					best = (ptrdiff_t)d;
			}
			if (best < 0)
				break;
			plan->devs[best].tier = t;
			have += advisor_usable(plan, (size_t)best);
			advisor_fmt_bytes(hb, sizeof(hb), have);
			advisor_fmt_bytes(nb, sizeof(nb), need);
			if (tw_strv_addf(&plan->notes, &plan->n_notes,
					 "%s, idle until then, joins the %s tier, short of its %s need: "
					 "%s usable with it", plan->devs[best].p->id,
					 advisor_tier_name(t), nb, hb) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

int advisor_run_optimizer(struct advisor_plan *plan, const struct advisor_options *opt)
{
	struct advisor_opt_input in;
	struct advisor_opt_result r;
	bool objected;
	int ret = opt_input(plan, &in, &objected);

	if (!ret && plan->buying)	/* what a warning bars is never bought */
		ret = buy_optimize(plan, opt, &in, &r);
	else if (!ret)
		ret = bound_optimize(plan, opt, &in, objected, &r);
	if (!ret && !plan->buying) {
		ret = place_policies(plan, opt, &in, &r);
		if (!ret)
			ret = spread_links(plan, &in, &r);
		if (!ret)
			ret = mirror_first(plan, &in, &r);
		if (ret)
			advisor_opt_result_clear(&r);
	}
	opt_input_clear(&in);
	if (ret)
		return ret;
	ret = take_result(plan, &r);
	advisor_opt_result_clear(&r);
	if (!ret && !plan->buying) {
		join_like_idle(plan);
		ret = join_short_idle(plan);
	}
	return ret;
}

