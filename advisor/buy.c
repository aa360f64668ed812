/* buy.c — tierwise plan --buy: catalog models as stock, and what to buy.
 *
 * Each catalog device with a price per TB and a capacity is a model that can
 * be bought up to max_each times: the plan is made over that many copies of
 * it ("optane905p-1" … "optane905p-8"), the optimiser told what each costs
 * (advisor_opt_input.price), and afterwards the copies in each tier are
 * counted back into lines of what to buy.
 */
#include "plan_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "not for sale (no price per TB or capacity): a, b" */
static int unpriced_note(struct advisor_plan *plan, const struct profile_device *const *devs,
			 size_t n)
{
	char list[512] = "";
	size_t at = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if (isnan(model_device_price(devs[i])) && at < sizeof(list))
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
					       k++ ? ", " : "", devs[i]->id);
	if (!k)
		return 0;
	return tw_strv_addf(&plan->notes, &plan->n_notes,
			     "not for sale here (no price per TB or no capacity): %s", list);
}

int advisor_buy_stock(struct advisor_plan *plan, const struct profile_device *const *devs,
		      size_t n, unsigned max_each, const struct profile_device ***out,
		      size_t *n_out)
{
	size_t m = 0, k = 0;
	const struct profile_device **v;

	*out = NULL;
	*n_out = 0;
	for (size_t i = 0; i < n; i++)
		m += isnan(model_device_price(devs[i])) ? 0 : max_each;
	plan->stock = calloc(m ? m : 1, sizeof(*plan->stock));
	plan->origin = calloc(m ? m : 1, sizeof(*plan->origin));
	v = calloc(m ? m : 1, sizeof(*v));
	if (!plan->stock || !plan->origin || !v) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (isnan(model_device_price(devs[i])))
			continue;
		for (unsigned c = 1; c <= max_each; c++, k++) {
			struct profile_device *s = &plan->stock[k];

			*s = *devs[i];	/* shallow: shares the catalog entry's strings */
			s->drive_id = NULL;	/* each copy a drive of its own */
			if (asprintf(&s->id, "%s-%u", devs[i]->id, c) < 0) {
				s->id = NULL;
				free(v);
				return -ENOMEM;
			}
			plan->n_stock = k + 1;
			plan->origin[k] = devs[i];
			v[k] = s;
		}
	}
	*out = v;
	*n_out = m;
	return unpriced_note(plan, devs, n);
}

void advisor_buy_clear(struct advisor_plan *plan)
{
	for (size_t i = 0; i < plan->n_stock; i++)
		free(plan->stock[i].id);
	free(plan->stock);
	free(plan->origin);
	free(plan->buy);
}

/* The tier's copies counted per catalog model, most first. */
static int tier_lines(struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	size_t first = plan->n_buy;

	for (size_t k = 0; k < t->n_devices; k++) {
		const struct profile_device *o = plan->origin[t->devices[k]];
		size_t j;

		for (j = first; j < plan->n_buy && plan->buy[j].p != o; j++)
			;
		if (j == plan->n_buy) {
			struct advisor_buy *nv = realloc(plan->buy, (plan->n_buy + 1) * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			plan->buy = nv;
			nv[j] = (struct advisor_buy){ .p = o, .tier = (int)t->tier,
						      .price = model_device_price(o) };
			plan->n_buy++;
		}
		plan->buy[j].count++;
		plan->buy[j].cost = plan->buy[j].count * plan->buy[j].price;
	}
	for (size_t i = first + 1; i < plan->n_buy; i++)	/* most bought first */
		for (size_t j = i; j > first && plan->buy[j - 1].count < plan->buy[j].count; j--) {
			struct advisor_buy tmp = plan->buy[j];

			plan->buy[j] = plan->buy[j - 1];
			plan->buy[j - 1] = tmp;
		}
	return 0;
}

/*
 * The tier's leading model against the best cheaper one for the tier: what
 * the difference buys, in the estimates of the tier's policies.
 */
static int versus_note(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	const struct profile_device *lead, *alt = NULL;
	double alt_score = -1.0;
	char what[512] = "";
	size_t at = 0;

	if (!t->n_devices)
		return 0;
	lead = plan->origin[t->devices[0]];
	for (size_t i = 0; i < plan->n_devs; i++) {	/* best cheaper model there */
		const struct profile_device *o = plan->origin[i];
		double s = plan->devs[i].tier_score[t->tier];

		if (isnan(s) || !strcmp(o->model ? o->model : "", lead->model ? lead->model : "") ||
		    !(o->price_per_tb < lead->price_per_tb) || s <= alt_score)
			continue;
		alt = o;
		alt_score = s;
	}
	if (!alt)
		return 0;
	for (size_t k = 0; k < t->n_policies; k++) {
		struct model_score sl, sa;

		if (model_score_device(t->policies[k], lead, &sl))
			return -ENOMEM;
		if (model_score_device(t->policies[k], alt, &sa)) {
			model_score_clear(&sl);
			return -ENOMEM;
		}
		for (size_t j = 0; j < sl.n_est && j < sa.n_est && at < sizeof(what); j++)
			if (!isnan(sl.est[j].value) && !isnan(sa.est[j].value))
				at += (size_t)snprintf(what + at, sizeof(what) - at,
						       "%s%s %.3g %s against %.3g %s", at ? "; " : "",
						       sl.est[j].pe->label ? sl.est[j].pe->label : "estimate",
						       sl.est[j].value, sl.est[j].unit, sa.est[j].value,
						       sa.est[j].unit);
		model_score_clear(&sl);
		model_score_clear(&sa);
	}
	return tw_strv_addf(&t->notes, &t->n_notes,
			     "%s rather than %s, the best cheaper model here (score %.1f against "
			     "%.1f; %.0f against %.0f per TB): %s", lead->id, alt->id,
			     t->scores[0], alt_score, lead->price_per_tb, alt->price_per_tb,
			     at ? what : "no estimate to compare");
}

int advisor_buy_list(struct advisor_plan *plan)
{
	int ret = 0;

	for (int t = 0; t < TW_TIER_COUNT && !ret; t++)
		ret = tier_lines(plan, &plan->tiers[t]);
	for (int t = 0; t < TW_TIER_COUNT && !ret; t++)
		ret = versus_note(plan, &plan->tiers[t]);
	return ret;
}
