/* compare.h — tierwise compare: two profiles side by side (private to cli/).
 *
 * compare.c pairs the devices of a BEFORE and an AFTER profile (a swap, or
 * the same slot after a firmware change), puts the figures that matter side
 * by side and scores both devices of each pair against every policy.
 * render_compare.c prints the result as text, Markdown or tierwise.compare/1
 * JSON.  Nothing here prints except the renderers; docs/compare.md.
 */
#ifndef TW_COMPARE_H
#define TW_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "score.h"

/* Within this many % (°C for temperatures, points for scores): "same". */
#define COMPARE_SAME_PCT 1.0
#define COMPARE_SAME_C 1.0
#define COMPARE_SAME_POINTS 1.0

enum compare_dir { CMP_SAME, CMP_BETTER, CMP_WORSE, CMP_UNKNOWN };

/* How a pair was found. */
enum compare_match { CMP_BY_SWAP, CMP_BY_SERIAL, CMP_BY_ID, CMP_BY_PATH };

/* One figure on both devices of a pair. */
struct compare_metric {
	const struct model_metric_desc *desc;	/* path, unit, which way is better */
	const char *label;	/* "sequential write": the table's compare label */
	bool in_celsius;	/* a temperature: the change is in °C, not in % */
	double before, after;	/* in the metric's unit; NAN = unknown there */
	double delta;		/* after − before; NAN when a side is unknown */
	double change_pct;	/* NAN when a side is unknown, before is 0, or °C */
	enum compare_dir dir;	/* CMP_UNKNOWN when a side is unknown */
};

#define COMPARE_MAX_METRICS 16

/* One policy on both devices of a pair. */
struct compare_policy {
	const struct model_policy *policy;
	struct model_score before, after;	/* owned: model_score_clear() */
	enum compare_dir verdict;
	size_t n_now_fails, n_now_passes;
	const struct model_failure *now_fails[MODEL_MAX_FAILURES];	/* in after */
	const struct model_failure *now_passes[MODEL_MAX_FAILURES];	/* in before */
};

/* A probe setting that differs between the two sides of a pair: the
 * figures were not measured the same way. */
struct compare_caveat {
	char setting[48];	/* "engine", "rand_read_qd1 queue depth", … */
	char before[48], after[48];	/* the values, as text */
};

#define COMPARE_MAX_CAVEATS 24

struct compare_pair {
	const struct profile_device *before, *after;
	enum compare_match by;
	bool same_device;	/* one device compared with itself (id, model, serial) */
	size_t n_caveats;
	struct compare_caveat caveats[COMPARE_MAX_CAVEATS];
	size_t n_metrics;	/* figures known on at least one side */
	struct compare_metric metrics[COMPARE_MAX_METRICS];
	size_t n_policies;	/* = the set's size, in set order */
	struct compare_policy *policies;
};

struct compare {
	size_t n_pairs;
	struct compare_pair *pairs;	/* in BEFORE's device order */
	size_t n_only_before, n_only_after;
	const struct profile_device **only_before, **only_after;
};

/*
 * Pair the devices of before and after and fill *out (overwritten): metrics
 * and a score per policy of set for every pair.  The profiles and set must
 * outlive *out.  Returns 0, or -ENOMEM (then *out holds nothing to free).
 * Release with compare_clear().
 */
int compare_build(const struct profile *before, const struct profile *after,
		  const struct model_policy_set *set, struct compare *out);

/* Free what compare_build() allocated in c.  NULL-safe. */
void compare_clear(struct compare *c);

/* "same", "better", "worse", "unknown". */
const char *compare_dir_name(enum compare_dir d);

/* "swap", "serial", "id", "path". */
const char *compare_match_name(enum compare_match m);

/* Renderers of one comparison. */
struct compare_render_ops {
	const char *name;
	void (*print)(FILE *out, const struct compare *c);
};
extern const struct compare_render_ops compare_render_text, compare_render_md,
	compare_render_json;

#endif
