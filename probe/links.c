/* links.c — the link pass (see schedule.h): which devices share a bottleneck,
 * found by reading them together against alone.  The reads go through
 * so->read when a test injects one; the decisions are the same. */
#include "schedule_priv.h"

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
	struct probe_task *t;
	const struct probe_options *o;
	const struct probe_sched_opts *so;
	struct gate *start;
	double mbps;
};

bool probe_links_shared(double together, double solo_sum)
{
	return together < PROBE_LINKS_SHARED * solo_sum;
}

bool probe_links_raises(double together, double total, double solo)
{
	return together - total >= PROBE_LINKS_RAISE * solo;
}

static void *read_one(void *arg)
{
	struct reader *r = arg;
	struct probe_options o = *r->o;
	struct profile *p = NULL;
	char err[512];
	int ret;

	o.seconds = LINK_SECONDS;
	pthread_mutex_lock(&r->start->mu);
	while (!r->start->go)
		pthread_cond_wait(&r->start->cv, &r->start->mu);
	pthread_mutex_unlock(&r->start->mu);
	r->mbps = NAN;
	ret = probe_sched_run_into(r->t, &o, r->so, 1u << PROBE_TEST_SEQ_READ, false, &p, err,
				   sizeof(err));
	if (p && ret != -ENOMEM && p->n_devices) {
		const struct profile_io *io = &p->devices[0].io[PROFILE_SEQ_READ];

		/* a read that failed while others read (no I/O completed: starved
		 * by a neighbour on its link) counts as nothing read */
		r->mbps = io->present && io->mbps > 0 ? io->mbps : 0;
	}
	profile_free(p);
	return NULL;
}

/* Real sequential reads of set[0..k) at once, one thread each. */
static double read_real(const struct probe_sched_opts *so, struct probe_task *const *set,
			size_t k, const struct probe_options *o, double *each)
{
	struct reader r[LINK_MAX];
	pthread_t th[LINK_MAX];
	struct gate start = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false };
	size_t started = 0;
	double sum = 0;

	if (k > LINK_MAX)
		return NAN;
	for (; started < k; started++) {
		r[started] = (struct reader){ .t = set[started], .o = o, .so = so, .start = &start };
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

/* Sequential read of set[0..k) at once: the sum of their MB/s (NAN:
 * failed); each one's MB/s in each[0..k) when each is not NULL. */
static double read_together(const struct probe_sched_opts *so, struct probe_task *const *set,
			    size_t k, const struct probe_options *o, double *each)
{
	if (so && so->read)
		return so->read(so->run_arg, set, k, o, each);
	return read_real(so, set, k, o, each);
}

static double solo_of(const struct probe_task *t)
{
	const struct profile_device *d = t->prof && t->prof->n_devices ? &t->prof->devices[0] : NULL;

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

static int note_group(struct probe_task **g, size_t k, double solo, double together)
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

/* The pass's state: the devices with a solo read, their union-find. */
struct pass {
	struct probe_task *e[LINK_MAX];
	double solo[LINK_MAX];
	size_t parent[LINK_MAX];
	size_t m;
	const struct probe_options *o;
	const struct probe_sched_opts *so;
};

/* Record each union with two or more members that a group read confirms. */
static int record(struct pass *p, struct profile *prof)
{
	for (size_t r = 0; r < p->m; r++) {
		struct probe_task *g[LINK_MAX];
		const char *ids[LINK_MAX];
		double sum = 0, together;
		size_t k = 0;

		if (find(p->parent, r) != r)
			continue;
		for (size_t i = 0; i < p->m; i++)
			if (find(p->parent, i) == r) {
				g[k] = p->e[i];
				ids[k++] = p->e[i]->t.id;
				sum += p->solo[i];
			}
		if (k < 2)
			continue;
		together = read_together(p->so, g, k, p->o, NULL);
		if (!probe_links_shared(together, sum))
			continue;	/* not confirmed by the group read */
		if (profile_add_shared(prof, ids, k, sum, together) < 0 ||
		    note_group(g, k, sum, together) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * All of p's devices read at once.  When each keeps PROBE_LINKS_SHARED of
 * its solo read, no set of them can fall below that share of its solo sum:
 * nothing is shared, and one read answered (notes say so; true).  Else
 * false: the pass goes on one device at a time.
 */
static bool all_kept_up(struct pass *p, int *ret)
{
	double each[LINK_MAX], sum = 0, worst = INFINITY;
	double t = read_together(p->so, p->e, p->m, p->o, each);

	*ret = 0;
	for (size_t i = 0; i < p->m; i++) {
		double share = each[i] / p->solo[i];

		if (!(share >= PROBE_LINKS_SHARED))
			return false;
		worst = share < worst ? share : worst;
		sum += p->solo[i];
	}
	for (size_t i = 0; i < p->m && !*ret; i++)
		*ret = profile_device_add_notef(&p->e[i]->prof->devices[0], "link pass: the %zu "
				"devices read at once reached %.0f of their solo %.0f MB/s, each at least "
				"%.0f %% of its own: no shared bottleneck", p->m, t, sum, 100 * worst);
	return true;
}

/* k does not raise the set's total: pair it with each member of set. */
static void pair_up(struct pass *p, const size_t *set, size_t ns, size_t k)
{
	for (size_t s = 0; s < ns; s++) {
		struct probe_task *two[2] = { p->e[set[s]], p->e[k] };
		double t = read_together(p->so, two, 2, p->o, NULL);

		if (probe_links_shared(t, p->solo[set[s]] + p->solo[k]))
			p->parent[find(p->parent, k)] = find(p->parent, set[s]);
	}
}

/* Add the devices one at a time to a set read at once; those that do not
 * raise its total are paired with its members. */
static void one_at_a_time(struct pass *p)
{
	struct probe_task *cur[LINK_MAX];
	size_t set[LINK_MAX], ns = 1;
	double total = p->solo[0];

	for (size_t i = 0; i < p->m; i++)
		p->parent[i] = i;
	set[0] = 0;
	for (size_t k = 1; k < p->m; k++) {
		double t;

		for (size_t s = 0; s < ns; s++)
			cur[s] = p->e[set[s]];
		cur[ns] = p->e[k];
		t = read_together(p->so, cur, ns + 1, p->o, NULL);
		if (probe_links_raises(t, total, p->solo[k])) {
			set[ns++] = k;
			total = t;
		} else {
			pair_up(p, set, ns, k);
		}
	}
}

/* The task of the pass on t's drive (a namespace of one drive read
 * already), NULL when none: a drive has one link, read once. */
static const struct probe_task *drive_read(const struct pass *p, const struct probe_task *t)
{
	const char *d = probe_sched_drive(t);

	for (size_t k = 0; d && k < p->m; k++) {
		const char *e = probe_sched_drive(p->e[k]);

		if (e && !strcmp(d, e))
			return p->e[k];
	}
	return NULL;
}

/* The note of a namespace the pass leaves to its drive's first one.
 * 0 or -ENOMEM. */
static int sibling_note(struct probe_task *t, const struct probe_task *same)
{
	if (!t->prof || !t->prof->n_devices)
		return 0;
	return profile_device_add_notef(&t->prof->devices[0], "link pass: read through %s, a "
					"namespace of the same drive (one drive, one link)",
					same->t.id);
}

int probe_links_find(struct probe_task *v, size_t n, const struct probe_options *o,
		     struct profile *prof, const struct probe_sched_opts *so)
{
	struct pass p = { .m = 0, .o = o, .so = so };
	int ret;

	for (size_t i = 0; i < n && p.m < LINK_MAX; i++) {
		const struct probe_task *same = drive_read(&p, &v[i]);

		if (same) {
			if (sibling_note(&v[i], same) < 0)
				return -ENOMEM;
			continue;
		}
		if (!isnan(p.solo[p.m] = solo_of(&v[i])))
			p.e[p.m++] = &v[i];
	}
	if (p.m < 2)
		return 0;
	probe_sched_note(so, "checking links: reading %zu devices at once", p.m);
	if (all_kept_up(&p, &ret))
		return ret;
	probe_sched_note(so, "checking links: adding %zu devices one at a time", p.m);
	one_at_a_time(&p);
	return record(&p, prof);
}
