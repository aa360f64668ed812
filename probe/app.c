/* app.c — the application patterns of app.h: a stream of sequential reads,
 * a chain of dependent reads, a beam search on io_uring and a checkpoint
 * write, on a file or a block device.
 *
 * Each read pattern starts cold: posix_fadvise(POSIX_FADV_DONTNEED) on the
 * range; when pages stayed, fdatasync (a dirty page escapes the drop) and
 * the drop again, widened to 2 MiB at its ends (a large folio across an end),
 * then a check with mincore() that no page of it stayed cached (all of a
 * range up to 1 GiB, 64 spread samples of 16 MiB beyond): r->cold.  The
 * timed part starts after that.
 *
 * Errors: -EINVAL for a bad argument (len 0 or not 4 KiB aligned, streams
 * 0, beam_width 0, neither a count nor max_s, not a file nor a block
 * device), -ERANGE for a read range beyond the end of the file or device
 * (a write may extend a regular file, not a device), -EIO when the file
 * ends early (it shrank under the run), else the errno of the failing
 * call.  On error *r holds no figures (as set before a run).
 */
#include "app_int.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <linux/fs.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hist.h"
#include "rng.h"
#include "sysroot.h"

#define MiB (1024u * 1024u)
#define STREAM_BS MiB		/* the stream's and the write's request */
#define MAX_STREAMS 1024u
#define MAX_BEAM_WIDTH 256u
#define MAX_RING 32768u		/* io_uring's IORING_MAX_ENTRIES */
#define COLD_CHUNK (16ull * MiB)
#define COLD_SAMPLES 64u
#define WRITE_SEED 0x7769727465ull

/* ---- names ----------------------------------------------------------- */

static const char *const via_names[PROBE_APP_VIA_COUNT] = {
	[PROBE_APP_DIRECT] = "direct",
	[PROBE_APP_BUFFERED] = "buffered",
	[PROBE_APP_MMAP] = "mmap",
};

const char *probe_app_via_name(enum probe_app_via v)
{
	return (unsigned)v < PROBE_APP_VIA_COUNT ? via_names[v] : NULL;
}

int probe_app_via_parse(const char *s)
{
	for (unsigned v = 0; s && v < PROBE_APP_VIA_COUNT; v++)
		if (!strcmp(s, via_names[v]))
			return (int)v;
	return -1;
}

/* ---- the walk -------------------------------------------------------- */

static inline uint64_t rotl64(uint64_t x, unsigned k)
{
	return (x << k) | (x >> (64u - k));
}

/* splitmix64's finaliser: every input bit moves every output bit. */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Four independent lanes, so that the multiplies overlap. */
uint64_t probe_app_hash(const void *buf, size_t len)
{
	const uint64_t p = 0x9e3779b97f4a7c15ull;
	const unsigned char *b = buf;
	uint64_t l0 = 1, l1 = 2, l2 = 3, l3 = 4, w[4];
	size_t i;

	for (i = 0; i + sizeof(w) <= len; i += sizeof(w)) {
		memcpy(w, b + i, sizeof(w));
		l0 = rotl64(l0 ^ w[0], 31) * p;
		l1 = rotl64(l1 ^ w[1], 31) * p;
		l2 = rotl64(l2 ^ w[2], 31) * p;
		l3 = rotl64(l3 ^ w[3], 31) * p;
	}
	for (; i + sizeof(w[0]) <= len; i += sizeof(w[0])) {
		memcpy(w, b + i, sizeof(w[0]));
		l0 = rotl64(l0 ^ w[0], 31) * p;
	}
	return mix64(l0 ^ rotl64(l1, 17) ^ rotl64(l2, 29) ^ rotl64(l3, 43) ^ len);
}

uint64_t probe_app_next(uint64_t h, uint64_t counter, uint64_t seed,
			uint64_t nblocks)
{
	if (!nblocks)
		return 0;
	return mix64(h ^ mix64(mix64(seed) + counter * 0x9e3779b97f4a7c15ull)) %
	       nblocks;
}

void probe_app_shuffle(uint64_t *order, uint64_t n, uint64_t seed)
{
	for (uint64_t i = 0; i < n; i++)
		order[i] = i;
	for (uint64_t i = n; i > 1; i--) {	/* Fisher-Yates */
		uint64_t j = mix64(mix64(seed) + i * 0x9e3779b97f4a7c15ull) % i, x = order[i - 1];

		order[i - 1] = order[j];
		order[j] = x;
	}
}

/* ---- common ---------------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The deadline of a run of max_s seconds from t0; 0 = none. */
static double deadline_of(double t0, double max_s)
{
	return max_s > 0 ? t0 + max_s : 0;
}

static bool past(double deadline)
{
	return deadline > 0 && now_s() >= deadline;
}

static void result_init(struct probe_app_result *r)
{
	*r = (struct probe_app_result){
		.seconds = NAN, .mbps = NAN, .steady_mbps = NAN, .iops = NAN, .qps = NAN,
		.p50_ms = NAN, .p99_ms = NAN, .fsync_s = NAN,
	};
}

/* seconds, bytes and ios set: the rates. */
static void result_rates(struct probe_app_result *r)
{
	if (!(r->seconds > 0))
		return;
	r->mbps = (double)r->bytes / r->seconds / 1e6;
	r->iops = (double)r->ios / r->seconds;
}

/* p50 and p99 in ms from a histogram in ns; NAN when it is empty. */
static void result_percentiles(struct probe_app_result *r,
			       const struct probe_hist *h)
{
	uint64_t p50, p99;

	if (probe_hist_percentile(h, 50, &p50) ||
	    probe_hist_percentile(h, 99, &p99))
		return;
	r->p50_ms = (double)p50 / 1e6;
	r->p99_ms = (double)p99 / 1e6;
}

static int target_check(const struct probe_app_target *t)
{
	if (!t || !t->path || !t->len || t->off % PROBE_APP_BLOCK ||
	    t->len % PROBE_APP_BLOCK || t->off + t->len < t->off)
		return -EINVAL;
	return 0;
}

/*
 * Open t->path with flags and check that the range fits: within the file
 * or the device, or (grow) anywhere in a regular file.  Returns the fd or
 * -errno (-EINVAL: neither a file nor a block device; -ERANGE).
 */
static int target_open(const struct probe_app_target *t, int flags, bool grow)
{
	struct stat st;
	uint64_t size = 0;
	int fd = open(t->path, flags | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (S_ISBLK(st.st_mode))
		ret = ioctl(fd, BLKGETSIZE64, &size) ? -errno : 0;
	else if (S_ISREG(st.st_mode))
		size = (uint64_t)st.st_size;
	else
		ret = -EINVAL;
	if (!ret && t->off + t->len > size && !(grow && S_ISREG(st.st_mode)))
		ret = -ERANGE;
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/* Sectors read so far by t->stat_dev (its stat's third field); -1 = unknown. */
static int64_t dev_sectors(const struct probe_app_target *t)
{
	struct probe_sysdev h;
	unsigned long long ios, merges, sectors;
	int64_t v = -1;
	char *s;

	if (!t->stat_dev ||
	    probe_sysdev_init(&h, t->sysroot ? t->sysroot : "", t->stat_dev))
		return -1;
	s = probe_sysdev_str(&h, "stat");
	if (s && sscanf(s, "%llu %llu %llu", &ios, &merges, &sectors) == 3 &&
	    sectors <= INT64_MAX)
		v = (int64_t)sectors;
	free(s);
	return v;
}

static void dev_delta(struct probe_app_result *r, int64_t before, int64_t after)
{
	if (before >= 0 && after >= before)
		r->dev_read_bytes = (uint64_t)(after - before) * 512u;
}

/* A read-only shared mapping of [off, off + len); data points at off. */
struct app_map {
	void *base;
	size_t len;
	const unsigned char *data;
};

static int map_range(int fd, uint64_t off, uint64_t len, struct app_map *m)
{
	uint64_t lead = off % (uint64_t)sysconf(_SC_PAGESIZE);

	if (len + lead > SIZE_MAX)
		return -EFBIG;
	m->len = (size_t)(len + lead);
	m->base = mmap(NULL, m->len, PROT_READ, MAP_SHARED, fd, (off_t)(off - lead));
	if (m->base == MAP_FAILED) {
		m->base = NULL;
		return -errno;
	}
	m->data = (const unsigned char *)m->base + lead;
	return 0;
}

static void unmap_range(struct app_map *m)
{
	if (m->base)
		munmap(m->base, m->len);
	m->base = NULL;
}

/* Whether a page of [off, off + len) is in the page cache; false = unknown. */
static bool chunk_cached(int fd, uint64_t off, uint64_t len)
{
	struct app_map m;
	unsigned char *vec;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n;
	bool cached = false;

	if (map_range(fd, off, len, &m))
		return false;
	n = (m.len + pg - 1) / pg;
	vec = malloc(n);
	if (vec && !mincore(m.base, m.len, vec))
		for (size_t i = 0; i < n && !cached; i++)
			cached = vec[i] & 1;
	free(vec);
	unmap_range(&m);
	return cached;
}

static bool range_cached(int fd, uint64_t off, uint64_t len)
{
	uint64_t step;

	if (len <= COLD_SAMPLES * COLD_CHUNK) {
		for (uint64_t o = 0; o < len; o += COLD_CHUNK)
			if (chunk_cached(fd, off + o, len - o < COLD_CHUNK ?
						      len - o : COLD_CHUNK))
				return true;
		return false;
	}
	step = (len - COLD_CHUNK) / (COLD_SAMPLES - 1) / PROBE_APP_BLOCK *
	       PROBE_APP_BLOCK;
	for (unsigned i = 0; i < COLD_SAMPLES; i++)
		if (chunk_cached(fd, off + i * step, COLD_CHUNK))
			return true;
	return false;
}

/*
 * Drop the range from the page cache; true when none of it stayed.  A
 * large folio across an end of the range (ext4, XFS: up to 2 MiB) is
 * dropped whole or not at all, so when pages stayed, the ends are widened
 * to 2 MiB once: at most 2 MiB beside each end, of the same file, leaves
 * the cache.
 */
static bool drop_range(int fd, uint64_t off, uint64_t len)
{
	const uint64_t big = 2 * MiB;
	uint64_t lo = off / big * big, hi = (off + len + big - 1) / big * big;

	if (posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED))
		return false;
	if (!range_cached(fd, off, len))
		return true;
	/* Dirty pages (a file just written) escape the drop until written
	 * back: only then the fdatasync, which a journal commit can make cost
	 * a third of a second (a read-only fd may). */
	(void)fdatasync(fd);
	if (posix_fadvise(fd, (off_t)lo, (off_t)(hi - lo), POSIX_FADV_DONTNEED))
		return false;
	return !range_cached(fd, off, len);
}

/* Read len bytes at off, through short reads and EINTR. */
static int pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;	/* the file ended inside the range */
		done += (size_t)n;
	}
	return 0;
}

static int pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done,
				   (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* ---- stream ---------------------------------------------------------- */

struct stream_shared {
	int fd;
	enum probe_app_via via;
	const unsigned char *map;	/* mmap: the range's first byte */
	uint64_t window;		/* buffered: read-ahead window, bytes */
	double deadline;
	/* samples: whole samples of sample_len bytes from off0, in the order
	 * of order[], each stream taking the next one (next) */
	uint64_t off0, sample_len, n_samples;
	const uint64_t *order;
	atomic_uint_fast64_t next;
};

/* One stream: its part [off, off + len) of the target (absolute offsets).
 * Reading samples, a stream's part is unused: it takes whole samples. */
struct stream_part {
	struct stream_shared *sh;
	uint64_t off, rel, len;		/* rel: off - the range's start */
	uint64_t bytes, ios;
	double mark_t;			/* when bytes passed a quarter of len, */
	uint64_t mark_bytes;		/* and bytes then; 0 = not yet */
	int ret;
	pthread_t tid;
};

/* After a request: the time and bytes when the part first passes a
 * quarter of its length (stream_steady). */
static void stream_mark(struct stream_part *p)
{
	if (!p->mark_bytes && p->bytes >= p->len / 4) {
		p->mark_t = now_s();
		p->mark_bytes = p->bytes;
	}
}

/*
 * Keep one window ahead of the last window a request entered, as the
 * kernel does with read_ahead_kb = the window (the fd's own read-ahead is
 * off: POSIX_FADV_RANDOM).  *advised: bytes of the part advised so far.
 */
static void window_ahead(const struct stream_part *p, uint64_t end,
			 uint64_t win, uint64_t *advised)
{
	uint64_t want = ((end - 1) / win + 2) * win;

	if (want > p->len)
		want = p->len;
	if (want <= *advised)
		return;
	(void)posix_fadvise(p->sh->fd, (off_t)(p->off + *advised),
			    (off_t)(want - *advised), POSIX_FADV_WILLNEED);
	*advised = want;
}

/* p's part read in STREAM_BS requests into buf (STREAM_BS bytes, aligned
 * for O_DIRECT). */
static int stream_pread(struct stream_part *p, void *buf)
{
	const struct stream_shared *sh = p->sh;
	uint64_t advised = 0;
	int ret = 0;

	for (uint64_t pos = 0; pos < p->len && !ret;) {
		size_t n = p->len - pos < STREAM_BS ? (size_t)(p->len - pos) : STREAM_BS;

		if (sh->window)
			window_ahead(p, pos + n, sh->window, &advised);
		ret = pread_full(sh->fd, buf, n, p->off + pos);
		if (ret)
			break;
		pos += n;
		p->bytes += n;
		p->ios++;
		stream_mark(p);
		if (past(sh->deadline))
			break;
	}
	return ret;
}

/* One touch per 4 KiB, in order; the deadline is looked at every MiB. */
static int stream_touch(struct stream_part *p)
{
	const volatile unsigned char *m = p->sh->map + p->rel;
	volatile unsigned sum = 0;

	for (uint64_t pos = 0; pos < p->len; pos += PROBE_APP_BLOCK) {
		sum += m[pos];
		p->bytes += PROBE_APP_BLOCK;
		p->ios++;
		if (p->ios % (MiB / PROBE_APP_BLOCK))
			continue;
		stream_mark(p);
		if (past(p->sh->deadline))
			break;
	}
	(void)sum;
	return 0;
}

/* Whole samples, the next of the shuffled order each time, until all are
 * read or the deadline; p's counts add up what its samples read. */
static int stream_samples(struct stream_part *p, void *buf)
{
	struct stream_shared *sh = p->sh;
	int ret = 0;

	while (!ret && !past(sh->deadline)) {
		uint64_t k = atomic_fetch_add(&sh->next, 1);
		struct stream_part one;

		if (k >= sh->n_samples)
			break;
		one = (struct stream_part){ .sh = sh, .len = sh->sample_len,
			.off = sh->off0 + sh->order[k] * sh->sample_len };
		ret = stream_pread(&one, buf);
		p->bytes += one.bytes;
		p->ios += one.ios;
	}
	return ret;
}

static void *stream_thread(void *arg)
{
	struct stream_part *p = arg;
	void *buf = NULL;

	if (p->sh->via == PROBE_APP_MMAP) {
		p->ret = stream_touch(p);
		return NULL;
	}
	if (posix_memalign(&buf, PROBE_APP_BLOCK, STREAM_BS)) {
		p->ret = -ENOMEM;
		return NULL;
	}
	p->ret = p->sh->n_samples ? stream_samples(p, buf) : stream_pread(p, buf);
	free(buf);
	return NULL;
}

/* Start the streams, each its own part; wait for them.  Returns the first error. */
static int stream_run(const struct probe_app_target *t, struct stream_shared *sh,
		      struct stream_part *parts, unsigned streams,
		      struct probe_app_result *r)
{
	uint64_t blocks = t->len / PROBE_APP_BLOCK;
	unsigned started;
	int ret = 0;

	for (started = 0; started < streams; started++) {
		struct stream_part *p = &parts[started];
		uint64_t b0 = blocks * started / streams;
		uint64_t b1 = blocks * (started + 1) / streams;

		*p = (struct stream_part){ .sh = sh,
			.off = t->off + b0 * PROBE_APP_BLOCK,
			.rel = b0 * PROBE_APP_BLOCK,
			.len = (b1 - b0) * PROBE_APP_BLOCK };
		ret = -pthread_create(&p->tid, NULL, stream_thread, p);
		if (ret)
			break;
	}
	for (unsigned i = 0; i < started; i++) {
		pthread_join(parts[i].tid, NULL);
		if (!ret)
			ret = parts[i].ret;
		r->bytes += parts[i].bytes;
		r->ios += parts[i].ios;
	}
	return ret;
}

/*
 * One stream's rate after the first quarter of its part (t1: its end):
 * the start (the first reads' page-cache allocation, the read-ahead's ramp,
 * about 5 ms on a zram device) is paid once a load, and a region read in
 * 20 ms would count it as a quarter of the time.
 */
static void stream_steady(const struct stream_part *p, double t1,
			  struct probe_app_result *r)
{
	if (p->mark_bytes && p->bytes > p->mark_bytes && t1 > p->mark_t)
		r->steady_mbps = (double)(p->bytes - p->mark_bytes) / (t1 - p->mark_t) / 1e6;
}

/* probe_app_stream and probe_app_samples: sh says which (its via, and
 * the samples' size, order and count when those are read). */
static int stream_go(const struct probe_app_target *t, struct stream_shared *sh,
		     unsigned streams, unsigned window_kib, double max_s,
		     struct probe_app_result *r)
{
	const enum probe_app_via via = sh->via;
	struct stream_part *parts = NULL;
	struct app_map map = { 0 };
	int64_t s0;
	double t0;
	int ret;

	result_init(r);
	ret = target_check(t);
	if (ret || (unsigned)via >= PROBE_APP_VIA_COUNT || !streams ||
	    streams > MAX_STREAMS || streams > t->len / PROBE_APP_BLOCK ||
	    !(max_s >= 0))
		return ret ? ret : -EINVAL;
	sh->fd = target_open(t, O_RDONLY | (via == PROBE_APP_DIRECT ? O_DIRECT : 0),
			    false);
	if (sh->fd < 0)
		return sh->fd;
	parts = calloc(streams, sizeof(*parts));
	if (!parts) {
		ret = -ENOMEM;
		goto out;
	}
	if (via == PROBE_APP_MMAP) {
		ret = map_range(sh->fd, t->off, t->len, &map);
		if (ret)
			goto out;
		sh->map = map.data;
	}
	if (via == PROBE_APP_BUFFERED && window_kib) {
		sh->window = (uint64_t)window_kib * 1024u;
		(void)posix_fadvise(sh->fd, 0, 0, POSIX_FADV_RANDOM);
	}
	r->cold = drop_range(sh->fd, t->off, t->len);
	s0 = dev_sectors(t);
	t0 = now_s();
	sh->deadline = deadline_of(t0, max_s);
	atomic_init(&sh->next, 0);
	ret = stream_run(t, sh, parts, streams, r);
	r->seconds = now_s() - t0;
	dev_delta(r, s0, dev_sectors(t));
	result_rates(r);
	if (!ret && streams == 1)
		stream_steady(&parts[0], t0 + r->seconds, r);
out:
	unmap_range(&map);
	free(parts);
	close(sh->fd);
	if (ret)
		result_init(r);
	return ret;
}

int probe_app_stream(const struct probe_app_target *t, enum probe_app_via via,
		     unsigned streams, unsigned window_kib, double max_s,
		     struct probe_app_result *r)
{
	struct stream_shared sh = { .via = via };

	return stream_go(t, &sh, streams, window_kib, max_s, r);
}

int probe_app_samples(const struct probe_app_target *t, uint64_t sample_bytes,
		      unsigned streams, uint64_t seed, double max_s,
		      struct probe_app_result *r)
{
	struct stream_shared sh = { .via = PROBE_APP_BUFFERED, .off0 = t->off };
	uint64_t *order;
	int ret;

	result_init(r);
	if (!t || !sample_bytes || sample_bytes % PROBE_APP_BLOCK || sample_bytes > t->len)
		return -EINVAL;
	sh.sample_len = sample_bytes;
	sh.n_samples = t->len / sample_bytes;
	order = malloc(sh.n_samples * sizeof(*order));
	if (!order)
		return -ENOMEM;
	probe_app_shuffle(order, sh.n_samples, seed);
	sh.order = order;
	ret = stream_go(t, &sh, streams, 0, max_s, r);
	free(order);
	return ret;
}

/* ---- chain ----------------------------------------------------------- */

struct chain_io {
	int fd;
	const unsigned char *map;	/* mmap: the range's first byte */
	void *buf;			/* direct, buffered: one block */
};

/* Read the block at rel (bytes from the range's start); *h its hash. */
static int chain_read(const struct chain_io *c, uint64_t abs, uint64_t rel,
		      uint64_t *h)
{
	int ret;

	if (c->map) {
		*h = probe_app_hash(c->map + rel, PROBE_APP_BLOCK);
		return 0;
	}
	ret = pread_full(c->fd, c->buf, PROBE_APP_BLOCK, abs);
	if (!ret)
		*h = probe_app_hash(c->buf, PROBE_APP_BLOCK);
	return ret;
}

/* The timed walk; each read (its hash included) is one latency sample. */
static int chain_walk(const struct probe_app_target *t, const struct chain_io *c,
		      uint64_t reads, double max_s, uint64_t seed,
		      struct probe_hist *hist, struct probe_app_result *r,
		      uint64_t *offs)
{
	uint64_t nblocks = t->len / PROBE_APP_BLOCK, h;
	uint64_t blk = probe_app_next(0, 0, seed, nblocks);
	double deadline = deadline_of(now_s(), max_s);
	int ret;

	for (uint64_t i = 0; !reads || i < reads; i++) {
		uint64_t rel = blk * PROBE_APP_BLOCK, a = now_ns();

		ret = chain_read(c, t->off + rel, rel, &h);
		if (ret)
			return ret;
		probe_hist_add(hist, now_ns() - a);
		if (offs)
			offs[i] = t->off + rel;
		r->ios++;
		blk = probe_app_next(h, i + 1, seed, nblocks);
		if (past(deadline))
			break;
	}
	return 0;
}

/* Open, map or allocate what via needs; the caller frees with chain_close. */
static int chain_open(const struct probe_app_target *t, enum probe_app_via via,
		      bool madv_random, struct chain_io *c, struct app_map *map)
{
	int ret;

	c->fd = target_open(t, O_RDONLY | (via == PROBE_APP_DIRECT ? O_DIRECT : 0),
			    false);
	if (c->fd < 0)
		return c->fd;
	if (via != PROBE_APP_MMAP)
		return posix_memalign(&c->buf, PROBE_APP_BLOCK, PROBE_APP_BLOCK) ?
			       -ENOMEM : 0;
	ret = map_range(c->fd, t->off, t->len, map);
	if (ret)
		return ret;
	c->map = map->data;
	if (madv_random && madvise(map->base, map->len, MADV_RANDOM))
		return -errno;
	return 0;
}

static void chain_close(struct chain_io *c, struct app_map *map)
{
	unmap_range(map);
	free(c->buf);
	if (c->fd >= 0)
		close(c->fd);
}

int probe_app_chain_walk(const struct probe_app_target *t, enum probe_app_via via,
			 bool madv_random, uint64_t reads, double max_s,
			 uint64_t seed, struct probe_app_result *r, uint64_t *offs)
{
	struct chain_io c = { .fd = -1 };
	struct app_map map = { 0 };
	struct probe_hist *hist = NULL;
	int64_t s0;
	double t0;
	int ret;

	result_init(r);
	ret = target_check(t);
	if (ret || (unsigned)via >= PROBE_APP_VIA_COUNT || !(max_s >= 0) ||
	    (!reads && !(max_s > 0)) || (offs && !reads))
		return ret ? ret : -EINVAL;
	hist = malloc(sizeof(*hist));
	if (!hist)
		return -ENOMEM;
	probe_hist_reset(hist);
	ret = chain_open(t, via, madv_random, &c, &map);
	if (ret)
		goto out;
	r->cold = drop_range(c.fd, t->off, t->len);
	s0 = dev_sectors(t);
	t0 = now_s();
	ret = chain_walk(t, &c, reads, max_s, seed, hist, r, offs);
	r->seconds = now_s() - t0;
	dev_delta(r, s0, dev_sectors(t));
	r->bytes = r->ios * PROBE_APP_BLOCK;
	r->queries = r->ios;
	result_rates(r);
	r->qps = r->iops;
	result_percentiles(r, hist);
out:
	chain_close(&c, &map);
	free(hist);
	if (ret)
		result_init(r);
	return ret;
}

int probe_app_chain(const struct probe_app_target *t, enum probe_app_via via,
		    bool madv_random, uint64_t reads, double max_s, uint64_t seed,
		    struct probe_app_result *r)
{
	return probe_app_chain_walk(t, via, madv_random, reads, max_s, seed, r, NULL);
}

/* ---- beam ------------------------------------------------------------ */

struct beam_query;

/* One 4 KiB read of a hop; got: bytes read so far (short reads go on). */
struct beam_read {
	struct beam_query *q;
	unsigned char *buf;
	uint64_t off, hash;
	unsigned got;
};

/* A query in flight: done reads of earlier hops, left of this hop's n. */
struct beam_query {
	uint64_t id, t0;
	unsigned done, hop_n, left;
	struct beam_read *rd;	/* beam_width reads */
};

struct beam {
	struct io_uring ring;
	int fd;
	uint64_t off, nblocks, seed, queries;
	unsigned width, rpq, inflight;
	double deadline;
	uint64_t started, completed, reads;
	int err;		/* the first error: nothing new is queued */
	struct probe_hist *hist;
};

/* Queue the rest of rd (submitted with the next io_uring_submit). */
static int beam_queue(struct beam *b, struct beam_read *rd)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&b->ring);

	if (!sqe) {
		int ret = io_uring_submit(&b->ring);

		if (ret < 0)
			return ret;
		sqe = io_uring_get_sqe(&b->ring);
		if (!sqe)
			return -EBUSY;
	}
	io_uring_prep_read(sqe, b->fd, rd->buf + rd->got,
			   PROBE_APP_BLOCK - rd->got, rd->off + rd->got);
	io_uring_sqe_set_data(sqe, rd);
	b->inflight++;
	return 0;
}

/* The next hop of q: its offsets from the hashes of the hop before. */
static int beam_hop(struct beam *b, struct beam_query *q)
{
	unsigned prev = q->done ? q->hop_n : 0;
	unsigned n = b->rpq - q->done < b->width ? b->rpq - q->done : b->width;
	uint64_t hashes[MAX_BEAM_WIDTH];

	for (unsigned j = 0; j < prev; j++)
		hashes[j] = q->rd[j].hash;
	q->hop_n = q->left = n;
	for (unsigned j = 0; j < n; j++) {
		struct beam_read *rd = &q->rd[j];
		uint64_t blk = probe_app_next(prev ? hashes[j % prev] : 0,
					      q->id * b->rpq + q->done + j,
					      b->seed, b->nblocks);
		int ret;

		rd->off = b->off + blk * PROBE_APP_BLOCK;
		rd->got = 0;
		ret = beam_queue(b, rd);
		if (ret)
			return ret;
	}
	return 0;
}

/* Start the next query in q's slot, or leave the slot idle at the end. */
static int beam_start(struct beam *b, struct beam_query *q)
{
	if ((b->queries && b->started >= b->queries) || past(b->deadline))
		return 0;
	q->id = b->started++;
	q->t0 = now_ns();
	q->done = 0;
	return beam_hop(b, q);
}

static int beam_complete(struct beam *b, struct beam_read *rd, int res)
{
	struct beam_query *q = rd->q;

	if (res == -EAGAIN || res == -EINTR)
		return beam_queue(b, rd);
	if (res < 0)
		return res;
	if (res == 0)
		return -EIO;	/* the device ended inside the range */
	rd->got += (unsigned)res;
	if (rd->got < PROBE_APP_BLOCK)
		return beam_queue(b, rd);
	rd->hash = probe_app_hash(rd->buf, PROBE_APP_BLOCK);
	b->reads++;
	if (--q->left)
		return 0;
	q->done += q->hop_n;
	if (q->done < b->rpq)
		return beam_hop(b, q);
	probe_hist_add(b->hist, now_ns() - q->t0);
	b->completed++;
	return beam_start(b, q);
}

/*
 * Reap until nothing is in flight.  After the first error (b->err) nothing
 * new is queued, but what is in flight is waited for: the kernel writes
 * into the buffers until it completes.  Returns b->err.
 */
static int beam_loop(struct beam *b)
{
	while (b->inflight) {
		struct io_uring_cqe *cqe;
		unsigned head, n = 0;
		int ret = io_uring_submit_and_wait(&b->ring, 1);

		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
			if (!b->err)
				b->err = ret;
			break;
		}
		io_uring_for_each_cqe(&b->ring, head, cqe) {
			b->inflight--;
			if (!b->err)
				b->err = beam_complete(b, io_uring_cqe_get_data(cqe),
						       cqe->res);
			n++;
		}
		io_uring_cq_advance(&b->ring, n);
	}
	return b->err;
}

/*
 * The queries' state and buffers.  The buffers are an anonymous mapping:
 * should a ring be torn down with reads in flight (a failed submit), the
 * kernel holds the pages until they complete and nothing else reuses them.
 */
static int beam_alloc(struct beam_query **qs, unsigned char **bufs, size_t *buflen,
		      unsigned width, unsigned concurrency)
{
	struct beam_read *rds;

	*buflen = (size_t)width * concurrency * PROBE_APP_BLOCK;
	*bufs = mmap(NULL, *buflen, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*bufs == MAP_FAILED) {
		*bufs = NULL;
		return -errno;
	}
	*qs = calloc(concurrency, sizeof(**qs) + width * sizeof(*rds));
	if (!*qs)
		return -ENOMEM;
	rds = (struct beam_read *)(*qs + concurrency);
	for (unsigned i = 0; i < concurrency; i++) {
		(*qs)[i].rd = rds + (size_t)i * width;
		for (unsigned j = 0; j < width; j++)
			rds[(size_t)i * width + j] = (struct beam_read){
				.q = &(*qs)[i],
				.buf = *bufs + ((size_t)i * width + j) * PROBE_APP_BLOCK };
	}
	return 0;
}

static int beam_run(struct beam *b, struct beam_query *qs, unsigned concurrency)
{
	for (unsigned i = 0; i < concurrency && !b->err; i++)
		b->err = beam_start(b, &qs[i]);
	return beam_loop(b);
}

static bool beam_args_ok(unsigned beam_width, unsigned reads_per_query,
			 unsigned concurrency, uint64_t queries, double max_s)
{
	return beam_width && beam_width <= MAX_BEAM_WIDTH && reads_per_query &&
	       concurrency && (uint64_t)beam_width * concurrency <= MAX_RING &&
	       max_s >= 0 && (queries || max_s > 0);
}

int probe_app_beam(const struct probe_app_target *t, unsigned beam_width,
		   unsigned reads_per_query, unsigned concurrency, uint64_t queries,
		   double max_s, uint64_t seed, struct probe_app_result *r)
{
	struct beam b = { .width = beam_width, .rpq = reads_per_query,
			  .queries = queries, .seed = seed, .fd = -1 };
	struct beam_query *qs = NULL;
	unsigned char *bufs = NULL;
	size_t buflen = 0;
	bool ring = false;
	int64_t s0;
	double t0;
	int ret;

	result_init(r);
	ret = target_check(t);
	if (ret || !beam_args_ok(beam_width, reads_per_query, concurrency,
				 queries, max_s))
		return ret ? ret : -EINVAL;
	b.off = t->off;
	b.nblocks = t->len / PROBE_APP_BLOCK;
	b.hist = malloc(sizeof(*b.hist));
	if (!b.hist)
		return -ENOMEM;
	probe_hist_reset(b.hist);
	b.fd = target_open(t, O_RDONLY | O_DIRECT, false);
	if (b.fd < 0) {
		ret = b.fd;
		goto out;
	}
	ret = beam_alloc(&qs, &bufs, &buflen, beam_width, concurrency);
	if (ret)
		goto out;
	ret = io_uring_queue_init(beam_width * concurrency, &b.ring, 0);
	if (ret)
		goto out;
	ring = true;
	r->cold = drop_range(b.fd, t->off, t->len);
	s0 = dev_sectors(t);
	t0 = now_s();
	b.deadline = deadline_of(t0, max_s);
	ret = beam_run(&b, qs, concurrency);
	r->seconds = now_s() - t0;
	dev_delta(r, s0, dev_sectors(t));
	r->ios = b.reads;
	r->bytes = b.reads * PROBE_APP_BLOCK;
	r->queries = b.completed;
	result_rates(r);
	if (r->seconds > 0)
		r->qps = (double)b.completed / r->seconds;
	result_percentiles(r, b.hist);
out:
	if (ring)
		io_uring_queue_exit(&b.ring);
	if (bufs)
		munmap(bufs, buflen);
	free(qs);
	free(b.hist);
	if (b.fd >= 0)
		close(b.fd);
	if (ret)
		result_init(r);
	return ret;
}

/* ---- write ----------------------------------------------------------- */

/*
 * Make each 4 KiB block of the buffer unique to its place in the range, so
 * that no block repeats (nothing to deduplicate); the rest of the buffer is
 * random bytes (nothing to compress).
 */
static void stamp_blocks(unsigned char *buf, size_t len, uint64_t pos)
{
	for (size_t o = 0; o < len; o += PROBE_APP_BLOCK) {
		uint64_t v = mix64(WRITE_SEED ^ (pos + o));

		memcpy(buf + o, &v, sizeof(v));
	}
}

static int write_range(const struct probe_app_target *t, int fd,
		       unsigned char *buf, double deadline,
		       struct probe_app_result *r)
{
	for (uint64_t pos = 0; pos < t->len;) {
		size_t n = t->len - pos < STREAM_BS ? (size_t)(t->len - pos) : STREAM_BS;
		int ret;

		stamp_blocks(buf, n, pos);
		ret = pwrite_full(fd, buf, n, t->off + pos);
		if (ret)
			return ret;
		pos += n;
		r->bytes += n;
		r->ios++;
		if (past(deadline))
			break;
	}
	return 0;
}

int probe_app_write(const struct probe_app_target *t, double max_s,
		    struct probe_app_result *r)
{
	struct probe_rng rng;
	unsigned char *buf = NULL;
	int64_t s0;
	double t0, t1;
	int ret, fd;

	result_init(r);
	ret = target_check(t);
	if (ret || !(max_s >= 0))
		return ret ? ret : -EINVAL;
	fd = target_open(t, O_WRONLY, true);
	if (fd < 0)
		return fd;
	if (posix_memalign((void **)&buf, PROBE_APP_BLOCK, STREAM_BS)) {
		buf = NULL;
		ret = -ENOMEM;
		goto out;
	}
	probe_rng_seed(&rng, WRITE_SEED);
	probe_rng_fill(&rng, buf, STREAM_BS);
	s0 = dev_sectors(t);
	t0 = now_s();
	ret = write_range(t, fd, buf, deadline_of(t0, max_s), r);
	t1 = now_s();
	if (!ret && fsync(fd))
		ret = -errno;
	r->seconds = now_s() - t0;
	r->fsync_s = r->seconds - (t1 - t0);
	dev_delta(r, s0, dev_sectors(t));
	result_rates(r);
out:
	free(buf);
	close(fd);
	if (ret)
		result_init(r);
	return ret;
}
