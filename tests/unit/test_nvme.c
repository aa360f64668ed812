/* Decoding recorded NVMe Identify and SMART pages (tests/fixtures/nvme/). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "nvme.h"

static size_t load(const char *name, unsigned char *buf, size_t len)
{
	char path[4096];
	const char *src = getenv("TW_SRCDIR");
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/nvme/%s", src ? src : ".", name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

static void test_hot(void **state)
{
	unsigned char id[4096], smart[512];
	struct probe_health h;

	(void)state;
	probe_health_init(&h);
	assert_int_equal(probe_nvme_decode_id(id, load("hot-id-ctrl.bin", id, sizeof(id)), &h), 0);
	assert_int_equal(probe_nvme_decode_smart(smart, load("hot-smart.bin", smart, sizeof(smart)), &h), 0);
	assert_float_equal(h.warning_c, 85, 0);
	assert_float_equal(h.critical_c, 85, 0);
	assert_float_equal(h.mntmt_c, 75, 0);
	assert_float_equal(h.mxtmt_c, 82, 0);
	assert_int_equal(h.hctma, 1);
	assert_float_equal(h.temp_c, 83, 0);
	assert_int_equal(h.log.critical_warning, 2);	/* temperature */
	assert_int_equal(h.log.tmt1_transitions, 37);
	assert_int_equal(h.log.tmt2_transitions, 4);
	assert_int_equal(h.log.tmt1_seconds, 1260);
	assert_int_equal(h.log.tmt2_seconds, 45);
	assert_int_equal(h.log.warning_temp_minutes, 12);
	assert_int_equal(h.log.power_on_hours, 8123);
	assert_float_equal(h.log.sensors_c[0], 83, 0);
	assert_float_equal(h.log.sensors_c[1], 61, 0);
	assert_true(isnan(h.log.sensors_c[2]));	/* 0 K = not implemented */
	assert_string_equal(profile_critical_warning_name(1), "temperature");
}

static void test_worn(void **state)
{
	unsigned char id[4096], smart[512];
	struct probe_health h;

	(void)state;
	probe_health_init(&h);
	assert_int_equal(probe_nvme_decode_id(id, load("worn-id-ctrl.bin", id, sizeof(id)), &h), 0);
	assert_int_equal(probe_nvme_decode_smart(smart, load("worn-smart.bin", smart, sizeof(smart)), &h), 0);
	assert_true(isnan(h.mntmt_c));	/* not reported */
	assert_int_equal(h.hctma, 0);
	assert_int_equal(h.log.percentage_used, 104);	/* past rated endurance */
	assert_int_equal(h.log.available_spare, 8);
	assert_int_equal(h.log.available_spare_threshold, 10);
	assert_int_equal(h.log.critical_warning, 5);	/* spare | reliability */
	assert_int_equal(h.log.media_errors, 17);
	assert_int_equal(h.log.power_on_hours, 41234);
	assert_int_equal(h.log.tmt1_transitions, 0);
	assert_float_equal(h.temp_c, 40, 0);
}

static void test_short_pages(void **state)
{
	unsigned char buf[100] = { 0 };
	struct probe_health h;

	(void)state;
	probe_health_init(&h);
	assert_int_equal(probe_nvme_decode_id(buf, sizeof(buf), &h), -EINVAL);
	assert_int_equal(probe_nvme_decode_smart(buf, sizeof(buf), &h), -EINVAL);
	assert_true(isnan(h.temp_c));
	assert_int_equal(h.log.critical_warning, -1);
	assert_true(isnan(probe_nvme_kelvin(0)));
	assert_true(isnan(probe_nvme_kelvin(12)));	/* -261 °C: no reading (fuzzing) */
	assert_float_equal(probe_nvme_kelvin(323), 50, 0);
}

/* A failed admin command keeps its NVMe status and libnvme's name for it. */
static void test_status_kept(void **state)
{
	char buf[160];

	(void)state;
	probe_nvme_status_str(0x2, "Get Log Page", buf, sizeof(buf));
	assert_non_null(strstr(buf, "Get Log Page failed with NVMe status 0x2"));
	assert_non_null(strstr(buf, "Invalid Field"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hot),
		cmocka_unit_test(test_worn),
		cmocka_unit_test(test_short_pages),
		cmocka_unit_test(test_status_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
