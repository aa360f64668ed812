/* model.h — a policy's workloads estimated on one device: how long the
 * application's load, save, restore or query takes, from the figures the
 * probe measured the way that application reads and writes (docs/scoring.md
 * says each formula and the program it follows).
 */
#ifndef TW_MODEL_H
#define TW_MODEL_H

#include <stddef.h>

#include "policy.h"
#include "profile.h"

#define MODEL_BASIS_MAX 6

/* A workload's estimate; NAN where a figure does not apply or is unknown. */
struct model_workload_est {
	double seconds;		/* stream, write: the whole file; chain, beam: a
				 * query's p50 */
	double p50_ms, p99_ms;	/* chain, beam: per query */
	double qps;		/* chain, beam: queries/s at the concurrency */
	double mbps;		/* stream, write, samples: the rate assumed */
	double restore_seconds, restore_mbps;	/* write with restore */
	double need_mbps;	/* samples: what one accelerator reads */
	double accelerators;	/* samples: accelerators fed at the utilization */
	int fits;		/* 1; 0 = size above capacity_bytes; -1 = unknown */
	double capacity_bytes;	/* what fits was checked against, NAN */
	size_t n_basis;
	const char *basis[MODEL_BASIS_MAX];	/* the metric paths used */
	const char *missing;	/* the figure whose absence leaves it unknown */
	char how[240];		/* "" or what was derived or assumed, in words */
};

/*
 * Estimate workload w on device d (its profile figures; capacity from
 * d->capacity_bytes).  Always fills *e; seconds is NAN when a figure it
 * needs was not measured (missing names it).
 */
void model_workload(const struct model_policy_estimate *w, const struct profile_device *d,
		    struct model_workload_est *e);

/* The headline of an estimate: its value (seconds, or accelerators for
 * samples) and unit ("s" or "accelerators"). */
double model_workload_value(const struct model_policy_estimate *w,
			    const struct model_workload_est *e, const char **unit);

/* The queue depth a workload keeps in flight: beam_width × concurrency,
 * concurrency for a chain, 1 otherwise (what the probe's sweep must reach). */
unsigned model_workload_depth(const struct model_policy_estimate *w);

#endif
