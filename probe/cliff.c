#include "cliff.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "known.h"

static bool all_valid(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]) || v[i] < 0.0)
			return false;
	return true;
}

static double sum_of(const double *v, size_t n)
{
	double sum = 0.0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum;
}

/* Whether the whole PROBE_CLIFF_RECOVER_SECS window v[i..i+w) averages at
 * the bar or above (a recovery); false when it does not fit in v[0..n). */
static bool recovered_at(const double *v, size_t n, size_t i, double bar)
{
	const size_t w = PROBE_CLIFF_RECOVER_SECS;

	return i + w <= n && sum_of(v + i, w) / (double)w >= bar;
}

/*
 * The first i >= 1 with v[i] < bar, mean(v[i..n)) < bar, at least
 * PROBE_CLIFF_RECOVER_SECS seconds from i on, and no recovery
 * (recovered_at) from i on; 0 when none.  Walks backwards so that each
 * suffix sum is built exactly once; a recovery rules out every earlier
 * second.
 */
static size_t first_cliff(const double *v, size_t n, double bar)
{
	double tail = 0.0;
	size_t found = 0;

	for (size_t i = n; i-- > 1;) {
		tail += v[i];
		if (recovered_at(v, n, i, bar))
			break;
		if (v[i] < bar && tail / (double)(n - i) < bar && n - i >= PROBE_CLIFF_RECOVER_SECS)
			found = i;
	}
	return found;
}

int probe_cliff_find(const double *v, size_t n, struct probe_cliff *out)
{
	size_t k = n < PROBE_CLIFF_INITIAL_SECS ? n : PROBE_CLIFF_INITIAL_SECS;
	double total;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!n)
		return -ENODATA;
	if (!all_valid(v, n))
		return -EINVAL;
	out->initial_mbps = sum_of(v, k) / (double)k;
	total = sum_of(v, n);
	i = first_cliff(v, n, PROBE_CLIFF_RATIO * out->initial_mbps);
	if (!i) {
		out->after_mbps = total / (double)n;
		out->gb_before = total / 1000.0;
		return 0;
	}
	out->found = true;
	out->index = i;
	out->after_mbps = sum_of(v + i, n - i) / (double)(n - i);
	out->gb_before = sum_of(v, i) / 1000.0;
	return 0;
}

/* The first second after the cliff that is judged: past the cliff's own,
 * and past the last recovery (recovered_at; one second at the bar is not
 * a recovery). */
static size_t held_first(const double *v, size_t n, const struct probe_cliff *c)
{
	const double bar = PROBE_CLIFF_RATIO * c->initial_mbps;

	for (size_t i = n; i-- > c->index + 1;)
		if (recovered_at(v, n, i, bar))
			return i + PROBE_CLIFF_RECOVER_SECS;
	return c->index + 1;
}

/* Seconds per point: enough that one holds min_mb MB at the mean rate of
 * v[0..n), at least 1, at most n. */
static size_t held_group(const double *v, size_t n, double min_mb)
{
	const double mean = n ? sum_of(v, n) / (double)n : 0.0;
	double g;

	if (!(min_mb > 0) || !(mean > 0))
		return 1;
	g = ceil(min_mb / mean);
	return g < 1 ? 1 : g > (double)n ? (n ? n : 1) : (size_t)g;
}

int probe_cliff_held(const double *v, size_t n, size_t min_after, double pct, double min_mb,
		     struct probe_cliff_held *out)
{
	struct probe_known k;
	double *pts;
	int ret;

	memset(out, 0, sizeof(*out));
	out->half_pct = INFINITY;
	ret = probe_cliff_find(v, n, &out->cliff);
	if (ret < 0 || !out->cliff.found)
		return ret;
	out->first = held_first(v, n, &out->cliff);
	out->after = n - out->first;
	out->group = held_group(v + out->first, out->after, min_mb);
	out->points = out->after / out->group;
	if (!out->points)
		return 0;
	pts = malloc(out->points * sizeof(*pts));
	if (!pts)
		return -ENOMEM;
	for (size_t p = 0; p < out->points; p++)	/* the newest whole points */
		pts[p] = sum_of(v + n - (out->points - p) * out->group, out->group) /
			 (double)out->group;
	if (probe_known_check(pts, out->points, &k) == 0) {
		out->mbps = k.mean;
		out->half_pct = k.half_pct;
	}
	free(pts);
	out->held = out->points >= min_after && out->half_pct <= pct;
	return 0;
}
