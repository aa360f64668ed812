/* Reading and validating tierwise.profile/1 documents. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile.h"
#include "profile_fields.h"
#include "tw_jsonpos.h"

#define PATH_LEN 256

struct rctx {
	struct tw_jsondoc doc;	/* the document, its problems (tw_jsonpos.h) */
	bool no_device;		/* the device's results are the null engine's:
				 * no I/O, so no device's bounds (want_figure) */
};

/* Record a problem at path's position (or its enclosing object's). */
#define bad(c, path, ...) tw_jsondoc_bad(&(c)->doc, path, __VA_ARGS__)

/* path + "." + key into out; an over-long path is cut (the key still names it). */
static void child_path(char *out, const char *path, const char *key)
{
	tw_json_child(out, PATH_LEN, path, key);
}

static void index_path(char *out, const char *path, size_t i)
{
	if (snprintf(out, PATH_LEN, "%s[%zu]", path, i) >= PATH_LEN)
		out[PATH_LEN - 1] = '\0';
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

static int enum_lookup(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

static void enum_bad(struct rctx *c, const char *path, const char *const *names,
		     const char *s)
{
	char list[256] = "";
	size_t off = 0;

	for (int i = 0; names[i] && off < sizeof(list); i++)
		off += snprintf(list + off, sizeof(list) - off, "%s%s",
				i ? ", " : "", names[i]);
	bad(c, path, "unknown value \"%s\" (expected one of: %s)", s, list);
}

static bool want_number(struct rctx *c, const char *path, const json_t *v,
			double lo, bool lo_open, double hi, double *out)
{
	double x;

	if (!json_is_number(v)) {
		bad(c, path, "must be a number, not %s", type_name(v));
		return false;
	}
	x = json_number_value(v);
	if (!isfinite(x)) {
		bad(c, path, "must be finite");
		return false;
	}
	if (lo_open && x <= lo && lo == 0) {
		bad(c, path, "must be greater than 0 (%g is not a measurement; use null)", x);
		return false;
	}
	if (x < lo) {
		bad(c, path, lo == 0 ? "must not be negative (%g)" : "%g is below the minimum", x);
		return false;
	}
	if (x > hi) {
		bad(c, path, "%g is above the maximum %g", x, hi);
		return false;
	}
	*out = x;
	return true;
}

/* A measured figure: > 0, and at most `most` (in unit), beyond what any
 * device does (profile_fields.h), unless the null engine ran (it does no
 * I/O: its rates are the probe's own, 28 TB/s of 1 MiB reads here). */
static bool want_figure(struct rctx *c, const char *path, const json_t *v,
			double most, const char *unit, double *out)
{
	double x;

	if (!want_number(c, path, v, 0, true, INFINITY, &x))
		return false;
	if (x > most && !c->no_device) {
		bad(c, path, "%.10g %s is more than any device does (at most %g): not a measurement",
		    x, unit, most);
		return false;
	}
	*out = x;
	return true;
}

static bool want_integer(struct rctx *c, const char *path, const json_t *v,
			 json_int_t lo, json_int_t *out)
{
	if (!json_is_integer(v)) {
		bad(c, path, "must be an integer, not %s", json_is_real(v) ?
		    "a fraction" : type_name(v));
		return false;
	}
	if (json_integer_value(v) < lo) {
		bad(c, path, lo ? "must be at least %lld" : "must not be negative",
		    (long long)lo);
		return false;
	}
	*out = json_integer_value(v);
	return true;
}

static void decode_object(struct rctx *c, const json_t *obj, const char *path,
			  const struct pf_table *t, void *base);

static void decode_lat(struct rctx *c, const json_t *v, const char *path,
		       struct profile_lat *lat)
{
	char p[PATH_LEN];
	const char *key;
	const json_t *x;
	double prev = 0;
	const char *prev_name = NULL;

	*lat = profile_lat_none();
	if (!json_is_object(v)) {
		bad(c, path, "must be an object of latencies in microseconds, not %s",
		    type_name(v));
		return;
	}
	json_object_foreach((json_t *)v, key, x) {
		int f = enum_lookup(pf_lat_names, key);

		child_path(p, path, key);
		if (f < 0)
			bad(c, p, "unknown key (expected mean, p50, p90, p99, p999, max)");
		else if (!json_is_null(x))
			want_figure(c, p, x, PF_MOST_US, "µs", &lat->v[f]);
	}
	/* percentiles present must not decrease */
	for (int f = PROFILE_LAT_P50; f <= PROFILE_LAT_MAX; f++) {
		if (isnan(lat->v[f]))
			continue;
		if (prev_name && lat->v[f] < prev) {
			child_path(p, path, pf_lat_names[f]);
			bad(c, p, "%g is below %s (%g): percentiles must not decrease",
			    lat->v[f], prev_name, prev);
		}
		prev = lat->v[f];
		prev_name = pf_lat_names[f];
	}
}

/* Decode one table field from v (not null) into base. */
static void decode_field(struct rctx *c, const struct pf_field *f,
			 const json_t *v, const char *path, void *base)
{
	char *at = (char *)base + f->off;
	json_int_t i;
	double x;
	int e;

	switch (f->kind) {
	case PF_STR:
		if (!json_is_string(v))
			bad(c, path, "must be a string, not %s", type_name(v));
		else if ((f->flags & PF_REQUIRED) && !json_string_length(v) &&
			 !strcmp(f->key, "id"))
			bad(c, path, "must not be empty");
		else if (!(*(char **)at = strdup(json_string_value(v))))
			c->doc.err = -ENOMEM;
		break;
	case PF_BOOL:
		if (!json_is_boolean(v))
			bad(c, path, "must be true or false, not %s", type_name(v));
		else
			*(bool *)at = json_is_true(v);
		break;
	case PF_OPTBOOL:
		if (!json_is_boolean(v))
			bad(c, path, "must be true, false or null, not %s", type_name(v));
		else
			*(int *)at = json_is_true(v);
		break;
	case PF_I64:
		if (want_integer(c, path, v, 0, &i))
			*(int64_t *)at = i;
		break;
	case PF_POSINT:
	case PF_COUNT:
		if (want_integer(c, path, v, f->kind == PF_POSINT, &i))
			*(long *)at = (long)i;
		break;
	case PF_POS:
	case PF_NONNEG:
		if (want_number(c, path, v, 0, f->kind == PF_POS, INFINITY, &x))
			*(double *)at = x;
		break;
	case PF_IOPS:
		if (want_figure(c, path, v, PF_MOST_IOPS, "IOPS", &x))
			*(double *)at = x;
		break;
	case PF_MBPS:
		if (want_figure(c, path, v, PF_MOST_MBPS, "MB/s", &x))
			*(double *)at = x;
		break;
	case PF_US:
		if (want_figure(c, path, v, PF_MOST_US, "µs", &x))
			*(double *)at = x;
		break;
	case PF_TEMP:
		if (want_number(c, path, v, -50, false, 200, &x))
			*(double *)at = x;
		break;
	case PF_FRAC:
		if (want_number(c, path, v, 0, false, 1, &x))
			*(double *)at = x;
		break;
	case PF_ENUM:
		if (!json_is_string(v))
			bad(c, path, "must be a string, not %s", type_name(v));
		else if ((e = enum_lookup(f->names, json_string_value(v))) < 0)
			enum_bad(c, path, f->names, json_string_value(v));
		else
			*(int *)at = e;
		break;
	case PF_LAT:
		decode_lat(c, v, path, (struct profile_lat *)at);
		break;
	case PF_OBJ:
		decode_object(c, v, path, f->sub, at);
		break;
	}
}

static const struct pf_field *find_field(const struct pf_table *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->f[i].key, key))
			return &t->f[i];
	return NULL;
}

/*
 * Decode obj with table t into base.  Keys the table does not know are
 * reported unless extra(key) claims them (extra may be NULL).
 */
static void decode_known(struct rctx *c, const json_t *obj, const char *path,
			 const struct pf_table *t, void *base,
			 bool (*extra)(const char *key))
{
	char p[PATH_LEN];
	const char *key;
	const json_t *v;

	if (!json_is_object(obj)) {
		bad(c, path, "must be an object, not %s", type_name(obj));
		return;
	}
	json_object_foreach((json_t *)obj, key, v) {
		const struct pf_field *f = find_field(t, key);

		child_path(p, path, key);
		if (!f) {
			if (!extra || !extra(key))
				bad(c, p, "unknown key");
		} else if (json_is_null(v)) {
			if (f->flags & PF_REQUIRED)
				bad(c, p, "must not be null");
		} else {
			decode_field(c, f, v, p, base);
		}
	}
	for (size_t i = 0; i < t->n; i++) {
		if ((t->f[i].flags & PF_REQUIRED) &&
		    !json_object_get(obj, t->f[i].key)) {
			child_path(p, path, t->f[i].key);
			bad(c, p, "required key is missing");
		}
	}
}

static void decode_object(struct rctx *c, const json_t *obj, const char *path,
			  const struct pf_table *t, void *base)
{
	decode_known(c, obj, path, t, base, NULL);
}

/* Decode an array of objects described by t into a new array (*out, *n). */
static void decode_array(struct rctx *c, const json_t *arr, const char *path,
			 const struct pf_table *t, size_t elem, void (*init)(void *),
			 void **out, size_t *n)
{
	char p[PATH_LEN];
	size_t cnt;

	if (!json_is_array(arr)) {
		bad(c, path, "must be an array, not %s", type_name(arr));
		return;
	}
	cnt = json_array_size(arr);
	*out = cnt ? calloc(cnt, elem) : NULL;
	if (cnt && !*out) {
		c->doc.err = -ENOMEM;
		return;
	}
	*n = cnt;
	for (size_t i = 0; i < cnt; i++) {
		void *e = (char *)*out + i * elem;

		index_path(p, path, i);
		init(e);
		decode_object(c, json_array_get(arr, i), p, t, e);
	}
}

static void init_point(void *e)
{
	struct profile_point *pt = e;

	pt->t = pt->mbps = pt->temp_c = NAN;
}

static void init_sweep(void *e)
{
	struct profile_sweep *s = e;

	s->qd = -1;
	s->iops = NAN;
	s->lat = profile_lat_none();
}

static void init_iorate(void *e)
{
	struct profile_iorate *s = e;

	s->pct = s->offered_iops = s->iops = NAN;
	s->lat = profile_lat_none();
}

static void decode_sustained(struct rctx *c, const json_t *v, const char *path,
			     struct profile_sustained *s);

static bool sustained_extra(const char *key)
{
	return !strcmp(key, "series");
}

static void decode_sustained(struct rctx *c, const json_t *v, const char *path,
			     struct profile_sustained *s)
{
	char p[PATH_LEN];
	const json_t *series;

	s->present = true;
	decode_known(c, v, path, &pf_sustained, s, sustained_extra);
	series = json_is_object(v) ? json_object_get(v, "series") : NULL;
	if (series && !json_is_null(series)) {
		child_path(p, path, "series");
		decode_array(c, series, p, &pf_point, sizeof(struct profile_point),
			     init_point, (void **)&s->series, &s->n_series);
	}
}

/* The application object named key under results, or NULL. */
static const struct pf_app_result *app_result(const char *key)
{
	for (size_t i = 0; i < pf_app_result_count; i++)
		if (!strcmp(pf_app_results[i].key, key))
			return &pf_app_results[i];
	return NULL;
}

static void decode_results(struct rctx *c, const json_t *v, const char *path,
			   struct profile_device *d)
{
	const struct pf_app_result *ar;
	char p[PATH_LEN];
	const char *key;
	const json_t *x;
	int t;

	if (!json_is_object(v)) {
		bad(c, path, "must be an object, not %s", type_name(v));
		return;
	}
	json_object_foreach((json_t *)v, key, x) {
		child_path(p, path, key);
		if (json_is_null(x))
			continue;
		if ((t = enum_lookup(pf_io_names, key)) >= 0) {
			d->io[t].present = true;
			decode_object(c, x, p, &pf_io, &d->io[t]);
		} else if (!strcmp(key, "sustained_write")) {
			decode_sustained(c, x, p, &d->sustained);
		} else if (!strcmp(key, "latency_target")) {
			d->lat_target.present = true;
			decode_object(c, x, p, &pf_lat_target, &d->lat_target);
		} else if (!strcmp(key, "qd_sweep")) {
			decode_array(c, x, p, &pf_sweep, sizeof(struct profile_sweep),
				     init_sweep, (void **)&d->sweep, &d->n_sweep);
		} else if (!strcmp(key, "read_under_write")) {
			d->under_write.present = true;
			decode_object(c, x, p, &pf_under_write, &d->under_write);
		} else if (!strcmp(key, "iorate")) {
			decode_array(c, x, p, &pf_iorate, sizeof(struct profile_iorate),
				     init_iorate, (void **)&d->iorate, &d->n_iorate);
		} else if ((ar = app_result(key))) {
			d->app.present = true;
			decode_object(c, x, p, ar->t, &d->app);
		} else {
			bad(c, p, "unknown test (expected seq_read, seq_write, rand_read_qd1, "
			    "rand_read_qd32, mixed_70_30, sustained_write, qd_sweep, latency_target, "
			    "read_under_write, iorate, buffered_read, buffered_read_plan, mmap_read, "
			    "direct_read, mmap_fault, fsync_write, seq_read_inner)");
		}
	}
}

static void decode_notes(struct rctx *c, const json_t *v, const char *path,
			 struct profile_device *d)
{
	char p[PATH_LEN];
	size_t i;
	const json_t *x;

	if (!json_is_array(v)) {
		bad(c, path, "must be an array of strings, not %s", type_name(v));
		return;
	}
	json_array_foreach(v, i, x) {
		index_path(p, path, i);
		if (!json_is_string(x))
			bad(c, p, "must be a string, not %s", type_name(x));
		else if (profile_device_add_note(d, json_string_value(x)) < 0)
			c->doc.err = -ENOMEM;
	}
}

static bool device_extra(const char *key)
{
	return !strcmp(key, "results") || !strcmp(key, "notes") ||
	       !strcmp(key, "thermal") || !strcmp(key, "health") ||
	       !strcmp(key, "link") || !strcmp(key, "multipath") ||
	       !strcmp(key, "fabric") || !strcmp(key, "zoned");
}

static void init_throttle(void *e)
{
	struct profile_throttle *t = e;

	t->t = t->temp_c = NAN;
}

static bool thermal_extra(const char *key)
{
	return !strcmp(key, "throttle");
}

static void decode_thermal(struct rctx *c, const json_t *v, const char *path,
			   struct profile_thermal *t)
{
	char p[PATH_LEN];
	const json_t *a;

	decode_known(c, v, path, &pf_thermal, t, thermal_extra);
	a = json_is_object(v) ? json_object_get(v, "throttle") : NULL;
	if (a && !json_is_null(a)) {
		child_path(p, path, "throttle");
		decode_array(c, a, p, &pf_throttle, sizeof(struct profile_throttle),
			     init_throttle, (void **)&t->throttle, &t->n_throttle);
	}
}

static bool health_extra(const char *key)
{
	return !strcmp(key, "sensors_c") || !strcmp(key, "critical_warnings");
}

/* sensors_c: up to 8 temperatures or nulls; critical_warnings: bit names. */
static void decode_health_arrays(struct rctx *c, const json_t *v, const char *path,
				 struct profile_health *h)
{
	char p[PATH_LEN], q[PATH_LEN];
	const json_t *a, *x;
	size_t i;

	if ((a = json_object_get(v, "sensors_c")) && !json_is_null(a)) {
		child_path(p, path, "sensors_c");
		if (!json_is_array(a) || json_array_size(a) > PROFILE_SENSORS)
			bad(c, p, "must be an array of at most %d temperatures", PROFILE_SENSORS);
		else
			json_array_foreach(a, i, x) {
				index_path(q, p, i);
				if (!json_is_null(x))
					want_number(c, q, x, -50, false, 200, &h->sensors_c[i]);
			}
	}
	if ((a = json_object_get(v, "critical_warnings")) && !json_is_null(a)) {
		child_path(p, path, "critical_warnings");
		if (!json_is_array(a))
			bad(c, p, "must be an array of names");
		else
			json_array_foreach(a, i, x) {
				index_path(q, p, i);
				if (!json_is_string(x) || enum_lookup(pf_crit_names, json_string_value(x)) < 0)
					enum_bad(c, q, pf_crit_names, json_is_string(x) ?
						 json_string_value(x) : "(not a string)");
			}
	}
}

static void decode_health(struct rctx *c, const json_t *v, const char *path,
			  struct profile_health *h)
{
	h->present = true;
	decode_known(c, v, path, &pf_health, h, health_extra);
	if (json_is_object(v))
		decode_health_arrays(c, v, path, h);
}

static bool link_extra(const char *key)
{
	return !strcmp(key, "upstream");
}

/* link: the PCIe link facts, with upstream an array of PCI addresses. */
static void decode_link(struct rctx *c, const json_t *v, const char *path,
			struct profile_link *l)
{
	char p[PATH_LEN], q[PATH_LEN];
	const json_t *a, *x;
	size_t i;

	l->present = true;
	decode_known(c, v, path, &pf_link, l, link_extra);
	a = json_is_object(v) ? json_object_get(v, "upstream") : NULL;
	if (!a || json_is_null(a))
		return;
	child_path(p, path, "upstream");
	if (!json_is_array(a)) {
		bad(c, p, "must be an array of PCI addresses, not %s", type_name(a));
		return;
	}
	l->upstream = calloc(json_array_size(a) + 1, sizeof(*l->upstream));
	if (!l->upstream) {
		c->doc.err = -ENOMEM;
		return;
	}
	json_array_foreach(a, i, x) {
		index_path(q, p, i);
		if (!json_is_string(x))
			bad(c, q, "must be a string, not %s", type_name(x));
		else if (!(l->upstream[l->n_upstream++] = strdup(json_string_value(x))))
			c->doc.err = -ENOMEM;
	}
}

static bool multipath_extra(const char *key)
{
	return !strcmp(key, "paths");
}

static bool path_extra(const char *key)
{
	return !strcmp(key, "link");
}

/* One of multipath.paths[]: its fields, and its PCIe link when given. */
static void decode_path(struct rctx *c, const json_t *v, const char *path,
			struct profile_path *q)
{
	char p[PATH_LEN];
	const json_t *x;

	q->numa_node = -1;
	q->link.speed_gts = q->link.max_speed_gts = NAN;
	q->link.width = q->link.max_width = q->link.numa_node = -1;
	decode_known(c, v, path, &pf_path, q, path_extra);
	x = json_is_object(v) ? json_object_get(v, "link") : NULL;
	if (x && !json_is_null(x)) {
		child_path(p, path, "link");
		decode_link(c, x, p, &q->link);
	}
}

/* multipath.paths: an array of paths into m. */
static void decode_paths(struct rctx *c, const json_t *a, const char *path,
			 struct profile_multipath *m)
{
	char p[PATH_LEN];
	size_t n;

	if (!json_is_array(a)) {
		bad(c, path, "must be an array, not %s", type_name(a));
		return;
	}
	n = json_array_size(a);
	if (n && !(m->paths = calloc(n, sizeof(*m->paths)))) {
		c->doc.err = -ENOMEM;
		return;
	}
	m->n_paths = n;
	for (size_t i = 0; i < n; i++) {
		index_path(p, path, i);
		decode_path(c, json_array_get(a, i), p, &m->paths[i]);
	}
}

/* multipath: an NVMe multipath head's subsystem, paths an array of objects. */
static void decode_multipath(struct rctx *c, const json_t *v, const char *path,
			     struct profile_multipath *m)
{
	char p[PATH_LEN];
	const json_t *a;

	m->present = true;
	decode_known(c, v, path, &pf_multipath, m, multipath_extra);
	a = json_is_object(v) ? json_object_get(v, "paths") : NULL;
	if (a && !json_is_null(a)) {
		child_path(p, path, "paths");
		decode_paths(c, a, p, m);
	}
}

/* What SATA 6 Gb/s carries after 8b/10b, and 24G SAS a port (two ports
 * on a dual-ported drive), in MB/s. */
#define SATA_MBPS 600.0
#define SAS_PORT_MBPS 2400.0
/* No 4 KiB read behind a SATA, SAS or PCIe link answers in under this
 * (the fastest storage-class memory: about 5 µs at QD1). */
#define LINK_FLOOR_US 1.0

/*
 * The most d's interface carries, in MB/s, and why (INFINITY: no bound
 * known): SATA 600; SAS 2,400 a port, 4,800 for a multipath head; an NVMe
 * drive on a PCIe link read with it, the most that link trains to (its
 * maximum speed and width; a multipath head's paths add up, so none).
 */
static double interface_mbps(const struct profile_device *d, char *why, size_t len)
{
	double l, gts;
	long w;

	switch (d->transport) {
	case PROFILE_TR_SATA:
		snprintf(why, len, "what SATA 6 Gb/s carries");
		return SATA_MBPS;
	case PROFILE_TR_SAS:
		snprintf(why, len, d->multipath.present ? "what two 24G SAS ports carry"
			 : "what a 24G SAS port carries");
		return SAS_PORT_MBPS * (d->multipath.present ? 2 : 1);
	case PROFILE_TR_NVME:	/* the most its link can train to: a catalog
				   figure beside a degraded link is a warning */
		gts = d->link.max_speed_gts > 0 ? d->link.max_speed_gts : d->link.speed_gts;
		w = d->link.max_width > 0 ? d->link.max_width : d->link.width;
		l = d->link.present && !d->multipath.present ? profile_link_mbps(gts, w) : NAN;
		if (isnan(l))
			return INFINITY;
		snprintf(why, len, "what a PCIe %d.0 x%ld link carries", profile_link_gen(gts), w);
		return l;
	default:
		return INFINITY;
	}
}

/*
 * Figures no device has: a QD1 4 KiB read under LINK_FLOOR_US behind a
 * SATA, SAS or PCIe link, and in a catalog (figures typed or copied, not
 * measured here) each O_DIRECT rate (MB/s, and IOPS × block size) and the
 * sustained write above what its interface carries (interface_mbps()).
 * A measurement on this machine is what the device did: a virtual one is
 * not bound by the link it reports (QEMU's NVMe drives report a 2.5 GT/s
 * x1 link, 250 MB/s, and read 350 MB/s).  Page-cache figures (the app
 * test) are not the device's and are not judged.  Not for the null
 * engine's results (no I/O).
 */
static void interface_bounds(struct rctx *c, const char *path, const struct profile_device *d)
{
	char p[PATH_LEN + 64], why[64];
	const double most = d->probe.mode == PROFILE_MODE_CATALOG ?
			    interface_mbps(d, why, sizeof(why)) : INFINITY;
	const struct profile_io *q1 = &d->io[PROFILE_RAND_READ_QD1];

	if (d->probe.engine && !strcmp(d->probe.engine, "null"))
		return;
	for (int k = 0; isfinite(most) && k < PROFILE_IO_COUNT; k++) {
		const struct profile_io *io = &d->io[k];
		double x = !isnan(io->mbps) ? io->mbps : io->iops * (double)io->bs / 1e6;

		if (!io->present || !(x > most))
			continue;
		snprintf(p, sizeof(p), "%s.results.%s.%s", path, profile_io_test_name(k),
			 !isnan(io->mbps) ? "mbps" : "iops");
		bad(c, p, "%.0f MB/s is more than %s (%.0f MB/s, %s): not a measurement of it",
		    x, profile_transport_name(d->transport), most, why);
	}
	if (isfinite(most) && d->sustained.present && d->sustained.mbps > most) {
		snprintf(p, sizeof(p), "%s.results.sustained_write.mbps", path);
		bad(c, p, "%.0f MB/s is more than %s (%.0f MB/s, %s): not a measurement of it",
		    d->sustained.mbps, profile_transport_name(d->transport), most, why);
	}
	if ((d->transport == PROFILE_TR_SATA || d->transport == PROFILE_TR_SAS ||
	     d->transport == PROFILE_TR_NVME) && q1->present &&
	    q1->lat.v[PROFILE_LAT_P50] < LINK_FLOOR_US) {
		snprintf(p, sizeof(p), "%s.results.rand_read_qd1.lat_us.p50", path);
		bad(c, p, "%g µs is less than any %s device answers a 4 KiB read in (at least "
		    "%g µs behind its link): not a measurement", q1->lat.v[PROFILE_LAT_P50],
		    profile_transport_name(d->transport), LINK_FLOOR_US);
	}
}

static void decode_device(struct rctx *c, const json_t *v, const char *path,
			  struct profile_device *d)
{
	char p[PATH_LEN];
	const json_t *x;

	decode_known(c, v, path, &pf_device, d, device_extra);
	if (!json_is_object(v))
		return;
	x = json_object_get(v, "results");
	if (x && !json_is_null(x)) {
		child_path(p, path, "results");
		c->no_device = d->probe.engine && !strcmp(d->probe.engine, "null");
		decode_results(c, x, p, d);
		c->no_device = false;
	}
	x = json_object_get(v, "thermal");
	if (x && !json_is_null(x)) {
		child_path(p, path, "thermal");
		decode_thermal(c, x, p, &d->thermal);
	}
	x = json_object_get(v, "health");
	if (x && !json_is_null(x)) {
		child_path(p, path, "health");
		decode_health(c, x, p, &d->health);
	}
	x = json_object_get(v, "link");
	if (x && !json_is_null(x)) {
		child_path(p, path, "link");
		decode_link(c, x, p, &d->link);
	}
	x = json_object_get(v, "multipath");
	if (x && !json_is_null(x)) {
		child_path(p, path, "multipath");
		decode_multipath(c, x, p, &d->multipath);
	}
	x = json_object_get(v, "fabric");
	if (x && !json_is_null(x)) {
		child_path(p, path, "fabric");
		d->fabric.present = true;
		decode_object(c, x, p, &pf_fabric, &d->fabric);
	}
	x = json_object_get(v, "zoned");
	if (x && !json_is_null(x)) {
		child_path(p, path, "zoned");
		d->zoned.present = true;
		decode_object(c, x, p, &pf_zoned, &d->zoned);
	}
	x = json_object_get(v, "notes");
	if (x && !json_is_null(x)) {
		child_path(p, path, "notes");
		decode_notes(c, x, p, d);
	}
	interface_bounds(c, path, d);
}

static void decode_devices(struct rctx *c, const json_t *arr, struct profile *pr)
{
	char p[PATH_LEN], idp[PATH_LEN];
	size_t i;
	const json_t *v;

	if (!json_is_array(arr)) {
		bad(c, "devices", "must be an array, not %s", type_name(arr));
		return;
	}
	json_array_foreach(arr, i, v) {
		struct profile_device *d = profile_add_device(pr, NULL);

		if (!d) {
			c->doc.err = -ENOMEM;
			return;
		}
		index_path(p, "devices", i);
		decode_device(c, v, p, d);
		for (size_t j = 0; d->id && j + 1 < pr->n_devices; j++) {
			if (pr->devices[j].id && !strcmp(pr->devices[j].id, d->id)) {
				child_path(idp, p, "id");
				bad(c, idp, "duplicate device id \"%s\" (also devices[%zu])",
				    d->id, j);
				break;
			}
		}
	}
}

/* RFC 3339 date-time: 2026-11-29T20:15:00Z, optional fraction, Z or ±hh:mm. */
static bool is_rfc3339(const char *s)
{
	int y, mo, d, h, mi, sec, n = 0;

	if (sscanf(s, "%4d-%2d-%2d%*1[Tt]%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi,
		   &sec, &n) != 6 || n != 19)
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return false;
	s += n;
	if (*s == '.') {
		s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'Z' || *s == 'z')
		return s[1] == '\0';
	if ((*s == '+' || *s == '-') && sscanf(s + 1, "%2d:%2d%n", &h, &mi, &n) == 2)
		return n == 5 && s[6] == '\0' && h <= 23 && mi <= 59;
	return false;
}

static bool top_extra(const char *key)
{
	return !strcmp(key, "schema") || !strcmp(key, "devices") || !strcmp(key, "links");
}

static bool has_device(const struct profile *pr, const char *id)
{
	for (size_t i = 0; i < pr->n_devices; i++)
		if (pr->devices[i].id && !strcmp(pr->devices[i].id, id))
			return true;
	return false;
}

/* One group of links[]: devices (ids of this profile), figures. */
static void decode_shared(struct rctx *c, const json_t *g, const char *path,
			  struct profile *pr)
{
	char p[PATH_LEN], q[PATH_LEN];
	const json_t *ids = json_is_object(g) ? json_object_get(g, "devices") : NULL, *x;
	const char *key, *idv[64];
	double solo = NAN, together = NAN;
	size_t i, n = 0;

	if (!json_is_object(g)) {
		bad(c, path, "must be an object, not %s", type_name(g));
		return;
	}
	json_object_foreach((json_t *)g, key, x) {
		child_path(p, path, key);
		if (!strcmp(key, "solo_sum_mbps") || !strcmp(key, "together_mbps")) {
			if (!json_is_null(x))
				want_number(c, p, x, 0, true, INFINITY,
					    key[0] == 's' ? &solo : &together);
		} else if (strcmp(key, "devices")) {
			bad(c, p, "unknown key");
		}
	}
	child_path(p, path, "devices");
	if (!ids || !json_is_array(ids) || json_array_size(ids) < 2 ||
	    json_array_size(ids) > 64) {
		bad(c, p, "must be an array of 2 to 64 device ids");
		return;
	}
	json_array_foreach(ids, i, x) {
		index_path(q, p, i);
		if (!json_is_string(x))
			bad(c, q, "must be a string, not %s", type_name(x));
		else if (!has_device(pr, json_string_value(x)))
			bad(c, q, "no device \"%s\" in this profile", json_string_value(x));
		else
			idv[n++] = json_string_value(x);
	}
	if (n == json_array_size(ids) &&
	    profile_add_shared(pr, idv, n, solo, together) < 0)
		c->doc.err = -ENOMEM;
}

static void decode_links(struct rctx *c, const json_t *v, struct profile *pr)
{
	char p[PATH_LEN];
	const json_t *g;
	size_t i;

	if (!json_is_array(v)) {
		bad(c, "links", "must be an array, not %s", type_name(v));
		return;
	}
	json_array_foreach(v, i, g) {
		index_path(p, "links", i);
		decode_shared(c, g, p, pr);
	}
}

static void decode_top(struct rctx *c, const json_t *root, struct profile *pr)
{
	const json_t *v;

	if (!json_is_object(root)) {
		bad(c, "", "a profile must be a JSON object, not %s", type_name(root));
		return;
	}
	v = json_object_get(root, "schema");
	if (!v)
		bad(c, "schema", "required key is missing (expected \"%s\")", PROFILE_SCHEMA);
	else if (!json_is_string(v) || strcmp(json_string_value(v), PROFILE_SCHEMA)) {
		/* another document (an inventory, a plan): one line says it all */
		if (json_is_string(v) && !strcmp(json_string_value(v), "tierwise.inventory/1"))
			bad(c, "schema", "this is \"tierwise.inventory/1\" (what `tierwise list "
			    "--format json` writes), not a profile: give what `tierwise probe -o "
			    "FILE` writes");
		else
			bad(c, "schema", "not a tierwise profile: expected \"%s\", found %s%s%s",
			    PROFILE_SCHEMA, json_is_string(v) ? "\"" : "",
			    json_is_string(v) ? json_string_value(v) : type_name(v),
			    json_is_string(v) ? "\"" : "");
		return;
	}
	decode_known(c, root, "", &pf_top, pr, top_extra);
	if (pr->created && !is_rfc3339(pr->created))
		bad(c, "created", "\"%s\" is not an RFC 3339 date-time", pr->created);
	v = json_object_get(root, "devices");
	if (!v)
		bad(c, "devices", "required key is missing");
	else
		decode_devices(c, v, pr);
	v = json_object_get(root, "links");
	if (v && !json_is_null(v))
		decode_links(c, v, pr);
}

/*
 * A text that is no JSON: one line, naming what it is when it is YAML,
 * plain text or empty, else jansson's error and where.  Returns -EINVAL or
 * -ENOMEM.
 */
static int not_json(const char *text, size_t len, const char *name,
		    const json_error_t *je, struct tw_diags *diags)
{
	enum profile_file_kind k = profile_file_kind(text, len);
	int r;

	if (k == PROFILE_KIND_YAML || k == PROFILE_KIND_TEXT || k == PROFILE_KIND_EMPTY)
		r = tw_diags_add(diags, name, 0, 0, NULL, "this is %s, not JSON: expected a "
				 "tierwise profile (what `tierwise probe -o FILE` writes)",
				 profile_file_kind_name(k));
	else
		r = tw_diags_add(diags, name, je->line, je->column, NULL,
				 "not valid JSON: %s", je->text);
	return r < 0 ? -ENOMEM : -EINVAL;
}

/*
 * A JSON document of another kind than a profile (fio output, a plan, an
 * inventory, a fleet summary) gets one line that says what it is and what
 * to do, instead of a line per key it lacks.  Returns true when it was one.
 */
static bool wrong_kind(const json_t *root, const char *name, struct tw_diags *diags)
{
	enum profile_file_kind k = json_is_object(root) ? pf_json_kind(root) :
			      PROFILE_KIND_JSON;

	switch (k) {
	case PROFILE_KIND_FIO:
		tw_diags_add(diags, name, 0, 0, NULL, "this is fio output: run "
			     "`tierwise import fio %s`", name ? name : "FILE");
		return true;
	case PROFILE_KIND_PLAN:
	case PROFILE_KIND_FLEET:
	case PROFILE_KIND_INVENTORY:
		tw_diags_add(diags, name, 0, 0, NULL, "this is %s, not a profile: expected "
			     "a tierwise profile (what `tierwise probe -o FILE` writes)",
			     profile_file_kind_name(k));
		return true;
	default:
		return false;
	}
}

int profile_read_string(const char *text, size_t len, const char *name,
			struct profile **out, struct tw_diags *diags)
{
	struct rctx c = { .doc = { .name = name, .text = text, .len = len, .d = diags } };
	struct profile *pr;
	json_error_t je;
	json_t *root;

	*out = NULL;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
	if (!root)
		return not_json(text, len, name, &je, diags);
	if (wrong_kind(root, name, diags))
		return json_decref(root), -EINVAL;
	pr = calloc(1, sizeof(*pr));
	if (!pr) {
		c.doc.err = -ENOMEM;
	} else {
		decode_top(&c, root, pr);
	}
	json_decref(root);
	tw_jsonpos_free(c.doc.ix);
	if (c.doc.err) {
		profile_free(pr);
		return c.doc.err;
	}
	*out = pr;
	return 0;
}

int profile_slurp(const char *path, char **buf, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 0, n = 0;
	char *b = NULL;
	int ret = 0;

	struct stat st;

	if (!f)
		return -errno;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {	/* not "I/O error" */
		if (f != stdin)
			fclose(f);
		return -EISDIR;
	}
	for (;;) {
		if (cap - n < 4096) {
			char *nb = realloc(b, cap = cap ? cap * 2 : 65536);

			if (!nb) {
				ret = -ENOMEM;
				goto out;
			}
			b = nb;
		}
		size_t r = fread(b + n, 1, cap - n - 1, f);

		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f))
		ret = -EIO;
out:
	if (f != stdin)
		fclose(f);
	if (ret) {
		free(b);
		return ret;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int profile_read_file(const char *path, struct profile **out,
		      struct tw_diags *diags)
{
	char *text;
	size_t len;
	int ret = profile_slurp(path, &text, &len);

	*out = NULL;
	if (ret < 0)
		return ret;
	ret = profile_read_string(text, len, path, out, diags);
	free(text);
	return ret;
}
