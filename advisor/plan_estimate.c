/* plan_estimate.c — the estimates of each tier's policies (a model load,
 * a search, a backup) on what is built: its array, volume or devices
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

/* Estimate j of policy p on device d alone: NAN when not measured. */
static double dev_value(const struct model_policy *p, const struct profile_device *d, size_t j,
			int *err)
{
	struct model_score s;
	double v = NAN;

	if (model_score_device(p, d, &s)) {
		*err = -ENOMEM;
		return NAN;
	}
	if (j < s.n_est)
		v = s.est[j].value;
	model_score_clear(&s);
	return v;
}

/* The array's value: size ÷ its rate for loads and backups; its first
 * member's for searches (one read at a time: a member's latency). */
static double array_value(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
			  const struct model_policy *p, size_t j, int *err)
{
	const struct model_policy_estimate *pe = &p->estimates[j];
	const struct advisor_raid *r = &t->raid;

	if (pe->kind == MODEL_EST_LOAD)
		return pe->size_gb * 1000.0 / r->seq_read_mbps;
	if (pe->kind == MODEL_EST_BACKUP)
		return pe->size_tb * 1e6 / r->seq_write_mbps / 3600.0;
	return dev_value(p, plan->devs[r->members[0]].p, j, err);
}

/* The id a unit goes by: the device's, or the array's name. */
static const char *unit_name(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
			     const struct unit *u)
{
	return u->dev < 0 ? t->raid.name : plan->devs[u->dev].p->id;
}

/*
 * Combine the units' values as the tier is built: one unit, its own; a
 * striped volume, n × the slowest for streams (its time ÷ n) and the mean
 * for searches; else (a linear volume, separate mounts) each unit by its
 * share of the capacity, where uniform reads and files land.
 */
static double combine(const struct advisor_plan_tier *t, const struct unit *u, size_t n,
		      enum model_estimate_kind kind, const char **layout)
{
	double sum = 0.0, cap = 0.0, worst = 0.0;

	if (n == 1) {
		*layout = u[0].dev < 0 ? advisor_raid_name(t->raid.level) : "device";
		return u[0].v;
	}
	for (size_t k = 0; k < n; k++) {
		if (isnan(u[k].v) || isnan(u[k].cap))
			return NAN;
		worst = fmax(worst, u[k].v);
		sum += u[k].v;
		cap += u[k].cap;
	}
	if (t->volume.n && t->volume.striped && t->volume.n == n) {
		*layout = "striped";
		return kind == MODEL_EST_SEARCH ? sum / (double)n : worst / (double)n;
	}
	*layout = t->volume.n == n ? "linear" : "mounts";
	sum = 0.0;
	for (size_t k = 0; k < n; k++)
		sum += u[k].v * u[k].cap / cap;
	return sum;
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
	int err = 0;

	if (!nv)
		return -ENOMEM;
	t->est = nv;
	nv += t->n_est;
	memset(nv, 0, sizeof(*nv));
	for (size_t k = 0; k < n && !err; k++)
		u[k].v = u[k].dev < 0 ? array_value(plan, t, p, j, &err)
				      : dev_value(p, plan->devs[u[k].dev].p, j, &err);
	if (err)
		return err;
	nv->value = combine(t, u, n, pe->kind, &nv->layout);
	spread(plan, t, u, n, nv);
	nv->device = n == 1 ? unit_name(plan, t, &u[0]) : t->volume.n == n ? t->volume.vg
		     : advisor_tier_name(t->tier);
	nv->unit = pe->kind == MODEL_EST_BACKUP ? "h" : "s";
	nv->policy = strdup(p->name);
	nv->label = strdup(pe->label ? pe->label : model_estimate_kind_name(pe->kind));
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
	for (size_t k = 0; k < t->n_policies && !ret; k++)
		for (size_t j = 0; j < t->policies[k]->n_estimates && !ret; j++)
			ret = add_estimate(plan, t, t->policies[k], j, u, n);
	free(u);
	return ret;
}
