/* The per-device sysfs handle (probe/sysroot.h) on a recorded machine
 * (tests/fixtures/server): what it reads, the names and paths it refuses,
 * what a missing attribute gives. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sysroot.h"

static char root[4096];

static int setup(void **state)
{
	const char *src = getenv("TW_SRCDIR");

	(void)state;
	snprintf(root, sizeof(root), "%s/tests/fixtures/server", src ? src : ".");
	return 0;
}

/* h on sys/block/name, failing the test when init does not succeed. */
static void dev(struct probe_sysdev *h, const char *name)
{
	int ret = probe_sysdev_init(h, root, name);

	if (ret != 0)
		fail_msg("probe_sysdev_init(%s): %s", name, strerror(-ret));
}

static void test_reads(void **state)
{
	struct probe_sysdev h;
	char buf[PATH_MAX], *s;
	uint64_t v = 0;

	(void)state;
	dev(&h, "nvme0n1");
	assert_string_equal(h.rel, "sys/block/nvme0n1");
	s = probe_sysdev_str(&h, "device/model");
	assert_string_equal(s, "INTEL SSDPE21D960GA");
	free(s);
	assert_int_equal(probe_sysdev_u64(&h, "size", &v), 0);
	assert_true(v == 1875385008);
	assert_int_equal(probe_sysdev_u64(&h, "queue/rotational", &v), 0);
	assert_true(v == 0);
	/* the device's own directory and its "device" link, inside the sysroot */
	assert_int_equal(probe_sysdev_realpath(&h, NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1");
	assert_int_equal(probe_sysdev_realpath(&h, "device", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0");
	assert_int_equal(probe_sysdev_realpath(&h, "device", buf, 8), -ENAMETOOLONG);
}

static void test_bin_and_trim(void **state)
{
	struct probe_sysdev h;
	unsigned char buf[64];
	char *s;
	long n;

	(void)state;
	dev(&h, "sda");
	/* str trims the trailing blank sysfs keeps in the SCSI model */
	s = probe_sysdev_str(&h, "device/model");
	assert_string_equal(s, "Samsung SSD 860");
	free(s);
	n = probe_sysdev_bin(&h, "device/model", buf, sizeof(buf));
	assert_int_equal(n, 17);	/* "Samsung SSD 860 \n" as stored */
	assert_memory_equal(buf, "Samsung SSD 860 \n", 17);
	n = probe_sysdev_bin(&h, "device/vpd_pg80", buf, sizeof(buf));
	assert_int_equal(n, 24);
	assert_int_equal(buf[1], 0x80);
	assert_int_equal(buf[3], 20);	/* page length */
	assert_memory_equal(buf + 4, "S3Z9NB0KA12345X", 15);
	assert_int_equal(probe_sysdev_bin(&h, "device/vpd_pg80", buf, 2), 2);
}

static bool has(char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static void test_list(void **state)
{
	static const char *const want[] = { "dev", "device", "queue", "removable", "ro", "size" };
	struct probe_sysdev h;
	char **names;
	size_t n;

	(void)state;
	dev(&h, "nvme0n1");
	assert_int_equal(probe_sysdev_list(&h, NULL, &names, &n), 0);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < n; i++)	/* sorted */
		assert_string_equal(names[i], want[i]);
	probe_sys_names_free(names, n);
	assert_int_equal(probe_sysdev_list(&h, "", &names, &n), 0);	/* "" = NULL */
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	probe_sys_names_free(names, n);
	assert_int_equal(probe_sysdev_list(&h, "device", &names, &n), 0);
	assert_true(has(names, n, "hwmon0"));
	assert_true(has(names, n, "model"));
	assert_false(has(names, n, "size"));
	probe_sys_names_free(names, n);
}

/* A directory under the device's: a partition, a hwmon. */
static void test_sub(void **state)
{
	struct probe_sysdev h, part, hw;
	uint64_t v = 0;
	char *s;

	(void)state;
	dev(&h, "nvme1n1");
	assert_int_equal(probe_sysdev_sub(&part, &h, "nvme1n1p2"), 0);
	assert_string_equal(part.rel, "sys/block/nvme1n1/nvme1n1p2");
	assert_int_equal(probe_sysdev_u64(&part, "partition", &v), 0);
	assert_true(v == 2);
	assert_int_equal(probe_sysdev_u64(&h, "partition", &v), -ENOENT);	/* a disk */
	dev(&h, "nvme0n1");
	assert_int_equal(probe_sysdev_sub(&hw, &h, "device/hwmon0"), 0);
	s = probe_sysdev_str(&hw, "temp1_input");
	assert_non_null(s);
	assert_true(strtol(s, NULL, 10) > 0);
	free(s);
	/* child may be parent */
	assert_int_equal(probe_sysdev_sub(&h, &h, "device"), 0);
	assert_string_equal(h.rel, "sys/block/nvme0n1/device");
	s = probe_sysdev_str(&h, "firmware_rev");
	assert_non_null(s);
	free(s);
}

static void test_refused(void **state)
{
	static const char *const bad_names[] = { "", ".", "..", "a/b", "../sda", "/sda", "sda/" };
	static const char *const bad_subs[] = { "", "..", "/etc", "../sda", "a/../../b", "device/.." };
	struct probe_sysdev h, c;
	char longname[NAME_MAX * 3];

	(void)state;
	for (size_t i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++)
		assert_int_equal(probe_sysdev_init(&h, root, bad_names[i]), -EINVAL);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(probe_sysdev_init(&h, root, longname), -ENAMETOOLONG);
	dev(&h, "sda");
	for (size_t i = 0; i < sizeof(bad_subs) / sizeof(bad_subs[0]); i++)
		assert_int_equal(probe_sysdev_sub(&c, &h, bad_subs[i]), -EINVAL);
	assert_int_equal(probe_sysdev_sub(&c, &h, longname), -ENAMETOOLONG);
	/* names that only look like "..": ordinary entries */
	assert_int_equal(probe_sysdev_init(&h, root, "...x"), 0);
	assert_int_equal(probe_sysdev_sub(&c, &h, "a..b/..c"), 0);
}

static void test_missing(void **state)
{
	struct probe_sysdev h;
	unsigned char buf[16];
	char **names, *sentinel[1], path[PATH_MAX];
	uint64_t v = 42;
	size_t n = 7;

	(void)state;
	dev(&h, "nvme0n1");
	assert_null(probe_sysdev_str(&h, "device/nosuch"));
	assert_int_equal(probe_sysdev_u64(&h, "device/nosuch", &v), -ENOENT);
	assert_int_equal(probe_sysdev_u64(&h, "device/model", &v), -EINVAL);	/* text */
	assert_true(v == 42);	/* untouched on error */
	assert_int_equal(probe_sysdev_bin(&h, "device/nosuch", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(probe_sysdev_realpath(&h, "nosuch", path, sizeof(path)), -ENOENT);
	names = sentinel;
	assert_int_equal(probe_sysdev_list(&h, "nosuch", &names, &n), 0);
	assert_null(names);
	assert_int_equal(n, 0);
	/* a device the machine does not have: a valid handle, nothing behind it */
	dev(&h, "sdz");
	assert_null(probe_sysdev_str(&h, "size"));
	assert_int_equal(probe_sysdev_u64(&h, "size", &v), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_bin_and_trim),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_sub),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_missing),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
