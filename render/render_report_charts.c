/* render_report_charts.c — the report's charts as inline SVG: one bar chart
 * per key metric, the queue-depth sweep (IOPS against p99, the knee marked)
 * and the sustained write over time (temperature, cache cliff, throttling).
 * The figures come from render_report_data.c; this file only draws.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define CHART_W 760.0
#define BAR_ROW 17.0
#define BAR_LEFT 120.0
#define PALETTE 10		/* .s0 … .s9 in the stylesheet */

static const char *tier_class(const char *tier)
{
	return tier ? tier : "none";
}

/* ---- bar charts ---- */

static void bars_range(const struct report_bars *b, double *min, double *max)
{
	*min = INFINITY;
	*max = -INFINITY;
	for (size_t i = 0; i < b->n; i++)
		if (!isnan(b->v[i].value)) {
			*min = fmin(*min, b->v[i].value);
			*max = fmax(*max, b->v[i].value);
		}
	if (*min > *max)	/* nothing measured */
		*min = 0, *max = 1;
}

static void bar_row(FILE *out, const struct model_metric_desc *m, const struct report_bar *b,
		    const struct svg_scale *s, double y)
{
	char v[32];
	double x1 = svg_at(s, b->value), w = fmax(x1 - s->p0, 1);

	fputs("<text class=\"device\" ", out);
	fprintf(out, "x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", s->p0 - 6, y + BAR_ROW / 2 + 2);
	render_html_esc(out, b->dev->id);
	fputs("</text>\n", out);
	if (isnan(b->value)) {
		fputs("<rect class=\"bar empty\" data-device=\"", out);
		render_html_esc(out, b->dev->id);
		fprintf(out, "\" data-value=\"\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
			"<text class=\"empty-label\" x=\"%.1f\" y=\"%.1f\">not measured</text>\n",
			s->p0, y + 2, s->p1 - s->p0, BAR_ROW - 4, s->p0 + 6, y + BAR_ROW / 2 + 2);
		return;
	}
	rh_num(v, sizeof(v), b->value);
	fprintf(out, "<rect class=\"bar tier-%s\" data-device=\"", tier_class(b->tier));
	render_html_esc(out, b->dev->id);
	fprintf(out, "\" data-value=\"%.10g\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
		"<title>", b->value, s->p0, y + 2, w, BAR_ROW - 4);
	render_html_esc(out, b->dev->model);
	fprintf(out, ": %s %s</title></rect>", v, m->unit);
	fprintf(out, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", s->p0 + w + 4,
		y + BAR_ROW / 2 + 2, v);
}

static void bar_chart(FILE *out, const struct model_metric_desc *m, const struct report_bars *b)
{
	struct svg_frame f = { BAR_LEFT, 6, CHART_W - 80, 6 + BAR_ROW * (double)b->n };
	double min, max, h = f.bottom + 40;
	struct svg_scale s;

	bars_range(b, &min, &max);
	svg_scale_init(&s, min, max, f.left, f.right, SVG_AUTO, true);
	fputs("<figure class=\"chart-box\">\n<figcaption><strong>", out);
	render_html_esc(out, model_metric_label(m, MODEL_LABEL_TITLE));
	fprintf(out, "</strong> — %s, %s is better%s</figcaption>\n", m->unit,
		model_better_name(m->better),
		s.log ? "; log scale: the largest value is over 20× the smallest" : "");
	fprintf(out, "<svg class=\"chart bar\" data-metric=\"%s\" data-scale=\"%s\" "
		"viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"",
		m->path, s.log ? "log" : "linear", CHART_W, h, CHART_W, h);
	render_html_esc(out, model_metric_label(m, MODEL_LABEL_TITLE));
	fputs("\">\n", out);
	svg_axis_x(out, &s, &f, m->unit);
	for (size_t i = 0; i < b->n; i++)
		bar_row(out, m, &b->v[i], &s, f.top + BAR_ROW * (double)i);
	fputs("</svg>\n</figure>\n", out);
}

int report_section_bars(FILE *out, const struct report_input *in)
{
	fputs("<section id=\"charts\">\n<h2>Key metrics, one bar per device</h2>\n"
	      "<p class=\"note\">Bars are coloured by tier; best first. A device without the "
	      "figure has an empty, labelled slot.</p>\n<div class=\"charts\">\n", out);
	for (size_t k = 0; k < report_n_metrics; k++) {
		struct report_bars b;

		if (!report_metrics[k].chart)
			continue;
		if (report_bars_make(report_metric_desc(k), in->devs, in->n_devs, in->plan, &b))
			return -ENOMEM;
		bar_chart(out, report_metric_desc(k), &b);
		free(b.v);
	}
	fputs("</div>\n</section>\n", out);
	return 0;
}

/* ---- the queue-depth sweep ---- */

bool report_any_sweep(const struct report_input *in)
{
	for (size_t i = 0; i < in->n_devs; i++)
		if (report_has_sweep(in->devs[i]))
			return true;
	return false;
}

static bool sweep_ok(const struct profile_sweep *p)
{
	return p->qd > 0 && p->iops > 0 && p->lat.v[PROFILE_LAT_P99] > 0;
}

static int qd_cmp(const void *a, const void *b)
{
	const struct profile_sweep *x = a, *y = b;

	return (x->qd > y->qd) - (x->qd < y->qd);
}

static void sweep_range(const struct report_input *in, double r[4])
{
	r[0] = r[2] = INFINITY;
	r[1] = r[3] = -INFINITY;
	for (size_t i = 0; i < in->n_devs; i++)
		for (size_t k = 0; k < in->devs[i]->n_sweep; k++) {
			const struct profile_sweep *p = &in->devs[i]->sweep[k];

			if (!sweep_ok(p))
				continue;
			r[0] = fmin(r[0], p->iops);
			r[1] = fmax(r[1], p->iops);
			r[2] = fmin(r[2], p->lat.v[PROFILE_LAT_P99]);
			r[3] = fmax(r[3], p->lat.v[PROFILE_LAT_P99]);
		}
}

static void sweep_points(FILE *out, const struct profile_device *d, const struct profile_sweep *p,
			 size_t n, const struct svg_scale *x, const struct svg_scale *y, int c)
{
	char a[32], b[32];

	fprintf(out, "<polyline class=\"sweep s%d\" points=\"", c);
	for (size_t k = 0; k < n; k++)
		fprintf(out, "%s%.1f,%.1f", k ? " " : "", svg_at(x, p[k].iops),
			svg_at(y, p[k].lat.v[PROFILE_LAT_P99]));
	fputs("\"/>\n", out);
	for (size_t k = 0; k < n; k++) {
		double px = svg_at(x, p[k].iops), py = svg_at(y, p[k].lat.v[PROFILE_LAT_P99]);

		rh_num(a, sizeof(a), p[k].iops);
		rh_num(b, sizeof(b), p[k].lat.v[PROFILE_LAT_P99]);
		fprintf(out, "<circle class=\"pt s%d\" data-qd=\"%ld\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\">"
			"<title>", c, p[k].qd, px, py);
		render_html_esc(out, d->id);
		fprintf(out, " QD %ld: %s IOPS, p99 %s µs</title></circle>"
			"<text class=\"qd\" x=\"%.1f\" y=\"%.1f\">%ld</text>\n", p[k].qd, a, b,
			px + 4, py - 4, p[k].qd);
	}
}

static void sweep_knee(FILE *out, const struct profile_device *d, const struct svg_scale *x,
		       const struct svg_scale *y)
{
	struct report_knee k;
	double px, py;

	if (!report_sweep_knee(d, &k))
		return;
	px = svg_at(x, k.iops);
	py = svg_at(y, k.p99_us);
	fputs("<circle class=\"knee\" data-device=\"", out);
	render_html_esc(out, d->id);
	fprintf(out, "\" data-qd=\"%ld\" data-basis=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\"/>"
		"<text class=\"knee-label\" x=\"%.1f\" y=\"%.1f\">knee QD %ld</text>\n",
		k.qd, k.basis, px, py, px + 10, py + 14, k.qd);
}

/* One device's line, points and knee.  Returns 0 or -ENOMEM. */
static int sweep_device(FILE *out, const struct profile_device *d, const struct svg_scale *x,
			const struct svg_scale *y, int c)
{
	struct profile_sweep *p = calloc(d->n_sweep ? d->n_sweep : 1, sizeof(*p));
	size_t n = 0;

	if (!p)
		return -ENOMEM;
	for (size_t k = 0; k < d->n_sweep; k++)
		if (sweep_ok(&d->sweep[k]))
			p[n++] = d->sweep[k];
	qsort(p, n, sizeof(*p), qd_cmp);
	fputs("<g class=\"sweep-device\" data-device=\"", out);
	render_html_esc(out, d->id);
	fputs("\">\n", out);
	sweep_points(out, d, p, n, x, y, c);
	sweep_knee(out, d, x, y);
	fputs("</g>\n", out);
	free(p);
	return 0;
}

static void legend_entry(FILE *out, const char *id, int c, double x, double y)
{
	fprintf(out, "<line class=\"sweep s%d\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<text class=\"legend\" x=\"%.1f\" y=\"%.1f\">", c, x, y, x + 18, y, x + 22, y + 4);
	render_html_esc(out, id);
	fputs("</text>\n", out);
}

static void knee_table(FILE *out, const struct report_input *in)
{
	struct report_knee k;
	char a[32], b[32];

	fputs("<table class=\"small\"><thead><tr><th>device</th><th>knee QD</th><th>IOPS</th>"
	      "<th>p99 µs</th><th>found by</th></tr></thead><tbody>\n", out);
	for (size_t i = 0; i < in->n_devs; i++) {
		const struct profile_device *d = in->devs[i];
		bool found;

		if (!report_has_sweep(d))
			continue;
		found = report_sweep_knee(d, &k);
		rh_num(a, sizeof(a), found ? k.iops : NAN);
		rh_num(b, sizeof(b), found ? k.p99_us : NAN);
		fputs("<tr><td>", out);
		render_html_esc(out, d->id);
		if (found)
			fprintf(out, "</td><td>%ld</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", k.qd,
				a, b, k.basis);
		else
			fputs("</td><td colspan=\"4\">no knee: IOPS still grows with depth</td></tr>\n",
			      out);
	}
	fputs("</tbody></table>\n", out);
}

int report_section_sweep(FILE *out, const struct report_input *in)
{
	struct svg_frame f = { 80, 10, CHART_W - 170, 380 };
	struct svg_scale x, y;
	double r[4];
	int c = 0;

	if (!report_any_sweep(in))
		return 0;
	sweep_range(in, r);
	svg_scale_init(&x, r[0], r[1], f.left, f.right, SVG_LOG, false);
	svg_scale_init(&y, r[2], r[3], f.bottom, f.top, SVG_LOG, false);
	fputs("<section id=\"sweep\">\n<h2>Queue-depth sweep</h2>\n<figure class=\"chart-box\">\n"
	      "<figcaption>Random 4 KiB read: IOPS against p99 latency as the queue depth rises "
	      "(numbers: QD). The knee (ring) is the latency target's depth when the profile has "
	      "one, else the last depth before p99 more than doubles while IOPS grows less than "
	      "20 %.</figcaption>\n", out);
	fprintf(out, "<svg class=\"chart sweep\" data-metric=\"qd_sweep\" viewBox=\"0 0 %.0f 425\" "
		"width=\"%.0f\" height=\"425\" role=\"img\" aria-label=\"queue-depth sweep\">\n",
		CHART_W, CHART_W);
	svg_axis_x(out, &x, &f, "IOPS");
	svg_axis_y(out, &y, &f, "p99 latency, µs", false);
	for (size_t i = 0; i < in->n_devs; i++) {
		if (!report_has_sweep(in->devs[i]))
			continue;
		if (sweep_device(out, in->devs[i], &x, &y, c % PALETTE))
			return -ENOMEM;
		legend_entry(out, in->devs[i]->id, c % PALETTE, f.right + 20, f.top + 8 + 16 * c);
		c++;
	}
	fputs("</svg>\n</figure>\n", out);
	knee_table(out, in);
	fputs("</section>\n", out);
	return 0;
}

/* ---- sustained write over time ---- */

static bool has_series(const struct profile_device *d)
{
	return d->sustained.present && d->sustained.n_series > 1;
}

bool report_any_series(const struct report_input *in)
{
	for (size_t i = 0; i < in->n_devs; i++)
		if (has_series(in->devs[i]))
			return true;
	return false;
}

/* Ranges: [0] t max, [1] MB/s max, [2] [3] temperature min, max (NAN: none). */
static void series_range(const struct profile_device *d, double r[4])
{
	const struct profile_sustained *s = &d->sustained;

	r[0] = r[1] = 0;
	r[2] = INFINITY;
	r[3] = -INFINITY;
	for (size_t i = 0; i < s->n_series; i++) {
		r[0] = fmax(r[0], s->series[i].t);
		r[1] = fmax(r[1], s->series[i].mbps);
		if (!isnan(s->series[i].temp_c)) {
			r[2] = fmin(r[2], s->series[i].temp_c);
			r[3] = fmax(r[3], s->series[i].temp_c);
		}
	}
	if (s->initial_mbps > r[1])
		r[1] = s->initial_mbps;
	if (r[2] <= r[3] && d->thermal.warning_c > r[3])
		r[3] = d->thermal.warning_c;
	if (r[2] > r[3])
		r[2] = r[3] = NAN;
}

static void series_lines(FILE *out, const struct profile_sustained *s, const struct svg_scale *x,
			 const struct svg_scale *y, const struct svg_scale *temp)
{
	bool first = true;

	fputs("<polyline class=\"mbps\" points=\"", out);
	for (size_t i = 0; i < s->n_series; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", svg_at(x, s->series[i].t),
			svg_at(y, s->series[i].mbps));
	fputs("\"/>\n", out);
	if (!temp)
		return;
	fputs("<polyline class=\"temp\" points=\"", out);
	for (size_t i = 0; i < s->n_series; i++) {
		if (isnan(s->series[i].temp_c))
			continue;
		fprintf(out, "%s%.1f,%.1f", first ? "" : " ", svg_at(x, s->series[i].t),
			svg_at(temp, s->series[i].temp_c));
		first = false;
	}
	fputs("\"/>\n", out);
}

/* A vertical mark at x with its label; labels right of the middle end at x. */
static void vmark(FILE *out, const char *cls, const char *attrs, double x,
		  const struct svg_frame *f, const char *label, double y)
{
	bool right = x > (f->left + f->right) / 2;

	fprintf(out, "<line class=\"%s\" %s x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<text class=\"%s-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
		cls, attrs, x, f->top, x, f->bottom, cls, right ? x - 3 : x + 3, y,
		right ? "end" : "start", label);
}

static void series_marks(FILE *out, const struct profile_device *d, const struct svg_scale *x,
			 const struct svg_frame *f, const struct svg_scale *temp)
{
	const struct profile_thermal *th = &d->thermal;
	const char *basis;
	char attrs[96], label[64];
	double t;

	if (report_sustained_cliff(&d->sustained, &t, &basis)) {
		snprintf(attrs, sizeof(attrs), "data-t=\"%.3g\" data-basis=\"%s\"", t, basis);
		vmark(out, "cliff", attrs, svg_at(x, t), f, "cache cliff", f->top + 12);
	}
	for (size_t i = 0; i < th->n_throttle; i++) {
		const char *kind = th->throttle[i].kind == PROFILE_THR_TMT1 ? "tmt1"
				   : th->throttle[i].kind == PROFILE_THR_TMT2 ? "tmt2" : "drop";

		snprintf(attrs, sizeof(attrs), "data-kind=\"%s\" data-t=\"%.3g\"", kind,
			 th->throttle[i].t);
		snprintf(label, sizeof(label), "throttle (%s)", kind);
		vmark(out, "throttle", attrs, svg_at(x, th->throttle[i].t), f, label,
		      f->bottom - 6 - 12 * (double)(i % 4));
	}
	if (temp && !isnan(th->warning_c))
		fprintf(out, "<line class=\"warn-temp\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"warn-temp-label\" x=\"%.1f\" y=\"%.1f\">"
			"warning %.0f °C</text>\n", f->left, svg_at(temp, th->warning_c), f->right,
			svg_at(temp, th->warning_c), f->left + 4, svg_at(temp, th->warning_c) - 3,
			th->warning_c);
}

static void series_caption(FILE *out, const struct profile_device *d, bool temp)
{
	const struct profile_sustained *s = &d->sustained;
	char a[32], b[32], c[32];

	rh_num(a, sizeof(a), s->initial_mbps);
	rh_num(b, sizeof(b), s->mbps);
	rh_num(c, sizeof(c), s->cliff_after_gb);
	fputs("<figcaption><strong>", out);
	render_html_esc(out, d->id);
	fputs("</strong> ", out);
	render_html_esc(out, d->model);
	fprintf(out, ": initial %s MB/s, sustained %s MB/s", a, b);
	if (!isnan(s->cliff_after_gb))
		fprintf(out, ", cache cliff after %s GB", c);
	fprintf(out, "; solid: MB/s (left)%s</figcaption>\n", temp ? ", dashed: °C (right)" : "");
}

static void sustained_chart(FILE *out, const struct profile_device *d)
{
	struct svg_frame f = { 80, 10, CHART_W - 80, 250 };
	struct svg_scale x, y, temp;
	double r[4];

	series_range(d, r);
	svg_scale_init(&x, 0, r[0], f.left, f.right, SVG_LINEAR, true);
	svg_scale_init(&y, 0, r[1], f.bottom, f.top, SVG_LINEAR, true);
	if (!isnan(r[2]))
		svg_scale_init(&temp, r[2] - 2, r[3] + 2, f.bottom, f.top, SVG_LINEAR, false);
	fputs("<figure class=\"chart-box\">\n", out);
	series_caption(out, d, !isnan(r[2]));
	fputs("<svg class=\"chart sustained\" data-metric=\"sustained_write.series\" data-device=\"",
	      out);
	render_html_esc(out, d->id);
	fprintf(out, "\" viewBox=\"0 0 %.0f 295\" width=\"%.0f\" height=\"295\" role=\"img\" "
		"aria-label=\"sustained write over time\">\n", CHART_W, CHART_W);
	svg_axis_x(out, &x, &f, "seconds");
	svg_axis_y(out, &y, &f, "MB/s", false);
	if (!isnan(r[2]))
		svg_axis_y(out, &temp, &f, "°C", true);
	series_lines(out, &d->sustained, &x, &y, isnan(r[2]) ? NULL : &temp);
	series_marks(out, d, &x, &f, isnan(r[2]) ? NULL : &temp);
	fputs("</svg>\n</figure>\n", out);
}

int report_section_sustained(FILE *out, const struct report_input *in)
{
	if (!report_any_series(in))
		return 0;
	fputs("<section id=\"sustained\">\n<h2>Sustained write over time</h2>\n"
	      "<p class=\"note\">The cache cliff is where the GB written reach "
	      "<code>cliff_after_gb</code>, or where MB/s first drops below 70 % of the initial "
	      "rate; throttling evidence (<code>thermal.throttle</code>) is marked where it "
	      "happened.</p>\n", out);
	fputs("<div class=\"charts\">\n", out);
	for (size_t i = 0; i < in->n_devs; i++)
		if (has_series(in->devs[i]))
			sustained_chart(out, in->devs[i]);
	fputs("</div>\n</section>\n", out);
	return 0;
}
