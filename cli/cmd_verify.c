/* tierwise verify — the plan's estimates checked on the built machine: per
 * tier whose mount point is a mounted filesystem, every workload of its
 * policies run for a few seconds in a scratch file there (probe/app.h),
 * the measured figure beside the estimate (docs/verify.md).
 *
 * A scratch file is an O_TMPFILE in the mount point's directory: it has no
 * name and vanishes when its descriptor closes, however the process ends
 * (SIGKILL included).  Where the filesystem has no O_TMPFILE, a named file
 * .tierwise-verify.XXXXXX unlinked right after it is created.  Nothing is
 * written anywhere else: never a block device, never a mount point that is
 * not mounted.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libmount.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "app.h"
#include "cli.h"
#include "plan_file.h"
#include "render_verify.h"
#include "tw_tier.h"
#include "tw_util.h"

#define MIB (1024.0 * 1024.0)
#define VERIFY_MIN_BYTES (64ULL << 20)	/* the smallest scratch file worth a measurement */
#define VERIFY_MAX_RANGE (1ULL << 30)	/* chain and beam: the range their reads spread over */
#define VERIFY_SEED 0x76657269667921ULL	/* samples: their order ("verify!") */

static void verify_usage(FILE *out)
{
	fputs("Usage: tierwise verify PLAN.json [--format text|json|prom] [--tolerance PCT]\n"
	      "                       [--tier NAME] [--seconds S] [-o FILE]\n\n"
	      "Check the plan's estimates on the built machine: for each tier whose\n"
	      "mount point is a mounted filesystem, run every workload of its policies\n"
	      "(the pattern the estimate describes: streams, checkpoint writes, chains\n"
	      "of dependent reads, beam searches) for about S seconds at the estimated\n"
	      "rate in a scratch file there, and print estimate, measured and ratio.\n"
	      "The scratch file has no name (O_TMPFILE) and vanishes on every exit; it\n"
	      "takes at most a quarter of the free space. A tier whose mount point is\n"
	      "not mounted is reported and never written into.\n\n"
	      "Options:\n"
	      "  --format F      text (default), json (tierwise.verify/1) or prom (the\n"
	      "                  Prometheus textfile collector's format)\n"
	      "  --tolerance PCT within: the ratio within PCT %% of 1, either way\n"
	      "                  (default 30: 0.7 to 1.3)\n"
	      "  --tier NAME     only this tier: hot, warm or cold\n"
	      "  --seconds S     time a workload runs at the estimated rate (default 2,\n"
	      "                  0.5 to 60)\n"
	      "  -o FILE         write there instead of standard output (atomically)\n\n"
	      "Exit codes: 0 every workload verified and within the tolerance, 1 the\n"
	      "plan is unreadable or lacks a workload's fields, 2 usage error, 3\n"
	      "nothing could be verified (no tier mounted, no room), 4 the verified\n"
	      "workloads are within but some could not be run (a tier not mounted),\n"
	      "5 some workload is outside the tolerance.\n\n"
	      "Example: tierwise verify tierwise-host.plan.json --format prom -o\n"
	      "         /var/lib/node_exporter/textfile/tierwise-verify.prom\n", out);
}

struct verify_opts {
	const char *plan, *format, *tier, *output;
	double tolerance, seconds;
};

/* A number in [lo, hi] from arg, or a usage error (returns -1). */
static int opt_number(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < lo || v > hi) {
		cli_usage_error("verify", "%s %s: expected a number from %g to %g", opt, arg, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Parse argv into o.  Returns -1 to go on, or the exit code. */
static int parse_opts(int argc, char **argv, struct verify_opts *o)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "tolerance", required_argument, NULL, 't' },
		{ "tier", required_argument, NULL, 'T' },
		{ "seconds", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			verify_usage(stdout);
			return TW_EXIT_OK;
		case 'f': o->format = optarg; break;
		case 'T': o->tier = optarg; break;
		case 'o': o->output = optarg; break;
		case 't':
			if (opt_number("--tolerance", optarg, 0, 1000, &o->tolerance))
				return TW_EXIT_USAGE;
			break;
		case 's':
			if (opt_number("--seconds", optarg, 0.5, 60, &o->seconds))
				return TW_EXIT_USAGE;
			break;
		default:
			return cli_bad_option("verify", c, argv, opts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("verify", "no plan given (a tierwise.plan/1 file: "
				       "tierwise plan --format json)");
	if (optind + 1 < argc)
		return cli_usage_error("verify", "one plan at a time: '%s' is one too many",
				       argv[optind + 1]);
	o->plan = argv[optind];
	if (o->tier && tw_tier_find(o->tier) < 0)
		return cli_usage_error("verify", "--tier %s: expected hot, warm or cold", o->tier);
	return -1;
}

/* ---- the plan's workloads ------------------------------------------------ */

/* Every estimate of the tiers verified (only: one tier, or NULL) names its
 * pattern (the reader checked pattern, via and madvise when given); else
 * "tierwise verify: PLAN: warm.estimates[0].pattern: missing …" on stderr
 * and false. */
static bool plan_workloads_ok(const char *path, const struct advisor_plan_file *pf,
			      const char *only)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_file_tier *rt = &pf->tiers[t];

		for (size_t i = 0; (!only || !strcmp(only, rt->name)) && i < rt->n_est; i++) {
			size_t k = 0;	/* its index among its policy's estimates */

			if (rt->est[i].pattern)
				continue;
			for (size_t j = 0; j < i && !rt->est_listed; j++)
				k += !strcmp(rt->est[j].policy, rt->est[i].policy);
			fprintf(stderr, "tierwise verify: %s: %s.estimates%s%s[%zu].pattern: missing (a "
				"plan from a tierwise without workloads: make it again with tierwise "
				"plan --format json)\n", path, rt->name, rt->est_listed ? "" : ".",
				rt->est_listed ? "" : rt->est[i].policy, rt->est_listed ? i : k);
			return false;
		}
	}
	return true;
}

/* ---- mounts ---------------------------------------------------------------- */

/* The block device of devno as /sys/block names it ("loop3"; a partition:
 * its disk), into buf; "" when there is none (tmpfs, overlay). */
static void block_name(dev_t devno, char *buf, size_t len)
{
	char link[64], dir[PATH_MAX], part[PATH_MAX + 16], *base;

	buf[0] = '\0';
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(devno), minor(devno));
	if (!realpath(link, dir))
		return;
	snprintf(part, sizeof(part), "%s/partition", dir);
	if (!access(part, F_OK) && (base = strrchr(dir, '/')))
		*base = '\0';	/* /sys/devices/…/sda/sda1 → …/sda */
	base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	if (strlen(base) < len)
		memcpy(buf, base, strlen(base) + 1);
}

/*
 * Whether the plan's mount m is there: a mount point the kernel has a
 * filesystem mounted on (a "directory" mount: an existing directory, on
 * whatever filesystem holds it).  Fills t->mounted, device, fs, why.
 */
static void check_mount(const struct advisor_file_mount *m, struct verify_tier *t)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_fs *fs = NULL;
	char real[PATH_MAX];
	struct stat st;

	t->mount = m->point;
	t->mounted = false;
	if (!m->point || m->point[0] != '/')
		snprintf(t->why, sizeof(t->why), "no absolute mount point in the plan: not written");
	else if (stat(m->point, &st) || !realpath(m->point, real))
		snprintf(t->why, sizeof(t->why), "not mounted, not written (%s: %s)", m->point,
			 strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		snprintf(t->why, sizeof(t->why), "not mounted, not written (%s is no directory)",
			 m->point);
	else if (!tb)
		snprintf(t->why, sizeof(t->why), "not written: /proc/self/mountinfo unreadable");
	else if (!(fs = m->directory ? mnt_table_find_mountpoint(tb, real, MNT_ITER_BACKWARD) :
			   mnt_table_find_target(tb, real, MNT_ITER_BACKWARD)))
		snprintf(t->why, sizeof(t->why), "not mounted, not written (nothing is mounted on %s)",
			 m->point);
	if (fs && m->directory) {	/* the filesystem that holds the directory */
		const char *target = mnt_fs_get_target(fs);

		fs = target ? mnt_table_find_target(tb, target, MNT_ITER_BACKWARD) : NULL;
	}
	if (fs && !t->why[0]) {
		t->mounted = true;
		block_name(mnt_fs_get_devno(fs), t->device, sizeof(t->device));
		snprintf(t->fs, sizeof(t->fs), "%s", mnt_fs_get_fstype(fs) ? mnt_fs_get_fstype(fs) : "");
	}
	mnt_unref_table(tb);
}

/* ---- scratch files --------------------------------------------------------- */

/* A scratch file in dir that vanishes on close: O_TMPFILE, else a named file
 * unlinked at once.  Returns the descriptor or -errno. */
static int scratch_open(const char *dir)
{
	char name[PATH_MAX];
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd >= 0 ? fd : -errno;
	snprintf(name, sizeof(name), "%s/.tierwise-verify.XXXXXX", dir);
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(name);
	return fd;
}

/* Fill fd's first len bytes with non-zero data that does not compress, then
 * fsync.  Returns 0 or -errno. */
static int scratch_fill(int fd, uint64_t len)
{
	const size_t chunk = 1 << 20;
	uint64_t *buf = malloc(chunk), x = 0x9e3779b97f4a7c15ULL;
	int ret = buf ? 0 : -ENOMEM;

	for (uint64_t off = 0; !ret && off < len; off += chunk) {
		size_t n = len - off < chunk ? (size_t)(len - off) : chunk;

		for (size_t i = 0; i < chunk / 8; i++) {	/* xorshift64 */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x | 1;
		}
		for (size_t done = 0; !ret && done < n;) {
			ssize_t w = pwrite(fd, (char *)buf + done, n - done, (off_t)(off + done));

			if (w < 0 && errno != EINTR)
				ret = -errno;
			else if (w > 0)
				done += (size_t)w;
		}
	}
	if (!ret && fsync(fd))
		ret = -errno;
	free(buf);
	return ret;
}

/* ---- one workload ---------------------------------------------------------- */

struct verify_ctx {
	const char *dir;		/* the mount point */
	const char *stat_dev;		/* NULL = unknown */
	uint64_t room;			/* the largest scratch file allowed */
	double seconds;
	double tolerance;		/* a fraction: 0.3 */
};

static uint64_t clamp_bytes(double want, uint64_t lo, uint64_t hi)
{
	uint64_t b = want > (double)hi ? hi : want < (double)lo ? lo : (uint64_t)want;

	return b & ~((1ULL << 20) - 1);	/* whole MiB, 4 KiB aligned */
}

static enum probe_app_via via_of(const struct advisor_file_est *e)
{
	int v = e->via ? probe_app_via_parse(e->via) : -1;

	return v >= 0 ? (enum probe_app_via)v : PROBE_APP_BUFFERED;
}

/* The figure compared and the estimate's value of it (NAN: the plan has none). */
static double estimate_of(const struct advisor_file_est *e, const char **figure)
{
	if (!strcmp(e->pattern, "chain")) {
		*figure = "ms_per_read";
		return e->p50_ms / (e->reads_per_query ? e->reads_per_query : 1);
	}
	if (!strcmp(e->pattern, "beam")) {
		*figure = "qps";
		return e->qps;
	}
	*figure = "mbps";
	return e->mbps;
}

/* A sample of e (samples) in whole 4 KiB blocks, at most len (the file
 * then holds one sample: itself). */
static uint64_t sample_len(const struct advisor_file_est *e, uint64_t len)
{
	const double b = ceil(fmax(e->sample_size_bytes, 4096) / 4096) * 4096;

	return b < (double)len ? (uint64_t)b : len / 4096 * 4096;
}

/* The scratch file's size for w at the estimated rate est. */
static uint64_t scratch_size(const struct verify_ctx *c, const struct advisor_file_est *e,
			     double est)
{
	uint64_t range = c->room < VERIFY_MAX_RANGE ? c->room : VERIFY_MAX_RANGE;

	if (!strcmp(e->pattern, "chain"))	/* 16× the data read: few reads twice */
		return clamp_bytes(c->seconds * 1e3 / est * 4096 * 16, VERIFY_MIN_BYTES, range);
	if (!strcmp(e->pattern, "beam"))
		return clamp_bytes(c->seconds * est * (e->reads_per_query ? e->reads_per_query : 1) *
				   4096 * 4, VERIFY_MIN_BYTES, range);
	if (!strcmp(e->pattern, "samples"))	/* two whole samples at least */
		return clamp_bytes(fmax(c->seconds * est * 1e6, 2 * sample_len(e, c->room)),
				   VERIFY_MIN_BYTES, c->room);
	return clamp_bytes(c->seconds * est * 1e6, VERIFY_MIN_BYTES, c->room);
}

/* Run w's pattern on the target t.  Returns 0 or -errno. */
static int run_pattern(const struct verify_ctx *c, const struct advisor_file_est *e, double est,
		       const struct probe_app_target *t, struct probe_app_result *r)
{
	double max_s = 2 * c->seconds;
	const char *p = e->pattern;

	if (!strcmp(p, "write"))
		return probe_app_write(t, max_s, r);
	if (!strcmp(p, "chain"))
		return probe_app_chain(t, via_of(e), e->madvise && !strcmp(e->madvise, "random"),
				       (uint64_t)fmax(1, c->seconds * 1e3 / est), max_s, 1, r);
	if (!strcmp(p, "beam"))
		return probe_app_beam(t, e->beam_width ? e->beam_width : 1,
				      e->reads_per_query ? e->reads_per_query : 1,
				      e->concurrency ? e->concurrency : 1,
				      (uint64_t)fmax(1, c->seconds * est), max_s, 1, r);
	/* samples: whole samples in a shuffled order, buffered, by `streams`
	 * readers, as DLIO reads them */
	if (!strcmp(p, "samples") && e->sample_size_bytes > 0)
		return probe_app_samples(t, sample_len(e, t->len), e->streams ? e->streams : 1,
					 VERIFY_SEED, max_s, r);
	/* stream, restore: a cold sequential read at the kernel's read-ahead
	 * as the machine has it (a udev rule not applied shows) */
	return probe_app_stream(t, !strcmp(p, "restore") ? PROBE_APP_BUFFERED : via_of(e),
				e->streams ? e->streams : 1, 0, max_s, r);
}

/* The result r of w as the figure compared; ratio and state. */
static void judge(const struct verify_ctx *c, const struct probe_app_result *r,
		  struct verify_workload *w)
{
	bool time = !strcmp(w->figure, "ms_per_read");

	w->m = (struct verify_measured){ .seconds = r->seconds, .bytes = r->bytes,
		.queries = r->queries ? r->queries : r->ios, .mbps = r->mbps, .qps = r->qps,
		.p50_ms = r->p50_ms, .p99_ms = r->p99_ms, .cold = r->cold };
	w->measured = time ? r->p50_ms : !strcmp(w->figure, "qps") ? r->qps : r->mbps;
	if (!isfinite(w->measured) || w->measured <= 0) {
		w->state = VERIFY_FAILED;
		snprintf(w->why, sizeof(w->why), "the run measured nothing");
		return;
	}
	w->ratio = time ? w->estimate / w->measured : w->measured / w->estimate;
	w->state = fabs(w->ratio - 1) <= c->tolerance ? VERIFY_WITHIN : VERIFY_OUTSIDE;
}

/*
 * The filesystem at dir done with a closed scratch file before the next run:
 * syncfs commits the journal, and with it the freeing of the file's blocks
 * and, on a filesystem mounted with discard, their discards, which would
 * otherwise run during the next workload and slow it.
 */
static void settle(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
}

static void verify_one(const struct verify_ctx *c, struct verify_workload *w)
{
	const struct advisor_file_est *e = w->est;
	struct probe_app_result r = { 0 };
	char path[32];
	int fd, ret;

	w->estimate = estimate_of(e, &w->figure);
	w->measured = w->ratio = NAN;
	if (!isfinite(w->estimate) || w->estimate <= 0) {
		w->state = VERIFY_SKIPPED;
		snprintf(w->why, sizeof(w->why), "the plan gives no %s for it",
			 !strcmp(w->figure, "ms_per_read") ? "p50_ms" : w->figure);
		return;
	}
	w->scratch_bytes = scratch_size(c, e, w->estimate);
	fd = scratch_open(c->dir);
	if (fd < 0) {
		w->state = VERIFY_FAILED;
		snprintf(w->why, sizeof(w->why), "%s: cannot create a scratch file: %s", c->dir,
			 strerror(-fd));
		return;
	}
	ret = strcmp(e->pattern, "write") ? scratch_fill(fd, w->scratch_bytes) : 0;
	if (ret) {
		w->state = VERIFY_FAILED;
		snprintf(w->why, sizeof(w->why), "filling a scratch file of %.0f MiB: %s",
			 (double)w->scratch_bytes / MIB, strerror(-ret));
	} else {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		struct probe_app_target t = { .path = path, .off = 0, .len = w->scratch_bytes,
					      .stat_dev = c->stat_dev, .sysroot = "" };

		ret = run_pattern(c, e, w->estimate, &t, &r);
		if (ret) {
			w->state = VERIFY_FAILED;
			snprintf(w->why, sizeof(w->why), "%s: %s", e->pattern, strerror(-ret));
		} else {
			judge(c, &r, w);
		}
	}
	close(fd);
	settle(c->dir);
}

/* ---- one tier --------------------------------------------------------------- */

/* The room for scratch files on the tier's filesystem: a quarter of its free
 * space; 0 with t->why set when it is read-only or too full. */
static uint64_t tier_room(struct verify_tier *t)
{
	struct statvfs sv;
	uint64_t avail;

	if (statvfs(t->mount, &sv)) {
		snprintf(t->why, sizeof(t->why), "not written: statvfs: %s", strerror(errno));
		return 0;
	}
	if (sv.f_flag & ST_RDONLY) {
		snprintf(t->why, sizeof(t->why), "read-only filesystem: not written");
		return 0;
	}
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail / 4 < VERIFY_MIN_BYTES) {
		snprintf(t->why, sizeof(t->why), "%.0f MiB free: a scratch file of at least %.0f MiB "
			 "would take more than a quarter of it; not written", (double)avail / MIB,
			 (double)VERIFY_MIN_BYTES / MIB);
		return 0;
	}
	return avail / 4;
}

static int verify_tier(const struct advisor_file_tier *rt, const struct verify_opts *o,
		       struct verify_tier *t)
{
	struct verify_ctx c = { .seconds = o->seconds, .tolerance = o->tolerance / 100 };

	t->name = rt->name;
	if (!(t->w = calloc(rt->n_est ? rt->n_est : 1, sizeof(*t->w))))
		return -ENOMEM;
	for (size_t i = 0; i < rt->n_est; i++) {
		t->w[t->n].est = &rt->est[i];
		t->w[t->n].estimate = t->w[t->n].measured = t->w[t->n].ratio = NAN;
		t->w[t->n++].state = VERIFY_SKIPPED;
	}
	for (size_t i = 0; i < rt->n_mounts && !t->mounted; i++) {
		t->why[0] = '\0';
		check_mount(&rt->mounts[i], t);
	}
	if (!rt->n_mounts)
		snprintf(t->why, sizeof(t->why), "the plan gives the tier no mount point");
	if (!t->mounted || !(c.room = tier_room(t)))
		return 0;
	c.dir = t->mount;
	c.stat_dev = t->device[0] ? t->device : NULL;
	t->written = true;
	for (size_t i = 0; i < t->n; i++)
		verify_one(&c, &t->w[i]);
	return 0;
}

/* ---- the command ------------------------------------------------------------ */

static int exit_code(const struct verify_report *r)
{
	struct verify_counts n = verify_count(r);

	if (n.outside)
		return TW_EXIT_MISSED;
	if (!n.within)
		return TW_EXIT_SYSTEM;
	return n.skipped || n.failed || n.unmounted ? TW_EXIT_PARTIAL : TW_EXIT_OK;
}

static const char *const formats[] = { "text", "json", "prom" };
static const struct verify_render_ops *const renderers[] = {
	&verify_render_text, &verify_render_json, &verify_render_prom,
};

/* What cli_write_rendered hands back to render_with. */
struct verify_out {
	const struct verify_render_ops *ops;
	const struct verify_report *r;
};

static int render_with(FILE *out, const void *arg)
{
	const struct verify_out *v = arg;

	return v->ops->print(out, v->r);
}

static int verify_plan(const struct verify_opts *o, const struct advisor_plan_file *pf, int f)
{
	struct verify_report r = { .plan = o->plan, .tolerance_pct = o->tolerance,
				   .seconds = o->seconds };
	struct verify_tier tiers[TW_TIER_COUNT] = { 0 };
	char host[256] = "";
	int rc = TW_EXIT_OK;

	gethostname(host, sizeof(host) - 1);
	r.host = host;
	r.tiers = tiers;
	for (int t = 0; t < TW_TIER_COUNT && rc == TW_EXIT_OK; t++) {
		const struct advisor_file_tier *rt = &pf->tiers[t];

		if ((o->tier && strcmp(o->tier, rt->name)) || !rt->n_est)
			continue;
		if (verify_tier(rt, o, &tiers[r.n++]))
			rc = TW_EXIT_SYSTEM;
	}
	if (rc == TW_EXIT_OK && !r.n) {
		fprintf(stderr, "tierwise verify: %s: %s has no estimates to verify\n", o->plan,
			o->tier ? o->tier : "no tier");
		rc = TW_EXIT_INVALID;
	}
	if (rc == TW_EXIT_OK) {
		struct verify_out v = { renderers[f], &r };

		rc = cli_write_rendered("verify", o->output ? o->output : "-", render_with, &v);
		if (rc == TW_EXIT_OK)
			rc = exit_code(&r);
	}
	for (size_t t = 0; t < r.n; t++)
		free(tiers[t].w);
	return rc;
}

static int verify_run(int argc, char **argv, struct tw_global *g)
{
	struct verify_opts o = { .format = "text", .tolerance = 30, .seconds = 2 };
	struct advisor_plan_file *pf = NULL;
	char err[512];
	int rc = parse_opts(argc, argv, &o), f, ret;

	(void)g;
	if (rc >= 0)
		return rc;
	if ((f = cli_pick_format("verify", o.format, formats, ARRAY_SIZE(formats))) < 0)
		return TW_EXIT_USAGE;
	if (o.output && (rc = cli_check_output("verify", "-o", o.output)))
		return rc;
	ret = advisor_plan_file_read(o.plan, "verify takes a plan: tierwise plan PROFILE --format "
				     "json > plan.json makes one", &pf, err, sizeof(err));
	if (ret == -ENOMEM) {
		fprintf(stderr, "tierwise verify: out of memory\n");
		return TW_EXIT_SYSTEM;
	}
	if (ret) {
		fprintf(stderr, "tierwise verify: %s: %s\n", o.plan, err);
		return TW_EXIT_INVALID;
	}
	rc = plan_workloads_ok(o.plan, pf, o.tier) ? verify_plan(&o, pf, f) : TW_EXIT_INVALID;
	advisor_plan_file_free(pf);
	return rc;
}

const struct tw_command tw_cmd_verify = {
	.name = "verify",
	.summary = "check the plan's estimates on the built tiers, workload by workload",
	.run = verify_run,
	.usage = verify_usage,
};
