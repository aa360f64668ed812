/* tierwise score — rank the devices of profiles against workload policies. */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "inputs.h"
#include "score.h"
#include "tw_tier.h"

static void score_usage(FILE *out)
{
	fputs("Usage: tierwise score PROFILE... [--policy NAME] [--policies DIR]\n"
	      "                      [--prices FILE] [--format text|json] [-o FILE]\n\n"
	      "Score every device of the profiles against each workload policy and\n"
	      "rank them: eligible devices first (hard constraints), then by score\n"
	      "(0-100, over the metrics that were measured), then by confidence.\n\n"
	      "Options:\n"
	      "  --policy NAME   only this policy\n"
	      "  --policies DIR  the policy directory (default: ./policies, else\n"
	      "                  $TW_SRCDIR/policies, else the installed\n"
	      "                  PREFIX/share/tierwise/policies, else the ones\n"
	      "                  built into tierwise)\n"
	      "  --prices FILE   prices per TB for devices without one: lines of\n"
	      "                  MODEL = PRICE (or ID = PRICE, or a tab for '=')\n"
	      "  --format F      text (default) or json (tierwise.score/1)\n"
	      "  -o FILE         write to FILE (atomically) instead of standard output\n\n"
	      "Exit codes: 0 success, 1 invalid input (also a profile with no device),\n"
	      "2 usage error, 3 no memory.\n\n"
	      "Example: tierwise score examples/ai-server-18-devices.json --policy vector-db\n",
	      out);
}

/* A policy tier's place: hot, warm, cold (tw_tier.h), then any other (boot). */
static size_t tier_place(const char *tier)
{
	int t = tw_tier_find(tier);

	return t < 0 ? TW_TIER_COUNT : (size_t)t;
}

/* Rank for every policy of the set, or only `only`: hot → warm → cold →
 * boot, by name within a tier (the set's order).  Returns an exit code. */
static int rank_all(const struct cli_inputs *in, const char *only,
		    struct model_ranking **r, size_t *n)
{
	const struct model_policy_set *set = in->policies;

	*n = 0;
	if (only && !model_policy_set_find(set, only)) {
		cli_no_policy("score", set, only);
		return TW_EXIT_INVALID;
	}
	for (size_t t = 0; t <= TW_TIER_COUNT; t++)
		for (size_t i = 0; i < set->n; i++) {
			if (tier_place(set->v[i]->tier) != t ||
			    (only && strcmp(set->v[i]->name, only)))
				continue;
			if (model_rank(set->v[i], in->devs, in->n_devs, &r[*n]) < 0)
				return TW_EXIT_SYSTEM;
			(*n)++;
		}
	return TW_EXIT_OK;
}

struct score_opts {
	const char *policy, *policies, *prices, *output;
	const struct score_render_ops *render;
};

/* Parse options into o.  Returns -1 to go on, else the exit code. */
static int score_parse(int argc, char **argv, struct score_opts *o)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "policies", required_argument, NULL, 'P' },
		{ "prices", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "json" };
	int c, f;

	o->render = &score_render_text;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'p': o->policy = optarg; break;
		case 'P': o->policies = optarg; break;
		case 'r': o->prices = optarg; break;
		case 'j':
			cli_deprecated("score", "--json", "--format json");
			o->render = &score_render_json;
			break;
		case 'F':
			if ((f = cli_pick_format("score", optarg, formats, 2)) < 0)
				return TW_EXIT_USAGE;
			o->render = f ? &score_render_json : &score_render_text;
			break;
		case 'o': o->output = optarg; break;
		case 'h': score_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option("score", c, argv, opts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("score", "no profile given");
	return -1;
}

static int score_run(int argc, char **argv, struct tw_global *g)
{
	struct score_opts o = { 0 };
	struct cli_inputs in;
	struct model_ranking **r = NULL;
	size_t n = 0;
	int rc = score_parse(argc, argv, &o);

	struct cli_output out;

	(void)g;
	if (rc >= 0)
		return rc;
	rc = cli_output_open(&out, "score", o.output);
	if (rc)
		return rc;
	rc = cli_inputs_load("score", &in, argv + optind, (size_t)(argc - optind),
				   o.policies, o.prices);
	if (rc == TW_EXIT_OK && !in.n_devs) {	/* as plan: nothing to rank is bad input */
		for (int i = optind; i < argc; i++)
			fprintf(stderr, "%s%s", i > optind ? ", " : "tierwise score: ", argv[i]);
		fprintf(stderr, ": no device in the profile%s: nothing to rank (probe some "
			"first: `tierwise probe -o FILE`)\n", argc - optind > 1 ? "s" : "");
		cli_inputs_free(&in);
		rc = TW_EXIT_INVALID;
	}
	if (rc != TW_EXIT_OK)
		return cli_output_close(&out, rc);
	r = calloc(in.policies->n, sizeof(*r));
	rc = r ? rank_all(&in, o.policy, r, &n) : TW_EXIT_SYSTEM;
	if (rc == TW_EXIT_OK) {
		o.render->print(stdout, r, n, in.policies_from);
		if (o.render == &score_render_text)
			cli_print_policies_from(stdout, &in, "");
	}
	for (size_t i = 0; i < n; i++)
		model_ranking_free(r[i]);
	free(r);
	cli_inputs_free(&in);
	return cli_output_close(&out, rc);
}

const struct tw_command tw_cmd_score = {
	.name = "score",
	.summary = "rank the devices of profiles against workload policies",
	.run = score_run,
	.usage = score_usage,
};
