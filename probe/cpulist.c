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

/* Is CPU c of a set in it (the two kinds of set the lists come from). */
static bool in_bools(const void *set, size_t c)
{
	return ((const bool *)set)[c];
}

static bool in_cpuset(const void *set, size_t c)
{
	return CPU_ISSET(c, (const cpu_set_t *)set);
}

/* The CPUs c < n that in(set, c) holds, as a list (probe_cpulist_format). */
static char *format_by(bool (*in)(const void *, size_t), const void *set, size_t n)
{
	size_t at = 0, len = 1;
	char *out;

	for (size_t c = 0; c < n; c++)	/* "NNNNN-NNNNN," at most per range */
		len += in(set, c) && (c == 0 || !in(set, c - 1)) ? 2 * 20 + 2 : 0;
	if (!(out = malloc(len)))
		return NULL;
	out[0] = '\0';
	for (size_t c = 0; c < n; c++) {
		size_t e = c;

		if (!in(set, c))
			continue;
		while (e + 1 < n && in(set, e + 1))
			e++;
		at += (size_t)snprintf(out + at, len - at, e > c ? "%s%zu-%zu" : "%s%zu",
				       at ? "," : "", c, e);
		c = e;
	}
	return out;
}

char *probe_cpulist_format(const bool *on, size_t n)
{
	return format_by(in_bools, on, n);
}

char *probe_cpuset_format(const cpu_set_t *s)
{
	return format_by(in_cpuset, s, CPU_SETSIZE);
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
