/* plan_estimate.c — the estimates of each tier's workloads (a model load,
 * a search, a checkpoint) on what is built: its array, volume or devices
 * (see plan_priv.h).
 */
#include "plan_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Members differing by more than this show their best and worst. */
#define EST_SPREAD 1.2

/*
 * A unit of a tier's storage: its md array (dev -1) or one device outside
 * it; cap its usable bytes, v its value of the estimate being made.
 */
struct unit {
	ptrdiff_t dev;
	double cap, v;
};

/* The tier's units: the array first, then each device not in it. */
static size_t tier_units(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
			 struct unit *u)
{
	size_t n = 0;

	if (t->raid.level != ADVISOR_RAID_NONE)
		u[n++] = (struct unit){ -1, t->raid.capacity_bytes > 0 ?
					(double)t->raid.capacity_bytes : NAN, NAN };
	for (size_t k = 0; k < t->n_devices; k++) {
		size_t d = t->devices[k];

		if (!advisor_in_raid(t, d))
			u[n++] = (struct unit){ (ptrdiff_t)d, advisor_usable(plan, d) / plan->fill, NAN };
	}
	return n;
}

/*
 * The units of u[0..n) that hold policy p's data, into out: the devices it
 * owns (a device holding p alone, plan_opt.c), else every unit no policy
 * owns.  Returns how many.
 */
static size_t policy_units(const struct advisor_plan *plan, const struct model_policy *p,
			   const struct unit *u, size_t n, struct unit *out)
{
	size_t m = 0;

	for (size_t k = 0; out && k < n; k++)
		if (u[k].dev >= 0 && plan->devs[u[k].dev].own == p)
			out[m++] = u[k];
	if (m)
		return m;
	for (size_t k = 0; out && k < n; k++)
		if (u[k].dev < 0 || !plan->devs[u[k].dev].own)
			out[m++] = u[k];
	return m;
}

/*
 * The array as one device for the model: its slowest member's figures (the
 * latency of a read, which one member serves), with the array's stream
 * rates and capacity, and the buffered and fsync rates scaled as its
 * O_DIRECT ones are.
 */
static void array_device(const struct advisor_plan *plan, const struct advisor_raid *r,
			 struct profile_device *out)
{
	const struct profile_device *m = plan->devs[r->members[0]].p;
	double kr, kw;

	for (size_t i = 1; i < r->n; i++) {
		const struct profile_device *x = plan->devs[r->members[i]].p;

		if (x->io[PROFILE_SEQ_READ].mbps < m->io[PROFILE_SEQ_READ].mbps)
			m = x;
	}
	*out = *m;
	kr = r->seq_read_mbps / m->io[PROFILE_SEQ_READ].mbps;
	kw = r->seq_write_mbps / m->io[PROFILE_SEQ_WRITE].mbps;
	out->io[PROFILE_SEQ_READ].mbps = r->seq_read_mbps;
	out->io[PROFILE_SEQ_WRITE].mbps = r->seq_write_mbps;
	out->capacity_bytes = r->capacity_bytes;
	if (isfinite(kr) && kr > 0) {
		out->app.buffered_mbps *= kr;
		out->app.buffered_plan_mbps *= kr;
		out->app.mmap_mbps *= kr;
		out->app.direct_mbps *= kr;
		out->app.inner_mbps *= kr;
	}
	if (isfinite(kw) && kw > 0) {
		out->app.fsync_mbps *= kw;
		out->sustained.mbps *= kw;
	}
}

/* Workload pe on unit u: a device alone, or the array. */
static void unit_est(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
		     const struct model_policy_estimate *pe, const struct unit *u,
		     struct model_workload_est *w)
{
	struct profile_device arr;

	if (u->dev >= 0) {
		model_workload(pe, plan->devs[u->dev].p, w);
		return;
	}
	array_device(plan, &t->raid, &arr);
	model_workload(pe, &arr, w);
}

/* The id a unit goes by: the device's, or the array's name. */
static const char *unit_name(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
			     const struct unit *u)
{
	return u->dev < 0 ? t->raid.name : plan->devs[u->dev].p->id;
}

/* The figures of an estimate that combine (in struct model_workload_est). */
#define EST_FIELDS(w) { &(w)->seconds, &(w)->p50_ms, &(w)->p99_ms, &(w)->qps, &(w)->mbps, \
			&(w)->restore_seconds, &(w)->restore_mbps, &(w)->accelerators }
#define N_EST_FIELDS 8

/*
 * Combine the units' estimates as the tier is built: one unit, its own; a
 * striped volume, n × the slowest's rate for streams, writes and samples
 * (queries: the mean, one read at a time goes to one device); else (a
 * linear volume, separate mounts) a file lives on one member, and which one
 * the filesystem chooses: the slowest member's figures, the ones every file
 * gets at least (its best member shown beside, see spread()).
 */
static void combine(const struct advisor_plan_tier *t, const struct model_policy_estimate *pe,
		    struct unit *u, struct model_workload_est *uw, size_t n,
		    struct model_workload_est *out, const char **layout)
{
	double *o[] = EST_FIELDS(out);
	bool striped = t->volume.n && t->volume.striped && t->volume.n == n;
	bool query = pe->pattern == MODEL_PAT_CHAIN || pe->pattern == MODEL_PAT_BEAM;
	size_t slow = 0;

	*out = uw[0];
	if (n == 1) {
		*layout = u[0].dev < 0 ? advisor_raid_name(t->raid.level) : "device";
		return;
	}
	*layout = striped ? "striped" : t->volume.n == n ? "linear" : "mounts";
	for (size_t k = 1; k < n; k++)	/* the slowest: the largest time */
		if (!(u[k].v <= u[slow].v) && !isnan(u[slow].v))
			slow = k;
	if (!striped) {
		*out = uw[slow];
		if (pe->pattern == MODEL_PAT_SAMPLES)	/* the fewest accelerators */
			for (size_t k = 0; k < n; k++)
				if (uw[k].accelerators < out->accelerators)
					*out = uw[k];
		for (size_t k = 0; k < n; k++)
			if (isnan(u[k].v))
				out->seconds = out->accelerators = NAN;
		return;
	}
	for (size_t f = 0; f < N_EST_FIELDS; f++) {
		double sum = 0.0, worst = -INFINITY, low = INFINITY;

		for (size_t k = 0; k < n; k++) {
			double *x[] = EST_FIELDS(&uw[k]);

			sum += *x[f] / (double)n;
			worst = fmax(worst, *x[f]);
			low = fmin(low, *x[f]);
		}
		if (query) {
			*o[f] = sum;	/* NAN when a unit's is */
		} else {
			/* time: the slowest's ÷ n; rates and accelerators: n × the lowest */
			bool time = o[f] == &out->seconds || o[f] == &out->restore_seconds;

			*o[f] = time ? worst / (double)n : low * (double)n;
		}
	}
	if (pe->pattern == MODEL_PAT_SAMPLES)	/* whole accelerators, of the rate combined */
		out->accelerators = floor(out->mbps / out->need_mbps);
}

/*
 * A striped volume over devices that share a measured bottleneck (the
 * profiles' links): its reads get at most what those devices read together.
 * The share of n × each MB/s the volume's device units can read at once
 * (1: no link binds), and in *g the first link that bound.
 */
static double link_share(const struct advisor_plan *plan, const struct unit *u, size_t n,
			 double each, const struct profile_shared **g)
{
	double total = each * (double)n, capped = total;

	*g = NULL;
	for (size_t i = 0; !isnan(each) && n >= 2 && i < plan->n_links; i++) {
		const struct profile_shared *l = plan->links[i];
		size_t m = 0;

		for (size_t k = 0; k < n; k++)
			for (size_t j = 0; u[k].dev >= 0 && j < l->n_ids; j++)
				m += !strcmp(plan->devs[u[k].dev].p->id, l->ids[j]);
		if (m < 2 || isnan(l->together_mbps) || l->together_mbps >= each * (double)m)
			continue;
		capped -= each * (double)m - l->together_mbps;
		*g = *g ? *g : l;
	}
	return total > 0 ? fmax(capped, 0.0) / total : 1.0;
}

/* The read figures of a striped volume's estimate scaled by its link share
 * f (< 1): streams and samples, a checkpoint's restore; said in how.
 * Whether it applied (not to queries). */
static bool cap_reads(struct model_workload_est *w, const struct model_policy_estimate *pe,
		      double f, const struct profile_shared *g)
{
	size_t at = strlen(w->how);

	if (pe->pattern == MODEL_PAT_STREAM || pe->pattern == MODEL_PAT_SAMPLES) {
		w->mbps *= f;
		w->seconds /= f;
		if (pe->pattern == MODEL_PAT_SAMPLES && w->need_mbps > 0)
			w->accelerators = floor(w->mbps / w->need_mbps);
	} else if (pe->pattern == MODEL_PAT_WRITE && !isnan(w->restore_mbps)) {
		w->restore_mbps *= f;
		w->restore_seconds /= f;
	} else {
		return false;	/* queries: one read at a time on one member */
	}
	snprintf(w->how + at, sizeof(w->how) - at, "%sreads capped to %.0f %%: members of the "
		 "volume share a link that read %.0f MB/s together", at ? "; " : "", f * 100,
		 g->together_mbps);
	return true;
}

/* Best and worst member (a device, or the array as one) when they differ
 * by more than EST_SPREAD. */
static void spread(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
		   const struct unit *u, size_t n, struct advisor_plan_estimate *e)
{
	size_t lo = 0, hi = 0;

	e->best = e->worst = NAN;
	e->best_device = e->worst_device = NULL;
	for (size_t k = 1; k < n; k++) {
		lo = u[k].v < u[lo].v ? k : lo;
		hi = u[k].v > u[hi].v ? k : hi;
	}
	if (n < 2 || isnan(u[lo].v) || isnan(u[hi].v) || !(u[hi].v > u[lo].v * EST_SPREAD))
		return;
	e->best = u[lo].v;
	e->worst = u[hi].v;
	e->best_device = unit_name(plan, t, &u[lo]);
	e->worst_device = unit_name(plan, t, &u[hi]);
}

static int add_estimate(struct advisor_plan *plan, struct advisor_plan_tier *t,
			const struct model_policy *p, size_t j, struct unit *u, size_t n)
{
	struct advisor_plan_estimate *nv = realloc(t->est, (t->n_est + 1) * sizeof(*nv));
	const struct model_policy_estimate *pe = &p->estimates[j];
	struct model_workload_est *uw;

	if (!nv)
		return -ENOMEM;
	t->est = nv;
	nv += t->n_est;
	memset(nv, 0, sizeof(*nv));
	if (!(uw = calloc(n, sizeof(*uw))))
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		unit_est(plan, t, pe, &u[k], &uw[k]);
		u[k].v = model_workload_value(pe, &uw[k], &nv->unit);
	}
	combine(t, pe, u, uw, n, &nv->w, &nv->layout);
	nv->link_share = 1.0;
	nv->link_mbps = NAN;
	if (!strcmp(nv->layout, "striped")) {
		const struct profile_shared *g;
		double each = INFINITY, f;

		for (size_t k = 0; k < n && !isnan(each); k++)	/* the slowest device's read */
			each = u[k].dev < 0 ? NAN :
			       fmin(each, plan->devs[u[k].dev].p->io[PROFILE_SEQ_READ].mbps);
		f = link_share(plan, u, n, each, &g);
		if (g && f < 1.0 && cap_reads(&nv->w, pe, f, g)) {
			nv->link_share = f;
			nv->link_mbps = g->together_mbps;
		}
	}
	free(uw);
	nv->pe = pe;
	nv->value = model_workload_value(pe, &nv->w, &nv->unit);
	if (pe->size_bytes > 0 && t->usable_bytes > 0) {
		nv->w.capacity_bytes = (double)t->usable_bytes;
		nv->w.fits = pe->size_bytes <= t->usable_bytes;
	}
	spread(plan, t, u, n, nv);
	nv->device = n == 1 ? unit_name(plan, t, &u[0]) : t->volume.n == n ? t->volume.vg
		     : advisor_tier_name(t->tier);
	nv->policy = strdup(p->name);
	nv->label = strdup(pe->label ? pe->label : pe->name);
	if (!nv->policy || !nv->label) {
		free(nv->policy);
		free(nv->label);
		return -ENOMEM;
	}
	t->n_est++;
	return 0;
}

/* The tier's estimates, of what is built: its array, volume or devices. */
int advisor_tier_estimates(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	struct unit *u;
	size_t n;
	int ret = 0;

	if (!t->n_devices)
		return 0;
	u = calloc(t->n_devices + 1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	n = tier_units(plan, t, u);
	for (size_t k = 0; k < t->n_policies && !ret; k++) {
		struct unit *pu = calloc(n + 1, sizeof(*pu));
		size_t m = policy_units(plan, t->policies[k], u, n, pu);

		if (!pu)
			ret = -ENOMEM;
		for (size_t j = 0; j < t->policies[k]->n_estimates && !ret; j++)
			ret = add_estimate(plan, t, t->policies[k], j, pu, m);
		free(pu);
	}
	free(u);
	return ret;
}
