/* engine_null.c — the engine that does no I/O (tests of the job loop).
 *
 * queue() stages an I/O; commit() gives every staged I/O the due time
 * now + lat_ns; getevents() hands out due I/Os in FIFO order (which is due
 * order, the latency being constant) and busy-waits for the next one when
 * fewer than min are due: sleeping would add the timer slack (50 µs) to
 * every latency.  res is len, or fail_err for the fail_nth-th I/O.
 */
#include "engine.h"
#include "tw_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct null_eng {
	struct probe_null_opts o;
	unsigned mask;		/* ring capacity - 1 (a power of two) */
	unsigned head, staged, tail;	/* [head, staged) committed, [staged, tail) staged */
	uint64_t nqueued;
	struct probe_io **ring;
	uint64_t *due;
};

static unsigned pow2_at_least(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int null_init(const struct probe_engine_params *p, void **priv,
		     struct probe_engine_info *info)
{
	struct null_eng *n;
	unsigned cap = pow2_at_least(p->qd ? p->qd : 1);

	*info = (struct probe_engine_info){ 0 };
	n = calloc(1, sizeof(*n));
	if (!n)
		goto err;
	if (p->opts)
		n->o = *(const struct probe_null_opts *)p->opts;
	if (!n->o.fail_err)
		n->o.fail_err = -EIO;
	n->mask = cap - 1;
	n->ring = calloc(cap, sizeof(*n->ring));
	n->due = calloc(cap, sizeof(*n->due));
	if (!n->ring || !n->due)
		goto err;
	snprintf(info->desc, sizeof(info->desc), "null (latency %llu ns)",
		 (unsigned long long)n->o.lat_ns);
	*priv = n;
	return 0;
err:
	if (n) {
		free(n->ring);
		free(n->due);
		free(n);
	}
	snprintf(info->err, sizeof(info->err), "null engine: out of memory");
	return -ENOMEM;
}

static enum probe_q null_queue(void *priv, struct probe_io *io)
{
	struct null_eng *n = priv;

	if (n->tail - n->head > n->mask)
		return PROBE_Q_BUSY;
	n->nqueued++;
	io->res = n->nqueued == n->o.fail_nth ? n->o.fail_err : (int32_t)io->len;
	if (n->o.on_queue)
		n->o.on_queue(n->o.arg, io);
	n->ring[n->tail++ & n->mask] = io;
	return PROBE_Q_QUEUED;
}

static int null_commit(void *priv)
{
	struct null_eng *n = priv;
	uint64_t due = n->o.lat_ns ? tw_now_ns() + n->o.lat_ns : 0;

	for (; n->staged != n->tail; n->staged++)
		n->due[n->staged & n->mask] = due;
	return 0;
}

static void spin_until(uint64_t t)
{
	while (tw_now_ns() < t)
		;
}

static int null_getevents(void *priv, unsigned min, unsigned max,
			  struct probe_io **ev)
{
	struct null_eng *n = priv;
	uint64_t now = n->o.lat_ns ? tw_now_ns() : 0;
	const uint64_t late = now + PROBE_ENGINE_REAP_WAIT_NS;
	unsigned got = 0;

	while (got < max && n->head != n->staged) {
		uint64_t due = n->due[n->head & n->mask];

		if (due > now) {
			if (got >= min || (got && due > late))
				break;	/* enough, or the batch takes too long */
			spin_until(due);
			now = due;
		}
		ev[got++] = n->ring[n->head++ & n->mask];
	}
	return (int)got;
}

static void null_cleanup(void *priv)
{
	struct null_eng *n = priv;

	if (!n)
		return;
	free(n->ring);
	free(n->due);
	free(n);
}

const struct probe_engine_ops probe_engine_null = {
	.name = "null",
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.cleanup = null_cleanup,
};
