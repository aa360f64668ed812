/* tierwise — measure block devices, score them against workload policies,
 * and plan hot / warm / cold storage tiers.  main() is scaffolding only. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct tw_command *const commands[] = { &tw_cmd_list, &tw_cmd_probe,
	&tw_cmd_validate, &tw_cmd_score, &tw_cmd_explain, &tw_cmd_plan, &tw_cmd_report,
	&tw_cmd_compare };
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tierwise%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'tierwise %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return TW_EXIT_USAGE;
}

static void usage(FILE *out)
{
	fputs("Usage: tierwise [--sysroot DIR] [COMMAND [OPTIONS]]\n\n"
	      "Measure block devices, score them against workload policies and plan\n"
	      "hot / warm / cold storage tiers.  With no command: the device inventory,\n"
	      "a quick probe of every device and mounted filesystem, then the plan.\n\n"
	      "Commands:\n", out);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\nOptions:\n"
	      "  --sysroot DIR  read /sys, /proc and /dev under DIR (recorded machines)\n"
	      "  -h, --help     this help; 'tierwise COMMAND --help' for a command\n"
	      "  -V, --version  print the version\n\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error, 3 system error,\n"
	      "4 partial success (probe: some targets or tests failed).\n\n"
	      "Example: tierwise list --json\n", out);
}

static const struct tw_command *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sysroot", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct tw_global g = { 0 };
	const struct tw_command *cmd;
	int c;

	while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
		switch (c) {
		case 's': g.sysroot = optarg; break;
		case 'h': usage(stdout); return TW_EXIT_OK;
		case 'V': printf("tierwise %s\n", TW_VERSION); return TW_EXIT_OK;
		default: return cli_usage_error(NULL, "unknown option");
		}
	}
	if (cli_check_sysroot(NULL, g.sysroot))
		return TW_EXIT_SYSTEM;
	if (optind >= argc) {
		optind = 0;
		return cli_default_job(&g);
	}
	cmd = find_command(argv[optind]);
	if (!cmd)
		return cli_usage_error(NULL, "unknown command '%s'", argv[optind]);
	argv += optind;
	argc -= optind;
	optind = 0;	/* reset getopt for the command's own parsing */
	return cmd->run(argc, argv, &g);
}
