/* test_hist.c — the latency histogram against exact sorted-sample answers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

#define NSAMPLES 200000
#define MAX_REL_ERR 0.01

/* A private generator, so that these tests do not depend on probe/rng.c. */
static uint64_t mix(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in (0, 1). */
static double unif(uint64_t *x)
{
	return ((double)(mix(x) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(uint64_t *x)
{
	return sqrt(-2.0 * log(unif(x))) * cos(2.0 * M_PI * unif(x));
}

static uint64_t to_ns(double v)
{
	return v < 1.0 ? 1 : (uint64_t)v;
}

static uint64_t gen_uniform(uint64_t *x)
{
	return 1000 + mix(x) % 999001; /* 1 .. 1000 us */
}

static uint64_t gen_lognormal(uint64_t *x)
{
	return to_ns(exp(log(100e3) + 0.8 * gauss(x))); /* median 100 us */
}

static uint64_t gen_bimodal(uint64_t *x)
{
	if (mix(x) % 10)
		return to_ns(80e3 + 5e3 * gauss(x)); /* 90 %: 80 +- 5 us */
	return to_ns(5e6 + 0.5e6 * gauss(x));	  /* 10 %: 5 +- 0.5 ms */
}

static uint64_t gen_constant(uint64_t *x)
{
	(void)x;
	return 123456;
}

static uint64_t gen_logspan(uint64_t *x)
{
	return to_ns(100.0 * exp2(30.0 * unif(x))); /* 100 ns .. 107 s */
}

struct dist {
	const char *name;
	uint64_t (*gen)(uint64_t *x);
};

static const struct dist dists[] = {
	{ "uniform 1-1000us", gen_uniform },
	{ "lognormal", gen_lognormal },
	{ "bimodal", gen_bimodal },
	{ "constant", gen_constant },
	{ "log-uniform 100ns-107s", gen_logspan },
};

_Static_assert(sizeof(dists) / sizeof(dists[0]) == 5, "one DIST_TEST each");

/* Percentiles in thousandths of a percent, so reference ranks are exact. */
static const uint64_t q_milli[] = { 50000, 90000, 99000, 99900, 99990 };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static struct probe_hist *new_hist(void)
{
	struct probe_hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	probe_hist_reset(h);
	return h;
}

static void fill(struct probe_hist *h, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		probe_hist_add(h, v[i]);
}

static uint64_t pct(const struct probe_hist *h, double q)
{
	uint64_t ns = 0;

	assert_int_equal(probe_hist_percentile(h, q, &ns), 0);
	return ns;
}

/* Returns the worst relative error of the checked percentiles. */
static double check_percentiles(const struct probe_hist *h,
				const uint64_t *sorted, size_t n, const char *name)
{
	double worst = 0.0;

	for (size_t i = 0; i < sizeof(q_milli) / sizeof(q_milli[0]); i++) {
		uint64_t rank = (q_milli[i] * n + 99999) / 100000;
		double ref = (double)sorted[rank - 1];
		double got = (double)pct(h, (double)q_milli[i] / 1000.0);
		double err = fabs(got - ref) / ref;

		worst = fmax(worst, err);
		if (err > MAX_REL_ERR)
			fail_msg("%s p%g: got %.0f, want %.0f (%.3f %%)", name,
				 (double)q_milli[i] / 1000.0, got, ref, err * 100);
	}
	return worst;
}

static void check_mean(const struct probe_hist *h, const uint64_t *v, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	assert_true(probe_hist_sum(h) == sum);
	assert_true(fabs(probe_hist_mean(h) - (double)sum / (double)n) <=
		    1e-4 * ((double)sum / (double)n));
}

static void check_monotonic(const struct probe_hist *h)
{
	uint64_t prev = 0;

	for (int q10 = 0; q10 <= 1000; q10++) {
		uint64_t v = pct(h, q10 / 10.0);

		assert_true(v >= prev);
		assert_true(v >= probe_hist_min(h));
		assert_true(v <= probe_hist_max(h));
		prev = v;
	}
	assert_true(pct(h, 99.9999) <= probe_hist_max(h));
	assert_true(pct(h, 100.0) == probe_hist_max(h));
	assert_true(pct(h, 0.0) == probe_hist_min(h));
}

static void check_merge(const struct probe_hist *whole, const uint64_t *v, size_t n)
{
	struct probe_hist *a = new_hist(), *b = new_hist();

	fill(a, v, n / 3);
	fill(b, v + n / 3, n - n / 3);
	probe_hist_merge(a, b);
	assert_true(a->count == whole->count);
	assert_true(a->sum == whole->sum);
	assert_true(a->min == whole->min);
	assert_true(a->max == whole->max);
	assert_memory_equal(a->bucket, whole->bucket, sizeof(a->bucket));
	free(a);
	free(b);
}

static void test_distribution(void **state)
{
	const struct dist *d = *state;
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));
	uint64_t *sorted = malloc(NSAMPLES * sizeof(*v));
	struct probe_hist *h = new_hist();
	uint64_t seed = 12345;

	assert_non_null(v);
	assert_non_null(sorted);
	for (size_t i = 0; i < NSAMPLES; i++)
		v[i] = d->gen(&seed);
	memcpy(sorted, v, NSAMPLES * sizeof(*v));
	qsort(sorted, NSAMPLES, sizeof(*v), cmp_u64);
	fill(h, v, NSAMPLES);

	assert_true(probe_hist_count(h) == NSAMPLES);
	assert_true(probe_hist_min(h) == sorted[0]);
	assert_true(probe_hist_max(h) == sorted[NSAMPLES - 1]);
	print_message("%s: worst percentile error %.4f %%\n", d->name,
		      check_percentiles(h, sorted, NSAMPLES, d->name) * 100);
	check_mean(h, v, NSAMPLES);
	check_monotonic(h);
	check_merge(h, v, NSAMPLES);
	free(h);
	free(sorted);
	free(v);
}

/* Buckets tile 0..UINT64_MAX without gaps, each at most 1/64 of its start. */
static void test_bucket_layout(void **state)
{
	uint64_t lo, hi, next = 0;

	(void)state;
	for (unsigned i = 0; i < PROBE_HIST_BUCKETS; i++) {
		assert_int_equal(probe_hist_bucket_bounds(i, &lo, &hi), 0);
		assert_true(lo == next);
		assert_true(hi >= lo);
		if (i >= PROBE_HIST_SUB)
			assert_true((hi - lo + 1) * PROBE_HIST_SUB <= lo);
		assert_int_equal(probe_hist_index(lo), i);
		assert_int_equal(probe_hist_index(hi), i);
		next = hi + 1;
	}
	assert_true(hi == UINT64_MAX);
	assert_int_equal(probe_hist_bucket_bounds(PROBE_HIST_BUCKETS, &lo, &hi),
			 -ERANGE);
}

static void check_single(uint64_t v)
{
	struct probe_hist *h = new_hist();
	uint64_t lo, hi;

	assert_true(probe_hist_index(v) < PROBE_HIST_BUCKETS);
	assert_int_equal(probe_hist_bucket_bounds(probe_hist_index(v), &lo, &hi), 0);
	assert_true(lo <= v && v <= hi);
	probe_hist_add(h, v);
	assert_true(pct(h, 0.0) == v);
	assert_true(pct(h, 50.0) == v);
	assert_true(pct(h, 99.9999) == v);
	assert_true(pct(h, 100.0) == v);
	assert_true(probe_hist_mean(h) == (double)v);
	free(h);
}

/* Powers of two and their neighbours land in a bucket that holds them. */
static void test_edges(void **state)
{
	const uint64_t fixed[] = { 0, 1, 2, 63, 64, 65, 127, 128, 129, 1000,
				   UINT64_MAX - 1, UINT64_MAX };

	(void)state;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		check_single(fixed[i]);
	for (unsigned k = 1; k < 64; k++) {
		uint64_t p = UINT64_C(1) << k;

		check_single(p - 1);
		check_single(p);
		check_single(p + 1);
		assert_true(probe_hist_index(p - 1) < probe_hist_index(p));
	}
	for (uint64_t v = 0; v < 64; v++)
		assert_int_equal(probe_hist_index(v), v);
	assert_int_equal(probe_hist_index(UINT64_MAX), PROBE_HIST_BUCKETS - 1);
}

/* Sums saturate; 0 and UINT64_MAX stay the exact min and max. */
static void test_huge(void **state)
{
	struct probe_hist *h = new_hist(), *g = new_hist();

	(void)state;
	probe_hist_add(h, UINT64_MAX);
	probe_hist_add(h, UINT64_MAX);
	assert_true(probe_hist_sum(h) == UINT64_MAX);
	probe_hist_add(h, 0);
	assert_true(probe_hist_min(h) == 0);
	assert_true(probe_hist_max(h) == UINT64_MAX);
	assert_true(pct(h, 0.0) == 0);
	/* rank 2 of 3: the top bucket's midpoint, within 1/128 of the sample */
	assert_true(pct(h, 50.0) >= UINT64_MAX - UINT64_MAX / 128);
	assert_true(pct(h, 100.0) == UINT64_MAX);
	probe_hist_add(g, 5);
	probe_hist_merge(g, h);
	assert_true(probe_hist_sum(g) == UINT64_MAX);
	assert_true(probe_hist_count(g) == 4);
	free(g);
	free(h);
}

/* Bucket midpoints beyond the samples are clamped: no p99.9999 > max. */
static void test_clamp(void **state)
{
	struct probe_hist *h = new_hist();
	const uint64_t low = UINT64_C(1) << 20; /* bucket [2^20, 2^20 + 2^14) */

	(void)state;
	for (int i = 0; i < 1000000; i++)
		probe_hist_add(h, low + (i % 2));
	assert_true(pct(h, 99.0) == low + 1);
	assert_true(pct(h, 99.9999) == low + 1);
	probe_hist_reset(h);
	for (int i = 0; i < 1000; i++)
		probe_hist_add(h, low + 16383 - (i % 2)); /* top of the bucket */
	assert_true(pct(h, 1.0) == low + 16382);
	assert_true(pct(h, 50.0) == low + 16382);
	free(h);
}

/* 99.9 % of 1000 samples is rank 999 although 99.9/100*1000 > 999 in binary. */
static void test_rank_rounding(void **state)
{
	struct probe_hist *h = new_hist();

	(void)state;
	for (int i = 0; i < 999; i++)
		probe_hist_add(h, 10);
	probe_hist_add(h, 50);
	assert_true(pct(h, 99.9) == 10);
	assert_true(pct(h, 99.95) == 50);
	free(h);
}

static void test_errors(void **state)
{
	struct probe_hist *h = new_hist();
	struct probe_lat_summary s = { .mean = 7 };
	uint64_t ns = 42;

	(void)state;
	assert_int_equal(probe_hist_percentile(h, 50.0, &ns), -ENODATA);
	assert_true(ns == 42);
	assert_int_equal(probe_hist_summary(h, &s), -ENODATA);
	assert_true(s.mean == 0.0 && s.max == 0.0 && s.p999 == 0.0);
	assert_true(probe_hist_min(h) == 0 && probe_hist_max(h) == 0);
	assert_true(probe_hist_mean(h) == 0.0);
	probe_hist_add(h, 1);
	assert_int_equal(probe_hist_percentile(h, -0.1, &ns), -EINVAL);
	assert_int_equal(probe_hist_percentile(h, 100.01, &ns), -EINVAL);
	assert_int_equal(probe_hist_percentile(h, NAN, &ns), -EINVAL);
	assert_true(ns == 42);
	free(h);
}

/* 1..1000 us, one sample each: the summary is in microseconds. */
static void test_summary(void **state)
{
	struct probe_hist *h = new_hist();
	struct probe_lat_summary s;

	(void)state;
	for (uint64_t us = 1; us <= 1000; us++)
		probe_hist_add(h, us * 1000);
	assert_int_equal(probe_hist_summary(h, &s), 0);
	assert_true(fabs(s.mean - 500.5) < 1e-9);
	assert_true(fabs(s.p50 - 500.0) <= 5.0);
	assert_true(fabs(s.p90 - 900.0) <= 9.0);
	assert_true(fabs(s.p99 - 990.0) <= 9.9);
	assert_true(fabs(s.p999 - 999.0) <= 9.99);
	assert_true(s.p999 <= s.max);
	assert_true(s.max == 1000.0);
	free(h);
}

/* One run of test_distribution per table entry, named after it. */
#define DIST_TEST(i)                                                  \
	{ .name = dists[i].name, .test_func = test_distribution,       \
	  .initial_state = (void *)&dists[i] }

int main(void)
{
	const struct CMUnitTest tests[] = {
		DIST_TEST(0), DIST_TEST(1), DIST_TEST(2), DIST_TEST(3), DIST_TEST(4),
		cmocka_unit_test(test_bucket_layout),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_clamp),
		cmocka_unit_test(test_rank_rounding),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
