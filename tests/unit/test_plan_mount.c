/* Mount suggestions (advisor/mount.c) on plans built by hand: new devices
 * per tier, the small-device rule, an md array, the root disk, reused
 * filesystems (whole device, partition, mounted), data with nothing to
 * reuse, shared tiers and scratch-file profiles, the trim note, and that
 * a second call replaces the first.  One table of cases: each a plan and
 * what its tiers' mounts must be, run by run_case(). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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
/* ---- what a case expects ---------------------------------------------------- */

/* A flag: not checked, false or true. */
enum want { ANY, NO, YES };

/* What one mount must be.  A NULL string is not checked; why is a
 * substring; .dev is checked when check_dev is set (DEV()); data: the
 * options and the one-line why of a mount on a data disk. */
struct want_mount {
	const char *point, *fs, *source, *options, *uuid, *why;
	bool no_uuid;			/* uuid is NULL */
	enum want reuse, raid, directory;
	bool check_dev;
	ptrdiff_t dev;
	bool data;
};

#define DEV(i) .check_dev = true, .dev = (i)
#define UNCHECKED (-1)

/* One look at a tier: after advisor_mounts_make() on it, or as it is
 * (look).  n_mounts and n_notes: UNCHECKED or the count; note: a substring
 * of the first note. */
struct want_tier {
	enum advisor_tier tier;
	bool look;
	int n_mounts, n_notes;
	bool null_mounts;		/* mounts is NULL */
	const char *note;
	size_t n_m;			/* mounts described in m, from the first */
	struct want_mount m[3];
};

/* A case: a plan of n_devs devices that setup fills, then its looks. */
struct mount_case {
	const char *name;
	size_t n_devs;
	void (*setup)(struct fx *f);
	size_t n_steps;
	struct want_tier steps[3];
};

static void check_flag(enum want w, bool got)
{
	if (w == YES)
		assert_true(got);
	else if (w == NO)
		assert_false(got);
}

static void check_mount(const struct advisor_mount *m, const struct want_mount *w)
{
	if (w->point)
		assert_string_equal(m->point, w->point);
	if (w->fs)
		assert_string_equal(m->fs, w->fs);
	if (w->source)
		assert_string_equal(m->source, w->source);
	if (w->options)
		assert_string_equal(m->options, w->options);
	if (w->uuid)
		assert_string_equal(m->uuid, w->uuid);
	if (w->no_uuid)
		assert_null(m->uuid);
	check_flag(w->reuse, m->reuse);
	check_flag(w->raid, m->raid);
	check_flag(w->directory, m->directory);
	if (w->check_dev)
		assert_int_equal(m->dev, w->dev);
	if (w->why)
		assert_non_null(strstr(m->why, w->why));
	if (w->data)
		assert_data_mount(m);
}

static void check_tier(const struct advisor_plan_tier *t, const struct want_tier *w)
{
	if (w->n_mounts != UNCHECKED)
		assert_int_equal(t->n_mounts, w->n_mounts);
	if (w->null_mounts)
		assert_null(t->mounts);
	for (size_t i = 0; i < w->n_m; i++)
		check_mount(&t->mounts[i], &w->m[i]);
	if (w->n_notes != UNCHECKED)
		assert_int_equal(t->n_notes, w->n_notes);
	if (w->note)
		assert_non_null(strstr(t->notes[0], w->note));
}

static void run_case(void **state)
{
	const struct mount_case *c = *state;
	struct fx *f = fx_new(c->n_devs);

	if (c->setup)
		c->setup(f);
	for (size_t s = 0; s < c->n_steps; s++) {
		const struct want_tier *w = &c->steps[s];

		check_tier(w->look ? &f->plan.tiers[w->tier] : make(f, w->tier), w);
	}
	fx_free(f);
}

/* ---- the plans ---------------------------------------------------------------- */

static void hot_one_ssd(struct fx *f)
{
	fx_dev(f, 0, "nvme0n1", "/dev/nvme0n1", 1 * TB);
	fx_assign(f, 0, ADVISOR_HOT);
}

static void warm_three_sizes(struct fx *f)
{
	fx_dev(f, 0, "a", "/dev/nvme0n1", 2 * TB);
	fx_dev(f, 1, "b", "/dev/nvme1n1", 32 * GB);	/* < 64 GB: ext4 */
	fx_dev(f, 2, "c", "/dev/nvme2n1", 64 * GB);	/* = 64 GB: xfs */
	for (size_t i = 0; i < 3; i++)
		fx_assign(f, i, ADVISOR_WARM);
}

static void cold_catalog_hdd_custom_point(struct fx *f)
{
	static char point[] = "/mnt/cold store";

	fx_dev(f, 0, "ironwolf12t", NULL, 12 * TB);
	f->p[0].rotational = true;
	fx_assign(f, 0, ADVISOR_COLD);
	f->plan.mount_point[ADVISOR_COLD] = point;
}

static void warm_array_and_one_more(struct fx *f)
{
	static char name[] = "md-models";

	for (size_t i = 0; i < 3; i++)
		fx_dev(f, i, "x", i == 0 ? "/dev/nvme0n1" : i == 1 ? "/dev/nvme1n1" : "/dev/sda",
		       1 * TB);
	fx_assign(f, 2, ADVISOR_WARM);	/* not in the array, listed first */
	fx_assign(f, 0, ADVISOR_WARM);
	fx_assign(f, 1, ADVISOR_WARM);
	f->members[0] = 0;
	f->members[1] = 1;
	f->plan.tiers[ADVISOR_WARM].raid = (struct advisor_raid){ .level = ADVISOR_RAID0, .n = 2,
		.members = f->members, .name = name };
}

/* A host-managed zoned device never gets ext4 or XFS, whatever its tier or
 * size; a host-aware one does.  (No array or volume ever holds a
 * host-managed one: raid.c, volume.c; cli.plan_drive.) */
static void zoned_in_each_tier(struct fx *f)
{
	fx_dev(f, 0, "nvme1n2", "/dev/nvme1n2", 4 * TB);
	fx_dev(f, 1, "small-zns", "/dev/nvme2n2", 32LL * 1000 * 1000 * 1000);
	fx_dev(f, 2, "sda", "/dev/sda", 8 * TB);
	f->p[0].zoned = (struct profile_zoned){ true, PROFILE_ZONED_HOST_MANAGED, 64L << 20, 61440 };
	f->p[1].zoned = (struct profile_zoned){ true, PROFILE_ZONED_HOST_MANAGED, 64L << 20, 476 };
	f->p[2].zoned = (struct profile_zoned){ true, PROFILE_ZONED_HOST_AWARE, 256L << 20, 29809 };
	fx_assign(f, 0, ADVISOR_HOT);
	fx_assign(f, 1, ADVISOR_WARM);
	fx_assign(f, 2, ADVISOR_COLD);
}

static void hot_root_disk_and_one_more(struct fx *f)
{
	static char *root_mounts[] = { (char *)"/" }, *boot_mounts[] = { (char *)"/boot/efi" };
	struct advisor_disk *k;

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
}

static void hot_whole_device_xfs(struct fx *f)
{
	struct advisor_disk *k;

	fx_dev(f, 0, "sdb", "/dev/sdb", 4 * TB);
	k = fx_disk(f, 0);
	k->fstype = (char *)"xfs";
	k->uuid = (char *)"7c1a9e2e-1b7e-4d0e-8a55-3c1f0c0de001";
	f->devs[0].has_data = f->devs[0].reusable = true;
	fx_assign(f, 0, ADVISOR_HOT);	/* hot would make ext4: the xfs is kept */
}

static void cold_partitions_and_one_more(struct fx *f)
{
	static char *data_mounts[] = { (char *)"/data" };
	struct advisor_disk *k;

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
}

static void cold_lvm_member(struct fx *f)
{
	fx_dev(f, 0, "sdb", "/dev/sdb", 4 * TB);
	fx_disk(f, 0)->fstype = (char *)"LVM2_member";
	f->devs[0].has_data = true;	/* plan.c would exclude it; be safe anyway */
	fx_assign(f, 0, ADVISOR_COLD);
}

static void cold_first_excluded(struct fx *f)
{
	fx_dev(f, 0, "a", "/dev/sda", 4 * TB);
	fx_dev(f, 1, "b", "/dev/sdb", 4 * TB);
	fx_assign(f, 0, ADVISOR_COLD);
	fx_assign(f, 1, ADVISOR_COLD);
	f->devs[0].excluded = true;
}

static void cold_shares_warm(struct fx *f)
{
	fx_dev(f, 0, "nvme0n1", "/dev/nvme0n1", 2 * TB);
	fx_assign(f, 0, ADVISOR_WARM);
	f->plan.tiers[ADVISOR_COLD].shared = true;
	f->plan.tiers[ADVISOR_COLD].shared_dev = 0;
}

static void hot_shares_warm_array(struct fx *f)
{
	static char name[] = "md-models", point[] = "/models";

	fx_dev(f, 0, "a", "/dev/nvme0n1", 2 * TB);
	fx_dev(f, 1, "b", "/dev/nvme1n1", 2 * TB);
	fx_assign(f, 0, ADVISOR_WARM);
	fx_assign(f, 1, ADVISOR_WARM);
	f->members[0] = 0;
	f->members[1] = 1;
	f->plan.tiers[ADVISOR_WARM].raid = (struct advisor_raid){ .level = ADVISOR_RAID1, .n = 2,
		.members = f->members, .name = name };
	f->plan.mount_point[ADVISOR_WARM] = point;
	f->plan.tiers[ADVISOR_HOT].shared = true;
	f->plan.tiers[ADVISOR_HOT].shared_dev = 1;
}

static void hot_shares_warm_root_disk(struct fx *f)
{
	fx_dev(f, 0, "vda", "/dev/vda", 256 * GB);
	fx_disk(f, 0)->root = true;
	fx_assign(f, 0, ADVISOR_WARM);
	f->plan.tiers[ADVISOR_HOT].shared = true;
	f->plan.tiers[ADVISOR_HOT].shared_dev = 0;
}

static void hot_scratch_file(struct fx *f)
{
	fx_dev(f, 0, "scratch:/data", "/data", 1 * TB);
	f->p[0].transport = PROFILE_TR_FILE;
	fx_assign(f, 0, ADVISOR_HOT);
}

static void warm_one_ssd(struct fx *f)
{
	fx_dev(f, 0, "nvme0n1", "/dev/nvme0n1", 1 * TB);
	fx_assign(f, 0, ADVISOR_WARM);
}

/* ---- the cases ---------------------------------------------------------------- */

static const struct mount_case cases[] = {
	/* ---- new filesystems ---- */
	{ "hot_new_device_is_ext4", 1, hot_one_ssd, 1, { {
		.tier = ADVISOR_HOT, .n_mounts = 1, .n_m = 1, .m = { {
			.point = "/srv/vector-db", .fs = "ext4", .source = "/dev/nvme0n1",
			.no_uuid = true, .reuse = NO, .raid = NO, DEV(0), .why = "small files",
			.data = true } },
		/* an SSD: the fstrim.timer note, once */
		.n_notes = 1, .note = "fstrim.timer" } } },
	{ "warm_xfs_suffixes_and_small_device", 3, warm_three_sizes, 1, { {
		.tier = ADVISOR_WARM, .n_mounts = 3, .n_notes = UNCHECKED, .n_m = 3, .m = {
			{ .point = "/srv/models", .fs = "xfs", .why = "XFS", DEV(0), .data = true },
			{ .point = "/srv/models-2", .fs = "ext4", .why = "64 GB", DEV(1), .data = true },
			{ .point = "/srv/models-3", .fs = "xfs", DEV(2), .data = true } } } } },
	{ "cold_custom_point_and_catalog_entry", 1, cold_catalog_hdd_custom_point, 1, { {
		.tier = ADVISOR_COLD, .n_mounts = 1, .n_m = 1, .m = { {
			.point = "/mnt/cold store", .fs = "xfs",
			.source = "ironwolf12t",	/* no path */
			.why = "catalog entry", .data = true } },
		.n_notes = 0 } } },	/* an HDD: no trim note */
	{ "array_then_other_devices", 3, warm_array_and_one_more, 1, { {
		.tier = ADVISOR_WARM, .n_mounts = 2, .n_notes = UNCHECKED, .n_m = 2, .m = {
			{ .raid = YES, DEV(-1), .source = "/dev/md/md-models", .point = "/srv/models",
			  .fs = "xfs", .reuse = NO, .no_uuid = true, .why = "raid0", .data = true },
			{ .raid = NO, DEV(2), .source = "/dev/sda", .point = "/srv/models-2" } } } } },
	{ "host_managed_zoned_gets_btrfs", 4, zoned_in_each_tier, 3, {
		{ .tier = ADVISOR_HOT, .n_mounts = 1, .n_notes = UNCHECKED, .n_m = 1, .m = { {
			.fs = "btrfs", .why = "host-managed zoned device takes only "
			"zone-sequential writes, so ext4 and XFS cannot be made on it",
			.data = true } } },
		/* under 64 GB: still not ext4 */
		{ .tier = ADVISOR_WARM, .n_mounts = UNCHECKED, .n_notes = UNCHECKED, .n_m = 1,
		  .m = { { .fs = "btrfs" } } },
		/* host-aware: the tier's filesystem */
		{ .tier = ADVISOR_COLD, .n_mounts = UNCHECKED, .n_notes = UNCHECKED, .n_m = 1,
		  .m = { { .fs = "xfs" } } } } },
	/* ---- the root disk and existing data ---- */
	{ "root_disk_is_a_directory", 2, hot_root_disk_and_one_more, 1, { {
		.tier = ADVISOR_HOT, .n_mounts = 2, .n_notes = UNCHECKED, .n_m = 2, .m = {
			{ .directory = YES, .reuse = NO, .point = "/srv/vector-db",
			  .source = "/srv/vector-db",	/* on "/" */
			  .fs = "btrfs", .options = "", .no_uuid = true, DEV(0),
			  .why = "never reformatted" },
			/* the next device is a data disk with the next point */
			{ .point = "/srv/vector-db-2", .fs = "ext4", .data = true } } } } },
	{ "reuse_whole_device_not_mounted", 1, hot_whole_device_xfs, 1, { {
		.tier = ADVISOR_HOT, .n_mounts = 1, .n_notes = UNCHECKED, .n_m = 1, .m = { {
			.reuse = YES, .fs = "xfs", .uuid = "7c1a9e2e-1b7e-4d0e-8a55-3c1f0c0de001",
			.point = "/srv/vector-db", .source = "/dev/sdb", .why = "existing xfs",
			.data = true } } } } },
	{ "reuse_largest_partition_keeps_its_mount", 2, cold_partitions_and_one_more, 1, { {
		.tier = ADVISOR_COLD, .n_mounts = 2, .n_notes = UNCHECKED, .n_m = 2, .m = {
			{ .reuse = YES, .fs = "ext4", .uuid = "BEEF-01", .point = "/data",
			  .source = "/dev/sdb2", .why = "already mounted at /data" },
			/* the kept mount point uses no slot: the new device gets the base */
			{ .reuse = NO, .point = "/srv/archive" } } } } },
	{ "data_without_filesystem_is_never_formatted", 1, cold_lvm_member, 1, { {
		.tier = ADVISOR_COLD, .n_mounts = 1, .n_notes = UNCHECKED, .n_m = 1, .m = { {
			.reuse = YES, .no_uuid = true, .fs = "unknown" } } } } },
	{ "excluded_devices_are_skipped", 2, cold_first_excluded, 1, { {
		.tier = ADVISOR_COLD, .n_mounts = 1, .n_notes = UNCHECKED, .n_m = 1, .m = { {
			DEV(1), .point = "/srv/archive" } } } } },
	/* ---- directories ---- */
	{ "shared_tier_on_another_tiers_mount", 1, cold_shares_warm, 2, {
		{ .tier = ADVISOR_COLD, .n_mounts = 1, .n_m = 1, .m = { {
			.directory = YES, .point = "/srv/models/archive",
			.source = "/srv/models/archive",
			.fs = "xfs",	/* the warm tier's new xfs */
			DEV(0), .why = "/srv/models" } },
		  .n_notes = 0 },	/* no filesystem of its own */
		/* the warm tier's own mounts are untouched (none made yet) */
		{ .tier = ADVISOR_WARM, .look = true, .n_mounts = 0, .n_notes = UNCHECKED } } },
	{ "shared_tier_on_an_array", 2, hot_shares_warm_array, 1, { {
		.tier = ADVISOR_HOT, .n_mounts = UNCHECKED, .n_notes = UNCHECKED, .n_m = 1, .m = { {
			.point = "/models/vector-db", DEV(1) } } } } },
	{ "shared_tier_on_the_root_disk", 1, hot_shares_warm_root_disk, 1, { {
		.tier = ADVISOR_HOT, .n_mounts = UNCHECKED, .n_notes = UNCHECKED, .n_m = 1, .m = { {
			.directory = YES, .point = "/srv/vector-db", .source = "/srv/vector-db" } } } } },
	{ "scratch_file_profile_is_a_directory", 1, hot_scratch_file, 1, { {
		.tier = ADVISOR_HOT, .n_mounts = UNCHECKED, .n_m = 1, .m = { {
			.directory = YES, .point = "/data/vector-db", .fs = "existing" } },
		.n_notes = 0 } } },
	/* ---- calls ---- */
	{ "second_call_replaces_the_first", 1, warm_one_ssd, 2, {
		{ .tier = ADVISOR_WARM, .n_mounts = UNCHECKED, .n_notes = UNCHECKED },
		{ .tier = ADVISOR_WARM, .n_mounts = 1, .n_m = 1, .m = { { .point = "/srv/models" } },
		  .n_notes = 1 } } },	/* the trim note once */
	{ "empty_tier_has_no_mounts", 0, NULL, 1, { {
		.tier = ADVISOR_COLD, .n_mounts = 0, .null_mounts = true, .n_notes = UNCHECKED } } },
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

int main(void)
{
	struct CMUnitTest tests[N_CASES];

	for (size_t i = 0; i < N_CASES; i++)
		tests[i] = (struct CMUnitTest){ .name = cases[i].name, .test_func = run_case,
						.initial_state = (void *)&cases[i] };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
