/* tierwise report — profiles (and their plan) as one self-contained HTML file. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inputs.h"
#include "tw_outfile.h"
#include "plan.h"
#include "report.h"

static void report_usage(FILE *out)
{
	fputs("Usage: tierwise report PROFILE... [--plan PLAN.json | --no-plan]\n"
	      "                       [--policies DIR] -o REPORT.html\n\n"
	      "Write one self-contained HTML file (inline CSS and SVG, no script, nothing\n"
	      "fetched; prints well): the device table coloured by tier, a bar chart per\n"
	      "key metric, the queue-depth sweep with its knee and the sustained write\n"
	      "over time (when the profiles have them), and the plan: tiers, devices,\n"
	      "estimates, arrays, warnings and mount suggestions; with prices, the cost\n"
	      "per tier and per usable TB; for a buy plan, what to buy.\n\n"
	      "Options:\n"
	      "  -o, --output FILE  where to write the report ('-' = stdout); required\n"
	      "  --plan FILE        show this tierwise.plan/1 file (`tierwise plan\n"
	      "                     --format json`) instead of running the advisor; made\n"
	      "                     from these profiles (a buy plan: from this catalog)\n"
	      "  --no-plan          no plan: the measurements only\n"
	      "  --policies DIR     the policy directory for the advisor (default:\n"
	      "                     ./policies, else $TW_SRCDIR/policies, else the\n"
	      "                     installed ones); the plan is\n"
	      "                     made as `tierwise plan --no-inventory` makes it\n\n"
	      "Exit codes: 0 success, 1 invalid input (a profile, or a plan that is none or\n"
	      "does not match the profiles), 2 usage error, 3 system error (the report\n"
	      "cannot be written, no memory).\n\n"
	      "Example: tierwise report examples/ai-server-18-devices.json -o report.html\n",
	      out);
}

struct report_opts {
	const char *plan, *policies, *output;
	bool no_plan;
};

/* Parse options into o.  Returns -1 to go on, else the exit code. */
static int report_parse(int argc, char **argv, struct report_opts *o)
{
	static const struct option opts[] = {
		{ "plan", required_argument, NULL, 'p' },
		{ "no-plan", no_argument, NULL, 'N' },
		{ "policies", required_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'p': o->plan = optarg; break;
		case 'N': o->no_plan = true; break;
		case 'P': o->policies = optarg; break;
		case 'o': o->output = optarg; break;
		case 'h': report_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option("report", c, argv, opts);
		}
	}
	if (o->plan && o->no_plan)
		return cli_usage_error("report", "--plan and --no-plan exclude each other");
	if (!o->output)
		return cli_usage_error("report", "no output file: -o REPORT.html (or -o -)");
	if (optind >= argc)
		return cli_usage_error("report", "no profile given");
	c = cli_check_output("report", "-o", o->output);
	return c ? c : -1;
}

static int plan_from_advisor(const struct cli_inputs *in, struct report_plan **rp)
{
	struct advisor_options opt = { 0 };
	struct advisor_plan *plan = NULL;
	char err[256] = "";
	int ret = advisor_plan_make(in->devs, NULL, in->n_devs, in->policies, &opt, &plan, err,
				    sizeof(err));

	if (ret) {
		fprintf(stderr, "tierwise report: no plan: %s\n", err[0] ? err : strerror(-ret));
		return ret == -ENOMEM ? TW_EXIT_SYSTEM : TW_EXIT_INVALID;
	}
	return report_plan_from_advisor(plan, rp) ? TW_EXIT_SYSTEM : TW_EXIT_OK;
}

/* The plan of --plan, which must fit the profiles: exit 1 with one message
 * naming the file when it cannot be read, is no plan, or is another's. */
static int plan_from_file(const char *path, const struct cli_inputs *in,
			  struct report_plan **rp)
{
	char err[512] = "";
	int ret = report_plan_from_json(path, rp, err, sizeof(err));

	if (!ret)
		ret = report_plan_check(*rp, in->devs, in->n_devs, err, sizeof(err));
	if (ret == -ENOMEM)
		return TW_EXIT_SYSTEM;
	if (ret == -EINVAL)
		fprintf(stderr, "tierwise report: --plan %s: %s\n", path, err);
	else if (ret)
		cli_path_error("report", "--plan", path, "read", -ret,
			       "write it with `tierwise plan PROFILE... --format json > PLAN.json`, "
			       "or give --no-plan");
	return ret ? TW_EXIT_INVALID : TW_EXIT_OK;
}

static int render_report(FILE *out, const void *ri)
{
	return report_render_html(out, ri);
}

static int report_run(int argc, char **argv, struct tw_global *g)
{
	struct report_opts o = { 0 };
	struct cli_inputs in;
	struct report_plan *rp = NULL;
	int rc = report_parse(argc, argv, &o);
	char *const *files = argv + optind;
	size_t n = (size_t)(argc - optind);

	(void)g;
	if (rc >= 0)
		return rc;
	if (o.plan || o.no_plan)
		rc = cli_inputs_load_profiles(&in, files, n);
	else
		rc = cli_inputs_load("report", &in, files, n, o.policies, NULL);
	if (rc == TW_EXIT_OK && o.plan)
		rc = plan_from_file(o.plan, &in, &rp);
	else if (rc == TW_EXIT_OK && !o.no_plan)
		rc = plan_from_advisor(&in, &rp);
	if (rc == TW_EXIT_OK) {
		struct report_input ri = {
			.profiles = (const struct profile *const *)in.profiles,
			.n_profiles = in.n_profiles, .devs = in.devs, .n_devs = in.n_devs,
			.plan = rp,
			.policies_from = o.plan || o.no_plan ? NULL : in.policies_from,
		};

		rc = cli_write_rendered("report", o.output, render_report, &ri);
		if (rc == TW_EXIT_OK && strcmp(o.output, "-"))
			fprintf(stderr, "tierwise report: wrote %s: %zu device%s of %zu profile%s, %s\n",
				o.output, in.n_devs, in.n_devs == 1 ? "" : "s", in.n_profiles,
				in.n_profiles == 1 ? "" : "s", rp ? "with the plan" : "no plan");
	}
	report_plan_free(rp);
	cli_inputs_free(&in);
	return rc;
}

const struct tw_command tw_cmd_report = {
	.name = "report",
	.summary = "one self-contained HTML report: devices, charts, the plan",
	.run = report_run,
	.usage = report_usage,
};
