/* render_workload.h — a workload estimate in words and in JSON, shared by
 * the score and plan renderers (render_workload.c).
 */
#ifndef TW_RENDER_WORKLOAD_H
#define TW_RENDER_WORKLOAD_H

#include <jansson.h>
#include <stddef.h>

#include "model.h"
#include "policy.h"

/* "0.12 s a query (p99 0.13 s), 8.3 queries/s", "2.9 s (6,200 MB/s)",
 * "does not fit (needs 10 TB, there is 1.0 TB)", "unknown: … not measured". */
void render_workload_text(char *buf, size_t len, const struct model_policy_estimate *pe,
			  const struct model_workload_est *w);

/* The settings the estimate assumes, for the application and the system:
 * "mmap with madvise(MADV_RANDOM)", "buffered, 1 stream, read_ahead_kb=4096".
 * Returns the length written. */
size_t render_workload_settings(char *buf, size_t len, const struct model_policy_estimate *pe);

/* Append the estimate's JSON object(s) to arr: one, and a second for the
 * restore of a write with restore: true.  device may be NULL. */
void render_workload_json(json_t *arr, const char *policy, const struct model_policy_estimate *pe,
			  const struct model_workload_est *w, const char *device);

#endif
