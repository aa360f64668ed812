/* The plain tests of the run: one job each (seq_read, rand_read_qd1,
 * rand_read_qd32, seq_write, mixed_70_30), their figures and notes, and the
 * trial of more rings for the threaded ones.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job.h"
#include "known.h"
#include "probe.h"
#include "run_int.h"

static const char *label_for(double seconds)
{
	return seconds >= 30 ? "sustained" : "burst, fresh";
}

static void fill_io(struct profile_io *io, const struct probe_test_def *def,
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
	probe_run_lat(&res->lat, &io->lat);
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

/* The trial of more rings (probe_run_more_threads) stops as soon as it cannot beat
 * one ring by MORE_THREADS_GAIN: its band (known.h) wholly below that mark,
 * r->trial_mark_mbps; its figure is then not the test's. */
static bool trial_cannot_pass(void *arg, const double *win_mbps, const double *win_s, size_t n)
{
	const struct probe_run_state *r = arg;

	return probe_known_below_w(win_mbps, win_s, n, r->trial_mark_mbps);
}

/*
 * The contract is in run_int.h.  The trial ends early once it cannot win
 * (trial_cannot_pass): a lost trial that runs to its give-up takes 1.2-1.4
 * s of a 9-10 s quick profile on a scratch file, for a figure then
 * dropped; with the early end it takes 0.4-0.9 s (bench/probe-time,
 * docs/bench-results.md).
 */
int probe_run_more_threads(struct probe_run_state *r, const struct probe_test_def *def,
			   double busy, const struct probe_job_result *one)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = cpus >= 4 ? 4 : cpus >= 2 ? 2 : 1;	/* a share of the depth each:
								 * 3 rings of 10 would be 30 */
	struct profile_io *io = &r->dev->io[def->slot];
	struct probe_job_result res;
	struct probe_job job;
	char band[32], verdict[128];
	int ret;

	probe_run_job_for(r, def, def->qd, &job);
	job.threads = n;
	job.qd = def->qd / n;
	if (job.known_pct > 0) {
		r->trial_mark_mbps = one->mbps * (1.0 + MORE_THREADS_GAIN);
		job.stop_when = trial_cannot_pass;
	}
	ret = probe_run_job(r, def, &job, &res);
	r->trial_mark_mbps = 0;
	if (ret == 0 && res.ios) {
		bool better = res.iops > one->iops * (1.0 + MORE_THREADS_GAIN);

		if (better)
			snprintf(verdict, sizeof(verdict), "kept");
		else if (res.stopped_when) {
			probe_run_band_text(&res, band, sizeof(band));
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

/*
 * A quick test that reached its cap before its figure was known (a slow
 * disk never narrows its band): how sure the figure is, in a note.
 */
static void band_note(struct probe_run_state *r, const struct probe_test_def *def,
		      const struct probe_job *job, const struct probe_job_result *res)
{
	char band[32];

	if (!(job->known_pct > 0) || res->known || res->cancelled)
		return;
	probe_run_band_text(res, band, sizeof(band));
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
static void tail_note(struct probe_run_state *r, const struct probe_test_def *def,
		      const struct probe_job *job, const struct probe_job_result *res)
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

int probe_run_io_test(struct probe_run_state *r, enum probe_test t)
{
	const struct probe_test_def *def = &probe_test_defs[t];
	struct probe_job_result res;
	struct probe_job job;
	double busy;
	bool carried;
	int ret;

	probe_run_job_for(r, def, def->qd, &job);
	carried = def->threaded && r->rings && job.threads == 1 && !r->o->threads;
	if (carried) {
		/* the rings an earlier test's trial chose (probe_run_more_threads): the
		 * same block size and depth, the same CPU cost per I/O */
		job.threads = r->rings;
		job.qd = def->qd / r->rings;
	}
	ret = probe_run_job(r, def, &job, &res);
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
			ret = probe_run_more_threads(r, def, busy, &res);
	}
	probe_job_result_free(&res);
	return ret;
}
