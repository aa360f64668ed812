/* report.h — `tierwise report`: one self-contained HTML file (private to cli/).
 *
 * Data first, rendering second (docs/report.md):
 *   render_report_plan.c   the plan as the report shows it (struct report_plan),
 *                          from the advisor run in-process or a tierwise.plan/1 file
 *   render_report_data.c   the key metrics (paths into metrics.h), bars per
 *                          metric, the sweep knee, the sustained-write cache cliff
 *   render_report_svg.c    HTML escaping, scales (linear/log), axes
 *   render_report_charts.c the bar, sweep and sustained-write charts
 *   render_report.c        the document: head and CSS, device table, plan
 * Nothing here prints to stderr or picks exit codes: cmd_report.c does.
 */
#ifndef TW_REPORT_H
#define TW_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "advisor.h"
#include "metrics.h"
#include "plan_file.h"
#include "profile.h"
#include "render.h"

struct advisor_plan;

/* ---- the plan (render_report_plan.c) ----------------------------------
 * Strings are borrowed from what the plan was made from (the advisor's
 * plan or the parsed JSON document), which report_plan keeps alive.  A
 * tier, an estimate, a mount, a warning and a line to buy are the plan
 * file's (plan_file.h), whichever it came from.
 */
struct report_plan {
	const char *source;		/* where it came from, for the reader */
	struct advisor_file_tier tiers[TW_TIER_COUNT];	/* hot, warm, cold */
	/* per tier, per device: a buy plan's copy ("optane905p-2") → its
	 * catalog entry's id ("optane905p"); NULL = a device there */
	const char **origins[TW_TIER_COUNT];
	size_t n_unassigned;
	const char **unassigned;
	size_t n_warnings;
	struct advisor_file_warning *warnings;
	double score, runner_up_gap;	/* NAN = unknown / no runner-up */
	bool exact;
	size_t n_notes;
	const char **notes;
	/* money: priced = some device has a price (the tiers' cost mean something) */
	bool priced;
	double cost_total;		/* Σ tier costs; NAN = unknown */
	bool buying;			/* a buy plan (`tierwise plan --buy`): its
					   devices are copies of catalog entries */
	double budget;			/* NAN = none */
	size_t n_buy;
	struct advisor_file_buy *buy;		/* by tier, most bought first */
	/* private: what the strings point into, and every array allocated */
	struct advisor_plan *owned_plan;
	void *owned_json;
	size_t n_allocs, cap_allocs;
	void **allocs;
};

/*
 * The report's view of plan, which it takes over (freed with the result,
 * also on failure).  Returns 0 and *out (free with report_plan_free()), or
 * -ENOMEM.
 */
int report_plan_from_advisor(struct advisor_plan *plan, struct report_plan **out);

/*
 * Read a tierwise.plan/1 file (tiers, devices, estimates, warnings, mounts,
 * costs, a buy plan's shopping list).  Returns 0 and *out, -EINVAL with a message in err (not JSON, wrong schema,
 * a key of the wrong type), -errno when unreadable, or -ENOMEM.
 */
int report_plan_from_json(const char *path, struct report_plan **out,
			  char *err, size_t errlen);

/* Free a plan view and what it owns.  NULL-safe. */
void report_plan_free(struct report_plan *rp);

/*
 * The tier ("hot", "warm", "cold") that holds device id, or, in a buy plan,
 * the first tier id (a catalog entry) is bought for; NULL when none.
 * NULL-safe.
 */
const char *report_plan_tier_of(const struct report_plan *rp, const char *id);

/* How many copies of catalog entry id a buy plan buys (0: none).  NULL-safe. */
unsigned report_plan_bought(const struct report_plan *rp, const char *id);

/*
 * Whether rp fits the devices it is shown with (devs, n): every device
 * the plan names (tiers, shared_with, unassigned, warnings; in a buy plan
 * the catalog entry of each copy and each line of the shopping list) is one
 * of devs.  Returns 0, or -EINVAL with a one-line message in err (how many
 * do not fit and the first few ids).
 */
int report_plan_check(const struct report_plan *rp, const struct profile_device *const *devs,
		      size_t n, char *err, size_t errlen);

/* ---- data for the charts (render_report_data.c) ---------------------- */

/* One figure of the device table, a metric of the table (metrics.h) by
 * path; chart: it also gets a bar chart. */
struct report_metric {
	const char *key;		/* data-metric: "rand_read_qd1.iops" */
	bool chart;
};

extern const struct report_metric report_metrics[];
extern const size_t report_n_metrics;

/* The metric table's row of report_metrics[k] (column head, chart title,
 * unit, which way is better, value), or NULL when k >= report_n_metrics. */
const struct model_metric_desc *report_metric_desc(size_t k);

struct report_bar {
	const struct profile_device *dev;
	double value;			/* NAN = not measured: an empty slot */
	const char *tier;		/* NULL = none */
	size_t order;			/* position in devs (ties keep it) */
};

/*
 * One bar per device for metric m, best first, devices without the figure
 * last (in profile order).  Returns 0 and out->v (free()), or -ENOMEM.
 */
struct report_bars {
	size_t n;
	struct report_bar *v;
};
int report_bars_make(const struct model_metric_desc *m, const struct profile_device *const *devs,
		     size_t n, const struct report_plan *rp, struct report_bars *out);

/* The knee of a queue-depth sweep. */
struct report_knee {
	long qd;
	double iops, p99_us;
	const char *basis;		/* "latency target" or "p99 doubles" */
};

/*
 * The knee of d's sweep: lat_target.qd when the profile has one that is a
 * point of the sweep; else the last depth before p99 more than doubles while
 * IOPS grows less than 20 %.  Returns true and fills k, or false (no knee).
 */
bool report_sweep_knee(const struct profile_device *d, struct report_knee *k);

/* Whether d has at least one sweep point with both IOPS and p99. */
bool report_has_sweep(const struct profile_device *d);

/*
 * Seconds into the sustained write where the cache ran out: the first
 * sample by which the samples before it (each lasting until the next) have
 * written cliff_after_gb GB, when the profile gives it and the series gets
 * there; else the first sample after the first that is below 70 % of the
 * initial rate (initial_mbps, else the mean of the first 3 samples) and
 * after which the rate stays below that on average (a dip that recovers is
 * no cliff; probe/cliff.h's rule).  Returns true and *t, *basis, or false.
 */
bool report_sustained_cliff(const struct profile_sustained *s, double *t, const char **basis);

/* ---- HTML and SVG helpers (render_report_svg.c) ----------------------- */


/* A number for a label: "83,989", "2.3", "0.12"; "-" for NAN. */
void rh_num(char *buf, size_t len, double v);

/* A short tick label: "500", "20k", "1.5M". */
void rh_tick(char *buf, size_t len, double v);

enum svg_mode { SVG_LINEAR, SVG_LOG, SVG_AUTO };	/* AUTO: log when max/min > 20 */

/* A scale from data [lo, hi] to pixels [p0, p1]. */
struct svg_scale {
	double lo, hi, p0, p1;
	bool log;
};

/*
 * A scale covering [min, max] (finite, min ≤ max; log needs min > 0, else
 * it falls back to linear).  from_zero: a linear scale starts at 0.
 * Bounds are rounded out to powers of ten (log) or nice steps (linear).
 */
void svg_scale_init(struct svg_scale *s, double min, double max, double p0, double p1,
		    enum svg_mode mode, bool from_zero);

/* The pixel position of v (clamped to the scale). */
double svg_at(const struct svg_scale *s, double v);

/* Up to max tick values of s into ticks; returns how many. */
size_t svg_ticks(const struct svg_scale *s, double *ticks, size_t max);

/* Axes with ticks, grid lines and a title ("…, log scale" when log). */
struct svg_frame {
	double left, top, right, bottom;	/* plot area in pixels */
};
void svg_axis_x(FILE *out, const struct svg_scale *s, const struct svg_frame *f,
		const char *title);
void svg_axis_y(FILE *out, const struct svg_scale *s, const struct svg_frame *f,
		const char *title, bool right);

/* ---- the document (render_report.c, render_report_charts.c) ----------- */

struct report_input {
	const struct profile *const *profiles;
	size_t n_profiles;
	const struct profile_device *const *devs;	/* every device of every profile */
	size_t n_devs;
	const struct report_plan *plan;	/* NULL: --no-plan */
	const char *policies_from;	/* where the policies came from, or NULL
					   (none read: --plan or --no-plan) */
};

/* Write the whole report.  Returns 0, -ENOMEM, or -EIO when out failed. */
int report_render_html(FILE *out, const struct report_input *in);

/* Sections (render_report_charts.c).  Each returns 0 or -ENOMEM. */
int report_section_bars(FILE *out, const struct report_input *in);
int report_section_sweep(FILE *out, const struct report_input *in);
int report_section_sustained(FILE *out, const struct report_input *in);
/* The iorate curve (render_report_iorate.c): latency against delivered IOPS. */
int report_section_iorate(FILE *out, const struct report_input *in);
bool report_any_iorate(const struct report_input *in);

/* Whether some device has a sweep / a sustained-write series. */
bool report_any_sweep(const struct report_input *in);
bool report_any_series(const struct report_input *in);

/* The plan section (render_report.c). */
void report_section_plan(FILE *out, const struct report_input *in);

#endif
