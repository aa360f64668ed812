/* The destructive fill: the span written with incompressible data before
 * the first test that reads, so that reads come from the media, not from
 * never-written blocks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "probe.h"
#include "run_int.h"

#define FILL_QUICK_S 60.0	/* the destructive fill's time limit, quick */
#define FILL_QUICK_RATE_S 2.0	/* quick: fill what 2 s at the seq_write rate writes … */
#define FILL_FULL_S 600.0	/* and --full */
#define FILL_FIRST_QD 8u	/* the fill before seq_write: its 8 MiB of
				 * buffers are faulted in at once while the
				 * 32 MiB of the QD32 tests that follow are
				 * faulted in beside it (probe_bufcache_prefault),
				 * not before it.  Where the guest's free memory
				 * goes back to the host, 32 MiB take about 0.5 s
				 * to fault in and 8 MiB about 0.13 s.  Eight
				 * 1 MiB writes keep a drive writing at its rate
				 * (fio on a virtio disk, a laid-out file: 3,234
				 * MB/s at QD8, 3,041-3,167 at QD32;
				 * docs/bench-results.md) */

/* Whether the fill applies: a test that reads, and a blank scratch file (its
 * filesystem returns zeros for unwritten blocks without reading the disk,
 * whatever the disk), or a raw device probed with --destructive, not a
 * hard disk nor a host-managed zoned device. */
bool probe_run_wants_fill(const struct probe_run_state *r, unsigned mask)
{
	bool reads = false;

	for (int t = 0; t < PROBE_TEST_COUNT; t++)
		reads |= (mask & (1u << t)) && probe_test_defs[t].read_pct > 0;
	if (!reads || !r->t->writable || r->t->span_bytes < MIB)
		return false;
	if (r->t->kind == PROBE_TARGET_SCRATCH)
		return r->t->blank;
	return !probe_run_zoned_raw(r) && r->dev->media != PROFILE_MEDIA_HDD;
}

/*
 * Whether the fill goes before test t, a write: on a blank scratch file,
 * before seq_write.  A file's first writes also allocate its blocks (the
 * filesystem converts its reserved, unwritten extents), which is the
 * filesystem's cost, not the disk's, and fio, which lays its file out
 * first, does not measure it: on ext4 over a virtio disk a fresh 1 GiB
 * file writes 2.1-2.6 GiB/s for its first 0.3 s, then 3.5-3.9, and 3.3-3.9
 * when rewritten.  Measured over that slow start, seq_write's band stays
 * wide and it runs to its 3 s cap.
 */
bool probe_run_fill_first(const struct probe_run_state *r, enum probe_test t)
{
	return t == PROBE_TEST_SEQ_WRITE && r->t->kind == PROBE_TARGET_SCRATCH;
}

/* The bytes the destructive fill writes (see probe_run_fill()). */
static uint64_t fill_bytes(const struct probe_run_state *r)
{
	const struct profile_io *wr = &r->dev->io[PROFILE_SEQ_WRITE];
	double rate = wr->present && wr->mbps > 0 ? wr->mbps * 1e6 : 0.0;
	uint64_t want = (uint64_t)(rate * FILL_QUICK_RATE_S);

	if (r->o->full || r->o->seconds > 0)
		return r->span;
	want = want > FILL_QUICK_MIN ? want : FILL_QUICK_MIN;
	want -= want % MIB;
	return want < r->span ? want : r->span;
}

/*
 * Whether seq_write, which ran before, already wrote what the fill would
 * (want bytes from 0, with the same incompressible data): then the fill is
 * not run again, the reads run over what seq_write wrote, and a note says
 * so.  Saves a fill's time (a second on a fast 2 GiB device).
 */
static bool fill_done_by_seq_write(struct probe_run_state *r, uint64_t want)
{
	const uint64_t span = r->span, w = r->seq_written;

	if (!w || w < want)
		return false;
	if (w >= span) {
		profile_device_add_notef(r->dev, "fill: seq_write wrote the whole span (%.2f GiB) with "
		     "incompressible data before the read tests (sequential 1 MiB writes from its start): "
		     "no fill needed", span / 1073741824.0);
		return true;
	}
	r->span = w;
	profile_device_add_notef(r->dev, "fill: seq_write wrote %.2f of the %.2f GiB span with "
	     "incompressible data before the read tests, which ran over that part: no fill needed "
	     "(the reads need %.0f s at its rate, 1 GiB at least); --full fills it all",
	     w / 1073741824.0, span / 1073741824.0, FILL_QUICK_RATE_S);
	return true;
}

/*
 * Write the span with incompressible data (sequential 1 MiB at QD32, the
 * seq_write shape; at QD FILL_FIRST_QD when first, while the buffers of
 * the QD32 tests are faulted in beside it) before the first test that
 * reads, so that reads come from the media, not from never-written
 * blocks.  Quick mode fills only what the reads need (fill_bytes(): 2 s
 * at the seq_write rate, 1 GiB at least) and the tests run over that;
 * --full and --seconds fill the whole span.  Nothing is written when
 * seq_write already wrote that much (fill_done_by_seq_write()); when it
 * wrote less, from 0 with the same data, the fill writes on from where it
 * stopped, and the note says so.  At most FILL_QUICK_S (FILL_FULL_S with
 * --full): when that is not enough, the tests run over the part written.
 * first: the fill runs before seq_write (probe_run_fill_first()), and its
 * note says so.  Returns 0, -ECANCELED or -EIO (a note says why).
 */
int probe_run_fill(struct probe_run_state *r, bool first)
{
	static const struct probe_test_def def = {
		.name = "fill", .slot = -1,
		.pattern = PROBE_SEQ, .read_pct = 0, .bs = MIB, .qd = 32,
		.ramp_s = 0, .min_s = 0, .max_s = FILL_QUICK_S,
	};
	const uint64_t span = r->span, want = fill_bytes(r);
	uint64_t from;
	const char *before = first ? "seq_write and the read tests" : "the read tests";
	char why[192], rest[160] = "";
	struct probe_job_result res;
	struct probe_job job;
	int ret;

	if (fill_done_by_seq_write(r, want))
		return 0;
	from = r->seq_written;	/* what seq_write wrote from 0: less than want */
	probe_run_job_for(r, &def, def.qd, &job);
	if (first && r->bufcache && !r->o->full && !(r->o->seconds > 0) &&
	    probe_bufcache_prefault(r->bufcache, (uint64_t)probe_test_defs[PROBE_TEST_SEQ_WRITE].qd * MIB) == 0)
		job.qd = FILL_FIRST_QD;	/* quick: a fill of seconds, not minutes */
	job.ramp_s = 0;
	job.min_s = job.max_s = r->o->full ? FILL_FULL_S : FILL_QUICK_S;
	job.stop_on_steady = false;
	job.known_pct = 0;
	job.offset = from;	/* MIB-aligned (seq_written) */
	job.length = span - from;
	job.max_ios = (want - from) / MIB;
	ret = probe_run_job(r, &def, &job, &res);
	if (ret == 0 && from) {	/* res is read only on success */
		/* GiB as in the other notes; both in MiB when the fill's part
		 * (res.bytes: max_ios caps it) is under a tenth of one, not
		 * "the other 0.00 GiB" */
		const bool mib = res.bytes < 1073741824 / 10;
		const double unit = mib ? 1048576.0 : 1073741824.0;
		const char *name = mib ? "MiB" : "GiB";

		snprintf(rest, sizeof(rest), " (seq_write had written its first %.*f %s, the fill "
			 "the other %.*f %s)", mib ? 0 : 2, from / unit, name, mib ? 0 : 2,
			 res.bytes / unit, name);
	}
	if (first)
		snprintf(why, sizeof(why), "a blank file's first writes also allocate its blocks (the "
			 "filesystem's cost, not the disk's), and the reads need a span well past the "
			 "drive's caches (1 GiB at least)");
	else
		snprintf(why, sizeof(why), "the reads need a span well past the drive's caches (%.0f s "
			 "at its sequential write rate, 1 GiB at least), not all of it", FILL_QUICK_RATE_S);
	if (ret == 0 && want < span && res.bytes >= job.max_ios * MIB) {
		r->span = from + job.max_ios * MIB;
		profile_device_add_notef(r->dev, "fill: wrote %.2f of the %.2f GiB span with incompressible "
		     "data in %.1f s (%.0f MB/s) before %s, which ran over that part%s: %s; --full fills it all",
		     r->span / 1073741824.0, span / 1073741824.0, res.seconds, res.mbps, before, rest, why);
	} else if (ret == 0 && res.bytes >= job.max_ios * MIB) {
		profile_device_add_notef(r->dev, "fill: wrote the whole span (%.2f GiB) with incompressible data "
		     "in %.1f s (%.0f MB/s) before %s%s", span / 1073741824.0, res.seconds, res.mbps, before,
		     rest);
	} else if (ret == 0) {
		r->span = from + res.bytes - res.bytes % r->t->align;
		profile_device_add_notef(r->dev, "fill: wrote %.2f of %.2f GiB in the %.0f s allowed (%.0f MB/s)%s; "
		     "the tests ran over that part", r->span / 1073741824.0,
		     span / 1073741824.0, job.max_s, res.mbps, rest);
	}
	probe_job_result_free(&res);
	return ret;
}
