/* known.h — when is a measured rate known: the confidence band of its mean.
 *
 * A test's windows (throughput per window) are grouped into at most
 * PROBE_KNOWN_BATCHES batches of consecutive windows, equal in count (the
 * oldest windows left over are dropped); the batch means b[0..B) have mean
 * m and standard deviation s, and
 *
 *   half_pct = t(0.975, B − 1) × s / √B / m × 100
 *
 * is the 95 % confidence half-width of the mean rate, in % of it (batch
 * means: neighbouring windows are correlated, batches of several are
 * much less so).  With the windows' lengths w (probe_known_check_w), a
 * batch's mean is its rate over its time, Σ v·w ÷ Σ w: a device whose
 * completions come in bunches (a slow disk's, reaped up to 5 ms late:
 * engine.h) fills windows of unequal length, whose plain mean would swing.  The rate is known when half_pct ≤ the target (the
 * probe's: PROBE_KNOWN_PCT).  A zero mean (a stalled device) is never
 * known.
 */
#ifndef PROBE_KNOWN_H
#define PROBE_KNOWN_H

#include <stdbool.h>
#include <stddef.h>

#define PROBE_KNOWN_BATCHES 10
#define PROBE_KNOWN_MIN_WINDOWS 4	/* fewer: nothing can be said */
#define PROBE_KNOWN_PCT 2.0		/* the probe's target: ±2 % */
#define PROBE_KNOWN_TAIL 100u		/* a p99 is known with this many samples above it */

struct probe_known {
	double mean;		/* of the batch means */
	double half_pct;	/* 95 % half-width, % of mean; INFINITY when mean is 0 */
	size_t batches;		/* B */
};

/*
 * The band of the windows v[0..n) by the rule above.  *out is always
 * written.  Returns 0; -EAGAIN when n < PROBE_KNOWN_MIN_WINDOWS (out:
 * half_pct INFINITY); -EINVAL when a value is negative, NaN or infinite.
 */
int probe_known_check(const double *v, size_t n, struct probe_known *out);

/* Is the band of v[0..n) within pct?  (probe_known_check() == 0 and
 * half_pct ≤ pct.) */
bool probe_known(const double *v, size_t n, double pct);

/* The same with the windows' lengths w[0..n) (> 0, finite; NULL: equal):
 * each batch mean weighted by time.  -EINVAL also for a bad length. */
int probe_known_check_w(const double *v, const double *w, size_t n, struct probe_known *out);
bool probe_known_w(const double *v, const double *w, size_t n, double pct);

/* Does the band of v[0..n) (lengths w, or NULL) lie wholly below mark:
 * its upper edge, mean × (1 + half_pct / 100), under it?  false when the
 * band cannot be had (probe_known_check_w() fails) or mark is not > 0.
 * What a trial that must beat mark can stop on.  Each look is a one-sided
 * 97.5 % bound; a trial that looks at every window, against a mark that is
 * itself an estimate, stops wrongly more often than 2.5 % of the time, most
 * of all when its true rate is just above the mark. */
bool probe_known_below_w(const double *v, const double *w, size_t n, double mark);

/* The band half_pct reached after t s, projected to t_cap s as batch means
 * narrow: half_pct × √(t / t_cap) (fixed batch count, independent batches). */
double probe_known_projected(double half_pct, double t, double t_cap);

#endif
