#include "cliff.h"

#include <errno.h>
#include <math.h>
#include <string.h>

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

/*
 * The first i >= 1 with v[i] < bar and mean(v[i..n)) < bar, or 0 when none.
 * Walks backwards so that each suffix sum is built exactly once.
 */
static size_t first_cliff(const double *v, size_t n, double bar)
{
	double tail = 0.0;
	size_t found = 0;

	for (size_t i = n; i-- > 1;) {
		tail += v[i];
		if (v[i] < bar && tail / (double)(n - i) < bar)
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
