/* underwrite.c — reads under a background writer (see underwrite.h). */
#include "underwrite.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rng.h"
#include "tw_util.h"

#define MIB (1024.0 * 1024.0)
#define WRITER_TAIL_S 30.0	/* the writer's time beyond the reader's */

struct uw_state {
	const struct probe_job *reader;
	const struct probe_uw_opts *o;
	volatile sig_atomic_t stop;	/* set under mu, cv broadcast (stop_all) */
	pthread_mutex_t mu;
	pthread_cond_t cv;		/* the trimmer's tick: a timed wait that
					 * stop ends at once (a 100 ms nanosleep
					 * kept each join waiting up to a tick) */
	/* writer */
	struct probe_job wjob;
	struct probe_job_result wres;
	int wret;
	/* trimmer */
	uint64_t trimmed, rewritten;	/* bytes */
	double trim_s;
	int trim_err;			/* first discard error, or 0 */
	int rewrite_err;
};

static void *writer_main(void *arg)
{
	struct uw_state *s = arg;

	s->wret = probe_job_run(&s->wjob, &s->wres);
	return NULL;
}

/* The writer: random writes of write_bs at write_mibps, QD1, until stop. */
static void writer_job(struct uw_state *s)
{
	const struct probe_job *r = s->reader;
	struct probe_job *w = &s->wjob;

	*w = *r;
	w->bs = s->o->write_bs;
	w->qd = 1;
	w->threads = 1;
	w->pattern = PROBE_RAND;
	w->read_pct = 0;
	w->rate_iops = s->o->write_mibps * MIB / s->o->write_bs;
	w->ramp_s = 0;
	w->min_s = w->max_s = r->ramp_s + r->max_s + WRITER_TAIL_S;
	w->max_ios = 0;
	w->stop_on_steady = false;
	w->window_s = 1.0;
	w->seed = r->seed ^ 0x7772697465720000ULL;	/* "writer" */
	w->on_window = NULL;
	w->arg = NULL;
	w->cancel = &s->stop;
	w->cpus = NULL;		/* not on the reader's CPUs (run.c qd1_pin) */
}

/* Discard [off, off + len) of fd: a block device or a regular file. */
static int discard(int fd, bool blk, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	if (blk)
		return ioctl(fd, BLKDISCARD, range) ? -errno : 0;
	return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off,
			 (off_t)len) ? -errno : 0;
}

/* One range: discarded (until discard fails once), then written again. */
static void trim_one(struct uw_state *s, bool blk, void *buf, struct probe_rng *rng)
{
	const struct probe_job *r = s->reader;
	const uint32_t bs = s->o->write_bs;
	uint64_t slots = (r->length - bs) / bs + 1;
	uint64_t off = r->offset + probe_rng_below(rng, slots) * bs;
	ssize_t n;

	if (!s->trim_err) {
		s->trim_err = discard(r->fd, blk, off, bs);
		if (!s->trim_err)
			s->trimmed += bs;
	}
	probe_rng_fill(rng, buf, sizeof(uint64_t));
	n = pwrite(r->fd, buf, bs, (off_t)off);
	if (n == (ssize_t)bs)
		s->rewritten += bs;
	else if (!s->rewrite_err)
		s->rewrite_err = n < 0 ? -errno : -EIO;
}

/* Wait until CLOCK_MONOTONIC time deadline_ns (tw_now_ns()) or stop:
 * whether the deadline came first. */
static bool tick_wait(struct uw_state *s, uint64_t deadline_ns)
{
	const struct timespec ts = tw_ts_of_ns(deadline_ns);
	bool stopped;

	pthread_mutex_lock(&s->mu);
	while (!s->stop && pthread_cond_timedwait(&s->cv, &s->mu, &ts) != ETIMEDOUT)
		;
	stopped = s->stop;
	pthread_mutex_unlock(&s->mu);
	return !stopped;
}

/* Stop the writer and the trimmer, waking the trimmer from its tick. */
static void stop_all(struct uw_state *s)
{
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

static void *trimmer_main(void *arg)
{
	struct uw_state *s = arg;
	const double tick_s = s->o->tick_s > 0 ? s->o->tick_s : PROBE_UW_TICK_S;
	const uint64_t tick_ns = (uint64_t)(tick_s * 1e9);
	const double per_tick = s->o->trim_mibps * MIB * tick_s;
	const uint64_t t0 = tw_now_ns();
	uint64_t next = t0;
	struct probe_rng rng;
	struct stat st;
	double owed = 0;
	void *buf = NULL;

	if (fstat(s->reader->fd, &st) || posix_memalign(&buf, 4096, s->o->write_bs)) {
		s->trim_err = s->rewrite_err = -EBADF;
		return NULL;
	}
	probe_rng_seed(&rng, s->reader->seed ^ 0x7472696d00000000ULL);	/* "trim" */
	probe_rng_fill(&rng, buf, s->o->write_bs);
	while (!s->stop && !s->rewrite_err) {
		/* a tick after the last one's deadline; one that ran late (a
		 * slow disk's rewrites) is not made up by ticks back to back */
		next += tick_ns;
		if (next + tick_ns < tw_now_ns())
			next = tw_now_ns();
		if (!tick_wait(s, next))
			break;
		for (owed += per_tick; owed >= s->o->write_bs && !s->stop && !s->rewrite_err;
		     owed -= s->o->write_bs)
			trim_one(s, S_ISBLK(st.st_mode), buf, &rng);
	}
	s->trim_s = (double)(tw_now_ns() - t0) / 1e9;
	free(buf);
	return NULL;
}

static int validate(const struct probe_job *r, const struct probe_uw_opts *o)
{
	if (!(o->write_mibps > 0) || !isfinite(o->write_mibps) || !(o->trim_mibps >= 0) ||
	    !isfinite(o->trim_mibps) || !(o->tick_s == 0 || (o->tick_s >= 1e-3 && o->tick_s <= 60)))
		return -EINVAL;
	if (!o->write_bs || !r->align || o->write_bs % r->align || r->length < o->write_bs)
		return -EINVAL;
	return 0;
}

/* The writer's and the trimmer's figures into res. */
static void outcome(const struct uw_state *s, struct probe_uw_result *res)
{
	double secs = s->wres.seconds, mib = s->wres.bytes / MIB;

	if (s->trim_s > 0)
		mib += s->rewritten / MIB;
	res->write_mibps = secs > 0 ? mib / secs : NAN;
	res->trim_mibps = s->trimmed && s->trim_s > 0 ? s->trimmed / MIB / s->trim_s : NAN;
	res->write_err = s->wret == -ECANCELED ? 0 : s->wret;
	if (res->write_err)
		snprintf(res->write_errmsg, sizeof(res->write_errmsg), "%s", s->wres.errmsg);
	else if (s->rewrite_err)
		snprintf(res->write_errmsg, sizeof(res->write_errmsg),
			 "trim stream write: %s", strerror(-s->rewrite_err));
	if (!s->o->trim_mibps)
		snprintf(res->trim_why, sizeof(res->trim_why), "no trim stream asked for");
	else if (!s->trimmed)
		snprintf(res->trim_why, sizeof(res->trim_why), "discard refused: %s",
			 strerror(-(s->trim_err ? s->trim_err : -EIO)));
}

int probe_uw_run(const struct probe_job *reader, const struct probe_uw_opts *o,
		 struct probe_uw_result *res)
{
	struct uw_state s = { .reader = reader, .o = o };
	pthread_condattr_t ca;
	pthread_t wt, tt;
	bool trims;
	int ret;

	memset(res, 0, sizeof(*res));
	res->write_mibps = res->trim_mibps = NAN;
	if (validate(reader, o))
		return -EINVAL;
	writer_job(&s);
	pthread_mutex_init(&s.mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);	/* tick_wait's deadlines */
	pthread_cond_init(&s.cv, &ca);
	pthread_condattr_destroy(&ca);
	if ((ret = -pthread_create(&wt, NULL, writer_main, &s)))
		goto out;
	trims = o->trim_mibps > 0 && reader->fd >= 0;
	if (trims && pthread_create(&tt, NULL, trimmer_main, &s))
		trims = false;
	ret = probe_job_run(reader, &res->read);
	stop_all(&s);
	if (trims)
		pthread_join(tt, NULL);
	pthread_join(wt, NULL);
	outcome(&s, res);
	if (o->trim_mibps > 0 && reader->fd < 0)
		snprintf(res->trim_why, sizeof(res->trim_why), "no file descriptor (null engine)");
	probe_job_result_free(&s.wres);
out:
	pthread_cond_destroy(&s.cv);
	pthread_mutex_destroy(&s.mu);
	return ret;
}
