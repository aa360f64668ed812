/* metrics.c — the metric table (metrics.h): every tierwise.profile/1 figure a
 * policy may name, one row each, and a device's price. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "metrics.h"
#include "tw_util.h"

#define DEV(f) offsetof(struct profile_device, f)
#define LABELS(...) __VA_ARGS__

/* One row: path, unit, help, which way is better, the I/O test (or -1), the
 * value's kind and field, then the labels in parentheses (may be empty). */
#define ROW(p, u, h, b, t, k, f, labels)				\
	{ .path = p, .unit = u, .help = h, .better = MODEL_BETTER_##b,	\
	  .test = t, .kind = MODEL_MK_##k, .off = DEV(f), LABELS labels }

#define DBL(p, u, h, b, f, labels) ROW(p, u, h, b, -1, DOUBLE, f, labels)
#define LNG(p, u, h, b, f, labels) ROW(p, u, h, b, -1, LONG, f, labels)

#define IO(test, i, what, fig, u, h, b, f, labels)			\
	ROW(test "." fig, u, what ": " h, b, i, DOUBLE, io[i].f, labels)
#define LAT(test, i, what, f, fname, labels)				\
	IO(test, i, what, "lat_us." fname, "µs", fname " latency", LOWER,	\
	   lat.v[f], labels)

/* The ten figures of one fixed-shape I/O test, in the profile's order; the
 * labels of its throughput, IOPS, p50 and p99 latency in parentheses. */
#define IO_TEST(test, i, what, mbps_l, iops_l, p50_l, p99_l)		\
	IO(test, i, what, "mbps", "MB/s", "throughput", HIGHER, mbps, mbps_l), \
	IO(test, i, what, "iops", "IOPS", "I/O operations per second", HIGHER, \
	   iops, iops_l),						\
	IO(test, i, what, "read_iops", "IOPS", "read share of iops", HIGHER, \
	   read_iops, ()),						\
	IO(test, i, what, "write_iops", "IOPS", "write share of iops", HIGHER, \
	   write_iops, ()),						\
	LAT(test, i, what, PROFILE_LAT_MEAN, "mean", ()),		\
	LAT(test, i, what, PROFILE_LAT_P50, "p50", p50_l),		\
	LAT(test, i, what, PROFILE_LAT_P90, "p90", ()),			\
	LAT(test, i, what, PROFILE_LAT_P99, "p99", p99_l),		\
	LAT(test, i, what, PROFILE_LAT_P999, "p999", ()),		\
	LAT(test, i, what, PROFILE_LAT_MAX, "max", ())

static const struct model_metric_desc metrics[] = {
	ROW("capacity_bytes", "bytes", "size of the device", HIGHER, -1, I64,
	    capacity_bytes, (.words = "capacity", .brief = "capacity")),
	DBL("price_per_tb", "per TB", "price per decimal TB (any currency)", LOWER,
	    price_per_tb, (.words = "price per TB", .brief = "price per TB")),
	IO_TEST("seq_read", PROFILE_SEQ_READ, "sequential 1 MiB read, QD32",
		(.words = "sequential 1 MiB read, QD32", .brief = "sequential read",
		 .title = "Sequential read (1 MiB)", .head = "seq read MB/s"),
		(), (), ()),
	IO_TEST("seq_write", PROFILE_SEQ_WRITE, "sequential 1 MiB write, QD32",
		(.words = "sequential 1 MiB write, QD32", .brief = "sequential write",
		 .title = "Sequential write (1 MiB)", .head = "seq write MB/s"),
		(), (), ()),
	IO_TEST("rand_read_qd1", PROFILE_RAND_READ_QD1, "random 4 KiB read, QD1", (),
		(.words = "random 4 KiB read, QD1, IOPS", .brief = "QD1 IOPS",
		 .compare = "QD1 random read", .fleet = "random 4 KiB read, QD1",
		 .title = "Random 4 KiB read at QD1", .head = "QD1 IOPS"),
		(.words = "random 4 KiB read, QD1, median latency",
		 .brief = "QD1 median latency", .compare = "QD1 p50 latency",
		 .title = "Random 4 KiB read at QD1, p50 latency", .head = "QD1 p50 µs"),
		(.words = "random 4 KiB read, QD1, p99 latency", .brief = "QD1 p99 latency",
		 .fleet = "QD1 read latency, p99",
		 .title = "Random 4 KiB read at QD1, p99 latency", .head = "QD1 p99 µs")),
	IO_TEST("rand_read_qd32", PROFILE_RAND_READ_QD32, "random 4 KiB read, QD32", (),
		(.words = "random 4 KiB read, QD32, IOPS", .brief = "QD32 IOPS",
		 .compare = "QD32 random read", .fleet = "random 4 KiB read, QD32",
		 .title = "Random 4 KiB read at QD32", .head = "QD32 IOPS"),
		(.words = "random 4 KiB read, QD32, median latency",
		 .brief = "QD32 median latency"),
		(.words = "random 4 KiB read, QD32, p99 latency", .brief = "QD32 p99 latency")),
	IO_TEST("mixed_70_30", PROFILE_MIXED_70_30,
		"random 4 KiB 70 % read / 30 % write, QD32", (),
		(.words = "random 4 KiB 70/30 read/write mix, QD32, IOPS",
		 .brief = "mixed 70/30 IOPS", .compare = "mixed 70/30",
		 .fleet = "70/30 read/write mix", .title = "Mixed 70 % read / 30 % write, QD32",
		 .head = "mixed 70/30 IOPS"),
		(), ()),
	DBL("sustained_write.mbps", "MB/s",
	    "sequential write rate after the write cache is exhausted", HIGHER, sustained.mbps,
	    (.words = "sequential write, write cache full", .brief = "sustained write",
	     .title = "Sustained write, after the cache", .head = "sustained write MB/s")),
	DBL("sustained_write.initial_mbps", "MB/s",
	    "sequential write rate at the start, while the cache absorbs writes", HIGHER,
	    sustained.initial_mbps, ()),
	DBL("sustained_write.cliff_after_gb", "GB",
	    "GB written before the rate fell to the sustained level", HIGHER,
	    sustained.cliff_after_gb, ()),
	DBL("latency_target.iops", "IOPS",
	    "highest random-read IOPS whose p99 stays under the probe's target", HIGHER,
	    lat_target.iops,
	    (.words = "random-read IOPS with p99 under the probe's target",
	     .brief = "IOPS within the latency target")),
	DBL("read_under_write.iops", "IOPS",
	    "random 4 KiB read, QD1, while a background writer runs: IOPS", HIGHER,
	    under_write.iops,
	    (.words = "random 4 KiB read, QD1, under writes, IOPS", .brief = "IOPS under writes")),
	DBL("read_under_write.lat_us.p50", "µs",
	    "random 4 KiB read, QD1, under background writes: p50 latency", LOWER,
	    under_write.lat.v[PROFILE_LAT_P50],
	    (.words = "random 4 KiB read, QD1, under writes, median latency",
	     .brief = "median latency under writes")),
	DBL("read_under_write.lat_us.p99", "µs",
	    "random 4 KiB read, QD1, under background writes: p99 latency", LOWER,
	    under_write.lat.v[PROFILE_LAT_P99],
	    (.words = "random 4 KiB read, QD1, under writes, p99 latency",
	     .brief = "p99 latency under writes")),
	DBL("read_under_write.lat_us.p999", "µs",
	    "random 4 KiB read, QD1, under background writes: p999 latency", LOWER,
	    under_write.lat.v[PROFILE_LAT_P999], ()),
	DBL("read_under_write.boot_iops", "IOPS",
	    "random 32 KiB read, QD32, under background writes (OCP BOOT-BENCH-1)", HIGHER,
	    under_write.boot_iops,
	    (.words = "random 32 KiB read, QD32, under writes, IOPS",
	     .brief = "boot reads under writes")),
	DBL("read_under_write.p99_ratio", "x",
	    "p99 under background writes ÷ idle QD1 p99", LOWER, under_write.p99_ratio, ()),
	DBL("buffered_read.mbps", "MB/s",
	    "cold buffered 1 MiB reads, one stream, the device's read-ahead", HIGHER,
	    app.buffered_mbps,
	    (.words = "buffered sequential read, the device's read-ahead",
	     .brief = "buffered read")),
	LNG("buffered_read.read_ahead_kb", "KiB", "the device's read-ahead during buffered_read",
	    HIGHER, app.read_ahead_kb, ()),
	DBL("buffered_read_plan.mbps", "MB/s",
	    "cold buffered 1 MiB reads, one stream, the plan's read-ahead (4 MiB)", HIGHER,
	    app.buffered_plan_mbps,
	    (.words = "buffered sequential read, the plan's read-ahead",
	     .brief = "buffered read, plan's read-ahead")),
	DBL("mmap_read.mbps", "MB/s",
	    "cold mapping read in order, one touch per 4 KiB (a model load through mmap)", HIGHER,
	    app.mmap_mbps, (.words = "sequential read through mmap", .brief = "mmap load")),
	DBL("direct_read.mbps", "MB/s",
	    "O_DIRECT 1 MiB reads one at a time: one stream at QD1 (a loader without the page "
	    "cache)", HIGHER, app.direct_mbps,
	    (.words = "sequential O_DIRECT read, one request at a time",
	     .brief = "O_DIRECT load, one stream")),
	DBL("mmap_fault.iops", "IOPS",
	    "random 4 KiB touches of a cold mapping, default read-around: faults per second",
	    HIGHER, app.fault_iops,
	    (.words = "random 4 KiB mmap faults per second", .brief = "mmap faults/s")),
	DBL("mmap_fault.lat_us.p99", "µs", "random 4 KiB mmap faults: p99 latency", LOWER,
	    app.fault_p99_us,
	    (.words = "random 4 KiB mmap faults, p99 latency", .brief = "mmap fault p99")),
	DBL("mmap_fault.kib_per_fault", "KiB",
	    "KiB the device read per random mmap fault (the read-around)", LOWER, app.fault_kib,
	    ()),
	DBL("pread_chain.iops", "IOPS",
	    "dependent 4 KiB O_DIRECT pread(2)s one at a time (a lookup without the page cache): "
	    "reads per second", HIGHER, app.chain_iops,
	    (.words = "dependent 4 KiB O_DIRECT preads per second", .brief = "pread chain")),
	DBL("pread_chain.lat_us.p50", "µs", "dependent 4 KiB O_DIRECT pread(2)s: p50 latency",
	    LOWER, app.chain_p50_us,
	    (.words = "dependent 4 KiB O_DIRECT preads, p50 latency", .brief = "pread p50")),
	DBL("pread_chain.lat_us.p99", "µs", "dependent 4 KiB O_DIRECT pread(2)s: p99 latency",
	    LOWER, app.chain_p99_us,
	    (.words = "dependent 4 KiB O_DIRECT preads, p99 latency", .brief = "pread p99")),
	DBL("mmap_fault_random.iops", "IOPS",
	    "dependent 4 KiB touches of a cold mapping under madvise(MADV_RANDOM) (an index over "
	    "mmap without read-around): faults per second", HIGHER, app.fault_rand_iops,
	    (.words = "random mmap faults per second (MADV_RANDOM)", .brief = "random faults")),
	DBL("mmap_fault_random.lat_us.p50", "µs", "mmap faults under MADV_RANDOM: p50 latency",
	    LOWER, app.fault_rand_p50_us,
	    (.words = "random mmap faults (MADV_RANDOM), p50 latency", .brief = "fault p50")),
	DBL("mmap_fault_random.lat_us.p99", "µs", "mmap faults under MADV_RANDOM: p99 latency",
	    LOWER, app.fault_rand_p99_us,
	    (.words = "random mmap faults (MADV_RANDOM), p99 latency", .brief = "fault p99")),
	DBL("fsync_write.mbps", "MB/s", "buffered 1 MiB writes, then fsync (a checkpoint save)",
	    HIGHER, app.fsync_mbps,
	    (.words = "buffered write with fsync", .brief = "checkpoint write")),
	DBL("seq_read_inner.mbps", "MB/s",
	    "sequential 1 MiB read, QD32, in the device's last 2 % (a disk's inner zone)", HIGHER,
	    app.inner_mbps,
	    (.words = "sequential read, inner zone", .brief = "inner-zone read")),
	DBL("thermal.idle_c", "°C", "temperature at idle", LOWER, thermal.idle_c,
	    (.compare = "idle temperature")),
	DBL("thermal.load_c", "°C", "highest temperature under the test load", LOWER,
	    thermal.load_c,
	    (.words = "temperature under load", .brief = "temperature under load",
	     .compare = "load temperature")),
	DBL("thermal.rise_c", "°C", "load_c − idle_c", LOWER, thermal.rise_c, ()),
	LNG("thermal.throttle_events", "count",
	    "pieces of throttling evidence during the heaviest test", LOWER,
	    thermal.throttle_events, ()),
	LNG("health.percentage_used", "%", "NVMe endurance used (may exceed 100)", LOWER,
	    health.percentage_used, (.words = "endurance used", .brief = "endurance used")),
	LNG("health.available_spare", "%", "NVMe spare capacity left", HIGHER,
	    health.available_spare, (.words = "spare capacity left", .brief = "spare left")),
	LNG("health.media_errors", "count",
	    "media and data integrity errors (ATA: reallocated + pending sectors)", LOWER,
	    health.media_errors, (.words = "media errors", .brief = "media errors")),
	LNG("health.power_on_hours", "hours", "hours powered on", LOWER,
	    health.power_on_hours, ()),
};

size_t model_metric_count(void)
{
	return ARRAY_SIZE(metrics);
}

const struct model_metric_desc *model_metric_at(size_t i)
{
	return i < ARRAY_SIZE(metrics) ? &metrics[i] : NULL;
}

const struct model_metric_desc *model_metric_find(const char *path)
{
	if (!path)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(metrics); i++)
		if (!strcmp(metrics[i].path, path))
			return &metrics[i];
	return NULL;
}

double model_metric_value(const struct profile_device *d,
			  const struct model_metric_desc *m)
{
	const char *at = (const char *)d + m->off;

	switch (m->kind) {
	case MODEL_MK_DOUBLE:
		return *(const double *)at;
	case MODEL_MK_LONG:	/* -1 = unknown */
		return *(const long *)at < 0 ? NAN : (double)*(const long *)at;
	case MODEL_MK_I64:
		return *(const int64_t *)at < 0 ? NAN : (double)*(const int64_t *)at;
	}
	return NAN;
}

const char *model_metric_label(const struct model_metric_desc *m, enum model_label l)
{
	if (!m)
		return NULL;
	switch (l) {
	case MODEL_LABEL_WORDS: return m->words;
	case MODEL_LABEL_BRIEF: return m->brief;
	case MODEL_LABEL_COMPARE: return m->compare ? m->compare : m->brief;
	case MODEL_LABEL_FLEET: return m->fleet ? m->fleet : m->brief;
	case MODEL_LABEL_TITLE: return m->title;
	case MODEL_LABEL_HEAD: return m->head;
	}
	return NULL;
}

double model_device_price(const struct profile_device *d)
{
	if (isnan(d->price_per_tb) || d->capacity_bytes <= 0)
		return NAN;
	return d->price_per_tb * (double)d->capacity_bytes / 1e12;
}
