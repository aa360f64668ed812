/* metrics.h — the metric table: every tierwise.profile/1 figure a policy may
 * name, described once, as lsblk's colinfo describes a column: its path,
 * unit, help, which way is better, its labels in words and where its value
 * lives in a device.  Compare, explain, fleet and the report keep lists of
 * paths and look the rest up here (metrics.c).
 */
#ifndef TW_METRICS_H
#define TW_METRICS_H

#include <stddef.h>

#include "profile.h"

/* Which way a figure is better. */
enum model_better { MODEL_BETTER_HIGHER, MODEL_BETTER_LOWER };

/* "higher" / "lower"; NULL when out of range. */
const char *model_better_name(enum model_better b);

/* How metric values are found in a device (private to metrics.c). */
enum model_metric_kind { MODEL_MK_DOUBLE, MODEL_MK_LONG, MODEL_MK_I64 };

/*
 * One metric.  Each label is the metric's name in one place of the output;
 * the places name some metrics differently and each keeps its words.  A
 * label is NULL where that place has none (model_metric_label() says what
 * stands in).
 */
struct model_metric_desc {
	const char *path;	/* "rand_read_qd1.lat_us.p99", as in the profile */
	const char *unit;	/* "µs", "IOPS", "MB/s", "bytes", … */
	const char *help;	/* one line for --help and docs */
	enum model_better better;
	const char *words;	/* long label: "random 4 KiB read, QD1, p99 latency" */
	const char *brief;	/* short label: "QD1 p99 latency" */
	const char *compare;	/* compare's, when not brief: "QD1 random read" */
	const char *fleet;	/* fleet's, when not brief: "QD1 read latency, p99" */
	const char *title;	/* the report's chart: "Random 4 KiB read at QD1, p99 latency" */
	const char *head;	/* the report's table column: "QD1 p99 µs" */
	int test;		/* the enum profile_io_test it is a figure of, or -1 */
	/* private: where the value lives in struct profile_device */
	enum model_metric_kind kind;
	size_t off;
};

/* Number of metrics in the table (stable order: the profile's order). */
size_t model_metric_count(void);

/* The i-th metric, or NULL when i >= model_metric_count(). */
const struct model_metric_desc *model_metric_at(size_t i);

/* The metric named path, or NULL when there is none (NULL-safe). */
const struct model_metric_desc *model_metric_find(const char *path);

/*
 * The value of metric m on device d, in the metric's unit.  Returns NAN
 * when the figure was not measured (absent or null in the profile).
 */
double model_metric_value(const struct profile_device *d,
			  const struct model_metric_desc *m);

/* The places that name metrics, each with a label column of its own. */
enum model_label {
	MODEL_LABEL_WORDS,	/* explain's long label */
	MODEL_LABEL_BRIEF,	/* explain's short label */
	MODEL_LABEL_COMPARE,	/* compare's table: its own, else brief */
	MODEL_LABEL_FLEET,	/* fleet's pages: its own, else brief */
	MODEL_LABEL_TITLE,	/* the report's chart titles */
	MODEL_LABEL_HEAD,	/* the report's device table */
};

/* m's label for place l, or NULL when it has none there.  NULL-safe. */
const char *model_metric_label(const struct model_metric_desc *m, enum model_label l);

/*
 * What device d costs: its price per decimal TB × its capacity in TB.
 * NAN when the price or the capacity is unknown.
 */
double model_device_price(const struct profile_device *d);

#endif
