/* cpulist.c — the kernel's CPU list format (cpulist.h). */
#include "cpulist.h"

#include <stdio.h>
#include <stdlib.h>

bool probe_cpulist_mark(const char *list, bool *on, size_t n)
{
	const char *p = list;

	while (*p && *p != '\n') {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p)
			return false;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		for (unsigned long c = a; c <= b && c < n; c++)
			on[c] = true;
		if (*end && *end != ',' && *end != '\n')
			return false;
		p = *end == ',' ? end + 1 : end;
	}
	return true;
}

char *probe_cpulist_format(const bool *on, size_t n)
{
	size_t at = 0, len = 1;
	char *out;

	for (size_t c = 0; c < n; c++)	/* "NNNNN-NNNNN," at most per range */
		len += on[c] && (c == 0 || !on[c - 1]) ? 2 * 20 + 2 : 0;
	if (!(out = malloc(len)))
		return NULL;
	out[0] = '\0';
	for (size_t c = 0; c < n; c++) {
		size_t e = c;

		if (!on[c])
			continue;
		while (e + 1 < n && on[e + 1])
			e++;
		at += (size_t)snprintf(out + at, len - at, e > c ? "%s%zu-%zu" : "%s%zu",
				       at ? "," : "", c, e);
		c = e;
	}
	return out;
}

bool probe_cpulist_set(const char *list, const cpu_set_t *allowed, cpu_set_t *s)
{
	bool on[CPU_SETSIZE] = { false };

	CPU_ZERO(s);
	if (!probe_cpulist_mark(list, on, CPU_SETSIZE))
		return false;
	for (size_t c = 0; c < CPU_SETSIZE; c++)
		if (on[c] && CPU_ISSET(c, allowed))
			CPU_SET(c, s);
	return CPU_COUNT(s) > 0;
}
