/* underwrite.h — reads measured while a background writer runs.
 *
 * The read_under_write test (in the spirit of OCP's BOOT-BENCH-1 background
 * load): a reader job (the caller's, e.g. QD1 4 KiB random reads) runs while
 *
 *   a writer   paces random writes of write_bs at write_mibps (open loop,
 *              job.h rate_iops, QD1: the OCP writes are synchronous), and
 *   a trimmer  every tick (PROBE_UW_TICK_S) discards ranges of write_bs at trim_mibps and
 *              writes each one again at once (OCP's "writes with trims"):
 *              BLKDISCARD on a block device, fallocate(PUNCH_HOLE) on a
 *              file.  Where discard is refused the ranges are still
 *              written (the write load stays the same) and trim_why says
 *              why no trim was issued.
 *
 * Both run over the reader's span and stop when the reader's job ends.
 * Writes: only for targets the caller may write (raw with --destructive,
 * scratch files).
 */
#ifndef PROBE_UNDERWRITE_H
#define PROBE_UNDERWRITE_H

#include "job.h"

#define PROBE_UW_WRITE_MIBPS 15.0	/* OCP: 15 MiB/s of 128 KiB writes */
#define PROBE_UW_TRIM_MIBPS 5.0		/* and 5 MiB/s of writes with trims */
#define PROBE_UW_WRITE_BS (128u * 1024u)
#define PROBE_UW_TICK_S 0.1		/* the trimmer wakes every 100 ms */

struct probe_uw_opts {
	double write_mibps;	/* > 0 */
	double trim_mibps;	/* >= 0; 0 = no trim stream */
	uint32_t write_bs;	/* a multiple of the reader's align */
	double tick_s;		/* the trimmer's tick, 1 ms..60 s; 0 = PROBE_UW_TICK_S */
};

struct probe_uw_result {
	struct probe_job_result read;	/* the reader's job */
	double write_mibps;	/* the writer's delivered MiB/s (trim stream
				 * rewrites included), NAN = none */
	double trim_mibps;	/* MiB/s discarded, NAN = no trim issued */
	int write_err;		/* the writer's error (-errno) or 0 */
	char write_errmsg[PROBE_ENGINE_MSG];
	char trim_why[PROBE_ENGINE_MSG];	/* why no trim was issued, or "" */
};

/*
 * Run reader (its fd, span, engine and timing) while the writer and the
 * trimmer of o load the same span, then stop them.  res is always
 * initialised; free res->read with probe_job_result_free.  Returns the
 * reader job's return (probe_job_run); the writer's failure is in
 * res->write_err and write_errmsg (the reads are still measured), or
 * -EINVAL for bad options, -errno when a thread cannot start.
 */
int probe_uw_run(const struct probe_job *reader, const struct probe_uw_opts *o,
		 struct probe_uw_result *res);

#endif
