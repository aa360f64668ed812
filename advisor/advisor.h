/* advisor.h — tierwise's advisor: the tier names (the placement plan is in
 * plan.h, a plan file read back in plan_file.h).
 *
 * Never prints; renderers in cli/ turn its structs into text, JSON, fstab.
 */
#ifndef TW_ADVISOR_H
#define TW_ADVISOR_H

#include "tw_tier.h"

/* The three storage tiers, hottest first: TW_TIER_COUNT of them, named by
 * tw_tier_names (common/tw_tier.h). */
enum advisor_tier { ADVISOR_HOT, ADVISOR_WARM, ADVISOR_COLD };

/* "hot", "warm", "cold"; NULL when out of range. */
const char *advisor_tier_name(enum advisor_tier t);

#endif
