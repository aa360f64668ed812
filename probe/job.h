/* job.h — the probe's measurement loop: one fio-like job.
 *
 * A job keeps qd I/Os in flight on each of `threads` threads (fio's
 * numjobs: every thread has its own engine instance, rng stream, buffers
 * and histograms; all share the caller's fd) over the byte span
 * [offset, offset + length) of a file or block device, for a time:
 *
 *   ramp_s     I/Os run but are not counted
 *   window_s   throughput is sampled per window (default 0.5 s)
 *   min_s      with stop_on_steady, known_pct or stop_when, run at least this long
 *   known_pct  > 0: stop once the mean rate is known within ± this % (95 %
 *              confidence, known.h) and at least min_ios I/Os were counted
 *   futile_pct or, past futile_after_s (and min_ios), once the band projected
 *              to max_s is still wider than ± this % (a swinging device)
 *   stop_when  or once this callback says so (the caller's own rule on the
 *              windows so far, e.g. the sustained write's cache cliff)
 *   max_s      stop after this long (measured time, ramp excluded)
 *   max_ios    or after this many I/Os (0 = no limit)
 *
 * Each I/O's latency is completion − submission on CLOCK_MONOTONIC: the
 * clock is read once per submitted batch and once per reaped batch, which
 * are the instants the I/Os of that batch were handed to and taken from
 * the kernel.  An I/O counts when it is reaped inside the measured span.
 *
 * rate_iops > 0 paces the job open loop: each thread schedules one I/O
 * every threads / rate_iops seconds from its start, whatever completes,
 * and submits it when its time has come and a slot (of qd) is free; its
 * latency runs from the scheduled time, so that a device that cannot keep
 * up shows the queue growing (no coordinated omission).  A thread with
 * I/Os in flight waits for a completion before it looks at the clock
 * again, so a submission may start up to one completion late (the wait is
 * counted in its latency); with nothing in flight it sleeps until the
 * next scheduled time.
 *
 * The calling thread is the controller: it releases the workers, samples
 * windows, calls on_window, judges steady state and stops the job.
 */
#ifndef PROBE_JOB_H
#define PROBE_JOB_H

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "hist.h"

#define PROBE_JOB_MAX_THREADS 256u
#define PROBE_JOB_ZERO_SAMPLE 64u	/* 1 read in this many is checked, each
					 * worker's first counted read included: a
					 * short run of a slow device (32 reads of
					 * 1 MiB) is checked too */
#define PROBE_JOB_DEFAULT_WINDOW 0.5
#define PROBE_JOB_STALL_FLOOR_S 5.0	/* never called stalled sooner */
#define PROBE_JOB_STALL_FACTOR 4.0	/* times the drain at the shown rate */
#define PROBE_JOB_STALL_CAP_S 120.0	/* never waits longer for one completion */

enum probe_pattern {
	PROBE_SEQ,	/* sequential, wrapping at the end of the span */
	PROBE_RAND,	/* uniformly random, aligned offsets */
};

/* One throughput sample, handed to on_window. */
struct probe_window {
	size_t index;		/* 0-based */
	double elapsed_s;	/* measured time at the end of the window */
	double iops;
	double mbps;		/* 10^6 bytes per second */
};

typedef void (*probe_window_fn)(void *arg, const struct probe_window *w);

/*
 * Zone-sequential writes over n zones of bytes each, the first at base
 * (all bytes from the device start, contiguous), written up to cap bytes
 * each (the zone capacity, a multiple of bs), par zones at once: the job's
 * qd is par, and slot s writes zones s, s + par, s + 2 par, … one after
 * another, each from its start in order, one I/O at a time (its next one
 * only once the last completed), so that no zone ever has two writes in
 * flight whatever the kernel and the device reorder; a slot whose zones are
 * written rests.  n is a multiple of par.
 */
struct probe_zone_map {
	uint64_t base, bytes, cap;
	uint64_t n;
	unsigned par;
};

/* The offset (from the device start) of slot's n-th I/O under m (zoned.c). */
uint64_t probe_zone_offset(const struct probe_zone_map *m, uint32_t bs, unsigned slot, uint64_t n);

/* How many I/Os of bs bytes m holds: n × cap / bs (zoned.c). */
uint64_t probe_zone_ios(const struct probe_zone_map *m, uint32_t bs);

/*
 * probe_bufcache — I/O buffer regions of 2 MiB and more kept between the
 * jobs of one run (a device's tests one after another), so that a job
 * finds its buffers already faulted in.  A region freed and mapped again
 * costs a fault per huge page; where a guest reports its free memory to
 * the host (virtio balloon page reporting), those pages come back from the
 * host one by one (on a VM with page reporting 32 MiB take 0.32 s for
 * the first job and 0.10 s for each later one that maps them afresh).  A
 * job's threads, or jobs run at once, may share one cache (it locks); it
 * must outlive every probe_job_run() that uses it (a worker left behind
 * by a stalled device frees its region itself, never into the cache).  A
 * job without one allocates and frees its own.
 */
#define PROBE_BUFCACHE_N 4u	/* regions kept at most (the largest stay) */

struct probe_bufcache {
	pthread_mutex_t lock;
	pthread_cond_t cv;		/* the prefault ended */
	void *mem[PROBE_BUFCACHE_N];	/* NULL: a free entry */
	uint64_t len[PROBE_BUFCACHE_N];
	pthread_t pf;			/* probe_bufcache_prefault's thread */
	bool pf_started, pf_busy;	/* started (joined by destroy); not done */
	uint64_t pf_len;		/* the region it faults in */
};

/* Start c empty (bufcache.c, as the other probe_bufcache_ functions). */
void probe_bufcache_init(struct probe_bufcache *c);

/*
 * Fault a region of len bytes (rounded up to 2 MiB) in, on a thread of its
 * own, and keep it in c: a later job that needs it finds it ready (or waits
 * for it, when it fits and is less than twice what the job needs, rather
 * than map one of its own), while the job before runs on something
 * smaller.  One per cache.  Returns 0, -EBUSY (one was started), -EINVAL
 * (len under 2 MiB) or a pthread_create error.
 */
int probe_bufcache_prefault(struct probe_bufcache *c, uint64_t len);

/* Wait for the prefault, if any, then free every region c keeps; c is
 * empty again afterwards. */
void probe_bufcache_destroy(struct probe_bufcache *c);

struct probe_job {
	int fd;				/* caller's; O_DIRECT for devices */
	uint64_t offset, length;	/* the span; offset aligned */
	uint32_t bs;			/* bytes per I/O, a multiple of align */
	uint32_t align;			/* power of two, e.g. logical block size */
	unsigned qd;			/* per thread, 1..PROBE_ENGINE_MAX_QD */
	unsigned threads;		/* 1..PROBE_JOB_MAX_THREADS; 0 = 1 */
	enum probe_pattern pattern;
	unsigned read_pct;		/* 100 read, 0 write, else mixed */
	const struct probe_engine_ops *engine;	/* NULL = io_uring */
	bool no_fallback;		/* keep io_uring even when refused */
	const void *engine_opts;	/* see engine.h, or NULL */
	double ramp_s, window_s;	/* window_s 0 = 0.5 */
	double min_s, max_s;		/* max_s > 0 */
	uint64_t max_ios;		/* 0 = none; exact when ramp_s == 0 */
	double rate_iops;		/* > 0: open loop at this rate (all
					 * threads); 0 = closed loop */
	bool stop_on_steady;
	double known_pct;		/* > 0: stop when the rate is known to ± this % */
	/* > 0 (with known_pct): give up early, once futile_after_s have been
	 * measured, when the band projected to max_s (today's band × √(t /
	 * max_s), as batch means narrow) is still wider than ± this %: the
	 * cap would come first anyway, with a band little narrower, and the
	 * rest of the time buys nothing the user needs (res->futile).  Only
	 * with a window per batch of the band (PROBE_KNOWN_BATCHES) or more. */
	double futile_pct, futile_after_s;
	uint64_t futile_min_ios;	/* and not before this many I/Os (0: no more
					 * than min_ios asks) */
	uint64_t min_ios;		/* and at least this many I/Os counted (a p99
					 * with PROBE_KNOWN_TAIL samples above it) */
	unsigned win_min_ios;		/* a window closes with at least this many
					 * I/Os (or at 10 × window_s): slow devices
					 * get longer windows; 0 = any */
	/* NULL, or asked on the controller thread each time a window closes
	 * past min_s, with arg, the MB/s of the windows so far
	 * (win_mbps[0..n)) and their lengths in s (win_s[0..n)): true ends
	 * the job (res->stopped_when; asked before the known_pct rules, so
	 * that the caller's reason is the one recorded when both hold). */
	bool (*stop_when)(void *arg, const double *win_mbps, const double *win_s, size_t n);
	/* Zone-sequential writes (a host-managed zoned device; zone.bytes 0 =
	 * none): see struct probe_zone_map.  Needs pattern PROBE_SEQ, one
	 * thread, qd = zone.par, ramp_s 0 and max_ios at most
	 * probe_zone_ios(&zone). */
	struct probe_zone_map zone;
	uint64_t seed;			/* rng seed; thread t uses seed + t */
	probe_window_fn on_window;	/* NULL or called after each window */
	void *arg;			/* for on_window and stop_when */
	volatile sig_atomic_t *cancel;	/* NULL or checked every batch */
	struct probe_bufcache *bufcache;	/* NULL, or where the buffers come
						 * from and go back to */
	const cpu_set_t *cpus;		/* NULL (the caller's CPUs), or the CPUs
					 * the job's threads run on; some of the
					 * caller's, or the job fails (-EINVAL) */
};

struct probe_job_result {
	uint64_t ios, bytes;		/* ios * bs == bytes */
	uint64_t read_ios, write_ios;
	uint64_t all_ios;		/* every I/O completed, ramp and drain
					 * included (what the job wrote, for a
					 * sequential writer) */
	double seconds;			/* measured, ramp excluded */
	double iops, mbps;		/* ios / seconds, bytes / seconds / 1e6 */
	struct probe_hist lat, read_lat, write_lat;	/* ns, all threads */
	size_t n_windows;		/* complete windows only */
	double *win_iops, *win_mbps;	/* malloc'd, n_windows each */
	double *win_s;			/* and each window's length, s */
	bool steady;			/* probe_steady_check on win_iops */
	double spread_pct, slope_pct;
	bool stopped_steady;		/* stop_on_steady ended the job early */
	bool stopped_when;		/* stop_when ended the job early */
	double known_pct;		/* the 95 % band of the mean rate, ± % of it
					 * (known.h); INFINITY when too few windows */
	bool known;			/* known_pct > 0 and reached: it ended the job */
	bool futile;			/* futile_pct ended the job: its band, projected
					 * to max_s, stayed wider (known_pct: the band) */
	bool cancelled;			/* *cancel ended the job */
	/* The workers' own CPU time over their wall time (thread clocks: other
	 * jobs of the process do not count); NAN when unknown. */
	double busy_cores;
	/* The first failed I/O: -errno (-EIO for a short transfer), or 0. */
	int error;
	enum probe_io_op error_op;
	uint64_t error_offset;		/* bytes from the start of the device */
	/* Zero-read detection: checked reads and those entirely zero. */
	uint64_t zero_samples, zero_reads;
	char engine[16];		/* the engine that ran */
	char engine_desc[PROBE_ENGINE_MSG];	/* its setup, one line */
	char notice[PROBE_ENGINE_MSG];	/* the fallback notice, or "" */
	char errmsg[PROBE_ENGINE_MSG];	/* why the job failed, or "" */
};

/*
 * Run job and fill *res (about 90 KiB: three histograms).  res is always
 * initialised, even on failure; release its arrays with
 * probe_job_result_free.  Returns 0; -ECANCELED when *cancel stopped it;
 * the -errno of the first failed I/O (res->error, error_op, error_offset);
 * -EINVAL for a bad job; -ETIMEDOUT when, after the end, I/Os were still
 * in flight and none completed for probe_job_stall_s() (a stalled device:
 * the workers are detached and free their own buffers when it answers);
 * or another -errno when setup failed
 * (engine, memory, threads).  On every error res->errmsg says what happened and the
 * figures measured so far are kept.
 */
int probe_job_run(const struct probe_job *job, struct probe_job_result *res);

/*
 * How long the end of a job waits without any completion before it calls
 * the device stalled, in seconds: PROBE_JOB_STALL_FACTOR times the time
 * the I/Os in flight take at the rate the device showed during the job
 * (inflight / rate; every I/O of a job has the same size, so I/Os and
 * bytes give the same time), at least PROBE_JOB_STALL_FLOOR_S, at most
 * PROBE_JOB_STALL_CAP_S; the floor when the rate is unknown (0, negative
 * or not finite: nothing completed).  The wait restarts at every
 * completion.  Pure.
 */
double probe_job_stall_s(double inflight, double rate);

/* Free the window arrays of res; it stays valid, with no windows.  NULL-safe. */
void probe_job_result_free(struct probe_job_result *res);

#endif
