/* render_report_svg.c — the small pieces every section of the HTML report
 * uses: escaping, number labels, scales (linear or log) and axes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "report.h"

void rh_num(char *buf, size_t len, double v)
{
	render_value(buf, len, v, NULL);
}

void rh_tick(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (fabs(v) >= 1e3)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

/* 1, 2 or 5 times a power of ten, ≥ x. */
static double nice_step(double x)
{
	double e, f;

	if (!(x > 0) || !isfinite(x))
		return 1;
	e = pow(10, floor(log10(x)));
	f = x / e;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
}

static void scale_log(struct svg_scale *s, double min, double max)
{
	s->log = true;
	s->lo = pow(10, floor(log10(min)));
	s->hi = pow(10, ceil(log10(max)));
	if (s->hi <= s->lo)
		s->hi = s->lo * 10;
}

static void scale_linear(struct svg_scale *s, double min, double max, bool from_zero)
{
	double step;

	s->log = false;
	if (from_zero && min > 0)
		min = 0;
	if (max <= min)
		max = min + (min ? fabs(min) : 1);
	step = nice_step((max - min) / 5);
	s->lo = floor(min / step) * step;
	s->hi = ceil(max / step) * step;
}

void svg_scale_init(struct svg_scale *s, double min, double max, double p0, double p1,
		    enum svg_mode mode, bool from_zero)
{
	bool log = mode == SVG_LOG || (mode == SVG_AUTO && max / min > 20);

	s->p0 = p0;
	s->p1 = p1;
	if (log && min > 0 && isfinite(max))
		scale_log(s, min, max);
	else
		scale_linear(s, isfinite(min) ? min : 0, isfinite(max) ? max : 1, from_zero);
}

double svg_at(const struct svg_scale *s, double v)
{
	double f;

	if (!(v >= s->lo))	/* NAN too */
		v = s->lo;
	if (v > s->hi)
		v = s->hi;
	if (s->log)
		f = (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
	else
		f = (v - s->lo) / (s->hi - s->lo);
	return s->p0 + f * (s->p1 - s->p0);
}

/* Powers of ten, with 2× and 5× when the scale spans at most two decades. */
static size_t ticks_log(const struct svg_scale *s, double *t, size_t max)
{
	static const double mult[] = { 1, 2, 5 };
	bool fine = s->hi / s->lo <= 100;
	size_t n = 0;

	for (double d = s->lo; d <= s->hi * 1.0001 && n < max; d *= 10)
		for (size_t k = 0; k < (fine ? 3u : 1u) && n < max; k++)
			if (d * mult[k] <= s->hi * 1.0001)
				t[n++] = d * mult[k];
	return n;
}

size_t svg_ticks(const struct svg_scale *s, double *t, size_t max)
{
	double step;
	size_t n = 0;

	if (s->log)
		return ticks_log(s, t, max);
	step = nice_step((s->hi - s->lo) / 5);
	for (double v = s->lo; v <= s->hi + step / 1000 && n < max; v += step)
		t[n++] = fabs(v) < step / 1000 ? 0 : v;
	return n;
}

static void axis_title(FILE *out, const char *title, const struct svg_scale *s)
{
	render_html_esc(out, title);
	if (s->log)
		fputs(" (log scale)", out);
}

void svg_axis_x(FILE *out, const struct svg_scale *s, const struct svg_frame *f,
		const char *title)
{
	double t[32];
	size_t n = svg_ticks(s, t, 32);
	char lab[32];

	fprintf(out, "<g class=\"axis x%s\">\n", s->log ? " log" : "");
	for (size_t i = 0; i < n; i++) {
		double x = svg_at(s, t[i]);

		rh_tick(lab, sizeof(lab), t[i]);
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			x, f->top, x, f->bottom, x, f->bottom + 13, lab);
	}
	fprintf(out, "<line class=\"axis-line\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		f->left, f->bottom, f->right, f->bottom);
	fprintf(out, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		(f->left + f->right) / 2, f->bottom + 29);
	axis_title(out, title, s);
	fputs("</text>\n</g>\n", out);
}

void svg_axis_y(FILE *out, const struct svg_scale *s, const struct svg_frame *f,
		const char *title, bool right)
{
	double t[32], x = right ? f->right : f->left, tx = right ? x + 5 : x - 5;
	size_t n = svg_ticks(s, t, 32);
	char lab[32];

	fprintf(out, "<g class=\"axis y%s%s\">\n", right ? " right" : "", s->log ? " log" : "");
	for (size_t i = 0; i < n; i++) {
		double y = svg_at(s, t[i]);

		rh_tick(lab, sizeof(lab), t[i]);
		if (!right)
			fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/>", f->left, y, f->right, y);
		fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
			tx, y + 4, right ? "start" : "end", lab);
	}
	fprintf(out, "<line class=\"axis-line\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		x, f->top, x, f->bottom);
	tx = right ? x + 44 : x - 44;
	fprintf(out, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 %.1f %.1f)\">", tx, (f->top + f->bottom) / 2,
		tx, (f->top + f->bottom) / 2);
	axis_title(out, title, s);
	fputs("</text>\n</g>\n", out);
}
