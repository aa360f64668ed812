/* tierwise import fio — fio's JSON output into a tierwise.profile/1. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fio_import.h"
#include "profile.h"
#include "tw_size.h"

static void import_usage(FILE *out)
{
	fputs("Usage: tierwise import fio FILE... [-o FILE] [--host NAME]\n"
	      "                                  [--capacity ID=SIZE,...]\n\n"
	      "Turn fio's JSON output (fio --output-format=json or json+) into a\n"
	      "tierwise.profile/1 that score, plan, explain and report read.  Each fio\n"
	      "job is mapped to a test by rw, bs, iodepth and numjobs (the queue depth\n"
	      "is iodepth x numjobs): read 1M -> seq_read, write 1M -> seq_write (the\n"
	      "longest of two or more -> sustained_write), randread 4k at QD1 ->\n"
	      "rand_read_qd1 and at QD32 -> rand_read_qd32, randrw 4k rwmixread=70 ->\n"
	      "mixed_70_30, randread 4k at three depths or more -> qd_sweep; clat\n"
	      "percentiles (or lat_ns, or json+ bins) -> lat_us.  One device per fio\n"
	      "filename, its id the file's base name.  fio's version and every job's\n"
	      "options are kept in the device's probe.engine and notes.  A job that maps\n"
	      "to no test is kept as a note and named on stderr.\n\n"
	      "Options:\n"
	      "  -o, --output FILE  write the profile to FILE (default: standard output)\n"
	      "  --host NAME        the profile's host (default: the first file's name\n"
	      "                     without .json)\n"
	      "  --capacity ID=SIZE,...  each device's size (fio does not say it; 0\n"
	      "                     without): 960G, 4T, 512Gi\n\n"
	      "Exit codes: 0 success, 1 invalid input (FILE:LINE:COLUMN: key: problem),\n"
	      "2 usage error, 3 system error.\n\n"
	      "Example: fio --output-format=json jobs.fio > fio.json\n"
	      "         tierwise import fio fio.json -o server.json && tierwise plan server.json\n",
	      out);
}

struct import_opts {
	const char *output, *host, *capacity;
};

/* Returns -1 to go on, else the exit code. */
static int import_parse(int argc, char **argv, struct import_opts *o)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "host", required_argument, NULL, 'H' },
		{ "capacity", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o->output = optarg; break;
		case 'H': o->host = optarg; break;
		case 'c': o->capacity = optarg; break;
		case 'h': import_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option("import", c, argv, opts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("import", "say what to import: tierwise import fio FILE...");
	if (strcmp(argv[optind], "fio"))
		return cli_usage_error("import", "'%s' is no format it imports: tierwise "
				       "import fio FILE...", argv[optind]);
	if (optind + 1 >= argc)
		return cli_usage_error("import", "no file given: tierwise import fio FILE...");
	return -1;
}

/* The default host: the first file's base name without ".json". */
static char *default_host(const char *path)
{
	const char *b = strrchr(path, '/');
	char *h = strdup(b ? b + 1 : path);
	size_t n = h ? strlen(h) : 0;

	if (n > 5 && !strcmp(h + n - 5, ".json"))
		h[n - 5] = '\0';
	return h;
}

/* Read every file into p; problems to stderr.  Returns the exit code. */
static int import_files(struct profile *p, char *const *files, size_t n,
			struct fio_import_result *res)
{
	struct tw_diags d = { 0 };
	char line[1024];
	int rc = TW_EXIT_OK;

	for (size_t i = 0; i < n; i++) {
		int r = fio_import_file(p, files[i], res, &d);

		if (r == -ENOMEM)
			rc = TW_EXIT_SYSTEM;
		else if (r < 0 && r != -EINVAL)
			fprintf(stderr, "tierwise import: %s: cannot read: %s\n", files[i],
				strerror(-r));
		if (r < 0 && rc == TW_EXIT_OK)
			rc = TW_EXIT_INVALID;
	}
	for (size_t i = 0; i < d.n; i++) {
		tw_diag_format(&d.v[i], line, sizeof(line));
		fprintf(stderr, "%s\n", line);
	}
	tw_diags_clear(&d);
	return rc;
}

/* One ID=SIZE of --capacity into p.  Returns the exit code. */
static int set_capacity(struct profile *p, char *item)
{
	char *eq = strchr(item, '=');
	uint64_t bytes;

	if (!eq)
		return cli_usage_error("import", "--capacity wants ID=SIZE, not '%s'", item);
	*eq = '\0';
	if (tw_size_parse(eq + 1, true, &bytes) < 0 || bytes > INT64_MAX)
		return cli_usage_error("import", "--capacity %s: '%s' is no size: %s", item,
				       eq + 1, TW_SIZE_FORMS);
	for (size_t i = 0; i < p->n_devices; i++) {
		if (strcmp(p->devices[i].id, item))
			continue;
		p->devices[i].capacity_bytes = (int64_t)bytes;
		return TW_EXIT_OK;
	}
	fprintf(stderr, "tierwise import: --capacity: no device \"%s\"; the devices are:", item);
	for (size_t i = 0; i < p->n_devices; i++)
		fprintf(stderr, " %s", p->devices[i].id);
	fputc('\n', stderr);
	return TW_EXIT_USAGE;
}

/* --capacity ID=SIZE,... into p.  Returns the exit code. */
static int set_capacities(struct profile *p, const char *arg)
{
	char *s = arg ? strdup(arg) : NULL, *save = NULL;
	int rc = TW_EXIT_OK;

	if (arg && !s)
		return TW_EXIT_SYSTEM;
	for (char *t = s ? strtok_r(s, ",", &save) : NULL; t && !rc; t = strtok_r(NULL, ",", &save))
		rc = set_capacity(p, t);
	free(s);
	return rc;
}

static int import_run(int argc, char **argv, struct tw_global *g)
{
	struct import_opts o = { 0 };
	struct fio_import_result res = { 0 };
	struct profile *p = NULL;
	char err[512];
	int rc = import_parse(argc, argv, &o);

	(void)g;
	if (rc >= 0)
		return rc;
	if ((rc = cli_check_output("import", "-o", o.output ? o.output : "-")))
		return rc;
	p = profile_new();
	if (!p)
		return TW_EXIT_SYSTEM;
	free(p->host);
	free(p->tool_name);
	p->host = o.host ? strdup(o.host) : default_host(argv[optind + 1]);
	p->tool_name = strdup("tierwise import fio");
	rc = import_files(p, argv + optind + 1, (size_t)(argc - optind - 1), &res);
	for (size_t i = 0; rc == TW_EXIT_OK && i < res.n_unmapped; i++)
		fprintf(stderr, "tierwise import: %s (kept as a note)\n", res.unmapped[i]);
	if (rc == TW_EXIT_OK && res.n_mapped == 0) {
		fprintf(stderr, "tierwise import: none of the %zu fio jobs maps to a test; "
			"nothing was written\n", res.n_jobs);
		rc = TW_EXIT_INVALID;
	}
	if (rc == TW_EXIT_OK)
		rc = set_capacities(p, o.capacity);
	if (rc == TW_EXIT_OK && (!p->host || !p->tool_name))
		rc = TW_EXIT_SYSTEM;
	if (rc == TW_EXIT_OK &&
	    profile_write_file(p, o.output ? o.output : "-", err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise import: %s: %s\n", o.output ? o.output : "-", err);
		rc = TW_EXIT_SYSTEM;
	}
	fio_import_result_free(&res);
	profile_free(p);
	return rc;
}

const struct tw_command tw_cmd_import = {
	.name = "import",
	.summary = "fio's JSON output into a profile: import fio FILE...",
	.run = import_run,
	.usage = import_usage,
};
