/* Estimates in user terms and tier names, against hand-computed values. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "advisor.h"
#include "model.h"
#include "tw_tier.h"

static void test_estimates(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d = profile_add_device(p, "pm9a1");
	struct model_estimate e;

	(void)state;
	e = model_load_seconds(d, 18);
	assert_true(isnan(e.value));	/* not measured: unknown, never 0 */
	d->io[PROFILE_SEQ_READ].present = true;
	d->io[PROFILE_SEQ_READ].mbps = 6193;
	e = model_load_seconds(d, 18);
	assert_float_equal(e.value, 18000.0 / 6193, 1e-12);	/* 2.906 s */
	assert_string_equal(e.metric, "seq_read.mbps");
	d->io[PROFILE_RAND_READ_QD1].iops = 22120;
	e = model_search_seconds(d, 10000);
	assert_float_equal(e.value, 0.45208, 1e-5);
	d->io[PROFILE_SEQ_WRITE].mbps = 241;
	e = model_backup_hours(d, 10);
	assert_string_equal(e.metric, "seq_write.mbps");
	assert_float_equal(e.value, 1e7 / 241 / 3600, 1e-9);	/* 11.5 h */
	d->sustained.present = true;
	d->sustained.mbps = 236;
	e = model_backup_hours(d, 10);
	assert_string_equal(e.metric, "sustained_write.mbps");
	assert_float_equal(e.value, 1e7 / 236 / 3600, 1e-9);
	assert_true(isnan(model_load_seconds(d, -1).value));
	profile_free(p);
}

static void test_tiers(void **state)
{
	(void)state;
	assert_string_equal(advisor_tier_name(ADVISOR_HOT), "hot");
	assert_string_equal(advisor_tier_name(ADVISOR_COLD), "cold");
	assert_null(advisor_tier_name(TW_TIER_COUNT));
	assert_int_equal(tw_tier_find("warm"), ADVISOR_WARM);
	assert_int_equal(tw_tier_find("cold"), ADVISOR_COLD);
	assert_int_equal(tw_tier_find("lukewarm"), -1);
	assert_int_equal(tw_tier_find("boot"), -1);
	assert_int_equal(tw_tier_find(NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_estimates),
		cmocka_unit_test(test_tiers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
