/* steady.h — steady-state detection over throughput windows.
 *
 * A scaled-down form of the SNIA Solid State Storage PTS rule, applied to
 * the last PROBE_STEADY_WINDOWS values of a series of per-window rates
 * (e.g. IOPS per 0.5 s window).  With v[0..4] the last five values, x = 0..4
 * their positions and m their mean:
 *
 *   spread_pct = max |v[x] - m| / m * 100
 *   slope      = least-squares slope of v over x
 *              = sum (x - 2) * (v[x] - m) / 10          (per window)
 *   slope_pct  = slope * 4 / m * 100   (excursion of the fitted line across
 *                                       the span of the five windows)
 *
 *   steady  <=>  m > 0
 *            and spread_pct <= PROBE_STEADY_SPREAD_PCT (5: every value
 *                within +-5 % of the mean)
 *            and |slope_pct| <= PROBE_STEADY_SLOPE_PCT (5: the fitted line
 *                moves by at most 5 % of the mean across the five windows)
 *
 * The slope bound is tighter than SNIA's 10 %: with only 2.5 s of windows a
 * drift of +2 % per window (8 % across the span) must not pass as steady.
 * A zero mean (a stalled device) is never steady.
 */
#ifndef PROBE_STEADY_H
#define PROBE_STEADY_H

#include <stdbool.h>
#include <stddef.h>

#define PROBE_STEADY_WINDOWS 5
#define PROBE_STEADY_SPREAD_PCT 5.0
#define PROBE_STEADY_SLOPE_PCT 5.0

struct probe_steady {
	bool steady;
	double mean;		/* of the last PROBE_STEADY_WINDOWS values */
	double spread_pct;	/* max |v - mean| / mean * 100; 0 when mean == 0 */
	double slope_pct;	/* signed; 0 when mean == 0 */
};

/*
 * Judge the last PROBE_STEADY_WINDOWS values of v[0..n) by the rule above;
 * earlier values are ignored.  *out is always fully written.
 * Returns 0 (see out->steady); -EAGAIN when n < PROBE_STEADY_WINDOWS (not
 * enough windows yet: *out zeroed, steady false); -EINVAL when one of the
 * last five values is negative, NaN or infinite (*out zeroed).
 */
int probe_steady_check(const double *v, size_t n, struct probe_steady *out);

#endif
