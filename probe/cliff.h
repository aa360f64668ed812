/* cliff.h — SLC-cache cliff detection on a sustained-write series.
 *
 * Input: v[0..n), the write rate in MB/s of each second of a sustained
 * write (one value per second).  The rule:
 *
 *   initial  = mean of v[0..k), k = min(3, n)
 *   cliff    = the first second i >= 1 with
 *                v[i] < 0.7 * initial                      (the rate falls)
 *            and mean(v[i..n)) < 0.7 * initial             (and stays down:
 *            and mean(v[j..j+3)) < 0.7 * initial            no 3 s from i on
 *                for every j >= i with j + 3 <= n           back at the bar)
 *            and i + 3 <= n                                (3 s at least)
 *
 * A dip that recovers is not a cliff: neither when the rest's mean stays
 * above the bar, nor when the real cliff follows it soon enough to pull
 * that mean below (lab, a bursty disk on a busy host: 119 MB/s, two
 * seconds at 83, 118–134 for four, then 50–67 — the cliff is the second
 * after the 134, not the dip).  A fall in the last two seconds is not one
 * either, until it has lasted 3 s (lab, a disk with no cache at all, 12 s
 * at 88-211 MB/s: a last second at 56 was reported as a cliff at 1.4 GB).
 * Second 0 cannot be a cliff: nothing was written before.  A series of
 * zeros has initial 0 and no cliff.
 *
 * Results (decimal units, 1 MB/s for 1 s = 1 MB, 1000 MB = 1 GB):
 *   found, index = i (seconds from the start; 0 when not found)
 *   initial_mbps
 *   after_mbps   = mean(v[i..n)) when found, else the mean of the series
 *   gb_before    = sum(v[0..i)) / 1000 when found, else the GB written by
 *                  the whole series (a lower bound of the cache size)
 *
 * When has a sustained write seen enough (probe_cliff_held, asked after
 * each second while it runs): a cliff is found in v[0..n) by the rule
 * above, and the rate after it holds.  Judged are the seconds since the
 * rate last stood at the bar or above for 3 s on average (a recovery, as
 * above; one second at the bar is not: seconds of 50, 67 and 83 MB at
 * 60 MB/s were seen when the probe reaped slow devices half a queue at a
 * time), the cliff's own second excluded (it may still hold cached
 * writes), in points of g whole seconds each (the newest; g = 1, or as
 * many as make a point of min_mb MB at their mean rate: a second that
 * holds less than a queue measures how the completions fall, not the
 * rate).
 * The rate holds when there are min_after points or more and their mean
 * rate is known within ± pct (95 % confidence, known.h's batch means).  A
 * dip that recovers is no cliff (the rule above), and the seconds before
 * its recovery are not judged: only those since.
 */
#ifndef PROBE_CLIFF_H
#define PROBE_CLIFF_H

#include <stdbool.h>
#include <stddef.h>

#define PROBE_CLIFF_INITIAL_SECS 3
#define PROBE_CLIFF_RATIO 0.7
#define PROBE_CLIFF_RECOVER_SECS 3	/* a window this long at the bar: a recovery */
#define PROBE_CLIFF_HELD_POINTS 5	/* points after the cliff, at least … */
#define PROBE_CLIFF_HELD_PCT 10.0	/* … whose mean rate is known to ± this % */

struct probe_cliff {
	bool found;
	size_t index;
	double initial_mbps;
	double after_mbps;
	double gb_before;
};

/*
 * Find the SLC-cache cliff in v[0..n) by the rule above.  *out is always
 * fully written.  Returns 0 (see out->found); -ENODATA when n == 0
 * (*out zeroed); -EINVAL when a value is negative, NaN or infinite
 * (*out zeroed).
 */
int probe_cliff_find(const double *v, size_t n, struct probe_cliff *out);

/* Whether the rate after a cliff holds (the rule above). */
struct probe_cliff_held {
	bool held;
	struct probe_cliff cliff;	/* probe_cliff_find on v[0..n) */
	size_t first, after;	/* the seconds after the cliff: v[first .. first + after) */
	size_t group, points;	/* g seconds a point; the newest points judged */
	double mbps;		/* their mean rate (known.h: of the batch means) */
	double half_pct;	/* its 95 % band, ± % of mbps; INFINITY when too few */
};

/*
 * Has v[0..n) crossed a cliff after which the rate holds: at least
 * min_after points (PROBE_CLIFF_HELD_POINTS) of min_mb MB or more (0: one
 * second each) known to ± pct (PROBE_CLIFF_HELD_PCT)?  *out is always
 * fully written (held false, the counts 0, mbps 0, half_pct INFINITY when
 * no cliff was found).  Returns 0 (see out->held), probe_cliff_find's
 * -ENODATA or -EINVAL, or -ENOMEM.
 */
int probe_cliff_held(const double *v, size_t n, size_t min_after, double pct, double min_mb,
		     struct probe_cliff_held *out);

#endif
