/* Mount suggestions (advisor/mount.c) on plans built by hand: new devices
 * per tier, the small-device rule, an md array, the root disk, reused
 * filesystems (whole device, partition, mounted), data with nothing to
 * reuse, shared tiers and scratch-file profiles, the trim note, and that
 * a second call replaces the first. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"

#define MAXD 6
#define TB 1000000000000LL
#define GB 1000000000LL

static const char DATA_OPTS[] = "noatime,nofail,x-systemd.device-timeout=10s";

/* A plan on the stack: devices, disks and tier lists in fixed arrays. */
struct fx {
	struct profile_device p[MAXD];
	struct advisor_disk disk[MAXD];
	struct advisor_part parts[MAXD][2];
	struct advisor_plan_device devs[MAXD];
	size_t tier_devs[TW_TIER_COUNT][MAXD];
	size_t members[MAXD];
	struct advisor_plan plan;
};

static struct fx *fx_new(size_t n)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->plan.n_devs = n;
	f->plan.devs = f->devs;
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		f->plan.tiers[t].tier = (enum advisor_tier)t;
		f->plan.tiers[t].shared_dev = -1;
		f->plan.tiers[t].devices = f->tier_devs[t];
	}
	for (size_t i = 0; i < n; i++) {
		f->devs[i].p = &f->p[i];
		f->devs[i].tier = f->devs[i].best_tier = -1;
	}
	return f;
}

/* Device i: an NVMe SSD of cap bytes at path (NULL: a catalog entry). */
static void fx_dev(struct fx *f, size_t i, const char *id, const char *path, int64_t cap)
{
	f->p[i].id = (char *)id;
	f->p[i].path = (char *)path;
	f->p[i].model = (char *)"test";
	f->p[i].transport = PROFILE_TR_NVME;
	f->p[i].capacity_bytes = cap;
}

/* Device i gets inventory facts (a disk named after its path). */
static struct advisor_disk *fx_disk(struct fx *f, size_t i)
{
	f->disk[i].path = f->p[i].path;
	f->disk[i].name = f->p[i].path ? strrchr(f->p[i].path, '/') + 1 : NULL;
	f->devs[i].disk = &f->disk[i];
	return &f->disk[i];
}

static void fx_assign(struct fx *f, size_t d, enum advisor_tier t)
{
	struct advisor_plan_tier *tier = &f->plan.tiers[t];

	tier->devices[tier->n_devices++] = d;
	f->devs[d].tier = (int)t;
}

/* Free what advisor_mounts_make() allocated in every tier. */
static void fx_free(struct fx *f)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		struct advisor_plan_tier *tier = &f->plan.tiers[t];

		advisor_mounts_clear(tier);
		for (size_t i = 0; i < tier->n_notes; i++)
			free(tier->notes[i]);
		free(tier->notes);
	}
	free(f);
}

static struct advisor_plan_tier *make(struct fx *f, enum advisor_tier t)
{
	assert_int_equal(advisor_mounts_make(&f->plan, &f->plan.tiers[t]), 0);
	return &f->plan.tiers[t];
}

/* A mount of a filesystem on a data disk: the common options, no discard. */
static void assert_data_mount(const struct advisor_mount *m)
{
	assert_string_equal(m->options, DATA_OPTS);
	assert_null(strstr(m->options, "discard"));
	assert_false(m->directory);
	assert_non_null(m->why);
	assert_null(strchr(m->why, '\n'));
}

/* ---- new filesystems -------------------------------------------------- */

static void hot_new_device_is_ext4(void **state)
{
	struct fx *f = fx_new(1);
	struct advisor_plan_tier *t;

	(void)state;
	fx_dev(f, 0, "nvme0n1", "/dev/nvme0n1", 1 * TB);
	fx_assign(f, 0, ADVISOR_HOT);
	t = make(f, ADVISOR_HOT);
	assert_int_equal(t->n_mounts, 1);
	assert_string_equal(t->mounts[0].point, "/srv/vector-db");
	assert_string_equal(t->mounts[0].fs, "ext4");
	assert_string_equal(t->mounts[0].source, "/dev/nvme0n1");
	assert_null(t->mounts[0].uuid);
	assert_false(t->mounts[0].reuse);
	assert_false(t->mounts[0].raid);
	assert_int_equal(t->mounts[0].dev, 0);
	assert_non_null(strstr(t->mounts[0].why, "small files"));
	assert_data_mount(&t->mounts[0]);
	/* an SSD: the fstrim.timer note, once */
	assert_int_equal(t->n_notes, 1);
	assert_non_null(strstr(t->notes[0], "fstrim.timer"));
	fx_free(f);
}

static void warm_xfs_suffixes_and_small_device(void **state)
{
	struct fx *f = fx_new(3);
	struct advisor_plan_tier *t;

	(void)state;
	fx_dev(f, 0, "a", "/dev/nvme0n1", 2 * TB);
	fx_dev(f, 1, "b", "/dev/nvme1n1", 32 * GB);	/* < 64 GB: ext4 */
	fx_dev(f, 2, "c", "/dev/nvme2n1", 64 * GB);	/* = 64 GB: xfs */
	for (size_t i = 0; i < 3; i++)
		fx_assign(f, i, ADVISOR_WARM);
	t = make(f, ADVISOR_WARM);
	assert_int_equal(t->n_mounts, 3);
	assert_string_equal(t->mounts[0].point, "/srv/models");
	assert_string_equal(t->mounts[0].fs, "xfs");
	assert_non_null(strstr(t->mounts[0].why, "XFS"));
	assert_string_equal(t->mounts[1].point, "/srv/models-2");
	assert_string_equal(t->mounts[1].fs, "ext4");
	assert_non_null(strstr(t->mounts[1].why, "64 GB"));
	assert_string_equal(t->mounts[2].point, "/srv/models-3");
	assert_string_equal(t->mounts[2].fs, "xfs");
	for (size_t i = 0; i < 3; i++) {
		assert_data_mount(&t->mounts[i]);
		assert_int_equal(t->mounts[i].dev, (ptrdiff_t)i);
	}
	fx_free(f);
}

static void cold_custom_point_and_catalog_entry(void **state)
{
	struct fx *f = fx_new(1);
	struct advisor_plan_tier *t;
	char point[] = "/mnt/cold store";

	(void)state;
	fx_dev(f, 0, "ironwolf12t", NULL, 12 * TB);
	f->p[0].rotational = true;
	fx_assign(f, 0, ADVISOR_COLD);
	f->plan.mount_point[ADVISOR_COLD] = point;
	t = make(f, ADVISOR_COLD);
	assert_int_equal(t->n_mounts, 1);
	assert_string_equal(t->mounts[0].point, "/mnt/cold store");
	assert_string_equal(t->mounts[0].fs, "xfs");
	assert_string_equal(t->mounts[0].source, "ironwolf12t");	/* no path */
	assert_non_null(strstr(t->mounts[0].why, "catalog entry"));
	assert_data_mount(&t->mounts[0]);
	assert_int_equal(t->n_notes, 0);	/* an HDD: no trim note */
	fx_free(f);
}

static void array_then_other_devices(void **state)
{
	struct fx *f = fx_new(3);
	struct advisor_plan_tier *t = &f->plan.tiers[ADVISOR_WARM];
	char name[] = "md-models";

	(void)state;
	for (size_t i = 0; i < 3; i++)
		fx_dev(f, i, "x", i == 0 ? "/dev/nvme0n1" : i == 1 ? "/dev/nvme1n1" : "/dev/sda",
		       1 * TB);
	fx_assign(f, 2, ADVISOR_WARM);	/* not in the array, listed first */
	fx_assign(f, 0, ADVISOR_WARM);
	fx_assign(f, 1, ADVISOR_WARM);
	f->members[0] = 0;
	f->members[1] = 1;
	t->raid = (struct advisor_raid){ .level = ADVISOR_RAID0, .n = 2, .members = f->members,
					 .name = name };
	t = make(f, ADVISOR_WARM);
	assert_int_equal(t->n_mounts, 2);
	assert_true(t->mounts[0].raid);
	assert_int_equal(t->mounts[0].dev, -1);
	assert_string_equal(t->mounts[0].source, "/dev/md/md-models");
	assert_string_equal(t->mounts[0].point, "/srv/models");
	assert_string_equal(t->mounts[0].fs, "xfs");
	assert_false(t->mounts[0].reuse);
	assert_null(t->mounts[0].uuid);
	assert_non_null(strstr(t->mounts[0].why, "raid0"));
	assert_data_mount(&t->mounts[0]);
	assert_false(t->mounts[1].raid);
	assert_int_equal(t->mounts[1].dev, 2);
	assert_string_equal(t->mounts[1].source, "/dev/sda");
	assert_string_equal(t->mounts[1].point, "/srv/models-2");
	fx_free(f);
}

/* issue 28: a host-managed zoned device never gets ext4 or XFS, whatever
 * its tier or size; a host-aware one does.  (No array or volume ever holds
 * a host-managed one: raid.c, volume.c; cli.plan_drive.) */
static void host_managed_zoned_gets_btrfs(void **state)
{
	struct fx *f = fx_new(4);
	struct advisor_plan_tier *t;

	(void)state;
	fx_dev(f, 0, "nvme1n2", "/dev/nvme1n2", 4 * TB);
	fx_dev(f, 1, "small-zns", "/dev/nvme2n2", 32LL * 1000 * 1000 * 1000);
	fx_dev(f, 2, "sda", "/dev/sda", 8 * TB);
	f->p[0].zoned = (struct profile_zoned){ true, PROFILE_ZONED_HOST_MANAGED, 64L << 20, 61440 };
	f->p[1].zoned = (struct profile_zoned){ true, PROFILE_ZONED_HOST_MANAGED, 64L << 20, 476 };
	f->p[2].zoned = (struct profile_zoned){ true, PROFILE_ZONED_HOST_AWARE, 256L << 20, 29809 };
	fx_assign(f, 0, ADVISOR_HOT);
	fx_assign(f, 1, ADVISOR_WARM);
	fx_assign(f, 2, ADVISOR_COLD);
	t = make(f, ADVISOR_HOT);
	assert_int_equal(t->n_mounts, 1);
	assert_string_equal(t->mounts[0].fs, "btrfs");
	assert_non_null(strstr(t->mounts[0].why, "host-managed zoned device takes only "
			       "zone-sequential writes, so ext4 and XFS cannot be made on it"));
	assert_data_mount(&t->mounts[0]);
	t = make(f, ADVISOR_WARM);	/* under 64 GB: still not ext4 */
	assert_string_equal(t->mounts[0].fs, "btrfs");
	t = make(f, ADVISOR_COLD);	/* host-aware: the tier's filesystem */
	assert_string_equal(t->mounts[0].fs, "xfs");
	fx_free(f);
}

/* ---- the root disk and existing data ------------------------------------ */

static void root_disk_is_a_directory(void **state)
{
	struct fx *f = fx_new(2);
	struct advisor_disk *k;
	struct advisor_plan_tier *t;
	char *root_mounts[] = { (char *)"/" }, *boot_mounts[] = { (char *)"/boot/efi" };

	(void)state;
	fx_dev(f, 0, "nvme0n1", "/dev/nvme0n1", 1 * TB);
	fx_dev(f, 1, "nvme1n1", "/dev/nvme1n1", 1 * TB);
	k = fx_disk(f, 0);
	k->root = true;
	k->pttype = (char *)"gpt";
	k->n_parts = 2;
	k->parts = f->parts[0];
	k->parts[0] = (struct advisor_part){ .name = (char *)"nvme0n1p1", .fstype = (char *)"vfat",
		.size_bytes = 512 << 20, .n_mounts = 1, .mounts = boot_mounts };
	k->parts[1] = (struct advisor_part){ .name = (char *)"nvme0n1p2", .fstype = (char *)"btrfs",
		.uuid = (char *)"0f0e-11", .size_bytes = 999 * GB, .n_mounts = 1,
		.mounts = root_mounts };
	f->devs[0].has_data = f->devs[0].reusable = true;
	fx_assign(f, 0, ADVISOR_HOT);
	fx_assign(f, 1, ADVISOR_HOT);
	t = make(f, ADVISOR_HOT);
	assert_int_equal(t->n_mounts, 2);
	assert_true(t->mounts[0].directory);
	assert_false(t->mounts[0].reuse);
	assert_string_equal(t->mounts[0].point, "/srv/vector-db");
	assert_string_equal(t->mounts[0].source, "/srv/vector-db");	/* on "/" */
	assert_string_equal(t->mounts[0].fs, "btrfs");
	assert_string_equal(t->mounts[0].options, "");
	assert_null(t->mounts[0].uuid);
	assert_int_equal(t->mounts[0].dev, 0);
	assert_non_null(strstr(t->mounts[0].why, "never reformatted"));
	/* the next device is a data disk with the next point */
	assert_string_equal(t->mounts[1].point, "/srv/vector-db-2");
	assert_string_equal(t->mounts[1].fs, "ext4");
	assert_data_mount(&t->mounts[1]);
	fx_free(f);
}

static void reuse_whole_device_not_mounted(void **state)
{
	struct fx *f = fx_new(1);
	struct advisor_disk *k;
	struct advisor_plan_tier *t;

	(void)state;
	fx_dev(f, 0, "sdb", "/dev/sdb", 4 * TB);
	k = fx_disk(f, 0);
	k->fstype = (char *)"xfs";
	k->uuid = (char *)"7c1a9e2e-1b7e-4d0e-8a55-3c1f0c0de001";
	f->devs[0].has_data = f->devs[0].reusable = true;
	fx_assign(f, 0, ADVISOR_HOT);	/* hot would make ext4: the xfs is kept */
	t = make(f, ADVISOR_HOT);
	assert_int_equal(t->n_mounts, 1);
	assert_true(t->mounts[0].reuse);
	assert_string_equal(t->mounts[0].fs, "xfs");
	assert_string_equal(t->mounts[0].uuid, "7c1a9e2e-1b7e-4d0e-8a55-3c1f0c0de001");
	assert_string_equal(t->mounts[0].point, "/srv/vector-db");
	assert_string_equal(t->mounts[0].source, "/dev/sdb");
	assert_non_null(strstr(t->mounts[0].why, "existing xfs"));
	assert_data_mount(&t->mounts[0]);
	fx_free(f);
}

static void reuse_largest_partition_keeps_its_mount(void **state)
{
	struct fx *f = fx_new(2);
	struct advisor_disk *k;
	struct advisor_plan_tier *t;
	char *data_mounts[] = { (char *)"/data" };

	(void)state;
	fx_dev(f, 0, "sdb", "/dev/sdb", 4 * TB);
	fx_dev(f, 1, "sdc", "/dev/sdc", 4 * TB);
	k = fx_disk(f, 0);
	k->pttype = (char *)"gpt";
	k->n_parts = 2;
	k->parts = f->parts[0];
	k->parts[0] = (struct advisor_part){ .name = (char *)"sdb1", .fstype = (char *)"swap",
		.uuid = (char *)"aa", .size_bytes = 3 * TB };	/* larger, but no filesystem */
	k->parts[1] = (struct advisor_part){ .name = (char *)"sdb2", .fstype = (char *)"ext4",
		.uuid = (char *)"BEEF-01", .size_bytes = 1 * TB, .n_mounts = 1,
		.mounts = data_mounts };
	f->devs[0].has_data = f->devs[0].reusable = true;
	fx_assign(f, 0, ADVISOR_COLD);
	fx_assign(f, 1, ADVISOR_COLD);
	t = make(f, ADVISOR_COLD);
	assert_int_equal(t->n_mounts, 2);
	assert_true(t->mounts[0].reuse);
	assert_string_equal(t->mounts[0].fs, "ext4");
	assert_string_equal(t->mounts[0].uuid, "BEEF-01");
	assert_string_equal(t->mounts[0].point, "/data");
	assert_string_equal(t->mounts[0].source, "/dev/sdb2");
	assert_non_null(strstr(t->mounts[0].why, "already mounted at /data"));
	/* the kept mount point uses no slot: the new device gets the base */
	assert_false(t->mounts[1].reuse);
	assert_string_equal(t->mounts[1].point, "/srv/archive");
	fx_free(f);
}

static void data_without_filesystem_is_never_formatted(void **state)
{
	struct fx *f = fx_new(1);
	struct advisor_disk *k;
	struct advisor_plan_tier *t;

	(void)state;
	fx_dev(f, 0, "sdb", "/dev/sdb", 4 * TB);
	k = fx_disk(f, 0);
	k->fstype = (char *)"LVM2_member";
	f->devs[0].has_data = true;	/* plan.c would exclude it; be safe anyway */
	fx_assign(f, 0, ADVISOR_COLD);
	t = make(f, ADVISOR_COLD);
	assert_int_equal(t->n_mounts, 1);
	assert_true(t->mounts[0].reuse);
	assert_null(t->mounts[0].uuid);
	assert_string_equal(t->mounts[0].fs, "unknown");
	fx_free(f);
}

static void excluded_devices_are_skipped(void **state)
{
	struct fx *f = fx_new(2);
	struct advisor_plan_tier *t;

	(void)state;
	fx_dev(f, 0, "a", "/dev/sda", 4 * TB);
	fx_dev(f, 1, "b", "/dev/sdb", 4 * TB);
	fx_assign(f, 0, ADVISOR_COLD);
	fx_assign(f, 1, ADVISOR_COLD);
	f->devs[0].excluded = true;
	t = make(f, ADVISOR_COLD);
	assert_int_equal(t->n_mounts, 1);
	assert_int_equal(t->mounts[0].dev, 1);
	assert_string_equal(t->mounts[0].point, "/srv/archive");
	fx_free(f);
}

/* ---- directories ---------------------------------------------------------- */

static void shared_tier_on_another_tiers_mount(void **state)
{
	struct fx *f = fx_new(1);
	struct advisor_plan_tier *t;

	(void)state;
	fx_dev(f, 0, "nvme0n1", "/dev/nvme0n1", 2 * TB);
	fx_assign(f, 0, ADVISOR_WARM);
	f->plan.tiers[ADVISOR_COLD].shared = true;
	f->plan.tiers[ADVISOR_COLD].shared_dev = 0;
	t = make(f, ADVISOR_COLD);
	assert_int_equal(t->n_mounts, 1);
	assert_true(t->mounts[0].directory);
	assert_string_equal(t->mounts[0].point, "/srv/models/archive");
	assert_string_equal(t->mounts[0].source, "/srv/models/archive");
	assert_string_equal(t->mounts[0].fs, "xfs");	/* the warm tier's new xfs */
	assert_int_equal(t->mounts[0].dev, 0);
	assert_non_null(strstr(t->mounts[0].why, "/srv/models"));
	assert_int_equal(t->n_notes, 0);		/* no filesystem of its own */
	/* the warm tier's own mounts are untouched (none made yet) */
	assert_int_equal(f->plan.tiers[ADVISOR_WARM].n_mounts, 0);
	fx_free(f);
}

static void shared_tier_on_an_array(void **state)
{
	struct fx *f = fx_new(2);
	struct advisor_plan_tier *w = &f->plan.tiers[ADVISOR_WARM], *t;
	char name[] = "md-models", point[] = "/models";

	(void)state;
	fx_dev(f, 0, "a", "/dev/nvme0n1", 2 * TB);
	fx_dev(f, 1, "b", "/dev/nvme1n1", 2 * TB);
	fx_assign(f, 0, ADVISOR_WARM);
	fx_assign(f, 1, ADVISOR_WARM);
	f->members[0] = 0;
	f->members[1] = 1;
	w->raid = (struct advisor_raid){ .level = ADVISOR_RAID1, .n = 2, .members = f->members,
					 .name = name };
	f->plan.mount_point[ADVISOR_WARM] = point;
	f->plan.tiers[ADVISOR_HOT].shared = true;
	f->plan.tiers[ADVISOR_HOT].shared_dev = 1;
	t = make(f, ADVISOR_HOT);
	assert_string_equal(t->mounts[0].point, "/models/vector-db");
	assert_int_equal(t->mounts[0].dev, 1);
	fx_free(f);
}

static void shared_tier_on_the_root_disk(void **state)
{
	struct fx *f = fx_new(1);
	struct advisor_plan_tier *t;

	(void)state;
	fx_dev(f, 0, "vda", "/dev/vda", 256 * GB);
	fx_disk(f, 0)->root = true;
	fx_assign(f, 0, ADVISOR_WARM);
	f->plan.tiers[ADVISOR_HOT].shared = true;
	f->plan.tiers[ADVISOR_HOT].shared_dev = 0;
	t = make(f, ADVISOR_HOT);
	assert_true(t->mounts[0].directory);
	assert_string_equal(t->mounts[0].point, "/srv/vector-db");
	assert_string_equal(t->mounts[0].source, "/srv/vector-db");
	fx_free(f);
}

static void scratch_file_profile_is_a_directory(void **state)
{
	struct fx *f = fx_new(1);
	struct advisor_plan_tier *t;

	(void)state;
	fx_dev(f, 0, "scratch:/data", "/data", 1 * TB);
	f->p[0].transport = PROFILE_TR_FILE;
	fx_assign(f, 0, ADVISOR_HOT);
	t = make(f, ADVISOR_HOT);
	assert_true(t->mounts[0].directory);
	assert_string_equal(t->mounts[0].point, "/data/vector-db");
	assert_string_equal(t->mounts[0].fs, "existing");
	assert_int_equal(t->n_notes, 0);
	fx_free(f);
}

/* ---- calls ---------------------------------------------------------------- */

static void second_call_replaces_the_first(void **state)
{
	struct fx *f = fx_new(1);
	struct advisor_plan_tier *t;

	(void)state;
	fx_dev(f, 0, "nvme0n1", "/dev/nvme0n1", 1 * TB);
	fx_assign(f, 0, ADVISOR_WARM);
	make(f, ADVISOR_WARM);
	t = make(f, ADVISOR_WARM);
	assert_int_equal(t->n_mounts, 1);
	assert_string_equal(t->mounts[0].point, "/srv/models");
	assert_int_equal(t->n_notes, 1);	/* the trim note once */
	fx_free(f);
}

static void empty_tier_has_no_mounts(void **state)
{
	struct fx *f = fx_new(0);
	struct advisor_plan_tier *t = make(f, ADVISOR_COLD);

	(void)state;
	assert_int_equal(t->n_mounts, 0);
	assert_null(t->mounts);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hot_new_device_is_ext4),
		cmocka_unit_test(warm_xfs_suffixes_and_small_device),
		cmocka_unit_test(cold_custom_point_and_catalog_entry),
		cmocka_unit_test(array_then_other_devices),
		cmocka_unit_test(host_managed_zoned_gets_btrfs),
		cmocka_unit_test(root_disk_is_a_directory),
		cmocka_unit_test(reuse_whole_device_not_mounted),
		cmocka_unit_test(reuse_largest_partition_keeps_its_mount),
		cmocka_unit_test(data_without_filesystem_is_never_formatted),
		cmocka_unit_test(excluded_devices_are_skipped),
		cmocka_unit_test(shared_tier_on_another_tiers_mount),
		cmocka_unit_test(shared_tier_on_an_array),
		cmocka_unit_test(shared_tier_on_the_root_disk),
		cmocka_unit_test(scratch_file_profile_is_a_directory),
		cmocka_unit_test(second_call_replaces_the_first),
		cmocka_unit_test(empty_tier_has_no_mounts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
