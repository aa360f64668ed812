/* plan_file.h — a tierwise.plan/1 file read back (what `tierwise plan
 * --format json` writes): the one reader of plan files, for the report
 * (--plan) and the fleet (the plans beside the profiles).
 *
 * Strings and arrays point into the parsed document, which the struct
 * keeps alive until advisor_plan_file_free().
 */
#ifndef TW_PLAN_FILE_H
#define TW_PLAN_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "advisor.h"

/*
 * One estimate of a tier's policies: the headline figure (label, value,
 * unit, device) and, in plans that carry them, the workload it describes:
 * its pattern with the parameters as given and the figures that apply
 * (docs/verify.md).  Strings NULL, numbers NAN and counts 0 when absent or
 * null.
 */
struct advisor_file_est {
	const char *policy, *label, *unit, *device;
	double value;			/* NAN = unknown */
	const char *workload;		/* its name in the policy */
	const char *pattern;		/* "chain", "beam", "stream", "write", "restore", "samples"
					   (the reader refuses another) */
	const char *via;		/* "direct", "buffered", "mmap" */
	const char *madvise;		/* "normal", "random" */
	unsigned streams, read_ahead_kb, beam_width, reads_per_query, concurrency, batch;
	double size_bytes, sample_size_bytes, compute_s, utilization;
	double seconds, p50_ms, p99_ms, qps, mbps, accelerators, capacity_bytes;
	int fits;			/* 1 fits, 0 does not, -1 = not said */
};

struct advisor_file_mount {
	const char *point, *fs, *options, *source, *why;	/* why may be NULL */
	bool reuse, directory;
};

/* A part of a tier's need (tiers[].needs): a policy's, its default or not. */
struct advisor_file_need {
	const char *policy;
	int64_t bytes;
	bool is_default;		/* the policy's need_bytes, not --need */
};

struct advisor_file_tier {
	const char *name;		/* "hot", "warm", "cold" */
	size_t n_policies;
	const char **policies;
	size_t n_needs;
	struct advisor_file_need *needs;	/* the need's parts, largest first
						   (none in older plans) */
	size_t n_devices;
	const char **devices;		/* device ids, best first */
	double *scores;			/* per device, NAN = unknown */
	double cost;			/* Σ price of its devices; NAN = unknown */
	double cost_per_usable_tb;	/* NAN = unknown */
	double score;			/* tier value, NAN = unknown */
	int64_t need_bytes, usable_bytes;	/* -1 = unknown */
	const char *shared_with;	/* directories on this device, or NULL */
	const char *raid_level, *raid_name, *raid_tradeoff;	/* level NULL = no array */
	double raid_read_mbps;		/* NAN = unknown */
	size_t n_est;
	struct advisor_file_est *est;
	bool est_listed;		/* "estimates" is one array (else arrays by policy) */
	size_t n_mounts;
	struct advisor_file_mount *mounts;
	size_t n_notes;
	const char **notes;
};

struct advisor_file_warning {
	const char *device;		/* NULL = the whole plan */
	const char *kind, *message;
};

/* One line of a buy plan's shopping list: count × a catalog model. */
struct advisor_file_buy {
	const char *id;			/* the catalog entry: "optane905p" */
	const char *model;		/* its model, or NULL */
	const char *tier;		/* "hot", "warm", "cold" */
	unsigned count;
	double price, cost;		/* one device; count × price (NAN = unknown) */
};

struct advisor_plan_file {
	struct advisor_file_tier tiers[TW_TIER_COUNT];	/* hot, warm, cold */
	size_t n_unassigned;
	const char **unassigned;
	size_t n_warnings;
	struct advisor_file_warning *warnings;
	double score, runner_up_gap;	/* NAN = unknown / no runner-up */
	bool exact;
	size_t n_notes;
	const char **notes;
	double cost_total;		/* Σ tier costs; NAN = unknown */
	bool buying;			/* a buy plan: "buy" is there */
	double budget;			/* NAN = none */
	size_t n_buy;
	struct advisor_file_buy *buy;
	/* private: the parsed document, and every array allocated */
	void *json;
	size_t n_allocs, cap_allocs;
	void **allocs;
};

/*
 * Read the tierwise.plan/1 file path: the schema, the tiers by name (hot,
 * warm, cold, each once, in any order, each with a devices array; a tier
 * not there has no devices), the warnings (each with a kind), a buy plan's
 * lines; a key of the wrong type or a key given twice is an error.  hint, when not NULL, is said after the message when the
 * file is no plan (not JSON, another schema): what the caller takes.
 * Returns 0 and *out (free with advisor_plan_file_free()), -EINVAL with a
 * message in err, -errno when unreadable (err: its strerror), or -ENOMEM.
 */
int advisor_plan_file_read(const char *path, const char *hint, struct advisor_plan_file **out,
			   char *err, size_t errlen);

/* Free a plan file.  NULL-safe. */
void advisor_plan_file_free(struct advisor_plan_file *f);

#endif
