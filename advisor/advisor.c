/* Tier names shared by policies, plans and renderers. */
#include "advisor.h"

#include <stddef.h>

_Static_assert(ADVISOR_COLD + 1 == TW_TIER_COUNT, "one list of tiers");

const char *advisor_tier_name(enum advisor_tier t)
{
	return (int)t >= 0 && t < TW_TIER_COUNT ? tw_tier_names[t] : NULL;
}
