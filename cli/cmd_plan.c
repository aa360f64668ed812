/* tierwise plan — the hot/warm/cold placement plan from profiles. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "cli.h"
#include "inputs.h"
#include "plan.h"
#include "plan_disks.h"
#include "plan_job.h"
#include "render_plan.h"
#include "score.h"
#include "tw_size.h"
#include "tw_outfile.h"
#include "tw_tier.h"
#include "tw_util.h"

static void plan_usage(FILE *out)
{
	fputs("Usage: tierwise plan PROFILE... [--policies DIR] [--need POLICY=SIZE,...]\n"
	      "                     [--inventory FILE | --no-inventory] [--mount TIER=PATH]\n"
	      "                     [--include-removable[=DEV,...]]\n"
	      "                     [--fill PCT] [--prices FILE] [--time-limit SECONDS]\n"
	      "                     [--buy [--budget AMOUNT] [--max-each N] [--margin POINTS]]\n"
	      "                     [--format text|json|md|fstab|udev|script] [--strict]\n\n"
	      "Assign the devices of the profiles to the tiers hot (vector-db,\n"
	      "logs-metadata), warm (model-loading, checkpoints) and cold (archive):\n"
	      "the assignment that meets the most of the tiers' capacity needs, then\n"
	      "scores best (proven optimal by integer programming, GLPK), with the\n"
	      "runner-up, like devices grouped into md arrays,\n"
	      "warnings from the data and mount suggestions.  Nothing is changed:\n"
	      "--format script writes a script that does nothing without --apply.\n\n"
	      "Options:\n"
	      "  --policies DIR     the policy directory (default: ./policies, else\n"
	      "                     $TW_SRCDIR/policies, else the installed ones);\n"
	      "                     a tier's policies come from it\n"
	      "  --need P=SIZE,...  capacity a policy needs (500G, 4T), instead of its\n"
	      "                     need_bytes; repeatable\n"
	      "  --inventory FILE   what `tierwise list --format json` wrote, to know existing\n"
	      "                     filesystems, mounts and the root disk (default:\n"
	      "                     this machine, matched by serial or device path)\n"
	      "  --no-inventory     plan as if every disk were new (catalog planning)\n"
	      "  --mount TIER=PATH  mount point of a tier (default /srv/vector-db,\n"
	      "                     /srv/models, /srv/archive)\n"
	      "  --fill PCT         usable share of each device (default 80)\n"
	      "  --prices FILE      prices per TB: lines of MODEL = PRICE\n"
	      "  --include-removable[=DEV,...]\n"
	      "                     plan optical drives, removable media (USB sticks,\n"
	      "                     SD cards) and tapes too, or only the ones named;\n"
	      "                     without it they are left out with a warning\n"
	      "  --time-limit S     stop the search after S seconds (default 10) with\n"
	      "                     the best plan found and a bound on the best possible\n"
	      "  --buy              what to buy: each catalog device with a price is a\n"
	      "                     model bought any number of times (up to --max-each,\n"
	      "                     default 8): the best plan within --budget AMOUNT\n"
	      "                     (5000, 5,000 or $5000: the prices' currency),\n"
	      "                     else the cheapest within --margin POINTS (default 5)\n"
	      "                     of the best score\n"
	      "  --format F         text (default), json (tierwise.plan/1), md,\n"
	      "                     fstab, udev, script\n"
	      "  -o FILE            write to FILE (atomically) instead of standard output\n"
	      "  --strict           exit 6 when the plan leaves a capacity need unmet\n"
	      "                     (the plan is still printed; JSON lists them in unmet)\n\n"
	      "Exit codes: 0 success, 1 invalid input (also a profile with no device, a\n"
	      "--need of an unknown policy or of one no plan places: boot), 2 usage\n"
	      "error, 3 system error, 6 with --strict: a need unmet.\n\n"
	      "Example: tierwise plan examples/ai-server-18-devices.json --need archive=20T\n",
	      out);
}

/* "vector-db=500G,archive=20T" → o->needs.  Returns 0 or a usage error. */
static int parse_needs(struct cli_plan_opts *o, const char *arg)
{
	char *copy = strdup(arg), *save = NULL;
	int rc = 0;

	if (!copy)
		return TW_EXIT_SYSTEM;
	for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		size_t k = o->a.n_needs;
		uint64_t bytes;

		if (!eq || eq == tok || k == CLI_PLAN_MAX_NEEDS) {
			rc = cli_usage_error("plan", "--need %s: expected POLICY=SIZE", tok);
			break;
		}
		*eq = '\0';
		if (tw_size_parse(eq + 1, true, &bytes) < 0) {
			rc = cli_usage_error("plan", "--need %s=%s: not a size with a unit; "
					     "sizes are written %s", tok, eq + 1, TW_SIZE_FORMS);
			break;
		}
		o->needs[k].bytes = (int64_t)bytes;
		if (!(o->need_names[k] = strdup(tok))) {
			rc = TW_EXIT_SYSTEM;
			break;
		}
		o->needs[k].policy = o->need_names[k];
		o->a.n_needs++;
	}
	free(copy);
	return rc;
}

static int parse_mount(struct cli_plan_opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char tier[16];
	int t;

	if (!eq || (size_t)(eq - arg) >= sizeof(tier))
		return cli_usage_error("plan", "--mount %s: expected TIER=PATH", arg);
	memcpy(tier, arg, (size_t)(eq - arg));
	tier[eq - arg] = '\0';
	t = tw_tier_find(tier);
	if (t < 0)
		return cli_usage_error("plan", "--mount %s: unknown tier (hot, warm, cold)", arg);
	if (eq[1] != '/')
		return cli_usage_error("plan", "--mount %s: the mount point must be absolute", arg);
	o->a.mount_point[t] = eq + 1;
	return 0;
}

/* --include-removable[=sdc,sr0]: all of them, or the ones named. */
static int parse_include(struct cli_plan_opts *o, const char *arg)
{
	char *save = NULL;

	o->a.include_removable = true;
	o->a.n_include = 0;	/* the last one given wins */
	if (!arg)
		return 0;
	free(o->include_buf);
	if (!(o->include_buf = strdup(arg)))
		return TW_EXIT_SYSTEM;
	for (char *tok = strtok_r(o->include_buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->a.n_include == CLI_PLAN_MAX_NEEDS)
			return cli_usage_error("plan", "--include-removable: more than %d devices",
					       CLI_PLAN_MAX_NEEDS);
		o->include[o->a.n_include++] = tok;
	}
	if (!o->a.n_include)
		return cli_usage_error("plan", "--include-removable=: name a device");
	return 0;
}

static int parse_time_limit(struct cli_plan_opts *o, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v > 0 && v <= 86400))
		return cli_usage_error("plan", "--time-limit %s: seconds in (0, 86400]", arg);
	o->a.time_limit = v;
	return 0;
}

/* A number in [lo, hi]: 0, or -EINVAL when s is none. */
static int parse_number_quiet(const char *s, double lo, double hi, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end == s || *end || !(*v >= lo && *v <= hi) ? -EINVAL : 0;
}

/* A number in [lo, hi] for option name.  Returns 0 or a usage error. */
static int parse_number(const char *name, const char *arg, double lo, double hi, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	if (end == arg || *end || !(*v >= lo && *v <= hi))
		return cli_usage_error("plan", "--%s %s: a number from %g to %g", name, arg, lo, hi);
	return 0;
}

/*
 * An amount of money for --budget: digits with an optional fraction, an
 * optional currency sign before ($, €, £) and commas between groups of
 * three digits ("5000", "5,000", "$5,000.50").  Returns 0 or a usage error.
 */
static int parse_amount(const char *arg, double *v)
{
	static const char *const signs[] = { "$", "€", "£" };
	char digits[64];
	size_t n = 0, group = 0;
	const char *p = arg;
	bool commas = false, frac = false;

	for (size_t i = 0; i < ARRAY_SIZE(signs); i++)
		if (!strncmp(p, signs[i], strlen(signs[i])))
			p += strlen(signs[i]);
	for (; *p && n + 1 < sizeof(digits); p++) {
		if (*p == ',' && !frac && n && (!commas || group == 3)) {
			commas = true;
			group = 0;
			continue;
		}
		if (*p == '.' && !frac)
			frac = true;
		else if (*p < '0' || *p > '9')
			break;
		else if (!frac)
			group++;
		digits[n++] = *p;
	}
	digits[n] = '\0';
	if (*p || !n || (commas && group != 3) || parse_number_quiet(digits, 1e-9, 1e15, v) < 0)
		return cli_usage_error("plan", "--budget %s: an amount of money in the prices' "
				       "currency, e.g. 5000, 5,000 or $5000", arg);
	return 0;
}

static int parse_buy(struct cli_plan_opts *o, int c, const char *arg)
{
	double v = 0;
	int rc;

	if (c == 'B') {
		rc = parse_amount(arg, &v);
		o->a.budget = v;
	} else if (c == 'E') {
		rc = parse_number("max-each", arg, 1, 64, &v);
		if (!rc && v != floor(v))
			rc = cli_usage_error("plan", "--max-each %s: a whole number", arg);
		o->a.max_each = (unsigned)v;
	} else {
		rc = parse_number("margin", arg, 0, 300, &v);
		o->a.margin = v;
	}
	return rc;
}

static int parse_fill(struct cli_plan_opts *o, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end != arg && *end == '%' && !end[1])	/* 80% as well as 80 */
		end++;
	if (end == arg || *end || !(v > 0 && v <= 100))
		return cli_usage_error("plan", "--fill %s: a percentage in (0, 100], e.g. 80 or 80%%",
				       arg);
	o->a.fill = v / 100.0;
	return 0;
}

/* Parse options into o.  Returns -1 to go on, else the exit code. */
static int plan_parse(int argc, char **argv, struct cli_plan_opts *o)
{
	static const struct option opts[] = {
		{ "policies", required_argument, NULL, 'P' },
		{ "need", required_argument, NULL, 'n' },
		{ "inventory", required_argument, NULL, 'i' },
		{ "no-inventory", no_argument, NULL, 'I' },
		{ "mount", required_argument, NULL, 'm' },
		{ "fill", required_argument, NULL, 'f' },
		{ "prices", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "include-removable", optional_argument, NULL, 'R' },
		{ "time-limit", required_argument, NULL, 'T' },
		{ "buy", no_argument, NULL, 'y' },
		{ "budget", required_argument, NULL, 'B' },
		{ "max-each", required_argument, NULL, 'E' },
		{ "margin", required_argument, NULL, 'M' },
		{ "strict", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	o->render = &render_plan_text;
	o->a.needs = o->needs;
	o->a.include = o->include;
	o->a.margin = -1;	/* the default */
	while (!rc && (c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'P': o->policies = optarg; break;
		case 'n': rc = parse_needs(o, optarg); break;
		case 'i': o->inventory = optarg; break;
		case 'I': o->no_inventory = true; break;
		case 'm': rc = parse_mount(o, optarg); break;
		case 'f': rc = parse_fill(o, optarg); break;
		case 'r': o->prices = optarg; break;
		case 'F': rc = cli_plan_format(o, optarg); break;
		case 'o': o->output = optarg; break;
		case 'R': rc = parse_include(o, optarg); break;
		case 'T': rc = parse_time_limit(o, optarg); break;
		case 'y': o->a.buy = true; break;
		case 'S': o->strict = true; break;
		case 'B': case 'E': case 'M': rc = parse_buy(o, c, optarg); o->buy_opt = true; break;
		case 'h': plan_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option("plan", c, argv, opts);
		}
	}
	if (rc)
		return rc;
	if (o->buy_opt && !o->a.buy)
		return cli_usage_error("plan", "--budget, --max-each and --margin go with --buy");
	if (o->a.buy && o->inventory)
		return cli_usage_error("plan", "--buy plans a catalog: no --inventory");
	if (o->a.buy)
		o->no_inventory = true;	/* what is bought is new */
	if (o->inventory && o->no_inventory)
		return cli_usage_error("plan", "--inventory and --no-inventory exclude each other");
	if (optind >= argc)
		return cli_usage_error("plan", "no profile given");
	return -1;
}

static int plan_run(int argc, char **argv, struct tw_global *g)
{
	struct cli_plan_opts o = { 0 };
	int rc = plan_parse(argc, argv, &o);

	struct cli_output out;

	if (rc < 0 && (rc = cli_output_open(&out, "plan", o.output)) == TW_EXIT_OK)
		rc = cli_output_close(&out, cli_plan_files(&o, argv + optind,
							(size_t)(argc - optind), g));
	for (size_t i = 0; i < o.a.n_needs; i++)
		free(o.need_names[i]);
	free(o.include_buf);
	return rc;
}

const struct tw_command tw_cmd_plan = {
	.name = "plan",
	.summary = "the hot/warm/cold placement plan, warnings and mount suggestions",
	.run = plan_run,
	.usage = plan_usage,
};
