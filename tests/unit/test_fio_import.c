/* fio's JSON output into a profile: which job lands in which test (a table of
 * rw, bs, iodepth, numjobs), latency from percentiles, from json+ bins and
 * from fio 2.x's microseconds, unmapped jobs listed, bad input positioned. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fio_import.h"

/* The write side's runtime in ms that job() writes. */
static int write_ms = 1000;

/* One job of fio 3.x output: options as "\"rw\": \"read\", …", read and
 * write IOPS, the read side's clat percentiles p50/p99 and max (ns). */
static char *job(const char *name, const char *opts, double riops, double wiops)
{
	char *s = NULL;

	assert_true(asprintf(&s,
		"{\"jobname\": \"%s\", \"groupid\": 0, \"error\": 0,\n"
		" \"job options\": {%s},\n"
		" \"read\": {\"io_bytes\": 1, \"bw_bytes\": %.0f, \"iops\": %g, \"runtime\": 1000,"
		" \"total_ios\": %.0f,\n"
		"  \"clat_ns\": {\"min\": 1000, \"max\": 90000, \"mean\": 20000, \"N\": 10,\n"
		"   \"percentile\": {\"50.000000\": 18000, \"90.000000\": 30000,"
		" \"99.000000\": 60000, \"99.900000\": 95000}}},\n"
		" \"write\": {\"io_bytes\": 1, \"bw_bytes\": %.0f, \"iops\": %g, \"runtime\": %d,"
		" \"clat_ns\": {\"min\": 0, \"max\": 0, \"mean\": 0, \"N\": 0}}}",
		name, opts, riops * 4096, riops, riops, wiops * 4096, wiops, write_ms) >= 0);
	return s;
}

/* A whole document of the jobs j[0..n) (freed) on global options g. */
static char *doc(const char *g, char **j, size_t n)
{
	size_t len = 4096;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += strlen(j[i]) + 4;
	s = malloc(len);
	assert_non_null(s);
	snprintf(s, len, "{\n\"fio version\": \"fio-3.33\", \"timestamp\": 1796221174,\n"
		 "\"global options\": {%s},\n\"jobs\": [\n", g);
	for (size_t i = 0; i < n; i++) {
		strcat(s, j[i]);
		strcat(s, i + 1 < n ? ",\n" : "\n");
		free(j[i]);
	}
	strcat(s, "]}\n");
	return s;
}

static void test_parse_size(void **state)
{
	(void)state;
	assert_int_equal(fio_parse_size("4k"), 4096);
	assert_int_equal(fio_parse_size("4K"), 4096);
	assert_int_equal(fio_parse_size("1M"), 1048576);
	assert_int_equal(fio_parse_size("1m"), 1048576);
	assert_int_equal(fio_parse_size("64KiB"), 65536);
	assert_int_equal(fio_parse_size("4096"), 4096);
	assert_int_equal(fio_parse_size("4k,64k"), 4096);
	assert_int_equal(fio_parse_size("4k-64k"), -1);
	assert_int_equal(fio_parse_size("big"), -1);
	assert_int_equal(fio_parse_size(""), -1);
}

/* Where each job configuration lands: the test it fills, or none. */
struct map_case {
	const char *opts;
	const char *test;		/* profile test name, NULL = none */
	long qd, threads;
	const char *why;		/* substring of the unmapped line */
};

static const struct map_case map_cases[] = {
	{ "\"rw\": \"read\", \"bs\": \"1M\", \"iodepth\": \"32\"", "seq_read", 32, 1, NULL },
	{ "\"rw\": \"read\", \"bs\": \"1024k\", \"iodepth\": \"8\"", "seq_read", 8, 1, NULL },
	{ "\"rw\": \"write\", \"bs\": \"1m\", \"iodepth\": \"32\"", "seq_write", 32, 1, NULL },
	{ "\"rw\": \"randread\", \"bs\": \"4k\"", "rand_read_qd1", 1, 1, NULL },
	{ "\"rw\": \"randread\", \"bs\": \"4096\", \"iodepth\": \"32\"", "rand_read_qd32", 32, 1, NULL },
	{ "\"rw\": \"randread\", \"bs\": \"4k\", \"iodepth\": \"8\", \"numjobs\": \"4\"",
	  "rand_read_qd32", 32, 4, NULL },
	{ "\"readwrite\": \"randread:8\", \"blocksize\": \"4k\"", "rand_read_qd1", 1, 1, NULL },
	{ "\"rw\": \"randrw\", \"rwmixread\": \"70\", \"bs\": \"4k\", \"iodepth\": \"32\"",
	  "mixed_70_30", 32, 1, NULL },
	{ "\"rw\": \"randrw\", \"rwmixwrite\": \"30\", \"bs\": \"4k\", \"iodepth\": \"32\"",
	  "mixed_70_30", 32, 1, NULL },
	{ "\"rw\": \"randrw\", \"bs\": \"4k\"", NULL, 0, 0, "another mix" },
	{ "\"rw\": \"randwrite\", \"bs\": \"4k\"", NULL, 0, 0, "random writes" },
	{ "\"rw\": \"read\", \"bs\": \"128k\"", NULL, 0, 0, "another block size" },
	{ "\"rw\": \"randread\", \"bs\": \"4k\", \"iodepth\": \"8\"", NULL, 0, 0, "neither 1 nor 32" },
	{ "\"rw\": \"randread\", \"bs\": \"4k-64k\"", NULL, 0, 0, "no single block size" },
	{ "\"rw\": \"trim\", \"bs\": \"4k\"", NULL, 0, 0, "no tierwise test is rw=trim" },
};

static const struct profile_io *find_test(const struct profile_device *d, const char *t)
{
	for (int i = 0; i < PROFILE_IO_COUNT; i++)
		if (!strcmp(profile_io_test_name(i), t))
			return &d->io[i];
	return NULL;
}

static void test_mapping(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(map_cases) / sizeof(map_cases[0]); i++) {
		const struct map_case *m = &map_cases[i];
		bool writes = strstr(m->opts, "write") || strstr(m->opts, "randrw");
		char *j[1] = { job("j", m->opts, 1000, writes ? 500 : 0) };
		char *text = doc("\"filename\": \"/dev/nvme0n1\"", j, 1);
		struct profile *p = profile_new();
		struct fio_import_result r = { 0 };
		struct tw_diags d = { 0 };

		print_message("case %zu: %s\n", i, m->opts);
		assert_int_equal(fio_import_string(p, text, strlen(text), "f.json", &r, &d), 0);
		assert_int_equal(d.n, 0);
		assert_int_equal(p->n_devices, 1);
		assert_string_equal(p->devices[0].id, "nvme0n1");
		assert_int_equal(p->devices[0].transport, PROFILE_TR_NVME);
		assert_int_equal(r.n_jobs, 1);
		if (m->test) {
			const struct profile_io *io = find_test(&p->devices[0], m->test);

			assert_true(io->present);
			assert_int_equal(io->qd, m->qd);
			assert_int_equal(io->threads, m->threads);
			assert_int_equal(r.n_unmapped, 0);
			if (!strcmp(m->test, "mixed_70_30")) {
				assert_true(fabs(io->iops - 1500) < 1e-9);
				assert_true(fabs(io->write_iops - 500) < 1e-9);
			} else {
				assert_true(fabs(io->iops - (strstr(m->test, "write") ? 500 : 1000)) < 1e-9);
			}
		} else {
			assert_int_equal(r.n_unmapped, 1);
			assert_non_null(strstr(r.unmapped[0], m->why));
			assert_non_null(strstr(r.unmapped[0], "f.json: job \"j\""));
			assert_non_null(strstr(p->devices[0].notes[p->devices[0].n_notes - 1],
					       "not imported: fio job \"j\""));
		}
		fio_import_result_free(&r);
		tw_diags_clear(&d);
		profile_free(p);
		free(text);
	}
}

/* Percentiles ns → µs; fio's p99.9 above its max is clamped to the max. */
static void test_latency(void **state)
{
	char *j[1] = { job("q1", "\"rw\": \"randread\"", 5000, 0) };
	char *text = doc("\"filename\": \"/tmp/x\"", j, 1);
	struct profile *p = profile_new();
	struct fio_import_result r = { 0 };
	struct tw_diags d = { 0 };
	const struct profile_lat *l;

	(void)state;
	assert_int_equal(fio_import_string(p, text, strlen(text), "f", &r, &d), 0);
	l = &p->devices[0].io[PROFILE_RAND_READ_QD1].lat;
	assert_true(fabs(l->v[PROFILE_LAT_P50] - 18) < 1e-9);
	assert_true(fabs(l->v[PROFILE_LAT_P90] - 30) < 1e-9);
	assert_true(fabs(l->v[PROFILE_LAT_P99] - 60) < 1e-9);
	assert_true(fabs(l->v[PROFILE_LAT_P999] - 90) < 1e-9);	/* 95 > max 90 */
	assert_true(fabs(l->v[PROFILE_LAT_MAX] - 90) < 1e-9);
	assert_true(fabs(l->v[PROFILE_LAT_MEAN] - 20) < 1e-9);
	assert_int_equal(p->devices[0].transport, PROFILE_TR_FILE);
	assert_int_equal(p->devices[0].probe.target, PROFILE_TGT_SCRATCH_FILE);
	assert_string_equal(p->devices[0].probe.engine, "fio-3.33");
	assert_string_equal(p->created, "2026-12-02T14:19:34Z");
	fio_import_result_free(&r);
	profile_free(p);
	free(text);
}

/* json+ bins alone (no "percentile"): fio's rule, the first value whose
 * running count reaches the share. */
static void test_bins(void **state)
{
	static const char text[] =
		"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"b\",\n"
		" \"job options\": {\"rw\": \"randread\", \"bs\": \"4k\", \"filename\": \"/dev/sda\"},\n"
		" \"read\": {\"bw_bytes\": 4096000, \"iops\": 1000, \"runtime\": 1000,\n"
		"  \"clat_ns\": {\"min\": 100, \"max\": 450, \"mean\": 160, \"N\": 1000,\n"
		"   \"bins\": {\"300\": 89, \"100\": 500, \"400\": 10, \"200\": 400, \"450\": 1}}}}]}";
	struct profile *p = profile_new();
	struct fio_import_result r = { 0 };
	struct tw_diags d = { 0 };
	const struct profile_lat *l;

	(void)state;
	assert_int_equal(fio_import_string(p, text, strlen(text), "b", &r, &d), 0);
	l = &p->devices[0].io[PROFILE_RAND_READ_QD1].lat;
	assert_true(fabs(l->v[PROFILE_LAT_P50] - 0.1) < 1e-9);	/* 500 of 1000 at 100 */
	assert_true(fabs(l->v[PROFILE_LAT_P90] - 0.2) < 1e-9);	/* 900 at 200 */
	assert_true(fabs(l->v[PROFILE_LAT_P99] - 0.4) < 1e-9);	/* 989 < 990: 999 at 400 */
	assert_true(fabs(l->v[PROFILE_LAT_P999] - 0.4) < 1e-9);	/* 999 at 400 */
	assert_int_equal(p->devices[0].transport, PROFILE_TR_OTHER);
	assert_int_equal(p->devices[0].probe.target, PROFILE_TGT_RAW_READONLY);
	fio_import_result_free(&r);
	profile_free(p);
}

/* fio 2.x: clat in µs with "0.00" fillers repeated, bw in KiB/s. */
static void test_fio2(void **state)
{
	static const char text[] =
		"{\"fio version\": \"fio-2.2.10\", \"jobs\": [{\"jobname\": \"o\",\n"
		" \"job options\": {\"rw\": \"read\", \"bs\": \"1M\", \"iodepth\": \"32\"},\n"
		" \"read\": {\"io_bytes\": 1000, \"bw\": 1000000, \"iops\": 976.5, \"runtime\": 1000,\n"
		"  \"clat\": {\"min\": 10, \"max\": 9000, \"mean\": 3000,\n"
		"   \"percentile\": {\"50.000000\": 2900, \"99.000000\": 8000, \"0.00\": 0, \"0.00\": 0}}}}]}";
	struct profile *p = profile_new();
	struct fio_import_result r = { 0 };
	struct tw_diags d = { 0 };
	const struct profile_io *io;

	(void)state;
	assert_int_equal(fio_import_string(p, text, strlen(text), "o", &r, &d), 0);
	assert_string_equal(p->devices[0].id, "fio-files");	/* no filename */
	io = &p->devices[0].io[PROFILE_SEQ_READ];
	assert_true(fabs(io->mbps - 1024.0) < 1e-9);		/* 1e6 KiB/s */
	assert_true(fabs(io->lat.v[PROFILE_LAT_P50] - 2900) < 1e-9);
	assert_true(fabs(io->lat.v[PROFILE_LAT_P99] - 8000) < 1e-9);
	assert_true(isnan(io->lat.v[PROFILE_LAT_P90]));
	assert_string_equal(r.fio_version, "fio-2.2.10");
	fio_import_result_free(&r);
	profile_free(p);
}

/* A sweep from three depths or more; two sequential writes: the longer is
 * the sustained write. */
static void test_families(void **state)
{
	char *j[6] = {
		job("q1", "\"rw\": \"randread\", \"iodepth\": \"1\"", 100, 0),
		job("q4", "\"rw\": \"randread\", \"iodepth\": \"4\"", 400, 0),
		job("q16", "\"rw\": \"randread\", \"iodepth\": \"16\"", 1600, 0),
		job("q4b", "\"rw\": \"randread\", \"iodepth\": \"4\"", 410, 0),
		job("w", "\"rw\": \"write\", \"bs\": \"1M\"", 0, 2000),
	};
	char *text;
	struct profile *p = profile_new();
	struct fio_import_result r = { 0 };
	struct tw_diags d = { 0 };
	const struct profile_device *dev;

	(void)state;
	write_ms = 9000;	/* the long job ran longer */
	j[5] = job("w2", "\"rw\": \"write\", \"bs\": \"1M\", \"runtime\": \"120\"", 0, 1000);
	write_ms = 1000;
	text = doc("\"filename\": \"/dev/nvme1n1\"", j, 6);
	assert_int_equal(fio_import_string(p, text, strlen(text), "s", &r, &d), 0);
	dev = &p->devices[0];
	assert_int_equal(dev->n_sweep, 3);
	assert_int_equal(dev->sweep[0].qd, 1);
	assert_int_equal(dev->sweep[1].qd, 4);
	assert_true(fabs(dev->sweep[1].iops - 400) < 1e-9);	/* the first QD4 */
	assert_int_equal(dev->sweep[2].qd, 16);
	assert_true(dev->io[PROFILE_RAND_READ_QD1].present);
	assert_true(dev->io[PROFILE_SEQ_WRITE].present);
	assert_true(fabs(dev->io[PROFILE_SEQ_WRITE].mbps - 2000 * 4096 / 1e6) < 1e-9);
	assert_true(dev->sustained.present);
	assert_true(fabs(dev->sustained.seconds - 9) < 1e-9);
	assert_int_equal(dev->probe.target, PROFILE_TGT_RAW_DESTRUCTIVE);
	assert_int_equal(r.n_unmapped, 1);			/* q4b: QD4 is taken */
	assert_non_null(strstr(r.unmapped[0], "job \"q4b\""));
	assert_non_null(strstr(r.unmapped[0], "qd_sweep's QD4 is given already"));
	assert_int_equal(r.n_jobs, 6);
	assert_int_equal(r.n_mapped, 5);
	fio_import_result_free(&r);
	profile_free(p);
	free(text);
}

/* Bad input: the line, column and key of the problem; not fio at all. */
static void test_bad(void **state)
{
	static const char text[] =
		"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"x\",\n"
		" \"read\": {\"iops\": \"many\", \"runtime\": 1000, \"bw_bytes\": 1}}]}";
	static const char prof[] = "{\"schema\": \"tierwise.profile/1\", \"devices\": []}";
	struct profile *p = profile_new();
	struct fio_import_result r = { 0 };
	struct tw_diags d = { 0 };

	(void)state;
	assert_int_equal(fio_import_string(p, text, strlen(text), "x.json", &r, &d), -EINVAL);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].line, 2);
	assert_int_equal(d.v[0].col, 19);
	assert_string_equal(d.v[0].key, "jobs[0].read.iops");
	tw_diags_clear(&d);
	assert_int_equal(fio_import_string(p, prof, strlen(prof), "p.json", &r, &d), -EINVAL);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].msg, "this is a tierwise profile"));
	tw_diags_clear(&d);
	assert_int_equal(fio_import_string(p, "name: x\n", 8, "y", &r, &d), -EINVAL);
	assert_non_null(strstr(d.v[0].msg, "this is YAML"));
	tw_diags_clear(&d);
	fio_import_result_free(&r);
	profile_free(p);
}

/* The kinds of file the other commands name in one line. */
static void test_file_kind(void **state)
{
	static const struct { const char *text; enum profile_file_kind k; } cases[] = {
		{ "{\"fio version\": \"fio-3.33\", \"jobs\": []}", PROFILE_KIND_FIO },
		{ "{\"schema\": \"tierwise.profile/1\"}", PROFILE_KIND_PROFILE },
		{ "{\"schema\": \"tierwise.plan/1\"}", PROFILE_KIND_PLAN },
		{ "{\"schema\": \"tierwise.inventory/1\"}", PROFILE_KIND_INVENTORY },
		{ "{\"a\": 1}", PROFILE_KIND_JSON },
		{ "{\"a\": ", PROFILE_KIND_JSON },
		{ "# policy\nname: archive\n", PROFILE_KIND_YAML },
		{ "---\n", PROFILE_KIND_YAML },
		{ "Samsung 980 = 80\n", PROFILE_KIND_TEXT },
		{ "a: b = 3\n", PROFILE_KIND_TEXT },
		{ " \n", PROFILE_KIND_EMPTY },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(profile_file_kind(cases[i].text, strlen(cases[i].text)),
				 cases[i].k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_bins),
		cmocka_unit_test(test_fio2),
		cmocka_unit_test(test_families),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_file_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
