/* known.c — the confidence band of a measured rate (known.h). */
#include "known.h"

#include <errno.h>
#include <math.h>

/* Student's t, two-sided 95 %, for 1 … PROBE_KNOWN_BATCHES − 1 degrees of freedom. */
static const double t975[PROBE_KNOWN_BATCHES] = {
	0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
};

int probe_known_check_w(const double *v, const double *w, size_t n, struct probe_known *out)
{
	size_t b, per, first;
	double sum = 0.0, ss = 0.0;

	out->mean = 0.0;
	out->half_pct = INFINITY;
	out->batches = 0;
	if (n < PROBE_KNOWN_MIN_WINDOWS)
		return -EAGAIN;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]) || v[i] < 0 || (w && (!isfinite(w[i]) || !(w[i] > 0))))
			return -EINVAL;
	b = n < PROBE_KNOWN_BATCHES ? n : PROBE_KNOWN_BATCHES;
	per = n / b;
	first = n - b * per;	/* the oldest left over: dropped */
	for (size_t k = 0; k < b; k++) {
		double m = 0.0, t = 0.0;

		for (size_t i = first + k * per; i < first + (k + 1) * per; i++) {
			m += v[i] * (w ? w[i] : 1.0);
			t += w ? w[i] : 1.0;
		}
		m /= t;
		sum += m;
		ss += m * m;
	}
	out->batches = b;
	out->mean = sum / (double)b;
	if (!(out->mean > 0))
		return 0;
	ss = fmax(0.0, (ss - (double)b * out->mean * out->mean) / (double)(b - 1));
	out->half_pct = t975[b - 1] * sqrt(ss) / sqrt((double)b) / out->mean * 100.0;
	return 0;
}

int probe_known_check(const double *v, size_t n, struct probe_known *out)
{
	return probe_known_check_w(v, NULL, n, out);
}

bool probe_known_w(const double *v, const double *w, size_t n, double pct)
{
	struct probe_known k;

	return probe_known_check_w(v, w, n, &k) == 0 && k.half_pct <= pct;
}

bool probe_known(const double *v, size_t n, double pct)
{
	return probe_known_w(v, NULL, n, pct);
}

bool probe_known_below_w(const double *v, const double *w, size_t n, double mark)
{
	struct probe_known k;

	return mark > 0 && probe_known_check_w(v, w, n, &k) == 0 && isfinite(k.half_pct) &&
	       k.mean * (1.0 + k.half_pct / 100.0) < mark;
}

double probe_known_projected(double half_pct, double t, double t_cap)
{
	return half_pct * sqrt(t / t_cap);
}
