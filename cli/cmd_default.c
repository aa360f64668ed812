/* `tierwise` with no command: the inventory, a quick probe of it all, the plan.
 * The profile and the plan are saved (never thrown away): to the files named
 * by -o, else to tierwise-HOST-DATE.json and .plan.json in the current
 * directory; where that cannot be written, the output says nothing was saved
 * and how to save it. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

struct default_job {
	struct cli_probe_req probe;
	const char *format;
	char profile[512], plan[520];
	bool temporary;		/* the profile lives in a temporary file */
};

static void default_usage(FILE *out)
{
	fputs("Usage: tierwise [--sysroot DIR] [OPTIONS]\n\n"
	      "The inventory, a quick read-only probe of every device `list` marks safe\n"
	      "and of a scratch file on each mounted filesystem, then the plan.  The\n"
	      "profile and the plan are saved to tierwise-HOST-DATE.json and\n"
	      "tierwise-HOST-DATE.plan.json in the current directory (or -o FILE).\n\n"
	      "  -o FILE          save the profile to FILE (the plan to FILE.plan.json)\n"
	      "  --format F       how the plan is printed: text (default), json, md,\n"
	      "                   fstab, udev, script\n"
	      "  --full           the published recipe: 30 s per test, up to 120 s sustained\n"
	      "  --destructive    write tests on the devices safe for them (blank disks),\n"
	      "                   each after its name is typed (or --yes)\n"
	      "  --yes            do not ask (for scripts)\n"
	      "  --quiet          no progress display\n"
	      "  -h, --help       this help\n\n"
	      "Exit: 0 all measured, 4 some tests or targets failed (see the notes),\n"
	      "3 nothing could be measured, 2 usage error.\n", out);
}

static int parse(struct default_job *j, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "full", no_argument, NULL, 'f' },
		{ "destructive", no_argument, NULL, 'D' },
		{ "yes", no_argument, NULL, 'y' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":hqo:", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			cli_deprecated(NULL, "--json FILE", "-o FILE");
			j->probe.json = optarg;
			break;
		case 'o': j->probe.json = optarg; break;
		case 'F': j->format = optarg; break;
		case 'f': j->probe.full = true; break;
		case 'D': j->probe.destructive = true; break;
		case 'y': j->probe.yes = true; break;
		case 'q': j->probe.quiet = true; break;
		case 'h': default_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option(NULL, c, argv, opts);
		}
	}
	if (optind < argc)
		return cli_usage_error(NULL, "unknown command '%s'", argv[optind]);
	if (j->probe.json && !strcmp(j->probe.json, "-"))
		return cli_usage_error(NULL, "-o -: the default job saves its profile to a file "
				       "(use `tierwise probe --format json` for standard output)");
	return -1;
}

/* FILE.json → FILE.plan.json; another name → NAME.plan.json. */
static void plan_name(struct default_job *j)
{
	size_t n = strlen(j->profile);

	if (n > 5 && !strcmp(j->profile + n - 5, ".json"))
		n -= 5;
	snprintf(j->plan, sizeof(j->plan), "%.*s.plan.json", (int)n, j->profile);
}

/* The default names, or a temporary profile when the directory is not writable. */
static int choose_files(struct default_job *j)
{
	char host[64] = "host", stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int fd, ret;

	if (j->probe.json) {
		snprintf(j->profile, sizeof(j->profile), "%s", j->probe.json);
	} else if (access(".", W_OK) == 0) {
		gethostname(host, sizeof(host) - 1);
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		snprintf(j->profile, sizeof(j->profile), "tierwise-%s-%s.json", host, stamp);
	} else {
		snprintf(j->profile, sizeof(j->profile), "%s/tierwise-profile.XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		fd = mkstemp(j->profile);
		if (fd < 0) {
			fprintf(stderr, "tierwise: cannot create a temporary profile in %s: %s\n",
				getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", strerror(errno));
			return TW_EXIT_SYSTEM;
		}
		close(fd);
		j->temporary = true;
	}
	plan_name(j);
	ret = cli_check_output(NULL, "-o", j->profile);
	if (!ret && !j->temporary)
		ret = cli_check_output(NULL, "plan file", j->plan);
	if (ret)
		return ret;
	j->probe.json = j->profile;
	return 0;
}

static void say_saved(const struct default_job *j, bool plan_saved)
{
	FILE *out = j->probe.out ? j->probe.out : stdout;

	if (j->temporary) {
		fprintf(stderr, "\ntierwise: nothing was saved (the current directory is not "
			"writable): run `tierwise -o FILE` to keep the profile and the plan\n");
		return;
	}
	fprintf(out, "\nSaved: the profile in %s%s%s.\nNext: tierwise plan %s --format script > "
	       "plan.sh (also --format fstab, udev, md, json)\n", j->profile,
	       plan_saved ? ", the plan in " : "", plan_saved ? j->plan : "", j->profile);
}

int cli_default_job(int argc, char **argv, struct tw_global *g)
{
	struct default_job j = { 0 };
	int ret = parse(&j, argc, argv), pret;

	if (ret >= 0)
		return ret;
	ret = choose_files(&j);
	/* a plan in a machine format (fstab, script, json) alone on stdout */
	if (j.format && strcmp(j.format, "text") && strcmp(j.format, "md"))
		j.probe.out = stderr;
	if (!ret)
		ret = cli_list_print(g, &list_render_text, j.probe.out ? j.probe.out : stdout);
	if (ret) {
		if (j.temporary)
			unlink(j.profile);
		return ret;
	}
	fputc('\n', j.probe.out ? j.probe.out : stdout);
	fflush(stdout);
	pret = cli_probe_everything(&j.probe, g);
	if (pret == TW_EXIT_OK || pret == TW_EXIT_PARTIAL) {
		fputc('\n', j.probe.out ? j.probe.out : stdout);
		fflush(stdout);
		ret = cli_plan_profile(j.profile, j.format, j.temporary ? NULL : j.plan, g);
		say_saved(&j, ret == TW_EXIT_OK);
		if (ret == TW_EXIT_OK)
			ret = pret;
	} else {
		ret = pret;
	}
	if (j.temporary)
		unlink(j.profile);
	return ret;
}
