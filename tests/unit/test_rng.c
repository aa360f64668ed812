/* test_rng.c — xoshiro256**, unbiased ranges, aligned offsets, fill. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

#define MIB (1u << 20)

/* Pearson's chi-square of counts[0..k) against a uniform expectation. */
static double chi2(const uint64_t *counts, size_t k, uint64_t total)
{
	double e = (double)total / (double)k, x = 0.0;

	for (size_t i = 0; i < k; i++)
		x += ((double)counts[i] - e) * ((double)counts[i] - e) / e;
	return x;
}

/* First outputs of splitmix64-seeded xoshiro256**, from a Python model. */
static void test_known_answer(void **state)
{
	static const uint64_t seed0[] = {
		UINT64_C(0x99ec5f36cb75f2b4), UINT64_C(0xbf6e1f784956452a),
		UINT64_C(0x1a5f849d4933e6e0), UINT64_C(0x6aa594f1262d2d2c),
	};
	static const uint64_t seed42[] = {
		UINT64_C(0x15780b2e0c2ec716), UINT64_C(0x6104d9866d113a7e),
		UINT64_C(0xae17533239e499a1), UINT64_C(0xecb8ad4703b360a1),
	};
	struct probe_rng r;

	(void)state;
	probe_rng_seed(&r, 0);
	for (int i = 0; i < 4; i++)
		assert_true(probe_rng_next(&r) == seed0[i]);
	probe_rng_seed(&r, 42);
	for (int i = 0; i < 4; i++)
		assert_true(probe_rng_next(&r) == seed42[i]);
}

static void test_seeds_differ(void **state)
{
	struct probe_rng a, b;
	int same = 0;

	(void)state;
	probe_rng_seed(&a, 1);
	probe_rng_seed(&b, 2);
	for (int i = 0; i < 1000; i++)
		same += probe_rng_next(&a) == probe_rng_next(&b);
	assert_int_equal(same, 0);
	probe_rng_seed(&a, 7);
	probe_rng_seed(&b, 7);
	for (int i = 0; i < 1000; i++)
		assert_true(probe_rng_next(&a) == probe_rng_next(&b));
}

static void test_below_range(void **state)
{
	static const uint64_t ns[] = {
		1, 2, 3, 7, 1000000007, UINT64_C(3) << 62,
		(UINT64_C(1) << 63) + 1, UINT64_MAX,
	};
	struct probe_rng r;

	(void)state;
	probe_rng_seed(&r, 3);
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (int j = 0; j < 10000; j++)
			assert_true(probe_rng_below(&r, ns[i]) < ns[i]);
	assert_true(probe_rng_below(&r, 0) == 0);
}

/* 16 and 10 bins: chi-square well under a loose bound (df 15 and 9). */
static void test_below_uniform(void **state)
{
	uint64_t c16[16] = { 0 }, c10[10] = { 0 };
	struct probe_rng r;

	(void)state;
	probe_rng_seed(&r, 4);
	for (int i = 0; i < 160000; i++)
		c16[probe_rng_below(&r, 16)]++;
	for (int i = 0; i < 100000; i++)
		c10[probe_rng_below(&r, 10)]++;
	assert_true(chi2(c16, 16, 160000) < 50.0);
	assert_true(chi2(c10, 10, 100000) < 40.0);
}

/*
 * n = 3 * 2^62 exposes both classic biases: a modulo reduction puts half
 * the draws in the lowest third, and a multiply-shift without rejection
 * puts half of them on results divisible by 3.  Unbiased: 1/3 everywhere.
 */
static void test_below_unbiased(void **state)
{
	const uint64_t n = UINT64_C(3) << 62, draws = 300000;
	uint64_t third[3] = { 0 }, mod3[3] = { 0 };
	struct probe_rng r;

	(void)state;
	probe_rng_seed(&r, 5);
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t v = probe_rng_below(&r, n);

		third[v >> 62]++;
		mod3[v % 3]++;
	}
	for (int i = 0; i < 3; i++) {
		assert_true(third[i] > draws * 32 / 100 && third[i] < draws * 34 / 100);
		assert_true(mod3[i] > draws * 32 / 100 && mod3[i] < draws * 34 / 100);
	}
}

static void check_offsets(uint64_t span, uint64_t bs, uint64_t align)
{
	struct probe_rng r;
	uint64_t off = 0, top = 0;
	uint64_t last = (span - bs) / align * align;

	probe_rng_seed(&r, span ^ bs);
	for (int i = 0; i < 100000; i++) {
		assert_int_equal(probe_rng_offset(&r, span, bs, align, &off), 0);
		assert_true(off % align == 0);
		assert_true(off + bs <= span);
		top = off > top ? off : top;
	}
	assert_true(top > last - last / 100); /* the far end is reached */
}

static void test_offset_bounds(void **state)
{
	(void)state;
	check_offsets(1000000007, 4096, 512);
	check_offsets(1000000007, 4096, 4096);
	check_offsets(1000000007, 1 << 20, 4096);
	check_offsets((UINT64_C(1) << 40) + 511, 131072, 512);
	check_offsets(10000, 4096, 1000); /* align need not divide bs */
}

/* 3 whole slots and a ragged tail: each slot about 1/3, none past it. */
static void test_offset_small(void **state)
{
	uint64_t seen[4] = { 0 }, off = 0;
	struct probe_rng r;

	(void)state;
	probe_rng_seed(&r, 6);
	for (int i = 0; i < 30000; i++) {
		assert_int_equal(probe_rng_offset(&r, 3 * 4096 + 100, 4096, 4096, &off), 0);
		assert_true(off % 4096 == 0 && off / 4096 < 4);
		seen[off / 4096]++;
	}
	for (int i = 0; i < 3; i++)
		assert_true(seen[i] > 9000 && seen[i] < 11000);
	assert_true(seen[3] == 0);
	assert_int_equal(probe_rng_offset(&r, 4096, 4096, 512, &off), 0);
	assert_true(off == 0);
	assert_int_equal(probe_rng_offset(&r, UINT64_MAX, 0, 1, &off), 0);
}

static void test_offset_errors(void **state)
{
	struct probe_rng r;
	uint64_t off = 99;

	(void)state;
	probe_rng_seed(&r, 7);
	assert_int_equal(probe_rng_offset(&r, 4095, 4096, 512, &off), -EINVAL);
	assert_int_equal(probe_rng_offset(&r, 1 << 20, 4096, 0, &off), -EINVAL);
	assert_true(off == 99);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* 1 MiB: bytes uniform (chi-square, df 255), no repeated 8-byte word. */
static void test_fill_incompressible(void **state)
{
	unsigned char *buf = malloc(MIB);
	uint64_t counts[256] = { 0 }, *words = malloc(MIB);
	struct probe_rng r;

	(void)state;
	assert_non_null(buf);
	assert_non_null(words);
	probe_rng_seed(&r, 8);
	probe_rng_fill(&r, buf, MIB);
	for (size_t i = 0; i < MIB; i++)
		counts[buf[i]]++;
	assert_true(chi2(counts, 256, MIB) < 400.0);
	memcpy(words, buf, MIB);
	qsort(words, MIB / 8, 8, cmp_u64);
	for (size_t i = 1; i < MIB / 8; i++)
		assert_true(words[i] != words[i - 1]);
	free(words);
	free(buf);
}

static void test_fill_seeds_differ(void **state)
{
	unsigned char *a = malloc(MIB), *b = malloc(MIB);
	struct probe_rng r;
	size_t same = 0;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	probe_rng_seed(&r, 9);
	probe_rng_fill(&r, a, MIB);
	probe_rng_seed(&r, 10);
	probe_rng_fill(&r, b, MIB);
	for (size_t i = 0; i < MIB; i++)
		same += a[i] == b[i];
	assert_true(same > MIB / 256 - 400 && same < MIB / 256 + 400);
	free(b);
	free(a);
}

/* Unaligned, odd length: writes exactly len bytes, the stream's first ones. */
static void test_fill_tail(void **state)
{
	unsigned char buf[64], ref[16];
	struct probe_rng r;

	(void)state;
	memset(buf, 0xAA, sizeof(buf));
	probe_rng_seed(&r, 11);
	probe_rng_fill(&r, buf + 3, 13);
	probe_rng_seed(&r, 11);
	probe_rng_fill(&r, ref, 16);
	assert_memory_equal(buf + 3, ref, 13);
	for (size_t i = 0; i < sizeof(buf); i++)
		if (i < 3 || i >= 16)
			assert_int_equal(buf[i], 0xAA);
	probe_rng_fill(&r, buf, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_answer),
		cmocka_unit_test(test_seeds_differ),
		cmocka_unit_test(test_below_range),
		cmocka_unit_test(test_below_uniform),
		cmocka_unit_test(test_below_unbiased),
		cmocka_unit_test(test_offset_bounds),
		cmocka_unit_test(test_offset_small),
		cmocka_unit_test(test_offset_errors),
		cmocka_unit_test(test_fill_incompressible),
		cmocka_unit_test(test_fill_seeds_differ),
		cmocka_unit_test(test_fill_tail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
