/* plan_score.c — what the policies of each tier want (needs, redundancy,
 * writes, data that can be fetched again) and each device's tier score
 * (see plan_priv.h).
 */
#include "plan_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t advisor_policy_need(const struct advisor_ctx *c, const struct model_policy *p)
{
	for (size_t i = 0; i < c->set->n; i++)
		if (c->set->v[i] == p)
			return c->need[i];
	return -1;
}

/* Needs: the policies' need_bytes, overridden by the options. */
int advisor_resolve_needs(struct advisor_ctx *c, char *err, size_t errlen)
{
	c->need = calloc(c->set->n ? c->set->n : 1, sizeof(*c->need));
	c->given = calloc(c->set->n ? c->set->n : 1, sizeof(*c->given));
	if (!c->need || !c->given)
		return -ENOMEM;
	for (size_t i = 0; i < c->set->n; i++)
		c->need[i] = c->set->v[i]->need_bytes;
	for (size_t j = 0; c->opt && j < c->opt->n_needs; j++) {
		const struct advisor_need *nd = &c->opt->needs[j];
		size_t i;

		for (i = 0; i < c->set->n; i++)
			if (!strcmp(c->set->v[i]->name, nd->policy))
				break;
		if (i == c->set->n) {
			snprintf(err, errlen, "--need %s: no policy of that name", nd->policy);
			return -EINVAL;
		}
		c->need[i] = nd->bytes;
		c->given[i] = true;
	}
	return 0;
}

/* Does policy p score a write figure (the workload writes)? */
static bool policy_writes(const struct model_policy *p)
{
	static const char *const prefixes[] = { "seq_write.", "sustained_write.", "mixed_70_30." };

	for (size_t k = 0; k < p->n_metrics; k++)
		for (size_t j = 0; j < ARRAY_SIZE(prefixes); j++)
			if (p->metrics[k].weight > 0 &&
			    !strncmp(p->metrics[k].desc->path, prefixes[j], strlen(prefixes[j])))
				return true;
	return false;
}

/*
 * What the tier's policies want (those with a need other than 0; all of them
 * when none has one: a spare tier holds what they say): the most redundancy
 * any asks, whether all
 * their data can be fetched again, whether any writes; and so how its like
 * devices form an array: striped when none wants redundancy, else mirrored
 * (hot, warm) or with parity (cold).
 */
static void tier_redundancy(const struct advisor_ctx *c, struct advisor_plan_tier *t)
{
	bool any = false;

	for (size_t k = 0; k < t->n_policies; k++)
		any = any || advisor_policy_need(c, t->policies[k]) != 0;
	t->refetchable = true;
	t->redundancy = MODEL_REDUNDANCY_NONE;
	for (size_t k = 0; k < t->n_policies; k++) {
		const struct model_policy *p = t->policies[k];

		if (any && advisor_policy_need(c, p) == 0)	/* not on this server */
			continue;
		t->refetchable = t->refetchable && p->refetchable;
		if (p->redundancy > t->redundancy)
			t->redundancy = p->redundancy;
		t->writes = t->writes || policy_writes(p);
	}
	if (t->redundancy == MODEL_REDUNDANCY_NONE)
		t->rule = ADVISOR_ARRAY_STRIPE;
	else if (advisor_array_rule_of(ADVISOR_ARRAY_BY_TIER, (int)t->tier) == ADVISOR_ARRAY_STRIPE)
		t->rule = ADVISOR_ARRAY_MIRROR;
	else
		t->rule = ADVISOR_ARRAY_BY_TIER;
}

int advisor_collect_policies(struct advisor_ctx *c, struct advisor_plan_tier *t)
{
	const char *name = advisor_tier_name(t->tier);

	t->policies = calloc(c->set->n ? c->set->n : 1, sizeof(*t->policies));
	t->need_of = calloc(c->set->n ? c->set->n : 1, sizeof(*t->need_of));
	t->need_given = calloc(c->set->n ? c->set->n : 1, sizeof(*t->need_given));
	if (!t->policies || !t->need_of || !t->need_given)
		return -ENOMEM;
	t->need_bytes = -1;
	for (size_t i = 0; i < c->set->n; i++) {
		const struct model_policy *p = c->set->v[i];

		if (strcmp(p->tier, name))
			continue;
		if (c->need[i] > 0 && t->n_policies < 64)
			t->sized |= 1ull << t->n_policies;
		t->need_of[t->n_policies] = c->need[i];
		t->need_given[t->n_policies] = c->given[i];
		t->policies[t->n_policies++] = p;
		if (c->need[i] >= 0)
			t->need_bytes = (t->need_bytes < 0 ? 0 : t->need_bytes) + c->need[i];
	}
	tier_redundancy(c, t);
	return 0;
}

/*
 * The tier score of device i: the mean of its policy scores weighted by
 * each policy's need (equal weights when none has a need); NAN when the
 * device fails a hard constraint of any policy of the tier.
 */
int advisor_score_tier(struct advisor_ctx *c, size_t i, struct advisor_plan_tier *t)
{
	struct advisor_plan_device *pd = &c->plan->devs[i];
	double sum = 0.0, wsum = 0.0;

	for (size_t k = 0; k < t->n_policies; k++) {
		const struct model_policy *p = t->policies[k];
		int64_t need = advisor_policy_need(c, p);
		double w = need > 0 ? (double)need : 1.0;
		struct model_score s;

		if (model_score_device(p, pd->p, &s))
			return -ENOMEM;
		if (!s.eligible || isnan(s.score)) {
			if (!pd->why_not[t->tier] &&
			    asprintf(&pd->why_not[t->tier], "%s: %s", p->name,
				     s.n_failed ? s.failed[0].msg : "no weighted metric measured") < 0)
				pd->why_not[t->tier] = NULL;
			model_score_clear(&s);
			pd->tier_score[t->tier] = NAN;
			return 0;
		}
		sum += w * s.score;
		wsum += w;
		model_score_clear(&s);
	}
	pd->tier_score[t->tier] = wsum > 0 ? sum / wsum : NAN;
	return 0;
}
