/* tierwise probe — measure devices and write a tierwise.profile/1 document:
 * the options; the run itself is probe_job.c's. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model.h"
#include "policy.h"
#include "probe_cli.h"
#include "tw_size.h"

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
	      "Tests: seq_read seq_write rand_read_qd1 rand_read_qd32 mixed_70_30 qd_sweep\n"
	      "       iorate read_under_write app (buffered, mmap, fsync: as applications)\n"
	      "       sustained_write (not in the default set)\n\n"
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

/* The deepest queue a workload of the default policies keeps (a beam's
 * beam_width × concurrency): the sweep goes that deep whatever the latency
 * target, so that its estimate is measured, not extrapolated. */
static unsigned workload_depth(void)
{
	struct model_policy_set *set = NULL;
	struct tw_diags d = { 0 };
	unsigned q = 0;

	if (model_policy_load_builtin(&set, &d) == 0)
		for (size_t i = 0; i < set->n; i++)
			for (size_t j = 0; j < set->v[i]->n_estimates; j++) {
				unsigned w = model_workload_depth(&set->v[i]->estimates[j]);

				q = w > q ? w : q;
			}
	model_policy_set_free(set);
	tw_diags_clear(&d);
	return q;
}

static int probe_cmd(int argc, char **argv, struct tw_global *g)
{
	struct probe_cli c = { .o = { .ramp_s = -1 } };
	int ret = parse_opts(argc, argv, &c);

	if (ret)
		return ret < 0 ? TW_EXIT_OK : ret;
	c.o.min_sweep_qd = workload_depth();
	return cli_probe_execute(&c, g, argv + optind, argc - optind);
}

const struct tw_command tw_cmd_probe = {
	.name = "probe",
	.summary = "measure devices (quick ~30 s each) into a tierwise.profile/1",
	.run = probe_cmd,
	.usage = probe_usage,
};
