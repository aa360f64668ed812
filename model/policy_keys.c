/* The policy key tables: the single declaration of the policy format. */
#include <stddef.h>

#include "policy_priv.h"
#include "tw_tier.h"
#include "tw_util.h"

#define TABLE(name, arr) const struct pk_table name = { arr, ARRAY_SIZE(arr) }
#define REQ true
#define OPT false
#define KEY(sec, key, req, kind, off, type, help) \
	{ { sec, key, type, help, req }, kind, off }

const char *const pk_tier_names[] = { TW_TIER_NAMES, "boot", NULL };
const char *const pk_better_names[] = { "higher", "lower", NULL };
const char *const pk_pattern_names[] = { "chain", "beam", "stream", "write", "samples", NULL };
const char *const pk_via_names[] = { "direct", "buffered", "mmap", NULL };
const char *const pk_madvise_names[] = { "normal", "random", NULL };
const char *const pk_redundancy_names[] = { "none", "preferred", "required", NULL };

#define P(f) offsetof(struct model_policy, f)
static const struct pk_field policy_f[] = {
	KEY("", "name", REQ, PK_NAME, P(name), "string",
	    "unique name: letters, digits, '-', '_', '.' (at most 64)"),
	KEY("", "tier", REQ, PK_TIER, P(tier), "hot, warm, cold or boot",
	    "the tier this workload belongs to"),
	KEY("", "description", OPT, PK_TEXT, P(description), "string",
	    "one line for people"),
	KEY("", "metrics", REQ, PK_METRICS, 0, "list of maps",
	    "the measured figures that matter (at least one with weight > 0)"),
	KEY("", "constraints", OPT, PK_CONSTRAINTS, 0, "map",
	    "hard limits: a device that fails one is not a candidate"),
	KEY("", "need_bytes", OPT, PK_SIZE, P(need_bytes), "size",
	    "capacity the workload needs in this tier"),
	KEY("", "refetchable", OPT, PK_BOOL, P(refetchable), "boolean",
	    "true: the data can be fetched again (model weights downloaded again); "
	    "default false: the data is irreplaceable"),
	KEY("", "redundancy", OPT, PK_REDUNDANCY, P(redundancy),
	    "none, preferred or required",
	    "redundancy the data wants; default none when refetchable, else preferred"),
	KEY("", "estimates", OPT, PK_ESTIMATES, 0, "list of maps",
	    "the workloads, estimated as the application reads and writes (pattern: "
	    "chain, beam, stream, write, samples)"),
};
TABLE(pk_policy, policy_f);

#define M(f) offsetof(struct model_policy_metric, f)
static const struct pk_field metric_f[] = {
	KEY("metrics[]", "path", REQ, PK_METRIC, M(desc), "metric path",
	    "a figure of tierwise.profile/1, e.g. rand_read_qd1.lat_us.p99"),
	KEY("metrics[]", "better", REQ, PK_BETTER, M(better), "higher or lower",
	    "which way is better"),
	KEY("metrics[]", "good", REQ, PK_POS, M(good), "number > 0",
	    "value (in the metric's unit) worth full marks: utility 1"),
	KEY("metrics[]", "poor", REQ, PK_POS, M(poor), "number > 0",
	    "value worth nothing: utility 0 (log scale in between)"),
	KEY("metrics[]", "weight", OPT, PK_WEIGHT, M(weight), "number >= 0",
	    "relative importance (default 1; 0 = shown, not scored)"),
};
TABLE(pk_metric, metric_f);

#define C(f) offsetof(struct model_policy_constraints, f)
static const struct pk_field constraints_f[] = {
	KEY("constraints", "media", OPT, PK_MEDIA, C(media), "list of media",
	    "allowed media: nand, 3dxpoint, hdd, ram, unknown"),
	KEY("constraints", "rotational", OPT, PK_OPTBOOL, C(rotational), "boolean",
	    "true: only spinning disks; false: only non-rotational ones"),
	KEY("constraints", "min_capacity_bytes", OPT, PK_SIZE, C(min_capacity_bytes),
	    "size", "smallest acceptable device"),
	KEY("constraints", "max_load_c", OPT, PK_TEMP, C(max_load_c), "number, °C",
	    "highest acceptable thermal.load_c"),
	KEY("constraints", "max_percentage_used", OPT, PK_PERCENT,
	    C(max_percentage_used), "whole number >= 0",
	    "highest acceptable health.percentage_used (NVMe wear, %)"),
	KEY("constraints", "no_critical_warning", OPT, PK_BOOL,
	    C(no_critical_warning), "boolean",
	    "true: refuse devices whose health log has a critical warning"),
};
TABLE(pk_constraints, constraints_f);

#define E(f) offsetof(struct model_policy_estimate, f)
#define W(pat, key, req, kind, f, type, help) \
	KEY("estimates[] (pattern: " pat ")", key, req, kind, E(f), type, help)
#define COMMON(pat) \
	W(pat, "name", REQ, PK_NAME, name, "string", "the workload's name (\"beam-search\")"), \
	W(pat, "pattern", REQ, PK_PATTERN, pattern, "chain, beam, stream, write or samples", \
	  "how the application reads or writes"), \
	W(pat, "label", OPT, PK_TEXT, label, "string", "how to name it (\"an 18 GB model\")")
static const struct pk_field chain_f[] = {
	COMMON("chain"),
	W("chain", "reads", REQ, PK_COUNT, reads, "whole number >= 1",
	  "dependent 4 KiB reads a query (an HNSW search, a B-tree walk)"),
	W("chain", "via", OPT, PK_VIA, via, "direct, buffered or mmap",
	  "how the reads reach the device (default mmap: hnswlib, FAISS on mmap, SQLite)"),
	W("chain", "madvise", OPT, PK_MADVISE, madv_random, "normal or random",
	  "via mmap: the mapping's advice; normal (default) reads around each fault"),
	W("chain", "concurrency", OPT, PK_COUNT, concurrency, "whole number >= 1",
	  "queries in flight (default 1)"),
};
static const struct pk_field beam_f[] = {
	COMMON("beam"),
	W("beam", "beam_width", REQ, PK_COUNT, beam_width, "whole number >= 1",
	  "parallel 4 KiB reads a hop (DiskANN: 4)"),
	W("beam", "reads_per_query", REQ, PK_COUNT, reads_per_query, "whole number >= 1",
	  "reads a query makes (tens for DiskANN)"),
	W("beam", "concurrency", OPT, PK_COUNT, concurrency, "whole number >= 1",
	  "queries in flight (default 1)"),
};
static const struct pk_field stream_f[] = {
	COMMON("stream"),
	W("stream", "size", REQ, PK_SIZE, size_bytes, "size", "the file read (\"18G\")"),
	W("stream", "via", OPT, PK_VIA, via, "direct, buffered or mmap",
	  "how it is read (default mmap: safetensors, llama.cpp)"),
	W("stream", "streams", OPT, PK_COUNT, streams, "whole number >= 1",
	  "readers in parallel, each its own part (default 1)"),
	W("stream", "read_ahead_kb", OPT, PK_COUNT, read_ahead_kb, "whole number >= 1",
	  "via buffered or mmap: the read-ahead it runs with (default the plan's, 4096)"),
};
static const struct pk_field write_f[] = {
	COMMON("write"),
	W("write", "size", REQ, PK_SIZE, size_bytes, "size",
	  "the new file, written through the page cache, then fsync"),
	W("write", "restore", OPT, PK_BOOL, restore, "boolean",
	  "true: its cold read back (one buffered stream) is estimated too"),
};
static const struct pk_field samples_f[] = {
	COMMON("samples"),
	W("samples", "sample_size", REQ, PK_SIZE, sample_bytes, "size",
	  "one training sample (MLPerf Storage unet3d: 146.6M)"),
	W("samples", "batch", REQ, PK_COUNT, batch, "whole number >= 1",
	  "samples a batch, per accelerator (unet3d: 7)"),
	W("samples", "compute_s", REQ, PK_POS, compute_s, "number > 0",
	  "an accelerator's compute time a batch, seconds (unet3d on H100: 0.323)"),
	W("samples", "utilization", OPT, PK_SHARE, utilization, "number in (0, 1]",
	  "the accelerator use to keep (default 0.9, MLPerf Storage's threshold)"),
	W("samples", "streams", OPT, PK_COUNT, streams, "whole number >= 1",
	  "reader threads in parallel (default 4, DLIO's read_threads)"),
	W("samples", "size", OPT, PK_SIZE, size_bytes, "size", "the data set, to check it fits"),
};
const struct pk_table pk_estimate[MODEL_PAT_COUNT] = {
	[MODEL_PAT_CHAIN] = { chain_f, ARRAY_SIZE(chain_f) },
	[MODEL_PAT_BEAM] = { beam_f, ARRAY_SIZE(beam_f) },
	[MODEL_PAT_STREAM] = { stream_f, ARRAY_SIZE(stream_f) },
	[MODEL_PAT_WRITE] = { write_f, ARRAY_SIZE(write_f) },
	[MODEL_PAT_SAMPLES] = { samples_f, ARRAY_SIZE(samples_f) },
};

const struct model_policy_key *model_policy_key_at(size_t i)
{
	const struct pk_table *const all[] = { &pk_policy, &pk_metric, &pk_constraints,
		&pk_estimate[MODEL_PAT_CHAIN], &pk_estimate[MODEL_PAT_BEAM],
		&pk_estimate[MODEL_PAT_STREAM], &pk_estimate[MODEL_PAT_WRITE],
		&pk_estimate[MODEL_PAT_SAMPLES] };

	for (size_t t = 0; t < ARRAY_SIZE(all); t++) {
		if (i < all[t]->n)
			return &all[t]->f[i].doc;
		i -= all[t]->n;
	}
	return NULL;
}

const char *model_better_name(enum model_better b)
{
	return (unsigned)b < 2 ? pk_better_names[b] : NULL;
}

const char *model_redundancy_name(enum model_redundancy r)
{
	return (unsigned)r < MODEL_REDUNDANCY_COUNT ? pk_redundancy_names[r] : NULL;
}

const char *model_pattern_name(enum model_pattern p)
{
	return (unsigned)p < MODEL_PAT_COUNT ? pk_pattern_names[p] : NULL;
}

const char *model_via_name(enum model_via v)
{
	return (unsigned)v < MODEL_VIA_COUNT ? pk_via_names[v] : NULL;
}
