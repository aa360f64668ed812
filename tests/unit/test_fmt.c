/* The formatter of numbers for people (tw_fmt.h): sizes, times, counts. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tw_fmt.h"

static const char *dur(double s)
{
	static char b[32];

	tw_fmt_duration(b, sizeof(b), s);
	return b;
}

static const char *cnt(double v)
{
	static char b[32];

	tw_fmt_count(b, sizeof(b), v);
	return b;
}

static const char *dec(double v)
{
	static char b[32];

	tw_fmt_bytes(b, sizeof(b), v, TW_BYTES_DECIMAL);
	return b;
}

/* The largest unit that keeps 2-3 significant digits; never 0.0277 h or 500 s. */
static void test_duration(void **state)
{
	(void)state;
	assert_string_equal(dur(0.0123), "12 ms");
	assert_string_equal(dur(0.0005), "0.50 ms");
	assert_string_equal(dur(0.12), "0.12 s");
	assert_string_equal(dur(5), "5.0 s");
	assert_string_equal(dur(36.4), "36 s");
	assert_string_equal(dur(59.4), "59 s");
	assert_string_equal(dur(59.6), "1.0 min");	/* not "60 s" */
	assert_string_equal(dur(0.0277 * 3600), "1.7 min");
	assert_string_equal(dur(500), "8.3 min");
	assert_string_equal(dur(118), "2.0 min");
	assert_string_equal(dur(33 * 60), "33 min");
	assert_string_equal(dur(3600), "1.0 h");
	assert_string_equal(dur(5.2 * 3600), "5.2 h");
	assert_string_equal(dur(12 * 3600), "12 h");
	assert_string_equal(dur(120 * 3600), "5.0 d");
	assert_string_equal(dur(4000 * 86400.0), "4,000 d");
	assert_string_equal(dur(0), "0 s");
	assert_string_equal(dur(NAN), "-");
	assert_string_equal(dur(-1), "-");
}

/* Thousands separators from 1,000 up, always. */
static void test_count(void **state)
{
	(void)state;
	assert_string_equal(cnt(1579), "1,579");
	assert_string_equal(cnt(1234567), "1,234,567");
	assert_string_equal(cnt(-1500), "-1,500");
	assert_string_equal(cnt(999.6), "1,000");
	assert_string_equal(cnt(42), "42");
	assert_string_equal(cnt(42.4), "42");
	assert_string_equal(cnt(4.54), "4.5");
	assert_string_equal(cnt(9.97), "10");
	assert_string_equal(cnt(0.126), "0.13");
	assert_string_equal(cnt(0), "0");
	assert_string_equal(cnt(NAN), "-");
}

/* Decimal units as disks are sold. */
static void test_bytes(void **state)
{
	char b[16];

	(void)state;
	assert_string_equal(dec(960e9), "960 GB");
	assert_string_equal(dec(17.6e12), "17.6 TB");
	assert_string_equal(dec(2.5e15), "2.5 PB");
	assert_string_equal(dec(200e6), "200 MB");
	assert_string_equal(dec(-1), "-");
	tw_fmt_bytes(b, sizeof(b), 894.3 * 1073741824.0, TW_BYTES_BINARY);
	assert_string_equal(b, "894G");
	tw_fmt_bytes(b, sizeof(b), 1.5 * 1099511627776.0, TW_BYTES_BINARY);
	assert_string_equal(b, "1.5T");
	/* a short buffer is cut, never overrun, and the separators stay whole */
	tw_fmt_count(b, 6, 1234567);
	assert_string_equal(b, "1,234");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
