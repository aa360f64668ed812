/* engine_fault.c — fault injection around another engine (tests only).
 *
 * Every I/O runs on the inner engine.  Each completion the wrapper reaps is
 * counted in the (possibly shared) state; once more than `after` have been
 * seen, up to `count` successful ones (all, when count is 0) are altered:
 * res becomes -EIO, -EAGAIN or len / 2, or the completion is held back
 * until delay_ns after it was reaped.  Failed completions of the inner
 * engine pass through unchanged.
 *
 * Reaped completions wait in `pend` with the time they are due (now, or
 * now + delay_ns) and are handed out once due.  While a held completion is
 * not yet due the wrapper polls the inner engine every millisecond (min 0),
 * so other completions are not stuck behind it; it sleeps rather than
 * spins: delays are milliseconds.  cleanup() does not wait for held
 * completions (they are done); it only closes the inner engine, which
 * waits for its own.
 */
#include "engine.h"
#include "probe.h"
#include "tw_util.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POLL_NS 1000000u	/* inner engine poll while a completion is held */

struct pend {
	struct probe_io *io;
	uint64_t due;
};

struct fault_eng {
	struct probe_engine inner;
	struct probe_fault_opts o;
	struct probe_fault_state own, *st;
	unsigned qd;
	unsigned inner_busy;	/* queued to the inner engine, not yet reaped */
	unsigned npend;		/* reaped, not yet handed out */
	struct pend *pend;	/* qd entries */
	struct probe_io **tmp;	/* qd entries: the inner engine's events */
};

static const char *const kind_names[] = {
	[PROBE_FAULT_NONE] = "none", [PROBE_FAULT_EIO] = "eio",
	[PROBE_FAULT_SHORT] = "short", [PROBE_FAULT_EAGAIN] = "eagain",
	[PROBE_FAULT_SLOW] = "slow",
};

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* ---- configuration --------------------------------------------------- */

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*v = x;
	return 0;
}

static int parse_kind(const char *s, enum probe_fault_kind *k)
{
	for (size_t i = 1; i < ARRAY_SIZE(kind_names); i++) {
		if (!strcmp(s, kind_names[i])) {
			*k = (enum probe_fault_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* One "key=value" field into o.  Returns 0 or -EINVAL. */
static int parse_field(char *f, struct probe_fault_opts *o)
{
	char *v = strchr(f, '=');
	uint64_t ms;

	if (!v)
		return -EINVAL;
	*v++ = '\0';
	if (!strcmp(f, "after"))
		return parse_u64(v, &o->after);
	if (!strcmp(f, "count"))
		return parse_u64(v, &o->count);
	if (!strcmp(f, "delay")) {
		if (parse_u64(v, &ms) || ms > 3600000u)
			return -EINVAL;
		o->delay_ns = ms * 1000000u;
		return 0;
	}
	if (!strcmp(f, "device") && *v && strlen(v) < sizeof(o->device)) {
		memcpy(o->device, v, strlen(v) + 1);
		return 0;
	}
	return -EINVAL;
}

int probe_fault_parse(const char *spec, struct probe_fault_opts *o,
		      char *err, size_t errlen)
{
	char *copy = strdup(spec ? spec : ""), *save = NULL, *f;
	int ret = 0;

	memset(o, 0, sizeof(*o));
	if (!copy)
		return -ENOMEM;
	f = strtok_r(copy, ":", &save);
	if (!f || parse_kind(f, &o->kind)) {
		snprintf(err, errlen, "unknown fault '%s' (eio, short, eagain, slow)",
			 f ? f : "");
		ret = -EINVAL;
	}
	while (!ret && (f = strtok_r(NULL, ":", &save))) {
		char shown[80];

		snprintf(shown, sizeof(shown), "%s", f);	/* parse_field cuts f */
		if (parse_field(f, o)) {
			snprintf(err, errlen, "bad field '%s' (after=N, count=N, "
				 "delay=MS, device=NAME)", shown);
			ret = -EINVAL;
		}
	}
	if (!ret && o->kind == PROBE_FAULT_SLOW && !o->delay_ns)
		o->delay_ns = 1000000000u;
	free(copy);
	return ret;
}

bool probe_fault_matches(const struct probe_fault_opts *o, const char *id,
			 const char *path)
{
	if (!o->device[0])
		return true;
	if (id && !strcmp(o->device, id))
		return true;
	if (!path)
		return false;
	return !strcmp(o->device, path) ||
	       (!strncmp(path, "/dev/", 5) && !strcmp(o->device, path + 5));
}

/* ---- injection ------------------------------------------------------- */

/* Whether this completion gets the fault (counts it either way). */
static bool take_fault(struct fault_eng *f)
{
	uint64_t n = atomic_fetch_add(&f->st->seen, 1) + 1, k;

	if (f->o.kind == PROBE_FAULT_NONE || n <= f->o.after)
		return false;
	k = atomic_load(&f->st->injected);
	do {
		if (f->o.count && k >= f->o.count)
			return false;
	} while (!atomic_compare_exchange_weak(&f->st->injected, &k, k + 1));
	return true;
}

/* Alter io if its turn has come; returns when it is due. */
static uint64_t apply(struct fault_eng *f, struct probe_io *io, uint64_t now)
{
	if (io->res != (int32_t)io->len) {
		atomic_fetch_add(&f->st->seen, 1);
		return now;
	}
	if (!take_fault(f))
		return now;
	switch (f->o.kind) {
	case PROBE_FAULT_EIO: io->res = -EIO; break;
	case PROBE_FAULT_EAGAIN: io->res = -EAGAIN; break;
	case PROBE_FAULT_SHORT: io->res = (int32_t)(io->len / 2); break;
	case PROBE_FAULT_SLOW: return now + f->o.delay_ns;
	case PROBE_FAULT_NONE: break;
	}
	return now;
}

/* ---- ops ------------------------------------------------------------- */

static void fault_free(struct fault_eng *f)
{
	probe_engine_close(&f->inner);
	free(f->pend);
	free(f->tmp);
	free(f);
}

static int fault_init(const struct probe_engine_params *p, void **priv,
		      struct probe_engine_info *info)
{
	const struct probe_fault_opts *o = p->opts;
	struct probe_engine_params ip = *p;
	struct fault_eng *f;
	int ret;

	*info = (struct probe_engine_info){ 0 };
	if (!o || !p->qd || p->qd > PROBE_ENGINE_MAX_QD) {
		snprintf(info->err, sizeof(info->err), "fault: %s",
			 o ? "queue depth out of range" : "no options");
		return -EINVAL;
	}
	f = calloc(1, sizeof(*f));
	if (f) {
		f->pend = calloc(p->qd, sizeof(*f->pend));
		f->tmp = calloc(p->qd, sizeof(*f->tmp));
	}
	if (!f || !f->pend || !f->tmp) {
		if (f)
			fault_free(f);
		snprintf(info->err, sizeof(info->err), "fault: out of memory");
		return -ENOMEM;
	}
	f->o = *o;
	f->st = o->state ? o->state : &f->own;
	f->qd = p->qd;
	ip.opts = o->inner_opts;
	ret = probe_engine_open(&f->inner, o->inner ? o->inner : &probe_engine_uring,
				&ip, !o->no_fallback);
	if (ret) {
		snprintf(info->err, sizeof(info->err), "fault: %.170s", f->inner.msg);
		fault_free(f);
		return ret;
	}
	*info = f->inner.info;
	snprintf(info->desc, sizeof(info->desc), "fault %s after %llu over %.100s%s",
		 kind_names[o->kind], (unsigned long long)o->after,
		 f->inner.info.desc, f->inner.fell_back ? " (io_uring refused)" : "");
	*priv = f;
	return 0;
}

static enum probe_q fault_queue(void *priv, struct probe_io *io)
{
	struct fault_eng *f = priv;
	enum probe_q q;

	if (f->inner_busy + f->npend >= f->qd)
		return PROBE_Q_BUSY;
	q = f->inner.ops->queue(f->inner.priv, io);
	if (q == PROBE_Q_QUEUED)
		f->inner_busy++;
	else if (q == PROBE_Q_COMPLETED)
		apply(f, io, 0);	/* cannot be held: only altered */
	return q;
}

static int fault_commit(void *priv)
{
	struct fault_eng *f = priv;

	return f->inner.ops->commit(f->inner.priv);
}

/* Reap the inner engine (waiting for `wait` completions) into pend. */
static int reap_inner(struct fault_eng *f, unsigned wait)
{
	uint64_t now;
	int n;

	if (!f->inner_busy)
		return 0;
	n = f->inner.ops->getevents(f->inner.priv, wait, f->qd, f->tmp);
	if (n <= 0)
		return n;
	f->inner_busy -= (unsigned)n;
	now = tw_now_ns();
	for (int i = 0; i < n; i++) {
		f->pend[f->npend].io = f->tmp[i];
		f->pend[f->npend++].due = apply(f, f->tmp[i], now);
	}
	return n;
}

/* Hand out due completions, in order, up to max.  Returns how many. */
static unsigned hand_out(struct fault_eng *f, uint64_t now,
			 struct probe_io **ev, unsigned max)
{
	unsigned got = 0, keep = 0;

	for (unsigned i = 0; i < f->npend; i++) {
		if (got < max && f->pend[i].due <= now)
			ev[got++] = f->pend[i].io;
		else
			f->pend[keep++] = f->pend[i];
	}
	f->npend = keep;
	return got;
}

static uint64_t next_due(const struct fault_eng *f)
{
	uint64_t t = UINT64_MAX;

	for (unsigned i = 0; i < f->npend; i++)
		if (f->pend[i].due < t)
			t = f->pend[i].due;
	return t;
}

static int fault_getevents(void *priv, unsigned min, unsigned max,
			   struct probe_io **ev)
{
	struct fault_eng *f = priv;
	unsigned got = 0, wait = 0;

	if (min > f->inner_busy + f->npend)
		min = f->inner_busy + f->npend;
	for (;;) {
		int n = reap_inner(f, wait);
		uint64_t now, due;

		if (n < 0)
			return n;
		now = tw_now_ns();
		got += hand_out(f, now, ev + got, max - got);
		if (got >= min || got == max || (wait && !n && !f->npend))
			return (int)got;
		due = next_due(f);
		wait = due == UINT64_MAX;	/* nothing held: block inside */
		if (!wait)
			sleep_ns(f->inner_busy && due - now > POLL_NS ? POLL_NS
								      : due - now);
	}
}

static void fault_cleanup(void *priv)
{
	if (priv)
		fault_free(priv);
}

const struct probe_engine_ops probe_engine_fault = {
	.name = "fault",
	.init = fault_init,
	.queue = fault_queue,
	.commit = fault_commit,
	.getevents = fault_getevents,
	.cleanup = fault_cleanup,
};

int probe_fault_check(const char *spec, char *err, size_t len)
{
	struct probe_fault_opts fo;

	return probe_fault_parse(spec, &fo, err, len);
}
