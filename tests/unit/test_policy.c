/* Workload policies: the shipped set, the metric table, the log-scale
 * utility, and every validation error with its message and line:column. */
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

#include "policy.h"

static char *src_path(const char *rel)
{
	const char *top = getenv("TW_SRCDIR");
	char *p;

	assert_true(asprintf(&p, "%s/%s", top ? top : ".", rel) > 0);
	return p;
}

static void dump(const struct tw_diags *d)
{
	char buf[512];

	for (size_t i = 0; i < d->n; i++) {
		tw_diag_format(&d->v[i], buf, sizeof(buf));
		print_message("  %s\n", buf);
	}
}

/* ---- the shipped policies ---- */

static void test_shipped(void **state)
{
	static const char *const names[] = { "archive", "boot", "checkpoints",
		"logs-metadata", "model-loading", "training-data", "vector-db" };
	static const char *const tiers[] = { "cold", "boot", "warm", "hot", "warm", "warm", "hot" };
	/* stated in every file: only what can be downloaded again goes without a mirror */
	static const bool refetch[] = { false, true, false, false, true, true, false };
	static const enum model_redundancy red[] = { MODEL_REDUNDANCY_PREFERRED,
		MODEL_REDUNDANCY_NONE, MODEL_REDUNDANCY_PREFERRED, MODEL_REDUNDANCY_PREFERRED,
		MODEL_REDUNDANCY_NONE, MODEL_REDUNDANCY_NONE, MODEL_REDUNDANCY_PREFERRED };
	struct tw_diags d = { 0 };
	struct model_policy_set *set;
	char *dir = src_path("policies");
	int ret;

	(void)state;
	ret = model_policy_load_dir(dir, &set, &d);
	if (d.n)
		dump(&d);
	assert_int_equal(ret, 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(set->n, 7);
	for (size_t i = 0; i < 7; i++) {
		assert_string_equal(set->v[i]->name, names[i]);
		assert_string_equal(set->v[i]->tier, tiers[i]);
		assert_non_null(set->v[i]->description);
		assert_true(set->v[i]->n_metrics > 0);
		assert_true(set->v[i]->n_estimates > 0);
		/* a data set's size is the user's to say */
		if (strcmp(names[i], "training-data"))
			assert_true(set->v[i]->need_bytes > 0);
		else
			assert_true(set->v[i]->need_bytes < 0);
		assert_true(set->v[i]->constraints.no_critical_warning);
		assert_int_equal(set->v[i]->refetchable, refetch[i]);
		assert_int_equal(set->v[i]->redundancy, red[i]);
	}
	assert_ptr_equal(model_policy_set_find(set, "vector-db"), set->v[6]);
	assert_null(model_policy_set_find(set, "nope"));
	assert_null(model_policy_set_find(NULL, "vector-db"));
	model_policy_set_free(set);
	free(dir);
}

static void test_vector_db(void **state)
{
	struct tw_diags d = { 0 };
	struct model_policy *p;
	char *f = src_path("policies/vector-db.yaml");
	const struct model_policy_metric *m;

	(void)state;
	assert_int_equal(model_policy_load_file(f, &p, &d), 0);
	assert_string_equal(p->file, f);
	assert_int_equal(p->line, 4);	/* the name value, after the comment */
	assert_int_equal(p->col, 7);
	assert_int_equal(p->n_metrics, 5);
	assert_string_equal(p->metrics[3].desc->path, "read_under_write.lat_us.p99");
	assert_int_equal(p->metrics[3].better, MODEL_BETTER_LOWER);
	assert_float_equal(p->metrics[3].weight, 3, 0);
	m = &p->metrics[0];
	assert_string_equal(m->desc->path, "rand_read_qd1.lat_us.p99");
	assert_int_equal(m->better, MODEL_BETTER_LOWER);
	assert_float_equal(m->good, 20, 0);
	assert_float_equal(m->poor, 2000, 0);
	assert_float_equal(m->weight, 3, 0);
	assert_string_equal(p->metrics[2].desc->path, "rand_read_qd1.iops");
	assert_int_equal(p->metrics[2].better, MODEL_BETTER_HIGHER);
	assert_int_equal(p->constraints.rotational, 0);
	assert_int_equal(p->constraints.media, 0);
	assert_int_equal(p->constraints.min_capacity_bytes, -1);
	assert_true(isnan(p->constraints.max_load_c));
	assert_int_equal(p->constraints.max_percentage_used, -1);
	assert_int_equal(p->need_bytes, 500000000000LL);
	assert_int_equal(p->n_estimates, 2);
	assert_int_equal(p->estimates[0].pattern, MODEL_PAT_BEAM);
	assert_string_equal(p->estimates[0].name, "beam-search");
	assert_float_equal(p->estimates[0].beam_width, 4, 0);
	assert_float_equal(p->estimates[0].reads_per_query, 40, 0);
	assert_float_equal(p->estimates[0].concurrency, 8, 0);
	assert_int_equal(p->estimates[0].via, MODEL_VIA_DIRECT);	/* the default */
	assert_int_equal(p->estimates[1].pattern, MODEL_PAT_CHAIN);
	assert_float_equal(p->estimates[1].reads, 10000, 0);
	assert_float_equal(p->estimates[1].concurrency, 1, 0);	/* the default */
	assert_int_equal(p->estimates[1].via, MODEL_VIA_MMAP);
	assert_true(p->estimates[1].madv_random);
	assert_int_equal(p->estimates[1].size_bytes, -1);
	assert_string_equal(p->estimates[1].label, "a 10,000-read vector search over mmap");
	model_policy_free(p);
	free(f);
}

static void test_model_loading(void **state)
{
	struct tw_diags d = { 0 };
	struct model_policy *p;
	char *f = src_path("policies/model-loading.yaml");

	(void)state;
	assert_int_equal(model_policy_load_file(f, &p, &d), 0);
	assert_string_equal(p->tier, "warm");
	assert_string_equal(p->metrics[1].desc->path, "capacity_bytes");
	assert_float_equal(p->metrics[1].good, 2e12, 0);	/* "2e12" is a number */
	assert_int_equal(p->constraints.min_capacity_bytes, 200000000000LL);
	assert_int_equal(p->constraints.rotational, -1);
	assert_int_equal(p->n_estimates, 3);
	assert_int_equal(p->estimates[1].pattern, MODEL_PAT_STREAM);
	assert_int_equal(p->estimates[1].via, MODEL_VIA_DIRECT);
	assert_float_equal(p->estimates[1].streams, 4, 0);
	assert_int_equal(p->estimates[2].size_bytes, 128000000000LL);
	assert_float_equal(p->estimates[2].read_ahead_kb, MODEL_PLAN_READ_AHEAD_KB, 0);
	model_policy_free(p);
	free(f);
	/* training data: MLPerf Storage's unet3d, no need of its own */
	f = src_path("policies/training-data.yaml");
	assert_int_equal(model_policy_load_file(f, &p, &d), 0);
	assert_string_equal(p->tier, "warm");
	assert_true(p->need_bytes < 0);
	assert_int_equal(p->n_estimates, 1);
	assert_int_equal(p->estimates[0].pattern, MODEL_PAT_SAMPLES);
	assert_int_equal(p->estimates[0].sample_bytes, 146600000);
	assert_float_equal(p->estimates[0].batch, 7, 0);
	assert_float_equal(p->estimates[0].compute_s, 0.323, 1e-12);
	assert_float_equal(p->estimates[0].streams, 4, 0);
	model_policy_free(p);
	free(f);
}

/* ---- the log-scale utility ---- */

static void test_utility(void **state)
{
	struct model_policy_metric hi = { .better = MODEL_BETTER_HIGHER,
		.good = 80000, .poor = 200, .weight = 3 };
	struct model_policy_metric lo = { .better = MODEL_BETTER_LOWER,
		.good = 20, .poor = 2000, .weight = 3 };
	struct model_policy_metric flat = { .good = 10, .poor = 10 };

	(void)state;
	assert_float_equal(model_utility(&hi, 83989), 1.0, 0);	/* Optane, clamped */
	assert_float_equal(model_utility(&hi, 80000), 1.0, 1e-12);
	/* PM9A1 1 TB: ln(22120/200) / ln(80000/200) */
	assert_float_equal(model_utility(&hi, 22120), 0.785437358777, 1e-11);
	assert_float_equal(model_utility(&hi, 200), 0.0, 1e-12);
	assert_float_equal(model_utility(&hi, 169), 0.0, 0);	/* HDD, clamped */
	assert_float_equal(model_utility(&hi, 0), 0.0, 0);
	assert_float_equal(model_utility(&hi, -5), 0.0, 0);
	assert_float_equal(model_utility(&hi, INFINITY), 1.0, 0);
	assert_true(isnan(model_utility(&hi, NAN)));
	/* lower is better: Optane p99 22 µs, PM9A1 49 µs, an HDD's 16 ms */
	assert_float_equal(model_utility(&lo, 22), 0.979303657421, 1e-11);
	assert_float_equal(model_utility(&lo, 49), 0.805416957818, 1e-11);
	assert_float_equal(model_utility(&lo, 16318), 0.0, 0);
	assert_float_equal(model_utility(&lo, 10), 1.0, 0);
	assert_float_equal(model_utility(&lo, 0), 1.0, 0);	/* free, or 0 °C */
	assert_float_equal(model_utility(&lo, INFINITY), 0.0, 0);
	assert_true(isnan(model_utility(&lo, NAN)));
	assert_true(isnan(model_utility(&flat, 10)));	/* not a range */
	assert_string_equal(model_better_name(MODEL_BETTER_LOWER), "lower");
	assert_null(model_better_name((enum model_better)2));
	assert_string_equal(model_pattern_name(MODEL_PAT_WRITE), "write");
	assert_null(model_pattern_name(MODEL_PAT_COUNT));
	assert_string_equal(model_via_name(MODEL_VIA_MMAP), "mmap");
	assert_null(model_via_name(MODEL_VIA_COUNT));
}

/* ---- the metric table ---- */

static void test_metric_table(void **state)
{
	const struct model_metric_desc *m;

	(void)state;
	assert_int_equal(model_metric_count(), 86);
	assert_null(model_metric_at(model_metric_count()));
	for (size_t i = 0; i < model_metric_count(); i++) {
		m = model_metric_at(i);
		assert_ptr_equal(model_metric_find(m->path), m);	/* unique paths */
		assert_true(*m->unit && *m->help);
	}
	m = model_metric_find("rand_read_qd1.lat_us.p99");
	assert_non_null(m);
	assert_string_equal(m->unit, "µs");
	assert_string_equal(model_metric_find("sustained_write.cliff_after_gb")->unit, "GB");
	assert_non_null(model_metric_find("mixed_70_30.write_iops"));
	assert_non_null(model_metric_find("health.percentage_used"));
	assert_null(model_metric_find("rand_read_qd1"));
	assert_null(model_metric_find("rand_read_qd1.lat_us.p98"));
	assert_null(model_metric_find(NULL));
	/* the key table feeds --help: 9 top, 5 metric, 6 constraint, then the
	 * estimates by pattern: chain 7, beam 6, stream 7, write 5, samples 9 */
	assert_string_equal(model_policy_key_at(0)->key, "name");
	assert_true(model_policy_key_at(0)->required);
	assert_string_equal(model_policy_key_at(6)->key, "refetchable");
	assert_false(model_policy_key_at(6)->required);
	assert_string_equal(model_policy_key_at(6)->type, "boolean");
	assert_string_equal(model_policy_key_at(7)->key, "redundancy");
	assert_false(model_policy_key_at(7)->required);
	assert_string_equal(model_policy_key_at(7)->type, "none, preferred or required");
	assert_string_equal(model_policy_key_at(9)->section, "metrics[]");
	assert_string_equal(model_policy_key_at(9)->key, "path");
	assert_string_equal(model_policy_key_at(20)->key, "name");
	assert_string_equal(model_policy_key_at(20)->section, "estimates[] (pattern: chain)");
	assert_string_equal(model_policy_key_at(53)->key, "size");
	assert_string_equal(model_policy_key_at(53)->section, "estimates[] (pattern: samples)");
	assert_null(model_policy_key_at(54));
}

/* One row per metric: which way is better, the I/O test and each place's
 * label, with compare and fleet falling back to the short label. */
static void test_metric_labels(void **state)
{
	const struct model_metric_desc *m;

	(void)state;
	for (size_t i = 0; i < model_metric_count(); i++) {
		m = model_metric_at(i);
		if (!strcmp(m->unit, "µs") || !strcmp(m->unit, "°C"))
			assert_int_equal(m->better, MODEL_BETTER_LOWER);
		if (!strcmp(m->unit, "MB/s") || !strcmp(m->unit, "IOPS"))
			assert_int_equal(m->better, MODEL_BETTER_HIGHER);
		assert_true(!m->words == !m->brief);	/* explain shows both or neither */
		assert_true(!m->title == !m->head);	/* the report likewise */
	}
	m = model_metric_find("rand_read_qd1.lat_us.p99");
	assert_int_equal(m->test, PROFILE_RAND_READ_QD1);
	assert_string_equal(model_metric_label(m, MODEL_LABEL_WORDS),
			    "random 4 KiB read, QD1, p99 latency");
	assert_string_equal(model_metric_label(m, MODEL_LABEL_BRIEF), "QD1 p99 latency");
	assert_string_equal(model_metric_label(m, MODEL_LABEL_COMPARE), "QD1 p99 latency");
	assert_string_equal(model_metric_label(m, MODEL_LABEL_FLEET), "QD1 read latency, p99");
	assert_string_equal(model_metric_label(m, MODEL_LABEL_TITLE),
			    "Random 4 KiB read at QD1, p99 latency");
	assert_string_equal(model_metric_label(m, MODEL_LABEL_HEAD), "QD1 p99 µs");
	m = model_metric_find("seq_write.mbps");
	assert_int_equal(m->test, PROFILE_SEQ_WRITE);
	assert_int_equal(m->better, MODEL_BETTER_HIGHER);
	assert_string_equal(model_metric_label(m, MODEL_LABEL_FLEET), "sequential write");
	m = model_metric_find("thermal.idle_c");
	assert_int_equal(m->test, -1);
	assert_string_equal(model_metric_label(m, MODEL_LABEL_COMPARE), "idle temperature");
	assert_null(model_metric_label(m, MODEL_LABEL_BRIEF));
	assert_null(model_metric_label(m, MODEL_LABEL_FLEET));
	assert_null(model_metric_label(m, MODEL_LABEL_TITLE));
	m = model_metric_find("price_per_tb");
	assert_int_equal(m->better, MODEL_BETTER_LOWER);
	assert_string_equal(model_metric_label(m, MODEL_LABEL_COMPARE), "price per TB");
	assert_int_equal(model_metric_find("health.available_spare")->better, MODEL_BETTER_HIGHER);
	assert_int_equal(model_metric_find("health.media_errors")->better, MODEL_BETTER_LOWER);
	assert_null(model_metric_label(NULL, MODEL_LABEL_BRIEF));
}

/* A device's price: per TB × decimal TB; NAN without a price or a capacity. */
static void test_device_price(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d;

	(void)state;
	assert_non_null(p);
	d = profile_add_device(p, "nvme0n1");
	assert_non_null(d);
	assert_true(isnan(model_device_price(d)));
	d->price_per_tb = 80;
	assert_true(isnan(model_device_price(d)));	/* capacity unknown */
	d->capacity_bytes = 2000000000000;
	assert_float_equal(model_device_price(d), 160, 1e-9);
	d->capacity_bytes = 0;
	assert_true(isnan(model_device_price(d)));
	d->capacity_bytes = 500000000000;
	d->price_per_tb = NAN;
	assert_true(isnan(model_device_price(d)));
	profile_free(p);
}

/* docs/policies.md lists every metric path and every key of the tables. */
static void test_docs(void **state)
{
	char *f = src_path("docs/policies.md"), *doc, want[96];
	size_t len;

	(void)state;
	assert_int_equal(profile_slurp(f, &doc, &len), 0);
	for (size_t i = 0; i < model_metric_count(); i++) {
		snprintf(want, sizeof(want), "| `%s` | %s |", model_metric_at(i)->path,
			 model_metric_at(i)->unit);
		if (!strstr(doc, want))
			fail_msg("docs/policies.md does not list %s", want);
	}
	for (size_t i = 0; model_policy_key_at(i); i++) {
		snprintf(want, sizeof(want), "`%s`", model_policy_key_at(i)->key);
		if (!strstr(doc, want))
			fail_msg("docs/policies.md does not mention %s", want);
	}
	free(doc);
	free(f);
}

static const struct profile_device *device(const struct profile *p, const char *id)
{
	for (size_t i = 0; i < p->n_devices; i++)
		if (!strcmp(p->devices[i].id, id))
			return &p->devices[i];
	fail_msg("no device %s", id);
	return NULL;
}

static double value(const struct profile_device *d, const char *path)
{
	const struct model_metric_desc *m = model_metric_find(path);

	assert_non_null(m);
	return model_metric_value(d, m);
}

static void test_metric_values(void **state)
{
	struct tw_diags d = { 0 };
	struct profile *p;
	char *f = src_path("examples/ai-server-18-devices.json");
	const struct profile_device *o, *a;

	(void)state;
	assert_int_equal(profile_read_file(f, &p, &d), 0);
	o = device(p, "optane905p");
	assert_float_equal(value(o, "rand_read_qd1.iops"), 83989, 0);
	assert_float_equal(value(o, "rand_read_qd1.lat_us.p50"), 11, 0);
	assert_float_equal(value(o, "rand_read_qd1.lat_us.p99"), 22, 0);
	assert_float_equal(value(o, "rand_read_qd32.iops"), 581158, 0);
	assert_float_equal(value(o, "seq_read.mbps"), 2556, 0);
	assert_float_equal(value(o, "sustained_write.mbps"), 2284, 0);
	assert_float_equal(value(o, "mixed_70_30.iops"), 527987, 0);
	assert_float_equal(value(o, "capacity_bytes"), 959925190656.0, 0);
	assert_float_equal(value(o, "thermal.idle_c"), 30, 0);
	assert_float_equal(value(o, "thermal.load_c"), 39, 0);
	a = device(p, "pm9a1-512-a");
	assert_float_equal(value(a, "rand_read_qd1.lat_us.p50"), 51, 0);
	assert_true(isnan(value(a, "rand_read_qd1.lat_us.p99")));	/* not published */
	assert_true(isnan(value(a, "price_per_tb")));
	assert_true(isnan(value(a, "mixed_70_30.read_iops")));
	assert_true(isnan(value(a, "sustained_write.cliff_after_gb")));
	assert_true(isnan(value(a, "latency_target.iops")));
	assert_true(isnan(value(a, "health.percentage_used")));	/* -1 = unknown */
	assert_true(isnan(value(a, "thermal.throttle_events")));
	profile_free(p);
	free(f);
}

static void test_metric_values_set(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d = profile_add_device(p, "x");

	(void)state;
	assert_true(isnan(value(d, "capacity_bytes")));	/* -1 = unknown */
	d->capacity_bytes = 4000000000000LL;
	d->price_per_tb = 0;	/* free is a price */
	d->health.percentage_used = 0;
	d->thermal.throttle_events = 2;
	d->sustained.cliff_after_gb = 0;
	d->lat_target.iops = 123456;
	assert_float_equal(value(d, "capacity_bytes"), 4e12, 0);
	assert_float_equal(value(d, "price_per_tb"), 0, 0);
	assert_float_equal(value(d, "health.percentage_used"), 0, 0);
	assert_float_equal(value(d, "thermal.throttle_events"), 2, 0);
	assert_float_equal(value(d, "sustained_write.cliff_after_gb"), 0, 0);
	assert_float_equal(value(d, "latency_target.iops"), 123456, 0);
	profile_free(p);
}

/* ---- parsing valid input ---- */

#define HEAD "name: t\ntier: hot\n"
#define METRIC "metrics:\n  - {path: seq_read.mbps, better: higher, good: 1000, poor: 10}\n"

static struct model_policy *parse_ok(const char *yaml)
{
	struct tw_diags d = { 0 };
	struct model_policy *p = NULL;
	int ret = model_policy_parse(yaml, strlen(yaml), "t.yaml", &p, &d);

	if (d.n)
		dump(&d);
	assert_int_equal(ret, 0);
	assert_int_equal(d.n, 0);
	assert_non_null(p);
	return p;
}

static void test_parse_values(void **state)
{
	struct model_policy *p;

	(void)state;
	p = parse_ok(HEAD METRIC "constraints:\n  media: [nand, 3dxpoint]\n"
		     "  rotational: true\n  min_capacity_bytes: 512Gi\n  max_load_c: 70.5\n"
		     "  max_percentage_used: 80\n  no_critical_warning: false\n"
		     "need_bytes: 4 TB\ndescription: \"quoted: 20\"\n"
		     "estimates:\n  - {name: s, pattern: chain, reads: 1e4, concurrency: 8, "
		     "via: direct}\n"
		     "  - {name: w, pattern: write, size: 0.5T, restore: true}\n"
		     "  - {name: t, pattern: samples, sample_size: 146.6M, batch: 7, "
		     "compute_s: 0.323}\n");
	assert_float_equal(p->metrics[0].weight, 1, 0);	/* the default */
	assert_int_equal(p->constraints.media,
			 (1u << PROFILE_MEDIA_NAND) | (1u << PROFILE_MEDIA_3DXPOINT));
	assert_int_equal(p->constraints.rotational, 1);
	assert_int_equal(p->constraints.min_capacity_bytes, 512LL << 30);
	assert_float_equal(p->constraints.max_load_c, 70.5, 0);
	assert_int_equal(p->constraints.max_percentage_used, 80);
	assert_false(p->constraints.no_critical_warning);
	assert_int_equal(p->need_bytes, 4000000000000LL);
	assert_string_equal(p->description, "quoted: 20");
	assert_float_equal(p->estimates[0].reads, 10000, 0);
	assert_float_equal(p->estimates[0].concurrency, 8, 0);
	assert_int_equal(p->estimates[0].via, MODEL_VIA_DIRECT);
	assert_null(p->estimates[0].label);
	assert_int_equal(p->estimates[1].size_bytes, 500000000000LL);
	assert_true(p->estimates[1].restore);
	assert_int_equal(p->estimates[1].via, MODEL_VIA_BUFFERED);
	assert_true(isnan(p->estimates[1].concurrency));
	assert_int_equal(p->estimates[2].sample_bytes, 146600000LL);
	assert_float_equal(p->estimates[2].utilization, 0.9, 0);	/* the default */
	assert_float_equal(p->estimates[2].streams, 4, 0);
	model_policy_free(p);
	/* null and empty optional values mean "not given"; sizes in bytes say B */
	p = parse_ok("---\n" HEAD METRIC "constraints:\ndescription: ~\nestimates: []\n"
		     "need_bytes: 1500000B\n...\n");
	assert_int_equal(p->constraints.rotational, -1);
	assert_null(p->description);
	assert_int_equal(p->n_estimates, 0);
	assert_int_equal(p->need_bytes, 1500000);
	model_policy_free(p);
	p = parse_ok(HEAD METRIC "need_bytes: 1.5T\n");
	assert_int_equal(p->need_bytes, 1500000000000LL);
	model_policy_free(p);
	p = parse_ok(HEAD METRIC "need_bytes: 2KiB\n");
	assert_int_equal(p->need_bytes, 2048);
	model_policy_free(p);
	/* weight 0 is allowed while another metric counts */
	p = parse_ok(HEAD "metrics:\n  - {path: seq_read.mbps, better: higher, good: 1000, "
		     "poor: 10, weight: 0}\n  - {path: price_per_tb, better: lower, good: 15, "
		     "poor: 150, weight: 0.5}\n");
	assert_float_equal(p->metrics[0].weight, 0, 0);
	assert_float_equal(p->metrics[1].weight, 0.5, 0);
	model_policy_free(p);
	model_policy_free(NULL);
	model_policy_set_free(NULL);
}

/*
 * refetchable and redundancy: each value parsed; when redundancy is absent
 * (or null) it follows refetchable: none for data that can be fetched
 * again, else preferred.  Every pairing is allowed, even refetchable data
 * that requires a mirror (uptime, not the data, may be the reason).
 */
static void test_redundancy(void **state)
{
	static const struct {
		const char *keys;
		bool refetchable;
		enum model_redundancy redundancy;
	} cases[] = {
		{ "", false, MODEL_REDUNDANCY_PREFERRED },	/* irreplaceable by default */
		{ "refetchable: false\n", false, MODEL_REDUNDANCY_PREFERRED },
		{ "refetchable: true\n", true, MODEL_REDUNDANCY_NONE },
		{ "refetchable: ~\n", false, MODEL_REDUNDANCY_PREFERRED },
		{ "redundancy: null\nrefetchable: true\n", true, MODEL_REDUNDANCY_NONE },
		{ "redundancy: none\n", false, MODEL_REDUNDANCY_NONE },
		{ "redundancy: preferred\n", false, MODEL_REDUNDANCY_PREFERRED },
		{ "redundancy: required\n", false, MODEL_REDUNDANCY_REQUIRED },
		{ "redundancy: \"required\"\n", false, MODEL_REDUNDANCY_REQUIRED },
		{ "refetchable: true\nredundancy: preferred\n", true,
		  MODEL_REDUNDANCY_PREFERRED },
		{ "redundancy: required\nrefetchable: true\n", true,
		  MODEL_REDUNDANCY_REQUIRED },
		{ "refetchable: false\nredundancy: none\n", false, MODEL_REDUNDANCY_NONE },
	};
	char yaml[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct model_policy *p;

		snprintf(yaml, sizeof(yaml), HEAD METRIC "%s", cases[i].keys);
		p = parse_ok(yaml);
		if (p->refetchable != cases[i].refetchable ||
		    p->redundancy != cases[i].redundancy)
			fail_msg("case %zu (%s): refetchable %d, redundancy %d", i,
				 cases[i].keys, p->refetchable, p->redundancy);
		model_policy_free(p);
	}
	assert_string_equal(model_redundancy_name(MODEL_REDUNDANCY_NONE), "none");
	assert_string_equal(model_redundancy_name(MODEL_REDUNDANCY_PREFERRED), "preferred");
	assert_string_equal(model_redundancy_name(MODEL_REDUNDANCY_REQUIRED), "required");
	assert_null(model_redundancy_name(MODEL_REDUNDANCY_COUNT));
	assert_null(model_redundancy_name((enum model_redundancy)-1));
}

/* Both keys wrong in one file: both reported, each at its own value. */
static void test_redundancy_bad_both(void **state)
{
	static const char yaml[] = HEAD METRIC "refetchable: maybe\nredundancy: raid1\n";
	struct tw_diags d = { 0 };
	struct model_policy *p;

	(void)state;
	assert_int_equal(model_policy_parse(yaml, strlen(yaml), "r.yaml", &p, &d), -EINVAL);
	assert_null(p);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.v[0].key, "refetchable");
	assert_int_equal(d.v[0].line, 5);
	assert_int_equal(d.v[0].col, 14);
	assert_string_equal(d.v[0].msg, "must be true or false, not a string (\"maybe\")");
	assert_string_equal(d.v[1].key, "redundancy");
	assert_int_equal(d.v[1].line, 6);
	assert_int_equal(d.v[1].col, 13);
	assert_string_equal(d.v[1].msg,
			    "unknown redundancy \"raid1\" (expected none, preferred or required)");
	tw_diags_clear(&d);
}

/* ---- every validation error: message, key path, line:column ---- */

struct bad_case {
	const char *yaml;
	int line, col;
	const char *key;	/* NULL: none */
	const char *msg;	/* exact message */
};

static const struct bad_case bad_cases[] = {
	/* unknown keys, at every level */
	{ HEAD METRIC "colour: blue\n", 5, 1, "colour", "unknown key (expected name, "
	  "tier, description, metrics, constraints, need_bytes, refetchable, redundancy, "
	  "estimates)" },
	{ HEAD "metrics:\n  - path: seq_read.mbps\n    better: higher\n    good: 1000\n"
	  "    poor: 10\n    weigth: 2\n", 8, 5, "metrics[0].weigth",
	  "unknown key (expected path, better, good, poor, weight)" },
	{ HEAD METRIC "constraints:\n  rotating: false\n", 6, 3, "constraints.rotating",
	  "unknown key (expected media, rotational, min_capacity_bytes, max_load_c, "
	  "max_percentage_used, no_critical_warning)" },
	{ HEAD METRIC "estimates:\n  - {name: s, pattern: stream, size: 1G, reads: 5}\n", 6, 42, "estimates[0].reads",
	  "unknown key (expected name, pattern, label, size, via, streams, read_ahead_kb)" },
	/* wrong types */
	{ HEAD "metrics:\n  - {path: seq_read.mbps, better: higher, good: fast, poor: 10}\n",
	  4, 49, "metrics[0].good", "must be a number, not a string (\"fast\")" },
	{ HEAD "metrics:\n  - {path: seq_read.mbps, better: higher, good: \"1000\", poor: 10}\n",
	  4, 49, "metrics[0].good", "must be a number, not a string (\"1000\")" },
	{ HEAD METRIC "constraints: [rotational]\n", 5, 14, "constraints",
	  "must be a map, not a list" },
	{ HEAD "metrics:\n  path: seq_read.mbps\n", 4, 3, "metrics",
	  "must be a list of metrics, not a map" },
	{ HEAD "metrics:\n  - seq_read.mbps\n", 4, 5, "metrics[0]",
	  "must be a map, not a string (\"seq_read.mbps\")" },
	{ "name: 42\ntier: hot\n" METRIC, 1, 7, "name",
	  "must be a string, not a number (42); quote it" },
	{ HEAD METRIC "description: [a, b]\n", 5, 14, "description",
	  "must be a string, not a list" },
	{ HEAD METRIC "constraints:\n  rotational: yes\n", 6, 15, "constraints.rotational",
	  "must be true or false, not a string (\"yes\")" },
	{ HEAD METRIC "constraints:\n  no_critical_warning: 1\n", 6, 24,
	  "constraints.no_critical_warning", "must be true or false, not a number (1)" },
	{ "- name: t\n", 1, 1, NULL, "must be a map, not a list" },
	{ HEAD METRIC "{a: 1}: x\n", 5, 1, NULL, "keys must be strings, not a map" },
	/* unknown metric paths */
	{ HEAD "metrics:\n  - {path: rand_read_qd1.lat_us.p98, better: lower, good: 20, "
	  "poor: 2000}\n", 4, 12, "metrics[0].path",
	  "unknown metric \"rand_read_qd1.lat_us.p98\" (did you mean rand_read_qd1.lat_us.p90 "
	  "or rand_read_qd1.lat_us.p99?)" },
	{ HEAD "metrics:\n  - {path: speed, better: higher, good: 2, poor: 1}\n", 4, 12,
	  "metrics[0].path", "unknown metric \"speed\" (docs/policies.md lists them)" },
	/* ranges */
	{ HEAD "metrics:\n  - {path: seq_read.mbps, better: higher, good: 100, poor: 100}\n",
	  4, 60, "metrics[0].poor", "equals good (100): the utility needs two different values" },
	{ HEAD "metrics:\n  - {path: seq_read.mbps, better: higher, good: 10, poor: 1000}\n",
	  4, 49, "metrics[0].good", "10 is below poor (1000), but higher is better" },
	{ HEAD "metrics:\n  - {path: thermal.load_c, better: lower, good: 85, poor: 45}\n",
	  4, 49, "metrics[0].good", "85 is above poor (45), but lower is better" },
	{ HEAD "metrics:\n  - {path: seq_read.mbps, better: higher, good: 1000, poor: 0}\n",
	  4, 61, "metrics[0].poor", "must be greater than 0, not 0" },
	{ HEAD "metrics:\n  - {path: seq_read.mbps, better: higher, good: 1e999, poor: 1}\n",
	  4, 49, "metrics[0].good", "1e999 is out of range" },
	{ HEAD "metrics:\n  - {path: seq_read.mbps, better: higher, good: 1000, poor: 10, "
	  "weight: -1}\n", 4, 73, "metrics[0].weight", "must not be negative (-1)" },
	{ HEAD "metrics:\n  - {path: seq_read.mbps, better: higher, good: 1000, poor: 10, "
	  "weight: 0}\n  - {path: seq_write.mbps, better: higher, good: 1000, poor: 10, "
	  "weight: 0}\n", 4, 3, "metrics", "every weight is 0: at least one metric must count" },
	{ HEAD "metrics: []\n", 3, 10, "metrics", "must list at least one metric" },
	/* enums */
	{ "name: t\ntier: lukewarm\n" METRIC, 2, 7, "tier",
	  "unknown tier \"lukewarm\" (expected hot, warm, cold or boot)" },
	{ HEAD "metrics:\n  - {path: seq_read.mbps, better: more, good: 1000, poor: 10}\n",
	  4, 35, "metrics[0].better", "unknown value \"more\" (expected higher or lower)" },
	{ HEAD METRIC "estimates:\n  - {name: s, pattern: restore, size: 1G}\n", 6, 24, "estimates[0].pattern",
	  "unknown pattern \"restore\" (expected chain, beam, stream, write or samples)" },
	{ HEAD METRIC "estimates:\n  - {name: s, pattern: chain, reads: 5, via: nfs}\n", 6, 46, "estimates[0].via",
	  "unknown via \"nfs\" (expected direct, buffered or mmap)" },
	{ HEAD METRIC "estimates:\n  - {name: s, pattern: chain, reads: 5, via: mmap, madvise: seq}\n", 6, 61, "estimates[0].madvise",
	  "unknown madvise \"seq\" (expected normal or random)" },
	{ HEAD METRIC "estimates:\n  - {kind: load, size_gb: 18}\n", 6, 12, "estimates[0].kind",
	  "replaced by pattern (chain, beam, stream, write, samples): load is a stream, search a chain, backup a write (docs/policies.md)" },
	{ HEAD METRIC "redundancy: mirror\n", 5, 13, "redundancy",
	  "unknown redundancy \"mirror\" (expected none, preferred or required)" },
	{ HEAD METRIC "redundancy: Required\n", 5, 13, "redundancy",
	  "unknown redundancy \"Required\" (expected none, preferred or required)" },
	{ HEAD METRIC "redundancy: true\n", 5, 13, "redundancy",
	  "must be none, preferred or required, not a boolean (true)" },
	{ HEAD METRIC "redundancy: 2\n", 5, 13, "redundancy",
	  "must be none, preferred or required, not a number (2)" },
	{ HEAD METRIC "redundancy: [none]\n", 5, 13, "redundancy",
	  "must be none, preferred or required, not a list" },
	{ "name: t\ntier: 3\n" METRIC, 2, 7, "tier",
	  "must be hot, warm, cold or boot, not a number (3)" },
	{ HEAD METRIC "refetchable: yes\n", 5, 14, "refetchable",
	  "must be true or false, not a string (\"yes\")" },
	{ HEAD METRIC "refetchable: \"true\"\n", 5, 14, "refetchable",
	  "must be true or false, not a string (\"true\")" },
	{ HEAD METRIC "refetchable: 1\n", 5, 14, "refetchable",
	  "must be true or false, not a number (1)" },
	{ HEAD METRIC "redundancy: none\nredundancy: required\n", 6, 1, "redundancy",
	  "duplicate key (first at line 5, column 1)" },
	{ HEAD METRIC "constraints:\n  media: [nand, ssd]\n", 6, 17, "constraints.media[1]",
	  "unknown media \"ssd\" (expected nand, 3dxpoint, hdd, ram or unknown)" },
	{ HEAD METRIC "constraints:\n  media: [hdd, hdd]\n", 6, 16, "constraints.media[1]",
	  "hdd is listed twice" },
	{ HEAD METRIC "constraints:\n  media: []\n", 6, 10, "constraints.media",
	  "must name at least one media (leave the key out to allow any)" },
	/* duplicates */
	{ HEAD METRIC "tier: cold\n", 5, 1, "tier", "duplicate key (first at line 2, column 1)" },
	{ HEAD "metrics:\n  - path: seq_read.mbps\n    better: higher\n    good: 1000\n"
	  "    poor: 10\n    good: 2000\n", 8, 5, "metrics[0].good",
	  "duplicate key (first at line 6, column 5)" },
	{ HEAD METRIC "  - {path: seq_read.mbps, better: higher, good: 2000, poor: 20}\n", 5, 12,
	  "metrics[1].path", "seq_read.mbps is already listed (metrics[0], line 4)" },
	/* required keys and nulls */
	{ "name: t\n" METRIC, 1, 1, "tier", "required key is missing" },
	{ HEAD "metrics:\n  - {path: seq_read.mbps, good: 1000, poor: 10}\n", 4, 5,
	  "metrics[0].better", "required key is missing" },
	{ "name: t\ntier: ~\n" METRIC, 2, 7, "tier", "must not be null" },
	{ HEAD METRIC "estimates:\n  - {name: s, size: 18G}\n", 6, 5, "estimates[0].pattern",
	  "required key is missing" },
	{ HEAD METRIC "estimates:\n  - {name: s, pattern: beam, reads_per_query: 40}\n", 6, 5, "estimates[0].beam_width",
	  "required key is missing" },
	{ HEAD METRIC "estimates:\n  - {name: s, pattern: samples, sample_size: 1M, batch: 1}\n", 6, 5, "estimates[0].compute_s",
	  "required key is missing" },
	{ HEAD METRIC "estimates:\n  - {pattern: write, size: 1T}\n", 6, 5, "estimates[0].name",
	  "required key is missing" },
	/* values */
	{ "name: my policy!\ntier: hot\n" METRIC, 1, 7, "name", "\"my policy!\" is not a "
	  "valid name (1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit)" },
	{ HEAD METRIC "need_bytes: 4X\n", 5, 13, "need_bytes", "must be a size with a unit "
	  "(500G, 4T, 512Gi, 4096B), not a string (\"4X\")" },
	{ HEAD METRIC "need_bytes: 500\n", 5, 13, "need_bytes", "a size needs a unit, not a "
	  "bare number (500): write 500G or 500T, or 500B for bytes (K M G T P = powers of "
	  "1000, Ki Mi Gi Ti Pi = powers of 1024)" },
	{ HEAD METRIC "need_bytes: \"500\"\n", 5, 13, "need_bytes", "must be a size with a "
	  "unit (500G, 4T, 512Gi, 4096B), not a string (\"500\")" },
	{ HEAD METRIC "need_bytes: 0\n", 5, 13, "need_bytes", "must be from 1 byte to 9.2E, "
	  "not 0" },
	{ HEAD METRIC "need_bytes: [4T]\n", 5, 13, "need_bytes", "must be a size with a unit "
	  "(500G, 4T, 512Gi, 4096B), not a list" },
	{ HEAD METRIC "constraints:\n  max_load_c: 300\n", 6, 15, "constraints.max_load_c",
	  "must be from -50 to 200 °C, not 300" },
	{ HEAD METRIC "constraints:\n  max_percentage_used: 1.5\n", 6, 24,
	  "constraints.max_percentage_used", "must be a whole number from 0 to 1000000, not 1.5" },
	{ HEAD METRIC "estimates:\n  - {name: s, pattern: beam, beam_width: 0, reads_per_query: 40}\n", 6, 42, "estimates[0].beam_width",
	  "must be a whole number from 1 to 1000000, not 0" },
	{ HEAD METRIC "estimates:\n  - {name: s, pattern: stream, size: 18}\n", 6, 38, "estimates[0].size",
	  "a size needs a unit, not a bare number (18): write 18G or 18T, or 18B for bytes (K M G T P = powers of 1000, Ki Mi Gi Ti Pi = powers of 1024)" },
	{ HEAD METRIC "estimates:\n  - {name: s, pattern: samples, sample_size: 1M, batch: 1, compute_s: 1, utilization: 1.5}\n", 6, 87, "estimates[0].utilization",
	  "must be a number above 0 and at most 1, not 1.5" },
	/* YAML itself */
	{ "", 1, 1, NULL, "empty document: a policy is a map with name, tier and metrics" },
	{ "# nothing here\n", 1, 1, NULL,
	  "empty document: a policy is a map with name, tier and metrics" },
	{ HEAD "metrics: [\n", 4, 1, NULL, "YAML syntax error: did not find expected node "
	  "content (while parsing a flow node at line 4, column 1)" },
	{ HEAD "\tmetrics: x\n", 3, 1, NULL, "YAML syntax error: found a tab character that "
	  "violates indentation (while scanning a plain scalar at line 2, column 7)" },
	{ HEAD METRIC "---\nname: u\n", 5, 1, NULL,
	  "a policy file holds one document (found a second '---')" },
	{ HEAD METRIC "x: &a 1\n", 5, 4, NULL, "anchors and aliases are not allowed (&a)" },
	{ HEAD METRIC "x: *a\n", 5, 4, NULL, "anchors and aliases are not allowed (*a)" },
	{ "name: !!str 42\ntier: hot\n" METRIC, 1, 7, NULL,
	  "tags are not allowed (tag:yaml.org,2002:str); quote a value to make it a string" },
	{ HEAD METRIC "description: \"a\\0b\"\n", 5, 14, NULL,
	  "a value contains a NUL character" },
	{ "name: t\xff\n", 1, 8, NULL, "not valid YAML text: invalid leading UTF-8 octet" },
	{ "name: \xc3\xa9\x01\n", 1, 8, NULL,	/* columns count characters: é is one */
	  "not valid YAML text: control characters are not allowed" },
};

static bool check_case(const struct bad_case *bc, size_t i)
{
	struct tw_diags d = { 0 };
	struct model_policy *p = (struct model_policy *)&d;	/* must become NULL */
	int ret = model_policy_parse(bc->yaml, strlen(bc->yaml), "t.yaml", &p, &d);
	bool ok = ret == -EINVAL && !p && d.n == 1 && !strcmp(d.v[0].file, "t.yaml") &&
		  d.v[0].line == bc->line && d.v[0].col == bc->col &&
		  !strcmp(d.v[0].msg, bc->msg) &&
		  (bc->key ? d.v[0].key && !strcmp(d.v[0].key, bc->key) : !d.v[0].key);

	if (!ok) {
		print_error("case %zu: ret %d, %zu diagnostics; want %d:%d: %s: %s\n", i, ret,
			    d.n, bc->line, bc->col, bc->key ? bc->key : "-", bc->msg);
		dump(&d);
	}
	tw_diags_clear(&d);
	return ok;
}

static void test_bad_inline(void **state)
{
	size_t failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++)
		failed += !check_case(&bad_cases[i], i);
	assert_int_equal(failed, 0);
}

/* Several problems in one file are all reported, in document order. */
static void test_bad_many(void **state)
{
	static const char yaml[] = "name: t\ntier: tepid\nmetrics:\n"
		"  - {path: nope, better: higher, good: 1, poor: 2}\nextra: 1\n";
	struct tw_diags d = { 0 };
	struct model_policy *p;

	(void)state;
	assert_int_equal(model_policy_parse(yaml, strlen(yaml), "m.yaml", &p, &d), -EINVAL);
	assert_null(p);
	assert_int_equal(d.n, 4);
	assert_string_equal(d.v[0].key, "tier");
	assert_string_equal(d.v[1].key, "metrics[0].path");
	assert_string_equal(d.v[2].key, "metrics[0].good");
	assert_string_equal(d.v[2].msg, "1 is below poor (2), but higher is better");
	assert_string_equal(d.v[3].key, "extra");
	tw_diags_clear(&d);
}

/* Too many problems: 50 are reported, then one line says so. */
static void test_bad_capped(void **state)
{
	char yaml[4096] = HEAD METRIC;
	struct tw_diags d = { 0 };
	struct model_policy *p;

	(void)state;
	for (int i = 0; i < 80; i++)
		snprintf(yaml + strlen(yaml), sizeof(yaml) - strlen(yaml), "k%d: 1\n", i);
	assert_int_equal(model_policy_parse(yaml, strlen(yaml), "c.yaml", &p, &d), -EINVAL);
	assert_int_equal(d.n, 51);
	assert_string_equal(d.v[49].key, "k49");
	assert_int_equal(d.v[50].line, 55);
	assert_string_equal(d.v[50].msg, "too many problems; the rest are not reported");
	tw_diags_clear(&d);
}

/* ---- files and directories ---- */

static void expect_file_error(const char *rel, int line, int col, const char *msg)
{
	struct tw_diags d = { 0 };
	struct model_policy *p;
	char *f = src_path(rel);

	assert_int_equal(model_policy_load_file(f, &p, &d), -EINVAL);
	assert_null(p);
	if (d.n != 1)
		dump(&d);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].file, f);
	assert_int_equal(d.v[0].line, line);
	assert_int_equal(d.v[0].col, col);
	assert_string_equal(d.v[0].msg, msg);
	tw_diags_clear(&d);
	free(f);
}

static void test_bad_files(void **state)
{
	struct tw_diags d = { 0 };
	struct model_policy *p;

	(void)state;
	expect_file_error("tests/fixtures/policies/syntax.yaml", 6, 9,
			  "YAML syntax error: did not find expected ',' or ']' (while parsing "
			  "a flow sequence at line 5, column 13)");
	expect_file_error("tests/fixtures/policies/billion-laughs.yaml", 3, 4,
			  "anchors and aliases are not allowed (&a)");
	assert_int_equal(model_policy_load_file("/nonexistent/p.yaml", &p, &d), -ENOENT);
	assert_null(p);
	assert_int_equal(d.n, 0);
}

static struct tw_diags load_dir_bad(const char *rel, int want)
{
	struct tw_diags d = { 0 };
	struct model_policy_set *set = (struct model_policy_set *)&d;
	char *dir = src_path(rel);

	assert_int_equal(model_policy_load_dir(dir, &set, &d), want);
	assert_null(set);
	if (d.n != 1)
		dump(&d);
	free(dir);
	return d;
}

static void test_bad_dirs(void **state)
{
	struct tw_diags d;
	char *want;

	(void)state;
	/* the same name twice: reported at the second file's name */
	d = load_dir_bad("tests/fixtures/policies/dup-names", -EINVAL);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].file, "dup-names/warm.yaml"));
	assert_int_equal(d.v[0].line, 1);
	assert_int_equal(d.v[0].col, 7);
	assert_string_equal(d.v[0].key, "name");
	want = src_path("tests/fixtures/policies/dup-names/hot.yaml");
	assert_true(!strncmp(d.v[0].msg, "policy \"same\" is already defined in ", 36));
	assert_non_null(strstr(d.v[0].msg, want));
	assert_non_null(strstr(d.v[0].msg, " (line 1)"));
	free(want);
	tw_diags_clear(&d);
	/* a tier nobody maps to: reported at the directory, no line */
	d = load_dir_bad("tests/fixtures/policies/no-cold", -EINVAL);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].file, "no-cold"));
	assert_int_equal(d.v[0].line, 0);
	assert_string_equal(d.v[0].key, "tier");
	assert_string_equal(d.v[0].msg, "no policy maps to the cold tier (hot, warm and "
			    "cold each need at least one)");
	tw_diags_clear(&d);
	/* a broken file: its own error only (the tier check needs every file) */
	d = load_dir_bad("tests/fixtures/policies/broken", -EINVAL);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].file, "broken/cold.yaml"));
	assert_int_equal(d.v[0].line, 7);
	assert_int_equal(d.v[0].col, 11);
	assert_string_equal(d.v[0].key, "metrics[0].poor");
	tw_diags_clear(&d);
	/* a missing directory: -ENOENT, said once */
	d = load_dir_bad("tests/fixtures/policies/nonexistent", -ENOENT);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].line, 0);
	assert_string_equal(d.v[0].msg, "cannot read the policy directory: No such file or "
			    "directory (--policies DIR names a directory of policy .yaml files)");
	tw_diags_clear(&d);
}

/* ---- hostile input: never a crash, always -EINVAL with a position ---- */

static void expect_invalid(const char *text, size_t len, const char *msg)
{
	struct tw_diags d = { 0 };
	struct model_policy *p;

	assert_int_equal(model_policy_parse(text, len, "h.yaml", &p, &d), -EINVAL);
	assert_null(p);
	assert_true(d.n >= 1);
	for (size_t i = 0; i < d.n; i++)
		assert_true(d.v[i].line >= 1 && d.v[i].col >= 1);
	if (msg)
		assert_string_equal(d.v[0].msg, msg);
	tw_diags_clear(&d);
}

static void test_deep_nesting(void **state)
{
	const size_t n = 100000;
	char *s = malloc(2 * n + 16), *m;
	size_t len = 0;

	(void)state;
	memset(s, '[', n);
	memset(s + n, ']', n);
	expect_invalid(s, 2 * n, "nested deeper than 16 levels");
	for (size_t i = 0; i < n; i++)
		memcpy(s + 2 * i, "- ", 2);	/* block sequences, one inside the next */
	expect_invalid(s, 2 * n, "nested deeper than 16 levels");
	for (size_t i = 0; i < n; i++)
		memcpy(s + 2 * i, "a:", 2);	/* "a:a:a:…" is one odd key */
	expect_invalid(s, 2 * n, NULL);
	free(s);
	/* indented block maps: a:\n  a:\n    a: … */
	m = malloc(100 * 104);
	for (size_t i = 0; i < 100; i++)
		len += (size_t)sprintf(m + len, "%*sa:\n", (int)(2 * i), "");
	expect_invalid(m, len, "nested deeper than 16 levels");
	free(m);
}

static void test_limits(void **state)
{
	size_t n = 3 + 2 * 10001 + 1;
	char *s = malloc((1u << 20) + 2);

	(void)state;
	memcpy(s, "a: [", 4);
	for (size_t i = 0; i < 10001; i++)
		memcpy(s + 4 + 2 * i, "1,", 2);
	s[n - 1] = ']';
	expect_invalid(s, n, "document too large (more than 10000 nodes)");
	memset(s, '#', (1u << 20) + 1);
	expect_invalid(s, (1u << 20) + 1, "larger than 1 MiB: not a policy file");
	expect_invalid(NULL, 0, "empty document: a policy is a map with name, tier and metrics");
	free(s);
}

static uint32_t lcg(uint32_t *x)
{
	*x = *x * 1664525u + 1013904223u;
	return *x >> 8;
}

/* Random bytes, and random mutations of a valid policy: 0 or -EINVAL only. */
static void test_garbage(void **state)
{
	static const char valid[] = HEAD METRIC "constraints: {media: [nand], "
		"min_capacity_bytes: 4T}\nestimates:\n  - {name: l, pattern: stream, size: 18G}\n";
	static const char alphabet[] = "-:[]{},&*!|>'\"#%@`?\n\t 0aZ.~\\";
	char buf[512];
	uint32_t x = 12345;

	(void)state;
	for (int round = 0; round < 3000; round++) {
		struct tw_diags d = { 0 };
		struct model_policy *p;
		size_t len;
		int ret;

		if (round < 1000) {
			len = lcg(&x) % sizeof(buf);
			for (size_t i = 0; i < len; i++)
				buf[i] = (char)lcg(&x);
		} else {
			len = sizeof(valid) - 1;
			memcpy(buf, valid, len);
			for (int k = 0; k < 1 + round % 4; k++)
				buf[lcg(&x) % len] = round % 2 ? alphabet[lcg(&x) % (sizeof(alphabet) - 1)]
								: (char)lcg(&x);
		}
		ret = model_policy_parse(buf, len, "g.yaml", &p, &d);
		assert_true(ret == 0 || ret == -EINVAL);
		assert_true(ret == 0 ? p && !d.n : !p && d.n);
		for (size_t i = 0; i < d.n; i++)
			assert_true(d.v[i].line >= 1 && d.v[i].col >= 1);
		model_policy_free(p);
		tw_diags_clear(&d);
	}
	memset(buf, 0, 64);
	expect_invalid(buf, 64, NULL);	/* NUL bytes */
}

/*
 * The built-in policies load without a diagnostic (an error would be a
 * build bug) and are the shipped files, policy for policy: name, tier,
 * metrics with their figures, constraints, need and estimates.
 */
static void test_builtin(void **state)
{
	struct tw_diags d = { 0 };
	struct model_policy_set *bi, *dir;
	char *path = src_path("policies");

	(void)state;
	assert_int_equal(model_policy_load_builtin(&bi, &d), 0);
	if (d.n)
		dump(&d);
	assert_int_equal(d.n, 0);
	assert_int_equal(model_policy_load_dir(path, &dir, &d), 0);
	assert_int_equal(bi->n, dir->n);
	for (size_t i = 0; i < bi->n; i++) {
		const struct model_policy *a = bi->v[i], *b = dir->v[i];

		assert_string_equal(a->name, b->name);
		assert_string_equal(a->tier, b->tier);
		assert_string_equal(a->description, b->description);
		assert_int_equal(a->n_metrics, b->n_metrics);
		for (size_t m = 0; m < a->n_metrics; m++) {
			assert_int_equal(a->metrics[m].better, b->metrics[m].better);
			assert_true(a->metrics[m].good == b->metrics[m].good);
			assert_true(a->metrics[m].poor == b->metrics[m].poor);
			assert_true(a->metrics[m].weight == b->metrics[m].weight);
		}
		assert_memory_equal(&a->constraints, &b->constraints,
				    sizeof(a->constraints));
		assert_int_equal(a->need_bytes, b->need_bytes);
		assert_int_equal(a->refetchable, b->refetchable);
		assert_int_equal(a->redundancy, b->redundancy);
		assert_int_equal(a->n_estimates, b->n_estimates);
		assert_string_equal(strrchr(a->file, '/'), strrchr(b->file, '/'));
		assert_non_null(strstr(a->file, MODEL_POLICY_BUILTIN "/"));
	}
	model_policy_set_free(bi);
	model_policy_set_free(dir);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_builtin),
		cmocka_unit_test(test_vector_db),
		cmocka_unit_test(test_model_loading),
		cmocka_unit_test(test_utility),
		cmocka_unit_test(test_metric_table),
		cmocka_unit_test(test_metric_labels),
		cmocka_unit_test(test_device_price),
		cmocka_unit_test(test_docs),
		cmocka_unit_test(test_metric_values),
		cmocka_unit_test(test_metric_values_set),
		cmocka_unit_test(test_parse_values),
		cmocka_unit_test(test_redundancy),
		cmocka_unit_test(test_redundancy_bad_both),
		cmocka_unit_test(test_bad_inline),
		cmocka_unit_test(test_bad_many),
		cmocka_unit_test(test_bad_capped),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_bad_dirs),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
