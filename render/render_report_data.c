/* render_report_data.c — what the report's charts show, computed apart
 * from how they are drawn: the key metrics (paths into the metric table),
 * their bars, the knee of a
 * queue-depth sweep and the cache cliff of a sustained write.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cliff.h"
#include "report.h"
#include "tw_util.h"

#define KNEE_P99_FACTOR 2.0	/* p99 more than doubles … */
#define KNEE_IOPS_GROWTH 1.2	/* … while IOPS grows less than 20 % */

/* The device table's figures, paths into the metric table (metrics.h),
 * which gives their column heads, chart titles, units and which way is
 * better; chart: the figure also gets a bar chart. */
const struct report_metric report_metrics[] = {
	{ "seq_read.mbps", true },
	{ "seq_write.mbps", true },
	{ "sustained_write.mbps", true },
	{ "rand_read_qd1.iops", true },
	{ "rand_read_qd1.lat_us.p50", false },
	{ "rand_read_qd1.lat_us.p99", true },
	{ "rand_read_qd32.iops", true },
	{ "mixed_70_30.iops", true },
};
const size_t report_n_metrics = ARRAY_SIZE(report_metrics);

const struct model_metric_desc *report_metric_desc(size_t k)
{
	return k < report_n_metrics ? model_metric_find(report_metrics[k].key) : NULL;
}

/* qsort has no context argument: the order of the chart being sorted. */
static enum model_better sort_better;

/* Best first; not measured last; ties and missing in profile order (index). */
static int bar_cmp(const void *pa, const void *pb)
{
	const struct report_bar *a = pa, *b = pb;
	bool ma = isnan(a->value), mb = isnan(b->value);

	if (ma != mb)
		return ma ? 1 : -1;
	if (!ma && a->value != b->value)
		return (a->value > b->value) == (sort_better == MODEL_BETTER_HIGHER) ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

int report_bars_make(const struct model_metric_desc *m, const struct profile_device *const *devs,
		     size_t n, const struct report_plan *rp, struct report_bars *out)
{
	out->n = 0;
	out->v = calloc(n ? n : 1, sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		out->v[i] = (struct report_bar){ .dev = devs[i], .value = model_metric_value(devs[i], m),
						 .tier = report_plan_tier_of(rp, devs[i]->id),
						 .order = i };
	out->n = n;
	sort_better = m->better;
	qsort(out->v, n, sizeof(*out->v), bar_cmp);
	return 0;
}

static bool point_ok(const struct profile_sweep *p)
{
	return p->qd > 0 && p->iops > 0 && p->lat.v[PROFILE_LAT_P99] > 0;
}

bool report_has_sweep(const struct profile_device *d)
{
	for (size_t i = 0; i < d->n_sweep; i++)
		if (point_ok(&d->sweep[i]))
			return true;
	return false;
}

static void knee_set(struct report_knee *k, const struct profile_sweep *p, const char *basis)
{
	k->qd = p->qd;
	k->iops = p->iops;
	k->p99_us = p->lat.v[PROFILE_LAT_P99];
	k->basis = basis;
}

/* The usable point after depth qd with the smallest depth, or NULL. */
static const struct profile_sweep *next_point(const struct profile_device *d, long qd)
{
	const struct profile_sweep *best = NULL;

	for (size_t i = 0; i < d->n_sweep; i++)
		if (point_ok(&d->sweep[i]) && d->sweep[i].qd > qd && (!best || d->sweep[i].qd < best->qd))
			best = &d->sweep[i];
	return best;
}

bool report_sweep_knee(const struct profile_device *d, struct report_knee *k)
{
	const struct profile_sweep *p, *q;

	if (d->lat_target.present && d->lat_target.qd > 0)
		for (size_t i = 0; i < d->n_sweep; i++)
			if (point_ok(&d->sweep[i]) && d->sweep[i].qd == d->lat_target.qd) {
				knee_set(k, &d->sweep[i], "latency target");
				return true;
			}
	for (p = next_point(d, 0); p && (q = next_point(d, p->qd)); p = q)
		if (q->lat.v[PROFILE_LAT_P99] > KNEE_P99_FACTOR * p->lat.v[PROFILE_LAT_P99] &&
		    q->iops < KNEE_IOPS_GROWTH * p->iops) {
			knee_set(k, p, "p99 doubles");
			return true;
		}
	return false;
}

/* Seconds at which the samples before have written gb GB (a sample
 * lasts until the next one, as the probe writes them), or NAN. */
static double t_at_gb(const struct profile_sustained *s, double gb)
{
	double done = 0;

	for (size_t i = 0; i < s->n_series; i++) {
		const struct profile_point *p = &s->series[i];
		double dt = i + 1 < s->n_series ? s->series[i + 1].t - p->t
			    : i ? p->t - s->series[i - 1].t : 1;

		if (done >= gb * (1 - 1e-3))
			return p->t;
		done += p->mbps * dt / 1000;
	}
	return NAN;
}

bool report_sustained_cliff(const struct profile_sustained *s, double *t, const char **basis)
{
	struct probe_cliff c;
	double *v;
	int ret;

	if (!s->present || !s->n_series)
		return false;
	if (s->cliff_after_gb >= 0 && !isnan(*t = t_at_gb(s, s->cliff_after_gb))) {
		*basis = "cliff_after_gb";
		return true;
	}
	/* the probe's own rule (probe/cliff.c), so that report and profile agree */
	if (!(v = malloc(s->n_series * sizeof(*v))))
		return false;
	for (size_t i = 0; i < s->n_series; i++)
		v[i] = s->series[i].mbps;
	ret = probe_cliff_find(v, s->n_series, &c);
	free(v);
	if (ret < 0 || !c.found)
		return false;
	*t = s->series[c.index].t;
	*basis = "below 70 % of the initial rate";
	return true;
}
