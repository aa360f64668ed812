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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cliff.h"
#include "job.h"
#include "known.h"
#include "probe.h"
#include "thermal.h"
#include "tw_util.h"
#include "underwrite.h"

#define KIB 1024u
#define MIB (1024u * 1024u)
#define SWEEP_MAX_QD 128u
#define FILL_QUICK_S 60.0	/* the destructive fill's time limit, quick */
#define FILL_QUICK_RATE_S 3.0	/* quick: fill what 3 s at the seq_write rate writes … */
#define FILL_QUICK_MIN (UINT64_C(1) << 30)	/* … and 1 GiB at least: well past a
					 * drive's caches, the span the reads need */
#define FILL_FULL_S 600.0	/* and --full */
#define IORATE_QD 128u		/* iorate: most I/Os in flight */
#define IORATE_FULL_S 5.0	/* iorate: seconds per step with --full */
#define BOOT_BS (32u * KIB)	/* read_under_write's second part, after */
#define BOOT_QD 32u		/* OCP BOOT-BENCH-1: 32 KiB random reads */
#define BOOT_QUICK_S 2.5	/* at depth under the same writes (at most) */
#define BOOT_MIN_S 0.5		/* (at least) */
#define KNOWN_WINDOW_S 0.1	/* quick tests: windows this short … */
#define KNOWN_WINDOW_IOS 32u	/* … with this many I/Os at least */

/* One row per test: its shape and its quick-mode time limits. */
struct test_def {
	const char *name;
	int slot;		/* enum profile_io_test, or -1 */
	enum probe_pattern pattern;
	unsigned read_pct;	/* 100 read, 0 write, 70 mixed */
	uint32_t bs;
	unsigned qd;
	bool threaded;		/* honours options.threads */
	double ramp_s, min_s, max_s;	/* quick mode */
};

static const struct test_def tests[PROBE_TEST_COUNT] = {
	[PROBE_TEST_SEQ_READ] = { "seq_read", PROFILE_SEQ_READ, PROBE_SEQ, 100, MIB, 32, false, 0.5, 1.0, 4.0 },
	[PROBE_TEST_RAND_READ_QD1] = { "rand_read_qd1", PROFILE_RAND_READ_QD1, PROBE_RAND, 100, 4 * KIB, 1, false, 0.25, 0.5, 4.0 },
	[PROBE_TEST_RAND_READ_QD32] = { "rand_read_qd32", PROFILE_RAND_READ_QD32, PROBE_RAND, 100, 4 * KIB, 32, true, 0.5, 0.5, 4.0 },
	[PROBE_TEST_QD_SWEEP] = { "qd_sweep", -1, PROBE_RAND, 100, 4 * KIB, 0, false, 0.2, 0.3, 0.8 },
	[PROBE_TEST_SEQ_WRITE] = { "seq_write", PROFILE_SEQ_WRITE, PROBE_SEQ, 0, MIB, 32, false, 0.5, 1.0, 4.0 },
	[PROBE_TEST_IORATE] = { "iorate", -1, PROBE_RAND, 100, 4 * KIB, IORATE_QD, false, 0.2, 1.0, 1.0 },
	[PROBE_TEST_MIXED_70_30] = { "mixed_70_30", PROFILE_MIXED_70_30, PROBE_RAND, 70, 4 * KIB, 32, true, 0.5, 0.5, 4.0 },
	[PROBE_TEST_READ_UNDER_WRITE] = { "read_under_write", -1, PROBE_RAND, 100, 4 * KIB, 1, false, 0.5, 1.0, 5.0 },
	[PROBE_TEST_SUSTAINED_WRITE] = { "sustained_write", -1, PROBE_SEQ, 0, MIB, 32, false, 0, 30, 30 },
};

/* Per-run state handed to the window callback. */
struct run {
	const struct probe_target *t;
	const struct probe_options *o;
	struct profile_device *dev;
	const char *test;
	double budget_s;
	unsigned qd;		/* of the job running, for the progress line */
	struct probe_series ser;	/* 1 Hz throughput + temperature */
	bool sampling;			/* this test feeds ser */
	bool noticed;			/* engine fallback noted once */
	char engine[PROBE_ENGINE_MSG];	/* the engine setup last noted */
	uint64_t span;			/* bytes the tests touch, from 0 */
	uint64_t zero_samples, zero_reads;	/* this test, all its jobs */
	bool stalled;			/* a test stalled: skip the rest */
	bool faulty;			/* TIERWISE_FAULT applies: use fault */
	struct probe_fault_opts fault;
	int failures;
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

/* The job for test def at depth qd, timed by the options. */
static void job_for(const struct run *r, const struct test_def *def, unsigned qd,
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
	job->window_s = PROBE_JOB_DEFAULT_WINDOW;
	job->seed = 0x7469657277697365ULL ^ (uint64_t)qd;	/* "tierwise" */
	job->on_window = on_window;
	job->arg = (void *)r;
	job->cancel = o->cancel;
	if (o->seconds > 0) {
		job->min_s = job->max_s = o->seconds;
	} else if (o->full) {
		job->min_s = job->max_s = 30;
	} else {
		/* quick: until the figure is known (known.h), min_s past the
		 * ramp at least, max_s at most; short windows, each of a few
		 * I/Os at least; a random-read test also until its p99 has
		 * PROBE_KNOWN_TAIL samples above it */
		job->min_s = def->min_s;
		job->max_s = def->max_s;
		if (def->min_s < def->max_s) {
			job->known_pct = PROBE_KNOWN_PCT;
			job->window_s = KNOWN_WINDOW_S;
			job->win_min_ios = KNOWN_WINDOW_IOS;
			job->min_ios = def->pattern == PROBE_RAND ? PROBE_KNOWN_TAIL * 100u : 0;
		}
	}
}

static void lat_from_hist(const struct probe_hist *h, struct profile_lat *lat)
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
static int job_outcome(struct run *r, const struct test_def *def, int ret,
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
static int run_job(struct run *r, const struct test_def *def, const struct probe_job *job,
		   struct probe_job_result *res)
{
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

/*
 * The first run of a threaded test kept one core busy: try more rings
 * (like fio's numjobs), the same depth in total, and keep the better one.
 */
static int more_threads(struct run *r, const struct test_def *def, double busy,
			const struct probe_job_result *one)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = cpus > 4 ? 4 : (unsigned)cpus;
	struct profile_io *io = &r->dev->io[def->slot];
	struct probe_job_result res;
	struct probe_job job;
	int ret;

	job_for(r, def, def->qd, &job);
	job.threads = n;
	job.qd = def->qd / n;
	ret = run_job(r, def, &job, &res);
	if (ret == 0 && res.ios) {
		bool better = res.iops > one->iops * 1.05;

		profile_device_add_notef(r->dev, "%s: one ring kept the CPU busy (%.2f cores) at %.0f IOPS; with %u "
		     "rings: %.0f IOPS (%s)", def->name, busy, one->iops, n, res.iops,
		     better ? "kept" : "not better, one ring kept");
		if (better)
			fill_io(io, def, &job, &res);
	}
	probe_job_result_free(&res);
	return ret == -ECANCELED ? ret : 0;
}

/*
 * A quick test that reached its cap before its figure was known (a slow
 * disk never narrows its band): how sure the figure is, in a note.
 */
static void band_note(struct run *r, const struct test_def *def, const struct probe_job *job,
		      const struct probe_job_result *res)
{
	char band[32] = "too few windows for a band";

	if (!(job->known_pct > 0) || res->known || res->cancelled)
		return;
	if (isfinite(res->known_pct))
		snprintf(band, sizeof(band), "±%.1f %%", res->known_pct);
	profile_device_add_notef(r->dev, "%s: stopped at its %.1f s cap before its figure was known "
				 "to ±%.0f %%: %s (95 %% confidence) over %llu I/Os%s", def->name,
				 job->max_s, job->known_pct, band, (unsigned long long)res->ios,
				 res->ios < job->min_ios ? ", fewer than a p99 needs" : "");
}

static int io_test(struct run *r, enum probe_test t)
{
	const struct test_def *def = &tests[t];
	struct probe_job_result res;
	struct probe_job job;
	double busy;
	int ret;

	job_for(r, def, def->qd, &job);
	ret = run_job(r, def, &job, &res);
	busy = res.busy_cores;	/* this job's threads only, not its neighbours' */
	if (ret == 0 && res.ios) {
		fill_io(&r->dev->io[def->slot], def, &job, &res);
		band_note(r, def, &job, &res);
		if (def->threaded && !r->o->threads &&
		    busy >= (r->o->busy_cores > 0 ? r->o->busy_cores : 0.9) &&
		    sysconf(_SC_NPROCESSORS_ONLN) > 1)
			ret = more_threads(r, def, busy, &res);
	}
	probe_job_result_free(&res);
	return ret;
}

static int sweep_add(struct profile_device *d, unsigned qd, const struct probe_job_result *res)
{
	struct profile_sweep *v = realloc(d->sweep, (d->n_sweep + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	d->sweep = v;
	v[d->n_sweep].qd = qd;
	v[d->n_sweep].iops = res->iops;
	lat_from_hist(&res->lat, &v[d->n_sweep].lat);
	d->n_sweep++;
	return 0;
}

/* The sweep stops going deeper when IOPS grew less than this for two steps. */
#define SWEEP_FLAT 0.05

/*
 * A point of the sweep already measured by this run: rand_read_qd1 at QD 1,
 * rand_read_qd32 at QD 32 (4 KiB random reads, the same span).  Returns
 * true and adds it, or false (run the point).
 */
static bool sweep_reuse(struct run *r, unsigned qd)
{
	const struct profile_io *io = qd == 1 ? &r->dev->io[PROFILE_RAND_READ_QD1] :
				      qd == 32 ? &r->dev->io[PROFILE_RAND_READ_QD32] : NULL;
	struct profile_sweep *v;

	if (!io || !io->present || io->qd != (long)qd || io->bs != 4 * KIB || r->o->full ||
	    r->o->seconds > 0)
		return false;
	v = realloc(r->dev->sweep, (r->dev->n_sweep + 1) * sizeof(*v));
	if (!v)
		return false;
	r->dev->sweep = v;
	v[r->dev->n_sweep].qd = qd;
	v[r->dev->n_sweep].iops = io->iops;
	v[r->dev->n_sweep].lat = io->lat;
	r->dev->n_sweep++;
	return true;
}

/* Has the sweep gone as deep as it needs: IOPS flat for two steps, or the
 * p99 past the target?  Says why in a note.  Quick mode only. */
static bool sweep_done(struct run *r, double target)
{
	const struct profile_sweep *v = r->dev->sweep;
	size_t n = r->dev->n_sweep;
	double p99 = n ? v[n - 1].lat.v[PROFILE_LAT_P99] : NAN;

	if (r->o->full || r->o->seconds > 0 || !n)
		return false;
	if (p99 > target) {
		profile_device_add_notef(r->dev, "qd_sweep: stopped at QD %ld: its p99 %.0f µs is past "
					 "the %.0f µs target, deeper only waits longer", v[n - 1].qd, p99,
					 target);
		return true;
	}
	if (n >= 3 && v[n - 1].iops < v[n - 2].iops * (1 + SWEEP_FLAT) &&
	    v[n - 2].iops < v[n - 3].iops * (1 + SWEEP_FLAT)) {
		profile_device_add_notef(r->dev, "qd_sweep: stopped at QD %ld: IOPS grew less than "
					 "%.0f %% for two steps (%.0f, %.0f, %.0f): the device is "
					 "saturated", v[n - 1].qd, SWEEP_FLAT * 100, v[n - 3].iops,
					 v[n - 2].iops, v[n - 1].iops);
		return true;
	}
	return false;
}

/*
 * Random 4 KiB reads at QD 1, 2, 4 … 128 (QD 1 and 32 taken from this run's
 * rand_read tests when they ran; each other depth until its figure is
 * known), no deeper once saturated or past the p99 target; then the best
 * IOPS under the target.
 */
static int sweep_test(struct run *r)
{
	const struct test_def *def = &tests[PROBE_TEST_QD_SWEEP];
	double target = r->o->latency_target_us > 0 ? r->o->latency_target_us : 1000;
	struct profile_lat_target *lt = &r->dev->lat_target;
	int ret = 0;

	lt->present = true;
	lt->p99_us = target;
	for (unsigned qd = 1; qd <= SWEEP_MAX_QD && ret != -ECANCELED && !r->stalled;
	     qd *= 2) {
		struct probe_job_result res;
		struct probe_job job;
		bool reused = sweep_reuse(r, qd);

		if (!reused) {
			job_for(r, def, qd, &job);
			if (!r->o->seconds && r->o->full)
				job.min_s = job.max_s = 5;
			ret = run_job(r, def, &job, &res);
			if (ret == 0 && res.ios && sweep_add(r->dev, qd, &res) < 0)
				ret = -ENOMEM;
		}
		if (reused || (ret == 0 && res.ios)) {
			const struct profile_sweep *pt = &r->dev->sweep[r->dev->n_sweep - 1];
			double p99 = pt->lat.v[PROFILE_LAT_P99];

			if (p99 <= target && (isnan(lt->iops) || pt->iops > lt->iops)) {
				lt->iops = pt->iops;
				lt->qd = qd;
			}
		}
		if (!reused)
			probe_job_result_free(&res);
		if (ret == 0 && sweep_done(r, target))
			break;
	}
	return ret;
}

/* The sweep's best IOPS (or rand_read_qd32's), NAN when neither ran. */
static double max_iops(const struct profile_device *d)
{
	double best = d->io[PROFILE_RAND_READ_QD32].present ? d->io[PROFILE_RAND_READ_QD32].iops
							     : NAN;

	for (size_t i = 0; i < d->n_sweep; i++)
		if (isnan(best) || d->sweep[i].iops > best)
			best = d->sweep[i].iops;
	return best;
}

static int iorate_add(struct profile_device *d, double pct, double offered,
		      const struct probe_job_result *res)
{
	struct profile_iorate *v = realloc(d->iorate, (d->n_iorate + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	d->iorate = v;
	v += d->n_iorate++;
	v->pct = pct;
	v->offered_iops = offered;
	v->iops = res->iops > 0 ? res->iops : NAN;
	lat_from_hist(&res->read_lat, &v->lat);
	return 0;
}

/*
 * 4 KiB random reads offered open loop (job.h rate_iops) at fixed shares
 * of the sweep's maximum, one step each, latency from the scheduled time.
 */
static int iorate_test(struct run *r)
{
	static const double pcts[] = { 10, 25, 50, 75, 90, 100, 110 };
	const struct test_def *def = &tests[PROBE_TEST_IORATE];
	const double top = max_iops(r->dev);
	double short_pct = 0, short_iops = 0;
	int ret = 0;

	if (!(top > 0)) {
		profile_device_add_notef(r->dev, "iorate: skipped: no maximum to offer a share of (run qd_sweep "
		     "or rand_read_qd32 with it)");
		return 0;
	}
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]) && ret != -ECANCELED &&
	     !r->stalled; i++) {
		struct probe_job_result res;
		struct probe_job job;

		job_for(r, def, def->qd, &job);
		job.rate_iops = top * pcts[i] / 100;
		job.stop_on_steady = false;
		if (!r->o->seconds)
			job.min_s = job.max_s = r->o->full ? IORATE_FULL_S : def->max_s;
		ret = run_job(r, def, &job, &res);
		if (ret == 0 && res.ios && iorate_add(r->dev, pcts[i], job.rate_iops, &res) < 0)
			ret = -ENOMEM;
		if (ret == 0 && !short_pct && pcts[i] <= 100 && res.iops < 0.9 * job.rate_iops) {
			short_pct = pcts[i];
			short_iops = res.iops;
		}
		probe_job_result_free(&res);
	}
	if (short_pct > 0)
		profile_device_add_notef(r->dev, "iorate: from %.0f %% of %.0f IOPS on, less was delivered than offered "
		     "(%.0f IOPS): the device or the one submitting thread saturated there, and "
		     "the latency of the steps after it includes the queue", short_pct, top,
		     short_iops);
	return ret;
}

/* The idle QD1 p99 to compare with: rand_read_qd1's, else measured now. */
static int idle_p99(struct run *r, const struct test_def *def, const struct probe_job *job,
		    double *p99)
{
	struct probe_job_result res;
	struct profile_lat lat;
	int ret;

	*p99 = r->dev->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99];
	if (r->dev->io[PROFILE_RAND_READ_QD1].present || r->stalled)
		return 0;
	ret = run_job(r, def, job, &res);
	if (ret == 0 && res.ios) {
		lat_from_hist(&res.read_lat, &lat);
		*p99 = lat.v[PROFILE_LAT_P99];
		profile_device_add_notef(r->dev, "read_under_write: the idle figure was measured by this test "
		     "(rand_read_qd1 did not run)");
	}
	probe_job_result_free(&res);
	return ret;
}

static void uw_fill(struct run *r, const struct probe_job *job, const struct probe_uw_opts *uo,
		    const struct probe_uw_result *res, double idle)
{
	struct profile_under_write *uw = &r->dev->under_write;

	uw->present = true;
	uw->bs = job->bs;
	uw->qd = job->qd;
	uw->iops = res->read.iops > 0 ? res->read.iops : NAN;
	lat_from_hist(&res->read.read_lat, &uw->lat);
	uw->idle_p99_us = idle > 0 ? idle : NAN;
	uw->p99_ratio = uw->lat.v[PROFILE_LAT_P99] / uw->idle_p99_us;
	if (!(uw->p99_ratio > 0))
		uw->p99_ratio = NAN;
	uw->write_bs = uo->write_bs;
	uw->write_rate_mibps = uo->write_mibps + uo->trim_mibps;
	uw->write_mibps = res->write_mibps;
	uw->trim_mibps = res->trim_mibps;
	uw->seconds = res->read.seconds;
}

static void uw_notes(struct run *r, const struct probe_uw_opts *uo,
		     const struct probe_uw_result *res)
{
	const struct profile_under_write *uw = &r->dev->under_write;

	profile_device_add_notef(r->dev, "read_under_write: QD1 reads while %u KiB random writes ran at %.1f MiB/s "
	     "(%.1f MiB/s of them with trims; delivered %.1f MiB/s): p99 %.1f µs under writes, "
	     "%.1f µs idle (x%.2f)", uo->write_bs / KIB, uo->write_mibps + uo->trim_mibps,
	     uo->trim_mibps, uw->write_mibps, uw->lat.v[PROFILE_LAT_P99], uw->idle_p99_us,
	     uw->p99_ratio);
	if (res->trim_why[0] && uo->trim_mibps > 0)
		profile_device_add_notef(r->dev, "read_under_write: trims were not issued (%s); the trim stream's "
		     "ranges were written without them", res->trim_why);
	if (res->write_errmsg[0])
		profile_device_add_notef(r->dev, "read_under_write: the background writer failed: %s (the reads "
		     "are kept, under whatever writes ran)", res->write_errmsg);
}

/* The writer's rates from the options. */
static struct probe_uw_opts uw_opts(const struct run *r)
{
	struct probe_uw_opts uo = {
		.write_mibps = r->o->uw_write_mibps > 0 ? r->o->uw_write_mibps
							 : PROBE_UW_WRITE_MIBPS,
		.trim_mibps = r->o->uw_trim_mibps > 0 ? r->o->uw_trim_mibps
			      : r->o->uw_trim_mibps < 0 ? 0 : PROBE_UW_TRIM_MIBPS,
		.write_bs = PROBE_UW_WRITE_BS,
	};

	if (uo.write_bs % r->t->align)
		uo.write_bs = r->t->align;
	return uo;
}

/*
 * OCP BOOT-BENCH-1's reads (32 KiB random at QD32) under the same
 * background writes: read IOPS for the boot policy.
 */
static int uw_boot(struct run *r, const struct test_def *def, const struct probe_job *qd1,
		   const struct probe_uw_opts *uo)
{
	struct profile_under_write *uw = &r->dev->under_write;
	struct probe_uw_result res;
	struct probe_job job = *qd1;
	int ret;

	job.bs = BOOT_BS < r->t->align ? r->t->align : BOOT_BS;
	job.qd = BOOT_QD;
	if (!r->o->seconds && !r->o->full) {	/* until its IOPS are known, ≤ 2.5 s */
		job.min_s = BOOT_MIN_S;
		job.max_s = BOOT_QUICK_S;
	}
	if (job.length < job.bs)
		return 0;
	r->budget_s = job.max_s;
	ret = job_outcome(r, def, probe_uw_run(&job, uo, &res), &res.read);
	if (ret == 0 && res.read.ios) {
		uw->boot_bs = job.bs;
		uw->boot_qd = job.qd;
		uw->boot_iops = res.read.iops;
		lat_from_hist(&res.read.read_lat, &uw->boot_lat);
		profile_device_add_notef(r->dev, "read_under_write: %u KiB random reads at QD%u under the same writes "
		     "(OCP BOOT-BENCH-1): %.0f IOPS (the boot policy's pass mark: 60,000)",
		     job.bs / KIB, job.qd, res.read.iops);
	}
	probe_job_result_free(&res.read);
	return ret;
}

/* QD1 4 KiB random reads while the background writer runs (underwrite.h). */
static int uw_test(struct run *r)
{
	const struct test_def *def = &tests[PROBE_TEST_READ_UNDER_WRITE];
	const struct probe_uw_opts uo = uw_opts(r);
	struct probe_uw_result res;
	struct probe_job job;
	double idle;
	int ret;

	/* quick: the 0.5 s ramp lets the writer settle, then the reads run
	 * until their p99 is known (job_for: known_pct, min_ios), 1 s to 5 s */
	job_for(r, def, def->qd, &job);
	job.stop_on_steady = false;
	ret = idle_p99(r, def, &job, &idle);
	if (ret == -ECANCELED || r->stalled)
		return ret;
	r->test = def->name;
	r->budget_s = job.max_s;
	ret = probe_uw_run(&job, &uo, &res);
	if (ret == -EINVAL && !res.read.errmsg[0])
		snprintf(res.read.errmsg, sizeof(res.read.errmsg),
			 "the span is smaller than one write");
	ret = job_outcome(r, def, ret, &res.read);
	if (ret == 0 && res.read.ios) {
		uw_fill(r, &job, &uo, &res, idle);
		uw_notes(r, &uo, &res);
	}
	probe_job_result_free(&res.read);
	if (ret == 0 && !r->stalled)
		ret = uw_boot(r, def, &job, &uo);
	return ret;
}

static double sustained_seconds(const struct run *r)
{
	if (r->o->sustained_s > 0)
		return r->o->sustained_s;
	return r->o->full ? 120 : tests[PROBE_TEST_SUSTAINED_WRITE].max_s;
}

/* Sequential writes for a fixed time, one point a second (the series). */
static int sustained_test(struct run *r)
{
	const struct test_def *def = &tests[PROBE_TEST_SUSTAINED_WRITE];
	struct probe_job_result res;
	struct probe_job job;
	int ret;

	job_for(r, def, def->qd, &job);
	job.window_s = 1.0;
	job.min_s = job.max_s = sustained_seconds(r);
	job.stop_on_steady = false;
	ret = run_job(r, def, &job, &res);
	if (ret == 0 && res.ios)
		r->dev->sustained.seconds = res.seconds;
	probe_job_result_free(&res);
	return ret;
}

/* The cache cliff from the series of the sustained write. */
static void sustained_from_series(struct profile_sustained *su, struct profile_point *pts,
				  size_t n)
{
	double *mbps = calloc(n + 1, sizeof(*mbps));
	struct probe_cliff cl;

	if (!mbps || !n || isnan(su->seconds)) {
		free(mbps);
		free(pts);
		return;
	}
	for (size_t i = 0; i < n; i++)
		mbps[i] = pts[i].mbps;
	probe_cliff_find(mbps, n, &cl);
	su->present = true;
	su->initial_mbps = cl.initial_mbps > 0 ? cl.initial_mbps : NAN;
	su->mbps = cl.after_mbps > 0 ? cl.after_mbps : NAN;
	su->cliff_after_gb = cl.found ? cl.gb_before : NAN;
	free(su->series);
	su->series = pts;
	su->n_series = n;
	free(mbps);
}

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

/* Whether the destructive fill applies: a raw device probed with
 * --destructive, not a hard disk, and a test that reads. */
static bool wants_fill(const struct run *r, unsigned mask)
{
	bool reads = false;

	for (int t = 0; t < PROBE_TEST_COUNT; t++)
		reads |= (mask & (1u << t)) && tests[t].read_pct > 0;
	return reads && r->t->writable && r->t->kind != PROBE_TARGET_SCRATCH &&
	       r->dev->media != PROFILE_MEDIA_HDD && r->t->span_bytes >= MIB;
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
 * Write the span with incompressible data (sequential 1 MiB at QD32, the
 * seq_write shape) before the first test that reads, so that reads come
 * from the media, not from never-written blocks.  Quick mode fills only what
 * the reads need (fill_bytes(): 3 s at the seq_write rate, 1 GiB at least)
 * and the tests run over that; --full and --seconds fill the whole span.
 * At most FILL_QUICK_S (FILL_FULL_S with --full): when that is not enough,
 * the tests run over the part written.
 * Returns 0, -ECANCELED or -EIO (a note says why).
 */
static int fill_span(struct run *r)
{
	static const struct test_def def = { "fill", -1, PROBE_SEQ, 0, MIB, 32, false,
					     0, 0, FILL_QUICK_S };
	const uint64_t span = r->span, want = fill_bytes(r);
	struct probe_job_result res;
	struct probe_job job;
	int ret;

	job_for(r, &def, def.qd, &job);
	job.ramp_s = 0;
	job.min_s = job.max_s = r->o->full ? FILL_FULL_S : FILL_QUICK_S;
	job.stop_on_steady = false;
	job.known_pct = 0;
	job.max_ios = want / MIB;
	ret = run_job(r, &def, &job, &res);
	if (ret == 0 && want < span && res.bytes >= job.max_ios * MIB) {
		r->span = job.max_ios * MIB;
		profile_device_add_notef(r->dev, "fill: wrote %.2f of the %.2f GiB span with incompressible "
		     "data in %.1f s (%.0f MB/s) before the read tests, which ran over that part: the "
		     "reads need a span well past the drive's caches (%.0f s at its sequential write "
		     "rate, 1 GiB at least), not all of it; --full fills it all", r->span / 1073741824.0,
		     span / 1073741824.0, res.seconds, res.mbps, FILL_QUICK_RATE_S);
	} else if (ret == 0 && res.bytes >= job.max_ios * MIB) {
		profile_device_add_notef(r->dev, "fill: wrote the whole span (%.2f GiB) with incompressible data "
		     "in %.1f s (%.0f MB/s) before the read tests", span / 1073741824.0,
		     res.seconds, res.mbps);
	} else if (ret == 0) {
		r->span = res.bytes - res.bytes % r->t->align;
		profile_device_add_notef(r->dev, "fill: wrote %.2f of %.2f GiB in the %.0f s allowed (%.0f MB/s); "
		     "the tests ran over that part", r->span / 1073741824.0,
		     span / 1073741824.0, job.max_s, res.mbps);
	}
	probe_job_result_free(&res);
	return ret;
}

static int run_tests(struct run *r, unsigned mask)
{
	int hot = thermal_test(r, mask);
	bool fill = wants_fill(r, mask);
	int ret = 0;

	for (int t = 0; t < PROBE_TEST_COUNT && ret != -ECANCELED && ret != -ENOMEM; t++) {
		if (!(mask & (1u << t)))
			continue;
		if (is_write_test(t) && !r->t->writable) {
			profile_device_add_notef(r->dev, "%s: skipped: read-only target (give a directory for a "
			     "scratch file, or --destructive for an unused device)", tests[t].name);
			continue;
		}
		/* the fill comes right before the first test that reads: the
		 * seq_write burst before it still finds the drive as it was */
		if (fill && tests[t].read_pct > 0 && !r->stalled) {
			fill = false;
			if ((ret = fill_span(r)) == -ECANCELED)
				break;
			ret = 0;	/* a failed fill is noted; the tests still run */
		}
		if (r->stalled) {
			profile_device_add_notef(r->dev, "%s: skipped: the device stalled in an earlier test",
			     tests[t].name);
			r->failures++;
			continue;
		}
		r->sampling = t == hot &&
			probe_series_begin(&r->ser, (size_t)test_budget(r, t) + 3) == 0;
		r->zero_samples = r->zero_reads = 0;
		ret = run_one(r, t);
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

int probe_run(const struct probe_target *t, const struct probe_options *o,
	      struct profile *prof, char *err, size_t errlen)
{
	struct profile_device *d = profile_add_device(prof, t->id);
	struct run r = { .t = t, .o = o, .dev = d, .span = t->span_bytes };
	double start = (tw_now_ns() / 1e9);
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
	ret = run_tests(&r, o->tests ? o->tests : o->full ? PROBE_TESTS_FULL : PROBE_TESTS_DEFAULT);
	probe_series_free(&r.ser);
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
