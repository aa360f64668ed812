/* Sizes: one parser and one convention for the whole tool (tw_size.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tw_size.h"

/* The multiplier of the unit at s ("G", "Gi", "GB", "GiB", "B", ""). */
static int unit_mult(const char *s, double *mult, bool *has_unit)
{
	static const char units[] = "KMGTP";
	const char *u = *s ? strchr(units, toupper((unsigned char)*s)) : NULL;
	double base = 1000;

	*mult = 1;
	*has_unit = u != NULL;
	if (u) {
		s++;
		if (*s == 'i') {
			base = 1024;
			s++;
		}
		*mult = pow(base, (double)(u - units + 1));
	}
	if (*s == 'B' || (*s == 'b' && u)) {
		*has_unit = true;
		s++;
	}
	return *s == '\0' ? 0 : -EINVAL;
}

int tw_size_parse(const char *s, bool unit_required, uint64_t *out)
{
	const char *p = s;
	double v, mult;
	bool has_unit;
	char *end;

	if (!s)
		return -EINVAL;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	if (p == s || !isdigit((unsigned char)*s))
		return -EINVAL;
	v = strtod(s, &end);
	if (end != p)
		return -EINVAL;
	while (*p == ' ')
		p++;
	if (unit_mult(p, &mult, &has_unit) < 0)
		return -EINVAL;
	if (unit_required && !has_unit && v != 0)
		return -EINVAL;
	v *= mult;
	if (!isfinite(v) || v >= 9.2e18)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}
