/* Tier names shared by policies, plans and renderers. */
#include "advisor.h"
#include "tw_tier.h"

#include <stddef.h>

_Static_assert(ADVISOR_TIER_COUNT == TW_TIER_COUNT, "one list of tiers");

const char *advisor_tier_name(enum advisor_tier t)
{
	return (int)t >= 0 && t < ADVISOR_TIER_COUNT ? tw_tier_names[t] : NULL;
}
