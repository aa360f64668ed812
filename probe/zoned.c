/* zoned.c — a host-managed zoned device's zones found and reset (zoned.h),
 * and the zone map's arithmetic (job.h). */
#include "zoned.h"

#include <errno.h>
#include <linux/blkzoned.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

/* Whether zone z takes sequential writes now (not conventional, offline
 * nor read-only). */
static int writable_seq(const struct blk_zone *z)
{
	return (z->type == BLK_ZONE_TYPE_SEQWRITE_REQ || z->type == BLK_ZONE_TYPE_SEQWRITE_PREF) &&
	       z->cond != BLK_ZONE_COND_OFFLINE && z->cond != BLK_ZONE_COND_READONLY;
}

/* The first run of contiguous writable sequential zones of one size inside
 * [0, span) among rep's: its first index into *first, its length returned. */
static size_t first_run(const struct blk_zone_report *rep, uint64_t span_sectors, size_t *first)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->nr_zones; i++) {
		const struct blk_zone *z = &rep->zones[i];

		if (z->start + z->len > span_sectors)
			break;
		if (writable_seq(z) && n && z->len == rep->zones[*first].len &&
		    z->start == rep->zones[i - 1].start + rep->zones[i - 1].len) {
			n++;
			continue;
		}
		if (n)
			break;
		if (writable_seq(z)) {
			*first = i;
			n = 1;
		}
	}
	return n;
}

static unsigned at_most(unsigned v, unsigned limit)
{
	return limit && limit < v ? limit : v;
}

int probe_zones_prepare(int fd, uint64_t span, uint32_t bs, unsigned qd, unsigned max_open,
			unsigned max_active, struct probe_zone_map *m, char *why, size_t len)
{
	struct blk_zone_report *rep;
	struct blk_zone_range range;
	uint64_t cap = UINT64_MAX;
	size_t first = 0, n;
	unsigned par;

	memset(m, 0, sizeof(*m));
	rep = calloc(1, sizeof(*rep) + PROBE_ZONES_MAX * sizeof(struct blk_zone));
	if (!rep)
		return -ENOMEM;
	rep->sector = 0;
	rep->nr_zones = PROBE_ZONES_MAX;
	if (ioctl(fd, BLKREPORTZONE, rep) < 0) {
		int e = errno;

		snprintf(why, len, "the zone report failed: %s", strerror(e));
		free(rep);
		return -e;
	}
	n = first_run(rep, span / 512, &first);
	for (size_t i = first; i < first + n; i++) {
		uint64_t c = (rep->flags & BLK_ZONE_REP_CAPACITY) ? rep->zones[i].capacity
								  : rep->zones[i].len;

		cap = c < cap ? c : cap;
	}
	cap = n ? cap * 512 / bs * bs : 0;
	par = at_most(at_most(at_most(qd, max_open), max_active), n > qd ? qd : (unsigned)n);
	n = par ? n / par * par : 0;
	if (!n || !cap) {
		snprintf(why, len, "no writable sequential zones of at least one %u KiB write in the "
			 "span", bs / 1024);
		free(rep);
		return -ENOSPC;
	}
	*m = (struct probe_zone_map){ .base = rep->zones[first].start * 512,
				      .bytes = rep->zones[first].len * 512, .cap = cap, .n = n,
				      .par = par };
	range.sector = rep->zones[first].start;
	range.nr_sectors = (uint64_t)n * rep->zones[first].len;
	free(rep);
	if (ioctl(fd, BLKRESETZONE, &range) < 0) {
		int e = errno;

		snprintf(why, len, "the zone reset was refused: %s", strerror(e));
		memset(m, 0, sizeof(*m));
		return -e;
	}
	return 0;
}

uint64_t probe_zone_ios(const struct probe_zone_map *m, uint32_t bs)
{
	return bs ? m->n * (m->cap / bs) : 0;
}

uint64_t probe_zone_offset(const struct probe_zone_map *m, uint32_t bs, unsigned slot, uint64_t n)
{
	const uint64_t k = m->cap / bs;

	return m->base + ((n / k) * m->par + slot) * m->bytes + (n % k) * bs;
}
