/* render_explain.h — tierwise explain: one device against another for one
 * policy, as data (struct explain_case, filled by cli/cmd_explain.c) and its
 * renderers (render_explain.c: text, Markdown, tierwise.explain/1 JSON).
 *
 * Every row carries both values, which way is better and who wins, so that
 * the case is two-sided: the policy's metrics, then the figures a buyer
 * always asks about (QD1 and QD32 latency and IOPS, sequential read and
 * write, the 70/30 mix, capacity, price per TB and per IOPS), then the
 * policy's estimates in user terms.
 */
#ifndef TW_RENDER_EXPLAIN_H
#define TW_RENDER_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "score.h"

/* Where a row comes from. */
enum explain_kind {
	EXPLAIN_POLICY,		/* a metric of the policy (weight, maybe 0) */
	EXPLAIN_CONTEXT,	/* a figure shown for context, not scored */
	EXPLAIN_PRICE,		/* price per TB or per IOPS */
	EXPLAIN_ESTIMATE,	/* an estimate of the policy, in user terms */
};

/* Who wins a row. */
enum explain_winner {
	EXPLAIN_UNKNOWN,	/* a side was not measured */
	EXPLAIN_A,
	EXPLAIN_B,
	EXPLAIN_TIE,		/* within 1 % of each other */
};

struct explain_row {
	const char *metric;	/* profile path, "price_per_iops.qd1", "estimate.search" (static) */
	const char *words;	/* what it is in words, without unit ("random 4 KiB read, QD1, median latency") */
	const char *brief;	/* short, for the summaries ("QD1 median latency") */
	const char *unit;	/* "µs", "IOPS", "bytes", "s", "per TB", … (static) */
	enum explain_kind kind;
	enum model_better better;
	double a, b;		/* NAN = not measured */
	double weight;		/* the policy's weight; NAN when not scored */
	enum explain_winner winner;
	double factor;		/* larger ÷ smaller value, ≥ 1; NAN when unknown,
				   INFINITY when one side is 0 */
	char source[40];	/* the measurement it comes from: the first part of
				   its metric path ("rand_read_qd1"), of an
				   estimate's first basis, or "price" */
};

#define EXPLAIN_MAX_ROWS 64

struct explain_case {
	const struct model_policy *policy;
	const struct model_score *a, *b;	/* b == a: the same device */
	bool same_serial;	/* two entries with one serial number: one device measured twice */
	const char *suggest;	/* same device: another id to name with --vs, or NULL */
	int decisive;		/* row of the policy metric that decides most, or -1 */
	const char *policies_from;	/* where the policies came from, or NULL */
	size_t n;
	struct explain_row rows[EXPLAIN_MAX_ROWS];
	char text[EXPLAIN_MAX_ROWS][2][128];	/* the workload rows' metric and words */
};

/*
 * Renderers of an explain_case.  print() writes to out only and returns 0,
 * -ENOMEM, or -EIO when a write failed.
 */
struct explain_render_ops {
	const char *name;
	int (*print)(FILE *out, const struct explain_case *x);
};
extern const struct explain_render_ops explain_render_text, explain_render_md,
	explain_render_json;

/*
 * A row's label in words with its unit and direction: "random 4 KiB read,
 * QD1, median latency (µs, lower is better)".  Always NUL-terminated.
 */
void render_explain_label(char *buf, size_t len, const struct explain_row *r);

/*
 * The first device against the second on a row, in words: "3.8× faster",
 * "742× slower", "11.1× more expensive", "the same (within 1 %)"; a
 * temperature as the difference, "12 °C hotter"; "-" when a side is
 * unknown.  Never a ratio that rounds to 0 or 1.00.
 */
void render_explain_ratio(char *buf, size_t len, const struct explain_row *r);

#endif
