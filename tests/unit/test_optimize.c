/* test_optimize.c — the placement optimiser against brute force. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plan.h"

#define NT TW_TIER_COUNT
#define MAXN 1000
#define assert_close(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (tol))

/* A small deterministic generator (xorshift64*). */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/* An instance with its own storage (the input points into it). */
struct inst {
	struct advisor_opt_input in;
	double score[MAXN][NT], cap[MAXN];
	int group[MAXN];
	int cls[MAXN][NT];
};

static struct inst *inst_new(size_t n)
{
	struct inst *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	x->in.n = n;
	x->in.score = (const double (*)[NT])x->score;
	x->in.capacity = x->cap;
	x->in.group = x->group;
	for (size_t d = 0; d < n; d++)
		x->group[d] = -1;
	return x;
}

/* Random scores (a quarter ineligible), capacities, needs, like groups and twins. */
static struct inst *random_instance(size_t n, bool all_needs)
{
	struct inst *x = inst_new(n);

	for (size_t d = 0; d < n; d++) {
		x->cap[d] = (double)(1 + (int)(rnd() * 20)) * 1e11;
		for (int t = 0; t < NT; t++)
			x->score[d][t] = rnd() < 0.25 ? NAN : 100.0 * rnd();
		x->group[d] = (int)d;
		if (d && rnd() < 0.4) {	/* joins an earlier device's group */
			size_t j = (size_t)(rnd() * (double)d);

			x->group[d] = x->group[j];
			x->cap[d] = x->cap[j] * (0.95 + 0.1 * rnd());
			if (rnd() < 0.5) {	/* a twin: the symmetry rows must not cut the optimum */
				x->cap[d] = x->cap[j];
				memcpy(x->score[d], x->score[j], sizeof(x->score[d]));
			}
		}
	}
	for (int t = 0; t < NT; t++)
		x->in.need[t] = !all_needs && rnd() < 0.3 ? 0.0 : rnd() * 8e11;
	return x;
}

/* The order the optimiser promises: needs met, their score, fewer devices
 * there; then the tiers with no need (their best spare). */
struct key {
	unsigned met, used;
	double need_score, spare;
	bool valid;
};

static struct key key_of(const struct advisor_opt_input *in, const int *assign)
{
	struct advisor_eval e;
	struct key k = { 0 };

	assert_int_equal(advisor_evaluate(in, assign, &e), 0);
	if (!e.valid || !e.used)
		return k;
	k.valid = true;
	k.met = e.met;
	k.need_score = e.score;
	for (int t = 0; t < NT; t++)
		if (!(in->need[t] > 0))
			k.spare += e.tier_quality[t];
	k.need_score -= k.spare;
	for (size_t d = 0; d < in->n; d++)
		k.used += assign[d] >= 0 && in->need[assign[d]] > 0;
	return k;
}

static bool key_better(const struct key *a, const struct key *b)
{
	if (!b->valid)
		return a->valid;
	if (!a->valid)
		return false;
	if (a->met != b->met)
		return a->met > b->met;
	if (fabs(a->need_score - b->need_score) > 1e-7)
		return a->need_score > b->need_score;
	if (a->used != b->used)
		return a->used < b->used;
	return a->spare > b->spare + 1e-7;
}

/* Every assignment: the best key and its assignment. */
static void brute(const struct advisor_opt_input *in, struct key *best, int *best_assign)
{
	int assign[16];
	unsigned long total = 1;

	memset(best, 0, sizeof(*best));
	for (size_t i = 0; i < in->n; i++)
		total *= 4;
	for (unsigned long c = 0; c < total; c++) {
		unsigned long v = c;
		struct key k;

		for (size_t d = 0; d < in->n; d++, v /= 4)
			assign[d] = (int)(v % 4) - 1;
		k = key_of(in, assign);
		if (key_better(&k, best)) {
			*best = k;
			memcpy(best_assign, assign, in->n * sizeof(int));
		}
	}
}

/* The runner-up by its definition: per tier, bar the leader, take the best. */
static void brute_runner_up(const struct inst *x, const int *best_assign,
			    struct advisor_eval *ru, bool *valid)
{
	const struct advisor_opt_input *in = &x->in;
	struct inst *alt = calloc(1, sizeof(*alt));

	assert_non_null(alt);
	*valid = false;
	for (int t = 0; t < NT; t++) {
		int lead = -1, assign[16];
		struct advisor_eval e;
		struct key k;

		for (size_t d = 0; d < in->n; d++)
			if (best_assign[d] == t && (lead < 0 || in->score[d][t] > in->score[lead][t] ||
			    (in->score[d][t] == in->score[lead][t] && in->capacity[d] > in->capacity[lead])))
				lead = (int)d;
		if (lead < 0)
			continue;
		memcpy(alt, x, sizeof(*alt));
		alt->in.score = (const double (*)[NT])alt->score;
		alt->in.capacity = alt->cap;
		alt->in.group = alt->group;
		for (size_t j = 0; j < in->n; j++)	/* the leader and its twins */
			if (in->capacity[j] == in->capacity[lead] &&
			    !memcmp(in->score[j], in->score[lead], sizeof(in->score[j])))
				alt->score[j][t] = NAN;
		brute(&alt->in, &k, assign);
		if (!k.valid)
			continue;
		assert_int_equal(advisor_evaluate(in, assign, &e), 0);
		if (!*valid || e.met > ru->met ||
		    (e.met == ru->met && e.score > ru->score + 1e-7)) {
			*ru = e;
			*valid = true;
		}
	}
	free(alt);
}

/* Could a device join after the optimum (a twin, or a like device)? */
static bool has_joiners(const struct advisor_opt_input *in)
{
	for (size_t a = 0; a < in->n; a++)
		for (size_t b = a + 1; b < in->n; b++)
			if (in->group[a] == in->group[b] &&
			    ((in->capacity[a] == in->capacity[b] &&
			      !memcmp(in->score[a], in->score[b], sizeof(in->score[a]))) ||
			     !isnan(in->score[a][ADVISOR_HOT]) || !isnan(in->score[a][ADVISOR_COLD])))
				return true;
	return false;
}

static void check_against_brute(bool all_needs, int rounds)
{
	for (int round = 0; round < rounds; round++) {
		size_t n = 1 + (size_t)(rnd() * 6);
		struct inst *x = random_instance(n, all_needs);
		struct advisor_opt_result r;
		struct advisor_eval second;
		struct key best, got;
		int best_assign[16];
		bool valid;

		brute(&x->in, &best, best_assign);
		assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
		assert_true(r.exact);
		assert_true(r.best.valid);
		got = key_of(&x->in, r.best.tier);
		if (best.valid) {
			assert_int_equal(got.met, best.met);
			assert_close(got.need_score, best.need_score, 1e-6);
			/* identical devices join a tier, like ones hot or cold,
			 * when that loses nothing */
			if (!has_joiners(&x->in))
				assert_int_equal(got.used, best.used);
			else
				assert_true(got.used >= best.used);
			assert_close(got.spare, best.spare, 1e-6);
		}
		assert_close(r.bound, r.best.e.score, 1e-9);
		/* the runner-up is defined from the optimum found: use its own */
		brute_runner_up(x, r.best.tier, &second, &valid);
		assert_int_equal(r.runner_up.valid, valid);
		if (valid) {
			assert_int_equal(r.runner_up.e.met, second.met);
			assert_close(r.runner_up.e.score, second.score, 1e-6);
		}
		advisor_opt_result_clear(&r);
		free(x);
	}
}

/*
 * Media classes and array rules against brute force: random
 * classes per device (one per tier in a tier), random rules per tier and
 * redundancy required in some; the optimum meets as many needs with the
 * same score as the best assignment advisor_evaluate() accepts, and never
 * mixes classes in a tier.
 */
static void check_classes_against_brute(int rounds)
{
	for (int round = 0; round < rounds; round++) {
		size_t n = 1 + (size_t)(rnd() * 6);
		struct inst *x = random_instance(n, rnd() < 0.5);
		struct advisor_opt_result r;
		struct key best, got;
		int best_assign[16];

		for (size_t d = 0; d < n; d++)
			for (int t = 0; t < NT; t++)
				x->cls[d][t] = (int)(rnd() * 3);
		for (size_t d = 1; d < n; d++)	/* like devices are one class */
			for (size_t j = 0; j < d; j++)
				if (x->group[d] == x->group[j])
					memcpy(x->cls[d], x->cls[j], sizeof(x->cls[d]));
		x->in.cls = (const int (*)[NT])x->cls;
		for (int t = 0; t < NT; t++) {
			x->in.rule[t] = (enum advisor_array_rule)(rnd() * 4);
			x->in.required[t] = rnd() < 0.3;
		}
		brute(&x->in, &best, best_assign);
		assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
		assert_true(r.exact);
		got = key_of(&x->in, r.best.tier);
		if (best.valid && !got.valid) {	/* nothing used: as good only if best adds nothing */
			struct advisor_eval e;

			assert_int_equal(advisor_evaluate(&x->in, r.best.tier, &e), 0);
			assert_true(e.valid && e.used == 0);
			assert_int_equal(e.met, best.met);
			assert_close(e.score, best.need_score + best.spare, 1e-6);
		} else if (best.valid) {
			assert_int_equal(got.met, best.met);
			assert_close(got.need_score, best.need_score, 1e-6);
		}
		for (size_t a = 0; a < n; a++)
			for (size_t b = 0; b < n; b++)
				if (r.best.tier[a] >= 0 && r.best.tier[a] == r.best.tier[b])
					assert_int_equal(x->cls[a][r.best.tier[a]],
							 x->cls[b][r.best.tier[a]]);
		advisor_opt_result_clear(&r);
		free(x);
	}
}

static void test_classes_against_brute_force(void **state)
{
	(void)state;
	check_classes_against_brute(150);
}

/*
 * One media class per tier: cold needs 11 TB; a 10 TB HDD (score 60) and
 * two 1 TB SSDs (80).  Mixing them would meet the need; a tier never mixes
 * classes, so the HDD holds what it can (the need unmet) and an assignment
 * that mixes is invalid.
 */
static void test_media_classes(void **state)
{
	struct inst *x = inst_new(3);
	struct advisor_opt_result r;
	struct advisor_eval e;
	int mixed[3] = { ADVISOR_COLD, ADVISOR_COLD, ADVISOR_COLD };

	(void)state;
	for (int d = 0; d < 3; d++) {
		x->score[d][ADVISOR_HOT] = x->score[d][ADVISOR_WARM] = NAN;
		x->score[d][ADVISOR_COLD] = d ? 80.0 : 60.0;
		x->cap[d] = d ? 1e12 : 10e12;
		x->group[d] = (int)d;
		for (int t = 0; t < NT; t++)
			x->cls[d][t] = d ? 0 : 1;
	}
	x->in.need[ADVISOR_COLD] = 11e12;
	assert_int_equal(advisor_evaluate(&x->in, mixed, &e), 0);
	assert_true(e.valid && e.met == 1);	/* no classes: the mix meets it */
	x->in.cls = (const int (*)[NT])x->cls;
	assert_int_equal(advisor_evaluate(&x->in, mixed, &e), 0);
	assert_false(e.valid);
	assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
	assert_true(r.exact);
	assert_int_equal(r.best.e.met, 0);
	assert_int_equal(r.best.tier[0], ADVISOR_COLD);
	assert_int_equal(r.best.tier[1], -1);
	assert_int_equal(r.best.tier[2], -1);
	assert_close(r.best.e.tier_usable[ADVISOR_COLD], 10e12, 1.0);
	advisor_opt_result_clear(&r);
	free(x);
}

/*
 * Redundancy required: a lone device holds none of the need, two like
 * devices hold one as a mirror (warm, whose own rule stripes), four hold
 * two (RAID10); in a parity tier three hold two (RAID5).
 */
static void test_required(void **state)
{
	struct inst *x = inst_new(4);
	struct advisor_eval e;
	struct advisor_opt_result r;
	int one[4] = { ADVISOR_WARM, -1, -1, -1 }, two[4] = { ADVISOR_WARM, ADVISOR_WARM, -1, -1 };
	int four[4] = { ADVISOR_WARM, ADVISOR_WARM, ADVISOR_WARM, ADVISOR_WARM };
	int three[4] = { ADVISOR_COLD, ADVISOR_COLD, ADVISOR_COLD, -1 };

	(void)state;
	for (int d = 0; d < 4; d++) {
		x->score[d][ADVISOR_HOT] = NAN;
		x->score[d][ADVISOR_WARM] = x->score[d][ADVISOR_COLD] = 80.0;
		x->cap[d] = 1e12;
		x->group[d] = 0;
	}
	x->in.need[ADVISOR_WARM] = 1.5e12;
	x->in.required[ADVISOR_WARM] = true;
	assert_int_equal(advisor_evaluate(&x->in, one, &e), 0);
	assert_close(e.tier_usable[ADVISOR_WARM], 0.0, 1.0);
	assert_int_equal(advisor_evaluate(&x->in, two, &e), 0);
	assert_close(e.tier_usable[ADVISOR_WARM], 1e12, 1.0);
	assert_int_equal(advisor_evaluate(&x->in, four, &e), 0);
	assert_close(e.tier_usable[ADVISOR_WARM], 2e12, 1.0);
	assert_int_equal(e.met, 1);
	assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
	assert_true(r.exact);
	assert_int_equal(r.best.e.met, 1);
	for (int d = 0; d < 4; d++)
		assert_int_equal(r.best.tier[d], ADVISOR_WARM);
	advisor_opt_result_clear(&r);
	x->in.need[ADVISOR_WARM] = 0;
	x->in.need[ADVISOR_COLD] = 1.5e12;
	x->in.required[ADVISOR_COLD] = true;
	assert_int_equal(advisor_evaluate(&x->in, three, &e), 0);
	assert_close(e.tier_usable[ADVISOR_COLD], 2e12, 1.0);	/* RAID5 */
	x->group[1] = 1;	/* unlike now: no pair of like devices left but 0, 2, 3 */
	x->group[2] = 2;
	x->group[3] = 3;
	assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
	assert_int_equal(r.best.e.met, 0);	/* no two like devices: nothing held */
	assert_close(r.best.e.tier_usable[ADVISOR_COLD], 0.0, 1.0);
	advisor_opt_result_clear(&r);
	free(x);
}

static void test_against_brute_force(void **state)
{
	(void)state;
	check_against_brute(true, 200);
}

/* Tiers with no need take spares only: checked against brute force too. */
static void test_spares_against_brute_force(void **state)
{
	(void)state;
	check_against_brute(false, 200);
}

/* Needs met by the obvious devices: 0 is the hot one, 1 warm, 2-3 cold. */
static void test_obvious_plan(void **state)
{
	struct inst *x = inst_new(4);
	struct advisor_opt_result r;
	const double s[4][3] = {
		{ 95, 70, 60 }, { 80, 92, 60 }, { NAN, NAN, 90 }, { NAN, NAN, 88 },
	};

	(void)state;
	memcpy(x->score, s, sizeof(s));
	x->cap[0] = 0.8e12;
	x->cap[1] = 0.8e12;
	x->cap[2] = 9.6e12;
	x->cap[3] = 8e12;
	x->in.need[0] = 0.7e12;
	x->in.need[1] = 0.5e12;
	x->in.need[2] = 10e12;
	assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
	assert_int_equal(r.best.tier[0], ADVISOR_HOT);
	assert_int_equal(r.best.tier[1], ADVISOR_WARM);
	assert_int_equal(r.best.tier[2], ADVISOR_COLD);
	assert_int_equal(r.best.tier[3], ADVISOR_COLD);	/* 9.6 TB < 10 TB alone */
	assert_int_equal(r.best.e.met, 3);
	assert_close(r.best.e.coverage, 3.0, 1e-9);
	assert_true(r.runner_up.valid);
	assert_true(r.runner_up.e.score < r.best.e.score);
	advisor_opt_result_clear(&r);
	free(x);
}

/*
 * Needs first: two identical 512 GB drives, warm needs 800 GB,
 * nothing else has a need.  Both go to warm (820 GB), none to hot, although
 * the hot tier would score them higher.
 */
static void test_needs_first(void **state)
{
	struct inst *x = inst_new(2);
	struct advisor_opt_result r;

	(void)state;
	for (int d = 0; d < 2; d++) {
		x->score[d][ADVISOR_HOT] = 78.8;
		x->score[d][ADVISOR_WARM] = 76.8;
		x->score[d][ADVISOR_COLD] = 53.9;
		x->cap[d] = 0.8 * 512110190592.0;
		x->group[d] = 0;
	}
	x->in.need[ADVISOR_WARM] = 800e9;
	assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
	assert_true(r.exact);
	assert_int_equal(r.best.tier[0], ADVISOR_WARM);
	assert_int_equal(r.best.tier[1], ADVISOR_WARM);
	assert_int_equal(r.best.e.met, 1);
	advisor_opt_result_clear(&r);
	free(x);
}

/*
 * RAID capacity counts inside the optimisation: hot needs 700 GB; a pair of
 * like 500 GB drives scores 90 but mirrored holds 500 GB; a lone 800 GB
 * drive scores 70.  Counting raw capacity would pick the pair (1 TB); the
 * mirror cannot meet the need, so the lone drive takes it.
 */
static void test_raid_capacity(void **state)
{
	struct inst *x = inst_new(3);
	struct advisor_opt_result r;
	struct advisor_eval e;
	int pair[3] = { ADVISOR_HOT, ADVISOR_HOT, -1 };

	(void)state;
	for (int d = 0; d < 3; d++) {
		x->score[d][ADVISOR_WARM] = x->score[d][ADVISOR_COLD] = NAN;
		x->group[d] = d < 2 ? 0 : 2;
	}
	x->score[0][ADVISOR_HOT] = x->score[1][ADVISOR_HOT] = 90.0;
	x->score[2][ADVISOR_HOT] = 70.0;
	x->cap[0] = x->cap[1] = 500e9;
	x->cap[2] = 800e9;
	x->in.need[ADVISOR_HOT] = 700e9;
	assert_int_equal(advisor_evaluate(&x->in, pair, &e), 0);
	assert_close(e.tier_usable[ADVISOR_HOT], 500e9, 1.0);	/* RAID1 */
	assert_int_equal(e.met, 0);
	assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
	assert_int_equal(r.best.tier[2], ADVISOR_HOT);
	assert_int_equal(r.best.e.met, 1);
	advisor_opt_result_clear(&r);
	/* four like HDDs in cold: RAID6 holds two of them */
	free(x);
	x = inst_new(4);
	for (int d = 0; d < 4; d++) {
		x->score[d][ADVISOR_HOT] = x->score[d][ADVISOR_WARM] = NAN;
		x->score[d][ADVISOR_COLD] = 92.0;
		x->cap[d] = 9.6e12;
		x->group[d] = 0;
	}
	{
		int all[4] = { ADVISOR_COLD, ADVISOR_COLD, ADVISOR_COLD, ADVISOR_COLD };
		int three[4] = { ADVISOR_COLD, ADVISOR_COLD, ADVISOR_COLD, -1 };

		assert_int_equal(advisor_evaluate(&x->in, all, &e), 0);
		assert_close(e.tier_usable[ADVISOR_COLD], 19.2e12, 1.0);
		assert_int_equal(advisor_evaluate(&x->in, three, &e), 0);
		assert_close(e.tier_usable[ADVISOR_COLD], 19.2e12, 1.0);	/* RAID5 */
	}
	x->in.need[ADVISOR_COLD] = 20e12;	/* unmeetable: 19.2 TB at best */
	assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
	assert_int_equal(r.best.e.met, 0);
	assert_close(r.best.e.tier_usable[ADVISOR_COLD], 19.2e12, 1.0);
	for (int d = 0; d < 4; d++)	/* the fourth twin joins: nothing lost */
		assert_int_equal(r.best.tier[d], ADVISOR_COLD);
	advisor_opt_result_clear(&r);
	free(x);
}

/*
 * Like devices join a redundant array at no loss: cold needs 100 GB; two
 * like 190 GB HDDs (scores 41.1 and 41.0, not twins) — one meets the need,
 * the other joins it as a mirror (usable stays 190 GB, the score too).  In
 * warm (RAID0, no redundancy) a like device that adds nothing stays out.
 */
static void test_alike_join(void **state)
{
	struct inst *x = inst_new(3);
	struct advisor_opt_result r;

	(void)state;
	for (int d = 0; d < 3; d++) {
		x->score[d][ADVISOR_HOT] = x->score[d][ADVISOR_WARM] = NAN;
		x->score[d][ADVISOR_COLD] = d == 0 ? 41.1 : d == 1 ? 41.0 : 33.0;
		x->cap[d] = d < 2 ? 190e9 : 100e9;
		x->group[d] = d < 2 ? 0 : 2;
	}
	x->in.need[ADVISOR_COLD] = 100e9;
	assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
	assert_true(r.exact);
	assert_int_equal(r.best.e.met, 1);
	assert_int_equal(r.best.tier[0], ADVISOR_COLD);
	assert_int_equal(r.best.tier[1], ADVISOR_COLD);	/* the mirror */
	assert_int_equal(r.best.tier[2], -1);		/* unlike: stays out */
	assert_close(r.best.e.tier_usable[ADVISOR_COLD], 190e9, 1.0);
	advisor_opt_result_clear(&r);
	/* the same in warm: the second adds nothing and is no mirror */
	for (int d = 0; d < 3; d++) {
		x->score[d][ADVISOR_WARM] = x->score[d][ADVISOR_COLD];
		x->score[d][ADVISOR_COLD] = NAN;
	}
	x->in.need[ADVISOR_WARM] = 100e9;
	x->in.need[ADVISOR_COLD] = 0;
	assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
	assert_int_equal(r.best.tier[0], ADVISOR_WARM);
	assert_int_equal(r.best.tier[1], -1);
	advisor_opt_result_clear(&r);
	free(x);
}

/*
 * Buying: 8 copies of a model A (warm 90, 1 TB, 100 each) and 8 of B (70,
 * 1 TB, 10 each), warm needs 2.5 TB.  The best plan buys 3 A; a budget of
 * 150 allows one A and two B (quality (90 + 70 × 1.5) / 2.5 = 78); the
 * cheapest plan within 12 points of the best is that one too, within 20
 * points three B.  Twins by the eight: one order of them is searched.
 */
static void test_buying(void **state)
{
	struct inst *x = inst_new(16);
	double price[16];
	struct advisor_opt_result r;
	const struct { double budget; bool cheapest; double margin; unsigned a, b; double score; }
	cases[] = {
		{ 0, false, 0, 3, 0, 90.0 },
		{ 150, false, 0, 1, 2, 78.0 },
		{ 0, true, 0, 3, 0, 90.0 },
		{ 0, true, 12, 1, 2, 78.0 },
		{ 0, true, 20, 0, 3, 70.0 },
	};

	(void)state;
	for (int d = 0; d < 16; d++) {
		x->score[d][ADVISOR_HOT] = x->score[d][ADVISOR_COLD] = NAN;
		x->score[d][ADVISOR_WARM] = d < 8 ? 90.0 : 70.0;
		x->cap[d] = 1e12;
		x->group[d] = d < 8 ? 0 : 8;
		price[d] = d < 8 ? 100.0 : 10.0;
	}
	x->in.need[ADVISOR_WARM] = 2.5e12;
	x->in.price = price;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		unsigned a = 0, b = 0;

		x->in.budget = cases[k].budget;
		x->in.cheapest = cases[k].cheapest;
		x->in.margin = cases[k].margin;
		assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);
		assert_true(r.exact);
		for (int d = 0; d < 16; d++)
			if (r.best.tier[d] == ADVISOR_WARM)
				d < 8 ? a++ : b++;
		assert_int_equal(a, cases[k].a);
		assert_int_equal(b, cases[k].b);
		assert_close(r.best.e.score, cases[k].score, 1e-6);
		assert_close(r.best.e.cost, 100.0 * a + 10.0 * b, 1e-9);
		if (cases[k].budget > 0)
			assert_true(r.best.e.cost <= cases[k].budget);
		advisor_opt_result_clear(&r);
	}
	free(x);
}

/* 1,000 devices, no cap: solved exactly; a tiny time limit gives a bound. */
static void test_thousand(void **state)
{
	struct inst *x = random_instance(MAXN, true);
	struct advisor_opt_result r, quick;

	(void)state;
	for (int t = 0; t < NT; t++)
		x->in.need[t] = 5e12 + 10e12 * rnd();
	assert_int_equal(advisor_optimize(&x->in, 60.0, &r), 0);
	assert_true(r.exact);
	assert_true(r.best.valid);
	assert_int_equal(r.best.e.met, 3);
	assert_int_equal(advisor_optimize(&x->in, 1e-4, &quick), 0);
	assert_true(quick.best.valid);
	assert_false(quick.exact);
	assert_true(quick.bound >= quick.best.e.score);
	assert_true(quick.bound >= r.best.e.score - 1e-6);	/* a true bound */
	assert_true(quick.best.e.met <= r.best.e.met);
	advisor_opt_result_clear(&r);
	advisor_opt_result_clear(&quick);
	free(x);
}

static void test_limits(void **state)
{
	struct advisor_opt_result r;
	struct inst *x = inst_new(0);

	(void)state;
	assert_int_equal(advisor_optimize(NULL, 0, &r), -EINVAL);
	assert_int_equal(advisor_optimize(&x->in, 0, NULL), -EINVAL);
	assert_int_equal(advisor_optimize(&x->in, 0, &r), 0);	/* no devices */
	assert_false(r.runner_up.valid);
	assert_int_equal(advisor_raid_data_disks(ADVISOR_HOT, 2), 1);
	assert_int_equal(advisor_raid_data_disks(ADVISOR_HOT, 3), 1);
	assert_int_equal(advisor_raid_data_disks(ADVISOR_HOT, 5), 2);
	assert_int_equal(advisor_raid_data_disks(ADVISOR_COLD, 2), 1);
	assert_int_equal(advisor_raid_data_disks(ADVISOR_COLD, 3), 2);
	assert_int_equal(advisor_raid_data_disks(ADVISOR_COLD, 6), 4);
	assert_int_equal(advisor_raid_data_disks(ADVISOR_WARM, 6), 6);
	assert_int_equal(advisor_raid_data_disks(ADVISOR_COLD, 1), 1);
	advisor_opt_result_clear(&r);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_brute_force),
		cmocka_unit_test(test_spares_against_brute_force),
		cmocka_unit_test(test_obvious_plan),
		cmocka_unit_test(test_needs_first),
		cmocka_unit_test(test_raid_capacity),
		cmocka_unit_test(test_alike_join),
		cmocka_unit_test(test_buying),
		cmocka_unit_test(test_classes_against_brute_force),
		cmocka_unit_test(test_media_classes),
		cmocka_unit_test(test_required),
		cmocka_unit_test(test_thousand),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
