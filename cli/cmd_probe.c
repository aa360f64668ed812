/* tierwise probe — measure devices and write a tierwise.profile/1 document. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "render_prom.h"
#include "schedule.h"
#include "tw_size.h"
#include "tw_outfile.h"
#include "tw_util.h"

struct probe_cli {
	struct probe_options o;
	const char *json;
	const char *textfile_dir;	/* --textfile DIR */
	char *textfile;		/* DIR/tierwise.prom, checked before the run */
	bool destructive, yes, quiet, format_json;
	bool no_links;		/* --no-links: no link pass */
	bool qd1_side;		/* --qd1-side-by-side: QD1 too, the spot check guarding it */
	unsigned jobs;		/* --jobs; 0 = auto: the CPUs for the whole
				 * machine and for two named devices or more */
	uint64_t size;
	struct probe_inventory *inv;
	struct profile *prof;
	int failed, done;
	FILE *out;		/* the summary; NULL = stdout */
	dev_t *fs_seen;		/* filesystems already given a scratch file */
	const char **fs_seen_at;
	size_t n_fs;
};

static void probe_usage(FILE *out)
{
	fputs("Usage: tierwise probe [TARGET...] [OPTIONS]\n\n"
	      "Measure block devices with io_uring and O_DIRECT and write a\n"
	      "tierwise.profile/1 document.  TARGET is a device (nvme0n1, /dev/sdb):\n"
	      "read-only tests unless --destructive; or a directory: a scratch file\n"
	      "there, filled with incompressible data, removed on exit and on signals.\n"
	      "With no TARGET: every fixed disk `list` marks safe, read-only, plus a scratch\n"
	      "file on each mounted filesystem with room on one (optical drives,\n"
	      "removable media and read-only devices only when named).\n\n"
	      "Tests: seq_read seq_write rand_read_qd1 rand_read_qd32 mixed_70_30\n"
	      "       qd_sweep sustained_write (not in the default set)\n\n"
	      "  -o, --output FILE      save the profile to FILE, atomically ('-' = stdout)\n"
	      "  --format F             what standard output gets: text (the table,\n"
	      "                         default) or json (the profile)\n"
	      "  --json FILE            the same as -o FILE (deprecated)\n"
	      "  --tests LIST           comma-separated tests, 'all' or 'default'\n"
	      "  --full                 the published recipe: 30 s per test; the sustained\n"
	      "                         write until its cache cliff is known, 120 s at most\n"
	      "  --seconds S            fixed measured seconds per test (no steady-state stop)\n"
	      "  --ramp S               seconds run before measuring (default 0.5)\n"
	      "  --sustained-seconds S  sustained_write for exactly S s (without it: until\n"
	      "                         the rate after its cache cliff is known, at most\n"
	      "                         30 s quick, 120 s with --full)\n"
	      "  --latency-target US    p99 target for the queue-depth sweep (default 1000)\n"
	      "  --threads N            rings/threads for the QD32 tests (default: one, and\n"
	      "                         more when one keeps a core busy)\n"
	      "  --engine NAME          io_uring (default; psync fallback), psync, null\n"
	      "  --jobs N               devices probed side by side, never two on one PCI\n"
	      "                         port or drive; one per CPU, more while the running\n"
	      "                         ones leave a core idle (slow disks); QD1 one at a\n"
	      "                         time, then a solo spot check (default: as the CPUs\n"
	      "                         allow with no TARGET or two named devices or more;\n"
	      "                         1 = one after another)\n"
	      "  --no-links             side by side: skip the link pass (devices read\n"
	      "                         together against alone to find shared bottlenecks)\n"
	      "  --qd1-side-by-side     side by side: QD1 too; the spot check compares it\n"
	      "                         with a solo run and measures it again alone when\n"
	      "                         more than 10 % apart (for many cores, a core each)\n"
	      "  --size SIZE            scratch file size, e.g. 4G (default 2G or 1/4 free)\n"
	      "  --destructive          write tests on a raw device (refused if `list`\n"
	      "                         marks it unsafe; asks for its name to be typed)\n"
	      "  --yes                  do not ask (for scripts)\n"
	      "  --quiet                no progress display\n"
	      "  --textfile DIR         also write DIR/tierwise.prom for node_exporter's\n"
	      "                         textfile collector (atomically)\n\n"
	      "Quick mode stops each test when its figure is known: the 95 % confidence\n"
	      "band of its mean rate within ±2 % (0.1 s windows, batch means), and for\n"
	      "random reads 10,000 I/Os (a p99 with 100 samples above it); at least\n"
	      "0.5-1 s past the ramp, at most 4 s (a note says when the cap came first).\n"
	      "Exit: 0 all measured, 4 some tests or targets failed (see notes),\n"
	      "3 nothing could be measured, 2 usage error.\n\n"
	      "Example: tierwise probe nvme0n1 /srv/models -o server.json\n", out);
}

static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= 0) || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

static void show_progress(void *arg, const struct probe_status *st)
{
	char test[48];

	(void)arg;
	if (st->qd && !strcmp(st->test, "qd_sweep"))	/* eight jobs: say which */
		snprintf(test, sizeof(test), "%s QD=%u", st->test, st->qd);
	else
		snprintf(test, sizeof(test), "%s", st->test);
	fprintf(stderr, "\r  %-14s %-16s %5.1f/%4.1fs %12.0f IOPS %9.1f MB/s\033[K",
		st->target, test, st->elapsed_s, st->budget_s, st->iops, st->mbps);
	fflush(stderr);
}

static int parse_opts(int argc, char **argv, struct probe_cli *c)
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "tests", required_argument, NULL, 't' },
		{ "full", no_argument, NULL, 'F' },
		{ "seconds", required_argument, NULL, 's' },
		{ "ramp", required_argument, NULL, 'r' },
		{ "sustained-seconds", required_argument, NULL, 'S' },
		{ "latency-target", required_argument, NULL, 'L' },
		{ "threads", required_argument, NULL, 'T' },
		{ "engine", required_argument, NULL, 'e' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "no-links", no_argument, NULL, 'N' },
		{ "qd1-side-by-side", no_argument, NULL, 'Q' },
		{ "size", required_argument, NULL, 'z' },
		{ "destructive", no_argument, NULL, 'D' },
		{ "yes", no_argument, NULL, 'y' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "textfile", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "json" };
	char err[128];
	double v;
	int ch, f;

	while ((ch = getopt_long(argc, argv, "hqo:", opts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			cli_deprecated("probe", "--json FILE", "-o FILE (and --format json for "
				       "standard output)");
			c->json = optarg;
			break;
		case 'o': c->json = optarg; break;
		case 'f':
			if ((f = cli_pick_format("probe", optarg, formats, 2)) < 0)
				return TW_EXIT_USAGE;
			c->format_json = f == 1;
			break;
		case 't':
			if (probe_tests_parse(optarg, &c->o.tests, err, sizeof(err)) < 0)
				return cli_usage_error("probe", "--tests: %s", err);
			break;
		case 'F': c->o.full = true; break;
		case 's': case 'r': case 'S': case 'L':
			if (parse_seconds(optarg, &v) < 0)
				return cli_usage_error("probe", "'%s' is not a number of %s", optarg,
						       ch == 'L' ? "microseconds" : "seconds");
			*(ch == 's' ? &c->o.seconds : ch == 'r' ? &c->o.ramp_s :
			  ch == 'S' ? &c->o.sustained_s : &c->o.latency_target_us) = v;
			break;
		case 'T':
			c->o.threads = (unsigned)strtoul(optarg, NULL, 10);
			if (c->o.threads < 1 || c->o.threads > 32)
				return cli_usage_error("probe", "--threads takes 1 to 32");
			break;
		case 'J':
			c->jobs = (unsigned)strtoul(optarg, NULL, 10);
			if (c->jobs < 1 || c->jobs > 64)
				return cli_usage_error("probe", "--jobs takes 1 to 64");
			break;
		case 'e':
			if (!probe_engine_known(optarg))
				return cli_usage_error("probe", "unknown engine '%s' (io_uring, psync, null)", optarg);
			c->o.engine = optarg;
			break;
		case 'z':
			if (tw_size_parse(optarg, true, &c->size) < 0 || !c->size)
				return cli_usage_error("probe", "--size %s: not a size with a unit; sizes "
						       "are written %s", optarg, TW_SIZE_FORMS);
			break;
		case 'N': c->no_links = true; break;
		case 'Q': c->qd1_side = true; break;
		case 'D': c->destructive = true; break;
		case 'y': c->yes = true; break;
		case 'q': c->quiet = true; break;
		case 'X': c->textfile_dir = optarg; break;
		case 'h': probe_usage(stdout); return -1;
		default: return cli_bad_option("probe", argv, opts);
		}
	}
	if (c->format_json && !c->json)
		c->json = "-";	/* the profile on standard output */
	return 0;
}

/* Ask for the device name to be typed before a destructive run. */
static bool confirm(const struct probe_cli *c, const struct probe_dev *d)
{
	char line[128], size[32];
	FILE *tty;

	if (c->yes)
		return true;
	tty = fopen("/dev/tty", "r+");
	if (!tty) {
		fprintf(stderr, "tierwise probe: --destructive without a terminal needs --yes\n");
		return false;
	}
	render_size(size, sizeof(size), (double)d->capacity_bytes);
	fprintf(tty, "Destructive tests will OVERWRITE ALL DATA on %s (%s, %s).\n"
		"Type the device name (%s) to continue: ", d->path,
		d->model ? d->model : "no model", size, d->name);
	fflush(tty);
	bool ok = fgets(line, sizeof(line), tty) && (line[strcspn(line, "\n")] = '\0',
						      !strcmp(line, d->name));
	if (!ok)
		fprintf(tty, "Not confirmed; %s is left alone.\n", d->name);
	fclose(tty);
	return ok;
}

/* Ctrl-C / SIGTERM: the first one cancels the test running and stops the
 * probe, which then says "interrupted" and keeps what was measured; a second
 * one ends the process at once (the scratch files' fatal handlers). */
static volatile sig_atomic_t interrupt_cancel, interrupt_sig;

static void on_interrupt(int sig)
{
	interrupt_sig = sig;
	interrupt_cancel = 1;
	probe_scratch_install_handlers();	/* sigaction only: async-signal-safe */
}

static void catch_interrupts(struct probe_cli *c)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigfillset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	c->o.cancel = &interrupt_cancel;
}

static void probe_one(struct probe_cli *c, struct probe_target *t)
{
	char err[512] = "";
	int ret;

	if (interrupt_sig)
		return;

	if (!c->quiet)
		fprintf(stderr, "probing %s (%s)\n", t->id, t->path);
	ret = probe_run(t, &c->o, c->prof, err, sizeof(err));
	if (!c->quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (ret < 0) {
		fprintf(stderr, "tierwise probe: %s\n", err);
		c->failed++;
	}
	c->done++;
}

/* Probe device name, with write tests when destructive (confirmed first). */
static void probe_device_as(struct probe_cli *c, const char *name, bool destructive)
{
	const struct probe_dev *d = probe_inventory_find(c->inv, name);
	struct probe_target t;
	char err[1024];

	if (destructive && d && d->safe_destructive && !confirm(c, d)) {
		c->failed++;
		return;
	}
	if (probe_target_open_device(c->inv, name, destructive, &t, err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise probe: %s\n", err);
		c->failed++;
		return;
	}
	probe_one(c, &t);
	probe_target_close(&t);
}

/*
 * One filesystem is one target: true (and a line saying so) when dir lands on
 * a filesystem already probed (a bind mount, the same device mounted twice).
 */
static bool fs_already_probed(struct probe_cli *c, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return false;	/* the scratch open will say why */
	for (size_t i = 0; i < c->n_fs; i++)
		if (c->fs_seen[i] == st.st_dev) {
			fprintf(stderr, "tierwise probe: skipping %s: the same filesystem as %s "
				"(one scratch file per filesystem)\n", dir, c->fs_seen_at[i]);
			return true;
		}
	dev_t *seen = realloc(c->fs_seen, (c->n_fs + 1) * sizeof(*seen));
	const char **at = seen ? realloc(c->fs_seen_at, (c->n_fs + 1) * sizeof(*at)) : NULL;

	if (seen)
		c->fs_seen = seen;
	if (at) {
		c->fs_seen_at = at;
		c->fs_seen[c->n_fs] = st.st_dev;
		c->fs_seen_at[c->n_fs++] = dir;
	}
	return false;
}

static void probe_dir(struct probe_cli *c, const char *dir)
{
	struct probe_target t;
	char err[1024] = "";

	if (fs_already_probed(c, dir))
		return;

	if (!c->quiet)
		fprintf(stderr, "creating a scratch file in %s\n", dir);
	if (probe_target_open_scratch(c->inv, dir, c->size, NULL, &t, err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise probe: %s\n", err);
		c->failed++;
		return;
	}
	if (err[0])	/* stale scratch files of a killed run were removed */
		fprintf(stderr, "tierwise probe: %s\n", err);
	probe_one(c, &t);
	probe_target_close(&t);
}

/* The scheduler's and the link pass's lines ("probing …"), on stderr. */
static void sched_note(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "%s\n", msg);
}

/*
 * Probe the devices names[0..n) read-only side by side (probe/schedule.c) and
 * add their results to the profile in this order.
 */
static void probe_side_by_side(struct probe_cli *c, const char **names, size_t n)
{
	struct probe_sched_opts so = { .jobs = c->jobs ? c->jobs : PROBE_SCHED_AUTO,
				       .serial_qd1 = !c->qd1_side, .spot_check = true,
				       .note = c->quiet ? NULL : sched_note };
	struct probe_task *v = calloc(n ? n : 1, sizeof(*v));
	size_t m = 0;

	if (!v) {
		fprintf(stderr, "tierwise probe: out of memory\n");
		c->failed += (int)n;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char err[1024];

		if (probe_target_open_device(c->inv, names[i], false, &v[m].t, err, sizeof(err)) < 0) {
			fprintf(stderr, "tierwise probe: %s\n", err);
			c->failed++;
		} else {
			m++;
		}
	}
	if (probe_sched_run(v, m, &c->o, &so) < 0)
		fprintf(stderr, "tierwise probe: could not start the jobs side by side\n");
	else if (!c->no_links && probe_links_find(v, m, &c->o, c->prof, &so) < 0)
		fprintf(stderr, "tierwise probe: the link pass ran out of memory\n");
	for (size_t i = 0; i < m; i++) {
		if (v[i].ret < 0) {
			fprintf(stderr, "tierwise probe: %s\n", v[i].err);
			c->failed++;
		}
		c->done++;
		if (v[i].prof && profile_take_devices(c->prof, v[i].prof) < 0) {
			fprintf(stderr, "tierwise probe: %s: out of memory\n", v[i].t.id);
			c->failed++;
		}
		profile_free(v[i].prof);
		probe_target_close(&v[i].t);
	}
	free(v);
}

/* Whether devices run side by side: --jobs > 1, or auto (the whole machine,
 * two named devices or more); the fault hook's counters are atomic, so it
 * runs side by side too. */
static bool side_by_side(const struct probe_cli *c, bool whole_machine)
{
	unsigned jobs = c->jobs ? c->jobs : whole_machine ? probe_sched_cpus() : 1;

	return jobs > 1;
}

static void probe_device(struct probe_cli *c, const char *name)
{
	probe_device_as(c, name, c->destructive);
}

static void probe_arg(struct probe_cli *c, const char *arg)
{
	struct stat st;
	int found = stat(arg, &st) == 0, missing = !found && errno == ENOENT;

	if (found && S_ISDIR(st.st_mode)) {
		probe_dir(c, arg);
	} else if (missing && strchr(arg, '/') && strncmp(arg, "/dev/", 5)) {
		cli_path_error("probe", NULL, arg, "probe", ENOENT, "a TARGET is a directory on "
			       "a mounted filesystem, or a whole block device that `tierwise list` "
			       "shows, e.g. nvme0n1 or /dev/nvme0n1");
		c->failed++;
	} else {
		probe_device(c, arg);
	}
}

/* How many of the named targets are devices (not directories). */
static size_t named_devices(char **targets, int n)
{
	struct stat st;
	size_t m = 0;

	for (int i = 0; i < n; i++)
		m += !(stat(targets[i], &st) == 0 && S_ISDIR(st.st_mode));
	return m;
}

/* Named targets side by side (--jobs > 1, or two devices or more and no
 * --jobs: as many at once as the CPUs allow, as for the whole machine, and
 * the link pass): devices side by side, then directories. */
static void probe_named_side_by_side(struct probe_cli *c, char **targets, int n)
{
	const char **devs = calloc((size_t)n, sizeof(*devs));
	size_t nd = 0;
	struct stat st;

	if (!devs) {
		for (int i = 0; i < n; i++)
			probe_arg(c, targets[i]);
		return;
	}
	for (int i = 0; i < n; i++)
		if (!(stat(targets[i], &st) == 0 && S_ISDIR(st.st_mode)))
			devs[nd++] = targets[i];
	probe_side_by_side(c, devs, nd);
	for (int i = 0; i < n; i++)
		if (stat(targets[i], &st) == 0 && S_ISDIR(st.st_mode))
			probe_dir(c, targets[i]);
	free(devs);
}

/* Add the filesystem mounted at mounts (a device's or a partition's; its
 * own mount first, bind mounts after it: probe.h) to points, once. */
static void add_fs(const char **points, size_t *n, const struct probe_strv *mounts)
{
	if (!mounts->n)
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(points[i], mounts->v[0]))
			return;
	points[(*n)++] = mounts->v[0];
}

/* The mount point of each filesystem on a tier candidate, one per
 * filesystem (bind mounts of it are not counted): a NULL-terminated array
 * the caller frees, or NULL when out of memory. */
static const char **fs_points(const struct probe_inventory *inv)
{
	size_t cap = 1, n = 0;
	const char **points;

	for (size_t i = 0; i < inv->n; i++)
		cap += 1 + inv->v[i].n_parts;
	if (!(points = calloc(cap, sizeof(*points))))
		return NULL;
	for (size_t i = 0; i < inv->n; i++) {
		const struct probe_dev *d = &inv->v[i];

		if (!probe_dev_candidate(d))
			continue;
		add_fs(points, &n, &d->mounts);
		for (size_t p = 0; p < d->n_parts; p++)
			add_fs(points, &n, &d->parts[p].mounts);
	}
	return points;
}

/* No targets: every read-only-safe fixed disk, then each mounted filesystem
 * on one (optical, removable and read-only devices only when named). */
static void probe_all(struct probe_cli *c)
{
	const char **ro = calloc(c->inv->n + 1, sizeof(*ro));
	const char **points = fs_points(c->inv);
	bool together = ro && side_by_side(c, true);
	size_t n_ro = 0;

	for (size_t i = 0; i < c->inv->n; i++) {
		const struct probe_dev *d = &c->inv->v[i];
		bool rw = c->destructive && d->safe_destructive;

		if (d->safe_readonly && probe_dev_candidate(d) && together && !rw)
			ro[n_ro++] = d->name;	/* read-only: side by side below */
		else if (d->safe_readonly && probe_dev_candidate(d))
			probe_device_as(c, d->name, rw);
		else if (!probe_dev_candidate(d) && !c->quiet)
			fprintf(stderr, "tierwise probe: not probing %s: %s; name it to probe it\n",
				d->name, d->cls_why);
	}
	if (n_ro)
		probe_side_by_side(c, ro, n_ro);
	free(ro);
	if (!points) {
		fprintf(stderr, "tierwise probe: out of memory: no scratch files\n");
		c->failed++;
		return;
	}
	for (size_t i = 0; points[i]; i++)
		probe_dir(c, points[i]);
	free(points);
}

/* v with prec decimals, or "-" when it was not measured (NAN): never "nan". */
static const char *num(char *buf, size_t len, double v, int prec)
{
	if (isnan(v) || isinf(v))
		return "-";
	snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

static void print_summary(FILE *out, const struct profile *p)
{
	char a[32], b[32], c[32], e[32], f[32], g[32];

	for (size_t i = 0; i < p->n_devices; i++) {
		const struct profile_device *d = &p->devices[i];
		bool legend = false;

		fprintf(out, "%s  %s  (%s, %s s)\n", d->id, d->model,
			profile_target_name(d->probe.target),
			num(a, sizeof(a), d->probe.seconds, 1));
		/* µ takes two bytes and one column: %11s for a width of 10 */
		fprintf(out, "  %-16s %12s %10s %11s %11s %6s %s\n", "TEST", "IOPS", "MB/s",
			"p50 µs", "p99 µs", "SEC", "STEADY");
		for (int t = 0; t < PROFILE_IO_COUNT; t++) {
			const struct profile_io *io = &d->io[t];

			if (!io->present)
				continue;
			fprintf(out, "  %-16s %12s %10s %10s %10s %6s %s", profile_io_test_name(t),
				num(a, sizeof(a), io->iops, 0), num(b, sizeof(b), io->mbps, 1),
				num(c, sizeof(c), io->lat.v[PROFILE_LAT_P50], 1),
				num(e, sizeof(e), io->lat.v[PROFILE_LAT_P99], 1),
				num(f, sizeof(f), io->seconds, 1),
				io->steady < 0 ? "-" : io->steady ? "yes" : "no");
			if (!isnan(io->spread_pct))
				fprintf(out, " ±%.1f%%", io->spread_pct);
			fputc('\n', out);
			legend = true;
		}
		for (size_t s = 0; s < d->n_sweep; s++)
			fprintf(out, "  qd_sweep QD=%-4ld %12s %10s %10s %10s\n", d->sweep[s].qd,
				num(a, sizeof(a), d->sweep[s].iops, 0), "",
				num(c, sizeof(c), d->sweep[s].lat.v[PROFILE_LAT_P50], 1),
				num(e, sizeof(e), d->sweep[s].lat.v[PROFILE_LAT_P99], 1));
		for (size_t s = 0; s < d->n_iorate; s++)
			fprintf(out, "  iorate %3.0f%%     %12s %10s %10s %10s\n", d->iorate[s].pct,
				num(a, sizeof(a), d->iorate[s].iops, 0), "",
				num(c, sizeof(c), d->iorate[s].lat.v[PROFILE_LAT_P50], 1),
				num(e, sizeof(e), d->iorate[s].lat.v[PROFILE_LAT_P99], 1));
		if (d->under_write.present)
			fprintf(out, "  %-16s %12s %10s %10s %10s %6s x%s p99 of idle, writes %s "
				"MiB/s\n", "read_under_write", num(a, sizeof(a), d->under_write.iops, 0),
				"", num(c, sizeof(c), d->under_write.lat.v[PROFILE_LAT_P50], 1),
				num(e, sizeof(e), d->under_write.lat.v[PROFILE_LAT_P99], 1),
				num(f, sizeof(f), d->under_write.seconds, 1),
				num(b, sizeof(b), d->under_write.p99_ratio, 2),
				num(g, sizeof(g), d->under_write.write_mibps, 1));
		if (legend)
			fputs("  (SEC: seconds measured; STEADY: whether the figure became known "
			      "(quick mode: its mean\n   rate within ±2 % at 95 % confidence), and "
			      "the ± band it reached: \"no ±9.5%\" = the\n   cap came first; "
			      "\"-\" = not checked, --seconds fixed the length)\n", out);
		if (d->lat_target.present)
			fprintf(out, "  latency target p99 ≤ %.0f µs: %s\n", d->lat_target.p99_us,
				d->lat_target.qd > 0 ? "met" : "not met at any depth");
		if (d->lat_target.qd > 0)
			fprintf(out, "    best: QD %ld, %s IOPS\n", d->lat_target.qd,
				num(a, sizeof(a), d->lat_target.iops, 0));
		if (d->sustained.present && !isnan(d->sustained.mbps))
			fprintf(out, "  sustained_write: %s MB/s at start, %s MB/s %s\n",
				num(a, sizeof(a), d->sustained.initial_mbps, 0),
				num(b, sizeof(b), d->sustained.mbps, 0),
				isnan(d->sustained.cliff_after_gb) ? "throughout (no cliff)" :
				"after the cliff");
		if (d->sustained.present && !isnan(d->sustained.cliff_after_gb))
			fprintf(out, "    cache cliff after %.1f GB\n", d->sustained.cliff_after_gb);
		if (!isnan(d->thermal.idle_c) && isnan(d->thermal.load_c))
			fprintf(out, "  temperature: idle %.0f °C, peak not measured (%s)\n",
				d->thermal.idle_c, d->thermal.source ? d->thermal.source : "?");
		else if (!isnan(d->thermal.idle_c))
			fprintf(out, "  temperature: idle %.0f °C, peak %.0f °C (%s)%s\n", d->thermal.idle_c,
				d->thermal.load_c, d->thermal.source ? d->thermal.source : "?",
				d->thermal.throttle_events > 0 ? ", THROTTLING SEEN" : "");
		for (size_t n = 0; n < d->n_notes; n++)
			fprintf(out, "  note: %s\n", d->notes[n]);
	}
}

/*
 * Save the profile to c->json: never when nothing was measured (a failed or
 * refused run leaves the previous file as it was).  Returns 0 or an exit code.
 */
static int save_profile(const struct probe_cli *c)
{
	char err[512];

	if (!c->json)
		return 0;
	if (c->prof->n_devices == 0) {
		if (strcmp(c->json, "-"))
			fprintf(stderr, "tierwise probe: nothing was measured; %s was not written "
				"(a previous file there is left as it was)\n", c->json);
		return 0;
	}
	if (profile_write_file(c->prof, c->json, err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise probe: %s: %s (the profile was not saved)\n",
			c->json, err);
		return TW_EXIT_SYSTEM;
	}
	return 0;
}

/*
 * After an interrupt: the previous file is kept as it was; what was measured
 * goes beside it, to FILE.partial.json (or to stdout for "-").  Returns
 * 128 + the signal, as a shell reports it.
 */
static int finish_interrupted(struct probe_cli *c)
{
	char side[4096], err[512];
	size_t n;

	if (!c->quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	fprintf(stderr, "tierwise probe: interrupted (%s)", strsignal(interrupt_sig));
	if (c->prof->n_devices == 0 || !c->json) {
		fprintf(stderr, c->prof->n_devices ? "; nothing saved (-o FILE saves the figures "
			"measured before an interrupt)\n" : "; nothing was measured\n");
		return 128 + interrupt_sig;
	}
	n = strlen(c->json);
	if (!strcmp(c->json, "-"))
		snprintf(side, sizeof(side), "-");
	else
		snprintf(side, sizeof(side), "%.*s.partial.json",
			 (int)(n > 5 && !strcmp(c->json + n - 5, ".json") ? n - 5 : n), c->json);
	if (profile_write_file(c->prof, side, err, sizeof(err)) < 0)
		fprintf(stderr, "; %s: %s\n", side, err);
	else
		fprintf(stderr, "; what was measured (%zu device%s, the last one cut short) is in %s%s%s\n",
			c->prof->n_devices, c->prof->n_devices == 1 ? "" : "s",
			strcmp(side, "-") ? side : "standard output", strcmp(side, "-") ? "; " : "",
			strcmp(side, "-") ? "the -o file is left as it was" : "");
	return 128 + interrupt_sig;
}

static int probe_finish(struct probe_cli *c)
{
	char err[512];
	int ret;

	if (probe_inventory_to_profile(c->inv, c->prof) < 0) {	/* drive_id, multipath */
		fprintf(stderr, "tierwise probe: out of memory\n");
		return TW_EXIT_SYSTEM;
	}
	if (interrupt_sig)
		return finish_interrupted(c);
	ret = save_profile(c);

	if (c->format_json && c->json && strcmp(c->json, "-"))	/* -o FILE --format json */
		ret = ret ? ret : profile_write_file(c->prof, "-", err, sizeof(err)) < 0 ?
			TW_EXIT_SYSTEM : 0;
	else if (!c->json || strcmp(c->json, "-"))
		print_summary(c->out ? c->out : stdout, c->prof);
	if (ret)
		return ret;
	if (!c->json && c->prof->n_devices)
		fprintf(stderr, "tierwise probe: the profile was not saved: add -o FILE to "
			"keep these figures\n");
	if (c->failed && c->prof->n_devices == 0)
		return TW_EXIT_SYSTEM;
	return c->failed ? TW_EXIT_PARTIAL : TW_EXIT_OK;
}


/*
 * The test hook TIERWISE_FAULT (docs/reliability.md): refuse a bad spec
 * before anything runs, and say loudly that faults are being injected.
 * Returns 0 or TW_EXIT_USAGE.
 */
static int check_fault_hook(struct probe_cli *c)
{
	const char *spec = getenv("TIERWISE_FAULT");
	char err[128];

	if (!spec || !*spec)
		return 0;
	c->o.fault = spec;	/* the library reads no environment */
	if (probe_fault_check(spec, err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise probe: TIERWISE_FAULT: %s\n", err);
		return TW_EXIT_USAGE;
	}
	fprintf(stderr, "tierwise probe: TIERWISE_FAULT=%s: injecting faults (a test hook; "
		"the figures are not measurements)\n", spec);
	return 0;
}

/*
 * Scan the inventory and run the targets (none = everything probe_all
 * chooses), then save and summarise.  Returns the exit code.
 */
static int probe_execute(struct probe_cli *c, struct tw_global *g, char **targets, int n)
{
	char err[512] = "";
	int ret = check_fault_hook(c);

	if (!ret && c->json)
		ret = cli_check_output("probe", "-o", c->json);
	if (!ret && c->textfile_dir)
		c->textfile = cli_textfile_path("probe", c->textfile_dir, &ret);
	if (ret)
		return ret;
	if (!c->quiet && isatty(STDERR_FILENO))
		c->o.progress = show_progress;
	c->o.sysroot = g->sysroot;
	if (probe_inventory_scan(g->sysroot, &c->inv, err, sizeof(err)) < 0 ||
	    !(c->prof = profile_new())) {
		fprintf(stderr, "tierwise probe: %s\n", err[0] ? err : "out of memory");
		probe_inventory_free(c->inv);
		return TW_EXIT_SYSTEM;
	}
	probe_scratch_install_handlers();
	catch_interrupts(c);
	if (n > 0 && side_by_side(c, named_devices(targets, n) >= 2) && !c->destructive)
		probe_named_side_by_side(c, targets, n);
	else
		for (int i = 0; i < n && !interrupt_sig; i++)
			probe_arg(c, targets[i]);
	if (n == 0)
		probe_all(c);
	ret = probe_finish(c);
	if (c->textfile && c->prof->n_devices && (!ret || ret == TW_EXIT_PARTIAL)) {
		struct prom_source src = { c->prof, NULL, NULL };	/* what was measured */
		int wr = cli_write_prom("probe", c->textfile, &src, 1);

		ret = wr ? wr : ret;
	}
	free(c->textfile);
	free(c->fs_seen);
	free(c->fs_seen_at);
	profile_free(c->prof);
	probe_inventory_free(c->inv);
	return ret;
}

static int probe_cmd(int argc, char **argv, struct tw_global *g)
{
	struct probe_cli c = { .o = { .ramp_s = -1 } };
	int ret = parse_opts(argc, argv, &c);

	if (ret)
		return ret < 0 ? TW_EXIT_OK : ret;
	return probe_execute(&c, g, argv + optind, argc - optind);
}

int cli_probe_everything(const struct cli_probe_req *r, struct tw_global *g)
{
	struct probe_cli c = {
		.o = { .ramp_s = -1, .full = r->full },
		.json = r->json, .destructive = r->destructive, .yes = r->yes, .quiet = r->quiet,
		.out = r->out,
	};

	return probe_execute(&c, g, NULL, 0);
}

const struct tw_command tw_cmd_probe = {
	.name = "probe",
	.summary = "measure devices (quick ~30 s each) into a tierwise.profile/1",
	.run = probe_cmd,
	.usage = probe_usage,
};
