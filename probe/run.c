/* The measurement run: the test table, and one target's tests into a profile.
 *
 * Failures of a test become notes and the other tests still run; a test
 * that stalls (I/O still in flight and none completing for the job's stall
 * time, -ETIMEDOUT from the job) skips the target's remaining tests, each
 * with a note, so that a dead device costs one test's time, not all of them.
 *
 * Test hook: options.fault (the CLI's TIERWISE_FAULT; see probe_fault_parse,
 * docs/reliability.md) puts the fault engine around the chosen engine for
 * the targets it names;
 * its counters span the whole process, and the device gets a note saying
 * its figures are not measurements.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cpulist.h"
#include "job.h"
#include "known.h"
#include "probe.h"
#include "run_int.h"
#include "sysroot.h"
#include "thermal.h"
#include "tw_util.h"
#include "zoned.h"

#define FILL_QUICK_S 60.0	/* the destructive fill's time limit, quick */
#define FILL_QUICK_RATE_S 2.0	/* quick: fill what 2 s at the seq_write rate writes … */
#define FILL_QUICK_MIN (UINT64_C(1) << 30)	/* … and 1 GiB at least: well past a
					 * drive's caches, the span the reads need */
#define FILL_FULL_S 600.0	/* and --full */
#define FILL_FIRST_QD 8u	/* the fill before seq_write: its 8 MiB of
				 * buffers are faulted in at once while the
				 * 32 MiB of the QD32 tests that follow are
				 * faulted in beside it (probe_bufcache_prefault),
				 * not before it.  Where the guest's free memory
				 * went back to the host, 32 MiB took 0.47-0.54 s
				 * on this VM and 8 MiB 0.10-0.16 s; with both at
				 * once the 32 were in by 0.36-0.46 s.  Eight
				 * 1 MiB writes keep a drive writing at its rate
				 * (fio on this VM's disk, a laid-out file:
				 * 3,234 MB/s at QD8, 3,041-3,167 at QD32; 2,391
				 * at QD8 on its first, allocating write) */
#define IORATE_QD 128u		/* iorate: most I/Os in flight */
#define KNOWN_WINDOW_S 0.1	/* quick tests: windows this short … */
#define KNOWN_WINDOW_IOS 32u	/* … with this many I/Os at least */
#define FUTILE_AFTER_MIN_S 0.5	/* quick tests give up on their ±2 % when the cap
				 * would not bring it (job_for), for tests with
				 * caps of 3 × this or more */
#define SETTLE_S 0.2		/* idle before QD1 after another test (settle()) */
#define SWEEP_RAMP_S 0.03	/* a sweep depth's ramp: the device is busy from
				 * the depth before, only the queue refills */
#define AFTER_FILL_RAMP_S SWEEP_RAMP_S	/* seq_write's right after the fill of a
				 * scratch file (fill_first), which wrote the
				 * same file sequentially in 1 MiB I/Os until
				 * then: only the queue refills (8 to 32) */

/* One row per test (run_int.h): its shape and its quick-mode time limits;
 * the composite tests (run_composite.c) read their rows from here too. */
const struct test_def tests[PROBE_TEST_COUNT] = {
	[PROBE_TEST_SEQ_READ] = { "seq_read", PROFILE_SEQ_READ, PROBE_SEQ, 100, MIB, 32, false, 0.25, 0.5, 3.0, 0, false },
	[PROBE_TEST_RAND_READ_QD1] = { "rand_read_qd1", PROFILE_RAND_READ_QD1, PROBE_RAND, 100, 4 * KIB, 1, false, 0.1, 0.5, 3.0, 0, false },
	[PROBE_TEST_RAND_READ_QD32] = { "rand_read_qd32", PROFILE_RAND_READ_QD32, PROBE_RAND, 100, 4 * KIB, 32, true, 0.2, 0.3, 3.0, 0, false },
	[PROBE_TEST_QD_SWEEP] = { "qd_sweep", -1, PROBE_RAND, 100, 4 * KIB, 0, false, SWEEP_RAMP_S, 0.1, 0.2, KNOWN_WINDOW_S / 4, false },
	[PROBE_TEST_SEQ_WRITE] = { "seq_write", PROFILE_SEQ_WRITE, PROBE_SEQ, 0, MIB, 32, false, 0.25, 0.5, 3.0, 0, false },
	[PROBE_TEST_IORATE] = { "iorate", -1, PROBE_RAND, 100, 4 * KIB, IORATE_QD, false, 0.2, 1.0, 1.0, 0, false },
	[PROBE_TEST_MIXED_70_30] = { "mixed_70_30", PROFILE_MIXED_70_30, PROBE_RAND, 70, 4 * KIB, 32, true, 0.2, 0.3, 3.0, 0, false },
	[PROBE_TEST_READ_UNDER_WRITE] = { "read_under_write", -1, PROBE_RAND, 100, 4 * KIB, 1, false, 0.5, 0.5, 4.0, 0, true },
	[PROBE_TEST_SUSTAINED_WRITE] = { "sustained_write", -1, PROBE_SEQ, 0, MIB, 32, false, 0, 30, 30, 0, false },
};

/* The process-wide counters of the fault hook: after=N spans every test and
 * every target, side by side too (the counters are atomic). */
static struct probe_fault_state fault_state;

const char *probe_test_name(enum probe_test t)
{
	return (int)t >= 0 && t < PROBE_TEST_COUNT ? tests[t].name : NULL;
}

int probe_tests_parse(const char *list, unsigned *mask, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	unsigned m = 0;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		int t;

		if (!strcmp(tok, "all")) {
			m |= PROBE_TESTS_ALL;
			continue;
		}
		if (!strcmp(tok, "default")) {
			m |= PROBE_TESTS_DEFAULT;
			continue;
		}
		for (t = 0; t < PROBE_TEST_COUNT && strcmp(tok, tests[t].name); t++)
			;
		if (t == PROBE_TEST_COUNT) {
			snprintf(err, errlen, "unknown test '%s'", tok);
			ret = -EINVAL;
		}
		m |= 1u << t;
	}
	free(copy);
	if (!ret && !m) {
		snprintf(err, errlen, "no test named in '%s'", list);
		ret = -EINVAL;
	}
	*mask = m;
	return ret;
}

static void on_window(void *arg, const struct probe_window *w)
{
	struct run *r = arg;

	if (r->sampling)
		probe_series_window(&r->ser, w->elapsed_s, w->mbps);
	if (r->o->progress) {
		struct probe_status st = { r->t->id, r->test, w->elapsed_s, r->budget_s,
					   w->iops, w->mbps, r->qd };

		r->o->progress(r->o->arg, &st);
	}
}

/*
 * Whether a quick test's p99 is one of its figures, so that it runs until
 * the p99 has PROBE_KNOWN_TAIL samples above it: QD1 random reads (the
 * vector-DB policy's tail; the reads under writes, whose figure is their
 * p99) and the sweep's depths (it stops at the latency target).  Not
 * rand_read_qd32 and mixed_70_30: their figure is their IOPS, and a disk
 * slower than 3,300 IOPS would run to its cap for a tail no policy reads
 * (since session 16; tail_note says on how many samples their p99 rests).
 */
static bool tail_judged(const struct test_def *def, unsigned qd)
{
	return def->pattern == PROBE_RAND &&
	       (qd == 1 || def->p99_only || def == &tests[PROBE_TEST_QD_SWEEP]);
}

/* The job for test def at depth qd, timed by the options. */
void job_for(const struct run *r, const struct test_def *def, unsigned qd,
	     struct probe_job *job)
{
	const struct probe_options *o = r->o;
	unsigned threads = def->threaded && o->threads > 1 ? o->threads : 1;

	memset(job, 0, sizeof(*job));
	job->fd = r->t->fd;
	job->offset = 0;
	job->length = r->span;
	job->bs = def->bs < r->t->align ? r->t->align : def->bs;
	job->align = r->t->align;
	job->threads = threads;
	job->qd = qd / threads ? qd / threads : 1;
	job->pattern = def->pattern;
	job->read_pct = def->read_pct;
	job->engine = o->engine ? probe_engine_find(o->engine) : NULL;
	job->no_fallback = o->engine != NULL;
	if (r->faulty) {
		job->engine = &probe_engine_fault;
		job->engine_opts = &r->fault;
	}
	job->ramp_s = o->ramp_s >= 0 ? o->ramp_s : def->ramp_s;
	if (def == &tests[PROBE_TEST_SEQ_WRITE] && r->filled_first && o->ramp_s < 0)
		job->ramp_s = AFTER_FILL_RAMP_S;
	job->window_s = PROBE_JOB_DEFAULT_WINDOW;
	job->seed = 0x7469657277697365ULL ^ (uint64_t)qd;	/* "tierwise" */
	job->on_window = on_window;
	job->arg = (void *)r;
	job->cancel = o->cancel;
	job->bufcache = r->bufcache;
	if (CPU_COUNT(&r->qd1_cpus) && qd == 1 && def->pattern == PROBE_RAND)
		job->cpus = &r->qd1_cpus;	/* qd1_pin */
	if (o->seconds > 0) {
		job->min_s = job->max_s = o->seconds;
	} else if (o->full) {
		job->min_s = job->max_s = 30;
	} else {
		/* quick: until the figure is known (known.h), min_s past the
		 * ramp at least, max_s at most; short windows, each of a few
		 * I/Os at least; a random test whose p99 is judged also until
		 * that p99 has PROBE_KNOWN_TAIL samples above it (tail_judged) */
		job->min_s = def->min_s;
		job->max_s = def->max_s;
		if (def->min_s < def->max_s) {
			job->known_pct = PROBE_KNOWN_PCT;
			job->window_s = def->window_s > 0 ? def->window_s : KNOWN_WINDOW_S;
			/* 1 MiB I/Os: a quarter as many (8 MiB a window), so
			 * that a 20 MB/s disk still gets the four windows of a
			 * band within its cap */
			job->win_min_ios = def->bs > 64 * KIB ? KNOWN_WINDOW_IOS / 4 : KNOWN_WINDOW_IOS;
			job->min_ios = tail_judged(def, qd) ? PROBE_KNOWN_TAIL * 100u : 0;
			if (def->p99_only)
				job->max_ios = job->min_ios;
			else if (def->max_s >= 3 * FUTILE_AFTER_MIN_S &&
				 (def->read_pct > 0 || def == &tests[PROBE_TEST_SEQ_WRITE])) {
				/* a swinging device: a third of the cap, then
				 * stop once the cap would not bring the band
				 * to ±PROBE_KNOWN_PCT (±3 % until session 16:
				 * running on from ±4 % at 1 s to about ±2.3 %
				 * at 3 s came no nearer to 20 s fio runs,
				 * docs/bench-results.md).  QD1 too since
				 * session 13: after the settle and the wait in
				 * a call of its own, QD1 stopped at 1 s read as
				 * close to 20 s fio runs as 3 s did; not before
				 * its 10,000 reads (min_ios): a disk of 3,300
				 * IOPS or less runs to its cap.  seq_write too
				 * since session 15, but not before it wrote
				 * what the reads need (fill_bytes' least: 1 GiB,
				 * or the span), so that no fill follows it */
				job->futile_pct = PROBE_KNOWN_PCT;
				job->futile_after_s = fmax(def->min_s, def->max_s / 3);
				if (def == &tests[PROBE_TEST_SEQ_WRITE])
					job->futile_min_ios = (r->span < FILL_QUICK_MIN ? r->span
										: FILL_QUICK_MIN) / def->bs;
			}
		}
	}
	if (r->zone.bytes && def->read_pct == 0 && def->pattern == PROBE_SEQ) {
		job->zone = r->zone;	/* zone-sequential: in order, each zone once */
		job->ramp_s = 0;
		job->threads = 1;
		job->qd = r->zone.par;
		job->max_ios = probe_zone_ios(&r->zone, job->bs);
	}
}

void lat_from_hist(const struct probe_hist *h, struct profile_lat *lat)
{
	struct probe_lat_summary s;

	*lat = profile_lat_none();
	if (probe_hist_summary(h, &s) < 0)
		return;
	lat->v[PROFILE_LAT_MEAN] = s.mean;
	lat->v[PROFILE_LAT_P50] = s.p50;
	lat->v[PROFILE_LAT_P90] = s.p90;
	lat->v[PROFILE_LAT_P99] = s.p99;
	lat->v[PROFILE_LAT_P999] = s.p999;
	lat->v[PROFILE_LAT_MAX] = s.max;
	for (int f = 0; f < PROFILE_LAT_COUNT; f++)
		if (!(lat->v[f] > 0))	/* below 1 ns: the null engine, not a device */
			lat->v[f] = NAN;
}

/*
 * Notes every run result may carry: the engine's setup (when it differs
 * from the last one noted for this device: flags, fixed file and buffers,
 * for whoever compares profiles), engine fallback.  Zero reads are added
 * up per test (every depth of the sweep, every retry): see zero_note().
 */
static void job_notes(struct run *r, const struct test_def *def,
		      const struct probe_job_result *res)
{
	if (res->engine_desc[0] && strcmp(res->engine_desc, r->engine)) {
		profile_device_add_notef(r->dev, "engine: %s", res->engine_desc);
		snprintf(r->engine, sizeof(r->engine), "%s", res->engine_desc);
	}
	if (res->engine[0] && !r->dev->probe.engine)	/* the setting, for compare */
		r->dev->probe.engine = strdup(res->engine);
	if (res->notice[0] && !r->noticed) {
		profile_device_add_notef(r->dev, "%s", res->notice);
		r->noticed = true;
	}
	r->zero_samples += res->zero_samples;
	r->zero_reads += res->zero_reads;
	(void)def;
}

/*
 * After a test that read: the share of its sampled reads that returned
 * only zeros into *share (NAN when none was sampled), and one note when it
 * is PROFILE_UNWRITTEN_MIN or more: what it means for this device, and
 * how to get a real figure.
 */
static void zero_note(struct run *r, const char *test, double *share)
{
	const unsigned long long n = r->zero_samples, z = r->zero_reads;

	*share = n ? (double)z / (double)n : NAN;
	if (!n || !(*share >= PROFILE_UNWRITTEN_MIN))
		return;
	if (!profile_unwritten(r->dev, *share))
		profile_device_add_notef(r->dev, "%s: %llu of %llu sampled reads returned only zeros (blocks never "
		     "written): a hard disk reads them from the platter all the same, so the "
		     "figures count", test, z, n);
	else
		profile_device_add_notef(r->dev, "%s: %llu of %llu sampled reads returned only zeros (never-written "
		     "or trimmed blocks, which can skip the media): kept as unwritten %.2f, "
		     "scored as missing; for a real figure probe with --destructive (the "
		     "span is written first) or a scratch file on a filesystem holding data",
		     test, z, n, *share);
}

/*
 * What a job's return ret means for the run: failures become notes.
 * Returns 0, -ECANCELED or -EIO.
 */
int job_outcome(struct run *r, const struct test_def *def, int ret,
		const struct probe_job_result *res)
{
	job_notes(r, def, res);
	if (ret == -ECANCELED)
		return ret;
	if (ret == -ETIMEDOUT)
		r->stalled = true;
	if (ret == 0 && !res->ios) {	/* nothing measured is a failure, not a 0 */
		profile_device_add_notef(r->dev, "%s: failed: no I/O completed in %.1f s (the device stalled)",
		     def->name, res->seconds);
		r->failures++;
		return -EIO;
	}
	if (ret < 0) {
		profile_device_add_notef(r->dev, "%s: failed: %s", def->name, res->errmsg[0] ? res->errmsg : strerror(-ret));
		r->failures++;
		return -EIO;
	}
	return 0;
}

/* Run one job; failures become notes.  Returns 0, -ECANCELED or -EIO. */
int run_job(struct run *r, const struct test_def *def, const struct probe_job *job,
	    struct probe_job_result *res)
{
	struct probe_job zj;

	if (job->zone.bytes && job->max_ios > probe_zone_ios(&job->zone, job->bs)) {
		zj = *job;	/* each zone written once at most */
		zj.max_ios = probe_zone_ios(&job->zone, job->bs);
		job = &zj;
	}
	r->test = def->name;
	r->budget_s = job->max_s;
	r->qd = job->qd * (job->threads ? job->threads : 1);	/* for the progress line */
	return job_outcome(r, def, probe_job_run(job, res), res);
}

static const char *label_for(double seconds)
{
	return seconds >= 30 ? "sustained" : "burst, fresh";
}

static void fill_io(struct profile_io *io, const struct test_def *def,
		    const struct probe_job *job, const struct probe_job_result *res)
{
	io->present = true;
	io->bs = job->bs;
	io->qd = (long)job->qd * job->threads;
	io->iops = res->iops;
	io->mbps = res->mbps;
	if (def->read_pct > 0 && def->read_pct < 100) {
		io->read_iops = res->read_ios / res->seconds;
		io->write_iops = res->write_ios / res->seconds;
	}
	lat_from_hist(&res->lat, &io->lat);
	io->seconds = res->seconds;
	io->ios = (int64_t)res->ios;
	if (job->known_pct > 0) {	/* the band: known (1) or not (0) within it */
		io->steady = isfinite(res->known_pct) ? res->known : -1;
		io->spread_pct = isfinite(res->known_pct) ? res->known_pct : NAN;
	} else {
		io->steady = res->n_windows >= 5 ? res->steady : -1;
		io->spread_pct = res->n_windows >= 5 ? res->spread_pct : NAN;
	}
	io->threads = job->threads;
	free(io->label);
	io->label = strdup(label_for(res->seconds));
}

/* The trial of more rings (more_threads) stops as soon as it cannot beat
 * one ring by MORE_THREADS_GAIN: its band (known.h) wholly below that mark,
 * r->trial_mark_mbps; its figure is then not the test's. */
static bool trial_cannot_pass(void *arg, const double *win_mbps, const double *win_s, size_t n)
{
	const struct run *r = arg;

	return probe_known_below_w(win_mbps, win_s, n, r->trial_mark_mbps);
}

/*
 * The contract is in run_int.h.  The early end of the trial
 * (trial_cannot_pass): on this project's VM the scratch file's trial of
 * two rings lost in 4 of 4 runs one hour and 5 of 16 the next (session
 * 19); a lost trial ran 1.2-1.4 s of a 9-10 s profile, to its give-up,
 * for a figure then dropped; with the rule 4 of those 5 ended at 0.4 s,
 * the fifth at 0.9 s.
 */
int more_threads(struct run *r, const struct test_def *def, double busy,
		 const struct probe_job_result *one)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = cpus >= 4 ? 4 : cpus >= 2 ? 2 : 1;	/* a share of the depth each:
								 * 3 rings of 10 would be 30 */
	struct profile_io *io = &r->dev->io[def->slot];
	struct probe_job_result res;
	struct probe_job job;
	char band[32], verdict[128];
	int ret;

	job_for(r, def, def->qd, &job);
	job.threads = n;
	job.qd = def->qd / n;
	if (job.known_pct > 0) {
		r->trial_mark_mbps = one->mbps * (1.0 + MORE_THREADS_GAIN);
		job.stop_when = trial_cannot_pass;
	}
	ret = run_job(r, def, &job, &res);
	r->trial_mark_mbps = 0;
	if (ret == 0 && res.ios) {
		bool better = res.iops > one->iops * (1.0 + MORE_THREADS_GAIN);

		if (better)
			snprintf(verdict, sizeof(verdict), "kept");
		else if (res.stopped_when) {
			band_text(&res, band, sizeof(band));
			snprintf(verdict, sizeof(verdict), "not better: %s in %.1f s, its 95 %% band below the "
				 "%.0f %% gain it needed; one ring kept", band, res.seconds,
				 MORE_THREADS_GAIN * 100);
		} else
			snprintf(verdict, sizeof(verdict), "not better, one ring kept");
		profile_device_add_notef(r->dev, "%s: one ring kept the CPU busy (%.2f cores) at %.0f IOPS; with %u "
		     "rings: %.0f IOPS (%s)", def->name, busy, one->iops, n, res.iops, verdict);
		if (better)
			fill_io(io, def, &job, &res);
		r->rings = better ? n : 1;
		r->rings_by = def->name;
	}
	probe_job_result_free(&res);
	return ret == -ECANCELED ? ret : 0;
}

void band_text(const struct probe_job_result *res, char *buf, size_t len)
{
	if (isfinite(res->known_pct))
		snprintf(buf, len, "±%.1f %%", res->known_pct);
	else
		snprintf(buf, len, "too few windows for a band");
}

/*
 * A quick test that reached its cap before its figure was known (a slow
 * disk never narrows its band): how sure the figure is, in a note.
 */
static void band_note(struct run *r, const struct test_def *def, const struct probe_job *job,
		      const struct probe_job_result *res)
{
	char band[32];

	if (!(job->known_pct > 0) || res->known || res->cancelled)
		return;
	band_text(res, band, sizeof(band));
	if (job->zone.bytes && res->ios >= job->max_ios) {
		profile_device_add_notef(r->dev, "%s: stopped when its %llu zones were written, "
					 "before its figure was known to ±%.0f %%: %s (95 %% "
					 "confidence) over %llu I/Os", def->name,
					 (unsigned long long)job->zone.n, job->known_pct, band,
					 (unsigned long long)res->ios);
		return;
	}
	if (res->futile) {
		profile_device_add_notef(r->dev, "%s: stopped after %.1f s, before its figure was known "
					 "to ±%.0f %%: %s (95 %% confidence) over %llu I/Os, on course "
					 "for about ±%.1f %% at its %.1f s cap (the device's rate swings "
					 "more than the rest of the cap would average out)", def->name,
					 res->seconds, job->known_pct, band, (unsigned long long)res->ios,
					 probe_known_projected(res->known_pct, res->seconds, job->max_s),
					 job->max_s);
		return;
	}
	profile_device_add_notef(r->dev, "%s: stopped at its %.1f s cap before its figure was known "
				 "to ±%.0f %%: %s (95 %% confidence) over %llu I/Os%s", def->name,
				 job->max_s, job->known_pct, band, (unsigned long long)res->ios,
				 res->ios < job->min_ios ? ", fewer than a p99 needs" : "");
}

/* A quick random test that did not wait for its tail (tail_judged) and
 * stopped with fewer than PROBE_KNOWN_TAIL samples above its p99: on how
 * many that p99 rests, in a note. */
static void tail_note(struct run *r, const struct test_def *def, const struct probe_job *job,
		      const struct probe_job_result *res)
{
	const double p99 = r->dev->io[def->slot].lat.v[PROFILE_LAT_P99];

	if (def->pattern != PROBE_RAND || !(job->known_pct > 0) || job->min_ios ||
	    res->ios / 100 >= PROBE_KNOWN_TAIL || res->cancelled)
		return;
	profile_device_add_notef(r->dev, "%s: its p99 (%.0f µs) rests on %llu samples above it "
				 "(%u make a sure tail): the test ends on its IOPS, %llu I/Os in "
				 "%.1f s", def->name, p99, (unsigned long long)res->ios / 100,
				 PROBE_KNOWN_TAIL, (unsigned long long)res->ios, res->seconds);
}

static int io_test(struct run *r, enum probe_test t)
{
	const struct test_def *def = &tests[t];
	struct probe_job_result res;
	struct probe_job job;
	double busy;
	bool carried;
	int ret;

	job_for(r, def, def->qd, &job);
	carried = def->threaded && r->rings && job.threads == 1 && !r->o->threads;
	if (carried) {
		/* the rings an earlier test's trial chose (more_threads): the
		 * same block size and depth, the same CPU cost per I/O */
		job.threads = r->rings;
		job.qd = def->qd / r->rings;
	}
	ret = run_job(r, def, &job, &res);
	if (carried && ret == 0 && res.ios) {
		if (r->rings > 1)
			profile_device_add_notef(r->dev, "%s: on %u rings, %u deep each, as the trial of "
						 "%s chose", def->name, r->rings, job.qd, r->rings_by);
		else
			profile_device_add_notef(r->dev, "%s: on one ring, %u deep: more rings read no "
						 "better in %s", def->name, job.qd, r->rings_by);
	}
	busy = res.busy_cores;	/* this job's threads only, not its neighbours' */
	if (ret == 0 && t == PROBE_TEST_SEQ_WRITE && job.threads == 1) {
		/* one thread writes on from 0, wrapping at the span's end */
		uint64_t w = res.all_ios * (uint64_t)job.bs;

		r->seq_written = w < r->span ? w - w % MIB : r->span;
	}
	if (ret == 0 && res.ios) {
		fill_io(&r->dev->io[def->slot], def, &job, &res);
		band_note(r, def, &job, &res);
		tail_note(r, def, &job, &res);
		if (def->threaded && !r->o->threads && !carried &&
		    busy >= (r->o->busy_cores > 0 ? r->o->busy_cores : 0.9) &&
		    sysconf(_SC_NPROCESSORS_ONLN) > 1)
			ret = more_threads(r, def, busy, &res);
	}
	probe_job_result_free(&res);
	return ret;
}

/*
 * Whether r writes to a host-managed zoned device itself (a raw target, not
 * a file on its filesystem): writes there must be zone-sequential after a
 * zone reset, so only the sequential write tests run (zoned_write_test).
 */
static bool zoned_raw(const struct run *r)
{
	return r->t->kind != PROBE_TARGET_SCRATCH && probe_dev_host_managed(r->t->dev);
}

/* Whether write test t runs on a host-managed zoned device: the
 * sequential ones, as zone-sequential writes (zoned_write_test). */
static bool zoned_runs(enum probe_test t)
{
	return t == PROBE_TEST_SEQ_WRITE || t == PROBE_TEST_SUSTAINED_WRITE;
}

/* A zone limit of r's device from sysfs (queue/max_open_zones, …); 0 =
 * none or unknown. */
static unsigned zone_limit(const struct run *r, const char *attr)
{
	char *v = r->t->dev && r->t->dev->name ?
		probe_sys_str(r->o->sysroot, "sys/block/%s/queue/%s", r->t->dev->name, attr) : NULL;
	unsigned long n = v ? strtoul(v, NULL, 10) : 0;

	free(v);
	return n > 4096 ? 4096 : (unsigned)n;
}

/*
 * Sequential write test t on a host-managed zoned device (--destructive):
 * its zones reset, then written in order (zoned.h, job.h's zone map).  A
 * refused reset or no usable zone: the test is not run, a note says why,
 * the other figures stay.  Returns what the test returns, 0 when not run.
 */
static int zoned_write_test(struct run *r, enum probe_test t)
{
	const struct test_def *def = &tests[t];
	char why[200];
	int ret = probe_zones_prepare(r->t->fd, r->span, def->bs, def->qd,
				      zone_limit(r, "max_open_zones"),
				      zone_limit(r, "max_active_zones"), &r->zone, why, sizeof(why));

	if (ret == -ENOMEM)
		return ret;
	if (ret < 0)
		return profile_device_add_notef(r->dev, "%s: not run: host-managed zoned device: %s; "
						"the other figures are kept", def->name, why) < 0 ?
			-ENOMEM : 0;
	if (profile_device_add_notef(r->dev, "%s: zone-sequential writes after a zone reset: %llu "
				     "zones of %llu MiB from %llu MiB, each written to %llu MiB, "
				     "%u at once", def->name, (unsigned long long)r->zone.n,
				     (unsigned long long)(r->zone.bytes >> 20),
				     (unsigned long long)(r->zone.base >> 20),
				     (unsigned long long)(r->zone.cap >> 20), r->zone.par) < 0)
		ret = -ENOMEM;
	else
		ret = t == PROBE_TEST_SUSTAINED_WRITE ? sustained_test(r) : io_test(r, t);
	memset(&r->zone, 0, sizeof(r->zone));
	return ret;
}

/* Why a write test other than the sequential ones does not run on a
 * host-managed zoned device. */
#define ZONED_WHY "random writes fail on it (writes must be zone-sequential), so no " \
		  "random-write or mixed test runs"

/*
 * The heaviest test that runs carries the thermal series: the sustained
 * write, else the sequential write (quick mode), else the sequential read
 * (read-only targets).
 */
static int thermal_test(const struct run *r, unsigned mask)
{
	static const enum probe_test order[] = { PROBE_TEST_SUSTAINED_WRITE,
		PROBE_TEST_SEQ_WRITE, PROBE_TEST_SEQ_READ };

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if ((mask & (1u << order[i])) &&
		    (tests[order[i]].read_pct == 100 || r->t->writable))
			return order[i];
	return -1;
}

/* Where the series goes once its test is over. */
static void keep_series(struct run *r, enum probe_test t)
{
	struct profile_sustained *su = &r->dev->sustained;
	size_t n;
	struct profile_point *pts = probe_series_take(&r->ser, &n);

	if (t == PROBE_TEST_SUSTAINED_WRITE) {
		sustained_from_series(su, pts, n);
	} else if (t == PROBE_TEST_SEQ_WRITE && !(n && r->dev->io[PROFILE_SEQ_WRITE].present)) {
		free(pts);	/* seq_write failed: no series of a result */
	} else if (t == PROBE_TEST_SEQ_WRITE) {
		su->present = true;
		su->seconds = r->dev->io[PROFILE_SEQ_WRITE].seconds;
		su->series = pts;
		su->n_series = n;
		profile_device_add_notef(r->dev, "sustained_write: only the 1 Hz series of seq_write (a short "
		     "burst); no sustained write was run (--tests all or --full)");
	} else {
		free(pts);
		if (!isnan(r->dev->thermal.load_c))
			profile_device_add_notef(r->dev, "thermal: load_c is the peak under seq_read "
			     "(read-only target: no write test ran)");
	}
}

static double test_budget(const struct run *r, enum probe_test t)
{
	if (t == PROBE_TEST_SUSTAINED_WRITE)
		return sustained_seconds(r);
	if (r->o->seconds > 0)
		return r->o->seconds;
	return r->o->full ? 30 : tests[t].max_s;
}

static int run_one(struct run *r, enum probe_test t)
{
	if (t == PROBE_TEST_QD_SWEEP)
		return sweep_test(r);
	if (t == PROBE_TEST_SUSTAINED_WRITE)
		return sustained_test(r);
	if (t == PROBE_TEST_IORATE)
		return iorate_test(r);
	if (t == PROBE_TEST_READ_UNDER_WRITE)
		return uw_test(r);
	return io_test(r, t);
}

static bool is_write_test(enum probe_test t)
{
	return tests[t].read_pct < 100 || t == PROBE_TEST_READ_UNDER_WRITE;
}

/* Record the zero-read share of test t where its figures are. */
static void keep_unwritten(struct run *r, enum probe_test t)
{
	double share;

	if (!tests[t].read_pct)
		return;
	zero_note(r, tests[t].name, &share);
	if (tests[t].slot >= 0 && r->dev->io[tests[t].slot].present)
		r->dev->io[tests[t].slot].unwritten = share;
	else if (t == PROBE_TEST_QD_SWEEP && r->dev->lat_target.present)
		r->dev->lat_target.unwritten = share;
	else if (t == PROBE_TEST_READ_UNDER_WRITE && r->dev->under_write.present)
		r->dev->under_write.unwritten = share;
}

/* Whether the fill applies: a test that reads, and a blank scratch file (its
 * filesystem returns zeros for unwritten blocks without reading the disk,
 * whatever the disk), or a raw device probed with --destructive, not a
 * hard disk nor a host-managed zoned device. */
static bool wants_fill(const struct run *r, unsigned mask)
{
	bool reads = false;

	for (int t = 0; t < PROBE_TEST_COUNT; t++)
		reads |= (mask & (1u << t)) && tests[t].read_pct > 0;
	if (!reads || !r->t->writable || r->t->span_bytes < MIB)
		return false;
	if (r->t->kind == PROBE_TARGET_SCRATCH)
		return r->t->blank;
	return !zoned_raw(r) && r->dev->media != PROFILE_MEDIA_HDD;
}

/*
 * Whether the fill goes before test t, a write: on a blank scratch file,
 * before seq_write.  A file's first writes also allocate its blocks (the
 * filesystem converts its reserved, unwritten extents), which is the
 * filesystem's cost, not the disk's, and fio, which lays its file out
 * first, does not measure it: on this VM's ext4 a fresh 1 GiB file wrote
 * 2.1-2.6 GiB/s for its first 0.3 s, then 3.5-3.9, rewritten 3.3-3.9 from
 * the start.  Measured over that slow start, seq_write's band stayed wide
 * and it ran to its 3 s cap.
 */
static bool fill_first(const struct run *r, enum probe_test t)
{
	return t == PROBE_TEST_SEQ_WRITE && r->t->kind == PROBE_TARGET_SCRATCH;
}

/* The bytes the destructive fill writes (see fill_span()). */
static uint64_t fill_bytes(const struct run *r)
{
	const struct profile_io *wr = &r->dev->io[PROFILE_SEQ_WRITE];
	double rate = wr->present && wr->mbps > 0 ? wr->mbps * 1e6 : 0.0;
	uint64_t want = (uint64_t)(rate * FILL_QUICK_RATE_S);

	if (r->o->full || r->o->seconds > 0)
		return r->span;
	want = want > FILL_QUICK_MIN ? want : FILL_QUICK_MIN;
	want -= want % MIB;
	return want < r->span ? want : r->span;
}

/*
 * Whether seq_write, which ran before, already wrote what the fill would
 * (want bytes from 0, with the same incompressible data): then the fill is
 * not run again, the reads run over what seq_write wrote, and a note says
 * so.  Saves a fill's time (a second on a fast 2 GiB device).
 */
static bool fill_done_by_seq_write(struct run *r, uint64_t want)
{
	const uint64_t span = r->span, w = r->seq_written;

	if (!w || w < want)
		return false;
	if (w >= span) {
		profile_device_add_notef(r->dev, "fill: seq_write wrote the whole span (%.2f GiB) with "
		     "incompressible data before the read tests (sequential 1 MiB writes from its start): "
		     "no fill needed", span / 1073741824.0);
		return true;
	}
	r->span = w;
	profile_device_add_notef(r->dev, "fill: seq_write wrote %.2f of the %.2f GiB span with "
	     "incompressible data before the read tests, which ran over that part: no fill needed "
	     "(the reads need %.0f s at its rate, 1 GiB at least); --full fills it all",
	     w / 1073741824.0, span / 1073741824.0, FILL_QUICK_RATE_S);
	return true;
}

/*
 * Write the span with incompressible data (sequential 1 MiB at QD32, the
 * seq_write shape; at QD FILL_FIRST_QD when first, while the buffers of
 * the QD32 tests are faulted in beside it) before the first test that
 * reads, so that reads come from the media, not from never-written
 * blocks.  Quick mode fills only what the reads need (fill_bytes(): 2 s
 * at the seq_write rate, 1 GiB at least)
 * and the tests run over that; --full and --seconds fill the whole span.
 * Nothing is written when seq_write already wrote that much
 * (fill_done_by_seq_write()); when it wrote less, from 0 with the same
 * data, the fill writes on from where it stopped, and the note says so
 * (on this project's VM a 2 GiB zram after a 1.3 s seq_write: about a
 * second less).  At most FILL_QUICK_S (FILL_FULL_S with
 * --full): when that is not enough, the tests run over the part written.
 * first: the fill runs before seq_write (fill_first()), and its note says
 * so.  Returns 0, -ECANCELED or -EIO (a note says why).
 */
static int fill_span(struct run *r, bool first)
{
	static const struct test_def def = { "fill", -1, PROBE_SEQ, 0, MIB, 32, false,
					     0, 0, FILL_QUICK_S, 0, false };
	const uint64_t span = r->span, want = fill_bytes(r);
	uint64_t from;
	const char *before = first ? "seq_write and the read tests" : "the read tests";
	char why[192], rest[160] = "";
	struct probe_job_result res;
	struct probe_job job;
	int ret;

	if (fill_done_by_seq_write(r, want))
		return 0;
	from = r->seq_written;	/* what seq_write wrote from 0: less than want */
	job_for(r, &def, def.qd, &job);
	if (first && r->bufcache && !r->o->full && !(r->o->seconds > 0) &&
	    probe_bufcache_prefault(r->bufcache, (uint64_t)tests[PROBE_TEST_SEQ_WRITE].qd * MIB) == 0)
		job.qd = FILL_FIRST_QD;	/* quick: a fill of seconds, not minutes */
	job.ramp_s = 0;
	job.min_s = job.max_s = r->o->full ? FILL_FULL_S : FILL_QUICK_S;
	job.stop_on_steady = false;
	job.known_pct = 0;
	job.offset = from;	/* MIB-aligned (seq_written) */
	job.length = span - from;
	job.max_ios = (want - from) / MIB;
	ret = run_job(r, &def, &job, &res);
	if (ret == 0 && from) {	/* res is read only on success */
		/* GiB as in the other notes; both in MiB when the fill's part
		 * (res.bytes: max_ios caps it) is under a tenth of one, not
		 * "the other 0.00 GiB" */
		const bool mib = res.bytes < 1073741824 / 10;
		const double unit = mib ? 1048576.0 : 1073741824.0;
		const char *name = mib ? "MiB" : "GiB";

		snprintf(rest, sizeof(rest), " (seq_write had written its first %.*f %s, the fill "
			 "the other %.*f %s)", mib ? 0 : 2, from / unit, name, mib ? 0 : 2,
			 res.bytes / unit, name);
	}
	if (first)
		snprintf(why, sizeof(why), "a blank file's first writes also allocate its blocks (the "
			 "filesystem's cost, not the disk's), and the reads need a span well past the "
			 "drive's caches (1 GiB at least)");
	else
		snprintf(why, sizeof(why), "the reads need a span well past the drive's caches (%.0f s "
			 "at its sequential write rate, 1 GiB at least), not all of it", FILL_QUICK_RATE_S);
	if (ret == 0 && want < span && res.bytes >= job.max_ios * MIB) {
		r->span = from + job.max_ios * MIB;
		profile_device_add_notef(r->dev, "fill: wrote %.2f of the %.2f GiB span with incompressible "
		     "data in %.1f s (%.0f MB/s) before %s, which ran over that part%s: %s; --full fills it all",
		     r->span / 1073741824.0, span / 1073741824.0, res.seconds, res.mbps, before, rest, why);
	} else if (ret == 0 && res.bytes >= job.max_ios * MIB) {
		profile_device_add_notef(r->dev, "fill: wrote the whole span (%.2f GiB) with incompressible data "
		     "in %.1f s (%.0f MB/s) before %s%s", span / 1073741824.0, res.seconds, res.mbps, before,
		     rest);
	} else if (ret == 0) {
		r->span = from + res.bytes - res.bytes % r->t->align;
		profile_device_add_notef(r->dev, "fill: wrote %.2f of %.2f GiB in the %.0f s allowed (%.0f MB/s)%s; "
		     "the tests ran over that part", r->span / 1073741824.0,
		     span / 1073741824.0, job.max_s, res.mbps, rest);
	}
	probe_job_result_free(&res);
	return ret;
}

/*
 * Leave the device idle for SETTLE_S (less when cancelled): run_tests()
 * calls it before QD1 when a test (or the fill) ran before it in this run,
 * or when o->settle_first says the device was busy just before the run (the
 * first solo QD1 after a side-by-side phase), so that the latency test
 * starts on an idle device.  A burst leaves work behind that a QD1 test
 * right after it would measure instead of the device: an SSD's flush of its SLC
 * cache and garbage collection, and the kernel's own.  Measured on a loop
 * device over tmpfs on this 2-vCPU virtual machine, where the loop worker,
 * busy on the other vCPU during the burst, stays there and each read then
 * pays two cross-vCPU wake-ups: QD1 right after seq_write read at a p50 of
 * 43-62 µs in 3 of 4 runs (fio right after: 4.3 µs), 4.4-5.0 µs in 4 of 4
 * after 200 ms idle (50 ms: 0 of 4, 100 ms: 3 of 4); the whole writable
 * quick profile 4 of 4 (was 1 of 3); read-only, after seq_read, 2 of 4
 * (was 0 of 4): the mode is the guest scheduler's, drawn per run, and the
 * settle makes the fast one likelier, not certain (docs/probe.md).
 */
static void settle(const struct run *r)
{
	const uint64_t end = tw_now_ns() + (uint64_t)(SETTLE_S * 1e9);
	const struct timespec step = { 0, 20000000L };	/* polls cancel */

	while (tw_now_ns() < end && !(r->o->cancel && *r->o->cancel))
		nanosleep(&step, NULL);
}

static int run_tests(struct run *r, unsigned mask)
{
	int hot = thermal_test(r, mask);
	bool fill = wants_fill(r, mask);
	bool ran = r->o->settle_first;	/* a job ran (a test, the fill; or before
					 * this run): settle() before QD1 */
	int ret = 0;

	for (int t = 0; t < PROBE_TEST_COUNT && ret != -ECANCELED && ret != -ENOMEM; t++) {
		if (!(mask & (1u << t)))
			continue;
		if (is_write_test(t) && !r->t->writable) {
			profile_device_add_notef(r->dev, "%s: skipped: read-only target (give a directory for a "
			     "scratch file, or --destructive for an unused device)", tests[t].name);
			continue;
		}
		if (is_write_test(t) && zoned_raw(r) && !zoned_runs(t)) {
			profile_device_add_notef(r->dev, "%s: skipped: host-managed zoned device: %s",
			     tests[t].name, ZONED_WHY);
			continue;
		}
		/* the fill comes right before the first test that reads: the
		 * seq_write burst before it still finds the drive as it was;
		 * on a blank scratch file before seq_write (fill_first()) */
		if (fill && (tests[t].read_pct > 0 || fill_first(r, t)) && !r->stalled) {
			fill = false;
			if ((ret = fill_span(r, fill_first(r, t))) == -ECANCELED)
				break;
			r->filled_first = ret == 0 && fill_first(r, t);
			ret = 0;	/* a failed fill is noted; the tests still run */
			ran = true;
		}
		if (r->stalled) {
			profile_device_add_notef(r->dev, "%s: skipped: the device stalled in an earlier test",
			     tests[t].name);
			r->failures++;
			continue;
		}
		if (ran && t == PROBE_TEST_RAND_READ_QD1)
			settle(r);
		r->sampling = t == hot &&
			probe_series_begin(&r->ser, (size_t)test_budget(r, t) + 3) == 0;
		r->zero_samples = r->zero_reads = 0;
		ret = is_write_test(t) && zoned_raw(r) ? zoned_write_test(r, t) : run_one(r, t);
		ran = true;
		keep_unwritten(r, t);
		if (r->sampling) {
			probe_series_end(&r->ser, r->dev);
			keep_series(r, t);
		}
		r->sampling = false;
	}
	return ret;
}

/* A model name for devices without one (virtio, md, loop, zram). */
static char *model_of(const struct probe_dev *d)
{
	char *m = NULL;

	if (d->model)
		return strdup(d->model);
	if (d->md_level && asprintf(&m, "md %s", d->md_level) >= 0)
		return m;
	if (d->dm_name && asprintf(&m, "dm %s", d->dm_name) >= 0)
		return m;
	if (asprintf(&m, "%s device", profile_transport_name(d->transport)) >= 0)
		return m;
	return NULL;
}

static int64_t fs_size(const char *dir)
{
	struct statvfs v;

	return statvfs(dir, &v) == 0 ? (int64_t)v.f_blocks * (int64_t)v.f_frsize : -1;
}

/* Identity of the profile device from the target and the inventory. */
static int device_facts(const struct probe_target *t, const struct probe_options *o,
			struct profile_device *d)
{
	const struct probe_dev *x = t->dev;
	bool scratch = t->kind == PROBE_TARGET_SCRATCH;

	d->path = strdup(scratch ? t->id + strlen("scratch:") : t->path);
	d->model = x ? model_of(x) : strdup("file");
	d->serial = x && x->serial ? strdup(x->serial) : NULL;
	d->firmware = x && x->firmware ? strdup(x->firmware) : NULL;
	d->transport = scratch ? PROFILE_TR_FILE : x ? x->transport : PROFILE_TR_OTHER;
	d->media = x ? x->media : PROFILE_MEDIA_UNKNOWN;
	d->rotational = x ? x->rotational : false;
	d->capacity_bytes = scratch ? fs_size(d->path) : (int64_t)t->span_bytes;
	d->probe.mode = o->full ? PROFILE_MODE_FULL : PROFILE_MODE_QUICK;
	d->probe.test_seconds = o->seconds > 0 ? o->seconds : NAN;	/* for compare */
	d->probe.target = scratch ? PROFILE_TGT_SCRATCH_FILE :
		t->writable ? PROFILE_TGT_RAW_DESTRUCTIVE : PROFILE_TGT_RAW_READONLY;
	if (!d->path || !d->model || (x && probe_pcie_to_link(&x->pcie, &d->link) < 0))
		return -ENOMEM;
	if (scratch)
		return profile_device_add_notef(d, "scratch file of %.1f GiB on %s%s%s", t->span_bytes / 1073741824.0,
			    d->path, x ? ", disk " : "", x ? x->name : "");
	return 0;
}

/*
 * Whether the fault hook (options.fault) applies to t: fills r->fault and notes it on the
 * device.  Returns 0, -EINVAL (a bad spec, message in err) or -ENOMEM.
 */
static int fault_hook(struct run *r, char *err, size_t errlen)
{
	const char *spec = r->o->fault;
	char why[128];

	if (!spec || !*spec)
		return 0;
	if (probe_fault_parse(spec, &r->fault, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "TIERWISE_FAULT: %s", why);
		return -EINVAL;
	}
	if (!probe_fault_matches(&r->fault, r->t->id, r->t->path))
		return 0;
	r->faulty = true;
	r->fault.inner = r->o->engine ? probe_engine_find(r->o->engine) : NULL;
	r->fault.no_fallback = r->o->engine != NULL;
	r->fault.state = &fault_state;
	return profile_device_add_notef(r->dev, "fault injection (test hook TIERWISE_FAULT=%.200s): these "
		    "figures are not measurements of the device", spec);
}

/* set as a CPU list ("0-3,8"), into buf. */
static void cpus_text(const cpu_set_t *set, char *buf, size_t len)
{
	char *list = probe_cpuset_format(set);

	snprintf(buf, len, "%s", list ? list : "?");
	free(list);
}

/*
 * Where the QD1 reads run (job_for): on the CPUs that take the device's
 * completion interrupts (probe_dev.irq_cpulist), when the calling thread
 * may run there and on others too.  A QD1 read on another CPU waits for
 * the interrupt's CPU to wake it: a cross-CPU wake-up per read, whose cost
 * depends on how deeply that CPU slept.  The device's own latency is the
 * one without it, as an application placed by its interrupts sees (on
 * this 2-vCPU VM the virtual disk's one queue interrupts vCPU 1 only: QD1
 * on a scratch file, the whole probe under taskset, read at a p50 of
 * 109-130 us on vCPU 0 and 70-83 us on vCPU 1, three runs each; a fresh
 * thread per test lands on either, fio's one long-lived job mostly ends up
 * on vCPU 1).
 * A device whose vectors cover every CPU (NVMe, a queue per CPU) is left
 * as it is.  The note says where the reads ran.
 */
static void qd1_pin(struct run *r, unsigned mask)
{
	const struct probe_dev *dev = r->t->dev;
	char irq[64], all[64];
	cpu_set_t allowed, on;

	if (!dev || !dev->irq_cpulist || r->faulty ||
	    !(mask & (1u << PROBE_TEST_RAND_READ_QD1 | 1u << PROBE_TEST_READ_UNDER_WRITE)) ||
	    pthread_getaffinity_np(pthread_self(), sizeof(allowed), &allowed) ||
	    !probe_cpulist_set(dev->irq_cpulist, &allowed, &on) || CPU_EQUAL(&on, &allowed))
		return;
	r->qd1_cpus = on;
	cpus_text(&r->qd1_cpus, irq, sizeof(irq));
	cpus_text(&allowed, all, sizeof(all));
	profile_device_add_notef(r->dev, "QD1 reads run on CPU %s (of %s), which takes %s's completion "
				 "interrupts: on another CPU each read would also wait for a "
				 "cross-CPU wake-up", irq, all, dev->name);
}

int probe_run(const struct probe_target *t, const struct probe_options *o,
	      struct profile *prof, char *err, size_t errlen)
{
	struct profile_device *d = profile_add_device(prof, t->id);
	struct probe_bufcache bufs;
	struct run r = { .t = t, .o = o, .dev = d, .span = t->span_bytes, .bufcache = &bufs };
	double start = (tw_now_ns() / 1e9);
	unsigned mask;
	int ret;

	if (!d || device_facts(t, o, d) < 0 ||
	    probe_series_init(&r.ser, o->sysroot, t, d) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = fault_hook(&r, err, errlen);
	if (ret < 0) {
		probe_series_free(&r.ser);
		if (ret == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		return ret;
	}
	probe_bufcache_init(&bufs);
	mask = o->tests ? o->tests : o->full ? PROBE_TESTS_FULL : PROBE_TESTS_DEFAULT;
	qd1_pin(&r, mask);
	ret = run_tests(&r, mask);
	probe_bufcache_destroy(&bufs);
	probe_series_free(&r.ser);
	if (ret != -ENOMEM && t->dev && probe_nvme_recheck(o->sysroot, t->dev, d) == -ENOMEM)
		ret = -ENOMEM;	/* paths that changed meanwhile: notes */
	d->probe.seconds = (tw_now_ns() / 1e9) - start;
	if (ret == -ECANCELED || ret == -ENOMEM) {
		snprintf(err, errlen, "%s: %s", t->id, ret == -ENOMEM ? "out of memory" : "cancelled");
		return ret;
	}
	if (r.failures) {
		snprintf(err, errlen, "%s: %d test%s failed (see notes)", t->id, r.failures,
			 r.failures > 1 ? "s" : "");
		return -EIO;
	}
	return 0;
}
