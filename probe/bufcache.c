/* probe_bufcache (job.h): I/O buffer regions of 2 MiB and more kept
 * between a run's jobs, and one faulted in ahead of the job that needs it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "job_int.h"

void probe_bufcache_init(struct probe_bufcache *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cv, NULL);
}

void probe_bufcache_destroy(struct probe_bufcache *c)
{
	if (c->pf_started)
		pthread_join(c->pf, NULL);
	c->pf_started = c->pf_busy = false;
	for (unsigned i = 0; i < PROBE_BUFCACHE_N; i++) {
		free(c->mem[i]);
		c->mem[i] = NULL;
		c->len[i] = 0;
	}
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->lock);
}

/* The smallest region of c that holds len bytes, taken out of c: its
 * address, its length in *got; NULL when none does.  When none does but
 * the region being prefaulted would, and is less than twice len, waits for
 * it (a smaller job maps its own meanwhile). */
void *probe_bufcache_take(struct probe_bufcache *c, uint64_t len, uint64_t *got)
{
	void *m = NULL;
	unsigned best;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		best = PROBE_BUFCACHE_N;
		for (unsigned i = 0; i < PROBE_BUFCACHE_N; i++)
			if (c->mem[i] && c->len[i] >= len &&
			    (best == PROBE_BUFCACHE_N || c->len[i] < c->len[best]))
				best = i;
		if (best < PROBE_BUFCACHE_N || !c->pf_busy || c->pf_len < len ||
		    c->pf_len / 2 >= len)
			break;
		pthread_cond_wait(&c->cv, &c->lock);
	}
	if (best < PROBE_BUFCACHE_N) {
		m = c->mem[best];
		*got = c->len[best];
		c->mem[best] = NULL;
	}
	pthread_mutex_unlock(&c->lock);
	return m;
}

/* Give region m of len bytes to c, its lock held: into a free entry, else
 * in place of the smallest one when that is smaller; returns what is left
 * over for the caller to free (the region replaced, or m), or NULL. */
static void *bufcache_put(struct probe_bufcache *c, void *m, uint64_t len)
{
	unsigned slot = PROBE_BUFCACHE_N;

	for (unsigned i = 0; i < PROBE_BUFCACHE_N; i++) {
		if (!c->mem[i]) {
			slot = i;
			break;
		}
		if (c->len[i] < len && (slot == PROBE_BUFCACHE_N || c->len[i] < c->len[slot]))
			slot = i;
	}
	if (slot < PROBE_BUFCACHE_N) {
		void *old = c->mem[slot];

		c->mem[slot] = m;
		c->len[slot] = len;
		m = old;
	}
	return m;
}

/* Give region m of len bytes to c (bufcache_put), freeing what is left over. */
void probe_bufcache_give(struct probe_bufcache *c, void *m, uint64_t len)
{
	pthread_mutex_lock(&c->lock);
	m = bufcache_put(c, m, len);
	pthread_mutex_unlock(&c->lock);
	free(m);
}

/* probe_bufcache_prefault's thread: the region faulted in, into the cache. */
static void *prefault_main(void *arg)
{
	struct probe_bufcache *c = arg;
	void *m = NULL;

	if (posix_memalign(&m, PROBE_HUGE_SZ, c->pf_len))
		m = NULL;
	if (m) {
		(void)madvise(m, c->pf_len, MADV_HUGEPAGE);
		memset(m, 0xff, c->pf_len);
	}
	pthread_mutex_lock(&c->lock);	/* in, and done, in one step */
	if (m)
		m = bufcache_put(c, m, c->pf_len);
	c->pf_busy = false;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->lock);
	free(m);
	return NULL;
}

int probe_bufcache_prefault(struct probe_bufcache *c, uint64_t len)
{
	int ret;

	if (len < PROBE_HUGE_SZ)
		return -EINVAL;
	pthread_mutex_lock(&c->lock);
	if (c->pf_started) {
		pthread_mutex_unlock(&c->lock);
		return -EBUSY;
	}
	c->pf_len = probe_round_up(len, PROBE_HUGE_SZ);
	c->pf_started = c->pf_busy = true;
	pthread_mutex_unlock(&c->lock);
	ret = -pthread_create(&c->pf, NULL, prefault_main, c);
	if (ret) {
		pthread_mutex_lock(&c->lock);
		c->pf_started = c->pf_busy = false;
		pthread_mutex_unlock(&c->lock);
	}
	return ret;
}
