/* engine_uring.c — io_uring with registered file and buffers.
 *
 * Setup tries the flags that cut per-I/O overhead and falls back one rung
 * at a time while the kernel answers -EINVAL (an older kernel):
 *
 *   SINGLE_ISSUER | DEFER_TASKRUN | COOP_TASKRUN | SUBMIT_ALL    6.1+
 *   SINGLE_ISSUER | COOP_TASKRUN | SUBMIT_ALL                     6.0
 *   COOP_TASKRUN | SUBMIT_ALL                                     5.19
 *   none
 *
 * -EPERM / -ENOSYS (kernel.io_uring_disabled, seccomp, no CONFIG_IO_URING)
 * stop the ladder and are returned as they are, so that the caller can fall
 * back to psync (probe_engine_open does).  The file and the buffers are
 * registered when the kernel lets us (registered buffers count against
 * RLIMIT_MEMLOCK without CAP_IPC_LOCK); when it does not, plain read/write
 * SQEs are used and info says so.
 *
 * Submission, as fio's default (iodepth_batch_submit=1): queue() submits
 * the SQE prepared before it, so each I/O reaches the device as soon as the
 * next one is being prepared; the last SQE of a refill stays staged, commit()
 * marks it due, and the next getevents() submits it, then waits for its
 * completions in a second io_uring_enter, as fio does — not in the same
 * call (io_uring_submit_and_wait): with the wait in the submitting call,
 * 4 KiB random reads at QD1 on a loop device over tmpfs take 7.2 µs at the
 * p50 against 4.5 µs in two calls (fio 4.3 µs); at QD32 the two are alike
 * (bench/engine-overhead, docs/bench-results.md).  Reaping is batched
 * (io_uring_peek_batch_cqe + io_uring_cq_advance), and a batch is waited
 * for at most PROBE_ENGINE_REAP_WAIT_NS (a wait with a timeout:
 * IORING_FEAT_EXT_ARG, no SQE).  I/Os are submitted one or two per call,
 * not in refills of 16: on a virtio disk, 4 KiB random reads at QD32 then
 * run at 1.01-1.06x fio's rate, not 0.86x (the device starts on each I/O
 * sooner); on zram, where io-wq does the work, it makes no difference.
 */
#include "engine.h"
#include "tw_util.h"

#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REG_BUFS 16384u	/* IORING_MAX_REG_BUFFERS */

struct uring {
	struct io_uring ring;
	int fd;			/* the fd, or 0: its registered index */
	unsigned char sqe_flags;	/* IOSQE_FIXED_FILE or 0 */
	bool fixed_bufs;
	bool due;		/* committed SQEs not yet submitted */
	unsigned qd, inflight;	/* inflight: queued, not yet reaped */
	unsigned staged;	/* queued since the last commit */
	struct io_uring_cqe **cqes;
};

static const unsigned setup_ladder[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL,
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN |
		IORING_SETUP_SUBMIT_ALL,
	IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL,
	0,
};

static const struct {
	unsigned flag;
	const char *name;
} flag_names[] = {
	{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
	{ IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
	{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
	{ IORING_SETUP_SUBMIT_ALL, "SUBMIT_ALL" },
	{ IORING_SETUP_SQPOLL, "SQPOLL" },
	{ IORING_SETUP_IOPOLL, "IOPOLL" },
};

/* "A|B|C" for the flags set, "no flags" for none. */
static void flags_str(unsigned flags, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++)
		if (flags & flag_names[i].flag && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? "|" : "",
					       flag_names[i].name);
	if (!at)
		snprintf(buf, len, "no flags");
}

/* Create the ring, down the ladder on -EINVAL.  Returns 0 or -errno. */
static int ring_setup(struct uring *u, const struct probe_uring_opts *o,
		      unsigned *flags)
{
	struct io_uring_params prm;
	const unsigned *try = setup_ladder;
	size_t n = ARRAY_SIZE(setup_ladder);
	int ret = -EINVAL;

	if (o->exact_flags) {
		try = &o->setup_flags;
		n = 1;
	}
	for (size_t i = 0; i < n && ret == -EINVAL; i++) {
		memset(&prm, 0, sizeof(prm));
		prm.flags = try[i];
		ret = io_uring_queue_init_params(u->qd, &u->ring, &prm);
		*flags = try[i];
	}
	return ret;
}

static void register_all(struct uring *u, const struct probe_engine_params *p,
			 const struct probe_uring_opts *o)
{
	if (!o->no_fixed_files &&
	    io_uring_register_files(&u->ring, &p->fd, 1) == 0) {
		u->fd = 0;
		u->sqe_flags = IOSQE_FIXED_FILE;
	}
	if (!o->no_fixed_bufs && p->nbufs && p->nbufs <= MAX_REG_BUFS &&
	    io_uring_register_buffers(&u->ring, p->bufs, p->nbufs) == 0)
		u->fixed_bufs = true;
	/* Saves an fget per io_uring_enter on 5.18+; harmless if refused. */
	io_uring_register_ring_fd(&u->ring);
}

static void describe(const struct uring *u, struct probe_engine_info *info)
{
	char fl[96];

	info->fixed_files = u->sqe_flags != 0;
	info->fixed_bufs = u->fixed_bufs;
	flags_str(info->setup_flags, fl, sizeof(fl));
	snprintf(info->desc, sizeof(info->desc), "io_uring (%s; %s; %s)", fl,
		 info->fixed_files ? "fixed file" : "plain fd",
		 info->fixed_bufs ? "fixed buffers" : "plain buffers");
}

static int uring_init(const struct probe_engine_params *p, void **priv,
		      struct probe_engine_info *info)
{
	static const struct probe_uring_opts none;
	const struct probe_uring_opts *o = p->opts ? p->opts : &none;
	struct uring *u = NULL;
	int ret;

	*info = (struct probe_engine_info){ 0 };
	ret = o->fake_init_err;
	if (ret)
		goto err;
	ret = -EINVAL;
	if (!p->qd || p->qd > PROBE_ENGINE_MAX_QD)
		goto err;
	ret = -ENOMEM;
	u = calloc(1, sizeof(*u));
	if (!u || !(u->cqes = calloc(p->qd, sizeof(*u->cqes))))
		goto err;
	u->qd = p->qd;
	u->fd = p->fd;
	ret = ring_setup(u, o, &info->setup_flags);
	if (ret)
		goto err;
	register_all(u, p, o);
	describe(u, info);
	*priv = u;
	return 0;
err:
	if (u)
		free(u->cqes);
	free(u);
	snprintf(info->err, sizeof(info->err), "io_uring setup: %s%s",
		 strerror(-ret),
		 probe_engine_uring_refused(ret)
			 ? " (kernel.io_uring_disabled, seccomp or no kernel support)"
			 : "");
	return ret;
}

static void prep(struct uring *u, struct io_uring_sqe *sqe,
		 const struct probe_io *io)
{
	if (io->op == PROBE_OP_WRITE) {
		if (u->fixed_bufs)
			io_uring_prep_write_fixed(sqe, u->fd, io->buf, io->len,
						  io->offset, (int)io->buf_index);
		else
			io_uring_prep_write(sqe, u->fd, io->buf, io->len,
					    io->offset);
	} else {
		if (u->fixed_bufs)
			io_uring_prep_read_fixed(sqe, u->fd, io->buf, io->len,
						 io->offset, (int)io->buf_index);
		else
			io_uring_prep_read(sqe, u->fd, io->buf, io->len,
					   io->offset);
	}
	sqe->flags |= u->sqe_flags;
	io_uring_sqe_set_data(sqe, (void *)io);
}

static enum probe_q uring_queue(void *priv, struct probe_io *io)
{
	struct uring *u = priv;
	struct io_uring_sqe *sqe;

	if (u->inflight >= u->qd)
		return PROBE_Q_BUSY;
	if (io_uring_sq_ready(&u->ring) && io_uring_submit(&u->ring) < 0)
		return PROBE_Q_BUSY;	/* still due: submit_due tries again */
	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return PROBE_Q_BUSY;
	prep(u, sqe, io);
	u->inflight++;
	u->staged++;
	return PROBE_Q_QUEUED;
}

static int uring_commit(void *priv)
{
	struct uring *u = priv;

	if (u->staged)
		u->due = true;
	u->staged = 0;
	return 0;
}

/* Submit the due SQEs (the wait for their completions is a call of its own:
 * see the head of this file). */
static int submit_due(struct uring *u)
{
	int ret;

	while (u->due) {
		ret = io_uring_submit(&u->ring);
		if (ret < 0 && ret != -EINTR)
			return ret;
		u->due = io_uring_sq_ready(&u->ring) != 0;
	}
	return 0;
}

static int uring_getevents(void *priv, unsigned min, unsigned max,
			   struct probe_io **ev)
{
	struct uring *u = priv;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = { .tv_nsec = PROBE_ENGINE_REAP_WAIT_NS };
	unsigned n, busy = u->inflight - u->staged;
	bool late = false;
	int ret;

	if (min > busy)
		min = busy;	/* never wait for I/Os that were not committed */
	if (max > u->qd)
		max = u->qd;
	ret = submit_due(u);
	while (!ret && io_uring_cq_ready(&u->ring) < min) {
		if (late && io_uring_cq_ready(&u->ring))
			break;	/* the batch took too long: these go now */
		/* A wait for one needs no bound (its first completion ends
		 * it), and a bound costs a timer armed and cancelled per wait
		 * (at QD1 on a loop device about 0.1 us at the p50). */
		if (min > 1 && (u->ring.features & IORING_FEAT_EXT_ARG)) {
			/* back with fewer than min: the time is up (-ETIME, or
			 * 0 when a CQE is there, as kernels since 5.19 do) or
			 * a signal */
			ret = io_uring_wait_cqes(&u->ring, &cqe, min, &ts, NULL);
			late = true;
		} else {
			/* before 5.11 a timeout takes an SQE and a CQE of its
			 * own: wait for the whole batch, unbounded */
			ret = io_uring_wait_cqe_nr(&u->ring, &cqe, min);
		}
		if (ret == -EINTR || ret == -ETIME)
			ret = 0;
	}
	if (ret < 0)
		return ret;
	n = io_uring_peek_batch_cqe(&u->ring, u->cqes, max);
	for (unsigned i = 0; i < n; i++) {
		struct probe_io *io = io_uring_cqe_get_data(u->cqes[i]);

		io->res = u->cqes[i]->res;
		ev[i] = io;
	}
	io_uring_cq_advance(&u->ring, n);
	u->inflight -= n;
	return (int)n;
}

static void uring_cleanup(void *priv)
{
	struct uring *u = priv;
	struct probe_io *ev[64];

	if (!u)
		return;
	/* Buffers must outlive their I/Os: reap what is still in flight. */
	uring_commit(u);
	while (u->inflight - u->staged &&
	       uring_getevents(u, 1, 64, ev) > 0)
		;
	io_uring_queue_exit(&u->ring);
	free(u->cqes);
	free(u);
}

const struct probe_engine_ops probe_engine_uring = {
	.name = "io_uring",
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.cleanup = uring_cleanup,
};

bool probe_engine_uring_refused(int err)
{
	return err == -EPERM || err == -EACCES || err == -ENOSYS ||
	       err == -EOPNOTSUPP;
}
