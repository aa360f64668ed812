/* Writing tierwise.profile/1 documents from the same field tables. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_fields.h"
#include "tw_outfile.h"

/* A number as JSON: integral values print without ".0". */
static json_t *num(double x)
{
	if (x == floor(x) && fabs(x) < 9007199254740992.0)
		return json_integer((json_int_t)x);
	return json_real(x);
}

static json_t *lat_json(const struct profile_lat *l)
{
	json_t *o = json_object();

	for (int f = 0; o && f < PROFILE_LAT_COUNT; f++)
		if (!isnan(l->v[f]))
			json_object_set_new(o, pf_lat_names[f], num(l->v[f]));
	return o;
}

static bool lat_empty(const struct profile_lat *l)
{
	for (int f = 0; f < PROFILE_LAT_COUNT; f++)
		if (!isnan(l->v[f]))
			return false;
	return true;
}

static json_t *table_json(const struct pf_table *t, const void *base);

/* A nested object; an optional one with nothing known is omitted (NULL). */
static json_t *obj_json(const struct pf_field *f, const void *at)
{
	json_t *v = table_json(f->sub, at);

	if (v && !(f->flags & PF_REQUIRED) && !json_object_size(v)) {
		json_decref(v);
		return NULL;
	}
	return v;
}

/* The JSON value of field f, or NULL when absent. */
static json_t *field_json(const struct pf_field *f, const void *base)
{
	const char *at = (const char *)base + f->off;
	double x;

	switch (f->kind) {
	case PF_STR:
		return *(char *const *)at ? json_string(*(char *const *)at) : NULL;
	case PF_BOOL:
		return json_boolean(*(const bool *)at);
	case PF_OPTBOOL:
		return *(const int *)at < 0 ? NULL : json_boolean(*(const int *)at);
	case PF_I64:
		return *(const int64_t *)at >= 0 ? json_integer(*(const int64_t *)at) : NULL;
	case PF_POSINT:
	case PF_COUNT:
		return *(const long *)at >= 0 ? json_integer(*(const long *)at) : NULL;
	case PF_POS:
	case PF_IOPS:
	case PF_MBPS:
	case PF_US:
	case PF_NONNEG:
	case PF_TEMP:
	case PF_FRAC:
		x = *(const double *)at;
		return isnan(x) ? NULL : num(x);
	case PF_ENUM:
		return json_string(f->names[*(const int *)at]);
	case PF_LAT:
		return lat_empty((const struct profile_lat *)at) ? NULL :
			lat_json((const struct profile_lat *)at);
	case PF_OBJ:
		return obj_json(f, at);
	}
	return NULL;
}

static json_t *table_json(const struct pf_table *t, const void *base)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < t->n; i++) {
		json_t *v = field_json(&t->f[i], base);

		if (!v && (t->f[i].flags & PF_NULLOUT))
			v = json_null();
		if (v)
			json_object_set_new(o, t->f[i].key, v);
	}
	return o;
}

static json_t *results_json(const struct profile_device *d)
{
	json_t *r = json_object(), *a, *s;

	for (int t = 0; r && t < PROFILE_IO_COUNT; t++)
		if (d->io[t].present)
			json_object_set_new(r, pf_io_names[t], table_json(&pf_io, &d->io[t]));
	if (r && d->sustained.present) {
		s = table_json(&pf_sustained, &d->sustained);
		if (s && d->sustained.n_series) {
			a = json_array();
			for (size_t i = 0; a && i < d->sustained.n_series; i++)
				json_array_append_new(a, table_json(&pf_point,
						      &d->sustained.series[i]));
			json_object_set_new(s, "series", a);
		}
		json_object_set_new(r, "sustained_write", s);
	}
	if (r && d->n_sweep) {
		a = json_array();
		for (size_t i = 0; a && i < d->n_sweep; i++)
			json_array_append_new(a, table_json(&pf_sweep, &d->sweep[i]));
		json_object_set_new(r, "qd_sweep", a);
	}
	if (r && d->lat_target.present)
		json_object_set_new(r, "latency_target", table_json(&pf_lat_target, &d->lat_target));
	if (r && d->under_write.present)
		json_object_set_new(r, "read_under_write", table_json(&pf_under_write,
								      &d->under_write));
	for (size_t i = 0; r && d->app.present && i < pf_app_result_count; i++) {
		const struct pf_app_result *ar = &pf_app_results[i];

		if (!isnan(*(const double *)((const char *)&d->app + ar->figure)))
			json_object_set_new(r, ar->key, table_json(ar->t, &d->app));
	}
	if (r && d->n_iorate) {
		a = json_array();
		for (size_t i = 0; a && i < d->n_iorate; i++)
			json_array_append_new(a, table_json(&pf_iorate, &d->iorate[i]));
		json_object_set_new(r, "iorate", a);
	}
	return r;
}

static json_t *thermal_json(const struct profile_thermal *t)
{
	json_t *o = table_json(&pf_thermal, t), *a;

	if (o && t->n_throttle) {
		a = json_array();
		for (size_t i = 0; a && i < t->n_throttle; i++)
			json_array_append_new(a, table_json(&pf_throttle, &t->throttle[i]));
		json_object_set_new(o, "throttle", a);
	}
	return o;
}

static json_t *health_json(const struct profile_health *h)
{
	json_t *o = table_json(&pf_health, h), *names = json_array(), *sensors = json_array();
	bool any = false;

	for (int b = 0; names && h->critical_warning > 0 && pf_crit_names[b]; b++)
		if (h->critical_warning & (1L << b))
			json_array_append_new(names, json_string(pf_crit_names[b]));
	for (int i = 0; i < PROFILE_SENSORS; i++)
		any |= !isnan(h->sensors_c[i]);
	for (int i = 0; sensors && any && i < PROFILE_SENSORS; i++)
		json_array_append_new(sensors, isnan(h->sensors_c[i]) ? json_null() :
				      num(h->sensors_c[i]));
	if (o) {
		json_object_set_new(o, "critical_warnings", h->critical_warning >= 0 ? names : json_null());
		json_object_set_new(o, "sensors_c", any ? sensors : json_null());
		if (h->critical_warning < 0)
			json_decref(names);
		if (!any)
			json_decref(sensors);
	}
	return o;
}

static json_t *link_json(const struct profile_link *l)
{
	json_t *o = table_json(&pf_link, l), *a = json_array();

	for (size_t i = 0; a && i < l->n_upstream; i++)
		json_array_append_new(a, json_string(l->upstream[i]));
	if (o && a)
		json_object_set_new(o, "upstream", a);
	else
		json_decref(a);
	return o;
}

/* multipath: the subsystem's facts and every path. */
static json_t *multipath_json(const struct profile_multipath *m)
{
	json_t *o = table_json(&pf_multipath, m), *a = json_array();

	for (size_t i = 0; a && i < m->n_paths; i++) {
		json_t *q = table_json(&pf_path, &m->paths[i]);

		if (q && m->paths[i].link.present)
			json_object_set_new(q, "link", link_json(&m->paths[i].link));
		json_array_append_new(a, q);
	}
	if (o && a)
		json_object_set_new(o, "paths", a);
	else
		json_decref(a);
	return o;
}

static json_t *device_json(const struct profile_device *d)
{
	json_t *o = table_json(&pf_device, d), *notes = json_array();

	if (!o || !notes) {
		json_decref(o);
		json_decref(notes);
		return NULL;
	}
	json_object_set_new(o, "results", results_json(d));
	json_object_set_new(o, "thermal", thermal_json(&d->thermal));
	json_object_set_new(o, "health", d->health.present ? health_json(&d->health) : json_null());
	if (d->link.present)
		json_object_set_new(o, "link", link_json(&d->link));
	if (d->multipath.present)
		json_object_set_new(o, "multipath", multipath_json(&d->multipath));
	if (d->fabric.present)
		json_object_set_new(o, "fabric", table_json(&pf_fabric, &d->fabric));
	if (d->zoned.present)
		json_object_set_new(o, "zoned", table_json(&pf_zoned, &d->zoned));
	for (size_t i = 0; i < d->n_notes; i++)
		json_array_append_new(notes, json_string(d->notes[i]));
	json_object_set_new(o, "notes", notes);
	return o;
}

/* links: the groups of devices found sharing a bottleneck. */
static json_t *links_json(const struct profile *p)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < p->n_links; i++) {
		const struct profile_shared *g = &p->links[i];
		json_t *o = json_object(), *ids = json_array();

		for (size_t k = 0; ids && k < g->n_ids; k++)
			json_array_append_new(ids, json_string(g->ids[k]));
		json_object_set_new(o, "devices", ids);
		json_object_set_new(o, "solo_sum_mbps", isnan(g->solo_sum_mbps) ? json_null() :
				    num(g->solo_sum_mbps));
		json_object_set_new(o, "together_mbps", isnan(g->together_mbps) ? json_null() :
				    num(g->together_mbps));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *profile_json(const struct profile *p)
{
	json_t *o = json_object(), *top = table_json(&pf_top, p);
	json_t *devs = json_array();

	if (!o || !top || !devs)
		goto err;
	json_object_set_new(o, "schema", json_string(PROFILE_SCHEMA));
	if (json_object_update(o, top) < 0)
		goto err;
	for (size_t i = 0; i < p->n_devices; i++)
		if (json_array_append_new(devs, device_json(&p->devices[i])) < 0)
			goto err;
	json_object_set_new(o, "devices", devs);
	if (p->n_links)
		json_object_set_new(o, "links", links_json(p));
	json_decref(top);
	return o;
err:
	json_decref(o);
	json_decref(top);
	json_decref(devs);
	return NULL;
}

char *profile_write_string(const struct profile *p)
{
	json_t *o = profile_json(p);
	char *s, *nl;

	if (!o)
		return NULL;
	s = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	json_decref(o);
	if (s && (nl = realloc(s, strlen(s) + 2))) {	/* end with a newline */
		s = nl;
		strcat(s, "\n");
	}
	return s;
}

int profile_write_file(const struct profile *p, const char *path, char *err, size_t len)
{
	char *s = profile_write_string(p);
	int ret;

	if (!s) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	ret = tw_outfile_write_string(path, s, err, len);
	free(s);
	return ret;
}
