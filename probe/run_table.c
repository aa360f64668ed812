/* The probe's test table: one row per test (run_int.h), its shape and its
 * quick-mode time limits, and the test names' lookup and list parser.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "run_int.h"

#define IORATE_QD 128u		/* iorate: most I/Os in flight */

/* One row per test (run_int.h): its shape and its quick-mode time limits;
 * the composite tests (run_composite.c) read their rows from here too. */
const struct probe_test_def probe_test_defs[PROBE_TEST_COUNT] = {
	[PROBE_TEST_SEQ_READ] = {
		.name = "seq_read", .slot = PROFILE_SEQ_READ,
		.pattern = PROBE_SEQ, .read_pct = 100, .bs = MIB, .qd = 32,
		.ramp_s = 0.25, .min_s = 0.5, .max_s = 3.0,
	},
	[PROBE_TEST_RAND_READ_QD1] = {
		.name = "rand_read_qd1", .slot = PROFILE_RAND_READ_QD1,
		.pattern = PROBE_RAND, .read_pct = 100, .bs = 4 * KIB, .qd = 1,
		.ramp_s = 0.1, .min_s = 0.5, .max_s = 3.0,
	},
	[PROBE_TEST_RAND_READ_QD32] = {
		.name = "rand_read_qd32", .slot = PROFILE_RAND_READ_QD32,
		.pattern = PROBE_RAND, .read_pct = 100, .bs = 4 * KIB, .qd = 32, .threaded = true,
		.ramp_s = 0.2, .min_s = 0.3, .max_s = 3.0,
	},
	[PROBE_TEST_QD_SWEEP] = {
		.name = "qd_sweep", .slot = -1,
		.pattern = PROBE_RAND, .read_pct = 100, .bs = 4 * KIB, .qd = 0,
		.ramp_s = SWEEP_RAMP_S, .min_s = 0.1, .max_s = 0.2, .window_s = KNOWN_WINDOW_S / 4,
	},
	[PROBE_TEST_SEQ_WRITE] = {
		.name = "seq_write", .slot = PROFILE_SEQ_WRITE,
		.pattern = PROBE_SEQ, .read_pct = 0, .bs = MIB, .qd = 32,
		.ramp_s = 0.25, .min_s = 0.5, .max_s = 3.0,
	},
	[PROBE_TEST_IORATE] = {
		.name = "iorate", .slot = -1,
		.pattern = PROBE_RAND, .read_pct = 100, .bs = 4 * KIB, .qd = IORATE_QD,
		.ramp_s = 0.2, .min_s = 1.0, .max_s = 1.0,
	},
	[PROBE_TEST_MIXED_70_30] = {
		.name = "mixed_70_30", .slot = PROFILE_MIXED_70_30,
		.pattern = PROBE_RAND, .read_pct = 70, .bs = 4 * KIB, .qd = 32, .threaded = true,
		.ramp_s = 0.2, .min_s = 0.3, .max_s = 3.0,
	},
	[PROBE_TEST_READ_UNDER_WRITE] = {
		.name = "read_under_write", .slot = -1,
		.pattern = PROBE_RAND, .read_pct = 100, .bs = 4 * KIB, .qd = 1,
		.ramp_s = 0.5, .min_s = 0.5, .max_s = 4.0, .p99_only = true,
	},
	[PROBE_TEST_APP] = {	/* run_app.c: its parts size themselves */
		.name = "app", .slot = -1,
		.pattern = PROBE_SEQ, .read_pct = 100, .bs = MIB, .qd = 1,
		.ramp_s = 0, .min_s = 1.0, .max_s = 1.0,
	},
	[PROBE_TEST_SUSTAINED_WRITE] = {
		.name = "sustained_write", .slot = -1,
		.pattern = PROBE_SEQ, .read_pct = 0, .bs = MIB, .qd = 32,
		.ramp_s = 0, .min_s = 30, .max_s = 30,
	},
};

const char *probe_test_name(enum probe_test t)
{
	return (int)t >= 0 && t < PROBE_TEST_COUNT ? probe_test_defs[t].name : NULL;
}

int probe_tests_parse(const char *list, unsigned *mask, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	unsigned m = 0;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		int t;

		if (!strcmp(tok, "all")) {
			m |= PROBE_TESTS_ALL;
			continue;
		}
		if (!strcmp(tok, "default")) {
			m |= PROBE_TESTS_DEFAULT;
			continue;
		}
		for (t = 0; t < PROBE_TEST_COUNT && strcmp(tok, probe_test_defs[t].name); t++)
			;
		if (t == PROBE_TEST_COUNT) {
			snprintf(err, errlen, "unknown test '%s'", tok);
			ret = -EINVAL;
		}
		m |= 1u << t;
	}
	free(copy);
	if (!ret && !m) {
		snprintf(err, errlen, "no test named in '%s'", list);
		ret = -EINVAL;
	}
	*mask = m;
	return ret;
}
