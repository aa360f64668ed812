/* job_int.h — what the job loop's files share (not public: the API is
 * job.h).  Each file calls down this list, never up it:
 *   job.c         the controller: validation, the windows and stop rules,
 *                 the drain and the result
 *   job_worker.c  a worker thread: its slots and buffers, the hot loop
 *   job_shared.c  the state the controller and the workers share, and the
 *                 failures and cancels they record in it
 *   bufcache.c    the I/O buffer regions kept between jobs (job.h)
 * The zone arithmetic (probe_zone_ios, probe_zone_offset) is zoned.c's.
 */
#ifndef TW_JOB_INT_H
#define TW_JOB_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "engine.h"
#include "hist.h"
#include "job.h"
#include "rng.h"

#define NS 1000000000.0
#define CANCEL_POLL_NS 50000000u	/* the controller polls *cancel */
#define CANCEL_GRACE_NS 1000000000u	/* after an error or a cancel, the
					 * end waits this long for I/O in
					 * flight, at most */
#define PROBE_HUGE_SZ (2u << 20)	/* a transparent huge page */

/* v rounded up to a multiple of a. */
static inline uint64_t probe_round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

struct probe_job_worker;

/* The state of one job, shared by the controller and its workers. */
struct probe_job_shared {
	const struct probe_job *job;	/* == &jc */
	struct probe_job jc;		/* the caller's job; fd duplicated */
	atomic_uint refs;		/* the controller + each started worker */
	struct probe_job_worker *w;	/* threads entries, freed with this */
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

struct probe_job_worker {
	/* Written by the worker only, read by the controller: own line. */
	_Alignas(64) _Atomic uint64_t live_ios;	/* bytes: live_ios * bs */
	_Atomic uint64_t live_reaped;	/* every reap, counted or not */
	_Alignas(64) struct probe_job_shared *sh;
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

/* ---- job_shared.c ---- */

/*
 * The shared state of job, with one reference (the controller's), a copy
 * of job and a duplicate of its fd (when it has one).  Returns NULL with
 * *err = -errno on failure.
 */
struct probe_job_shared *probe_job_shared_new(const struct probe_job *job, int *err);

/* Drop a reference; the last one frees sh, its workers and its fd. */
void probe_job_shared_put(struct probe_job_shared *sh);

/* Whether the job's caller asked it to stop (job->cancel). */
static inline bool probe_job_cancel_set(const struct probe_job *job)
{
	return job->cancel && *job->cancel;
}

/* Record the first failure of the job and wake the controller. */
void probe_job_fail(struct probe_job_shared *sh, int err, enum probe_io_op op, uint64_t off,
		    const char *msg);

/* Record I/O io, which failed or came back short, as the job's failure. */
void probe_job_fail_io(struct probe_job_shared *sh, const struct probe_io *io);

/* Record a cancel seen, stop the workers and wake the controller. */
void probe_job_note_cancel(struct probe_job_shared *sh);

/* ---- job_worker.c ---- */

/* A worker thread's body (pthread_create's): its setup, the wait for the
 * start, the hot loop, its teardown; drops its reference to w->sh. */
void *probe_job_worker_main(void *arg);

/* ---- bufcache.c ---- */

/* The smallest region of c that holds len bytes, taken out of c: its
 * address, its length in *got; NULL when none does.  When none does but
 * the region being prefaulted would, and is less than twice len, waits for
 * it (a smaller job maps its own meanwhile). */
void *probe_bufcache_take(struct probe_bufcache *c, uint64_t len, uint64_t *got);

/* Give region m of len bytes to c: into a free entry, else in place of
 * the smallest one when that is smaller; frees what is left over. */
void probe_bufcache_give(struct probe_bufcache *c, void *m, uint64_t len);

#endif
