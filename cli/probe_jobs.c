/* probe_jobs.c — device probes side by side (see probe_jobs.h). */
#include "probe_jobs.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tw_util.h"

/* Measured seconds of each test of the spot check's solo run. */
#define SPOT_SECONDS 2.0
/* Beyond one job per CPU, another starts only when the process used at most
 * CPU_FREE_SHARE of the CPUs less one whole core over the last window of at
 * least WINDOW_S seconds, and not sooner than WINDOW_S after the last such
 * start (its own use must show first). */
#define WINDOW_S 1.0
#define CPU_FREE_SHARE 0.9

struct sched {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct probe_job *v;
	size_t n;
	bool *started, *running;
	size_t n_running;
	unsigned cpus;		/* jobs at once without asking the CPU load */
	double win_wall, win_cpu;	/* the start of the current window, s */
	double util;		/* CPUs used over the last window; NAN unknown */
	double extra_at;	/* when the last job beyond cpus started */
	const struct probe_options *o;
	unsigned tests;		/* what the concurrent phase runs */
	bool quiet;
	cpu_set_t all;		/* the process's CPUs */
};

unsigned probe_jobs_cpus(void)
{
	cpu_set_t s;
	int n;

	if (sched_getaffinity(0, sizeof(s), &s) < 0)
		return 1;
	n = CPU_COUNT(&s);
	return n > 0 ? (unsigned)n : 1;
}

/* "0-3,8,10-11" into *s (only CPUs in allowed).  False when nothing is left. */
static bool parse_cpulist(const char *list, const cpu_set_t *allowed, cpu_set_t *s)
{
	const char *p = list;

	CPU_ZERO(s);
	while (p && *p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p)
			return false;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		for (unsigned long c = a; c <= b && c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, allowed))
				CPU_SET(c, s);
		p = *end == ',' ? end + 1 : NULL;
	}
	return CPU_COUNT(s) > 0;
}

/* The link a job's device sits on: jobs on one never run together. */
static const char *port_of(const struct probe_job *j)
{
	return j->t.dev && j->t.dev->pci_port ? j->t.dev->pci_port : j->t.id;
}

/* Pin the calling thread to the CPUs local to job j's device, else to all. */
static void pin(const struct sched *s, const struct probe_job *j)
{
	cpu_set_t set;

	if (j->t.dev && j->t.dev->local_cpulist &&
	    parse_cpulist(j->t.dev->local_cpulist, &s->all, &set))
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	else
		pthread_setaffinity_np(pthread_self(), sizeof(s->all), &s->all);
}

/* probe_run() of j with the tests in mask into a new profile *out. */
static int run_into(struct probe_job *j, const struct probe_options *o, unsigned mask,
		    bool alone, struct profile **out, char *err, size_t errlen)
{
	struct probe_options o2 = *o;

	o2.tests = mask;
	if (!alone)
		o2.progress = NULL;
	if (!(*out = profile_new())) {
		snprintf(err, errlen, "%s: out of memory", j->t.id);
		return -ENOMEM;
	}
	return probe_run(&j->t, &o2, *out, err, errlen);
}

/* The next job that may start now: not started, its port idle; -1 none now;
 * -2 every job started. */
static ptrdiff_t next_job(const struct sched *s)
{
	bool all = true;

	for (size_t i = 0; i < s->n; i++) {
		bool busy = false;

		if (s->started[i])
			continue;
		all = false;
		for (size_t k = 0; k < s->n && !busy; k++)
			busy = s->running[k] && !strcmp(port_of(&s->v[k]), port_of(&s->v[i]));
		if (!busy)
			return (ptrdiff_t)i;
	}
	return all ? -2 : -1;
}

/*
 * May one more job start now (s->mu held)?  Up to one per CPU, always; past
 * that only while the running jobs leave a whole core idle — throughput-
 * capped disks, an HDD, a USB stick need little CPU, so more of them run
 * together; fast devices keep a core each.  Updates the load window.
 */
static bool cpu_allows(struct sched *s)
{
	double now = (double)tw_now_ns() / 1e9, cpu;

	if (s->n_running < s->cpus)
		return true;
	if (now - s->win_wall >= WINDOW_S) {
		cpu = tw_cpu_s();
		s->util = (cpu - s->win_cpu) / (now - s->win_wall);
		s->win_wall = now;
		s->win_cpu = cpu;
	}
	if (isnan(s->util) || now - s->extra_at < 2 * WINDOW_S ||
	    s->util + 1.0 > (double)s->cpus * CPU_FREE_SHARE)
		return false;
	s->extra_at = now;
	s->util = NAN;		/* the next window, with the new job in it, decides */
	return true;
}

static void *worker(void *arg)
{
	struct sched *s = arg;
	size_t running;
	ptrdiff_t i;

	pthread_mutex_lock(&s->mu);
	while ((i = next_job(s)) != -2) {
		struct probe_job *j;

		if (i < 0 || !cpu_allows(s)) {	/* a port busy, or the CPUs: look again */
			struct timespec until;

			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_nsec += 250000000;
			if (until.tv_nsec >= 1000000000) {
				until.tv_sec++;
				until.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&s->cv, &s->mu, &until);
			continue;
		}
		j = &s->v[i];
		s->started[i] = s->running[i] = true;
		running = ++s->n_running;
		pthread_mutex_unlock(&s->mu);
		if (!s->quiet)
			fprintf(stderr, "probing %s (%s) side by side, %zu running\n", j->t.id,
				j->t.path, running);
		pin(s, j);
		j->ret = run_into(j, s->o, s->tests, false, &j->prof, j->err, sizeof(j->err));
		pthread_mutex_lock(&s->mu);
		s->running[i] = false;
		s->n_running--;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* Run the jobs in v[0..n) with tests on up to workers threads. */
static int run_concurrent(struct sched *s, unsigned workers)
{
	pthread_t th[64];
	unsigned started = 0;
	int ret = 0;

	if (workers > 64)
		workers = 64;
	s->started = calloc(s->n, sizeof(bool));
	s->running = calloc(s->n, sizeof(bool));
	if (!s->started || !s->running) {
		ret = -ENOMEM;
		goto out;
	}
	for (; started < workers; started++)
		if (pthread_create(&th[started], NULL, worker, s) != 0)
			break;
	if (!started) {
		ret = -EAGAIN;
		goto out;
	}
	for (unsigned k = 0; k < started; k++)
		pthread_join(th[k], NULL);
out:
	free(s->started);
	free(s->running);
	return ret;
}

/* Swap test slot between a and b (a takes b's figures). */
static void take_io(struct profile_device *a, struct profile_device *b, int slot)
{
	struct profile_io tmp = a->io[slot];

	a->io[slot] = b->io[slot];
	b->io[slot] = tmp;
}

/* What the spot check compares: a test, its figure's slot, MB/s or IOPS. */
static const struct spot_test {
	int test, slot;
	bool mbps;
	const char *name;
} spot_tests[] = {
	{ PROBE_TEST_SEQ_READ, PROFILE_SEQ_READ, true, "seq_read" },
	{ PROBE_TEST_RAND_READ_QD1, PROFILE_RAND_READ_QD1, false, "rand_read_qd1" },
	{ PROBE_TEST_RAND_READ_QD32, PROFILE_RAND_READ_QD32, false, "rand_read_qd32" },
};

/* d's figure for test t: MB/s or IOPS (NAN when not measured). */
static double figure(const struct profile_device *d, const struct spot_test *t)
{
	return t->mbps ? d->io[t->slot].mbps : d->io[t->slot].iops;
}

/* The tests of tmask (spot_tests only) alone now: their figures replace
 * j's, with note (why) on j's device. */
static int tests_alone(struct probe_job *j, const struct probe_options *o, unsigned tmask,
		       const char *note)
{
	struct profile *p = NULL;
	char err[512];
	int ret = run_into(j, o, tmask, true, &p, err, sizeof(err));

	if (p && p->n_devices && j->prof && j->prof->n_devices) {
		struct profile_device *d = &j->prof->devices[0];

		for (size_t i = 0; i < ARRAY_SIZE(spot_tests); i++)
			if (tmask & (1u << spot_tests[i].test))
				take_io(d, &p->devices[0], spot_tests[i].slot);
		d->probe.seconds += p->devices[0].probe.seconds;
		if (ret < 0 && j->ret >= 0) {
			j->ret = ret;
			snprintf(j->err, sizeof(j->err), "%s", err);
		}
		ret = profile_device_add_note(d, note);
	}
	profile_free(p);
	return ret == -ENOMEM ? -ENOMEM : 0;
}

struct figs {
	char s[200];
	char names[64];		/* "rand_read_qd1 and rand_read_qd32" */
};

/* "seq_read 872 MB/s, rand_read_qd1 72289 IOPS": the tests of smask that
 * were measured. */
static struct figs figures(const struct profile_device *d, unsigned smask)
{
	struct figs f = { "", "" };
	size_t o = 0;

	for (size_t i = 0; i < ARRAY_SIZE(spot_tests) && o < sizeof(f.s); i++) {
		const struct spot_test *t = &spot_tests[i];

		if (smask & (1u << t->test) && !isnan(figure(d, t)))
			o += (size_t)snprintf(f.s + o, sizeof(f.s) - o, "%s%s %.0f %s", o ? ", " : "",
					      t->name, figure(d, t), t->mbps ? "MB/s" : "IOPS");
		if (smask & (1u << t->test)) {
			size_t n = strlen(f.names);

			snprintf(f.names + n, sizeof(f.names) - n, "%s%s", n ? " and " : "", t->name);
		}
	}
	if (!f.s[0])
		snprintf(f.s, sizeof(f.s), "no figure");
	return f;
}

/* A figure the solo run s has and the side-by-side run d lacks (the test
 * failed there, a device starved by a neighbour on its link). */
static bool missing(const struct profile_device *d, const struct profile_device *s,
		    const struct spot_test *t)
{
	return s->io[t->slot].present && !isnan(figure(s, t)) &&
	       !(d->io[t->slot].present && !isnan(figure(d, t)));
}

/* |a - b| / b, NAN when either is unknown. */
static double rel_diff(double a, double b)
{
	return isnan(a) || isnan(b) || b <= 0 ? NAN : fabs(a - b) / b;
}

/* The tests of smask whose figure in d is off s's (missing, or past the
 * tolerance). */
static unsigned off(const struct profile_device *d, const struct profile_device *s, unsigned smask)
{
	unsigned m = 0;

	for (size_t i = 0; i < ARRAY_SIZE(spot_tests); i++) {
		const struct spot_test *t = &spot_tests[i];

		if (smask & (1u << t->test) &&
		    (rel_diff(figure(d, t), figure(s, t)) > PROBE_JOBS_SPOT_TOLERANCE ||
		     missing(d, s, t)))
			m |= 1u << t->test;
	}
	return m;
}

/* The longest the side-by-side run measured a test of smask, s. */
static double longest(const struct profile_device *d, unsigned smask)
{
	double t = 0;

	for (size_t i = 0; i < ARRAY_SIZE(spot_tests); i++)
		if (smask & (1u << spot_tests[i].test) && d->io[spot_tests[i].slot].seconds > t)
			t = d->io[spot_tests[i].slot].seconds;
	return t;
}

/* Every test of mask again for j alone: the new profile replaces j's, with
 * "measured again alone: why" on it.  Returns 0 or -ENOMEM. */
static int device_alone(struct probe_job *j, const struct probe_options *o, unsigned mask,
			const char *why)
{
	struct profile *again = NULL;
	char err[512];
	int rr = run_into(j, o, mask, true, &again, err, sizeof(err)), ret = 0;

	if (again && again->n_devices) {
		ret = profile_device_add_notef(&again->devices[0], "measured again alone: %s", why);
		profile_free(j->prof);
		j->prof = again;
		j->ret = rr;
		snprintf(j->err, sizeof(j->err), "%s", rr < 0 ? err : "");
		again = NULL;
	}
	profile_free(again);
	return ret == -ENOMEM ? -ENOMEM : 0;
}

/*
 * Compare j's concurrent seq_read and rand_read_qd32 (and QD1 when it ran
 * concurrently) with a short solo run of each.  When one is off and the
 * side-by-side tests ran longer, a solo run that long confirms (a short
 * read of a throttled or bursty disk is off by its length alone).  Still
 * off: seq_read, the whole device is measured again alone (what disturbs a
 * sequential read disturbs everything); only the random reads, their
 * figures are the confirming run's (or, with no confirming run, those
 * tests run again alone).  Notes say which, with the figures.
 */
static int spot_check(struct probe_job *j, const struct probe_options *o, unsigned mask,
		      bool qd1_concurrent)
{
	struct probe_options so = *o;
	unsigned smask = mask & ((1u << PROBE_TEST_SEQ_READ) | (1u << PROBE_TEST_RAND_READ_QD32) |
				 (qd1_concurrent ? 1u << PROBE_TEST_RAND_READ_QD1 : 0));
	struct profile *p = NULL;
	const unsigned checked = smask;
	double spot_s = o->seconds;
	struct profile_device *d;
	unsigned bad;
	char err[512], solo[400] = "", why[1024];
	size_t len = 0;
	int ret;

	if (!smask || !j->prof || !j->prof->n_devices)
		return 0;
	d = &j->prof->devices[0];
	if (!(spot_s > 0 && spot_s < SPOT_SECONDS))
		spot_s = SPOT_SECONDS;	/* --seconds shorter: no longer than the tests */
	for (so.seconds = spot_s;; so.seconds = longest(d, bad)) {
		profile_free(p);
		ret = run_into(j, &so, smask, true, &p, err, sizeof(err));
		if (ret == -ENOMEM || !p->n_devices) {
			profile_free(p);
			return ret == -ENOMEM ? ret : 0;
		}
		bad = off(d, &p->devices[0], smask);
		if (len < sizeof(solo))
			len += (size_t)snprintf(solo + len, sizeof(solo) - len, "%sa %.1f s solo run %s",
						len ? ", then " : "", so.seconds,
						figures(&p->devices[0], smask).s);
		if (!bad || so.seconds > spot_s || !(longest(d, bad) > 1.25 * spot_s))
			break;
		smask = bad;	/* confirm what was off, as long as it ran */
	}
	if (bad && so.seconds > spot_s && !(bad & (1u << PROBE_TEST_SEQ_READ))) {
		/* the confirming run measured the random reads alone, as long as
		 * side by side: its figures are the device's */
		snprintf(why, sizeof(why), "%s measured again alone (the confirming run's figures): "
			 "side by side with other devices %s, %s (more than %.0f %% apart)",
			 figures(d, bad).names, figures(d, bad).s, solo, 100 * PROBE_JOBS_SPOT_TOLERANCE);
		for (size_t i = 0; i < ARRAY_SIZE(spot_tests); i++)
			if (bad & (1u << spot_tests[i].test))
				take_io(d, &p->devices[0], spot_tests[i].slot);
		profile_free(p);
		return profile_device_add_note(d, why);
	}
	profile_free(p);
	if (!bad)
		return profile_device_add_notef(d, "spot check: measured side by side with other devices, "
				"%s; %s (within %.0f %%)", figures(d, checked).s, solo,
				100 * PROBE_JOBS_SPOT_TOLERANCE);
	snprintf(why, sizeof(why), "side by side with other devices %s, %s (missing, or more "
		 "than %.0f %% apart)", figures(d, bad).s, solo, 100 * PROBE_JOBS_SPOT_TOLERANCE);
	if (!(bad & (1u << PROBE_TEST_SEQ_READ))) {	/* random reads only: those again */
		char note[1200];

		snprintf(note, sizeof(note), "%s measured again alone: %s", figures(d, bad).names, why);
		return tests_alone(j, o, bad, note);
	}
	return device_alone(j, o, mask, why);
}

int probe_jobs_run(struct probe_job *v, size_t n, const struct probe_options *o,
		   const struct probe_jobs_opts *jo)
{
	unsigned mask = o->tests ? o->tests : PROBE_TESTS_DEFAULT;
	unsigned workers = jo->jobs, cpus = probe_jobs_cpus();
	struct sched s = { .v = v, .n = n, .o = o, .tests = mask, .quiet = jo->quiet,
			   .cpus = cpus, .util = NAN, .win_wall = (double)tw_now_ns() / 1e9,
			   .win_cpu = tw_cpu_s(), .extra_at = -1e9 };
	bool split, qd1 = mask & (1u << PROBE_TEST_RAND_READ_QD1);
	int ret;

	if (workers > 64)
		workers = 64;
	if (cpus < 2)
		workers = 1;	/* one CPU: nothing runs beside anything */
	if (jo->serial_qd1 && mask == 1u << PROBE_TEST_RAND_READ_QD1)
		workers = 1;	/* nothing to run side by side */
	if (workers > n)
		workers = (unsigned)n;
	if (workers <= 1) {	/* today's behaviour: one after another */
		for (size_t i = 0; i < n; i++) {
			if (!jo->quiet)
				fprintf(stderr, "probing %s (%s)\n", v[i].t.id, v[i].t.path);
			v[i].ret = run_into(&v[i], o, mask, true, &v[i].prof, v[i].err,
					    sizeof(v[i].err));
		}
		return 0;
	}
	split = jo->serial_qd1 && qd1 && mask != (1u << PROBE_TEST_RAND_READ_QD1);
	if (split)
		s.tests = mask & ~(1u << PROBE_TEST_RAND_READ_QD1);
	if (sched_getaffinity(0, sizeof(s.all), &s.all) < 0)
		CPU_ZERO(&s.all);
	pthread_mutex_init(&s.mu, NULL);
	pthread_cond_init(&s.cv, NULL);
	ret = run_concurrent(&s, workers);
	pthread_mutex_destroy(&s.mu);
	pthread_cond_destroy(&s.cv);
	pthread_setaffinity_np(pthread_self(), sizeof(s.all), &s.all);
	for (size_t i = 0; !ret && split && i < n; i++)
		ret = tests_alone(&v[i], o, 1u << PROBE_TEST_RAND_READ_QD1, "rand_read_qd1 measured "
				  "alone, after the other tests ran side by side with other devices");
	for (size_t i = 0; !ret && jo->spot_check && i < n; i++)
		ret = spot_check(&v[i], o, mask, qd1 && !split);
	return ret;
}
