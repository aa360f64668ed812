/* render_util.c — small helpers the renderers share: numbers for people,
 * HTML escaping. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_fleet.h"
#include "tw_fmt.h"

void render_num(char *buf, size_t len, double v)
{
	tw_fmt_count(buf, len, v);
}

void render_html_esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}
