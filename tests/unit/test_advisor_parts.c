/* The advisor's parts called directly, on plans built by hand: the md
 * levels by rule and tier (raid_level.c), a tier's array rule from what
 * its policies want (plan_score.c), the array of like devices of unlike
 * sizes and the mirror of unlike devices (raid.c), the volume over unlike
 * devices (volume.c), the stock for --buy (buy.c), media classes and
 * usable capacity (plan_util.c), the optimum taken into a plan
 * (plan_opt.c). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plan_priv.h"

#define MAXD 6
#define TB 1000000000000LL

/* A plan on the stack: devices and tier lists in fixed arrays. */
struct fx {
	struct profile_device p[MAXD];
	struct advisor_plan_device devs[MAXD];
	size_t tier_devs[TW_TIER_COUNT][MAXD];
	char *points[TW_TIER_COUNT];
	struct advisor_plan plan;
};

static struct fx *fx_new(size_t n)
{
	static const char *const pts[TW_TIER_COUNT] = {
		"/srv/vector-db", "/srv/models", "/srv/archive" };
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->plan.n_devs = n;
	f->plan.devs = f->devs;
	f->plan.fill = 0.8;
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		f->plan.tiers[t].tier = (enum advisor_tier)t;
		f->plan.tiers[t].shared_dev = -1;
		f->plan.tiers[t].devices = f->tier_devs[t];
		f->plan.tiers[t].need_bytes = -1;
		f->points[t] = strdup(pts[t]);
		f->plan.mount_point[t] = f->points[t];
	}
	for (size_t i = 0; i < n; i++) {
		f->devs[i].p = &f->p[i];
		f->devs[i].tier = f->devs[i].best_tier = -1;
	}
	return f;
}

static void fx_free(struct fx *f)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		advisor_raid_clear(&f->plan.tiers[t].raid);
		advisor_volume_clear(&f->plan.tiers[t].volume);
		tw_strv_free(f->plan.tiers[t].notes, f->plan.tiers[t].n_notes);
		free(f->points[t]);
	}
	tw_strv_free(f->plan.notes, f->plan.n_notes);
	for (size_t i = 0; i < f->plan.n_warnings; i++)
		free(f->plan.warnings[i].message);
	free(f->plan.warnings);
	free(f);
}

/* Device i: model of cap bytes reading seq MB/s sequentially. */
static void fx_dev(struct fx *f, size_t i, const char *id, const char *model, int64_t cap,
		   double seq)
{
	f->p[i].id = (char *)id;
	f->p[i].model = (char *)model;
	f->p[i].transport = PROFILE_TR_NVME;
	f->p[i].capacity_bytes = cap;
	f->p[i].price_per_tb = NAN;
	for (int k = 0; k < PROFILE_IO_COUNT; k++)
		f->p[i].io[k].mbps = f->p[i].io[k].iops = NAN;
	f->p[i].io[PROFILE_SEQ_READ].mbps = seq;
	f->p[i].health.smart_ok = -1;	/* health unknown, not failing */
}

static void fx_assign(struct fx *f, size_t d, enum advisor_tier t)
{
	struct advisor_plan_tier *tier = &f->plan.tiers[t];

	tier->devices[tier->n_devices++] = d;
	f->devs[d].tier = (int)t;
}

/* ---- md levels by rule, tier and members (raid_level.c) ---- */

static void test_array_levels(void **state)
{
	static const struct {
		enum advisor_array_rule rule;
		enum advisor_tier tier;
		size_t n;
		enum advisor_raid_level level;
		size_t data;
	} cases[] = {
		{ ADVISOR_ARRAY_BY_TIER, ADVISOR_WARM, 2, ADVISOR_RAID0, 2 },
		{ ADVISOR_ARRAY_BY_TIER, ADVISOR_WARM, 5, ADVISOR_RAID0, 5 },
		{ ADVISOR_ARRAY_BY_TIER, ADVISOR_HOT, 2, ADVISOR_RAID1, 1 },
		{ ADVISOR_ARRAY_BY_TIER, ADVISOR_HOT, 3, ADVISOR_RAID1, 1 },
		{ ADVISOR_ARRAY_BY_TIER, ADVISOR_HOT, 4, ADVISOR_RAID10, 2 },
		{ ADVISOR_ARRAY_BY_TIER, ADVISOR_HOT, 6, ADVISOR_RAID10, 3 },
		{ ADVISOR_ARRAY_BY_TIER, ADVISOR_COLD, 2, ADVISOR_RAID1, 1 },
		{ ADVISOR_ARRAY_BY_TIER, ADVISOR_COLD, 3, ADVISOR_RAID5, 2 },
		{ ADVISOR_ARRAY_BY_TIER, ADVISOR_COLD, 4, ADVISOR_RAID6, 2 },
		{ ADVISOR_ARRAY_BY_TIER, ADVISOR_COLD, 6, ADVISOR_RAID6, 4 },
		{ ADVISOR_ARRAY_STRIPE, ADVISOR_HOT, 3, ADVISOR_RAID0, 3 },
		{ ADVISOR_ARRAY_MIRROR, ADVISOR_WARM, 2, ADVISOR_RAID1, 1 },
		{ ADVISOR_ARRAY_MIRROR, ADVISOR_COLD, 4, ADVISOR_RAID10, 2 },
		{ ADVISOR_ARRAY_PARITY, ADVISOR_WARM, 3, ADVISOR_RAID5, 2 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum advisor_raid_level l = advisor_array_level(cases[i].rule, cases[i].tier,
								cases[i].n);

		assert_int_equal(l, cases[i].level);
		assert_int_equal(advisor_raid_level_data_disks(l, cases[i].n), cases[i].data);
		assert_int_equal(advisor_array_data_disks(cases[i].rule, cases[i].tier, cases[i].n),
				 cases[i].data);
	}
	/* no array of one or none: the devices themselves */
	assert_int_equal(advisor_array_data_disks(ADVISOR_ARRAY_PARITY, ADVISOR_COLD, 1), 1);
	assert_int_equal(advisor_array_data_disks(ADVISOR_ARRAY_MIRROR, ADVISOR_HOT, 0), 0);
	assert_int_equal(advisor_raid_data_disks(ADVISOR_COLD, 5), 3);
	assert_int_equal(advisor_array_rule_of(ADVISOR_ARRAY_BY_TIER, ADVISOR_WARM),
			 ADVISOR_ARRAY_STRIPE);
	assert_int_equal(advisor_array_rule_of(ADVISOR_ARRAY_MIRROR, ADVISOR_COLD),
			 ADVISOR_ARRAY_MIRROR);
	assert_string_equal(advisor_raid_name(ADVISOR_RAID10), "raid10");
	assert_null(advisor_raid_name(ADVISOR_RAID_NONE));
}

/* ---- a tier's array rule from its policies' redundancy (plan_score.c) ---- */

static void test_rule_from_redundancy(void **state)
{
	static const struct {
		enum advisor_tier tier;
		enum model_redundancy red;
		enum advisor_array_rule rule;
	} cases[] = {
		{ ADVISOR_HOT, MODEL_REDUNDANCY_NONE, ADVISOR_ARRAY_STRIPE },
		{ ADVISOR_HOT, MODEL_REDUNDANCY_REQUIRED, ADVISOR_ARRAY_BY_TIER },
		{ ADVISOR_WARM, MODEL_REDUNDANCY_NONE, ADVISOR_ARRAY_STRIPE },
		{ ADVISOR_WARM, MODEL_REDUNDANCY_PREFERRED, ADVISOR_ARRAY_MIRROR },
		{ ADVISOR_COLD, MODEL_REDUNDANCY_PREFERRED, ADVISOR_ARRAY_BY_TIER },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct model_policy p = { .name = (char *)"p", .need_bytes = TB,
					  .redundancy = cases[i].red };
		struct model_policy *v[] = { &p };
		struct model_policy_set set = { .n = 1, .v = v };
		struct fx *f = fx_new(0);
		struct advisor_ctx c = { .plan = &f->plan, .set = &set };
		struct advisor_plan_tier *t = &f->plan.tiers[cases[i].tier];

		p.tier = advisor_tier_name(cases[i].tier);
		assert_int_equal(advisor_resolve_needs(&c, NULL, 0), 0);
		assert_int_equal(advisor_collect_policies(&c, t), 0);
		assert_int_equal(t->n_policies, 1);
		assert_int_equal(t->need_bytes, TB);
		assert_int_equal(t->redundancy, cases[i].red);
		assert_int_equal(t->rule, cases[i].rule);
		assert_false(t->writes);
		assert_int_equal(t->need_of[0], TB);	/* its part, the policy's default */
		assert_false(t->need_given[0]);
		free(t->policies);
		free(t->need_of);
		free(t->need_given);
		free(c.need);
		free(c.given);
		fx_free(f);
	}
}

/* ---- md arrays (raid.c) ---- */

/* Like devices within 1 % in size form the array; n × the smallest holds
 * the data; an 8 TB disk of the same model is no member. */
static void test_raid_unlike_sizes(void **state)
{
	struct fx *f = fx_new(4);
	struct advisor_plan_tier *t = &f->plan.tiers[ADVISOR_COLD];

	(void)state;
	fx_dev(f, 0, "a", "hdd", 4000 * 1000000000LL, 250);
	fx_dev(f, 1, "b", "hdd", 4030 * 1000000000LL, 255);
	fx_dev(f, 2, "c", "hdd", 4020 * 1000000000LL, 245);
	fx_dev(f, 3, "d", "hdd", 8 * TB, 250);
	for (size_t i = 0; i < 4; i++)
		fx_assign(f, i, ADVISOR_COLD);
	t->rule = ADVISOR_ARRAY_BY_TIER;
	assert_int_equal(advisor_raid_make(&f->plan, t), 0);
	assert_int_equal(t->raid.level, ADVISOR_RAID5);
	assert_int_equal(t->raid.n, 3);
	assert_int_equal(t->raid.capacity_bytes, 2 * 4000 * 1000000000LL);
	assert_string_equal(t->raid.name, "md-archive");
	assert_true(fabs(t->raid.seq_read_mbps - 2 * 245.0) < 1e-9);
	assert_true(advisor_in_raid(t, 0) && advisor_in_raid(t, 2));
	assert_false(advisor_in_raid(t, 3));
	fx_free(f);
}

/*
 * Like figures are judged with what they resolve: two HDDs read at 20.96
 * and 17.5 MB/s (16.5 % apart) are alike when the figures were counted
 * from 20 and 17 I/Os (one I/O is 5–6 % of each), not when counted from
 * 200 and 170, nor as catalog figures (no count); a ± 40 % band makes
 * them alike too.  QD1 IOPS 165 against 120 (27 %) over 495 and 360 I/Os
 * stay unlike.
 */
static void test_raid_resolution(void **state)
{
	static const struct {
		int64_t ios0, ios1;
		double spread0, qd1_1;
		bool alike;
	} cases[] = {
		{ 20, 17, 0, 160, true },
		{ 200, 170, 0, 160, false },
		{ -1, -1, NAN, 160, false },
		{ 200, 170, 40.0, 160, true },
		{ 20, 17, 0, 120, false },
	};
	struct fx *f = fx_new(2);

	(void)state;
	fx_dev(f, 0, "hdd0", "QEMU HARDDISK", 180 * 1000000000LL, 20.96);
	fx_dev(f, 1, "hdd1", "QEMU HARDDISK", 180 * 1000000000LL, 17.5);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct profile_io *s0 = &f->p[0].io[PROFILE_SEQ_READ];
		struct profile_io *s1 = &f->p[1].io[PROFILE_SEQ_READ];
		struct profile_io *q0 = &f->p[0].io[PROFILE_RAND_READ_QD1];
		struct profile_io *q1 = &f->p[1].io[PROFILE_RAND_READ_QD1];

		s0->ios = cases[k].ios0;
		s1->ios = cases[k].ios1;
		s0->spread_pct = cases[k].spread0;
		s1->spread_pct = NAN;
		q0->iops = 165;
		q0->ios = 495;
		q1->iops = cases[k].qd1_1;
		q1->ios = (int64_t)(cases[k].qd1_1 * 3);
		q0->spread_pct = q1->spread_pct = NAN;
		assert_int_equal(advisor_alike(&f->devs[0], &f->devs[1]), cases[k].alike);
		assert_int_equal(advisor_alike(&f->devs[1], &f->devs[0]), cases[k].alike);
	}
	fx_free(f);
}

/* Preferred redundancy that would not hold the need: striped instead. */
static void test_raid_preferred_too_small(void **state)
{
	struct fx *f = fx_new(2);
	struct advisor_plan_tier *t = &f->plan.tiers[ADVISOR_WARM];

	(void)state;
	fx_dev(f, 0, "a", "ssd", 2 * TB, 3000);
	fx_dev(f, 1, "b", "ssd", 2 * TB, 3000);
	fx_assign(f, 0, ADVISOR_WARM);
	fx_assign(f, 1, ADVISOR_WARM);
	t->rule = ADVISOR_ARRAY_MIRROR;
	t->redundancy = MODEL_REDUNDANCY_PREFERRED;
	t->need_bytes = 3 * TB;		/* a mirror gives 1.6 TB usable */
	assert_int_equal(advisor_raid_make(&f->plan, t), 0);
	assert_int_equal(t->raid.level, ADVISOR_RAID0);
	assert_int_equal(t->raid.capacity_bytes, 4 * TB);
	assert_int_equal(t->n_notes, 1);
	assert_non_null(strstr(t->notes[0], "md raid1 of 2 would leave too little"));
	fx_free(f);
}

/*
 * No like devices, a tier that wants redundancy: its unlike devices of one
 * media class mirror at the smallest's size, said with what md leaves
 * unused (12 TB + 10 TB: 2.0 TB); with `preferred`, only when the mirror
 * holds the need (8.0 TB usable against 9 TB: none made, said); with
 * `required`, always; with none wanted, never.
 */
static void test_raid_unlike_mirror(void **state)
{
	static const struct {
		enum model_redundancy red;
		int64_t need;
		enum advisor_raid_level level;
		const char *note;
	} cases[] = {
		{ MODEL_REDUNDANCY_PREFERRED, 7 * TB, ADVISOR_RAID1,
		  "md raid1 over 2 unlike devices of one media class: md uses each at the "
		  "smallest's size (10.0 TB), so 2.0 TB of their 22.0 TB go unused, and it "
		  "writes at the slowest one's pace" },
		{ MODEL_REDUNDANCY_PREFERRED, 9 * TB, ADVISOR_RAID_NONE,
		  "redundancy preferred, not required: md raid1 of its 2 unlike devices (each "
		  "used at the smallest's size, 10.0 TB) would leave 8.0 TB usable for the "
		  "9.0 TB need, so none is made" },
		{ MODEL_REDUNDANCY_REQUIRED, 9 * TB, ADVISOR_RAID1, "md raid1 over 2 unlike" },
		{ MODEL_REDUNDANCY_NONE, 7 * TB, ADVISOR_RAID_NONE, NULL },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct fx *f = fx_new(2);
		struct advisor_plan_tier *t = &f->plan.tiers[ADVISOR_COLD];

		fx_dev(f, 0, "iw", "Seagate IronWolf 12TB", 12 * TB, 257);
		fx_dev(f, 1, "rp", "WD Red Pro 10TB", 10 * TB, 250);
		f->p[0].rotational = f->p[1].rotational = true;
		fx_assign(f, 0, ADVISOR_COLD);
		fx_assign(f, 1, ADVISOR_COLD);
		t->redundancy = cases[k].red;
		t->rule = cases[k].red == MODEL_REDUNDANCY_NONE ? ADVISOR_ARRAY_STRIPE
								  : ADVISOR_ARRAY_BY_TIER;
		t->need_bytes = cases[k].need;
		assert_int_equal(advisor_raid_make(&f->plan, t), 0);
		assert_int_equal(t->raid.level, cases[k].level);
		if (cases[k].level == ADVISOR_RAID_NONE) {
			assert_int_equal(t->raid.n, 0);
			assert_null(t->raid.members);
			assert_false(t->raid.unlike);
		} else {
			assert_true(t->raid.unlike);
			assert_int_equal(t->raid.n, 2);
			assert_int_equal(t->raid.capacity_bytes, 10 * TB);
			assert_true(fabs(t->raid.seq_read_mbps - 2 * 250.0) < 1e-9);
			/* the basis names the slowest member, not the first */
			assert_non_null(strstr(t->raid.basis, "(WD Red Pro 10TB 250 MB/s)"));
		}
		assert_int_equal(t->n_notes, cases[k].note ? 1 : 0);
		if (cases[k].note)
			assert_non_null(strstr(t->notes[0], cases[k].note));
		fx_free(f);
	}
}

/* Mirror mates: one media class in the tier, not one drive, both new, at
 * least half each other's speed. */
static void test_mirror_mates(void **state)
{
	struct fx *f = fx_new(4);

	(void)state;
	fx_dev(f, 0, "hdd", "hdd", 10 * TB, 250);
	fx_dev(f, 1, "nand", "ssd", 1 * TB, 3000);
	fx_dev(f, 2, "nand2", "other ssd", 2 * TB, 2000);
	fx_dev(f, 3, "xp", "optane", 1 * TB, 2500);
	f->p[0].rotational = true;
	f->p[3].media = PROFILE_MEDIA_3DXPOINT;
	assert_false(advisor_mirror_mates(&f->devs[0], &f->devs[1], ADVISOR_COLD));
	assert_true(advisor_mirror_mates(&f->devs[1], &f->devs[2], ADVISOR_HOT));
	/* 3D XPoint beside NAND: one class in warm, two in hot */
	assert_true(advisor_mirror_mates(&f->devs[1], &f->devs[3], ADVISOR_WARM));
	assert_false(advisor_mirror_mates(&f->devs[1], &f->devs[3], ADVISOR_HOT));
	/* two namespaces of one drive */
	f->p[1].drive_id = f->p[2].drive_id = (char *)"nqn.2014-08.org.example:one";
	assert_false(advisor_mirror_mates(&f->devs[1], &f->devs[2], ADVISOR_WARM));
	f->p[2].drive_id = NULL;
	f->devs[2].has_data = true;
	assert_false(advisor_mirror_mates(&f->devs[1], &f->devs[2], ADVISOR_WARM));
	f->devs[2].has_data = false;
	/* at least half the other's speed: 1,500 of 3,000 MB/s is; 1,400 is not,
	 * nor 40 % of its QD1 IOPS */
	f->p[2].io[PROFILE_SEQ_READ].mbps = 1500;
	assert_true(advisor_mirror_mates(&f->devs[1], &f->devs[2], ADVISOR_WARM));
	f->p[2].io[PROFILE_SEQ_READ].mbps = 1400;
	assert_false(advisor_mirror_mates(&f->devs[1], &f->devs[2], ADVISOR_WARM));
	f->p[2].io[PROFILE_SEQ_READ].mbps = 2000;
	f->p[1].io[PROFILE_RAND_READ_QD1].iops = 20000;
	f->p[2].io[PROFILE_RAND_READ_QD1].iops = 8000;
	assert_false(advisor_mirror_mates(&f->devs[1], &f->devs[2], ADVISOR_WARM));
	fx_free(f);
}

/* ---- one volume per tier (volume.c) ---- */

static void test_volume_unlike(void **state)
{
	static const struct {
		int64_t cap[2];
		double seq[2];
		bool striped;
		int64_t capacity;
	} cases[] = {
		{ { 2 * TB, 1 * TB }, { 3000, 3000 }, false, 3 * TB },	/* sizes differ */
		{ { 2 * TB, 2 * TB }, { 3000, 1000 }, false, 4 * TB },	/* speeds differ */
		{ { 2 * TB, 2 * TB }, { 3000, 3100 }, true, 4 * TB },	/* alike: striped */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fx *f = fx_new(2);
		struct advisor_plan_tier *t = &f->plan.tiers[ADVISOR_WARM];

		fx_dev(f, 0, "a", "one", cases[i].cap[0], cases[i].seq[0]);
		fx_dev(f, 1, "b", "two", cases[i].cap[1], cases[i].seq[1]);
		fx_assign(f, 0, ADVISOR_WARM);
		fx_assign(f, 1, ADVISOR_WARM);
		assert_int_equal(advisor_volume_make(&f->plan, t), 0);
		assert_int_equal(t->volume.n, 2);
		assert_int_equal(t->volume.striped, cases[i].striped);
		assert_int_equal(t->volume.capacity_bytes, cases[i].capacity);
		assert_string_equal(t->volume.vg, "tw-models");
		assert_string_equal(t->volume.lv, "models");
		assert_non_null(strstr(t->volume.why, cases[i].striped ? "striped" : "linear"));
		assert_true(advisor_volume_has(t, 0) && advisor_volume_has(t, 1));
		fx_free(f);
	}
}

/* ---- buying (buy.c) ---- */

static void test_buy_stock(void **state)
{
	struct fx *f = fx_new(0);
	struct profile_device cat[3];
	const struct profile_device *devs[3] = { &cat[0], &cat[1], &cat[2] };
	const struct profile_device **stock = NULL;
	size_t n = 0;

	(void)state;
	memset(cat, 0, sizeof(cat));
	cat[0] = (struct profile_device){ .id = (char *)"optane", .capacity_bytes = TB / 2,
					  .price_per_tb = 1000 };
	cat[1] = (struct profile_device){ .id = (char *)"nas", .capacity_bytes = 0,
					  .price_per_tb = 20 };
	cat[2] = (struct profile_device){ .id = (char *)"qlc", .capacity_bytes = 8 * TB,
					  .price_per_tb = 50 };
	assert_int_equal(advisor_buy_stock(&f->plan, devs, 3, 2, &stock, &n), 0);
	assert_int_equal(n, 4);		/* two copies of each entry with a price */
	assert_int_equal(f->plan.n_stock, 4);
	assert_string_equal(stock[0]->id, "optane-1");
	assert_string_equal(stock[1]->id, "optane-2");
	assert_string_equal(stock[3]->id, "qlc-2");
	assert_ptr_equal(f->plan.origin[2], &cat[2]);
	assert_true(fabs(model_device_price(stock[2]) - 400.0) < 1e-9);
	assert_int_equal(f->plan.n_notes, 1);
	assert_non_null(strstr(f->plan.notes[0], "not for sale here"));
	assert_non_null(strstr(f->plan.notes[0], "nas"));
	free(stock);
	advisor_buy_clear(&f->plan);
	fx_free(f);
}

/* ---- media classes and usable capacity (plan_util.c) ---- */

static void test_media_class(void **state)
{
	static const struct {
		enum profile_media media;
		bool rotational;
		int tier, cls;
	} cases[] = {
		{ PROFILE_MEDIA_HDD, false, ADVISOR_COLD, ADVISOR_CLASS_HDD },
		{ PROFILE_MEDIA_UNKNOWN, true, ADVISOR_HOT, ADVISOR_CLASS_HDD },
		{ PROFILE_MEDIA_3DXPOINT, false, ADVISOR_HOT, ADVISOR_CLASS_SCM },
		{ PROFILE_MEDIA_3DXPOINT, false, ADVISOR_WARM, ADVISOR_CLASS_SSD },
		{ PROFILE_MEDIA_UNKNOWN, false, ADVISOR_HOT, ADVISOR_CLASS_SSD },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct profile_device p = { .media = cases[i].media,
					    .rotational = cases[i].rotational };

		assert_int_equal(advisor_media_class(&p, cases[i].tier), cases[i].cls);
	}
}

static void test_usable(void **state)
{
	struct fx *f = fx_new(2);

	(void)state;
	fx_dev(f, 0, "a", "m", 2 * TB, NAN);
	fx_dev(f, 1, "b", "m", 0, NAN);
	assert_true(fabs(advisor_usable(&f->plan, 0) - 1.6e12) < 1.0);
	assert_true(advisor_usable(&f->plan, 1) == 1.0);	/* unknown: 1 byte */
	fx_free(f);
}

/* ---- the optimiser bridge (plan_opt.c) ---- */

/* Three needs, three devices each best for one tier: each takes its tier,
 * every need met, the score the sum of their tier scores. */
static void test_run_optimizer(void **state)
{
	static const struct {
		const char *id;
		int64_t cap;
		double score[TW_TIER_COUNT];
		int tier;
	} devs[] = {
		{ "fast", 1 * TB, { 90, 60, 30 }, ADVISOR_HOT },
		{ "big", 8 * TB, { 40, 50, 85 }, ADVISOR_COLD },
		{ "mid", 2 * TB, { 70, 80, 50 }, ADVISOR_WARM },
	};
	static const int64_t need[TW_TIER_COUNT] = { TB / 2, 1 * TB, 4 * TB };
	struct fx *f = fx_new(3);

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		fx_dev(f, i, devs[i].id, devs[i].id, devs[i].cap, 1000);
		memcpy(f->devs[i].tier_score, devs[i].score, sizeof(devs[i].score));
	}
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		f->plan.tiers[t].need_bytes = need[t];
		f->plan.tiers[t].rule = ADVISOR_ARRAY_STRIPE;
	}
	assert_int_equal(advisor_run_optimizer(&f->plan, NULL), 0);
	assert_int_equal(f->plan.n_warnings, 0);	/* no device placed despite a warning */
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(f->devs[i].tier, devs[i].tier);
	assert_int_equal(f->plan.n_needs, 3);
	assert_int_equal(f->plan.needs_met, 3);
	assert_true(f->plan.exact);
	assert_true(fabs(f->plan.coverage - 3.0) < 1e-9);
	assert_true(fabs(f->plan.score - (90 + 80 + 85)) < 1e-6);
	assert_true(fabs(f->plan.tiers[ADVISOR_COLD].score - 85) < 1e-6);
	assert_true(f->plan.has_runner_up);
	assert_true(f->plan.gap > 0);
	free(f->plan.runner_up);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_array_levels),
		cmocka_unit_test(test_rule_from_redundancy),
		cmocka_unit_test(test_raid_unlike_sizes),
		cmocka_unit_test(test_raid_resolution),
		cmocka_unit_test(test_raid_preferred_too_small),
		cmocka_unit_test(test_raid_unlike_mirror),
		cmocka_unit_test(test_mirror_mates),
		cmocka_unit_test(test_volume_unlike),
		cmocka_unit_test(test_buy_stock),
		cmocka_unit_test(test_media_class),
		cmocka_unit_test(test_usable),
		cmocka_unit_test(test_run_optimizer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
