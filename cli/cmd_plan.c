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
#include "plan.h"
#include "plan_disks.h"
#include "render_plan.h"
#include "score.h"
#include "tw_size.h"
#include "tw_outfile.h"
#include "tw_tier.h"
#include "tw_util.h"

#define MAX_NEEDS 32

static void plan_usage(FILE *out)
{
	fputs("Usage: tierwise plan PROFILE... [--policies DIR] [--need POLICY=SIZE,...]\n"
	      "                     [--inventory FILE | --no-inventory] [--mount TIER=PATH]\n"
	      "                     [--include-removable[=DEV,...]]\n"
	      "                     [--fill PCT] [--prices FILE] [--time-limit SECONDS]\n"
	      "                     [--buy [--budget AMOUNT] [--max-each N] [--margin POINTS]]\n"
	      "                     [--format text|json|md|fstab|udev|script]\n\n"
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
	      "  -o FILE            write to FILE (atomically) instead of standard output\n\n"
	      "Exit codes: 0 success, 1 invalid input (also a profile with no device, a\n"
	      "--need of an unknown policy or of one no plan places: boot), 2 usage\n"
	      "error, 3 system error.\n\n"
	      "Example: tierwise plan examples/ai-server-18-devices.json --need archive=20T\n",
	      out);
}

struct plan_opts {
	const char *policies, *prices, *inventory;
	bool no_inventory, buy_opt;
	struct advisor_need needs[MAX_NEEDS];
	char *need_names[MAX_NEEDS];
	char *include_buf;		/* the --include-removable list, split */
	const char *include[MAX_NEEDS];
	struct advisor_options a;
	const struct plan_render_ops *render;
	const char *save_json;	/* also write tierwise.plan/1 here (the default job) */
	const char *output;	/* -o FILE; NULL = stdout */
};

static const struct plan_render_ops *const formats[] = {
	&plan_render_text, &plan_render_json, &plan_render_md,
	&plan_render_fstab, &plan_render_udev, &plan_render_script,
};

/* "vector-db=500G,archive=20T" → o->needs.  Returns 0 or a usage error. */
static int parse_needs(struct plan_opts *o, const char *arg)
{
	char *copy = strdup(arg), *save = NULL;
	int rc = 0;

	if (!copy)
		return TW_EXIT_SYSTEM;
	for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		size_t k = o->a.n_needs;
		uint64_t bytes;

		if (!eq || eq == tok || k == MAX_NEEDS) {
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

static int parse_mount(struct plan_opts *o, const char *arg)
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

static int parse_format(struct plan_opts *o, const char *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(formats[i]->name, arg)) {
			o->render = formats[i];
			return 0;
		}
	return cli_usage_error("plan", "unknown format '%s' (text, json, md, fstab, udev, script)", arg);
}

/* --include-removable[=sdc,sr0]: all of them, or the ones named. */
static int parse_include(struct plan_opts *o, const char *arg)
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
		if (o->a.n_include == MAX_NEEDS)
			return cli_usage_error("plan", "--include-removable: more than %d devices",
					       MAX_NEEDS);
		o->include[o->a.n_include++] = tok;
	}
	if (!o->a.n_include)
		return cli_usage_error("plan", "--include-removable=: name a device");
	return 0;
}

static int parse_time_limit(struct plan_opts *o, const char *arg)
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

static int parse_buy(struct plan_opts *o, int c, const char *arg)
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

static int parse_fill(struct plan_opts *o, const char *arg)
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
static int plan_parse(int argc, char **argv, struct plan_opts *o)
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	o->render = &plan_render_text;
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
		case 'F': rc = parse_format(o, optarg); break;
		case 'o': o->output = optarg; break;
		case 'R': rc = parse_include(o, optarg); break;
		case 'T': rc = parse_time_limit(o, optarg); break;
		case 'y': o->a.buy = true; break;
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

/* Inventory facts: the file given, this machine (or --sysroot), or none. */
static int load_disks(const struct plan_opts *o, const struct tw_global *g,
		      struct plan_disks *disks)
{
	struct probe_inventory *inv = NULL;
	char err[512];
	int ret;

	disks->n = 0;
	disks->v = NULL;
	if (o->no_inventory)
		return TW_EXIT_OK;
	if (o->inventory) {
		ret = plan_disks_load_json(o->inventory, disks, err, sizeof(err));
		if (ret == -ENOMEM)
			return TW_EXIT_SYSTEM;
		if (ret == -EINVAL)
			fprintf(stderr, "tierwise plan: %s\n", err);
		else if (ret)
			cli_path_error("plan", "--inventory", o->inventory, "read", -ret,
				       "write it with `tierwise list --format json > FILE`, "
				       "or plan with --no-inventory");
		if (ret)
			return TW_EXIT_INVALID;
		return TW_EXIT_OK;
	}
	ret = probe_inventory_scan(g->sysroot, &inv, err, sizeof(err));
	if (ret) {	/* a plan without facts is still a plan: say so */
		fprintf(stderr, "tierwise plan: no inventory of this machine (%s): "
			"planning as if every disk were new\n", err);
		return TW_EXIT_OK;
	}
	ret = plan_disks_from_inventory(inv, disks);
	probe_inventory_free(inv);
	return ret ? TW_EXIT_SYSTEM : TW_EXIT_OK;
}

/* Save the plan as tierwise.plan/1 JSON to path, atomically.  Returns an exit code. */
static int save_json(const struct advisor_plan *plan, const char *path)
{
	struct tw_outfile f;
	char err[256];
	int ret = tw_outfile_open(&f, path, err, sizeof(err));

	if (ret == 0 && plan_render_json.print(f.f, plan)) {
		tw_outfile_abort(&f);
		snprintf(err, sizeof(err), "the plan cannot be written as json");
		ret = -EINVAL;
	} else if (ret == 0) {
		ret = tw_outfile_commit(&f, err, sizeof(err));
	}
	if (ret)
		fprintf(stderr, "tierwise plan: %s: %s (the plan was not saved)\n", path, err);
	return ret ? TW_EXIT_SYSTEM : TW_EXIT_OK;
}

/* Every device --include-removable names must be one of the profiles'. */
static int check_includes(const struct plan_opts *o, const struct score_inputs *in,
			  const struct advisor_disk *const *facts)
{
	for (size_t k = 0; k < o->a.n_include; k++) {
		const char *s = o->include[k];
		bool found = false;

		if (!strncmp(s, "/dev/", 5))
			s += 5;
		for (size_t i = 0; i < in->n_devs && !found; i++)
			found = !strcmp(in->devs[i]->id, s) ||
				(facts[i] && facts[i]->name && !strcmp(facts[i]->name, s));
		if (!found)
			return cli_usage_error("plan", "--include-removable: no device '%s' in "
					       "the profiles", o->include[k]);
	}
	return TW_EXIT_OK;
}

/* advisor_plan_make() with the shared-bottleneck groups of every profile. */
static int plan_with_links(const struct plan_opts *o, const struct score_inputs *in,
			   const struct advisor_disk **facts, struct advisor_plan **plan,
			   char *err, size_t errlen)
{
	struct advisor_options a = o->a;
	const struct profile_shared **links;
	size_t n = 0;
	int ret;

	for (size_t p = 0; p < in->n_profiles; p++)
		n += in->profiles[p]->n_links;
	links = calloc(n ? n : 1, sizeof(*links));
	if (!links)
		return -ENOMEM;
	n = 0;
	for (size_t p = 0; p < in->n_profiles; p++)
		for (size_t g = 0; g < in->profiles[p]->n_links; g++)
			links[n++] = &in->profiles[p]->links[g];
	a.links = links;
	a.n_links = n;
	a.policies_from = in->policies_from;
	ret = advisor_plan_make(in->devs, facts, in->n_devs, in->policies, &a, plan, err, errlen);
	if (*plan)	/* the plan keeps no pointer to links past its warnings */
		(*plan)->links = NULL, (*plan)->n_links = 0;
	free(links);
	return ret;
}

/* The width plan text is wrapped to: $COLUMNS when set (40 or more, as ls),
 * else the terminal's, else 80. */
static int text_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long c;

	if (env && *env) {
		c = strtol(env, &end, 10);
		if (!*end && c >= 40 && c <= 100000)
			return (int)c;
	}
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

/* r->print to stdout; text is wrapped to text_width() (render_wrap). */
static int print_plan(const struct plan_render_ops *r, const struct advisor_plan *plan)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int ret;

	if (r != &plan_render_text || !(m = open_memstream(&buf, &len)))
		return r->print(stdout, plan);
	ret = r->print(m, plan);
	if (fclose(m) != 0) {
		free(buf);
		return -ENOMEM;
	}
	if (!ret)
		render_wrap(stdout, buf, len, text_width());
	free(buf);
	return ret;
}

static int make_and_print(const struct plan_opts *o, const struct score_inputs *in,
			  const struct plan_disks *disks)
{
	const struct advisor_disk **facts = calloc(in->n_devs ? in->n_devs : 1, sizeof(*facts));
	struct advisor_plan *plan = NULL;
	char err[256] = "";
	int ret, rc = TW_EXIT_OK;

	if (!facts)
		return TW_EXIT_SYSTEM;
	for (size_t i = 0; i < in->n_devs; i++)
		facts[i] = plan_disks_match(disks, in->devs[i]);
	rc = check_includes(o, in, facts);
	if (rc != TW_EXIT_OK) {
		free(facts);
		return rc;
	}
	ret = plan_with_links(o, in, facts, &plan, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tierwise plan: %s\n", err[0] ? err : strerror(-ret));
		rc = ret == -ENOMEM ? TW_EXIT_SYSTEM : TW_EXIT_INVALID;
	} else if (print_plan(o->render, plan)) {
		if (fflush(stdout) != 0 || ferror(stdout)) {
			rc = TW_EXIT_SYSTEM;	/* a write error: main's close_stdout() names it */
		} else {
			fprintf(stderr, "tierwise plan: the plan cannot be written safely as %s "
				"(a mount point, label or serial with characters it cannot hold)\n",
				o->render->name);
			rc = TW_EXIT_INVALID;
		}
	}
	if (rc == TW_EXIT_OK && (o->render == &plan_render_text || o->render == &plan_render_md))
		cli_print_policies_from(stdout, in, "");
	if (rc == TW_EXIT_OK && o->save_json)
		rc = save_json(plan, o->save_json);
	advisor_plan_free(plan);
	free(facts);
	return rc;
}

/*
 * One host per plan: profiles of two hosts (both named) are refused, since
 * an array or a volume cannot span machines.  Profiles of one host (a
 * re-probe) merge.  Buying plans a new server from catalogs: any host.
 * Returns TW_EXIT_OK or TW_EXIT_USAGE (said on stderr).
 */
static int one_host(const struct plan_opts *o, const struct score_inputs *in,
		    char *const *files)
{
	for (size_t i = 0; !o->a.buy && i < in->n_profiles; i++)
		for (size_t j = i + 1; j < in->n_profiles; j++) {
			const char *a = in->profiles[i]->host, *b = in->profiles[j]->host;

			if (!a || !b || !strcmp(a, b))
				continue;
			fprintf(stderr, "tierwise plan: %s (host %s) and %s (host %s) are profiles "
				"of two hosts: a plan is for one server (an array or a volume "
				"cannot span machines); plan each host apart (`tierwise plan %s`), "
				"or compare them with `tierwise fleet %s %s`\n", files[i], a,
				files[j], b, files[i], files[i], files[j]);
			return TW_EXIT_USAGE;
		}
	return TW_EXIT_OK;
}

/* What names one physical device across re-probes: its serial, else its
 * path, else its id as the profile gave it (before "label:" was added). */
static const char *identity(const struct profile_device *d)
{
	const char *c;

	if (d->serial && d->serial[0])
		return d->serial;
	if (d->path && d->path[0])
		return d->path;
	c = strchr(d->id, ':');
	return c ? c + 1 : d->id;
}

static bool same_host(const struct profile *a, const struct profile *b)
{
	return (!a->host && !b->host) || (a->host && b->host && !strcmp(a->host, b->host));
}

/* Was device d of profile i probed again in a later profile of its host? */
static bool reprobed(const struct score_inputs *in, size_t i, const struct profile_device *d)
{
	for (size_t j = i + 1; j < in->n_profiles; j++)
		for (size_t k = 0; same_host(in->profiles[i], in->profiles[j]) &&
		     k < in->profiles[j]->n_devices; k++)
			if (!strcmp(identity(d), identity(&in->profiles[j]->devices[k])))
				return true;
	return false;
}

/*
 * Profiles of one host merge: a device probed again in a later profile
 * (same serial, path or id) is that device once, with the later figures —
 * never an array with itself.  in->devs is compacted; says how many on
 * stderr.
 */
static void merge_reprobes(struct score_inputs *in)
{
	size_t m = 0, dropped = 0;

	for (size_t i = 0; i < in->n_profiles; i++)
		for (size_t j = 0; j < in->profiles[i]->n_devices; j++) {
			const struct profile_device *d = &in->profiles[i]->devices[j];
			bool keep = !reprobed(in, i, d);

			for (size_t k = m + dropped; keep && k < in->n_devs; k++)
				if (in->devs[k] == d) {
					in->devs[m++] = d;
					break;
				}
			dropped += !keep;
		}
	if (dropped)
		fprintf(stderr, "tierwise plan: %zu device%s probed again in a later profile of "
			"the same host: the later figures are used\n", dropped,
			dropped == 1 ? "" : "s");
	in->n_devs = m;
}

/* --buy needs prices: some device with a price per TB and a capacity. */
static int priced(const struct plan_opts *o, const struct score_inputs *in)
{
	for (size_t i = 0; i < in->n_devs; i++)
		if (!isnan(in->devs[i]->price_per_tb) && in->devs[i]->capacity_bytes > 0)
			return TW_EXIT_OK;
	if (!o->a.buy)
		return TW_EXIT_OK;
	fprintf(stderr, "tierwise plan: --buy: no device of the catalog has a price, so nothing "
		"can be bought: give prices per TB with --prices FILE (lines of MODEL = PRICE), "
		"or a catalog whose devices carry price_per_tb\n");
	return TW_EXIT_USAGE;
}

/*
 * Each --need names a policy the plan places: an unknown name is listed with
 * the nearest one; a policy of no placement tier (boot: ranked by `score`,
 * the OS disk left where it is) is refused, not silently ignored.  Returns
 * TW_EXIT_OK or TW_EXIT_INVALID.
 */
static bool placed_tier(const char *tier)
{
	return tw_tier_find(tier) >= 0;
}

static int check_needs(const struct plan_opts *o, const struct model_policy_set *set)
{
	for (size_t k = 0; k < o->a.n_needs; k++) {
		const char *name = o->needs[k].policy;
		const struct model_policy *p = model_policy_set_find(set, name);

		if (!p) {
			cli_no_policy("plan --need", set, name);
			return TW_EXIT_INVALID;
		}
		if (!placed_tier(p->tier)) {
			fprintf(stderr, "tierwise plan: --need %s: the %s policy (tier %s) is "
				"ranked by `tierwise score` but placed by no plan (the OS disk "
				"stays where it is); a need goes to a hot, warm or cold policy\n",
				name, name, p->tier);
			return TW_EXIT_INVALID;
		}
	}
	return TW_EXIT_OK;
}

/* Load the profiles files[0..n) and the facts, make the plan and print it. */
static int plan_files(const struct plan_opts *o, char *const *files, size_t n,
		      const struct tw_global *g)
{
	struct score_inputs in;
	struct plan_disks disks = { 0 };
	int rc = cli_score_inputs_load("plan", &in, files, n, o->policies, o->prices);

	if (rc != TW_EXIT_OK)
		return rc;
	if ((rc = check_needs(o, in.policies)) != TW_EXIT_OK) {
		cli_score_inputs_free(&in);
		return rc;
	}
	if (!in.n_devs) {	/* not "0 devices; total score -300.0" */
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "%s%s", i ? ", " : "tierwise plan: ", files[i]);
		fprintf(stderr, ": no device in the profile%s: nothing to plan (probe some "
			"first: `tierwise probe -o FILE`)\n", n > 1 ? "s" : "");
		cli_score_inputs_free(&in);
		return TW_EXIT_INVALID;
	}
	rc = one_host(o, &in, files);
	if (rc == TW_EXIT_OK && !o->a.buy)
		merge_reprobes(&in);
	if (rc == TW_EXIT_OK)
		rc = priced(o, &in);
	if (rc != TW_EXIT_OK) {
		cli_score_inputs_free(&in);
		return rc;
	}
	rc = load_disks(o, g, &disks);
	if (rc == TW_EXIT_OK)
		rc = make_and_print(o, &in, &disks);
	plan_disks_free(&disks);
	cli_score_inputs_free(&in);
	return rc;
}

static int plan_run(int argc, char **argv, struct tw_global *g)
{
	struct plan_opts o = { 0 };
	int rc = plan_parse(argc, argv, &o);

	struct cli_output out;

	if (rc < 0 && (rc = cli_output_open(&out, "plan", o.output)) == TW_EXIT_OK)
		rc = cli_output_close(&out, plan_files(&o, argv + optind,
							(size_t)(argc - optind), g));
	for (size_t i = 0; i < o.a.n_needs; i++)
		free(o.need_names[i]);
	free(o.include_buf);
	return rc;
}

int cli_plan_profile(const char *profile, const char *format, const char *save_json,
		     struct tw_global *g)
{
	struct plan_opts o = { .render = &plan_render_text, .save_json = save_json };
	char *files[] = { (char *)profile };
	int rc = format ? parse_format(&o, format) : 0;

	o.a.needs = o.needs;
	return rc ? rc : plan_files(&o, files, 1, g);
}

const struct tw_command tw_cmd_plan = {
	.name = "plan",
	.summary = "the hot/warm/cold placement plan, warnings and mount suggestions",
	.run = plan_run,
	.usage = plan_usage,
};
