/* The shared toolbox (tw_util.h). */
#include <math.h>
#include <stdio.h>

#include "tw_util.h"

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
	else if (bytes >= 1e12)
		snprintf(buf, len, "%.1f TB", bytes / 1e12);
	else
		snprintf(buf, len, "%.0f GB", bytes / 1e9);
}
