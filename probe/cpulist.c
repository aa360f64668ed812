/* cpulist.c — the kernel's CPU list format (cpulist.h). */
#include "cpulist.h"

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
