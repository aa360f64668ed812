/* probe_links.c — the link pass (see probe_links.h). */
#include "probe_links.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Measured seconds of each read of the link pass. */
#define LINK_SECONDS 2.0
#define LINK_MAX 64

/* Readers wait for go, so that they start together. */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool go;
};

struct reader {
	struct probe_job *j;
	const struct probe_options *o;
	struct gate *start;
	double mbps;
};

static void *read_one(void *arg)
{
	struct reader *r = arg;
	struct probe_options o = *r->o;
	struct profile *p = profile_new();
	char err[512];

	o.tests = 1u << PROBE_TEST_SEQ_READ;
	o.seconds = LINK_SECONDS;
	o.progress = NULL;
	pthread_mutex_lock(&r->start->mu);
	while (!r->start->go)
		pthread_cond_wait(&r->start->cv, &r->start->mu);
	pthread_mutex_unlock(&r->start->mu);
	r->mbps = NAN;
	if (p && probe_run(&r->j->t, &o, p, err, sizeof(err)) != -ENOMEM && p->n_devices) {
		const struct profile_io *io = &p->devices[0].io[PROFILE_SEQ_READ];

		/* a read that failed while others read (no I/O completed: starved
		 * by a neighbour on its link) counts as nothing read */
		r->mbps = io->present && io->mbps > 0 ? io->mbps : 0;
	}
	profile_free(p);
	return NULL;
}

/* Sequential read of set[0..k) at once: the sum of their MB/s (NAN: failed);
 * each one's MB/s in each[0..k) when each is not NULL. */
static double read_together_each(struct probe_job **set, size_t k, const struct probe_options *o,
				 double *each)
{
	struct reader r[LINK_MAX];
	pthread_t th[LINK_MAX];
	struct gate start = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false };
	size_t started = 0;
	double sum = 0;

	if (k > LINK_MAX)
		return NAN;
	for (; started < k; started++) {
		r[started] = (struct reader){ .j = set[started], .o = o, .start = &start };
		if (pthread_create(&th[started], NULL, read_one, &r[started]) != 0)
			break;
	}
	for (size_t i = started; i < k; i++)
		r[i].mbps = NAN;	/* not started: the sum is unknown */
	pthread_mutex_lock(&start.mu);
	start.go = true;
	pthread_cond_broadcast(&start.cv);
	pthread_mutex_unlock(&start.mu);
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	for (size_t i = 0; i < k; i++) {
		sum += r[i].mbps;
		if (each)
			each[i] = r[i].mbps;
	}
	return sum;
}

static double read_together(struct probe_job **set, size_t k, const struct probe_options *o)
{
	return read_together_each(set, k, o, NULL);
}

static double solo_of(const struct probe_job *j)
{
	const struct profile_device *d = j->prof && j->prof->n_devices ? &j->prof->devices[0] : NULL;

	if (!d || d->media == PROFILE_MEDIA_RAM || !d->io[PROFILE_SEQ_READ].present)
		return NAN;
	return d->io[PROFILE_SEQ_READ].mbps > 0 ? d->io[PROFILE_SEQ_READ].mbps : NAN;
}

static size_t find(size_t *parent, size_t i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

static int note_group(struct probe_job **g, size_t k, double solo, double together)
{
	char buf[512];
	size_t o = 0;

	o += (size_t)snprintf(buf, sizeof(buf), "link: shares a bottleneck with");
	for (size_t i = 0; i < k; i++) {
		if (o < sizeof(buf))
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, " %s", g[i]->t.id);
	}
	if (o < sizeof(buf))
		snprintf(buf + o, sizeof(buf) - o, " (read together %.0f MB/s, %.0f %% of "
			 "their solo sum %.0f MB/s)", together, 100 * together / solo, solo);
	for (size_t i = 0; i < k; i++)
		if (profile_device_add_note(&g[i]->prof->devices[0], buf) < 0)
			return -ENOMEM;
	return 0;
}

/* Record each union of parent[] with two or more members that is shared. */
static int record(struct probe_job **e, const double *solo, size_t m, size_t *parent,
		  const struct probe_options *o, struct profile *prof)
{
	for (size_t r = 0; r < m; r++) {
		struct probe_job *g[LINK_MAX];
		const char *ids[LINK_MAX];
		double sum = 0, together;
		size_t k = 0;

		if (find(parent, r) != r)
			continue;
		for (size_t i = 0; i < m; i++)
			if (find(parent, i) == r) {
				g[k] = e[i];
				ids[k++] = e[i]->t.id;
				sum += solo[i];
			}
		if (k < 2)
			continue;
		together = read_together(g, k, o);
		if (!(together < PROBE_LINKS_SHARED * sum))
			continue;	/* not confirmed by the group read */
		if (profile_add_shared(prof, ids, k, sum, together) < 0 ||
		    note_group(g, k, sum, together) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * All of e[0..m) read at once.  When each keeps PROBE_LINKS_SHARED of its
 * solo read, no set of them can fall below that share of its solo sum:
 * nothing is shared, and one read answered (notes say so; true).  Else
 * false: the pass goes on one device at a time.
 */
static bool all_kept_up(struct probe_job **e, const double *solo, size_t m,
			const struct probe_options *o, int *ret)
{
	double each[LINK_MAX], sum = 0, t = read_together_each(e, m, o, each), worst = INFINITY;

	*ret = 0;
	for (size_t i = 0; i < m; i++) {
		double share = each[i] / solo[i];

		if (!(share >= PROBE_LINKS_SHARED))
			return false;
		worst = share < worst ? share : worst;
		sum += solo[i];
	}
	for (size_t i = 0; i < m && !*ret; i++)
		*ret = profile_device_add_notef(&e[i]->prof->devices[0], "link pass: the %zu devices "
				"read at once reached %.0f of their solo %.0f MB/s, each at least %.0f %% of its "
				"own: no shared bottleneck", m, t, sum, 100 * worst);
	return true;
}

/* k does not raise the set's total: pair it with each member of set. */
static void pair_up(struct probe_job **e, const double *solo, const size_t *set,
		    size_t ns, size_t k, size_t *parent, const struct probe_options *o)
{
	for (size_t s = 0; s < ns; s++) {
		struct probe_job *two[2] = { e[set[s]], e[k] };
		double t = read_together(two, 2, o);

		if (t < PROBE_LINKS_SHARED * (solo[set[s]] + solo[k]))
			parent[find(parent, k)] = find(parent, set[s]);
	}
}

int probe_links_find(struct probe_job *v, size_t n, const struct probe_options *o,
		     struct profile *prof, bool quiet)
{
	struct probe_job *e[LINK_MAX], *cur[LINK_MAX];
	double solo[LINK_MAX], total;
	size_t parent[LINK_MAX], set[LINK_MAX], m = 0, ns = 1;
	int ret;

	for (size_t i = 0; i < n && m < LINK_MAX; i++)
		if (!isnan(solo[m] = solo_of(&v[i])))
			e[m++] = &v[i];
	if (m < 2)
		return 0;
	if (!quiet)
		fprintf(stderr, "checking links: reading %zu devices at once\n", m);
	if (all_kept_up(e, solo, m, o, &ret))
		return ret;
	if (!quiet)
		fprintf(stderr, "checking links: adding %zu devices one at a time\n", m);
	for (size_t i = 0; i < m; i++)
		parent[i] = i;
	set[0] = 0;
	total = solo[0];
	for (size_t k = 1; k < m; k++) {
		double t;

		for (size_t s = 0; s < ns; s++)
			cur[s] = e[set[s]];
		cur[ns] = e[k];
		t = read_together(cur, ns + 1, o);
		if (t - total >= PROBE_LINKS_RAISE * solo[k]) {
			set[ns++] = k;
			total = t;
		} else {
			pair_up(e, solo, set, ns, k, parent, o);
		}
	}
	return record(e, solo, m, parent, o, prof);
}
