/* test_fault.c — the fault-injecting engine, and the job loop under faults.
 *
 * The fault engine wraps the null engine (exact, no hardware) and, for one
 * case each, psync and io_uring on a file in $TMPDIR.  Asserts what the job
 * reports: the injected error and where, bytes counted only for completed
 * I/Os, and that slow completions cannot hold a test past its time limit
 * by more than the job's stall time (5 s at least; a slow device that
 * keeps completing is waited for).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "job.h"

#define KiB 1024u
#define MiB (1024u * 1024u)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Open descriptors of this process. */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* A job through the fault engine over the null engine (fd: /dev/null). */
static struct probe_job fault_job(int fd, const struct probe_fault_opts *o)
{
	return (struct probe_job){
		.fd = fd, .offset = 0, .length = 64 * MiB, .bs = 4 * KiB,
		.align = 4 * KiB, .qd = 8, .threads = 1, .pattern = PROBE_SEQ,
		.read_pct = 100, .engine = &probe_engine_fault,
		.engine_opts = o, .window_s = 0.1, .max_s = 20, .seed = 7,
	};
}

static struct probe_fault_opts null_fault(enum probe_fault_kind k, uint64_t after,
					  uint64_t count)
{
	return (struct probe_fault_opts){ .kind = k, .after = after, .count = count,
					  .inner = &probe_engine_null };
}

static int devnull(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

/* ---- the spec ---------------------------------------------------------- */

static void test_parse(void **state)
{
	struct probe_fault_opts o;
	char err[128] = "";

	(void)state;
	assert_int_equal(probe_fault_parse("eio:after=1000", &o, err, sizeof(err)), 0);
	assert_int_equal(o.kind, PROBE_FAULT_EIO);
	assert_int_equal(o.after, 1000);
	assert_int_equal(o.count, 0);
	assert_string_equal(o.device, "");
	assert_null(o.inner);
	assert_int_equal(probe_fault_parse("slow:delay=250:after=5:count=3:device=loop7",
					   &o, err, sizeof(err)), 0);
	assert_int_equal(o.kind, PROBE_FAULT_SLOW);
	assert_int_equal(o.delay_ns, 250000000u);
	assert_int_equal(o.after, 5);
	assert_int_equal(o.count, 3);
	assert_string_equal(o.device, "loop7");
	assert_true(probe_fault_matches(&o, "loop7", "/dev/loop7"));
	assert_true(probe_fault_matches(&o, "x", "/dev/loop7"));
	assert_false(probe_fault_matches(&o, "loop70", "/dev/loop70"));
	assert_int_equal(probe_fault_parse("slow", &o, err, sizeof(err)), 0);
	assert_int_equal(o.delay_ns, 1000000000u);	/* default 1 s */
	assert_true(probe_fault_matches(&o, "anything", NULL));
	assert_int_equal(probe_fault_parse("short", &o, err, sizeof(err)), 0);
	assert_int_equal(o.kind, PROBE_FAULT_SHORT);
	assert_int_equal(probe_fault_parse("eagain:count=1", &o, err, sizeof(err)), 0);
	assert_int_equal(o.kind, PROBE_FAULT_EAGAIN);

	assert_int_equal(probe_fault_parse("boom", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown fault 'boom'"));
	assert_int_equal(probe_fault_parse("", &o, err, sizeof(err)), -EINVAL);
	assert_int_equal(probe_fault_parse("eio:after=-1", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "after=-1"));
	assert_int_equal(probe_fault_parse("eio:after=12x", &o, err, sizeof(err)), -EINVAL);
	assert_int_equal(probe_fault_parse("eio:colour=red", &o, err, sizeof(err)), -EINVAL);
	assert_int_equal(probe_fault_parse("eio:after", &o, err, sizeof(err)), -EINVAL);
	assert_int_equal(probe_fault_parse("eio:device=", &o, err, sizeof(err)), -EINVAL);
	assert_int_equal(probe_fault_parse("slow:delay=99999999", &o, err, sizeof(err)), -EINVAL);
}

/* The engine is a test hook: --engine cannot name it. */
static void test_not_found_by_name(void **state)
{
	(void)state;
	assert_null(probe_engine_find("fault"));
	assert_string_equal(probe_engine_fault.name, "fault");
}

/* ---- injected errors ----------------------------------------------------- */

/* Every completion after the 100th fails: exactly 100 counted, in order. */
static void test_eio_after(void **state)
{
	struct probe_fault_state st = { 0 };
	struct probe_fault_opts o = null_fault(PROBE_FAULT_EIO, 100, 0);
	int fd = devnull();
	struct probe_job job = fault_job(fd, &o);
	struct probe_job_result res;

	(void)state;
	o.state = &st;
	assert_int_equal(probe_job_run(&job, &res), -EIO);
	assert_int_equal(res.error, -EIO);
	assert_int_equal(res.error_op, PROBE_OP_READ);
	assert_int_equal(res.error_offset, 100ull * job.bs);	/* the 101st */
	assert_non_null(strstr(res.errmsg, "Input/output error"));
	assert_int_equal(res.ios, 100);
	assert_int_equal(res.bytes, 100ull * job.bs);
	assert_int_equal(probe_hist_count(&res.lat), 100);
	assert_true(atomic_load(&st.injected) >= 1);
	assert_string_equal(res.engine, "fault");
	assert_non_null(strstr(res.engine_desc, "fault eio after 100 over null"));
	probe_job_result_free(&res);
	close(fd);
}

/* The counters are shared: two threads fail after 100 completions in all. */
static void test_shared_count(void **state)
{
	struct probe_fault_state st = { 0 };
	struct probe_fault_opts o = null_fault(PROBE_FAULT_EIO, 100, 0);
	int fd = devnull();
	struct probe_job job = fault_job(fd, &o);
	struct probe_job_result res;

	(void)state;
	o.state = &st;
	job.threads = 2;
	job.pattern = PROBE_RAND;
	assert_int_equal(probe_job_run(&job, &res), -EIO);
	assert_int_equal(res.ios, 100);
	assert_int_equal(res.bytes, res.ios * job.bs);
	probe_job_result_free(&res);
	/* The state lives on: the next job fails at once. */
	assert_int_equal(probe_job_run(&job, &res), -EIO);
	assert_int_equal(res.ios, 0);
	assert_int_equal(res.bytes, 0);
	probe_job_result_free(&res);
	close(fd);
}

/* count=1: one write fails; a job after it (same state) runs clean. */
static void test_count_once_write(void **state)
{
	struct probe_fault_state st = { 0 };
	struct probe_fault_opts o = null_fault(PROBE_FAULT_EIO, 50, 1);
	int fd = devnull();
	struct probe_job job = fault_job(fd, &o);
	struct probe_job_result res;

	(void)state;
	o.state = &st;
	job.qd = 1;
	job.read_pct = 0;
	assert_int_equal(probe_job_run(&job, &res), -EIO);
	assert_int_equal(res.error_op, PROBE_OP_WRITE);
	assert_int_equal(res.error_offset, 50ull * job.bs);
	assert_int_equal(res.ios, 50);
	assert_int_equal(res.write_ios, 50);
	assert_int_equal(res.bytes, 50ull * job.bs);
	assert_non_null(strstr(res.errmsg, "write of 4096 bytes at offset 204800"));
	probe_job_result_free(&res);
	job.max_ios = 1000;
	assert_int_equal(probe_job_run(&job, &res), 0);
	assert_int_equal(res.ios, 1000);
	assert_int_equal(atomic_load(&st.injected), 1);
	probe_job_result_free(&res);
	close(fd);
}

static void test_short_and_eagain(void **state)
{
	struct probe_fault_opts o = null_fault(PROBE_FAULT_SHORT, 10, 0);
	int fd = devnull();
	struct probe_job job = fault_job(fd, &o);
	struct probe_job_result res;

	(void)state;
	job.qd = 1;
	assert_int_equal(probe_job_run(&job, &res), -EIO);	/* short = -EIO */
	assert_int_equal(res.error, -EIO);
	assert_non_null(strstr(res.errmsg, "short read at offset 40960: 2048 of 4096 bytes"));
	assert_int_equal(res.ios, 10);
	assert_int_equal(res.bytes, 10ull * job.bs);	/* not the 2048 */
	probe_job_result_free(&res);

	o = null_fault(PROBE_FAULT_EAGAIN, 10, 0);
	assert_int_equal(probe_job_run(&job, &res), -EAGAIN);	/* not retried */
	assert_int_equal(res.error, -EAGAIN);
	assert_non_null(strstr(res.errmsg, "Resource temporarily unavailable"));
	assert_int_equal(res.ios, 10);
	assert_int_equal(res.bytes, 10ull * job.bs);
	probe_job_result_free(&res);
	close(fd);
}

/* Faults apply to successful completions only: the inner engine's own
 * failure (null's fail_nth) passes through unchanged. */
static void test_inner_error_passes(void **state)
{
	struct probe_null_opts n = { .fail_nth = 20, .fail_err = -ENOSPC };
	struct probe_fault_opts o = null_fault(PROBE_FAULT_EIO, 1000, 0);
	int fd = devnull();
	struct probe_job job = fault_job(fd, &o);
	struct probe_job_result res;

	(void)state;
	o.inner_opts = &n;
	job.qd = 1;
	assert_int_equal(probe_job_run(&job, &res), -ENOSPC);
	assert_int_equal(res.ios, 19);
	probe_job_result_free(&res);
	close(fd);
}

/* ---- slow completions ---------------------------------------------------- */

/* 50 ms per completion: the job runs, latencies show it, on time. */
static void test_slow_measured(void **state)
{
	struct probe_fault_opts o = null_fault(PROBE_FAULT_SLOW, 0, 0);
	int fd = devnull();
	struct probe_job job = fault_job(fd, &o);
	struct probe_job_result res;
	struct probe_lat_summary s;
	double t0 = now_s(), dt;

	(void)state;
	o.delay_ns = 50000000u;
	job.qd = 4;
	job.max_s = 1.0;
	assert_int_equal(probe_job_run(&job, &res), 0);
	dt = now_s() - t0;
	assert_true(dt < 1.0 + 0.05 + 0.5);	/* one delay of drain, plus slack */
	assert_true(res.ios >= 40 && res.ios <= 4 * 21);	/* ~80 = 4 per 50 ms */
	assert_int_equal(res.bytes, res.ios * job.bs);
	assert_int_equal(probe_hist_summary(&res.lat, &s), 0);
	assert_true(s.p50 >= 50e3 * 0.99 && s.p50 < 80e3);	/* µs */
	probe_job_result_free(&res);
	close(fd);
}

/*
 * 2 s per completion, a 2.5 s test: 8 I/Os complete at 2 s, the next 8 at
 * 4 s, 1.5 s after the end.  A slow device, not a stalled one (the old
 * 1 s drain grace called it stalled): 8 in flight at the 3.2 I/O/s shown
 * may take 10 s.  The job succeeds when the last ones complete.
 */
static void test_slow_drain_not_stall(void **state)
{
	struct probe_fault_opts o = null_fault(PROBE_FAULT_SLOW, 0, 0);
	int fd = devnull();
	struct probe_job job = fault_job(fd, &o);
	struct probe_job_result res;
	double t0 = now_s(), dt;

	(void)state;
	o.delay_ns = 2000000000u;
	job.max_s = 2.5;
	assert_int_equal(probe_job_run(&job, &res), 0);
	dt = now_s() - t0;
	assert_true(dt >= 3.9 && dt < 4.6);
	assert_string_equal(res.errmsg, "");
	assert_int_equal(res.ios, 8);	/* those that completed in the 2.5 s */
	probe_job_result_free(&res);
	close(fd);
}

/*
 * 8 s per completion after the 20th, 1 s test: the job ends within the
 * time limit plus the 5 s stall floor (20 I/Os in 1 s: 8 in flight would
 * take 0.4 s, times 4 is below the floor), fails with -ETIMEDOUT and keeps
 * the 20 completions it counted; the worker left behind finishes by
 * itself later and closes the job's duplicate of the fd.
 */
static void test_slow_stall_bounded(void **state)
{
	struct probe_fault_opts o = null_fault(PROBE_FAULT_SLOW, 20, 0);
	int fd = devnull();
	int fds0 = count_fds();
	struct probe_job job = fault_job(fd, &o);
	struct probe_job_result res;
	double t0 = now_s(), dt;

	(void)state;
	o.delay_ns = 8000000000u;
	job.max_s = 1.0;
	assert_int_equal(probe_job_run(&job, &res), -ETIMEDOUT);
	dt = now_s() - t0;
	assert_true(dt >= 5.9 && dt < 6.6);
	assert_int_equal(res.error, 0);	/* no I/O failed: it stalled */
	assert_non_null(strstr(res.errmsg, "the device stalled"));
	assert_non_null(strstr(res.errmsg, "none completed for 5.0 s"));
	assert_int_equal(res.ios, 20);
	assert_int_equal(res.bytes, 20ull * job.bs);
	assert_false(res.cancelled);
	probe_job_result_free(&res);
	assert_int_equal(count_fds(), fds0 + 1);	/* the worker still runs */
	for (int i = 0; i < 60 && count_fds() != fds0; i++)
		usleep(100000);
	assert_int_equal(count_fds(), fds0);	/* it ended and cleaned up */
	close(fd);
}

/*
 * A worker left behind by a stall never gives its buffers to the job's
 * bufcache, which its caller may have freed by then (job.h): 1 MiB reads
 * into an 8 MiB region, the 21st held 7 s, a 1 s test; once the job has
 * failed and the worker has ended by itself, the cache is still empty.
 */
static void test_stall_left_worker_skips_cache(void **state)
{
	struct probe_fault_opts o = null_fault(PROBE_FAULT_SLOW, 20, 0);
	int fd = devnull();
	int fds0 = count_fds();
	struct probe_bufcache c;
	struct probe_job job = fault_job(fd, &o);
	struct probe_job_result res;

	(void)state;
	probe_bufcache_init(&c);
	job.bufcache = &c;
	job.bs = MiB;
	o.delay_ns = 7000000000u;
	job.max_s = 1.0;
	assert_int_equal(probe_job_run(&job, &res), -ETIMEDOUT);
	probe_job_result_free(&res);
	assert_int_equal(count_fds(), fds0 + 1);	/* the worker still runs */
	for (int i = 0; i < 60 && count_fds() != fds0; i++)
		usleep(100000);
	assert_int_equal(count_fds(), fds0);	/* it ended and cleaned up */
	for (unsigned i = 0; i < PROBE_BUFCACHE_N; i++)
		assert_null(c.mem[i]);
	probe_bufcache_destroy(&c);
	close(fd);
}

/* Cancel while every completion is slow: ends within the grace too. */
static void test_slow_cancel(void **state)
{
	static volatile sig_atomic_t cancel;
	struct probe_fault_opts o = null_fault(PROBE_FAULT_SLOW, 0, 0);
	int fd = devnull();
	struct probe_job job = fault_job(fd, &o);
	struct probe_job_result res;
	double t0 = now_s();

	(void)state;
	o.delay_ns = 2000000000u;
	cancel = 1;
	job.cancel = &cancel;
	assert_int_equal(probe_job_run(&job, &res), -ECANCELED);
	assert_true(now_s() - t0 < 1.6);
	assert_true(res.cancelled);
	probe_job_result_free(&res);
	sleep(2);	/* let the worker left behind finish */
	close(fd);
}

/* ---- over real engines ---------------------------------------------------- */

static int tmp_file(uint64_t size)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/tw-test-fault-XXXXXX", dir);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	return fd;
}

static void test_real_engines(void **state)
{
	const struct probe_engine_ops *inner[] = { &probe_engine_psync,
						   &probe_engine_uring };
	int fd = tmp_file(8 * MiB);

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct probe_fault_opts o = { .kind = PROBE_FAULT_EIO, .after = 300,
					      .inner = inner[i] };
		struct probe_job job = fault_job(fd, &o);
		struct probe_job_result res;

		job.length = 8 * MiB;
		job.qd = 1;
		assert_int_equal(probe_job_run(&job, &res), -EIO);
		assert_int_equal(res.ios, 300);
		assert_int_equal(res.bytes, 300ull * job.bs);
		assert_int_equal(res.error_offset, 300ull * job.bs % job.length);
		assert_non_null(strstr(res.engine_desc, inner[i] == &probe_engine_psync
				       ? "over psync" : "over"));
		probe_job_result_free(&res);
	}
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_not_found_by_name),
		cmocka_unit_test(test_eio_after),
		cmocka_unit_test(test_shared_count),
		cmocka_unit_test(test_count_once_write),
		cmocka_unit_test(test_short_and_eagain),
		cmocka_unit_test(test_inner_error_passes),
		cmocka_unit_test(test_slow_measured),
		cmocka_unit_test(test_slow_drain_not_stall),
		cmocka_unit_test(test_slow_stall_bounded),
		cmocka_unit_test(test_stall_left_worker_skips_cache),
		cmocka_unit_test(test_slow_cancel),
		cmocka_unit_test(test_real_engines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
