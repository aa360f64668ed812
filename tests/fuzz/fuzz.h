/* fuzz.h — what every fuzz target shares (tests/fuzz/, see docs/fuzzing.md).
 *
 * Each target is one file defining LLVMFuzzerTestOneInput(); it links either
 * with libFuzzer (clang, -fsanitize=fuzzer) or with replay.c (any compiler),
 * which feeds it the files of the seed corpora and regressions.  A target
 * returns 0 and frees everything; a broken invariant calls fuzz_fail(),
 * which aborts so that both drivers report the input.
 */
#ifndef TW_FUZZ_H
#define TW_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tw_diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Print why and abort: libFuzzer saves the input as a crash. */
#define fuzz_fail(...)                                                  \
	do {                                                            \
		fprintf(stderr, "fuzz: %s:%d: ", __FILE__, __LINE__);   \
		fprintf(stderr, __VA_ARGS__);                           \
		fputc('\n', stderr);                                    \
		abort();                                                \
	} while (0)

/* Format every diagnostic (the CLI does) and check it has a message. */
static inline void fuzz_diags_check(const struct tw_diags *d)
{
	char buf[512];

	for (size_t i = 0; i < d->n; i++) {
		if (!d->v[i].msg)
			fuzz_fail("diagnostic %zu without a message", i);
		tw_diag_format(&d->v[i], buf, sizeof(buf));
	}
}

/* Print every diagnostic to stderr (before a fuzz_fail). */
static inline void fuzz_diags_print(const struct tw_diags *d)
{
	char buf[512];

	for (size_t i = 0; i < d->n; i++) {
		tw_diag_format(&d->v[i], buf, sizeof(buf));
		fprintf(stderr, "  %s\n", buf);
	}
}

#endif
