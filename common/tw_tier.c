/* tw_tier.c — the tier names (tw_tier.h). */
#include <string.h>

#include "tw_tier.h"

const char *const tw_tier_names[TW_TIER_COUNT] = { TW_TIER_NAMES };

int tw_tier_find(const char *name)
{
	for (int t = 0; name && t < TW_TIER_COUNT; t++)
		if (!strcmp(name, tw_tier_names[t]))
			return t;
	return -1;
}
