/* The run's job primitives (run_int.h): a test's job from its row and the
 * options, one job run with its failures as notes, and the latency summary
 * and band text of a result.  The plain tests (run_io.c), the composite
 * tests (run_composite.c) and the fill (run_fill.c) all run their jobs
 * through here.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "known.h"
#include "probe.h"
#include "run_int.h"
#include "zoned.h"

#define KNOWN_WINDOW_IOS 32u	/* quick tests' windows hold this many I/Os at least */
#define FUTILE_AFTER_MIN_S 0.5	/* quick tests give up on their ±2 % when the cap
				 * would not bring it (probe_run_job_for), for tests with
				 * caps of 3 × this or more */
#define AFTER_FILL_RAMP_S SWEEP_RAMP_S	/* seq_write's right after the fill of a
				 * scratch file (probe_run_fill_first), which wrote the
				 * same file sequentially in 1 MiB I/Os until
				 * then: only the queue refills (8 to 32) */

static void on_window(void *arg, const struct probe_window *w)
{
	struct probe_run_state *r = arg;

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
 * (tail_note says on how many samples their p99 rests).
 */
static bool tail_judged(const struct probe_test_def *def, unsigned qd)
{
	return def->pattern == PROBE_RAND &&
	       (qd == 1 || def->p99_only || def == &probe_test_defs[PROBE_TEST_QD_SWEEP]);
}

/* The job for test def at depth qd, timed by the options. */
void probe_run_job_for(const struct probe_run_state *r, const struct probe_test_def *def,
		       unsigned qd, struct probe_job *job)
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
	if (def == &probe_test_defs[PROBE_TEST_SEQ_WRITE] && r->filled_first && o->ramp_s < 0)
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
				 (def->read_pct > 0 || def == &probe_test_defs[PROBE_TEST_SEQ_WRITE])) {
				/* a swinging device: a third of the cap, then
				 * stop once the cap would not bring the band
				 * to ±PROBE_KNOWN_PCT: running on from ±4 % at
				 * 1 s to about ±2.3 % at 3 s comes no nearer
				 * to 20 s fio runs (bench/probe-time,
				 * docs/bench-results.md).  QD1 too, once the
				 * settle and the wait in a call of its own
				 * keep its 1 s as close to fio as 3 s; not
				 * before its 10,000 reads (min_ios): a disk of
				 * 3,300 IOPS or less runs to its cap.
				 * seq_write too, but not before it wrote what
				 * the reads need (fill_bytes' least: 1 GiB, or
				 * the span), so that no fill follows it */
				job->futile_pct = PROBE_KNOWN_PCT;
				job->futile_after_s = fmax(def->min_s, def->max_s / 3);
				if (def == &probe_test_defs[PROBE_TEST_SEQ_WRITE])
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

void probe_run_lat(const struct probe_hist *h, struct profile_lat *lat)
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
static void job_notes(struct probe_run_state *r, const struct probe_test_def *def,
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
 * What a job's return ret means for the run: failures become notes.
 * Returns 0, -ECANCELED or -EIO.
 */
int probe_run_outcome(struct probe_run_state *r, const struct probe_test_def *def, int ret,
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
int probe_run_job(struct probe_run_state *r, const struct probe_test_def *def,
		  const struct probe_job *job, struct probe_job_result *res)
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
	return probe_run_outcome(r, def, probe_job_run(job, res), res);
}

void probe_run_band_text(const struct probe_job_result *res, char *buf, size_t len)
{
	if (isfinite(res->known_pct))
		snprintf(buf, len, "±%.1f %%", res->known_pct);
	else
		snprintf(buf, len, "too few windows for a band");
}
