/* raid_level.c — the md levels of like devices: which level a tier's
 * array of n devices takes by its rule, and how many data disks it holds.
 * It calls nothing else of the advisor: the optimiser (opt_eval.c) and the
 * arrays of a plan (raid.c) both read it.
 *   warm (model loading)  RAID0  re-downloadable data, bandwidth adds up
 *   hot                   RAID1 (RAID10 from four)  must survive a disk loss
 *   cold                  RAID6 from four, RAID5 of three, else RAID1
 */
#include "plan_priv.h"

const char *advisor_raid_name(enum advisor_raid_level l)
{
	static const char *const names[ADVISOR_RAID_COUNT] = { NULL, "raid0", "raid1",
							       "raid10", "raid5", "raid6" };

	return (int)l >= 0 && l < ADVISOR_RAID_COUNT ? names[l] : NULL;
}

enum advisor_array_rule advisor_array_rule_of(enum advisor_array_rule r, int tier)
{
	if (r != ADVISOR_ARRAY_BY_TIER)
		return r;
	return tier == ADVISOR_WARM ? ADVISOR_ARRAY_STRIPE :
	       tier == ADVISOR_HOT ? ADVISOR_ARRAY_MIRROR : ADVISOR_ARRAY_PARITY;
}

/* The level of an array of n like devices built by rule r in tier t. */
enum advisor_raid_level advisor_array_level(enum advisor_array_rule r, int t, size_t n)
{
	switch (advisor_array_rule_of(r, t)) {
	case ADVISOR_ARRAY_STRIPE:
		return ADVISOR_RAID0;
	case ADVISOR_ARRAY_MIRROR:
		return n >= 4 ? ADVISOR_RAID10 : ADVISOR_RAID1;
	default:
		return n >= 4 ? ADVISOR_RAID6 : n == 3 ? ADVISOR_RAID5 : ADVISOR_RAID1;
	}
}

size_t advisor_raid_level_data_disks(enum advisor_raid_level l, size_t n)
{
	switch (l) {
	case ADVISOR_RAID0: return n;
	case ADVISOR_RAID10: return n / 2;
	case ADVISOR_RAID5: return n - 1;
	case ADVISOR_RAID6: return n - 2;
	default: return 1;
	}
}

size_t advisor_array_data_disks(enum advisor_array_rule r, int tier, size_t n)
{
	return n <= 1 ? n : advisor_raid_level_data_disks(advisor_array_level(r, tier, n), n);
}

size_t advisor_raid_data_disks(int tier, size_t n)
{
	return advisor_array_data_disks(ADVISOR_ARRAY_BY_TIER, tier, n);
}

