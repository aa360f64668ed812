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
#include "probe_cli.h"
#include "render.h"
#include "render_prom.h"
#include "schedule.h"
#include "tw_size.h"
#include "tw_outfile.h"
#include "tw_util.h"

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
	      "  --tests LIST           comma-separated tests, 'all' or 'default'\n"
	      "  --full                 the published recipe: 30 s per test; the sustained\n"
	      "                         write until its cache cliff is known, 120 s at most\n"
	      "  --seconds S            fixed measured seconds per test (no steady-state stop)\n"
	      "  --ramp S               seconds run before measuring (default 0.1-0.5 s\n"
	      "                         by test, see docs/probe.md)\n"
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
	      "0.2-0.5 s past the ramp, at most 3 s (4 s the reads under writes); a\n"
	      "read test whose band is on course to stay wider than ±3 % at its cap\n"
	      "stops after a third of it.  A note says which came first, and the band.\n"
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

	while ((ch = getopt_long(argc, argv, ":hqo:", opts, NULL)) != -1) {
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
		default: return cli_bad_option("probe", ch, argv, opts);
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

bool cli_probe_interrupted(void)
{
	return interrupt_sig != 0;
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
void cli_probe_device(struct probe_cli *c, const char *name, bool destructive)
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

void cli_probe_dir(struct probe_cli *c, const char *dir)
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
void cli_probe_side_by_side(struct probe_cli *c, const char **names, size_t n)
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
		probe_render_text.print(c->out ? c->out : stdout, c->prof);
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
	cli_probe_targets(c, targets, n);
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
