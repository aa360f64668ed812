#include "hist.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

void probe_hist_reset(struct probe_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void probe_hist_merge(struct probe_hist *dst, const struct probe_hist *src)
{
	for (unsigned i = 0; i < PROBE_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	if (__builtin_add_overflow(dst->sum, src->sum, &dst->sum))
		dst->sum = UINT64_MAX;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t probe_hist_count(const struct probe_hist *h)
{
	return h->count;
}

uint64_t probe_hist_min(const struct probe_hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t probe_hist_max(const struct probe_hist *h)
{
	return h->count ? h->max : 0;
}

uint64_t probe_hist_sum(const struct probe_hist *h)
{
	return h->sum;
}

double probe_hist_mean(const struct probe_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

int probe_hist_bucket_bounds(unsigned i, uint64_t *lo, uint64_t *hi)
{
	unsigned shift;
	uint64_t width;

	if (i >= PROBE_HIST_BUCKETS)
		return -ERANGE;
	if (i < PROBE_HIST_SUB) {
		*lo = *hi = i;
		return 0;
	}
	shift = (i >> PROBE_HIST_SUB_BITS) - 1u;
	width = UINT64_C(1) << shift;
	*lo = (uint64_t)(PROBE_HIST_SUB + (i & (PROBE_HIST_SUB - 1u))) << shift;
	*hi = *lo + (width - 1u);
	return 0;
}

/* 1-based nearest rank of percentile q among count samples. */
static uint64_t nearest_rank(double q, uint64_t count)
{
	double r = q / 100.0 * (double)count;
	uint64_t rank;

	/* Forgive a few ulps of rounding so that 99.9 % of 1000 is rank 999. */
	r = ceil(r - r * 4.0 * DBL_EPSILON);
	rank = (uint64_t)r;
	if (rank < 1)
		rank = 1;
	return rank > count ? count : rank;
}

/* Index of the bucket that holds the rank-th smallest sample. */
static unsigned bucket_of_rank(const struct probe_hist *h, uint64_t rank)
{
	uint64_t seen = 0;
	unsigned i;

	for (i = 0; i < PROBE_HIST_BUCKETS - 1u; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	return i;
}

static uint64_t bucket_mid(unsigned i)
{
	uint64_t lo = 0, hi = 0;

	probe_hist_bucket_bounds(i, &lo, &hi);
	return lo + (hi - lo + 1u) / 2u;
}

int probe_hist_percentile(const struct probe_hist *h, double q, uint64_t *ns)
{
	uint64_t rank, v;

	if (!(q >= 0.0 && q <= 100.0))
		return -EINVAL;
	if (!h->count)
		return -ENODATA;
	rank = nearest_rank(q, h->count);
	if (rank == 1) {
		*ns = h->min;
		return 0;
	}
	if (rank == h->count) {
		*ns = h->max;
		return 0;
	}
	v = bucket_mid(bucket_of_rank(h, rank));
	*ns = v < h->min ? h->min : v > h->max ? h->max : v;
	return 0;
}

static double pct_us(const struct probe_hist *h, double q)
{
	uint64_t ns = 0;

	probe_hist_percentile(h, q, &ns);
	return (double)ns / 1000.0;
}

int probe_hist_summary(const struct probe_hist *h, struct probe_lat_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (!h->count)
		return -ENODATA;
	s->mean = probe_hist_mean(h) / 1000.0;
	s->p50 = pct_us(h, 50.0);
	s->p90 = pct_us(h, 90.0);
	s->p99 = pct_us(h, 99.0);
	s->p999 = pct_us(h, 99.9);
	s->max = (double)h->max / 1000.0;
	return 0;
}
