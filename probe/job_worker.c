/* A worker of the measurement loop (job.h, job_int.h): one thread with its
 * engine instance, I/O slots and buffers, an rng and two histograms (read,
 * write).  It publishes running totals through relaxed atomics that only it
 * writes; the controller (job.c) samples them at each window boundary.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>

#include "job_int.h"
#include "rng.h"
#include "tw_util.h"
#include "zoned.h"

#define STAMP_STEP 4096u	/* a fresh 8-byte stamp every 4 KiB written */

/* ---- setup ------------------------------------------------------------ */

/*
 * Backing memory of n bytes of I/O buffers in w->mem.  Regions of 2 MiB
 * and more are 2 MiB aligned and asked for transparent huge pages, so that
 * a large I/O is a few physically contiguous DMA segments, not one per
 * 4 KiB page: on a virtio disk, 1 MiB reads into scattered pages ran at a
 * fifth of the rate of the same reads into huge pages (fio matches with
 * iomem=mmaphuge).  Where THP is off the advice fails or does nothing,
 * and 4 KiB pages are used.  Such a region comes from the job's bufcache
 * when it holds one large enough (free_region gives it back).  Returns 0
 * or -ENOMEM.
 */
static int alloc_region(struct probe_job_worker *w, uint64_t n)
{
	struct probe_bufcache *c = w->sh->job->bufcache;
	const uint64_t len = probe_round_up(n, PROBE_HUGE_SZ);

	w->mem_len = 0;
	if (n < PROBE_HUGE_SZ)
		return posix_memalign(&w->mem, 4096, n) ? -ENOMEM : 0;
	if (c && (w->mem = probe_bufcache_take(c, len, &w->mem_len)))
		return 0;
	if (posix_memalign(&w->mem, PROBE_HUGE_SZ, len))
		return -ENOMEM;
	w->mem_len = len;
	(void)madvise(w->mem, len, MADV_HUGEPAGE);
	return 0;
}

/* Free w->mem, or give it to the job's bufcache.  A worker left behind
 * (join_workers) never touches the cache, which may be gone with its
 * caller: the test and the give are one step under sh->lock, under which
 * join_workers marks it left, so a give that began ends before the job
 * returns. */
static void free_region(struct probe_job_worker *w)
{
	struct probe_job_shared *sh = w->sh;
	struct probe_bufcache *c = sh->job->bufcache;

	pthread_mutex_lock(&sh->lock);
	if (c && w->mem && w->mem_len && !w->left) {
		probe_bufcache_give(c, w->mem, w->mem_len);
		w->mem = NULL;
	}
	pthread_mutex_unlock(&sh->lock);
	free(w->mem);
	w->mem = NULL;
	w->mem_len = 0;
}

/* One allocation for every buffer; write buffers filled with random bytes. */
static int alloc_buffers(struct probe_job_worker *w, const struct probe_job *job)
{
	const uint64_t stride = probe_round_up(job->bs, 4096);
	const bool reads = job->read_pct > 0, writes = job->read_pct < 100;
	unsigned char *p;

	w->nbufs = (reads ? job->qd : 0) + (writes ? job->qd : 0);
	w->rbase = 0;
	w->wbase = reads ? job->qd : 0;
	w->iov = calloc(w->nbufs, sizeof(*w->iov));
	if (!w->iov || alloc_region(w, stride * w->nbufs))
		return -ENOMEM;
	p = w->mem;
	for (unsigned i = 0; i < w->nbufs; i++) {
		w->iov[i].iov_base = p + stride * i;
		w->iov[i].iov_len = job->bs;
	}
	if (reads)	/* fault the pages in now, not while measuring */
		memset(p, 0xff, stride * job->qd);
	if (writes)
		probe_rng_fill(&w->rng, p + stride * w->wbase,
			       stride * job->qd);
	return 0;
}

static int alloc_slots(struct probe_job_worker *w, unsigned qd)
{
	w->io = calloc(qd, sizeof(*w->io));
	w->ev = calloc(qd, sizeof(*w->ev));
	w->free_slots = calloc(qd, sizeof(*w->free_slots));
	w->zone_n = calloc(qd, sizeof(*w->zone_n));
	w->zone_slot_ios = w->sh->job->zone.bytes ?
		probe_zone_ios(&w->sh->job->zone, w->sh->job->bs) / w->sh->job->zone.par : 0;
	if (!w->io || !w->ev || !w->free_slots || !w->zone_n)
		return -ENOMEM;
	for (unsigned i = 0; i < qd; i++) {
		w->io[i].slot = i;
		w->free_slots[i] = qd - 1 - i;	/* slot 0 is used first */
	}
	w->nfree = qd;
	return 0;
}

/* Offsets: random slots, the sequential start of this thread, mix ratio. */
static void setup_offsets(struct probe_job_worker *w, const struct probe_job *job)
{
	const uint64_t span = job->length, bs = job->bs;
	uint64_t start = span / w->sh->threads * w->id;

	w->slots = (span - bs) / job->align + 1;
	w->seq_last = span - bs;
	start -= start % job->align;
	w->seq = start > w->seq_last ? 0 : start;
	if (job->read_pct > 0 && job->read_pct < 100)
		w->rthresh = (uint64_t)(job->read_pct / 100.0 * 18446744073709551616.0);
	w->quota = UINT64_MAX;
	if (job->max_ios) {	/* a share of 0 is possible: that thread idles */
		w->quota = job->max_ios / w->sh->threads;
		w->quota += w->id < job->max_ios % w->sh->threads;
	}
}

static int worker_setup(struct probe_job_worker *w)
{
	const struct probe_job *job = w->sh->job;
	struct probe_engine_params p;
	int ret;

	probe_rng_seed(&w->rng, job->seed + w->id);
	probe_hist_reset(&w->rlat);
	probe_hist_reset(&w->wlat);
	setup_offsets(w, job);
	ret = alloc_slots(w, job->qd);
	if (!ret)
		ret = alloc_buffers(w, job);
	if (ret) {
		snprintf(w->eng.msg, sizeof(w->eng.msg), "out of memory");
		return ret;
	}
	p = (struct probe_engine_params){
		.fd = job->fd, .qd = job->qd, .bufs = w->iov,
		.nbufs = w->nbufs, .opts = job->engine_opts,
	};
	return probe_engine_open(&w->eng, w->sh->engine, &p, !job->no_fallback);
}

static void worker_teardown(struct probe_job_worker *w)
{
	probe_engine_close(&w->eng);	/* waits for I/Os in flight */
	free_region(w);
	free(w->iov);
	free(w->io);
	free(w->ev);
	free(w->free_slots);
	free(w->zone_n);
	w->zone_n = NULL;
	w->iov = NULL;
	w->io = NULL;
	w->ev = NULL;
	w->free_slots = NULL;
}

/* ---- the hot loop ---------------------------------------------------- */

static void stamp_buffer(unsigned char *buf, uint32_t len, uint64_t v)
{
	for (uint32_t o = 0; o < len; o += STAMP_STEP, v++)
		memcpy(buf + o, &v, sizeof(v));
}

/* Choose op, offset and buffer of the I/O in slot io->slot. */
static void next_io(struct probe_job_worker *w, const struct probe_job *job,
		    struct probe_io *io)
{
	uint64_t off;

	if (job->zone.bytes) {	/* zone-sequential: absolute, no wrap */
		off = probe_zone_offset(&job->zone, job->bs, io->slot, w->zone_n[io->slot]++) -
		      job->offset;
	} else if (job->pattern == PROBE_RAND) {
		off = probe_rng_below(&w->rng, w->slots) * job->align;
	} else {
		off = w->seq;
		w->seq = off + job->bs;
		if (w->seq > w->seq_last)
			w->seq = 0;	/* the next block would not fit: wrap */
	}
	if (job->read_pct >= 100)
		io->op = PROBE_OP_READ;
	else if (!job->read_pct)
		io->op = PROBE_OP_WRITE;
	else
		io->op = probe_rng_next(&w->rng) < w->rthresh ? PROBE_OP_READ
							      : PROBE_OP_WRITE;
	io->offset = job->offset + off;
	io->len = job->bs;
	io->buf_index = (io->op == PROBE_OP_READ ? w->rbase : w->wbase) +
			io->slot;
	io->buf = w->iov[io->buf_index].iov_base;
	if (io->op == PROBE_OP_WRITE)
		stamp_buffer(io->buf, io->len, probe_rng_next(&w->rng));
}

static bool all_zero(const unsigned char *p, size_t len)
{
	return !p[0] && !memcmp(p, p + 1, len - 1);
}

/* Account n reaped I/Os, all taken from the kernel at now. */
static void reap(struct probe_job_worker *w, unsigned n, uint64_t now)
{
	const bool counting = now >= atomic_load_explicit(&w->sh->m_start,
							  memory_order_relaxed) &&
			      now < atomic_load_explicit(&w->sh->m_stop,
							 memory_order_relaxed);

	for (unsigned i = 0; i < n; i++) {
		struct probe_io *io = w->ev[i];

		w->free_slots[w->nfree++] = io->slot;
		w->inflight--;
		if (io->res != (int32_t)io->len) {
			probe_job_fail_io(w->sh, io);
			continue;
		}
		if (!counting)
			continue;
		if (io->op == PROBE_OP_READ) {
			probe_hist_add(&w->rlat, now - io->start_ns);
			w->rios++;
			if (!(w->nreads++ & (PROBE_JOB_ZERO_SAMPLE - 1))) {	/* 1st, 65th, … */
				w->zero_samples++;
				w->zero_reads += all_zero(io->buf, io->len);
			}
		} else {
			probe_hist_add(&w->wlat, now - io->start_ns);
			w->wios++;
		}
		w->ios++;
		w->bytes += io->len;
	}
	w->reaped += n;
	atomic_store_explicit(&w->live_reaped, w->reaped, memory_order_relaxed);
	if (counting) {
		w->end_ns = now;
		atomic_store_explicit(&w->live_ios, w->ios, memory_order_relaxed);
	}
}

static bool want_more(struct probe_job_worker *w)
{
	if (atomic_load_explicit(&w->sh->stop, memory_order_relaxed))
		return false;
	if (probe_job_cancel_set(w->sh->job)) {
		probe_job_note_cancel(w->sh);
		return false;
	}
	return w->issued < w->quota;
}

/*
 * Queue every free slot (within the quota) and commit.  Each I/O is stamped
 * just before it is queued: the engine may hand it to the kernel while the
 * next one is prepared (engine_uring.c), so one stamp for the whole refill
 * would start the clock of its first I/Os late.
 */
static int submit(struct probe_job_worker *w)
{
	const struct probe_job *job = w->sh->job;
	const struct probe_engine_ops *ops = w->eng.ops;
	unsigned n = 0;
	uint64_t now = 0;

	while (w->nfree && w->issued + n < w->quota) {
		struct probe_io *io = &w->io[w->free_slots[w->nfree - 1]];
		enum probe_q q;

		if (job->zone.bytes && w->zone_n[io->slot] >= w->zone_slot_ios) {
			w->nfree--;	/* its zones are written: the slot rests */
			continue;
		}
		if (w->gap_ns && w->due_ns > tw_now_ns())
			break;	/* paced: not yet time for the next one */
		next_io(w, job, io);
		now = tw_now_ns();
		io->start_ns = w->gap_ns ? w->due_ns : now;
		q = ops->queue(w->eng.priv, io);
		if (q == PROBE_Q_BUSY)
			break;
		w->due_ns += w->gap_ns;
		w->nfree--;
		w->inflight++;
		if (q == PROBE_Q_COMPLETED) {
			w->ev[0] = io;
			reap(w, 1, tw_now_ns());
			continue;
		}
		n++;
	}
	if (!n)
		return 0;
	if (now >= atomic_load_explicit(&w->sh->m_start, memory_order_relaxed))
		w->issued += n;
	return ops->commit(w->eng.priv);
}

/*
 * How many completions to wait for: at depth 8 and more, half of the I/Os
 * in flight (fio's iodepth_batch_complete_min idea), so that one wake-up
 * reaps several completions; below that, one.  Latency stays exact to the
 * reap.  4 KiB random reads at QD32 on a virtio disk (kernel 6.18): a half
 * reads 130,300 IOPS at the median, one per wake-up 117,500 (fio 123,500);
 * a quarter 3-7 % less than a half, all of them (the queue drains) 20 %
 * less.  On a loop device 1 MiB reads and writes gain 15 % from the half,
 * which is why fio's default reads lower there (docs/probe.md, "Sequential
 * rates on a loop device"); on zram, where io-wq completes, one reads 13 %
 * more than a half (bench/engine-overhead, docs/bench-results.md).
 */
static unsigned reap_min(unsigned inflight)
{
	return inflight >= 8 ? inflight / 2 : 1;
}

/*
 * Paced, nothing in flight: sleep until the next I/O is due (at most
 * CANCEL_POLL_NS, so that stop and cancel are seen).  Returns false when
 * the loop should end (nothing more will be submitted).
 */
static bool pace_idle(struct probe_job_worker *w)
{
	uint64_t now = tw_now_ns(), wait;
	struct timespec ts;

	if (!want_more(w))
		return false;
	if (w->due_ns <= now)
		return true;
	wait = w->due_ns - now;
	if (wait > CANCEL_POLL_NS)
		wait = CANCEL_POLL_NS;
	ts = tw_ts_of_ns(wait);
	nanosleep(&ts, NULL);
	return true;
}

static void run_loop(struct probe_job_worker *w)
{
	const struct probe_engine_ops *ops = w->eng.ops;
	const struct probe_job *job = w->sh->job;
	int ret = 0;
	int n;

	if (job->rate_iops > 0) {
		double gap = (double)w->sh->threads * NS / job->rate_iops;

		w->gap_ns = gap >= 1 ? (uint64_t)gap : 1;
		w->due_ns = tw_now_ns();
		/* sleeps end on time, not up to 50 µs late (the default slack) */
		(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	}
	for (;;) {
		if (want_more(w))
			ret = submit(w);
		if (ret)
			break;
		if (!w->inflight) {
			if (w->gap_ns && pace_idle(w))
				continue;
			break;
		}
		n = ops->getevents(w->eng.priv, w->gap_ns ? 1 : reap_min(w->inflight),
				   w->sh->job->qd, w->ev);
		if (n < 0) {
			ret = n;
			break;
		}
		reap(w, (unsigned)n, tw_now_ns());
	}
	if (ret) {
		char msg[PROBE_ENGINE_MSG];

		snprintf(msg, sizeof(msg), "%s engine: %s", ops->name,
			 strerror(-ret));
		probe_job_fail(w->sh, ret, PROBE_OP_READ, 0, msg);
	}
}

/* Report setup; wait for the start.  Returns true to run, false to quit. */
static bool worker_ready(struct probe_job_worker *w)
{
	struct probe_job_shared *sh = w->sh;
	bool run;

	pthread_mutex_lock(&sh->lock);
	sh->ready++;
	pthread_cond_signal(&sh->ctl_cv);
	while (!sh->go && !sh->abort)
		pthread_cond_wait(&sh->go_cv, &sh->lock);
	run = !sh->abort;
	pthread_mutex_unlock(&sh->lock);
	return run;
}

void *probe_job_worker_main(void *arg)
{
	struct probe_job_worker *w = arg;
	struct probe_job_shared *sh = w->sh;

	w->init_err = worker_setup(w);
	if (worker_ready(w) && !w->init_err) {
		double c0 = tw_cpu_clock_s(CLOCK_THREAD_CPUTIME_ID);
		uint64_t w0 = tw_now_ns();

		run_loop(w);
		w->wall_s = (double)(tw_now_ns() - w0) / NS;
		w->cpu_s = tw_cpu_clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
	}
	worker_teardown(w);
	pthread_mutex_lock(&sh->lock);
	sh->done++;
	w->finished = true;
	pthread_cond_signal(&sh->ctl_cv);
	pthread_mutex_unlock(&sh->lock);
	probe_job_shared_put(sh);
	return NULL;
}
