/* tierwise — measure block devices, score them against workload policies,
 * and plan hot / warm / cold storage tiers.  main() is scaffolding only. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tw_util.h"

static const struct tw_command *const commands[] = { &tw_cmd_list, &tw_cmd_probe,
	&tw_cmd_validate, &tw_cmd_score, &tw_cmd_explain, &tw_cmd_plan, &tw_cmd_report,
	&tw_cmd_compare, &tw_cmd_fleet, &tw_cmd_export, &tw_cmd_import, &tw_cmd_verify };
#define N_COMMANDS (ARRAY_SIZE(commands))

static void usage(FILE *out)
{
	fputs("Usage: tierwise [--sysroot DIR] [COMMAND [OPTIONS]]\n"
	      "       tierwise [--sysroot DIR] [-o FILE] [--format F] [--full] [--quiet]\n"
	      "                [--destructive [--yes]]\n\n"
	      "Measure block devices, score them against workload policies and plan\n"
	      "hot / warm / cold storage tiers.  With no command: the device inventory,\n"
	      "a quick probe of every device and mounted filesystem, then the plan; the\n"
	      "profile and the plan are saved to tierwise-HOST-DATE.json and\n"
	      "tierwise-HOST-DATE.plan.json (or -o FILE and FILE.plan.json);\n"
	      "--format prints the plan as text, json, md, fstab, udev or script.\n\n"
	      "Commands:\n", out);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\nOptions:\n"
	      "  --sysroot DIR  read /sys, /proc and /dev under DIR (recorded machines)\n"
	      "  -h, --help     this help; 'tierwise help COMMAND' or 'tierwise COMMAND\n"
	      "                 --help' for a command\n"
	      "  -V, --version  print the version\n\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error, 3 system error,\n"
	      "4 partial success (probe: some targets or tests failed), 5 verify: a\n"
	      "workload outside the tolerance of its estimate, 130/143\n"
	      "interrupted (SIGINT/SIGTERM; probe keeps what it measured).\n\n"
	      "Example: tierwise list --format json\n", out);
}

static const struct tw_command *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

/* "unknown command 'plna'; did you mean 'plan'?" (help: what for help
 * COMMAND).  Returns TW_EXIT_USAGE. */
static int unknown_command(const char *what, const char *name)
{
	const char *names[N_COMMANDS + 1];
	const char *near;

	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i]->name;
	names[N_COMMANDS] = "help";
	near = cli_nearest(name, names, N_COMMANDS + 1);
	if (near)
		return cli_usage_error(NULL, "%sunknown command '%s'; did you mean '%s'?", what,
				       name, near);
	return cli_usage_error(NULL, "%sunknown command '%s'", what, name);
}

/* The errno of the last failed write to standard output (0: none). */
static int stdout_errno;

/* Standard output's writes, recording why one failed: stdio keeps only an
 * error flag, and errno is long overwritten when the command ends. */
static ssize_t stdout_write(void *cookie, const char *buf, size_t len)
{
	size_t done = 0;

	(void)cookie;
	while (done < len) {
		ssize_t n = write(STDOUT_FILENO, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			stdout_errno = n < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* stdout through stdout_write(), buffered as stdio buffers it (by line on a
 * terminal).  Left as it is when the stream cannot be made. */
static void open_stdout(void)
{
	static const cookie_io_functions_t io = { .write = stdout_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return;
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	stdout = f;
}

/*
 * Standard output checked at the end, as util-linux's close_stdout() does: a
 * full disk or a closed descriptor under `> file` is an error with its
 * reason (the errno stdout_write() recorded), never a silent success.
 * Returns rc, or TW_EXIT_SYSTEM.
 */
static int close_stdout(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (stdout_errno == EPIPE)	/* a closed pipe (| head): the reader chose to stop */
		return rc;
	fprintf(stderr, "tierwise: write error on standard output: %s\n",
		strerror(stdout_errno ? stdout_errno : EIO));
	return rc ? rc : TW_EXIT_SYSTEM;
}

/* The global options before the command: --sysroot, --help, --version.
 * Returns the index of the first other argument, or -(exit code + 1). */
static int global_opts(int argc, char **argv, struct tw_global *g)
{
	int i = 1;

	for (; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--sysroot")) {
			if (++i >= argc)
				return -cli_usage_error(NULL, "--sysroot needs a directory") - 1;
			g->sysroot = argv[i];
		} else if (!strncmp(a, "--sysroot=", 10)) {
			g->sysroot = a + 10;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return -TW_EXIT_OK - 1;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("tierwise %s\n", TW_VERSION);
			return -TW_EXIT_OK - 1;
		} else {
			break;
		}
	}
	return i;
}

static int dispatch(int argc, char **argv, struct tw_global *g)
{
	const struct tw_command *cmd;
	int i = global_opts(argc, argv, g);

	if (i < 0)
		return -i - 1;
	if (cli_check_sysroot(NULL, g->sysroot))
		return TW_EXIT_SYSTEM;
	optind = 0;	/* getopt starts afresh for the command's own parsing */
	opterr = 0;	/* and says nothing: each command says what was wrong, once */
	if (i >= argc || argv[i][0] == '-') {	/* the default job and its options */
		argv[i - 1] = argv[0];
		return cli_default_job(argc - i + 1, argv + i - 1, g);
	}
	if (!strcmp(argv[i], "help")) {	/* tierwise help [COMMAND] */
		cmd = i + 1 < argc ? find_command(argv[i + 1]) : NULL;
		if (i + 1 < argc && !cmd)
			return unknown_command("help: ", argv[i + 1]);
		if (cmd)
			cmd->usage(stdout);
		else
			usage(stdout);
		return TW_EXIT_OK;
	}
	cmd = find_command(argv[i]);
	if (!cmd)
		return unknown_command("", argv[i]);
	return cmd->run(argc - i, argv + i, g);
}

int main(int argc, char **argv)
{
	struct tw_global g = { 0 };

	open_stdout();
	return close_stdout(dispatch(argc, argv, &g));
}
