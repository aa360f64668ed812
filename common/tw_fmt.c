/* The formatter of numbers for people (tw_fmt.h). */
#include <math.h>
#include <stdio.h>

#include "tw_fmt.h"

static void fmt_binary(char *buf, size_t len, double bytes)
{
	static const char units[] = "BKMGTPE";
	int u = 0;

	while (bytes >= 1024 && u < 6) {
		bytes /= 1024;
		u++;
	}
	if (u == 0 || bytes >= 100 || bytes == (double)(long long)bytes)
		snprintf(buf, len, "%.0f%c", bytes, units[u]);
	else
		snprintf(buf, len, "%.1f%c", bytes, units[u]);
}

void tw_fmt_bytes(char *buf, size_t len, double bytes, enum tw_bytes_style style)
{
	if (bytes < 0 || isnan(bytes))
		snprintf(buf, len, "-");
	else if (style == TW_BYTES_BINARY)
		fmt_binary(buf, len, bytes);
	else if (bytes >= 1e15)
		snprintf(buf, len, "%.1f PB", bytes / 1e15);
	else if (bytes >= 1e12)
		snprintf(buf, len, "%.1f TB", bytes / 1e12);
	else if (bytes >= 1e9 || bytes == 0)
		snprintf(buf, len, "%.0f GB", bytes / 1e9);
	else	/* a 200 MB need is not "0 GB" */
		snprintf(buf, len, "%.0f MB", bytes / 1e6);
}


/* Whole v with a comma every three digits. */
static void grouped(char *buf, size_t len, double v)
{
	char digits[48], *o = buf;
	int n = snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	size_t left = len;

	if (!len)
		return;
	if (v < 0 && left > 1) {
		*o++ = '-';
		left--;
	}
	for (int i = 0; i < n && left > 1; i++) {
		if (i && (n - i) % 3 == 0) {
			if (left < 3)
				break;
			*o++ = ',';
			left--;
		}
		*o++ = digits[i];
		left--;
	}
	*o = '\0';
}

void tw_fmt_count(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, v < 0 ? "-inf" : "inf");
	else if (v == 0)
		snprintf(buf, len, "0");
	else if (a >= 9.95)
		grouped(buf, len, round(v));
	else if (a >= 0.995)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/* v of a unit: one decimal below 10 (two below 1), whole from 10. */
static void amount(char *buf, size_t len, double v, const char *unit)
{
	char n[48];

	if (v >= 9.95) {
		grouped(n, sizeof(n), round(v));
		snprintf(buf, len, "%s %s", n, unit);
	} else if (v >= 0.95)
		snprintf(buf, len, "%.1f %s", v, unit);
	else
		snprintf(buf, len, "%.2f %s", v, unit);
}

void tw_fmt_duration(char *buf, size_t len, double s)
{
	if (isnan(s) || s < 0)
		snprintf(buf, len, "-");
	else if (isinf(s))
		snprintf(buf, len, "forever");
	else if (s == 0)
		snprintf(buf, len, "0 s");
	else if (s < 0.0995)
		amount(buf, len, s * 1e3, "ms");
	else if (s < 59.5)
		amount(buf, len, s, "s");
	else if (s < 59.5 * 60)
		amount(buf, len, s / 60, "min");
	else if (s < 99.5 * 3600)
		amount(buf, len, s / 3600, "h");
	else
		amount(buf, len, s / 86400, "d");
}
