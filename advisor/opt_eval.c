/* opt_eval.c — what one complete assignment of devices to tiers is worth
 * (advisor_evaluate(), see plan.h), and the rules of like groups and media
 * classes the search and the programme share (opt_priv.h).
 *
 * The order of what counts:
 *   1. coverage: Σ over tiers with a need of the share of the need their
 *      usable capacity covers (at most 1 each) — the plan that covers more
 *      of the stated needs wins;
 *   2. quality: Σ over those tiers of Σ score × capacity counted ÷ need,
 *      where the capacity counted is the best capacity first, up to the
 *      need (the mean score of what holds the need, times the share held);
 *   3. fewer devices.
 * Usable capacity counts md arrays: like devices of one group (raid.c's
 * "alike") in the hot or cold tier give advisor_raid_data_disks() × the
 * group's smallest member, as their mirror or parity array would.
 */
#include "opt_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NT TW_TIER_COUNT

/* May d join tier t of assign: no device of another class is there. */
bool advisor_opt_class_fits(const struct advisor_opt_input *in, const int *assign, size_t d, int t)
{
	for (size_t j = 0; in->cls && j < in->n; j++)
		if (assign[j] == t && !advisor_opt_same_class(in, d, j, t))
			return false;
	return true;
}

int advisor_opt_groups_make(const struct advisor_opt_input *in, struct advisor_opt_groups *g)
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

void advisor_opt_groups_clear(struct advisor_opt_groups *g)
{
	free(g->size);
	free(g->capmin);
}

/* The group of d that forms an array in tier t, or -1. */
int advisor_opt_group_of(const struct advisor_opt_input *in, const struct advisor_opt_groups *g,
			 size_t d, int t)
{
	int id = in->group ? in->group[d] : -1;

	if (!advisor_opt_redundant(in, t) || id < 0 || (size_t)id >= in->n || g->size[id] < 2)
		return -1;
	return id;
}

/* The rule of tier t's arrays: a required tier's lone device holds nothing. */
static size_t data_disks(const struct advisor_opt_input *in, int t, size_t count)
{
	enum advisor_array_rule r = advisor_opt_rule(in, t);

	if (in->required[t] && count < 2)
		return 0;
	if (in->required[t] && r == ADVISOR_ARRAY_STRIPE)
		r = ADVISOR_ARRAY_MIRROR;
	return advisor_array_data_disks(r, t, count);
}

/* Can device d hold any of tier t's need?  In a required tier only with a
 * like device that may join it there (a pair for a mirror). */
bool advisor_opt_holds(const struct advisor_opt_input *in, const struct advisor_opt_groups *g,
		       size_t d, int t)
{
	int id = advisor_opt_group_of(in, g, d, t);

	if (!in->required[t])
		return true;
	for (size_t j = 0; id >= 0 && j < in->n; j++)
		if (j != d && in->group[j] == id && advisor_opt_eligible(in, j, t))
			return true;
	return false;
}

/* ---- exact evaluation ------------------------------------------------- */

int advisor_opt_cmp_by_score(const void *a, const void *b, void *arg)
{
	const double *s = arg;
	double x = s[*(const size_t *)a], y = s[*(const size_t *)b];

	if (x != y)
		return x > y ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* One tier: usable, covered share, quality (Σ score × counted ÷ need). */
static void eval_tier(const struct advisor_opt_input *in, const struct advisor_opt_groups *g,
		      const int *assign, int t, struct advisor_opt_scratch *s, struct advisor_eval *out)
{
	double need = in->need[t], covered = 0.0, qsum = 0.0, usable = 0.0, capsum = 0.0;
	size_t m = 0;

	for (size_t d = 0; d < in->n; d++) {
		int id = advisor_opt_group_of(in, g, d, t);

		if (assign[d] != t)
			continue;
		s->list[m++] = d;
		s->col[d] = in->score[d][t];
		if (id >= 0)
			s->count[id]++;
	}
	for (size_t k = 0; k < m; k++) {	/* each group's array capacity */
		int id = advisor_opt_group_of(in, g, s->list[k], t);

		if (id >= 0 && s->count[id]) {
			s->rem[id] = g->capmin[id] * (double)data_disks(in, t, s->count[id]);
			s->count[id] = 0;
		}
	}
	for (size_t k = 0; k < m; k++) {
		int id = advisor_opt_group_of(in, g, s->list[k], t);

		if (id >= 0)
			s->rem[id] += in->capacity[s->list[k]] - g->capmin[id];
	}
	qsort_r(s->list, m, sizeof(*s->list), advisor_opt_cmp_by_score, s->col);
	for (size_t k = 0; k < m; k++) {
		size_t d = s->list[k];
		int id = advisor_opt_group_of(in, g, d, t);
		double avail = advisor_opt_holds(in, g, d, t) ? in->capacity[d] : 0.0, take;

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
		out->met += covered >= need * (1.0 - ADVISOR_MET_TOL);
		out->coverage += covered / need;
		out->quality += qsum / need;
		out->score -= ADVISOR_SHORTFALL_PENALTY * (1.0 - covered / need);
		out->tier_quality[t] = covered > 0 ? qsum / covered : 0.0;
	} else {
		out->tier_quality[t] = capsum > 0 ? qsum / capsum : 0.0;
		out->quality += out->tier_quality[t];
	}
}

int advisor_opt_scratch_make(size_t n, struct advisor_opt_scratch *s)
{
	size_t k = n ? n : 1;

	s->list = calloc(k, sizeof(*s->list));
	s->col = calloc(k, sizeof(*s->col));
	s->count = calloc(k, sizeof(*s->count));
	s->rem = calloc(k, sizeof(*s->rem));
	return s->list && s->col && s->count && s->rem ? 0 : -ENOMEM;
}

void advisor_opt_scratch_clear(struct advisor_opt_scratch *s)
{
	free(s->list);
	free(s->col);
	free(s->count);
	free(s->rem);
}

void advisor_opt_eval(const struct advisor_opt_input *in, const struct advisor_opt_groups *g,
		      struct advisor_opt_scratch *s, const int *assign, struct advisor_eval *out)
{
	memset(out, 0, sizeof(*out));
	out->valid = true;
	for (size_t d = 0; d < in->n; d++) {
		if (assign[d] < 0)
			continue;
		out->used++;
		out->cost += in->price ? in->price[d] : 0.0;
		if (assign[d] >= NT || !advisor_opt_eligible(in, d, assign[d]) ||
		    !advisor_opt_class_fits(in, assign, d, assign[d]))
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
	struct advisor_opt_groups g = { 0 };
	struct advisor_opt_scratch s = { 0 };
	int ret = advisor_opt_groups_make(in, &g);

	if (!ret)
		ret = advisor_opt_scratch_make(in->n, &s);
	if (!ret)
		advisor_opt_eval(in, &g, &s, assign, out);
	advisor_opt_groups_clear(&g);
	advisor_opt_scratch_clear(&s);
	return ret;
}

/* Is a strictly better than b?  Needs met, then score, then fewer devices. */
bool advisor_opt_better(const struct advisor_eval *a, const struct advisor_eval *b)
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
bool advisor_opt_no_worse(const struct advisor_eval *a, const struct advisor_eval *b)
{
	return a->valid && a->met >= b->met && a->score >= b->score - 1e-7;
}

/* ---- twins: devices the search and the programme treat as one ---------- */

bool advisor_opt_twins(const struct advisor_opt_input *in, size_t a, size_t b)
{
	if (in->capacity[a] != in->capacity[b])
		return false;
	if (in->price && in->price[a] != in->price[b])
		return false;
	if (in->group && in->group[a] != in->group[b])
		return false;
	for (int t = 0; t < NT; t++)
		if (!advisor_opt_same_class(in, a, b, t))
			return false;
	for (int t = 0; t < NT; t++) {
		double x = in->score[a][t], y = in->score[b][t];

		if (isnan(x) != isnan(y) || (!isnan(x) && x != y))
			return false;
	}
	return true;
}
