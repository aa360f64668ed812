/* engine_psync.c — pread/pwrite from a pool of worker threads.
 *
 * The fallback where io_uring is unavailable.  min(qd, 64) workers take
 * committed I/Os from a submission ring, run pread/pwrite, and put them on
 * a completion ring that getevents() drains.  At qd 1 there are no
 * workers: commit() runs the I/O in the caller's thread, as fio's psync
 * does, so QD1 latency carries no thread hand-off (two wake-ups, ~10 µs
 * on a small VM).  One mutex guards both rings;
 * each side sleeps on its own condition variable and is woken only when it
 * is waiting (workers for work, the reaper for its min completions).
 * Rings hold pointers, sized to a power of two >= qd: no allocation and no
 * division once running.
 */
#include "engine.h"
#include "tw_util.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct pring {
	struct probe_io **v;
	unsigned head, tail;	/* free-running; index with & mask */
};

struct psync {
	int fd;
	unsigned qd, mask, nworkers, started;
	unsigned staged;	/* queued, not yet committed */
	unsigned inflight;	/* staged + committed, not yet reaped */
	struct probe_io **stage;
	pthread_mutex_t lock;
	pthread_cond_t work_cv, done_cv;
	struct pring sub, done;	/* guarded by lock */
	unsigned idle;		/* workers asleep on work_cv */
	unsigned want;		/* > 0 while the reaper sleeps for that many */
	bool stop;
	pthread_t tid[PROBE_PSYNC_MAX_THREADS];
};

static void do_io(int fd, struct probe_io *io)
{
	ssize_t r;

	do {
		if (io->op == PROBE_OP_WRITE)
			r = pwrite(fd, io->buf, io->len, (off_t)io->offset);
		else
			r = pread(fd, io->buf, io->len, (off_t)io->offset);
	} while (r < 0 && errno == EINTR);
	io->res = r < 0 ? -errno : (int32_t)r;
}

static unsigned pring_len(const struct pring *r)
{
	return r->tail - r->head;
}

static void *worker(void *arg)
{
	struct psync *s = arg;
	struct probe_io *io;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->stop && !pring_len(&s->sub)) {
			s->idle++;
			pthread_cond_wait(&s->work_cv, &s->lock);
			s->idle--;
		}
		if (!pring_len(&s->sub))
			break;	/* stop, and nothing left to do */
		io = s->sub.v[s->sub.head++ & s->mask];
		pthread_mutex_unlock(&s->lock);
		do_io(s->fd, io);
		pthread_mutex_lock(&s->lock);
		s->done.v[s->done.tail++ & s->mask] = io;
		if (s->want && pring_len(&s->done) >= s->want)
			pthread_cond_signal(&s->done_cv);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void psync_stop(struct psync *s)
{
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_broadcast(&s->work_cv);
	pthread_mutex_unlock(&s->lock);
	for (unsigned i = 0; i < s->started; i++)
		pthread_join(s->tid[i], NULL);
	s->started = 0;
}

static void psync_free(struct psync *s)
{
	psync_stop(s);
	pthread_cond_destroy(&s->work_cv);
	pthread_cond_destroy(&s->done_cv);
	pthread_mutex_destroy(&s->lock);
	free(s->stage);
	free(s->sub.v);
	free(s->done.v);
	free(s);
}

static struct psync *psync_alloc(const struct probe_engine_params *p)
{
	struct psync *s = calloc(1, sizeof(*s));
	pthread_condattr_t ca;
	unsigned cap = 1;

	if (!s)
		return NULL;
	while (cap < p->qd)
		cap <<= 1;
	s->fd = p->fd;
	s->qd = p->qd;
	s->mask = cap - 1;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->work_cv, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);	/* getevents' timed wait */
	pthread_cond_init(&s->done_cv, &ca);
	pthread_condattr_destroy(&ca);
	s->stage = calloc(cap, sizeof(*s->stage));
	s->sub.v = calloc(cap, sizeof(*s->sub.v));
	s->done.v = calloc(cap, sizeof(*s->done.v));
	if (!s->stage || !s->sub.v || !s->done.v) {
		psync_free(s);
		return NULL;
	}
	return s;
}

/* Start s->nworkers threads with small stacks.  Returns 0 or -errno. */
static int start_workers(struct psync *s)
{
	pthread_attr_t attr;
	int ret;

	ret = -pthread_attr_init(&attr);
	if (ret)
		return ret;
	pthread_attr_setstacksize(&attr, 256u << 10);
	for (; s->started < s->nworkers; s->started++) {
		ret = -pthread_create(&s->tid[s->started], &attr, worker, s);
		if (ret)
			break;
	}
	pthread_attr_destroy(&attr);
	return ret;
}

static int psync_init(const struct probe_engine_params *p, void **priv,
		      struct probe_engine_info *info)
{
	struct psync *s;
	int ret = -ENOMEM;

	*info = (struct probe_engine_info){ 0 };
	if (!p->qd || p->qd > PROBE_ENGINE_MAX_QD) {
		snprintf(info->err, sizeof(info->err),
			 "psync: queue depth %u out of range", p->qd);
		return -EINVAL;
	}
	s = psync_alloc(p);
	if (!s)
		goto err;
	s->nworkers = p->qd == 1 ? 0
		    : p->qd < PROBE_PSYNC_MAX_THREADS ? p->qd
						      : PROBE_PSYNC_MAX_THREADS;
	ret = start_workers(s);
	if (ret)
		goto err;
	info->workers = s->nworkers;
	/* One line for every depth (the profile notes each new one): the
	 * workers emulate the queue depth, they are not --threads. */
	snprintf(info->desc, sizeof(info->desc),
		 "psync (pread/pwrite; queue depth N served by N worker threads, "
		 "at most %u)", PROBE_PSYNC_MAX_THREADS);
	*priv = s;
	return 0;
err:
	if (s)
		psync_free(s);
	snprintf(info->err, sizeof(info->err), "psync: %s", strerror(-ret));
	return ret;
}

static enum probe_q psync_queue(void *priv, struct probe_io *io)
{
	struct psync *s = priv;

	if (s->inflight >= s->qd)
		return PROBE_Q_BUSY;
	s->stage[s->staged++] = io;
	s->inflight++;
	return PROBE_Q_QUEUED;
}

static int psync_commit(void *priv)
{
	struct psync *s = priv;
	unsigned n = s->staged;

	if (!n)
		return 0;
	if (!s->nworkers) {	/* qd 1: run it here, nobody else looks */
		for (unsigned i = 0; i < n; i++) {
			do_io(s->fd, s->stage[i]);
			s->done.v[s->done.tail++ & s->mask] = s->stage[i];
		}
		s->staged = 0;
		return 0;
	}
	pthread_mutex_lock(&s->lock);
	for (unsigned i = 0; i < n; i++)
		s->sub.v[s->sub.tail++ & s->mask] = s->stage[i];
	for (unsigned i = 0; i < n && i < s->idle; i++)
		pthread_cond_signal(&s->work_cv);	/* one per I/O, no herd */
	pthread_mutex_unlock(&s->lock);
	s->staged = 0;
	return 0;
}

static int psync_getevents(void *priv, unsigned min, unsigned max,
			   struct probe_io **ev)
{
	struct psync *s = priv;
	unsigned n, busy = s->inflight - s->staged;
	bool late = false;

	if (min > busy)
		min = busy;	/* never wait for I/Os that were not committed */
	pthread_mutex_lock(&s->lock);
	while (pring_len(&s->done) < min) {
		const struct timespec until = tw_ts_of_ns(tw_now_ns() + PROBE_ENGINE_REAP_WAIT_NS);

		if (late && pring_len(&s->done))
			break;	/* the batch took too long: these go now */
		s->want = min;
		late = pthread_cond_timedwait(&s->done_cv, &s->lock, &until) == ETIMEDOUT;
	}
	s->want = 0;
	for (n = 0; n < max && pring_len(&s->done); n++)
		ev[n] = s->done.v[s->done.head++ & s->mask];
	pthread_mutex_unlock(&s->lock);
	s->inflight -= n;
	return (int)n;
}

static void psync_cleanup(void *priv)
{
	if (priv)
		psync_free(priv);
}

const struct probe_engine_ops probe_engine_psync = {
	.name = "psync",
	.init = psync_init,
	.queue = psync_queue,
	.commit = psync_commit,
	.getevents = psync_getevents,
	.cleanup = psync_cleanup,
};
