/* render_fleet.h — a struct fleet (fleet/fleet.h) as text, Markdown,
 * tierwise.fleet/1 JSON (docs/tierwise.fleet-1.schema.json) or one
 * self-contained HTML page.  Renderers never print elsewhere or exit.
 */
#ifndef TW_RENDER_FLEET_H
#define TW_RENDER_FLEET_H

#include <stdio.h>

#include "fleet.h"
#include "render.h"

struct fleet_render_ops {
	const char *name;		/* "text", "json", "md", "html" */
	/* Write f to out.  Returns 0, -ENOMEM, or -EIO when out failed. */
	int (*print)(FILE *out, const struct fleet *f);
};

extern const struct fleet_render_ops fleet_render_text, fleet_render_md, fleet_render_json,
	fleet_render_html;

/* The renderer called name, or NULL. */
const struct fleet_render_ops *fleet_render_find(const char *name);

/* A number for people: "83,989", "2.3", "0.12"; "-" for NAN (tw_fmt_count). */
void render_num(char *buf, size_t len, double v);

/* The fleet's one-line summary into buf, each count with its noun in the
 * right number: "1 host, 3 devices, 1 model; plans for 1 of 1 host". */
void fleet_summary(char *buf, size_t len, const struct fleet *f);


#endif
