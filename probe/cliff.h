/* cliff.h — SLC-cache cliff detection on a sustained-write series.
 *
 * Input: v[0..n), the write rate in MB/s of each second of a sustained
 * write (one value per second).  The rule:
 *
 *   initial  = mean of v[0..k), k = min(3, n)
 *   cliff    = the first second i >= 1 with
 *                v[i] < 0.7 * initial                      (the rate falls)
 *            and mean(v[i..n)) < 0.7 * initial             (and stays down)
 *
 * A dip that recovers does not pull the mean of the rest below the bar and
 * is not a cliff.  Second 0 cannot be a cliff: nothing was written before.
 * A series of zeros has initial 0 and no cliff.
 *
 * Results (decimal units, 1 MB/s for 1 s = 1 MB, 1000 MB = 1 GB):
 *   found, index = i (seconds from the start; 0 when not found)
 *   initial_mbps
 *   after_mbps   = mean(v[i..n)) when found, else the mean of the series
 *   gb_before    = sum(v[0..i)) / 1000 when found, else the GB written by
 *                  the whole series (a lower bound of the cache size)
 */
#ifndef PROBE_CLIFF_H
#define PROBE_CLIFF_H

#include <stdbool.h>
#include <stddef.h>

#define PROBE_CLIFF_INITIAL_SECS 3
#define PROBE_CLIFF_RATIO 0.7

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

#endif
