/* tierwise fleet — many servers' profiles (and plans) side by side: the
 * fleet's figures per model and the drives that fall below their siblings. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fleet.h"
#include "inputs.h"
#include "render_fleet.h"
#include "tw_outfile.h"

static void fleet_usage(FILE *out)
{
	fputs("Usage: tierwise fleet DIR|PROFILE... [--format text|json|md|html] [-o FILE]\n\n"
	      "Read many servers' profiles (a directory's *.json files, or the files\n"
	      "given) and the plans beside them (X.plan.json next to X.json), and show\n"
	      "hosts x devices: for each drive model, the median, min and max of each key\n"
	      "figure across the fleet, measured the same way (target, mode, block size,\n"
	      "queue depth); the outliers, drives 20 % or more below their model's fleet\n"
	      "median (of 3 or more drives); the plans' warnings counted by kind; each\n"
	      "host's plan summary.\n\n"
	      "Options:\n"
	      "  --format F         text (default), json (tierwise.fleet/1), md, html\n"
	      "                     (one self-contained page)\n"
	      "  -o, --output FILE  write there, atomically (default: standard output)\n\n"
	      "Exit codes: 0 success, 1 invalid input (a profile or a plan; each problem\n"
	      "is named), 2 usage error, 3 system error (the output cannot be written).\n\n"
	      "Example: tierwise fleet fleet/ --format html -o fleet.html\n", out);
}

struct fleet_opts {
	const struct fleet_render_ops *render;
	const char *output;
};

/* Parse options into o.  Returns -1 to go on, else the exit code. */
static int fleet_parse(int argc, char **argv, struct fleet_opts *o)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!(o->render = fleet_render_find(optarg)))
				return cli_usage_error("fleet", "unknown format '%s' (text, json, "
						       "md, html)", optarg);
			break;
		case 'o': o->output = optarg; break;
		case 'h': fleet_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option("fleet", c, argv, opts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("fleet", "no profile or directory given");
	c = cli_check_output("fleet", "-o", o->output);
	return c ? c : -1;
}

struct fleet_out {
	const struct fleet_render_ops *r;
	const struct fleet *f;
};

static int render_fleet(FILE *out, const void *arg)
{
	const struct fleet_out *fo = arg;

	return fo->r->print(out, fo->f);
}

static int fleet_run(int argc, char **argv, struct tw_global *g)
{
	struct fleet_opts o = { .render = &fleet_render_text, .output = "-" };
	struct fleet *f = NULL;
	int rc = fleet_parse(argc, argv, &o);

	(void)g;
	if (rc >= 0)
		return rc;
	rc = cli_fleet_load("fleet", argv + optind, (size_t)(argc - optind), &f);
	if (rc == TW_EXIT_OK)
		rc = cli_write_rendered("fleet", o.output, render_fleet,
					&(struct fleet_out){ o.render, f });
	fleet_free(f);
	return rc;
}

const struct tw_command tw_cmd_fleet = {
	.name = "fleet",
	.summary = "many servers' profiles side by side: per-model figures, outliers",
	.run = fleet_run,
	.usage = fleet_usage,
};
