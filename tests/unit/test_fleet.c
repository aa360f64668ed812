/* The fleet's statistics (tw_fleet) and the Prometheus renderer (tw_render):
 * medians, the 20 % outlier rule at its edges, groups by method, plans and
 * warnings by kind, the exposition format's escaping and grouping. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fleet.h"
#include "render_fleet.h"
#include "render_prom.h"

static void test_median(void **state)
{
	double a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 }, c[] = { 7 };

	(void)state;
	assert_true(fabs(fleet_median(a, 3) - 3) < 1e-12);
	assert_true(fabs(fleet_median(b, 4) - 2.5) < 1e-12);
	assert_true(fabs(fleet_median(c, 1) - 7) < 1e-12);
	assert_true(isnan(fleet_median(c, 0)));
}

/* Every key figure is a row of the metric table, with its unit and way. */
static void test_metric_rows(void **state)
{
	(void)state;
	assert_true(fleet_n_metrics > 0);
	for (size_t i = 0; i < fleet_n_metrics; i++) {
		const struct model_metric_desc *m = fleet_metric_desc(i);

		assert_non_null(m);
		assert_string_equal(m->path, fleet_metrics[i].key);
		assert_non_null(model_metric_label(m, MODEL_LABEL_FLEET));
	}
	assert_null(fleet_metric_desc(fleet_n_metrics));
	assert_string_equal(fleet_metric_desc(3)->unit, "µs");
	assert_int_equal(fleet_metric_desc(3)->better, MODEL_BETTER_LOWER);
	assert_int_equal(fleet_metric_desc(0)->better, MODEL_BETTER_HIGHER);
}

static void test_plan_path(void **state)
{
	char *p;

	(void)state;
	p = fleet_plan_path_for("dir/host-1.json");
	assert_string_equal(p, "dir/host-1.plan.json");
	free(p);
	p = fleet_plan_path_for("profile");
	assert_string_equal(p, "profile.plan.json");
	free(p);
}

/* A host with one device of model "M": seq_read at bs, and QD1 p99. */
static void add_host(struct fleet *f, const char *name, double mbps, long bs, double p99)
{
	struct fleet_host *h = &f->hosts[f->n_hosts++];
	struct profile_device *d;

	h->profile = profile_new();
	assert_non_null(h->profile);
	free(h->profile->host);
	h->profile->host = strdup(name);
	h->name = strdup(name);
	h->profile_path = strdup(name);
	d = profile_add_device(h->profile, "nvme0n1");
	assert_non_null(d);
	d->model = strdup("M");
	d->io[PROFILE_SEQ_READ] = (struct profile_io){ .present = true, .bs = bs, .qd = 32,
		.mbps = mbps, .iops = NAN, .read_iops = NAN, .write_iops = NAN,
		.lat = profile_lat_none(), .seconds = NAN, .spread_pct = NAN, .threads = -1 };
	if (isfinite(p99)) {
		d->io[PROFILE_RAND_READ_QD1] = d->io[PROFILE_SEQ_READ];
		d->io[PROFILE_RAND_READ_QD1].bs = 4096;
		d->io[PROFILE_RAND_READ_QD1].qd = 1;
		d->io[PROFILE_RAND_READ_QD1].mbps = NAN;
		d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99] = p99;
	}
	f->n_devices++;
}

static struct fleet *new_fleet(void)
{
	struct fleet *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->hosts = calloc(8, sizeof(*f->hosts));
	assert_non_null(f->hosts);
	return f;
}

static size_t outliers_of(const struct fleet *f, const char *metric)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n_outliers; i++)
		n += !strcmp(fleet_metrics[f->stats[f->outliers[i].stat].metric].key, metric);
	return n;
}

/* Four drives of one model; the fourth at `last` MB/s and `p99` µs. */
static struct fleet *four(double last, double p99)
{
	struct fleet *f = new_fleet();

	add_host(f, "a", 1000, 1 << 20, 100);
	add_host(f, "b", 1000, 1 << 20, 100);
	add_host(f, "c", 1000, 1 << 20, 100);
	add_host(f, "d", last, 1 << 20, p99);
	assert_int_equal(fleet_analyse(f), 0);
	return f;
}

static void test_outlier_edges(void **state)
{
	struct fleet *f;

	(void)state;
	f = four(800, 125);		/* exactly 20 % below / slower: outliers */
	assert_int_equal(outliers_of(f, "seq_read.mbps"), 1);
	assert_int_equal(outliers_of(f, "rand_read_qd1.lat_us.p99"), 1);
	assert_string_equal(f->hosts[f->outliers[0].host].name, "d");
	assert_true(fabs(f->outliers[0].pct_below - 20) < 1e-9);
	assert_int_equal(f->n_models, 1);
	assert_int_equal(f->models[0].n_devices, 4);
	assert_int_equal(f->models[0].n_hosts, 4);
	fleet_free(f);
	f = four(810, 124);		/* 19 %: none */
	assert_int_equal(f->n_outliers, 0);
	fleet_free(f);
	f = four(1500, 50);		/* better than the median: none */
	assert_int_equal(f->n_outliers, 0);
	fleet_free(f);
}

static void test_groups(void **state)
{
	struct fleet *f = new_fleet();

	(void)state;
	add_host(f, "a", 1000, 1 << 20, NAN);
	add_host(f, "b", 500, 1 << 20, NAN);	/* two drives: no outlier */
	add_host(f, "c", 100, 128 << 10, NAN);	/* another block size: its own group */
	assert_int_equal(fleet_analyse(f), 0);
	assert_int_equal(f->n_outliers, 0);
	assert_int_equal(f->n_stats, 2);
	assert_int_equal(f->stats[0].n + f->stats[1].n, 3);
	for (size_t i = 0; i < 2; i++)
		if (f->stats[i].n == 2) {
			assert_true(fabs(f->stats[i].median - 750) < 1e-9);
			assert_true(fabs(f->stats[i].min - 500) < 1e-9);
			assert_true(fabs(f->stats[i].max - 1000) < 1e-9);
			assert_non_null(strstr(f->stats[i].method, "bs=1048576 qd=32"));
		}
	fleet_free(f);
}

static char dir[] = "/tmp/tw-fleet-test.XXXXXX";

static int write_file(const char *name, const char *text, char *path, size_t len)
{
	FILE *fp;

	snprintf(path, len, "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (!fp)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

static void test_plan_read(void **state)
{
	struct fleet_plan *p = NULL;
	char path[512], err[256] = "";

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(write_file("ok.plan.json", "{\"schema\": \"tierwise.plan/1\", \"tiers\": ["
		"{\"name\": \"hot\", \"devices\": [\"a\"]}, {\"name\": \"cold\", \"devices\": [\"b\", \"c\"]}],"
		"\"unassigned\": [\"d\"], \"score\": 12.5, \"warnings\": [{\"device\": \"a\", \"kind\": "
		"\"heat\", \"message\": \"hot\"}, {\"device\": null, \"kind\": \"need\", \"message\": \"m\"}]}",
		path, sizeof(path)), 0);
	assert_int_equal(fleet_plan_read(path, &p, err, sizeof(err)), 0);
	assert_int_equal(p->n_tier[0], 1);
	assert_int_equal(p->n_tier[1], 0);
	assert_int_equal(p->n_tier[2], 2);
	assert_string_equal(fleet_plan_tier_of(p, "c"), "cold");
	assert_null(fleet_plan_tier_of(p, "d"));
	assert_int_equal(p->n_unassigned, 1);
	assert_int_equal(p->n_warnings, 2);
	assert_null(p->warnings[1].device);
	assert_true(fabs(p->score - 12.5) < 1e-12);

	{	/* warnings by kind across two hosts with this plan */
		struct fleet *f = new_fleet();

		add_host(f, "a", 1000, 1 << 20, NAN);
		add_host(f, "b", 1000, 1 << 20, NAN);
		f->hosts[0].plan = p;
		assert_int_equal(fleet_plan_read(path, &f->hosts[1].plan, err, sizeof(err)), 0);
		assert_int_equal(fleet_analyse(f), 0);
		assert_int_equal(f->n_kinds, 2);
		assert_string_equal(f->kinds[0].kind, "heat");
		assert_int_equal(f->kinds[0].n, 2);
		fleet_free(f);
	}
	assert_int_equal(write_file("bad.plan.json", "{\"schema\": \"tierwise.plan/1\", \"tiers\": 3}",
				    path, sizeof(path)), 0);
	assert_int_equal(fleet_plan_read(path, &p, err, sizeof(err)), -EINVAL);
	assert_null(p);
	assert_non_null(strstr(err, "tiers"));
	assert_int_equal(write_file("other.json", "{\"schema\": \"tierwise.profile/1\"}", path,
				    sizeof(path)), 0);
	assert_int_equal(fleet_plan_read(path, &p, err, sizeof(err)), -EINVAL);
	assert_int_equal(write_file("broken.json", "{\"schema\": ", path, sizeof(path)), 0);
	assert_int_equal(fleet_plan_read(path, &p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "1:"));
	snprintf(path, sizeof(path), "%s/missing.json", dir);
	assert_int_equal(fleet_plan_read(path, &p, err, sizeof(err)), -ENOENT);
	for (const char *n = "ok.plan.json\0bad.plan.json\0other.json\0broken.json\0"; *n;
	     n += strlen(n) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, n);
		unlink(path);
	}
	rmdir(dir);
}

static void test_prom(void **state)
{
	struct fleet *f = new_fleet();
	struct prom_source src[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	add_host(f, "a\"b\\c", 1000, 1 << 20, 100);
	add_host(f, "x", 900, 1 << 20, NAN);
	src[0] = (struct prom_source){ f->hosts[0].profile, NULL, NULL };
	src[1] = (struct prom_source){ f->hosts[1].profile, NULL, "renamed" };
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	assert_int_equal(prom_render(m, src, 2), 0);
	fclose(m);
	/* each family once, a host label escaped, bytes/s from MB/s, µs to s */
	assert_non_null(strstr(buf, "# TYPE tierwise_io_throughput_bytes_per_second gauge\n"));
	assert_null(strstr(strstr(buf, "# HELP tierwise_io_throughput") + 1,
			   "# HELP tierwise_io_throughput"));
	assert_non_null(strstr(buf, "tierwise_io_throughput_bytes_per_second{host=\"a\\\"b\\\\c\","
				"device=\"nvme0n1\",model=\"M\",serial=\"\",test=\"seq_read\"} 1000000000\n"));
	assert_non_null(strstr(buf, "test=\"rand_read_qd1\",percentile=\"p99\"} 0.0001\n"));
	assert_null(strstr(buf, "quantile="));
	assert_non_null(strstr(buf, "tierwise_device_info{host=\"renamed\",device=\"nvme0n1\""));
	assert_null(strstr(buf, "host=\"x\""));
	/* no health, no temperature measured: no family at all, no zeros */
	assert_null(strstr(buf, "tierwise_health_"));
	assert_null(strstr(buf, "tierwise_temperature_celsius"));
	assert_null(strstr(buf, "tierwise_plan_tier_info"));
	assert_null(strstr(buf, "nan"));
	free(buf);
	fleet_free(f);
}

static void test_render_num(void **state)
{
	char b[32];

	(void)state;
	render_num(b, sizeof(b), 1234567);
	assert_string_equal(b, "1,234,567");
	render_num(b, sizeof(b), 42);
	assert_string_equal(b, "42");
	render_num(b, sizeof(b), 0.126);
	assert_string_equal(b, "0.13");
	render_num(b, sizeof(b), 0);
	assert_string_equal(b, "0");
	render_num(b, sizeof(b), NAN);
	assert_string_equal(b, "-");
	render_num(b, sizeof(b), -1500);
	assert_string_equal(b, "-1,500");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_metric_rows),
		cmocka_unit_test(test_plan_path),
		cmocka_unit_test(test_outlier_edges),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_plan_read),
		cmocka_unit_test(test_prom),
		cmocka_unit_test(test_render_num),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
