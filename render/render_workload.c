/* A policy's workload estimate for people (one line) and for scripts (the
 * JSON object of score and plan, docs/scoring.md "The estimates in JSON"):
 * the one place both the score and the plan renderers take them from.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_workload.h"
#include "tw_fmt.h"

/* "1.2 ms" / "0.12 s" / "7.0 min" from seconds. */
static void dur(char *buf, size_t len, double s)
{
	tw_fmt_duration(buf, len, s);
}

void render_workload_text(char *buf, size_t len, const struct model_policy_estimate *pe,
			  const struct model_workload_est *w)
{
	char a[32], b[32], c[32], d[32];

	if (w->fits == 0) {
		tw_fmt_bytes(a, sizeof(a), (double)pe->size_bytes, TW_BYTES_DECIMAL);
		tw_fmt_bytes(b, sizeof(b), w->capacity_bytes, TW_BYTES_DECIMAL);
		snprintf(buf, len, "does not fit (needs %s, there is %s)", a, b);
		return;
	}
	switch (pe->pattern) {
	case MODEL_PAT_CHAIN:
	case MODEL_PAT_BEAM:
		if (isnan(w->p50_ms))
			break;
		dur(a, sizeof(a), w->p50_ms / 1e3);
		if (isnan(w->p99_ms))
			snprintf(b, sizeof(b), "not measured");
		else
			dur(b, sizeof(b), w->p99_ms / 1e3);
		tw_fmt_count(c, sizeof(c), w->qps);
		snprintf(buf, len, "%s a query (p99 %s), %s queries/s", a, b, c);
		return;
	case MODEL_PAT_STREAM:
	case MODEL_PAT_WRITE:
		if (isnan(w->seconds))
			break;
		dur(a, sizeof(a), w->seconds);
		tw_fmt_count(b, sizeof(b), w->mbps);
		if (pe->pattern == MODEL_PAT_WRITE && isfinite(w->restore_seconds)) {
			dur(c, sizeof(c), w->restore_seconds);
			tw_fmt_count(d, sizeof(d), w->restore_mbps);
			snprintf(buf, len, "%s (%s MB/s), restore %s (%s MB/s)", a, b, c, d);
		} else {
			snprintf(buf, len, "%s (%s MB/s)", a, b);
		}
		return;
	case MODEL_PAT_SAMPLES:
		if (isnan(w->accelerators))
			break;
		tw_fmt_count(a, sizeof(a), w->mbps);
		tw_fmt_count(b, sizeof(b), w->need_mbps);
		snprintf(buf, len, "%.0f accelerator%s fed (%s MB/s, %s MB/s each)",
			 w->accelerators, w->accelerators == 1 ? "" : "s", a, b);
		return;
	case MODEL_PAT_COUNT:
		break;
	}
	snprintf(buf, len, "unknown: %s not measured", w->missing ? w->missing : "a figure");
}

size_t render_workload_settings(char *buf, size_t len, const struct model_policy_estimate *pe)
{
	const char *via = model_via_name(pe->via);
	int n = 0;

	buf[0] = '\0';
	switch (pe->pattern) {
	case MODEL_PAT_CHAIN:
		if (pe->via == MODEL_VIA_MMAP)
			n = snprintf(buf, len, "mmap with madvise(%s)",
				     pe->madv_random ? "MADV_RANDOM" : "MADV_NORMAL: read-around");
		else
			n = snprintf(buf, len, "%s 4 KiB reads", via);
		break;
	case MODEL_PAT_BEAM:
		n = snprintf(buf, len, "O_DIRECT, %.0f reads in flight a query, %.0f queries at once",
			     pe->beam_width, pe->concurrency);
		break;
	case MODEL_PAT_STREAM:
	case MODEL_PAT_SAMPLES:
		if (pe->via == MODEL_VIA_DIRECT)
			n = snprintf(buf, len, "O_DIRECT, %.0f stream%s", pe->streams,
				     pe->streams == 1 ? "" : "s");
		else
			n = snprintf(buf, len, "%s, %.0f stream%s, read_ahead_kb=%.0f", via,
				     pe->streams, pe->streams == 1 ? "" : "s", pe->read_ahead_kb);
		break;
	case MODEL_PAT_WRITE:
		n = pe->restore ? snprintf(buf, len, "buffered writes, fsync at the end; restore: "
					   "buffered, read_ahead_kb=%.0f", pe->read_ahead_kb)
				: snprintf(buf, len, "buffered writes, fsync at the end");
		break;
	case MODEL_PAT_COUNT:
		break;
	}
	return n > 0 ? (size_t)n : 0;
}

/* A number, or null when not known; rounded to `places` decimals. */
static json_t *num(double v, int places)
{
	double k = pow(10, places);

	return isfinite(v) ? json_real(round(v * k) / k) : json_null();
}

static json_t *count(double v)
{
	return isfinite(v) ? json_integer((json_int_t)v) : json_null();
}

/* The pattern's parameters as the policy gives them (defaults filled). */
static void params(json_t *o, const struct model_policy_estimate *pe, bool restore)
{
	bool chain = pe->pattern == MODEL_PAT_CHAIN, beam = pe->pattern == MODEL_PAT_BEAM;
	bool reads = pe->pattern == MODEL_PAT_STREAM || pe->pattern == MODEL_PAT_SAMPLES || restore;

	json_object_set_new(o, "via", pe->pattern == MODEL_PAT_BEAM ? json_string("direct")
				   : restore ? json_string("buffered")
				   : json_string(model_via_name(pe->via)));
	json_object_set_new(o, "madvise", chain && pe->via == MODEL_VIA_MMAP
				   ? json_string(pe->madv_random ? "random" : "normal") : json_null());
	json_object_set_new(o, "streams", reads ? count(restore ? 1 : pe->streams) : json_null());
	json_object_set_new(o, "read_ahead_kb", reads && (restore || pe->via != MODEL_VIA_DIRECT)
				   ? count(pe->read_ahead_kb) : json_null());
	json_object_set_new(o, "beam_width", beam ? count(pe->beam_width) : chain ? count(1)
				   : json_null());
	json_object_set_new(o, "reads_per_query", beam ? count(pe->reads_per_query)
				   : chain ? count(pe->reads) : json_null());
	json_object_set_new(o, "concurrency", beam || chain ? count(pe->concurrency) : json_null());
	json_object_set_new(o, "size_bytes", pe->size_bytes > 0 ? json_integer(pe->size_bytes)
				   : json_null());
	if (pe->pattern == MODEL_PAT_SAMPLES) {
		json_object_set_new(o, "sample_size_bytes", json_integer(pe->sample_bytes));
		json_object_set_new(o, "batch", count(pe->batch));
		json_object_set_new(o, "compute_s", num(pe->compute_s, 6));
		json_object_set_new(o, "utilization", num(pe->utilization, 4));
	}
}

static json_t *one(const char *policy, const struct model_policy_estimate *pe,
		   const struct model_workload_est *w, const char *device, bool restore)
{
	json_t *o = json_object(), *basis = json_array();
	char label[160], set[200];
	double value, seconds = restore ? w->restore_seconds : w->seconds;
	const char *unit;

	snprintf(label, sizeof(label), "%s%s", pe->label ? pe->label : pe->name,
		 restore ? ": restore" : "");
	value = restore ? w->restore_seconds : model_workload_value(pe, w, &unit);
	if (restore)
		unit = "s";
	json_object_set_new(o, "policy", json_string(policy));
	json_object_set_new(o, "workload", json_string(pe->name));
	json_object_set_new(o, "label", json_string(label));
	json_object_set_new(o, "pattern", json_string(restore ? "restore"
							      : model_pattern_name(pe->pattern)));
	params(o, pe, restore);
	if (w->fits == 0)	/* "does not fit" instead of a time */
		seconds = value = NAN;
	json_object_set_new(o, "seconds", num(seconds, 6));
	json_object_set_new(o, "p50_ms", num(restore ? NAN : w->p50_ms, 4));
	json_object_set_new(o, "p99_ms", num(restore ? NAN : w->p99_ms, 4));
	json_object_set_new(o, "qps", num(restore ? NAN : w->qps, 2));
	json_object_set_new(o, "mbps", num(restore ? w->restore_mbps : w->mbps, 1));
	json_object_set_new(o, "accelerators", num(w->accelerators, 0));
	json_object_set_new(o, "fits", w->fits < 0 ? json_null() : json_boolean(w->fits));
	json_object_set_new(o, "capacity_bytes", isfinite(w->capacity_bytes)
				   ? json_integer((json_int_t)w->capacity_bytes) : json_null());
	for (size_t i = 0; i < w->n_basis; i++)
		json_array_append_new(basis, json_string(w->basis[i]));
	json_object_set_new(o, "basis", basis);
	json_object_set_new(o, "how", w->how[0] ? json_string(w->how) : json_null());
	json_object_set_new(o, "missing", w->missing && isnan(value) ? json_string(w->missing)
				   : json_null());
	render_workload_settings(set, sizeof(set), pe);
	json_object_set_new(o, "assumes", json_string(set));
	json_object_set_new(o, "value", num(value, 6));
	json_object_set_new(o, "unit", json_string(unit));
	if (device)
		json_object_set_new(o, "device", json_string(device));
	return o;
}

void render_workload_json(json_t *arr, const char *policy, const struct model_policy_estimate *pe,
			  const struct model_workload_est *w, const char *device)
{
	json_array_append_new(arr, one(policy, pe, w, device, false));
	if (pe->pattern == MODEL_PAT_WRITE && pe->restore)
		json_array_append_new(arr, one(policy, pe, w, device, true));
}
