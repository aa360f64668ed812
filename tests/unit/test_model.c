/* Estimates in user terms and tier names, against hand-computed values. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "advisor.h"
#include "model.h"
#include "tw_tier.h"

/* A workload as the policy parser leaves it (defaults filled). */
static struct model_policy_estimate wl(enum model_pattern pat, enum model_via via)
{
	return (struct model_policy_estimate){ .name = "w", .pattern = pat, .via = via,
		.streams = 1, .read_ahead_kb = MODEL_PLAN_READ_AHEAD_KB, .reads = NAN,
		.beam_width = NAN, .reads_per_query = NAN, .concurrency = 1, .size_bytes = -1,
		.sample_bytes = -1, .batch = NAN, .compute_s = NAN, .utilization = NAN };
}

/* A PM9A1-like device: O_DIRECT figures, QD1 and QD32 reads, and the
 * application tests (results.app). */
static struct profile_device *device(struct profile *p)
{
	struct profile_device *d = profile_add_device(p, "pm9a1");

	d->capacity_bytes = 1000000000000LL;
	d->io[PROFILE_SEQ_READ] = (struct profile_io){ .present = true, .mbps = 6193 };
	d->io[PROFILE_SEQ_WRITE] = (struct profile_io){ .present = true, .mbps = 4000 };
	d->io[PROFILE_RAND_READ_QD1] = (struct profile_io){ .present = true, .qd = 1,
							    .iops = 22120 };
	d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P50] = 40;
	d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99] = 60;
	d->io[PROFILE_RAND_READ_QD32] = (struct profile_io){ .present = true, .qd = 32,
							     .iops = 500000 };
	d->io[PROFILE_RAND_READ_QD32].lat.v[PROFILE_LAT_P50] = 60;
	d->io[PROFILE_RAND_READ_QD32].lat.v[PROFILE_LAT_P99] = 120;
	d->app = (struct profile_app){ .present = true, .buffered_mbps = 1000,
		.read_ahead_kb = 128, .buffered_plan_mbps = 3000, .plan_read_ahead_kb = 4096,
		.mmap_mbps = 800, .direct_mbps = NAN, .fault_iops = 5000, .fault_p99_us = 400,
		.fault_kib = 128, .fsync_mbps = 2000, .inner_mbps = NAN };
	return d;
}

static bool has_basis(const struct model_workload_est *e, const char *path)
{
	for (size_t i = 0; i < e->n_basis; i++)
		if (!strcmp(e->basis[i], path))
			return true;
	return false;
}

static void test_queries(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d = device(p);
	struct model_policy_estimate w = wl(MODEL_PAT_CHAIN, MODEL_VIA_DIRECT);
	struct model_workload_est e;

	(void)state;
	/* A chain of 10,000 reads at QD1: 10000 / 22120 s; p99 adds
	 * sqrt(10000) × (60 − 40) µs. */
	w.reads = 10000;
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 10000.0 / 22120, 1e-9);
	assert_float_equal(e.p99_ms, (10000.0 / 22120 + 100 * 20e-6) * 1e3, 1e-6);
	assert_float_equal(e.qps, 22120.0 / 10000, 1e-9);
	assert_string_equal(e.basis[0], "rand_read_qd1.iops");
	/* through mmap with read-around: the measured faults, 5,000 a second */
	w.via = MODEL_VIA_MMAP;
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 2.0, 1e-9);
	assert_string_equal(e.basis[0], "mmap_fault.iops");
	/* MADV_RANDOM: one page a fault, as direct, plus what a fault costs
	 * beyond its read: 200 µs a measured fault less a QD1 read and the
	 * other 124 KiB at the buffered 1000 MB/s */
	w.madv_random = true;
	model_workload(&w, d, &e);
	double rest = 200e-6 - 1.0 / 22120 - 124 * 1024 / 1e9;
	assert_float_equal(e.seconds, 10000 * (1.0 / 22120 + rest), 1e-9);
	assert_float_equal(e.p50_ms, e.seconds * 1e3, 1e-9);
	assert_float_equal(e.p99_ms, (e.seconds + 100 * 20e-6) * 1e3, 1e-6);
	assert_non_null(strstr(e.how, "beyond its read"));
	/* faults that cost no more than their read: just the read */
	d->app.fault_iops = 8000;	/* 125 µs < 45 + 127 */
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 10000.0 / 22120, 1e-9);
	d->app.fault_iops = 5000;
	/* no faults measured: the read alone */
	d->app.present = false;
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 10000.0 / 22120, 1e-9);
	d->app.present = true;
	/* O_DIRECT pays no fault */
	w.via = MODEL_VIA_DIRECT;
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 10000.0 / 22120, 1e-9);
	/* the pread chain measured: a read at its rate, not the engine's QD1
	 * (50,000 a second: 0.2 s), p99 adds sqrt(10000) × (30 − 15) µs */
	d->app.chain_iops = 50000;
	d->app.chain_p50_us = 15;
	d->app.chain_p99_us = 30;
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 0.2, 1e-9);
	assert_float_equal(e.p99_ms, (0.2 + 100 * 15e-6) * 1e3, 1e-6);
	assert_true(has_basis(&e, "pread_chain.iops"));
	assert_false(has_basis(&e, "rand_read_qd1.lat_us.p99"));
	/* MADV_RANDOM: the fault's read is the pread's too */
	w.via = MODEL_VIA_MMAP;
	model_workload(&w, d, &e);
	rest = 200e-6 - 1.0 / 50000 - 124 * 1024 / 1e9;
	assert_float_equal(e.seconds, 10000 * (1.0 / 50000 + rest), 1e-9);
	/* the faults under MADV_RANDOM timed (20,000 a second): their own
	 * figure, read and fault in one, no cost derived; p99 adds
	 * sqrt(10000) × (90 − 40) µs */
	d->app.fault_rand_iops = 20000;
	d->app.fault_rand_p50_us = 40;
	d->app.fault_rand_p99_us = 90;
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 0.5, 1e-9);
	assert_float_equal(e.p50_ms, 0.5 * 1e3, 1e-9);
	assert_float_equal(e.p99_ms, (0.5 + 100 * 50e-6) * 1e3, 1e-6);
	assert_true(has_basis(&e, "mmap_fault_random.iops"));
	assert_false(has_basis(&e, "pread_chain.iops"));
	assert_false(has_basis(&e, "mmap_fault.iops"));
	assert_string_equal(e.how, "");
	/* 8 such chains: 8 × 20,000 a second, no more than the device at
	 * depth 8 (below) */
	w.concurrency = 8;
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 10000 * 8 / fmin(160000, 22120 + (500000 - 22120) * log(8) /
						       log(32)), 1e-9);
	w.concurrency = 1;
	/* the read-around faults keep their own figure */
	w.madv_random = false;
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 2.0, 1e-9);
	w.madv_random = true;
	d->app.fault_rand_iops = d->app.fault_rand_p50_us = d->app.fault_rand_p99_us = NAN;
	/* 8 chains: 8 × 50,000 reads a second, but no more than the device at
	 * depth 8: 22,120 + (500,000 − 22,120) × log 8 ÷ log 32 */
	w.via = MODEL_VIA_DIRECT;
	w.concurrency = 8;
	model_workload(&w, d, &e);
	double at8 = 22120 + (500000 - 22120) * log(8) / log(32);
	assert_float_equal(e.seconds, 10000 * 8 / at8, 1e-9);
	assert_float_equal(e.qps, 8 / e.seconds, 1e-9);
	/* ...and at depth 2 the chains' own rate: 2 × 50,000 */
	w.concurrency = 2;
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 10000 * 2 / 100000.0, 1e-9);
	w.concurrency = 1;
	d->app.chain_iops = d->app.chain_p50_us = d->app.chain_p99_us = NAN;
	/* A beam: 4 reads a hop, 40 a query, 8 queries: depth 32, 64 µs a hop
	 * (Little), 10 hops. */
	w = wl(MODEL_PAT_BEAM, MODEL_VIA_DIRECT);
	w.beam_width = 4;
	w.reads_per_query = 40;
	w.concurrency = 8;
	model_workload(&w, d, &e);
	assert_float_equal(e.p50_ms, 0.64, 1e-9);
	assert_float_equal(e.qps, 12500, 1e-6);
	assert_float_equal(e.p99_ms, 0.64 + sqrt(10) * 0.060, 1e-9);
	/* one query: depth 4, between QD1 and QD32 in log(depth) (f = 0.4) */
	w.concurrency = 1;
	model_workload(&w, d, &e);
	assert_float_equal(e.p50_ms, 10 * 4 / (22120 + 0.4 * (500000 - 22120)) * 1e3, 1e-9);
	assert_int_equal(model_workload_depth(&w), 4);
	/* nothing measured: unknown, never 0, and the figure named */
	d->io[PROFILE_RAND_READ_QD1].present = d->io[PROFILE_RAND_READ_QD32].present = false;
	model_workload(&w, d, &e);
	assert_true(isnan(e.seconds));
	assert_string_equal(e.missing, "qd_sweep.iops");
	profile_free(p);
}

static void test_streams(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d = device(p);
	struct model_policy_estimate w = wl(MODEL_PAT_STREAM, MODEL_VIA_MMAP);
	struct model_workload_est e;
	const char *unit;

	(void)state;
	/* mmap, measured at 128 KiB read-ahead, scaled to 4096 KiB as buffered
	 * reads scale (3000 / 1000): 2400 MB/s, 18 GB in 7.5 s */
	w.size_bytes = 18000000000LL;
	model_workload(&w, d, &e);
	assert_float_equal(e.mbps, 2400, 1e-9);
	assert_float_equal(e.seconds, 7.5, 1e-9);
	assert_int_equal(e.fits, 1);
	assert_float_equal(model_workload_value(&w, &e, &unit), 7.5, 1e-9);
	assert_string_equal(unit, "s");
	/* buffered at 1024 KiB: between the two measured read-aheads */
	w.via = MODEL_VIA_BUFFERED;
	w.read_ahead_kb = 1024;
	model_workload(&w, d, &e);
	assert_float_equal(e.mbps, 1000 + 0.6 * 2000, 1e-9);
	assert_non_null(strstr(e.how, "not measured"));
	/* O_DIRECT, 4 streams, one stream not measured: 1 MiB per (40 µs +
	 * transfer), said; four capped at the QD32 rate */
	w.via = MODEL_VIA_DIRECT;
	w.streams = 1;
	model_workload(&w, d, &e);
	assert_float_equal(e.mbps, 1.048576 / (40e-6 + 1.048576 / 6193), 1e-6);
	assert_non_null(strstr(e.how, "one O_DIRECT stream not measured"));
	w.streams = 4;
	model_workload(&w, d, &e);
	assert_float_equal(e.mbps, 6193, 1e-9);
	/* measured (direct_read): one stream at its rate, four at 4 × 1,500
	 * (under the QD32 rate), 3 × 2,500 capped at it */
	d->app.direct_mbps = 1500;
	w.streams = 1;
	model_workload(&w, d, &e);
	assert_float_equal(e.mbps, 1500, 0);
	assert_string_equal(e.how, "");
	w.streams = 4;
	model_workload(&w, d, &e);
	assert_float_equal(e.mbps, 6000, 0);
	d->app.direct_mbps = 2500;
	w.streams = 3;
	model_workload(&w, d, &e);
	assert_float_equal(e.mbps, 6193, 0);
	d->app.direct_mbps = NAN;
	w.streams = 4;
	/* does not fit */
	w.size_bytes = 2000000000000LL;
	model_workload(&w, d, &e);
	assert_int_equal(e.fits, 0);
	/* a checkpoint: 500 GB at the buffered + fsync rate, past a 100 GB
	 * write cache at the sustained 1,000 MB/s; restored at 3,000 MB/s */
	w = wl(MODEL_PAT_WRITE, MODEL_VIA_BUFFERED);
	w.size_bytes = 500000000000LL;
	w.restore = true;
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 250, 1e-9);
	d->sustained = (struct profile_sustained){ .present = true, .mbps = 1000,
						   .cliff_after_gb = 100 };
	model_workload(&w, d, &e);
	assert_float_equal(e.seconds, 50 + 400, 1e-9);
	assert_float_equal(e.restore_seconds, 500000.0 / 3000, 1e-9);
	/* unet3d: 7 × 146.6 MB × 0.9 ÷ 0.323 s per accelerator; 4 streams
	 * give the device's 6,193 MB/s: 2 accelerators */
	w = wl(MODEL_PAT_SAMPLES, MODEL_VIA_BUFFERED);
	w.sample_bytes = 146600000;
	w.batch = 7;
	w.compute_s = 0.323;
	w.utilization = 0.9;
	w.streams = 4;
	model_workload(&w, d, &e);
	assert_float_equal(e.need_mbps, 7 * 146.6 * 0.9 / 0.323, 1e-9);
	assert_float_equal(e.accelerators, 2, 0);
	assert_float_equal(model_workload_value(&w, &e, &unit), 2, 0);
	assert_string_equal(unit, "accelerators");
	/* an HDD: half its surface, the inner zone at 55 % of the outer one
	 * when not measured: 1 − 0.45 × 0.5 ÷ 2 of the outer rate */
	d->rotational = true;
	d->capacity_bytes = 12000000000000LL;
	w = wl(MODEL_PAT_STREAM, MODEL_VIA_DIRECT);
	w.streams = 8;
	w.size_bytes = 6000000000000LL;
	model_workload(&w, d, &e);
	assert_float_equal(e.mbps, 6193 * (1 - 0.45 * 0.5 / 2), 1e-6);
	assert_non_null(strstr(e.how, "inner zone not measured"));
	profile_free(p);
}

static void test_tiers(void **state)
{
	(void)state;
	assert_string_equal(advisor_tier_name(ADVISOR_HOT), "hot");
	assert_string_equal(advisor_tier_name(ADVISOR_COLD), "cold");
	assert_null(advisor_tier_name(TW_TIER_COUNT));
	assert_int_equal(tw_tier_find("warm"), ADVISOR_WARM);
	assert_int_equal(tw_tier_find("cold"), ADVISOR_COLD);
	assert_int_equal(tw_tier_find("lukewarm"), -1);
	assert_int_equal(tw_tier_find("boot"), -1);
	assert_int_equal(tw_tier_find(NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_tiers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
