/* The measurement run: the test table, and one target's tests into a profile. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>

#include "cliff.h"
#include "job.h"
#include "probe.h"

#define KIB 1024u
#define MIB (1024u * 1024u)
#define SWEEP_MAX_QD 128u

/* One row per test: its shape and its quick-mode time limits. */
struct test_def {
	const char *name;
	int slot;		/* enum profile_io_test, or -1 */
	enum probe_pattern pattern;
	unsigned read_pct;	/* 100 read, 0 write, 70 mixed */
	uint32_t bs;
	unsigned qd;
	bool threaded;		/* honours options.threads */
	double ramp_s, min_s, max_s;	/* quick mode */
};

static const struct test_def tests[PROBE_TEST_COUNT] = {
	[PROBE_TEST_SEQ_READ] = { "seq_read", PROFILE_SEQ_READ, PROBE_SEQ, 100, MIB, 32, false, 0.5, 2.5, 4.0 },
	[PROBE_TEST_RAND_READ_QD1] = { "rand_read_qd1", PROFILE_RAND_READ_QD1, PROBE_RAND, 100, 4 * KIB, 1, false, 0.25, 2.5, 4.0 },
	[PROBE_TEST_RAND_READ_QD32] = { "rand_read_qd32", PROFILE_RAND_READ_QD32, PROBE_RAND, 100, 4 * KIB, 32, true, 0.5, 2.5, 4.0 },
	[PROBE_TEST_QD_SWEEP] = { "qd_sweep", -1, PROBE_RAND, 100, 4 * KIB, 0, false, 0.2, 0.8, 0.8 },
	[PROBE_TEST_SEQ_WRITE] = { "seq_write", PROFILE_SEQ_WRITE, PROBE_SEQ, 0, MIB, 32, false, 0.5, 2.5, 4.0 },
	[PROBE_TEST_MIXED_70_30] = { "mixed_70_30", PROFILE_MIXED_70_30, PROBE_RAND, 70, 4 * KIB, 32, true, 0.5, 2.5, 4.0 },
	[PROBE_TEST_SUSTAINED_WRITE] = { "sustained_write", -1, PROBE_SEQ, 0, MIB, 32, false, 0, 30, 30 },
};

/* Per-run state handed to the window callback. */
struct run {
	const struct probe_target *t;
	const struct probe_options *o;
	struct profile_device *dev;
	const char *test;
	double budget_s;
	struct profile_point *series;	/* sustained write: one point a window */
	size_t n_series, cap_series;
	bool noticed;			/* engine fallback noted once */
	int failures;
};

const char *probe_test_name(enum probe_test t)
{
	return (int)t >= 0 && t < PROBE_TEST_COUNT ? tests[t].name : NULL;
}

int probe_tests_parse(const char *list, unsigned *mask, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	unsigned m = 0;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		int t;

		if (!strcmp(tok, "all")) {
			m |= PROBE_TESTS_ALL;
			continue;
		}
		if (!strcmp(tok, "default")) {
			m |= PROBE_TESTS_DEFAULT;
			continue;
		}
		for (t = 0; t < PROBE_TEST_COUNT && strcmp(tok, tests[t].name); t++)
			;
		if (t == PROBE_TEST_COUNT) {
			snprintf(err, errlen, "unknown test '%s'", tok);
			ret = -EINVAL;
		}
		m |= 1u << t;
	}
	free(copy);
	if (!ret && !m) {
		snprintf(err, errlen, "no test named in '%s'", list);
		ret = -EINVAL;
	}
	*mask = m;
	return ret;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int note(struct profile_device *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int note(struct profile_device *d, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return profile_device_add_note(d, buf);
}

static void on_window(void *arg, const struct probe_window *w)
{
	struct run *r = arg;

	if (r->series && r->n_series < r->cap_series)
		r->series[r->n_series++] = (struct profile_point){ w->elapsed_s, w->mbps, NAN };
	if (r->o->progress) {
		struct probe_status st = { r->t->id, r->test, w->elapsed_s, r->budget_s,
					   w->iops, w->mbps };

		r->o->progress(r->o->arg, &st);
	}
}

/* The job for test def at depth qd, timed by the options. */
static void job_for(const struct run *r, const struct test_def *def, unsigned qd,
		    struct probe_job *job)
{
	const struct probe_options *o = r->o;
	unsigned threads = def->threaded && o->threads > 1 ? o->threads : 1;

	memset(job, 0, sizeof(*job));
	job->fd = r->t->fd;
	job->offset = 0;
	job->length = r->t->span_bytes;
	job->bs = def->bs < r->t->align ? r->t->align : def->bs;
	job->align = r->t->align;
	job->threads = threads;
	job->qd = qd / threads ? qd / threads : 1;
	job->pattern = def->pattern;
	job->read_pct = def->read_pct;
	job->engine = o->engine ? probe_engine_find(o->engine) : NULL;
	job->no_fallback = o->engine != NULL;
	job->ramp_s = o->ramp_s >= 0 ? o->ramp_s : def->ramp_s;
	job->window_s = PROBE_JOB_DEFAULT_WINDOW;
	job->seed = 0x7469657277697365ULL ^ (uint64_t)qd;	/* "tierwise" */
	job->on_window = on_window;
	job->arg = (void *)r;
	job->cancel = o->cancel;
	if (o->seconds > 0) {
		job->min_s = job->max_s = o->seconds;
	} else if (o->full) {
		job->min_s = job->max_s = 30;
	} else {
		job->min_s = def->min_s;
		job->max_s = def->max_s;
		job->stop_on_steady = def->min_s < def->max_s;
	}
}

static void lat_from_hist(const struct probe_hist *h, struct profile_lat *lat)
{
	struct probe_lat_summary s;

	*lat = profile_lat_none();
	if (probe_hist_summary(h, &s) < 0)
		return;
	lat->v[PROFILE_LAT_MEAN] = s.mean;
	lat->v[PROFILE_LAT_P50] = s.p50;
	lat->v[PROFILE_LAT_P90] = s.p90;
	lat->v[PROFILE_LAT_P99] = s.p99;
	lat->v[PROFILE_LAT_P999] = s.p999;
	lat->v[PROFILE_LAT_MAX] = s.max;
	for (int f = 0; f < PROFILE_LAT_COUNT; f++)
		if (!(lat->v[f] > 0))	/* below 1 ns: the null engine, not a device */
			lat->v[f] = NAN;
}

/* Notes every run result may carry: engine fallback, zero reads. */
static void job_notes(struct run *r, const struct test_def *def,
		      const struct probe_job_result *res)
{
	if (res->notice[0] && !r->noticed) {
		note(r->dev, "%s", res->notice);
		r->noticed = true;
	}
	if (res->zero_samples && res->zero_reads * 2 >= res->zero_samples)
		note(r->dev, "%s: %llu of %llu sampled reads returned only zeros: the region "
		     "may be never written or trimmed, and such reads can skip the media "
		     "and inflate the result", def->name, (unsigned long long)res->zero_reads,
		     (unsigned long long)res->zero_samples);
}

/* Run one job; failures become notes.  Returns 0, -ECANCELED or -EIO. */
static int run_job(struct run *r, const struct test_def *def, const struct probe_job *job,
		   struct probe_job_result *res)
{
	int ret;

	r->test = def->name;
	r->budget_s = job->max_s;
	ret = probe_job_run(job, res);
	job_notes(r, def, res);
	if (ret == -ECANCELED)
		return ret;
	if (ret < 0) {
		note(r->dev, "%s: failed: %s", def->name, res->errmsg[0] ? res->errmsg : strerror(-ret));
		r->failures++;
		return -EIO;
	}
	return 0;
}

static const char *label_for(double seconds)
{
	return seconds >= 30 ? "sustained" : "burst, fresh";
}

static int io_test(struct run *r, enum probe_test t)
{
	const struct test_def *def = &tests[t];
	struct profile_io *io = &r->dev->io[def->slot];
	struct probe_job_result res;
	struct probe_job job;
	int ret;

	job_for(r, def, def->qd, &job);
	ret = run_job(r, def, &job, &res);
	if (ret == 0 && res.ios) {
		io->present = true;
		io->bs = job.bs;
		io->qd = (long)job.qd * job.threads;
		io->iops = res.iops;
		io->mbps = res.mbps;
		if (def->read_pct > 0 && def->read_pct < 100) {
			io->read_iops = res.read_ios / res.seconds;
			io->write_iops = res.write_ios / res.seconds;
		}
		lat_from_hist(&res.lat, &io->lat);
		io->seconds = res.seconds;
		io->steady = res.n_windows >= 5 ? res.steady : -1;
		io->spread_pct = res.n_windows >= 5 ? res.spread_pct : NAN;
		io->threads = job.threads;
		io->label = strdup(label_for(res.seconds));
	}
	probe_job_result_free(&res);
	return ret;
}

static int sweep_add(struct profile_device *d, unsigned qd, const struct probe_job_result *res)
{
	struct profile_sweep *v = realloc(d->sweep, (d->n_sweep + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	d->sweep = v;
	v[d->n_sweep].qd = qd;
	v[d->n_sweep].iops = res->iops;
	lat_from_hist(&res->lat, &v[d->n_sweep].lat);
	d->n_sweep++;
	return 0;
}

/* Random 4 KiB reads at QD 1..128, then the best IOPS under the p99 target. */
static int sweep_test(struct run *r)
{
	const struct test_def *def = &tests[PROBE_TEST_QD_SWEEP];
	double target = r->o->latency_target_us > 0 ? r->o->latency_target_us : 1000;
	struct profile_lat_target *lt = &r->dev->lat_target;
	int ret = 0;

	lt->present = true;
	lt->p99_us = target;
	for (unsigned qd = 1; qd <= SWEEP_MAX_QD && ret != -ECANCELED; qd *= 2) {
		struct probe_job_result res;
		struct probe_job job;

		job_for(r, def, qd, &job);
		if (!r->o->seconds && r->o->full)
			job.min_s = job.max_s = 5;
		ret = run_job(r, def, &job, &res);
		if (ret == 0 && res.ios && sweep_add(r->dev, qd, &res) < 0)
			ret = -ENOMEM;
		if (ret == 0 && res.ios) {
			double p99 = r->dev->sweep[r->dev->n_sweep - 1].lat.v[PROFILE_LAT_P99];

			if (p99 <= target && (isnan(lt->iops) || res.iops > lt->iops)) {
				lt->iops = res.iops;
				lt->qd = qd;
			}
		}
		probe_job_result_free(&res);
	}
	return ret;
}

static int sustained_test(struct run *r)
{
	const struct test_def *def = &tests[PROBE_TEST_SUSTAINED_WRITE];
	struct profile_sustained *su = &r->dev->sustained;
	double secs = r->o->sustained_s > 0 ? r->o->sustained_s : r->o->full ? 120 : def->max_s;
	struct probe_job_result res;
	struct probe_job job;
	struct probe_cliff cl;
	double *mbps;
	int ret;

	job_for(r, def, def->qd, &job);
	job.window_s = 1.0;
	job.min_s = job.max_s = secs;
	job.stop_on_steady = false;
	r->cap_series = (size_t)secs + 2;
	r->series = calloc(r->cap_series, sizeof(*r->series));
	if (!r->series)
		return -ENOMEM;
	r->n_series = 0;
	ret = run_job(r, def, &job, &res);
	mbps = calloc(r->n_series + 1, sizeof(*mbps));
	if (ret == 0 && mbps && r->n_series) {
		for (size_t i = 0; i < r->n_series; i++)
			mbps[i] = r->series[i].mbps;
		probe_cliff_find(mbps, r->n_series, &cl);
		su->present = true;
		su->initial_mbps = cl.initial_mbps > 0 ? cl.initial_mbps : NAN;
		su->mbps = cl.after_mbps > 0 ? cl.after_mbps : NAN;
		su->cliff_after_gb = cl.found ? cl.gb_before : NAN;
		su->seconds = res.seconds;
		su->series = r->series;
		su->n_series = r->n_series;
		r->series = NULL;
	}
	free(mbps);
	free(r->series);
	r->series = NULL;
	probe_job_result_free(&res);
	return ret;
}

static bool is_write_test(enum probe_test t)
{
	return tests[t].read_pct < 100;
}

static int run_tests(struct run *r, unsigned mask)
{
	int ret = 0;

	for (int t = 0; t < PROBE_TEST_COUNT && ret != -ECANCELED && ret != -ENOMEM; t++) {
		if (!(mask & (1u << t)))
			continue;
		if (is_write_test(t) && !r->t->writable) {
			note(r->dev, "%s: skipped: read-only target (give a directory for a "
			     "scratch file, or --destructive for an unused device)", tests[t].name);
			continue;
		}
		if (t == PROBE_TEST_QD_SWEEP)
			ret = sweep_test(r);
		else if (t == PROBE_TEST_SUSTAINED_WRITE)
			ret = sustained_test(r);
		else
			ret = io_test(r, t);
	}
	return ret;
}

/* A model name for devices without one (virtio, md, loop, zram). */
static char *model_of(const struct probe_dev *d)
{
	char *m = NULL;

	if (d->model)
		return strdup(d->model);
	if (d->md_level && asprintf(&m, "md %s", d->md_level) >= 0)
		return m;
	if (d->dm_name && asprintf(&m, "dm %s", d->dm_name) >= 0)
		return m;
	if (asprintf(&m, "%s device", profile_transport_name(d->transport)) >= 0)
		return m;
	return NULL;
}

static int64_t fs_size(const char *dir)
{
	struct statvfs v;

	return statvfs(dir, &v) == 0 ? (int64_t)v.f_blocks * (int64_t)v.f_frsize : -1;
}

/* Identity of the profile device from the target and the inventory. */
static int device_facts(const struct probe_target *t, const struct probe_options *o,
			struct profile_device *d)
{
	const struct probe_dev *x = t->dev;
	bool scratch = t->kind == PROBE_TARGET_SCRATCH;

	d->path = strdup(scratch ? t->id + strlen("scratch:") : t->path);
	d->model = x ? model_of(x) : strdup("file");
	d->serial = x && x->serial ? strdup(x->serial) : NULL;
	d->firmware = x && x->firmware ? strdup(x->firmware) : NULL;
	d->transport = scratch ? PROFILE_TR_FILE : x ? x->transport : PROFILE_TR_OTHER;
	d->media = x ? x->media : PROFILE_MEDIA_UNKNOWN;
	d->rotational = x ? x->rotational : false;
	d->capacity_bytes = scratch ? fs_size(d->path) : (int64_t)t->span_bytes;
	d->probe.mode = o->full ? PROFILE_MODE_FULL : PROFILE_MODE_QUICK;
	d->probe.target = scratch ? PROFILE_TGT_SCRATCH_FILE :
		t->writable ? PROFILE_TGT_RAW_DESTRUCTIVE : PROFILE_TGT_RAW_READONLY;
	if (!d->path || !d->model)
		return -ENOMEM;
	if (scratch)
		return note(d, "scratch file of %.1f GiB on %s%s%s", t->span_bytes / 1073741824.0,
			    d->path, x ? ", disk " : "", x ? x->name : "");
	return 0;
}

int probe_run(const struct probe_target *t, const struct probe_options *o,
	      struct profile *prof, char *err, size_t errlen)
{
	struct profile_device *d = profile_add_device(prof, t->id);
	struct run r = { .t = t, .o = o, .dev = d };
	double start = now_s();
	int ret;

	if (!d || device_facts(t, o, d) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = run_tests(&r, o->tests ? o->tests : PROBE_TESTS_DEFAULT);
	d->probe.seconds = now_s() - start;
	if (ret == -ECANCELED || ret == -ENOMEM) {
		snprintf(err, errlen, "%s: %s", t->id, ret == -ENOMEM ? "out of memory" : "cancelled");
		return ret;
	}
	if (r.failures) {
		snprintf(err, errlen, "%s: %d test%s failed (see notes)", t->id, r.failures,
			 r.failures > 1 ? "s" : "");
		return -EIO;
	}
	return 0;
}
