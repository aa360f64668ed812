/* probe_cli.h — what the files of the probe command share: cmd_probe.c
 * (options), probe_job.c (a whole probe: inventory, targets, saving),
 * probe_targets.c (which targets: the named ones, or the whole machine) and
 * probe_one.c (running them).  Private to cli/. */
#ifndef TW_CLI_PROBE_CLI_H
#define TW_CLI_PROBE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "probe.h"
#include "profile.h"

struct tw_global;

struct probe_cli {
	struct probe_options o;
	const char *json;
	const char *textfile_dir;	/* --textfile DIR */
	char *textfile;		/* DIR/tierwise.prom, checked before the run */
	bool destructive, yes, quiet, format_json;
	bool no_links;		/* --no-links: no link pass */
	bool qd1_side;		/* --qd1-side-by-side: QD1 too, the spot check guarding it */
	unsigned jobs;		/* --jobs; 0 = auto: the CPUs for the whole
				 * machine and for two named devices or more */
	uint64_t size;
	struct probe_inventory *inv;
	struct profile *prof;
	int failed, done;
	FILE *out;		/* the summary; NULL = stdout */
	dev_t *fs_seen;		/* filesystems already given a scratch file */
	const char **fs_seen_at;
	size_t n_fs;
};

/* ---- running the targets (probe_one.c) ---- */

/* Probe device name (write tests when destructive, confirmed first);
 * a failure is counted in c->failed and said on stderr. */
void cli_probe_device(struct probe_cli *c, const char *name, bool destructive);

/* A scratch file in dir, once per filesystem (a line says when dir lands on
 * one already probed). */
void cli_probe_dir(struct probe_cli *c, const char *dir);

/* The devices names[0..n) read-only side by side (probe/schedule.c), then
 * the link pass; their results added to the profile in this order. */
void cli_probe_side_by_side(struct probe_cli *c, const char **names, size_t n);

/* The signal (SIGINT, SIGTERM) that interrupted the probe; 0 when none did. */
int cli_probe_interrupted(void);

/* From now on the first SIGINT or SIGTERM cancels the test running (through
 * c->o.cancel) and stops the probe; a second one ends the process. */
void cli_probe_catch_interrupts(struct probe_cli *c);

/* ---- which targets (probe_targets.c) ---- */

/* Run the targets[0..n) named on the command line, or with n == 0 every
 * target the whole machine offers. */
void cli_probe_targets(struct probe_cli *c, char **targets, int n);

/* ---- a whole probe (probe_job.c) ---- */

/*
 * Check the outputs c names, scan the inventory (g->sysroot), run the
 * targets[0..n) (none: the whole machine), then save the profile and print
 * the summary.  Frees what it allocated in c.  Returns the exit code.
 */
int cli_probe_execute(struct probe_cli *c, struct tw_global *g, char **targets, int n);

#endif
