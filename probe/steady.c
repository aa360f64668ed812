#include "steady.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define W PROBE_STEADY_WINDOWS

static bool all_valid(const double *v)
{
	for (unsigned i = 0; i < W; i++)
		if (!isfinite(v[i]) || v[i] < 0.0)
			return false;
	return true;
}

static double mean_of(const double *v)
{
	double sum = 0.0;

	for (unsigned i = 0; i < W; i++)
		sum += v[i];
	return sum / W;
}

static double max_dev(const double *v, double m)
{
	double dev = 0.0;

	for (unsigned i = 0; i < W; i++)
		dev = fmax(dev, fabs(v[i] - m));
	return dev;
}

/* Least-squares slope of v[x] over x = 0..W-1, per window. */
static double ls_slope(const double *v, double m)
{
	const double xm = (W - 1) / 2.0;
	double sxy = 0.0, sxx = 0.0;

	for (unsigned i = 0; i < W; i++) {
		sxy += (i - xm) * (v[i] - m);
		sxx += (i - xm) * (i - xm);
	}
	return sxy / sxx;
}

int probe_steady_check(const double *v, size_t n, struct probe_steady *out)
{
	const double *last;

	memset(out, 0, sizeof(*out));
	if (n < W)
		return -EAGAIN;
	last = v + (n - W);
	if (!all_valid(last))
		return -EINVAL;
	out->mean = mean_of(last);
	if (out->mean <= 0.0)
		return 0;
	out->spread_pct = max_dev(last, out->mean) / out->mean * 100.0;
	out->slope_pct = ls_slope(last, out->mean) * (W - 1) / out->mean * 100.0;
	out->steady = out->spread_pct <= PROBE_STEADY_SPREAD_PCT &&
		      fabs(out->slope_pct) <= PROBE_STEADY_SLOPE_PCT;
	return 0;
}
