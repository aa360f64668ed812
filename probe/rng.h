/* rng.h — fast PRNG for offsets and write buffers: xoshiro256**.
 *
 * xoshiro256** (Blackman & Vigna) has 256 bits of state, a period of
 * 2^256 - 1 and passes BigCrush; one step is a handful of shifts, xors and
 * two multiplies.  The state is seeded from one 64-bit seed through
 * splitmix64, so any seed (0 included) gives a valid, non-zero state and
 * nearby seeds give unrelated streams.
 *
 * Not cryptographic.  The state is caller-owned; use one per thread.
 */
#ifndef PROBE_RNG_H
#define PROBE_RNG_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

struct probe_rng {
	uint64_t s[4];
};

__extension__ typedef unsigned __int128 probe_rng_u128;

/* Set the state from seed via splitmix64.  Same seed, same stream. */
void probe_rng_seed(struct probe_rng *r, uint64_t seed);

static inline uint64_t probe_rng_rotl(uint64_t x, unsigned k)
{
	return (x << k) | (x >> (64u - k));
}

/* Next 64 uniformly distributed bits.  Hot path.  Cannot fail. */
static inline uint64_t probe_rng_next(struct probe_rng *r)
{
	uint64_t *s = r->s;
	const uint64_t result = probe_rng_rotl(s[1] * 5u, 7) * 9u;
	const uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = probe_rng_rotl(s[3], 45);
	return result;
}

/*
 * Uniform integer in [0, n), without modulo bias: Lemire's multiply-shift
 * (the high 64 bits of next * n), rejecting the few low products that would
 * favour some results.  Expected draws: < 2 for any n, ~1 for small n.
 * Returns 0 when n == 0.  Cannot fail.
 */
static inline uint64_t probe_rng_below(struct probe_rng *r, uint64_t n)
{
	probe_rng_u128 m = (probe_rng_u128)probe_rng_next(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		const uint64_t threshold = -n % n; /* 2^64 mod n */

		while (lo < threshold) {
			m = (probe_rng_u128)probe_rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/*
 * Uniformly random I/O offset in a region of span bytes starting at 0:
 * a multiple of align such that *off + bs <= span.  Every such offset is
 * equally likely.  Hot path: one division and one probe_rng_below().
 * Returns 0 and stores *off; -EINVAL when align == 0 or bs > span
 * (*off untouched).
 */
static inline int probe_rng_offset(struct probe_rng *r, uint64_t span,
				   uint64_t bs, uint64_t align, uint64_t *off)
{
	uint64_t slots;

	if (!align || bs > span)
		return -EINVAL;
	slots = (span - bs) / align + 1u; /* 0: all 2^64 offsets are valid */
	*off = (slots ? probe_rng_below(r, slots) : probe_rng_next(r)) * align;
	return 0;
}

/*
 * Fill buf[0..len) with random bytes (8 at a time, the tail from one more
 * draw), e.g. incompressible, non-dedupable write buffers.  buf needs no
 * particular alignment.  Cannot fail.
 */
void probe_rng_fill(struct probe_rng *r, void *buf, size_t len);

#endif
