/* test_steady.c — steady-state rule over the last five windows. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>

#include "steady.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static struct probe_steady check(const double *v, size_t n)
{
	struct probe_steady s;

	assert_int_equal(probe_steady_check(v, n, &s), 0);
	return s;
}

static void test_steady_series(void **state)
{
	const double v[] = { 50e3, 80e3, 101e3, 99e3, 100e3, 101e3,
			     99.5e3, 100.5e3, 98.5e3, 100e3 };
	struct probe_steady s = check(v, N(v));

	(void)state;
	assert_true(s.steady);
	assert_true(fabs(s.mean - 99.9e3) < 1e-6);
	assert_true(s.spread_pct < 1.5);
	assert_true(fabs(s.slope_pct) < 2.0);
}

/* Hand-computed: mean 100, spread 2 %, slope 1/window -> 4 % of the mean. */
static void test_exact_figures(void **state)
{
	const double v[] = { 98, 99, 100, 101, 102 };
	const double down[] = { 102, 101, 100, 99, 98 };
	struct probe_steady s = check(v, N(v));

	(void)state;
	assert_true(s.steady);
	assert_true(fabs(s.mean - 100.0) < 1e-12);
	assert_true(fabs(s.spread_pct - 2.0) < 1e-12);
	assert_true(fabs(s.slope_pct - 4.0) < 1e-12);
	s = check(down, N(down));
	assert_true(s.steady);
	assert_true(fabs(s.slope_pct + 4.0) < 1e-12);
}

/* Spread 3 % passes, but the line climbs 6 % of the mean: slope alone fails. */
static void test_slope_alone(void **state)
{
	const double v[] = { 97, 98.5, 100, 101.5, 103 };
	struct probe_steady s = check(v, N(v));

	(void)state;
	assert_true(fabs(s.spread_pct - 3.0) < 1e-12);
	assert_true(fabs(s.slope_pct - 6.0) < 1e-12);
	assert_false(s.steady);
}

/* +2 % per window stays within +-5 % of its mean yet is not steady. */
static void test_trending(void **state)
{
	double up[12], down[12];
	struct probe_steady s;

	(void)state;
	up[0] = down[0] = 200e3;
	for (size_t i = 1; i < N(up); i++) {
		up[i] = up[i - 1] * 1.02;
		down[i] = down[i - 1] * 0.98;
	}
	s = check(up, N(up));
	assert_false(s.steady);
	assert_true(s.spread_pct < PROBE_STEADY_SPREAD_PCT);
	assert_true(s.slope_pct > 7.5 && s.slope_pct < 8.5);
	s = check(down, N(down));
	assert_false(s.steady);
	assert_true(s.slope_pct < -7.5 && s.slope_pct > -8.5);
}

static void test_noisy(void **state)
{
	const double v[] = { 100, 110, 90, 105, 95 }; /* flat, +-10 % noise */
	const double alt[] = { 90, 110, 90, 110, 90, 110, 90 };
	struct probe_steady s = check(v, N(v));

	(void)state;
	assert_false(s.steady);
	assert_true(fabs(s.spread_pct - 10.0) < 1e-12);
	assert_true(fabs(s.slope_pct + 6.0) < 1e-12);
	s = check(alt, N(alt));
	assert_false(s.steady);
	assert_true(s.spread_pct > 5.0);
}

/* The verdict and the percentages do not depend on the unit. */
static void test_scale_free(void **state)
{
	const double v[] = { 98, 99, 100, 101, 102 };
	double big[5];
	struct probe_steady a = check(v, N(v)), b;

	(void)state;
	for (size_t i = 0; i < N(v); i++)
		big[i] = v[i] * 1e6;
	b = check(big, N(big));
	assert_true(a.steady == b.steady);
	assert_true(fabs(a.spread_pct - b.spread_pct) < 1e-9);
	assert_true(fabs(a.slope_pct - b.slope_pct) < 1e-9);
}

static void test_short(void **state)
{
	const double v[] = { 100, 100, 100, 100 };
	const double five[] = { 100, 100, 100, 100, 100 };
	struct probe_steady s = { .steady = true, .mean = 1 };

	(void)state;
	assert_int_equal(probe_steady_check(v, N(v), &s), -EAGAIN);
	assert_false(s.steady);
	assert_true(s.mean == 0.0);
	assert_int_equal(probe_steady_check(NULL, 0, &s), -EAGAIN);
	assert_false(s.steady);
	assert_true(check(five, N(five)).steady); /* five are enough */
}

static void test_zero_and_invalid(void **state)
{
	const double zero[] = { 0, 0, 0, 0, 0 };
	const double nan_in[] = { 100, 100, NAN, 100, 100 };
	const double nan_old[] = { NAN, 100, 100, 100, 100, 100 };
	const double neg[] = { 100, 100, 100, -1, 100 };
	const double inf[] = { 100, 100, 100, 100, INFINITY };
	struct probe_steady s;

	(void)state;
	s = check(zero, N(zero));
	assert_false(s.steady);
	assert_true(s.mean == 0.0 && s.spread_pct == 0.0 && s.slope_pct == 0.0);
	assert_int_equal(probe_steady_check(nan_in, N(nan_in), &s), -EINVAL);
	assert_false(s.steady);
	assert_int_equal(probe_steady_check(neg, N(neg), &s), -EINVAL);
	assert_int_equal(probe_steady_check(inf, N(inf), &s), -EINVAL);
	s = check(nan_old, N(nan_old)); /* outside the last five: ignored */
	assert_true(s.steady);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_series),
		cmocka_unit_test(test_exact_figures),
		cmocka_unit_test(test_slope_alone),
		cmocka_unit_test(test_trending),
		cmocka_unit_test(test_noisy),
		cmocka_unit_test(test_scale_free),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_zero_and_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
