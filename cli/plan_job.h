/* plan_job.h — what the plan command's options (cmd_plan.c) and the making
 * of a plan (plan_job.c) share.  Private to cli/. */
#ifndef TW_CLI_PLAN_JOB_H
#define TW_CLI_PLAN_JOB_H

#include <stdbool.h>

#include "plan.h"
#include "render_plan.h"

struct tw_global;

#define CLI_PLAN_MAX_NEEDS 32

struct cli_plan_opts {
	const char *policies, *prices, *inventory;
	bool no_inventory, buy_opt;
	bool strict;		/* exit TW_EXIT_UNMET when a need is unmet */
	struct advisor_need needs[CLI_PLAN_MAX_NEEDS];
	char *need_names[CLI_PLAN_MAX_NEEDS];
	char *include_buf;		/* the --include-removable list, split */
	const char *include[CLI_PLAN_MAX_NEEDS];
	struct advisor_options a;
	const struct render_plan_ops *render;
	const char *save_json;	/* also write tierwise.plan/1 here (the default job) */
	const char *output;	/* -o FILE; NULL = stdout */
};

/* The renderer named arg (text, json, md, fstab, udev, script) into
 * o->render.  Returns 0, or TW_EXIT_USAGE after a usage error. */
int cli_plan_format(struct cli_plan_opts *o, const char *arg);

/*
 * Load the profiles files[0..n) (with the policies and prices o names) and
 * the inventory facts, make the plan and print it to stdout in o->render;
 * o->save_json, when set, also gets it as tierwise.plan/1.  Returns the
 * exit code (every problem said on stderr).
 */
int cli_plan_files(const struct cli_plan_opts *o, char *const *files, size_t n,
		   const struct tw_global *g);

#endif
