/* The measurement run: the test table, and one target's tests into a profile.
 *
 * Failures of a test become notes and the other tests still run; a test
 * that stalls (I/O still in flight and none completing for the job's stall
 * time, -ETIMEDOUT from the job) skips the target's remaining tests, each
 * with a note, so that a dead device costs one test's time, not all of them.
 *
 * Test hook: options.fault (the CLI's TIERWISE_FAULT; see probe_fault_parse,
 * docs/reliability.md) puts the fault engine around the chosen engine for
 * the targets it names;
 * its counters span the whole process, and the device gets a note saying
 * its figures are not measurements.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cpulist.h"
#include "job.h"
#include "known.h"
#include "probe.h"
#include "run_int.h"
#include "sysroot.h"
#include "thermal.h"
#include "tw_util.h"
#include "zoned.h"

#define SETTLE_S 0.2		/* idle before QD1 after another test (settle()) */

/* The process-wide counters of the fault hook: after=N spans every test and
 * every target, side by side too (the counters are atomic). */
static struct probe_fault_state fault_state;

/*
 * After a test that read: the share of its sampled reads that returned
 * only zeros into *share (NAN when none was sampled), and one note when it
 * is PROFILE_UNWRITTEN_MIN or more: what it means for this device, and
 * how to get a real figure.
 */
static void zero_note(struct probe_run_state *r, const char *test, double *share)
{
	const unsigned long long n = r->zero_samples, z = r->zero_reads;

	*share = n ? (double)z / (double)n : NAN;
	if (!n || !(*share >= PROFILE_UNWRITTEN_MIN))
		return;
	if (!profile_unwritten(r->dev, *share))
		profile_device_add_notef(r->dev, "%s: %llu of %llu sampled reads returned only zeros (blocks never "
		     "written): a hard disk reads them from the platter all the same, so the "
		     "figures count", test, z, n);
	else
		profile_device_add_notef(r->dev, "%s: %llu of %llu sampled reads returned only zeros (never-written "
		     "or trimmed blocks, which can skip the media): kept as unwritten %.2f, "
		     "scored as missing; for a real figure probe with --destructive (the "
		     "span is written first) or a scratch file on a filesystem holding data",
		     test, z, n, *share);
}

/*
 * The heaviest test that runs carries the thermal series: the sustained
 * write, else the sequential write (quick mode), else the sequential read
 * (read-only targets).
 */
static int thermal_test(const struct probe_run_state *r, unsigned mask)
{
	static const enum probe_test order[] = { PROBE_TEST_SUSTAINED_WRITE,
		PROBE_TEST_SEQ_WRITE, PROBE_TEST_SEQ_READ };

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if ((mask & (1u << order[i])) &&
		    (probe_test_defs[order[i]].read_pct == 100 || r->t->writable))
			return order[i];
	return -1;
}

/* Where the series goes once its test is over. */
static void keep_series(struct probe_run_state *r, enum probe_test t)
{
	struct profile_sustained *su = &r->dev->sustained;
	size_t n;
	struct profile_point *pts = probe_series_take(&r->ser, &n);

	if (t == PROBE_TEST_SUSTAINED_WRITE) {
		probe_run_sustained_series(su, pts, n);
	} else if (t == PROBE_TEST_SEQ_WRITE && !(n && r->dev->io[PROFILE_SEQ_WRITE].present)) {
		free(pts);	/* seq_write failed: no series of a result */
	} else if (t == PROBE_TEST_SEQ_WRITE) {
		su->present = true;
		su->seconds = r->dev->io[PROFILE_SEQ_WRITE].seconds;
		su->series = pts;
		su->n_series = n;
		profile_device_add_notef(r->dev, "sustained_write: only the 1 Hz series of seq_write (a short "
		     "burst); no sustained write was run (--tests all or --full)");
	} else {
		free(pts);
		if (!isnan(r->dev->thermal.load_c))
			profile_device_add_notef(r->dev, "thermal: load_c is the peak under seq_read "
			     "(read-only target: no write test ran)");
	}
}

static double test_budget(const struct probe_run_state *r, enum probe_test t)
{
	if (t == PROBE_TEST_SUSTAINED_WRITE)
		return probe_run_sustained_seconds(r);
	if (r->o->seconds > 0)
		return r->o->seconds;
	return r->o->full ? 30 : probe_test_defs[t].max_s;
}

static int run_one(struct probe_run_state *r, enum probe_test t)
{
	if (t == PROBE_TEST_QD_SWEEP)
		return probe_run_sweep(r);
	if (t == PROBE_TEST_SUSTAINED_WRITE)
		return probe_run_sustained(r);
	if (t == PROBE_TEST_IORATE)
		return probe_run_iorate(r);
	if (t == PROBE_TEST_READ_UNDER_WRITE)
		return probe_run_uw(r);
	if (t == PROBE_TEST_APP)
		return probe_run_app(r);
	return probe_run_io_test(r, t);
}

static bool is_write_test(enum probe_test t)
{
	return probe_test_defs[t].read_pct < 100 || t == PROBE_TEST_READ_UNDER_WRITE;
}

/* Record the zero-read share of test t where its figures are. */
static void keep_unwritten(struct probe_run_state *r, enum probe_test t)
{
	double share;

	if (!probe_test_defs[t].read_pct)
		return;
	zero_note(r, probe_test_defs[t].name, &share);
	if (probe_test_defs[t].slot >= 0 && r->dev->io[probe_test_defs[t].slot].present)
		r->dev->io[probe_test_defs[t].slot].unwritten = share;
	else if (t == PROBE_TEST_QD_SWEEP && r->dev->lat_target.present)
		r->dev->lat_target.unwritten = share;
	else if (t == PROBE_TEST_READ_UNDER_WRITE && r->dev->under_write.present)
		r->dev->under_write.unwritten = share;
}

/*
 * Leave the device idle for SETTLE_S (less when cancelled): run_tests()
 * calls it before QD1 when a test (or the fill) ran before it in this run,
 * or when o->settle_first says the device was busy just before the run (the
 * first solo QD1 after a side-by-side phase), so that the latency test
 * starts on an idle device.  A burst leaves work behind that a QD1 test
 * right after it would measure instead of the device: an SSD's flush of its
 * SLC cache and garbage collection, and the kernel's own.  On a loop device
 * over tmpfs on a 2-vCPU VM the loop worker, busy on the other vCPU during
 * the burst, stays there and each read pays two cross-vCPU wake-ups: QD1
 * right after seq_write reads at a p50 of 43-62 µs in most runs (fio: 4.3
 * µs), 4.4-5.0 µs after 200 ms idle; 50 ms and 100 ms are not enough.  The
 * mode is the guest scheduler's, drawn per run: the settle makes the fast
 * one likelier, not certain (docs/probe.md; bench/probe-time,
 * docs/bench-results.md).
 */
static void settle(const struct probe_run_state *r)
{
	const uint64_t end = tw_now_ns() + (uint64_t)(SETTLE_S * 1e9);
	const struct timespec step = { 0, 20000000L };	/* polls cancel */

	while (tw_now_ns() < end && !(r->o->cancel && *r->o->cancel))
		nanosleep(&step, NULL);
}

static int run_tests(struct probe_run_state *r, unsigned mask)
{
	int hot = thermal_test(r, mask);
	bool fill = probe_run_wants_fill(r, mask);
	bool ran = r->o->settle_first;	/* a job ran (a test, the fill; or before
					 * this run): settle() before QD1 */
	int ret = 0;

	for (int t = 0; t < PROBE_TEST_COUNT && ret != -ECANCELED && ret != -ENOMEM; t++) {
		if (!(mask & (1u << t)))
			continue;
		if (is_write_test(t) && !r->t->writable) {
			profile_device_add_notef(r->dev, "%s: skipped: read-only target (give a directory for a "
			     "scratch file, or --destructive for an unused device)", probe_test_defs[t].name);
			continue;
		}
		if (is_write_test(t) && probe_run_zoned_raw(r) && !probe_run_zoned_runs(t)) {
			profile_device_add_notef(r->dev, "%s: skipped: host-managed zoned device: %s",
			     probe_test_defs[t].name, ZONED_WHY);
			continue;
		}
		/* the fill comes right before the first test that reads: the
		 * seq_write burst before it still finds the drive as it was;
		 * on a blank scratch file before seq_write (probe_run_fill_first()) */
		if (fill && (probe_test_defs[t].read_pct > 0 || probe_run_fill_first(r, t)) && !r->stalled) {
			fill = false;
			if ((ret = probe_run_fill(r, probe_run_fill_first(r, t))) == -ECANCELED)
				break;
			r->filled_first = ret == 0 && probe_run_fill_first(r, t);
			ret = 0;	/* a failed fill is noted; the tests still run */
			ran = true;
		}
		if (r->stalled) {
			profile_device_add_notef(r->dev, "%s: skipped: the device stalled in an earlier test",
			     probe_test_defs[t].name);
			r->failures++;
			continue;
		}
		if (ran && t == PROBE_TEST_RAND_READ_QD1)
			settle(r);
		r->sampling = t == hot &&
			probe_series_begin(&r->ser, (size_t)test_budget(r, t) + 3) == 0;
		r->zero_samples = r->zero_reads = 0;
		ret = is_write_test(t) && probe_run_zoned_raw(r) ? probe_run_zoned_write(r, t) : run_one(r, t);
		ran = true;
		keep_unwritten(r, t);
		if (r->sampling) {
			probe_series_end(&r->ser, r->dev);
			keep_series(r, t);
		}
		r->sampling = false;
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
	d->probe.test_seconds = o->seconds > 0 ? o->seconds : NAN;	/* for compare */
	d->probe.target = scratch ? PROFILE_TGT_SCRATCH_FILE :
		t->writable ? PROFILE_TGT_RAW_DESTRUCTIVE : PROFILE_TGT_RAW_READONLY;
	if (!d->path || !d->model || (x && probe_pcie_to_link(&x->pcie, &d->link) < 0))
		return -ENOMEM;
	if (scratch)
		return profile_device_add_notef(d, "scratch file of %.1f GiB on %s%s%s", t->span_bytes / 1073741824.0,
			    d->path, x ? ", disk " : "", x ? x->name : "");
	return 0;
}

/*
 * Whether the fault hook (options.fault) applies to t: fills r->fault and notes it on the
 * device.  Returns 0, -EINVAL (a bad spec, message in err) or -ENOMEM.
 */
static int fault_hook(struct probe_run_state *r, char *err, size_t errlen)
{
	const char *spec = r->o->fault;
	char why[128];

	if (!spec || !*spec)
		return 0;
	if (probe_fault_parse(spec, &r->fault, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "TIERWISE_FAULT: %s", why);
		return -EINVAL;
	}
	if (!probe_fault_matches(&r->fault, r->t->id, r->t->path))
		return 0;
	r->faulty = true;
	r->fault.inner = r->o->engine ? probe_engine_find(r->o->engine) : NULL;
	r->fault.no_fallback = r->o->engine != NULL;
	r->fault.state = &fault_state;
	return profile_device_add_notef(r->dev, "fault injection (test hook TIERWISE_FAULT=%.200s): these "
		    "figures are not measurements of the device", spec);
}

/* set as a CPU list ("0-3,8"), into buf. */
static void cpus_text(const cpu_set_t *set, char *buf, size_t len)
{
	char *list = probe_cpuset_format(set);

	snprintf(buf, len, "%s", list ? list : "?");
	free(list);
}

/*
 * Where the QD1 reads run (probe_run_job_for): on the CPUs that take the
 * device's completion interrupts (probe_dev.irq_cpulist), when the calling
 * thread may run there and on others too.  A QD1 read on another CPU waits
 * for the interrupt's CPU to wake it: a cross-CPU wake-up per read, whose
 * cost depends on how deeply that CPU slept.  The device's own latency is
 * the one without it, as an application placed by its interrupts sees (a
 * 2-vCPU VM whose virtual disk interrupts vCPU 1 only: QD1 on a scratch
 * file reads at a p50 of 109-130 us on vCPU 0 and 70-83 us on vCPU 1,
 * the probe run under `taskset -c 0` and `taskset -c 1`; see
 * docs/bench-results.md).  A device whose vectors
 * cover every CPU (NVMe, a queue per CPU) is left as it is.  The note says
 * where the reads ran.
 */
static void qd1_pin(struct probe_run_state *r, unsigned mask)
{
	const struct probe_dev *dev = r->t->dev;
	char irq[64], all[64];
	cpu_set_t allowed, on;

	if (!dev || !dev->irq_cpulist || r->faulty ||
	    !(mask & (1u << PROBE_TEST_RAND_READ_QD1 | 1u << PROBE_TEST_READ_UNDER_WRITE)) ||
	    pthread_getaffinity_np(pthread_self(), sizeof(allowed), &allowed) ||
	    !probe_cpulist_set(dev->irq_cpulist, &allowed, &on) || CPU_EQUAL(&on, &allowed))
		return;
	r->qd1_cpus = on;
	cpus_text(&r->qd1_cpus, irq, sizeof(irq));
	cpus_text(&allowed, all, sizeof(all));
	profile_device_add_notef(r->dev, "QD1 reads run on CPU %s (of %s), which takes %s's completion "
				 "interrupts: on another CPU each read would also wait for a "
				 "cross-CPU wake-up", irq, all, dev->name);
}

int probe_run(const struct probe_target *t, const struct probe_options *o,
	      struct profile *prof, char *err, size_t errlen)
{
	struct profile_device *d = profile_add_device(prof, t->id);
	struct probe_bufcache bufs;
	struct probe_run_state r = { .t = t, .o = o, .dev = d, .span = t->span_bytes, .bufcache = &bufs };
	double start = (tw_now_ns() / 1e9);
	unsigned mask;
	int ret;

	if (!d || device_facts(t, o, d) < 0 ||
	    probe_series_init(&r.ser, o->sysroot, t, d) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = fault_hook(&r, err, errlen);
	if (ret < 0) {
		probe_series_free(&r.ser);
		if (ret == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		return ret;
	}
	probe_bufcache_init(&bufs);
	mask = o->tests ? o->tests : o->full ? PROBE_TESTS_FULL : PROBE_TESTS_DEFAULT;
	qd1_pin(&r, mask);
	ret = run_tests(&r, mask);
	probe_bufcache_destroy(&bufs);
	probe_series_free(&r.ser);
	if (ret != -ENOMEM && t->dev && probe_nvme_recheck(o->sysroot, t->dev, d) == -ENOMEM)
		ret = -ENOMEM;	/* paths that changed meanwhile: notes */
	d->probe.seconds = (tw_now_ns() / 1e9) - start;
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
