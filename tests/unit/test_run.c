/* The test runner with the null engine: the loop → profile conversion. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "known.h"
#include "probe.h"
#include "run_int.h"
#include "tw_util.h"

static struct probe_target fake_target(bool writable)
{
	struct probe_target t = {
		.kind = PROBE_TARGET_RAW, .writable = writable, .fd = -1,
		.id = "null0", .path = "/dev/null0", .span_bytes = 1ULL << 30,
		.align = 4096, .dev = NULL,
	};
	return t;
}

/* How many of d's notes contain a (and b, when not NULL). */
static size_t notes_with(const struct profile_device *d, const char *a, const char *b)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n_notes; i++)
		n += strstr(d->notes[i], a) && (!b || strstr(d->notes[i], b));
	return n;
}

static struct probe_options fast_options(void)
{
	struct probe_options o = { .tests = PROBE_TESTS_ALL, .seconds = 0.25, .ramp_s = 0,
				   .sustained_s = 2, .engine = "null", .threads = 1 };
	return o;
}

/* probe_run of t through the fault engine o->fault asks for (it wants a file
 * descriptor; its inner null engine reads nothing from /dev/null); asserts
 * success, returns p's first device. */
static const struct profile_device *run_faulty(struct probe_target *t,
						const struct probe_options *o,
						struct profile *p)
{
	char err[256] = "";

	t->fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(t->fd >= 0);
	assert_int_equal(probe_run(t, o, p, err, sizeof(err)), 0);
	close(t->fd);
	t->fd = -1;
	return &p->devices[0];
}

static void test_writable_all_tests(void **state)
{
	struct probe_target t = fake_target(true);
	struct probe_options o = fast_options();
	struct profile *p = profile_new();
	const struct profile_device *d;
	char err[256] = "", *json;
	struct tw_diags diags = { 0 };
	struct profile *q;

	(void)state;
	assert_int_equal(probe_run(&t, &o, p, err, sizeof(err)), 0);
	assert_int_equal(p->n_devices, 1);
	d = &p->devices[0];
	assert_string_equal(d->id, "null0");
	assert_int_equal(d->probe.target, PROFILE_TGT_RAW_DESTRUCTIVE);
	assert_true(d->probe.seconds > 0);
	for (int i = 0; i < PROFILE_IO_COUNT; i++) {
		const struct profile_io *io = &d->io[i];

		assert_true(io->present);
		assert_true(io->iops > 0);
		/* bytes = I/Os x block size, so MB/s = IOPS x bs / 10^6 */
		assert_float_equal(io->mbps, io->iops * io->bs / 1e6, io->mbps * 1e-9);
		assert_true(io->seconds >= 0.24 && io->seconds < 1.0);	/* a busy machine wakes late */
		assert_int_equal(io->threads, 1);
		assert_string_equal(io->label, "burst, fresh");
	}
	assert_int_equal(d->io[PROFILE_SEQ_READ].bs, 1048576);
	assert_int_equal(d->io[PROFILE_SEQ_READ].qd, 32);
	assert_int_equal(d->io[PROFILE_RAND_READ_QD1].bs, 4096);
	assert_int_equal(d->io[PROFILE_RAND_READ_QD1].qd, 1);
	assert_float_equal(d->io[PROFILE_MIXED_70_30].read_iops /
			   d->io[PROFILE_MIXED_70_30].iops, 0.70, 0.02);
	assert_float_equal(d->io[PROFILE_MIXED_70_30].read_iops +
			   d->io[PROFILE_MIXED_70_30].write_iops,
			   d->io[PROFILE_MIXED_70_30].iops, 1);
	assert_int_equal(d->n_sweep, 8);
	for (size_t i = 0; i < d->n_sweep; i++)
		assert_int_equal(d->sweep[i].qd, 1L << i);
	assert_true(d->lat_target.present);
	assert_float_equal(d->lat_target.p99_us, 1000, 0);
	assert_true(d->sustained.present);
	assert_true(d->sustained.n_series >= 1 && d->sustained.n_series <= 3);
	assert_true(isnan(d->sustained.series[0].temp_c));	/* no sensor */
	assert_true(isnan(d->thermal.load_c));
	assert_int_equal(d->thermal.throttle_events, -1);	/* unknown, not 0 */
	/* the engine's setup once (every test ran on the same one); the
	 * destructive fill of the whole span before the reads */
	/* and, when the one paced thread could not keep up with the null
	 * engine's best (a busy machine), the iorate note (before the
	 * read_under_write notes: iorate runs first) */
	{
		size_t io = 0;

		for (size_t i = 3; i < d->n_notes; i++)
			io += !strncmp(d->notes[i], "iorate: from ", 13);
		assert_true(io <= 1);
		assert_int_equal(d->n_notes, 7 + io);
		assert_non_null(strstr(d->notes[3 + io], "read_under_write: QD1 reads while 128 "
				       "KiB random writes ran at 20.0 MiB/s (5.0 MiB/s of them "
				       "with trims"));
		assert_non_null(strstr(d->notes[4 + io], "trims were not issued (no file "
				       "descriptor"));
		assert_non_null(strstr(d->notes[5 + io], "read_under_write: 32 KiB random reads "
				       "at QD32 under the same writes (OCP BOOT-BENCH-1): "));
		/* the app test reads for real: not under the null engine */
		assert_string_equal(d->notes[6 + io], "app: skipped: the null engine does no "
				    "I/O, and the application's reads are real");
	}
	assert_false(d->app.present);
	assert_non_null(strstr(d->notes[0], "thermal: no block device known"));
	assert_non_null(strstr(d->notes[1], "engine: null (latency 0 ns)"));
	assert_non_null(strstr(d->notes[2], "fill: seq_write wrote the whole span (1.00 GiB) with "
				       "incompressible data before the read tests"));
	/* reads under the background writer, beside the idle QD1 figure */
	assert_true(d->under_write.present);
	assert_int_equal(d->under_write.bs, 4096);
	assert_int_equal(d->under_write.qd, 1);
	assert_int_equal(d->under_write.write_bs, 131072);
	assert_float_equal(d->under_write.write_rate_mibps, 20, 0);
	assert_true(isnan(d->under_write.trim_mibps));	/* none issued */
	assert_float_equal(d->under_write.idle_p99_us,
			   d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99], 0);
	assert_float_equal(d->under_write.p99_ratio, d->under_write.lat.v[PROFILE_LAT_P99] /
			   d->under_write.idle_p99_us, 1e-9);
	/* the paced writer: 15 MiB/s of 128 KiB writes (the trim stream had no
	 * fd), over its whole run, which includes up to 50 ms of its stop: on a
	 * 0.25 s test that is a good part, so only "near and never above" */
	assert_true(d->under_write.write_mibps > 8 && d->under_write.write_mibps < 16.5);
	/* OCP BOOT-BENCH-1's reads under the same writes */
	assert_int_equal(d->under_write.boot_bs, 32768);
	assert_int_equal(d->under_write.boot_qd, 32);
	assert_true(d->under_write.boot_iops > 0);
	/* iorate: seven steps at fixed shares of the sweep's best, open loop */
	assert_int_equal(d->n_iorate, 7);
	{
		static const double pcts[] = { 10, 25, 50, 75, 90, 100, 110 };
		double top = d->io[PROFILE_RAND_READ_QD32].iops;

		for (size_t i = 0; i < d->n_sweep; i++)
			top = d->sweep[i].iops > top ? d->sweep[i].iops : top;
		for (size_t i = 0; i < 7; i++) {
			assert_float_equal(d->iorate[i].pct, pcts[i], 0);
			assert_float_equal(d->iorate[i].offered_iops, top * pcts[i] / 100, top * 1e-9);
		}
		/* a tenth of the null engine's best is delivered as offered */
		assert_float_equal(d->iorate[0].iops, d->iorate[0].offered_iops,
				   d->iorate[0].offered_iops * 0.25);
	}
	/* the null engine leaves the read buffers as they were: no zeros */
	assert_float_equal(d->io[PROFILE_SEQ_READ].unwritten, 0, 0);
	assert_float_equal(d->lat_target.unwritten, 0, 0);
	assert_true(isnan(d->io[PROFILE_SEQ_WRITE].unwritten));	/* no reads */

	/* what the runner writes, the reader accepts */
	json = profile_write_string(p);
	assert_int_equal(profile_read_string(json, strlen(json), "run.json", &q, &diags), 0);
	assert_int_equal(diags.n, 0);
	/* the probe's settings as fields, for compare */
	assert_string_equal(d->probe.engine, "null");
	assert_float_equal(d->probe.test_seconds, 0.25, 0);
	assert_string_equal(q->devices[0].probe.engine, "null");
	assert_float_equal(q->devices[0].probe.test_seconds, 0.25, 0);
	free(json);
	profile_free(q);
	profile_free(p);
}

static void test_readonly_skips_writes(void **state)
{
	struct probe_target t = fake_target(false);
	struct probe_options o = fast_options();
	struct profile *p = profile_new();
	const struct profile_device *d;
	char err[256] = "";

	(void)state;
	o.tests = PROBE_TESTS_DEFAULT;
	assert_int_equal(probe_run(&t, &o, p, err, sizeof(err)), 0);
	d = &p->devices[0];
	assert_int_equal(d->probe.target, PROFILE_TGT_RAW_READONLY);
	assert_false(d->io[PROFILE_SEQ_WRITE].present);
	assert_false(d->io[PROFILE_MIXED_70_30].present);
	assert_false(d->sustained.present);
	assert_true(d->io[PROFILE_SEQ_READ].present);
	assert_int_equal(notes_with(d, "skipped: read-only target", NULL), 3);	/* seq_write, mixed_70_30, read_under_write */
	assert_false(d->under_write.present);
	profile_free(p);
}

/* A host-managed zoned device probed with --destructive: the reads run, no
 * random or mixed write test (nor the fill) does, and a note per test says
 * why; seq_write would run zone-sequential after a zone reset, but this
 * fake target (no block device) has no zones to report: not run, the note
 * says why, the other figures are kept.  A host-aware one runs them all. */
static void test_zoned_skips_writes(void **state)
{
	struct probe_dev zns = { .name = "nvme1n2", .transport = PROFILE_TR_NVME,
				 .zoned = { true, PROFILE_ZONED_HOST_MANAGED, 64L << 20, 1024 },
				 .temp_c = NAN, .numa_node = -1 };
	struct probe_target t = fake_target(true);
	struct probe_options o = fast_options();
	struct profile *p = profile_new();
	const struct profile_device *d;
	char err[256] = "";
	int seq = 0, random = 0;

	(void)state;
	t.dev = &zns;
	o.tests = PROBE_TESTS_DEFAULT;
	assert_int_equal(probe_run(&t, &o, p, err, sizeof(err)), 0);
	d = &p->devices[0];
	assert_false(d->io[PROFILE_SEQ_WRITE].present);
	assert_false(d->io[PROFILE_MIXED_70_30].present);
	assert_false(d->under_write.present);
	assert_true(d->io[PROFILE_SEQ_READ].present);
	assert_true(d->io[PROFILE_RAND_READ_QD1].present);
	for (size_t i = 0; i < d->n_notes; i++) {
		seq += !strncmp(d->notes[i], "seq_write: not run: host-managed zoned device: the "
				"zone report failed: ", 71) &&
		       strstr(d->notes[i], "; the other figures are kept") != NULL;
		random += strstr(d->notes[i], "skipped: host-managed zoned device: random "
				 "writes fail") != NULL;
		assert_null(strstr(d->notes[i], "fill:"));
		assert_null(strstr(d->notes[i], "read-only target"));
	}
	assert_int_equal(seq, 1);
	assert_int_equal(random, 2);	/* mixed_70_30, read_under_write */
	profile_free(p);

	zns.zoned.model = PROFILE_ZONED_HOST_AWARE;
	p = profile_new();
	assert_int_equal(probe_run(&t, &o, p, err, sizeof(err)), 0);
	assert_true(p->devices[0].io[PROFILE_SEQ_WRITE].present);
	assert_true(p->devices[0].io[PROFILE_MIXED_70_30].present);
	profile_free(p);
}

/* threads = 0: a ring that keeps the CPU busy gets a second try with more
 * rings, and a note says what was kept; mixed_70_30 after it runs on the
 * rings that trial chose, with no trial of its own. */
static void test_auto_threads(void **state)
{
	struct probe_target t = fake_target(false);
	struct probe_options o = fast_options();
	struct profile *p = profile_new();
	const struct profile_device *d;
	char err[256] = "";

	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		skip();
	o.threads = 0;
	o.busy_cores = 0.01;	/* any CPU use counts: no timing in this test */
	o.tests = 1u << PROBE_TEST_RAND_READ_QD32 | 1u << PROBE_TEST_MIXED_70_30;
	t.writable = true;
	assert_int_equal(probe_run(&t, &o, p, err, sizeof(err)), 0);
	d = &p->devices[0];
	assert_true(notes_with(d, "rand_read_qd32: one ring kept the CPU busy", NULL) > 0);
	assert_int_equal(d->io[PROFILE_RAND_READ_QD32].qd, 32);	/* the same total depth */
	assert_true(d->io[PROFILE_RAND_READ_QD32].threads >= 1);
	assert_int_equal(notes_with(d, "mixed_70_30: one ring kept the CPU busy", NULL), 0);
	assert_int_equal(notes_with(d, "mixed_70_30: on ", "rand_read_qd32"), 1);
	assert_int_equal(notes_with(d, "mixed_70_30: on one ring, 32 deep: more rings read no better in "
				    "rand_read_qd32", NULL), d->io[PROFILE_RAND_READ_QD32].threads == 1);
	assert_int_equal(d->io[PROFILE_MIXED_70_30].threads, d->io[PROFILE_RAND_READ_QD32].threads);
	assert_int_equal(d->io[PROFILE_MIXED_70_30].qd, 32);
	profile_free(p);
}

/*
 * The trial of more rings (probe_run_more_threads) ends as soon as its band lies
 * below the 5 % gain it must bring: against one ring said to read 10^12
 * IOPS, at its first band (four 0.1 s windows, past its 0.3 s least),
 * not at the ±2 % it would otherwise run to; nothing is kept.  Against one
 * ring of 1 IOPS its figure is kept, as the test's.
 */
static void test_trial_ends_below_mark(void **state)
{
	struct probe_target t = fake_target(false);
	struct probe_options o = fast_options();
	const struct probe_test_def *def = &probe_test_defs[PROBE_TEST_RAND_READ_QD32];
	struct probe_job_result one = { .iops = 1e12 };
	struct profile *p = profile_new();
	struct probe_run_state r = { .t = &t, .o = &o, .span = t.span_bytes };
	const char *note = NULL, *in;
	double secs = 0;

	(void)state;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		print_message("test_trial_ends_below_mark: skipped, one CPU\n");
		skip();
	}
	assert_non_null(p);
	o.seconds = 0;
	o.threads = 0;
	r.dev = profile_add_device(p, "null0");
	assert_non_null(r.dev);
	one.mbps = one.iops * 4096 / 1e6;
	assert_int_equal(probe_run_more_threads(&r, def, 1.0, &one), 0);
	assert_float_equal(r.trial_mark_mbps, 0, 0);	/* the trial's alone */
	assert_false(r.dev->io[PROFILE_RAND_READ_QD32].present);
	assert_int_equal(r.rings, 1);
	for (size_t i = 0; i < r.dev->n_notes; i++)
		if (strstr(r.dev->notes[i], "rand_read_qd32: one ring kept the CPU busy (1.00 cores)"))
			note = r.dev->notes[i];
	assert_non_null(note);
	assert_non_null(strstr(note, "its 95 % band below the 5 % gain it needed; one ring kept)"));
	in = strstr(note, " in ");
	assert_non_null(in);
	assert_int_equal(sscanf(in, " in %lf s", &secs), 1);
	assert_true(secs >= 0.3 && secs < 1.0);	/* the give-up would be at 1 s */

	one.iops = 1;
	one.mbps = one.iops * 4096 / 1e6;
	assert_int_equal(probe_run_more_threads(&r, def, 1.0, &one), 0);
	assert_true(r.dev->io[PROFILE_RAND_READ_QD32].present);
	assert_int_equal(r.dev->io[PROFILE_RAND_READ_QD32].qd, 32);	/* the same total depth */
	assert_true(r.dev->io[PROFILE_RAND_READ_QD32].threads >= 2);
	assert_int_equal(notes_with(r.dev, "IOPS (kept)", NULL), 1);
	assert_int_equal(r.rings, r.dev->io[PROFILE_RAND_READ_QD32].threads);	/* for mixed_70_30 */
	assert_string_equal(r.rings_by, "rand_read_qd32");
	profile_free(p);
}

static void test_tests_parse(void **state)
{
	unsigned m = 0;
	char err[64];

	(void)state;
	assert_int_equal(probe_tests_parse("seq_read,rand_read_qd1", &m, err, sizeof(err)), 0);
	assert_int_equal(m, (1u << PROBE_TEST_SEQ_READ) | (1u << PROBE_TEST_RAND_READ_QD1));
	assert_int_equal(probe_tests_parse("default", &m, err, sizeof(err)), 0);
	assert_int_equal(m, PROBE_TESTS_DEFAULT);
	assert_false(m & (1u << PROBE_TEST_SUSTAINED_WRITE));
	assert_true(m & (1u << PROBE_TEST_APP));	/* the quick profile has it */
	assert_int_equal(probe_tests_parse("app", &m, err, sizeof(err)), 0);
	assert_int_equal(m, 1u << PROBE_TEST_APP);
	assert_string_equal(probe_test_name(PROBE_TEST_APP), "app");
	assert_int_equal(probe_tests_parse("seq_read,bogus", &m, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "unknown test 'bogus'");
	assert_string_equal(probe_test_name(PROBE_TEST_QD_SWEEP), "qd_sweep");
	assert_null(probe_test_name(PROBE_TEST_COUNT));
}

/* Seconds that a run of tests takes on the null engine, 0.02 s a test;
 * every test of the mask measured. */
static double timed_run(unsigned mask, bool settle_first)
{
	struct probe_target t = fake_target(false);
	struct probe_options o = fast_options();
	struct profile *p = profile_new();
	char err[256] = "";
	uint64_t t0;
	double s;

	o.seconds = 0.02;
	o.tests = mask;
	o.settle_first = settle_first;
	t0 = tw_now_ns();
	assert_int_equal(probe_run(&t, &o, p, err, sizeof(err)), 0);
	s = (double)(tw_now_ns() - t0) / 1e9;
	if (mask & (1u << PROBE_TEST_RAND_READ_QD1))
		assert_true(p->devices[0].io[PROFILE_RAND_READ_QD1].present);
	if (mask & (1u << PROBE_TEST_SEQ_READ))
		assert_true(p->devices[0].io[PROFILE_SEQ_READ].present);
	profile_free(p);
	return s;
}

/* QD1 starts on an idle device: after the test before it, the run waits
 * 0.2 s (run.c settle()); without it two 0.02 s tests on the null engine
 * take a few milliseconds.  Only the lower bound is asserted (a loaded
 * machine may take longer, never shorter). */
static void test_settle_before_qd1(void **state)
{
	(void)state;
	assert_true(timed_run((1u << PROBE_TEST_SEQ_READ) | (1u << PROBE_TEST_RAND_READ_QD1),
			      false) >= 0.2 + 2 * 0.02);
}

/* A run whose device was busy just before it (o.settle_first: the first
 * QD1 after devices ran side by side) settles before QD1 as well. */
static void test_settle_first(void **state)
{
	(void)state;
	assert_true(timed_run(1u << PROBE_TEST_RAND_READ_QD1, true) >= 0.2 + 0.02);
}

/* Quick mode's give-up rule (run_job.c probe_run_job_for): the read tests, QD1 among
 * them, stop after a third of their cap once the band
 * is on course to stay wider than their ±2 % target at the cap (and
 * their 10,000 reads are in);
 * not seq_write (a trend), not read_under_write (its figure is the p99),
 * and never with --seconds. */
static void test_quick_give_up(void **state)
{
	struct probe_target t = fake_target(true);
	struct probe_options o = fast_options();
	struct probe_run_state r = { .t = &t, .o = &o, .span = t.span_bytes };
	struct probe_job job;

	(void)state;
	o.seconds = 0;
	o.ramp_s = -1;
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_RAND_READ_QD1], 1, &job);
	assert_float_equal(job.futile_pct, PROBE_KNOWN_PCT, 1e-9);
	assert_float_equal(job.futile_after_s, 1.0, 1e-9);
	assert_float_equal(job.max_s, 3.0, 1e-9);
	assert_int_equal(job.min_ios, 10000);
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_RAND_READ_QD32], 32, &job);
	assert_float_equal(job.futile_pct, PROBE_KNOWN_PCT, 1e-9);
	assert_float_equal(job.futile_after_s, 1.0, 1e-9);
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_SEQ_READ], 32, &job);
	assert_float_equal(job.futile_pct, PROBE_KNOWN_PCT, 1e-9);
	/* seq_write gives up too, not before 1 GiB (or the span) is written */
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_SEQ_WRITE], 32, &job);
	assert_float_equal(job.futile_pct, PROBE_KNOWN_PCT, 1e-9);
	assert_float_equal(job.futile_after_s, 1.0, 1e-9);
	assert_int_equal(job.futile_min_ios, 1024);
	assert_int_equal(job.min_ios, 0);
	r.span = 256ULL << 20;
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_SEQ_WRITE], 32, &job);
	assert_int_equal(job.futile_min_ios, 256);
	r.span = t.span_bytes;
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_SEQ_READ], 32, &job);
	assert_int_equal(job.futile_min_ios, 0);
	/* seq_write's ramp: short right after a scratch file's fill, which
	 * wrote the same file in the same shape until then */
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_SEQ_WRITE], 32, &job);
	assert_float_equal(job.ramp_s, 0.25, 1e-9);
	r.filled_first = true;
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_SEQ_WRITE], 32, &job);
	assert_float_equal(job.ramp_s, 0.03, 1e-9);
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_SEQ_READ], 32, &job);
	assert_float_equal(job.ramp_s, 0.25, 1e-9);
	r.filled_first = false;
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_READ_UNDER_WRITE], 1, &job);
	assert_float_equal(job.futile_pct, 0.0, 0);
	assert_int_equal(job.min_ios, 10000);
	/* a tail only where the p99 is judged */
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_RAND_READ_QD32], 32, &job);
	assert_int_equal(job.min_ios, 0);
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_MIXED_70_30], 32, &job);
	assert_int_equal(job.min_ios, 0);
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_QD_SWEEP], 8, &job);
	assert_int_equal(job.min_ios, 10000);
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_QD_SWEEP], 1, &job);
	assert_int_equal(job.min_ios, 10000);
	o.seconds = 2;
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_RAND_READ_QD1], 1, &job);
	assert_float_equal(job.futile_pct, 0.0, 0);
	assert_float_equal(job.min_s, 2.0, 1e-9);
	assert_float_equal(job.max_s, 2.0, 1e-9);
}

/*
 * QD32 on a slow device (the fault engine holds every read 10 ms: about
 * 3,200 IOPS at QD32) ends on its IOPS band (known, or given up on), well
 * before the 10,000 reads a sure p99 needs and its 3 s cap, and a note
 * says on how many samples its p99 rests.
 */
static void test_qd32_no_tail(void **state)
{
	struct probe_target t = fake_target(false);
	struct probe_options o = fast_options();
	struct profile *p = profile_new();
	const struct profile_io *io;
	const struct profile_device *d;

	(void)state;
	assert_non_null(p);
	o.tests = 1u << PROBE_TEST_RAND_READ_QD32;
	o.seconds = 0;
	o.ramp_s = 0.05;
	o.fault = "slow:delay=10:count=100000000";
	d = run_faulty(&t, &o, p);
	io = &d->io[PROFILE_RAND_READ_QD32];
	assert_true(io->present);
	assert_true(io->iops > 2000 && io->iops < 3300);
	assert_true(io->ios < 10000);
	assert_true(io->seconds >= 0.3 && io->seconds < 2.0);
	/* known to ±2 %; or, where the host's timers jitter (a fresh-clone CI
	 * run under ASan, where the held reads' completions come in
	 * bunches), given up at a third of its cap with its band in a note:
	 * either way a band rule ended it, not the 10,000 reads of a tail */
	assert_true(io->steady || notes_with(d, "rand_read_qd32: stopped after ",
					     "before its figure was known to ±2 %") == 1);
	assert_int_equal(notes_with(d, "rand_read_qd32: its p99 (", "samples above it (100 make "
				    "a sure tail): the test ends on its IOPS"), 1);
	profile_free(p);
}

/*
 * A blank scratch file is filled before seq_write (probe_run_fill_first): its first
 * writes allocate blocks, the filesystem's cost.  Quick mode on a 2 GiB
 * file: 1 GiB is filled (the rate is not known yet), the note says it came
 * before seq_write, and seq_write and seq_read run over that part.
 */
static void test_scratch_fill_first(void **state)
{
	struct probe_target t = fake_target(true);
	struct probe_options o = fast_options();
	struct profile *p = profile_new();
	const struct profile_device *d;
	char err[256] = "";

	(void)state;
	t.kind = PROBE_TARGET_SCRATCH;
	t.id = "scratch:/tmp";
	t.blank = true;
	t.span_bytes = 2ULL << 30;
	o.seconds = 0;
	o.tests = (1u << PROBE_TEST_SEQ_WRITE) | (1u << PROBE_TEST_SEQ_READ);
	assert_int_equal(probe_run(&t, &o, p, err, sizeof(err)), 0);
	d = &p->devices[0];
	assert_true(d->io[PROFILE_SEQ_WRITE].present);
	assert_true(d->io[PROFILE_SEQ_READ].present);
	assert_int_equal(notes_with(d, "fill: ", NULL), 1);
	assert_int_equal(notes_with(d, "fill: wrote 1.00 of the 2.00 GiB span with incompressible "
				    "data", "before seq_write and the read tests"), 1);
	profile_free(p);
}

/*
 * The fill after a seq_write that wrote less than the reads need writes on
 * from where seq_write stopped (the same incompressible data, from 0), not
 * from 0 again: on a 16 TiB null device in quick mode the note gives both
 * parts, they add up to the span the reads ran over, and the fill's part
 * is not the whole of it.
 */
static void test_fill_after_seq_write(void **state)
{
	struct probe_target t = fake_target(true);
	struct probe_options o = fast_options();
	struct profile *p = profile_new();
	const struct profile_device *d;
	double span = 0, whole = 0, first = -1, other = -1;
	char err[256] = "";
	const char *n = NULL;

	(void)state;
	t.span_bytes = 1ULL << 44;	/* past what 2 s of the null engine write */
	o.seconds = 0;
	o.tests = (1u << PROBE_TEST_SEQ_WRITE) | (1u << PROBE_TEST_RAND_READ_QD1);
	assert_int_equal(probe_run(&t, &o, p, err, sizeof(err)), 0);
	d = &p->devices[0];
	assert_true(d->io[PROFILE_SEQ_WRITE].present);
	assert_true(d->io[PROFILE_RAND_READ_QD1].present);
	assert_int_equal(notes_with(d, "fill: ", NULL), 1);
	for (size_t i = 0; i < d->n_notes; i++)
		if (!strncmp(d->notes[i], "fill: wrote ", 12))
			n = d->notes[i];
	assert_non_null(n);
	assert_int_equal(sscanf(n, "fill: wrote %lf of the %lf GiB span", &span, &whole), 2);
	assert_float_equal(whole, 16384, 0);
	assert_non_null(strstr(n, "(seq_write had written its first "));
	assert_int_equal(sscanf(strstr(n, "(seq_write had written its first "),
				"(seq_write had written its first %lf GiB, the fill the other %lf GiB)",
				&first, &other), 2);
	assert_true(first >= 1 && other > 0);	/* seq_write's least: 1 GiB */
	assert_float_equal(first + other, span, 0.011);
	profile_free(p);
}

/*
 * QD1 reads run on the CPUs that take the device's completion interrupts
 * (probe_dev.irq_cpulist), when those are some of the caller's CPUs only;
 * the other tests, and a device whose interrupts reach every CPU, are left
 * where the caller runs.  The note says where.
 */
static void test_qd1_on_irq_cpus(void **state)
{
	struct probe_dev dev = { .name = "vdz", .irq_cpulist = NULL };
	struct probe_target t = fake_target(true);
	struct probe_options o = fast_options();
	struct probe_job job;
	cpu_set_t allowed;
	char first[16], all[64];
	int c0 = -1, n = 0;

	(void)state;
	assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof(allowed), &allowed), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed) && !n++)
			c0 = c;
	if (n < 2) {
		print_message("test_qd1_on_irq_cpus: skipped, one CPU allowed\n");
		skip();
	}
	t.dev = &dev;
	o.tests = 1u << PROBE_TEST_RAND_READ_QD1 | 1u << PROBE_TEST_RAND_READ_QD32;
	snprintf(first, sizeof(first), "%d", c0);
	snprintf(all, sizeof(all), "0-%d", CPU_SETSIZE - 1);
	for (int round = 0; round < 2; round++) {
		struct profile *p = profile_new();
		struct probe_run_state r = { .t = &t, .o = &o, .span = t.span_bytes };
		const struct profile_device *d;
		char err[256] = "";

		dev.irq_cpulist = round ? all : first;
		assert_non_null(p);
		assert_int_equal(probe_run(&t, &o, p, err, sizeof(err)), 0);
		d = &p->devices[0];
		assert_true(d->io[PROFILE_RAND_READ_QD1].present);
		assert_int_equal(notes_with(d, "QD1 reads run on CPU ", "vdz's completion interrupts"),
				 round ? 0 : 1);
		profile_free(p);
		/* the jobs: QD1 random reads pinned, nothing else */
		CPU_ZERO(&r.qd1_cpus);
		if (!round)
			CPU_SET(c0, &r.qd1_cpus);
		probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_RAND_READ_QD1], 1, &job);
		assert_true(round ? job.cpus == NULL : job.cpus == &r.qd1_cpus);
		probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_RAND_READ_QD32], 32, &job);
		assert_null(job.cpus);
		probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_SEQ_READ], 1, &job);
		assert_null(job.cpus);
	}
}

/*
 * read_under_write's second part, OCP BOOT-BENCH-1's reads: quick, until
 * their IOPS are known (not the QD1 part's 10,000 reads, which would end
 * them in one or two windows, with no band), and the note
 * says how sure the figure is.
 */
static void test_boot_until_known(void **state)
{
	struct probe_target t = fake_target(true);
	struct probe_options o = fast_options();
	struct probe_run_state r = { .t = &t, .o = &o, .span = t.span_bytes };
	struct profile *p = profile_new();
	struct probe_job qd1, job;
	const struct profile_device *d;
	char err[256] = "";

	(void)state;
	o.seconds = 0;
	o.ramp_s = -1;
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_READ_UNDER_WRITE], 1, &qd1);
	assert_int_equal(qd1.max_ios, 10000);
	probe_run_boot_job(&r, &job);
	assert_int_equal(job.bs, 32768);
	assert_int_equal(job.qd, 32);
	assert_int_equal(job.max_ios, 0);
	assert_int_equal(job.min_ios, 0);
	assert_float_equal(job.known_pct, PROBE_KNOWN_PCT, 1e-9);
	assert_float_equal(job.futile_pct, PROBE_KNOWN_PCT, 1e-9);
	assert_float_equal(job.futile_after_s, 0.5, 1e-9);
	/* ten windows by then, as a give-up wants (PROBE_KNOWN_BATCHES) */
	assert_float_equal(job.window_s * PROBE_KNOWN_BATCHES, job.futile_after_s, 1e-9);
	assert_float_equal(job.min_s, 0.5, 1e-9);
	assert_float_equal(job.max_s, 1.5, 1e-9);
	assert_float_equal(job.ramp_s, 0.1, 1e-9);	/* the writes ran through QD1 */
	o.seconds = 2;	/* fixed: the QD1 part's time, no stop rule */
	probe_run_job_for(&r, &probe_test_defs[PROBE_TEST_READ_UNDER_WRITE], 1, &qd1);
	probe_run_boot_job(&r, &job);
	assert_float_equal(job.min_s, 2.0, 1e-9);
	assert_float_equal(job.max_s, 2.0, 1e-9);
	assert_float_equal(job.futile_pct, 0.0, 0);

	/* the whole test on the null engine: the band in the note */
	o.seconds = 0;
	o.ramp_s = 0;
	o.tests = 1u << PROBE_TEST_READ_UNDER_WRITE;
	assert_non_null(p);
	assert_int_equal(probe_run(&t, &o, p, err, sizeof(err)), 0);
	d = &p->devices[0];
	assert_true(d->under_write.boot_iops > 0);
	assert_int_equal(notes_with(d, "(OCP BOOT-BENCH-1): ", "% (95 % confidence"), 1);
	assert_int_equal(notes_with(d, "(OCP BOOT-BENCH-1): ", "too few windows"), 0);
	profile_free(p);
}

/*
 * A slow device's sweep (the fault engine holds every read 5 ms: 200 IOPS
 * a queue slot, 25,600 at QD 128): each depth stops at its 0.2 s cap long
 * before the 10,000 reads a sure p99 needs, and one note says on how many
 * samples each depth's p99 rests.
 */
static void test_sweep_thin_tails(void **state)
{
	struct probe_target t = fake_target(false);
	struct probe_options o = fast_options();
	struct profile *p = profile_new();
	const struct profile_device *d;

	(void)state;
	assert_non_null(p);
	o.tests = 1u << PROBE_TEST_QD_SWEEP;
	o.seconds = 0;
	o.ramp_s = 0.02;
	o.latency_target_us = 1e6;	/* no stop on the target */
	o.fault = "slow:delay=5:count=100000000";
	d = run_faulty(&t, &o, p);
	assert_int_equal(d->n_sweep, 8);
	assert_int_equal(notes_with(d, "qd_sweep: the p99 of 8 depths rests on fewer than the 100 "
				    "samples above it that make a sure tail (QD 1: 0, QD 2: ",
				    "stops at its 0.2 s cap"), 1);
	assert_int_equal(notes_with(d, "qd_sweep: the p99 of", "QD 128: "), 1);
	profile_free(p);
}

/* qd_sweep stops at the first depth past the latency target, unless
 * options.min_sweep_qd asks for more: then to the power of two at or above
 * it (200: 256), whatever the target, and a note says so. */
static void test_min_sweep_qd(void **state)
{
	struct probe_target t = fake_target(false);
	struct probe_options o = fast_options();
	struct profile *p = profile_new(), *q = profile_new();
	const struct profile_device *d;

	(void)state;
	assert_non_null(p);
	assert_non_null(q);
	o.tests = 1u << PROBE_TEST_QD_SWEEP;
	o.seconds = 0;
	o.ramp_s = 0.01;
	o.latency_target_us = 1;	/* every depth's p99 is past it */
	o.fault = "slow:delay=5:count=100000000";
	d = run_faulty(&t, &o, p);
	assert_int_equal(d->n_sweep, 1);
	assert_int_equal(notes_with(d, "qd_sweep: stopped at QD 1: its p99", "past the 1 µs"), 1);
	o.min_sweep_qd = 200;
	d = run_faulty(&t, &o, q);
	assert_int_equal(d->n_sweep, 9);
	for (size_t i = 0; i < d->n_sweep; i++)
		assert_int_equal(d->sweep[i].qd, 1L << i);
	assert_true(d->sweep[8].lat.v[PROFILE_LAT_P99] > o.latency_target_us);
	assert_int_equal(notes_with(d, "qd_sweep: to QD 200 at least, whatever the latency target",
				    NULL), 1);
	assert_int_equal(notes_with(d, "qd_sweep: stopped at QD 256: its p99", NULL), 1);
	profile_free(p);
	profile_free(q);
}

int main(void)
{
	const struct CMUnitTest cases[] = {
		cmocka_unit_test(test_writable_all_tests),
		cmocka_unit_test(test_readonly_skips_writes),
		cmocka_unit_test(test_zoned_skips_writes),
		cmocka_unit_test(test_auto_threads),
		cmocka_unit_test(test_tests_parse),
		cmocka_unit_test(test_settle_before_qd1),
		cmocka_unit_test(test_settle_first),
		cmocka_unit_test(test_quick_give_up),
		cmocka_unit_test(test_qd32_no_tail),
		cmocka_unit_test(test_scratch_fill_first),
		cmocka_unit_test(test_fill_after_seq_write),
		cmocka_unit_test(test_boot_until_known),
		cmocka_unit_test(test_qd1_on_irq_cpus),
		cmocka_unit_test(test_trial_ends_below_mark),
		cmocka_unit_test(test_sweep_thin_tails),
		cmocka_unit_test(test_min_sweep_qd),
	};
	return cmocka_run_group_tests(cases, NULL, NULL);
}
