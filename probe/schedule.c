/* schedule.c — device probes side by side (see schedule.h): which task starts
 * when, on how many threads; the spot check afterwards is spot.c, one
 * task's run schedule_run.c. */
#include "schedule_priv.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpulist.h"
#include "tw_util.h"

/* Beyond one task per CPU, another starts only when the process used at most
 * CPU_FREE_SHARE of the CPUs less one whole core over the last window of at
 * least WINDOW_S seconds, and not sooner than 2 × WINDOW_S after the last
 * such start (its own use must show first). */
#define WINDOW_S 1.0
#define CPU_FREE_SHARE 0.9
#define MAX_WORKERS 64

struct sched {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct probe_task *v;
	size_t n;
	bool *started, *running;
	size_t n_running;
	struct probe_sched_load load;
	const struct probe_options *o;
	const struct probe_sched_opts *so;
	unsigned tests;		/* what the concurrent phase runs */
	cpu_set_t all;		/* the process's CPUs */
};

unsigned probe_sched_cpus(void)
{
	cpu_set_t s;
	int n;

	if (sched_getaffinity(0, sizeof(s), &s) < 0)
		return 1;
	n = CPU_COUNT(&s);
	return n > 0 ? (unsigned)n : 1;
}

void probe_sched_note(const struct probe_sched_opts *so, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!so || !so->note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	so->note(so->note_arg, msg);
}

const char *probe_sched_port(const struct probe_task *t)
{
	return t->t.dev && t->t.dev->pci_port ? t->t.dev->pci_port : t->t.id;
}

const char *probe_sched_drive(const struct probe_task *t)
{
	return t->t.dev ? t->t.dev->drive_id : NULL;
}

bool probe_sched_clash(const struct probe_task *a, const struct probe_task *b)
{
	const char *da = probe_sched_drive(a), *db = probe_sched_drive(b);

	return !strcmp(probe_sched_port(a), probe_sched_port(b)) || (da && db && !strcmp(da, db));
}

/* Pin the calling thread to the CPUs local to t's device, else to all. */
static void pin(const struct sched *s, const struct probe_task *t)
{
	cpu_set_t set;

	if (t->t.dev && t->t.dev->local_cpulist &&
	    probe_cpulist_set(t->t.dev->local_cpulist, &s->all, &set))
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	else
		pthread_setaffinity_np(pthread_self(), sizeof(s->all), &s->all);
}

ptrdiff_t probe_sched_next(const struct probe_task *v, size_t n, const bool *started,
			   const bool *running)
{
	bool all = true;

	for (size_t i = 0; i < n; i++) {
		bool busy = false;

		if (started[i])
			continue;
		all = false;
		for (size_t k = 0; k < n && !busy; k++)
			busy = running[k] && probe_sched_clash(&v[k], &v[i]);
		if (!busy)
			return (ptrdiff_t)i;
	}
	return all ? -2 : -1;
}

bool probe_sched_cpu_allows(struct probe_sched_load *l, size_t n_running, double now,
			    double cpu_s)
{
	if (n_running < l->cpus)
		return true;
	if (now - l->win_wall >= WINDOW_S) {
		l->util = (cpu_s - l->win_cpu) / (now - l->win_wall);
		l->win_wall = now;
		l->win_cpu = cpu_s;
	}
	if (isnan(l->util) || now - l->extra_at < 2 * WINDOW_S ||
	    l->util + 1.0 > (double)l->cpus * CPU_FREE_SHARE)
		return false;
	l->extra_at = now;
	l->util = NAN;		/* the next window, with the new task in it, decides */
	return true;
}

/* Wait on s->cv for a quarter second at most (s->mu held). */
static void wait_a_while(struct sched *s)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 250000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&s->cv, &s->mu, &until);
}

static void *worker(void *arg)
{
	struct sched *s = arg;
	size_t running;
	ptrdiff_t i;

	pthread_mutex_lock(&s->mu);
	while ((i = probe_sched_next(s->v, s->n, s->started, s->running)) != -2) {
		struct probe_task *t;

		if (i < 0 || !probe_sched_cpu_allows(&s->load, s->n_running,
						     (double)tw_now_ns() / 1e9, tw_cpu_s())) {
			wait_a_while(s);	/* a port busy, or the CPUs: look again */
			continue;
		}
		t = &s->v[i];
		s->started[i] = s->running[i] = true;
		running = ++s->n_running;
		pthread_mutex_unlock(&s->mu);
		probe_sched_note(s->so, "probing %s (%s) side by side, %zu running", t->t.id,
				 t->t.path, running);
		pin(s, t);
		t->ret = probe_sched_run_into(t, s->o, s->so, s->tests, false, &t->prof, t->err,
					      sizeof(t->err));
		pthread_mutex_lock(&s->mu);
		s->running[i] = false;
		s->n_running--;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* Run the tasks of s on workers threads. */
static int run_concurrent(struct sched *s, unsigned workers)
{
	pthread_t th[MAX_WORKERS];
	unsigned started = 0;
	int ret = 0;

	s->started = calloc(s->n, sizeof(bool));
	s->running = calloc(s->n, sizeof(bool));
	if (!s->started || !s->running) {
		ret = -ENOMEM;
		goto out;
	}
	for (; started < workers && started < MAX_WORKERS; started++)
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

unsigned probe_sched_workers(unsigned jobs, unsigned cpus, size_t n, unsigned mask,
			     bool serial_qd1)
{
	unsigned workers = jobs > MAX_WORKERS ? MAX_WORKERS : jobs;

	if (cpus < 2)
		workers = 1;	/* one CPU: nothing runs beside anything */
	if (serial_qd1 && mask == 1u << PROBE_TEST_RAND_READ_QD1)
		workers = 1;	/* nothing to run side by side */
	if (workers > n)
		workers = (unsigned)n;
	return workers;
}

/* One after another, each alone (one worker). */
static void run_serial(struct probe_task *v, size_t n, const struct probe_options *o,
		       const struct probe_sched_opts *so, unsigned mask)
{
	for (size_t i = 0; i < n; i++) {
		probe_sched_note(so, "probing %s (%s)", v[i].t.id, v[i].t.path);
		v[i].ret = probe_sched_run_into(&v[i], o, so, mask, true, &v[i].prof, v[i].err,
						sizeof(v[i].err));
	}
}

int probe_sched_run(struct probe_task *v, size_t n, const struct probe_options *o,
		    const struct probe_sched_opts *so)
{
	unsigned mask = o->tests ? o->tests : PROBE_TESTS_DEFAULT;
	unsigned cpus = so->cpus ? so->cpus : probe_sched_cpus();
	unsigned workers = probe_sched_workers(so->jobs, cpus, n, mask, so->serial_qd1);
	struct sched s = { .v = v, .n = n, .o = o, .so = so, .tests = mask,
			   .load = PROBE_SCHED_LOAD_INIT(cpus, (double)tw_now_ns() / 1e9,
							 tw_cpu_s()) };
	bool split, qd1 = mask & (1u << PROBE_TEST_RAND_READ_QD1);
	int ret;

	if (workers <= 1) {
		run_serial(v, n, o, so, mask);
		return 0;
	}
	split = so->serial_qd1 && qd1 && mask != (1u << PROBE_TEST_RAND_READ_QD1);
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
	for (size_t i = 0; !ret && split && i < n; i++) {
		/* the first QD1 comes right after the side-by-side tests: it
		 * settles first, as after a test of its own run; the others
		 * follow a QD1 of another device */
		struct probe_options qo = *o;

		qo.settle_first = i == 0;
		ret = probe_spot_alone(&v[i], &qo, so, 1u << PROBE_TEST_RAND_READ_QD1, "rand_read_qd1 "
				       "measured alone, after the other tests ran side by side with "
				       "other devices");
	}
	for (size_t i = 0; !ret && so->spot_check && i < n; i++)
		ret = probe_spot_check(&v[i], o, so, mask, qd1 && !split);
	return ret;
}
