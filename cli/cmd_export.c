/* tierwise export — profiles as metrics for monitoring: the Prometheus text
 * format that node_exporter's textfile collector reads. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "inputs.h"
#include "fleet.h"
#include "render_prom.h"
#include "tw_outfile.h"

static void export_usage(FILE *out)
{
	fputs("Usage: tierwise export --format prometheus DIR|PROFILE... [--no-plan]\n"
	      "                       [-o FILE | --textfile DIR]\n\n"
	      "Write the profiles as Prometheus metrics in the text format that\n"
	      "node_exporter's textfile collector reads: per device and test the IOPS,\n"
	      "throughput and latency quantiles; temperature idle and under load; health\n"
	      "(critical warning, spare, wear, media errors); the tier the plan gave each\n"
	      "device when a plan is beside its profile (X.plan.json next to X.json).\n"
	      "Labels: host, device, model, serial, test.  The file is written atomically\n"
	      "(a temporary file, then rename), so the collector never reads half of it.\n\n"
	      "Options:\n"
	      "  --format prometheus  the format (the only one, and the default)\n"
	      "  -o, --output FILE    write there (default: standard output)\n"
	      "  --textfile DIR       write DIR/" CLI_TEXTFILE_NAME " (node_exporter\n"
	      "                       --collector.textfile.directory=DIR)\n"
	      "  --no-plan            no tier metric, even when plans are beside\n\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error, 3 system error.\n\n"
	      "Example: tierwise export --format prometheus server.json \\\n"
	      "           --textfile /var/lib/prometheus/node-exporter\n", out);
}

struct export_opts {
	const char *output, *textfile;
	bool no_plan;
	char *path;		/* the file to write (malloc'd) */
};

/* Parse options into o.  Returns -1 to go on, else the exit code. */
static int export_parse(int argc, char **argv, struct export_opts *o)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "textfile", required_argument, NULL, 'T' },
		{ "no-plan", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "prometheus"))
				return cli_usage_error("export", "unknown format '%s' (prometheus)",
						       optarg);
			break;
		case 'o': o->output = optarg; break;
		case 'T': o->textfile = optarg; break;
		case 'N': o->no_plan = true; break;
		case 'h': export_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option("export", c, argv, opts);
		}
	}
	if (o->output && o->textfile)
		return cli_usage_error("export", "-o and --textfile exclude each other");
	if (optind >= argc)
		return cli_usage_error("export", "no profile or directory given");
	if (o->textfile) {
		o->path = cli_textfile_path("export", o->textfile, &c);
		return o->path ? -1 : c;
	}
	if (!(o->path = strdup(o->output ? o->output : "-")))
		return TW_EXIT_SYSTEM;
	c = cli_check_output("export", "-o", o->path);
	return c ? c : -1;
}

static int export_fleet(const struct export_opts *o, const struct fleet *f)
{
	struct prom_source *src = calloc(f->n_hosts + 1, sizeof(*src));
	int rc;

	if (!src)
		return TW_EXIT_SYSTEM;
	for (size_t i = 0; i < f->n_hosts; i++)
		src[i] = (struct prom_source){ f->hosts[i].profile,	/* names made unique */
					       o->no_plan ? NULL : f->hosts[i].plan, f->hosts[i].name };
	rc = cli_write_prom("export", o->path, src, f->n_hosts);
	free(src);
	return rc;
}

static int export_run(int argc, char **argv, struct tw_global *g)
{
	struct export_opts o = { 0 };
	struct fleet *f = NULL;
	int rc = export_parse(argc, argv, &o);

	(void)g;
	if (rc < 0) {
		rc = cli_fleet_load("export", argv + optind, (size_t)(argc - optind), &f);
		if (rc == TW_EXIT_OK)
			rc = export_fleet(&o, f);
	}
	fleet_free(f);
	free(o.path);
	return rc;
}

const struct tw_command tw_cmd_export = {
	.name = "export",
	.summary = "profiles as Prometheus metrics (node_exporter textfile format)",
	.run = export_run,
	.usage = export_usage,
};
