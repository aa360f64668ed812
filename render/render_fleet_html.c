/* render_fleet_html.c — the fleet as one self-contained HTML page (inline CSS
 * and SVG, no script, nothing fetched), in the house style of `tierwise
 * report`: the outliers first, then the plans' warnings, the hosts and, per
 * model, each figure's range across the fleet with its median and outliers.
 * Every string from a profile or a plan goes through render_html_esc().
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_fleet.h"

static const char fleet_css[] =
	":root{--hot:#f6d5d0;--warm:#fbe8c4;--cold:#d4e4f4;--ink:#1d2330;--grid:#e3e6ea;"
	"--bad:#c8473a}\n"
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--ink);"
	"margin:24px auto;max-width:1320px;padding:0 16px}\n"
	"h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;"
	"border-bottom:2px solid var(--grid);padding-bottom:4px}h3{font-size:16px;margin:14px 0 4px}\n"
	".meta,.note{color:#4a5261}nav a{margin-right:14px}code{font-size:12px}\n"
	"table{border-collapse:collapse;width:100%;font-size:13px}"
	"th,td{border:1px solid #c9ced6;padding:3px 6px;text-align:left;vertical-align:middle}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"th{background:#eef0f3}\n"
	"tr.outlier td{background:var(--hot)}td.none{color:#7a818c}\n"
	"table.grid{width:auto}table.grid td.cell{text-align:center;font-size:12px}"
	"table.grid td:first-child{white-space:nowrap}"
	"td.tier-hot{background:var(--hot)}td.tier-warm{background:var(--warm)}"
	"td.tier-cold{background:var(--cold)}td.odd{outline:2px solid var(--bad);color:var(--bad)}\n"
	"svg.range{display:block}svg .span{stroke:#8a8f98;stroke-width:6;stroke-linecap:round}"
	"svg .median{stroke:var(--ink);stroke-width:2}svg .odd{fill:var(--bad)}\n"
	"@media print{@page{size:A4 landscape;margin:12mm}body{font-size:10pt;margin:0;max-width:none}"
	"nav{display:none}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	"h2{break-after:avoid}tr,section.model{break-inside:avoid}}\n";

#define RANGE_W 220.0
#define RANGE_H 16.0

static void num_cell(FILE *out, double v, const char *unit)
{
	char b[32];

	render_num(b, sizeof(b), v);
	fprintf(out, "<td class=\"num\">%s%s", b, unit ? " " : "");
	render_html_esc(out, unit);
	fputs("</td>", out);
}

static void head(FILE *out, const struct fleet *f)
{
	char sum[200];

	fleet_summary(sum, sizeof(sum), f);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>tierwise fleet</title>\n<style>\n", out);
	fputs(fleet_css, out);
	fprintf(out, "</style>\n</head>\n<body>\n<h1>tierwise fleet</h1>\n"
		"<p class=\"meta\" data-hosts=\"%zu\" data-devices=\"%zu\" data-outliers=\"%zu\">"
		"%s; %zu outlier%s.</p>\n"
		"<nav><a href=\"#outliers\">Outliers</a><a href=\"#warnings\">Warnings</a>"
		"<a href=\"#hosts\">Hosts</a><a href=\"#grid\">Hosts &times; devices</a>"
		"<a href=\"#models\">Models</a></nav>\n",
		f->n_hosts, f->n_devices, f->n_outliers, sum, f->n_outliers, f->n_outliers == 1 ? "" : "s");
}

static void outliers(FILE *out, const struct fleet *f)
{
	char b[32];

	fprintf(out, "<section id=\"outliers\">\n<h2>Outliers</h2>\n<p class=\"note\">A drive "
		"%.0f %% or more below its model's fleet median on a figure measured the same way "
		"(at least %d drives of the model).</p>\n", FLEET_OUTLIER_PCT, FLEET_MIN_GROUP);
	if (!f->n_outliers) {
		fputs("<p>None.</p>\n</section>\n", out);
		return;
	}
	fputs("<table class=\"outliers\">\n<tr><th>host</th><th>device</th><th>model</th>"
	      "<th>figure</th><th>value</th><th>fleet median</th><th>below</th></tr>\n", out);
	for (size_t i = 0; i < f->n_outliers; i++) {
		const struct fleet_outlier *o = &f->outliers[i];
		const struct fleet_stat *st = &f->stats[o->stat];
		const struct model_metric_desc *m = fleet_metric_desc(st->metric);

		fputs("<tr class=\"outlier\" data-host=\"", out);
		render_html_esc(out, f->hosts[o->host].name);
		fputs("\" data-device=\"", out);
		render_html_esc(out, o->dev->id);
		fprintf(out, "\" data-metric=\"%s\"><td>", m->path);
		render_html_esc(out, f->hosts[o->host].name);
		fputs("</td><td>", out);
		render_html_esc(out, o->dev->id);
		fputs("</td><td>", out);
		render_html_esc(out, st->model);
		fputs("</td><td>", out);
		render_html_esc(out, model_metric_label(m, MODEL_LABEL_FLEET));
		fputs("</td>", out);
		num_cell(out, o->value, m->unit);
		num_cell(out, st->median, m->unit);
		render_num(b, sizeof(b), o->pct_below);
		fprintf(out, "<td class=\"num\">%s %%</td></tr>\n", b);
	}
	fputs("</table>\n</section>\n", out);
}

static void warnings(FILE *out, const struct fleet *f)
{
	fputs("<section id=\"warnings\">\n<h2>Plan warnings by kind</h2>\n", out);
	if (!f->n_kinds)
		fprintf(out, "<p>None%s.</p>\n", f->n_plans ? "" : " (no plan beside the profiles)");
	else
		fputs("<table class=\"kinds\" style=\"width:auto\">\n<tr><th>kind</th><th>warnings"
		      "</th></tr>\n", out);
	for (size_t i = 0; i < f->n_kinds; i++) {
		fputs("<tr data-kind=\"", out);
		render_html_esc(out, f->kinds[i].kind);
		fputs("\"><td>", out);
		render_html_esc(out, f->kinds[i].kind);
		fprintf(out, "</td><td class=\"num\">%zu</td></tr>\n", f->kinds[i].n);
	}
	fputs(f->n_kinds ? "</table>\n</section>\n" : "</section>\n", out);
}

static void host_row(FILE *out, const struct fleet_host *h)
{
	const struct fleet_plan *p = h->plan;

	fputs("<tr data-host=\"", out);
	render_html_esc(out, h->name);
	fputs("\"><td>", out);
	render_html_esc(out, h->name);
	fprintf(out, "</td><td class=\"num\">%zu</td>", h->profile->n_devices);
	if (!p) {
		fputs("<td class=\"none\" colspan=\"5\">no plan beside the profile</td></tr>\n", out);
		return;
	}
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		fprintf(out, "<td class=\"tier-%s\">", tw_tier_names[t]);
		for (size_t i = 0; i < p->n_tier[t]; i++) {
			fputs(i ? ", " : "", out);
			render_html_esc(out, p->tier[t][i]);
		}
		fputs("</td>", out);
	}
	fprintf(out, "<td class=\"num\">%zu</td><td class=\"num\">%zu</td></tr>\n",
		p->n_unassigned, p->n_warnings);
}

static void hosts(FILE *out, const struct fleet *f)
{
	fputs("<section id=\"hosts\">\n<h2>Hosts</h2>\n<table class=\"hosts\">\n<tr><th>host</th>"
	      "<th>devices</th><th style=\"background:var(--hot)\">hot</th>"
	      "<th style=\"background:var(--warm)\">warm</th>"
	      "<th style=\"background:var(--cold)\">cold</th><th>unassigned</th>"
	      "<th>warnings</th></tr>\n", out);
	for (size_t i = 0; i < f->n_hosts; i++)
		host_row(out, &f->hosts[i]);
	fputs("</table>\n</section>\n", out);
}

#define GRID_MAX_COLUMNS 64	/* device ids across the fleet, for the grid */

/* The device ids of the fleet in order of first appearance (at most max). */
static size_t grid_columns(const struct fleet *f, const char **ids, size_t max)
{
	size_t n = 0;

	for (size_t h = 0; h < f->n_hosts; h++)
		for (size_t i = 0; i < f->hosts[h].profile->n_devices; i++) {
			const char *id = f->hosts[h].profile->devices[i].id;
			size_t k = 0;

			while (k < n && strcmp(ids[k], id))
				k++;
			if (k == n && n == max)
				return max + 1;
			if (k == n)
				ids[n++] = id;
		}
	return n;
}

static size_t outliers_of(const struct fleet *f, size_t host, const struct profile_device *d)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n_outliers; i++)
		n += f->outliers[i].host == host && f->outliers[i].dev == d;
	return n;
}

static void grid_cell(FILE *out, const struct fleet *f, size_t h, const char *id)
{
	const struct profile *p = f->hosts[h].profile;
	const struct profile_device *d = NULL;
	const char *tier;
	size_t odd;

	for (size_t i = 0; i < p->n_devices && !d; i++)
		if (!strcmp(p->devices[i].id, id))
			d = &p->devices[i];
	if (!d) {
		fputs("<td class=\"none\"></td>", out);
		return;
	}
	tier = fleet_plan_tier_of(f->hosts[h].plan, id);
	odd = outliers_of(f, h, d);
	fprintf(out, "<td class=\"cell tier-%s%s\" title=\"", tier ? tier : "none", odd ? " odd" : "");
	render_html_esc(out, d->model);
	fprintf(out, "\">%s", tier ? tier : "&middot;");
	if (odd)
		fprintf(out, " <b>&#9660;%zu</b>", odd);
	fputs("</td>", out);
}

/* Hosts x devices: each cell the tier the plan gave it, marked when odd. */
static void grid(FILE *out, const struct fleet *f)
{
	const char *ids[GRID_MAX_COLUMNS];
	size_t n = grid_columns(f, ids, GRID_MAX_COLUMNS);

	fputs("<section id=\"grid\">\n<h2>Hosts &times; devices</h2>\n", out);
	if (n > GRID_MAX_COLUMNS) {
		fprintf(out, "<p class=\"note\">More than %d device names across the fleet: see "
			"the JSON output for every device.</p>\n</section>\n", GRID_MAX_COLUMNS);
		return;
	}
	fputs("<p class=\"note\">The tier each plan gave each device (&middot; = none or no plan); "
	      "&#9660;N = N figures 20 % or more below the model's fleet median.</p>\n"
	      "<div style=\"overflow-x:auto\"><table class=\"grid\">\n<tr><th>host</th>", out);
	for (size_t k = 0; k < n; k++) {
		fputs("<th>", out);
		render_html_esc(out, ids[k]);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (size_t h = 0; h < f->n_hosts; h++) {
		fputs("<tr><td>", out);
		render_html_esc(out, f->hosts[h].name);
		fputs("</td>", out);
		for (size_t k = 0; k < n; k++)
			grid_cell(out, f, h, ids[k]);
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n</section>\n", out);
}

/* The range of stat i on [0, max]: min to max, the median, its outliers. */
static void range_svg(FILE *out, const struct fleet *f, size_t i)
{
	const struct fleet_stat *st = &f->stats[i];
	double top = st->max > 0 ? st->max : 1, k = (RANGE_W - 12) / top;

	fprintf(out, "<svg class=\"range\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"role=\"img\" aria-label=\"range\"><line class=\"span\" x1=\"%.1f\" y1=\"8\" "
		"x2=\"%.1f\" y2=\"8\"/><line class=\"median\" x1=\"%.1f\" y1=\"1\" x2=\"%.1f\" "
		"y2=\"15\"/>", RANGE_W, RANGE_H, RANGE_W, RANGE_H, 6 + st->min * k,
		6 + st->max * k, 6 + st->median * k, 6 + st->median * k);
	for (size_t j = 0; j < f->n_outliers; j++)
		if (f->outliers[j].stat == i)
			fprintf(out, "<circle class=\"odd\" cx=\"%.1f\" cy=\"8\" r=\"4.5\"/>",
				6 + f->outliers[j].value * k);
	fputs("</svg>", out);
}

static void model_section(FILE *out, const struct fleet *f, const struct fleet_model *m)
{
	fputs("<section class=\"model\" data-model=\"", out);
	render_html_esc(out, m->model);
	fputs("\">\n<h3>", out);
	render_html_esc(out, m->model);
	fprintf(out, "</h3>\n<p class=\"meta\">%zu device%s on %zu host%s</p>\n"
		"<table>\n<tr><th>figure</th><th>n</th><th>median</th><th>min</th><th>max</th>"
		"<th>range (from 0; dot = outlier)</th><th>method</th></tr>\n", m->n_devices,
		m->n_devices == 1 ? "" : "s", m->n_hosts, m->n_hosts == 1 ? "" : "s");
	for (size_t i = m->first; i < m->first + m->n_stats; i++) {
		const struct fleet_stat *st = &f->stats[i];
		const struct model_metric_desc *fm = fleet_metric_desc(st->metric);

		fprintf(out, "<tr data-metric=\"%s\"><td>", fm->path);
		render_html_esc(out, model_metric_label(fm, MODEL_LABEL_FLEET));
		fprintf(out, "</td><td class=\"num\">%zu</td>", st->n);
		num_cell(out, st->median, fm->unit);
		num_cell(out, st->min, fm->unit);
		num_cell(out, st->max, fm->unit);
		fputs("<td>", out);
		range_svg(out, f, i);
		fputs("</td><td><code>", out);
		render_html_esc(out, st->method);
		fputs("</code></td></tr>\n", out);
	}
	fputs("</table>\n</section>\n", out);
}

static int html_print(FILE *out, const struct fleet *f)
{
	head(out, f);
	outliers(out, f);
	warnings(out, f);
	hosts(out, f);
	grid(out, f);
	fputs("<section id=\"models\">\n<h2>Models</h2>\n", out);
	for (size_t k = 0; k < f->n_models; k++)
		model_section(out, f, &f->models[k]);
	fputs("</section>\n<p class=\"note\">Made by tierwise fleet (" FLEET_SCHEMA
	      ").</p>\n</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}

const struct fleet_render_ops fleet_render_html = { .name = "html", .print = html_print };
