/* advisor.h — tierwise's advisor: tiers and, later, the placement plan.
 *
 * Never prints; renderers in cli/ turn its structs into text, JSON, fstab.
 */
#ifndef TW_ADVISOR_H
#define TW_ADVISOR_H

/* The three storage tiers, hottest first. */
enum advisor_tier { ADVISOR_HOT, ADVISOR_WARM, ADVISOR_COLD, ADVISOR_TIER_COUNT };

/* "hot", "warm", "cold"; NULL when out of range. */
const char *advisor_tier_name(enum advisor_tier t);

#endif
