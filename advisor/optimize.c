/* optimize.c — the assignment of devices to tiers, needs first
 * (advisor_optimize(), see plan.h): the search over the evaluator
 * (opt_eval.c) and the integer programme (opt_milp.c).
 *
 * The programme's assignment is evaluated exactly (advisor_evaluate()),
 * devices that add nothing are dropped, and identical devices join, as do
 * like devices of a hot or cold array (redundancy at no loss).  A tier with
 * no need is no part of the programme: it takes the best spare device for
 * it afterwards.
 *
 * The runner-up is the best plan that changes a decision, not a detail:
 * for each tier, the optimum with the best plan's leading device (highest
 * score) and its twins barred from that tier; the best of those three.
 */
#include "opt_priv.h"
#include "tw_util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NT TW_TIER_COUNT
#define EPS 1e-9

/* ---- one complete optimisation ---------------------------------------- */

struct opt_search {
	const struct advisor_opt_input *in;
	const struct advisor_opt_groups *g;
	struct advisor_opt_scratch *s;
	double deadline;
	unsigned long nodes;
	bool proven;
	double met_bound;	/* no plan meets more needs */
	double score_bound;	/* of the need tiers, among plans meeting as many */
};

/* Devices of need tiers that add nothing are dropped, worst first. */
static void prune(struct opt_search *r, int *assign)
{
	const struct advisor_opt_input *in = r->in;
	struct advisor_eval cur, e;
	size_t m = 0;

	advisor_opt_eval(in, r->g, r->s, assign, &cur);
	for (size_t d = 0; d < in->n; d++)
		if (assign[d] >= 0)
			r->s->list[m++] = d;
	for (size_t k = 0; k < m; k++)
		r->s->col[r->s->list[k]] = in->score[r->s->list[k]][assign[r->s->list[k]]];
	qsort_r(r->s->list, m, sizeof(size_t), advisor_opt_cmp_by_score, r->s->col);
	{
		size_t *order = malloc((m ? m : 1) * sizeof(*order));

		if (!order)
			return;
		memcpy(order, r->s->list, m * sizeof(*order));
		for (size_t k = m; k-- > 0;) {
			size_t d = order[k];
			int t = assign[d];

			assign[d] = -1;
			advisor_opt_eval(in, r->g, r->s, assign, &e);
			if (advisor_opt_no_worse(&e, &cur))
				cur = e;
			else
				assign[d] = t;
		}
		free(order);
	}
}

/*
 * Buying: nothing is bought for a need the plan does not meet (a part of an
 * archive on two small drives is money spent on no need); the plan then
 * says how short it is.  The programme has the same rule (x ≤ met).
 */
static void drop_unmet(struct opt_search *r, int *assign)
{
	struct advisor_eval e;

	advisor_opt_eval(r->in, r->g, r->s, assign, &e);
	for (int t = 0; t < NT; t++)
		if (r->in->need[t] > 0 && e.tier_usable[t] < r->in->need[t] * (1.0 - ADVISOR_MET_TOL))
			for (size_t d = 0; d < r->in->n; d++)
				if (assign[d] == t)
					assign[d] = -1;
}

/* Can d be bought on top of what e spends? */
static bool affordable(const struct advisor_opt_input *in, const struct advisor_eval *e, size_t d)
{
	return !in->price || !(in->budget > 0) || e->cost + in->price[d] <= in->budget;
}

/*
 * Greedy: the best (device, tier) pair while a need is open, the needs
 * judged with arrays counted (advisor_evaluate()).  Phase 1's shortcut and
 * the fallback when the search finds nothing in time.
 */
static void greedy(struct opt_search *r, int *assign)
{
	const struct advisor_opt_input *in = r->in;
	struct advisor_eval e;

	for (;;) {
		double best = -1.0;
		size_t bd = 0;
		int bt = -1;
		bool open[NT];

		advisor_opt_eval(in, r->g, r->s, assign, &e);
		for (int t = 0; t < NT; t++)
			open[t] = in->need[t] > 0 && e.tier_usable[t] < in->need[t] * (1.0 - ADVISOR_MET_TOL);
		for (size_t d = 0; d < in->n; d++)
			for (int t = 0; t < NT && assign[d] < 0; t++)
				if (open[t] && advisor_opt_eligible(in, d, t) && in->score[d][t] > best &&
				    affordable(in, &e, d) && advisor_opt_class_fits(in, assign, d, t) &&
				    advisor_opt_holds(in, r->g, d, t)) {
					best = in->score[d][t];
					bd = d;
					bt = t;
				}
		if (bt < 0)
			return;
		assign[bd] = bt;
	}
}

/* Σ over tiers with a need of the best score any device has there. */
static double top_scores(const struct advisor_opt_input *in)
{
	double sum = 0.0;

	for (int t = 0; t < NT; t++) {
		double top = 0.0;

		for (size_t d = 0; d < in->n && in->need[t] > 0; d++)
			if (advisor_opt_eligible(in, d, t))
				top = fmax(top, in->score[d][t]);
		sum += top;
	}
	return sum;
}

/* Does the greedy plan meet every need?  Then phase 1 is proven. */
static bool all_met(struct opt_search *r, int *assign, int n_need)
{
	struct advisor_eval e;

	greedy(r, assign);
	advisor_opt_eval(r->in, r->g, r->s, assign, &e);
	for (size_t d = 0; d < r->in->n; d++)
		assign[d] = -1;
	return e.valid && e.met == (unsigned)n_need;
}

/*
 * The need tiers: phase 1 (most needs met), phase 2 (the best score among
 * plans meeting as many), phase 3 when buying the cheapest (in->cheapest).
 * assign: n entries.
 */
static int solve_needs(struct opt_search *r, int *assign)
{
	const struct advisor_opt_input *in = r->in;
	struct advisor_milp *p = NULL;
	struct advisor_milp_out o1 = { 0 }, o2 = { 0 };
	int ret, n_need = 0;

	for (int t = 0; t < NT; t++)
		n_need += in->need[t] > 0;
	r->proven = true;
	r->met_bound = 0.0;
	r->score_bound = 0.0;
	for (size_t d = 0; d < in->n; d++)
		assign[d] = -1;
	if (!n_need)
		return 0;
	ret = advisor_milp_make(in, r->g, &p);
	if (!ret && all_met(r, assign, n_need)) {	/* phase 1 needs no search */
		o1.found = o1.proven = true;
		o1.obj = o1.bound = (double)n_need;
	} else if (!ret) {
		advisor_milp_solve_met(p, r->deadline, &o1);
	}
	r->nodes += o1.nodes;
	r->met_bound = fmin(floor(o1.bound + 1e-6), (double)n_need);
	if (!ret && o1.found)
		ret = advisor_milp_phase2(p, in, round(o1.obj));
	if (!ret && o1.found)
		advisor_milp_solve(p, r->deadline, &o2);
	r->nodes += o2.nodes;
	if (!ret && o2.found) {
		advisor_milp_take(p, in, assign);
		r->score_bound = o2.bound + ADVISOR_DEVICE_COST * (double)in->n -
				 ADVISOR_SHORTFALL_PENALTY * n_need;
	}
	if (!ret && o2.found && in->cheapest && in->price) {
		struct advisor_milp_out o3 = { 0 };

		ret = advisor_milp_phase3(p, in, o2.obj);
		if (!ret)
			advisor_milp_solve(p, r->deadline, &o3);
		r->nodes += o3.nodes;
		o2.proven = o2.proven && o3.proven;
		if (o3.found)	/* else phase 2's plan stands */
			advisor_milp_take(p, in, assign);
	}
	if (!ret && !o2.found) {	/* no solution in time: greedy, and the plain bound */
		greedy(r, assign);
		r->score_bound = top_scores(in);
	}
	r->proven = o1.proven && o2.proven;
	advisor_milp_free(p);
	if (!ret)
		prune(r, assign);
	if (!ret && in->price)
		drop_unmet(r, assign);
	return ret;
}

/* Tiers with no need take the best spare device for them (all pairings). */
static void spares(const struct advisor_opt_input *in, int *assign)
{
	enum { TOP = NT + 1 };
	ptrdiff_t cand[NT][TOP];
	int idx[NT] = { 0 }, best_idx[NT] = { 0 };
	double best = -1.0;

	for (int t = 0; t < NT; t++) {
		for (int k = 0; k < TOP; k++)
			cand[t][k] = -1;
		if (in->need[t] > 0)
			continue;
		for (size_t d = 0; d < in->n; d++) {	/* the TOP best spares for t */
			ptrdiff_t c = (ptrdiff_t)d;

			if (assign[d] >= 0 || !advisor_opt_eligible(in, d, t))
				continue;
			for (int k = 0; k < TOP && c >= 0; k++)
				if (cand[t][k] < 0 || in->score[c][t] > in->score[cand[t][k]][t]) {
					ptrdiff_t tmp = cand[t][k];

					cand[t][k] = c;
					c = tmp;
				}
		}
	}
	for (;;) {		/* every pairing: idx[t] = candidate k or TOP (none) */
		double sum = 0.0;
		bool clash = false;

		for (int t = 0; t < NT; t++) {
			ptrdiff_t c = idx[t] < TOP ? cand[t][idx[t]] : -1;

			if (idx[t] < TOP && c < 0)
				clash = true;
			for (int u = 0; u < t && c >= 0; u++)
				if (idx[u] < TOP && cand[u][idx[u]] == c)
					clash = true;
			if (c >= 0)
				sum += in->score[c][t];
		}
		if (!clash && sum > best + EPS) {
			best = sum;
			memcpy(best_idx, idx, sizeof(idx));
		}
		int t = 0;

		while (t < NT && ++idx[t] > TOP)
			idx[t++] = 0;
		if (t == NT)
			break;
	}
	for (int t = 0; t < NT; t++)
		if (best_idx[t] < TOP && cand[t][best_idx[t]] >= 0)
			assign[cand[t][best_idx[t]]] = t;
}

/*
 * Unassigned devices join a tier if nothing is lost: those identical to one
 * in any tier, and those like one in hot or cold (the same group), which
 * then form or widen its mirror or parity array — redundancy for the only
 * copy of a database or an archive, from a disk that would stand idle.
 */
static void join_idle(struct opt_search *r, int *assign)
{
	const struct advisor_opt_input *in = r->in;
	struct advisor_eval cur, e;

	advisor_opt_eval(in, r->g, r->s, assign, &cur);
	for (size_t d = 0; d < in->n; d++)
		for (size_t j = 0; j < in->n && assign[d] < 0; j++) {
			if (assign[j] < 0 || !advisor_opt_eligible(in, d, assign[j]) ||
			    !(advisor_opt_twins(in, d, j) || (advisor_opt_group_of(in, r->g, d, assign[j]) >= 0 &&
						   in->group[d] == in->group[j])))
				continue;
			assign[d] = assign[j];
			advisor_opt_eval(in, r->g, r->s, assign, &e);
			if (advisor_opt_no_worse(&e, &cur))
				cur = e;
			else
				assign[d] = -1;
			break;
		}
}

static int solve_all(struct opt_search *r, int *assign)
{
	int ret = solve_needs(r, assign);

	if (ret)
		return ret;
	if (r->in->price)	/* buying: no spares to buy, no twins to add */
		return 0;
	spares(r->in, assign);
	join_idle(r, assign);
	return 0;
}

/* ---- the optimum and the runner-up ------------------------------------ */

static ptrdiff_t leader(const struct advisor_opt_input *in, const int *assign, int t)
{
	ptrdiff_t top = -1;

	for (size_t d = 0; d < in->n; d++) {
		if (assign[d] != t)
			continue;
		if (top < 0 || in->score[d][t] > in->score[top][t] ||
		    (in->score[d][t] == in->score[top][t] && in->capacity[d] > in->capacity[top]))
			top = (ptrdiff_t)d;
	}
	return top;
}

static int runner_up(struct opt_search *r, struct advisor_opt_result *out)
{
	const struct advisor_opt_input *in = r->in;
	double (*sc)[NT] = malloc((in->n ? in->n : 1) * sizeof(*sc));
	int *assign = malloc((in->n ? in->n : 1) * sizeof(int));
	struct advisor_opt_input alt = *in;
	struct opt_search ra = *r;
	int ret = 0;

	if (!sc || !assign) {
		free(sc);
		free(assign);
		return -ENOMEM;
	}
	alt.score = (const double (*)[NT])sc;
	ra.in = &alt;
	for (int t = 0; t < NT && !ret && (tw_now_ns() / 1e9) < r->deadline; t++) {
		ptrdiff_t lead = leader(in, out->best.tier, t);
		struct advisor_eval e;

		if (lead < 0)
			continue;
		memcpy(sc, in->score, in->n * sizeof(*sc));
		for (size_t j = 0; j < in->n; j++)	/* the leader and its twins */
			if (advisor_opt_twins(in, (size_t)lead, j))
				sc[j][t] = NAN;
		ret = solve_all(&ra, assign);
		r->nodes = ra.nodes;
		if (ret)
			break;
		advisor_opt_eval(in, r->g, r->s, assign, &e);
		if (e.valid && e.used && (!out->runner_up.valid || advisor_opt_better(&e, &out->runner_up.e))) {
			memcpy(out->runner_up.tier, assign, in->n * sizeof(int));
			out->runner_up.e = e;
			out->runner_up.valid = true;
		}
	}
	free(sc);
	free(assign);
	return ret;
}

/* Bounds of the plan: its score among plans meeting as many needs; needs met. */
static void bounds(const struct opt_search *r, struct advisor_opt_result *out)
{
	const struct advisor_opt_input *in = r->in;
	const struct advisor_eval *e = &out->best.e;
	double spare_q = 0.0;

	for (int t = 0; t < NT; t++)
		if (!(in->need[t] > 0))
			spare_q += e->tier_quality[t];
	out->exact = r->proven;
	out->met_bound = fmax((double)e->met, r->met_bound);
	out->bound = r->proven ? e->score : fmax(e->score, r->score_bound + spare_q);
}

int advisor_optimize(const struct advisor_opt_input *in, double time_limit,
		     struct advisor_opt_result *out)
{
	struct advisor_opt_groups g = { 0 };
	struct advisor_opt_scratch s = { 0 };
	struct opt_search r = { .in = in, .g = &g, .s = &s };
	double t0 = (tw_now_ns() / 1e9);
	int ret;

	if (!in || !out || (in->n && (!in->score || !in->capacity)))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	r.deadline = t0 + (time_limit > 0 ? time_limit : ADVISOR_OPT_DEFAULT_SECONDS);
	ret = advisor_opt_groups_make(in, &g);
	if (!ret)
		ret = advisor_opt_scratch_make(in->n, &s);
	if (!ret) {
		out->best.tier = malloc((in->n ? in->n : 1) * sizeof(int));
		out->runner_up.tier = malloc((in->n ? in->n : 1) * sizeof(int));
		if (!out->best.tier || !out->runner_up.tier)
			ret = -ENOMEM;
	}
	if (!ret)
		ret = solve_all(&r, out->best.tier);
	if (!ret) {
		advisor_opt_eval(in, &g, &s, out->best.tier, &out->best.e);
		out->best.valid = true;
		bounds(&r, out);
		if (!in->no_runner_up)
			ret = runner_up(&r, out);
	}

	out->nodes = r.nodes;
	out->seconds = (tw_now_ns() / 1e9) - t0;
	advisor_opt_groups_clear(&g);
	advisor_opt_scratch_clear(&s);
	if (ret)
		advisor_opt_result_clear(out);
	return ret;
}

void advisor_opt_result_clear(struct advisor_opt_result *r)
{
	if (!r)
		return;
	free(r->best.tier);
	free(r->runner_up.tier);
	memset(r, 0, sizeof(*r));
}
