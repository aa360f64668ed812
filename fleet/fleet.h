/* fleet.h — many servers at once: a directory of profiles (and the plans
 * beside them) read into one struct, grouped by drive model, with the
 * fleet's median, min and max of each key figure and the drives that fall
 * 20 % or more below their model's median (docs/fleet.md).
 *
 * Data only: renderers (render/render_fleet.h) print a struct fleet; nothing
 * here prints or exits.  Functions return 0 or -errno.
 */
#ifndef TW_FLEET_H
#define TW_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics.h"
#include "profile.h"
#include "tw_diag.h"
#include "tw_tier.h"

#define FLEET_SCHEMA "tierwise.fleet/1"
#define FLEET_OUTLIER_PCT 20.0	/* a drive this far below its model's median */
#define FLEET_MIN_GROUP 3	/* a median of fewer drives names no outlier */

/* One key figure of a device: a metric of the table (metrics.h), by path;
 * the list drives the statistics and renderers (fleet_metrics.c). */
struct fleet_metric {
	const char *key;		/* "rand_read_qd1.iops" */
	bool outliers;			/* whether a low value is an outlier */
};

extern const struct fleet_metric fleet_metrics[];
extern const size_t fleet_n_metrics;

/* The metric table's row of fleet_metrics[i] (unit, which way is better,
 * label, value), or NULL when i >= fleet_n_metrics. */
const struct model_metric_desc *fleet_metric_desc(size_t i);

/*
 * How d's figure m was measured, into buf: the probe's target and mode and,
 * for an I/O test, its block size and queue depth ("raw_readonly quick
 * bs=4096 qd=1").  Only figures measured the same way are compared.
 */
void fleet_method(const struct profile_device *d, const struct model_metric_desc *m,
		  char *buf, size_t len);

/* ---- plans beside the profiles (fleet_plan.c) ------------------------- */

struct fleet_warning {
	char *device;			/* NULL = the whole plan */
	char *kind, *message;
};

/* What the fleet keeps of a tierwise.plan/1 document. */
struct fleet_plan {
	char *path;
	double score;			/* NAN = unknown */
	size_t n_tier[TW_TIER_COUNT];
	char **tier[TW_TIER_COUNT];	/* device ids per tier */
	size_t n_unassigned;
	size_t n_warnings;
	struct fleet_warning *warnings;
};

/*
 * Read the tierwise.plan/1 file path.  Returns 0 and *out (free with
 * fleet_plan_free()), -EINVAL with err set (not JSON, another schema, a key
 * of the wrong type), -errno when unreadable, or -ENOMEM.
 */
int fleet_plan_read(const char *path, struct fleet_plan **out, char *err, size_t len);

/* Free a plan.  NULL-safe. */
void fleet_plan_free(struct fleet_plan *p);

/* The tier name ("hot", …) that plan p gave device id, or NULL.  NULL-safe. */
const char *fleet_plan_tier_of(const struct fleet_plan *p, const char *id);

/*
 * The plan file beside profile path: X.json -> X.plan.json (X -> X.plan.json).
 * Returns a malloc'd path, or NULL on allocation failure.
 */
char *fleet_plan_path_for(const char *profile_path);

/* ---- the fleet (fleet.c, fleet_stats.c) -------------------------------- */

struct fleet_host {
	char *name;			/* the profile's host; the file's name when two collide */
	char *profile_path;
	struct profile *profile;
	struct fleet_plan *plan;	/* NULL = no plan beside the profile */
};

/* The fleet's figures of one model, one metric, one way of measuring. */
struct fleet_stat {
	const char *model;		/* borrowed from a profile */
	size_t metric;			/* index into fleet_metrics */
	char *method;
	size_t n;			/* devices */
	double median, min, max;
};

struct fleet_outlier {
	size_t host;			/* index into hosts */
	const struct profile_device *dev;
	size_t stat;			/* index into stats */
	double value;
	double pct_below;		/* how far below the median, in performance terms */
};

struct fleet_kind_count {
	char *kind;
	size_t n;
};

/* A model's place in stats: stats[first .. first+n) (sorted by model). */
struct fleet_model {
	const char *model;
	size_t first, n_stats;
	size_t n_devices, n_hosts;
	size_t n_drives;		/* physical drives: namespaces of one drive
					 * (one drive_id on one host) count once */
};

struct fleet {
	size_t n_hosts;
	struct fleet_host *hosts;
	size_t n_devices, n_plans;
	size_t n_stats;
	struct fleet_stat *stats;	/* sorted by model, then metric, then method */
	size_t n_models;
	struct fleet_model *models;
	size_t n_outliers;
	struct fleet_outlier *outliers;	/* furthest below first */
	size_t n_kinds;
	struct fleet_kind_count *kinds;	/* plan warnings by kind, most first */
};

/*
 * Read a fleet: each path is a profile file or a directory, whose *.json
 * files are read as profiles (sorted by name; *.plan.json and *.fleet.json
 * are not profiles, nor is a *.plan.json file given by name).  Each profile's plan is read from beside it when
 * present (fleet_plan_path_for()).  Then the statistics are made
 * (fleet_analyse()).
 *
 * Returns 0 and *out (free with fleet_free()); -EINVAL when a profile or a
 * plan is invalid (every problem appended to diags, with its file, line,
 * column and key) or when no profile was found (err says so); -errno when a
 * path cannot be read (err names it); -ENOMEM.
 */
int fleet_load(char *const *paths, size_t n, struct fleet **out, struct tw_diags *diags,
	       char *err, size_t len);

/*
 * (Re)make f's statistics from its hosts: per model, metric and method the
 * median, min and max; the outliers; the warnings by kind.  Returns 0 or
 * -ENOMEM (f's statistics are then empty).
 */
int fleet_analyse(struct fleet *f);

/* Free what fleet_analyse() computed (stats, models, outliers, warning
 * kinds); f keeps its hosts and can be analysed again. */
void fleet_clear_stats(struct fleet *f);

/* Free a fleet and everything it owns.  NULL-safe. */
void fleet_free(struct fleet *f);

/* The median of v[0..n) (sorted in place).  NAN when n is 0. */
double fleet_median(double *v, size_t n);

#endif
