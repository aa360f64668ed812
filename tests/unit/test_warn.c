/* Warnings from the data (advisor/warn.c): the pitfalls of the published
 * measurements (examples/ai-server-18-devices.json) — PC601 write trap,
 * ShiJi cache cliff, 970 EVO Plus heat, an IronWolf in the hot tier — and
 * synthetic devices for health, throttling, bursts, thresholds and devices
 * with nothing measured. */
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

#include "plan.h"
#include "plan_priv.h"

/* ---- helpers ---------------------------------------------------------- */

static char *src_path(const char *rel)
{
	const char *top = getenv("TW_SRCDIR");
	char *p;

	assert_true(asprintf(&p, "%s/%s", top ? top : ".", rel) > 0);
	return p;
}

/* A plan over every device of prof, all unassigned. */
static struct advisor_plan *plan_over(const struct profile *prof)
{
	struct advisor_plan *plan = calloc(1, sizeof(*plan));

	assert_non_null(plan);
	plan->n_devs = prof->n_devices;
	plan->devs = calloc(prof->n_devices, sizeof(*plan->devs));
	assert_non_null(plan->devs);
	for (size_t i = 0; i < prof->n_devices; i++) {
		plan->devs[i].p = &prof->devices[i];
		plan->devs[i].tier = -1;
		plan->devs[i].best_tier = -1;
	}
	return plan;
}

/* Frees what advisor_plan_free() would of a plan made by plan_over(). */
static void plan_done(struct advisor_plan *plan)
{
	for (size_t i = 0; i < plan->n_warnings; i++)
		free(plan->warnings[i].message);
	free(plan->warnings);
	free(plan->devs);
	free(plan);
}

static size_t dev_index(const struct advisor_plan *plan, const char *id)
{
	for (size_t i = 0; i < plan->n_devs; i++)
		if (!strcmp(plan->devs[i].p->id, id))
			return i;
	fail_msg("no device %s", id);
	return 0;
}

/* The message of the warning of kind for device id, or NULL. */
static const char *warning(const struct advisor_plan *plan, const char *id,
			   const char *kind)
{
	ptrdiff_t d = (ptrdiff_t)dev_index(plan, id);

	for (size_t i = 0; i < plan->n_warnings; i++)
		if (plan->warnings[i].dev == d && !strcmp(plan->warnings[i].kind, kind))
			return plan->warnings[i].message;
	return NULL;
}

static size_t n_warnings_of(const struct advisor_plan *plan, const char *id)
{
	ptrdiff_t d = (ptrdiff_t)dev_index(plan, id);
	size_t n = 0;

	for (size_t i = 0; i < plan->n_warnings; i++)
		n += plan->warnings[i].dev == d;
	return n;
}

static void assert_contains(const char *haystack, const char *needle)
{
	assert_non_null(haystack);
	if (!strstr(haystack, needle))
		fail_msg("\"%s\" not in \"%s\"", needle, haystack);
}

/* ---- the published measurements -------------------------------------- */

struct fixture {
	struct profile *prof;
	struct advisor_plan *plan;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct tw_diags d = { 0 };
	char *ex = src_path("examples/ai-server-18-devices.json");

	assert_non_null(f);
	assert_int_equal(profile_read_file(ex, &f->prof, &d), 0);
	free(ex);
	f->plan = plan_over(f->prof);
	f->plan->devs[dev_index(f->plan, "970evoplus-a")].tier = ADVISOR_WARM;
	f->plan->devs[dev_index(f->plan, "970evoplus-b")].tier = ADVISOR_WARM;
	f->plan->devs[dev_index(f->plan, "ironwolf12t")].tier = ADVISOR_HOT;
	assert_int_equal(advisor_warnings_make(f->plan), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	plan_done(f->plan);
	profile_free(f->prof);
	free(f);
	return 0;
}

static void test_heat_970(void **state)
{
	struct fixture *f = *state;

	assert_contains(warning(f->plan, "970evoplus-a", "heat"), "83 °C under load");
	assert_contains(warning(f->plan, "970evoplus-b", "heat"), "83 °C under load");
	assert_contains(warning(f->plan, "970evoplus-a", "heat"), "idles at 52 °C");
	assert_contains(warning(f->plan, "970evoplus-a", "heat"), "heatsink");
	/* PC601 (3): 80 °C under load, 48 °C idle in a crowded slot */
	assert_contains(warning(f->plan, "pc601-c", "heat"), "idles at 48 °C");
	/* 65 °C under load, 29 °C idle: neither threshold */
	assert_null(warning(f->plan, "pm9a1-512-a", "heat"));
	/* the example has no throttle evidence or health log */
	assert_null(warning(f->plan, "970evoplus-a", "throttling"));
	assert_null(warning(f->plan, "970evoplus-a", "health"));
}

static void test_write_trap_pc601(void **state)
{
	struct fixture *f = *state;

	assert_string_equal(warning(f->plan, "pc601-a", "write-trap"),
			    "pc601-a: writes 836 MB/s, 26 % of its 3,171 MB/s read"
			    " (OEM write trap): keep it off write-heavy tiers"
			    " (checkpoints, logs, backups)");
	assert_contains(warning(f->plan, "pc601-b", "write-trap"), "872 MB/s, 28 %");
	assert_contains(warning(f->plan, "pc601-c", "write-trap"), "3,073 MB/s read");
	/* 980 PRO 2 TB writes 55 % of its read: no trap */
	assert_null(warning(f->plan, "980pro-2t", "write-trap"));
}

static void test_cache_cliff_shiji(void **state)
{
	struct fixture *f = *state;
	const char *m = warning(f->plan, "shiji256", "cache-cliff");

	assert_contains(m, "shiji256: sustained write 1,142 MB/s, −44 % from its"
			   " 2,039 MB/s sequential write");
	assert_contains(m, "SLC cache cliff");
	/* not published: not mentioned */
	assert_null(strstr(m, "at first"));
	/* 970 EVO Plus keeps 80–84 %; Biwin 76 %: above 70 % */
	assert_null(warning(f->plan, "970evoplus-b", "cache-cliff"));
	assert_null(warning(f->plan, "biwin1t", "cache-cliff"));
}

static void test_hdd_in_hot(void **state)
{
	struct fixture *f = *state;

	assert_contains(warning(f->plan, "ironwolf12t", "hdd-tail-latency"),
			"ironwolf12t: a hard disk in the hot tier with QD1 p99 16.3 ms");
	/* Red Pro: 25 ms p99 but not in the hot tier */
	assert_null(warning(f->plan, "redpro10t", "hdd-tail-latency"));
}

static void test_clean_devices(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(n_warnings_of(f->plan, "optane905p"), 0);
	assert_int_equal(n_warnings_of(f->plan, "pm9a1-1t"), 0);
	assert_int_equal(n_warnings_of(f->plan, "980-1t"), 0);
	/* catalog data is never a burst, even in a write tier */
	for (size_t i = 0; i < f->plan->n_warnings; i++)
		assert_string_not_equal(f->plan->warnings[i].kind, "burst");
}

static void test_order_and_form(void **state)
{
	struct fixture *f = *state;
	static const char *const kinds[] = { "write-trap", "cache-cliff", "heat",
		"throttling", "hdd-tail-latency", "health", "burst" };
	int last_kind = -1;
	ptrdiff_t last_dev = -1;

	/* pc601-a..c, mznln128: write trap; shiji256: cliff; 970 a/b,
	 * pc601-c: heat; ironwolf12t: tail latency */
	assert_int_equal(f->plan->n_warnings, 4 + 1 + 3 + 1);
	for (size_t i = 0; i < f->plan->n_warnings; i++) {
		const struct advisor_warning *w = &f->plan->warnings[i];
		const char *id = f->plan->devs[w->dev].p->id;
		int k = -1;

		for (int j = 0; j < 7; j++)
			if (!strcmp(w->kind, kinds[j]))
				k = j;
		assert_true(k >= 0);
		assert_true(w->dev > last_dev || (w->dev == last_dev && k > last_kind));
		last_dev = w->dev;
		last_kind = k;
		assert_int_equal(strncmp(w->message, id, strlen(id)), 0);
		assert_int_equal(w->message[strlen(id)], ':');
		assert_null(strchr(w->message, '\n'));
	}
}

/* ---- synthetic devices ------------------------------------------------ */

/* Sequential read and write, MB/s. */
static void set_seq(struct profile_device *d, double rd, double wr)
{
	d->io[PROFILE_SEQ_READ].present = true;
	d->io[PROFILE_SEQ_READ].mbps = rd;
	d->io[PROFILE_SEQ_WRITE].present = true;
	d->io[PROFILE_SEQ_WRITE].mbps = wr;
}

/*
 * A write trap is sure, and keeps the device off the tiers that write, only
 * when it holds at the ends of both figures' bands; a write figure known to
 * ±25.8 % at 30 % of the read may be 37.7 %: said, with "?", and no bar.
 */
static void test_write_trap_bands(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;
	struct advisor_plan *plan;
	size_t wide, narrow, counted;

	(void)state;
	d = profile_add_device(p, "trap-wide");
	set_seq(d, 2000, 600);
	d->io[PROFILE_SEQ_WRITE].spread_pct = 25.8;
	d = profile_add_device(p, "trap-narrow");
	set_seq(d, 2000, 600);
	d->io[PROFILE_SEQ_WRITE].spread_pct = 2;
	d->io[PROFILE_SEQ_READ].spread_pct = 1.5;
	d = profile_add_device(p, "trap-counted");	/* 4 I/Os: ±25 % by the count */
	set_seq(d, 2000, 600);
	d->io[PROFILE_SEQ_WRITE].ios = 4;
	d = profile_add_device(p, "trap-one-read");	/* a read of 1 I/O: ±100 % */
	set_seq(d, 2000, 600);
	d->io[PROFILE_SEQ_READ].ios = 1;
	plan = plan_over(p);
	wide = dev_index(plan, "trap-wide");
	narrow = dev_index(plan, "trap-narrow");
	counted = dev_index(plan, "trap-counted");
	plan->tiers[ADVISOR_WARM].writes = true;
	assert_int_equal(advisor_warnings_make(plan), 0);
	assert_string_equal(warning(plan, "trap-wide", "write-trap"),
			    "trap-wide: writes 600 MB/s, 30 % of its 2,000 MB/s read (OEM write trap?): "
			    "not known well enough to keep it off the tiers that write: the write "
			    "figure is known to ±25.8 %, the read to ±0.0 %, and at their ends it "
			    "writes 38 % (the bar: 35 %); probe it again with --full");
	assert_contains(warning(plan, "trap-narrow", "write-trap"),
			"(OEM write trap): keep it off write-heavy tiers");
	assert_contains(warning(plan, "trap-counted", "write-trap"), "known to ±25.0 %");
	/* no ratio at the ends of a band of ±100 % (never "inf %") */
	assert_string_equal(warning(plan, "trap-one-read", "write-trap"),
			    "trap-one-read: writes 600 MB/s, 30 % of its 2,000 MB/s read (OEM write "
			    "trap?): not known well enough to keep it off the tiers that write: the "
			    "write figure is known to ±0.0 %, the read to ±100.0 %; probe it again "
			    "with --full");
	assert_int_equal(advisor_objections(plan, wide, ADVISOR_WARM) & ADVISOR_OBJ_WRITE_TRAP, 0);
	assert_int_equal(advisor_objections(plan, counted, ADVISOR_WARM) & ADVISOR_OBJ_WRITE_TRAP, 0);
	assert_int_equal(advisor_objections(plan, narrow, ADVISOR_WARM) & ADVISOR_OBJ_WRITE_TRAP,
			 ADVISOR_OBJ_WRITE_TRAP);
	/* a tier that does not write bars nothing */
	assert_int_equal(advisor_objections(plan, narrow, ADVISOR_HOT) & ADVISOR_OBJ_WRITE_TRAP, 0);
	plan_done(plan);
	profile_free(p);
}

static void test_nothing_measured(void **state)
{
	struct profile *p = profile_new();
	struct advisor_plan *plan;

	(void)state;
	assert_non_null(profile_add_device(p, "blank"));
	assert_non_null(profile_add_device(p, "blank-catalog"));
	p->devices[1].probe.mode = PROFILE_MODE_CATALOG;
	p->devices[1].rotational = true;
	plan = plan_over(p);
	plan->devs[1].tier = ADVISOR_HOT;
	assert_int_equal(advisor_warnings_make(plan), 0);
	assert_int_equal(plan->n_warnings, 0);
	assert_null(plan->warnings);
	plan_done(plan);
	profile_free(p);
	assert_int_equal(advisor_warnings_make(NULL), -EINVAL);
}

static void test_health(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;
	struct advisor_plan *plan;

	(void)state;
	d = profile_add_device(p, "worn");
	d->health.present = true;
	d->health.critical_warning = 0x5;	/* spare, reliability */
	d->health.media_errors = 3;
	d->health.percentage_used = 85;
	d = profile_add_device(p, "spare-low");
	d->health.available_spare = 5;
	d->health.available_spare_threshold = 10;
	d = profile_add_device(p, "ata-failing");
	d->health.smart_ok = 0;
	d = profile_add_device(p, "fine");	/* all just under the thresholds */
	d->health.critical_warning = 0;
	d->health.media_errors = 0;
	d->health.percentage_used = 79;
	d->health.available_spare = 10;
	d->health.available_spare_threshold = 10;
	d->health.smart_ok = 1;
	d = profile_add_device(p, "bit6");
	d->health.critical_warning = 0x42;	/* temperature, bit 6 */
	plan = plan_over(p);
	assert_int_equal(advisor_warnings_make(plan), 0);
	assert_string_equal(warning(plan, "worn", "health"),
			    "worn: health: critical warning 0x5 (spare, reliability),"
			    " 3 media errors, 85 % of rated endurance used: back up its"
			    " data and plan to replace it; keep it out of tiers that"
			    " hold the only copy");
	assert_contains(warning(plan, "spare-low", "health"),
			"spare 5 % below its 10 % threshold");
	assert_contains(warning(plan, "ata-failing", "health"), "ATA SMART overall status failing");
	assert_null(warning(plan, "fine", "health"));
	assert_contains(warning(plan, "bit6", "health"), "0x42 (temperature, bit 6)");
	assert_int_equal(plan->n_warnings, 4);
	plan_done(plan);
	profile_free(p);
}

static void test_throttling(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;
	struct advisor_plan *plan;

	(void)state;
	d = profile_add_device(p, "throttled");
	d->thermal.throttle = calloc(2, sizeof(*d->thermal.throttle));
	assert_non_null(d->thermal.throttle);
	d->thermal.throttle[0] = (struct profile_throttle){ 41, 78, PROFILE_THR_TMT1 };
	d->thermal.throttle[1] = (struct profile_throttle){ 55, 81, PROFILE_THR_DROP };
	d->thermal.n_throttle = 2;
	d->thermal.throttle_events = 2;
	d = profile_add_device(p, "tmt-only");
	d->health.tmt2_transitions = 4;
	d = profile_add_device(p, "calm");
	d->thermal.throttle_events = 0;
	d->health.tmt1_transitions = 0;
	d->health.tmt2_transitions = 0;
	plan = plan_over(p);
	assert_int_equal(advisor_warnings_make(plan), 0);
	assert_contains(warning(plan, "throttled", "throttling"),
			"throttled: throttled 2 times during the test (1 tmt1, 0 tmt2, 1 drop)");
	assert_contains(warning(plan, "tmt-only", "throttling"), "0 TMT1 / 4 TMT2 transitions");
	assert_null(warning(plan, "calm", "throttling"));
	assert_int_equal(plan->n_warnings, 2);
	plan_done(plan);
	profile_free(p);
}

static void test_burst(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;
	struct advisor_plan *plan;

	(void)state;
	d = profile_add_device(p, "labelled");	/* probe.mode quick */
	set_seq(d, 3000, 2800);
	d->io[PROFILE_SEQ_WRITE].label = strdup("burst, fresh");
	d = profile_add_device(p, "quick-warm");	/* nothing labelled */
	set_seq(d, 3000, 2800);
	d = profile_add_device(p, "quick-hot");	/* not a write tier */
	set_seq(d, 3000, 2800);
	d = profile_add_device(p, "quick-sustained");	/* the cliff is known */
	set_seq(d, 3000, 2800);
	d->io[PROFILE_SEQ_WRITE].label = strdup("burst, fresh");
	d->sustained.present = true;
	d->sustained.mbps = 2700;
	d = profile_add_device(p, "catalog");
	set_seq(d, 3000, 2800);
	d->probe.mode = PROFILE_MODE_CATALOG;
	d->io[PROFILE_SEQ_WRITE].label = strdup("burst, fresh");
	d = profile_add_device(p, "read-burst");	/* only a read was a burst */
	set_seq(d, 3000, 2800);
	d->io[PROFILE_SEQ_READ].label = strdup("burst, fresh");
	d = profile_add_device(p, "full-warm");
	set_seq(d, 3000, 2800);
	d->probe.mode = PROFILE_MODE_FULL;
	plan = plan_over(p);
	plan->devs[dev_index(plan, "quick-warm")].tier = ADVISOR_COLD;
	plan->devs[dev_index(plan, "quick-hot")].tier = ADVISOR_HOT;
	plan->devs[dev_index(plan, "catalog")].tier = ADVISOR_WARM;
	plan->devs[dev_index(plan, "full-warm")].tier = ADVISOR_WARM;
	assert_int_equal(advisor_warnings_make(plan), 0);
	assert_string_equal(warning(plan, "labelled", "burst"),
			    "labelled: seq_write measured in a short burst, no sustained"
			    " write: write figures may fall once the cache fills;"
			    " measure with `tierwise probe --full`");
	assert_contains(warning(plan, "quick-warm", "burst"), "quick probe in the cold tier");
	assert_contains(warning(plan, "quick-warm", "burst"), "tierwise probe --full");
	assert_null(warning(plan, "quick-hot", "burst"));
	assert_null(warning(plan, "quick-sustained", "burst"));
	assert_null(warning(plan, "catalog", "burst"));
	assert_null(warning(plan, "read-burst", "burst"));
	assert_null(warning(plan, "full-warm", "burst"));
	assert_int_equal(plan->n_warnings, 2);
	plan_done(plan);
	profile_free(p);
}

/* Read figures from unwritten blocks: one warning per device naming the
 * tests and how to measure them; none on a hard disk or below half. */
static void test_unwritten(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;
	struct advisor_plan *plan;

	(void)state;
	d = profile_add_device(p, "blank");
	d->path = strdup("/dev/nvme1n1");
	d->media = PROFILE_MEDIA_NAND;
	set_seq(d, 3000, 2800);
	d->io[PROFILE_SEQ_READ].unwritten = 1.0;
	d->io[PROFILE_SEQ_WRITE].unwritten = NAN;
	d->io[PROFILE_RAND_READ_QD1].present = true;
	d->io[PROFILE_RAND_READ_QD1].unwritten = 0.98;
	d->lat_target.present = true;
	d->lat_target.unwritten = 0.97;
	d = profile_add_device(p, "half-written");
	set_seq(d, 3000, 2800);
	d->io[PROFILE_SEQ_READ].unwritten = 0.3;
	d = profile_add_device(p, "blank-hdd");
	d->media = PROFILE_MEDIA_HDD;
	d->rotational = true;
	set_seq(d, 250, 240);
	d->io[PROFILE_SEQ_READ].unwritten = 1.0;
	plan = plan_over(p);
	assert_int_equal(advisor_warnings_make(plan), 0);
	assert_contains(warning(plan, "blank", "unwritten"),
			"blank: seq_read, rand_read_qd1, qd_sweep read mostly never-written"
			" blocks");
	assert_contains(warning(plan, "blank", "unwritten"), "scored as missing");
	assert_contains(warning(plan, "blank", "unwritten"),
			"`tierwise probe /dev/nvme1n1 --destructive`");
	assert_contains(warning(plan, "blank", "unwritten"), "scratch file");
	assert_int_equal(n_warnings_of(plan, "blank"), 1);	/* one, for every test */
	assert_null(warning(plan, "half-written", "unwritten"));
	assert_null(warning(plan, "blank-hdd", "unwritten"));
	plan_done(plan);
	/* a disk holding data (the lab's ext4 disk): --destructive is refused
	 * there, so only the scratch file is offered */
	plan = plan_over(p);
	plan->devs[0].has_data = true;
	assert_int_equal(advisor_warnings_make(plan), 0);
	assert_contains(warning(plan, "blank", "unwritten"), "a destructive probe is refused");
	assert_contains(warning(plan, "blank", "unwritten"), "scratch file on its filesystem");
	assert_null(strstr(warning(plan, "blank", "unwritten"), "--destructive`"));
	plan_done(plan);
	profile_free(p);
}

static void test_thresholds(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;
	struct advisor_plan *plan;

	(void)state;
	d = profile_add_device(p, "trap-edge");	/* exactly 35 %: no trap */
	set_seq(d, 2000, 700);
	d = profile_add_device(p, "trap-under");
	set_seq(d, 2000, 699);
	d = profile_add_device(p, "cliff-details");
	set_seq(d, 5000, 4000);
	d->sustained.present = true;
	d->sustained.mbps = 1000;
	d->sustained.initial_mbps = 4100;
	d->sustained.cliff_after_gb = 35.2;
	d = profile_add_device(p, "cliff-edge");	/* exactly 70 %: no cliff */
	set_seq(d, 5000, 4000);
	d->sustained.mbps = 2800;
	d = profile_add_device(p, "near-wctemp");
	d->thermal.load_c = 66;
	d->thermal.warning_c = 70;
	d = profile_add_device(p, "below-wctemp");
	d->thermal.load_c = 64;
	d->thermal.warning_c = 70;
	d->thermal.idle_c = 44;
	d = profile_add_device(p, "warm-idle");
	d->thermal.idle_c = 45;
	d = profile_add_device(p, "ssd-hot");	/* slow, but not a hard disk */
	d->io[PROFILE_RAND_READ_QD1].present = true;
	d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99] = 20000;
	d = profile_add_device(p, "hdd-unknown-p99");
	d->rotational = true;
	d->io[PROFILE_RAND_READ_QD1].present = true;
	d = profile_add_device(p, "hdd-10ms");	/* exactly 10 ms: fine */
	d->rotational = true;
	d->io[PROFILE_RAND_READ_QD1].present = true;
	d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99] = 10000;
	plan = plan_over(p);
	plan->devs[dev_index(plan, "ssd-hot")].tier = ADVISOR_HOT;
	plan->devs[dev_index(plan, "hdd-unknown-p99")].tier = ADVISOR_HOT;
	plan->devs[dev_index(plan, "hdd-10ms")].tier = ADVISOR_HOT;
	assert_int_equal(advisor_warnings_make(plan), 0);
	assert_null(warning(plan, "trap-edge", "write-trap"));
	assert_contains(warning(plan, "trap-under", "write-trap"), "699 MB/s, 35 % of its 2,000");
	assert_string_equal(warning(plan, "cliff-details", "cache-cliff"),
			    "cliff-details: sustained write 1,000 MB/s, −75 % from its"
			    " 4,000 MB/s sequential write (SLC cache cliff; 4,100 MB/s"
			    " at first; falls after 35.2 GB): size large writes"
			    " (checkpoints, backups) on 1,000 MB/s");
	assert_null(warning(plan, "cliff-edge", "cache-cliff"));
	assert_contains(warning(plan, "near-wctemp", "heat"),
			"reaches 66 °C under load (warning threshold 70 °C)");
	assert_null(warning(plan, "below-wctemp", "heat"));
	assert_contains(warning(plan, "warm-idle", "heat"),
			"warm-idle: idles at 45 °C (a crowded slot?)");
	assert_null(warning(plan, "ssd-hot", "hdd-tail-latency"));
	assert_null(warning(plan, "hdd-unknown-p99", "hdd-tail-latency"));
	assert_null(warning(plan, "hdd-10ms", "hdd-tail-latency"));
	assert_int_equal(plan->n_warnings, 4);
	plan_done(plan);
	profile_free(p);
}

/* Warnings already in the plan are kept; new ones follow them. */
static void test_appends(void **state)
{
	struct profile *p = profile_new();
	struct advisor_plan *plan;

	(void)state;
	set_seq(profile_add_device(p, "trap"), 3000, 800);
	plan = plan_over(p);
	plan->warnings = calloc(1, sizeof(*plan->warnings));
	assert_non_null(plan->warnings);
	plan->warnings[0] = (struct advisor_warning){ -1, "plan", strdup("earlier") };
	plan->n_warnings = 1;
	assert_int_equal(advisor_warnings_make(plan), 0);
	assert_int_equal(plan->n_warnings, 2);
	assert_string_equal(plan->warnings[0].message, "earlier");
	assert_int_equal(plan->warnings[1].dev, 0);
	assert_string_equal(plan->warnings[1].kind, "write-trap");
	plan_done(plan);
	profile_free(p);
}

/* A USB disk: the bridge caps QD1 latency; what was and was not read. */
/* A device whose link trained x2 of x4: the cost, and that its read is capped. */
static void test_link_degraded(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;
	struct advisor_plan *plan;
	const char *m;

	(void)state;
	d = profile_add_device(p, "nvme3n1");
	d->link.present = true;
	d->link.pcie_address = strdup("0000:04:00.0");
	d->link.speed_gts = d->link.max_speed_gts = 8.0;
	d->link.width = 2;
	d->link.max_width = 4;
	d->io[PROFILE_SEQ_READ].present = true;
	d->io[PROFILE_SEQ_READ].mbps = 1760;	/* 89 % of Gen3 x2 */
	d = profile_add_device(p, "gen3-in-gen4");	/* speed, not width */
	d->link.present = true;
	d->link.speed_gts = 8.0;
	d->link.max_speed_gts = 16.0;
	d->link.width = d->link.max_width = 4;
	d = profile_add_device(p, "read-above");	/* figures the link cannot carry */
	d->link.present = true;
	d->link.speed_gts = 8.0;
	d->link.max_speed_gts = 16.0;
	d->link.width = 2;
	d->link.max_width = 4;
	d->io[PROFILE_SEQ_READ].present = true;
	d->io[PROFILE_SEQ_READ].mbps = 6193;
	d = profile_add_device(p, "full");	/* at its maximum: no warning */
	d->link.present = true;
	d->link.speed_gts = d->link.max_speed_gts = 16.0;
	d->link.width = d->link.max_width = 4;
	d = profile_add_device(p, "unknown-max");	/* maximum unknown: no warning */
	d->link.present = true;
	d->link.speed_gts = 8.0;
	d->link.width = 2;
	plan = plan_over(p);
	assert_int_equal(advisor_warnings_make(plan), 0);
	m = warning(plan, "nvme3n1", "link");
	assert_contains(m, "nvme3n1: its PCIe link at 0000:04:00.0 trained at Gen3 x2 of Gen3 x4");
	assert_contains(m, "1,969 of 3,938 MB/s, 1,969 MB/s (50 %) of bandwidth lost");
	assert_contains(m, "sequential read (1,760 MB/s) is at the link's limit");
	assert_contains(m, "BIOS lane bifurcation");
	m = warning(plan, "gen3-in-gen4", "link");
	assert_contains(m, "trained at Gen3 x4 of Gen4 x4: 3,938 of 7,877 MB/s");
	assert_null(strstr(m, "sequential read"));	/* not measured */
	m = warning(plan, "read-above", "link");
	assert_contains(m, "Gen3 x2 of Gen4 x4: 1,969 of 7,877 MB/s, 5,908 MB/s (75 %)");
	assert_contains(m, "sequential read (6,193 MB/s) is more than this link carries");
	assert_null(strstr(m, "capped by the slot"));
	assert_null(warning(plan, "full", "link"));
	assert_null(warning(plan, "unknown-max", "link"));
	assert_int_equal(plan->n_warnings, 3);
	plan_done(plan);
	profile_free(p);
}

/* A path of a multipath head at its link, as the inventory writes it. */
static void set_path(struct profile_path *q, const char *name, const char *ctrl,
		     const char *fn, long width, long max_width)
{
	q->name = strdup(name);
	q->controller = strdup(ctrl);
	q->numa_node = -1;
	q->link.present = true;
	q->link.pcie_address = strdup(fn);
	q->link.speed_gts = q->link.max_speed_gts = 16.0;
	q->link.width = width;
	q->link.max_width = max_width;
	q->link.numa_node = -1;
}

/* A dual-port drive behind a multipath head: one port's link trained x1 of
 * x2.  The warning names the path; a second namespace of the drive is told
 * in the same warning; a head whose best path (its own link) is the
 * degraded one says it once. */
static void test_link_path_degraded(void **state)
{
	const char *ids[] = { "nvme0n1", "nvme0n2", "best" };
	struct profile *p = profile_new();
	struct advisor_plan *plan;
	const char *m;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct profile_device *d = profile_add_device(p, ids[i]);
		struct profile_multipath *mp = &d->multipath;

		d->drive_id = strdup(i < 2 ? "nqn.x:drive-a" : "nqn.x:drive-b");
		d->link.present = true;
		d->link.pcie_address = strdup(i < 2 ? "0000:3b:00.0" : "0001:5e:00.0");
		d->link.speed_gts = d->link.max_speed_gts = 16.0;
		d->link.width = i < 2 ? 2 : 1;
		d->link.max_width = 2;
		mp->present = true;
		mp->n_paths = 2;
		assert_non_null(mp->paths = calloc(2, sizeof(*mp->paths)));
		set_path(&mp->paths[0], i ? "nvme0c0n2" : "nvme0c0n1", "nvme0", "0000:3b:00.0", 2, 2);
		set_path(&mp->paths[1], i ? "nvme0c1n2" : "nvme0c1n1", "nvme1", "0001:5e:00.0", 1, 2);
		if (i == 2) {	/* its best path is the degraded one */
			mp->paths[0].link.width = 1;
			free(mp->paths[0].link.pcie_address);
			mp->paths[0].link.pcie_address = strdup("0001:5e:00.0");
			mp->paths[1].link.width = 2;
		}
	}
	plan = plan_over(p);
	assert_int_equal(advisor_warnings_make(plan), 0);
	m = warning(plan, "nvme0n1", "link");
	assert_contains(m, "nvme0n1: the PCIe link of its path nvme0c1n1 via nvme1 at 0001:5e:00.0 "
			"trained at Gen4 x1 of Gen4 x2: 1,969 of 3,938 MB/s, 1,969 MB/s (50 %) of "
			"bandwidth lost; check that port: the drive's seating in its bay");
	assert_null(strstr(m, "nvme0c0n1"));	/* the other port is at its maximum */
	assert_contains(m, "; nvme0n2 is a namespace of the same drive");
	assert_null(warning(plan, "nvme0n2", "link"));
	m = warning(plan, "best", "link");
	assert_contains(m, "best: its PCIe link at 0001:5e:00.0 trained at Gen4 x1 of Gen4 x2");
	assert_null(strstr(m, "its path"));	/* the same link, said once */
	assert_int_equal(plan->n_warnings, 2);
	plan_done(plan);
	profile_free(p);
}

static void test_usb(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;
	struct advisor_plan *plan;
	const char *m;

	(void)state;
	d = profile_add_device(p, "usb-bare");	/* nothing read through the bridge */
	d->transport = PROFILE_TR_USB;
	d->io[PROFILE_RAND_READ_QD1].present = true;
	d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99] = 1234;
	d = profile_add_device(p, "usb-told");	/* a bridge that passes SMART through */
	d->transport = PROFILE_TR_USB;
	d->thermal.idle_c = 31;
	d->thermal.source = strdup("hwmon (drivetemp)");
	d->health.present = true;
	d->health.source = strdup("ATA SMART (libatasmart)");
	d = profile_add_device(p, "usb-stick");	/* left out of the plan */
	d->transport = PROFILE_TR_USB;
	d = profile_add_device(p, "sata");
	d->transport = PROFILE_TR_SATA;
	plan = plan_over(p);
	plan->devs[dev_index(plan, "usb-stick")].excluded = true;
	assert_int_equal(advisor_warnings_make(plan), 0);
	m = warning(plan, "usb-bare", "usb");
	assert_contains(m, "usb-bare: USB-attached");
	assert_contains(m, "QD1 p99 1,234 µs measured through it");
	assert_contains(m, "temperature not read, SMART / health log not read");
	m = warning(plan, "usb-told", "usb");
	assert_contains(m, "temperature read (31 °C idle, hwmon (drivetemp))");
	assert_contains(m, "health log read (ATA SMART (libatasmart))");
	assert_null(strstr(m, "QD1 p99"));	/* not measured: not named */
	assert_null(warning(plan, "usb-stick", "usb"));
	assert_int_equal(n_warnings_of(plan, "sata"), 0);
	assert_int_equal(plan->n_warnings, 2);
	plan_done(plan);
	profile_free(p);
}

/* A network-attached device warns only in the hot tier. */
static void test_fabric(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;
	struct advisor_plan *plan;
	const char *m;
	const char *ids[] = { "tcp-hot", "rdma-warm", "fc-hot-out", "local-hot" };

	(void)state;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		d = profile_add_device(p, ids[i]);
		d->transport = PROFILE_TR_NVME;
		d->fabric.present = i < 3;
		d->fabric.transport = i < 3 ? strdup(i == 0 ? "tcp" : i == 1 ? "rdma" : "fc") : NULL;
	}
	p->devices[0].fabric.address = strdup("traddr=192.168.1.20,trsvcid=4420");
	p->devices[0].io[PROFILE_RAND_READ_QD1].present = true;
	p->devices[0].io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99] = 1234;
	plan = plan_over(p);
	plan->devs[0].tier = ADVISOR_HOT;
	plan->devs[1].tier = ADVISOR_WARM;
	plan->devs[2].tier = ADVISOR_HOT;
	plan->devs[2].excluded = true;
	plan->devs[3].tier = ADVISOR_HOT;
	assert_int_equal(advisor_warnings_make(plan), 0);
	m = warning(plan, "tcp-hot", "fabric");
	assert_contains(m, "tcp-hot: network-attached (NVMe over Fabrics, nvme-tcp at "
			"traddr=192.168.1.20,trsvcid=4420) in the hot tier: its latency is "
			"the network's and varies with it");
	assert_contains(m, "QD1 p99 1,234 µs when probed, network included");
	assert_contains(m, "put a local NVMe drive in the hot tier");
	assert_null(warning(plan, "rdma-warm", "fabric"));
	assert_null(warning(plan, "fc-hot-out", "fabric"));
	assert_null(warning(plan, "local-hot", "fabric"));
	for (size_t i = 0, n = 0; i < plan->n_warnings; i++)	/* one fabric warning */
		assert_true(strcmp(plan->warnings[i].kind, "fabric") || ++n == 1);
	plan_done(plan);
	profile_free(p);
}

/* A host-aware zoned device warns in any tier it is placed in;
 * a host-managed one (its mount says why) and an unplaced one do not. */
static void test_zoned(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;
	struct advisor_plan *plan;
	const char *m;
	const char *ids[] = { "smr-cold", "zns-warm", "smr-out", "plain-hot" };

	(void)state;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		d = profile_add_device(p, ids[i]);
		d->transport = PROFILE_TR_SATA;
		d->zoned.present = i < 3;
		d->zoned.model = i == 1 ? PROFILE_ZONED_HOST_MANAGED : PROFILE_ZONED_HOST_AWARE;
		d->zoned.zone_bytes = 256L << 20;
	}
	plan = plan_over(p);
	plan->devs[0].tier = ADVISOR_COLD;
	plan->devs[1].tier = ADVISOR_WARM;
	plan->devs[2].tier = -1;
	plan->devs[3].tier = ADVISOR_HOT;
	assert_int_equal(advisor_warnings_make(plan), 0);
	m = warning(plan, "smr-cold", "zoned");
	assert_contains(m, "smr-cold: host-aware zoned device (zones of 256 MiB) in the cold "
			"tier: random writes collapse once its conventional cache is full");
	assert_contains(m, "btrfs zoned mode, f2fs");
	assert_null(warning(plan, "zns-warm", "zoned"));
	assert_null(warning(plan, "smr-out", "zoned"));
	assert_null(warning(plan, "plain-hot", "zoned"));
	plan_done(plan);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest example[] = {
		cmocka_unit_test(test_heat_970),
		cmocka_unit_test(test_write_trap_pc601),
		cmocka_unit_test(test_write_trap_bands),
		cmocka_unit_test(test_cache_cliff_shiji),
		cmocka_unit_test(test_hdd_in_hot),
		cmocka_unit_test(test_clean_devices),
		cmocka_unit_test(test_link_degraded),
		cmocka_unit_test(test_link_path_degraded),
		cmocka_unit_test(test_order_and_form),
	};
	const struct CMUnitTest synthetic[] = {
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_health),
		cmocka_unit_test(test_throttling),
		cmocka_unit_test(test_burst),
		cmocka_unit_test(test_unwritten),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_usb),
		cmocka_unit_test(test_fabric),
		cmocka_unit_test(test_zoned),
	};
	int fails = cmocka_run_group_tests_name("example", example, setup, teardown);

	return fails + cmocka_run_group_tests_name("synthetic", synthetic, NULL, NULL);
}
