/* render_report_iorate.c — the report's latency-against-load chart: the
 * iorate steps (4 KiB random reads offered open loop at shares of the
 * sweep's best IOPS), p99 and p50 latency against the IOPS delivered, as
 * VDBench users read an iorate curve; and a table of the steps.
 */
#include <math.h>
#include <stdio.h>

#include "render.h"
#include "report.h"

#define CHART_W 760.0
#define PALETTE 10		/* .s0 … .s9 in the stylesheet */

static bool step_ok(const struct profile_iorate *s)
{
	return s->iops > 0 && s->lat.v[PROFILE_LAT_P99] > 0;
}

static bool has_iorate(const struct profile_device *d)
{
	for (size_t k = 0; k < d->n_iorate; k++)
		if (step_ok(&d->iorate[k]))
			return true;
	return false;
}

bool report_any_iorate(const struct report_input *in)
{
	for (size_t i = 0; i < in->n_devs; i++)
		if (has_iorate(in->devs[i]))
			return true;
	return false;
}

/* IOPS range in r[0..1], latency range (p50 and p99) in r[2..3]. */
static void iorate_range(const struct report_input *in, double r[4])
{
	r[0] = r[2] = INFINITY;
	r[1] = r[3] = -INFINITY;
	for (size_t i = 0; i < in->n_devs; i++)
		for (size_t k = 0; k < in->devs[i]->n_iorate; k++) {
			const struct profile_iorate *s = &in->devs[i]->iorate[k];
			double p50 = s->lat.v[PROFILE_LAT_P50];

			if (!step_ok(s))
				continue;
			r[0] = fmin(r[0], s->iops);
			r[1] = fmax(r[1], s->iops);
			r[2] = fmin(r[2], p50 > 0 ? p50 : s->lat.v[PROFILE_LAT_P99]);
			r[3] = fmax(r[3], s->lat.v[PROFILE_LAT_P99]);
		}
}

/* One latency line (field f) of d, with its points when points is set. */
static void iorate_line(FILE *out, const struct profile_device *d, int f, bool points,
			const struct svg_scale *x, const struct svg_scale *y, int c)
{
	char a[32], b[32];
	size_t n = 0;

	fprintf(out, "<polyline class=\"iorate s%d%s\" points=\"", c, points ? "" : " p50");
	for (size_t k = 0; k < d->n_iorate; k++)
		if (step_ok(&d->iorate[k]) && d->iorate[k].lat.v[f] > 0)
			fprintf(out, "%s%.1f,%.1f", n++ ? " " : "", svg_at(x, d->iorate[k].iops),
				svg_at(y, d->iorate[k].lat.v[f]));
	fputs("\"/>\n", out);
	for (size_t k = 0; points && k < d->n_iorate; k++) {
		const struct profile_iorate *s = &d->iorate[k];
		double px, py;

		if (!step_ok(s))
			continue;
		px = svg_at(x, s->iops);
		py = svg_at(y, s->lat.v[f]);
		rh_num(a, sizeof(a), s->iops);
		rh_num(b, sizeof(b), s->lat.v[f]);
		fprintf(out, "<circle class=\"pt s%d\" data-pct=\"%.0f\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"3\"><title>", c, s->pct, px, py);
		render_html_esc(out, d->id);
		fprintf(out, " %.0f %% offered: %s IOPS delivered, p99 %s µs</title></circle>"
			"<text class=\"qd\" x=\"%.1f\" y=\"%.1f\">%.0f%%</text>\n", s->pct, a, b,
			px + 4, py - 4, s->pct);
	}
}

static void iorate_table(FILE *out, const struct report_input *in)
{
	char o[32], a[32], b[32], c[32];

	fputs("<table class=\"small\"><thead><tr><th>device</th><th>offered</th>"
	      "<th>offered IOPS</th><th>delivered IOPS</th><th>p50 µs</th><th>p99 µs</th>"
	      "</tr></thead><tbody>\n", out);
	for (size_t i = 0; i < in->n_devs; i++)
		for (size_t k = 0; k < in->devs[i]->n_iorate; k++) {
			const struct profile_iorate *s = &in->devs[i]->iorate[k];

			rh_num(o, sizeof(o), s->offered_iops);
			rh_num(a, sizeof(a), s->iops);
			rh_num(b, sizeof(b), s->lat.v[PROFILE_LAT_P50]);
			rh_num(c, sizeof(c), s->lat.v[PROFILE_LAT_P99]);
			fputs("<tr><td>", out);
			render_html_esc(out, in->devs[i]->id);
			fprintf(out, "</td><td>%.0f %%</td><td>%s</td><td>%s</td><td>%s</td>"
				"<td>%s</td></tr>\n", s->pct, o, a, b, c);
		}
	fputs("</tbody></table>\n", out);
}

int report_section_iorate(FILE *out, const struct report_input *in)
{
	struct svg_frame f = { 80, 10, CHART_W - 170, 380 };
	struct svg_scale x, y;
	double r[4];
	int c = 0;

	if (!report_any_iorate(in))
		return 0;
	iorate_range(in, r);
	svg_scale_init(&x, r[0], r[1], f.left, f.right, SVG_LOG, false);
	svg_scale_init(&y, r[2], r[3], f.bottom, f.top, SVG_LOG, false);
	fputs("<section id=\"iorate\">\n<h2>Latency against load</h2>\n<figure class=\"chart-box\">\n"
	      "<figcaption>Random 4 KiB reads offered open loop at 10 … 110 % of the sweep's best "
	      "IOPS (numbers: % offered): latency from each read's scheduled time against the IOPS "
	      "delivered, p99 (solid, points) and p50 (thin). Where the line turns up, queueing "
	      "starts.</figcaption>\n", out);
	fprintf(out, "<svg class=\"chart iorate\" data-metric=\"iorate\" viewBox=\"0 0 %.0f 425\" "
		"width=\"%.0f\" height=\"425\" role=\"img\" aria-label=\"latency against load\">\n",
		CHART_W, CHART_W);
	svg_axis_x(out, &x, &f, "delivered IOPS");
	svg_axis_y(out, &y, &f, "latency, µs", false);
	for (size_t i = 0; i < in->n_devs; i++) {
		const struct profile_device *d = in->devs[i];

		if (!has_iorate(d))
			continue;
		fputs("<g class=\"iorate-device\" data-device=\"", out);
		render_html_esc(out, d->id);
		fputs("\">\n", out);
		iorate_line(out, d, PROFILE_LAT_P99, true, &x, &y, c % PALETTE);
		iorate_line(out, d, PROFILE_LAT_P50, false, &x, &y, c % PALETTE);
		fputs("</g>\n", out);
		fprintf(out, "<line class=\"sweep s%d\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\"/><text class=\"legend\" x=\"%.1f\" y=\"%.1f\">", c % PALETTE,
			f.right + 20, f.top + 8 + 16 * c, f.right + 38, f.top + 8 + 16 * c,
			f.right + 42, f.top + 12 + 16 * c);
		render_html_esc(out, d->id);
		fputs("</text>\n", out);
		c++;
	}
	fputs("</svg>\n</figure>\n", out);
	iorate_table(out, in);
	fputs("</section>\n", out);
	return 0;
}
