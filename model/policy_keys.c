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
const char *const pk_estimate_names[] = { "load", "search", "backup", NULL };
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
	    "what to show in user terms (load seconds, search seconds, backup hours)"),
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
#define KIND(sec) KEY(sec, "kind", REQ, PK_ESTKIND, E(kind), "load, search or backup", \
		      "what to estimate")
#define LABEL(sec) KEY(sec, "label", OPT, PK_TEXT, E(label), "string", \
		       "how to name it (\"an 18 GB model\")")
static const struct pk_field load_f[] = {
	KIND("estimates[] (kind: load)"),
	KEY("estimates[] (kind: load)", "size_gb", REQ, PK_POS, E(size_gb),
	    "number > 0", "GB read sequentially: seconds = size_gb × 1000 ÷ seq_read.mbps"),
	LABEL("estimates[] (kind: load)"),
};
static const struct pk_field search_f[] = {
	KIND("estimates[] (kind: search)"),
	KEY("estimates[] (kind: search)", "reads", REQ, PK_POS, E(reads), "number > 0",
	    "dependent random reads: seconds = reads ÷ rand_read_qd1.iops"),
	KEY("estimates[] (kind: search)", "users", OPT, PK_USERS, E(users),
	    "whole number >= 1", "concurrent searchers, each one QD1 stream (default 1)"),
	LABEL("estimates[] (kind: search)"),
};
static const struct pk_field backup_f[] = {
	KIND("estimates[] (kind: backup)"),
	KEY("estimates[] (kind: backup)", "size_tb", REQ, PK_POS, E(size_tb),
	    "number > 0",
	    "TB written: hours = size_tb × 10^6 ÷ sustained_write.mbps ÷ 3600 "
	    "(seq_write.mbps when no sustained rate was measured)"),
	LABEL("estimates[] (kind: backup)"),
};
const struct pk_table pk_estimate[MODEL_EST_COUNT] = {
	[MODEL_EST_LOAD] = { load_f, ARRAY_SIZE(load_f) },
	[MODEL_EST_SEARCH] = { search_f, ARRAY_SIZE(search_f) },
	[MODEL_EST_BACKUP] = { backup_f, ARRAY_SIZE(backup_f) },
};

const struct model_policy_key *model_policy_key_at(size_t i)
{
	const struct pk_table *const all[] = { &pk_policy, &pk_metric, &pk_constraints,
		&pk_estimate[MODEL_EST_LOAD], &pk_estimate[MODEL_EST_SEARCH],
		&pk_estimate[MODEL_EST_BACKUP] };

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

const char *model_estimate_kind_name(enum model_estimate_kind k)
{
	return (unsigned)k < MODEL_EST_COUNT ? pk_estimate_names[k] : NULL;
}
