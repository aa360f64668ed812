/* render_verify.h — what `tierwise verify` found: per tier of a plan, its
 * mount and, per workload of its policies, the plan's estimate beside what
 * the same work measured on the built tier (docs/verify.md).  Renderers:
 * text, json (tierwise.verify/1) and the Prometheus textfile format.
 */
#ifndef TW_RENDER_VERIFY_H
#define TW_RENDER_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "plan_file.h"

#define VERIFY_SCHEMA "tierwise.verify/1"

enum verify_state {
	VERIFY_WITHIN,		/* run; measured within the tolerance of the estimate */
	VERIFY_OUTSIDE,		/* run; outside it */
	VERIFY_SKIPPED,		/* not run: why says (no figure to compare, no room) */
	VERIFY_FAILED,		/* the run failed: why says */
};

/* "within", "outside", "skipped", "failed". */
const char *verify_state_name(enum verify_state s);

/* What one workload measured: NAN where a figure does not apply. */
struct verify_measured {
	double seconds;		/* wall time of the run */
	uint64_t bytes;		/* bytes read or written */
	uint64_t queries;	/* beam, chain: queries (chain: reads) done */
	double mbps, qps, p50_ms, p99_ms;	/* chain: per read */
	bool cold;		/* the reads started from a dropped page cache */
};

struct verify_workload {
	const struct advisor_file_est *est;	/* the plan's estimate */
	enum verify_state state;
	const char *figure;	/* what is compared: "mbps", "ms_per_read", "qps" */
	double estimate, measured;	/* that figure; NAN = not run */
	double ratio;		/* > 1: faster than the estimate (rates: measured ÷
				   estimate; times: estimate ÷ measured); NAN = not run */
	uint64_t scratch_bytes;	/* the size of the scratch file it ran on */
	struct verify_measured m;
	char why[256];		/* skipped or failed: the reason */
};

struct verify_tier {
	const char *name;	/* "hot", "warm", "cold" */
	const char *mount;	/* the mount point verified (the plan's first when none
				   is mounted); NULL = the plan gives none */
	bool mounted;		/* the mount point is there: a mounted filesystem */
	bool written;		/* scratch files were written on it */
	char device[64];	/* the block device under it ("loop3"), "" = unknown */
	char fs[32];		/* its filesystem type, "" = unknown */
	char why[256];		/* not verified: why ("not mounted, not written") */
	size_t n;
	struct verify_workload *w;
};

struct verify_report {
	const char *plan;	/* the plan file */
	const char *host;
	double tolerance_pct;	/* within: |measured - estimate| <= tolerance × estimate */
	double seconds;		/* time per workload at the estimated rate */
	size_t n;
	struct verify_tier *tiers;
};

struct verify_counts {
	size_t within, outside, skipped, failed, unmounted;
};

/* Count r's workloads by state, and its tiers not mounted. */
struct verify_counts verify_count(const struct verify_report *r);

struct verify_render_ops {
	const char *name;
	/* Returns 0, -ENOMEM, or -EIO when out failed. */
	int (*print)(FILE *out, const struct verify_report *r);
};
extern const struct verify_render_ops verify_render_text, verify_render_json, verify_render_prom;

#endif
