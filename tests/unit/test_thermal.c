/* The thermal series on a made-up sysroot with an hwmon sensor: idle, peak,
 * rise, and a throughput drop counted as throttling only when hot. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "thermal.h"

static char root[64];

static void put(const char *rel, const char *val)
{
	char path[256], cmd[320];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", val);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/tw-thermal.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("sys/block/hot0/device/hwmon3/name", "nvme");
	put("sys/block/hot0/device/hwmon3/temp1_input", "83000");
	put("sys/block/hot0/device/hwmon3/temp1_max", "85000");
	put("sys/block/hot0/device/hwmon3/temp1_crit", "90000");
	put("sys/block/cool0/device/hwmon/hwmon4/name", "drivetemp");
	put("sys/block/cool0/device/hwmon/hwmon4/temp1_input", "40000");
	put("sys/block/cool0/device/hwmon/hwmon4/temp1_max", "85000");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

/* 4 s at 2000 MB/s, then 6 s at 1000 MB/s (-50 %). */
static void run_series(const char *name, struct profile_device *d, struct probe_series *s)
{
	struct probe_dev dev = { .name = (char *)name, .path = "/dev/x",
				 .transport = PROFILE_TR_OTHER };
	struct probe_target t = { .kind = PROBE_TARGET_RAW, .dev = &dev, .id = "x" };

	assert_int_equal(probe_series_init(s, root, &t, d), 0);
	assert_int_equal(probe_series_begin(s, 16), 0);
	for (int i = 1; i <= 10; i++)
		probe_series_window(s, i, i <= 4 ? 2000 : 1000);
	probe_series_window(s, 10.5, 1000);	/* < 1 s after the last: no point */
	probe_series_end(s, d);
}

static void test_hot_drop_is_throttling(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d = profile_add_device(p, "hot0");
	struct probe_series s;
	size_t n;
	struct profile_point *pts;

	(void)state;
	run_series("hot0", d, &s);
	assert_float_equal(d->thermal.idle_c, 83, 1e-9);
	assert_float_equal(d->thermal.warning_c, 85, 1e-9);
	assert_float_equal(d->thermal.critical_c, 90, 1e-9);
	assert_float_equal(d->thermal.load_c, 83, 1e-9);
	assert_float_equal(d->thermal.rise_c, 0, 1e-9);
	assert_string_equal(d->thermal.source, "hwmon (nvme)");
	assert_int_equal(d->thermal.throttle_events, 1);	/* one episode */
	assert_int_equal(d->thermal.throttle[0].kind, PROFILE_THR_DROP);
	assert_float_equal(d->thermal.throttle[0].t, 5, 1e-9);
	assert_float_equal(d->thermal.throttle[0].temp_c, 83, 1e-9);
	assert_false(d->health.present);	/* hwmon has no health log */
	pts = probe_series_take(&s, &n);
	assert_int_equal(n, 10);
	assert_float_equal(pts[9].temp_c, 83, 1e-9);
	free(pts);
	probe_series_free(&s);
	profile_free(p);
}

static void test_cool_drop_is_not(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d = profile_add_device(p, "cool0");
	struct probe_series s;

	(void)state;
	run_series("cool0", d, &s);
	assert_float_equal(d->thermal.idle_c, 40, 1e-9);
	assert_string_equal(d->thermal.source, "hwmon (drivetemp)");
	assert_int_equal(d->thermal.throttle_events, 0);	/* a cache cliff, not heat */
	assert_int_equal(d->n_notes, 0);
	probe_series_free(&s);
	profile_free(p);
}

static void test_no_sensor(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d = profile_add_device(p, "none0");
	struct probe_series s;

	(void)state;
	run_series("none0", d, &s);
	assert_true(isnan(d->thermal.idle_c));
	assert_true(isnan(d->thermal.load_c));
	assert_int_equal(d->thermal.throttle_events, -1);	/* unknown, never 0 */
	assert_int_equal(d->n_notes, 1);
	assert_non_null(strstr(d->notes[0], "thermal: other devices have no temperature sensor"));
	probe_series_free(&s);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hot_drop_is_throttling),
		cmocka_unit_test(test_cool_drop_is_not),
		cmocka_unit_test(test_no_sensor),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
