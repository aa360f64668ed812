/* Decoding and validating a policy: the YAML tree against the key tables. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_priv.h"

/* ---- fields and maps ---- */

static void decode_metrics(struct pctx *c, const struct pnode *n, const char *path,
			   struct model_policy *pol);
static void decode_constraints(struct pctx *c, const struct pnode *n,
			       const char *path, struct model_policy *pol);
static void decode_estimates(struct pctx *c, const struct pnode *n, const char *path,
			     struct model_policy *pol);

/*
 * Decode value v of field f into base (which is the policy for the list and
 * map kinds).  Returns true when v was valid and stored.
 */
static bool decode_field(struct pctx *c, const struct pk_field *f,
			 const struct pnode *v, const char *path, void *base)
{
	void *at = (char *)base + f->off;
	double x;
	bool b;
	int e;

	switch (f->kind) {
	case PK_NAME:
		return policy_want_name(c, v, path) && policy_want_text(c, v, path, at);
	case PK_TEXT:
		return policy_want_text(c, v, path, at);
	case PK_TIER:
		if (!policy_want_enum(c, v, path, "tier", pk_tier_names, &e))
			return false;
		*(const char **)at = pk_tier_names[e];
		return true;
	case PK_METRIC:
		return policy_want_metric(c, v, path, at);
	case PK_BETTER:
		if (!policy_want_enum(c, v, path, "value", pk_better_names, &e))
			return false;
		*(enum model_better *)at = (enum model_better)e;
		return true;
	case PK_PATTERN:
		if (!policy_want_enum(c, v, path, "pattern", pk_pattern_names, &e))
			return false;
		*(enum model_pattern *)at = (enum model_pattern)e;
		return true;
	case PK_VIA:
		if (!policy_want_enum(c, v, path, "via", pk_via_names, &e))
			return false;
		*(enum model_via *)at = (enum model_via)e;
		return true;
	case PK_MADVISE:
		if (!policy_want_enum(c, v, path, "madvise", pk_madvise_names, &e))
			return false;
		*(bool *)at = e == 1;
		return true;
	case PK_REDUNDANCY:
		if (!policy_want_enum(c, v, path, "redundancy", pk_redundancy_names, &e))
			return false;
		*(enum model_redundancy *)at = (enum model_redundancy)e;
		return true;
	case PK_POS:
		return policy_want_pos(c, v, path, at);
	case PK_WEIGHT:
		return policy_want_weight(c, v, path, at);
	case PK_TEMP:
		return policy_want_temp(c, v, path, at);
	case PK_COUNT:
		return policy_want_whole(c, v, path, 1, 1e6, at);
	case PK_SHARE:
		if (!policy_want_number(c, v, path, &x))
			return false;
		if (!(x > 0 && x <= 1)) {
			policy_bad(c, v, path, "must be a number above 0 and at most 1, not %s",
				   v->text);
			return false;
		}
		*(double *)at = x;
		return true;
	case PK_PERCENT:
		if (!policy_want_whole(c, v, path, 0, 1e6, &x))
			return false;
		*(long *)at = (long)x;
		return true;
	case PK_SIZE:
		return policy_want_size(c, v, path, at);
	case PK_BOOL:
		return policy_want_bool(c, v, path, at);
	case PK_OPTBOOL:
		if (!policy_want_bool(c, v, path, &b))
			return false;
		*(int *)at = b;
		return true;
	case PK_MEDIA:
		return policy_want_media(c, v, path, at);
	case PK_METRICS:
		decode_metrics(c, v, path, base);
		return true;
	case PK_CONSTRAINTS:
		decode_constraints(c, v, path, base);
		return true;
	case PK_ESTIMATES:
		decode_estimates(c, v, path, base);
		return true;
	}
	return false;
}

static int key_index(const struct pk_table *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->f[i].doc.key, key))
			return (int)i;
	return -1;
}

static void unknown_key(struct pctx *c, const struct pnode *k, const char *path,
			const struct pk_table *t)
{
	char list[256];
	size_t off = 0;

	list[0] = '\0';
	for (size_t i = 0; i < t->n && off < sizeof(list); i++)
		off += snprintf(list + off, sizeof(list) - off, "%s%s", i ? ", " : "",
				t->f[i].doc.key);
	policy_bad(c, k, path, "unknown key (expected %s)", list);
}

/*
 * Decode map n with table t into base.  vals[i] is set to the value node of
 * field i when it was present and valid.  Returns false when n is not a map.
 */
static bool decode_map(struct pctx *c, const struct pnode *n, const char *path,
		       const struct pk_table *t, void *base, const struct pnode **vals)
{
	const struct pnode *seen[PK_MAX_FIELDS] = { 0 };
	char p[PATH_LEN], buf[80];
	int i;

	if (!policy_want_kind(c, n, path, PN_MAP, "a map"))
		return false;
	for (size_t k = 0; k + 1 < n->n; k += 2) {
		const struct pnode *key = n->kids[k], *v = n->kids[k + 1];

		if (key->kind != PN_SCALAR) {
			policy_bad(c, key, path, "keys must be strings, not %s",
				   policy_describe(key, buf, sizeof(buf)));
			continue;
		}
		policy_child_path(p, path, key->text);
		if ((i = key_index(t, key->text)) < 0) {
			unknown_key(c, key, p, t);
			continue;
		}
		if (seen[i]) {
			policy_bad(c, key, p, "duplicate key (first at line %d, column %d)",
				   seen[i]->line, seen[i]->col);
			continue;
		}
		seen[i] = key;
		if (policy_is_null(v)) {
			if (t->f[i].doc.required)
				policy_bad(c, v, p, "must not be null");
		} else if (decode_field(c, &t->f[i], v, p, base)) {
			vals[i] = v;
		}
	}
	for (size_t f = 0; f < t->n; f++) {
		if (t->f[f].doc.required && !seen[f]) {
			policy_child_path(p, path, t->f[f].doc.key);
			policy_bad(c, n, p, "required key is missing");
		}
	}
	return true;
}

/* The value node of key in vals (decoded with table t), or NULL. */
static const struct pnode *val(const struct pk_table *t, const struct pnode **vals,
			       const char *key)
{
	int i = key_index(t, key);

	return i < 0 ? NULL : vals[i];
}

/* ---- metrics ---- */

/* good and poor: distinct, ordered as better says. */
static void check_range(struct pctx *c, const struct model_policy_metric *m,
			const struct pnode **vals, const char *path)
{
	const struct pnode *good = val(&pk_metric, vals, "good");
	const struct pnode *poor = val(&pk_metric, vals, "poor");
	char p[PATH_LEN];

	if (!good || !poor)
		return;
	if (m->good == m->poor) {
		policy_child_path(p, path, "poor");
		policy_bad(c, poor, p,
			   "equals good (%g): the utility needs two different values",
			   m->poor);
		return;
	}
	if (!val(&pk_metric, vals, "better"))
		return;
	policy_child_path(p, path, "good");
	if (m->better == MODEL_BETTER_HIGHER && m->good < m->poor)
		policy_bad(c, good, p, "%g is below poor (%g), but higher is better",
			   m->good, m->poor);
	else if (m->better == MODEL_BETTER_LOWER && m->good > m->poor)
		policy_bad(c, good, p, "%g is above poor (%g), but lower is better",
			   m->good, m->poor);
}

/* A metric path may appear once per policy. */
static void check_unique_metric(struct pctx *c, const struct model_policy *pol,
				size_t i, const struct pnode **vals, const char *path)
{
	const struct pnode *at = val(&pk_metric, vals, "path");
	char p[PATH_LEN];

	if (!at)
		return;
	for (size_t j = 0; j < i; j++) {
		if (pol->metrics[j].desc == pol->metrics[i].desc) {
			policy_child_path(p, path, "path");
			policy_bad(c, at, p, "%s is already listed (metrics[%zu], line %d)",
				   pol->metrics[i].desc->path, j, pol->metrics[j].line);
			return;
		}
	}
}

static void decode_metrics(struct pctx *c, const struct pnode *n, const char *path,
			   struct model_policy *pol)
{
	char p[PATH_LEN];
	bool all_zero = true;

	if (!policy_want_kind(c, n, path, PN_SEQ, "a list of metrics"))
		return;
	if (!n->n) {
		policy_bad(c, n, path, "must list at least one metric");
		return;
	}
	if (!(pol->metrics = calloc(n->n, sizeof(*pol->metrics)))) {
		policy_nomem(c);
		return;
	}
	pol->n_metrics = n->n;
	for (size_t i = 0; i < n->n; i++) {
		struct model_policy_metric *m = &pol->metrics[i];
		const struct pnode *vals[PK_MAX_FIELDS] = { 0 };

		*m = (struct model_policy_metric){ .good = NAN, .poor = NAN, .weight = 1,
			.line = n->kids[i]->line, .col = n->kids[i]->col };
		policy_index_path(p, path, i);
		if (decode_map(c, n->kids[i], p, &pk_metric, m, vals)) {
			check_range(c, m, vals, p);
			check_unique_metric(c, pol, i, vals, p);
		}
		if (m->weight != 0)	/* a bad weight is reported on its own */
			all_zero = false;
	}
	if (all_zero)
		policy_bad(c, n, path, "every weight is 0: at least one metric must count");
}

/* ---- constraints and estimates ---- */

static void decode_constraints(struct pctx *c, const struct pnode *n,
			       const char *path, struct model_policy *pol)
{
	const struct pnode *vals[PK_MAX_FIELDS] = { 0 };

	decode_map(c, n, path, &pk_constraints, &pol->constraints, vals);
}

/* The value node of key in map n, or NULL. */
static const struct pnode *map_get(const struct pnode *n, const char *key)
{
	for (size_t k = 0; k + 1 < n->n; k += 2)
		if (n->kids[k]->kind == PN_SCALAR && !strcmp(n->kids[k]->text, key))
			return n->kids[k + 1];
	return NULL;
}

/* The defaults of a workload's optional keys, by pattern (docs/policies.md
 * names the program each follows). */
static void estimate_defaults(struct model_policy_estimate *e)
{
	if (isnan(e->concurrency) && (e->pattern == MODEL_PAT_CHAIN || e->pattern == MODEL_PAT_BEAM))
		e->concurrency = 1;
	if (isnan(e->streams) && (e->pattern == MODEL_PAT_STREAM || e->pattern == MODEL_PAT_SAMPLES))
		e->streams = e->pattern == MODEL_PAT_SAMPLES ? 4 : 1;
	if ((int)e->via < 0)
		e->via = e->pattern == MODEL_PAT_BEAM ? MODEL_VIA_DIRECT
			 : e->pattern == MODEL_PAT_CHAIN || e->pattern == MODEL_PAT_STREAM
			 ? MODEL_VIA_MMAP : MODEL_VIA_BUFFERED;
	if (isnan(e->read_ahead_kb) && e->via != MODEL_VIA_DIRECT &&
	    (e->pattern == MODEL_PAT_STREAM || e->pattern == MODEL_PAT_WRITE ||
	     e->pattern == MODEL_PAT_SAMPLES))
		e->read_ahead_kb = MODEL_PLAN_READ_AHEAD_KB;
	if (isnan(e->utilization) && e->pattern == MODEL_PAT_SAMPLES)
		e->utilization = 0.9;
}

static void decode_estimate(struct pctx *c, const struct pnode *n, const char *path,
			    struct model_policy_estimate *e)
{
	const struct pnode *vals[PK_MAX_FIELDS] = { 0 };
	const struct pnode *pat;
	char p[PATH_LEN];
	int k;

	if (!policy_want_kind(c, n, path, PN_MAP, "a map"))
		return;
	e->line = n->line;
	e->col = n->col;
	if (map_get(n, "kind")) {
		policy_child_path(p, path, "kind");
		policy_bad(c, map_get(n, "kind"), p, "replaced by pattern (chain, beam, stream, "
			   "write, samples): load is a stream, search a chain, backup a write "
			   "(docs/policies.md)");
		return;
	}
	policy_child_path(p, path, "pattern");
	if (!(pat = map_get(n, "pattern")) || policy_is_null(pat)) {
		policy_bad(c, pat ? pat : n, p, "%s",
			   pat ? "must not be null" : "required key is missing");
		return;
	}
	if (!policy_want_enum(c, pat, p, "pattern", pk_pattern_names, &k))
		return;
	decode_map(c, n, path, &pk_estimate[k], e, vals);
	estimate_defaults(e);
}

static void decode_estimates(struct pctx *c, const struct pnode *n, const char *path,
			     struct model_policy *pol)
{
	char p[PATH_LEN];

	if (!policy_want_kind(c, n, path, PN_SEQ, "a list of estimates"))
		return;
	if (n->n && !(pol->estimates = calloc(n->n, sizeof(*pol->estimates)))) {
		policy_nomem(c);
		return;
	}
	pol->n_estimates = n->n;
	for (size_t i = 0; i < n->n; i++) {
		struct model_policy_estimate *e = &pol->estimates[i];

		*e = (struct model_policy_estimate){ .via = (enum model_via)-1,
			.streams = NAN, .read_ahead_kb = NAN, .reads = NAN, .beam_width = NAN,
			.reads_per_query = NAN, .concurrency = NAN, .size_bytes = -1,
			.sample_bytes = -1, .batch = NAN, .compute_s = NAN, .utilization = NAN };
		policy_index_path(p, path, i);
		decode_estimate(c, n->kids[i], p, e);
	}
	/* Workload names are unique within the policy. */
	for (size_t i = 0; i < pol->n_estimates; i++)
		for (size_t j = 0; j < i; j++)
			if (pol->estimates[i].name && pol->estimates[j].name &&
			    !strcmp(pol->estimates[i].name, pol->estimates[j].name)) {
				char q[PATH_LEN];

				policy_index_path(q, path, i);
				policy_child_path(p, q, "name");
				policy_bad(c, n->kids[i], p, "workload %s is named twice (first "
					   "at line %d, column %d)", pol->estimates[i].name,
					   pol->estimates[j].line, pol->estimates[j].col);
			}
}

/* ---- the policy ---- */

static struct model_policy *policy_new(const char *file)
{
	struct model_policy *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->need_bytes = -1;
	p->constraints = (struct model_policy_constraints){ .rotational = -1,
		.min_capacity_bytes = -1, .max_load_c = NAN, .max_percentage_used = -1 };
	if (file && !(p->file = strdup(file))) {
		free(p);
		return NULL;
	}
	return p;
}

static void decode_policy(struct pctx *c, const struct pnode *root,
			  struct model_policy *p)
{
	const struct pnode *vals[PK_MAX_FIELDS] = { 0 };
	const struct pnode *name;

	if (!root) {
		policy_bad(c, NULL, NULL, "empty document: a policy is a map with name, tier "
			   "and metrics");
		return;
	}
	if (!decode_map(c, root, "", &pk_policy, p, vals))
		return;
	/* absent or null: data that can be fetched again needs no copy */
	if (!val(&pk_policy, vals, "redundancy"))
		p->redundancy = p->refetchable ? MODEL_REDUNDANCY_NONE
					       : MODEL_REDUNDANCY_PREFERRED;
	if ((name = val(&pk_policy, vals, "name"))) {
		p->line = name->line;
		p->col = name->col;
	}
}

int model_policy_parse(const char *text, size_t len, const char *name,
		       struct model_policy **out, struct tw_diags *diags)
{
	struct pctx c = { .file = name, .d = diags };
	struct pnode *root;
	struct model_policy *p;
	int ret;

	*out = NULL;
	ret = policy_yaml_load(text ? text : "", text ? len : 0, name, &root, diags);
	if (ret < 0)
		return ret;
	if (!(p = policy_new(name))) {
		pnode_free(root);
		return -ENOMEM;
	}
	decode_policy(&c, root, p);
	pnode_free(root);
	if (c.err) {
		model_policy_free(p);
		return c.err;
	}
	*out = p;
	return 0;
}

void model_policy_free(struct model_policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_estimates; i++) {
		free(p->estimates[i].name);
		free(p->estimates[i].label);
	}
	free(p->estimates);
	free(p->metrics);
	free(p->description);
	free(p->name);
	free(p->file);
	free(p);
}

double model_utility(const struct model_policy_metric *m, double v)
{
	const bool lower = m->good < m->poor;
	double u;

	if (isnan(v) || !(m->good > 0) || !(m->poor > 0) || m->good == m->poor)
		return NAN;
	if (v <= 0)
		return lower ? 1 : 0;
	u = (log(v) - log(m->poor)) / (log(m->good) - log(m->poor));
	return u < 0 ? 0 : u > 1 ? 1 : u;
}
