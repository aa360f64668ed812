/* optimize.c — the exact assignment of devices to tiers (see plan.h).
 *
 * Every device goes to one tier or none.  The objective: Σ over tiers of
 * the capacity-weighted mean score of its devices, minus
 * ADVISOR_SHORTFALL_PENALTY × the share of its need left uncovered (a tier
 * with nothing of its need met costs what a perfect tier scores); ties go
 * to fewer devices, and then every unassigned device identical to one in
 * a tier joins it (the objective stays the same: more capacity, and an
 * array).  A need that can be met is met unless that costs more
 * than the penalty; one that cannot (archive needs 40 TB, 22 TB of HDDs)
 * takes spare capacity but never wrecks the other tiers.  Depth-first
 * branch and bound over the devices sorted by their best score; at each
 * node an optimistic bound per tier (the tiers relaxed to share the
 * remaining devices) decides whether the subtree can beat the best found:
 * the remaining eligible capacity taken best score first, fractionally,
 * gives the best mean for each amount of capacity added; the bound is the
 * best term over those amounts.
 *
 * Identical devices (same scores and capacity) are interchangeable: only
 * one order of their tiers is searched (non-decreasing tier code), so 64
 * like drives do not mean 4^64 nodes.
 *
 * The runner-up is the best plan that changes a decision, not a detail:
 * for each tier, the optimum with the best plan's leading device (highest
 * score) and its twins barred from that tier; the best of those three.  Adding a small
 * spare device to a tier is not a different plan; moving the Optane is.
 */
#include "plan.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-9
#define NT ADVISOR_TIER_COUNT
#define UNASSIGNED_CODE NT	/* option code of "no tier" */
#define DEFAULT_MAX_NODES 20000000ul

struct search {
	const struct advisor_opt_input *in;
	size_t order[ADVISOR_OPT_MAX_DEVICES];	/* device at depth k */
	bool twin_prev[ADVISOR_OPT_MAX_DEVICES];	/* order[k] equals order[k-1] */
	size_t by_tier[NT][ADVISOR_OPT_MAX_DEVICES];	/* depths, best score first */
	size_t n_by_tier[NT];
	double rest_cap[NT][ADVISOR_OPT_MAX_DEVICES + 1];	/* Σ eligible cap from depth k */
	int code[ADVISOR_OPT_MAX_DEVICES];	/* option chosen at depth k */
	int assign[ADVISOR_OPT_MAX_DEVICES];	/* tier per device */
	double sum_sc[NT], sum_cap[NT];
	unsigned used;
	unsigned long nodes, max_nodes;
	bool stopped;
	struct advisor_assignment best;
	unsigned best_used;
};

static bool eligible(const struct advisor_opt_input *in, size_t d, int t)
{
	return !isnan(in->score[d][t]);
}

static double best_score(const struct advisor_opt_input *in, size_t d)
{
	double b = -1.0;

	for (int t = 0; t < NT; t++)
		if (eligible(in, d, t) && in->score[d][t] > b)
			b = in->score[d][t];
	return b;
}

double advisor_tier_value(const struct advisor_opt_input *in, int tier,
			  const int *assign)
{
	double sc = 0.0, cap = 0.0;

	for (size_t d = 0; d < in->n; d++)
		if (assign[d] == tier) {
			sc += in->score[d][tier] * in->capacity[d];
			cap += in->capacity[d];
		}
	return cap > 0 ? sc / cap : 0.0;
}

void advisor_evaluate(const struct advisor_opt_input *in, const int *assign,
		      struct advisor_assignment *out)
{
	double cap[NT] = { 0 };

	memset(out, 0, sizeof(*out));
	out->valid = true;
	for (size_t d = 0; d < in->n; d++) {
		out->tier[d] = assign[d];
		if (assign[d] < 0)
			continue;
		if (assign[d] >= NT || !eligible(in, d, assign[d]))
			out->valid = false;
		else
			cap[assign[d]] += in->capacity[d];
	}
	out->objective = 0.0;
	for (int t = 0; t < NT; t++) {
		out->value += advisor_tier_value(in, t, assign);
		if (in->need[t] > cap[t]) {
			out->shortfall += in->need[t] - cap[t];
			out->objective -= ADVISOR_SHORTFALL_PENALTY * (in->need[t] - cap[t]) / in->need[t];
		}
	}
	out->objective += out->value;
}

/* Is (objective_a, used_a) strictly better than b?  Ties: fewer devices. */
static bool better(double obj_a, unsigned used_a, const struct advisor_assignment *b,
		   unsigned used_b)
{
	if (!b->valid)
		return true;
	if (obj_a > b->objective + EPS)
		return true;
	if (obj_a < b->objective - EPS)
		return false;
	return used_a < used_b;
}

/* Device order: best score first, then larger, then index; twins marked. */
static int cmp_dev(const void *a, const void *b, const struct advisor_opt_input *in)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	double bx = best_score(in, x), by = best_score(in, y);

	if (bx != by)
		return bx > by ? -1 : 1;
	if (in->capacity[x] != in->capacity[y])
		return in->capacity[x] > in->capacity[y] ? -1 : 1;
	for (int t = 0; t < NT; t++) {
		double sx = in->score[x][t], sy = in->score[y][t];

		if (isnan(sx) != isnan(sy))
			return isnan(sx) ? 1 : -1;
		if (!isnan(sx) && sx != sy)
			return sx > sy ? -1 : 1;
	}
	return x < y ? -1 : x > y;
}

static void sort_devices(struct search *s)
{
	const struct advisor_opt_input *in = s->in;

	for (size_t i = 0; i < in->n; i++)
		s->order[i] = i;
	for (size_t i = 1; i < in->n; i++)	/* insertion sort: n <= 64 */
		for (size_t j = i; j > 0 && cmp_dev(&s->order[j - 1], &s->order[j], in) > 0; j--) {
			size_t tmp = s->order[j];

			s->order[j] = s->order[j - 1];
			s->order[j - 1] = tmp;
		}
}

static bool twins(const struct advisor_opt_input *in, size_t a, size_t b)
{
	if (in->capacity[a] != in->capacity[b])
		return false;
	for (int t = 0; t < NT; t++) {
		double x = in->score[a][t], y = in->score[b][t];

		if (isnan(x) != isnan(y) || (!isnan(x) && x != y))
			return false;
	}
	return true;
}

/* Per tier: depths of eligible devices by score, and suffix capacities. */
static void index_tiers(struct search *s)
{
	const struct advisor_opt_input *in = s->in;

	for (int t = 0; t < NT; t++) {
		size_t *v = s->by_tier[t], m = 0;

		for (size_t k = 0; k < in->n; k++)
			if (eligible(in, s->order[k], t))
				v[m++] = k;
		for (size_t i = 1; i < m; i++)
			for (size_t j = i; j > 0 &&
			     in->score[s->order[v[j - 1]]][t] < in->score[s->order[v[j]]][t]; j--) {
				size_t tmp = v[j];

				v[j] = v[j - 1];
				v[j - 1] = tmp;
			}
		s->n_by_tier[t] = m;
		s->rest_cap[t][in->n] = 0.0;
		for (size_t k = in->n; k-- > 0;)
			s->rest_cap[t][k] = s->rest_cap[t][k + 1] +
				(eligible(in, s->order[k], t) ? in->capacity[s->order[k]] : 0.0);
	}
	for (size_t k = 1; k < in->n; k++)
		s->twin_prev[k] = twins(in, s->order[k - 1], s->order[k]);
}

/* Tier t's objective term: weighted mean minus the shortfall penalty. */
static double term(const struct advisor_opt_input *in, int t, double sc, double cap)
{
	double v = cap > 0 ? sc / cap : 0.0;

	if (in->need[t] > cap)
		v -= ADVISOR_SHORTFALL_PENALTY * (in->need[t] - cap) / in->need[t];
	return v;
}

/*
 * The best objective term tier t can reach from depth k on: the remaining
 * eligible capacity taken best score first, fractionally, gives the best
 * mean for any added capacity W; the term is evaluated where it can peak
 * (every device boundary and the point where the need is met).
 */
static double tier_bound(const struct search *s, int t, size_t k)
{
	const struct advisor_opt_input *in = s->in;
	double sc = s->sum_sc[t], cap = s->sum_cap[t];
	double best = term(in, t, sc, cap);

	for (size_t i = 0; i < s->n_by_tier[t]; i++) {
		size_t depth = s->by_tier[t][i], d = s->order[depth];
		double v = in->score[d][t], c = in->capacity[d];

		if (depth < k)
			continue;	/* already decided */
		if (cap < in->need[t] && cap + c > in->need[t]) {
			double w = in->need[t] - cap;
			double at = term(in, t, sc + v * w, cap + w);

			best = at > best ? at : best;
		}
		sc += v * c;
		cap += c;
		best = term(in, t, sc, cap) > best ? term(in, t, sc, cap) : best;
		if (cap >= in->need[t] && v <= sc / cap)
			break;	/* need met; no later device raises the mean */
	}
	return best;
}

/* Can the subtree at depth k still beat the best found? */
static bool promising(const struct search *s, size_t k)
{
	double bound = 0.0;

	for (int t = 0; t < NT; t++)
		bound += tier_bound(s, t, k);
	return better(bound, s->used, &s->best, s->best_used);
}

static void record(struct search *s)
{
	struct advisor_assignment a;

	advisor_evaluate(s->in, s->assign, &a);
	if (better(a.objective, s->used, &s->best, s->best_used)) {
		s->best = a;
		s->best_used = s->used;
	}
}

/* Options at depth k, best first: eligible tiers by score, then none. */
static int options(const struct search *s, size_t k, int *opt)
{
	const struct advisor_opt_input *in = s->in;
	size_t d = s->order[k];
	int n = 0;

	for (int t = 0; t < NT; t++)
		if (eligible(in, d, t))
			opt[n++] = t;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && in->score[d][opt[j - 1]] < in->score[d][opt[j]]; j--) {
			int tmp = opt[j];

			opt[j] = opt[j - 1];
			opt[j - 1] = tmp;
		}
	opt[n++] = UNASSIGNED_CODE;
	return n;
}

static void place(struct search *s, size_t k, int code, double sign)
{
	size_t d = s->order[k];

	if (code == UNASSIGNED_CODE)
		return;
	s->sum_sc[code] += sign * s->in->score[d][code] * s->in->capacity[d];
	s->sum_cap[code] += sign * s->in->capacity[d];
	s->used = sign > 0 ? s->used + 1 : s->used - 1;
}

static void dfs(struct search *s, size_t k)
{
	int opt[NT + 1], n;

	if (s->stopped)
		return;
	if (++s->nodes > s->max_nodes) {
		s->stopped = true;
		return;
	}
	if (k == s->in->n) {
		record(s);
		return;
	}
	if (!promising(s, k))
		return;
	n = options(s, k, opt);
	for (int i = 0; i < n; i++) {
		/* twins: codes non-decreasing, so one order of them is searched */
		if (k && s->twin_prev[k] && opt[i] < s->code[k - 1])
			continue;
		s->code[k] = opt[i];
		s->assign[s->order[k]] = opt[i] == UNASSIGNED_CODE ? -1 : opt[i];
		place(s, k, opt[i], 1.0);
		dfs(s, k + 1);
		place(s, k, opt[i], -1.0);
		s->assign[s->order[k]] = -1;
	}
}

/* The optimum of in.  Returns 0 or -ENOMEM. */
static int solve(const struct advisor_opt_input *in, unsigned long max_nodes,
		 struct advisor_assignment *best, unsigned long *nodes, bool *stopped)
{
	struct search *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->in = in;
	s->max_nodes = max_nodes;
	for (size_t d = 0; d < ADVISOR_OPT_MAX_DEVICES; d++)
		s->assign[d] = -1;
	sort_devices(s);
	index_tiers(s);
	dfs(s, 0);
	*best = s->best;
	*nodes += s->nodes;
	*stopped = *stopped || s->stopped;
	free(s);
	return 0;
}

/*
 * Every unassigned device identical to a device of a tier joins that tier:
 * the tier's mean is unchanged and its shortfall can only shrink.
 */
static void join_twins(const struct advisor_opt_input *in, struct advisor_assignment *a)
{
	int tiers[ADVISOR_OPT_MAX_DEVICES];
	bool changed = false;

	memcpy(tiers, a->tier, sizeof(tiers));
	for (size_t d = 0; d < in->n; d++)
		for (size_t j = 0; j < in->n && tiers[d] < 0; j++)
			if (tiers[j] >= 0 && twins(in, d, j) && eligible(in, d, tiers[j])) {
				tiers[d] = tiers[j];
				changed = true;
			}
	if (changed)
		advisor_evaluate(in, tiers, a);
}

/* The device of tier t in a with the highest score (then capacity), or -1. */
static ptrdiff_t leader(const struct advisor_opt_input *in,
			const struct advisor_assignment *a, int t)
{
	ptrdiff_t top = -1;

	for (size_t d = 0; d < in->n; d++) {
		if (a->tier[d] != t)
			continue;
		if (top < 0 || in->score[d][t] > in->score[top][t] ||
		    (in->score[d][t] == in->score[top][t] &&
		     in->capacity[d] > in->capacity[top]))
			top = (ptrdiff_t)d;
	}
	return top;
}

static unsigned used_count(const struct advisor_assignment *a, size_t n)
{
	unsigned u = 0;

	for (size_t d = 0; d < n; d++)
		u += a->tier[d] >= 0;
	return u;
}

/*
 * The runner-up: for each tier, the optimum without the best plan's
 * leading device in that tier; the best of those.
 */
static int runner_up(const struct advisor_opt_input *in, unsigned long max_nodes,
		     struct advisor_opt_result *out, bool *stopped)
{
	struct advisor_opt_input *alt = malloc(sizeof(*alt));
	int ret = 0;

	if (!alt)
		return -ENOMEM;
	for (int t = 0; t < NT && !ret; t++) {
		ptrdiff_t d = leader(in, &out->best, t);
		struct advisor_assignment a;

		if (d < 0)
			continue;
		*alt = *in;
		for (size_t j = 0; j < in->n; j++)	/* the leader and its twins */
			if (twins(in, (size_t)d, j))
				alt->score[j][t] = NAN;
		ret = solve(alt, max_nodes, &a, &out->nodes, stopped);
		if (!ret && a.valid) {
			int tiers[ADVISOR_OPT_MAX_DEVICES];

			memcpy(tiers, a.tier, sizeof(tiers));
			advisor_evaluate(in, tiers, &a);	/* its value with in's scores */
			join_twins(alt, &a);
			if (better(a.objective, used_count(&a, in->n), &out->runner_up,
				   used_count(&out->runner_up, in->n)))
				out->runner_up = a;
		}
	}
	free(alt);
	return ret;
}

int advisor_optimize(const struct advisor_opt_input *in, unsigned long max_nodes,
		     struct advisor_opt_result *out)
{
	bool stopped = false;
	int ret;

	if (!in || !out || in->n > ADVISOR_OPT_MAX_DEVICES)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!max_nodes)
		max_nodes = DEFAULT_MAX_NODES;
	ret = solve(in, max_nodes, &out->best, &out->nodes, &stopped);
	if (!ret)
		join_twins(in, &out->best);
	if (!ret)
		ret = runner_up(in, max_nodes, out, &stopped);
	out->exact = !stopped;
	return ret;
}
