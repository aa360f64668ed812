/* app.h — the device read and written the way applications do: the patterns
 * of issue "What the application will see", run on a file or a block device.
 *
 * One code path for the probe's application tests (results.app), for
 * `tierwise verify` (the built tiers, in a scratch file) and for the tests
 * and bench/app-estimates (the programs the estimates are checked against).
 *
 * Every read pattern starts cold: the range is dropped from the page cache
 * first (posix_fadvise POSIX_FADV_DONTNEED after fdatasync; a range with
 * dirty pages of another writer may stay cached, which the result says in
 * cold == false).  Nothing here changes a device setting (read-ahead,
 * scheduler) or the system's caches beyond the range it reads.
 */
#ifndef TW_PROBE_APP_H
#define TW_PROBE_APP_H

#include <stdbool.h>
#include <stdint.h>

/* How the application reaches the data (policy key `via`). */
enum probe_app_via {
	PROBE_APP_DIRECT,	/* O_DIRECT preads (1 MiB for streams, 4 KiB otherwise) */
	PROBE_APP_BUFFERED,	/* preads through the page cache */
	PROBE_APP_MMAP,		/* a shared read-only mapping, one touch per 4 KiB */
	PROBE_APP_VIA_COUNT
};

/* "direct", "buffered", "mmap"; NULL when out of range. */
const char *probe_app_via_name(enum probe_app_via v);
/* The via named s, or -1. */
int probe_app_via_parse(const char *s);

/* What one run did.  NAN / 0 where a field does not apply. */
struct probe_app_result {
	double seconds;		/* wall time of the work (cache drop excluded) */
	uint64_t bytes;		/* bytes the application read or wrote */
	uint64_t ios;		/* reads (chain: reads; beam: reads) or writes */
	uint64_t queries;	/* beam/chain: queries completed */
	double mbps;		/* bytes / seconds / 1e6 */
	double steady_mbps;	/* stream, one stream: MB/s after the first
				 * quarter of the range (the start's one-time
				 * costs left out: what a long load keeps);
				 * NAN = n/a */
	double iops;		/* ios / seconds */
	double qps;		/* queries / seconds */
	double p50_ms, p99_ms;	/* per query (chain: per read), NAN = n/a */
	double fsync_s;		/* write: the fsync's share of seconds */
	uint64_t dev_read_bytes;	/* /sys/block/X/stat read sectors × 512
					   during the run, 0 = unknown */
	bool cold;		/* the range was dropped from the cache first */
};

/*
 * The target of a run: a file or block device and the byte range used.
 * Each pattern opens path itself: read-only for the reads, write-only for
 * probe_app_write (never O_CREAT nor O_TRUNC: the caller creates a scratch
 * file, or decided the device may be written).  stat_dev: the block device whose /sys/block/NAME/stat counts the I/O
 * ("nvme0n1", "loop3"), or NULL.  sysroot: "" or a test root.
 */
struct probe_app_target {
	const char *path;	/* the file or device */
	uint64_t off, len;	/* the range; len > 0, 4 KiB aligned */
	const char *stat_dev;
	const char *sysroot;
};

/*
 * Sequential read of the whole range in `streams` streams (each its own
 * contiguous part, one thread each), 1 MiB requests.  window_kib > 0 with
 * via buffered: each stream keeps a read-ahead window of that many KiB
 * (POSIX_FADV_WILLNEED one window ahead), what the kernel does with
 * read_ahead_kb = window_kib; 0 = the kernel's read-ahead as it is.
 * max_s > 0 stops early (the result says what was read).
 */
int probe_app_stream(const struct probe_app_target *t, enum probe_app_via via,
		     unsigned streams, unsigned window_kib, double max_s,
		     struct probe_app_result *r);

/*
 * Training samples as MLPerf Storage's DLIO reads them: the range cut into
 * whole samples of sample_bytes (4 KiB aligned; the tail that holds no
 * whole sample is not read), in an order shuffled by seed, each read from
 * its start to its end with buffered 1 MiB reads by the next free one of
 * `streams` threads (DLIO's reader threads).  Cold: the range is dropped
 * from the cache first.  max_s > 0 stops early (no new sample is begun,
 * the one under way stops at the next MiB).
 */
int probe_app_samples(const struct probe_app_target *t, uint64_t sample_bytes,
		      unsigned streams, uint64_t seed, double max_s,
		      struct probe_app_result *r);

/*
 * Dependent 4 KiB reads: each read's offset comes from the data the
 * previous one returned (hashed, so any data works), within the range.
 * madv_random with via mmap: madvise(MADV_RANDOM) (no read-around).
 * Stops after `reads` reads or max_s seconds.  p50/p99 are per read.
 */
int probe_app_chain(const struct probe_app_target *t, enum probe_app_via via,
		    bool madv_random, uint64_t reads, double max_s, uint64_t seed,
		    struct probe_app_result *r);

/*
 * A beam search (DiskANN-like): each query makes reads_per_query 4 KiB
 * O_DIRECT reads, beam_width at a time in parallel, each hop's offsets from
 * the data of the hop before; `concurrency` queries in flight on one
 * io_uring.  Stops after `queries` queries or max_s seconds.  p50/p99 per
 * query; qps.
 */
int probe_app_beam(const struct probe_app_target *t, unsigned beam_width,
		   unsigned reads_per_query, unsigned concurrency, uint64_t queries,
		   double max_s, uint64_t seed, struct probe_app_result *r);

/*
 * A checkpoint save: the range written sequentially through the page cache
 * in 1 MiB writes, then fsync; seconds include the fsync (fsync_s says its
 * share).
 */
int probe_app_write(const struct probe_app_target *t, double max_s,
		    struct probe_app_result *r);

#endif
