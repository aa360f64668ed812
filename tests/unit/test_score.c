/* Scoring and ranking: the shipped policies on the published measurements
 * (examples/ai-server-18-devices.json), estimates, missing metrics, prices,
 * and one score computed by hand. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "score.h"

struct fixture {
	struct profile *prof;
	struct model_policy_set *set;
	const struct profile_device **devs;
};

static char *src_path(const char *rel)
{
	const char *top = getenv("TW_SRCDIR");
	char *p;

	assert_true(asprintf(&p, "%s/%s", top ? top : ".", rel) > 0);
	return p;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct tw_diags d = { 0 };
	char *ex = src_path("examples/ai-server-18-devices.json");
	char *dir = src_path("policies");

	assert_non_null(f);
	assert_int_equal(profile_read_file(ex, &f->prof, &d), 0);
	assert_int_equal(model_policy_load_dir(dir, &f->set, &d), 0);
	f->devs = calloc(f->prof->n_devices, sizeof(*f->devs));
	assert_non_null(f->devs);
	for (size_t i = 0; i < f->prof->n_devices; i++)
		f->devs[i] = &f->prof->devices[i];
	free(ex);
	free(dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	free(f->devs);
	profile_free(f->prof);
	model_policy_set_free(f->set);
	free(f);
	return 0;
}

static struct model_ranking *rank(struct fixture *f, const char *policy)
{
	const struct model_policy *p = model_policy_set_find(f->set, policy);
	struct model_ranking *r;

	assert_non_null(p);
	assert_int_equal(model_rank(p, f->devs, f->prof->n_devices, &r), 0);
	assert_int_equal(r->n, f->prof->n_devices);
	return r;
}

static struct profile_device *dev(struct fixture *f, const char *id)
{
	for (size_t i = 0; i < f->prof->n_devices; i++)
		if (!strcmp(f->prof->devices[i].id, id))
			return &f->prof->devices[i];
	fail_msg("no device %s", id);
	return NULL;
}

/* The ranking is ordered: eligible first, then by score. */
static void assert_ordered(const struct model_ranking *r)
{
	for (size_t i = 1; i < r->n; i++) {
		const struct model_score *a = &r->v[i - 1], *b = &r->v[i];

		assert_true(a->eligible >= b->eligible);
		if (a->eligible == b->eligible && !isnan(b->score))
			assert_true(a->score >= b->score);
	}
}

static void test_vector_db(void **state)
{
	struct fixture *f = *state;
	struct model_ranking *r = rank(f, "vector-db");
	const struct model_score *o = model_ranking_find(r, "optane905p");
	const struct model_score *p = model_ranking_find(r, "pm9a1-1t");

	assert_string_equal(r->v[0].dev->id, "optane905p");
	assert_ordered(r);
	assert_false(r->no_price);
	assert_string_equal(r->note, "");
	/* 10,000 dependent reads through mmap with MADV_RANDOM, one page a
	 * fault: 10000 / 83989 = 0.119 s, 10000 / 22120 = 0.452 s */
	assert_int_equal(o->n_est, 2);
	assert_float_equal(o->est[1].value, 0.119, 0.0005);
	assert_float_equal(p->est[1].value, 0.452, 0.0005);
	assert_string_equal(o->est[1].w.basis[0], "rand_read_qd1.iops");
	assert_string_equal(o->est[1].unit, "s");
	/* The HDDs spin: ineligible, listed last, with the reason. */
	o = model_ranking_find(r, "ironwolf12t");
	assert_false(o->eligible);
	assert_int_equal(o->n_failed, 1);
	assert_string_equal(o->failed[0].key, "rotational");
	assert_false(r->v[r->n - 1].eligible);
	model_ranking_free(r);
}

static void test_model_loading(void **state)
{
	struct fixture *f = *state;
	struct model_ranking *r = rank(f, "model-loading");
	const struct model_score *s = &r->v[0];
	const struct model_score *m = model_ranking_find(r, "mznln128");

	assert_string_equal(s->dev->id, "pm9a1-1t");
	assert_ordered(r);
	/* an 18 GB model, O_DIRECT in 4 streams: 18000 / 6193 = 2.906 s (± 5 %) */
	assert_int_equal(s->n_est, 3);
	assert_int_equal(s->est[1].pe->size_bytes, 18000000000LL);
	assert_float_equal(s->est[1].value, 2.906, 2.906 * 0.05);
	assert_string_equal(s->est[1].w.basis[1], "seq_read.mbps");
	/* 128 GB < 200 GB: excluded by min_capacity_bytes. */
	assert_false(m->eligible);
	assert_string_equal(m->failed[0].key, "min_capacity_bytes");
	model_ranking_free(r);
}

/* Training data: the fastest sequential reader first; unet3d on an H100
 * needs 7 × 146.6 MB × 0.9 ÷ 0.323 s = 2,860 MB/s, which the PM9A1 1 TB
 * (6,193 MB/s) gives twice; the 128 GB SATA part last, eligible (a data
 * set may be small: no capacity floor). */
static void test_training_data(void **state)
{
	struct fixture *f = *state;
	struct model_ranking *r = rank(f, "training-data");
	const struct model_score *s = &r->v[0];
	const char *unit;

	assert_string_equal(s->dev->id, "pm9a1-1t");
	assert_ordered(r);
	assert_int_equal(s->n_est, 1);
	assert_float_equal(s->est[0].w.need_mbps, 7 * 146.6 * 0.9 / 0.323, 1e-6);
	assert_float_equal(model_workload_value(s->est[0].pe, &s->est[0].w, &unit), 2, 0);
	assert_string_equal(unit, "accelerators");
	assert_string_equal(r->v[r->n - 1].dev->id, "mznln128");
	assert_true(r->v[r->n - 1].eligible);
	model_ranking_free(r);
}

/* mznln128 is never first, in any shipped policy. */
static void test_mznln128_never_first(void **state)
{
	struct fixture *f = *state;

	for (size_t i = 0; i < f->set->n; i++) {
		struct model_ranking *r = rank(f, f->set->v[i]->name);

		assert_string_not_equal(r->v[0].dev->id, "mznln128");
		assert_true(r->v[0].eligible);
		assert_ordered(r);
		model_ranking_free(r);
	}
}

static void test_archive_without_prices(void **state)
{
	struct fixture *f = *state;
	struct model_ranking *r = rank(f, "archive");
	const char *top = r->v[0].dev->id;

	assert_true(!strcmp(top, "ironwolf12t") || !strcmp(top, "redpro10t"));
	assert_true(r->no_price);
	assert_string_equal(r->note, "ranked by capacity_bytes and sustained_write.mbps: "
			    "no price per TB known");
	/* price_per_tb (weight 4 of 7) is missing everywhere: confidence 3/7. */
	assert_int_equal(r->v[0].n_missing, 1);
	assert_string_equal(r->v[0].missing[0], "price_per_tb");
	assert_float_equal(r->v[0].confidence, 3.0 / 7.0, 1e-9);
	model_ranking_free(r);
}

static const char prices_text[] =
	"# price per decimal TB\n"
	"Seagate IronWolf 12TB = 18\n"
	"WD Red Pro 10TB\t20\n"
	"Intel Optane 905P 960GB = 1000\n"
	"\n";

static void test_archive_with_prices(void **state)
{
	struct fixture *f = *state;
	struct tw_diags d = { 0 };
	struct model_prices *pr;
	struct model_ranking *r;
	const char *top;

	assert_int_equal(model_prices_parse(prices_text, strlen(prices_text), "p.txt",
					    &pr, &d), 0);
	assert_int_equal(d.n, 0);
	for (size_t i = 0; i < f->prof->n_devices; i++) {
		struct profile_device *x = &f->prof->devices[i];

		if (!model_prices_apply(pr, x))	/* NAND: 60–120 per TB */
			x->price_per_tb = x->capacity_bytes < 300e9 ? 120
					  : x->capacity_bytes < 600e9 ? 90 : 65;
	}
	assert_float_equal(dev(f, "ironwolf12t")->price_per_tb, 18, 0);
	assert_float_equal(dev(f, "redpro10t")->price_per_tb, 20, 0);
	assert_float_equal(dev(f, "optane905p")->price_per_tb, 1000, 0);
	assert_false(model_prices_apply(pr, dev(f, "optane905p")));	/* already set */
	r = rank(f, "archive");
	top = r->v[0].dev->id;
	assert_true(!strcmp(top, "ironwolf12t") || !strcmp(top, "redpro10t"));
	assert_false(r->no_price);
	assert_string_equal(r->note, "");
	assert_float_equal(r->v[0].confidence, 1.0, 1e-12);
	assert_int_equal(r->v[0].n_missing, 0);
	/* a 10 TB backup at 257 / 236 MB/s, slower toward the inner tracks:
	 * 11–12 hours at the outer rate, 13–15 over the surface */
	assert_string_equal(r->v[0].est[0].unit, "s");
	assert_true(r->v[0].est[0].value > 13 * 3600 && r->v[0].est[0].value < 15 * 3600);
	model_ranking_free(r);
	model_prices_free(pr);
	for (size_t i = 0; i < f->prof->n_devices; i++)
		f->prof->devices[i].price_per_tb = NAN;
}

static void test_prices_bad(void **state)
{
	static const char bad[] = "ok = 5\nno separator\nx = cheap\ny = -1\n";
	struct tw_diags d = { 0 };
	struct model_prices *pr = (struct model_prices *)1;

	(void)state;
	assert_int_equal(model_prices_parse(bad, strlen(bad), "p.txt", &pr, &d), -EINVAL);
	assert_null(pr);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.v[0].line, 2);
	assert_int_equal(d.v[1].line, 3);
	assert_int_equal(d.v[1].col, 5);
	assert_string_equal(d.v[1].key, "x");
	assert_int_equal(d.v[2].line, 4);
	tw_diags_clear(&d);
	model_prices_free(NULL);
}

/*
 * A two-metric toy policy, scored by hand:
 *   rand_read_qd1.iops  higher, good 10000, poor 100, weight 3
 *   seq_read.mbps       higher, good 1000,  poor 10,  weight 1
 * Device: 1000 IOPS, 1000 MB/s.
 *   u(iops) = ln(1000/100) / ln(10000/100) = ln 10 / ln 100 = 1/2
 *   u(mbps) = 1000 is good: 1
 *   score = 100 × (3 × 0.5 + 1 × 1) / (3 + 1) = 100 × 2.5 / 4 = 62.5
 *   confidence = 4 / 4 = 1
 * Without seq_read: score = 100 × (3 × 0.5) / 3 = 50, confidence 3/4,
 * missing = [seq_read.mbps].
 */
static const char toy[] =
	"name: toy\ntier: hot\nmetrics:\n"
	"  - {path: rand_read_qd1.iops, better: higher, good: 10000, poor: 100, weight: 3}\n"
	"  - {path: seq_read.mbps, better: higher, good: 1000, poor: 10, weight: 1}\n"
	"  - {path: capacity_bytes, better: higher, good: 1e12, poor: 1e9, weight: 0}\n";

static void test_toy_by_hand(void **state)
{
	struct tw_diags d = { 0 };
	struct model_policy *p;
	struct profile *prof = profile_new();
	struct profile_device *x;
	struct model_score s;

	(void)state;
	assert_int_equal(model_policy_parse(toy, strlen(toy), "toy.yaml", &p, &d), 0);
	assert_non_null(prof);
	x = profile_add_device(prof, "toy0");
	assert_non_null(x);
	x->io[PROFILE_RAND_READ_QD1].present = true;
	x->io[PROFILE_RAND_READ_QD1].iops = 1000;
	x->io[PROFILE_SEQ_READ].present = true;
	x->io[PROFILE_SEQ_READ].mbps = 1000;
	x->capacity_bytes = 500000000000LL;
	assert_int_equal(model_score_device(p, x, &s), 0);
	assert_true(s.eligible);
	assert_float_equal(s.contrib[0].utility, 0.5, 1e-12);
	assert_float_equal(s.contrib[1].utility, 1.0, 1e-12);
	assert_float_equal(s.score, 62.5, 1e-9);
	assert_float_equal(s.confidence, 1.0, 1e-12);
	assert_int_equal(s.n_missing, 0);
	/* weight 0: listed with its utility, not scored */
	assert_int_equal(s.n_contrib, 3);
	assert_float_equal(s.contrib[2].weight, 0, 0);
	assert_false(isnan(s.contrib[2].utility));
	model_score_clear(&s);

	x->io[PROFILE_SEQ_READ].mbps = NAN;	/* not measured */
	assert_int_equal(model_score_device(p, x, &s), 0);
	assert_float_equal(s.score, 50.0, 1e-9);
	assert_float_equal(s.confidence, 0.75, 1e-12);
	assert_int_equal(s.n_missing, 1);
	assert_string_equal(s.missing[0], "seq_read.mbps");
	assert_true(isnan(s.contrib[1].utility));
	model_score_clear(&s);
	model_score_clear(NULL);
	profile_free(prof);
	model_policy_free(p);
}

/*
 * vector-db and logs-metadata weigh the QD1 p99 under background writes:
 * the same drive scores lower when its reads suffer under writes, and with
 * the figure measured the confidence is whole again.
 */
static void test_under_write_weighs(void **state)
{
	struct fixture *f = *state;
	static const char *const names[] = { "vector-db", "logs-metadata" };
	struct profile_device *x = dev(f, "optane905p");
	struct model_score calm, hurt;

	for (size_t i = 0; i < 2; i++) {
		const struct model_policy *p = model_policy_set_find(f->set, names[i]);

		x->under_write.present = true;
		x->under_write.lat.v[PROFILE_LAT_P99] = 25;
		assert_int_equal(model_score_device(p, x, &calm), 0);
		x->under_write.lat.v[PROFILE_LAT_P99] = 2100;
		assert_int_equal(model_score_device(p, x, &hurt), 0);
		x->under_write.present = false;
		x->under_write.lat.v[PROFILE_LAT_P99] = NAN;
		assert_true(calm.score > hurt.score + 5);
		for (size_t k = 0; k < calm.n_missing; k++)
			assert_string_not_equal(calm.missing[k], "read_under_write.lat_us.p99");
		model_score_clear(&calm);
		model_score_clear(&hurt);
	}
}

/* A missing metric lowers confidence on the shipped data too. */
static void test_missing_lowers_confidence(void **state)
{
	struct fixture *f = *state;
	const struct model_policy *p = model_policy_set_find(f->set, "vector-db");
	struct profile_device *x = dev(f, "pm9a1-1t");
	double p99 = x->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99];
	struct model_score a, b;

	assert_int_equal(model_score_device(p, x, &a), 0);
	x->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99] = NAN;
	assert_int_equal(model_score_device(p, x, &b), 0);
	x->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99] = p99;
	/* the published data has no read under write: missing, weight 3 of 12 */
	assert_float_equal(a.confidence, 9.0 / 12.0, 1e-12);
	assert_int_equal(a.n_missing, 1);
	assert_string_equal(a.missing[0], "read_under_write.lat_us.p99");
	assert_float_equal(b.confidence, 6.0 / 12.0, 1e-12);	/* weights 2+3+1 of 12 */
	assert_int_equal(b.n_missing, 2);
	assert_string_equal(b.missing[0], "rand_read_qd1.lat_us.p99");
	assert_false(isnan(b.score));
	model_score_clear(&a);
	model_score_clear(&b);
}

/* Chains in parallel: the sweep at depth = concurrency when there is one,
 * else the device saturated at its deepest measured point. */
static void test_search_users(void **state)
{
	static const char pol[] =
		"name: s\ntier: hot\nmetrics:\n"
		"  - {path: rand_read_qd1.iops, better: higher, good: 10000, poor: 100}\n"
		"estimates:\n  - {name: c, pattern: chain, via: direct, reads: 1000, "
		"concurrency: 4}\n";
	static struct profile_sweep sw[] = { { .qd = 4, .iops = 8000 } };
	struct tw_diags d = { 0 };
	struct model_policy *p;
	struct profile *prof = profile_new();
	struct profile_device *x;
	struct model_score s;

	(void)state;
	assert_int_equal(model_policy_parse(pol, strlen(pol), "s.yaml", &p, &d), 0);
	x = profile_add_device(prof, "d");
	x->io[PROFILE_RAND_READ_QD1].present = true;
	x->io[PROFILE_RAND_READ_QD1].iops = 1000;
	assert_int_equal(model_score_device(p, x, &s), 0);
	assert_float_equal(s.est[0].value, 4.0, 1e-12);	/* 1000 × 4 / 1000 */
	assert_string_equal(s.est[0].w.basis[0], "rand_read_qd1.iops");
	assert_non_null(strstr(s.est[0].w.how, "past the deepest"));
	model_score_clear(&s);
	x->sweep = sw;
	x->n_sweep = 1;
	assert_int_equal(model_score_device(p, x, &s), 0);
	assert_float_equal(s.est[0].value, 0.5, 1e-12);	/* 1000 × 4 / 8000 */
	assert_string_equal(s.est[0].w.basis[0], "qd_sweep.iops");
	model_score_clear(&s);
	x->sweep = NULL;
	x->n_sweep = 0;
	profile_free(prof);
	model_policy_free(p);
}

static bool has_missing(const struct model_score *s, const char *path)
{
	for (size_t i = 0; i < s->n_missing; i++)
		if (!strcmp(s->missing[i], path))
			return true;
	return false;
}

/*
 * Figures read from unwritten blocks are dropped before scoring: they are
 * missing for the policy, the share stays; not on a hard disk, not below
 * half.  A copy of the example: the group's fixture stays as it is.
 */
static void test_unwritten_dropped(void **state)
{
	struct fixture *f = *state;
	struct tw_diags d = { 0 };
	char *ex = src_path("examples/ai-server-18-devices.json");
	const struct model_policy *vdb = model_policy_set_find(f->set, "vector-db");
	struct profile *p;
	struct profile_device *o = NULL, *pm = NULL, *hdd = NULL;
	struct model_score s;

	assert_int_equal(profile_read_file(ex, &p, &d), 0);
	for (size_t i = 0; i < p->n_devices; i++) {
		if (!strcmp(p->devices[i].id, "optane905p"))
			o = &p->devices[i];
		if (!strcmp(p->devices[i].id, "pm9a1-1t"))
			pm = &p->devices[i];
		if (!strcmp(p->devices[i].id, "ironwolf12t"))
			hdd = &p->devices[i];
	}
	assert_non_null(o);
	assert_non_null(pm);
	assert_non_null(hdd);
	o->io[PROFILE_RAND_READ_QD1].unwritten = 1.0;
	o->io[PROFILE_SEQ_READ].unwritten = 0.49;	/* below half: kept */
	pm->io[PROFILE_RAND_READ_QD1].unwritten = 0.5;	/* half: dropped */
	hdd->io[PROFILE_RAND_READ_QD1].unwritten = 1.0;	/* a hard disk: kept */
	assert_int_equal(model_drop_unwritten(o), 1);
	assert_int_equal(model_drop_unwritten(pm), 1);
	assert_int_equal(model_drop_unwritten(hdd), 0);
	assert_true(isnan(o->io[PROFILE_RAND_READ_QD1].iops));
	assert_true(isnan(o->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99]));
	assert_float_equal(o->io[PROFILE_RAND_READ_QD1].unwritten, 1.0, 0);
	assert_true(o->io[PROFILE_SEQ_READ].mbps > 0);
	assert_true(hdd->io[PROFILE_RAND_READ_QD1].iops > 0);
	assert_int_equal(model_score_device(vdb, o, &s), 0);
	assert_true(has_missing(&s, "rand_read_qd1.iops"));
	assert_true(has_missing(&s, "rand_read_qd1.lat_us.p99"));
	model_score_clear(&s);
	assert_int_equal(model_score_device(vdb, hdd, &s), 0);
	assert_false(has_missing(&s, "rand_read_qd1.iops"));
	model_score_clear(&s);
	/* the sweep: latency_target and every point */
	o->lat_target.present = true;
	o->lat_target.p99_us = 1000;
	o->lat_target.iops = 500000;
	o->lat_target.unwritten = 0.9;
	assert_int_equal(model_drop_unwritten(o), 2);	/* qd1 again, and the sweep */
	assert_true(isnan(o->lat_target.iops));
	profile_free(p);
	free(ex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector_db),
		cmocka_unit_test(test_model_loading),
		cmocka_unit_test(test_training_data),
		cmocka_unit_test(test_mznln128_never_first),
		cmocka_unit_test(test_archive_without_prices),
		cmocka_unit_test(test_archive_with_prices),
		cmocka_unit_test(test_prices_bad),
		cmocka_unit_test(test_toy_by_hand),
		cmocka_unit_test(test_missing_lowers_confidence),
		cmocka_unit_test(test_under_write_weighs),
		cmocka_unit_test(test_search_users),
		cmocka_unit_test(test_unwritten_dropped),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
