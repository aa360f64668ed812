/* Renderers of rankings: one small text table per policy, and
 * tierwise.score/1 JSON. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "render_workload.h"
#include "score.h"
#include "tw_util.h"

void render_pad(FILE *out, const char *s, int width)
{
	int cols = 0;

	for (const char *p = s; *p; p++)
		cols += ((unsigned char)*p & 0xC0) != 0x80;
	fputs(s, out);
	for (; cols < width; cols++)
		fputc(' ', out);
}

void render_value(char *buf, size_t len, double v, const char *unit)
{
	if (unit && !strcmp(unit, "bytes"))
		tw_fmt_bytes(buf, len, v, TW_BYTES_DECIMAL);
	else
		tw_fmt_count(buf, len, v);
}

void render_estimate(char *buf, size_t len, double v, const char *unit)
{
	char n[32];

	if (unit && (!strcmp(unit, "s") || !strcmp(unit, "h"))) {
		tw_fmt_duration(buf, len, !strcmp(unit, "h") ? v * 3600 : v);
		return;
	}
	render_value(n, sizeof(n), v, unit);
	if (isnan(v) || !unit || !strcmp(unit, "bytes"))
		snprintf(buf, len, "%s", n);
	else
		snprintf(buf, len, "%s %s", n, unit);
}

/* ---- text ---- */

static const char *est_name(const struct model_score_estimate *e)
{
	return e->pe->label ? e->pe->label : e->pe->name;
}

/* Display columns of s (UTF-8 characters). */
static int cols_of(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static void text_row(FILE *out, size_t rank, const struct model_score *s, int idw)
{
	char est[48] = "-";

	if (s->n_est && s->est[0].w.fits == 0)
		snprintf(est, sizeof(est), "no fit");
	else if (s->n_est && !isnan(s->est[0].value))
		render_estimate(est, sizeof(est), s->est[0].value, s->est[0].unit);
	fprintf(out, "  %3zu  ", rank);
	render_pad(out, s->dev->id, idw);
	if (!s->eligible) {
		fprintf(out, "      -     -  %-10s  excluded: %s: %s\n", est,
			s->failed[0].key, s->failed[0].msg);
		return;
	}
	if (isnan(s->score))	/* no figure the policy weighs was measured */
		fprintf(out, "      -  %4.2f  %-10s", s->confidence, est);
	else
		fprintf(out, "  %5.1f  %4.2f  %-10s", s->score, s->confidence, est);
	for (size_t i = 0; i < s->n_missing; i++)
		fprintf(out, "%s%s", i ? ", " : "  missing: ", s->missing[i]);
	fputc('\n', out);
}

static void text_one(FILE *out, const struct model_ranking *r)
{
	const struct model_policy *p = r->policy;
	const char *first = r->n && r->v[0].n_est ? est_name(&r->v[0].est[0]) : "";

	fprintf(out, "%s (%s)%s%s\n", p->name, p->tier, p->description ? ": " : "",
		p->description ? p->description : "");
	int idw = 14;	/* the widest id sets the column */

	for (size_t i = 0; i < r->n; i++)
		if (cols_of(r->v[i].dev->id) > idw)
			idw = cols_of(r->v[i].dev->id);
	fprintf(out, "  %3s  ", "#");
	render_pad(out, "DEVICE", idw);
	fprintf(out, "  %5s  %4s  %s\n", "SCORE", "CONF", first);
	for (size_t i = 0; i < r->n; i++)
		text_row(out, i + 1, &r->v[i], idw);
	if (r->note[0])
		fprintf(out, "  note: %s\n", r->note);
}

static void text_print(FILE *out, struct model_ranking *const *r, size_t n,
		       const char *policies_from)
{
	(void)policies_from;	/* the command prints it after the table */
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc('\n', out);
		text_one(out, r[i]);
	}
}

const struct score_render_ops score_render_text = { .name = "text", .print = text_print };

/* ---- JSON ---- */

/* A number, or null when not known; rounded to `places` decimals. */
static json_t *num(double v, int places)
{
	double k = pow(10, places);

	return isfinite(v) ? json_real(round(v * k) / k) : json_null();
}

static json_t *json_contribs(const struct model_score *s)
{
	json_t *o = json_object();

	for (size_t i = 0; i < s->n_contrib; i++) {
		const struct model_contrib *c = &s->contrib[i];

		json_object_set_new(o, c->pm->desc->path,
			json_pack("{s:o, s:s, s:o, s:f}", "value", num(c->value, 3),
				  "unit", c->pm->desc->unit, "utility", num(c->utility, 4),
				  "weight", c->weight));
	}
	return o;
}

static json_t *json_estimates(const struct model_ranking *r, const struct model_score *s)
{
	json_t *a = json_array();

	for (size_t i = 0; i < s->n_est; i++)
		render_workload_json(a, r->policy->name, s->est[i].pe, &s->est[i].w, NULL);
	return a;
}

static json_t *json_score(const struct model_ranking *r, const struct model_score *s)
{
	json_t *o = json_pack("{s:s, s:o, s:b, s:o}", "id", s->dev->id, "score",
			      num(s->score, 2), "eligible", s->eligible, "confidence",
			      num(s->confidence, 3));
	json_t *failed = json_array(), *missing = json_array();

	for (size_t i = 0; i < s->n_failed; i++)
		json_array_append_new(failed, json_pack("{s:s, s:s}", "constraint",
							s->failed[i].key, "why",
							s->failed[i].msg));
	for (size_t i = 0; i < s->n_missing; i++)
		json_array_append_new(missing, json_string(s->missing[i]));
	json_object_set_new(o, "failed", failed);
	json_object_set_new(o, "contributions", json_contribs(s));
	json_object_set_new(o, "missing", missing);
	json_object_set_new(o, "estimates", json_estimates(r, s));
	return o;
}

static json_t *json_ranking(const struct model_ranking *r)
{
	json_t *rank = json_array();
	json_t *o = json_pack("{s:s, s:s}", "name", r->policy->name, "tier",
			      r->policy->tier);

	for (size_t i = 0; i < r->n; i++)
		json_array_append_new(rank, json_score(r, &r->v[i]));
	json_object_set_new(o, "ranking", rank);
	if (r->note[0])
		json_object_set_new(o, "note", json_string(r->note));
	json_object_set_new(o, "no_price", json_boolean(r->no_price));
	return o;
}

static void json_print(FILE *out, struct model_ranking *const *r, size_t n,
		       const char *policies_from)
{
	json_t *pols = json_array();
	json_t *root = json_pack("{s:s}", "schema", "tierwise.score/1");

	json_object_set_new(root, "policies_from",
			    policies_from ? json_string(policies_from) : json_null());
	for (size_t i = 0; i < n; i++)
		json_array_append_new(pols, json_ranking(r[i]));
	json_object_set_new(root, "policies", pols);
	json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	fputc('\n', out);
	json_decref(root);
}

const struct score_render_ops score_render_json = { .name = "json", .print = json_print };
