/* The metric table: every tierwise.profile/1 figure a policy may name. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "policy.h"
#include "tw_util.h"

#define DEV(f) offsetof(struct profile_device, f)
#define DBL(p, u, h, f) { p, u, h, MODEL_MK_DOUBLE, DEV(f) }
#define LNG(p, u, h, f) { p, u, h, MODEL_MK_LONG, DEV(f) }

#define LAT(test, i, what, f, fname)					\
	DBL(test ".lat_us." fname, "µs", what ": " fname " latency",	\
	    io[i].lat.v[f])

/* The ten figures of one fixed-shape I/O test, in the profile's order. */
#define IO_TEST(test, i, what)						\
	DBL(test ".mbps", "MB/s", what ": throughput", io[i].mbps),	\
	DBL(test ".iops", "IOPS", what ": I/O operations per second",	\
	    io[i].iops),						\
	DBL(test ".read_iops", "IOPS", what ": read share of iops",	\
	    io[i].read_iops),						\
	DBL(test ".write_iops", "IOPS", what ": write share of iops",	\
	    io[i].write_iops),						\
	LAT(test, i, what, PROFILE_LAT_MEAN, "mean"),			\
	LAT(test, i, what, PROFILE_LAT_P50, "p50"),			\
	LAT(test, i, what, PROFILE_LAT_P90, "p90"),			\
	LAT(test, i, what, PROFILE_LAT_P99, "p99"),			\
	LAT(test, i, what, PROFILE_LAT_P999, "p999"),			\
	LAT(test, i, what, PROFILE_LAT_MAX, "max")

static const struct model_metric_desc metrics[] = {
	{ "capacity_bytes", "bytes", "size of the device", MODEL_MK_I64,
	  DEV(capacity_bytes) },
	DBL("price_per_tb", "per TB", "price per decimal TB (any currency)",
	    price_per_tb),
	IO_TEST("seq_read", PROFILE_SEQ_READ, "sequential 1 MiB read, QD32"),
	IO_TEST("seq_write", PROFILE_SEQ_WRITE, "sequential 1 MiB write, QD32"),
	IO_TEST("rand_read_qd1", PROFILE_RAND_READ_QD1, "random 4 KiB read, QD1"),
	IO_TEST("rand_read_qd32", PROFILE_RAND_READ_QD32, "random 4 KiB read, QD32"),
	IO_TEST("mixed_70_30", PROFILE_MIXED_70_30,
		"random 4 KiB 70 % read / 30 % write, QD32"),
	DBL("sustained_write.mbps", "MB/s",
	    "sequential write rate after the write cache is exhausted", sustained.mbps),
	DBL("sustained_write.initial_mbps", "MB/s",
	    "sequential write rate at the start, while the cache absorbs writes",
	    sustained.initial_mbps),
	DBL("sustained_write.cliff_after_gb", "GB",
	    "GB written before the rate fell to the sustained level",
	    sustained.cliff_after_gb),
	DBL("latency_target.iops", "IOPS",
	    "highest random-read IOPS whose p99 stays under the probe's target",
	    lat_target.iops),
	DBL("read_under_write.iops", "IOPS",
	    "random 4 KiB read, QD1, while a background writer runs: IOPS",
	    under_write.iops),
	DBL("read_under_write.lat_us.p50", "µs",
	    "random 4 KiB read, QD1, under background writes: p50 latency",
	    under_write.lat.v[PROFILE_LAT_P50]),
	DBL("read_under_write.lat_us.p99", "µs",
	    "random 4 KiB read, QD1, under background writes: p99 latency",
	    under_write.lat.v[PROFILE_LAT_P99]),
	DBL("read_under_write.lat_us.p999", "µs",
	    "random 4 KiB read, QD1, under background writes: p999 latency",
	    under_write.lat.v[PROFILE_LAT_P999]),
	DBL("read_under_write.boot_iops", "IOPS",
	    "random 32 KiB read, QD32, under background writes (OCP BOOT-BENCH-1)",
	    under_write.boot_iops),
	DBL("read_under_write.p99_ratio", "x",
	    "p99 under background writes ÷ idle QD1 p99", under_write.p99_ratio),
	DBL("thermal.idle_c", "°C", "temperature at idle", thermal.idle_c),
	DBL("thermal.load_c", "°C", "highest temperature under the test load",
	    thermal.load_c),
	DBL("thermal.rise_c", "°C", "load_c − idle_c", thermal.rise_c),
	LNG("thermal.throttle_events", "count",
	    "pieces of throttling evidence during the heaviest test",
	    thermal.throttle_events),
	LNG("health.percentage_used", "%", "NVMe endurance used (may exceed 100)",
	    health.percentage_used),
	LNG("health.available_spare", "%", "NVMe spare capacity left",
	    health.available_spare),
	LNG("health.media_errors", "count",
	    "media and data integrity errors (ATA: reallocated + pending sectors)",
	    health.media_errors),
	LNG("health.power_on_hours", "hours", "hours powered on",
	    health.power_on_hours),
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
