/* The JSON position index: every value's line and column by path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tw_jsonpos.h"

static const char doc[] =
	"{\n"
	"  \"a\": 1,\n"
	"  \"list\": [\n"
	"    {\"x\": \"s\\\"q\"},\n"
	"    {\"y\": [true, null]}\n"
	"  ],\n"
	"  \"b\": {\"c\": -2.5e3}\n"
	"}\n";

static void expect_at(const struct tw_jsonpos *ix, const char *path, int line, int col)
{
	int l = -1, c = -1;

	assert_int_equal(tw_jsonpos_find(ix, path, &l, &c), 0);
	assert_int_equal(l, line);
	assert_int_equal(c, col);
}

static void test_paths(void **state)
{
	struct tw_jsonpos *ix = tw_jsonpos_build(doc, strlen(doc));

	(void)state;
	assert_non_null(ix);
	expect_at(ix, "", 1, 1);
	expect_at(ix, "a", 2, 8);
	expect_at(ix, "list", 3, 11);
	expect_at(ix, "list[0]", 4, 5);
	expect_at(ix, "list[0].x", 4, 11);
	expect_at(ix, "list[1].y[1]", 5, 18);
	expect_at(ix, "b.c", 7, 14);
	tw_jsonpos_free(ix);
}

static void test_missing_falls_back_to_parent(void **state)
{
	struct tw_jsonpos *ix = tw_jsonpos_build(doc, strlen(doc));

	(void)state;
	expect_at(ix, "list[1].nothere", 5, 5);
	expect_at(ix, "b.c.d[4]", 7, 14);
	expect_at(ix, "zzz", 1, 1);
	tw_jsonpos_free(ix);
}

static void test_malformed_is_partial(void **state)
{
	const char bad[] = "{\"a\": [1, 2,\n \"b\"";
	struct tw_jsonpos *ix = tw_jsonpos_build(bad, strlen(bad));

	(void)state;
	assert_non_null(ix);
	expect_at(ix, "a[2]", 2, 2);
	tw_jsonpos_free(ix);
	tw_jsonpos_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_missing_falls_back_to_parent),
		cmocka_unit_test(test_malformed_is_partial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
