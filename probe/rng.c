#include "rng.h"

#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void probe_rng_seed(struct probe_rng *r, uint64_t seed)
{
	for (unsigned i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

void probe_rng_fill(struct probe_rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t w;

	for (; len >= sizeof(w); p += sizeof(w), len -= sizeof(w)) {
		w = probe_rng_next(r);
		memcpy(p, &w, sizeof(w));
	}
	if (len) {
		w = probe_rng_next(r);
		memcpy(p, &w, len);
	}
}
