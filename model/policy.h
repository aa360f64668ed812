/* policy.h — YAML workload policies: which measured metrics matter to a
 * workload, how much, and which tier (hot, warm, cold) it belongs to.
 *
 * Two descriptor tables drive everything here: the metric table (metrics.h:
 * every tierwise.profile/1 figure a policy may name, with its unit and help)
 * and the policy key table (every YAML key, its type and help).  The parser,
 * the validator, --help listings and docs/policies.md come from them.
 *
 * Libraries never print: every problem goes to a caller-owned tw_diags list
 * as FILE:LINE:COLUMN: key: message, and functions return 0 or -errno.
 * The format is documented in docs/policies.md.
 */
#ifndef TW_POLICY_H
#define TW_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "profile.h"
#include "tw_diag.h"

/* ---- policies ---- */

/* One metric that matters, with its log-scale utility range. */
struct model_policy_metric {
	const struct model_metric_desc *desc;
	enum model_better better;
	double good, poor;	/* > 0; good above poor when higher is better */
	double weight;		/* >= 0 */
	int line, col;		/* where the entry starts in the file (1-based) */
};

/* Hard constraints: a device that fails one is not a candidate. */
struct model_policy_constraints {
	unsigned media;			/* bit (1u << enum profile_media); 0 = any */
	int rotational;			/* 1 = must spin, 0 = must not, -1 = any */
	int64_t min_capacity_bytes;	/* -1 = none */
	double max_load_c;		/* thermal.load_c limit, NAN = none */
	long max_percentage_used;	/* health.percentage_used limit, -1 = none */
	bool no_critical_warning;	/* health.critical_warning must be 0 */
};

/*
 * How an application reads or writes (an estimate's `pattern`):
 * chain   dependent 4 KiB reads (HNSW over mmap, SQLite, B-trees);
 * beam    beam_width parallel 4 KiB reads a hop, hops dependent (DiskANN);
 * stream  a file read sequentially (a model load);
 * write   a new file written through the page cache and fsynced (a
 *         checkpoint save), with restore: its cold read back;
 * samples training samples read as MLPerf Storage's DLIO does.
 */
enum model_pattern { MODEL_PAT_CHAIN, MODEL_PAT_BEAM, MODEL_PAT_STREAM, MODEL_PAT_WRITE,
		     MODEL_PAT_SAMPLES, MODEL_PAT_COUNT };

/* How the application reaches the data (key `via`). */
enum model_via { MODEL_VIA_DIRECT, MODEL_VIA_BUFFERED, MODEL_VIA_MMAP, MODEL_VIA_COUNT };

/* The plan's read-ahead for the warm tier's devices (its udev rule), what a
 * buffered stream assumes unless the policy names another. */
#define MODEL_PLAN_READ_AHEAD_KB 4096

/*
 * A workload of the policy (one entry of `estimates`), estimated in the
 * application's terms.  Fields that do not apply are NAN / -1.
 */
struct model_policy_estimate {
	char *name;		/* the workload's name ("beam-search") */
	enum model_pattern pattern;
	enum model_via via;	/* chain, stream; buffered for write/samples */
	bool madv_random;	/* chain via mmap: madvise(MADV_RANDOM) */
	double streams;		/* stream, samples: readers in parallel (1) */
	double read_ahead_kb;	/* buffered reads: the read-ahead assumed */
	double reads;		/* chain: dependent reads a query */
	double beam_width;	/* beam: parallel reads a hop */
	double reads_per_query;	/* beam: reads a query */
	double concurrency;	/* chain, beam: queries in flight (1) */
	int64_t size_bytes;	/* stream, write: the file; samples: the data set */
	bool restore;		/* write: its cold read back is estimated too */
	int64_t sample_bytes;	/* samples: one sample */
	double batch;		/* samples: samples a batch */
	double compute_s;	/* samples: an accelerator's compute a batch */
	double utilization;	/* samples: the accelerator use to keep (0.9) */
	char *label;		/* free text ("an 18 GB model"), or NULL */
	int line, col;		/* where the entry starts in the file */
};

/*
 * What redundancy a workload's data wants (policy key `redundancy`):
 * none (one failure loses the data, which can be fetched again), preferred
 * (the plan states the failure domain and what a mirror would need),
 * required (the plan mirrors like devices or says what is missing).
 */
enum model_redundancy { MODEL_REDUNDANCY_NONE, MODEL_REDUNDANCY_PREFERRED,
			MODEL_REDUNDANCY_REQUIRED, MODEL_REDUNDANCY_COUNT };

struct model_policy {
	char *name;		/* unique within a policy set */
	const char *tier;	/* "hot", "warm" or "cold" (static string) */
	char *description;	/* or NULL */
	size_t n_metrics;
	struct model_policy_metric *metrics;
	struct model_policy_constraints constraints;
	int64_t need_bytes;	/* capacity the workload needs, -1 = not given */
	bool refetchable;	/* key `refetchable`: the data can be fetched again
				   (model weights); default false */
	enum model_redundancy redundancy;	/* key `redundancy`; default:
				   none when refetchable, else preferred */
	size_t n_estimates;
	struct model_policy_estimate *estimates;
	char *file;		/* the name given to the parser (diagnostics) */
	int line, col;		/* position of the name value */
};

struct model_policy_set {
	size_t n;
	struct model_policy **v;	/* sorted by file name */
};

/*
 * Parse and validate one policy from text (len bytes, need not be
 * NUL-terminated).  name labels diagnostics and is copied into the policy.
 * No file I/O and bounded memory and nesting: safe on any input (a fuzzing
 * entry point).  On success returns 0 and *out owns a policy the caller
 * frees with model_policy_free().  On invalid input returns -EINVAL, *out is
 * NULL and every problem found is appended to diags (file, line:column,
 * key path, message).  -ENOMEM on allocation failure.
 */
int model_policy_parse(const char *text, size_t len, const char *name,
		       struct model_policy **out, struct tw_diags *diags);

/* model_policy_parse() on the contents of path.  -errno if unreadable. */
int model_policy_load_file(const char *path, struct model_policy **out,
			   struct tw_diags *diags);

/*
 * Load every *.yaml file of dir, in file-name order, and check the set:
 * policy names are unique and each tier (hot, warm, cold) has at least one
 * policy.  On success returns 0 and *out owns the set (free it with
 * model_policy_set_free()).  On invalid policies returns -EINVAL with every
 * problem in diags; -errno when dir or a file in it cannot be read (diags
 * says which); *out is NULL on any error.
 */
int model_policy_load_dir(const char *dir, struct model_policy_set **out,
			  struct tw_diags *diags);

/* How diagnostics and policy files name the built-in policies. */
#define MODEL_POLICY_BUILTIN "(built-in policies)"

/*
 * Load the default policies built into the binary (every policies/NAME.yaml at
 * build time), as model_policy_load_dir() loads a directory; diagnostics
 * name them "(built-in policies)/NAME.yaml".  Same returns and ownership
 * (an error is a build bug: unit.test_policy loads them).
 */
int model_policy_load_builtin(struct model_policy_set **out,
			      struct tw_diags *diags);

/* The policy called name in set, or NULL.  NULL-safe. */
const struct model_policy *model_policy_set_find(const struct model_policy_set *set,
						 const char *name);

/* Free a policy and everything it owns.  NULL-safe. */
void model_policy_free(struct model_policy *p);

/* Free a set and its policies.  NULL-safe. */
void model_policy_set_free(struct model_policy_set *set);

/*
 * Log-scale utility of value v for metric m, in [0, 1]:
 *   clamp((ln v − ln poor) / (ln good − ln poor), 0, 1)
 * 1 at or beyond good, 0 at or beyond poor, whichever way is better (the
 * validator guarantees good and poor are > 0, distinct and ordered as
 * `better` says).  v <= 0 is treated as the limit v → 0+: 0 when higher is
 * better, 1 when lower is better (a price of 0, a temperature of 0 °C).
 * The direction comes from good and poor alone.  Returns NAN when v is NAN
 * (not measured), or when good and poor are not a range (not both > 0, or
 * equal; the parser never returns those).
 */
double model_utility(const struct model_policy_metric *m, double v);


/* "none" / "preferred" / "required"; NULL when out of range. */
const char *model_redundancy_name(enum model_redundancy r);

/* "chain", "beam", …; "direct", "buffered", "mmap"; NULL when out of range. */
const char *model_pattern_name(enum model_pattern p);
const char *model_via_name(enum model_via v);

/* ---- the policy keys, for --help listings and docs ---- */

struct model_policy_key {
	const char *section;	/* "", "metrics[]", "estimates[] (kind: load)", … */
	const char *key;	/* "tier", "good", … */
	const char *type;	/* "string", "number > 0", "size", … */
	const char *help;
	bool required;
};

/* The i-th documented key, or NULL when i is past the end. */
const struct model_policy_key *model_policy_key_at(size_t i);

#endif
