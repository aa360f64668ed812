/* cli.h — the command layer: the only code that prints and picks exit codes. */
#ifndef TW_CLI_H
#define TW_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "probe.h"
#include "render.h"
#include "tw_outfile.h"

/* Exit codes, documented in --help and README.md. */
enum tw_exit {
	TW_EXIT_OK = 0,		/* success */
	TW_EXIT_INVALID = 1,	/* an input file is invalid (validate, read errors) */
	TW_EXIT_USAGE = 2,	/* bad command line */
	TW_EXIT_SYSTEM = 3,	/* the system failed us: sysfs unreadable, no memory */
	TW_EXIT_PARTIAL = 4,	/* probe: some targets or tests failed, the rest is kept */
	TW_EXIT_MISSED = 5,	/* verify: a workload is outside the tolerance of its estimate */
	TW_EXIT_UNMET = 6,	/* plan --strict: the plan is made, a capacity need is unmet */
};

/* Options that every command sees. */
struct tw_global {
	const char *sysroot;	/* NULL = live system */
};

struct tw_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv, struct tw_global *g);
	void (*usage)(FILE *out);
};

extern const struct tw_command tw_cmd_list, tw_cmd_validate, tw_cmd_probe;

/*
 * `tierwise` with no command: inventory, a quick probe, then the plan
 * (cmd_default.c).  argv[0] is the program; the rest are its options.
 * Returns the exit code.
 */
int cli_default_job(int argc, char **argv, struct tw_global *g);

/* What the default job asks of the probe. */
struct cli_probe_req {
	bool full, quiet, destructive, yes;
	const char *json;	/* save the profile here ("-" = stdout); NULL = not saved */
	FILE *out;		/* the summary table; NULL = stdout */
};

/*
 * Probe every device `list` marks safe (read-only; with destructive, write
 * tests on the devices safe for them, after confirmation) and a scratch file
 * on each mounted filesystem, then save the profile to r->json (unless nothing
 * was measured) and print the summary (probe_job.c).  Returns the probe's
 * exit code.
 */
int cli_probe_everything(const struct cli_probe_req *r, struct tw_global *g);

/*
 * Plan the one profile file profile and print it in format (NULL = text);
 * save_json, when not NULL, also gets the plan as tierwise.plan/1
 * (plan_job.c).  Returns the exit code.
 */
int cli_plan_profile(const char *profile, const char *format, const char *save_json,
		     struct tw_global *g);


struct option;

/*
 * The one message for an option getopt_long() refused, from its return ch
 * (optstrings start with ':', so a missing value is ':' and an unknown
 * option '?'; main() sets opterr = 0 so getopt prints nothing itself):
 * "option '--policy' needs a value", "unknown option '--polcy'; did you mean
 * '--policy'?", "unknown option '-q'".  Returns TW_EXIT_USAGE.
 */
int cli_bad_option(const char *cmd, int ch, char **argv, const struct option *opts);

/* The name of names[0..n) nearest to s when it is close enough to be a
 * typo, else NULL. */
const char *cli_nearest(const char *s, const char *const *names, size_t n);


/* "tierwise CMD: OLD is deprecated: use NOW …" on stderr (old spellings are
 * kept one release). */
void cli_deprecated(const char *cmd, const char *old, const char *now);

/* The index of arg in names[0..n), or -1 after a usage error that lists the
 * formats and the nearest one. */
int cli_pick_format(const char *cmd, const char *arg, const char *const *names, size_t n);

struct model_policy_set;
struct model_ranking;

/* "tierwise CMD: no policy "vectordb" (did you mean "vector-db"?); the
 * policies are: …" on stderr. */
void cli_no_policy(const char *cmd, const struct model_policy_set *set, const char *name);

/* The same for a device id not in ranking r, listing the ids. */
void cli_no_device(const char *cmd, const struct model_ranking *r, const char *id);

/* Print "tierwise CMD: message" and the --help hint to stderr; returns TW_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- the commands that score (cmd_score.c, cmd_explain.c, cmd_plan.c, ...) ---- */
extern const struct tw_command tw_cmd_score, tw_cmd_explain, tw_cmd_plan;
extern const struct tw_command tw_cmd_report, tw_cmd_compare;	/* cmd_report.c, cmd_compare.c */

/* ---- errors about paths (paths.c) ---- */

/* Print "tierwise[ CMD]: [OPT ]PATH: cannot WHAT: strerror(err)[ (FIX)]": the
 * path as tried, the option that named it (NULL: an argument) and the fix;
 * cmd NULL: a global option. */
void cli_path_error(const char *cmd, const char *opt, const char *path,
		    const char *what, int err, const char *fix);

/* cli_path_error() for an output file that could not be created (err from
 * fopen): when its directory is missing, the fix says so. */
void cli_output_error(const char *cmd, const char *opt, const char *path, int err);

/*
 * Before any work: TW_EXIT_OK when path may be written as an output file
 * ("-" is stdout; a regular file or a new path in an existing directory).
 * A device, a directory or a socket is refused: prints "tierwise CMD: OPT
 * PATH: why" and returns TW_EXIT_USAGE; a missing directory prints the fix
 * and returns TW_EXIT_SYSTEM.
 */
int cli_check_output(const char *cmd, const char *opt, const char *path);

/* -o FILE for a command that prints to standard output: while open, stdout
 * goes to a temporary file beside FILE; closing renames it over FILE, or
 * removes it when the command failed (FILE is then left as it was). */
struct cli_output {
	struct tw_outfile f;
	int saved;		/* the original stdout */
	bool active;
	const char *cmd, *path;
};

/* Start -o path (NULL or "-": stdout, nothing to do).  Checks the path first
 * (cli_check_output).  Returns TW_EXIT_OK or the exit code (message printed). */
int cli_output_open(struct cli_output *o, const char *cmd, const char *path);

/* Finish: commit when rc is TW_EXIT_OK and every write succeeded, else
 * abort.  Returns rc, or TW_EXIT_SYSTEM for a write error (printed). */
int cli_output_close(struct cli_output *o, int rc);

/*
 * Render into path ("-" = stdout) through tw_outfile, atomically: render(out,
 * arg) returns 0 or -errno (-EIO for a failed write, whose real errno is
 * then reported).  A failure is printed naming cmd and leaves a previous
 * file as it was.  Returns TW_EXIT_OK or TW_EXIT_SYSTEM.
 */
int cli_write_rendered(const char *cmd, const char *path,
		       int (*render)(FILE *out, const void *arg), const void *arg);

/* TW_EXIT_OK when sysroot is NULL or a directory; else prints the error
 * (what --sysroot wants) and returns TW_EXIT_SYSTEM. */
int cli_check_sysroot(const char *cmd, const char *sysroot);


/* ---- fleet and export (cmd_fleet.c, cmd_export.c) ---- */
extern const struct tw_command tw_cmd_fleet, tw_cmd_export;
extern const struct tw_command tw_cmd_import;	/* cmd_import.c */
extern const struct tw_command tw_cmd_verify;	/* cmd_verify.c */

struct prom_source;

/* ---- outputs shared by commands (outputs.c) ---- */

/* The file name of the textfile-collector file in a --textfile DIR. */
#define CLI_TEXTFILE_NAME "tierwise.prom"

/*
 * The textfile-collector file in dir (DIR/tierwise.prom), checked before
 * anything runs: dir must be a directory.  Returns a malloc'd path, or NULL
 * with *rc the exit code (the reason printed).
 */
char *cli_textfile_path(const char *cmd, const char *dir, int *rc);

/*
 * Write src[0..n) as Prometheus metrics to path ("-" = stdout), atomically.
 * Returns the exit code (a failure is printed, naming cmd).
 */
int cli_write_prom(const char *cmd, const char *path, const struct prom_source *src, size_t n);

/* Scan the inventory (g->sysroot) and print it with r to out.  Returns the exit code. */
int cli_list_print(const struct tw_global *g, const struct list_render_ops *r, FILE *out);
#endif
