/* fleet_stats.c — the fleet's figures: per model, key figure and way of
 * measuring, the median, min and max; the drives 20 % or more below their
 * model's median; the plans' warnings counted by kind. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"

/* One figure of one device. */
struct sample {
	const char *model;
	size_t metric, host;
	const struct profile_device *dev;
	double value;
	char method[64];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double fleet_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int cmp_group(const struct sample *a, const struct sample *b)
{
	int c = strcmp(a->model, b->model);

	if (c)
		return c;
	if (a->metric != b->metric)
		return a->metric < b->metric ? -1 : 1;
	return strcmp(a->method, b->method);
}

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;
	int c = cmp_group(x, y);

	if (c)
		return c;
	return (x->host > y->host) - (x->host < y->host);
}

/* Every measured figure of every device with a model.  Returns 0 or -ENOMEM. */
static int collect(const struct fleet *f, struct sample **out, size_t *n)
{
	struct sample *s = calloc(f->n_devices * fleet_n_metrics + 1, sizeof(*s));

	*n = 0;
	if (!(*out = s))
		return -ENOMEM;
	for (size_t h = 0; h < f->n_hosts; h++)
		for (size_t i = 0; i < f->hosts[h].profile->n_devices; i++) {
			const struct profile_device *d = &f->hosts[h].profile->devices[i];

			for (size_t m = 0; d->model && *d->model && m < fleet_n_metrics; m++) {
				const struct model_metric_desc *desc = fleet_metric_desc(m);
				struct sample *x = &s[*n];

				x->value = model_metric_value(d, desc);
				if (!isfinite(x->value))
					continue;
				x->model = d->model;
				x->metric = m;
				x->host = h;
				x->dev = d;
				fleet_method(d, desc, x->method, sizeof(x->method));
				(*n)++;
			}
		}
	qsort(s, *n, sizeof(*s), cmp_sample);
	return 0;
}

/* How far below median v is in performance terms (%), or -1 when not below. */
static double pct_below(enum model_better better, double v, double median)
{
	double ratio;

	if (!(median > 0) || (better == MODEL_BETTER_LOWER && !(v > 0)))
		return -1;
	ratio = better == MODEL_BETTER_HIGHER ? v / median : median / v;
	return ratio < 1 ? (1 - ratio) * 100 : -1;
}

static int add_outlier(struct fleet *f, const struct sample *x, double pct)
{
	if ((f->n_outliers & (f->n_outliers + 1)) == 0) {	/* 0, 1, 3, 7: grow */
		void *v = realloc(f->outliers, 2 * (f->n_outliers + 1) * sizeof(*f->outliers));

		if (!v)
			return -ENOMEM;
		f->outliers = v;
	}
	f->outliers[f->n_outliers++] = (struct fleet_outlier){
		.host = x->host, .dev = x->dev, .stat = f->n_stats - 1, .value = x->value,
		.pct_below = pct,
	};
	return 0;
}

/* The stat of group s[0..n) (same model, metric, method), and its outliers. */
static int add_group(struct fleet *f, const struct sample *s, size_t n, double *tmp)
{
	const struct fleet_metric *m = &fleet_metrics[s->metric];
	enum model_better better = fleet_metric_desc(s->metric)->better;
	struct fleet_stat *st = &f->stats[f->n_stats];
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		tmp[i] = s[i].value;
	*st = (struct fleet_stat){ .model = s->model, .metric = s->metric, .n = n,
				   .median = fleet_median(tmp, n), .min = tmp[0],
				   .max = tmp[n - 1], .method = strdup(s->method) };
	if (!st->method)
		return -ENOMEM;
	f->n_stats++;
	for (size_t i = 0; m->outliers && n >= FLEET_MIN_GROUP && !ret && i < n; i++) {
		double pct = pct_below(better, s[i].value, st->median);

		if (pct >= FLEET_OUTLIER_PCT - 1e-9)
			ret = add_outlier(f, &s[i], pct);
	}
	return ret;
}

static int make_stats(struct fleet *f, const struct sample *s, size_t n)
{
	double *tmp = malloc((n + 1) * sizeof(*tmp));
	int ret = 0;

	f->stats = calloc(n + 1, sizeof(*f->stats));
	if (!tmp || !f->stats) {
		free(tmp);
		return -ENOMEM;
	}
	for (size_t i = 0, j; !ret && i < n; i = j) {
		for (j = i + 1; j < n && !cmp_group(&s[i], &s[j]); j++)
			;
		ret = add_group(f, s + i, j - i, tmp);
	}
	free(tmp);
	return ret;
}

static int cmp_outlier(const void *a, const void *b)
{
	const struct fleet_outlier *x = a, *y = b;

	if (x->pct_below != y->pct_below)
		return x->pct_below < y->pct_below ? 1 : -1;
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return x->stat < y->stat ? -1 : x->stat > y->stat;
}

struct devref {
	const char *model;
	size_t host;
	const struct profile_device *dev;
};

static int cmp_devref(const void *a, const void *b)
{
	const struct devref *x = a, *y = b;
	int c = strcmp(x->model, y->model);

	if (c)
		return c;
	return (x->host > y->host) - (x->host < y->host);
}

/* Is r[i] a namespace of a drive counted already: an earlier device of its
 * model on its host (r sorted) with its non-null drive_id? */
static bool drive_seen(const struct devref *r, size_t i)
{
	const char *id = r[i].dev->drive_id;

	for (size_t j = i; id && j-- > 0 && r[j].host == r[i].host && !strcmp(r[j].model, r[i].model);)
		if (r[j].dev->drive_id && !strcmp(r[j].dev->drive_id, id))
			return true;
	return false;
}

/* Count the devices, drives and hosts of each model (models sorted like
 * stats). */
static int count_devices(const struct fleet *f)
{
	struct devref *r = calloc(f->n_devices + 1, sizeof(*r));
	size_t n = 0, k = 0;

	if (!r)
		return -ENOMEM;
	for (size_t h = 0; h < f->n_hosts; h++)
		for (size_t i = 0; i < f->hosts[h].profile->n_devices; i++) {
			const struct profile_device *d = &f->hosts[h].profile->devices[i];

			if (d->model && *d->model)
				r[n++] = (struct devref){ d->model, h, d };
		}
	qsort(r, n, sizeof(*r), cmp_devref);
	for (size_t i = 0; i < n && k < f->n_models; i++) {
		int c;

		while (k < f->n_models && (c = strcmp(f->models[k].model, r[i].model)) < 0)
			k++;
		if (k == f->n_models || c > 0)	/* a model without any figure */
			continue;
		f->models[k].n_devices++;
		f->models[k].n_drives += !drive_seen(r, i);
		f->models[k].n_hosts += i == 0 || strcmp(r[i - 1].model, r[i].model) ||
					r[i - 1].host != r[i].host;
	}
	free(r);
	return 0;
}

/* One entry per model: where its stats are, how many devices and hosts. */
static int make_models(struct fleet *f)
{
	if (!(f->models = calloc(f->n_stats + 1, sizeof(*f->models))))
		return -ENOMEM;
	for (size_t i = 0; i < f->n_stats; i++) {
		struct fleet_model *m = &f->models[f->n_models];

		if (f->n_models && !strcmp(m[-1].model, f->stats[i].model)) {
			m[-1].n_stats++;
			continue;
		}
		*m = (struct fleet_model){ .model = f->stats[i].model, .first = i, .n_stats = 1 };
		f->n_models++;
	}
	return count_devices(f);
}

static int count_kind(struct fleet *f, const char *kind)
{
	struct fleet_kind_count *v;

	for (size_t i = 0; i < f->n_kinds; i++)
		if (!strcmp(f->kinds[i].kind, kind)) {
			f->kinds[i].n++;
			return 0;
		}
	if (!(v = realloc(f->kinds, (f->n_kinds + 1) * sizeof(*v))))
		return -ENOMEM;
	f->kinds = v;
	if (!(v[f->n_kinds].kind = strdup(kind)))
		return -ENOMEM;
	v[f->n_kinds++].n = 1;
	return 0;
}

static int cmp_kind(const void *a, const void *b)
{
	const struct fleet_kind_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->kind, y->kind);
}

static int count_kinds(struct fleet *f)
{
	int ret = 0;

	for (size_t h = 0; !ret && h < f->n_hosts; h++)
		for (size_t i = 0; f->hosts[h].plan && !ret && i < f->hosts[h].plan->n_warnings; i++)
			ret = count_kind(f, f->hosts[h].plan->warnings[i].kind);
	if (!ret && f->n_kinds)
		qsort(f->kinds, f->n_kinds, sizeof(*f->kinds), cmp_kind);
	return ret;
}

void fleet_clear_stats(struct fleet *f)
{
	for (size_t i = 0; i < f->n_stats; i++)
		free(f->stats[i].method);
	free(f->stats);
	free(f->models);
	free(f->outliers);
	for (size_t i = 0; i < f->n_kinds; i++)
		free(f->kinds[i].kind);
	free(f->kinds);
	f->stats = NULL;
	f->models = NULL;
	f->outliers = NULL;
	f->kinds = NULL;
	f->n_stats = f->n_models = f->n_outliers = f->n_kinds = 0;
}

int fleet_analyse(struct fleet *f)
{
	struct sample *s = NULL;
	size_t n = 0;
	int ret;

	fleet_clear_stats(f);
	ret = collect(f, &s, &n);
	if (!ret)
		ret = make_stats(f, s, n);
	if (!ret)
		ret = make_models(f);
	if (!ret)
		ret = count_kinds(f);
	if (!ret && f->n_outliers)
		qsort(f->outliers, f->n_outliers, sizeof(*f->outliers), cmp_outlier);
	free(s);
	if (ret)
		fleet_clear_stats(f);
	return ret;
}
