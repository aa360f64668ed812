/* plan_file.c — a tierwise.plan/1 file read back into struct
 * advisor_plan_file (see plan_file.h): the one reader of plan files.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "plan_file.h"
#include "profile.h"

/* calloc n × size, remembered in f (freed with it).  NULL on failure. */
static void *file_alloc(struct advisor_plan_file *f, size_t n, size_t size)
{
	void *p;

	if (f->n_allocs == f->cap_allocs) {
		size_t cap = f->cap_allocs ? f->cap_allocs * 2 : 32;
		void **v = realloc(f->allocs, cap * sizeof(*v));

		if (!v)
			return NULL;
		f->allocs = v;
		f->cap_allocs = cap;
	}
	p = calloc(n ? n : 1, size);
	if (p)
		f->allocs[f->n_allocs++] = p;
	return p;
}

static struct advisor_plan_file *file_new(void)
{
	struct advisor_plan_file *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->score = f->runner_up_gap = f->cost_total = f->budget = NAN;
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		f->tiers[t].name = advisor_tier_name(t);
		f->tiers[t].score = f->tiers[t].raid_read_mbps = NAN;
		f->tiers[t].cost = f->tiers[t].cost_per_usable_tb = NAN;
		f->tiers[t].need_bytes = f->tiers[t].usable_bytes = -1;
	}
	return f;
}

void advisor_plan_file_free(struct advisor_plan_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n_allocs; i++)
		free(f->allocs[i]);
	free(f->allocs);
	json_decref(f->json);
	free(f);
}

struct jctx {
	struct advisor_plan_file *pf;
	char *err;
	size_t errlen;
	const char *hint;	/* said when the file is no plan, or NULL */
	bool seen[TW_TIER_COUNT];	/* tiers read */
};

static int jfail(struct jctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int jfail(struct jctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A string member (or NULL when absent or null); -EINVAL for another type. */
static int jstr(struct jctx *c, json_t *o, const char *key, const char *what, const char **out)
{
	json_t *v = json_object_get(o, key);

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return jfail(c, "%s.%s: expected a string", what, key);
	*out = json_string_value(v);
	return 0;
}

/* A number member, NAN when absent or null. */
static int jnum(struct jctx *c, json_t *o, const char *key, const char *what, double *out)
{
	json_t *v = json_object_get(o, key);

	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return jfail(c, "%s.%s: expected a number", what, key);
	*out = json_number_value(v);
	return 0;
}

/* An array of strings (absent or null: none). */
static int jstrv(struct jctx *c, json_t *o, const char *key, const char *what,
		 const char ***out, size_t *n)
{
	json_t *a = json_object_get(o, key), *v;
	size_t i;

	*n = 0;
	if (a && !json_is_null(a) && !json_is_array(a))
		return jfail(c, "%s.%s: expected an array of strings", what, key);
	if (!(*out = file_alloc(c->pf, json_array_size(a), sizeof(**out))))
		return -ENOMEM;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v))
			return jfail(c, "%s.%s[%zu]: expected a string", what, key, i);
		(*out)[(*n)++] = json_string_value(v);
	}
	return 0;
}

/* A whole-number member (absent or null: 0); -EINVAL for anything else. */
static int juint(struct jctx *c, json_t *o, const char *key, const char *what, unsigned *out)
{
	json_t *v = json_object_get(o, key);

	*out = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT_MAX)
		return jfail(c, "%s.%s: expected a whole number", what, key);
	*out = (unsigned)json_integer_value(v);
	return 0;
}

/* A string member that is absent, null or one of names (a NULL-ended
 * list, said in the message as expected). */
static int jenum(struct jctx *c, json_t *o, const char *key, const char *what,
		 const char *const *names, const char *expected, const char **out)
{
	if (jstr(c, o, key, what, out))
		return -EINVAL;
	for (size_t i = 0; *out && names[i]; i++)
		if (!strcmp(*out, names[i]))
			return 0;
	return *out ? jfail(c, "%s.%s: expected %s", what, key, expected) : 0;
}

/* The pattern, via and madvise of an estimate's workload, each known. */
static int j_pattern(struct jctx *c, json_t *e, const char *w, struct advisor_file_est *out)
{
	static const char *const patterns[] = { "stream", "write", "restore", "samples", "chain",
						"beam", NULL };
	static const char *const vias[] = { "direct", "buffered", "mmap", NULL };
	static const char *const madv[] = { "normal", "random", NULL };

	return jenum(c, e, "pattern", w, patterns, "stream, write, restore, samples, chain or "
		     "beam", &out->pattern) ||
	       jenum(c, e, "via", w, vias, "direct, buffered or mmap", &out->via) ||
	       jenum(c, e, "madvise", w, madv, "normal or random", &out->madvise) ? -EINVAL : 0;
}

/* The workload of an estimate: pattern, parameters, figures (contract in
 * docs/verify.md).  what: "warm.estimates[3]" or "warm.estimates.model-loading[0]". */
static int j_workload(struct jctx *c, json_t *e, const char *w, struct advisor_file_est *out)
{
	json_t *fits = json_object_get(e, "fits");

	if (fits && !json_is_null(fits) && !json_is_boolean(fits))
		return jfail(c, "%s.fits: expected true or false", w);
	out->fits = json_is_boolean(fits) ? json_is_true(fits) : -1;
	return j_pattern(c, e, w, out) || jstr(c, e, "workload", w, &out->workload) ||
	       juint(c, e, "streams", w, &out->streams) ||
	       juint(c, e, "read_ahead_kb", w, &out->read_ahead_kb) ||
	       juint(c, e, "beam_width", w, &out->beam_width) ||
	       juint(c, e, "reads_per_query", w, &out->reads_per_query) ||
	       juint(c, e, "concurrency", w, &out->concurrency) ||
	       juint(c, e, "batch", w, &out->batch) ||
	       jnum(c, e, "size_bytes", w, &out->size_bytes) ||
	       jnum(c, e, "sample_size_bytes", w, &out->sample_size_bytes) ||
	       jnum(c, e, "compute_s", w, &out->compute_s) ||
	       jnum(c, e, "utilization", w, &out->utilization) ||
	       jnum(c, e, "seconds", w, &out->seconds) || jnum(c, e, "p50_ms", w, &out->p50_ms) ||
	       jnum(c, e, "p99_ms", w, &out->p99_ms) || jnum(c, e, "qps", w, &out->qps) ||
	       jnum(c, e, "mbps", w, &out->mbps) ||
	       jnum(c, e, "accelerators", w, &out->accelerators) ||
	       jnum(c, e, "capacity_bytes", w, &out->capacity_bytes) ? -EINVAL : 0;
}

/* Estimate i of policy (NULL: the estimate names its own, "policy"). */
static int j_one_est(struct jctx *c, json_t *e, const char *tier, const char *policy, size_t i,
		     struct advisor_file_est *out)
{
	char w[192];

	if (policy)
		snprintf(w, sizeof(w), "%s.estimates.%s[%zu]", tier, policy, i);
	else
		snprintf(w, sizeof(w), "%s.estimates[%zu]", tier, i);
	if (!json_is_object(e))
		return jfail(c, "%s: expected an object", w);
	if (jstr(c, e, "policy", w, &out->policy))
		return -EINVAL;
	if (policy)
		out->policy = policy;
	else if (!out->policy)
		return jfail(c, "%s.policy: expected the name of a policy", w);
	return jstr(c, e, "label", w, &out->label) || jstr(c, e, "unit", w, &out->unit) ||
	       jstr(c, e, "device", w, &out->device) || jnum(c, e, "value", w, &out->value) ||
	       j_workload(c, e, w, out) ? -EINVAL : 0;
}

/* "estimates": an object of arrays by policy, or one array of estimates
 * that each name their policy. */
static int j_estimates(struct jctx *c, json_t *tier, struct advisor_file_tier *rt)
{
	json_t *o = json_object_get(tier, "estimates"), *a, *e;
	const char *policy;
	size_t n = 0, i;

	if (o && !json_is_null(o) && !json_is_object(o) && !json_is_array(o))
		return jfail(c, "%s.estimates: expected an object or an array", rt->name);
	rt->est_listed = json_is_array(o);
	if (json_is_array(o))
		n = json_array_size(o);
	json_object_foreach(o, policy, a)
		n += json_array_size(a);
	if (!(rt->est = file_alloc(c->pf, n, sizeof(*rt->est))))
		return -ENOMEM;
	json_array_foreach(o, i, e)
		if (j_one_est(c, e, rt->name, NULL, i, &rt->est[rt->n_est++]))
			return -EINVAL;
	json_object_foreach(o, policy, a) {
		if (!json_is_array(a))
			return jfail(c, "%s.estimates.%s: expected an array", rt->name, policy);
		json_array_foreach(a, i, e)
			if (j_one_est(c, e, rt->name, policy, i, &rt->est[rt->n_est++]))
				return -EINVAL;
	}
	return 0;
}

static int j_mount(struct jctx *c, json_t *m, struct advisor_file_mount *out)
{
	if (!json_is_object(m))
		return jfail(c, "mounts: expected objects");
	out->reuse = json_is_true(json_object_get(m, "reuse"));
	out->directory = json_is_true(json_object_get(m, "directory"));
	return jstr(c, m, "point", "mount", &out->point) || jstr(c, m, "fs", "mount", &out->fs) ||
	       jstr(c, m, "options", "mount", &out->options) ||
	       jstr(c, m, "source", "mount", &out->source) ||
	       jstr(c, m, "why", "mount", &out->why) ? -EINVAL : 0;
}

static int j_mounts(struct jctx *c, json_t *tier, struct advisor_file_tier *rt)
{
	json_t *a = json_object_get(tier, "mounts"), *one = json_object_get(tier, "mount"), *m;
	size_t i;

	if (!json_is_array(a) && json_is_object(one))	/* one mount a tier: "mount" */
		a = one;
	if (!(rt->mounts = file_alloc(c->pf, json_is_array(a) ? json_array_size(a) : 1,
				    sizeof(*rt->mounts))))
		return -ENOMEM;
	if (json_is_object(a))
		return j_mount(c, a, &rt->mounts[rt->n_mounts++]);
	json_array_foreach(a, i, m)
		if (j_mount(c, m, &rt->mounts[rt->n_mounts++]))
			return -EINVAL;
	return 0;
}

static int j_raid(struct jctx *c, json_t *tier, struct advisor_file_tier *rt)
{
	json_t *r = json_object_get(tier, "raid");

	if (!r || json_is_null(r))
		return 0;
	if (!json_is_object(r))
		return jfail(c, "%s.raid: expected an object", rt->name);
	return jstr(c, r, "level", "raid", &rt->raid_level) ||
	       jstr(c, r, "name", "raid", &rt->raid_name) ||
	       jstr(c, r, "tradeoff", "raid", &rt->raid_tradeoff) ||
	       jnum(c, r, "seq_read_mbps", "raid", &rt->raid_read_mbps) ? -EINVAL : 0;
}

static int j_scores(struct jctx *c, json_t *tier, struct advisor_file_tier *rt)
{
	json_t *o = json_object_get(tier, "device_scores"), *v;
	double need, usable;

	if (!(rt->scores = file_alloc(c->pf, rt->n_devices, sizeof(*rt->scores))))
		return -ENOMEM;
	for (size_t i = 0; i < rt->n_devices; i++) {
		v = json_object_get(o, rt->devices[i]);
		rt->scores[i] = json_is_number(v) ? json_number_value(v) : NAN;
	}
	if (jnum(c, tier, "score", rt->name, &rt->score) ||
	    jnum(c, tier, "cost", rt->name, &rt->cost) ||
	    jnum(c, tier, "cost_per_usable_tb", rt->name, &rt->cost_per_usable_tb) ||
	    jnum(c, tier, "need_bytes", rt->name, &need) ||
	    jnum(c, tier, "usable_bytes", rt->name, &usable))
		return -EINVAL;
	rt->need_bytes = isnan(need) ? -1 : (int64_t)need;
	rt->usable_bytes = isnan(usable) ? -1 : (int64_t)usable;
	return 0;
}

/* The tier's needs (optional: older plans have none): each an object with
 * policy, bytes and default. */
static int j_needs(struct jctx *c, json_t *tier, struct advisor_file_tier *rt)
{
	json_t *a = json_object_get(tier, "needs"), *v;
	size_t i;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return jfail(c, "%s.needs: expected an array", rt->name);
	rt->n_needs = json_array_size(a);
	if (rt->n_needs && !(rt->needs = file_alloc(c->pf, rt->n_needs, sizeof(*rt->needs))))
		return -ENOMEM;
	json_array_foreach(a, i, v) {
		struct advisor_file_need *n = &rt->needs[i];
		json_t *b = json_object_get(v, "bytes"), *d = json_object_get(v, "default");

		if (jstr(c, v, "policy", "needs", &n->policy))
			return -EINVAL;
		if (!n->policy || !json_is_integer(b) || json_integer_value(b) < 0 || !json_is_boolean(d))
			return jfail(c, "%s.needs[%zu]: expected {policy, bytes >= 0, default}",
				     rt->name, i);
		n->bytes = (int64_t)json_integer_value(b);
		n->is_default = json_is_true(d);
	}
	return 0;
}

/* Tier i of the array: its name says which (hot, warm, cold; once each). */
static int j_tier(struct jctx *c, json_t *tier, size_t i)
{
	struct advisor_file_tier *rt = NULL;
	const char *name;
	int ret, t;

	if (!json_is_object(tier))
		return jfail(c, "tiers[%zu]: expected an object", i);
	if (jstr(c, tier, "name", "tier", &name))
		return -EINVAL;
	t = tw_tier_find(name);
	if (t >= 0 && !c->seen[t]) {
		rt = &c->pf->tiers[t];
		c->seen[t] = true;
	}
	if (!rt)
		return jfail(c, "tiers[%zu].name: expected \"hot\", \"warm\" or \"cold\", each "
			     "tier once", i);
	if (!json_is_array(json_object_get(tier, "devices")))
		return jfail(c, "%s.devices: expected an array of strings", rt->name);
	ret = jstrv(c, tier, "policies", rt->name, &rt->policies, &rt->n_policies);
	if (!ret)
		ret = jstrv(c, tier, "devices", rt->name, &rt->devices, &rt->n_devices);
	if (!ret)
		ret = jstrv(c, tier, "notes", rt->name, &rt->notes, &rt->n_notes);
	if (!ret)
		ret = jstr(c, tier, "shared_with", rt->name, &rt->shared_with);
	if (!ret)
		ret = j_scores(c, tier, rt);
	if (!ret)
		ret = j_needs(c, tier, rt);
	if (!ret)
		ret = j_raid(c, tier, rt);
	if (!ret)
		ret = j_estimates(c, tier, rt);
	return ret ? ret : j_mounts(c, tier, rt);
}

static int j_warnings(struct jctx *c, json_t *doc)
{
	json_t *a = json_object_get(doc, "warnings"), *w;
	struct advisor_plan_file *pf = c->pf;
	size_t i;

	if (a && !json_is_array(a))
		return jfail(c, "warnings: expected an array");
	if (!(pf->warnings = file_alloc(pf, json_array_size(a), sizeof(*pf->warnings))))
		return -ENOMEM;
	json_array_foreach(a, i, w) {
		struct advisor_file_warning *o = &pf->warnings[pf->n_warnings++];

		if (!json_is_object(w))
			return jfail(c, "warnings[%zu]: expected an object", i);
		if (jstr(c, w, "device", "warning", &o->device) ||
		    jstr(c, w, "kind", "warning", &o->kind) ||
		    jstr(c, w, "message", "warning", &o->message))
			return -EINVAL;
		if (!o->kind)
			return jfail(c, "warnings[%zu].kind: expected a string", i);
	}
	return 0;
}

static int j_buy_line(struct jctx *c, json_t *o, size_t i, struct advisor_file_buy *b)
{
	json_t *n = json_object_get(o, "count");
	const char *tier = NULL;

	if (!json_is_object(o))
		return jfail(c, "buy[%zu]: expected an object", i);
	if (jstr(c, o, "id", "buy", &b->id) || jstr(c, o, "model", "buy", &b->model) ||
	    jstr(c, o, "tier", "buy", &tier) || jnum(c, o, "price", "buy", &b->price) ||
	    jnum(c, o, "cost", "buy", &b->cost))
		return -EINVAL;
	if (!b->id)
		return jfail(c, "buy[%zu].id: expected the id of a catalog entry", i);
	if (tw_tier_find(tier) >= 0)
		b->tier = advisor_tier_name(tw_tier_find(tier));
	if (!b->tier)
		return jfail(c, "buy[%zu].tier: expected \"hot\", \"warm\" or \"cold\"", i);
	if (!json_is_integer(n) || json_integer_value(n) < 1 || json_integer_value(n) > UINT_MAX)
		return jfail(c, "buy[%zu].count: expected a whole number of at least 1", i);
	b->count = (unsigned)json_integer_value(n);
	return 0;
}

/* "buy" (a buy plan) and "budget". */
static int j_buy(struct jctx *c, json_t *doc)
{
	json_t *a = json_object_get(doc, "buy"), *o;
	struct advisor_plan_file *pf = c->pf;
	size_t i;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return jfail(c, "buy: expected an array");
	pf->buying = true;
	if (!(pf->buy = file_alloc(pf, json_array_size(a), sizeof(*pf->buy))))
		return -ENOMEM;
	json_array_foreach(a, i, o) {
		pf->buy[i].price = pf->buy[i].cost = NAN;
		if (j_buy_line(c, o, i, &pf->buy[pf->n_buy++]))
			return -EINVAL;
	}
	return jnum(c, doc, "budget", "plan", &pf->budget);
}

/* What a document that is not a plan is, and what the caller takes. */
static int not_a_plan(struct jctx *c, const char *schema)
{
	const char *what = schema && !strncmp(schema, "tierwise.profile/", 17) ?
			   ": a profile (give it as a PROFILE argument)" : "";

	if (!schema)
		return jfail(c, "not a %s document (no \"schema\": \"%s\")%s%s", PLAN_SCHEMA,
			     PLAN_SCHEMA, c->hint ? "; " : "", c->hint ? c->hint : "");
	return jfail(c, "not a %s document: its \"schema\" is \"%.64s\"%s%s%s", PLAN_SCHEMA,
		     schema, what, c->hint ? "; " : "", c->hint ? c->hint : "");
}

static int j_doc(struct jctx *c, json_t *doc)
{
	json_t *tiers = json_object_get(doc, "tiers"), *ru = json_object_get(doc, "runner_up");
	json_t *tier;
	const char *schema = NULL;
	size_t i;
	int ret;

	if (!json_is_object(doc) || jstr(c, doc, "schema", "plan", &schema) || !schema ||
	    strcmp(schema, PLAN_SCHEMA))
		return not_a_plan(c, schema);
	if (!json_is_array(tiers))
		return jfail(c, "tiers: expected an array of the tiers hot, warm, cold");
	json_array_foreach(tiers, i, tier)
		if ((ret = j_tier(c, tier, i)))
			return ret;
	ret = jstrv(c, doc, "unassigned", "plan", &c->pf->unassigned, &c->pf->n_unassigned);
	if (!ret)
		ret = jstrv(c, doc, "notes", "plan", &c->pf->notes, &c->pf->n_notes);
	if (!ret)
		ret = jnum(c, doc, "score", "plan", &c->pf->score);
	if (!ret && json_is_object(ru))
		ret = jnum(c, ru, "gap", "runner_up", &c->pf->runner_up_gap);
	if (!ret && json_is_object(ru) && json_is_true(json_object_get(ru, "covers_less")))
		c->pf->runner_up_gap = NAN;	/* no tie to speak of: it covers less */
	if (!ret)
		ret = jnum(c, doc, "cost_total", "plan", &c->pf->cost_total);
	c->pf->exact = json_is_true(json_object_get(doc, "exact"));
	if (!ret)
		ret = j_warnings(c, doc);
	return ret ? ret : j_buy(c, doc);
}

int advisor_plan_file_read(const char *path, const char *hint, struct advisor_plan_file **out,
			   char *err, size_t errlen)
{
	struct jctx c = { .pf = NULL, .err = err, .errlen = errlen, .hint = hint };
	json_error_t jerr;
	char *text;
	size_t len;
	int ret;

	*out = NULL;
	ret = profile_slurp(path, &text, &len);	/* one read: jansson's file loader reads by getc */
	if (ret) {
		snprintf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
	if (!(c.pf = file_new())) {
		free(text);
		return -ENOMEM;
	}
	c.pf->json = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!c.pf->json) {
		ret = jfail(&c, "not JSON: %d:%d: %s%s%s%s", jerr.line, jerr.column, jerr.text,
			    hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
		advisor_plan_file_free(c.pf);
		return ret;
	}
	ret = j_doc(&c, c.pf->json);
	if (ret) {
		advisor_plan_file_free(c.pf);
		return ret;
	}
	*out = c.pf;
	return 0;
}
