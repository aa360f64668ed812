/* run_int.h — what the test runner's files share (not public).  Each file
 * calls down this list, never up it:
 *   run.c            one target's tests into a profile: the order, the
 *                    settle before QD1, the series, the device's facts
 *   run_zoned.c      the sequential write tests on a host-managed zoned
 *                    device (zone-sequential)
 *   run_fill.c       the destructive fill before the first test that reads
 *   run_io.c         the plain tests (one job each) and the trial of more
 *                    rings
 *   run_composite.c  the tests made of many jobs or read from a series:
 *                    qd_sweep, iorate, read_under_write, sustained_write
 *   run_app.c        app: the target read and written as programs do (app.h)
 *   run_job.c        the job primitives: a test's job, one job run, its
 *                    notes, latency summary and band text
 *   run_table.c      the test table and the test names
 */
#ifndef TW_RUN_INT_H
#define TW_RUN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "job.h"
#include "probe.h"
#include "thermal.h"

#define KIB 1024u
#define MIB (1024u * 1024u)

#define KNOWN_WINDOW_S 0.1	/* quick tests: windows this short, with
				 * KNOWN_WINDOW_IOS I/Os at least (run_job.c) */
#define SWEEP_RAMP_S 0.03	/* a sweep depth's ramp: the device is busy from
				 * the depth before, only the queue refills */
#define FILL_QUICK_MIN (UINT64_C(1) << 30)	/* quick: the fill writes 1 GiB at
					 * least: well past a drive's caches,
					 * the span the reads need */

/* Why a write test other than the sequential ones does not run on a
 * host-managed zoned device. */
#define ZONED_WHY "random writes fail on it (writes must be zone-sequential), so no " \
		  "random-write or mixed test runs"

/* One row of the test table: a test's shape and its quick-mode time limits. */
struct probe_test_def {
	const char *name;
	int slot;		/* enum profile_io_test, or -1 */
	enum probe_pattern pattern;
	unsigned read_pct;	/* 100 read, 0 write, 70 mixed */
	uint32_t bs;
	unsigned qd;
	bool threaded;		/* honours options.threads */
	double ramp_s, min_s, max_s;	/* quick mode */
	double window_s;	/* quick mode's windows; 0 = KNOWN_WINDOW_S */
	bool p99_only;		/* quick: its figure is the p99, known once it has
				 * PROBE_KNOWN_TAIL samples above it (stops there) */
};

/* Per-run state handed to the window callback. */
struct probe_run_state {
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
	uint64_t seq_written;		/* bytes from 0 that seq_write wrote (one
					 * thread, no error), 0 = none: what the
					 * fill need not write again */
	uint64_t zero_samples, zero_reads;	/* this test, all its jobs */
	bool stalled;			/* a test stalled: skip the rest */
	bool filled_first;		/* the fill ran right before seq_write
					 * (probe_run_fill_first): its ramp is short */
	struct probe_zone_map zone;	/* zone.bytes: the write running now is
					 * zone-sequential (zoned.h) */
	bool faulty;			/* TIERWISE_FAULT applies: use fault */
	struct probe_fault_opts fault;
	int failures;
	struct probe_bufcache *bufcache;	/* the jobs' buffers, kept between them */
	cpu_set_t qd1_cpus;		/* empty, or where the QD1 reads run: the
					 * CPUs of the caller's that take the
					 * device's completion interrupts, when
					 * those are some of them only (qd1_pin) */
	double trial_mark_mbps;		/* > 0: the rate the trial of more rings
					 * must pass (probe_run_more_threads) */
	unsigned rings;			/* what the trial of more rings chose
					 * (probe_run_more_threads; 0: none ran): the later
					 * threaded tests run on as many (probe_run_io_test) */
	const char *rings_by;		/* the test whose trial that was */
};

/* The test table (run_table.c), indexed by enum probe_test. */
extern const struct probe_test_def probe_test_defs[PROBE_TEST_COUNT];

/* ---- run_job.c: the job primitives ---- */

/* Fill *job for test def at depth qd, timed by r's options (quick: until
 * the figure is known; --full: 30 s; --seconds: fixed); the window
 * callback feeds r's series and progress line. */
void probe_run_job_for(const struct probe_run_state *r, const struct probe_test_def *def,
		       unsigned qd, struct probe_job *job);

/* The latency summary of h into *lat, in µs; NAN where h is empty or a
 * figure is below 1 ns (the null engine). */
void probe_run_lat(const struct probe_hist *h, struct profile_lat *lat);

/* What a job's return ret means for the run: notes for the engine and for
 * failures (r->failures counts them, -ETIMEDOUT sets r->stalled).
 * Returns 0, -ECANCELED or -EIO. */
int probe_run_outcome(struct probe_run_state *r, const struct probe_test_def *def, int ret,
		      const struct probe_job_result *res);

/* Run one job into *res (the caller frees it with
 * probe_job_result_free); failures become notes.  Returns 0, -ECANCELED
 * or -EIO. */
int probe_run_job(struct probe_run_state *r, const struct probe_test_def *def,
		  const struct probe_job *job, struct probe_job_result *res);

/* How sure a result's headline figure is, into buf: "±2.4 %" (the 95 %
 * confidence half-width its windows reached), or "too few windows for a
 * band" (for the notes of the tests that stop when it is known). */
void probe_run_band_text(const struct probe_job_result *res, char *buf, size_t len);

/* ---- run_io.c: the plain tests ---- */

#define MORE_THREADS_GAIN 0.05	/* more rings are kept when they read this much more */

/*
 * one, the first run of test def (a threaded test), kept `busy` cores
 * busy: try more rings (like fio's numjobs; 2, or 4 with four CPUs or
 * more, each an equal share of the depth), the same depth in total, and
 * keep their figure in r->dev when it beats one's
 * IOPS by MORE_THREADS_GAIN; a note says what was kept.  Quick mode: the
 * trial ends as soon as its 95 % band lies wholly below that mark, else
 * by the test's own rules (its figure may become the test's).  r->rings
 * records the choice (1 or the trial's count) for the threaded tests
 * after it.  Returns 0 or -ECANCELED.
 */
int probe_run_more_threads(struct probe_run_state *r, const struct probe_test_def *def,
			   double busy, const struct probe_job_result *one);

/* Plain test t (one job; the threaded ones may try more rings) into its
 * figures in r->dev, with notes on how sure they are.  Returns 0,
 * -ECANCELED or -EIO. */
int probe_run_io_test(struct probe_run_state *r, enum probe_test t);

/* ---- run_composite.c ---- */

/* qd_sweep: random 4 KiB reads at QD 1 … 128 into r->dev->sweep and the
 * best IOPS under the p99 target into lat_target.  Returns 0, -ECANCELED,
 * -EIO or -ENOMEM. */
int probe_run_sweep(struct probe_run_state *r);

/* iorate: 4 KiB random reads offered open loop at shares of the sweep's
 * maximum into r->dev->iorate.  Returns 0, -ECANCELED, -EIO or -ENOMEM. */
int probe_run_iorate(struct probe_run_state *r);

/* read_under_write: QD1 reads, then OCP BOOT-BENCH-1's, under a background
 * writer into r->dev->under_write.  Returns 0, -ECANCELED or -EIO. */
int probe_run_uw(struct probe_run_state *r);
/* The job of read_under_write's second part, OCP BOOT-BENCH-1's reads. */
void probe_run_boot_job(const struct probe_run_state *r, struct probe_job *job);

/* The sustained write's time in seconds, from r's options: fixed when
 * given (--sustained-seconds), else a cap (quick 30, --full 120). */
double probe_run_sustained_seconds(const struct probe_run_state *r);

/* sustained_write: sequential writes, one series point a second (r's
 * series, fed by the window callback), until the cache cliff is crossed
 * and the rate after it held, a device's span was written once, or the
 * time (probe_run_sustained_seconds); a note says which.  Returns 0,
 * -ECANCELED or -EIO. */
int probe_run_sustained(struct probe_run_state *r);

/* The cache cliff from the sustained write's series pts[n] into *su,
 * which takes pts (freed when there is nothing to keep). */
void probe_run_sustained_series(struct profile_sustained *su, struct profile_point *pts,
				size_t n);

/* ---- run_app.c ---- */

/* app: cold buffered loads at the device's read-ahead and the plan's, an
 * mmap load, mmap faults, a buffered write with fsync (writable targets),
 * the inner zone of a rotational raw device, into r->dev->app; a note says
 * why it was skipped where it cannot run.  Returns 0, -ECANCELED, -EIO
 * (a part failed: a note says which) or -ENOMEM. */
int probe_run_app(struct probe_run_state *r);

/* ---- run_fill.c: the destructive fill ---- */

/* Whether the fill applies to r's target for the tests in mask. */
bool probe_run_wants_fill(const struct probe_run_state *r, unsigned mask);

/* Whether the fill goes before test t, a write (seq_write on a scratch
 * file). */
bool probe_run_fill_first(const struct probe_run_state *r, enum probe_test t);

/* Write what the reads need of r's span (first: before seq_write), and say
 * so in a note.  Returns 0, -ECANCELED or -EIO (a note says why). */
int probe_run_fill(struct probe_run_state *r, bool first);

/* ---- run_zoned.c: host-managed zoned devices ---- */

/* Whether r writes to a host-managed zoned device itself (a raw target). */
bool probe_run_zoned_raw(const struct probe_run_state *r);

/* Whether write test t runs on a host-managed zoned device. */
bool probe_run_zoned_runs(enum probe_test t);

/* Sequential write test t on a host-managed zoned device, zone-sequential
 * after a zone reset.  Returns what the test returns, 0 when not run. */
int probe_run_zoned_write(struct probe_run_state *r, enum probe_test t);

#endif
