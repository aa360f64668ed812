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

static void random_instance(struct advisor_opt_input *in, size_t n)
{
	memset(in, 0, sizeof(*in));
	in->n = n;
	for (size_t d = 0; d < n; d++) {
		in->capacity[d] = (double)(1 + (int)(rnd() * 20)) * 1e11;
		for (int t = 0; t < ADVISOR_TIER_COUNT; t++)
			in->score[d][t] = rnd() < 0.25 ? NAN : 100.0 * rnd();
	}
	for (int t = 0; t < ADVISOR_TIER_COUNT; t++)
		in->need[t] = rnd() < 0.3 ? 0.0 : rnd() * 8e11;
}

struct key {
	double shortfall, value, objective;
	unsigned used;
	bool valid;
};

static bool key_better(const struct key *a, const struct key *b)
{
	if (!b->valid)
		return true;
	if (a->objective > b->objective + 1e-9)
		return true;
	if (a->objective < b->objective - 1e-9)
		return false;
	return a->used < b->used;
}

/* Every assignment: the best key and its assignment. */
static void brute(const struct advisor_opt_input *in, struct key *best, int *best_assign)
{
	int assign[ADVISOR_OPT_MAX_DEVICES];
	unsigned long total = 1;

	memset(best, 0, sizeof(*best));
	for (size_t i = 0; i < in->n; i++)
		total *= 4;
	for (unsigned long c = 0; c < total; c++) {
		unsigned long v = c;
		struct advisor_assignment a;
		struct key k = { .valid = true };

		for (size_t d = 0; d < in->n; d++, v /= 4) {
			assign[d] = (int)(v % 4) - 1;
			k.used += assign[d] >= 0;
		}
		advisor_evaluate(in, assign, &a);
		if (!a.valid)
			continue;
		k.shortfall = a.shortfall;
		k.value = a.value;
		k.objective = a.objective;
		if (key_better(&k, best)) {
			*best = k;
			memcpy(best_assign, assign, sizeof(assign));
		}
	}
}

/* The runner-up by its definition: per tier, bar the leader, take the best. */
static void brute_runner_up(const struct advisor_opt_input *in, const int *best_assign,
			    struct key *ru)
{
	memset(ru, 0, sizeof(*ru));
	for (int t = 0; t < ADVISOR_TIER_COUNT; t++) {
		struct advisor_opt_input alt = *in;
		int lead = -1, assign[ADVISOR_OPT_MAX_DEVICES];
		struct advisor_assignment a;
		struct key k;

		for (size_t d = 0; d < in->n; d++)
			if (best_assign[d] == t && (lead < 0 || in->score[d][t] > in->score[lead][t] ||
			    (in->score[d][t] == in->score[lead][t] && in->capacity[d] > in->capacity[lead])))
				lead = (int)d;
		if (lead < 0)
			continue;
		for (size_t j = 0; j < in->n; j++)	/* the leader and its twins */
			if (in->capacity[j] == in->capacity[lead] &&
			    !memcmp(in->score[j], in->score[lead], sizeof(in->score[j])))
				alt.score[j][t] = NAN;
		brute(&alt, &k, assign);
		if (!k.valid)
			continue;
		advisor_evaluate(in, assign, &a);
		k.value = a.value;
		k.shortfall = a.shortfall;
		k.objective = a.objective;
		if (key_better(&k, ru))
			*ru = k;
	}
}

static unsigned used_of(const struct advisor_assignment *a, size_t n)
{
	unsigned u = 0;

	for (size_t d = 0; d < n; d++)
		u += a->tier[d] >= 0;
	return u;
}

static void test_against_brute_force(void **state)
{
	(void)state;
	for (int round = 0; round < 300; round++) {
		struct advisor_opt_input in;
		struct advisor_opt_result r;
		struct key best, second;
		int best_assign[ADVISOR_OPT_MAX_DEVICES];
		size_t n = 1 + (size_t)(rnd() * 6);

		random_instance(&in, n);
		brute(&in, &best, best_assign);
		assert_int_equal(advisor_optimize(&in, 0, &r), 0);
		assert_true(r.exact);
		assert_true(r.best.valid);
		assert_close(r.best.objective, best.objective, 1e-6);
		assert_int_equal(used_of(&r.best, n), best.used);
		/* the runner-up is defined from the optimum found: use its own */
		for (size_t d = 0; d < n; d++)
			best_assign[d] = r.best.tier[d];
		brute_runner_up(&in, best_assign, &second);
		assert_int_equal(r.runner_up.valid, second.valid);
		if (second.valid) {
			assert_close(r.runner_up.objective, second.objective, 1e-6);
		}
	}
}

/* Needs met by the obvious devices: 0 is the hot one, 1 warm, 2-3 cold. */
static void test_obvious_plan(void **state)
{
	struct advisor_opt_input in = { .n = 4 };
	struct advisor_opt_result r;
	const double s[4][3] = {
		{ 95, 70, 60 }, { 80, 92, 60 }, { NAN, NAN, 90 }, { NAN, NAN, 88 },
	};

	(void)state;
	memcpy(in.score, s, sizeof(s));
	in.capacity[0] = 0.8e12;
	in.capacity[1] = 0.8e12;
	in.capacity[2] = 9.6e12;
	in.capacity[3] = 8e12;
	in.need[0] = 0.7e12;
	in.need[1] = 0.5e12;
	in.need[2] = 10e12;
	assert_int_equal(advisor_optimize(&in, 0, &r), 0);
	assert_int_equal(r.best.tier[0], ADVISOR_HOT);
	assert_int_equal(r.best.tier[1], ADVISOR_WARM);
	assert_int_equal(r.best.tier[2], ADVISOR_COLD);
	assert_int_equal(r.best.tier[3], ADVISOR_COLD);	/* 9.6 TB < 10 TB alone */
	assert_close(r.best.shortfall, 0.0, 1e-9);
	assert_true(r.runner_up.valid);
	assert_true(r.runner_up.objective < r.best.objective);
}

/* 64 devices: random, and 64 identical ones, solved exactly. */
static void test_sixty_four(void **state)
{
	struct advisor_opt_input in;
	struct advisor_opt_result r;

	(void)state;
	random_instance(&in, 64);
	assert_int_equal(advisor_optimize(&in, 0, &r), 0);
	assert_true(r.exact);
	assert_true(r.best.valid);
	for (size_t d = 1; d < 64; d++) {
		in.capacity[d] = in.capacity[0];
		memcpy(in.score[d], in.score[0], sizeof(in.score[0]));
	}
	assert_int_equal(advisor_optimize(&in, 0, &r), 0);
	assert_true(r.exact);
	assert_true(r.best.valid);
	assert_true(r.nodes < 1000000);
}

static void test_limits(void **state)
{
	struct advisor_opt_input in = { .n = ADVISOR_OPT_MAX_DEVICES + 1 };
	struct advisor_opt_result r;

	(void)state;
	assert_int_equal(advisor_optimize(&in, 0, &r), -EINVAL);
	random_instance(&in, 20);
	assert_int_equal(advisor_optimize(&in, 10, &r), 0);
	assert_false(r.exact);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_brute_force),
		cmocka_unit_test(test_obvious_plan),
		cmocka_unit_test(test_sixty_four),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
