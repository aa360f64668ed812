/* render_fleet.c — the fleet as text, Markdown and tierwise.fleet/1 JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "render_fleet.h"

static int out_status(FILE *out)
{
	return ferror(out) ? -EIO : 0;
}

static const char *plan_file(const struct fleet_host *h)
{
	const char *s = h->plan ? strrchr(h->plan->path, '/') : NULL;

	return h->plan ? (s ? s + 1 : h->plan->path) : "-";
}

/* ---- text ------------------------------------------------------------- */

/* Spaces that right-align s (UTF-8: "°C", "µs") in width columns. */
static int pad_for(const char *s, int width)
{
	int cols = 0;

	for (; *s; s++)
		cols += ((unsigned char)*s & 0xC0) != 0x80;
	return cols < width ? width - cols : 0;
}

static void text_outliers(FILE *out, const struct fleet *f)
{
	char n[32], v[48], med[48];

	fprintf(out, "\nOutliers: %zu (a drive %.0f %% or more below its model's fleet median, "
		"measured the same way)\n", f->n_outliers, FLEET_OUTLIER_PCT);
	if (f->n_outliers)
		fprintf(out, "  %-16s %-16s %-28s %-26s %16s %16s %6s\n", "HOST", "DEVICE",
			"MODEL", "FIGURE", "VALUE", "MEDIAN", "BELOW");
	for (size_t i = 0; i < f->n_outliers; i++) {
		const struct fleet_outlier *o = &f->outliers[i];
		const struct fleet_stat *st = &f->stats[o->stat];
		const char *unit = fleet_metric_desc(st->metric)->unit;

		/* the unit goes with the figures, the percentage stands alone */
		render_num(n, sizeof(n), o->value);
		snprintf(v, sizeof(v), "%s %s", n, unit);
		render_num(n, sizeof(n), st->median);
		snprintf(med, sizeof(med), "%s %s", n, unit);
		fprintf(out, "  %-16s %-16s %-28s %-26s ", f->hosts[o->host].name, o->dev->id,
			st->model, fleet_metrics[st->metric].key);
		fprintf(out, "%*s%s %*s%s %5.0f %%\n", pad_for(v, 16), "", v, pad_for(med, 16), "",
			med, o->pct_below);
	}
}

static void text_models(FILE *out, const struct fleet *f)
{
	char med[32], lo[32], hi[32];

	fprintf(out, "\nModels: %zu (median, min - max across the fleet)\n", f->n_models);
	for (size_t k = 0; k < f->n_models; k++) {
		const struct fleet_model *m = &f->models[k];

		fprintf(out, "  %s: %zu device%s", m->model, m->n_devices, m->n_devices == 1 ? "" : "s");
		if (m->n_drives != m->n_devices)	/* namespaces of one drive count once */
			fprintf(out, " (%zu drive%s)", m->n_drives, m->n_drives == 1 ? "" : "s");
		fprintf(out, " on %zu host%s\n", m->n_hosts, m->n_hosts == 1 ? "" : "s");
		for (size_t i = m->first; i < m->first + m->n_stats; i++) {
			const struct fleet_stat *st = &f->stats[i];

			render_num(med, sizeof(med), st->median);
			render_num(lo, sizeof(lo), st->min);
			render_num(hi, sizeof(hi), st->max);
			fprintf(out, "    %-26s %12s %12s - %-12s n=%-4zu %s  [%s]\n",
				fleet_metrics[st->metric].key, med, lo, hi, st->n,
				fleet_metric_desc(st->metric)->unit, st->method);
		}
	}
}

static void text_hosts(FILE *out, const struct fleet *f)
{
	fprintf(out, "\nHosts: %zu (plans beside %zu)\n", f->n_hosts, f->n_plans);
	fprintf(out, "  %-20s %7s %5s %5s %5s %10s %8s  %s\n", "HOST", "DEVICES", "HOT", "WARM",
		"COLD", "UNASSIGNED", "WARNINGS", "PLAN");
	for (size_t i = 0; i < f->n_hosts; i++) {
		const struct fleet_host *h = &f->hosts[i];
		const struct fleet_plan *p = h->plan;

		if (p)
			fprintf(out, "  %-20s %7zu %5zu %5zu %5zu %10zu %8zu  %s\n", h->name,
				h->profile->n_devices, p->n_tier[0], p->n_tier[1], p->n_tier[2],
				p->n_unassigned, p->n_warnings, plan_file(h));
		else
			fprintf(out, "  %-20s %7zu %5s %5s %5s %10s %8s  %s\n", h->name,
				h->profile->n_devices, "-", "-", "-", "-", "-", "no plan");
	}
}

void fleet_summary(char *buf, size_t len, const struct fleet *f)
{
	snprintf(buf, len, "%zu host%s, %zu device%s, %zu model%s; plans for %zu of %zu host%s",
		 f->n_hosts, f->n_hosts == 1 ? "" : "s", f->n_devices, f->n_devices == 1 ? "" : "s",
		 f->n_models, f->n_models == 1 ? "" : "s", f->n_plans, f->n_hosts,
		 f->n_hosts == 1 ? "" : "s");
}

static int text_print(FILE *out, const struct fleet *f)
{
	char sum[200];

	fleet_summary(sum, sizeof(sum), f);
	fprintf(out, "Fleet: %s\n", sum);
	text_outliers(out, f);
	fprintf(out, "\nPlan warnings by kind:");
	for (size_t i = 0; i < f->n_kinds; i++)
		fprintf(out, "%s %s %zu", i ? "," : "", f->kinds[i].kind, f->kinds[i].n);
	fputs(f->n_kinds ? "\n" : " none\n", out);
	text_hosts(out, f);
	text_models(out, f);
	return out_status(out);
}

const struct fleet_render_ops fleet_render_text = { .name = "text", .print = text_print };

/* ---- Markdown --------------------------------------------------------- */

/* A table cell: | and newlines would break the row. */
static void md_cell(FILE *out, const char *s)
{
	fputs("| ", out);
	for (; s && *s; s++)
		if (*s == '|')
			fputs("\\|", out);
		else
			fputc(*s == '\n' ? ' ' : *s, out);
	fputc(' ', out);
}

static void md_outliers(FILE *out, const struct fleet *f)
{
	char v[32], med[32];

	fprintf(out, "\n## Outliers (%zu)\n\nDrives %.0f %% or more below their model's fleet "
		"median on a figure measured the same way.\n\n", f->n_outliers, FLEET_OUTLIER_PCT);
	if (!f->n_outliers)
		return;
	fputs("| host | device | model | figure | value | median | below |\n"
	      "| --- | --- | --- | --- | ---: | ---: | ---: |\n", out);
	for (size_t i = 0; i < f->n_outliers; i++) {
		const struct fleet_outlier *o = &f->outliers[i];
		const struct fleet_stat *st = &f->stats[o->stat];

		render_num(v, sizeof(v), o->value);
		render_num(med, sizeof(med), st->median);
		md_cell(out, f->hosts[o->host].name);
		md_cell(out, o->dev->id);
		md_cell(out, st->model);
		fprintf(out, "| `%s` | %s %s | %s | %.0f %% |\n", fleet_metrics[st->metric].key, v,
			fleet_metric_desc(st->metric)->unit, med, o->pct_below);
	}
}

static void md_models(FILE *out, const struct fleet *f)
{
	char med[32], lo[32], hi[32];

	fputs("\n## Models\n\n| model | figure | n | median | min | max | unit | method |\n"
	      "| --- | --- | ---: | ---: | ---: | ---: | --- | --- |\n", out);
	for (size_t i = 0; i < f->n_stats; i++) {
		const struct fleet_stat *st = &f->stats[i];

		render_num(med, sizeof(med), st->median);
		render_num(lo, sizeof(lo), st->min);
		render_num(hi, sizeof(hi), st->max);
		md_cell(out, st->model);
		fprintf(out, "| `%s` | %zu | %s | %s | %s | %s | %s |\n",
			fleet_metrics[st->metric].key, st->n, med, lo, hi,
			fleet_metric_desc(st->metric)->unit, st->method);
	}
}

static void md_hosts(FILE *out, const struct fleet *f)
{
	fputs("\n## Hosts\n\n| host | devices | hot | warm | cold | unassigned | warnings | plan |\n"
	      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n", out);
	for (size_t i = 0; i < f->n_hosts; i++) {
		const struct fleet_host *h = &f->hosts[i];
		const struct fleet_plan *p = h->plan;

		md_cell(out, h->name);
		if (p)
			fprintf(out, "| %zu | %zu | %zu | %zu | %zu | %zu | %s |\n",
				h->profile->n_devices, p->n_tier[0], p->n_tier[1], p->n_tier[2],
				p->n_unassigned, p->n_warnings, plan_file(h));
		else
			fprintf(out, "| %zu | - | - | - | - | - | no plan |\n", h->profile->n_devices);
	}
}

static int md_print(FILE *out, const struct fleet *f)
{
	char sum[200];

	fleet_summary(sum, sizeof(sum), f);
	fprintf(out, "# Fleet\n\n%s.\n", sum);
	md_outliers(out, f);
	fputs("\n## Plan warnings by kind\n\n", out);
	for (size_t i = 0; i < f->n_kinds; i++)
		fprintf(out, "- %s: %zu\n", f->kinds[i].kind, f->kinds[i].n);
	if (!f->n_kinds)
		fputs("None.\n", out);
	md_hosts(out, f);
	md_models(out, f);
	return out_status(out);
}

const struct fleet_render_ops fleet_render_md = { .name = "md", .print = md_print };

/* ---- JSON (tierwise.fleet/1) ------------------------------------------ */

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* Append v to array a (v's reference taken).  Returns a, or NULL when either
 * is NULL or the append failed (a is then released): a failure surfaces. */
static json_t *push(json_t *a, json_t *v)
{
	if (a && v && json_array_append_new(a, v) == 0)
		return a;
	json_decref(a);
	if (!a || !v)
		json_decref(v);
	return NULL;
}

/* Set o[k] = v (v's reference taken).  Returns o, or NULL as push() does. */
static json_t *put(json_t *o, const char *k, json_t *v)
{
	if (o && v && json_object_set_new(o, k, v) == 0)
		return o;
	json_decref(o);
	if (!o || !v)
		json_decref(v);
	return NULL;
}

static json_t *json_figures(const struct profile_device *d)
{
	json_t *o = json_object();

	for (size_t m = 0; o && m < fleet_n_metrics; m++) {
		double v = model_metric_value(d, fleet_metric_desc(m));

		if (isfinite(v))
			o = put(o, fleet_metrics[m].key, json_real(v));
	}
	return o;
}

static json_t *json_device(const struct fleet_host *h, const struct profile_device *d)
{
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "id", d->id, "model", jstr(d->model),
			 "serial", jstr(d->serial),
			 "capacity_bytes", d->capacity_bytes >= 0 ?
				json_integer(d->capacity_bytes) : json_null(),
			 "tier", jstr(fleet_plan_tier_of(h->plan, d->id)),
			 "figures", json_figures(d));
}

static json_t *json_plan(const struct fleet_plan *p)
{
	json_t *tiers = json_object(), *kinds = json_object();

	if (!p) {
		json_decref(tiers);
		json_decref(kinds);
		return json_null();
	}
	for (int t = 0; tiers && t < TW_TIER_COUNT; t++) {
		json_t *a = json_array();

		for (size_t i = 0; a && i < p->n_tier[t]; i++)
			a = push(a, json_string(p->tier[t][i]));
		tiers = put(tiers, tw_tier_names[t], a);
	}
	for (size_t i = 0; kinds && i < p->n_warnings; i++) {
		json_t *c = json_object_get(kinds, p->warnings[i].kind);

		kinds = put(kinds, p->warnings[i].kind,
			    json_integer(c ? json_integer_value(c) + 1 : 1));
	}
	return json_pack("{s:s, s:o, s:o, s:I, s:I, s:o}", "path", p->path, "score", jnum(p->score),
			 "tiers", tiers, "unassigned", (json_int_t)p->n_unassigned,
			 "warnings", (json_int_t)p->n_warnings, "warnings_by_kind", kinds);
}

static json_t *json_hosts(const struct fleet *f)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < f->n_hosts; i++) {
		const struct fleet_host *h = &f->hosts[i];
		json_t *devs = json_array();

		for (size_t k = 0; devs && k < h->profile->n_devices; k++)
			devs = push(devs, json_device(h, &h->profile->devices[k]));
		a = push(a, json_pack("{s:s, s:s, s:o, s:o, s:o}", "host", h->name,
						   "profile", h->profile_path,
						   "created", jstr(h->profile->created),
						   "devices", devs, "plan", json_plan(h->plan)));
	}
	return a;
}

static json_t *json_models(const struct fleet *f)
{
	json_t *a = json_array();

	for (size_t k = 0; a && k < f->n_models; k++) {
		const struct fleet_model *m = &f->models[k];
		json_t *figs = json_array();

		for (size_t i = m->first; figs && i < m->first + m->n_stats; i++) {
			const struct fleet_stat *st = &f->stats[i];
			const struct model_metric_desc *fm = fleet_metric_desc(st->metric);

			figs = push(figs, json_pack(
				"{s:s, s:s, s:s, s:s, s:I, s:o, s:o, s:o}", "metric", fm->path,
				"unit", fm->unit, "better", model_better_name(fm->better),
				"method", st->method, "n", (json_int_t)st->n,
				"median", jnum(st->median), "min", jnum(st->min), "max", jnum(st->max)));
		}
		a = push(a, json_pack("{s:s, s:I, s:I, s:I, s:o}", "model", m->model,
						   "devices", (json_int_t)m->n_devices,
						   "drives", (json_int_t)m->n_drives,
						   "hosts", (json_int_t)m->n_hosts, "figures", figs));
	}
	return a;
}

static json_t *json_outliers(const struct fleet *f)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < f->n_outliers; i++) {
		const struct fleet_outlier *o = &f->outliers[i];
		const struct fleet_stat *st = &f->stats[o->stat];

		a = push(a, json_pack(
			"{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:s}", "host", f->hosts[o->host].name,
			"profile", f->hosts[o->host].profile_path, "device", o->dev->id,
			"model", st->model, "metric", fleet_metrics[st->metric].key,
			"value", jnum(o->value), "median", jnum(st->median),
			"pct_below", jnum(o->pct_below), "method", st->method));
	}
	return a;
}

static json_t *json_fleet(const struct fleet *f)
{
	json_t *kinds = json_object();

	for (size_t i = 0; kinds && i < f->n_kinds; i++)
		kinds = put(kinds, f->kinds[i].kind, json_integer((json_int_t)f->kinds[i].n));
	return json_pack("{s:s, s:{s:I, s:I, s:I, s:I, s:I}, s:f, s:I, s:o, s:o, s:o, s:o}",
			 "schema", FLEET_SCHEMA, "summary", "hosts", (json_int_t)f->n_hosts,
			 "devices", (json_int_t)f->n_devices, "models", (json_int_t)f->n_models,
			 "plans", (json_int_t)f->n_plans, "outliers", (json_int_t)f->n_outliers,
			 "outlier_pct", FLEET_OUTLIER_PCT, "min_group", (json_int_t)FLEET_MIN_GROUP,
			 "outliers", json_outliers(f), "warnings_by_kind", kinds,
			 "models", json_models(f), "hosts", json_hosts(f));
}

static int json_print(FILE *out, const struct fleet *f)
{
	json_t *root = json_fleet(f);
	int ret;

	if (!root)
		return -ENOMEM;
	ret = json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (ret)
		return ferror(out) ? -EIO : -ENOMEM;
	fputc('\n', out);
	return out_status(out);
}

const struct fleet_render_ops fleet_render_json = { .name = "json", .print = json_print };
