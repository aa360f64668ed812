/* render_util.c — small helpers the renderers share: numbers for people,
 * HTML escaping. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_fleet.h"

/* Digits of an integer with thousands separators. */
static void grouped(char *buf, size_t len, double v)
{
	char digits[32], *o = buf;
	int n = snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	size_t left = len;

	if (v < 0 && left > 1) {
		*o++ = '-';
		left--;
	}
	for (int i = 0; i < n && left > 1; i++) {
		if (i && (n - i) % 3 == 0 && left > 2) {
			*o++ = ',';
			left--;
		}
		*o++ = digits[i];
		left--;
	}
	*o = '\0';
}

void render_num(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 100)
		grouped(buf, len, round(v));
	else if (v == 0)
		snprintf(buf, len, "0");
	else if (fabs(v) >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
	if (strchr(buf, '.') && fabs(v) >= 10 && fabs(v) < 100 && v == round(v))
		*strchr(buf, '.') = '\0';	/* 42.0 -> 42 */
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
