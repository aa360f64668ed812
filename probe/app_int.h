/* app_int.h — private to app.c and its tests: the walk of the dependent
 * patterns (chain, beam), so that a test can check it without a device.
 */
#ifndef TW_PROBE_APP_INT_H
#define TW_PROBE_APP_INT_H

#include <stddef.h>
#include <stdint.h>

#include "app.h"

#define PROBE_APP_BLOCK 4096u	/* the dependent reads' size */

/* A 64-bit hash of len bytes (len a multiple of 8).  Cannot fail. */
uint64_t probe_app_hash(const void *buf, size_t len);

/*
 * The next block of a walk over nblocks blocks (nblocks > 0): the hash h of
 * the data just read mixed with a counter (the read's number in the walk)
 * and the seed, so that any data, zeros included, gives a walk that does
 * not repeat.  Returns a block index below nblocks (0 when nblocks is 0).
 */
uint64_t probe_app_next(uint64_t h, uint64_t counter, uint64_t seed,
			uint64_t nblocks);

/* order[0 .. n - 1]: the numbers 0 .. n - 1 in an order shuffled by seed
 * (Fisher-Yates), the same for the same seed.  probe_app_samples' order. */
void probe_app_shuffle(uint64_t *order, uint64_t n, uint64_t seed);

/*
 * probe_app_chain() that also stores the byte offset of each read in
 * offs[0 .. r->ios - 1] (offs holds `reads` entries; NULL: not stored).
 */
int probe_app_chain_walk(const struct probe_app_target *t, enum probe_app_via via,
			 bool madv_random, uint64_t reads, double max_s,
			 uint64_t seed, struct probe_app_result *r, uint64_t *offs);

#endif
