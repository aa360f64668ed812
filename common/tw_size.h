/* tw_size.h — the one way tierwise reads sizes.
 *
 * A size is a number with a unit: K M G T P are powers of 1000 (as disks are
 * sold: 500G = 500 × 10^9 bytes), Ki Mi Gi Ti Pi powers of 1024 (512Gi), B
 * bytes; a trailing B is allowed after any unit (500GB, 4TiB) and a space
 * may separate the number from the unit.  Used by --size, --need, prices and
 * the policies' need_bytes.
 */
#ifndef TW_SIZE_H
#define TW_SIZE_H

#include <stdbool.h>
#include <stdint.h>

/* The accepted forms, for error messages. */
#define TW_SIZE_FORMS "500G or 4T (K M G T P = powers of 1000), 512Gi (Ki Mi Gi Ti Pi = " \
	"powers of 1024), 4096B (bytes)"

/*
 * Parse s into bytes.  A number without a unit is accepted only when
 * unit_required is false (then it counts bytes) or when it is 0.
 * Returns 0, or -EINVAL (not a size), -ERANGE (negative or above 2^63).
 */
int tw_size_parse(const char *s, bool unit_required, uint64_t *out);

#endif
