/* tierwise plan: the making of a plan — load the profiles and the
 * inventory facts, make the plan and print it in the format asked for.
 * The plan command and the default job run it. */
#include <errno.h>
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

static const struct render_plan_ops *const formats[] = {
	&render_plan_text, &render_plan_json, &render_plan_md,
	&render_plan_fstab, &render_plan_udev, &render_plan_script,
};

int cli_plan_format(struct cli_plan_opts *o, const char *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(formats[i]->name, arg)) {
			o->render = formats[i];
			return 0;
		}
	return cli_usage_error("plan", "unknown format '%s' (text, json, md, fstab, udev, script)", arg);
}

/* Inventory facts: the file given, this machine (or --sysroot), or none. */
static int load_disks(const struct cli_plan_opts *o, const struct tw_global *g,
		      struct cli_plan_disks *disks)
{
	struct probe_inventory *inv = NULL;
	char err[512];
	int ret;

	disks->n = 0;
	disks->v = NULL;
	if (o->no_inventory)
		return TW_EXIT_OK;
	if (o->inventory) {
		ret = cli_plan_disks_load_json(o->inventory, disks, err, sizeof(err));
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
	ret = cli_plan_disks_from_inventory(inv, disks);
	probe_inventory_free(inv);
	return ret ? TW_EXIT_SYSTEM : TW_EXIT_OK;
}

/* Save the plan as tierwise.plan/1 JSON to path, atomically.  Returns an exit code. */
static int save_json(const struct advisor_plan *plan, const char *path)
{
	struct tw_outfile f;
	char err[256];
	int ret = tw_outfile_open(&f, path, err, sizeof(err));

	if (ret == 0 && render_plan_json.print(f.f, plan)) {
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
static int check_includes(const struct cli_plan_opts *o, const struct cli_inputs *in,
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
static int plan_with_links(const struct cli_plan_opts *o, const struct cli_inputs *in,
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
static int print_plan(const struct render_plan_ops *r, const struct advisor_plan *plan)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int ret;

	if (r != &render_plan_text || !(m = open_memstream(&buf, &len)))
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

static int make_and_print(const struct cli_plan_opts *o, const struct cli_inputs *in,
			  const struct cli_plan_disks *disks)
{
	const struct advisor_disk **facts = calloc(in->n_devs ? in->n_devs : 1, sizeof(*facts));
	struct advisor_plan *plan = NULL;
	char err[256] = "";
	int ret, rc = TW_EXIT_OK;

	if (!facts)
		return TW_EXIT_SYSTEM;
	for (size_t i = 0; i < in->n_devs; i++)
		facts[i] = cli_plan_disks_match(disks, in->devs[i]);
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
	if (rc == TW_EXIT_OK && (o->render == &render_plan_text || o->render == &render_plan_md))
		cli_print_policies_from(stdout, in, "");
	if (rc == TW_EXIT_OK && o->save_json)
		rc = save_json(plan, o->save_json);
	if (rc == TW_EXIT_OK && o->strict && plan->needs_met < (unsigned)plan->n_needs) {
		fprintf(stderr, "tierwise plan: %d of %d needs unmet (--strict; see the need "
			"warnings)\n", plan->n_needs - (int)plan->needs_met, plan->n_needs);
		rc = TW_EXIT_UNMET;
	}
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
static int one_host(const struct cli_plan_opts *o, const struct cli_inputs *in,
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
 * path, else its id as the profile gives it (without the "label:" that
 * qualifies it). */
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
static bool reprobed(const struct cli_inputs *in, size_t i, const struct profile_device *d)
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
static void merge_reprobes(struct cli_inputs *in)
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
static int priced(const struct cli_plan_opts *o, const struct cli_inputs *in)
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

static int check_needs(const struct cli_plan_opts *o, const struct model_policy_set *set)
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
int cli_plan_files(const struct cli_plan_opts *o, char *const *files, size_t n,
		   const struct tw_global *g)
{
	struct cli_inputs in;
	struct cli_plan_disks disks = { 0 };
	int rc = cli_inputs_load("plan", &in, files, n, o->policies, o->prices);

	if (rc != TW_EXIT_OK)
		return rc;
	if ((rc = check_needs(o, in.policies)) != TW_EXIT_OK) {
		cli_inputs_free(&in);
		return rc;
	}
	if (!in.n_devs) {	/* not "0 devices; total score -300.0" */
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "%s%s", i ? ", " : "tierwise plan: ", files[i]);
		fprintf(stderr, ": no device in the profile%s: nothing to plan (probe some "
			"first: `tierwise probe -o FILE`)\n", n > 1 ? "s" : "");
		cli_inputs_free(&in);
		return TW_EXIT_INVALID;
	}
	rc = one_host(o, &in, files);
	if (rc == TW_EXIT_OK && !o->a.buy)
		merge_reprobes(&in);
	if (rc == TW_EXIT_OK)
		rc = priced(o, &in);
	if (rc != TW_EXIT_OK) {
		cli_inputs_free(&in);
		return rc;
	}
	rc = load_disks(o, g, &disks);
	if (rc == TW_EXIT_OK)
		rc = make_and_print(o, &in, &disks);
	cli_plan_disks_free(&disks);
	cli_inputs_free(&in);
	return rc;
}

int cli_plan_profile(const char *profile, const char *format, const char *save_json,
		     struct tw_global *g)
{
	struct cli_plan_opts o = { .render = &render_plan_text, .save_json = save_json };
	char *files[] = { (char *)profile };
	int rc = format ? cli_plan_format(&o, format) : 0;

	o.a.needs = o.needs;
	return rc ? rc : cli_plan_files(&o, files, 1, g);
}
