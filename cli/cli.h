/* cli.h — the command layer: the only code that prints and picks exit codes. */
#ifndef TW_CLI_H
#define TW_CLI_H

#include <stdio.h>

#include "probe.h"

/* Exit codes, documented in --help and README.md. */
enum tw_exit {
	TW_EXIT_OK = 0,		/* success */
	TW_EXIT_INVALID = 1,	/* an input file is invalid (validate, read errors) */
	TW_EXIT_USAGE = 2,	/* bad command line */
	TW_EXIT_SYSTEM = 3,	/* the system failed us: sysfs unreadable, no memory */
	TW_EXIT_PARTIAL = 4,	/* probe: some targets or tests failed, the rest is kept */
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

/* `tierwise` with no arguments: inventory, then a quick probe. */
int cli_default_job(struct tw_global *g);

/* Print "tierwise CMD: message" and the --help hint to stderr; returns TW_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Inventory renderers: one data struct, several formats. */
struct list_render_ops {
	const char *name;
	void (*print)(FILE *out, const struct probe_inventory *inv);
};
extern const struct list_render_ops list_render_text, list_render_json;

/* Human size like lsblk: 894.3G (binary units). */
void cli_human_size(char *buf, size_t len, double bytes);

#endif
