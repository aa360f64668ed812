/* tw_tier.h — the storage tiers' names, defined once for policies (model),
 * plans (advisor), fleets and renderers.
 */
#ifndef TW_TIER_H
#define TW_TIER_H

/* The placement tiers, hottest first: the order of every plan and fleet. */
#define TW_TIER_COUNT 3

/* Their names as string literals, for tables that add to them (a policy's
 * tier may also be "boot", which no plan places). */
#define TW_TIER_NAMES "hot", "warm", "cold"

/* read_ahead_kb the plan's udev rule sets on the warm tier's devices
 * (render_plan_fstab.c), and the window the probe's buffered_read_plan
 * reads with (probe/run_app.c). */
#define TW_WARM_READ_AHEAD_KB 4096

/* "hot", "warm", "cold", indexed by tier. */
extern const char *const tw_tier_names[TW_TIER_COUNT];

/* The index of tier name in tw_tier_names (hot 0, warm 1, cold 2), or -1
 * when name is none of them.  NULL-safe. */
int tw_tier_find(const char *name);

#endif
