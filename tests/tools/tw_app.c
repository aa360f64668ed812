/* tw_app.c — tw-app: one application pattern of probe/app.h on a path, its
 * result printed as one JSON object, so that tests and bench scripts run
 * "the application" from the shell.  Built with the tests, not installed.
 *
 *   tw-app stream|chain|beam|write PATH [options]
 *
 * Exit 0 with the JSON object on stdout; 1 with a message on stderr for a
 * bad argument or a failed run.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <linux/fs.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"

enum pattern { STREAM, CHAIN, BEAM, WRITE };

static const char *const pattern_names[] = {
	[STREAM] = "stream", [CHAIN] = "chain", [BEAM] = "beam", [WRITE] = "write",
};

struct args {
	enum pattern pattern;
	enum probe_app_via via;
	struct probe_app_target t;
	bool have_len, madv_random, destructive;
	unsigned streams, window_kib, beam_width, reads_per_query, concurrency;
	uint64_t reads, queries, seed;
	double seconds;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tw-app stream|chain|beam|write PATH [options]\n"
		"Runs one application pattern on PATH (a file or a block device) and\n"
		"prints its result as one JSON object.  Every read starts cold (the\n"
		"range is dropped from the page cache).  write overwrites the range.\n"
		"\n"
		"  --via direct|buffered|mmap  stream and chain (default buffered)\n"
		"  --streams N          stream: parallel streams (default 1)\n"
		"  --window-kib K       stream buffered: read-ahead window (default 0:\n"
		"                       the kernel's)\n"
		"  --madvise-random     chain mmap: madvise(MADV_RANDOM)\n"
		"  --reads N            chain: dependent 4 KiB reads (default 10000)\n"
		"  --beam-width W       beam: parallel reads per hop (default 4)\n"
		"  --reads-per-query R  beam: reads of a query (default 40)\n"
		"  --concurrency C      beam: queries in flight (default 1)\n"
		"  --queries Q          beam: queries (default 1000)\n"
		"  --seconds S          stop after S seconds (default 0: no limit)\n"
		"  --offset BYTES       start of the range (default 0, 4 KiB aligned)\n"
		"  --length BYTES       length of the range (default: to the end)\n"
		"  --stat-dev NAME      count device reads in /sys/block/NAME/stat\n"
		"  --seed N             chain and beam: the walk (default 1)\n"
		"  --destructive        write: allow a block device (its data is lost)\n"
		"  -h, --help           this help\n"
		"\n"
		"Exit status: 0 ok, 1 bad argument or failed run.\n");
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A usage error: the message and the hint on stderr; returns 1. */
static int bad(const char *fmt, ...)
{
	va_list ap;

	fputs("tw-app: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'tw-app --help'.\n", stderr);
	return 1;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

static int parse_uint(const char *s, unsigned *v)
{
	uint64_t x;

	if (parse_u64(s, &x) || x > 1u << 30)
		return -1;
	*v = (unsigned)x;
	return 0;
}

static int parse_seconds(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	return errno || *end || !isfinite(*v) || *v < 0 ? -1 : 0;
}

static const struct option options[] = {
	{ "via", required_argument, NULL, 'v' },
	{ "streams", required_argument, NULL, 's' },
	{ "window-kib", required_argument, NULL, 'w' },
	{ "madvise-random", no_argument, NULL, 'm' },
	{ "reads", required_argument, NULL, 'r' },
	{ "beam-width", required_argument, NULL, 'b' },
	{ "reads-per-query", required_argument, NULL, 'R' },
	{ "concurrency", required_argument, NULL, 'c' },
	{ "queries", required_argument, NULL, 'q' },
	{ "seconds", required_argument, NULL, 'S' },
	{ "offset", required_argument, NULL, 'o' },
	{ "length", required_argument, NULL, 'l' },
	{ "stat-dev", required_argument, NULL, 'd' },
	{ "seed", required_argument, NULL, 'e' },
	{ "destructive", no_argument, NULL, 'D' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* One option into a; returns 0 or -1 (bad value). */
static int parse_opt(struct args *a, int c, const char *v)
{
	int via;

	switch (c) {
	case 'v':
		via = probe_app_via_parse(v);
		a->via = (enum probe_app_via)via;
		return via < 0 ? -1 : 0;
	case 's': return parse_uint(v, &a->streams);
	case 'w': return parse_uint(v, &a->window_kib);
	case 'm': a->madv_random = true; return 0;
	case 'r': return parse_u64(v, &a->reads);
	case 'b': return parse_uint(v, &a->beam_width);
	case 'R': return parse_uint(v, &a->reads_per_query);
	case 'c': return parse_uint(v, &a->concurrency);
	case 'q': return parse_u64(v, &a->queries);
	case 'S': return parse_seconds(v, &a->seconds);
	case 'o': return parse_u64(v, &a->t.off);
	case 'l': a->have_len = true; return parse_u64(v, &a->t.len);
	case 'd': a->t.stat_dev = v; return *v && !strchr(v, '/') ? 0 : -1;
	case 'e': return parse_u64(v, &a->seed);
	case 'D': a->destructive = true; return 0;
	}
	return -1;
}

/* The size of the file or device at path; -errno (-EINVAL: neither). */
static int path_size(const char *path, uint64_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -EINVAL;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		ret = 0;
	} else if (S_ISBLK(st.st_mode)) {
		ret = ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	}
	close(fd);
	return ret;
}

static bool is_blockdev(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISBLK(st.st_mode);
}

/* The range's default length: to the end, rounded down to 4 KiB. */
static int default_length(struct args *a)
{
	uint64_t size;
	int ret;

	if (a->have_len)
		return a->t.len ? 0 : bad("%s", "--length must be > 0");
	ret = path_size(a->t.path, &size);
	if (ret == -EINVAL)
		return bad("%s is neither a file nor a block device", a->t.path);
	if (ret)
		return bad("%s: %s", a->t.path, strerror(-ret));
	if (size <= a->t.off || (size - a->t.off) / 4096 == 0)
		return bad("%s: nothing to use after --offset (give --length)",
			   a->t.path);
	a->t.len = (size - a->t.off) / 4096 * 4096;
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	int c, i, li = 0;

	while ((c = getopt_long(argc, argv, "h", options, &li)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c == '?')
			return bad("%s", "bad option");
		if (parse_opt(a, c, optarg))
			return bad("bad value '%s' for --%s", optarg ? optarg : "",
				   options[li].name);
	}
	if (argc - optind != 2)
		return bad("%s", "give a pattern and a PATH");
	for (i = 0; i < 4 && strcmp(argv[optind], pattern_names[i]); i++)
		;
	if (i == 4)
		return bad("unknown pattern '%s' (stream, chain, beam, write)",
			   argv[optind]);
	a->pattern = (enum pattern)i;
	a->t.path = argv[optind + 1];
	if (!a->streams || !a->concurrency || !a->reads_per_query)
		return bad("%s", "--streams, --concurrency and --reads-per-query must be > 0");
	if (!a->beam_width || a->beam_width > 256)
		return bad("%s", "--beam-width must be 1 to 256");
	if ((!a->reads || !a->queries) && !(a->seconds > 0))
		return bad("%s", "--reads 0 or --queries 0 (no limit) needs --seconds");
	if (a->t.off % 4096 || (a->have_len && a->t.len % 4096))
		return bad("%s", "--offset and --length must be multiples of 4096");
	if (a->pattern == WRITE && !a->destructive && is_blockdev(a->t.path))
		return bad("%s is a block device: write overwrites it; add --destructive",
			   a->t.path);
	return default_length(a);
}

static json_t *num(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static void print_result(const struct probe_app_result *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "seconds", num(r->seconds));
	json_object_set_new(o, "bytes", json_integer((json_int_t)r->bytes));
	json_object_set_new(o, "ios", json_integer((json_int_t)r->ios));
	json_object_set_new(o, "queries", json_integer((json_int_t)r->queries));
	json_object_set_new(o, "mbps", num(r->mbps));
	json_object_set_new(o, "steady_mbps", num(r->steady_mbps));
	json_object_set_new(o, "iops", num(r->iops));
	json_object_set_new(o, "qps", num(r->qps));
	json_object_set_new(o, "p50_ms", num(r->p50_ms));
	json_object_set_new(o, "p99_ms", num(r->p99_ms));
	json_object_set_new(o, "fsync_s", num(r->fsync_s));
	json_object_set_new(o, "dev_read_bytes",
			    json_integer((json_int_t)r->dev_read_bytes));
	json_object_set_new(o, "cold", json_boolean(r->cold));
	json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(9));
	fputc('\n', stdout);
	json_decref(o);
}

static int run(const struct args *a, struct probe_app_result *r)
{
	switch (a->pattern) {
	case STREAM:
		return probe_app_stream(&a->t, a->via, a->streams, a->window_kib,
					a->seconds, r);
	case CHAIN:
		return probe_app_chain(&a->t, a->via, a->madv_random, a->reads,
				       a->seconds, a->seed, r);
	case BEAM:
		return probe_app_beam(&a->t, a->beam_width, a->reads_per_query,
				      a->concurrency, a->queries, a->seconds,
				      a->seed, r);
	case WRITE:
		return probe_app_write(&a->t, a->seconds, r);
	}
	return -EINVAL;
}

int main(int argc, char **argv)
{
	struct args a = {
		.via = PROBE_APP_BUFFERED, .streams = 1, .reads = 10000,
		.beam_width = 4, .reads_per_query = 40, .concurrency = 1,
		.queries = 1000, .seed = 1, .t.sysroot = "",
	};
	struct probe_app_result r;
	int ret;

	if (parse_args(argc, argv, &a))
		return 1;
	ret = run(&a, &r);
	if (ret == -EINVAL) {
		fprintf(stderr, "tw-app: %s %s: invalid argument (a parameter out of "
			"range, not a file nor a block device, or O_DIRECT refused)\n",
			pattern_names[a.pattern], a.t.path);
		return 1;
	}
	if (ret == -ERANGE) {
		fprintf(stderr, "tw-app: %s: the range is beyond its end\n", a.t.path);
		return 1;
	}
	if (ret) {
		fprintf(stderr, "tw-app: %s %s: %s\n", pattern_names[a.pattern],
			a.t.path, strerror(-ret));
		return 1;
	}
	print_result(&r);
	return 0;
}
