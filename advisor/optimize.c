/* optimize.c — the assignment of devices to tiers, needs first (see plan.h).
 *
 * Every device goes to one tier or none.  The order of what counts:
 *   1. coverage: Σ over tiers with a need of the share of the need their
 *      usable capacity covers (at most 1 each) — the plan that covers more
 *      of the stated needs wins;
 *   2. quality: Σ over those tiers of Σ score × capacity counted ÷ need,
 *      where the capacity counted is the best capacity first, up to the
 *      need (the mean score of what holds the need, times the share held);
 *   3. fewer devices.
 * Usable capacity counts md arrays inside the optimisation: like devices
 * of one group (plan.c: raid.c's "alike") in the hot or cold tier give
 * advisor_raid_data_disks() × the group's smallest member, as their mirror
 * or parity array would.  A tier with no need is no part of this: it takes
 * the best spare device for it afterwards.
 *
 * Solved as two mixed-integer programmes with GLPK (branch and cut): the
 * largest coverage, then the best quality among plans that cover as much.
 * Variables per eligible (device, tier with a need): x (binary, assigned)
 * and a (the share of the tier's need it holds, ≤ capacity ÷ need × x);
 * Σ_t x ≤ 1 per device, Σ_d a ≤ 1 per tier.  Per like group g in hot or
 * cold with m ≥ 2 eligible members and y = Σ x of them:
 *   Σ a ≤ Σ (cap_d − capmin) ÷ need × x + capmin ÷ need × D, where D, the
 *   data disks, is bounded by the RAID level's rule:
 *   hot  D ≤ p + w, 2p ≤ y (p integer pairs), D ≤ y, y ≤ 1 + (m−1)(1−w)
 *        (w: a lone device) — 1 for two or three, ⌊y/2⌋ from four;
 *   cold D ≤ y − b2 − b4, y ≤ 1 + (m−1) b2, y ≤ 3 + (m−3) b4 — RAID1 of
 *        two 1, RAID5 of three 2, RAID6 from four y − 2.
 * The assignment GLPK returns is evaluated exactly (advisor_evaluate()),
 * devices that add nothing are dropped, and identical devices join, as do
 * like devices of a hot or cold array (redundancy at no loss).
 * A time limit stops the search; the best bound of the open nodes then says
 * how far from optimal the plan can be.
 *
 * The runner-up is the best plan that changes a decision, not a detail:
 * for each tier, the optimum with the best plan's leading device (highest
 * score) and its twins barred from that tier; the best of those three.
 */
#include "plan.h"
#include "tw_util.h"

#include <errno.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NT TW_TIER_COUNT
#define EPS 1e-9
#define DEVICE_COST 1e-5	/* quality points per device: fewer devices on ties */
#define MET_TOL 1e-9		/* a need is met when covered to this share */

static bool eligible(const struct advisor_opt_input *in, size_t d, int t)
{
	return !isnan(in->score[d][t]);
}

static enum advisor_array_rule rule(const struct advisor_opt_input *in, int t)
{
	return advisor_array_rule_of(in->rule[t], t);
}

/* Do like devices of tier t form an array that counts less than their sum? */
static bool redundant(const struct advisor_opt_input *in, int t)
{
	return in->required[t] || rule(in, t) != ADVISOR_ARRAY_STRIPE;
}

/* Do a and b belong to one media class in tier t (or may classes mix)? */
static bool same_class(const struct advisor_opt_input *in, size_t a, size_t b, int t)
{
	return !in->cls || in->cls[a][t] == in->cls[b][t];
}

/* May d join tier t of assign: no device of another class is there. */
static bool class_fits(const struct advisor_opt_input *in, const int *assign, size_t d, int t)
{
	for (size_t j = 0; in->cls && j < in->n; j++)
		if (assign[j] == t && !same_class(in, d, j, t))
			return false;
	return true;
}

/* ---- groups of like devices ------------------------------------------- */

struct groups {
	size_t *size;		/* members per group id (ids are device indices) */
	double *capmin;		/* smallest member's capacity */
};

static int groups_make(const struct advisor_opt_input *in, struct groups *g)
{
	g->size = calloc(in->n ? in->n : 1, sizeof(*g->size));
	g->capmin = calloc(in->n ? in->n : 1, sizeof(*g->capmin));
	if (!g->size || !g->capmin)
		return -ENOMEM;
	for (size_t d = 0; in->group && d < in->n; d++) {
		int id = in->group[d];

		if (id < 0 || (size_t)id >= in->n)
			continue;
		if (!g->size[id] || in->capacity[d] < g->capmin[id])
			g->capmin[id] = in->capacity[d];
		g->size[id]++;
	}
	return 0;
}

static void groups_clear(struct groups *g)
{
	free(g->size);
	free(g->capmin);
}

/* The group of d that forms an array in tier t, or -1. */
static int group_of(const struct advisor_opt_input *in, const struct groups *g,
		    size_t d, int t)
{
	int id = in->group ? in->group[d] : -1;

	if (!redundant(in, t) || id < 0 || (size_t)id >= in->n || g->size[id] < 2)
		return -1;
	return id;
}

/* The rule of tier t's arrays: a required tier's lone device holds nothing. */
static size_t data_disks(const struct advisor_opt_input *in, int t, size_t count)
{
	enum advisor_array_rule r = rule(in, t);

	if (in->required[t] && count < 2)
		return 0;
	if (in->required[t] && r == ADVISOR_ARRAY_STRIPE)
		r = ADVISOR_ARRAY_MIRROR;
	return advisor_array_data_disks(r, t, count);
}

/* Can device d hold any of tier t's need?  In a required tier only with a
 * like device that may join it there (a pair for a mirror). */
static bool holds(const struct advisor_opt_input *in, const struct groups *g, size_t d, int t)
{
	int id = group_of(in, g, d, t);

	if (!in->required[t])
		return true;
	for (size_t j = 0; id >= 0 && j < in->n; j++)
		if (j != d && in->group[j] == id && eligible(in, j, t))
			return true;
	return false;
}

/* ---- exact evaluation ------------------------------------------------- */

static int cmp_by_score(const void *a, const void *b, void *arg)
{
	const double *s = arg;
	double x = s[*(const size_t *)a], y = s[*(const size_t *)b];

	if (x != y)
		return x > y ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

struct scratch {
	size_t *list;		/* devices of one tier */
	double *col;		/* their scores, by device */
	size_t *count;		/* members per group in the tier */
	double *rem;		/* group capacity left */
};

/* One tier: usable, covered share, quality (Σ score × counted ÷ need). */
static void eval_tier(const struct advisor_opt_input *in, const struct groups *g,
		      const int *assign, int t, struct scratch *s, struct advisor_eval *out)
{
	double need = in->need[t], covered = 0.0, qsum = 0.0, usable = 0.0, capsum = 0.0;
	size_t m = 0;

	for (size_t d = 0; d < in->n; d++) {
		int id = group_of(in, g, d, t);

		if (assign[d] != t)
			continue;
		s->list[m++] = d;
		s->col[d] = in->score[d][t];
		if (id >= 0)
			s->count[id]++;
	}
	for (size_t k = 0; k < m; k++) {	/* each group's array capacity */
		int id = group_of(in, g, s->list[k], t);

		if (id >= 0 && s->count[id]) {
			s->rem[id] = g->capmin[id] * (double)data_disks(in, t, s->count[id]);
			s->count[id] = 0;
		}
	}
	for (size_t k = 0; k < m; k++) {
		int id = group_of(in, g, s->list[k], t);

		if (id >= 0)
			s->rem[id] += in->capacity[s->list[k]] - g->capmin[id];
	}
	qsort_r(s->list, m, sizeof(*s->list), cmp_by_score, s->col);
	for (size_t k = 0; k < m; k++) {
		size_t d = s->list[k];
		int id = group_of(in, g, d, t);
		double avail = holds(in, g, d, t) ? in->capacity[d] : 0.0, take;

		if (id >= 0) {
			avail = fmin(avail, fmax(s->rem[id], 0.0));
			s->rem[id] -= avail;
		}
		usable += avail;
		capsum += in->capacity[d];
		qsum += in->score[d][t] * (need > 0 ? (take = fmin(avail, need - covered)) :
					   (take = in->capacity[d]));
		covered += take;
	}
	out->tier_usable[t] = usable;
	if (need > 0) {
		out->met += covered >= need * (1.0 - MET_TOL);
		out->coverage += covered / need;
		out->quality += qsum / need;
		out->score -= ADVISOR_SHORTFALL_PENALTY * (1.0 - covered / need);
		out->tier_quality[t] = covered > 0 ? qsum / covered : 0.0;
	} else {
		out->tier_quality[t] = capsum > 0 ? qsum / capsum : 0.0;
		out->quality += out->tier_quality[t];
	}
}

static int scratch_make(size_t n, struct scratch *s)
{
	size_t k = n ? n : 1;

	s->list = calloc(k, sizeof(*s->list));
	s->col = calloc(k, sizeof(*s->col));
	s->count = calloc(k, sizeof(*s->count));
	s->rem = calloc(k, sizeof(*s->rem));
	return s->list && s->col && s->count && s->rem ? 0 : -ENOMEM;
}

static void scratch_clear(struct scratch *s)
{
	free(s->list);
	free(s->col);
	free(s->count);
	free(s->rem);
}

static void evaluate(const struct advisor_opt_input *in, const struct groups *g,
		     struct scratch *s, const int *assign, struct advisor_eval *out)
{
	memset(out, 0, sizeof(*out));
	out->valid = true;
	for (size_t d = 0; d < in->n; d++) {
		if (assign[d] < 0)
			continue;
		out->used++;
		out->cost += in->price ? in->price[d] : 0.0;
		if (assign[d] >= NT || !eligible(in, d, assign[d]) ||
		    !class_fits(in, assign, d, assign[d]))
			out->valid = false;
	}
	if (in->budget > 0 && out->cost > in->budget * (1.0 + 1e-12))
		out->valid = false;
	if (!out->valid)
		return;
	for (int t = 0; t < NT; t++)
		eval_tier(in, g, assign, t, s, out);
	out->score += out->quality;
}

int advisor_evaluate(const struct advisor_opt_input *in, const int *assign,
		     struct advisor_eval *out)
{
	struct groups g = { 0 };
	struct scratch s = { 0 };
	int ret = groups_make(in, &g);

	if (!ret)
		ret = scratch_make(in->n, &s);
	if (!ret)
		evaluate(in, &g, &s, assign, out);
	groups_clear(&g);
	scratch_clear(&s);
	return ret;
}

/* Is a strictly better than b?  Needs met, then score, then fewer devices. */
static bool better(const struct advisor_eval *a, const struct advisor_eval *b)
{
	if (!b->valid)
		return a->valid;
	if (!a->valid)
		return false;
	if (a->met != b->met)
		return a->met > b->met;
	if (fabs(a->score - b->score) > 1e-7)
		return a->score > b->score;
	return a->used < b->used;
}

/* a loses nothing against b: as many needs met, a score at least as high. */
static bool no_worse(const struct advisor_eval *a, const struct advisor_eval *b)
{
	return a->valid && a->met >= b->met && a->score >= b->score - 1e-7;
}

/* ---- the integer programme (GLPK) ------------------------------------- */

struct milp {
	glp_prob *lp;
	int *x, *a;		/* column per (device, tier), 0 = none; n × NT */
	int met[NT];		/* binary: tier t's need is met (Σ a ≥ 1) */
	bool integral;		/* the objective takes integer values (phase 1) */
	unsigned long nodes;
	double bound;		/* best bound of the open nodes at the last callback */
	bool have_bound, incumbent;
};

static int add_col(glp_prob *lp, int kind, double lo, double hi, double obj)
{
	int j = glp_add_cols(lp, 1);

	glp_set_col_kind(lp, j, kind);
	glp_set_col_bnds(lp, j, lo < hi ? GLP_DB : GLP_FX, lo, hi);
	glp_set_obj_coef(lp, j, obj);
	return j;
}

/* A row Σ val[k] × x[ind[k]] ≤ hi (k from 1, as GLPK counts). */
static void add_row_le(glp_prob *lp, int len, const int *ind, const double *val, double hi)
{
	int i = glp_add_rows(lp, 1);

	glp_set_row_bnds(lp, i, GLP_UP, 0.0, hi);
	glp_set_mat_row(lp, i, len, ind, val);
}

struct rowbuf {
	int *ind;
	double *val;
	int len;
};

static void rb_put(struct rowbuf *r, int col, double v)
{
	r->len++;
	r->ind[r->len] = col;
	r->val[r->len] = v;
}

/* The array rows of group id in tier t (members eligible there: m ≥ 2). */
static void group_rows(struct milp *p, const struct advisor_opt_input *in,
		       const struct groups *g, int id, int t, struct rowbuf *rb)
{
	const double need = in->need[t], cmin = g->capmin[id];
	size_t m = 0;
	int D, p2 = 0, w = 0, b2 = 0, b4 = 0;

	const bool mirror = rule(in, t) != ADVISOR_ARRAY_PARITY;

	for (size_t d = 0; d < in->n; d++)
		m += group_of(in, g, d, t) == id && p->x[d * NT + t];
	if (m < 2)
		return;
	D = add_col(p->lp, GLP_CV, 0.0, (double)m, 0.0);
	if (mirror) {	/* a required tier: no lone device (w = 0) */
		p2 = add_col(p->lp, GLP_IV, 0.0, (double)(m / 2), 0.0);
		w = add_col(p->lp, GLP_BV, 0.0, in->required[t] ? 0.0 : 1.0, 0.0);
	} else {
		b2 = add_col(p->lp, GLP_BV, 0.0, 1.0, 0.0);
		if (m >= 4)
			b4 = add_col(p->lp, GLP_BV, 0.0, 1.0, 0.0);
	}
	/* Σ a − Σ (cap − cmin)/need x − cmin/need D ≤ 0 */
	rb->len = 0;
	for (size_t d = 0; d < in->n; d++)
		if (group_of(in, g, d, t) == id && p->x[d * NT + t]) {
			rb_put(rb, p->a[d * NT + t], 1.0);
			if (in->capacity[d] > cmin)
				rb_put(rb, p->x[d * NT + t], -(in->capacity[d] - cmin) / need);
		}
	rb_put(rb, D, -cmin / need);
	add_row_le(p->lp, rb->len, rb->ind, rb->val, 0.0);
	/* the count rows: y = Σ x */
	for (int r = 0; r < (mirror ? 3 : b4 ? 3 : 2); r++) {
		double cy = 0.0, hi = 0.0;

		rb->len = 0;
		if (mirror && r == 0) {	/* 2p − y ≤ 0 */
			rb_put(rb, p2, 2.0);
			cy = -1.0;
		} else if (mirror && r == 1) {	/* D − y ≤ 0 */
			rb_put(rb, D, 1.0);
			cy = -1.0;
		} else if (mirror) {	/* y + (m−1) w ≤ m */
			rb_put(rb, w, (double)(m - 1));
			cy = 1.0;
			hi = (double)m;
		} else if (r == 0) {	/* D − y + b2 + b4 ≤ 0 */
			rb_put(rb, D, 1.0);
			rb_put(rb, b2, 1.0);
			if (b4)
				rb_put(rb, b4, 1.0);
			cy = -1.0;
		} else if (r == 1) {	/* y − (m−1) b2 ≤ 1 */
			rb_put(rb, b2, -(double)(m - 1));
			cy = 1.0;
			hi = 1.0;
		} else {		/* y − (m−3) b4 ≤ 3 */
			rb_put(rb, b4, -(double)(m - 3));
			cy = 1.0;
			hi = 3.0;
		}
		for (size_t d = 0; d < in->n; d++)
			if (group_of(in, g, d, t) == id && p->x[d * NT + t])
				rb_put(rb, p->x[d * NT + t], cy);
		add_row_le(p->lp, rb->len, rb->ind, rb->val, hi);
	}
	if (mirror) {	/* D − p − w ≤ 0 */
		rb->len = 0;
		rb_put(rb, D, 1.0);
		rb_put(rb, p2, -1.0);
		rb_put(rb, w, -1.0);
		add_row_le(p->lp, rb->len, rb->ind, rb->val, 0.0);
	} else if (in->required[t]) {	/* D − m b2 ≤ 0: no lone device */
		rb->len = 0;
		rb_put(rb, D, 1.0);
		rb_put(rb, b2, -(double)m);
		add_row_le(p->lp, rb->len, rb->ind, rb->val, 0.0);
	}
}

static bool twins(const struct advisor_opt_input *in, size_t a, size_t b);

/*
 * Identical devices are interchangeable: of twins j < d (the nearest), j is
 * used first (Σ_t x_j ≥ Σ_t x_d) and in a tier no later than d's
 * (Σ t x_j − Σ t x_d + NT Σ x_d ≤ NT), so one order of them is searched.
 */
static void twin_rows(struct milp *p, const struct advisor_opt_input *in, struct rowbuf *rb)
{
	for (size_t d = 1; d < in->n; d++) {
		size_t j = d;

		while (j-- > 0 && !twins(in, j, d))
			;
		if (j >= d)	/* wrapped: no twin before d */
			continue;
		for (int row = 0; row < 2; row++) {
			rb->len = 0;
			for (int t = 0; t < NT; t++) {
				if (!p->x[j * NT + t] || !p->x[d * NT + t])
					continue;
				rb_put(rb, p->x[j * NT + t], row ? (double)t : -1.0);
				rb_put(rb, p->x[d * NT + t], row ? (double)(NT - t) : 1.0);
			}
			if (rb->len)
				add_row_le(p->lp, rb->len, rb->ind, rb->val, row ? (double)NT : 0.0);
		}
	}
}

/*
 * One media class per tier: per class c present in tier t a binary z,
 * x_dt ≤ z for each device d of c (the tight form: the LP relaxation
 * keeps it), and Σ_c z ≤ 1.  The classes are the distinct values of
 * in->cls[·][t] among the tier's columns.
 */
static void class_rows(struct milp *p, const struct advisor_opt_input *in, struct rowbuf *rb)
{
	for (int t = 0; in->cls && t < NT; t++) {
		int zs[64], nz = 0;

		for (size_t d = 0; d < in->n; d++) {
			size_t j;

			if (!p->x[d * NT + t])
				continue;
			for (j = 0; j < d; j++)	/* first of its class in t */
				if (p->x[j * NT + t] && in->cls[j][t] == in->cls[d][t])
					break;
			if (j < d)
				continue;
			if (nz == (int)ARRAY_SIZE(zs))
				break;	/* more classes than that: evaluate() still checks */
			zs[nz] = add_col(p->lp, GLP_BV, 0.0, 1.0, 0.0);
			for (size_t k = d; k < in->n; k++) {
				if (!p->x[k * NT + t] || in->cls[k][t] != in->cls[d][t])
					continue;
				rb->len = 0;
				rb_put(rb, p->x[k * NT + t], 1.0);
				rb_put(rb, zs[nz], -1.0);
				add_row_le(p->lp, rb->len, rb->ind, rb->val, 0.0);
			}
			nz++;
		}
		if (nz > 1) {
			rb->len = 0;
			for (int k = 0; k < nz; k++)
				rb_put(rb, zs[k], 1.0);
			add_row_le(p->lp, rb->len, rb->ind, rb->val, 1.0);
		} else if (nz == 1) {	/* one class: its z is free */
			glp_set_col_bnds(p->lp, zs[0], GLP_FX, 1.0, 1.0);
		}
	}
}

/*
 * The least a need could cost on its own: the cheapest set of devices of
 * one media class of tier t whose capacity covers the need (arrays only
 * lower the capacity, so this is a lower bound), over its classes; a small
 * knapsack solved by GLPK.  INFINITY when none covers it.
 */
static double min_cover_cost(const struct milp *p, const struct advisor_opt_input *in, int t)
{
	double best = INFINITY;

	for (size_t c0 = 0; c0 < in->n; c0++) {
		glp_prob *lp;
		glp_iocp parm;
		int row[2] = { 0, 0 }, cols = 0, *ind;
		double *val;
		bool first = p->x[c0 * NT + t] != 0;

		for (size_t j = 0; first && in->cls && j < c0; j++)	/* one solve per class */
			first = !(p->x[j * NT + t] && in->cls[j][t] == in->cls[c0][t]);
		if (!first)
			continue;
		ind = calloc(in->n + 1, sizeof(*ind));
		val = calloc(in->n + 1, sizeof(*val));
		lp = glp_create_prob();
		if (!ind || !val || !lp) {
			free(ind);
			free(val);
			if (lp)
				glp_delete_prob(lp);
			return 0.0;	/* no bound: the cut says nothing */
		}
		glp_set_obj_dir(lp, GLP_MIN);
		row[1] = glp_add_rows(lp, 1);
		for (size_t d = c0; d < in->n; d++)
			if (p->x[d * NT + t] && (!in->cls || in->cls[d][t] == in->cls[c0][t])) {
				ind[++cols] = add_col(lp, GLP_BV, 0.0, 1.0, in->price[d]);
				val[cols] = in->capacity[d];
			}
		glp_set_row_bnds(lp, row[1], GLP_LO, in->need[t] * (1.0 - MET_TOL), 0.0);
		glp_set_mat_row(lp, row[1], cols, ind, val);
		glp_init_iocp(&parm);
		parm.presolve = GLP_ON;
		parm.msg_lev = GLP_MSG_OFF;
		parm.tm_lim = 1000;
		if (glp_intopt(lp, &parm) == 0 && glp_mip_status(lp) == GLP_OPT)
			best = fmin(best, glp_mip_obj_val(lp));
		else if (glp_mip_status(lp) != GLP_NOFEAS)
			best = 0.0;	/* not proven in time: no bound */
		glp_delete_prob(lp);
		free(ind);
		free(val);
	}
	return best;
}

/*
 * Buying within a budget: Σ_t mincost_t × met_t ≤ budget, where mincost_t
 * is the least tier t's need could cost alone — which needs the budget can
 * meet together, a cut the relaxation would not find (it proves "not all
 * three within 600" at the root instead of after thousands of nodes).
 */
static void budget_cut(struct milp *p, const struct advisor_opt_input *in, struct rowbuf *rb)
{
	rb->len = 0;
	for (int t = 0; t < NT; t++) {
		double c;

		if (!p->met[t])
			continue;
		c = min_cover_cost(p, in, t);
		if (isinf(c))	/* no set covers it: never met */
			glp_set_col_bnds(p->lp, p->met[t], GLP_FX, 0.0, 0.0);
		else if (c > 0)
			rb_put(rb, p->met[t], c);
	}
	if (rb->len)
		add_row_le(p->lp, rb->len, rb->ind, rb->val, in->budget);
}

static int milp_build(struct milp *p, const struct advisor_opt_input *in,
		      const struct groups *g)
{
	struct rowbuf rb;
	size_t cells = (in->n ? in->n : 1) * NT;

	p->x = calloc(cells, sizeof(*p->x));
	p->a = calloc(cells, sizeof(*p->a));
	rb.ind = calloc(in->n * 3 + 8, sizeof(*rb.ind));
	rb.val = calloc(in->n * 3 + 8, sizeof(*rb.val));
	if (!p->x || !p->a || !rb.ind || !rb.val) {
		free(rb.ind);
		free(rb.val);
		return -ENOMEM;
	}
	p->lp = glp_create_prob();
	glp_set_obj_dir(p->lp, GLP_MAX);
	for (size_t d = 0; d < in->n; d++)
		for (int t = 0; t < NT; t++) {
			double share;

			if (!(in->need[t] > 0) || !eligible(in, d, t) || !(in->capacity[d] > 0) ||
			    !holds(in, g, d, t))
				continue;
			share = fmin(in->capacity[d] / in->need[t], 1.0);	/* tight: a ≤ 1 anyway */
			p->x[d * NT + t] = add_col(p->lp, GLP_BV, 0.0, 1.0, 0.0);
			p->a[d * NT + t] = add_col(p->lp, GLP_CV, 0.0, share, 0.0);
			rb.len = 0;	/* a − share x ≤ 0 */
			rb_put(&rb, p->a[d * NT + t], 1.0);
			rb_put(&rb, p->x[d * NT + t], -share);
			add_row_le(p->lp, rb.len, rb.ind, rb.val, 0.0);
		}
	for (size_t d = 0; d < in->n; d++) {	/* one tier per device */
		rb.len = 0;
		for (int t = 0; t < NT; t++)
			if (p->x[d * NT + t])
				rb_put(&rb, p->x[d * NT + t], 1.0);
		if (rb.len > 1)
			add_row_le(p->lp, rb.len, rb.ind, rb.val, 1.0);
	}
	for (int t = 0; t < NT; t++) {	/* Σ a ≤ 1: the need, no more; met ≤ Σ a */
		rb.len = 0;
		for (size_t d = 0; d < in->n; d++)
			if (p->a[d * NT + t])
				rb_put(&rb, p->a[d * NT + t], 1.0);
		if (!rb.len)
			continue;
		add_row_le(p->lp, rb.len, rb.ind, rb.val, 1.0);
		p->met[t] = add_col(p->lp, GLP_BV, 0.0, 1.0, 1.0);
		for (int k = 1; k <= rb.len; k++)
			rb.val[k] = -1.0;
		rb_put(&rb, p->met[t], 1.0);
		add_row_le(p->lp, rb.len, rb.ind, rb.val, 0.0);
	}
	for (size_t d = 0; in->price && d < in->n; d++)	/* buying: met or none */
		for (int t = 0; t < NT; t++)
			if (p->x[d * NT + t] && p->met[t]) {
				rb.len = 0;
				rb_put(&rb, p->x[d * NT + t], 1.0);
				rb_put(&rb, p->met[t], -1.0);
				add_row_le(p->lp, rb.len, rb.ind, rb.val, 0.0);
			}
	if (in->price && in->budget > 0)
		budget_cut(p, in, &rb);
	if (in->price && in->budget > 0) {	/* Σ price × x ≤ budget */
		rb.len = 0;
		for (size_t d = 0; d < in->n; d++)
			for (int t = 0; t < NT; t++)
				if (p->x[d * NT + t] && in->price[d] > 0)
					rb_put(&rb, p->x[d * NT + t], in->price[d]);
		if (rb.len)
			add_row_le(p->lp, rb.len, rb.ind, rb.val, in->budget);
	}
	twin_rows(p, in, &rb);
	class_rows(p, in, &rb);
	for (int t = 0; t < NT; t++)	/* each group once: its id is a member's index */
		for (size_t d = 0; d < in->n; d++)
			if (group_of(in, g, d, t) == (int)d)
				group_rows(p, in, g, (int)d, t, &rb);
	free(rb.ind);
	free(rb.val);
	return 0;
}

static void milp_clear(struct milp *p)
{
	if (p->lp)
		glp_delete_prob(p->lp);
	free(p->x);
	free(p->a);
	memset(p, 0, sizeof(*p));
}

static void callback(glp_tree *tree, void *info)
{
	struct milp *p = info;
	int node = glp_ios_best_node(tree), total = 0;

	glp_ios_tree_size(tree, NULL, NULL, &total);
	p->nodes = (unsigned long)total;
	if (node) {
		p->bound = glp_ios_node_bound(tree, node);
		p->have_bound = true;
	}
	if (glp_ios_reason(tree) == GLP_IBINGO)
		p->incumbent = true;
	/* needs met are whole: a bound below the incumbent + 1 proves it */
	if (p->integral && p->incumbent && node &&
	    p->bound < glp_mip_obj_val(glp_ios_get_prob(tree)) + 1.0 - 1e-6)
		glp_ios_terminate(tree);
}

struct solve_out {
	bool found, proven;
	double obj, bound;	/* objective of the solution, bound on the optimum */
	unsigned long nodes;
};

/*
 * Solve the programme as it stands, until deadline: the LP relaxation by
 * the primal simplex with textbook pricing (scaled when asked: it cut the
 * quality LP of 1,000 devices from ~4,500 to ~700 iterations, but slowed the
 * needs search), then branch and bound from that basis.  Presolve is off: the rows are
 * already tight (a ≤ min(capacity ÷ need, 1) × x) and the basis is reused.
 */
static void milp_solve(struct milp *p, double deadline, bool scale, struct solve_out *o)
{
	glp_smcp sm;
	glp_iocp parm;
	double left = deadline - (tw_now_ns() / 1e9);
	int ret, st;

	memset(o, 0, sizeof(*o));
	if (scale)
		glp_scale_prob(p->lp, GLP_SF_AUTO);
	else
		glp_unscale_prob(p->lp);
	glp_init_smcp(&sm);
	sm.msg_lev = GLP_MSG_OFF;
	sm.pricing = GLP_PT_STD;	/* 65 iterations, not 731, on 1,000 devices */
	sm.tm_lim = left > 0 ? (int)fmin(left * 1000.0, 2e9) : 1;
	if (glp_simplex(p->lp, &sm) || glp_get_status(p->lp) != GLP_OPT) {
		o->bound = INFINITY;
		return;
	}
	left = deadline - (tw_now_ns() / 1e9);
	glp_init_iocp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	parm.presolve = GLP_OFF;
	parm.cb_func = callback;
	parm.cb_info = p;

	parm.tm_lim = left > 0 ? (int)fmin(left * 1000.0, 2e9) : 1;
	p->incumbent = false;
	p->nodes = 0;
	p->bound = glp_get_obj_val(p->lp);	/* the LP relaxation, until the tree says more */
	p->have_bound = true;
	ret = glp_intopt(p->lp, &parm);
	st = glp_mip_status(p->lp);
	o->nodes = p->nodes;
	o->found = st == GLP_OPT || st == GLP_FEAS;
	o->proven = (ret == 0 && st == GLP_OPT) || (ret == GLP_ESTOP && o->found);
	if (ret == GLP_ESTOP && o->found)
		p->bound = o->obj;	/* stopped by the callback: proven */
	o->obj = o->found ? glp_mip_obj_val(p->lp) : 0.0;
	o->bound = o->proven ? o->obj : p->bound;
	if (o->found && o->bound < o->obj)
		o->bound = o->obj;
}

/* ---- one complete optimisation ---------------------------------------- */

struct run {
	const struct advisor_opt_input *in;
	const struct groups *g;
	struct scratch *s;
	double deadline;
	unsigned long nodes;
	bool proven;
	double met_bound;	/* no plan meets more needs */
	double score_bound;	/* of the need tiers, among plans meeting as many */
};

/* Devices of need tiers that add nothing are dropped, worst first. */
static void prune(struct run *r, int *assign)
{
	const struct advisor_opt_input *in = r->in;
	struct advisor_eval cur, e;
	size_t m = 0;

	evaluate(in, r->g, r->s, assign, &cur);
	for (size_t d = 0; d < in->n; d++)
		if (assign[d] >= 0)
			r->s->list[m++] = d;
	for (size_t k = 0; k < m; k++)
		r->s->col[r->s->list[k]] = in->score[r->s->list[k]][assign[r->s->list[k]]];
	qsort_r(r->s->list, m, sizeof(size_t), cmp_by_score, r->s->col);
	{
		size_t *order = malloc((m ? m : 1) * sizeof(*order));

		if (!order)
			return;
		memcpy(order, r->s->list, m * sizeof(*order));
		for (size_t k = m; k-- > 0;) {
			size_t d = order[k];
			int t = assign[d];

			assign[d] = -1;
			evaluate(in, r->g, r->s, assign, &e);
			if (no_worse(&e, &cur))
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
static void drop_unmet(struct run *r, int *assign)
{
	struct advisor_eval e;

	evaluate(r->in, r->g, r->s, assign, &e);
	for (int t = 0; t < NT; t++)
		if (r->in->need[t] > 0 && e.tier_usable[t] < r->in->need[t] * (1.0 - MET_TOL))
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
static void greedy(struct run *r, int *assign)
{
	const struct advisor_opt_input *in = r->in;
	struct advisor_eval e;

	for (;;) {
		double best = -1.0;
		size_t bd = 0;
		int bt = -1;
		bool open[NT];

		evaluate(in, r->g, r->s, assign, &e);
		for (int t = 0; t < NT; t++)
			open[t] = in->need[t] > 0 && e.tier_usable[t] < in->need[t] * (1.0 - MET_TOL);
		for (size_t d = 0; d < in->n; d++)
			for (int t = 0; t < NT && assign[d] < 0; t++)
				if (open[t] && eligible(in, d, t) && in->score[d][t] > best &&
				    affordable(in, &e, d) && class_fits(in, assign, d, t) &&
				    holds(in, r->g, d, t)) {
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
			if (eligible(in, d, t))
				top = fmax(top, in->score[d][t]);
		sum += top;
	}
	return sum;
}

/* Does the greedy plan meet every need?  Then phase 1 is proven. */
static bool all_met(struct run *r, int *assign, int n_need)
{
	struct advisor_eval e;

	greedy(r, assign);
	evaluate(r->in, r->g, r->s, assign, &e);
	for (size_t d = 0; d < r->in->n; d++)
		assign[d] = -1;
	return e.valid && e.met == (unsigned)n_need;
}

/* Phase 2's objective: Σ (score + penalty) × a − device cost × x. */
static int phase2(struct milp *p, const struct advisor_opt_input *in, double met)
{
	int *ind = calloc(NT + 1, sizeof(int));
	double *val = calloc(NT + 1, sizeof(double));
	int len = 0, row;

	if (!ind || !val) {
		free(ind);
		free(val);
		return -ENOMEM;
	}
	for (size_t d = 0; d < in->n; d++)
		for (int t = 0; t < NT; t++)
			if (p->a[d * NT + t]) {
				glp_set_obj_coef(p->lp, p->a[d * NT + t],
						 in->score[d][t] + ADVISOR_SHORTFALL_PENALTY);
				glp_set_obj_coef(p->lp, p->x[d * NT + t], -DEVICE_COST);
			}
	for (int t = 0; t < NT; t++)
		if (p->met[t]) {
			glp_set_obj_coef(p->lp, p->met[t], 0.0);
			ind[++len] = p->met[t];
			val[len] = 1.0;
		}
	row = glp_add_rows(p->lp, 1);	/* Σ met ≥ phase 1's */
	glp_set_row_bnds(p->lp, row, GLP_LO, met - 0.5, 0.0);
	glp_set_mat_row(p->lp, row, len, ind, val);
	p->integral = false;
	free(ind);
	free(val);
	return 0;
}

/* The assignment of GLPK's integer solution. */
static void take_mip(struct milp *p, const struct advisor_opt_input *in, int *assign)
{
	for (size_t d = 0; d < in->n; d++) {
		assign[d] = -1;
		for (int t = 0; t < NT; t++)
			if (p->x[d * NT + t] && glp_mip_col_val(p->lp, p->x[d * NT + t]) > 0.5)
				assign[d] = t;
	}
}

/*
 * Phase 3 (buying, in->cheapest): the cheapest plan that meets as many needs
 * and scores within in->margin of phase 2's best; the score breaks ties.
 */
static int phase3(struct milp *p, const struct advisor_opt_input *in, double best_obj)
{
	int cols = glp_get_num_cols(p->lp), len = 0, row;
	int *ind = calloc((size_t)cols + 1, sizeof(int));
	double *val = calloc((size_t)cols + 1, sizeof(double));

	if (!ind || !val) {
		free(ind);
		free(val);
		return -ENOMEM;
	}
	for (size_t d = 0; d < in->n; d++)
		for (int t = 0; t < NT; t++) {
			int a = p->a[d * NT + t], x = p->x[d * NT + t];

			if (!a)
				continue;
			ind[++len] = a;
			val[len] = in->score[d][t] + ADVISOR_SHORTFALL_PENALTY;
			ind[++len] = x;
			val[len] = -DEVICE_COST;
			glp_set_obj_coef(p->lp, a, 1e-6 * val[len - 1]);
			glp_set_obj_coef(p->lp, x, -in->price[d] - DEVICE_COST);
		}
	row = glp_add_rows(p->lp, 1);	/* the score, within the margin */
	glp_set_row_bnds(p->lp, row, GLP_LO, best_obj - in->margin, 0.0);
	glp_set_mat_row(p->lp, row, len, ind, val);
	free(ind);
	free(val);
	return 0;
}

/*
 * The need tiers: phase 1 (most needs met), phase 2 (the best score among
 * plans meeting as many), phase 3 when buying the cheapest (in->cheapest).
 * assign: n entries.
 */
static int solve_needs(struct run *r, int *assign)
{
	const struct advisor_opt_input *in = r->in;
	struct milp p = { 0 };
	struct solve_out o1 = { 0 }, o2 = { 0 };
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
	ret = milp_build(&p, in, r->g);
	if (!ret && all_met(r, assign, n_need)) {	/* phase 1 needs no search */
		o1.found = o1.proven = true;
		o1.obj = o1.bound = (double)n_need;
	} else if (!ret) {
		p.integral = true;
		milp_solve(&p, r->deadline, false, &o1);
	}
	r->nodes += o1.nodes;
	r->met_bound = fmin(floor(o1.bound + 1e-6), (double)n_need);
	if (!ret && o1.found)
		ret = phase2(&p, in, round(o1.obj));
	if (!ret && o1.found)
		milp_solve(&p, r->deadline, true, &o2);
	r->nodes += o2.nodes;
	if (!ret && o2.found) {
		take_mip(&p, in, assign);
		r->score_bound = o2.bound + DEVICE_COST * (double)in->n -
				 ADVISOR_SHORTFALL_PENALTY * n_need;
	}
	if (!ret && o2.found && in->cheapest && in->price) {
		struct solve_out o3 = { 0 };

		ret = phase3(&p, in, o2.obj);
		if (!ret)
			milp_solve(&p, r->deadline, true, &o3);
		r->nodes += o3.nodes;
		o2.proven = o2.proven && o3.proven;
		if (o3.found)	/* else phase 2's plan stands */
			take_mip(&p, in, assign);
	}
	if (!ret && !o2.found) {	/* no solution in time: greedy, and the plain bound */
		greedy(r, assign);
		r->score_bound = top_scores(in);
	}
	r->proven = o1.proven && o2.proven;
	milp_clear(&p);
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

			if (assign[d] >= 0 || !eligible(in, d, t))
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

static bool twins(const struct advisor_opt_input *in, size_t a, size_t b)
{
	if (in->capacity[a] != in->capacity[b])
		return false;
	if (in->price && in->price[a] != in->price[b])
		return false;
	if (in->group && in->group[a] != in->group[b])
		return false;
	for (int t = 0; t < NT; t++)
		if (!same_class(in, a, b, t))
			return false;
	for (int t = 0; t < NT; t++) {
		double x = in->score[a][t], y = in->score[b][t];

		if (isnan(x) != isnan(y) || (!isnan(x) && x != y))
			return false;
	}
	return true;
}

/*
 * Unassigned devices join a tier if nothing is lost: those identical to one
 * in any tier, and those like one in hot or cold (the same group), which
 * then form or widen its mirror or parity array — redundancy for the only
 * copy of a database or an archive, from a disk that would stand idle.
 */
static void join_idle(struct run *r, int *assign)
{
	const struct advisor_opt_input *in = r->in;
	struct advisor_eval cur, e;

	evaluate(in, r->g, r->s, assign, &cur);
	for (size_t d = 0; d < in->n; d++)
		for (size_t j = 0; j < in->n && assign[d] < 0; j++) {
			if (assign[j] < 0 || !eligible(in, d, assign[j]) ||
			    !(twins(in, d, j) || (group_of(in, r->g, d, assign[j]) >= 0 &&
						   in->group[d] == in->group[j])))
				continue;
			assign[d] = assign[j];
			evaluate(in, r->g, r->s, assign, &e);
			if (no_worse(&e, &cur))
				cur = e;
			else
				assign[d] = -1;
			break;
		}
}

static int solve_all(struct run *r, int *assign)
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

static int runner_up(struct run *r, struct advisor_opt_result *out)
{
	const struct advisor_opt_input *in = r->in;
	double (*sc)[NT] = malloc((in->n ? in->n : 1) * sizeof(*sc));
	int *assign = malloc((in->n ? in->n : 1) * sizeof(int));
	struct advisor_opt_input alt = *in;
	struct run ra = *r;
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
			if (twins(in, (size_t)lead, j))
				sc[j][t] = NAN;
		ret = solve_all(&ra, assign);
		r->nodes = ra.nodes;
		if (ret)
			break;
		evaluate(in, r->g, r->s, assign, &e);
		if (e.valid && e.used && (!out->runner_up.valid || better(&e, &out->runner_up.e))) {
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
static void bounds(const struct run *r, struct advisor_opt_result *out)
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
	struct groups g = { 0 };
	struct scratch s = { 0 };
	struct run r = { .in = in, .g = &g, .s = &s };
	double t0 = (tw_now_ns() / 1e9);
	int ret;

	if (!in || !out || (in->n && (!in->score || !in->capacity)))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	r.deadline = t0 + (time_limit > 0 ? time_limit : ADVISOR_OPT_DEFAULT_SECONDS);
	glp_term_out(GLP_OFF);
	ret = groups_make(in, &g);
	if (!ret)
		ret = scratch_make(in->n, &s);
	if (!ret) {
		out->best.tier = malloc((in->n ? in->n : 1) * sizeof(int));
		out->runner_up.tier = malloc((in->n ? in->n : 1) * sizeof(int));
		if (!out->best.tier || !out->runner_up.tier)
			ret = -ENOMEM;
	}
	if (!ret)
		ret = solve_all(&r, out->best.tier);
	if (!ret) {
		evaluate(in, &g, &s, out->best.tier, &out->best.e);
		out->best.valid = true;
		bounds(&r, out);
		if (!in->no_runner_up)
			ret = runner_up(&r, out);
	}

	out->nodes = r.nodes;
	out->seconds = (tw_now_ns() / 1e9) - t0;
	groups_clear(&g);
	scratch_clear(&s);
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
