/* engine.h — pluggable I/O engines behind an ops table (fio-style).
 *
 * An engine moves the bytes of struct probe_io units and nothing else; the
 * job loop (job.h) decides offsets, keeps time and counts.  The cycle is
 *
 *   init      once per thread: private state, rings, worker threads
 *   queue     stage one I/O (returns enum probe_q)
 *   commit    start every staged I/O (one system call per batch at most)
 *   getevents wait for min..max completions; each probe_io gets res set
 *   cleanup   release everything; I/Os still in flight are waited for
 *
 * Three engines, and a wrapper for tests:
 *
 *   io_uring  registered file and buffers (read_fixed/write_fixed), batched
 *             submit and reap, and the lowest-overhead setup flags the
 *             kernel accepts (see probe_uring_opts).
 *   psync     pread/pwrite from min(qd, 64) worker threads: the fallback
 *             where io_uring is disabled (kernel.io_uring_disabled,
 *             seccomp) or absent.
 *   null      no I/O: every I/O completes after an optional fake latency,
 *             optionally failing the Nth one, so the job loop can be tested
 *             without hardware.
 *   fault     a wrapper around one of them that injects errors, short
 *             transfers and slow completions (tests; see below).
 *
 * An engine instance belongs to the thread that called init: every other
 * op must be called from that thread (io_uring's SINGLE_ISSUER and
 * DEFER_TASKRUN require it).  Engines never print.
 */
#ifndef PROBE_ENGINE_H
#define PROBE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define PROBE_ENGINE_MAX_QD 4096u	/* I/Os in flight per instance */
#define PROBE_PSYNC_MAX_THREADS 64u
#define PROBE_ENGINE_MSG 192		/* size of message buffers */
/*
 * How long getevents() waits for a batch of min completions before it
 * hands out the ones that are there.  The job loop waits for half of what
 * is in flight (job_worker.c, reap_min), and a completion counts, in time and in
 * latency, when it is reaped.  Without a bound, a slow device's
 * completions would be reaped 16 at a time: at 32 MB/s of 1 MiB writes at
 * QD32 one reap every 0.5 s, so the sustained write's seconds would read
 * 16, 33 or 50 MB (the lab's throttled disk), and each I/O's latency
 * could include up to half the queue's service time.  5 ms: a fast device
 * fills its batch well within it (16 × 1 MiB at 3.2 GB/s and more; 16 ×
 * 4 KiB at 3,200 IOPS and more), so it changes nothing there; a slower
 * one is reaped at most 200 times a second more, and its completions count
 * within 5 ms of the kernel's.
 */
#define PROBE_ENGINE_REAP_WAIT_NS 5000000ull

enum probe_io_op {
	PROBE_OP_READ = 0,
	PROBE_OP_WRITE = 1,
};

/* One I/O unit.  The caller owns it and keeps it alive until it completes. */
struct probe_io {
	uint64_t offset;	/* bytes from the start of the file/device */
	void *buf;		/* == params.bufs[buf_index].iov_base */
	uint32_t len;		/* <= params.bufs[buf_index].iov_len */
	uint32_t buf_index;	/* registered-buffer index */
	uint32_t slot;		/* caller's use (the job loop's slot number) */
	uint8_t op;		/* enum probe_io_op */
	int32_t res;		/* set on completion: bytes moved or -errno */
	uint64_t start_ns;	/* caller's use (submission time) */
};

/* What queue() did with an I/O. */
enum probe_q {
	PROBE_Q_QUEUED,		/* staged; it completes through getevents() */
	PROBE_Q_COMPLETED,	/* finished at once (res set), never reaped */
	PROBE_Q_BUSY,		/* no room: commit and reap, then queue again */
};

struct probe_engine_params {
	int fd;				/* opened by the caller, O_DIRECT or not */
	unsigned qd;			/* most I/Os in flight, 1..PROBE_ENGINE_MAX_QD */
	const struct iovec *bufs;	/* I/O buffers, 4 KiB aligned */
	unsigned nbufs;			/* io_uring registers up to 16384 */
	const void *opts;		/* engine-specific options or NULL */
};

/* Filled by init: what the instance runs with, or why it failed. */
struct probe_engine_info {
	unsigned setup_flags;		/* io_uring: IORING_SETUP_* accepted */
	bool fixed_files, fixed_bufs;	/* io_uring: registrations that took */
	unsigned workers;		/* psync: worker threads */
	char desc[PROBE_ENGINE_MSG];	/* one line, e.g. "io_uring (…)" */
	char err[PROBE_ENGINE_MSG];	/* set when init fails */
};

struct probe_engine_ops {
	const char *name;
	/*
	 * Create an instance for p in the calling thread.  Returns 0 and
	 * *priv (freed by cleanup), or -errno with info->err set and nothing
	 * allocated.  info is always written.
	 */
	int (*init)(const struct probe_engine_params *p, void **priv,
		    struct probe_engine_info *info);
	/* Stage io (offset, buf, len, buf_index, op set).  Never blocks. */
	enum probe_q (*queue)(void *priv, struct probe_io *io);
	/*
	 * Start the staged I/Os.  Returns 0 or -errno (the staged I/Os are
	 * then lost: the instance is unusable).  io_uring may leave the
	 * io_uring_enter to the next getevents() so that submit and wait are
	 * one system call; the caller must call getevents() while I/Os are
	 * in flight, which it has to anyway.
	 */
	int (*commit)(void *priv);
	/*
	 * Wait until at least min I/Os have completed, then store up to max
	 * completed I/Os in ev[0..n) with res set.  Returns n (min <= n <=
	 * max, or fewer when fewer are in flight) or -errno (e.g. -EINTR is
	 * retried inside; other errors leave the instance unusable).  A
	 * batch is not waited for without end: once PROBE_ENGINE_REAP_WAIT_NS
	 * have passed in the call and at least one I/O has completed, n may
	 * be less than min (1 <= n), so that no completion waits in the queue
	 * for much longer than that (see PROBE_ENGINE_REAP_WAIT_NS).
	 */
	int (*getevents)(void *priv, unsigned min, unsigned max,
			 struct probe_io **ev);
	/* Wait for I/Os in flight, then free the instance.  NULL-safe. */
	void (*cleanup)(void *priv);
};

/* Options of the io_uring engine (params.opts), all optional. */
struct probe_uring_opts {
	bool exact_flags;	/* use setup_flags as given: no fallback ladder */
	unsigned setup_flags;	/* IORING_SETUP_* when exact_flags */
	bool no_fixed_files;	/* skip io_uring_register_files */
	bool no_fixed_bufs;	/* skip io_uring_register_buffers */
	int fake_init_err;	/* tests: init fails with this -errno */
};

/* Options of the null engine (params.opts), all optional. */
struct probe_null_opts {
	uint64_t lat_ns;	/* each I/O completes lat_ns after commit */
	uint64_t fail_nth;	/* 1-based: the Nth queued I/O of this instance */
	int fail_err;		/* its res: -errno (default -EIO), or a byte
				 * count < len for a short transfer */
	/* Called by queue() with every I/O, in order (tests trace offsets). */
	void (*on_queue)(void *arg, const struct probe_io *io);
	void *arg;
};

extern const struct probe_engine_ops probe_engine_uring;
extern const struct probe_engine_ops probe_engine_psync;
extern const struct probe_engine_ops probe_engine_null;

/* ---- fault injection (engine_fault.c): a test hook ------------------------
 *
 * probe_engine_fault wraps another engine (io_uring by default, psync, null)
 * and, once `after` completions have been seen, alters successful ones:
 * EIO or EAGAIN results, short transfers (half the length), or completions
 * held back by delay_ns before they are handed out (a slow device).  The
 * I/O itself always runs on the inner engine.  It is never found by name
 * (probe_engine_find): the probe's runner selects it from the environment
 * variable TIERWISE_FAULT (probe_fault_parse, docs/reliability.md).
 */
enum probe_fault_kind {
	PROBE_FAULT_NONE,	/* pass everything through */
	PROBE_FAULT_EIO,	/* res = -EIO */
	PROBE_FAULT_SHORT,	/* res = len / 2 */
	PROBE_FAULT_EAGAIN,	/* res = -EAGAIN */
	PROBE_FAULT_SLOW,	/* handed out delay_ns after it completed */
};

/*
 * Counters shared by every instance that points at them (all threads and
 * tests of a process), so that `after` and `count` span a whole probe.
 * Zero-initialise; no cleanup.
 */
struct probe_fault_state {
	_Atomic uint64_t seen;		/* completions seen */
	_Atomic uint64_t injected;	/* faults injected */
};

/* Options of the fault engine (params.opts; required). */
struct probe_fault_opts {
	enum probe_fault_kind kind;
	uint64_t after;		/* the first `after` completions pass */
	uint64_t count;		/* faults to inject; 0 = every one after */
	uint64_t delay_ns;	/* PROBE_FAULT_SLOW */
	char device[64];	/* probe_fault_matches: "" = any target */
	const struct probe_engine_ops *inner;	/* NULL = io_uring */
	const void *inner_opts;	/* the inner engine's options, or NULL */
	bool no_fallback;	/* inner io_uring refused: fail, not psync */
	struct probe_fault_state *state;	/* NULL = per instance */
};

extern const struct probe_engine_ops probe_engine_fault;

/*
 * Parse a fault spec, "KIND[:after=N][:count=N][:delay=MS][:device=NAME]"
 * with KIND one of eio, short, eagain, slow (delay defaults to 1000 ms),
 * into *o (zeroed first; inner, state left NULL).  Returns 0, or -EINVAL
 * with the reason in err.
 */
int probe_fault_parse(const char *spec, struct probe_fault_opts *o,
		      char *err, size_t errlen);

/*
 * Whether o applies to a target: o->device is empty, or equals id, path,
 * or path without "/dev/".  Pure function.
 */
bool probe_fault_matches(const struct probe_fault_opts *o, const char *id,
			 const char *path);

/* The engine called name ("io_uring", "psync", "null"), or NULL. */
const struct probe_engine_ops *probe_engine_find(const char *name);

/* An open engine instance. */
struct probe_engine {
	const struct probe_engine_ops *ops;	/* the engine in use */
	void *priv;
	struct probe_engine_info info;
	bool fell_back;		/* io_uring was refused; psync runs instead */
	char msg[PROBE_ENGINE_MSG];	/* the fallback notice, or the error */
};

/*
 * Whether an io_uring init error means "io_uring is unavailable here"
 * (disabled by sysctl, blocked by seccomp, not built in): -EPERM, -EACCES,
 * -ENOSYS, -EOPNOTSUPP (engine_uring.c).
 */
bool probe_engine_uring_refused(int err);

/*
 * Open an instance of preferred for p in the calling thread.  When
 * preferred is io_uring, fallback is true and io_uring is refused (see
 * probe_engine_uring_refused), psync is opened instead (without p->opts),
 * e->fell_back is set and e->msg says why.  Returns 0 with *e open (close
 * with probe_engine_close), or -errno with e->msg set and nothing open.
 */
int probe_engine_open(struct probe_engine *e,
		      const struct probe_engine_ops *preferred,
		      const struct probe_engine_params *p, bool fallback);

/* Clean up an open instance; *e is then closed.  NULL-safe, idempotent. */
void probe_engine_close(struct probe_engine *e);

#endif
