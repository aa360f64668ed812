/* tierwise validate — check profiles and policies strictly. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "inputs.h"
#include "policy.h"
#include "profile.h"

static void validate_usage(FILE *out)
{
	fputs("Usage: tierwise validate FILE...\n\n"
	      "Check tierwise.profile/1 documents and workload policies (*.yaml).\n"
	      "Prints one line per problem on stderr as FILE:LINE:COLUMN: key: what\n"
	      "is wrong, and one line per valid file on stdout saying what it holds.\n\n"
	      "Exit codes: 0 every file is valid, 1 some file is not, 2 usage error.\n\n"
	      "Example: tierwise validate examples/ai-server-18-devices.json\n", out);
}

static bool is_policy(const char *path)
{
	size_t n = strlen(path);

	return (n > 5 && !strcmp(path + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(path + n - 4, ".yml"));
}

/* Returns true when path is a valid profile (or policy, *.yaml); problems
 * go to stderr. */
static bool validate_one(const char *path)
{
	struct tw_diags d = { 0 };
	struct profile *p = NULL;
	struct model_policy *pol = NULL;
	int ret = is_policy(path) ? model_policy_load_file(path, &pol, &d) :
				    profile_read_file(path, &p, &d);

	if (ret == -EINVAL || d.n)
		cli_print_diags(&d);
	else if (ret < 0)
		fprintf(stderr, "%s: cannot read: %s\n", path, strerror(-ret));
	else if (pol)
		printf("%s: valid: the policy %s (tier %s)\n", path, pol->name, pol->tier);
	else
		printf("%s: valid: a tierwise.profile/1 of %zu device%s\n", path, p->n_devices,
		       p->n_devices == 1 ? "" : "s");
	tw_diags_clear(&d);
	profile_free(p);
	model_policy_free(pol);
	return ret == 0;
}

static int validate_run(int argc, char **argv, struct tw_global *g)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool ok = true;
	int c;

	(void)g;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'h') {
			validate_usage(stdout);
			return TW_EXIT_OK;
		}
		return cli_bad_option("validate", c, argv, opts);
	}
	if (optind >= argc)
		return cli_usage_error("validate", "no file given");
	for (int i = optind; i < argc; i++)
		ok &= validate_one(argv[i]);
	return ok ? TW_EXIT_OK : TW_EXIT_INVALID;
}

const struct tw_command tw_cmd_validate = {
	.name = "validate",
	.summary = "check profiles and policies; FILE:LINE:COLUMN: key: problem",
	.run = validate_run,
	.usage = validate_usage,
};
