/* render_report_plan.c — the plan as the report shows it, from the advisor
 * run in-process or from a tierwise.plan/1 file (--plan, read by the
 * advisor's advisor_plan_file_read()): one struct for the renderer either way.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "plan_file.h"
#include "report.h"

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
	advisor_plan_file_free(rp->owned_json);
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
		const struct advisor_file_tier *rt = &rp->tiers[t];

		for (size_t i = 0; i < rt->n_devices; i++)	/* a copy: its catalog entry */
			fit(m, rp->origins[t][i] ? rp->origins[t][i] : rt->devices[i]);
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
		     const struct advisor_plan_tier *at, struct advisor_file_tier *rt,
		     const char ***origins)
{
	rt->policies = rp_alloc(rp, at->n_policies, sizeof(*rt->policies));
	rt->devices = rp_alloc(rp, at->n_devices, sizeof(*rt->devices));
	*origins = rp_alloc(rp, at->n_devices, sizeof(**origins));
	rt->scores = rp_alloc(rp, at->n_devices, sizeof(*rt->scores));
	rt->notes = strv(rp, at->notes, at->n_notes);
	if (!rt->policies || !rt->devices || !*origins || !rt->scores || !rt->notes)
		return -ENOMEM;
	rt->n_policies = at->n_policies;
	for (size_t k = 0; k < at->n_policies; k++)
		rt->policies[k] = at->policies[k]->name;
	rt->n_devices = at->n_devices;
	for (size_t i = 0; i < at->n_devices; i++) {
		rt->devices[i] = adv_id(plan, at->devices[i]);
		if (plan->buying && plan->origin)
			(*origins)[i] = plan->origin[at->devices[i]]->id;
		rt->scores[i] = at->scores[i];
	}
	rt->n_notes = at->n_notes;
	return 0;
}

static int adv_est_mounts(struct report_plan *rp, const struct advisor_plan_tier *at,
			  struct advisor_file_tier *rt)
{
	rt->est = rp_alloc(rp, at->n_est, sizeof(*rt->est));
	rt->mounts = rp_alloc(rp, at->n_mounts, sizeof(*rt->mounts));
	if (!rt->est || !rt->mounts)
		return -ENOMEM;
	rt->n_est = at->n_est;
	for (size_t i = 0; i < at->n_est; i++)
		rt->est[i] = (struct advisor_file_est){ .policy = at->est[i].policy,
			.label = at->est[i].label, .unit = at->est[i].unit,
			.device = at->est[i].device, .value = at->est[i].value,
			.workload = at->est[i].pe->name,
			.pattern = model_pattern_name(at->est[i].pe->pattern),
			.seconds = at->est[i].w.seconds, .p50_ms = at->est[i].w.p50_ms,
			.p99_ms = at->est[i].w.p99_ms, .qps = at->est[i].w.qps,
			.mbps = at->est[i].w.mbps, .accelerators = at->est[i].w.accelerators,
			.capacity_bytes = at->est[i].w.capacity_bytes, .size_bytes = NAN,
			.sample_size_bytes = NAN, .compute_s = NAN, .utilization = NAN,
			.fits = at->est[i].w.fits };
	rt->n_mounts = at->n_mounts;
	for (size_t i = 0; i < at->n_mounts; i++) {
		const struct advisor_mount *m = &at->mounts[i];

		rt->mounts[i] = (struct advisor_file_mount){ m->point, m->fs, m->options, m->source,
						       m->why, m->reuse, m->directory };
	}
	return 0;
}

/* The parts of the tier's need above 0, the largest first (as the plan's
 * JSON lists them). */
static int adv_needs(struct report_plan *rp, const struct advisor_plan_tier *at,
		     struct advisor_file_tier *rt)
{
	size_t idx[64], n = advisor_need_order(at, idx, 64);

	if (!n)
		return 0;
	rt->needs = rp_alloc(rp, n, sizeof(*rt->needs));
	if (!rt->needs)
		return -ENOMEM;
	rt->n_needs = n;
	for (size_t i = 0; i < n; i++)
		rt->needs[i] = (struct advisor_file_need){ at->policies[idx[i]]->name,
							   at->need_of[idx[i]],
							   !at->need_given[idx[i]] };
	return 0;
}

static int adv_tier(struct report_plan *rp, const struct advisor_plan *plan, int t)
{
	const struct advisor_plan_tier *at = &plan->tiers[t];
	struct advisor_file_tier *rt = &rp->tiers[t];

	rt->score = at->score;
	rt->cost = at->cost;
	rt->cost_per_usable_tb = at->cost_per_usable_tb;
	rt->need_bytes = at->need_bytes;
	rt->usable_bytes = at->usable_bytes;
	if (adv_needs(rp, at, rt))
		return -ENOMEM;
	rt->shared_with = at->shared ? adv_id(plan, (size_t)at->shared_dev) : NULL;
	if (at->raid.level != ADVISOR_RAID_NONE) {
		rt->raid_level = advisor_raid_name(at->raid.level);
		rt->raid_name = at->raid.name;
		rt->raid_tradeoff = at->raid.tradeoff;
		rt->raid_read_mbps = at->raid.seq_read_mbps;
	}
	if (adv_lists(rp, plan, at, rt, &rp->origins[t]))
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

		rp->warnings[i] = (struct advisor_file_warning){
			w->dev >= 0 ? adv_id(plan, (size_t)w->dev) : NULL, w->kind, w->message };
	}
	rp->n_notes = plan->n_notes;
	rp->priced = plan->priced || plan->buying;
	rp->cost_total = plan->cost_total;
	rp->score = plan->score;
	rp->exact = plan->exact;
	rp->runner_up_gap = plan->has_runner_up && !plan->runner_up_covers_less ? plan->gap : NAN;
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

		rp->buy[i] = (struct advisor_file_buy){ b->p->id, b->p->model, advisor_tier_name(b->tier),
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

/* ---- from a tierwise.plan/1 file (advisor_plan_file_read()) ---- */

/* Tier ft of the file into *rt, its arrays shared; *origins made for a buy
 * plan's copies (money()).  Returns 0 or -ENOMEM. */
static int file_tier(struct report_plan *rp, const struct advisor_file_tier *ft,
		     struct advisor_file_tier *rt, const char ***origins)
{
	*rt = *ft;
	*origins = rp_alloc(rp, ft->n_devices, sizeof(**origins));
	return *origins ? 0 : -ENOMEM;
}

/* The plan-wide parts of the file into rp. */
static void file_plan(struct report_plan *rp, const struct advisor_plan_file *f)
{
	rp->unassigned = f->unassigned;
	rp->n_unassigned = f->n_unassigned;
	rp->notes = f->notes;
	rp->n_notes = f->n_notes;
	rp->score = f->score;
	rp->runner_up_gap = f->runner_up_gap;
	rp->cost_total = f->cost_total;
	rp->exact = f->exact;
	rp->buying = f->buying;
	rp->budget = f->budget;
	rp->warnings = f->warnings;
	rp->n_warnings = f->n_warnings;
	rp->buy = f->buy;
	rp->n_buy = f->n_buy;
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
static int money(struct report_plan *rp)
{

	rp->priced = rp->buying;
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		struct advisor_file_tier *rt = &rp->tiers[t];

		/* without prices a tier's cost is null; an empty tier's is 0 either way */
		rp->priced = rp->priced || (rt->n_devices && !isnan(rt->cost));
		for (size_t i = 0; rp->buying && i < rt->n_devices; i++)
			if (copy_origin(rp, rt->devices[i], &rp->origins[t][i]))
				return -ENOMEM;
	}
	return 0;
}

int report_plan_from_json(const char *path, struct report_plan **out, char *err, size_t errlen)
{
	struct advisor_plan_file *f;
	struct report_plan *rp;
	int ret;

	*out = NULL;
	ret = advisor_plan_file_read(path, "--plan takes what `tierwise plan PROFILE... --format "
				     "json` writes", &f, err, errlen);
	if (ret)
		return ret;
	if (!(rp = rp_new())) {
		advisor_plan_file_free(f);
		return -ENOMEM;
	}
	rp->owned_json = f;
	rp->source = path;
	file_plan(rp, f);
	for (int t = 0; t < TW_TIER_COUNT && !ret; t++)
		ret = file_tier(rp, &f->tiers[t], &rp->tiers[t], &rp->origins[t]);
	if (!ret)
		ret = money(rp);
	if (ret) {
		report_plan_free(rp);
		return ret;
	}
	*out = rp;
	return 0;
}
