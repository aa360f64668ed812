/* The data of tierwise compare: pairs of devices, their figures side by
 * side and a verdict per policy.  Never prints (render_compare.c does). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "tw_util.h"


/* The figures that matter in a swap, in the order they are shown; labels,
 * units and which way is better come from the metric table (metrics.h). */
static const char *const figures[] = {
	"seq_read.mbps", "seq_write.mbps", "sustained_write.mbps",
	"rand_read_qd1.iops", "rand_read_qd1.lat_us.p50", "rand_read_qd1.lat_us.p99",
	"rand_read_qd32.iops", "mixed_70_30.iops", "thermal.idle_c", "thermal.load_c",
	"capacity_bytes", "price_per_tb",
};

_Static_assert(ARRAY_SIZE(figures) <= COMPARE_MAX_METRICS, "figures fit a pair");

const char *compare_dir_name(enum compare_dir d)
{
	static const char *const names[] = { "same", "better", "worse", "unknown" };

	return (unsigned)d < ARRAY_SIZE(names) ? names[d] : "unknown";
}

const char *compare_match_name(enum compare_match m)
{
	static const char *const names[] = { "swap", "serial", "id", "path" };

	return (unsigned)m < ARRAY_SIZE(names) ? names[m] : "?";
}

/* ---- metrics ---- */

/* Better, worse or same from a signed change (positive = the value rose). */
static enum compare_dir direction(double change, double same, enum model_better b)
{
	if (isnan(change))
		return CMP_UNKNOWN;
	if (fabs(change) < same)
		return CMP_SAME;
	return (change > 0) == (b == MODEL_BETTER_HIGHER) ? CMP_BETTER : CMP_WORSE;
}

static void fill_metric(struct compare_metric *m)
{
	m->delta = m->after - m->before;
	m->change_pct = m->in_celsius || m->before == 0 ? NAN
			: 100.0 * m->delta / fabs(m->before);
	if (m->in_celsius)
		m->dir = direction(m->delta, COMPARE_SAME_C, m->desc->better);
	else if (m->before == 0)	/* from nothing: only the sign counts */
		m->dir = direction(m->delta, 1e-12, m->desc->better);
	else
		m->dir = direction(m->change_pct, COMPARE_SAME_PCT, m->desc->better);
}

/* Every figure known on at least one side of the pair. */
static void pair_metrics(struct compare_pair *pr)
{
	for (size_t i = 0; i < ARRAY_SIZE(figures); i++) {
		const struct model_metric_desc *d = model_metric_find(figures[i]);
		struct compare_metric *m = &pr->metrics[pr->n_metrics];

		if (!d)
			continue;
		m->desc = d;
		m->label = model_metric_label(d, MODEL_LABEL_COMPARE);
		m->in_celsius = !strcmp(d->unit, "°C");
		m->before = model_metric_value(pr->before, d);
		m->after = model_metric_value(pr->after, d);
		if (isnan(m->before) && isnan(m->after))
			continue;
		fill_metric(m);
		pr->n_metrics++;
	}
}

/* ---- how the figures were measured ---- */

static void caveat(struct compare_pair *pr, const char *test, const char *what,
		   const char *before, const char *after)
{
	struct compare_caveat *c;

	if (pr->n_caveats >= COMPARE_MAX_CAVEATS)
		return;
	c = &pr->caveats[pr->n_caveats++];
	snprintf(c->setting, sizeof(c->setting), "%s%s%s", test ? test : "", test ? " " : "",
		 what);
	snprintf(c->before, sizeof(c->before), "%s", before);
	snprintf(c->after, sizeof(c->after), "%s", after);
}

/* A whole-number setting known on both sides and different there. */
static void long_caveat(struct compare_pair *pr, const char *test, const char *what,
			long b, long a)
{
	char sb[24], sa[24];

	if (b < 0 || a < 0 || b == a)
		return;
	snprintf(sb, sizeof(sb), "%ld", b);
	snprintf(sa, sizeof(sa), "%ld", a);
	caveat(pr, test, what, sb, sa);
}

/* --seconds per test, "mode default" when not fixed. */
static void seconds_text(char *buf, size_t len, double s)
{
	if (isnan(s))
		snprintf(buf, len, "the mode's");
	else
		snprintf(buf, len, "%g s", s);
}

/* The probe settings of the pair (profile_probe and the per-test bs, qd,
 * threads, seconds) that differ: compare says so next to the figures. */
static void pair_caveats(struct compare_pair *pr)
{
	const struct profile_probe *b = &pr->before->probe, *a = &pr->after->probe;

	if (b->engine && a->engine && strcmp(b->engine, a->engine))
		caveat(pr, NULL, "engine", b->engine, a->engine);
	if (b->mode != a->mode)
		caveat(pr, NULL, "mode", profile_mode_name(b->mode), profile_mode_name(a->mode));
	if (b->test_seconds != a->test_seconds &&
	    !(isnan(b->test_seconds) && isnan(a->test_seconds))) {
		char sb[24], sa[24];

		seconds_text(sb, sizeof(sb), b->test_seconds);
		seconds_text(sa, sizeof(sa), a->test_seconds);
		caveat(pr, NULL, "seconds per test", sb, sa);
	}
	if (b->target != a->target)
		caveat(pr, NULL, "target", profile_target_name(b->target),
		       profile_target_name(a->target));
	for (int t = 0; t < PROFILE_IO_COUNT; t++) {
		const struct profile_io *ib = &pr->before->io[t], *ia = &pr->after->io[t];
		const char *name = profile_io_test_name((enum profile_io_test)t);

		if (!ib->present || !ia->present)
			continue;
		long_caveat(pr, name, "block size", ib->bs, ia->bs);
		long_caveat(pr, name, "queue depth", ib->qd, ia->qd);
		long_caveat(pr, name, "threads", ib->threads, ia->threads);
	}
}

/* Both strings absent, or both present and equal. */
static bool same_str(const char *a, const char *b)
{
	return a ? b && !strcmp(a, b) : !b;
}

/* ---- policies ---- */

static bool fails(const struct model_score *s, const char *key)
{
	for (size_t i = 0; i < s->n_failed; i++)
		if (!strcmp(s->failed[i].key, key))
			return true;
	return false;
}

/* Constraints failed on one side only. */
static void eligibility_changes(struct compare_policy *cp)
{
	for (size_t i = 0; i < cp->after.n_failed; i++)
		if (!fails(&cp->before, cp->after.failed[i].key))
			cp->now_fails[cp->n_now_fails++] = &cp->after.failed[i];
	for (size_t i = 0; i < cp->before.n_failed; i++)
		if (!fails(&cp->after, cp->before.failed[i].key))
			cp->now_passes[cp->n_now_passes++] = &cp->before.failed[i];
}

/* A change of eligibility decides; otherwise the score, ± 1 point. */
static enum compare_dir verdict(const struct compare_policy *cp)
{
	if (cp->before.eligible != cp->after.eligible)
		return cp->after.eligible ? CMP_BETTER : CMP_WORSE;
	return direction(cp->after.score - cp->before.score, COMPARE_SAME_POINTS,
			 MODEL_BETTER_HIGHER);
}

static int score_policy(const struct model_policy *p, const struct compare_pair *pr,
			struct compare_policy *cp)
{
	cp->policy = p;
	if (model_score_device(p, pr->before, &cp->before) < 0)
		return -ENOMEM;
	if (model_score_device(p, pr->after, &cp->after) < 0) {
		model_score_clear(&cp->before);
		return -ENOMEM;
	}
	eligibility_changes(cp);
	cp->verdict = verdict(cp);
	return 0;
}

static int pair_policies(struct compare_pair *pr, const struct model_policy_set *set)
{
	pr->policies = calloc(set->n ? set->n : 1, sizeof(*pr->policies));
	if (!pr->policies)
		return -ENOMEM;
	for (size_t i = 0; i < set->n; i++) {
		if (score_policy(set->v[i], pr, &pr->policies[i]) < 0)
			return -ENOMEM;
		pr->n_policies++;
	}
	return 0;
}

/* ---- pairing ---- */

static const char *match_key(const struct profile_device *d, enum compare_match by)
{
	switch (by) {
	case CMP_BY_SERIAL: return d->serial;
	case CMP_BY_ID: return d->id;
	case CMP_BY_PATH: return d->path;
	case CMP_BY_SWAP: break;
	}
	return NULL;
}

/* Working state of the pairing: match[i] = index in after, or -1. */
struct pairing {
	long *match;
	enum compare_match *by;
	bool *taken;		/* after[j] is paired */
};

/* Pair still unpaired devices whose key `by` is the same, first come first. */
static void pair_by(const struct profile *b, const struct profile *a,
		    enum compare_match by, struct pairing *pg)
{
	for (size_t i = 0; i < b->n_devices; i++) {
		const char *k = match_key(&b->devices[i], by);

		if (pg->match[i] >= 0 || !k || !*k)
			continue;
		for (size_t j = 0; j < a->n_devices; j++) {
			const char *kj = match_key(&a->devices[j], by);

			if (pg->taken[j] || !kj || strcmp(k, kj))
				continue;
			pg->match[i] = (long)j;
			pg->by[i] = by;
			pg->taken[j] = true;
			break;
		}
	}
}

static void pair_all(const struct profile *b, const struct profile *a, struct pairing *pg)
{
	for (size_t i = 0; i < b->n_devices; i++)
		pg->match[i] = -1;
	if (b->n_devices == 1 && a->n_devices == 1) {
		pg->match[0] = 0;
		pg->by[0] = CMP_BY_SWAP;
		pg->taken[0] = true;
		return;
	}
	pair_by(b, a, CMP_BY_SERIAL, pg);
	pair_by(b, a, CMP_BY_ID, pg);
	pair_by(b, a, CMP_BY_PATH, pg);
}

/* Turn the pairing into pairs and the lists of the unpaired. */
static int collect(const struct profile *b, const struct profile *a,
		   const struct model_policy_set *set, const struct pairing *pg,
		   struct compare *c)
{
	for (size_t i = 0; i < b->n_devices; i++) {
		struct compare_pair *pr = &c->pairs[c->n_pairs];

		if (pg->match[i] < 0) {
			c->only_before[c->n_only_before++] = &b->devices[i];
			continue;
		}
		pr->before = &b->devices[i];
		pr->after = &a->devices[pg->match[i]];
		pr->by = pg->by[i];
		pr->same_device = !strcmp(pr->before->id, pr->after->id) &&
				  same_str(pr->before->model, pr->after->model) &&
				  same_str(pr->before->serial, pr->after->serial);
		c->n_pairs++;
		pair_metrics(pr);
		pair_caveats(pr);
		if (pair_policies(pr, set) < 0)
			return -ENOMEM;
	}
	for (size_t j = 0; j < a->n_devices; j++)
		if (!pg->taken[j])
			c->only_after[c->n_only_after++] = &a->devices[j];
	return 0;
}

int compare_build(const struct profile *before, const struct profile *after,
		  const struct model_policy_set *set, struct compare *out)
{
	size_t nb = before->n_devices ? before->n_devices : 1;
	size_t na = after->n_devices ? after->n_devices : 1;
	struct pairing pg = {
		.match = calloc(nb, sizeof(*pg.match)),
		.by = calloc(nb, sizeof(*pg.by)),
		.taken = calloc(na, sizeof(*pg.taken)),
	};
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->pairs = calloc(nb, sizeof(*out->pairs));
	out->only_before = calloc(nb, sizeof(*out->only_before));
	out->only_after = calloc(na, sizeof(*out->only_after));
	if (!pg.match || !pg.by || !pg.taken || !out->pairs || !out->only_before ||
	    !out->only_after)
		goto err;
	pair_all(before, after, &pg);
	ret = collect(before, after, set, &pg, out);
	if (ret < 0)
		goto err;
	free(pg.match);
	free(pg.by);
	free(pg.taken);
	return 0;
err:
	free(pg.match);
	free(pg.by);
	free(pg.taken);
	compare_clear(out);
	return ret;
}

void compare_clear(struct compare *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_pairs; i++) {
		struct compare_pair *pr = &c->pairs[i];

		for (size_t k = 0; k < pr->n_policies; k++) {
			model_score_clear(&pr->policies[k].before);
			model_score_clear(&pr->policies[k].after);
		}
		free(pr->policies);
	}
	free(c->pairs);
	free(c->only_before);
	free(c->only_after);
	memset(c, 0, sizeof(*c));
}
