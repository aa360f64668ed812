/* The application test (app): the target read and written the way programs
 * do (app.h), into results.app: a cold buffered sequential read at the
 * device's read-ahead and at the plan's, an mmap load, an O_DIRECT load one
 * 1 MiB request at a time, a chain of O_DIRECT pread(2)s, mmap faults under
 * MADV_RANDOM and with the kernel's read-around, a buffered write with fsync (writable targets), and on a rotational raw
 * device the sequential read of its inner zone.
 *
 * Each part reads its own region of the span, sized for a fraction of a
 * second at the rate seq_read measured in this run, each capped in time, so
 * that the whole test stays near a second on any device.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "job.h"
#include "probe.h"
#include "run_int.h"
#include "sysroot.h"
#include "tw_tier.h"
#include "tw_util.h"

#define APP_PART_S 0.1		/* a stream part's region: what seq_read reads in
				 * this long */
#define APP_CAP_S 0.2		/* and it stops here: a buffered or mmap load
				 * runs at a half to a fifth of seq_read's rate */
#define APP_FAULT_S 0.15		/* the mmap faults */
#define APP_FAULT_RANDOM_S 0.1	/* the mmap faults under MADV_RANDOM */
#define APP_DIRECT_S 0.1		/* the O_DIRECT load: its rate at QD1 is steady */
#define APP_CHAIN_S 0.1		/* the pread chain */
#define APP_CHAIN_READS 5000u	/* and these reads at most: enough for a p99 */
#define APP_ENGINE_GAP 2.0	/* a pread chain this many times rand_read_qd1's
				 * IOPS is noted: the engine's figure is not the
				 * device's */
#define APP_REGIONS 5u		/* the read parts' regions (the faults' the last) */
#define APP_WRITE_S 0.1	/* the buffered write: region at seq_write's rate … */
#define APP_WRITE_CAP_S 0.2	/* and it stops here (its fsync after) */
#define APP_PILOT_BYTES MIB	/* first one write of this and its fsync … */
#define APP_FLUSH_S 1.0		/* … sizes the rest, whose fsync should end in
				 * about this long: the page cache takes writes
				 * at memory speed, and an fsync cannot be stopped */
#define APP_MIN_BYTES (32ull * MIB)	/* a region holds this much at least … */
#define APP_MAX_BYTES (1024ull * MIB)	/* and at most */
#define APP_TINY_BYTES (4ull * MIB)	/* below this a region measures nothing */
#define APP_GUESS_MBPS 200.0	/* the rate to size by when seq_read did not run */
#define APP_FAULT_SPAN (1ull << 40)	/* the faults' region: the rest of the span,
					 * 1 TiB at most (one mapping) */
#define APP_FAULT_MIN 256u	/* faults at least, and at most … */
#define APP_FAULT_SHARE 4u	/* … what reads around a quarter of their region:
				 * the rest of the faults find it cold */
#define APP_SEED 0x6170706c69636174ULL	/* "applicat" */
#define APP_CHAIN_SEED 0x70726561645f6368ULL	/* "pread_ch": not the faults' walk */
#define APP_RANDOM_SEED 0x6d6164765f726e64ULL	/* "madv_rnd": nor the pread chain's */
#define INNER_PCT 2.0		/* seq_read_inner: the device's last 2 % */

/* A rotational device's inner zone: seq_read's shape, shorter caps. */
static const struct probe_test_def inner_def = {
	.name = "seq_read_inner", .slot = -1,
	.pattern = PROBE_SEQ, .read_pct = 100, .bs = MIB, .qd = 32,
	.ramp_s = 0.1, .min_s = 0.3, .max_s = 1.0,
};

/* The block device whose stat and queue count the target's I/O: the raw
 * device, or the disk under the scratch file's filesystem; NULL = unknown. */
static const char *stat_dev(const struct probe_run_state *r)
{
	return r->t->dev ? r->t->dev->name : NULL;
}

static const char *sysroot(const struct probe_run_state *r)
{
	return r->o->sysroot ? r->o->sysroot : "";
}

/* The read-ahead of the device under the target (queue/read_ahead_kb), or
 * -1 when unknown. */
static long read_ahead_kb(const struct probe_run_state *r)
{
	uint64_t kb;

	if (!stat_dev(r) ||
	    probe_sys_u64(sysroot(r), &kb, "sys/block/%s/queue/read_ahead_kb", stat_dev(r)) < 0)
		return -1;
	return (long)kb;
}

/* Bytes of a region that io reads (or writes) in s seconds at its measured
 * rate (APP_GUESS_MBPS when it did not run), within [APP_MIN_BYTES,
 * APP_MAX_BYTES] and at most `most`, whole MiB. */
static uint64_t region_bytes(const struct profile_io *io, double s, uint64_t most)
{
	const double rate = io->present && io->mbps > 0 ? io->mbps : APP_GUESS_MBPS;
	uint64_t want = (uint64_t)(rate * 1e6 * s);

	want = want < APP_MIN_BYTES ? APP_MIN_BYTES : want > APP_MAX_BYTES ? APP_MAX_BYTES : want;
	want = want < most ? want : most;
	return want - want % MIB;
}

static void progress(const struct probe_run_state *r, const char *part)
{
	if (r->o->progress) {
		struct probe_status st = { .target = r->t->id, .test = part,
					   .budget_s = probe_test_defs[PROBE_TEST_APP].max_s,
					   .iops = NAN, .mbps = NAN, .qd = 1 };

		r->o->progress(r->o->arg, &st);
	}
}

static bool cancelled(const struct probe_run_state *r)
{
	return r->o->cancel && *r->o->cancel;
}

/* A part that failed: a note, and the run counts it. */
static void part_failed(struct probe_run_state *r, const char *part, int ret)
{
	profile_device_add_notef(r->dev, "app: %s failed: %s", part, strerror(-ret));
	r->failures++;
}

/* The target's region [off, off + len). */
static struct probe_app_target region(const struct probe_run_state *r, uint64_t off,
				      uint64_t len)
{
	return (struct probe_app_target){ .path = r->t->path, .off = off, .len = len,
					  .stat_dev = stat_dev(r), .sysroot = sysroot(r) };
}

/* A cold load through via (window_kib: 0 = the device's read-ahead) of
 * [off, off + len) into *mbps, max_s at most: its rate after the first
 * quarter of the region (app.h, steady_mbps). */
static int load(struct probe_run_state *r, const char *part, uint64_t off, uint64_t len,
		enum probe_app_via via, unsigned window_kib, double *mbps, double max_s)
{
	const struct probe_app_target t = region(r, off, len);
	struct probe_app_result res;
	int ret;

	progress(r, part);
	ret = probe_app_stream(&t, via, 1, window_kib, max_s, &res);
	if (ret < 0) {
		part_failed(r, part, ret);
		return ret;
	}
	if (res.bytes && res.steady_mbps > 0)
		*mbps = res.steady_mbps;	/* a long load's rate, its start left out */
	else if (res.bytes && res.mbps > 0)
		*mbps = res.mbps;
	if (!res.cold)
		profile_device_add_notef(r->dev, "app: %s: part of its region stayed in the page "
					 "cache after the drop (pages of another user of the file): "
					 "the figure may be high", part);
	return 0;
}

/* How many faults mmap_fault makes in a region of len bytes: each reads
 * about the read-ahead around it (read_ahead_kb; 128 KiB when unknown), and
 * once a fault in four has read its region in, later ones find it cached. */
static uint64_t fault_reads(uint64_t len, long ra_kb)
{
	const uint64_t around = (ra_kb > 4 ? (uint64_t)ra_kb : 128) * KIB;
	const uint64_t n = len / around / APP_FAULT_SHARE;

	return n > APP_FAULT_MIN ? n : APP_FAULT_MIN;
}

/* A chain of faults (part: its name) on a cold mapping of [off, off + len)
 * into *res; 1 when it made some, 0 when none, < 0 when it failed (said). */
static int fault_chain(struct probe_run_state *r, const char *part, uint64_t off, uint64_t len,
		       bool madv_random, uint64_t reads, double max_s, uint64_t seed,
		       struct probe_app_result *res)
{
	const struct probe_app_target t = region(r, off, len);
	int ret;

	progress(r, part);
	ret = probe_app_chain(&t, PROBE_APP_MMAP, madv_random, reads, max_s, seed, res);
	if (ret < 0) {
		part_failed(r, part, ret);
		return ret;
	}
	if (!res->ios || !(res->iops > 0))
		return 0;
	if (!res->cold)
		profile_device_add_notef(r->dev, "app: %s: part of its region stayed in the page "
					 "cache after the drop (pages of another user of the file): "
					 "faults there read nothing", part);
	return 1;
}

/* mmap_fault: random 4 KiB touches of a cold mapping of [off, off + len),
 * the kernel's read-around as it is, for APP_FAULT_S at most. */
static int faults(struct probe_run_state *r, uint64_t off, uint64_t len)
{
	struct profile_app *a = &r->dev->app;
	struct probe_app_result res;
	int ret = fault_chain(r, "mmap_fault", off, len, false, fault_reads(len, a->read_ahead_kb),
			      APP_FAULT_S, APP_SEED, &res);

	if (ret <= 0)
		return ret;
	a->fault_iops = res.iops;
	a->fault_p99_us = res.p99_ms > 0 ? res.p99_ms * 1e3 : NAN;
	if (res.dev_read_bytes)
		a->fault_kib = (double)res.dev_read_bytes / (double)res.ios / 1024.0;
	return 0;
}

/*
 * mmap_fault_random: dependent 4 KiB touches of a cold mapping of
 * [off, off + len) under madvise(MADV_RANDOM), APP_CHAIN_READS of them or
 * APP_FAULT_RANDOM_S.  What an index over mmap that turns the read-around
 * off waits a step (Qdrant, hnswlib with MADV_RANDOM): the page's read and
 * the fault's own cost (the page cache's allocation and insertion, the page
 * table), measured together rather than derived from the read-around faults.
 */
static int faults_random(struct probe_run_state *r, uint64_t off, uint64_t len)
{
	struct profile_app *a = &r->dev->app;
	struct probe_app_result res;
	int ret = fault_chain(r, "mmap_fault_random", off, len, true, APP_CHAIN_READS,
			      APP_FAULT_RANDOM_S, APP_RANDOM_SEED, &res);

	if (ret <= 0)
		return ret;
	a->fault_rand_iops = res.iops;
	a->fault_rand_p50_us = res.p50_ms > 0 ? res.p50_ms * 1e3 : NAN;
	a->fault_rand_p99_us = res.p99_ms > 0 ? res.p99_ms * 1e3 : NAN;
	return 0;
}

/*
 * pread_chain: dependent 4 KiB O_DIRECT pread(2)s one at a time in
 * [off, off + len), APP_CHAIN_READS of them or APP_CHAIN_S.  What a B-tree
 * or SQLite lookup with O_DIRECT waits for a read: the engine's QD1 reads
 * (io_uring) can differ, by much where the device cannot take a request
 * without blocking (zram: io_uring hands each read to a worker thread).
 * Noted when they do by more than APP_ENGINE_GAP.
 */
static int pread_chain(struct probe_run_state *r, uint64_t off, uint64_t len)
{
	const struct probe_app_target t = region(r, off, len);
	struct profile_app *a = &r->dev->app;
	struct probe_app_result res;
	double q1;
	int ret;

	progress(r, "pread_chain");
	ret = probe_app_chain(&t, PROBE_APP_DIRECT, false, APP_CHAIN_READS, APP_CHAIN_S,
			      APP_CHAIN_SEED, &res);
	if (ret < 0) {
		part_failed(r, "pread_chain", ret);
		return ret;
	}
	if (!res.ios || !(res.iops > 0))
		return 0;
	a->chain_iops = res.iops;
	a->chain_p50_us = res.p50_ms > 0 ? res.p50_ms * 1e3 : NAN;
	a->chain_p99_us = res.p99_ms > 0 ? res.p99_ms * 1e3 : NAN;
	q1 = r->dev->io[PROFILE_RAND_READ_QD1].iops;
	if (r->dev->io[PROFILE_RAND_READ_QD1].present && q1 > 0 &&
	    a->chain_iops > APP_ENGINE_GAP * q1 &&
	    profile_device_add_notef(r->dev, "app: pread_chain: %.0f reads/s against "
				     "rand_read_qd1's %.0f: the engine's reads wait on more than the "
				     "device (io_uring hands each to a worker thread, iou-wrk, where "
				     "the device cannot take one without blocking); a lookup that "
				     "reads for itself is estimated from pread_chain",
				     a->chain_iops, q1) < 0)
		return -ENOMEM;
	return 0;
}

/* One buffered write of t and its fsync into *res; the part fails on error. */
static int write_sync(struct probe_run_state *r, const struct probe_app_target *t,
		      struct probe_app_result *res)
{
	int ret = probe_app_write(t, APP_WRITE_CAP_S, res);

	if (ret < 0)
		part_failed(r, "fsync_write", ret);
	return ret;
}

/* fsync_write: a pilot of APP_PILOT_BYTES at the region's start written
 * through the page cache and fsynced, then the rest of [0, len) alike, cut
 * to what the pilot's rate flushes in APP_FLUSH_S.  Writeback can run far
 * below seq_write's 1 MiB O_DIRECT rate (a device capped in I/Os a second
 * counts each 4 KiB page of it apart), and the fsync of a region sized by
 * seq_write then takes a minute.  When not even 4 MiB fit, the pilot's
 * figure stands, said in a note. */
static int save(struct probe_run_state *r, uint64_t len)
{
	struct probe_app_target t = region(r, 0, APP_PILOT_BYTES);
	struct probe_app_result pilot, res;
	uint64_t fit, want;
	int ret;

	progress(r, "fsync_write");
	ret = write_sync(r, &t, &pilot);
	if (ret < 0 || !(pilot.seconds > 0) || !(pilot.mbps > 0))
		return ret;
	want = len > APP_PILOT_BYTES ? len - APP_PILOT_BYTES : 0;
	fit = (uint64_t)((double)APP_PILOT_BYTES * APP_FLUSH_S / pilot.seconds);
	len = fit < want ? fit - fit % MIB : want;
	if (len < APP_TINY_BYTES) {
		r->dev->app.fsync_mbps = pilot.mbps;
		return profile_device_add_notef(r->dev, "app: fsync_write: the figure is its 1 MiB "
						"pilot's (written and fsynced in %.3f s): more "
						"would not end in the test's time",
						pilot.seconds) < 0 ? -ENOMEM : 0;
	}
	if (len < want)
		profile_device_add_notef(r->dev, "app: fsync_write: %llu MiB, not %llu: its 1 MiB "
					 "pilot was written and fsynced in %.3f s",
					 (unsigned long long)(len / MIB),
					 (unsigned long long)(want / MIB), pilot.seconds);
	t = region(r, APP_PILOT_BYTES, len);
	ret = write_sync(r, &t, &res);
	if (ret < 0)
		return ret;
	if (res.bytes && res.mbps > 0)
		r->dev->app.fsync_mbps = res.mbps;
	return 0;
}

/* seq_read_inner: seq_read's job in the device's last INNER_PCT %. */
static int inner(struct probe_run_state *r)
{
	const uint64_t dev = r->t->span_bytes;
	uint64_t len = (uint64_t)((double)dev * INNER_PCT / 100);
	struct probe_job_result res;
	struct probe_job job;
	int ret;

	len -= len % MIB;
	if (len < APP_TINY_BYTES)
		return 0;
	probe_run_job_for(r, &inner_def, inner_def.qd, &job);
	job.offset = dev - len - (dev - len) % MIB;
	job.length = len;
	ret = probe_run_job(r, &inner_def, &job, &res);
	if (ret == 0 && res.ios && res.mbps > 0)
		r->dev->app.inner_mbps = res.mbps;
	if (ret == 0)
		probe_job_result_free(&res);
	return ret;
}

/* Why the app test cannot run on r's target, or NULL. */
static const char *cannot_run(const struct probe_run_state *r)
{
	if (r->faulty)
		return "fault injection (TIERWISE_FAULT) acts on the probe's job engine, not on "
		       "the application's reads";
	if (r->o->engine && !strcmp(r->o->engine, "null"))
		return "the null engine does no I/O, and the application's reads are real";
	if (r->span < APP_REGIONS * APP_TINY_BYTES)
		return "the span is too small for its five regions (20 MiB at least)";
	return NULL;
}

/* The stream parts and the faults, each in its own region of the span:
 * [0, L) buffered, [L, 2L) buffered at the plan's window, [2L, 3L) mmap,
 * [3L, 4L) O_DIRECT, the rest the pread chain, then the faults under
 * MADV_RANDOM, then those with the read-around (each drops the region first; O_DIRECT
 * leaves nothing in the page cache, and each 4 KiB read of the chain is one
 * of millions of blocks there).  The O_DIRECT load has a region of its own
 * too: a device's cache may hold what was just read. */
static int reads(struct probe_run_state *r)
{
	struct profile_app *a = &r->dev->app;
	const uint64_t l = region_bytes(&r->dev->io[PROFILE_SEQ_READ], APP_PART_S,
					r->span / APP_REGIONS);
	uint64_t rest = r->span - (APP_REGIONS - 1) * l;
	int bad = 0;

	a->read_ahead_kb = read_ahead_kb(r);
	a->plan_read_ahead_kb = TW_WARM_READ_AHEAD_KB;
	if (!cancelled(r))
		bad += load(r, "buffered_read", 0, l, PROBE_APP_BUFFERED, 0, &a->buffered_mbps,
			    APP_CAP_S) < 0;
	if (!cancelled(r))
		bad += load(r, "buffered_read_plan", l, l, PROBE_APP_BUFFERED,
			    TW_WARM_READ_AHEAD_KB, &a->buffered_plan_mbps, APP_CAP_S) < 0;
	if (!cancelled(r))
		bad += load(r, "mmap_read", 2 * l, l, PROBE_APP_MMAP, 0, &a->mmap_mbps,
			    APP_CAP_S) < 0;
	if (!cancelled(r))
		bad += load(r, "direct_read", 3 * l, l, PROBE_APP_DIRECT, 0, &a->direct_mbps,
			    APP_DIRECT_S) < 0;
	rest = rest < APP_FAULT_SPAN ? rest : APP_FAULT_SPAN;
	if (!cancelled(r))
		bad += pread_chain(r, (APP_REGIONS - 1) * l, rest - rest % MIB) < 0;
	if (!cancelled(r))
		bad += faults_random(r, (APP_REGIONS - 1) * l, rest - rest % MIB) < 0;
	if (!cancelled(r))
		bad += faults(r, (APP_REGIONS - 1) * l, rest - rest % MIB) < 0;
	return bad ? -EIO : 0;
}

int probe_run_app(struct probe_run_state *r)
{
	const char *why = cannot_run(r);
	int ret;

	if (why)
		return profile_device_add_notef(r->dev, "app: skipped: %s", why) < 0 ? -ENOMEM : 0;
	r->dev->app.present = true;
	ret = reads(r);
	if (r->t->writable && probe_run_zoned_raw(r))
		profile_device_add_notef(r->dev, "app: fsync_write skipped: host-managed zoned device: "
					 "buffered writes are not zone-sequential");
	else if (r->t->writable && !cancelled(r) &&
		 save(r, region_bytes(&r->dev->io[PROFILE_SEQ_WRITE], APP_WRITE_S, r->span)) < 0)
		ret = -EIO;
	if (r->dev->rotational && r->t->kind == PROBE_TARGET_RAW && !cancelled(r)) {
		int in = inner(r);

		if (in == -ECANCELED)
			return in;
		ret = ret ? ret : in;
	}
	if (cancelled(r))
		return -ECANCELED;
	if (!r->t->writable)
		profile_device_add_notef(r->dev, "app: fsync_write skipped: read-only target");
	return ret;
}
