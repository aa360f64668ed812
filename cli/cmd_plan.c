/* tierwise plan — the hot/warm/cold placement plan from profiles. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plan.h"
#include "plan_disks.h"
#include "render_plan.h"
#include "score.h"

#define MAX_NEEDS 32

static void plan_usage(FILE *out)
{
	fputs("Usage: tierwise plan PROFILE... [--policies DIR] [--need POLICY=SIZE,...]\n"
	      "                     [--inventory FILE | --no-inventory] [--mount TIER=PATH]\n"
	      "                     [--fill PCT] [--prices FILE]\n"
	      "                     [--format text|json|md|fstab|udev|script]\n\n"
	      "Assign the devices of the profiles to the tiers hot (vector-db,\n"
	      "logs-metadata), warm (model-loading, checkpoints) and cold (archive):\n"
	      "the assignment with the highest total score that meets each tier's\n"
	      "capacity need, with the runner-up, like devices grouped into md arrays,\n"
	      "warnings from the data and mount suggestions.  Nothing is changed:\n"
	      "--format script writes a script that does nothing without --apply.\n\n"
	      "Options:\n"
	      "  --policies DIR     the policy directory (default: ./policies, else\n"
	      "                     $TW_SRCDIR/policies, else the installed ones);\n"
	      "                     a tier's policies come from it\n"
	      "  --need P=SIZE,...  capacity a policy needs (500G, 4T), instead of its\n"
	      "                     need_bytes; repeatable\n"
	      "  --inventory FILE   what `tierwise list --json` wrote, to know existing\n"
	      "                     filesystems, mounts and the root disk (default:\n"
	      "                     this machine, matched by serial or device path)\n"
	      "  --no-inventory     plan as if every disk were new (catalog planning)\n"
	      "  --mount TIER=PATH  mount point of a tier (default /srv/vector-db,\n"
	      "                     /srv/models, /srv/archive)\n"
	      "  --fill PCT         usable share of each device (default 80)\n"
	      "  --prices FILE      prices per TB: lines of MODEL = PRICE\n"
	      "  --format F         text (default), json (tierwise.plan/1), md,\n"
	      "                     fstab, udev, script\n\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error, 3 system error.\n\n"
	      "Example: tierwise plan examples/ai-server-20-devices.json --need archive=20T\n",
	      out);
}

struct plan_opts {
	const char *policies, *prices, *inventory;
	bool no_inventory;
	struct advisor_need needs[MAX_NEEDS];
	char *need_names[MAX_NEEDS];
	struct advisor_options a;
	const struct plan_render_ops *render;
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

		if (!eq || eq == tok || k == MAX_NEEDS) {
			rc = cli_usage_error("plan", "--need %s: expected POLICY=SIZE", tok);
			break;
		}
		*eq = '\0';
		if (model_parse_size(eq + 1, &o->needs[k].bytes)) {
			rc = cli_usage_error("plan", "--need %s=%s: not a size (500G, 4T)", tok, eq + 1);
			break;
		}
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
	t = advisor_tier_parse(tier);
	if (t < 0)
		return cli_usage_error("plan", "--mount %s: unknown tier (hot, warm, cold)", arg);
	if (eq[1] != '/')
		return cli_usage_error("plan", "--mount %s: the mount point must be absolute", arg);
	o->a.mount_point[t] = eq + 1;
	return 0;
}

static int parse_format(struct plan_opts *o, const char *arg)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i]->name, arg)) {
			o->render = formats[i];
			return 0;
		}
	return cli_usage_error("plan", "unknown format '%s' (text, json, md, fstab, udev, script)", arg);
}

static int parse_fill(struct plan_opts *o, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (*end || !(v > 0 && v <= 100))
		return cli_usage_error("plan", "--fill %s: a percentage in (0, 100]", arg);
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	o->render = &plan_render_text;
	o->a.needs = o->needs;
	while (!rc && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'P': o->policies = optarg; break;
		case 'n': rc = parse_needs(o, optarg); break;
		case 'i': o->inventory = optarg; break;
		case 'I': o->no_inventory = true; break;
		case 'm': rc = parse_mount(o, optarg); break;
		case 'f': rc = parse_fill(o, optarg); break;
		case 'r': o->prices = optarg; break;
		case 'F': rc = parse_format(o, optarg); break;
		case 'h': plan_usage(stdout); return TW_EXIT_OK;
		default: return cli_usage_error("plan", "unknown option");
		}
	}
	if (rc)
		return rc;
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
				       "write it with `tierwise list --json > FILE`, "
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
	ret = advisor_plan_make(in->devs, facts, in->n_devs, in->policies, &o->a, &plan,
				err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tierwise plan: %s\n", err[0] ? err : strerror(-ret));
		rc = ret == -ENOMEM ? TW_EXIT_SYSTEM : TW_EXIT_INVALID;
	} else if (o->render->print(stdout, plan)) {
		fprintf(stderr, "tierwise plan: the plan cannot be written safely as %s "
			"(a mount point, label or serial with characters it cannot hold)\n",
			o->render->name);
		rc = TW_EXIT_INVALID;
	}
	advisor_plan_free(plan);
	free(facts);
	return rc;
}

static int plan_run(int argc, char **argv, struct tw_global *g)
{
	struct plan_opts o = { 0 };
	struct score_inputs in;
	struct plan_disks disks = { 0 };
	int rc = plan_parse(argc, argv, &o);

	if (rc < 0)
		rc = cli_score_inputs_load(&in, argv + optind, (size_t)(argc - optind),
					   o.policies, o.prices);
	else
		goto out;
	if (rc != TW_EXIT_OK)
		goto out;
	rc = load_disks(&o, g, &disks);
	if (rc == TW_EXIT_OK)
		rc = make_and_print(&o, &in, &disks);
	plan_disks_free(&disks);
	cli_score_inputs_free(&in);
out:
	for (size_t i = 0; i < o.a.n_needs; i++)
		free(o.need_names[i]);
	return rc;
}

const struct tw_command tw_cmd_plan = {
	.name = "plan",
	.summary = "the hot/warm/cold placement plan, warnings and mount suggestions",
	.run = plan_run,
	.usage = plan_usage,
};
