/* advisor.h — tierwise's advisor: the tier names (the placement plan is in
 * plan.h, a plan file read back in plan_file.h).
 *
 * Never prints; renderers in cli/ turn its structs into text, JSON, fstab.
 */
#ifndef TW_ADVISOR_H
#define TW_ADVISOR_H

/* The three storage tiers, hottest first. */
enum advisor_tier { ADVISOR_HOT, ADVISOR_WARM, ADVISOR_COLD, ADVISOR_TIER_COUNT };

/* "hot", "warm", "cold"; NULL when out of range. */
const char *advisor_tier_name(enum advisor_tier t);

/* Parse a tier name.  Returns the tier, or -EINVAL when unknown. */
int advisor_tier_parse(const char *name);

#endif
