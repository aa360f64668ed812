/* job.c — the measurement loop's controller (job.h); the workers are
 * job_worker.c, the state they share job_shared.c (job_int.h), engine
 * selection engine.c.
 *
 * Threads: the caller's thread is the controller; each worker owns an
 * engine instance, its I/O slots and buffers, an rng and two histograms
 * (read, write; merged into the overall one at the end).  Workers publish
 * running totals through relaxed atomics that only they write; the
 * controller samples them at each window boundary.  The measured span is
 * [m_start, m_stop) on CLOCK_MONOTONIC: a reaped batch counts when its
 * reap time falls inside.
 *
 * A slow or stalled device must not hold the end of a test: once the time
 * is up the workers stop submitting and reap what is in flight, and the
 * controller waits for them as long as completions keep coming: it gives
 * up when none came for probe_job_stall_s() — what is in flight at the
 * rate the device showed, times PROBE_JOB_STALL_FACTOR, at least
 * PROBE_JOB_STALL_FLOOR_S (a 20 MB/s disk takes 1.7 s to drain 32 MiB;
 * that is slow, not stalled).  After an error or a cancel it waits
 * CANCEL_GRACE_NS at most.  A worker still
 * waiting then is left behind (detached): its buffers must outlive its
 * I/Os, so it finishes and frees them on its own whenever the device
 * answers.  For that the state the workers use — struct probe_job_shared
 * with a copy of the job, the worker array and a duplicate of the caller's fd (the
 * caller may close its own and reuse the number) — is reference-counted
 * and freed by whoever leaves last.  The job then fails with -ETIMEDOUT;
 * a left-behind worker's counts are taken from its published total (I/Os;
 * bytes are I/Os times bs, no latencies).
 */
#include "job.h"
#include "job_int.h"
#include "known.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "steady.h"
#include "tw_util.h"

static int bad(struct probe_job_result *res, const char *msg)
{
	snprintf(res->errmsg, sizeof(res->errmsg), "invalid job: %s", msg);
	return -EINVAL;
}

static bool bad_time(double t)
{
	return !isfinite(t) || t < 0.0 || t > 1e7;
}

static int validate(const struct probe_job *job, double window,
		    struct probe_job_result *res)
{
	if (!job->align || job->align & (job->align - 1))
		return bad(res, "align must be a power of two");
	if (!job->bs || job->bs % job->align || job->bs > (64u << 20))
		return bad(res, "bs must be a multiple of align, at most 64 MiB");
	if (job->offset % job->align)
		return bad(res, "offset must be aligned");
	if (job->length < job->bs || job->length > (UINT64_C(1) << 62) ||
	    job->offset > (UINT64_C(1) << 62))
		return bad(res, "length must hold one block (and be < 2^62)");
	if (!job->qd || job->qd > PROBE_ENGINE_MAX_QD)
		return bad(res, "qd out of range");
	if (job->threads > PROBE_JOB_MAX_THREADS)
		return bad(res, "too many threads");
	if (job->read_pct > 100)
		return bad(res, "read_pct must be 0..100");
	if (job->pattern != PROBE_SEQ && job->pattern != PROBE_RAND)
		return bad(res, "unknown pattern");
	if (bad_time(job->ramp_s) || bad_time(job->min_s) ||
	    bad_time(job->max_s) || !(job->max_s > 0.0) ||
	    job->min_s > job->max_s)
		return bad(res, "need 0 <= min_s <= max_s, max_s > 0");
	if (!(window >= 1e-3) || job->max_s / window > 1e7)
		return bad(res, "window_s out of range");
	if (job->fd < 0 && job->engine != &probe_engine_null)
		return bad(res, "no file descriptor");
	if (!isfinite(job->rate_iops) || job->rate_iops < 0 || job->rate_iops > 1e9)
		return bad(res, "rate_iops must be 0..1e9");
	if (!isfinite(job->known_pct) || job->known_pct < 0 || job->known_pct > 100)
		return bad(res, "known_pct must be 0..100");
	if (!isfinite(job->futile_pct) || job->futile_pct < 0 || job->futile_pct > 100 ||
	    bad_time(job->futile_after_s))
		return bad(res, "futile_pct must be 0..100, futile_after_s a time");
	if (job->zone.bytes && (job->pattern != PROBE_SEQ || job->threads > 1 || job->ramp_s > 0 ||
	    !job->zone.par || job->qd != job->zone.par || !job->zone.n || job->zone.n % job->zone.par || !job->zone.cap ||
	    job->zone.cap % job->bs || job->zone.cap > job->zone.bytes || !job->max_ios ||
	    job->max_ios > probe_zone_ios(&job->zone, job->bs) || job->zone.base < job->offset ||
	    job->zone.base + job->zone.n * job->zone.bytes > job->offset + job->length))
		return bad(res, "zone-sequential writes need one thread, a slot per open zone "
			   "(qd = par), no ramp, whole zones in the span and max_ios within them");
	return 0;
}

static void result_init(struct probe_job_result *res)
{
	memset(res, 0, sizeof(*res));
	probe_hist_reset(&res->lat);
	probe_hist_reset(&res->read_lat);
	probe_hist_reset(&res->write_lat);
}

void probe_job_result_free(struct probe_job_result *res)
{
	if (!res)
		return;
	free(res->win_iops);
	free(res->win_mbps);
	free(res->win_s);
	res->win_iops = res->win_mbps = res->win_s = NULL;
	res->n_windows = 0;
}

/* Start the workers.  Returns how many started (all, or fewer on error). */
static unsigned start_workers(struct probe_job_shared *sh, struct probe_job_worker *w, int *err)
{
	const cpu_set_t *cpus = sh->job->cpus;
	pthread_attr_t attr;
	unsigned i;

	if ((*err = -pthread_attr_init(&attr)))
		return 0;
	if (cpus && (*err = -pthread_attr_setaffinity_np(&attr, sizeof(*cpus), cpus))) {
		pthread_attr_destroy(&attr);
		return 0;
	}
	for (i = 0; i < sh->threads; i++) {
		w[i].sh = sh;
		w[i].id = i;
		atomic_fetch_add(&sh->refs, 1);	/* the worker's, dropped as it ends */
		*err = -pthread_create(&w[i].tid, &attr, probe_job_worker_main, &w[i]);
		if (*err) {
			atomic_fetch_sub(&sh->refs, 1);
			break;
		}
	}
	pthread_attr_destroy(&attr);
	return i;
}

/* Wait for every started worker to report; the first setup error, or 0. */
static int wait_ready(struct probe_job_shared *sh, struct probe_job_worker *w, unsigned n,
		      struct probe_job_result *res)
{
	pthread_mutex_lock(&sh->lock);
	while (sh->ready < n)
		pthread_cond_wait(&sh->ctl_cv, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	for (unsigned i = 0; i < n; i++) {
		if (w[i].init_err) {
			snprintf(res->errmsg, sizeof(res->errmsg), "%s",
				 w[i].eng.msg);
			return w[i].init_err;
		}
		if (w[i].eng.ops != w[0].eng.ops) {
			snprintf(res->errmsg, sizeof(res->errmsg),
				 "threads opened different engines");
			return -EIO;
		}
	}
	return 0;
}

static void release(struct probe_job_shared *sh, bool abort)
{
	pthread_mutex_lock(&sh->lock);
	sh->go = !abort;
	sh->abort = abort;
	pthread_cond_broadcast(&sh->go_cv);
	pthread_mutex_unlock(&sh->lock);
}

enum wake {
	WAKE_DEADLINE,	/* the time came */
	WAKE_EVENT,	/* an error or cancel */
	WAKE_DONE,	/* every worker finished (max_ios reached) */
};

/* Under sh->lock: what ended the wait, or WAKE_DEADLINE to go on. */
static enum wake pending(struct probe_job_shared *sh)
{
	if (!sh->event && probe_job_cancel_set(sh->job)) {
		sh->cancelled = sh->event = true;
		atomic_store(&sh->stop, true);
	}
	if (sh->event)
		return WAKE_EVENT;
	return sh->done == sh->threads ? WAKE_DONE : WAKE_DEADLINE;
}

/*
 * Sleep until deadline (ns), an event or every worker done, polling
 * *cancel every CANCEL_POLL_NS (a signal handler cannot wake a condition
 * variable).
 */
static enum wake sleep_until(struct probe_job_shared *sh, uint64_t deadline)
{
	enum wake why;
	uint64_t now;

	pthread_mutex_lock(&sh->lock);
	while ((why = pending(sh)) == WAKE_DEADLINE &&
	       (now = tw_now_ns()) < deadline) {
		struct timespec ts = tw_ts_of_ns(deadline - now > CANCEL_POLL_NS
						   ? now + CANCEL_POLL_NS
						   : deadline);

		pthread_cond_timedwait(&sh->ctl_cv, &sh->lock, &ts);
	}
	pthread_mutex_unlock(&sh->lock);
	return why;
}

struct probe_sample {
	uint64_t ns, ios, bytes;
};

static struct probe_sample take_sample(const struct probe_job_shared *sh,
				       const struct probe_job_worker *w)
{
	struct probe_sample s = { .ns = tw_now_ns() };

	for (unsigned i = 0; i < sh->threads; i++)
		s.ios += atomic_load_explicit(&w[i].live_ios,
					      memory_order_relaxed);
	s.bytes = s.ios * sh->job->bs;	/* every I/O is bs: no torn pair */
	return s;
}

/* Record window k from two samples and tell the caller. */
static void add_window(const struct probe_job *job,
		       struct probe_job_result *res, const struct probe_sample *a,
		       const struct probe_sample *b, uint64_t m_start)
{
	const double dt = (double)(b->ns - a->ns) / NS;
	struct probe_window win = {
		.index = res->n_windows,
		.elapsed_s = (double)(b->ns - m_start) / NS,
		.iops = dt > 0 ? (double)(b->ios - a->ios) / dt : 0.0,
		.mbps = dt > 0 ? (double)(b->bytes - a->bytes) / dt / 1e6 : 0.0,
	};

	res->win_iops[res->n_windows] = win.iops;
	res->win_mbps[res->n_windows] = win.mbps;
	res->win_s[res->n_windows] = dt;
	res->n_windows++;
	if (job->on_window)
		job->on_window(job->arg, &win);
}

static bool steady_now(const struct probe_job_result *res)
{
	struct probe_steady st;

	return probe_steady_check(res->win_iops, res->n_windows, &st) == 0 &&
	       st.steady;
}

/*
 * Whether the band k of the windows so far (elapsed_ns measured; the caller
 * checked known_pct and min_ios),
 * narrowing as batch means do (× √(t / max_s)), would still be wider than
 * job->futile_pct at the cap: job.h's futile_pct.  A device whose rate
 * wanders more slowly than that narrows even less, so the projection errs
 * on the side of running on.  Not before every batch has a window of its
 * own (PROBE_KNOWN_BATCHES): fewer windows mean a slow device's stretched
 * ones, whose band is wide for want of samples, not because the rate
 * swings — there the cap brings the samples (seen in the lab's six-links
 * server before getevents' wait was bounded, engine.h: 64 reads in 1.3 s,
 * reaped 16 at a time, read 48 MB/s of a 40 MB/s disk).
 */
static bool futile_now(const struct probe_job *job, const struct probe_job_result *res,
		       const struct probe_known *k, uint64_t elapsed_ns, uint64_t ios)
{
	const double t = (double)elapsed_ns / NS;

	if (!(job->futile_pct > 0) || t < job->futile_after_s || t >= job->max_s ||
	    ios < job->futile_min_ios ||
	    res->n_windows < PROBE_KNOWN_BATCHES || !isfinite(k->half_pct))
		return false;
	return probe_known_projected(k->half_pct, t, job->max_s) > job->futile_pct;
}

/*
 * The measurement: ramp, then windows until max_s, steady state, an
 * event or every worker done (*done set).  Windows are back to back, each
 * at least window long and of win_min_ios I/Os (or ten windows long, for a
 * stalled device); while one stays open past its time for want of I/Os,
 * the controller looks again a quarter window later (never spins).  The
 * stop rules are checked when a window closes.  Returns the end time.
 */
static uint64_t control(struct probe_job_shared *sh, struct probe_job_worker *w, double window,
			struct probe_job_result *res, size_t cap, bool *done)
{
	const struct probe_job *job = sh->job;
	const uint64_t m_start = atomic_load(&sh->m_start);
	const uint64_t win_ns = (uint64_t)(window * NS);
	const uint64_t end = m_start + (uint64_t)(job->max_s * NS);
	const uint64_t min_end = m_start + (uint64_t)(job->min_s * NS);
	struct probe_sample prev = { .ns = m_start }, cur;
	uint64_t next = m_start + win_ns;
	enum wake why = sleep_until(sh, m_start);

	for (;;) {
		bool closed = false;

		if (why == WAKE_DEADLINE)
			why = sleep_until(sh, next < end ? next : end);
		if (why != WAKE_DEADLINE) {
			*done = why == WAKE_DONE;
			return tw_now_ns();
		}
		cur = take_sample(sh, w);
		if (cur.ns >= prev.ns + win_ns && res->n_windows < cap &&
		    (cur.ios - prev.ios >= job->win_min_ios || cur.ns >= prev.ns + 10 * win_ns)) {
			add_window(job, res, &prev, &cur, m_start);
			prev = cur;
			closed = true;
		}
		next = closed || cur.ns < next ? prev.ns + win_ns : cur.ns + win_ns / 4;
		if (cur.ns >= end)
			return cur.ns;
		if (!closed || cur.ns < min_end)
			continue;
		if (job->stop_on_steady && steady_now(res)) {
			res->stopped_steady = true;
			return cur.ns;
		}
		if (job->stop_when && job->stop_when(job->arg, res->win_mbps, res->win_s, res->n_windows)) {
			res->stopped_when = true;
			return cur.ns;
		}
		if (job->known_pct > 0 && cur.ios >= job->min_ios) {
			/* one band per closed window, for both rules */
			struct probe_known k;

			if (probe_known_check_w(res->win_iops, res->win_s, res->n_windows, &k) == 0 &&
			    k.half_pct <= job->known_pct) {
				res->known = true;
				return cur.ns;
			}
			if (futile_now(job, res, &k, cur.ns - m_start, cur.ios)) {
				res->futile = true;
				return cur.ns;
			}
		}
	}
}

static void merge_worker(struct probe_job_result *res, const struct probe_job_worker *w)
{
	res->ios += w->ios;
	res->bytes += w->bytes;
	res->all_ios += w->reaped;
	res->read_ios += w->rios;
	res->write_ios += w->wios;
	res->zero_samples += w->zero_samples;
	res->zero_reads += w->zero_reads;
	probe_hist_merge(&res->read_lat, &w->rlat);
	probe_hist_merge(&res->write_lat, &w->wlat);
}

/* A worker left behind still runs: only its published totals are read. */
static void merge_left(struct probe_job_result *res, struct probe_job_worker *w)
{
	uint64_t ios = atomic_load_explicit(&w->live_ios, memory_order_relaxed);

	res->ios += ios;
	res->bytes += ios * w->sh->job->bs;
}

/*
 * Why the job failed when workers were left behind by a quiet device.  A
 * message too long for errmsg is cut (the numbers come first).
 */
static void stall_msg(struct probe_job_result *res, const struct probe_job_shared *sh)
{
	const unsigned n = sh->threads * sh->job->qd;
	char rate[64] = "no completion during the test";
	int len;

	if (sh->rate > 0 &&
	    snprintf(rate, sizeof(rate), "%u I/Os take %.2f s at its %.0f IOPS",
		     n, n / sh->rate, sh->rate) >= (int)sizeof(rate))
		snprintf(rate, sizeof(rate), "%u I/Os in flight", n);
	len = snprintf(res->errmsg, sizeof(res->errmsg),
		       "I/O still in flight %.1f s after the end of the test, none "
		       "completed for %.1f s (the device stalled; %s); %u of %u "
		       "thread%s left in the background", sh->drain_s,
		       sh->quiet_s, rate, sh->left, sh->threads,
		       sh->threads > 1 ? "s" : "");
	if (len < 0)
		snprintf(res->errmsg, sizeof(res->errmsg), "the device stalled");
}

/* Merge the workers' figures and the job's outcome (under sh->lock). */
static void finish(struct probe_job_result *res, struct probe_job_shared *sh,
		   struct probe_job_worker *w, uint64_t m_start, uint64_t stop,
		   bool done)
{
	struct probe_steady st;
	uint64_t last = 0;
	double cpu = 0, wall = 0;

	pthread_mutex_lock(&sh->lock);
	for (unsigned i = 0; i < sh->threads; i++) {
		if (w[i].left) {
			merge_left(res, &w[i]);
			continue;
		}
		merge_worker(res, &w[i]);
		if (w[i].end_ns > last)
			last = w[i].end_ns;
		cpu += w[i].cpu_s;
		wall = w[i].wall_s > wall ? w[i].wall_s : wall;
	}
	res->busy_cores = wall > 0 ? cpu / wall : NAN;
	probe_hist_merge(&res->lat, &res->read_lat);
	probe_hist_merge(&res->lat, &res->write_lat);
	if (done && last && last < stop)
		stop = last;	/* max_ios ended it: up to the last reap */
	res->seconds = stop > m_start ? (double)(stop - m_start) / NS : 0.0;
	if (res->seconds > 0) {
		res->iops = (double)res->ios / res->seconds;
		res->mbps = (double)res->bytes / res->seconds / 1e6;
	}
	probe_steady_check(res->win_iops, res->n_windows, &st);
	{
		struct probe_known k;

		probe_known_check_w(res->win_iops, res->win_s, res->n_windows, &k);
		res->known_pct = k.half_pct;
	}
	res->steady = st.steady;
	res->spread_pct = st.spread_pct;
	res->slope_pct = st.slope_pct;
	res->cancelled = sh->cancelled;
	res->error = sh->error;
	res->error_op = sh->error_op;
	res->error_offset = sh->error_offset;
	if (sh->error)
		snprintf(res->errmsg, sizeof(res->errmsg), "%s", sh->errmsg);
	else if (sh->cancelled)
		snprintf(res->errmsg, sizeof(res->errmsg), "cancelled");
	else if (sh->left)
		stall_msg(res, sh);
	pthread_mutex_unlock(&sh->lock);
}

double probe_job_stall_s(double inflight, double rate)
{
	double t;

	if (!(rate > 0) || !isfinite(rate) || !(inflight > 0) ||
	    !isfinite(inflight))
		return PROBE_JOB_STALL_FLOOR_S;
	t = PROBE_JOB_STALL_FACTOR * inflight / rate;
	if (t < PROBE_JOB_STALL_FLOOR_S)
		return PROBE_JOB_STALL_FLOOR_S;
	return t > PROBE_JOB_STALL_CAP_S ? PROBE_JOB_STALL_CAP_S : t;
}

static uint64_t reaped_total(const struct probe_job_shared *sh, const struct probe_job_worker *w)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < sh->threads; i++)
		n += atomic_load_explicit(&w[i].live_reaped, memory_order_relaxed);
	return n;
}

/*
 * Under sh->lock: wait until every started worker (n) finished, or no I/O
 * completed for sh->stall_s (CANCEL_GRACE_NS once an error or a cancel is
 * seen).  Polls every CANCEL_POLL_NS for completions and *cancel.
 */
static void wait_drain(struct probe_job_shared *sh, struct probe_job_worker *w, unsigned n,
		       uint64_t start)
{
	uint64_t seen = reaped_total(sh, w), quiet = start, now = start;

	while (sh->done < n) {
		const uint64_t grace = pending(sh) == WAKE_EVENT
			? CANCEL_GRACE_NS : (uint64_t)(sh->stall_s * NS);
		const uint64_t cur = reaped_total(sh, w);
		struct timespec ts;

		if (cur != seen) {
			seen = cur;
			quiet = now;
		}
		if (now - quiet >= grace)
			break;
		ts = tw_ts_of_ns(now + CANCEL_POLL_NS);
		pthread_cond_timedwait(&sh->ctl_cv, &sh->lock, &ts);
		now = tw_now_ns();
	}
	sh->drain_s = (double)(now - start) / NS;
	sh->quiet_s = (double)(now - quiet) / NS;
}

/*
 * Join the n started workers once they finish or the device goes quiet
 * (wait_drain); those still running then are detached and marked left
 * (they free what they own and drop their reference when their I/Os
 * complete).  t0 is the release of the workers, stop the end of the test:
 * the rate between them sets the stall time.
 */
static void join_workers(struct probe_job_shared *sh, struct probe_job_worker *w, unsigned n,
			 uint64_t t0, uint64_t stop)
{
	const double ran = (double)(stop - t0) / NS;

	pthread_mutex_lock(&sh->lock);
	sh->rate = ran > 0 ? (double)reaped_total(sh, w) / ran : 0.0;
	sh->stall_s = probe_job_stall_s((double)sh->threads * sh->job->qd,
					sh->rate);
	wait_drain(sh, w, n, tw_now_ns());
	for (unsigned i = 0; i < n; i++) {
		w[i].left = !w[i].finished;
		sh->left += w[i].left;
	}
	pthread_mutex_unlock(&sh->lock);
	for (unsigned i = 0; i < n; i++) {
		if (w[i].left)
			pthread_detach(w[i].tid);
		else
			pthread_join(w[i].tid, NULL);
	}
}

static int alloc_windows(struct probe_job_result *res, size_t cap)
{
	res->win_iops = calloc(cap, sizeof(double));
	res->win_mbps = calloc(cap, sizeof(double));
	res->win_s = calloc(cap, sizeof(double));
	return res->win_iops && res->win_mbps && res->win_s ? 0 : -ENOMEM;
}

/* Run the started workers from release to join; fill res. */
static int run_started(struct probe_job_shared *sh, struct probe_job_worker *w, double window,
		       struct probe_job_result *res, size_t cap)
{
	const struct probe_engine *e = &w[0].eng;
	uint64_t t0, stop;
	bool done = false;

	/* Note the engine now: the workers close theirs when they finish. */
	snprintf(res->engine, sizeof(res->engine), "%s", e->ops->name);
	snprintf(res->engine_desc, sizeof(res->engine_desc), "%s",
		 e->info.desc);
	if (e->fell_back)
		snprintf(res->notice, sizeof(res->notice), "%s", e->msg);
	t0 = tw_now_ns();
	atomic_store(&sh->m_start, t0 + (uint64_t)(sh->job->ramp_s * NS));
	release(sh, false);
	stop = control(sh, w, window, res, cap, &done);
	atomic_store(&sh->m_stop, stop);
	atomic_store(&sh->stop, true);
	join_workers(sh, w, sh->threads, t0, stop);
	finish(res, sh, w, atomic_load(&sh->m_start), stop, done);
	if (res->error)
		return res->error;
	if (res->cancelled)
		return -ECANCELED;
	return sh->left ? -ETIMEDOUT : 0;
}

static int run_workers(struct probe_job_shared *sh, double window,
		       struct probe_job_result *res, size_t cap)
{
	struct probe_job_worker *w = aligned_alloc(64, probe_round_up(sizeof(*w) * sh->threads, 64));
	unsigned started;
	int ret;

	if (!w)
		return -ENOMEM;
	memset(w, 0, sizeof(*w) * sh->threads);
	sh->w = w;	/* freed with sh, by whoever leaves last */
	started = start_workers(sh, w, &ret);
	if (!ret)
		ret = wait_ready(sh, w, started, res);
	else
		wait_ready(sh, w, started, res);
	if (!ret) {
		ret = run_started(sh, w, window, res, cap);
	} else {
		release(sh, true);
		for (unsigned i = 0; i < started; i++)
			pthread_join(w[i].tid, NULL);
		if (!res->errmsg[0])
			snprintf(res->errmsg, sizeof(res->errmsg),
				 "cannot start threads: %s", strerror(-ret));
	}
	return ret;
}

int probe_job_run(const struct probe_job *job, struct probe_job_result *res)
{
	const double window = job->window_s > 0 ? job->window_s
						: PROBE_JOB_DEFAULT_WINDOW;
	struct probe_job_shared *sh = NULL;
	size_t cap;
	int ret;

	result_init(res);
	ret = validate(job, window, res);
	if (ret)
		return ret;
	cap = (size_t)(job->max_s / window) + 2;
	ret = alloc_windows(res, cap);
	if (!ret)
		sh = probe_job_shared_new(job, &ret);
	if (!sh) {
		snprintf(res->errmsg, sizeof(res->errmsg), "%s",
			 ret == -ENOMEM ? "out of memory" : strerror(-ret));
		return ret;
	}
	ret = run_workers(sh, window, res, cap);
	probe_job_shared_put(sh);
	return ret;
}

