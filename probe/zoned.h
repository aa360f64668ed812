/* zoned.h — zone-sequential writes on a host-managed zoned device
 * (private to the probe): its zones found and reset before a write test. */
#ifndef TW_ZONED_H
#define TW_ZONED_H

#include <stddef.h>
#include <stdint.h>

#include "job.h"

/*
 * The zones a write test of the span [0, span) of fd (a host-managed zoned
 * block device opened for writing) writes: the first run of contiguous,
 * writable sequential-write zones of one size inside the span (at most
 * PROBE_ZONES_MAX of them), written to their smallest capacity (a multiple
 * of bs), par = min(qd, max_open, max_active, zones) at once (limits of 0 =
 * none), the count cut to a multiple of par.  Those zones are reset first
 * (BLKRESETZONE): their data is gone.  Returns 0 with *m filled, else
 * -errno with why (the zone report failed, no such zones, the reset was
 * refused); nothing is written then.
 */
int probe_zones_prepare(int fd, uint64_t span, uint32_t bs, unsigned qd, unsigned max_open,
			unsigned max_active, struct probe_zone_map *m, char *why, size_t len);

#define PROBE_ZONES_MAX 4096

#endif
