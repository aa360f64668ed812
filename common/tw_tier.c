/* tw_tier.c — the tier names (tw_tier.h). */
#include "tw_tier.h"

const char *const tw_tier_names[TW_TIER_COUNT] = { TW_TIER_NAMES };
