/* render_plan.c — the plan as text (one screen), Markdown and
 * tierwise.plan/1 JSON.  fstab, udev and script live in their own files.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "render_plan.h"
#include "render_workload.h"
#include "tw_util.h"

static const char *dev_id(const struct advisor_plan *plan, size_t i)
{
	return plan->devs[i].p->id;
}

static void bytes_str(char *buf, size_t len, double b)
{
	tw_fmt_bytes(buf, len, b, TW_BYTES_DECIMAL);
}

/* "an 18 GB model: 5.1 s on tw-models (linear: each member by its share of
 * the capacity; 2.9 s on pm9a1-1t, 9.7 s on biwin1t)" */
static void est_str(char *buf, size_t len, const struct advisor_plan_estimate *e)
{
	char v[160], b[48], w[48], how[200] = "", set[200];
	size_t at;

	render_workload_text(v, sizeof(v), e->pe, &e->w);
	render_workload_settings(set, sizeof(set), e->pe);
	at = (size_t)snprintf(buf, len, "%s: %s on %s [assumes %s]", e->label, v, e->device, set);
	if (e->layout && !strcmp(e->layout, "linear"))
		snprintf(how, sizeof(how), "linear volume: a file lives on one member, the slowest assumed");
	else if (e->layout && !strcmp(e->layout, "striped") && e->link_share < 1.0)
		snprintf(how, sizeof(how), "striped: the slowest member's pace on every stripe, "
			 "reads capped to %.0f %%: members share a link that read %.0f MB/s "
			 "together", e->link_share * 100, e->link_mbps);
	else if (e->layout && !strcmp(e->layout, "striped"))
		snprintf(how, sizeof(how), "striped: the slowest member's pace on every stripe");
	else if (e->layout && !strcmp(e->layout, "mounts"))
		snprintf(how, sizeof(how), "separate mounts: the slowest assumed");
	if (!isnan(e->best) && e->best_device) {
		render_estimate(b, sizeof(b), e->best, e->unit);
		render_estimate(w, sizeof(w), e->worst, e->unit);
		if (at < len)
			snprintf(buf + at, len - at, " (%s%s%s on %s, %s on %s)", how, how[0] ? "; " : "",
				 b, e->best_device, w, e->worst_device);
	} else if (how[0] && at < len) {
		snprintf(buf + at, len - at, " (%s)", how);
	}
}

static const char *policy_list(const struct advisor_plan_tier *t, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < t->n_policies && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", k ? ", " : "",
				       t->policies[k]->name);
	return buf;
}

/* A tier's need and its parts, defaults marked: "900 GB = vector-db 700 GB
 * + logs-metadata 200 GB (default)", "12.0 TB (archive, default)"; the
 * total alone when no policy has a need above 0. */
static void need_str(char *buf, size_t len, const struct advisor_plan_tier *t)
{
	size_t idx[64], n = advisor_need_order(t, idx, 64), at;
	char b[32];

	bytes_str(buf, len, (double)t->need_bytes);
	at = strlen(buf);
	if (n == 1) {
		snprintf(buf + at, len - at, " (%s%s)", t->policies[idx[0]]->name,
			 t->need_given[idx[0]] ? "" : ", default");
		return;
	}
	for (size_t i = 0; i < n && at < len; i++) {
		bytes_str(b, sizeof(b), (double)t->need_of[idx[i]]);
		at += (size_t)snprintf(buf + at, len - at, "%s%s %s%s", i ? " + " : " = ",
				       t->policies[idx[i]]->name, b,
				       t->need_given[idx[i]] ? "" : " (default)");
	}
}

/* ---- text ---- */

/* One mount; its reason only when it differs from the previous one's. */
static void text_mount(FILE *out, const struct advisor_mount *m,
		       const struct advisor_mount *prev, const char *ind)
{
	fprintf(out, "%smount %s  %s  %s  (%s%s)\n", ind, m->point, m->fs, m->options,
		m->directory ? "directory on " : m->reuse ? "existing filesystem on " : "new on ",
		m->source);
	if (m->why && !(prev && prev->why && !strcmp(prev->why, m->why)))
		fprintf(out, "%s  %s\n", ind, m->why);
}

static void text_raid(FILE *out, const struct advisor_plan *plan, const struct advisor_raid *r)
{
	char rd[32], cap[32];

	render_value(rd, sizeof(rd), r->seq_read_mbps, NULL);
	bytes_str(cap, sizeof(cap), (double)r->capacity_bytes);
	fprintf(out, "  array %s: %s of", r->name, advisor_raid_name(r->level));
	for (size_t i = 0; i < r->n; i++)
		fprintf(out, " %s", dev_id(plan, r->members[i]));
	fprintf(out, " — %s, sequential read ≈ %s MB/s\n", cap, rd);
	fprintf(out, "    %s\n", r->tradeoff);
}

/* "; cost 960 (1,250 per usable TB)", "; cost unknown (2 devices without a
 * price per TB)", or "" when no device of the plan has a price. */
static void cost_str(char *buf, size_t len, const struct advisor_plan *plan,
		     const struct advisor_plan_tier *t)
{
	char c[32], per[32];

	buf[0] = '\0';
	if (!plan->priced || !t->n_devices)
		return;
	if (isnan(t->cost)) {
		snprintf(buf, len, "; cost unknown (%zu device%s without a price per TB)",
			 t->n_unpriced, t->n_unpriced == 1 ? "" : "s");
		return;
	}
	render_value(c, sizeof(c), t->cost, NULL);
	render_value(per, sizeof(per), t->cost_per_usable_tb, NULL);
	snprintf(buf, len, "; cost %s (%s per usable TB)", c, per);
}

/* "Cost: 3,210 in all." or "Cost: unknown …" (nothing without prices). */
static void cost_total_str(char *buf, size_t len, const struct advisor_plan *plan)
{
	char c[32];

	buf[0] = '\0';
	if (!plan->priced)
		return;
	if (isnan(plan->cost_total)) {
		snprintf(buf, len, "Cost: unknown: a device in a tier has no price per TB "
			 "(the profile's price_per_tb, or --prices FILE)");
		return;
	}
	render_value(c, sizeof(c), plan->cost_total, NULL);
	snprintf(buf, len, "Cost: %s in all (price per TB × capacity of each device in a tier)", c);
}

/* "buy 3 × Samsung PM9A1 1TB (pm9a1-1t) at 92 = 276" per line of the tier. */
static void buy_lines(FILE *out, const struct advisor_plan *plan, const struct advisor_plan_tier *t,
		      const char *prefix)
{
	for (size_t i = 0; i < plan->n_buy; i++) {
		const struct advisor_buy *b = &plan->buy[i];
		char each[32], cost[32];

		if (b->tier != (int)t->tier)
			continue;
		render_value(each, sizeof(each), b->price, NULL);
		render_value(cost, sizeof(cost), b->cost, NULL);
		fprintf(out, "%sbuy %u × %s (%s) at %s = %s\n", prefix, b->count,
			b->p->model ? b->p->model : b->p->id, b->p->id, each, cost);
	}
}

/* Devices to buy in all (Σ counts of the buy lines). */
static unsigned buy_count(const struct advisor_plan *plan)
{
	unsigned n = 0;

	for (size_t i = 0; i < plan->n_buy; i++)
		n += plan->buy[i].count;
	return n;
}

/*
 * The one shopping list: per catalog model, over every tier, the count,
 * the unit price and the total, then the sum.  md: a table.  Nothing when
 * the plan buys nothing.
 */
static void shopping_list(FILE *out, const struct advisor_plan *plan, bool md)
{
	double sum = 0.0;
	char v[32], w[32];

	if (!plan->buying)
		return;
	fprintf(out, md ? "## Shopping list\n\n| count | model | catalog id | unit price | total | tiers |\n"
			  "|---:|---|---|---:|---:|---|\n" : "Shopping list:\n");
	for (size_t i = 0; i < plan->n_buy; i++) {
		const struct advisor_buy *b = &plan->buy[i];
		unsigned count = 0;
		double cost = 0.0;
		char tiers[64] = "";
		size_t at = 0;
		bool first = true;

		for (size_t j = 0; j < i && first; j++)	/* each model once */
			first = plan->buy[j].p != b->p;
		if (!first)
			continue;
		for (size_t j = i; j < plan->n_buy; j++)
			if (plan->buy[j].p == b->p) {
				count += plan->buy[j].count;
				cost += plan->buy[j].cost;
				if (at < sizeof(tiers))
					at += (size_t)snprintf(tiers + at, sizeof(tiers) - at, "%s%s",
							       at ? ", " : "",
							       advisor_tier_name(plan->buy[j].tier));
			}
		sum += cost;
		render_value(v, sizeof(v), b->price, NULL);
		render_value(w, sizeof(w), cost, NULL);
		fprintf(out, md ? "| %u | %s | %s | %s | %s | %s |\n" : "  %u × %s (%s) at %s = %s  (%s)\n",
			count, b->p->model ? b->p->model : b->p->id, b->p->id, v, w, tiers);
	}
	render_value(w, sizeof(w), sum, NULL);
	if (md)
		fprintf(out, "| **%u** | **in all** | | | **%s** | |\n\n", buy_count(plan), w);
	else
		fprintf(out, "  %u device%s to buy, %s in all\n\n", buy_count(plan),
			buy_count(plan) == 1 ? "" : "s", w);
}

/* The PV of unit k: a device id, or the array's name. */
static const char *pv_name(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
			   size_t k)
{
	return t->volume.pv[k] < 0 ? t->raid.name : dev_id(plan, (size_t)t->volume.pv[k]);
}

static void text_volume(FILE *out, const struct advisor_plan *plan,
			const struct advisor_plan_tier *t)
{
	char cap[32];

	if (!t->volume.n)
		return;
	bytes_str(cap, sizeof(cap), (double)t->volume.capacity_bytes);
	fprintf(out, "  volume %s/%s: %s of", t->volume.vg, t->volume.lv,
		t->volume.striped ? "striped" : "linear");
	for (size_t k = 0; k < t->volume.n; k++)
		fprintf(out, " %s", pv_name(plan, t, k));
	fprintf(out, " — %s (LVM)\n", cap);
}

static void text_tier(FILE *out, const struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	char pol[256], need[256], use[32], e[640], cost[128];
	int idw = 14;

	need_str(need, sizeof(need), t);
	bytes_str(use, sizeof(use), (double)t->usable_bytes);
	cost_str(cost, sizeof(cost), plan, t);
	fprintf(out, "%-5s %s — need %s, usable %s, score %.1f%s\n",
		advisor_tier_name(t->tier), policy_list(t, pol, sizeof(pol)), need, use, t->score,
		cost);
	for (size_t i = 0; i < t->n_devices; i++)	/* the widest id sets the column */
		if ((int)strlen(plan->devs[t->devices[i]].p->id) > idw)
			idw = (int)strlen(plan->devs[t->devices[i]].p->id);
	for (size_t i = 0; i < t->n_devices; i++) {
		const struct profile_device *p = plan->devs[t->devices[i]].p;

		fputs("  ", out);
		render_pad(out, p->id, idw);
		fprintf(out, " %-32s score %5.1f", p->model ? p->model : "-", t->scores[i]);
		if (plan->devs[t->devices[i]].own)
			fprintf(out, "  (%s alone)", plan->devs[t->devices[i]].own->name);
		fputc('\n', out);
	}
	buy_lines(out, plan, t, "  ");
	if (t->raid.level != ADVISOR_RAID_NONE)
		text_raid(out, plan, &t->raid);
	text_volume(out, plan, t);
	for (size_t i = 0; i < t->n_est; i++) {
		est_str(e, sizeof(e), &t->est[i]);
		fprintf(out, "  %s\n", e);
	}
	for (size_t i = 0; i < t->n_mounts; i++)
		text_mount(out, &t->mounts[i], i ? &t->mounts[i - 1] : NULL, "  ");
	for (size_t i = 0; i < t->n_notes; i++)
		fprintf(out, "  note: %s\n", t->notes[i]);
	fputc('\n', out);
}

/* "optane905p hot → warm, pm9a1-1t warm → none" */
static void runner_changes(FILE *out, const struct advisor_plan *plan)
{
	bool first = true;

	for (size_t i = 0; i < plan->n_devs; i++) {
		int a = plan->devs[i].tier, b = plan->runner_up[i];

		if (a == b)
			continue;
		fprintf(out, "%s%s %s → %s", first ? "" : ", ", dev_id(plan, i),
			a < 0 ? "none" : advisor_tier_name(a), b < 0 ? "none" : advisor_tier_name(b));
		first = false;
	}
}

/* The devices the plan leaves out, each with the tier it would fit best:
 * a line in text, a section in md. */
static void unassigned(FILE *out, const struct advisor_plan *plan, bool md)
{
	if (!plan->n_unassigned)
		return;
	if (md)
		fprintf(out, "## Not in the plan (%zu)\n\nSpare capacity; (tier score) is where each "
			"would fit best: ", plan->n_unassigned);
	else
		fprintf(out, "Not in the plan (%zu): ", plan->n_unassigned);
	for (size_t k = 0; k < plan->n_unassigned; k++) {
		const struct advisor_plan_device *pd = &plan->devs[plan->unassigned[k]];

		fprintf(out, md ? "%s`%s`" : "%s%s", k ? ", " : "", pd->p->id);
		if (pd->best_tier >= 0)
			fprintf(out, " (%s %.0f)", advisor_tier_name(pd->best_tier),
				pd->tier_score[pd->best_tier]);
		else
			fprintf(out, " (%s)", pd->cls && !pd->named ? pd->cls :
				pd->excluded ? "holds data" : "no tier");
	}
	fputs(md ? ".\n\n" : "\n  spare capacity: (tier score) is where each would fit best\n\n", out);
}

/* The header's word on devices moved after the optimum to make a mirror. */
static const char *moved(const struct advisor_plan *plan)
{
	return !plan->mirror_moves ? "" : plan->mirror_moves == 1 ?
	       "; then 1 device moved to make a mirror, see the notes" :
	       "; then devices moved to make mirrors, see the notes";
}

/* "Runner-up: score S (G below): " (md: bold, "S, G below"), or, when it
 * covers less of the needs, "… score S, but it covers less of the needs: ". */
static void runner_head(FILE *out, const struct advisor_plan *plan, bool md)
{
	fprintf(out, md ? "**Runner-up**: score %.1f" : "Runner-up: score %.1f",
		plan->runner_up_score);
	if (plan->runner_up_covers_less)
		fputs(", but it covers less of the needs: ", out);
	else
		fprintf(out, md ? ", %.1f below: " : " (%.1f below): ", plan->gap);
}

static int text_print(FILE *out, const struct advisor_plan *plan)
{
	if (plan->buying)	/* the stock is no machine: say what is bought */
		fprintf(out, "tierwise plan: %u device%s to buy", buy_count(plan),
			buy_count(plan) == 1 ? "" : "s");
	else
		fprintf(out, "tierwise plan: %zu devices", plan->n_devs);
	fprintf(out, "; %u of %d needs met; total score %.1f (%s, "
		"%lu nodes searched%s)\n(sizes in decimal units: GB = 10^9, TB = 10^12 bytes)\n\n",
		plan->needs_met, plan->n_needs, plan->score,
		plan->exact ? "proven optimum" : "best found", plan->nodes, moved(plan));
	for (int t = 0; t < TW_TIER_COUNT; t++)
		text_tier(out, plan, &plan->tiers[t]);
	if (plan->has_runner_up) {
		runner_head(out, plan, false);
		runner_changes(out, plan);
		fputs(plan->gap < 1.0 && !plan->runner_up_covers_less ?
		      "  — a near tie: either is sound\n\n" : "\n\n", out);
	}
	unassigned(out, plan, false);
	shopping_list(out, plan, false);
	{
		char cost[160];

		cost_total_str(cost, sizeof(cost), plan);
		if (cost[0])
			fprintf(out, "%s\n\n", cost);
	}
	if (plan->n_warnings)
		fputs("Warnings:\n", out);
	for (size_t i = 0; i < plan->n_warnings; i++)
		fprintf(out, "  %-16s %s\n", plan->warnings[i].kind, plan->warnings[i].message);
	for (size_t i = 0; i < plan->n_notes; i++)
		fprintf(out, "note: %s\n", plan->notes[i]);
	fputs("\nNext: tierwise plan PROFILE... --format fstab (fstab lines), --format udev\n"
	      "(scheduler and read-ahead rules), --format script > plan.sh; bash plan.sh\n"
	      "shows what it would do, bash plan.sh --apply does it.  Enable fstrim.timer\n"
	      "rather than `discard`.\n", out);
	return 0;
}

/*
 * Run a text renderer into memory, then copy it to out with every control
 * character but newline and tab shown as '?': ids, models and labels come
 * from files and must not drive the terminal (an ESC sequence in a model
 * name).  Returns the renderer's result, or -ENOMEM.
 */
static int print_clean(FILE *out, const struct advisor_plan *plan,
		       int (*fn)(FILE *, const struct advisor_plan *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem)
		return -ENOMEM;
	ret = fn(mem, plan);
	if (fclose(mem)) {
		free(buf);
		return -ENOMEM;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		fputc((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? '?' : c, out);
	}
	free(buf);
	return ret;
}

static int text_print_clean(FILE *out, const struct advisor_plan *plan)
{
	return print_clean(out, plan, text_print);
}

const struct render_plan_ops render_plan_text = { .name = "text", .print = text_print_clean };

/* ---- Markdown ---- */

static void md_tier(FILE *out, const struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	char pol[256], need[256], use[32], e[640], cost[128], rd[32];

	need_str(need, sizeof(need), t);
	bytes_str(use, sizeof(use), (double)t->usable_bytes);
	cost_str(cost, sizeof(cost), plan, t);
	fprintf(out, "## %s — %s\n\nNeed %s, usable %s, tier score %.1f%s.\n\n",
		advisor_tier_name(t->tier), policy_list(t, pol, sizeof(pol)), need, use, t->score,
		cost);
	if (t->n_devices)
		fputs("| device | model | score |\n|---|---|---|\n", out);
	for (size_t i = 0; i < t->n_devices; i++) {
		const struct profile_device *p = plan->devs[t->devices[i]].p;

		fprintf(out, "| %s | %s | %.1f |\n", p->id, p->model ? p->model : "-", t->scores[i]);
	}
	if (plan->buying) {
		fputc('\n', out);
		buy_lines(out, plan, t, "- ");
	}
	if (t->volume.n)
		fprintf(out, "\n**Volume** `%s/%s`: %s LVM volume over %zu devices (%s).\n",
			t->volume.vg, t->volume.lv, t->volume.striped ? "a striped" : "a linear",
			t->volume.n, t->volume.why);
	if (t->raid.level != ADVISOR_RAID_NONE) {
		render_value(rd, sizeof(rd), t->raid.seq_read_mbps, NULL);
		fprintf(out, "\n**Array** `%s`: %s of %zu devices, sequential read ≈ %s MB/s "
			"(%s). %s.\n", t->raid.name, advisor_raid_name(t->raid.level), t->raid.n,
			rd, t->raid.basis, t->raid.tradeoff);
	}
	fputc('\n', out);
	for (size_t i = 0; i < t->n_est; i++) {
		est_str(e, sizeof(e), &t->est[i]);
		fprintf(out, "- %s\n", e);
	}
	for (size_t i = 0; i < t->n_mounts; i++)
		fprintf(out, "- mount `%s` %s `%s` on `%s`%s: %s\n", t->mounts[i].point,
			t->mounts[i].fs, t->mounts[i].options, t->mounts[i].source,
			t->mounts[i].reuse ? " (existing)" : t->mounts[i].directory ? " (directory)" : "",
			t->mounts[i].why ? t->mounts[i].why : "");
	for (size_t i = 0; i < t->n_notes; i++)
		fprintf(out, "- note: %s\n", t->notes[i]);
	fputc('\n', out);
}

static int md_print(FILE *out, const struct advisor_plan *plan)
{
	if (plan->buying)
		fprintf(out, "# tierwise plan\n\n%u devices to buy", buy_count(plan));
	else
		fprintf(out, "# tierwise plan\n\n%zu devices", plan->n_devs);
	fprintf(out, "; %u of %d needs met; total score %.1f (%s, %lu nodes searched%s).  "
		"Sizes in decimal units: GB = 10^9, TB = 10^12 bytes.\n\n",
		plan->needs_met, plan->n_needs, plan->score,
		plan->exact ? "proven optimum" : "best found", plan->nodes, moved(plan));
	for (int t = 0; t < TW_TIER_COUNT; t++)
		md_tier(out, plan, &plan->tiers[t]);
	if (plan->has_runner_up) {
		runner_head(out, plan, true);
		runner_changes(out, plan);
		fputs(".\n\n", out);
	}
	unassigned(out, plan, true);
	{
		char cost[160];

		cost_total_str(cost, sizeof(cost), plan);
		if (cost[0])
			fprintf(out, "**%s**\n\n", cost);
	}
	shopping_list(out, plan, true);
	if (plan->n_warnings)
		fputs("## Warnings\n\n| device | kind | message |\n|---|---|---|\n", out);
	for (size_t i = 0; i < plan->n_warnings; i++)
		fprintf(out, "| %s | %s | %s |\n",
			plan->warnings[i].dev >= 0 ? dev_id(plan, (size_t)plan->warnings[i].dev) : "-",
			plan->warnings[i].kind, plan->warnings[i].message);
	return 0;
}

static int md_print_clean(FILE *out, const struct advisor_plan *plan)
{
	return print_clean(out, plan, md_print);
}

const struct render_plan_ops render_plan_md = { .name = "md", .print = md_print_clean };

/* ---- JSON (tierwise.plan/1) ---- */

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *ids(const struct advisor_plan *plan, const size_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(dev_id(plan, v[i])));
	return a;
}

static json_t *json_raid(const struct advisor_plan *plan, const struct advisor_raid *r)
{
	if (r->level == ADVISOR_RAID_NONE)
		return json_null();
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:s, s:s}",
			 "level", advisor_raid_name(r->level), "name", r->name,
			 "devices", ids(plan, r->members, r->n),
			 "capacity_bytes", r->capacity_bytes < 0 ? json_null()
								 : json_integer(r->capacity_bytes),
			 "seq_read_mbps", num_or_null(r->seq_read_mbps),
			 "seq_write_mbps", num_or_null(r->seq_write_mbps),
			 "basis", r->basis, "tradeoff", r->tradeoff);
}

static json_t *json_mount(const struct advisor_mount *m)
{
	return json_pack("{s:s, s:s, s:s, s:s?, s:s, s:s?, s:b, s:b}", "point", m->point,
			 "fs", m->fs, "options", m->options, "why", m->why, "source", m->source,
			 "uuid", m->uuid, "reuse", m->reuse, "directory", m->directory);
}

static json_t *json_estimates(const struct advisor_plan_tier *t)
{
	json_t *a = json_array();

	for (size_t i = 0; i < t->n_est; i++) {
		const struct advisor_plan_estimate *e = &t->est[i];
		size_t from = json_array_size(a);

		render_workload_json(a, e->policy, e->pe, &e->w, e->device);
		for (size_t k = from; k < json_array_size(a); k++) {
			json_t *x = json_array_get(a, k);

			json_object_set_new(x, "layout", e->layout ? json_string(e->layout)
								   : json_null());
			if (k == from && !isnan(e->best) && e->best_device) {
				json_object_set_new(x, "best", json_pack("{s:o, s:s}", "value",
						    num_or_null(e->best), "device", e->best_device));
				json_object_set_new(x, "worst", json_pack("{s:o, s:s}", "value",
						    num_or_null(e->worst), "device", e->worst_device));
			}
		}
	}
	return a;
}

static json_t *json_strv(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *json_volume(const struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	json_t *pv = json_array();

	if (!t->volume.n) {
		json_decref(pv);
		return json_null();
	}
	for (size_t k = 0; k < t->volume.n; k++)
		json_array_append_new(pv, json_string(pv_name(plan, t, k)));
	return json_pack("{s:s, s:s, s:s, s:o, s:I, s:s}", "vg", t->volume.vg, "lv", t->volume.lv,
			 "layout", t->volume.striped ? "striped" : "linear", "devices", pv,
			 "capacity_bytes", (json_int_t)t->volume.capacity_bytes, "why", t->volume.why);
}

static json_t *json_tier(const struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	json_t *pol = json_array(), *mounts = json_array(), *scores = json_object();

	for (size_t k = 0; k < t->n_policies; k++)
		json_array_append_new(pol, json_string(t->policies[k]->name));
	for (size_t i = 0; i < t->n_mounts; i++)
		json_array_append_new(mounts, json_mount(&t->mounts[i]));
	for (size_t i = 0; i < t->n_devices; i++)
		json_object_set_new(scores, dev_id(plan, t->devices[i]), json_real(t->scores[i]));
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:f, s:o, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "name", advisor_tier_name(t->tier), "policies", pol,
			 "devices", ids(plan, t->devices, t->n_devices), "raid", json_raid(plan, &t->raid),
			 "mount", t->n_mounts ? json_deep_copy(json_array_get(mounts, 0)) : json_null(),
			 "mounts", mounts, "estimates", json_estimates(t), "device_scores", scores,
			 "score", t->score,
			 "need_bytes", t->need_bytes < 0 ? json_null() : json_integer(t->need_bytes),
			 "usable_bytes", (json_int_t)t->usable_bytes,
			 "cost", num_or_null(t->cost),
			 "cost_per_usable_tb", num_or_null(t->cost_per_usable_tb),
			 "volume", json_volume(plan, t),
			 "shared_with", t->shared ? json_string(dev_id(plan, (size_t)t->shared_dev))
						  : json_null(),
			 "notes", json_strv(t->notes, t->n_notes));
}

/* The parts of the tier's need: every policy with a need (0 included: not
 * on this server), the largest first, and whether it is the policy's
 * default (need_bytes) or given (--need). */
static json_t *json_needs(const struct advisor_plan_tier *t)
{
	json_t *a = json_array();
	size_t idx[64], n = advisor_need_order(t, idx, 64);

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:I, s:b}", "policy",
			t->policies[idx[i]]->name, "bytes", (json_int_t)t->need_of[idx[i]],
			"default", !t->need_given[idx[i]]));
	for (size_t k = 0; t->need_of && k < t->n_policies; k++)
		if (t->need_of[k] == 0)
			json_array_append_new(a, json_pack("{s:s, s:I, s:b}", "policy",
				t->policies[k]->name, "bytes", (json_int_t)0,
				"default", !t->need_given[k]));
	return a;
}

/* The tier with what its policies want: redundancy and refetchable. */
static json_t *json_tier_full(const struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	json_t *o = json_tier(plan, t);

	if (o) {
		json_t *own = json_array();

		json_object_set_new(o, "needs", json_needs(t));
		for (size_t i = 0; own && i < t->n_devices; i++)
			if (plan->devs[t->devices[i]].own)
				json_array_append_new(own, json_pack("{s:s, s:s}", "device",
					plan->devs[t->devices[i]].p->id, "policy",
					plan->devs[t->devices[i]].own->name));
		json_object_set_new(o, "own", own);
		json_object_set_new(o, "redundancy", json_string(model_redundancy_name(t->redundancy)));
		json_object_set_new(o, "refetchable", json_boolean(t->refetchable));
	}
	return o;
}

static json_t *json_runner_up(const struct advisor_plan *plan)
{
	json_t *tiers, *changes;

	if (!plan->has_runner_up)
		return json_null();
	tiers = json_object();
	changes = json_array();
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		json_t *a = json_array();

		for (size_t i = 0; i < plan->n_devs; i++)
			if (plan->runner_up[i] == t)
				json_array_append_new(a, json_string(dev_id(plan, i)));
		json_object_set_new(tiers, advisor_tier_name(t), a);
	}
	for (size_t i = 0; i < plan->n_devs; i++) {
		int a = plan->devs[i].tier, b = plan->runner_up[i];

		if (a != b)
			json_array_append_new(changes, json_pack("{s:s, s:o, s:o}", "device",
				dev_id(plan, i), "from", a < 0 ? json_null() : json_string(advisor_tier_name(a)),
				"to", b < 0 ? json_null() : json_string(advisor_tier_name(b))));
	}
	return json_pack("{s:f, s:f, s:b, s:o, s:o}", "score", plan->runner_up_score, "gap",
			 plan->gap, "covers_less", plan->runner_up_covers_less, "tiers", tiers,
			 "changes", changes);
}

static json_t *json_warnings(const struct advisor_plan *plan)
{
	json_t *a = json_array();

	for (size_t i = 0; i < plan->n_warnings; i++) {
		const struct advisor_warning *w = &plan->warnings[i];

		json_array_append_new(a, json_pack("{s:o, s:s, s:s}", "device",
			w->dev >= 0 ? json_string(dev_id(plan, (size_t)w->dev)) : json_null(),
			"kind", w->kind, "message", w->message));
	}
	return a;
}

/* The tiers whose need the plan does not meet: short of it, or a directory
 * on another tier's device (shared: none of the need is theirs). */
static json_t *unmet_json(const struct advisor_plan *plan)
{
	json_t *a = json_array();

	for (int t = 0; t < TW_TIER_COUNT && a; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];
		int64_t have = tier->shared ? 0 : tier->usable_bytes;

		if (tier->need_bytes <= 0 || (!tier->shared && have >= tier->need_bytes))
			continue;
		json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:I, s:b}",
			"tier", advisor_tier_name(tier->tier), "need_bytes", (json_int_t)tier->need_bytes,
			"usable_bytes", (json_int_t)have, "short_bytes",
			(json_int_t)(tier->need_bytes - have), "shared", tier->shared));
	}
	return a;
}

static int json_print(FILE *out, const struct advisor_plan *plan)
{
	json_t *tiers = json_array(), *doc;
	int ret;

	for (int t = 0; t < TW_TIER_COUNT; t++)
		json_array_append_new(tiers, json_tier_full(plan, &plan->tiers[t]));
	doc = json_pack("{s:s, s:o, s:o, s:o, s:o, s:f, s:b, s:I, s:f, s:o}",
			"schema", PLAN_SCHEMA, "tiers", tiers,
			"unassigned", ids(plan, plan->unassigned, plan->n_unassigned),
			"warnings", json_warnings(plan), "runner_up", json_runner_up(plan),
			"score", plan->score, "exact", plan->exact, "nodes", (json_int_t)plan->nodes,
			"fill", plan->fill, "notes", json_strv(plan->notes, plan->n_notes));
	if (!doc)
		return -ENOMEM;
	json_object_set_new(doc, "bound", json_real(plan->bound));
	json_object_set_new(doc, "mirror_moves", json_integer(plan->mirror_moves));
	json_object_set_new(doc, "policies_from",
			    plan->policies_from ? json_string(plan->policies_from) : json_null());
	json_object_set_new(doc, "cost_total", num_or_null(plan->cost_total));
	if (plan->buying) {
		json_t *buy = json_array();

		for (size_t i = 0; i < plan->n_buy; i++) {
			const struct advisor_buy *b = &plan->buy[i];

			json_array_append_new(buy, json_pack("{s:s, s:o, s:s, s:I, s:o, s:o}",
				"id", b->p->id, "model", b->p->model ? json_string(b->p->model) : json_null(),
				"tier", advisor_tier_name(b->tier), "count", (json_int_t)b->count,
				"price", num_or_null(b->price), "cost", num_or_null(b->cost)));
		}
		json_object_set_new(doc, "buy", buy);
		json_object_set_new(doc, "budget", plan->budget > 0 ? json_real(plan->budget) : json_null());
	}
	json_object_set_new(doc, "needs_met", json_integer(plan->needs_met));
	json_object_set_new(doc, "needs", json_integer(plan->n_needs));
	json_object_set_new(doc, "unmet", unmet_json(plan));
	json_object_set_new(doc, "seconds", json_real(plan->seconds));
	ret = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
	return ret ? -EIO : 0;
}

const struct render_plan_ops render_plan_json = { .name = "json", .print = json_print };
