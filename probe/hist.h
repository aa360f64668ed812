/* hist.h — log-linear latency histogram in nanoseconds (fio-style).
 *
 * Values below 64 ns get a bucket each.  Above, every power of two
 * [2^k, 2^(k+1)) is cut into 64 equal sub-buckets, so a bucket is at most
 * 1/64 of its lower bound wide and its midpoint is within 1/128 (0.78 %) of
 * any value it holds.  The buckets cover the whole uint64_t range (0 ns to
 * 584 years): nothing overflows and nothing is clamped on the way in.
 *
 * The struct is fixed-size (about 30 KiB), needs no allocation, and is owned
 * by the caller.  One histogram per I/O thread, merged at the end, is the
 * intended use: probe_hist_add() is not thread-safe.
 */
#ifndef PROBE_HIST_H
#define PROBE_HIST_H

#include <stdint.h>

#define PROBE_HIST_SUB_BITS 6
#define PROBE_HIST_SUB (1u << PROBE_HIST_SUB_BITS) /* sub-buckets per 2^k */
/* 64 exact buckets for 0..63, then 64 per power of two from 2^6 to 2^63. */
#define PROBE_HIST_BUCKETS ((64u - PROBE_HIST_SUB_BITS + 1u) * PROBE_HIST_SUB)

struct probe_hist {
	uint64_t count;
	uint64_t sum;	/* saturates at UINT64_MAX instead of wrapping */
	uint64_t min;	/* UINT64_MAX while empty */
	uint64_t max;
	uint64_t bucket[PROBE_HIST_BUCKETS];
};

/* Latency summary in microseconds, as the reports print it. */
struct probe_lat_summary {
	double mean, p50, p90, p99, p999, max;
};

/* Bucket index of a value: O(1), one clz.  Always < PROBE_HIST_BUCKETS. */
static inline unsigned probe_hist_index(uint64_t ns)
{
	unsigned msb, shift;

	if (ns < PROBE_HIST_SUB)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	shift = msb - PROBE_HIST_SUB_BITS;
	return ((shift + 1u) << PROBE_HIST_SUB_BITS) +
	       (unsigned)((ns >> shift) & (PROBE_HIST_SUB - 1u));
}

/*
 * Record one latency of ns nanoseconds.  Hot path: runs once per I/O.
 * The histogram must have been reset once.  Cannot fail.
 */
static inline void probe_hist_add(struct probe_hist *h, uint64_t ns)
{
	h->bucket[probe_hist_index(ns)]++;
	h->count++;
	if (__builtin_add_overflow(h->sum, ns, &h->sum))
		h->sum = UINT64_MAX;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

/* Empty the histogram (count 0, min UINT64_MAX, max 0).  Cannot fail. */
void probe_hist_reset(struct probe_hist *h);

/*
 * Add every sample of src into dst (buckets, count, saturating sum, min,
 * max).  dst == src doubles the histogram.  src is unchanged.  Cannot fail.
 */
void probe_hist_merge(struct probe_hist *dst, const struct probe_hist *src);

/* Number of samples recorded. */
uint64_t probe_hist_count(const struct probe_hist *h);

/* Smallest sample in ns, or 0 when the histogram is empty. */
uint64_t probe_hist_min(const struct probe_hist *h);

/* Largest sample in ns, or 0 when the histogram is empty. */
uint64_t probe_hist_max(const struct probe_hist *h);

/* Sum of all samples in ns (exact unless it saturated at UINT64_MAX). */
uint64_t probe_hist_sum(const struct probe_hist *h);

/* Exact arithmetic mean in ns (sum / count), or 0.0 when empty. */
double probe_hist_mean(const struct probe_hist *h);

/*
 * Inclusive value range [*lo, *hi] of bucket i, in ns.
 * Returns 0, or -ERANGE when i >= PROBE_HIST_BUCKETS (outputs untouched).
 */
int probe_hist_bucket_bounds(unsigned i, uint64_t *lo, uint64_t *hi);

/*
 * Percentile q (0 <= q <= 100) by nearest rank: the bucket that holds the
 * ceil(q/100 * count)-th smallest sample (at least the 1st), represented by
 * its midpoint lo + (hi - lo + 1) / 2, then clamped to [min, max] so that no
 * percentile exceeds the largest sample seen.  Rank 1 (q == 0 included)
 * gives min exactly and rank count (q == 100 included) gives max exactly.
 * Otherwise the result is within 0.78 % of the true nearest-rank sample.
 * Returns 0 and stores *ns; -EINVAL when q is NaN or outside [0, 100];
 * -ENODATA when the histogram is empty (*ns untouched on error).
 */
int probe_hist_percentile(const struct probe_hist *h, double q, uint64_t *ns);

/*
 * Fill *s with mean, p50, p90, p99, p99.9 and max in microseconds (double).
 * Returns 0; -ENODATA when the histogram is empty, with every field of *s
 * set to 0.
 */
int probe_hist_summary(const struct probe_hist *h, struct probe_lat_summary *s);

#endif
