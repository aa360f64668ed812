/* test_known.c — when a measured rate is known: the 95 % band of its mean
 * from batch means of its windows (probe/known.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>

#include "known.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Ten windows, one per batch: mean 100, s = √(Σ d² / 9) for deviations ±1. */
static void test_band_by_hand(void **state)
{
	const double v[] = { 99, 101, 99, 101, 99, 101, 99, 101, 99, 101 };
	struct probe_known k;
	double s = sqrt(10.0 / 9.0), want = 2.262 * s / sqrt(10.0) / 100.0 * 100.0;

	(void)state;
	assert_int_equal(probe_known_check(v, N(v), &k), 0);
	assert_int_equal(k.batches, 10);
	assert_true(fabs(k.mean - 100.0) < 1e-9);
	assert_true(fabs(k.half_pct - want) < 1e-6);	/* ±0.754 % */
	assert_true(probe_known(v, N(v), 2.0));
	assert_false(probe_known(v, N(v), 0.5));
}

/* Twenty windows: batches of two (the pairs' means), the oldest odd one
 * dropped when the count does not divide. */
static void test_batches(void **state)
{
	double v[21];
	struct probe_known k;

	(void)state;
	v[0] = 1e9;	/* dropped: 21 = 10 × 2 + 1 */
	for (size_t i = 1; i < N(v); i++)
		v[i] = (i % 2) ? 90.0 : 110.0;	/* each pair averages 100 */
	assert_int_equal(probe_known_check(v, N(v), &k), 0);
	assert_int_equal(k.batches, 10);
	assert_true(fabs(k.mean - 100.0) < 1e-9);
	assert_true(k.half_pct < 1e-9);	/* the batch means agree */
}

/* A noisy series (±20 %) is not known within 2 %; a drifting one neither. */
static void test_not_known(void **state)
{
	const double noisy[] = { 80, 120, 85, 115, 90, 110, 120, 80, 100, 95, 105, 118 };
	double drift[40];
	struct probe_known k;

	(void)state;
	assert_int_equal(probe_known_check(noisy, N(noisy), &k), 0);
	assert_true(k.half_pct > 2.0);
	for (size_t i = 0; i < N(drift); i++)
		drift[i] = 100.0 + 2.0 * (double)i;	/* +2 per window */
	assert_false(probe_known(drift, N(drift), PROBE_KNOWN_PCT));
}

static void test_edges(void **state)
{
	const double three[] = { 100, 100, 100 };
	const double zero[] = { 0, 0, 0, 0, 0 };
	const double bad[] = { 100, NAN, 100, 100 };
	const double neg[] = { 100, -1, 100, 100 };
	struct probe_known k;

	(void)state;
	assert_int_equal(probe_known_check(three, N(three), &k), -EAGAIN);
	assert_true(isinf(k.half_pct));
	assert_false(probe_known(three, N(three), 50.0));
	assert_int_equal(probe_known_check(zero, N(zero), &k), 0);	/* stalled */
	assert_true(isinf(k.half_pct));
	assert_false(probe_known(zero, N(zero), 50.0));
	assert_int_equal(probe_known_check(bad, N(bad), &k), -EINVAL);
	assert_int_equal(probe_known_check(neg, N(neg), &k), -EINVAL);
	/* four equal windows: known at once (a band of 0) */
	assert_true(probe_known((const double[]){ 5, 5, 5, 5 }, 4, 0.1));
}

/*
 * A device that completes its I/Os in 16 MiB bunches at a steady 51 MB/s:
 * each window closes with the first bunch past its 0.1 s, so windows of
 * 0.1–0.5 s hold one bunch each and their rates swing 34–168 MB/s.  The
 * plain mean of the rates is 1.46× the rate; batches
 * weighted by the windows' lengths find 51 MB/s, known to ±2 %.
 */
static void test_weighted_bunches(void **state)
{
	double v[40], w[40];
	struct probe_known k;

	(void)state;
	for (size_t i = 0; i < 40; i++) {
		w[i] = (i % 4 == 0) ? 0.1 : (i % 4 == 1) ? 0.5 : (i % 4 == 2) ? 0.3 : 0.4193;
		v[i] = 16.777216 / w[i];	/* MB/s */
	}
	/* 0.1+0.5+0.3+0.4193 = 1.3193 s per 4 bunches: 67.1 MB / 1.3193 s */
	assert_int_equal(probe_known_check_w(v, w, 40, &k), 0);
	assert_float_equal(k.mean, 4 * 16.777216 / 1.3193, 1e-6);
	assert_true(k.half_pct < 0.01);	/* every batch holds whole cycles */
	assert_true(probe_known_w(v, w, 40, 2.0));
	assert_int_equal(probe_known_check(v, 40, &k), 0);
	assert_true(k.mean > 1.4 * 4 * 16.777216 / 1.3193);	/* the plain mean: 1.46× the rate */
	/* NULL lengths: the plain mean */
	assert_int_equal(probe_known_check_w(v, NULL, 40, &k), 0);
	assert_true(k.mean > 1.4 * 4 * 16.777216 / 1.3193);
	/* a bad length */
	w[3] = 0;
	assert_int_equal(probe_known_check_w(v, w, 40, &k), -EINVAL);
	w[3] = NAN;
	assert_false(probe_known_w(v, w, 40, 2.0));
}

/* Whether a band lies wholly below a mark (what the trial of more rings
 * stops on): the upper edge, mean × (1 + half_pct / 100), against it. */
static void test_below(void **state)
{
	const double v[] = { 99, 101, 99, 101, 99, 101, 99, 101, 99, 101 };	/* 100 ±0.754 % */
	const double noisy[] = { 80, 120, 85, 115, 90, 110, 120, 80, 100, 95, 105, 118 };
	const double w[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
	struct probe_known k;

	(void)state;
	assert_true(probe_known_below_w(v, NULL, N(v), 100.76));
	assert_false(probe_known_below_w(v, NULL, N(v), 100.75));	/* the edge: 100.754 */
	assert_true(probe_known_below_w(v, w, N(v), 105.0));	/* equal lengths: the same */
	assert_false(probe_known_below_w(v, NULL, N(v), 0));
	assert_false(probe_known_below_w(v, NULL, N(v), NAN));
	assert_false(probe_known_below_w(v, NULL, 3, 1e9));	/* too few windows */
	/* a wide band: below a mark far enough above it, not below one near */
	assert_int_equal(probe_known_check(noisy, N(noisy), &k), 0);
	assert_true(k.half_pct > 5.0);
	assert_true(probe_known_below_w(noisy, NULL, N(noisy), k.mean * (1 + k.half_pct / 100) * 1.001));
	assert_false(probe_known_below_w(noisy, NULL, N(noisy), k.mean * 1.05));
	assert_false(probe_known_below_w((const double[]){ 0, 0, 0, 0 }, NULL, 4, 1.0));	/* stalled */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_band_by_hand),
		cmocka_unit_test(test_batches),
		cmocka_unit_test(test_not_known),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_weighted_bunches),
		cmocka_unit_test(test_below),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
