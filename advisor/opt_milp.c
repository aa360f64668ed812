/* opt_milp.c — the optimiser's mixed-integer programme, solved by GLPK
 * (branch and cut); the only file that includes glpk.h (opt_priv.h).
 *
 * Two programmes in turn: the largest coverage of the needs (phase 1),
 * then the best quality among plans that cover as much (phase 2), and when
 * buying the cheapest (phase 3).  Variables per eligible (device, tier with
 * a need): x (binary, assigned) and a (the share of the tier's need it
 * holds, ≤ capacity ÷ need × x); Σ_t x ≤ 1 per device, Σ_d a ≤ 1 per tier.
 * Per like group g in hot or cold with m ≥ 2 eligible members and
 * y = Σ x of them:
 *   Σ a ≤ Σ (cap_d − capmin) ÷ need × x + capmin ÷ need × D, where D, the
 *   data disks, is bounded by the RAID level's rule:
 *   hot  D ≤ p + w, 2p ≤ y (p integer pairs), D ≤ y, y ≤ 1 + (m−1)(1−w)
 *        (w: a lone device) — 1 for two or three, ⌊y/2⌋ from four;
 *   cold D ≤ y − b2 − b4, y ≤ 1 + (m−1) b2, y ≤ 3 + (m−3) b4 — RAID1 of
 *        two 1, RAID5 of three 2, RAID6 from four y − 2.
 * A time limit stops the search; the best bound of the open nodes then says
 * how far from optimal the plan can be.
 */
#include "opt_priv.h"
#include "tw_util.h"

#include <errno.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NT TW_TIER_COUNT

struct advisor_milp {
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
static void group_rows(struct advisor_milp *p, const struct advisor_opt_input *in,
		       const struct advisor_opt_groups *g, int id, int t, struct rowbuf *rb)
{
	const double need = in->need[t], cmin = g->capmin[id];
	size_t m = 0;
	int D, p2 = 0, w = 0, b2 = 0, b4 = 0;

	const bool mirror = advisor_opt_rule(in, t) != ADVISOR_ARRAY_PARITY;

	for (size_t d = 0; d < in->n; d++)
		m += advisor_opt_group_of(in, g, d, t) == id && p->x[d * NT + t];
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
		if (advisor_opt_group_of(in, g, d, t) == id && p->x[d * NT + t]) {
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
			if (advisor_opt_group_of(in, g, d, t) == id && p->x[d * NT + t])
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

/*
 * Identical devices are interchangeable: of twins j < d (the nearest), j is
 * used first (Σ_t x_j ≥ Σ_t x_d) and in a tier no later than d's
 * (Σ t x_j − Σ t x_d + NT Σ x_d ≤ NT), so one order of them is searched.
 */
static void twin_rows(struct advisor_milp *p, const struct advisor_opt_input *in,
		      struct rowbuf *rb)
{
	for (size_t d = 1; d < in->n; d++) {
		size_t j = d;

		while (j-- > 0 && !advisor_opt_twins(in, j, d))
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
static void class_rows(struct advisor_milp *p, const struct advisor_opt_input *in,
		       struct rowbuf *rb)
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
				break;	/* more classes than that: advisor_opt_eval() still checks */
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
static double min_cover_cost(const struct advisor_milp *p, const struct advisor_opt_input *in,
			     int t)
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
		glp_set_row_bnds(lp, row[1], GLP_LO, in->need[t] * (1.0 - ADVISOR_MET_TOL), 0.0);
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
static void budget_cut(struct advisor_milp *p, const struct advisor_opt_input *in,
		       struct rowbuf *rb)
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

static int build(struct advisor_milp *p, const struct advisor_opt_input *in,
		      const struct advisor_opt_groups *g)
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

			if (!(in->need[t] > 0) || !advisor_opt_eligible(in, d, t) || !(in->capacity[d] > 0) ||
			    !advisor_opt_holds(in, g, d, t))
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
			if (advisor_opt_group_of(in, g, d, t) == (int)d)
				group_rows(p, in, g, (int)d, t, &rb);
	free(rb.ind);
	free(rb.val);
	return 0;
}

int advisor_milp_make(const struct advisor_opt_input *in, const struct advisor_opt_groups *g,
		      struct advisor_milp **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	glp_term_out(GLP_OFF);
	return build(*out, in, g);
}

void advisor_milp_free(struct advisor_milp *p)
{
	if (!p)
		return;
	if (p->lp)
		glp_delete_prob(p->lp);
	free(p->x);
	free(p->a);
	free(p);
}

static void callback(glp_tree *tree, void *info)
{
	struct advisor_milp *p = info;
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

/*
 * Solve the programme as it stands, until deadline: the LP relaxation by
 * the primal simplex with textbook pricing (scaled when asked: it cut the
 * quality LP of 1,000 devices from ~4,500 to ~700 iterations, but slowed the
 * needs search), then branch and bound from that basis.  Presolve is off: the rows are
 * already tight (a ≤ min(capacity ÷ need, 1) × x) and the basis is reused.
 */
static void solve(struct advisor_milp *p, double deadline, bool scale, struct advisor_milp_out *o)
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

/* ---- solving --------------------------------------------------------- */

void advisor_milp_solve_met(struct advisor_milp *p, double deadline,
			    struct advisor_milp_out *o)
{
	p->integral = true;
	solve(p, deadline, false, o);
}

void advisor_milp_solve(struct advisor_milp *p, double deadline, struct advisor_milp_out *o)
{
	solve(p, deadline, true, o);
}

/* Phase 2's objective: Σ (score + penalty) × a − device cost × x. */
int advisor_milp_phase2(struct advisor_milp *p, const struct advisor_opt_input *in, double met)
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
				glp_set_obj_coef(p->lp, p->x[d * NT + t], -ADVISOR_DEVICE_COST);
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
void advisor_milp_take(const struct advisor_milp *p, const struct advisor_opt_input *in,
		       int *assign)
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
int advisor_milp_phase3(struct advisor_milp *p, const struct advisor_opt_input *in,
			double best_obj)
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
			val[len] = -ADVISOR_DEVICE_COST;
			glp_set_obj_coef(p->lp, a, 1e-6 * val[len - 1]);
			glp_set_obj_coef(p->lp, x, -in->price[d] - ADVISOR_DEVICE_COST);
		}
	row = glp_add_rows(p->lp, 1);	/* the score, within the margin */
	glp_set_row_bnds(p->lp, row, GLP_LO, best_obj - in->margin, 0.0);
	glp_set_mat_row(p->lp, row, len, ind, val);
	free(ind);
	free(val);
	return 0;
}
