/* test_app.c — the application patterns (probe/app.h) on a scratch file
 * and, as root, on a zram device of its own.
 *
 * The file part: a 64 MiB file of random bytes and a 64 MiB sparse file
 * (zeros) in the working directory (the build tree), removed at exit and
 * on SIGINT/SIGTERM/SIGHUP.  Each pattern makes exactly the reads and
 * writes it says; the walk stays inside the range, repeats with its seed
 * and does not repeat itself on zeros; bad ranges and arguments are errors.
 *
 * The device part (root; SKIP otherwise): a zram device added with
 * /sys/class/zram-control/hot_add (never an existing one), 64 MiB of random
 * data, removed at exit.  A cold buffered stream reads the range from the
 * device (its /sys/block/NAME/stat), and a cold chain through mmap reads
 * more of the device per fault with the kernel's read-around than with
 * MADV_RANDOM.  Only SIGKILL leaves the device (echo N >
 * /sys/class/zram-control/hot_remove).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "app_int.h"
#include "rng.h"

#define KiB 1024ull
#define MiB (1024ull * 1024ull)
#define FILE_SIZE (64 * MiB)
#define ZRAM_CTL "/sys/class/zram-control"

static char data_path[64] = "";	/* random bytes */
static char zero_path[64] = "";	/* sparse: zeros */
static char write_path[64] = "";	/* probe_app_write's target */
static int zram_id = -1;	/* the zram device we added */
static char zram_name[32], zram_path[64];
static char zram_why[200] = "not root";

/* ---- cleanup --------------------------------------------------------- */

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

/* Remove our zram device; it may be busy for a moment after a close. */
static void zram_remove(void)
{
	const struct timespec pause = { 0, 50000000 };
	char id[16];

	if (zram_id < 0)
		return;
	snprintf(id, sizeof(id), "%d", zram_id);
	for (int i = 0; i < 100; i++) {
		if (!write_sys(ZRAM_CTL "/hot_remove", id)) {
			zram_id = -1;
			return;
		}
		nanosleep(&pause, NULL);
	}
	fprintf(stderr, "warning: could not remove %s: echo %s > "
			ZRAM_CTL "/hot_remove\n", zram_name, id);
}

static void cleanup_all(void)
{
	if (*data_path)
		unlink(data_path);
	if (*zero_path)
		unlink(zero_path);
	if (*write_path)
		unlink(write_path);
	zram_remove();
}

static void on_signal(int sig)
{
	/* unlink and the sysfs write are what cleanup_all needs; good enough
	 * for a test interrupted by hand */
	cleanup_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ---- scratch data ---------------------------------------------------- */

static int fill_random(int fd, uint64_t size)
{
	struct probe_rng r;
	void *buf;
	int ret = 0;

	if (posix_memalign(&buf, 4096, MiB))
		return -ENOMEM;
	probe_rng_seed(&r, 4242);
	for (uint64_t o = 0; o < size && !ret; o += MiB) {
		probe_rng_fill(&r, buf, MiB);
		if (pwrite(fd, buf, MiB, (off_t)o) != (ssize_t)MiB)
			ret = -EIO;
	}
	free(buf);
	return ret ? ret : (fsync(fd) ? -errno : 0);
}

/* mkstemp into path; size bytes, random (fill) or a hole. */
static int make_file(char *path, size_t len, const char *name, uint64_t size,
		     bool fill)
{
	int fd, ret;

	snprintf(path, len, "./%s-XXXXXX", name);
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	ret = fill ? fill_random(fd, size) : (ftruncate(fd, (off_t)size) ? -errno : 0);
	close(fd);
	return ret;
}

static int setup_files(void)
{
	if (make_file(data_path, sizeof(data_path), "tw-app-data", FILE_SIZE, true) ||
	    make_file(zero_path, sizeof(zero_path), "tw-app-zero", FILE_SIZE, false) ||
	    make_file(write_path, sizeof(write_path), "tw-app-write", 0, false))
		return -1;
	return 0;
}

static struct probe_app_target file_target(const char *path, uint64_t off,
					   uint64_t len)
{
	return (struct probe_app_target){ .path = path, .off = off, .len = len,
					  .sysroot = "" };
}

/* ---- names and the walk ---------------------------------------------- */

static void test_via_names(void **state)
{
	(void)state;
	for (int v = 0; v < PROBE_APP_VIA_COUNT; v++)
		assert_int_equal(probe_app_via_parse(
					 probe_app_via_name((enum probe_app_via)v)), v);
	assert_string_equal(probe_app_via_name(PROBE_APP_MMAP), "mmap");
	assert_null(probe_app_via_name(PROBE_APP_VIA_COUNT));
	assert_int_equal(probe_app_via_parse("Direct"), -1);
	assert_int_equal(probe_app_via_parse(""), -1);
	assert_int_equal(probe_app_via_parse(NULL), -1);
}

/* Inside [0, n); about uniform; the data, the counter and the seed each move it. */
static void test_next(void **state)
{
	enum { N = 10, DRAWS = 100000 };
	unsigned count[N] = { 0 };

	(void)state;
	assert_int_equal(probe_app_next(123, 4, 5, 0), 0);
	assert_int_equal(probe_app_next(123, 4, 5, 1), 0);
	for (uint64_t i = 0; i < DRAWS; i++) {
		uint64_t b = probe_app_next(0, i, 7, N);

		assert_true(b < N);
		count[b]++;
	}
	for (int i = 0; i < N; i++)	/* 10,000 expected, sd 95 */
		assert_true(count[i] > 9500 && count[i] < 10500);
	assert_int_not_equal(probe_app_next(1, 9, 7, 1ull << 40),
			     probe_app_next(2, 9, 7, 1ull << 40));
	assert_int_not_equal(probe_app_next(1, 9, 7, 1ull << 40),
			     probe_app_next(1, 10, 7, 1ull << 40));
	assert_int_not_equal(probe_app_next(1, 9, 7, 1ull << 40),
			     probe_app_next(1, 9, 8, 1ull << 40));
}

static void test_hash(void **state)
{
	unsigned char a[4096] = { 0 }, b[4096] = { 0 };

	(void)state;
	assert_int_equal(probe_app_hash(a, sizeof(a)), probe_app_hash(b, sizeof(b)));
	b[4095] = 1;	/* the last word counts */
	assert_int_not_equal(probe_app_hash(a, sizeof(a)), probe_app_hash(b, sizeof(b)));
	b[4095] = 0;
	b[0] = 1;
	assert_int_not_equal(probe_app_hash(a, sizeof(a)), probe_app_hash(b, sizeof(b)));
}

/* ---- stream ---------------------------------------------------------- */

static void check_stream(const struct probe_app_result *r, uint64_t len,
			 uint64_t ios)
{
	assert_int_equal(r->bytes, len);
	assert_int_equal(r->ios, ios);
	assert_int_equal(r->queries, 0);
	assert_true(r->seconds > 0 && r->seconds < 60);
	assert_true(fabs(r->mbps - (double)len / r->seconds / 1e6) < 1e-6 * r->mbps);
	assert_true(fabs(r->iops - (double)ios / r->seconds) < 1e-6 * r->iops);
	assert_true(isnan(r->qps) && isnan(r->p50_ms) && isnan(r->p99_ms) &&
		    isnan(r->fsync_s));
	assert_true(r->cold);	/* our file, nobody else maps or dirties it */
	assert_int_equal(r->dev_read_bytes, 0);	/* no stat_dev */
}

/* One stream: its rate after the first quarter, over the last three
 * quarters less a request at most, and in less time than the whole. */
static void check_steady(const struct probe_app_result *r, uint64_t len)
{
	assert_true(r->steady_mbps > 0 && isfinite(r->steady_mbps));
	assert_true(r->steady_mbps >= ((double)len * 3 / 4 - MiB) / r->seconds / 1e6);
}

static void test_stream_each_via(void **state)
{
	/* 12 KiB short of 64 MiB: the last request of the stream is short */
	const uint64_t len = FILE_SIZE - 12 * KiB;
	struct probe_app_target t = file_target(data_path, 0, len);
	struct probe_app_result r;

	(void)state;
	for (int v = 0; v < PROBE_APP_VIA_COUNT; v++) {
		assert_int_equal(probe_app_stream(&t, (enum probe_app_via)v, 1, 0,
						  0, &r), 0);
		fprintf(stderr, "  stream %-8s %8.1f MB/s\n",
			probe_app_via_name((enum probe_app_via)v), r.mbps);
		check_stream(&r, len, v == PROBE_APP_MMAP ? len / 4096 : 64);
		check_steady(&r, len);
	}
}

static void test_stream_parts(void **state)
{
	/* 4 parts of 16 MiB - 4 KiB: 16 requests each */
	struct probe_app_target t = file_target(data_path, 0, FILE_SIZE - 16 * KiB);
	struct probe_app_result r;

	(void)state;
	assert_int_equal(probe_app_stream(&t, PROBE_APP_BUFFERED, 4, 0, 0, &r), 0);
	check_stream(&r, t.len, 64);
	assert_true(isnan(r.steady_mbps));	/* one stream only */
	assert_int_equal(probe_app_stream(&t, PROBE_APP_DIRECT, 4, 0, 0, &r), 0);
	check_stream(&r, t.len, 64);
	assert_int_equal(probe_app_stream(&t, PROBE_APP_MMAP, 4, 0, 0, &r), 0);
	check_stream(&r, t.len, t.len / 4096);
	/* a window of read-ahead; an offset inside the file */
	t = file_target(data_path, 3 * MiB, 40 * MiB);
	assert_int_equal(probe_app_stream(&t, PROBE_APP_BUFFERED, 2, 256, 0, &r), 0);
	check_stream(&r, t.len, 40);
	assert_int_equal(probe_app_stream(&t, PROBE_APP_BUFFERED, 3, 4096, 0, &r), 0);
	/* parts of 3413, 3413 and 3414 blocks: 14 requests each */
	check_stream(&r, t.len, 42);
}

/*
 * Training samples: 64 MiB in samples of 3 MiB + 4 KiB (21 whole ones, the
 * 1.9 MiB tail not read), each read whole in 1 MiB requests (4 each, the
 * last 4 KiB), by 1 and by 4 threads; a sample larger than the range, or
 * not 4 KiB aligned, is refused.  The order is a permutation, the same for
 * one seed, another for the next.
 */
static void test_samples(void **state)
{
	const uint64_t sample = 3 * MiB + 4 * KiB, n = FILE_SIZE / sample;
	struct probe_app_target t = file_target(data_path, 0, FILE_SIZE);
	struct probe_app_result r;
	uint64_t a[64], b[64], c[64];
	unsigned moved = 0, differ = 0;

	(void)state;
	assert_int_equal(n, 21);
	for (unsigned streams = 1; streams <= 4; streams += 3) {
		assert_int_equal(probe_app_samples(&t, sample, streams, 7, 0, &r), 0);
		check_stream(&r, n * sample, n * 4);
	}
	assert_int_equal(probe_app_samples(&t, FILE_SIZE + 4 * KiB, 1, 7, 0, &r), -EINVAL);
	assert_int_equal(probe_app_samples(&t, 3 * MiB + 1, 1, 7, 0, &r), -EINVAL);
	assert_int_equal(probe_app_samples(&t, 0, 1, 7, 0, &r), -EINVAL);
	probe_app_shuffle(a, 64, 7);
	probe_app_shuffle(b, 64, 7);
	probe_app_shuffle(c, 64, 8);
	for (uint64_t i = 0; i < 64; i++) {
		unsigned seen = 0;

		for (uint64_t j = 0; j < 64; j++)
			seen += a[j] == i;
		assert_int_equal(seen, 1);	/* each sample once */
		assert_int_equal(a[i], b[i]);
		moved += a[i] != i;
		differ += a[i] != c[i];
	}
	assert_true(moved > 48);	/* shuffled, not in file order */
	assert_true(differ > 48);
}

/* ---- chain ----------------------------------------------------------- */

static void check_chain(const struct probe_app_result *r, uint64_t reads)
{
	assert_int_equal(r->ios, reads);
	assert_int_equal(r->queries, reads);
	assert_int_equal(r->bytes, reads * 4096);
	assert_true(r->seconds > 0);
	assert_true(r->p50_ms > 0 && r->p50_ms <= r->p99_ms);
	assert_true(r->p99_ms < r->seconds * 1e3);	/* one read < all */
	assert_true(r->qps > 0 && fabs(r->qps - r->iops) < 1e-9 * r->qps);
	assert_true(r->cold);
}

static void test_chain_each_via(void **state)
{
	struct probe_app_target t = file_target(data_path, 0, FILE_SIZE);
	struct probe_app_result r;

	(void)state;
	for (int v = 0; v < PROBE_APP_VIA_COUNT; v++) {
		assert_int_equal(probe_app_chain(&t, (enum probe_app_via)v, false,
						 500, 0, 1, &r), 0);
		fprintf(stderr, "  chain  %-8s %8.0f reads/s p50 %.3f p99 %.3f ms\n",
			probe_app_via_name((enum probe_app_via)v), r.qps, r.p50_ms,
			r.p99_ms);
		check_chain(&r, 500);
	}
	assert_int_equal(probe_app_chain(&t, PROBE_APP_MMAP, true, 300, 0, 1, &r), 0);
	check_chain(&r, 300);
}

static uint64_t distinct(uint64_t *v, size_t n)
{
	uint64_t d = 0;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = v[j] == v[i];
		d += !seen;
	}
	return d;
}

/* The walk: inside the range, 4 KiB aligned, the same for a seed. */
static void test_chain_walk(void **state)
{
	enum { N = 2000 };
	const uint64_t off = 5 * MiB, len = 32 * MiB;
	struct probe_app_target t = file_target(data_path, off, len);
	struct probe_app_result r;
	uint64_t *a = calloc(N, sizeof(*a)), *b = calloc(N, sizeof(*b));
	uint64_t differ = 0;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(probe_app_chain_walk(&t, PROBE_APP_BUFFERED, false, N, 0,
					      11, &r, a), 0);
	check_chain(&r, N);
	for (int i = 0; i < N; i++)
		assert_true(a[i] >= off && a[i] + 4096 <= off + len && a[i] % 4096 == 0);
	/* same seed, another via: the same data, the same walk */
	assert_int_equal(probe_app_chain_walk(&t, PROBE_APP_DIRECT, false, N, 0,
					      11, &r, b), 0);
	assert_memory_equal(a, b, N * sizeof(*a));
	assert_int_equal(probe_app_chain_walk(&t, PROBE_APP_MMAP, true, N, 0,
					      11, &r, b), 0);
	assert_memory_equal(a, b, N * sizeof(*a));
	assert_int_equal(probe_app_chain_walk(&t, PROBE_APP_BUFFERED, false, N, 0,
					      12, &r, b), 0);
	for (int i = 0; i < N; i++)
		differ += a[i] != b[i];
	assert_true(differ > N * 99 / 100);	/* 8192 blocks: 1 in 8192 alike */
	/* 2000 draws from 8192 blocks: 1785 distinct expected (sd ~16) */
	assert_true(distinct(a, N) > 1700);
	free(a);
	free(b);
}

/* Zeros everywhere: the counter keeps the walk going. */
static void test_chain_zeros(void **state)
{
	enum { N = 2000 };
	struct probe_app_target t = file_target(zero_path, 0, FILE_SIZE);
	struct probe_app_result r;
	uint64_t *a = calloc(N, sizeof(*a));

	(void)state;
	assert_non_null(a);
	assert_int_equal(probe_app_chain_walk(&t, PROBE_APP_BUFFERED, false, N, 0,
					      3, &r, a), 0);
	check_chain(&r, N);
	/* 2000 draws from 16384 blocks: 1883 distinct expected (sd ~10) */
	assert_true(distinct(a, N) > 1820);
	free(a);
}

/* No count: max_s ends it, and the result says what was read. */
static void test_chain_max_s(void **state)
{
	struct probe_app_target t = file_target(data_path, 0, FILE_SIZE);
	struct probe_app_result r;

	(void)state;
	assert_int_equal(probe_app_chain(&t, PROBE_APP_BUFFERED, false, 0, 0.2, 1, &r), 0);
	/* one read past 0.2 s; a loaded machine may add a scheduling delay */
	assert_true(r.seconds >= 0.2 && r.seconds < 1.0);
	assert_true(r.ios > 10);
	check_chain(&r, r.ios);
}

/* ---- beam ------------------------------------------------------------ */

static void check_beam(const struct probe_app_result *r, uint64_t queries,
		       uint64_t rpq)
{
	assert_int_equal(r->queries, queries);
	assert_int_equal(r->ios, queries * rpq);
	assert_int_equal(r->bytes, r->ios * 4096);
	assert_true(r->seconds > 0);
	assert_true(r->p50_ms > 0 && r->p50_ms <= r->p99_ms);
	assert_true(r->qps > 0 &&
		    fabs(r->qps - (double)queries / r->seconds) < 1e-6 * r->qps);
	assert_true(fabs(r->iops - (double)r->ios / r->seconds) < 1e-6 * r->iops);
	assert_true(r->cold);
}

static void test_beam(void **state)
{
	struct probe_app_target t = file_target(data_path, 0, FILE_SIZE);
	struct probe_app_result r;

	(void)state;
	assert_int_equal(probe_app_beam(&t, 4, 40, 1, 50, 0, 1, &r), 0);
	fprintf(stderr, "  beam 4x40 c1 %7.0f q/s p50 %.3f p99 %.3f ms\n",
		r.qps, r.p50_ms, r.p99_ms);
	check_beam(&r, 50, 40);
	assert_int_equal(probe_app_beam(&t, 4, 40, 8, 100, 0, 1, &r), 0);
	fprintf(stderr, "  beam 4x40 c8 %7.0f q/s p50 %.3f p99 %.3f ms\n",
		r.qps, r.p50_ms, r.p99_ms);
	check_beam(&r, 100, 40);
	/* hops of 4, 4 and 2; fewer queries than slots */
	assert_int_equal(probe_app_beam(&t, 4, 10, 16, 7, 0, 2, &r), 0);
	check_beam(&r, 7, 10);
	/* one read a hop, a beam wider than a query */
	assert_int_equal(probe_app_beam(&t, 1, 5, 2, 9, 0, 3, &r), 0);
	check_beam(&r, 9, 5);
	assert_int_equal(probe_app_beam(&t, 64, 3, 2, 9, 0, 3, &r), 0);
	check_beam(&r, 9, 3);
	/* no count: max_s */
	assert_int_equal(probe_app_beam(&t, 4, 8, 4, 0, 0.2, 3, &r), 0);
	assert_true(r.seconds >= 0.2 && r.seconds < 1.0 && r.queries > 4);
	check_beam(&r, r.queries, 8);
}

/* ---- write ----------------------------------------------------------- */

static void test_write(void **state)
{
	const uint64_t len = 16 * MiB + 8 * KiB;
	struct probe_app_target t = file_target(write_path, 0, len);
	struct probe_app_result r;
	unsigned char *buf = malloc(len);
	struct stat st;
	uint64_t first, second;
	int fd;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(probe_app_write(&t, 0, &r), 0);
	assert_int_equal(r.bytes, len);
	assert_int_equal(r.ios, 17);
	assert_true(r.seconds > 0 && r.fsync_s >= 0 && r.fsync_s <= r.seconds);
	assert_true(fabs(r.mbps - (double)len / r.seconds / 1e6) < 1e-6 * r.mbps);
	assert_true(isnan(r.p50_ms) && isnan(r.qps) && !r.cold);
	assert_int_equal(stat(write_path, &st), 0);
	assert_int_equal(st.st_size, len);
	fd = open(write_path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, len, 0), len);
	close(fd);
	/* no block of zeros; no two blocks alike (the first 8 bytes differ) */
	for (uint64_t o = 0; o < len; o += 4096) {
		uint64_t nz = 0;

		for (unsigned i = 0; i < 4096; i++)
			nz += buf[o + i] != 0;
		assert_true(nz > 4000);
	}
	memcpy(&first, buf, 8);
	memcpy(&second, buf + MiB, 8);
	assert_int_not_equal(first, second);
	assert_memory_not_equal(buf, buf + MiB, 4096);
	/* an offset; the file is not truncated */
	t = file_target(write_path, 4 * MiB, 1 * MiB);
	assert_int_equal(probe_app_write(&t, 0, &r), 0);
	assert_int_equal(r.bytes, MiB);
	assert_int_equal(stat(write_path, &st), 0);
	assert_int_equal(st.st_size, len);
	free(buf);
}

/* ---- errors ---------------------------------------------------------- */

static void test_errors(void **state)
{
	struct probe_app_target t = file_target(data_path, FILE_SIZE - 4096, 8192);
	struct probe_app_target ok = file_target(data_path, 0, FILE_SIZE);
	struct probe_app_result r;

	(void)state;
	/* beyond the end of the file */
	assert_int_equal(probe_app_stream(&t, PROBE_APP_BUFFERED, 1, 0, 0, &r), -ERANGE);
	assert_true(isnan(r.seconds) && r.bytes == 0);
	assert_int_equal(probe_app_chain(&t, PROBE_APP_MMAP, false, 5, 0, 1, &r), -ERANGE);
	assert_int_equal(probe_app_beam(&t, 4, 8, 1, 1, 0, 1, &r), -ERANGE);
	t.off = 1ull << 50;
	assert_int_equal(probe_app_stream(&t, PROBE_APP_DIRECT, 1, 0, 0, &r), -ERANGE);
	t.off = UINT64_MAX - 4095;	/* off + len wraps */
	assert_int_equal(probe_app_stream(&t, PROBE_APP_DIRECT, 1, 0, 0, &r), -EINVAL);
	/* shapes */
	t = ok;
	t.len = 0;
	assert_int_equal(probe_app_stream(&t, PROBE_APP_BUFFERED, 1, 0, 0, &r), -EINVAL);
	t.len = 4097;
	assert_int_equal(probe_app_chain(&t, PROBE_APP_BUFFERED, false, 5, 0, 1, &r), -EINVAL);
	t = ok;
	t.off = 512;
	assert_int_equal(probe_app_write(&t, 0, &r), -EINVAL);
	assert_int_equal(probe_app_stream(NULL, PROBE_APP_BUFFERED, 1, 0, 0, &r), -EINVAL);
	t = ok;
	t.path = NULL;
	assert_int_equal(probe_app_stream(&t, PROBE_APP_BUFFERED, 1, 0, 0, &r), -EINVAL);
	/* arguments */
	assert_int_equal(probe_app_stream(&ok, PROBE_APP_BUFFERED, 0, 0, 0, &r), -EINVAL);
	assert_int_equal(probe_app_stream(&ok, PROBE_APP_VIA_COUNT, 1, 0, 0, &r), -EINVAL);
	assert_int_equal(probe_app_stream(&ok, PROBE_APP_BUFFERED, 1, 0, -1, &r), -EINVAL);
	assert_int_equal(probe_app_stream(&ok, PROBE_APP_BUFFERED, 1, 0, NAN, &r), -EINVAL);
	assert_int_equal(probe_app_chain(&ok, PROBE_APP_DIRECT, false, 0, 0, 1, &r), -EINVAL);
	assert_int_equal(probe_app_beam(&ok, 0, 8, 1, 1, 0, 1, &r), -EINVAL);
	assert_int_equal(probe_app_beam(&ok, 4, 0, 1, 1, 0, 1, &r), -EINVAL);
	assert_int_equal(probe_app_beam(&ok, 4, 8, 0, 1, 0, 1, &r), -EINVAL);
	assert_int_equal(probe_app_beam(&ok, 4, 8, 1, 0, 0, 1, &r), -EINVAL);
	assert_int_equal(probe_app_beam(&ok, 1000, 8, 1, 1, 0, 1, &r), -EINVAL);
	/* not there; not a file nor a device */
	t = ok;
	t.path = "./tw-app-missing";
	assert_int_equal(probe_app_chain(&t, PROBE_APP_BUFFERED, false, 5, 0, 1, &r), -ENOENT);
	assert_int_equal(probe_app_write(&t, 0, &r), -ENOENT);
	assert_int_equal(access(t.path, F_OK), -1);	/* never created */
	t.path = ".";
	assert_int_equal(probe_app_stream(&t, PROBE_APP_BUFFERED, 1, 0, 0, &r), -EINVAL);
	assert_int_equal(probe_app_write(&t, 0, &r), -EISDIR);
}

/* ---- a zram device of our own (root) ---------------------------------- */

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	return ok ? 0 : -1;
}

static void zram_setup(void)
{
	char line[64], sys[128];
	int fd;

	if (access(ZRAM_CTL, F_OK) && system("modprobe zram 2>/dev/null")) {
		snprintf(zram_why, sizeof(zram_why), "modprobe zram failed");
		return;
	}
	if (read_line(ZRAM_CTL "/hot_add", line, sizeof(line))) {
		snprintf(zram_why, sizeof(zram_why), "no " ZRAM_CTL "/hot_add");
		return;
	}
	zram_id = atoi(line);
	snprintf(zram_name, sizeof(zram_name), "zram%d", zram_id);
	snprintf(zram_path, sizeof(zram_path), "/dev/%s", zram_name);
	snprintf(sys, sizeof(sys), "/sys/block/%s/disksize", zram_name);
	if (write_sys(sys, "64M")) {
		snprintf(zram_why, sizeof(zram_why), "cannot size %s", zram_name);
		zram_remove();
		return;
	}
	fd = open(zram_path, O_RDWR | O_DIRECT);
	if (fd < 0 || fill_random(fd, FILE_SIZE)) {
		snprintf(zram_why, sizeof(zram_why), "cannot fill %s", zram_path);
		if (fd >= 0)
			close(fd);
		zram_remove();
		return;
	}
	close(fd);
}

static struct probe_app_target zram_target(void)
{
	return (struct probe_app_target){ .path = zram_path, .off = 0,
		.len = FILE_SIZE, .stat_dev = zram_name, .sysroot = "" };
}

/* A cold buffered stream reads the whole range from the device. */
static void test_dev_stream(void **state)
{
	struct probe_app_target t = zram_target();
	struct probe_app_result r;

	(void)state;
	if (zram_id < 0)
		skip();
	for (int v = 0; v < PROBE_APP_VIA_COUNT; v++) {
		assert_int_equal(probe_app_stream(&t, (enum probe_app_via)v, 1, 0,
						  0, &r), 0);
		fprintf(stderr, "  %s stream %-8s %8.1f MB/s, %llu device bytes\n",
			zram_name, probe_app_via_name((enum probe_app_via)v), r.mbps,
			(unsigned long long)r.dev_read_bytes);
		assert_true(r.cold);
		assert_int_equal(r.bytes, FILE_SIZE);
		/* all of it from the device; read-ahead stops at its end */
		assert_true(r.dev_read_bytes >= FILE_SIZE &&
			    r.dev_read_bytes <= FILE_SIZE + MiB);
	}
}

/*
 * The read-around: a fault of the kernel's default mmap reads up to
 * read_ahead_kb (128 KiB on zram) around the page; with MADV_RANDOM one
 * page.  200 faults over 16384 pages: default ~100 KiB a read (some
 * windows overlap), random 4 KiB.
 */
static void test_dev_chain(void **state)
{
	struct probe_app_target t = zram_target();
	struct probe_app_result r;
	double around, random, direct;

	(void)state;
	if (zram_id < 0)
		skip();
	assert_int_equal(probe_app_chain(&t, PROBE_APP_MMAP, false, 200, 0, 5, &r), 0);
	around = (double)r.dev_read_bytes / (double)r.ios;
	fprintf(stderr, "  %s chain mmap           %8.0f reads/s %8.0f device bytes/read\n",
		zram_name, r.qps, around);
	assert_true(r.cold);
	assert_int_equal(probe_app_chain(&t, PROBE_APP_MMAP, true, 200, 0, 5, &r), 0);
	random = (double)r.dev_read_bytes / (double)r.ios;
	fprintf(stderr, "  %s chain mmap random    %8.0f reads/s %8.0f device bytes/read\n",
		zram_name, r.qps, random);
	assert_true(r.cold);
	assert_int_equal(probe_app_chain(&t, PROBE_APP_DIRECT, false, 200, 0, 5, &r), 0);
	direct = (double)r.dev_read_bytes / (double)r.ios;
	fprintf(stderr, "  %s chain direct         %8.0f reads/s %8.0f device bytes/read\n",
		zram_name, r.qps, direct);
	/* O_DIRECT: exactly the block; MADV_RANDOM: the page (a repeat of a
	 * page already read reads nothing) */
	assert_true(direct == 4096);
	assert_true(random > 0 && random <= 4096);
	assert_true(around > 8 * random);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_via_names),
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_stream_each_via),
		cmocka_unit_test(test_stream_parts),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_chain_each_via),
		cmocka_unit_test(test_chain_walk),
		cmocka_unit_test(test_chain_zeros),
		cmocka_unit_test(test_chain_max_s),
		cmocka_unit_test(test_beam),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_dev_stream),
		cmocka_unit_test(test_dev_chain),
	};
	struct sigaction sa = { .sa_handler = on_signal };
	int failed;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(cleanup_all);
	if (setup_files()) {
		fprintf(stderr, "cannot create the scratch files in the working directory\n");
		return 1;
	}
	if (geteuid() == 0)
		zram_setup();
	if (zram_id < 0)
		printf("SKIP: the device part: %s\n", zram_why);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	cleanup_all();
	return failed ? 1 : 0;
}
