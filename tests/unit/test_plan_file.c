/* The one reader of tierwise.plan/1 files (advisor/plan_file.c): what it
 * takes from a plan (tiers by name), and each thing it refuses, with its
 * message. */
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

#include "plan_file.h"

#define TIERS_OK "\"tiers\": [{\"name\": \"hot\", \"devices\": [\"a\"]}, " \
		 "{\"name\": \"warm\", \"devices\": []}, {\"name\": \"cold\", \"devices\": []}]"

/* text into a new file; its path (static buffer). */
static const char *write_tmp(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/test_plan_file.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_reads_a_plan(void **state)
{
	const char *path = write_tmp(
		"{\"schema\": \"tierwise.plan/1\", \"tiers\": ["
		"{\"name\": \"hot\", \"devices\": [\"a\", \"b\"], \"device_scores\": {\"a\": 91.5},"
		" \"policies\": [\"vector-db\"], \"need_bytes\": 1000, \"raid\": {\"level\": \"raid1\","
		" \"name\": \"md-vector-db\", \"seq_read_mbps\": 6000},"
		" \"estimates\": {\"vector-db\": [{\"label\": \"a search\", \"unit\": \"s\","
		" \"value\": 0.12, \"device\": \"a\"}]},"
		" \"mounts\": [{\"point\": \"/srv/vector-db\", \"fs\": \"xfs\", \"reuse\": true}]},"
		"{\"name\": \"warm\", \"devices\": []}, {\"name\": \"cold\", \"devices\": [\"c\"],"
		" \"mount\": {\"point\": \"/srv/archive\", \"fs\": \"ext4\"}}],"
		" \"unassigned\": [\"d\"], \"score\": 87.25, \"exact\": true,"
		" \"runner_up\": {\"gap\": 3.5},"
		" \"warnings\": [{\"kind\": \"heat\", \"device\": \"a\", \"message\": \"83 C\"},"
		" {\"kind\": \"need\", \"device\": null, \"message\": \"short\"}],"
		" \"buy\": [{\"id\": \"optane\", \"tier\": \"hot\", \"count\": 2, \"price\": 600}],"
		" \"budget\": 2000}");
	struct advisor_plan_file *f = NULL;
	char err[256] = "";
	const struct advisor_file_tier *hot, *cold;

	(void)state;
	assert_int_equal(advisor_plan_file_read(path, NULL, &f, err, sizeof(err)), 0);
	unlink(path);
	hot = &f->tiers[ADVISOR_HOT];
	cold = &f->tiers[ADVISOR_COLD];
	assert_string_equal(hot->name, "hot");
	assert_int_equal(hot->n_devices, 2);
	assert_string_equal(hot->devices[1], "b");
	assert_true(hot->scores[0] == 91.5 && isnan(hot->scores[1]));
	assert_int_equal(hot->need_bytes, 1000);
	assert_int_equal(hot->usable_bytes, -1);
	assert_string_equal(hot->raid_level, "raid1");
	assert_true(hot->raid_read_mbps == 6000);
	assert_int_equal(hot->n_est, 1);
	assert_string_equal(hot->est[0].policy, "vector-db");
	assert_true(hot->est[0].value == 0.12);
	assert_int_equal(hot->n_mounts, 1);
	assert_true(hot->mounts[0].reuse && !hot->mounts[0].directory);
	assert_int_equal(cold->n_mounts, 1);	/* "mount": one mount */
	assert_string_equal(cold->mounts[0].fs, "ext4");
	assert_int_equal(f->tiers[ADVISOR_WARM].n_devices, 0);
	assert_int_equal(f->n_unassigned, 1);
	assert_true(f->score == 87.25 && f->exact && f->runner_up_gap == 3.5);
	assert_true(isnan(f->cost_total));
	assert_int_equal(f->n_warnings, 2);
	assert_null(f->warnings[1].device);
	assert_string_equal(f->warnings[0].message, "83 C");
	assert_true(f->buying && f->budget == 2000);
	assert_int_equal(f->n_buy, 1);
	assert_int_equal(f->buy[0].count, 2);
	assert_string_equal(f->buy[0].tier, "hot");
	assert_true(isnan(f->buy[0].cost));
	advisor_plan_file_free(f);
	advisor_plan_file_free(NULL);
}

/* Tiers go by their names, in any order; a tier not there has no devices. */
static void test_tiers_by_name(void **state)
{
	const char *path = write_tmp("{\"schema\": \"tierwise.plan/1\", \"tiers\": ["
				     "{\"name\": \"cold\", \"devices\": [\"b\", \"c\"]},"
				     " {\"name\": \"hot\", \"devices\": [\"a\"]}]}");
	struct advisor_plan_file *f = NULL;
	char err[256] = "";

	(void)state;
	assert_int_equal(advisor_plan_file_read(path, NULL, &f, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(f->tiers[ADVISOR_HOT].n_devices, 1);
	assert_int_equal(f->tiers[ADVISOR_WARM].n_devices, 0);
	assert_int_equal(f->tiers[ADVISOR_COLD].n_devices, 2);
	assert_string_equal(f->tiers[ADVISOR_COLD].devices[1], "c");
	assert_string_equal(f->tiers[ADVISOR_WARM].name, "warm");
	advisor_plan_file_free(f);
}

static void test_refuses(void **state)
{
	static const struct {
		const char *text, *hint, *says;
	} cases[] = {
		{ "{\"schema\": \"tierwise.plan/1\", \"schema\": \"tierwise.plan/1\", " TIERS_OK "}",
		  NULL, "not JSON: 1:" },
		{ "{\"schema\": \"tierwise.plan/1\", \"tiers\": 3}", NULL,
		  "tiers: expected an array of the tiers hot, warm, cold" },
		{ "{\"schema\": \"tierwise.plan/1\", \"tiers\": [{\"name\": \"warm\", \"devices\": []},"
		  " {\"name\": \"hot\", \"devices\": []}, {\"name\": \"warm\", \"devices\": []}]}",
		  NULL, "tiers[2].name: expected \"hot\", \"warm\" or \"cold\", each tier once" },
		{ "{\"schema\": \"tierwise.plan/1\", \"tiers\": [{\"name\": \"boot\", \"devices\": []}]}",
		  NULL, "tiers[0].name: expected \"hot\"" },
		{ "{\"schema\": \"tierwise.plan/1\", \"tiers\": [{\"name\": \"hot\"},"
		  " {\"name\": \"warm\", \"devices\": []}, {\"name\": \"cold\", \"devices\": []}]}",
		  NULL, "hot.devices: expected an array of strings" },
		{ "{\"schema\": \"tierwise.plan/1\", \"tiers\": [{\"name\": \"hot\", \"devices\": [1]},"
		  " {\"name\": \"warm\", \"devices\": []}, {\"name\": \"cold\", \"devices\": []}]}",
		  NULL, "hot.devices[0]: expected a string" },
		{ "{\"schema\": \"tierwise.plan/1\", " TIERS_OK ", \"warnings\": [{\"message\": \"m\"}]}",
		  NULL, "warnings[0].kind: expected a string" },
		{ "{\"schema\": \"tierwise.plan/1\", " TIERS_OK ", \"score\": \"high\"}", NULL,
		  "plan.score: expected a number" },
		{ "{\"schema\": \"tierwise.plan/1\", " TIERS_OK ", \"buy\": [{\"id\": \"x\","
		  " \"tier\": \"hot\", \"count\": 0}]}", NULL,
		  "buy[0].count: expected a whole number of at least 1" },
		{ "{\"schema\": \"tierwise.profile/1\"}", "HINT",
		  "not a tierwise.plan/1 document: its \"schema\" is \"tierwise.profile/1\": a profile "
		  "(give it as a PROFILE argument); HINT" },
		{ "{\"tiers\": []}", NULL, "not a tierwise.plan/1 document (no \"schema\": "
		  "\"tierwise.plan/1\")" },
		{ "{\"schema\":", "HINT", "(HINT)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *path = write_tmp(cases[i].text);
		struct advisor_plan_file *f = (void *)1;
		char err[512] = "";

		assert_int_equal(advisor_plan_file_read(path, cases[i].hint, &f, err, sizeof(err)),
				 -EINVAL);
		unlink(path);
		assert_null(f);
		if (!strstr(err, cases[i].says))
			fail_msg("case %zu: \"%s\" does not say \"%s\"", i, err, cases[i].says);
		if (!cases[i].hint && strstr(err, "HINT"))
			fail_msg("case %zu: a hint nobody gave", i);
	}
}

/* The estimates' workloads: pattern, parameters and figures, by policy or
 * in one array; absent and null alike. */
static void test_workloads(void **state)
{
	static const char *const texts[] = {
		"{\"schema\": \"tierwise.plan/1\", \"tiers\": [{\"name\": \"hot\", \"devices\": [],"
		" \"estimates\": {\"vector-db\": [{\"label\": \"x\", \"unit\": \"qps\"},"
		" {\"workload\": \"beam-search\", \"pattern\": \"beam\", \"via\": \"direct\","
		" \"beam_width\": 4, \"reads_per_query\": 40, \"concurrency\": 8, \"qps\": 2000.5,"
		" \"p50_ms\": 4, \"mbps\": null, \"streams\": null, \"fits\": false}]}}]}",
		"{\"schema\": \"tierwise.plan/1\", \"tiers\": [{\"name\": \"hot\", \"devices\": [],"
		" \"estimates\": [{\"policy\": \"vector-db\", \"label\": \"x\"},"
		" {\"policy\": \"vector-db\", \"workload\": \"beam-search\", \"pattern\": \"beam\","
		" \"via\": \"direct\", \"beam_width\": 4, \"reads_per_query\": 40,"
		" \"concurrency\": 8, \"qps\": 2000.5, \"p50_ms\": 4, \"fits\": false}]}]}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		const char *path = write_tmp(texts[i]);
		struct advisor_plan_file *f = NULL;
		const struct advisor_file_est *e;
		char err[256] = "";

		assert_int_equal(advisor_plan_file_read(path, NULL, &f, err, sizeof(err)), 0);
		unlink(path);
		assert_int_equal(f->tiers[ADVISOR_HOT].n_est, 2);
		e = &f->tiers[ADVISOR_HOT].est[0];
		assert_null(e->pattern);	/* a headline figure only */
		assert_true(isnan(e->qps) && e->fits == -1 && e->streams == 0);
		e = &f->tiers[ADVISOR_HOT].est[1];
		assert_string_equal(e->policy, "vector-db");
		assert_string_equal(e->workload, "beam-search");
		assert_string_equal(e->pattern, "beam");
		assert_string_equal(e->via, "direct");
		assert_int_equal(e->beam_width, 4);
		assert_int_equal(e->reads_per_query, 40);
		assert_int_equal(e->concurrency, 8);
		assert_int_equal(e->streams, 0);
		assert_true(e->qps == 2000.5 && e->p50_ms == 4 && isnan(e->mbps) && e->fits == 0);
		advisor_plan_file_free(f);
	}
}

/* A workload's field of the wrong type: the tier, policy, index and key. */
static void test_workload_refused(void **state)
{
	static const struct { const char *est, *says; } cases[] = {
		{ "{\"vector-db\": [{}, {\"mbps\": \"fast\"}]}",
		  "hot.estimates.vector-db[1].mbps: expected a number" },
		{ "{\"vector-db\": [{\"beam_width\": -4}]}",
		  "hot.estimates.vector-db[0].beam_width: expected a whole number" },
		{ "{\"vector-db\": [{\"concurrency\": 2.5}]}",
		  "hot.estimates.vector-db[0].concurrency: expected a whole number" },
		{ "{\"vector-db\": [{\"pattern\": 3}]}",
		  "hot.estimates.vector-db[0].pattern: expected a string" },
		{ "{\"vector-db\": [{\"fits\": \"yes\"}]}",
		  "hot.estimates.vector-db[0].fits: expected true or false" },
		{ "[{\"label\": \"x\"}]", "hot.estimates[0].policy: expected the name of a policy" },
		{ "[{\"policy\": \"p\", \"qps\": []}]", "hot.estimates[0].qps: expected a number" },
		{ "3", "hot.estimates: expected an object or an array" },
	};
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct advisor_plan_file *f = (void *)1;
		char err[256] = "";
		const char *path;

		snprintf(text, sizeof(text), "{\"schema\": \"tierwise.plan/1\", \"tiers\": [{\"name\":"
			 " \"hot\", \"devices\": [], \"estimates\": %s}]}", cases[i].est);
		path = write_tmp(text);
		assert_int_equal(advisor_plan_file_read(path, NULL, &f, err, sizeof(err)), -EINVAL);
		unlink(path);
		assert_null(f);
		if (strcmp(err, cases[i].says))
			fail_msg("case %zu: \"%s\", wanted \"%s\"", i, err, cases[i].says);
	}
}

static void test_unreadable(void **state)
{
	struct advisor_plan_file *f = NULL;
	char err[128] = "";

	(void)state;
	assert_int_equal(advisor_plan_file_read("/nonexistent/plan.json", NULL, &f, err,
						sizeof(err)), -ENOENT);
	assert_string_equal(err, strerror(ENOENT));
	assert_int_equal(advisor_plan_file_read("/tmp", NULL, &f, err, sizeof(err)), -EISDIR);
	assert_null(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_a_plan),
		cmocka_unit_test(test_tiers_by_name),
		cmocka_unit_test(test_refuses),
		cmocka_unit_test(test_workloads),
		cmocka_unit_test(test_workload_refused),
		cmocka_unit_test(test_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
