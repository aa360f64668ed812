/* test_engine_dev.c — the engines and the job loop on real block devices.
 *
 * Needs root: a loop device over a 256 MiB file in $TMPDIR (or /tmp),
 * attached with direct I/O, and /dev/zram0 when it exists unused
 * (disksize 0).  Nothing else is touched.  Cleanup on every exit path:
 * the backing file is unlinked as soon as the loop device holds it, the
 * loop device is set to autoclear (it detaches when the last reference
 * goes, even if we are killed), zram0 is reset at the end and at exit.
 * SIGINT/SIGTERM/SIGHUP cancel the running job (through the job's cancel
 * flag) so that the normal cleanup runs; a second signal kills at once.
 * Only SIGKILL leaves zram0 configured (reset it: echo 1 >
 * /sys/block/zram0/reset).
 *
 * Each device runs a table of 1 s jobs on io_uring and psync and prints
 * one line per job (IOPS, MB/s, latency percentiles, engine setup).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "job.h"
#include "rng.h"

#define KiB 1024u
#define MiB (1024u * 1024u)
#define DEV_SIZE (256ull * MiB)
#define ZRAM "/sys/block/zram0"

struct dev {
	const char *label;
	char path[64];
	int fd;			/* O_RDWR | O_DIRECT, -1 when unavailable */
	bool zram;
	char why[320];		/* why unavailable */
};

static struct dev loopdev = { .label = "loop", .fd = -1 };
static struct dev zramdev = { .label = "zram", .fd = -1, .zram = true };
static volatile sig_atomic_t zram_mine;	/* we set its disksize */
static volatile sig_atomic_t interrupted;	/* the jobs' cancel flag */

/* ---- cleanup --------------------------------------------------------- */

/*
 * Reset zram0 if we configured it.  io_uring drops its reference to the
 * device asynchronously after the ring is closed, so a reset may find it
 * busy for a moment: retry for up to 5 s.
 */
static void zram_reset(void)
{
	const struct timespec pause = { 0, 50000000 };

	if (zramdev.fd >= 0) {
		close(zramdev.fd);
		zramdev.fd = -1;
	}
	for (int i = 0; zram_mine && i < 100; i++) {
		int fd = open(ZRAM "/reset", O_WRONLY);

		if (fd >= 0) {
			if (write(fd, "1", 1) == 1)
				zram_mine = 0;
			close(fd);
		}
		if (zram_mine)
			nanosleep(&pause, NULL);
	}
	if (zram_mine)
		fprintf(stderr, "warning: could not reset zram0: "
				"echo 1 > " ZRAM "/reset\n");
}

static void loop_release(void)
{
	if (loopdev.fd < 0)
		return;
	ioctl(loopdev.fd, LOOP_CLR_FD, 0);	/* autoclear makes it lazy */
	close(loopdev.fd);
	loopdev.fd = -1;
}

static void cleanup_all(void)
{
	loop_release();
	zram_reset();
}

static void on_signal(int sig)
{
	if (!interrupted) {
		interrupted = 1;	/* the job stops; cleanup follows */
		return;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ---- devices --------------------------------------------------------- */

static int fill_random(int fd, uint64_t size)
{
	struct probe_rng r;
	void *buf;
	int ret = 0;

	if (posix_memalign(&buf, 4096, MiB))
		return -ENOMEM;
	probe_rng_seed(&r, 12345);
	for (uint64_t o = 0; o < size && !ret; o += MiB) {
		probe_rng_fill(&r, buf, MiB);
		if (pwrite(fd, buf, MiB, (off_t)o) != MiB)
			ret = -EIO;
	}
	free(buf);
	return ret ? ret : (fsync(fd) ? -errno : 0);
}

/* Run cmd, read its first line of output into out.  Returns 0 or -1. */
static int run_line(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	bool got;

	if (!p)
		return -1;
	got = fgets(out, (int)len, p) != NULL;
	if (pclose(p) != 0 || !got)
		return -1;
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

static void set_autoclear(int fd)
{
	struct loop_info64 li;

	if (ioctl(fd, LOOP_GET_STATUS64, &li) == 0) {
		li.lo_flags |= LO_FLAGS_AUTOCLEAR;
		ioctl(fd, LOOP_SET_STATUS64, &li);
	}
}

static void loop_setup(struct dev *d)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char file[256], cmd[400];
	int fd;

	snprintf(file, sizeof(file), "%s/tw-engine-dev-XXXXXX", dir);
	fd = mkstemp(file);
	if (fd < 0 || ftruncate(fd, (off_t)DEV_SIZE)) {
		snprintf(d->why, sizeof(d->why), "cannot create %.200s", file);
		if (fd >= 0)
			close(fd);
		unlink(file);
		return;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "losetup --find --show --direct-io=on '%s' 2>/dev/null", file);
	if (run_line(cmd, d->path, sizeof(d->path)) ||
	    strncmp(d->path, "/dev/loop", 9)) {
		snprintf(d->why, sizeof(d->why), "losetup failed");
		unlink(file);
		return;
	}
	d->fd = open(d->path, O_RDWR | O_DIRECT);
	if (d->fd >= 0)
		set_autoclear(d->fd);
	unlink(file);	/* the loop device keeps it open */
	if (d->fd < 0) {
		snprintf(cmd, sizeof(cmd), "losetup -d '%s'", d->path);
		if (system(cmd))
			fprintf(stderr, "warning: '%s' failed\n", cmd);
		snprintf(d->why, sizeof(d->why), "cannot open %s", d->path);
	}
}

static int read_sys(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	return ok ? 0 : -1;
}

static int write_sys(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(val, f) < 0;
	ret |= fclose(f) != 0;
	return ret ? -1 : 0;
}

static void zram_setup(struct dev *d)
{
	char size[32];

	if (access(ZRAM, F_OK) && system("modprobe zram 2>/dev/null")) {
		snprintf(d->why, sizeof(d->why), "modprobe zram failed");
		return;
	}
	if (read_sys(ZRAM "/disksize", size, sizeof(size))) {
		snprintf(d->why, sizeof(d->why), "no zram0");
		return;
	}
	if (strtoull(size, NULL, 10) != 0) {
		snprintf(d->why, sizeof(d->why), "zram0 is in use");
		return;
	}
	if (write_sys(ZRAM "/disksize", "256M")) {
		snprintf(d->why, sizeof(d->why), "cannot set zram0 disksize");
		return;
	}
	zram_mine = 1;
	snprintf(d->path, sizeof(d->path), "/dev/zram0");
	d->fd = open(d->path, O_RDWR | O_DIRECT);
	if (d->fd < 0) {
		snprintf(d->why, sizeof(d->why), "cannot open /dev/zram0");
		zram_reset();
	}
}

/* Create the devices; returns how many are usable. */
static int setup_devices(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(cleanup_all);
	loop_setup(&loopdev);
	if (loopdev.fd >= 0 && fill_random(loopdev.fd, DEV_SIZE)) {
		snprintf(loopdev.why, sizeof(loopdev.why), "cannot fill %s",
			 loopdev.path);
		loop_release();
	}
	zram_setup(&zramdev);	/* filled by its test, after a zero check */
	if (loopdev.fd < 0)
		printf("SKIP: loop: %s\n", loopdev.why);
	if (zramdev.fd < 0)
		printf("SKIP: zram: %s\n", zramdev.why);
	return (loopdev.fd >= 0) + (zramdev.fd >= 0);
}

/* ---- jobs ------------------------------------------------------------ */

struct jobdef {
	const char *name;
	enum probe_pattern pattern;
	uint32_t bs;
	unsigned qd, read_pct;
};

static const struct jobdef jobs[] = {
	{ "seq read 1M qd32", PROBE_SEQ, 1 * MiB, 32, 100 },
	{ "rand read 4k qd1", PROBE_RAND, 4 * KiB, 1, 100 },
	{ "rand read 4k qd32", PROBE_RAND, 4 * KiB, 32, 100 },
	{ "rand write 4k qd32", PROBE_RAND, 4 * KiB, 32, 0 },
	{ "rand 70/30 4k qd32", PROBE_RAND, 4 * KiB, 32, 70 },
};

static struct probe_job make_job(const struct dev *d, const struct jobdef *j,
				 const struct probe_engine_ops *ops)
{
	return (struct probe_job){
		.fd = d->fd, .offset = 0, .length = DEV_SIZE, .bs = j->bs,
		.align = 4 * KiB, .qd = j->qd, .threads = 1,
		.pattern = j->pattern, .read_pct = j->read_pct, .engine = ops,
		.no_fallback = true, .ramp_s = 0.1, .window_s = 0.25,
		.max_s = 1.0, .seed = 1, .cancel = &interrupted,
	};
}

static void check_latency(const struct probe_hist *h)
{
	struct probe_lat_summary s;

	assert_int_equal(probe_hist_summary(h, &s), 0);
	assert_true(probe_hist_min(h) > 0);
	assert_true(s.p50 > 0 && s.p50 <= s.p90 && s.p90 <= s.p99 &&
		    s.p99 <= s.p999 && s.p999 <= s.max);
	assert_true(s.mean * 1000 >= (double)probe_hist_min(h) &&
		    s.mean <= s.max);
	assert_true(s.p50 < 1e6);	/* under a second */
}

static void print_row(const struct dev *d, const struct jobdef *j,
		      const struct probe_job_result *r)
{
	struct probe_lat_summary s;

	probe_hist_summary(&r->lat, &s);
	fprintf(stderr,
		"  %-5s %-8s %-20s %9.0f IOPS %8.1f MB/s  p50 %7.1f  p99 %8.1f  max %9.1f us\n",
		d->label, r->engine, j->name, r->iops, r->mbps, s.p50, s.p99,
		s.max);
}

static void run_one(const struct dev *d, const struct jobdef *j,
		    const struct probe_engine_ops *ops, bool filled)
{
	struct probe_job job = make_job(d, j, ops);
	struct probe_job_result *r = malloc(sizeof(*r));
	int ret;

	assert_non_null(r);
	ret = probe_job_run(&job, r);
	if (ret)
		fprintf(stderr, "%s %s: %s\n", d->label, j->name, r->errmsg);
	if (ret) {
		probe_job_result_free(r);
		free(r);
		fail_msg("%s %s on %s failed (%d)", d->label, j->name,
			 ops->name, ret);
	}
	print_row(d, j, r);
	assert_string_equal(r->engine, ops->name);
	assert_true(r->ios > 0 && r->iops > 0 && r->mbps > 0);
	assert_int_equal(r->bytes, r->ios * j->bs);
	assert_int_equal(r->read_ios + r->write_ios, r->ios);
	assert_true(r->seconds >= 0.95 && r->seconds < 1.2);
	assert_true(r->n_windows >= 3);
	check_latency(&r->lat);
	if (j->read_pct == 100)
		assert_int_equal(r->write_ios, 0);
	if (j->read_pct == 0)
		assert_int_equal(r->read_ios, 0);
	if (j->read_pct == 70 && r->ios >= 1000) {
		double f = (double)r->read_ios / (double)r->ios;

		assert_true(f > 0.65 && f < 0.75);
	}
	if (j->read_pct && r->read_ios >= 10 * PROBE_JOB_ZERO_SAMPLE)
		assert_true(r->zero_samples > 0);
	if (filled)
		assert_int_equal(r->zero_reads, 0);
	probe_job_result_free(r);
	free(r);
}

static void run_table(const struct dev *d, const struct probe_engine_ops *ops)
{
	if (d->fd < 0)
		skip();
	for (size_t i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++)
		run_one(d, &jobs[i], ops, true);
}

/* A fresh zram device reads zeros: every sampled read must say so. */
static void test_zram_zero_then_fill(void **state)
{
	struct probe_job job;
	struct probe_job_result *r = malloc(sizeof(*r));

	(void)state;
	if (zramdev.fd < 0) {
		free(r);
		skip();
	}
	assert_non_null(r);
	job = make_job(&zramdev, &jobs[2], &probe_engine_uring);
	job.max_s = 0.3;
	assert_int_equal(probe_job_run(&job, r), 0);
	assert_true(r->zero_samples > 0);
	assert_int_equal(r->zero_reads, r->zero_samples);
	probe_job_result_free(r);
	free(r);
	assert_int_equal(fill_random(zramdev.fd, DEV_SIZE), 0);
}

static void test_loop_uring(void **state)
{
	(void)state;
	run_table(&loopdev, &probe_engine_uring);
}

static void test_loop_psync(void **state)
{
	(void)state;
	run_table(&loopdev, &probe_engine_psync);
}

static void test_zram_uring(void **state)
{
	(void)state;
	run_table(&zramdev, &probe_engine_uring);
}

static void test_zram_psync(void **state)
{
	(void)state;
	run_table(&zramdev, &probe_engine_psync);
}

/* The setup io_uring got on this kernel, for the log. */
static void test_uring_setup(void **state)
{
	const struct dev *d = loopdev.fd >= 0 ? &loopdev : &zramdev;
	struct iovec iov;
	struct probe_engine_params p = { .fd = d->fd, .qd = 32, .bufs = &iov,
					 .nbufs = 1 };
	struct probe_engine e;
	void *buf;

	(void)state;
	if (d->fd < 0)
		skip();
	assert_int_equal(posix_memalign(&buf, 4096, 4096), 0);
	iov = (struct iovec){ buf, 4096 };
	assert_int_equal(probe_engine_open(&e, &probe_engine_uring, &p, false), 0);
	fprintf(stderr, "  %s\n", e.info.desc);
	assert_true(e.info.fixed_files);
	probe_engine_close(&e);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uring_setup),
		cmocka_unit_test(test_loop_uring),
		cmocka_unit_test(test_loop_psync),
		cmocka_unit_test(test_zram_zero_then_fill),
		cmocka_unit_test(test_zram_uring),
		cmocka_unit_test(test_zram_psync),
	};

	int failed;

	if (geteuid() != 0) {
		printf("SKIP: needs root to create loop/zram devices\n");
		return 77;
	}
	if (!setup_devices()) {
		cleanup_all();
		return 77;
	}
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	cleanup_all();
	return failed || interrupted ? 1 : 0;
}
