/* tierwise.profile/1: round trips and every validation error with its position. */
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

#include "profile.h"

static struct profile *build(void)
{
	struct profile *p = profile_new();
	struct profile_device *d;

	assert_non_null(p);
	d = profile_add_device(p, "nvme0n1");
	assert_non_null(d);
	d->path = strdup("/dev/nvme0n1");
	d->model = strdup("INTEL SSDPE21D960GA");
	d->transport = PROFILE_TR_NVME;
	d->media = PROFILE_MEDIA_3DXPOINT;
	d->capacity_bytes = 960197124096;
	d->price_per_tb = 1234.5;
	d->probe.mode = PROFILE_MODE_QUICK;
	d->probe.target = PROFILE_TGT_RAW_READONLY;
	d->probe.seconds = 28.25;
	d->io[PROFILE_RAND_READ_QD1].present = true;
	d->io[PROFILE_RAND_READ_QD1].bs = 4096;
	d->io[PROFILE_RAND_READ_QD1].qd = 1;
	d->io[PROFILE_RAND_READ_QD1].iops = 83989;
	d->io[PROFILE_RAND_READ_QD1].seconds = 2.5;
	d->io[PROFILE_RAND_READ_QD1].steady = 1;
	d->io[PROFILE_RAND_READ_QD1].spread_pct = 1.25;
	d->io[PROFILE_RAND_READ_QD1].threads = 1;
	d->io[PROFILE_RAND_READ_QD1].label = strdup("burst, fresh");
	d->lat_target = (struct profile_lat_target){ true, 1000, 16, 540000, 0.25 };
	d->io[PROFILE_RAND_READ_QD1].unwritten = 1;
	d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P50] = 11;
	d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99] = 22.5;
	d->sustained.present = true;
	d->sustained.mbps = 1142;
	d->sustained.initial_mbps = 2039;
	d->sustained.cliff_after_gb = 40.8;
	d->sustained.seconds = 120;
	d->sustained.n_series = 2;
	d->sustained.series = calloc(2, sizeof(struct profile_point));
	d->sustained.series[0] = (struct profile_point){ 0, 2039, 41 };
	d->sustained.series[1] = (struct profile_point){ 1, 1142, NAN };
	d->n_sweep = 1;
	d->sweep = calloc(1, sizeof(struct profile_sweep));
	d->sweep[0] = (struct profile_sweep){ .qd = 4, .iops = 250000, .lat = profile_lat_none() };
	d->sweep[0].lat.v[PROFILE_LAT_P99] = 30;
	d->thermal.idle_c = 30;
	d->thermal.load_c = 39;
	d->thermal.throttle_events = 0;
	d->thermal.source = strdup("nvme smart");
	d->app = (struct profile_app){ .present = true, .buffered_mbps = 812.5, .read_ahead_kb = 128,
		.buffered_plan_mbps = 1650, .plan_read_ahead_kb = 4096, .mmap_mbps = 640.25,
		.direct_mbps = 1210.5, .fault_iops = 9100, .fault_p99_us = 310.5, .fault_kib = 131.5, .fsync_mbps = 420,
		.chain_iops = 52000.5, .chain_p50_us = 18.5, .chain_p99_us = 41.25,
		.fault_rand_iops = 31000.5, .fault_rand_p50_us = 28.5, .fault_rand_p99_us = 70.25,
		.inner_mbps = NAN };
	assert_int_equal(profile_device_add_note(d, "burst, fresh"), 0);
	d = profile_add_device(p, "sda");
	d->app.present = true;	/* the faults only, without p99 or KiB a fault */
	d->app.fault_iops = 95;
	d->app.inner_mbps = 110;
	d->model = strdup("ST12000VN0008");
	d->transport = PROFILE_TR_SATA;
	d->media = PROFILE_MEDIA_HDD;
	d->rotational = true;
	d->capacity_bytes = 12000138625024;
	d->probe.mode = PROFILE_MODE_CATALOG;
	d->probe.target = PROFILE_TGT_CATALOG;
	return p;
}

static struct profile *parse_ok(const char *text)
{
	struct tw_diags d = { 0 };
	struct profile *p = NULL;
	int ret = profile_read_string(text, strlen(text), "t.json", &p, &d);

	for (size_t i = 0; i < d.n; i++)
		fprintf(stderr, "unexpected: %d:%d %s: %s\n", d.v[i].line, d.v[i].col,
			d.v[i].key, d.v[i].msg);
	assert_int_equal(ret, 0);
	assert_int_equal(d.n, 0);
	tw_diags_clear(&d);
	return p;
}

static void test_roundtrip_built(void **state)
{
	struct profile *p = build(), *q;
	char *s1 = profile_write_string(p), *s2;
	const struct profile_device *d;

	(void)state;
	assert_non_null(s1);
	q = parse_ok(s1);
	assert_int_equal(q->n_devices, 2);
	d = &q->devices[0];
	assert_string_equal(d->id, "nvme0n1");
	assert_string_equal(d->model, "INTEL SSDPE21D960GA");
	assert_null(d->serial);
	assert_int_equal(d->transport, PROFILE_TR_NVME);
	assert_int_equal(d->media, PROFILE_MEDIA_3DXPOINT);
	assert_true(d->capacity_bytes == 960197124096);
	assert_float_equal(d->price_per_tb, 1234.5, 1e-9);
	assert_float_equal(d->probe.seconds, 28.25, 1e-9);
	assert_true(d->io[PROFILE_RAND_READ_QD1].present);
	assert_false(d->io[PROFILE_SEQ_READ].present);
	assert_float_equal(d->io[PROFILE_RAND_READ_QD1].iops, 83989, 0);
	assert_true(isnan(d->io[PROFILE_RAND_READ_QD1].mbps));
	assert_float_equal(d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99], 22.5, 0);
	assert_true(isnan(d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P90]));
	assert_int_equal(d->io[PROFILE_RAND_READ_QD1].steady, 1);
	assert_int_equal(d->io[PROFILE_RAND_READ_QD1].threads, 1);
	assert_string_equal(d->io[PROFILE_RAND_READ_QD1].label, "burst, fresh");
	assert_int_equal(q->devices[1].io[PROFILE_RAND_READ_QD1].steady, -1);
	assert_true(d->lat_target.present);
	assert_int_equal(d->lat_target.qd, 16);
	assert_float_equal(d->lat_target.iops, 540000, 0);
	assert_float_equal(d->lat_target.unwritten, 0.25, 0);
	assert_float_equal(d->io[PROFILE_RAND_READ_QD1].unwritten, 1, 0);
	assert_true(isnan(q->devices[1].io[PROFILE_RAND_READ_QD1].unwritten));
	assert_int_equal(d->sustained.n_series, 2);
	assert_float_equal(d->sustained.series[0].temp_c, 41, 0);
	assert_true(isnan(d->sustained.series[1].temp_c));
	assert_float_equal(d->sustained.cliff_after_gb, 40.8, 1e-9);
	assert_int_equal(d->n_sweep, 1);
	assert_int_equal(d->sweep[0].qd, 4);
	assert_int_equal(d->thermal.throttle_events, 0);
	assert_true(isnan(q->devices[1].thermal.idle_c));
	assert_int_equal(q->devices[1].thermal.throttle_events, -1);
	assert_string_equal(d->notes[0], "burst, fresh");
	assert_true(q->devices[1].rotational);
	assert_true(d->app.present);
	assert_float_equal(d->app.buffered_mbps, 812.5, 0);
	assert_int_equal(d->app.read_ahead_kb, 128);
	assert_float_equal(d->app.buffered_plan_mbps, 1650, 0);
	assert_int_equal(d->app.plan_read_ahead_kb, 4096);
	assert_float_equal(d->app.mmap_mbps, 640.25, 0);
	assert_float_equal(d->app.direct_mbps, 1210.5, 0);
	assert_float_equal(d->app.fault_iops, 9100, 0);
	assert_float_equal(d->app.fault_p99_us, 310.5, 0);
	assert_float_equal(d->app.fault_kib, 131.5, 0);
	assert_float_equal(d->app.chain_iops, 52000.5, 0);
	assert_float_equal(d->app.chain_p50_us, 18.5, 0);
	assert_float_equal(d->app.chain_p99_us, 41.25, 0);
	assert_float_equal(d->app.fault_rand_iops, 31000.5, 0);
	assert_float_equal(d->app.fault_rand_p50_us, 28.5, 0);
	assert_float_equal(d->app.fault_rand_p99_us, 70.25, 0);
	assert_float_equal(d->app.fsync_mbps, 420, 0);
	assert_true(isnan(d->app.inner_mbps));
	assert_null(strstr(s1, "\"seq_read_inner\": {\"mbps\": null"));
	d = &q->devices[1];
	assert_true(d->app.present);
	assert_float_equal(d->app.fault_iops, 95, 0);
	assert_true(isnan(d->app.fault_p99_us) && isnan(d->app.fault_kib));
	assert_true(isnan(d->app.chain_iops) && isnan(d->app.chain_p50_us));
	assert_true(isnan(d->app.fault_rand_iops) && isnan(d->app.fault_rand_p99_us));
	assert_true(isnan(d->app.buffered_mbps) && isnan(d->app.fsync_mbps) &&
		    isnan(d->app.direct_mbps));
	assert_int_equal(d->app.read_ahead_kb, -1);
	assert_float_equal(d->app.inner_mbps, 110, 0);
	assert_false(q->devices[0].rotational);
	s2 = profile_write_string(q);
	assert_string_equal(s1, s2);	/* write ∘ read is the identity */
	free(s1);
	free(s2);
	profile_free(p);
	profile_free(q);
}

static void test_example_roundtrip(void **state)
{
	char path[4096];
	struct tw_diags d = { 0 };
	struct profile *p, *q;
	const char *src = getenv("TW_SRCDIR");
	char *s1, *s2;

	(void)state;
	snprintf(path, sizeof(path), "%s/examples/ai-server-18-devices.json", src ? src : ".");
	assert_int_equal(profile_read_file(path, &p, &d), 0);
	assert_int_equal(p->n_devices, 18);
	for (size_t i = 0; i < p->n_devices; i++) {
		const struct profile_device *x = &p->devices[i];

		if (!strcmp(x->id, "optane905p")) {
			assert_int_equal(x->media, PROFILE_MEDIA_3DXPOINT);
			assert_float_equal(x->io[PROFILE_RAND_READ_QD1].iops, 83989, 0);
			assert_float_equal(x->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P50], 11, 0);
			assert_float_equal(x->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99], 22, 0);
		}
		if (!strcmp(x->id, "ironwolf12t")) {
			assert_true(x->capacity_bytes == 12000000000000);
			assert_true(x->rotational);
			assert_float_equal(x->sustained.mbps, 236, 0);
		}
	}
	s1 = profile_write_string(p);
	q = parse_ok(s1);
	s2 = profile_write_string(q);
	assert_string_equal(s1, s2);
	free(s1);
	free(s2);
	profile_free(p);
	profile_free(q);
}

#define HEAD "{\"schema\": \"tierwise.profile/1\", \"host\": \"h\",\n" \
	"\"created\": \"2026-11-29T20:00:00Z\", \"tool\": {\"name\": \"t\", \"version\": \"1\"},\n" \
	"\"devices\": [\n"
#define DEV(extra) "{\"id\": \"a\", \"model\": \"m\", \"transport\": \"nvme\", \"media\": \"nand\",\n" \
	" \"rotational\": false, \"capacity_bytes\": 100,\n" \
	" \"probe\": {\"mode\": \"quick\", \"target\": \"raw-readonly\", \"seconds\": 1}" extra "}"

struct bad_case {
	const char *text;
	int line, col;
	const char *key;	/* NULL: no key (syntax error) */
	const char *msg;	/* substring */
};

static const struct bad_case bad_cases[] = {
	{ "{\"schema\": ", 1, 11, NULL, "not valid JSON" },
	{ "[1, 2]", 1, 1, "", "must be a JSON object" },
	{ "{\"schema\": \"x\", \"host\": \"h\", \"created\": \"2026-11-29T20:00:00Z\",\n"
	  " \"tool\": {\"name\": \"t\", \"version\": \"1\"}, \"devices\": []}",
	  1, 12, "schema", "not a tierwise profile" },
	{ HEAD DEV("") ", " DEV("") "]}", 6, 78, "devices[1].id", "duplicate device id \"a\"" },
	{ HEAD "{\"id\": \"a\", \"model\": \"m\", \"transport\": \"pcie\"}]}", 4, 40,
	  "devices[0].transport", "unknown value \"pcie\"" },
	{ HEAD "{\"id\": \"a\", \"model\": \"m\", \"transport\": \"nvme\"}]}", 4, 1,
	  "devices[0].media", "required key is missing" },
	{ HEAD DEV(", \"capacity_bytes\": 5") "]}", 0, 0, NULL, "duplicate object key" },
	{ HEAD DEV(",\n \"results\": {\"seq_read\": {\"bs\": 1048576, \"qd\": 32, \"mbps\": -5}}") "]}",
	  7, 60, "devices[0].results.seq_read.mbps", "must be greater than 0" },
	{ HEAD DEV(",\n \"results\": {\"rand_read_qd1\": {\"bs\": 4096, \"qd\": 1, \"iops\": 0}}") "]}",
	  7, 61, "devices[0].results.rand_read_qd1.iops", "not a measurement; use null" },
	{ HEAD DEV(",\n \"results\": {\"rand_read_qd1\": {\"bs\": 4096, \"qd\": 1, \"iops\": 1e308}}") "]}",
	  7, 61, "devices[0].results.rand_read_qd1.iops", "1e+308 IOPS is more than any device does" },
	{ HEAD DEV(",\n \"results\": {\"seq_read\": {\"bs\": 1048576, \"qd\": 32, \"mbps\": 1e15}}") "]}",
	  7, 60, "devices[0].results.seq_read.mbps", "1e+15 MB/s is more than any device does" },
	{ HEAD DEV(",\n \"results\": {\"rand_read_qd1\": {\"bs\": 4096, \"qd\": 1, "
		  "\"lat_us\": {\"p50\": 40, \"p99\": 2e9}}}") "]}",
	  7, 82, "devices[0].results.rand_read_qd1.lat_us.p99", "2000000000 µs is more than any device does" },
	{ HEAD DEV(",\n \"results\": {\"mmap_fault_random\": {\"iops\": 100000001}}") "]}",
	  7, 44, "devices[0].results.mmap_fault_random.iops", "100000001 IOPS is more than any device does" },
	{ HEAD DEV(",\n \"results\": {\"rand_read_qd1\": {\"bs\": \"4k\", \"qd\": 1}}") "]}",
	  7, 38, "devices[0].results.rand_read_qd1.bs", "must be an integer, not a string" },
	{ HEAD DEV(",\n \"results\": {\"rand_read_qd1\": {\"bs\": 4096.5, \"qd\": 1}}") "]}",
	  7, 38, "devices[0].results.rand_read_qd1.bs", "must be an integer, not a fraction" },
	{ HEAD DEV(",\n \"results\": {\"seq_raed\": {\"bs\": 4096, \"qd\": 1}}") "]}",
	  7, 26, "devices[0].results.seq_raed", "unknown test" },
	{ HEAD DEV(", \"colour\": 3") "]}", 6, 80, "devices[0].colour", "unknown key" },
	{ HEAD DEV(",\n \"results\": {\"rand_read_qd1\": {\"bs\": 4096, \"qd\": 1, "
		  "\"lat_us\": {\"p50\": 40, \"p99\": 20}}}") "]}",
	  7, 82, "devices[0].results.rand_read_qd1.lat_us.p99", "percentiles must not decrease" },
	{ HEAD DEV(",\n \"results\": {\"seq_read\": {\"bs\": 1048576, \"qd\": 32, \"unwritten\": 1.5}}") "]}",
	  7, 65, "devices[0].results.seq_read.unwritten", "above the maximum" },
	{ HEAD DEV(",\n \"results\": {\"latency_target\": {\"p99_us\": 1000, \"unwritten\": -0.1}}") "]}",
	  7, 62, "devices[0].results.latency_target.unwritten", "must not be negative" },
	{ HEAD DEV(",\n \"results\": {\"buffered_read\": {\"mbps\": -5, \"read_ahead_kb\": 128}}") "]}",
	  7, 40, "devices[0].results.buffered_read.mbps", "must be greater than 0" },
	{ HEAD DEV(",\n \"results\": {\"buffered_read_plan\": {\"mbps\": 5, \"read_ahead_kb\": -1}}") "]}",
	  7, 65, "devices[0].results.buffered_read_plan.read_ahead_kb", "must not be negative" },
	{ HEAD DEV(",\n \"results\": {\"mmap_fault\": {\"iops\": 90, \"lat_us\": {\"p99\": \"fast\"}}}") "]}",
	  7, 59, "devices[0].results.mmap_fault.lat_us.p99", "must be a number" },
	{ HEAD DEV(",\n \"results\": {\"mmap_fault\": {\"iops\": 90, \"kib_per_fault\": 0}}") "]}",
	  7, 58, "devices[0].results.mmap_fault.kib_per_fault", "not a measurement; use null" },
	{ HEAD DEV(",\n \"results\": {\"fsync_write\": {}}") "]}",
	  7, 29, "devices[0].results.fsync_write.mbps", "required key is missing" },
	{ HEAD DEV(",\n \"results\": {\"mmap_read\": {\"mbps\": 5, \"kib\": 4}}") "]}",
	  7, 46, "devices[0].results.mmap_read.kib", "unknown key" },
	{ HEAD DEV(",\n \"thermal\": {\"load_c\": 900}") "]}", 7, 24,
	  "devices[0].thermal.load_c", "above the maximum" },
	{ HEAD DEV(",\n \"notes\": [\"ok\", 5]") "]}", 7, 18, "devices[0].notes[1]",
	  "must be a string" },
	{ HEAD DEV(",\n \"capacity_bytes\": -1") "]}", 0, 0, NULL, "duplicate object key" },
	{ HEAD "{\"id\": \"\", \"model\": \"m\", \"transport\": \"nvme\", \"media\": \"nand\","
	  " \"rotational\": 0, \"capacity_bytes\": -1, \"probe\": {\"mode\": \"quick\", "
	  "\"target\": \"raw-readonly\"}}]}", 4, 8, "devices[0].id", "must not be empty" },
	{ "{\"schema\": \"tierwise.profile/1\", \"host\": \"h\", \"created\": \"yesterday\",\n"
	  " \"tool\": {\"name\": \"t\", \"version\": \"1\"}, \"devices\": []}",
	  1, 58, "created", "not an RFC 3339 date-time" },
	{ "{\"schema\": \"tierwise.profile/1\", \"host\": \"h\", \"created\": \"2026-11-29T20:00:00Z\",\n"
	  " \"tool\": {\"name\": \"t\"}, \"devices\": {}}",
	  2, 10, "tool.version", "required key is missing" },
	{ HEAD DEV(",\n \"results\": {\"sustained_write\": {\"mbps\": 10, \"series\": "
		  "[{\"t\": 0, \"mbps\": 1}, {\"t\": 1}]}}") "]}",
	  7, 78, "devices[0].results.sustained_write.series[1].mbps", "required key is missing" },
	{ "{\"schema\": \"tierwise.profile/1\", \"host\": \"h\", \"created\": \"2026-11-29T20:00:00Z\",\n"
	  " \"tool\": {\"name\": \"t\", \"version\": \"1\"}, \"devices\": [], \"x\": 1e999}",
	  0, 0, NULL, "not valid JSON" },
	/* a multipath path's own link: checked as a device's */
	{ HEAD DEV(",\n \"multipath\": {\"paths\": [{\"name\": \"nvme0c1n1\", \"controller\": "
		  "\"nvme1\", \"link\": {\"width\": 0}}]}") "]}",
	  0, 0, "devices[0].multipath.paths[0].link.width", "must be at least 1" },
	{ HEAD DEV(",\n \"multipath\": {\"paths\": [{\"name\": \"nvme0c1n1\", \"controller\": "
		  "\"nvme1\", \"link\": {\"lanes\": 2}}]}") "]}",
	  0, 0, "devices[0].multipath.paths[0].link.lanes", "unknown key" },
	{ HEAD DEV(",\n \"multipath\": {\"paths\": [{\"name\": \"nvme0c1n1\", \"colour\": 1}]}") "]}",
	  0, 0, "devices[0].multipath.paths[0].controller", "required key is missing" },
};

/* link (a device's PCIe link) and links (shared bottlenecks): read, written
 * back the same, and a group naming no device of the profile refused. */
static void test_links_roundtrip(void **state)
{
	static const char text[] = HEAD DEV(",\n \"link\": {\"pcie_address\": \"0000:04:00.0\", "
		"\"speed_gts\": 8, \"width\": 2, \"max_speed_gts\": 16, \"max_width\": 4, "
		"\"numa_node\": 0, \"upstream\": [\"0000:00:01.4\"]}") ",\n"
		"{\"id\": \"b\", \"model\": \"m\", \"transport\": \"nvme\", \"media\": \"nand\","
		" \"rotational\": false, \"capacity_bytes\": 100, \"probe\": {\"mode\": \"quick\","
		" \"target\": \"raw-readonly\"}}],\n"
		"\"links\": [{\"devices\": [\"a\", \"b\"], \"solo_sum_mbps\": 60, \"together_mbps\": 31.5}]}";
	struct profile *p = parse_ok(text), *q;
	char *out, *out2;
	struct tw_diags d = { 0 };
	const char *bad;
	char *badtext;

	(void)state;
	assert_true(p->devices[0].link.present);
	assert_string_equal(p->devices[0].link.pcie_address, "0000:04:00.0");
	assert_int_equal(p->devices[0].link.width, 2);
	assert_float_equal(p->devices[0].link.max_speed_gts, 16, 1e-9);
	assert_int_equal(p->devices[0].link.n_upstream, 1);
	assert_true(profile_link_degraded(&p->devices[0].link));
	assert_false(p->devices[1].link.present);
	assert_int_equal(p->n_links, 1);
	assert_int_equal(p->links[0].n_ids, 2);
	assert_string_equal(p->links[0].ids[1], "b");
	assert_float_equal(p->links[0].together_mbps, 31.5, 1e-9);
	out = profile_write_string(p);
	q = parse_ok(out);
	out2 = profile_write_string(q);
	assert_string_equal(out, out2);	/* written back the same */
	assert_null(strstr(out, "\"link\": null"));	/* b has none: omitted */
	free(out);
	free(out2);
	profile_free(q);
	profile_free(p);
	bad = strstr(text, "\"b\"]");
	assert_non_null(bad);
	assert_true(asprintf(&badtext, "%.*s\"zz\"]%s", (int)(bad - text), text, bad + 4) > 0);
	assert_int_equal(profile_read_string(badtext, strlen(badtext), "t.json", &p, &d), -EINVAL);
	assert_true(d.n >= 1);
	assert_string_equal(d.v[0].key, "links[0].devices[1]");
	assert_non_null(strstr(d.v[0].msg, "no device \"zz\""));
	tw_diags_clear(&d);
	free(badtext);
}

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct tw_diags d = { 0 };
		struct profile *p = (struct profile *)1;
		bool found = false;
		int ret = profile_read_string(c->text, strlen(c->text), "t.json", &p, &d);

		if (ret != -EINVAL)
			fail_msg("case %zu: ret %d", i, ret);
		assert_null(p);
		assert_true(d.n >= 1);
		for (size_t k = 0; k < d.n && !found; k++) {
			const struct tw_diag *g = &d.v[k];

			found = strstr(g->msg, c->msg) &&
				(!c->key ? !g->key : g->key && !strcmp(g->key, c->key)) &&
				(c->line == 0 || (g->line == c->line && g->col == c->col));
		}
		if (!found) {
			for (size_t k = 0; k < d.n; k++)
				fprintf(stderr, "case %zu got %s:%d:%d: %s: %s\n", i, d.v[k].file,
					d.v[k].line, d.v[k].col, d.v[k].key ? d.v[k].key : "(none)",
					d.v[k].msg);
			fail_msg("case %zu: expected %d:%d %s: %s", i, c->line, c->col,
				 c->key ? c->key : "(none)", c->msg);
		}
		assert_string_equal(d.v[0].file, "t.json");
		tw_diags_clear(&d);
	}
}

/* The null engine does no I/O: its rates pass the bounds no device passes,
 * and its profile reads back; the same figures from a device are refused
 * (bad_cases). */
static void test_null_engine_bounds(void **state)
{
	static const char text[] = "{\"schema\": \"tierwise.profile/1\", \"host\": \"h\",\n"
		"\"created\": \"2026-11-29T20:00:00Z\", \"tool\": {\"name\": \"t\", \"version\": \"1\"},\n"
		"\"devices\": [{\"id\": \"a\", \"model\": \"m\", \"transport\": \"zram\",\n"
		" \"media\": \"ram\", \"rotational\": false, \"capacity_bytes\": 100,\n"
		" \"results\": {\"seq_read\": {\"bs\": 1048576, \"qd\": 32, \"mbps\": 28835156.96}},\n"
		" \"probe\": {\"mode\": \"quick\", \"target\": \"raw-readonly\", \"engine\": \"null\"}}]}";
	struct profile *p;

	(void)state;
	p = parse_ok(text);	/* results before probe in the file: read after it */
	assert_float_equal(p->devices[0].io[PROFILE_SEQ_READ].mbps, 28835156.96, 1e-3);
	profile_free(p);
}

static void test_diag_format(void **state)
{
	struct tw_diags d = { 0 };
	char buf[256];

	(void)state;
	assert_int_equal(tw_diags_add(&d, "p.json", 7, 42, "devices[0].media", "bad %d", 5), 0);
	tw_diag_format(&d.v[0], buf, sizeof(buf));
	assert_string_equal(buf, "p.json:7:42: devices[0].media: bad 5");
	tw_diags_clear(&d);
	tw_diags_clear(NULL);
	profile_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_built),
		cmocka_unit_test(test_example_roundtrip),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_null_engine_bounds),
		cmocka_unit_test(test_links_roundtrip),
		cmocka_unit_test(test_diag_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
