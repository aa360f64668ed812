/* Devices scored and ranked against a workload policy (see score.h). */
#include "score.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- hard constraints ---- */

static void fail(struct model_score *s, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct model_score *s, const char *key, const char *fmt, ...)
{
	struct model_failure *f;
	va_list ap;

	if (s->n_failed >= MODEL_MAX_FAILURES)
		return;
	f = &s->failed[s->n_failed++];
	f->key = key;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
}

static void check_media(const struct model_policy_constraints *c,
			const struct profile_device *d, struct model_score *s)
{
	if (c->media && !(c->media & (1u << d->media)))
		fail(s, "media", "media is %s, not an allowed media",
		     profile_media_name(d->media));
	if (c->rotational == 1 && !d->rotational)
		fail(s, "rotational", "does not spin (rotational: true required)");
	if (c->rotational == 0 && d->rotational)
		fail(s, "rotational", "is rotational (rotational: false required)");
}

static void check_limits(const struct model_policy_constraints *c,
			 const struct profile_device *d, struct model_score *s)
{
	const struct profile_health *h = &d->health;

	if (c->min_capacity_bytes >= 0 && d->capacity_bytes < c->min_capacity_bytes)
		fail(s, "min_capacity_bytes", "capacity %.0f GB < %.0f GB",
		     d->capacity_bytes / 1e9, c->min_capacity_bytes / 1e9);
	if (!isnan(c->max_load_c) && isfinite(d->thermal.load_c) &&
	    d->thermal.load_c > c->max_load_c)
		fail(s, "max_load_c", "load temperature %.0f °C > %.0f °C",
		     d->thermal.load_c, c->max_load_c);
	if (c->max_percentage_used >= 0 && h->percentage_used > c->max_percentage_used)
		fail(s, "max_percentage_used", "percentage used %ld %% > %ld %%",
		     h->percentage_used, c->max_percentage_used);
	if (c->no_critical_warning && h->critical_warning > 0)
		fail(s, "no_critical_warning", "critical warning 0x%lx",
		     (unsigned long)h->critical_warning);
}

/* ---- metrics ---- */

static void score_metrics(const struct model_policy *p, const struct profile_device *d,
			  struct model_score *s)
{
	double sum = 0, wsum = 0, wmeas = 0;

	for (size_t i = 0; i < p->n_metrics; i++) {
		const struct model_policy_metric *pm = &p->metrics[i];
		struct model_contrib *c = &s->contrib[i];

		c->pm = pm;
		c->weight = pm->weight;
		c->value = model_metric_value(d, pm->desc);
		c->utility = model_utility(pm, c->value);
		wsum += pm->weight;
		if (isnan(c->utility)) {
			s->missing[s->n_missing++] = pm->desc->path;
			continue;
		}
		sum += pm->weight * c->utility;
		wmeas += pm->weight;
	}
	s->n_contrib = p->n_metrics;
	s->score = wmeas > 0 ? 100.0 * sum / wmeas : NAN;
	s->confidence = wsum > 0 ? wmeas / wsum : 0;
}

/* ---- estimates ---- */

static void estimate(const struct profile_device *d, const struct model_policy_estimate *pe,
		     struct model_score_estimate *e)
{
	e->pe = pe;
	model_workload(pe, d, &e->w);
	e->value = model_workload_value(pe, &e->w, &e->unit);
}

/* ---- one device ---- */

int model_score_device(const struct model_policy *p, const struct profile_device *d,
		       struct model_score *out)
{
	struct model_score s = { .dev = d };

	s.contrib = calloc(p->n_metrics ? p->n_metrics : 1, sizeof(*s.contrib));
	s.missing = calloc(p->n_metrics ? p->n_metrics : 1, sizeof(*s.missing));
	s.est = calloc(p->n_estimates ? p->n_estimates : 1, sizeof(*s.est));
	if (!s.contrib || !s.missing || !s.est)
		goto err;
	check_media(&p->constraints, d, &s);
	check_limits(&p->constraints, d, &s);
	s.eligible = s.n_failed == 0;
	score_metrics(p, d, &s);
	for (size_t i = 0; i < p->n_estimates; i++)
		estimate(d, &p->estimates[i], &s.est[i]);
	s.n_est = p->n_estimates;
	*out = s;
	return 0;
err:
	model_score_clear(&s);
	memset(out, 0, sizeof(*out));
	return -ENOMEM;
}

void model_score_clear(struct model_score *s)
{
	if (!s)
		return;
	free(s->contrib);
	free(s->missing);
	free(s->est);
	s->contrib = NULL;
	s->missing = NULL;
	s->est = NULL;
	s->n_contrib = s->n_missing = s->n_est = 0;
}

/* ---- ranking ---- */

/* Higher first; NAN last. */
static int cmp_desc(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a < b) - (a > b);
}

static int cmp_score(const void *pa, const void *pb)
{
	const struct model_score *a = pa, *b = pb;
	int c;

	if (a->eligible != b->eligible)
		return a->eligible ? -1 : 1;
	c = cmp_desc(a->score, b->score);
	if (!c)
		c = cmp_desc(a->confidence, b->confidence);
	if (!c)
		c = strcmp(a->dev->id ? a->dev->id : "", b->dev->id ? b->dev->id : "");
	return c;
}

/* When the policy weighs price_per_tb and no device has one, say so. */
static void price_note(struct model_ranking *r)
{
	const struct model_policy *p = r->policy;
	const char *sep = "";
	size_t len = 0;
	bool weighs = false;

	for (size_t i = 0; i < p->n_metrics; i++)
		weighs |= !strcmp(p->metrics[i].desc->path, "price_per_tb") &&
			  p->metrics[i].weight > 0;
	for (size_t i = 0; i < r->n && weighs; i++)
		weighs = isnan(r->v[i].dev->price_per_tb);
	if (!weighs)
		return;
	r->no_price = true;
	len = (size_t)snprintf(r->note, sizeof(r->note), "ranked by ");
	for (size_t i = 0; i < p->n_metrics && len < sizeof(r->note); i++) {
		const struct model_policy_metric *m = &p->metrics[i];

		if (m->weight <= 0 || !strcmp(m->desc->path, "price_per_tb"))
			continue;
		len += (size_t)snprintf(r->note + len, sizeof(r->note) - len, "%s%s",
					sep, m->desc->path);
		sep = " and ";
	}
	if (len < sizeof(r->note))
		snprintf(r->note + len, sizeof(r->note) - len,
			 ": no price per TB known");
}

int model_rank(const struct model_policy *p, const struct profile_device *const *devs,
	       size_t n, struct model_ranking **out)
{
	struct model_ranking *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return -ENOMEM;
	r->policy = p;
	r->v = calloc(n ? n : 1, sizeof(*r->v));
	if (!r->v)
		goto err;
	for (; r->n < n; r->n++)
		if (model_score_device(p, devs[r->n], &r->v[r->n]) < 0)
			goto err;
	qsort(r->v, r->n, sizeof(*r->v), cmp_score);
	price_note(r);
	*out = r;
	return 0;
err:
	model_ranking_free(r);
	return -ENOMEM;
}

void model_ranking_free(struct model_ranking *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		model_score_clear(&r->v[i]);
	free(r->v);
	free(r);
}

const struct model_score *model_ranking_find(const struct model_ranking *r,
					     const char *id)
{
	for (size_t i = 0; r && id && i < r->n; i++)
		if (r->v[i].dev->id && !strcmp(r->v[i].dev->id, id))
			return &r->v[i];
	return NULL;
}

/* ---- prices ---- */

struct model_price {
	char *name;
	double price;
	int line;		/* in the file, from 1 */
};

struct model_prices {
	size_t n;
	struct model_price *v;
};

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* Parse one line (NUL-terminated, modified); a problem goes to diags unless
 * it is NULL.  Returns 0, 1 = skipped, -EINVAL, -ENOMEM. */
static int price_line(struct model_prices *pr, char *line, const char *name, int ln,
		      struct tw_diags *diags)
{
	char *t = trim(line), *sep, *val, *end;
	struct model_price *v;
	double price;

	if (!*t || *t == '#')
		return 1;
	sep = strrchr(t, '=');
	if (!sep)
		sep = strrchr(t, '\t');
	if (!sep || sep == t) {
		if (diags)
			tw_diags_add(diags, name, ln, (int)(t - line) + 1, NULL,
				     "expected NAME = PRICE (or NAME<TAB>PRICE)");
		return -EINVAL;
	}
	*sep = '\0';
	val = trim(sep + 1);
	errno = 0;
	price = strtod(val, &end);
	if (!*val || *end || errno || !isfinite(price) || price < 0) {
		if (diags)
			tw_diags_add(diags, name, ln, (int)(val - line) + 1, trim(t),
				     "must be a price per TB (a number >= 0), not \"%s\"", val);
		return -EINVAL;
	}
	v = realloc(pr->v, (pr->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	pr->v = v;
	v[pr->n].name = strdup(trim(t));
	v[pr->n].price = price;
	v[pr->n].line = ln;
	if (!v[pr->n].name)
		return -ENOMEM;
	pr->n++;
	return 0;
}

/* Problems of a price list shown one per line, at most; the rest are counted. */
#define PRICES_MAX_DIAGS 5

/*
 * A file that is plainly no price list (a profile, fio output, a plan, any
 * JSON or YAML) gets one line naming what it is.  Returns true when it was
 * one.
 */
static bool prices_wrong_kind(const char *text, size_t len, const char *name,
			      struct tw_diags *diags)
{
	enum profile_file_kind k = profile_file_kind(text, len);

	if (k == PROFILE_KIND_TEXT || k == PROFILE_KIND_EMPTY)
		return false;
	tw_diags_add(diags, name, 0, 0, NULL, "this is %s, not a price list: --prices "
		     "wants lines of NAME = PRICE (per TB)", profile_file_kind_name(k));
	return true;
}

int model_prices_parse(const char *text, size_t len, const char *name,
		       struct model_prices **out, struct tw_diags *diags)
{
	struct model_prices *pr = calloc(1, sizeof(*pr));
	char *buf = malloc(len + 1), *line, *next;
	int ln = 0, ret = 0, r, bad = 0;

	*out = NULL;
	if (!pr || !buf) {
		ret = -ENOMEM;
		goto out;
	}
	if (prices_wrong_kind(text, len, name, diags)) {
		ret = -EINVAL;
		goto out;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	for (line = buf; line && ret != -ENOMEM; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		r = price_line(pr, line, name, ++ln, bad < PRICES_MAX_DIAGS ? diags : NULL);
		if (r == -EINVAL)
			bad++;
		if (r < 0)
			ret = r;
	}
	if (bad > PRICES_MAX_DIAGS)
		tw_diags_add(diags, name, 0, 0, NULL, "%d more lines are not NAME = PRICE; "
			     "is this a price list?", bad - PRICES_MAX_DIAGS);
out:
	free(buf);
	if (ret)
		model_prices_free(pr);
	else
		*out = pr;
	return ret;
}

int model_prices_load_file(const char *path, struct model_prices **out,
			   struct tw_diags *diags)
{
	char *buf;
	size_t len;
	int ret = profile_slurp(path, &buf, &len);

	*out = NULL;
	if (ret < 0) {
		tw_diags_add(diags, path, 0, 0, NULL, "cannot read: %s", strerror(-ret));
		return ret;
	}
	ret = model_prices_parse(buf, len, path, out, diags);
	free(buf);
	return ret;
}

static const struct model_price *price_find(const struct model_prices *pr, const char *key)
{
	for (size_t i = 0; key && i < pr->n; i++)
		if (!strcmp(pr->v[i].name, key))
			return &pr->v[i];
	return NULL;
}

bool model_prices_apply(const struct model_prices *pr, struct profile_device *d)
{
	const struct model_price *p;

	if (!pr || !d || !isnan(d->price_per_tb))
		return false;
	p = price_find(pr, d->id);
	if (!p)
		p = price_find(pr, d->model);
	if (!p)
		return false;
	d->price_per_tb = p->price;
	return true;
}

const char *model_prices_entry(const struct model_prices *pr, size_t i, int *line)
{
	if (!pr || i >= pr->n)
		return NULL;
	if (line)
		*line = pr->v[i].line;
	return pr->v[i].name;
}

void model_prices_free(struct model_prices *pr)
{
	if (!pr)
		return;
	for (size_t i = 0; i < pr->n; i++)
		free(pr->v[i].name);
	free(pr->v);
	free(pr);
}

/* Drop the figures of one I/O test: bs, qd, the share and the label stay. */
static void drop_io(struct profile_io *io)
{
	io->mbps = io->iops = io->read_iops = io->write_iops = NAN;
	io->lat = profile_lat_none();
}

size_t model_drop_unwritten(struct profile_device *d)
{
	size_t n = 0;

	for (int t = 0; t < PROFILE_IO_COUNT; t++) {
		if (!d->io[t].present || !profile_unwritten(d, d->io[t].unwritten))
			continue;
		drop_io(&d->io[t]);
		n++;
	}
	if (d->lat_target.present && profile_unwritten(d, d->lat_target.unwritten)) {
		d->lat_target.iops = NAN;
		for (size_t i = 0; i < d->n_sweep; i++) {
			d->sweep[i].iops = NAN;
			d->sweep[i].lat = profile_lat_none();
		}
		n++;
	}
	if (d->under_write.present && profile_unwritten(d, d->under_write.unwritten)) {
		d->under_write.iops = d->under_write.p99_ratio = NAN;
		d->under_write.lat = profile_lat_none();
		n++;
	}
	return n;
}
