/* job.c — the measurement loop (see job.h); engine selection is engine.c.
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
 * answers.  For that the state the workers use — struct shared with a copy
 * of the job, the worker array and a duplicate of the caller's fd (the
 * caller may close its own and reuse the number) — is reference-counted
 * and freed by whoever leaves last.  The job then fails with -ETIMEDOUT;
 * a left-behind worker's counts are taken from its published total (I/Os;
 * bytes are I/Os times bs, no latencies).
 */
#include "job.h"
#include "known.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "rng.h"
#include "steady.h"
#include "tw_util.h"

#define NS 1000000000.0
#define STAMP_STEP 4096u	/* a fresh 8-byte stamp every 4 KiB written */
#define CANCEL_POLL_NS 50000000u	/* the controller polls *cancel */
#define CANCEL_GRACE_NS 1000000000u	/* after an error or a cancel, the
					 * end waits this long for I/O in
					 * flight, at most */

/* ---- shared state ---------------------------------------------------- */

struct worker;

struct shared {
	const struct probe_job *job;	/* == &jc */
	struct probe_job jc;		/* the caller's job; fd duplicated */
	atomic_uint refs;		/* the controller + each started worker */
	struct worker *w;		/* threads entries, freed with this */
	const struct probe_engine_ops *engine;
	unsigned threads;
	pthread_mutex_t lock;
	pthread_cond_t ctl_cv;	/* controller waits (CLOCK_MONOTONIC) */
	pthread_cond_t go_cv;	/* workers wait for the start */
	unsigned ready, done;	/* workers set up / finished (under lock) */
	unsigned left;		/* workers left behind (under lock) */
	bool go, abort;		/* under lock */
	bool event;		/* error or cancel seen (under lock) */
	bool cancelled;		/* under lock */
	int error;		/* first failure (under lock) */
	enum probe_io_op error_op;
	uint64_t error_offset;
	char errmsg[PROBE_ENGINE_MSG];
	_Atomic uint64_t m_start, m_stop;	/* the measured span, ns */
	atomic_bool stop;	/* workers: stop submitting */
	/* The drain (controller only): how long it waited, and why it quit. */
	double drain_s, quiet_s, stall_s, rate;
};

struct worker {
	/* Written by the worker only, read by the controller: own line. */
	_Alignas(64) _Atomic uint64_t live_ios;	/* bytes: live_ios * bs */
	_Atomic uint64_t live_reaped;	/* every reap, counted or not */
	_Alignas(64) struct shared *sh;
	unsigned id;
	pthread_t tid;
	int init_err;
	bool finished;		/* under sh->lock */
	bool left;		/* detached by the controller (under sh->lock) */
	struct probe_engine eng;
	/* slots and buffers */
	struct probe_io *io, **ev;
	uint32_t *free_slots;
	uint64_t *zone_n;	/* zone-sequential: I/Os each slot issued */
	uint64_t zone_slot_ios;	/* and how many a slot's zones hold */
	unsigned nfree, inflight;
	void *mem;
	uint64_t mem_len;	/* of a region of 2 MiB or more (0: a small one) */
	struct iovec *iov;
	unsigned nbufs, rbase, wbase;
	/* offsets and ops */
	struct probe_rng rng;
	uint64_t slots, seq, seq_last, rthresh;
	uint64_t quota, issued;	/* measured submissions; UINT64_MAX = no cap */
	uint64_t due_ns, gap_ns;	/* paced: the next I/O's time, the step */
	/* results */
	uint64_t ios, bytes, rios, wios, nreads, zero_samples, zero_reads;
	uint64_t reaped;	/* every reaped I/O, ramp and drain included */
	uint64_t end_ns;	/* last counted reap */
	double cpu_s, wall_s;	/* this thread's CPU and wall time in run_loop */
	struct probe_hist rlat, wlat;
};

/*
 * The shared state of job, with one reference (the controller's), a copy
 * of job and a duplicate of its fd (when it has one).  Returns NULL with
 * *err = -errno on failure.
 */
static struct shared *shared_new(const struct probe_job *job, int *err)
{
	struct shared *sh = calloc(1, sizeof(*sh));
	pthread_condattr_t ca;

	if (!sh || pthread_condattr_init(&ca)) {
		free(sh);
		*err = -ENOMEM;
		return NULL;
	}
	sh->jc = *job;
	sh->job = &sh->jc;
	if (job->fd >= 0 && (sh->jc.fd = fcntl(job->fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		*err = -errno;
		pthread_condattr_destroy(&ca);
		free(sh);
		return NULL;
	}
	atomic_init(&sh->refs, 1);
	sh->engine = job->engine ? job->engine : &probe_engine_uring;
	sh->threads = job->threads ? job->threads : 1;
	atomic_init(&sh->m_start, UINT64_MAX);
	atomic_init(&sh->m_stop, UINT64_MAX);
	atomic_init(&sh->stop, false);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sh->ctl_cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&sh->go_cv, NULL);
	pthread_mutex_init(&sh->lock, NULL);
	return sh;
}

/* Drop a reference; the last one frees sh, its workers and its fd. */
static void shared_put(struct shared *sh)
{
	if (atomic_fetch_sub(&sh->refs, 1) != 1)
		return;
	if (sh->jc.fd >= 0)
		close(sh->jc.fd);
	pthread_cond_destroy(&sh->ctl_cv);
	pthread_cond_destroy(&sh->go_cv);
	pthread_mutex_destroy(&sh->lock);
	free(sh->w);
	free(sh);
}

static bool cancel_set(const struct probe_job *job)
{
	return job->cancel && *job->cancel;
}

/* Record the first failure of the job and wake the controller. */
static void fail(struct shared *sh, int err, enum probe_io_op op,
		 uint64_t off, const char *msg)
{
	pthread_mutex_lock(&sh->lock);
	if (!sh->error) {
		sh->error = err;
		sh->error_op = op;
		sh->error_offset = off;
		snprintf(sh->errmsg, sizeof(sh->errmsg), "%s", msg);
	}
	sh->event = true;
	atomic_store(&sh->stop, true);
	pthread_cond_signal(&sh->ctl_cv);
	pthread_mutex_unlock(&sh->lock);
}

static void fail_io(struct shared *sh, const struct probe_io *io)
{
	char msg[PROBE_ENGINE_MSG];
	const char *what = io->op == PROBE_OP_WRITE ? "write" : "read";

	if (io->res < 0)
		snprintf(msg, sizeof(msg), "%s of %u bytes at offset %llu: %s",
			 what, io->len, (unsigned long long)io->offset,
			 strerror(-io->res));
	else
		snprintf(msg, sizeof(msg),
			 "short %s at offset %llu: %d of %u bytes", what,
			 (unsigned long long)io->offset, io->res, io->len);
	fail(sh, io->res < 0 ? io->res : -EIO, (enum probe_io_op)io->op,
	     io->offset, msg);
}

static void note_cancel(struct shared *sh)
{
	pthread_mutex_lock(&sh->lock);
	sh->cancelled = true;
	sh->event = true;
	atomic_store(&sh->stop, true);
	pthread_cond_signal(&sh->ctl_cv);
	pthread_mutex_unlock(&sh->lock);
}

/* ---- worker: setup --------------------------------------------------- */

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

#define HUGE_SZ (2u << 20)

void probe_bufcache_init(struct probe_bufcache *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cv, NULL);
}

void probe_bufcache_destroy(struct probe_bufcache *c)
{
	if (c->pf_started)
		pthread_join(c->pf, NULL);
	c->pf_started = c->pf_busy = false;
	for (unsigned i = 0; i < PROBE_BUFCACHE_N; i++) {
		free(c->mem[i]);
		c->mem[i] = NULL;
		c->len[i] = 0;
	}
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->lock);
}

/* The smallest region of c that holds len bytes, taken out of c: its
 * address, its length in *got; NULL when none does.  When none does but
 * the region being prefaulted would, and is less than twice len, waits for
 * it (a smaller job maps its own meanwhile). */
static void *cache_take(struct probe_bufcache *c, uint64_t len, uint64_t *got)
{
	void *m = NULL;
	unsigned best;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		best = PROBE_BUFCACHE_N;
		for (unsigned i = 0; i < PROBE_BUFCACHE_N; i++)
			if (c->mem[i] && c->len[i] >= len &&
			    (best == PROBE_BUFCACHE_N || c->len[i] < c->len[best]))
				best = i;
		if (best < PROBE_BUFCACHE_N || !c->pf_busy || c->pf_len < len ||
		    c->pf_len / 2 >= len)
			break;
		pthread_cond_wait(&c->cv, &c->lock);
	}
	if (best < PROBE_BUFCACHE_N) {
		m = c->mem[best];
		*got = c->len[best];
		c->mem[best] = NULL;
	}
	pthread_mutex_unlock(&c->lock);
	return m;
}

/* Give region m of len bytes to c, its lock held: into a free entry, else
 * in place of the smallest one when that is smaller; returns what is left
 * over for the caller to free (the region replaced, or m), or NULL. */
static void *cache_put(struct probe_bufcache *c, void *m, uint64_t len)
{
	unsigned slot = PROBE_BUFCACHE_N;

	for (unsigned i = 0; i < PROBE_BUFCACHE_N; i++) {
		if (!c->mem[i]) {
			slot = i;
			break;
		}
		if (c->len[i] < len && (slot == PROBE_BUFCACHE_N || c->len[i] < c->len[slot]))
			slot = i;
	}
	if (slot < PROBE_BUFCACHE_N) {
		void *old = c->mem[slot];

		c->mem[slot] = m;
		c->len[slot] = len;
		m = old;
	}
	return m;
}

/* Give region m of len bytes to c (cache_put), freeing what is left over. */
static void cache_give(struct probe_bufcache *c, void *m, uint64_t len)
{
	pthread_mutex_lock(&c->lock);
	m = cache_put(c, m, len);
	pthread_mutex_unlock(&c->lock);
	free(m);
}

/* probe_bufcache_prefault's thread: the region faulted in, into the cache. */
static void *prefault_main(void *arg)
{
	struct probe_bufcache *c = arg;
	void *m = NULL;

	if (posix_memalign(&m, HUGE_SZ, c->pf_len))
		m = NULL;
	if (m) {
		(void)madvise(m, c->pf_len, MADV_HUGEPAGE);
		memset(m, 0xff, c->pf_len);
	}
	pthread_mutex_lock(&c->lock);	/* in, and done, in one step */
	if (m)
		m = cache_put(c, m, c->pf_len);
	c->pf_busy = false;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->lock);
	free(m);
	return NULL;
}

int probe_bufcache_prefault(struct probe_bufcache *c, uint64_t len)
{
	int ret;

	if (len < HUGE_SZ)
		return -EINVAL;
	pthread_mutex_lock(&c->lock);
	if (c->pf_started) {
		pthread_mutex_unlock(&c->lock);
		return -EBUSY;
	}
	c->pf_len = round_up(len, HUGE_SZ);
	c->pf_started = c->pf_busy = true;
	pthread_mutex_unlock(&c->lock);
	ret = -pthread_create(&c->pf, NULL, prefault_main, c);
	if (ret) {
		pthread_mutex_lock(&c->lock);
		c->pf_started = c->pf_busy = false;
		pthread_mutex_unlock(&c->lock);
	}
	return ret;
}

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
static int alloc_region(struct worker *w, uint64_t n)
{
	struct probe_bufcache *c = w->sh->job->bufcache;
	const uint64_t len = round_up(n, HUGE_SZ);

	w->mem_len = 0;
	if (n < HUGE_SZ)
		return posix_memalign(&w->mem, 4096, n) ? -ENOMEM : 0;
	if (c && (w->mem = cache_take(c, len, &w->mem_len)))
		return 0;
	if (posix_memalign(&w->mem, HUGE_SZ, len))
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
static void free_region(struct worker *w)
{
	struct shared *sh = w->sh;
	struct probe_bufcache *c = sh->job->bufcache;

	pthread_mutex_lock(&sh->lock);
	if (c && w->mem && w->mem_len && !w->left) {
		cache_give(c, w->mem, w->mem_len);
		w->mem = NULL;
	}
	pthread_mutex_unlock(&sh->lock);
	free(w->mem);
	w->mem = NULL;
	w->mem_len = 0;
}

/* One allocation for every buffer; write buffers filled with random bytes. */
static int alloc_buffers(struct worker *w, const struct probe_job *job)
{
	const uint64_t stride = round_up(job->bs, 4096);
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

static int alloc_slots(struct worker *w, unsigned qd)
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

uint64_t probe_zone_ios(const struct probe_zone_map *m, uint32_t bs)
{
	return bs ? m->n * (m->cap / bs) : 0;
}

uint64_t probe_zone_offset(const struct probe_zone_map *m, uint32_t bs, unsigned slot, uint64_t n)
{
	const uint64_t k = m->cap / bs;

	return m->base + ((n / k) * m->par + slot) * m->bytes + (n % k) * bs;
}

/* Offsets: random slots, the sequential start of this thread, mix ratio. */
static void setup_offsets(struct worker *w, const struct probe_job *job)
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

static int worker_setup(struct worker *w)
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

static void worker_teardown(struct worker *w)
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

/* ---- worker: the hot loop -------------------------------------------- */


static void stamp_buffer(unsigned char *buf, uint32_t len, uint64_t v)
{
	for (uint32_t o = 0; o < len; o += STAMP_STEP, v++)
		memcpy(buf + o, &v, sizeof(v));
}

/* Choose op, offset and buffer of the I/O in slot io->slot. */
static void next_io(struct worker *w, const struct probe_job *job,
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
static void reap(struct worker *w, unsigned n, uint64_t now)
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
			fail_io(w->sh, io);
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

static bool want_more(struct worker *w)
{
	if (atomic_load_explicit(&w->sh->stop, memory_order_relaxed))
		return false;
	if (cancel_set(w->sh->job)) {
		note_cancel(w->sh);
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
static int submit(struct worker *w)
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
 * reaps several completions; below that, one.  Measured at QD32 4 KiB
 * against fio on zram (io-wq does the copy; every wake-up of this thread
 * costs the completing side a try_to_wake_up) and on a virtio disk: a half
 * beat a quarter by 3-7 %, one completion per wake-up lost 20-25 %, all of
 * them (the queue drains) lost 20 %.  Latency stays exact to the reap.
 * Measured again in session 13 (kernel 6.18, two io_uring_enter calls per
 * refill): on the virtual disk a half still beat one (median 130,300
 * against 117,500 IOPS, fio 123,500); on zram one beat a half by 13 %
 * (io-wq completes there); on a loop device 1 MiB reads and writes gain
 * 15 % from the half, which is why fio's default reads lower there
 * (docs/probe.md, "Sequential rates on a loop device").
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
static bool pace_idle(struct worker *w)
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

static void run_loop(struct worker *w)
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
		fail(w->sh, ret, PROBE_OP_READ, 0, msg);
	}
}

/* Report setup; wait for the start.  Returns true to run, false to quit. */
static bool worker_ready(struct worker *w)
{
	struct shared *sh = w->sh;
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

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;

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
	shared_put(sh);
	return NULL;
}

/* ---- controller ------------------------------------------------------ */

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
static unsigned start_workers(struct shared *sh, struct worker *w, int *err)
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
		*err = -pthread_create(&w[i].tid, &attr, worker_main, &w[i]);
		if (*err) {
			atomic_fetch_sub(&sh->refs, 1);
			break;
		}
	}
	pthread_attr_destroy(&attr);
	return i;
}

/* Wait for every started worker to report; the first setup error, or 0. */
static int wait_ready(struct shared *sh, struct worker *w, unsigned n,
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

static void release(struct shared *sh, bool abort)
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
static enum wake pending(struct shared *sh)
{
	if (!sh->event && cancel_set(sh->job)) {
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
static enum wake sleep_until(struct shared *sh, uint64_t deadline)
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

struct sample {
	uint64_t ns, ios, bytes;
};

static struct sample take_sample(const struct shared *sh,
				 const struct worker *w)
{
	struct sample s = { .ns = tw_now_ns() };

	for (unsigned i = 0; i < sh->threads; i++)
		s.ios += atomic_load_explicit(&w[i].live_ios,
					      memory_order_relaxed);
	s.bytes = s.ios * sh->job->bs;	/* every I/O is bs: no torn pair */
	return s;
}

/* Record window k from two samples and tell the caller. */
static void add_window(const struct probe_job *job,
		       struct probe_job_result *res, const struct sample *a,
		       const struct sample *b, uint64_t m_start)
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
static uint64_t control(struct shared *sh, struct worker *w, double window,
			struct probe_job_result *res, size_t cap, bool *done)
{
	const struct probe_job *job = sh->job;
	const uint64_t m_start = atomic_load(&sh->m_start);
	const uint64_t win_ns = (uint64_t)(window * NS);
	const uint64_t end = m_start + (uint64_t)(job->max_s * NS);
	const uint64_t min_end = m_start + (uint64_t)(job->min_s * NS);
	struct sample prev = { .ns = m_start }, cur;
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

static void merge_worker(struct probe_job_result *res, const struct worker *w)
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
static void merge_left(struct probe_job_result *res, struct worker *w)
{
	uint64_t ios = atomic_load_explicit(&w->live_ios, memory_order_relaxed);

	res->ios += ios;
	res->bytes += ios * w->sh->job->bs;
}

/*
 * Why the job failed when workers were left behind by a quiet device.  A
 * message too long for errmsg is cut (the numbers come first).
 */
static void stall_msg(struct probe_job_result *res, const struct shared *sh)
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
static void finish(struct probe_job_result *res, struct shared *sh,
		   struct worker *w, uint64_t m_start, uint64_t stop,
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

static uint64_t reaped_total(const struct shared *sh, const struct worker *w)
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
static void wait_drain(struct shared *sh, struct worker *w, unsigned n,
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
static void join_workers(struct shared *sh, struct worker *w, unsigned n,
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
static int run_started(struct shared *sh, struct worker *w, double window,
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

static int run_workers(struct shared *sh, double window,
		       struct probe_job_result *res, size_t cap)
{
	struct worker *w = aligned_alloc(64, round_up(sizeof(*w) * sh->threads, 64));
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
	struct shared *sh = NULL;
	size_t cap;
	int ret;

	result_init(res);
	ret = validate(job, window, res);
	if (ret)
		return ret;
	cap = (size_t)(job->max_s / window) + 2;
	ret = alloc_windows(res, cap);
	if (!ret)
		sh = shared_new(job, &ret);
	if (!sh) {
		snprintf(res->errmsg, sizeof(res->errmsg), "%s",
			 ret == -ENOMEM ? "out of memory" : strerror(-ret));
		return ret;
	}
	ret = run_workers(sh, window, res, cap);
	shared_put(sh);
	return ret;
}
