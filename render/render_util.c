/* render_util.c — small helpers the renderers share: numbers for people,
 * HTML escaping. */
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

#include "render.h"
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

/* Display columns of the n bytes at s (UTF-8 characters). */
static int cols_n(const char *s, size_t n)
{
	int c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

/* One line (no '\n') wrapped at spaces; continuation lines indented by the
 * line's own indent plus 4.  A word longer than the width stays whole. */
static void wrap_line(FILE *out, const char *s, size_t len, int width)
{
	size_t indent = strspn(s, " ");
	int hang = (int)indent + 4, col = 0;
	size_t i = 0, gap_before = 1;
	bool first = true;

	if (indent > len)
		indent = len;
	if (cols_n(s, len) <= width || hang >= width / 2) {
		fwrite(s, 1, len, out);
		return;
	}
	fwrite(s, 1, indent, out);
	col = (int)indent;
	i = indent;
	while (i < len) {
		size_t w = i, end, gap = 0;

		while (w < len && s[w] != ' ')
			w++;
		end = w;
		if (!first && col + 1 + cols_n(s + i, end - i) > width) {
			fprintf(out, "\n%*s", hang, "");
			col = hang;
		} else if (!first) {	/* the spaces as they were (a column gap) */
			fprintf(out, "%*s", (int)gap_before, "");
			col += (int)gap_before;
		}
		fwrite(s + i, 1, end - i, out);
		col += cols_n(s + i, end - i);
		first = false;
		i = end;
		while (i < len && s[i] == ' ') {
			i++;
			gap++;
		}
		gap_before = gap;
	}
}

void render_wrap(FILE *out, const char *text, size_t len, int width)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		wrap_line(out, p, n, width);
		if (nl)
			fputc('\n', out);
		p += n + (nl != NULL);
	}
}
