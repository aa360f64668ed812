/* render_report.c — the HTML document of `tierwise report`: head and
 * stylesheet, the device table coloured by tier, the plan, and the order of
 * the sections.  Self-contained: inline CSS and SVG, no script, nothing
 * fetched.  Every string from a profile or a plan goes through render_html_esc().
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "report.h"
#include "tw_fmt.h"

static const char report_css[] =
	":root{--hot:#f6d5d0;--hot-bar:#c8473a;--warm:#fbe8c4;--warm-bar:#d6951c;"
	"--cold:#d4e4f4;--cold-bar:#3574b5;--none:#fff;--none-bar:#8a8f98;--ink:#1d2330;"
	"--grid:#e3e6ea}\n"
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--ink);"
	"margin:24px auto;max-width:1320px;padding:0 16px}\n"
	"h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;"
	"border-bottom:2px solid var(--grid);padding-bottom:4px}h3{font-size:16px;margin:4px 0}"
	"h4{font-size:13px;margin:10px 0 2px;text-transform:uppercase;letter-spacing:.04em}\n"
	".meta,.note{color:#4a5261}nav a{margin-right:14px}code{font-size:12px}\n"
	"table{border-collapse:collapse;width:100%;font-size:13px}"
	"th,td{border:1px solid #c9ced6;padding:3px 6px;text-align:left;vertical-align:top}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"th{background:#eef0f3}table.small{width:auto;margin-top:8px}"
	"table.devices td:first-child,td.num{white-space:nowrap}\n"
	"tr.tier-hot td{background:var(--hot)}tr.tier-warm td{background:var(--warm)}"
	"tr.tier-cold td{background:var(--cold)}tr.tier-none td{background:var(--none)}\n"
	".legend-box span{display:inline-block;padding:1px 10px;margin-right:6px;"
	"border:1px solid #c9ced6}\n"
	".swatch-hot{background:var(--hot)}.swatch-warm{background:var(--warm)}"
	".swatch-cold{background:var(--cold)}.swatch-none{background:var(--none)}\n"
	".charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(620px,1fr));gap:0 24px}"
	".chart-box{margin:14px 0;break-inside:avoid}figcaption{margin-bottom:4px}"
	"svg.chart{max-width:100%;height:auto;font-size:11px;font-family:inherit}\n"
	"svg .grid{stroke:var(--grid);stroke-width:1}svg .axis-line{stroke:#59606c}"
	"svg text{fill:var(--ink)}svg .tick{fill:#59606c;font-size:10px}"
	"svg .axis-title{font-size:11px;font-weight:600}\n"
	"rect.bar.tier-hot{fill:var(--hot-bar)}rect.bar.tier-warm{fill:var(--warm-bar)}"
	"rect.bar.tier-cold{fill:var(--cold-bar)}rect.bar.tier-none{fill:var(--none-bar)}"
	"rect.bar.empty{fill:none;stroke:#aab0b9;stroke-dasharray:4 3}"
	"svg .empty-label{fill:#7a818c;font-style:italic}svg .value{font-size:10px}\n"
	"svg polyline{fill:none;stroke-width:2}svg .pt{stroke:none}svg .qd{font-size:9px;fill:#59606c}"
	"svg .knee{fill:none;stroke:#111;stroke-width:2}svg .knee-label{font-weight:600}\n"
	".s0{stroke:#1f77b4;fill:#1f77b4}.s1{stroke:#d62728;fill:#d62728}"
	".s2{stroke:#2ca02c;fill:#2ca02c}.s3{stroke:#9467bd;fill:#9467bd}"
	".s4{stroke:#ff7f0e;fill:#ff7f0e}.s5{stroke:#8c564b;fill:#8c564b}"
	".s6{stroke:#e377c2;fill:#e377c2}.s7{stroke:#7f7f7f;fill:#7f7f7f}"
	".s8{stroke:#bcbd22;fill:#bcbd22}.s9{stroke:#17becf;fill:#17becf}"
	"polyline.s0,polyline.s1,polyline.s2,polyline.s3,polyline.s4,polyline.s5,polyline.s6,"
	"polyline.s7,polyline.s8,polyline.s9,line.sweep{fill:none;stroke-width:2}"
	"svg polyline.p50{stroke-width:1;stroke-dasharray:3 2}\n"
	"svg polyline.mbps{stroke:#3574b5}svg polyline.temp{stroke:#c8473a;stroke-dasharray:6 4}"
	"svg line.cliff{stroke:#111;stroke-width:2;stroke-dasharray:2 3}"
	"svg line.throttle{stroke:#c8473a;stroke-width:1.5}svg .throttle-label{fill:#c8473a}"
	"svg line.warn-temp{stroke:#c8473a;stroke-width:1;stroke-dasharray:1 3}"
	"svg .cliff-label{font-weight:600}svg .warn-temp-label{fill:#c8473a;font-size:10px}\n"
	".tiers{display:grid;grid-template-columns:repeat(3,1fr);gap:12px}"
	".tier{border:1px solid #c9ced6;border-radius:6px;padding:8px 12px}"
	".tier.tier-hot{background:var(--hot)}.tier.tier-warm{background:var(--warm)}"
	".tier.tier-cold{background:var(--cold)}.tier ul{margin:2px 0;padding-left:18px}\n"
	".to-buy{font-size:11px;font-weight:600;padding:0 5px;border:1px solid #59606c;"
	"border-radius:3px;background:#fff}tfoot td,tfoot th{font-weight:600;background:#eef0f3}\n"
	"@media (max-width:900px){.tiers{grid-template-columns:1fr}}\n"
	"@media print{@page{size:A4 landscape;margin:12mm}body{font-size:10pt;margin:0;max-width:none}"
	"nav{display:none}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	"h2{break-after:avoid}tr,.tier,.chart-box,figure{break-inside:avoid}"
	"section{break-before:auto}#plan{break-before:page}a{color:inherit;text-decoration:none}}\n";

static const struct profile_device *find_dev(const struct report_input *in, const char *id)
{
	for (size_t i = 0; id && i < in->n_devs; i++)
		if (!strcmp(in->devs[i]->id, id))
			return in->devs[i];
	return NULL;
}

static void num_cell(FILE *out, double v)
{
	char b[32];

	rh_num(b, sizeof(b), v);
	fprintf(out, "<td class=\"num\">%s</td>", b);
}

/* ---- head ---- */

static void doc_head(FILE *out, const struct report_input *in)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"tierwise report\">\n<title>tierwise report", out);
	for (size_t i = 0; i < in->n_profiles; i++) {
		fputs(i ? ", " : " — ", out);
		render_html_esc(out, in->profiles[i]->host);
	}
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", report_css);
}

static void doc_header(FILE *out, const struct report_input *in)
{
	fputs("<header>\n<h1>tierwise report</h1>\n", out);
	for (size_t i = 0; i < in->n_profiles; i++) {
		const struct profile *p = in->profiles[i];

		fputs("<p class=\"meta\">Host <strong>", out);
		render_html_esc(out, p->host);
		fputs("</strong>, profile of ", out);
		render_html_esc(out, p->created);
		fputs(" by ", out);
		render_html_esc(out, p->tool_name);
		fputc(' ', out);
		render_html_esc(out, p->tool_version);
		fprintf(out, ": %zu device%s.</p>\n", p->n_devices, p->n_devices == 1 ? "" : "s");
	}
	if (in->policies_from) {
		fputs("<p class=\"meta\">Policies: ", out);
		render_html_esc(out, in->policies_from);
		fputs(".</p>\n", out);
	}
	fputs("<nav><a href=\"#devices\">Devices</a><a href=\"#charts\">Key metrics</a>", out);
	if (report_any_sweep(in))
		fputs("<a href=\"#sweep\">Queue-depth sweep</a>", out);
	if (report_any_iorate(in))
		fputs("<a href=\"#iorate\">Latency against load</a>", out);
	if (report_any_series(in))
		fputs("<a href=\"#sustained\">Sustained write</a>", out);
	if (in->plan)
		fputs("<a href=\"#plan\">Plan</a>", out);
	fputs("</nav>\n</header>\n", out);
}

/* ---- the device table ---- */

static void table_head(FILE *out)
{
	fputs("<table class=\"devices\">\n<thead><tr><th>device</th><th>model</th><th>media</th>"
	      "<th>transport</th><th>capacity</th>", out);
	for (size_t k = 0; k < report_n_metrics; k++)
		fprintf(out, "<th>%s</th>", model_metric_label(report_metric_desc(k), MODEL_LABEL_HEAD));
	fputs("<th>idle / load °C</th><th>tier</th></tr></thead>\n<tbody>\n", out);
}

static void temp_cell(FILE *out, const struct profile_thermal *t)
{
	fputs("<td class=\"num\">", out);
	if (isnan(t->idle_c))
		fputc('-', out);
	else
		fprintf(out, "%.0f", t->idle_c);
	fputs(" / ", out);
	if (isnan(t->load_c))
		fputc('-', out);
	else
		fprintf(out, "%.0f", t->load_c);
	fputs("</td>", out);
}

static void table_row(FILE *out, const struct profile_device *d, const char *tier,
		      unsigned bought)
{
	char cap[32];

	render_value(cap, sizeof(cap), (double)d->capacity_bytes, "bytes");
	fprintf(out, "<tr class=\"tier-%s\" data-device=\"", tier ? tier : "none");
	render_html_esc(out, d->id);
	fputs("\"><td>", out);
	render_html_esc(out, d->id);
	fputs("</td><td>", out);
	render_html_esc(out, d->model);
	fprintf(out, "</td><td>%s</td><td>%s</td><td class=\"num\">%s</td>",
		profile_media_name(d->media), profile_transport_name(d->transport), cap);
	for (size_t k = 0; k < report_n_metrics; k++)
		num_cell(out, model_metric_value(d, report_metric_desc(k)));
	temp_cell(out, &d->thermal);
	fprintf(out, "<td>%s", tier ? tier : "none");
	if (bought)
		fprintf(out, " <span class=\"to-buy\" data-count=\"%u\">to buy: %u</span>", bought,
			bought);
	fputs("</td></tr>\n", out);
}

static void section_devices(FILE *out, const struct report_input *in)
{
	fputs("<section id=\"devices\">\n<h2>Devices</h2>\n<p class=\"legend-box\">Rows by tier: "
	      "<span class=\"swatch-hot\">hot</span><span class=\"swatch-warm\">warm</span>"
	      "<span class=\"swatch-cold\">cold</span><span class=\"swatch-none\">none</span>", out);
	if (!in->plan)
		fputs(" (no plan in this report: every row is <em>none</em>)", out);
	else if (in->plan->buying)
		fputs(" (a buy plan: the rows are the catalog's models, coloured by the tier "
		      "they are bought for)", out);
	fputs("</p>\n<p class=\"note\">MB/s are decimal; capacity in binary units as the OS "
	      "reports it; - = not measured.</p>\n", out);
	table_head(out);
	for (size_t i = 0; i < in->n_devs; i++)
		table_row(out, in->devs[i], report_plan_tier_of(in->plan, in->devs[i]->id),
			  report_plan_bought(in->plan, in->devs[i]->id));
	fputs("</tbody>\n</table>\n</section>\n", out);
}

/* ---- the plan ---- */

static void bytes_txt(char *buf, size_t len, int64_t b)
{
	if (b < 0)
		snprintf(buf, len, "-");
	else
		render_value(buf, len, (double)b, "bytes");
}

/* " = vector-db 700 GB + logs-metadata 200 GB (default)": the parts of a
 * tier's need above 0, defaults marked (one part: " (archive, default)"). */
static void need_parts(FILE *out, const struct advisor_file_tier *t)
{
	size_t n = 0;
	char b[32];

	for (size_t k = 0; k < t->n_needs; k++)
		n += t->needs[k].bytes > 0;
	for (size_t k = 0, i = 0; k < t->n_needs; k++) {
		const struct advisor_file_need *p = &t->needs[k];

		if (p->bytes <= 0)
			continue;
		if (n == 1) {
			fputs(" (", out);
			render_html_esc(out, p->policy);
			fputs(p->is_default ? ", default)" : ")", out);
			return;
		}
		bytes_txt(b, sizeof(b), p->bytes);
		fputs(i++ ? " + " : " = ", out);
		render_html_esc(out, p->policy);
		fprintf(out, " %s%s", b, p->is_default ? " (default)" : "");
	}
}

/* The tier's devices; origins[i]: the catalog entry of a bought copy, or NULL. */
static void plan_devices(FILE *out, const struct report_input *in, const struct advisor_file_tier *t,
			 const char *const *origins)
{
	char s[32];

	if (!t->n_devices && t->shared_with) {
		fputs("<p>Directories on <strong>", out);
		render_html_esc(out, t->shared_with);
		fputs("</strong> (shared with another tier).</p>\n", out);
	}
	if (!t->n_devices)
		return;
	fputs("<ul class=\"devices\">\n", out);
	for (size_t i = 0; i < t->n_devices; i++) {
		const char *origin = origins[i];
		const struct profile_device *d = find_dev(in, origin ? origin : t->devices[i]);

		rh_num(s, sizeof(s), t->scores[i]);
		fputs("<li data-device=\"", out);
		render_html_esc(out, t->devices[i]);
		if (origin) {
			fputs("\" data-buy=\"", out);
			render_html_esc(out, origin);
		}
		fputs("\"><strong>", out);
		render_html_esc(out, t->devices[i]);
		fputs("</strong> ", out);
		render_html_esc(out, d ? d->model : "(not in the profiles)");
		if (origin) {
			fputs(" <span class=\"to-buy\">to buy</span> (", out);
			render_html_esc(out, origin);
			fputc(')', out);
		}
		fprintf(out, " — score %s</li>\n", s);
	}
	fputs("</ul>\n", out);
}

static void plan_raid(FILE *out, const struct advisor_file_tier *t)
{
	char r[32];

	if (!t->raid_level)
		return;
	rh_num(r, sizeof(r), t->raid_read_mbps);
	fputs("<p class=\"raid\">Array <code>", out);
	render_html_esc(out, t->raid_name);
	fputs("</code>: ", out);
	render_html_esc(out, t->raid_level);
	fprintf(out, ", sequential read ≈ %s MB/s. ", r);
	render_html_esc(out, t->raid_tradeoff);
	fputs("</p>\n", out);
}

static void plan_estimates(FILE *out, const struct advisor_file_tier *t)
{
	char v[48];

	if (t->n_est)
		fputs("<h4>Estimates</h4>\n<ul class=\"estimates\">\n", out);
	for (size_t i = 0; i < t->n_est; i++) {
		const struct advisor_file_est *e = &t->est[i];

		render_estimate(v, sizeof(v), e->value, e->unit);	/* 2 min, not 0.03 h */
		fputs("<li>", out);
		render_html_esc(out, e->label);
		fputs(": <strong>", out);
		render_html_esc(out, v);
		fputs("</strong>", out);
		if (isfinite(e->qps)) {	/* a query: its rate and tail too */
			char q[32], p99[32];

			tw_fmt_count(q, sizeof(q), e->qps);
			fprintf(out, ", %s queries/s", q);
			if (isfinite(e->p99_ms)) {
				tw_fmt_duration(p99, sizeof(p99), e->p99_ms / 1e3);
				fprintf(out, ", p99 %s a query", p99);
			}
		} else if (isfinite(e->mbps) && e->unit && !strcmp(e->unit, "s")) {
			char r[32];

			tw_fmt_count(r, sizeof(r), e->mbps);
			fprintf(out, " at %s MB/s", r);
		}
		if (e->fits == 0)
			fputs(" — <strong>does not fit</strong>", out);
		fputs(" on ", out);
		render_html_esc(out, e->device);
		fputs(" (", out);
		render_html_esc(out, e->policy);
		fputs(")</li>\n", out);
	}
	if (t->n_est)
		fputs("</ul>\n", out);
}

static void plan_mounts(FILE *out, const struct advisor_file_tier *t)
{
	if (t->n_mounts)
		fputs("<h4>Mount</h4>\n<ul class=\"mounts\">\n", out);
	for (size_t i = 0; i < t->n_mounts; i++) {
		const struct advisor_file_mount *m = &t->mounts[i];

		fputs("<li><code>", out);
		render_html_esc(out, m->point);
		fputs("</code> ", out);
		render_html_esc(out, m->fs);
		fputs(" <code>", out);
		render_html_esc(out, m->options);
		fprintf(out, "</code> %s <code>",
			m->directory ? "directory on" : m->reuse ? "existing filesystem on" : "new on");
		render_html_esc(out, m->source);
		fputs("</code>", out);
		if (m->why) {
			fputs(": ", out);
			render_html_esc(out, m->why);
		}
		fputs("</li>\n", out);
	}
	if (t->n_mounts)
		fputs("</ul>\n", out);
}

static void str_list(FILE *out, const char *cls, const char *const *v, size_t n)
{
	if (!n)
		return;
	fprintf(out, "<ul class=\"%s\">\n", cls);
	for (size_t i = 0; i < n; i++) {
		fputs("<li>", out);
		render_html_esc(out, v[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

/* ---- money ---- */

/* An amount for people, "1,579"; "-" when unknown (render_value()). */
static void money(char *buf, size_t len, double v)
{
	render_value(buf, len, v, NULL);
}

/* A data attribute's value: the amount to the cent, "" when unknown. */
static void money_attr(FILE *out, const char *name, double v)
{
	if (isnan(v))
		fprintf(out, " %s=\"\"", name);
	else
		fprintf(out, " %s=\"%.2f\"", name, v);
}

/* " · cost 960 (1,250 per usable TB)" on a tier card; nothing without prices. */
static void tier_cost(FILE *out, const struct report_plan *p, const struct advisor_file_tier *t)
{
	char c[32], per[32];

	if (!p->priced || !t->n_devices)
		return;
	if (isnan(t->cost)) {
		fputs(" · cost unknown: a device has no price per TB", out);
		return;
	}
	money(c, sizeof(c), t->cost);
	money(per, sizeof(per), t->cost_per_usable_tb);
	fprintf(out, " · <span class=\"cost\">cost %s (%s per usable TB)</span>", c, per);
}

static void cost_row(FILE *out, const char *of, size_t n, int64_t usable, double cost,
		     double per_tb)
{
	char u[32], c[32], per[32];

	bytes_txt(u, sizeof(u), usable);
	money(c, sizeof(c), cost);
	money(per, sizeof(per), per_tb);
	fprintf(out, "<tr data-of=\"%s\"", of);
	money_attr(out, "data-cost", cost);
	money_attr(out, "data-per-tb", per_tb);
	fprintf(out, "><td>%s</td><td class=\"num\">%zu</td><td class=\"num\">%s</td>"
		"<td class=\"num\">%s</td><td class=\"num\">%s</td></tr>\n",
		strcmp(of, "all") ? of : "in all", n, u,
		isnan(cost) ? "unknown" : c, per);
}

/* The cost of each tier and of the plan, per usable TB too (priced plans). */
static void plan_costs(FILE *out, const struct report_plan *p)
{
	int64_t usable = 0;
	size_t n = 0;

	if (!p->priced)
		return;
	fputs("<h3>Cost</h3>\n<table class=\"small costs\">\n<thead><tr><th>tier</th>"
	      "<th>devices</th><th>usable</th><th>cost</th><th>per usable TB</th></tr></thead>\n"
	      "<tbody>\n", out);
	for (int i = 0; i < TW_TIER_COUNT; i++) {
		const struct advisor_file_tier *t = &p->tiers[i];

		cost_row(out, t->name, t->n_devices, t->n_devices ? t->usable_bytes : -1,
			 t->cost, t->cost_per_usable_tb);
		n += t->n_devices;
		usable += t->n_devices && t->usable_bytes > 0 ? t->usable_bytes : 0;
	}
	fputs("</tbody>\n<tfoot>\n", out);
	cost_row(out, "all", n, usable, p->cost_total,
		 usable > 0 ? p->cost_total / ((double)usable / 1e12) : NAN);
	fputs("</tfoot>\n</table>\n<p class=\"note\">Cost: price per TB × capacity of each "
	      "device in a tier; usable: after the fill and the arrays; unknown when a device "
	      "has no price per TB.</p>\n", out);
}

static void buy_row(FILE *out, const struct advisor_file_buy *b)
{
	char each[32], cost[32];

	money(each, sizeof(each), b->price);
	money(cost, sizeof(cost), b->cost);
	fputs("<tr data-buy=\"", out);
	render_html_esc(out, b->id);
	fprintf(out, "\" data-of=\"%s\" data-count=\"%u\"", b->tier, b->count);
	money_attr(out, "data-price", b->price);
	money_attr(out, "data-cost", b->cost);
	fputs("><td>", out);
	render_html_esc(out, b->model ? b->model : b->id);
	fputs("</td><td><code>", out);
	render_html_esc(out, b->id);
	fprintf(out, "</code></td><td>%s</td><td class=\"num\">%u</td><td class=\"num\">%s</td>"
		"<td class=\"num\">%s</td></tr>\n", b->tier, b->count, each, cost);
}

/* A buy plan's shopping list: one row per model and tier, and the sum. */
static void plan_buy(FILE *out, const struct report_plan *p)
{
	char sum[32], budget[32];
	double total = 0;
	unsigned n = 0;

	if (!p->buying)
		return;
	fputs("<h3>To buy</h3>\n", out);
	if (!isnan(p->budget)) {
		money(budget, sizeof(budget), p->budget);
		fprintf(out, "<p class=\"budget\" data-budget=\"%.2f\">Budget %s.</p>\n",
			p->budget, budget);
	}
	if (!p->n_buy) {
		fputs("<p class=\"buy\">Nothing to buy.</p>\n", out);
		return;
	}
	fputs("<table class=\"small buy\">\n<thead><tr><th>model</th><th>catalog entry</th>"
	      "<th>tier</th><th>count</th><th>unit price</th><th>total</th></tr></thead>\n"
	      "<tbody>\n", out);
	for (size_t i = 0; i < p->n_buy; i++) {
		buy_row(out, &p->buy[i]);
		total += p->buy[i].cost;	/* NAN stays NAN */
		n += p->buy[i].count;
	}
	money(sum, sizeof(sum), total);
	fprintf(out, "</tbody>\n<tfoot><tr class=\"sum\" data-count=\"%u\"", n);
	money_attr(out, "data-cost", total);
	fprintf(out, "><th colspan=\"3\">in all</th><td class=\"num\">%u</td><td></td>"
		"<td class=\"num\">%s</td></tr></tfoot>\n</table>\n", n, sum);
}

static void plan_tier(FILE *out, const struct report_input *in, const struct advisor_file_tier *t,
		      const char *const *origins)
{
	char need[32], use[32], sc[32];

	bytes_txt(need, sizeof(need), t->need_bytes);
	bytes_txt(use, sizeof(use), t->usable_bytes);
	rh_num(sc, sizeof(sc), t->score);
	fprintf(out, "<div class=\"tier tier-%s\" data-tier=\"%s\">\n<h3>%s</h3>\n<p>", t->name,
		t->name, t->name);
	for (size_t k = 0; k < t->n_policies; k++) {
		fputs(k ? ", " : "", out);
		render_html_esc(out, t->policies[k]);
	}
	fprintf(out, "</p>\n<p class=\"meta\">need %s", need);
	need_parts(out, t);
	fprintf(out, " · usable %s · tier score %s", use, sc);
	tier_cost(out, in->plan, t);
	fputs("</p>\n", out);
	plan_devices(out, in, t, origins);
	plan_raid(out, t);
	plan_estimates(out, t);
	plan_mounts(out, t);
	str_list(out, "notes", t->notes, t->n_notes);
	fputs("</div>\n", out);
}

static void plan_warnings(FILE *out, const struct report_plan *p)
{
	if (!p->n_warnings) {
		fputs("<p>No warnings: the measurements show no trap.</p>\n", out);
		return;
	}
	fputs("<table class=\"warnings\">\n<thead><tr><th>device</th><th>kind</th><th>message</th>"
	      "</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < p->n_warnings; i++) {
		const struct advisor_file_warning *w = &p->warnings[i];

		fputs("<tr data-kind=\"", out);
		render_html_esc(out, w->kind);
		fputs("\" data-device=\"", out);
		render_html_esc(out, w->device);
		fputs("\"><td>", out);
		render_html_esc(out, w->device ? w->device : "-");
		fputs("</td><td>", out);
		render_html_esc(out, w->kind);
		fputs("</td><td>", out);
		render_html_esc(out, w->message);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static void plan_summary(FILE *out, const struct report_plan *p)
{
	char s[32], g[32];

	rh_num(s, sizeof(s), p->score);
	rh_num(g, sizeof(g), p->runner_up_gap);
	fputs("<p class=\"meta\">From ", out);
	render_html_esc(out, p->source);
	fprintf(out, ". Total score %s (%s)", s, p->exact ? "proven optimum" : "best found");
	if (!isnan(p->runner_up_gap))
		fprintf(out, "; the runner-up scores %s below%s", g,
			p->runner_up_gap < 1 ? ", a near tie" : "");
	if (p->priced && isnan(p->cost_total))
		fputs(". Cost unknown: a device in a tier has no price per TB", out);
	else if (p->priced) {
		money(g, sizeof(g), p->cost_total);
		fprintf(out, ". <strong class=\"cost-total\">Cost: %s in all</strong>%s", g,
			p->buying ? ", all of it to buy" : "");
	}
	fputs(".</p>\n", out);
}

void report_section_plan(FILE *out, const struct report_input *in)
{
	const struct report_plan *p = in->plan;

	if (!p)
		return;
	fputs("<section id=\"plan\">\n<h2>Plan: hot, warm, cold</h2>\n", out);
	plan_summary(out, p);
	fputs("<div class=\"tiers\">\n", out);
	for (int t = 0; t < TW_TIER_COUNT; t++)
		plan_tier(out, in, &p->tiers[t], p->origins[t]);
	fputs("</div>\n", out);
	plan_buy(out, p);
	plan_costs(out, p);
	if (p->n_unassigned) {
		fputs("<h3>Not in the plan</h3>\n<p class=\"unassigned\">", out);
		for (size_t i = 0; i < p->n_unassigned; i++) {
			fputs(i ? ", " : "", out);
			render_html_esc(out, p->unassigned[i]);
		}
		fputs("</p>\n", out);
	}
	fputs("<h3>Warnings</h3>\n", out);
	plan_warnings(out, p);
	str_list(out, "plan-notes", p->notes, p->n_notes);
	fputs("</section>\n", out);
}

/* ---- the document ---- */

int report_render_html(FILE *out, const struct report_input *in)
{
	int ret;

	doc_head(out, in);
	doc_header(out, in);
	section_devices(out, in);
	ret = report_section_bars(out, in);
	if (!ret)
		ret = report_section_sweep(out, in);
	if (!ret)
		ret = report_section_iorate(out, in);
	if (!ret)
		ret = report_section_sustained(out, in);
	if (ret)
		return ret;
	report_section_plan(out, in);
	fputs("<footer class=\"meta\"><p>Written by <code>tierwise report</code>: one file, no "
	      "script, nothing fetched. See docs/report.md.</p></footer>\n</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}
