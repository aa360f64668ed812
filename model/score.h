/* score.h — devices scored and ranked against one workload policy.
 *
 * Pure: reads profiles and policies, never prints.  A device either passes
 * every hard constraint of the policy (eligible) or lists those it failed.
 * Its score is 100 × Σ(weight × utility) ÷ Σ(weight) over the metrics that
 * were measured; metrics that were not are listed as missing (never counted
 * as 0 nor as perfect) and lower the confidence, Σ weights measured ÷ Σ
 * weights.  Estimates come from model.h, in user terms.  The method is
 * documented in docs/scoring.md.
 */
#ifndef TW_SCORE_H
#define TW_SCORE_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "policy.h"
#include "profile.h"
#include "tw_diag.h"

/* One policy metric on one device. */
struct model_contrib {
	const struct model_policy_metric *pm;	/* in the policy */
	double value;		/* in the metric's unit; NAN = not measured */
	double utility;		/* [0, 1]; NAN = not measured */
	double weight;		/* the policy's weight (0 = listed, not scored) */
};

/* A hard constraint the device failed. */
struct model_failure {
	const char *key;	/* constraint key: "rotational", "media", … */
	char msg[96];		/* "is rotational", "capacity 128 GB < 200 GB", … */
};

#define MODEL_MAX_FAILURES 6

/* One estimate of the policy, in user terms, for one device. */
struct model_score_estimate {
	const struct model_policy_estimate *pe;	/* in the policy */
	double value;		/* the headline (model_workload_value), NAN = unknown */
	const char *unit;	/* "s" or "accelerators" */
	struct model_workload_est w;	/* every figure, and what it comes from */
};

struct model_score {
	const struct profile_device *dev;
	bool eligible;
	size_t n_failed;
	struct model_failure failed[MODEL_MAX_FAILURES];
	double score;		/* 0–100; NAN when no weighted metric was measured */
	double confidence;	/* Σ weight measured ÷ Σ weight, 0–1 */
	size_t n_contrib;	/* = the policy's n_metrics, in policy order */
	struct model_contrib *contrib;
	size_t n_missing;	/* metrics not measured, in policy order */
	const char **missing;	/* their paths (static strings) */
	size_t n_est;		/* = the policy's n_estimates */
	struct model_score_estimate *est;
};

struct model_ranking {
	const struct model_policy *policy;
	size_t n;
	struct model_score *v;	/* best first: eligible, score, confidence, id */
	bool no_price;		/* the policy weighs price_per_tb and no device has one */
	char note[256];		/* "" or why the ranking is what it is */
};

/*
 * Score device d against policy p into *out (overwritten).  Returns 0, or
 * -ENOMEM (then *out holds nothing to free).  Release with
 * model_score_clear().  d and p must outlive *out.
 */
int model_score_device(const struct model_policy *p, const struct profile_device *d,
		       struct model_score *out);

/* Free what model_score_device() allocated in s.  NULL-safe. */
void model_score_clear(struct model_score *s);

/*
 * Score n devices against p and rank them (see struct model_ranking).
 * On success returns 0 and *out owns the ranking (model_ranking_free());
 * -ENOMEM and *out = NULL otherwise.  The devices and p must outlive it.
 */
int model_rank(const struct model_policy *p, const struct profile_device *const *devs,
	       size_t n, struct model_ranking **out);

/* Free a ranking.  NULL-safe. */
void model_ranking_free(struct model_ranking *r);

/* The score of the device with this id in r, or NULL.  NULL-safe. */
const struct model_score *model_ranking_find(const struct model_ranking *r,
					     const char *id);

/* ---- figures read from unwritten blocks ---- */

/*
 * Treat d's figures that were read mostly from never-written blocks
 * (profile_unwritten() of a test's `unwritten` share) as missing before
 * scoring and planning: that I/O test's figures become NAN, and for the
 * sweep, latency_target.iops and every sweep point's IOPS and latency.
 * The shares stay, so that a plan can say why a figure is missing.
 * Returns how many tests were dropped (0..PROFILE_IO_COUNT + 2).
 */
size_t model_drop_unwritten(struct profile_device *d);

/* ---- prices per TB, for profiles that do not carry them ---- */

struct model_prices;

/*
 * Parse a price list: one "NAME = PRICE" (or "NAME<TAB>PRICE") per line,
 * '#' starts a comment line, blank lines are ignored.  NAME is a device
 * model or id, PRICE a number ≥ 0 per decimal TB.  On success returns 0
 * and *out owns the list (model_prices_free()); -EINVAL with every problem
 * in diags (name, line, column), -ENOMEM; *out is NULL on error.
 */
int model_prices_parse(const char *text, size_t len, const char *name,
		       struct model_prices **out, struct tw_diags *diags);

/* model_prices_parse() on the contents of path; -errno when unreadable. */
int model_prices_load_file(const char *path, struct model_prices **out,
			   struct tw_diags *diags);

/*
 * Set d->price_per_tb from the list when the profile has none (NAN); an
 * entry naming the device id wins over one naming its model.  Returns
 * true when a price was applied.  NULL-safe.
 */
bool model_prices_apply(const struct model_prices *pr, struct profile_device *d);

/*
 * The NAME of entry i of the list (NULL when i is past the end), its line in
 * *line when line is not NULL: for a caller that says which names match no
 * device.  NULL-safe.
 */
const char *model_prices_entry(const struct model_prices *pr, size_t i, int *line);

/* Free a price list.  NULL-safe. */
void model_prices_free(struct model_prices *pr);

#endif
