/* test_cliff.c — SLC-cache cliff on per-second MB/s series. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>

#include "cliff.h"

#define SECS 120

static struct probe_cliff find(const double *v, size_t n)
{
	struct probe_cliff c;

	assert_int_equal(probe_cliff_find(v, n, &c), 0);
	return c;
}

static void near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.6f, want %.6f +- %g", got, want, tol);
}

/* ShiJi 256 GB: 2,039 MB/s for 20 s, then 1,142 MB/s (-44 %). */
static void test_shiji(void **state)
{
	double v[SECS];
	struct probe_cliff c;

	(void)state;
	for (size_t i = 0; i < SECS; i++)
		v[i] = i < 20 ? 2039.0 : 1142.0;
	c = find(v, SECS);
	assert_true(c.found);
	assert_int_equal(c.index, 20);
	near(c.initial_mbps, 2039.0, 1e-9);
	near(c.after_mbps, 1142.0, 1e-9);
	near(c.gb_before, 40.78, 1e-9);
}

/* The same with +-2 % ripple: still second 20, figures within the ripple. */
static void test_shiji_noisy(void **state)
{
	double v[SECS];
	struct probe_cliff c;

	(void)state;
	for (size_t i = 0; i < SECS; i++)
		v[i] = (i < 20 ? 2039.0 : 1142.0) * (1.0 + 0.02 * sin((double)i));
	c = find(v, SECS);
	assert_true(c.found);
	assert_int_equal(c.index, 20);
	near(c.initial_mbps, 2039.0, 2039.0 * 0.02);
	near(c.after_mbps, 1142.0, 1142.0 * 0.01);
	near(c.gb_before, 40.78, 40.78 * 0.02);
}

static void test_flat(void **state)
{
	double v[SECS];
	struct probe_cliff c;

	(void)state;
	for (size_t i = 0; i < SECS; i++)
		v[i] = 1500.0;
	c = find(v, SECS);
	assert_false(c.found);
	assert_int_equal(c.index, 0);
	near(c.initial_mbps, 1500.0, 1e-9);
	near(c.after_mbps, 1500.0, 1e-9);
	near(c.gb_before, 180.0, 1e-9); /* everything written, no cliff */
}

/* A 3 s dip to a quarter that recovers is not a cliff. */
static void test_dip_recovers(void **state)
{
	double v[63];
	struct probe_cliff c;

	(void)state;
	for (size_t i = 0; i < 63; i++)
		v[i] = i >= 30 && i < 33 ? 500.0 : 2000.0;
	c = find(v, 63);
	assert_false(c.found);
	near(c.after_mbps, (60 * 2000.0 + 3 * 500.0) / 63, 1e-9);
}

/* An early dip that recovers, then the real cliff at second 112. */
static void test_dip_then_cliff(void **state)
{
	double v[132];
	struct probe_cliff c;

	(void)state;
	for (size_t i = 0; i < 132; i++)
		v[i] = i >= 10 && i < 12 ? 300.0 : i < 112 ? 2000.0 : 800.0;
	c = find(v, 132);
	assert_true(c.found);
	assert_int_equal(c.index, 112);
	near(c.after_mbps, 800.0, 1e-9);
	near(c.gb_before, (110 * 2000.0 + 2 * 300.0) / 1000, 1e-9);
}

/* 2,000 -> 1,000 MB/s linearly over 60 s: the cliff is where it crosses 70 %. */
static void test_gradual_decline(void **state)
{
	double v[61], before = 0.0;
	struct probe_cliff c;

	(void)state;
	for (size_t i = 0; i < 61; i++)
		v[i] = 2000.0 - (double)i * 1000.0 / 60.0;
	c = find(v, 61);
	assert_true(c.found);
	near(c.initial_mbps, (v[0] + v[1] + v[2]) / 3, 1e-9);
	assert_true(v[c.index] < 0.7 * c.initial_mbps);
	assert_true(v[c.index - 1] >= 0.7 * c.initial_mbps);
	assert_int_equal(c.index, 37);
	for (size_t i = 0; i < 37; i++)
		before += v[i];
	near(c.gb_before, before / 1000, 1e-9);
	near(c.after_mbps, (v[37] + v[60]) / 2, 1e-9);
}

/* Down to 75 % only: a slowdown, not a cliff. */
static void test_mild_decline(void **state)
{
	double v[61];
	struct probe_cliff c;

	(void)state;
	for (size_t i = 0; i < 61; i++)
		v[i] = 2000.0 - (double)i * 500.0 / 60.0;
	c = find(v, 61);
	assert_false(c.found);
	near(c.after_mbps, 1750.0, 1e-9);
}

/* A cliff inside the first three seconds, and series shorter than three. */
static void test_short_series(void **state)
{
	const double early[] = { 2000, 2000, 200, 200, 200, 200 };
	const double one[] = { 2000 };
	const double two[] = { 2000, 100 };
	struct probe_cliff c;

	(void)state;
	c = find(early, 6);
	assert_true(c.found);
	assert_int_equal(c.index, 2);
	near(c.initial_mbps, 1400.0, 1e-9);
	near(c.gb_before, 4.0, 1e-9);
	c = find(one, 1);
	assert_false(c.found);
	near(c.initial_mbps, 2000.0, 1e-9);
	near(c.gb_before, 2.0, 1e-9);
	c = find(two, 2);
	assert_true(c.found);
	assert_int_equal(c.index, 1);
	near(c.initial_mbps, 1050.0, 1e-9);
	near(c.after_mbps, 100.0, 1e-9);
}

/* A slow first second is a ramp-up, not a cliff: nothing was written yet. */
static void test_slow_start(void **state)
{
	double v[23] = { 300, 3000, 3000 };
	struct probe_cliff c;

	(void)state;
	for (size_t i = 3; i < 23; i++)
		v[i] = 100.0;
	c = find(v, 23);
	assert_true(c.found);
	assert_int_equal(c.index, 3);
	near(c.gb_before, 6.3, 1e-9);
}

static void test_degenerate(void **state)
{
	const double zeros[10] = { 0 };
	const double nan_in[] = { 2000, 2000, NAN, 1000 };
	const double neg[] = { 2000, -1, 1000 };
	const double inf[] = { 2000, INFINITY };
	struct probe_cliff c = { .found = true, .index = 5 };

	(void)state;
	assert_int_equal(probe_cliff_find(NULL, 0, &c), -ENODATA);
	assert_false(c.found);
	assert_int_equal(c.index, 0);
	c = find(zeros, 10);
	assert_false(c.found);
	assert_true(c.initial_mbps == 0.0 && c.after_mbps == 0.0 &&
		    c.gb_before == 0.0);
	assert_int_equal(probe_cliff_find(nan_in, 4, &c), -EINVAL);
	assert_false(c.found);
	assert_int_equal(probe_cliff_find(neg, 3, &c), -EINVAL);
	assert_int_equal(probe_cliff_find(inf, 2, &c), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shiji),
		cmocka_unit_test(test_shiji_noisy),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_dip_recovers),
		cmocka_unit_test(test_dip_then_cliff),
		cmocka_unit_test(test_gradual_decline),
		cmocka_unit_test(test_mild_decline),
		cmocka_unit_test(test_short_series),
		cmocka_unit_test(test_slow_start),
		cmocka_unit_test(test_degenerate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
