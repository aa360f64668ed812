/* tierwise compare — a device swap or a firmware change side by side: the
 * figures that matter with their change, and a verdict per policy. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inputs.h"
#include "compare.h"
#include "tw_util.h"

static void compare_usage(FILE *out)
{
	fputs("Usage: tierwise compare BEFORE.json AFTER.json [--policies DIR]\n"
	      "                        [--prices FILE] [--format text|md|json] [-o FILE]\n\n"
	      "Put two profiles side by side: a device swap (one device in each) or\n"
	      "the same slots after a firmware change (devices paired by serial, then\n"
	      "id, then path; unpaired ones are listed as only before / only after).\n"
	      "For each pair: the figures that matter before -> after with their\n"
	      "change (in %, temperatures in degrees C) and whether it is better or\n"
	      "worse; then every policy's score before -> after, its verdict (better,\n"
	      "worse, same within 1 point) and what it now fails or passes.\n\n"
	      "Options:\n"
	      "  --policies DIR  the policy directory (default: ./policies, else\n"
	      "                  $TW_SRCDIR/policies, else the installed ones)\n"
	      "  --prices FILE   prices per TB for devices without one (as for score)\n"
	      "  --format FMT    text (default), md (Markdown tables) or json\n"
	      "                  (tierwise.compare/1, see docs/compare.md)\n"
	      "  -o FILE         write to FILE (atomically) instead of standard output\n\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error, 3 no memory.\n\n"
	      "Example: tierwise compare ironwolf12t.json redpro10t.json --format md\n",
	      out);
}

struct compare_opts {
	const char *policies, *prices, *output;
	const struct compare_render_ops *render;
};

static const struct compare_render_ops *find_render(const char *name)
{
	static const struct compare_render_ops *const all[] = {
		&compare_render_text, &compare_render_md, &compare_render_json,
	};

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

/* Parse options into o.  Returns -1 to go on, else the exit code. */
static int compare_parse(int argc, char **argv, struct compare_opts *o)
{
	static const struct option opts[] = {
		{ "policies", required_argument, NULL, 'P' },
		{ "prices", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->render = &compare_render_text;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'P': o->policies = optarg; break;
		case 'r': o->prices = optarg; break;
		case 'f':
			o->render = find_render(optarg);
			if (!o->render)
				return cli_usage_error("compare",
						       "--format is text, md or json, not '%s'",
						       optarg);
			break;
		case 'o': o->output = optarg; break;
		case 'h': compare_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option("compare", c, argv, opts);
		}
	}
	if (argc - optind != 2)
		return cli_usage_error("compare", "give exactly two profiles, BEFORE and AFTER");
	return -1;
}

static int compare_run(int argc, char **argv, struct tw_global *g)
{
	struct compare_opts o = { 0 };
	struct cli_inputs in;
	struct compare c;
	int rc = compare_parse(argc, argv, &o);

	struct cli_output out;

	(void)g;
	if (rc >= 0)
		return rc;
	if ((rc = cli_output_open(&out, "compare", o.output)))
		return rc;
	rc = cli_inputs_load_unqualified("compare", &in, argv + optind, 2, o.policies, o.prices);
	if (rc != TW_EXIT_OK)
		return cli_output_close(&out, rc);
	if (compare_build(in.profiles[0], in.profiles[1], in.policies, &c) < 0) {
		fputs("tierwise compare: out of memory\n", stderr);
		rc = TW_EXIT_SYSTEM;
	} else {
		o.render->print(stdout, &c);
		compare_clear(&c);
	}
	cli_inputs_free(&in);
	return cli_output_close(&out, rc);
}

const struct tw_command tw_cmd_compare = {
	.name = "compare",
	.summary = "a device swap or firmware change side by side, per policy",
	.run = compare_run,
	.usage = compare_usage,
};
