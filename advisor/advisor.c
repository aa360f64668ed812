/* Tier names shared by policies, plans and renderers. */
#include "advisor.h"

#include <errno.h>
#include <string.h>

static const char *const tier_names[ADVISOR_TIER_COUNT] = { "hot", "warm", "cold" };

const char *advisor_tier_name(enum advisor_tier t)
{
	return (int)t >= 0 && t < ADVISOR_TIER_COUNT ? tier_names[t] : NULL;
}

int advisor_tier_parse(const char *name)
{
	for (int t = 0; name && t < ADVISOR_TIER_COUNT; t++)
		if (!strcmp(name, tier_names[t]))
			return t;
	return -EINVAL;
}
