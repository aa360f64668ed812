/* The composite tests of the run: those made of many jobs (qd_sweep,
 * iorate), of a job beside a background writer (read_under_write), or
 * read from the 1 Hz series afterwards (sustained_write: the cache cliff).
 * The test table is run_table.c, the jobs run through run_job.c (run_int.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliff.h"
#include "known.h"
#include "job.h"
#include "probe.h"
#include "run_int.h"
#include "underwrite.h"

#define SWEEP_MAX_QD 128u
#define SWEEP_DEPTHS 8u		/* QD 1, 2, 4 … SWEEP_MAX_QD */
_Static_assert(1u << (SWEEP_DEPTHS - 1) == SWEEP_MAX_QD, "one depth per power of two");
#define SWEEP_DEEPEST 1024u	/* options.min_sweep_qd takes it this deep at most */
#define SWEEP_ALL_DEPTHS 11u	/* QD 1 … SWEEP_DEEPEST */
_Static_assert(1u << (SWEEP_ALL_DEPTHS - 1) == SWEEP_DEEPEST, "one depth per power of two");
#define IORATE_FULL_S 5.0	/* iorate: seconds per step with --full */
#define BOOT_BS (32u * KIB)	/* read_under_write's second part, after */
#define BOOT_QD 32u		/* OCP BOOT-BENCH-1: 32 KiB random reads */
#define BOOT_QUICK_S 1.5	/* at depth under the same writes (at most) */
#define BOOT_MIN_S 0.5		/* (at least) */
#define BOOT_WINDOW_S 0.05	/* quick: its windows, so that by BOOT_MIN_S it
				 * has the PROBE_KNOWN_BATCHES a give-up wants
				 * (0.1 s windows would give up at 1 s) */
#define BOOT_RAMP_S 0.1		/* its ramp: the writes ran through the QD1 part
				 * before it, only the reads' queue fills */
#define SUSTAINED_POINT_QUEUES 1	/* the rate after the cliff: judged in points
					 * of a queue's worth at least (getevents'
					 * batches have a time bound, engine.h, so
					 * the probe's own reaps do not come in
					 * half queues) */

static int sweep_add(struct profile_device *d, unsigned qd, const struct probe_job_result *res)
{
	struct profile_sweep *v = realloc(d->sweep, (d->n_sweep + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	d->sweep = v;
	v[d->n_sweep].qd = qd;
	v[d->n_sweep].iops = res->iops;
	probe_run_lat(&res->lat, &v[d->n_sweep].lat);
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
static bool sweep_reuse(struct probe_run_state *r, unsigned qd)
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
static bool sweep_done(struct probe_run_state *r, double target)
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

/* The sweep's depths that stopped at their cap before their p99 had
 * PROBE_KNOWN_TAIL samples above it (quick mode: min_ios). */
struct sweep_thin {
	unsigned n;
	unsigned qd[SWEEP_ALL_DEPTHS];
	unsigned long long above[SWEEP_ALL_DEPTHS];	/* samples above the p99: I/Os / 100 */
};

static void thin_add(struct sweep_thin *t, unsigned qd, uint64_t ios)
{
	if (t->n >= sizeof(t->qd) / sizeof(t->qd[0]))
		return;
	t->qd[t->n] = qd;
	t->above[t->n++] = (unsigned long long)ios / 100;
}

/* One note: on how few samples the p99 of the depths in t rests. */
static void thin_note(struct probe_run_state *r, const struct sweep_thin *t)
{
	char list[192] = "";
	size_t len = 0;

	if (!t->n)
		return;
	for (unsigned i = 0; i < t->n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%sQD %u: %llu",
					i ? ", " : "", t->qd[i], t->above[i]);
	profile_device_add_notef(r->dev, "qd_sweep: the p99 of %u depth%s rests on fewer than "
				 "the %u samples above it that make a sure tail (%s): each depth "
				 "stops at its %.1f s cap", t->n, t->n == 1 ? "" : "s",
				 PROBE_KNOWN_TAIL, list, probe_test_defs[PROBE_TEST_QD_SWEEP].max_s);
}

/* The sweep's deepest depth: SWEEP_MAX_QD, or the power of two at or above
 * options.min_sweep_qd when that is deeper (SWEEP_DEEPEST at most). */
static unsigned sweep_max_qd(const struct probe_options *o)
{
	unsigned qd = SWEEP_MAX_QD;

	while (qd < o->min_sweep_qd && qd < SWEEP_DEEPEST)
		qd *= 2;
	return qd;
}

/*
 * Random 4 KiB reads at QD 1, 2, 4 … 128 (QD 1 and 32 taken from this run's
 * rand_read tests when they ran; each other depth until its figure is
 * known), no deeper once saturated or past the p99 target, but always as
 * deep as options.min_sweep_qd (the application's beam_width × concurrency,
 * to 1024); then the best IOPS under the target.
 */
int probe_run_sweep(struct probe_run_state *r)
{
	const struct probe_test_def *def = &probe_test_defs[PROBE_TEST_QD_SWEEP];
	double target = r->o->latency_target_us > 0 ? r->o->latency_target_us : 1000;
	struct profile_lat_target *lt = &r->dev->lat_target;
	struct sweep_thin thin = { .n = 0 };
	const unsigned deepest = sweep_max_qd(r->o);
	int ret = 0;

	lt->present = true;
	lt->p99_us = target;
	if (r->o->min_sweep_qd > 1)
		profile_device_add_notef(r->dev, "qd_sweep: to QD %u at least, whatever the latency "
					 "target (the deepest the policies' applications go)",
					 r->o->min_sweep_qd < deepest ? r->o->min_sweep_qd : deepest);
	for (unsigned qd = 1; qd <= deepest && ret != -ECANCELED && !r->stalled;
	     qd *= 2) {
		struct probe_job_result res;
		struct probe_job job;
		bool reused = sweep_reuse(r, qd);

		if (!reused) {
			probe_run_job_for(r, def, qd, &job);
			if (!r->o->seconds && r->o->full)
				job.min_s = job.max_s = 5;
			ret = probe_run_job(r, def, &job, &res);
			if (ret == 0 && res.ios && sweep_add(r->dev, qd, &res) < 0)
				ret = -ENOMEM;
			if (ret == 0 && res.ios && res.ios < job.min_ios && !res.cancelled)
				thin_add(&thin, qd, res.ios);
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
		if (ret == 0 && qd >= r->o->min_sweep_qd && sweep_done(r, target))
			break;
	}
	thin_note(r, &thin);
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
	probe_run_lat(&res->read_lat, &v->lat);
	return 0;
}

/*
 * 4 KiB random reads offered open loop (job.h rate_iops) at fixed shares
 * of the sweep's maximum, one step each, latency from the scheduled time.
 */
int probe_run_iorate(struct probe_run_state *r)
{
	static const double pcts[] = { 10, 25, 50, 75, 90, 100, 110 };
	const struct probe_test_def *def = &probe_test_defs[PROBE_TEST_IORATE];
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

		probe_run_job_for(r, def, def->qd, &job);
		job.rate_iops = top * pcts[i] / 100;
		job.stop_on_steady = false;
		if (!r->o->seconds)
			job.min_s = job.max_s = r->o->full ? IORATE_FULL_S : def->max_s;
		ret = probe_run_job(r, def, &job, &res);
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
static int idle_p99(struct probe_run_state *r, const struct probe_test_def *def,
		    const struct probe_job *job, double *p99)
{
	struct probe_job_result res;
	struct profile_lat lat;
	int ret;

	*p99 = r->dev->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99];
	if (r->dev->io[PROFILE_RAND_READ_QD1].present || r->stalled)
		return 0;
	ret = probe_run_job(r, def, job, &res);
	if (ret == 0 && res.ios) {
		probe_run_lat(&res.read_lat, &lat);
		*p99 = lat.v[PROFILE_LAT_P99];
		profile_device_add_notef(r->dev, "read_under_write: the idle figure was measured by this test "
		     "(rand_read_qd1 did not run)");
	}
	probe_job_result_free(&res);
	return ret;
}

static void uw_fill(struct probe_run_state *r, const struct probe_job *job,
		    const struct probe_uw_opts *uo, const struct probe_uw_result *res, double idle)
{
	struct profile_under_write *uw = &r->dev->under_write;

	uw->present = true;
	uw->bs = job->bs;
	uw->qd = job->qd;
	uw->iops = res->read.iops > 0 ? res->read.iops : NAN;
	probe_run_lat(&res->read.read_lat, &uw->lat);
	uw->idle_p99_us = idle > 0 ? idle : NAN;
	uw->p99_ratio = uw->lat.v[PROFILE_LAT_P99] / uw->idle_p99_us;
	if (!(uw->p99_ratio > 0))
		uw->p99_ratio = NAN;
	uw->write_bs = uo->write_bs;
	uw->write_rate_mibps = uo->write_mibps + uo->trim_mibps;
	uw->write_mibps = res->write_mibps;
	uw->trim_mibps = res->trim_mibps;
	uw->seconds = res->read.seconds;
	uw->ios = (int64_t)res->read.ios;
}

static void uw_notes(struct probe_run_state *r, const struct probe_uw_opts *uo,
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

/* Quick mode: the reads under writes ran to their cap before their p99 had
 * PROBE_KNOWN_TAIL samples above it (a slow disk): say on how many it rests. */
static void uw_cap_note(struct probe_run_state *r, const struct probe_job *job,
			const struct probe_job_result *res)
{
	if (!job->max_ios || res->ios >= job->max_ios || res->cancelled)
		return;
	profile_device_add_notef(r->dev, "read_under_write: stopped at its %.1f s cap after %llu "
				 "reads: its p99 rests on %llu samples above it (%u wanted)", job->max_s,
				 (unsigned long long)res->ios, (unsigned long long)res->ios / 100,
				 PROBE_KNOWN_TAIL);
}

/* The writer's rates from the options. */
static struct probe_uw_opts uw_opts(const struct probe_run_state *r)
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
 * The job of OCP BOOT-BENCH-1's reads (run_int.h), from a row of its own
 * (probe_run_job_for): BOOT_BS at BOOT_QD.  Quick: until their IOPS are
 * known to ±PROBE_KNOWN_PCT, BOOT_MIN_S at least and BOOT_QUICK_S at most,
 * giving up at BOOT_MIN_S when the cap would not bring the band there, as
 * the other quick tests that read do (windows of BOOT_WINDOW_S, ten by
 * then).  Not the QD1 part's 10,000 reads, which are for a p99: at QD32
 * that count ends the reads after 0.12-0.29 s in one or two windows, with
 * no band.  Fixed (--seconds, --full): the QD1 part's time, BOOT_RAMP_S
 * ramp.
 */
void probe_run_boot_job(const struct probe_run_state *r, struct probe_job *job)
{
	static const struct probe_test_def boot = {
		.name = "read_under_write", .slot = -1,
		.pattern = PROBE_RAND, .read_pct = 100, .bs = BOOT_BS, .qd = BOOT_QD,
		.ramp_s = BOOT_RAMP_S, .min_s = BOOT_MIN_S, .max_s = BOOT_QUICK_S,
		.window_s = BOOT_WINDOW_S,
	};

	probe_run_job_for(r, &boot, boot.qd, job);
}

/* "±3.1 % (95 % confidence)", or why there is no band. */
static void boot_band(const struct probe_job *job, const struct probe_job_result *res,
		      char *buf, size_t len)
{
	char band[32];

	probe_run_band_text(res, band, sizeof(band));
	if (!isfinite(res->known_pct))
		snprintf(buf, len, "(%s)", band);
	else if (job->known_pct > 0 && !res->known)
		snprintf(buf, len, "%s (95 %% confidence; not known to ±%.0f %% in %.1f s)",
			 band, job->known_pct, res->seconds);
	else
		snprintf(buf, len, "%s (95 %% confidence)", band);
}

/*
 * OCP BOOT-BENCH-1's reads (32 KiB random at QD32) under the same
 * background writes: read IOPS for the boot policy.
 */
static int uw_boot(struct probe_run_state *r, const struct probe_test_def *def,
		   const struct probe_uw_opts *uo)
{
	struct profile_under_write *uw = &r->dev->under_write;
	struct probe_uw_result res;
	struct probe_job job;
	char band[96];
	int ret;

	probe_run_boot_job(r, &job);
	if (job.length < job.bs)
		return 0;
	r->budget_s = job.max_s;
	ret = probe_run_outcome(r, def, probe_uw_run(&job, uo, &res), &res.read);
	if (ret == 0 && res.read.ios) {
		uw->boot_bs = job.bs;
		uw->boot_qd = job.qd;
		uw->boot_iops = res.read.iops;
		probe_run_lat(&res.read.read_lat, &uw->boot_lat);
		boot_band(&job, &res.read, band, sizeof(band));
		profile_device_add_notef(r->dev, "read_under_write: %u KiB random reads at QD%u under the same writes "
		     "(OCP BOOT-BENCH-1): %.0f IOPS %s over %llu reads in %.1f s (the boot policy's pass mark: 60,000)",
		     job.bs / KIB, job.qd, res.read.iops, band, (unsigned long long)res.read.ios,
		     res.read.seconds);
	}
	probe_job_result_free(&res.read);
	return ret;
}

/* QD1 4 KiB random reads while the background writer runs (underwrite.h). */
int probe_run_uw(struct probe_run_state *r)
{
	const struct probe_test_def *def = &probe_test_defs[PROBE_TEST_READ_UNDER_WRITE];
	const struct probe_uw_opts uo = uw_opts(r);
	struct probe_uw_result res;
	struct probe_job job;
	double idle;
	int ret;

	/* quick: the 0.5 s ramp lets the writer settle, then the reads run
	 * until their p99 is known (probe_run_job_for: known_pct, min_ios), 1 s to 5 s */
	probe_run_job_for(r, def, def->qd, &job);
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
	ret = probe_run_outcome(r, def, ret, &res.read);
	if (ret == 0 && res.read.ios) {
		uw_fill(r, &job, &uo, &res, idle);
		uw_notes(r, &uo, &res);
		uw_cap_note(r, &job, &res.read);
	}
	probe_job_result_free(&res.read);
	if (ret == 0 && !r->stalled)
		ret = uw_boot(r, def, &uo);
	return ret;
}

double probe_run_sustained_seconds(const struct probe_run_state *r)
{
	if (r->o->sustained_s > 0)
		return r->o->sustained_s;
	return r->o->full ? 120 : probe_test_defs[PROBE_TEST_SUSTAINED_WRITE].max_s;
}

/* The MB a point of the rate after the cliff holds at least (cliff.h):
 * SUSTAINED_POINT_QUEUES times what is in flight. */
static double sustained_point_mb(const struct probe_run_state *r)
{
	return SUSTAINED_POINT_QUEUES * (double)r->qd *
	       (double)probe_test_defs[PROBE_TEST_SUSTAINED_WRITE].bs / 1e6;
}

/* The sustained write's stop rule (cliff.h): past the cliff, and the rate
 * after it held for PROBE_CLIFF_HELD_POINTS points within
 * ±PROBE_CLIFF_HELD_PCT. */
static bool sustained_stop(void *arg, const double *win_mbps, const double *win_s, size_t n)
{
	struct probe_cliff_held h;

	(void)win_s;	/* the 1 Hz series' points, each a second long */
	return probe_cliff_held(win_mbps, n, PROBE_CLIFF_HELD_POINTS, PROBE_CLIFF_HELD_PCT,
				sustained_point_mb(arg), &h) == 0 && h.held;
}

/* What ended a sustained write that was not given a fixed time, and what
 * it found, in a note. */
static void sustained_note(struct probe_run_state *r, const struct probe_job *job,
			   const struct probe_job_result *res)
{
	const double gb = (double)res->bytes / 1e9;
	struct probe_cliff_held h;
	const struct probe_cliff *cl = &h.cliff;

	if (probe_cliff_held(res->win_mbps, res->n_windows, PROBE_CLIFF_HELD_POINTS,
			     PROBE_CLIFF_HELD_PCT, sustained_point_mb(r), &h) < 0)
		return;
	if (res->stopped_when)
		profile_device_add_notef(r->dev, "sustained_write: stopped %zu s after the cache cliff at "
			"%.2f GB (%.0f s in, %.2f GB written): the rate after it held at %.0f MB/s ±%.1f %% "
			"(95 %% confidence over %zu s), %.0f MB/s before it", res->n_windows - cl->index,
			cl->gb_before, res->seconds, gb, h.mbps, h.half_pct, h.after, cl->initial_mbps);
	else if (job->max_ios && res->ios >= job->max_ios && cl->found)
		profile_device_add_notef(r->dev, "sustained_write: stopped when the span (%.2f GB) was written "
			"once, %zu s after the cache cliff at %.2f GB (%.0f MB/s after it)", gb,
			res->n_windows - cl->index, cl->gb_before, cl->after_mbps);
	else if (job->max_ios && res->ios >= job->max_ios)
		profile_device_add_notef(r->dev, "sustained_write: stopped when the span (%.2f GB) was written "
			"once, in %.0f s, before any cache cliff (%.0f MB/s throughout): a cache, if any, "
			"holds more than the device", gb, res->seconds, cl->after_mbps);
	else if (cl->found)
		profile_device_add_notef(r->dev, "sustained_write: ran to its %.0f s cap: the cache cliff at "
			"%.2f GB, the rate after it (%.0f MB/s) not known to ±%.0f %% in %zu s", job->max_s,
			cl->gb_before, cl->after_mbps, PROBE_CLIFF_HELD_PCT, h.after);
	else
		profile_device_add_notef(r->dev, "sustained_write: ran to its %.0f s cap without a cache cliff "
			"in %.2f GB written (%.0f MB/s on average): a cache, if any, is larger",
			job->max_s, gb, cl->after_mbps);
}

/*
 * Sequential writes, one point a second (the series).  Given a time
 * (--sustained-seconds), for that long; else that time (quick 30 s, --full
 * 120 s) is a cap, and the write stops sooner once the cache cliff is
 * crossed and the rate after it held (sustained_stop), or once a device's
 * span was written (a scratch file is written again: a drive's cache takes
 * every write, wherever it lands); a note says which.
 */
int probe_run_sustained(struct probe_run_state *r)
{
	const struct probe_test_def *def = &probe_test_defs[PROBE_TEST_SUSTAINED_WRITE];
	const bool fixed = r->o->sustained_s > 0;
	struct probe_job_result res;
	struct probe_job job;
	int ret;

	probe_run_job_for(r, def, def->qd, &job);
	job.window_s = 1.0;
	job.min_s = job.max_s = probe_run_sustained_seconds(r);
	job.stop_on_steady = false;
	if (!fixed) {
		job.min_s = 0;
		job.stop_when = sustained_stop;
		if (r->t->kind != PROBE_TARGET_SCRATCH)
			job.max_ios = r->span / job.bs ? r->span / job.bs : 1;
	}
	ret = probe_run_job(r, def, &job, &res);
	if (ret == 0 && res.ios) {
		r->dev->sustained.seconds = res.seconds;
		if (!fixed)
			sustained_note(r, &job, &res);
	}
	probe_job_result_free(&res);
	return ret;
}

/* The cache cliff from the series of the sustained write. */
void probe_run_sustained_series(struct profile_sustained *su, struct profile_point *pts,
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
