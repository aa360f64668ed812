/* render.h — the render layer: data structs into a FILE*, one renderer per
 * format behind an ops table (text, md, json, html, fstab, udev, script,
 * prometheus).  Renderers never print elsewhere, never exit and never read
 * the machine; the commands in cli/ choose them.  This header holds what
 * every renderer shares and the ops tables of the inventory, the probe's
 * summary and the scores;
 * render_plan.h, report.h, render_fleet.h and render_prom.h the others.
 */
#ifndef TW_RENDER_H
#define TW_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "probe.h"

struct model_ranking;

/* Inventory renderers (render_list.c): one data struct, several formats. */
struct list_render_ops {
	const char *name;
	void (*print)(FILE *out, const struct probe_inventory *inv);
};
extern const struct list_render_ops list_render_text, list_render_json;

/* Score renderers (render_score.c): one list of rankings, several formats. */
struct score_render_ops {
	const char *name;
	/* policies_from: where the policies came from, for people (NULL =
	 * unknown); the text renderer leaves it to its caller */
	void (*print)(FILE *out, struct model_ranking *const *r, size_t n,
		      const char *policies_from);
};
extern const struct score_render_ops score_render_text, score_render_json;

/* The probe's summary (render_probe.c): a profile's figures, per device,
 * as a table with notes; its JSON form is the profile itself. */
struct profile;
struct probe_render_ops {
	const char *name;
	void (*print)(FILE *out, const struct profile *p);
};
extern const struct probe_render_ops probe_render_text;

/* Human size like lsblk: 894.3G (binary units, tw_fmt_bytes). */
void render_size(char *buf, size_t len, double bytes);

/* Print s, then spaces up to width display columns (UTF-8 aware). */
void render_pad(FILE *out, const char *s, int width);

/* Write s to out with & < > " ' escaped for HTML (NULL writes nothing). */
void render_html_esc(FILE *out, const char *s);

/* Write the len bytes of text to out with every line wider than width
 * display columns broken at spaces; a continuation is indented by its
 * line's indent plus 4.  A line with runs of spaces (a table row) keeps
 * them while it fits; a word wider than width is not broken. */
void render_wrap(FILE *out, const char *text, size_t len, int width);

/* A value in its metric's unit for people: "83,989", "0.12", "1.0 TB"
 * (tw_fmt_count, or tw_fmt_bytes in decimal units for "bytes"). */
void render_value(char *buf, size_t len, double v, const char *unit);

/* An estimate with its unit for people: a time ("s" or "h") by
 * tw_fmt_duration ("0.45 s", "2.0 min", "12 h", never "0.03 h"), else the
 * value and its unit; "-" when unknown. */
void render_estimate(char *buf, size_t len, double v, const char *unit);

#endif
