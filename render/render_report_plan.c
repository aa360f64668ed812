/* render_report_plan.c — the plan as the report shows it, from the advisor
 * run in-process or from a tierwise.plan/1 file (--plan): one struct for the
 * renderer either way.
 */
#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plan.h"
#include "report.h"
#include "tw_tier.h"

/* calloc n × size, remembered in rp (freed with it).  NULL on failure. */
static void *rp_alloc(struct report_plan *rp, size_t n, size_t size)
{
	void *p;

	if (rp->n_allocs == rp->cap_allocs) {
		size_t cap = rp->cap_allocs ? rp->cap_allocs * 2 : 32;
		void **v = realloc(rp->allocs, cap * sizeof(*v));

		if (!v)
			return NULL;
		rp->allocs = v;
		rp->cap_allocs = cap;
	}
	p = calloc(n ? n : 1, size);
	if (p)
		rp->allocs[rp->n_allocs++] = p;
	return p;
}

static struct report_plan *rp_new(void)
{
	struct report_plan *rp = calloc(1, sizeof(*rp));

	if (!rp)
		return NULL;
	rp->score = rp->runner_up_gap = rp->cost_total = rp->budget = NAN;
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		rp->tiers[t].name = advisor_tier_name(t);
		rp->tiers[t].score = rp->tiers[t].raid_read_mbps = NAN;
		rp->tiers[t].cost = rp->tiers[t].cost_per_usable_tb = NAN;
		rp->tiers[t].need_bytes = rp->tiers[t].usable_bytes = -1;
	}
	return rp;
}

void report_plan_free(struct report_plan *rp)
{
	if (!rp)
		return;
	for (size_t i = 0; i < rp->n_allocs; i++)
		free(rp->allocs[i]);
	free(rp->allocs);
	advisor_plan_free(rp->owned_plan);
	json_decref(rp->owned_json);
	free(rp);
}

const char *report_plan_tier_of(const struct report_plan *rp, const char *id)
{
	for (int t = 0; rp && id && t < TW_TIER_COUNT; t++)
		for (size_t i = 0; i < rp->tiers[t].n_devices; i++)
			if (!strcmp(rp->tiers[t].devices[i], id))
				return rp->tiers[t].name;
	for (size_t i = 0; rp && id && i < rp->n_buy; i++)
		if (!strcmp(rp->buy[i].id, id))
			return rp->buy[i].tier;
	return NULL;
}

unsigned report_plan_bought(const struct report_plan *rp, const char *id)
{
	unsigned n = 0;

	for (size_t i = 0; rp && id && i < rp->n_buy; i++)
		if (!strcmp(rp->buy[i].id, id))
			n += rp->buy[i].count;
	return n;
}

/* ---- does the plan fit the profiles? ---- */

/* The ids of the plan that are not in the profiles, each once. */
struct misfit {
	const struct profile_device *const *devs;
	size_t n_devs;
	size_t n;
	const char **ids;	/* room for every id the plan names */
};

static bool have_dev(const struct misfit *m, const char *id)
{
	for (size_t k = 0; k < m->n_devs; k++)
		if (!strcmp(m->devs[k]->id, id))
			return true;
	return false;
}

/* Note id when it is none of the profiles' devices (and not noted yet). */
static void fit(struct misfit *m, const char *id)
{
	if (!id || have_dev(m, id))
		return;
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->ids[i], id))
			return;
	m->ids[m->n++] = id;
}

/* A warning's or shared_with's device: in a buy plan, a copy's catalog entry. */
static void fit_dev(struct misfit *m, const struct report_plan *rp, const char *id)
{
	const char *dash = rp->buying && id ? strrchr(id, '-') : NULL;
	char base[256];

	if (dash && !have_dev(m, id) && (size_t)(dash - id) < sizeof(base)) {
		snprintf(base, sizeof(base), "%.*s", (int)(dash - id), id);
		if (have_dev(m, base))
			return;
	}
	fit(m, id);
}

/* How many ids the plan names, at most (room for struct misfit). */
static size_t plan_ids(const struct report_plan *rp)
{
	size_t n = rp->n_unassigned + rp->n_warnings + rp->n_buy;

	for (int t = 0; t < TW_TIER_COUNT; t++)
		n += rp->tiers[t].n_devices + 1;
	return n;
}

static void fit_all(struct misfit *m, const struct report_plan *rp)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct report_tier *rt = &rp->tiers[t];

		for (size_t i = 0; i < rt->n_devices; i++)	/* a copy: its catalog entry */
			fit(m, rt->origins[i] ? rt->origins[i] : rt->devices[i]);
		fit_dev(m, rp, rt->shared_with);
	}
	for (size_t i = 0; i < rp->n_unassigned; i++)
		fit(m, rp->unassigned[i]);
	for (size_t i = 0; i < rp->n_warnings; i++)
		fit_dev(m, rp, rp->warnings[i].device);
	for (size_t i = 0; i < rp->n_buy; i++)
		fit(m, rp->buy[i].id);
}

int report_plan_check(const struct report_plan *rp, const struct profile_device *const *devs,
		      size_t n, char *err, size_t errlen)
{
	struct misfit m = { .devs = devs, .n_devs = n };
	size_t at;

	if (!(m.ids = calloc(plan_ids(rp) + 1, sizeof(*m.ids))))
		return -ENOMEM;
	fit_all(&m, rp);
	if (!m.n) {
		free(m.ids);
		return 0;
	}
	at = (size_t)snprintf(err, errlen, "the plan does not match the profiles: %zu device%s "
			      "it names %s not in them (", m.n, m.n == 1 ? "" : "s",
			      m.n == 1 ? "is" : "are");
	for (size_t i = 0; i < m.n && i < 4 && at < errlen; i++)
		at += (size_t)snprintf(err + at, errlen - at, "%s%s", i ? ", " : "", m.ids[i]);
	if (at < errlen)
		snprintf(err + at, errlen - at, "%s); make the plan from these profiles (a buy "
			 "plan: from this catalog)", m.n > 4 ? ", …" : "");
	free(m.ids);
	return -EINVAL;
}

/* ---- from the advisor ---- */

static const char **strv(struct report_plan *rp, char *const *v, size_t n)
{
	const char **o = rp_alloc(rp, n, sizeof(*o));

	for (size_t i = 0; o && i < n; i++)
		o[i] = v[i];
	return o;
}

static const char *adv_id(const struct advisor_plan *plan, size_t i)
{
	return plan->devs[i].p->id;
}

static int adv_lists(struct report_plan *rp, const struct advisor_plan *plan,
		     const struct advisor_plan_tier *at, struct report_tier *rt)
{
	rt->policies = rp_alloc(rp, at->n_policies, sizeof(*rt->policies));
	rt->devices = rp_alloc(rp, at->n_devices, sizeof(*rt->devices));
	rt->origins = rp_alloc(rp, at->n_devices, sizeof(*rt->origins));
	rt->scores = rp_alloc(rp, at->n_devices, sizeof(*rt->scores));
	rt->notes = strv(rp, at->notes, at->n_notes);
	if (!rt->policies || !rt->devices || !rt->origins || !rt->scores || !rt->notes)
		return -ENOMEM;
	rt->n_policies = at->n_policies;
	for (size_t k = 0; k < at->n_policies; k++)
		rt->policies[k] = at->policies[k]->name;
	rt->n_devices = at->n_devices;
	for (size_t i = 0; i < at->n_devices; i++) {
		rt->devices[i] = adv_id(plan, at->devices[i]);
		if (plan->buying && plan->origin)
			rt->origins[i] = plan->origin[at->devices[i]]->id;
		rt->scores[i] = at->scores[i];
	}
	rt->n_notes = at->n_notes;
	return 0;
}

static int adv_est_mounts(struct report_plan *rp, const struct advisor_plan_tier *at,
			  struct report_tier *rt)
{
	rt->est = rp_alloc(rp, at->n_est, sizeof(*rt->est));
	rt->mounts = rp_alloc(rp, at->n_mounts, sizeof(*rt->mounts));
	if (!rt->est || !rt->mounts)
		return -ENOMEM;
	rt->n_est = at->n_est;
	for (size_t i = 0; i < at->n_est; i++)
		rt->est[i] = (struct report_est){ at->est[i].policy, at->est[i].label,
						  at->est[i].unit, at->est[i].device, at->est[i].value };
	rt->n_mounts = at->n_mounts;
	for (size_t i = 0; i < at->n_mounts; i++) {
		const struct advisor_mount *m = &at->mounts[i];

		rt->mounts[i] = (struct report_mount){ m->point, m->fs, m->options, m->source,
						       m->why, m->reuse, m->directory };
	}
	return 0;
}

static int adv_tier(struct report_plan *rp, const struct advisor_plan *plan, int t)
{
	const struct advisor_plan_tier *at = &plan->tiers[t];
	struct report_tier *rt = &rp->tiers[t];

	rt->score = at->score;
	rt->cost = at->cost;
	rt->cost_per_usable_tb = at->cost_per_usable_tb;
	rt->need_bytes = at->need_bytes;
	rt->usable_bytes = at->usable_bytes;
	rt->shared_with = at->shared ? adv_id(plan, (size_t)at->shared_dev) : NULL;
	if (at->raid.level != ADVISOR_RAID_NONE) {
		rt->raid_level = advisor_raid_name(at->raid.level);
		rt->raid_name = at->raid.name;
		rt->raid_tradeoff = at->raid.tradeoff;
		rt->raid_read_mbps = at->raid.seq_read_mbps;
	}
	if (adv_lists(rp, plan, at, rt))
		return -ENOMEM;
	return adv_est_mounts(rp, at, rt);
}

static int adv_plan_wide(struct report_plan *rp, const struct advisor_plan *plan)
{
	rp->unassigned = rp_alloc(rp, plan->n_unassigned, sizeof(*rp->unassigned));
	rp->warnings = rp_alloc(rp, plan->n_warnings, sizeof(*rp->warnings));
	rp->notes = strv(rp, plan->notes, plan->n_notes);
	if (!rp->unassigned || !rp->warnings || !rp->notes)
		return -ENOMEM;
	rp->n_unassigned = plan->n_unassigned;
	for (size_t i = 0; i < plan->n_unassigned; i++)
		rp->unassigned[i] = adv_id(plan, plan->unassigned[i]);
	rp->n_warnings = plan->n_warnings;
	for (size_t i = 0; i < plan->n_warnings; i++) {
		const struct advisor_warning *w = &plan->warnings[i];

		rp->warnings[i] = (struct report_warning){
			w->dev >= 0 ? adv_id(plan, (size_t)w->dev) : NULL, w->kind, w->message };
	}
	rp->n_notes = plan->n_notes;
	rp->priced = plan->priced || plan->buying;
	rp->cost_total = plan->cost_total;
	rp->score = plan->score;
	rp->exact = plan->exact;
	rp->runner_up_gap = plan->has_runner_up ? plan->gap : NAN;
	return 0;
}

/* A buy plan's shopping list. */
static int adv_buy(struct report_plan *rp, const struct advisor_plan *plan)
{
	rp->buying = plan->buying;
	rp->budget = plan->buying && plan->budget > 0 ? plan->budget : NAN;
	if (!plan->buying)
		return 0;
	if (!(rp->buy = rp_alloc(rp, plan->n_buy, sizeof(*rp->buy))))
		return -ENOMEM;
	rp->n_buy = plan->n_buy;
	for (size_t i = 0; i < plan->n_buy; i++) {
		const struct advisor_buy *b = &plan->buy[i];

		rp->buy[i] = (struct report_buy){ b->p->id, b->p->model, advisor_tier_name(b->tier),
						  b->count, b->price, b->cost };
	}
	return 0;
}

int report_plan_from_advisor(struct advisor_plan *plan, struct report_plan **out)
{
	struct report_plan *rp = rp_new();
	int ret = rp ? 0 : -ENOMEM;

	*out = NULL;
	if (!rp) {
		advisor_plan_free(plan);
		return -ENOMEM;
	}
	rp->owned_plan = plan;
	rp->source = "the advisor, run on these profiles";
	for (int t = 0; !ret && t < TW_TIER_COUNT; t++)
		ret = adv_tier(rp, plan, t);
	if (!ret)
		ret = adv_plan_wide(rp, plan);
	if (!ret)
		ret = adv_buy(rp, plan);
	if (ret) {
		report_plan_free(rp);
		return ret;
	}
	*out = rp;
	return 0;
}

/* ---- from a tierwise.plan/1 file ---- */

struct jctx {
	struct report_plan *rp;
	char *err;
	size_t errlen;
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
	if (!(*out = rp_alloc(c->rp, json_array_size(a), sizeof(**out))))
		return -ENOMEM;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v))
			return jfail(c, "%s.%s[%zu]: expected a string", what, key, i);
		(*out)[(*n)++] = json_string_value(v);
	}
	return 0;
}

static int j_one_est(struct jctx *c, json_t *e, const char *policy, struct report_est *out)
{
	out->policy = policy;
	if (!json_is_object(e))
		return jfail(c, "estimates.%s: expected objects", policy);
	return jstr(c, e, "label", "estimate", &out->label) ||
	       jstr(c, e, "unit", "estimate", &out->unit) ||
	       jstr(c, e, "device", "estimate", &out->device) ||
	       jnum(c, e, "value", "estimate", &out->value) ? -EINVAL : 0;
}

static int j_estimates(struct jctx *c, json_t *tier, struct report_tier *rt)
{
	json_t *o = json_object_get(tier, "estimates"), *a, *e;
	const char *policy;
	size_t n = 0, i;

	if (o && !json_is_null(o) && !json_is_object(o))
		return jfail(c, "%s.estimates: expected an object", rt->name);
	json_object_foreach(o, policy, a)
		n += json_array_size(a);
	if (!(rt->est = rp_alloc(c->rp, n, sizeof(*rt->est))))
		return -ENOMEM;
	json_object_foreach(o, policy, a) {
		if (!json_is_array(a))
			return jfail(c, "%s.estimates.%s: expected an array", rt->name, policy);
		json_array_foreach(a, i, e)
			if (j_one_est(c, e, policy, &rt->est[rt->n_est++]))
				return -EINVAL;
	}
	return 0;
}

static int j_mount(struct jctx *c, json_t *m, struct report_mount *out)
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

static int j_mounts(struct jctx *c, json_t *tier, struct report_tier *rt)
{
	json_t *a = json_object_get(tier, "mounts"), *one = json_object_get(tier, "mount"), *m;
	size_t i;

	if (!json_is_array(a) && json_is_object(one))	/* older writers: "mount" only */
		a = one;
	if (!(rt->mounts = rp_alloc(c->rp, json_is_array(a) ? json_array_size(a) : 1,
				    sizeof(*rt->mounts))))
		return -ENOMEM;
	if (json_is_object(a))
		return j_mount(c, a, &rt->mounts[rt->n_mounts++]);
	json_array_foreach(a, i, m)
		if (j_mount(c, m, &rt->mounts[rt->n_mounts++]))
			return -EINVAL;
	return 0;
}

static int j_raid(struct jctx *c, json_t *tier, struct report_tier *rt)
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

static int j_scores(struct jctx *c, json_t *tier, struct report_tier *rt)
{
	json_t *o = json_object_get(tier, "device_scores"), *v;
	double need, usable;

	if (!(rt->scores = rp_alloc(c->rp, rt->n_devices, sizeof(*rt->scores))))
		return -ENOMEM;
	for (size_t i = 0; i < rt->n_devices; i++) {
		v = json_object_get(o, rt->devices[i]);
		rt->scores[i] = json_is_number(v) ? json_number_value(v) : NAN;
	}
	if (!(rt->origins = rp_alloc(c->rp, rt->n_devices, sizeof(*rt->origins))))
		return -ENOMEM;
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

static int j_tier(struct jctx *c, json_t *tier, int t)
{
	struct report_tier *rt = &c->rp->tiers[t];
	const char *name;
	int ret;

	if (!json_is_object(tier))
		return jfail(c, "tiers[%d]: expected an object", t);
	if (jstr(c, tier, "name", "tier", &name))
		return -EINVAL;
	if (!name || strcmp(name, rt->name))
		return jfail(c, "tiers[%d].name: expected \"%s\"", t, rt->name);
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
		ret = j_raid(c, tier, rt);
	if (!ret)
		ret = j_estimates(c, tier, rt);
	return ret ? ret : j_mounts(c, tier, rt);
}

static int j_warnings(struct jctx *c, json_t *doc)
{
	json_t *a = json_object_get(doc, "warnings"), *w;
	struct report_plan *rp = c->rp;
	size_t i;

	if (a && !json_is_array(a))
		return jfail(c, "warnings: expected an array");
	if (!(rp->warnings = rp_alloc(rp, json_array_size(a), sizeof(*rp->warnings))))
		return -ENOMEM;
	json_array_foreach(a, i, w) {
		struct report_warning *o = &rp->warnings[rp->n_warnings++];

		if (!json_is_object(w))
			return jfail(c, "warnings[%zu]: expected an object", i);
		if (jstr(c, w, "device", "warning", &o->device) ||
		    jstr(c, w, "kind", "warning", &o->kind) ||
		    jstr(c, w, "message", "warning", &o->message))
			return -EINVAL;
	}
	return 0;
}

static int j_buy_line(struct jctx *c, json_t *o, size_t i, struct report_buy *b)
{
	json_t *n = json_object_get(o, "count");
	const char *tier = NULL;
	int t;

	if (!json_is_object(o))
		return jfail(c, "buy[%zu]: expected an object", i);
	if (jstr(c, o, "id", "buy", &b->id) || jstr(c, o, "model", "buy", &b->model) ||
	    jstr(c, o, "tier", "buy", &tier) || jnum(c, o, "price", "buy", &b->price) ||
	    jnum(c, o, "cost", "buy", &b->cost))
		return -EINVAL;
	if (!b->id)
		return jfail(c, "buy[%zu].id: expected the id of a catalog entry", i);
	if ((t = tw_tier_find(tier)) >= 0)
		b->tier = tw_tier_names[t];
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
	struct report_plan *rp = c->rp;
	size_t i;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return jfail(c, "buy: expected an array");
	rp->buying = true;
	if (!(rp->buy = rp_alloc(rp, json_array_size(a), sizeof(*rp->buy))))
		return -ENOMEM;
	json_array_foreach(a, i, o) {
		rp->buy[i].price = rp->buy[i].cost = NAN;
		if (j_buy_line(c, o, i, &rp->buy[rp->n_buy++]))
			return -EINVAL;
	}
	return jnum(c, doc, "budget", "plan", &rp->budget);
}

/*
 * A buy plan's copy "optane905p-2": *out = "optane905p" (allocated in rp);
 * another id: *out = NULL.  Returns 0 or -ENOMEM.
 */
static int copy_origin(struct report_plan *rp, const char *id, const char **out)
{
	const char *dash = strrchr(id, '-');
	char *o;

	*out = NULL;
	if (!dash || dash == id || !dash[1] || strspn(dash + 1, "0123456789") != strlen(dash + 1))
		return 0;
	if (!(o = rp_alloc(rp, (size_t)(dash - id) + 1, 1)))
		return -ENOMEM;
	memcpy(o, id, (size_t)(dash - id));
	*out = o;
	return 0;
}

/* Money: whether some device has a price; each bought copy's catalog entry. */
static int j_money(struct jctx *c)
{
	struct report_plan *rp = c->rp;

	rp->priced = rp->buying;
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		struct report_tier *rt = &rp->tiers[t];

		/* without prices a tier's cost is null; an empty tier's is 0 either way */
		rp->priced = rp->priced || (rt->n_devices && !isnan(rt->cost));
		for (size_t i = 0; rp->buying && i < rt->n_devices; i++)
			if (copy_origin(rp, rt->devices[i], &rt->origins[i]))
				return -ENOMEM;
	}
	return 0;
}

/* What a document that is not a plan is, and what --plan takes. */
static int not_a_plan(struct jctx *c, const char *schema)
{
	const char *what = schema && !strncmp(schema, "tierwise.profile/", 17) ?
			   ": a profile (give it as a PROFILE argument)" : "";

	if (!schema)
		return jfail(c, "not a %s document (no \"schema\": \"%s\"); --plan takes what "
			     "`tierwise plan PROFILE... --format json` writes", PLAN_SCHEMA,
			     PLAN_SCHEMA);
	return jfail(c, "not a %s document: its \"schema\" is \"%.64s\"%s; --plan takes what "
		     "`tierwise plan PROFILE... --format json` writes", PLAN_SCHEMA, schema, what);
}

static int j_doc(struct jctx *c, json_t *doc)
{
	json_t *tiers = json_object_get(doc, "tiers"), *ru = json_object_get(doc, "runner_up");
	const char *schema = NULL;
	int ret;

	if (!json_is_object(doc) || jstr(c, doc, "schema", "plan", &schema) || !schema ||
	    strcmp(schema, PLAN_SCHEMA))
		return not_a_plan(c, schema);
	if (!json_is_array(tiers) || json_array_size(tiers) != TW_TIER_COUNT)
		return jfail(c, "tiers: expected an array of the three tiers hot, warm, cold");
	for (int t = 0; t < TW_TIER_COUNT; t++)
		if ((ret = j_tier(c, json_array_get(tiers, (size_t)t), t)))
			return ret;
	ret = jstrv(c, doc, "unassigned", "plan", &c->rp->unassigned, &c->rp->n_unassigned);
	if (!ret)
		ret = jstrv(c, doc, "notes", "plan", &c->rp->notes, &c->rp->n_notes);
	if (!ret)
		ret = jnum(c, doc, "score", "plan", &c->rp->score);
	if (!ret && json_is_object(ru))
		ret = jnum(c, ru, "gap", "runner_up", &c->rp->runner_up_gap);
	if (!ret)
		ret = jnum(c, doc, "cost_total", "plan", &c->rp->cost_total);
	c->rp->exact = json_is_true(json_object_get(doc, "exact"));
	if (!ret)
		ret = j_warnings(c, doc);
	if (!ret)
		ret = j_buy(c, doc);
	return ret ? ret : j_money(c);
}

static bool is_dir(FILE *f)
{
	struct stat st;

	return fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode);
}

int report_plan_from_json(const char *path, struct report_plan **out, char *err, size_t errlen)
{
	struct jctx c = { .rp = NULL, .err = err, .errlen = errlen };
	FILE *f = fopen(path, "r");
	json_error_t jerr;
	int ret;

	*out = NULL;
	if (!f || is_dir(f)) {
		ret = f ? -EISDIR : -errno;
		snprintf(err, errlen, "%s", strerror(-ret));
		if (f)
			fclose(f);
		return ret;
	}
	if (!(c.rp = rp_new())) {
		fclose(f);
		return -ENOMEM;
	}
	c.rp->owned_json = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	c.rp->source = path;
	fclose(f);
	if (!c.rp->owned_json) {
		ret = jfail(&c, "not JSON: %d:%d: %s (--plan takes what `tierwise plan PROFILE... "
			    "--format json` writes)", jerr.line, jerr.column, jerr.text);
		report_plan_free(c.rp);
		return ret;
	}
	ret = j_doc(&c, c.rp->owned_json);
	if (ret) {
		report_plan_free(c.rp);
		return ret;
	}
	*out = c.rp;
	return 0;
}
