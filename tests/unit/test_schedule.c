/* test_schedule.c — devices side by side and the link pass (probe/schedule.h):
 * the scheduler's decisions (what starts next, how many threads, when the
 * CPUs allow one more), the spot check's, and the link pass's on given
 * figures, through injected runs and reads: no device, no root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "schedule_priv.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define QD1 (1u << PROBE_TEST_RAND_READ_QD1)
#define QD32 (1u << PROBE_TEST_RAND_READ_QD32)
#define SEQ (1u << PROBE_TEST_SEQ_READ)

/* ---- fakes ---- */

/* A device per task: its port, its figures alone and beside others. */
struct fake_dev {
	const char *id, *port;
	const char *drive;		/* drive_id, NULL = unknown */
	double seq_alone, seq_side;	/* MB/s */
	double qd32;			/* IOPS, alone and beside */
	double link_cap;		/* link pass: MB/s its port carries, 0 = none */
	bool ram;
};

struct fake {
	pthread_mutex_t mu;
	const struct fake_dev *devs;
	size_t n;
	size_t running, max_running;
	size_t port_running[8], max_port_running[8];
	unsigned masks[32];		/* each run's tests, in order */
	bool alone[32];
	bool settle[32];		/* each run's o->settle_first */
	const char *ids[32];
	size_t calls, reads;
	char notes[16][160];
	size_t n_notes;
};

static void on_progress(void *arg, const struct probe_status *st)
{
	(void)arg;
	(void)st;
}

static const struct fake_dev *dev_of(const struct fake *f, const char *id, size_t *idx)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->devs[i].id, id)) {
			*idx = i;
			return &f->devs[i];
		}
	fail_msg("no fake device %s", id);
	return NULL;
}

static size_t port_no(const struct fake *f, const char *port)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->devs[i].port, port))
			return i;
	return 0;
}

static void put_io(struct profile_io *io, double mbps, double iops, double seconds)
{
	io->present = true;
	io->bs = 4096;
	io->qd = 1;
	io->mbps = mbps;
	io->iops = iops;
	io->seconds = seconds;
}

/* The injected run: figures by the fake device, alone when o->progress is
 * set (the scheduler drops it beside others); 20 ms of "measuring". */
static int fake_run(void *arg, const struct probe_target *t, const struct probe_options *o,
		    struct profile *prof, char *err, size_t errlen)
{
	struct fake *f = arg;
	bool alone = o->progress != NULL;
	size_t i, p;
	const struct fake_dev *d;
	struct profile_device *pd;
	struct timespec ms20 = { 0, 20000000 };

	(void)err;
	(void)errlen;
	pthread_mutex_lock(&f->mu);
	d = dev_of(f, t->id, &i);
	p = port_no(f, d->port);
	f->masks[f->calls] = o->tests;
	f->alone[f->calls] = alone;
	f->settle[f->calls] = o->settle_first;
	f->ids[f->calls++] = d->id;
	if (++f->running > f->max_running)
		f->max_running = f->running;
	if (++f->port_running[p] > f->max_port_running[p])
		f->max_port_running[p] = f->port_running[p];
	pthread_mutex_unlock(&f->mu);
	nanosleep(&ms20, NULL);
	pd = profile_add_device(prof, d->id);
	assert_non_null(pd);
	pd->media = d->ram ? PROFILE_MEDIA_RAM : PROFILE_MEDIA_NAND;
	if (o->tests & SEQ)
		put_io(&pd->io[PROFILE_SEQ_READ], alone ? d->seq_alone : d->seq_side, NAN, o->seconds);
	if (o->tests & QD1)
		put_io(&pd->io[PROFILE_RAND_READ_QD1], NAN, 10000, o->seconds);
	if (o->tests & QD32)
		put_io(&pd->io[PROFILE_RAND_READ_QD32], NAN, d->qd32, o->seconds);
	pthread_mutex_lock(&f->mu);
	f->running--;
	f->port_running[p]--;
	pthread_mutex_unlock(&f->mu);
	return 0;
}

/* The injected link read: devices on one port share its link_cap, in
 * proportion to their solo reads; others read their solo. */
static double fake_read(void *arg, struct probe_task *const *set, size_t k,
			const struct probe_options *o, double *each)
{
	struct fake *f = arg;
	double sum = 0;

	(void)o;
	f->reads++;
	for (size_t a = 0; a < k; a++) {
		size_t ia, ib;
		const struct fake_dev *da = dev_of(f, set[a]->t.id, &ia);
		double port_sum = 0, mine = da->seq_alone;

		for (size_t b = 0; b < k; b++) {
			const struct fake_dev *db = dev_of(f, set[b]->t.id, &ib);

			if (!strcmp(db->port, da->port))
				port_sum += db->seq_alone;
		}
		if (da->link_cap > 0 && port_sum > da->link_cap)
			mine = da->link_cap * da->seq_alone / port_sum;
		sum += mine;
		if (each)
			each[a] = mine;
	}
	return sum;
}

static void on_note(void *arg, const char *msg)
{
	struct fake *f = arg;

	pthread_mutex_lock(&f->mu);
	if (f->n_notes < N(f->notes))
		snprintf(f->notes[f->n_notes++], sizeof(f->notes[0]), "%s", msg);
	pthread_mutex_unlock(&f->mu);
}

/* Tasks on the fake devices; their probe_devs carry the ports. */
struct bench {
	struct fake f;
	struct probe_dev pd[8];
	struct probe_task v[8];
	struct probe_sched_opts so;
	struct probe_options o;
};

static void bench_init(struct bench *b, const struct fake_dev *devs, size_t n)
{
	memset(b, 0, sizeof(*b));
	pthread_mutex_init(&b->f.mu, NULL);
	b->f.devs = devs;
	b->f.n = n;
	for (size_t i = 0; i < n; i++) {
		b->pd[i].pci_port = (char *)devs[i].port;
		b->pd[i].drive_id = (char *)devs[i].drive;
		b->v[i].t.id = (char *)devs[i].id;
		b->v[i].t.path = (char *)devs[i].id;
		b->v[i].t.dev = &b->pd[i];
	}
	b->so = (struct probe_sched_opts){ .jobs = PROBE_SCHED_AUTO, .cpus = 4, .run = fake_run,
					   .read = fake_read, .run_arg = &b->f, .note = on_note,
					   .note_arg = &b->f };
	b->o = (struct probe_options){ .seconds = 0.5, .progress = on_progress };
}

static void bench_free(struct bench *b)
{
	for (size_t i = 0; i < b->f.n; i++)
		profile_free(b->v[i].prof);
	pthread_mutex_destroy(&b->f.mu);
}

static const char *note_of(const struct probe_task *t, size_t i)
{
	const struct profile_device *d = &t->prof->devices[0];

	return i < d->n_notes ? d->notes[i] : "";
}

/* ---- pure decisions ---- */

/* Threads: capped by --jobs, 64, the tasks; one with one CPU or QD1 only. */
static void test_workers(void **state)
{
	(void)state;
	assert_int_equal(probe_sched_workers(4, 8, 3, SEQ | QD1, true), 3);
	assert_int_equal(probe_sched_workers(2, 8, 5, SEQ | QD1, true), 2);
	assert_int_equal(probe_sched_workers(100, 8, 100, SEQ, true), 64);
	assert_int_equal(probe_sched_workers(4, 1, 5, SEQ, true), 1);
	assert_int_equal(probe_sched_workers(4, 8, 5, QD1, true), 1);
	assert_int_equal(probe_sched_workers(4, 8, 5, QD1, false), 4);
	assert_int_equal(probe_sched_workers(4, 8, 0, SEQ, false), 0);
}

/* Never two on one port: the next task is the first not started whose port
 * is idle; -1 when every port left is busy, -2 when all started. */
static void test_next(void **state)
{
	static const struct fake_dev devs[] = {
		{ .id = "a", .port = "0000:00:01.0" }, { .id = "b", .port = "0000:00:01.0" },
		{ .id = "c", .port = "0000:00:02.0" }, { .id = "d", .port = "0000:00:03.0" },
	};
	struct bench b;
	bool started[4] = { 0 }, running[4] = { 0 };

	(void)state;
	bench_init(&b, devs, N(devs));
	b.v[3].t.dev = NULL;	/* no inventory entry: its id is its port */
	assert_string_equal(probe_sched_port(&b.v[0]), "0000:00:01.0");
	assert_string_equal(probe_sched_port(&b.v[3]), "d");
	assert_int_equal(probe_sched_next(b.v, 4, started, running), 0);
	started[0] = running[0] = true;
	assert_int_equal(probe_sched_next(b.v, 4, started, running), 2);	/* b waits for a */
	started[2] = running[2] = true;
	assert_int_equal(probe_sched_next(b.v, 4, started, running), 3);
	started[3] = running[3] = true;
	assert_int_equal(probe_sched_next(b.v, 4, started, running), -1);
	running[0] = false;
	assert_int_equal(probe_sched_next(b.v, 4, started, running), 1);
	started[1] = true;
	assert_int_equal(probe_sched_next(b.v, 4, started, running), -2);
	bench_free(&b);
}

/* Never two namespaces of one drive: tasks with one drive_id wait for each
 * other whatever their ports (fabrics namespaces have none, a multipath head
 * names one); an unknown drive (NULL) clashes with nothing. */
static void test_next_drive(void **state)
{
	static const struct fake_dev devs[] = {
		{ .id = "n1", .drive = "nqn.2014-08.org.nvmexpress:uuid:1" },
		{ .id = "n2", .drive = "nqn.2014-08.org.nvmexpress:uuid:1" },
		{ .id = "x", .port = "0000:00:02.0" },
		{ .id = "y", .port = "0000:00:03.0" },
		{ .id = "s", .port = "0000:00:04.0", .drive = "S5XYZ" },
	};
	struct bench b;
	bool started[5] = { 0 }, running[5] = { 0 };

	(void)state;
	bench_init(&b, devs, N(devs));
	assert_string_equal(probe_sched_drive(&b.v[0]), "nqn.2014-08.org.nvmexpress:uuid:1");
	assert_null(probe_sched_drive(&b.v[2]));
	assert_true(probe_sched_clash(&b.v[0], &b.v[1]));	/* ports "n1", "n2": one drive */
	assert_false(probe_sched_clash(&b.v[2], &b.v[3]));	/* both unknown: no clash */
	assert_false(probe_sched_clash(&b.v[0], &b.v[4]));
	started[0] = running[0] = true;
	assert_int_equal(probe_sched_next(b.v, 5, started, running), 2);	/* n2 waits for n1 */
	started[2] = running[2] = started[3] = running[3] = true;
	assert_int_equal(probe_sched_next(b.v, 5, started, running), 4);
	started[4] = running[4] = true;
	assert_int_equal(probe_sched_next(b.v, 5, started, running), -1);
	running[0] = false;
	assert_int_equal(probe_sched_next(b.v, 5, started, running), 1);
	b.v[1].t.dev = NULL;	/* no inventory entry: no drive, its id its port */
	assert_null(probe_sched_drive(&b.v[1]));
	running[0] = true;
	assert_false(probe_sched_clash(&b.v[0], &b.v[1]));
	bench_free(&b);
}

/* One per CPU always; past that only after a window in which a whole core
 * (and 10 %) stayed idle, and not twice within two windows. */
static void test_cpu_allows(void **state)
{
	struct probe_sched_load l = PROBE_SCHED_LOAD_INIT(2, 100.0, 10.0);

	(void)state;
	assert_true(probe_sched_cpu_allows(&l, 1, 100.1, 10.0));
	assert_false(probe_sched_cpu_allows(&l, 2, 100.5, 10.2));	/* no window yet */
	/* a window of 1 s using 0.5 CPU: 0.5 + 1 <= 2 × 0.9 */
	assert_true(probe_sched_cpu_allows(&l, 2, 101.0, 10.5));
	assert_true(isnan(l.util));
	assert_true(fabs(l.extra_at - 101.0) < 1e-9);
	assert_false(probe_sched_cpu_allows(&l, 3, 102.0, 10.8));	/* within 2 windows */
	/* the next window busy: 1.2 CPUs, 1.2 + 1 > 1.8 */
	assert_false(probe_sched_cpu_allows(&l, 3, 103.0, 12.0));
	assert_true(fabs(l.util - 1.2) < 1e-9);
	/* an idle window again (0.3 CPU) */
	assert_true(probe_sched_cpu_allows(&l, 3, 104.0, 12.3));
}

/* Off: past 10 %, or missing beside others while the solo run has it; only
 * the tests asked about. */
static void test_spot_off(void **state)
{
	struct profile *p = profile_new();
	struct profile_device *d, *s;

	(void)state;
	assert_non_null(p);
	d = profile_add_device(p, "side");
	s = profile_add_device(p, "solo");
	assert_non_null(d);
	assert_non_null(s);
	d = &p->devices[0];
	put_io(&d->io[PROFILE_SEQ_READ], 950, NAN, 1);	/* 5 % below */
	put_io(&s->io[PROFILE_SEQ_READ], 1000, NAN, 1);
	put_io(&d->io[PROFILE_RAND_READ_QD32], NAN, 80000, 1);	/* 20 % below */
	put_io(&s->io[PROFILE_RAND_READ_QD32], NAN, 100000, 1);
	put_io(&s->io[PROFILE_RAND_READ_QD1], NAN, 12000, 1);	/* failed beside */
	assert_int_equal(probe_spot_off(d, s, SEQ | QD32 | QD1), QD32 | QD1);
	assert_int_equal(probe_spot_off(d, s, SEQ), 0);
	assert_int_equal(probe_spot_off(d, s, SEQ | QD32), QD32);
	d->io[PROFILE_SEQ_READ].mbps = 880;	/* 12 % below */
	assert_int_equal(probe_spot_off(d, s, SEQ), SEQ);
	d->io[PROFILE_SEQ_READ].mbps = 1100;	/* exactly 10 % above: within */
	assert_int_equal(probe_spot_off(d, s, SEQ), 0);
	profile_free(p);
}

static void test_link_rules(void **state)
{
	(void)state;
	assert_true(probe_links_shared(1200, 2000));	/* 60 % */
	assert_false(probe_links_shared(1700, 2000));	/* 85 % */
	assert_false(probe_links_shared(NAN, 2000));
	assert_true(probe_links_raises(1500, 1000, 500));	/* raised by all of it */
	assert_false(probe_links_raises(1200, 1000, 500));	/* by 40 % */
}

/* ---- the scheduler through an injected run ---- */

static const struct fake_dev four[] = {
	{ .id = "a", .port = "p1", .seq_alone = 1000, .seq_side = 1000, .qd32 = 100000 },
	{ .id = "b", .port = "p1", .seq_alone = 1000, .seq_side = 1000, .qd32 = 100000 },
	{ .id = "c", .port = "p2", .seq_alone = 500, .seq_side = 500, .qd32 = 50000 },
	{ .id = "d", .port = "p3", .seq_alone = 800, .seq_side = 800, .qd32 = 80000 },
};

/* Side by side: every task measured, never two on p1 at once, more than one
 * running; QD1 afterwards alone, one device at a time, noted on each. */
static void test_side_by_side(void **state)
{
	struct bench b;
	size_t probing = 0;

	(void)state;
	bench_init(&b, four, N(four));
	b.so.serial_qd1 = true;
	b.o.tests = SEQ | QD1 | QD32;
	assert_int_equal(probe_sched_run(b.v, 4, &b.o, &b.so), 0);
	assert_int_equal(b.f.max_port_running[0], 1);	/* a and b share p1 */
	assert_true(b.f.max_running >= 2);
	assert_true(b.f.max_running <= 3);		/* 3 ports */
	assert_int_equal(b.f.calls, 8);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(b.f.masks[i], SEQ | QD32);	/* side by side, no QD1 */
		assert_false(b.f.alone[i]);
		assert_false(b.f.settle[i]);
		assert_int_equal(b.f.masks[4 + i], QD1);	/* then QD1 alone, in order */
		assert_true(b.f.alone[4 + i]);
		/* the first right after the side-by-side tests: it settles */
		assert_int_equal(b.f.settle[4 + i], i == 0);
		assert_string_equal(b.f.ids[4 + i], four[i].id);
		assert_int_equal(b.v[i].ret, 0);
		assert_string_equal(b.v[i].prof->devices[0].id, four[i].id);
		assert_true(b.v[i].prof->devices[0].io[PROFILE_RAND_READ_QD1].present);
		assert_string_equal(note_of(&b.v[i], 0), "rand_read_qd1 measured alone, after the "
				    "other tests ran side by side with other devices");
	}
	for (size_t i = 0; i < b.f.n_notes; i++)
		probing += !strncmp(b.f.notes[i], "probing ", 8) &&
			   strstr(b.f.notes[i], ") side by side, ") != NULL;
	assert_int_equal(probing, 4);
	bench_free(&b);
}

/* --jobs 1: one after another, in order, each alone, the plain lines. */
static void test_one_after_another(void **state)
{
	struct bench b;

	(void)state;
	bench_init(&b, four, N(four));
	b.so.jobs = 1;
	b.so.spot_check = true;	/* no spot check one after another */
	b.o.tests = SEQ | QD1;
	assert_int_equal(probe_sched_run(b.v, 4, &b.o, &b.so), 0);
	assert_int_equal(b.f.calls, 4);
	assert_int_equal(b.f.max_running, 1);
	assert_int_equal(b.f.n_notes, 4);
	for (size_t i = 0; i < 4; i++) {
		char want[64];

		assert_string_equal(b.f.ids[i], four[i].id);
		assert_true(b.f.alone[i]);
		assert_int_equal(b.f.masks[i], SEQ | QD1);
		snprintf(want, sizeof(want), "probing %s (%s)", four[i].id, four[i].id);
		assert_string_equal(b.f.notes[i], want);
		assert_int_equal(b.v[i].prof->devices[0].n_notes, 0);
	}
	bench_free(&b);
}

/* The spot check: c's seq_read beside others is half its solo one, so c is
 * measured again alone (its solo figures kept, the note says why); d agrees
 * within 10 % and keeps its figures with a note saying so. */
static void test_spot_check(void **state)
{
	static const struct fake_dev devs[] = {
		{ .id = "c", .port = "p2", .seq_alone = 1000, .seq_side = 500, .qd32 = 50000 },
		{ .id = "d", .port = "p3", .seq_alone = 800, .seq_side = 790, .qd32 = 80000 },
	};
	struct bench b;

	(void)state;
	bench_init(&b, devs, N(devs));
	b.so.spot_check = true;
	b.o.tests = SEQ | QD32;
	assert_int_equal(probe_sched_run(b.v, 2, &b.o, &b.so), 0);
	/* 2 side by side, 2 solo spot runs, c's whole device again */
	assert_int_equal(b.f.calls, 5);
	assert_true(fabs(b.v[0].prof->devices[0].io[PROFILE_SEQ_READ].mbps - 1000) < 1e-9);
	assert_string_equal(note_of(&b.v[0], 0), "measured again alone: side by side with other "
			    "devices seq_read 500 MB/s, a 0.5 s solo run seq_read 1000 MB/s, "
			    "rand_read_qd32 50000 IOPS (missing, or more than 10 % apart)");
	assert_true(fabs(b.v[1].prof->devices[0].io[PROFILE_SEQ_READ].mbps - 790) < 1e-9);
	assert_string_equal(note_of(&b.v[1], 0), "spot check: measured side by side with other "
			    "devices, seq_read 790 MB/s, rand_read_qd32 80000 IOPS; a 0.5 s solo run "
			    "seq_read 800 MB/s, rand_read_qd32 80000 IOPS (within 10 %)");
	bench_free(&b);
}

/* ---- the link pass through an injected read ---- */

/* Tasks on devs measured alone (one after another) for their profiles;
 * returns the profile the link pass records groups in. */
static struct profile *measured(struct bench *b, const struct fake_dev *devs, size_t n)
{
	struct profile *prof = profile_new();

	assert_non_null(prof);
	bench_init(b, devs, n);
	b->so.jobs = 1;
	b->o.tests = SEQ;
	assert_int_equal(probe_sched_run(b->v, b->f.n, &b->o, &b->so), 0);
	b->f.n_notes = 0;
	return prof;
}

/* a and b share a 1200 MB/s link; c and d have their own; e is RAM (left
 * out).  The group {a, b} is found, recorded and noted; no one else. */
static void test_links_shared(void **state)
{
	static const struct fake_dev devs[] = {
		{ .id = "a", .port = "p1", .seq_alone = 1000, .link_cap = 1200 },
		{ .id = "b", .port = "p1", .seq_alone = 1000, .link_cap = 1200 },
		{ .id = "c", .port = "p2", .seq_alone = 500 },
		{ .id = "d", .port = "p3", .seq_alone = 800 },
		{ .id = "e", .port = "p4", .seq_alone = 3000, .ram = true },
	};
	struct bench b;
	struct profile *prof = measured(&b, devs, N(devs));

	(void)state;
	assert_int_equal(probe_links_find(b.v, 5, &b.o, prof, &b.so), 0);
	assert_int_equal(b.f.n_notes, 2);
	assert_string_equal(b.f.notes[0], "checking links: reading 4 devices at once");
	assert_string_equal(b.f.notes[1], "checking links: adding 4 devices one at a time");
	/* all at once, {a}+b, {a}+c, {a,c}+d, the pair a b, the group a b */
	assert_int_equal(b.f.reads, 6);
	assert_int_equal(prof->n_links, 1);
	assert_int_equal(prof->links[0].n_ids, 2);
	assert_string_equal(prof->links[0].ids[0], "a");
	assert_string_equal(prof->links[0].ids[1], "b");
	assert_true(fabs(prof->links[0].solo_sum_mbps - 2000) < 1e-9);
	assert_true(fabs(prof->links[0].together_mbps - 1200) < 1e-9);
	for (size_t i = 0; i < 2; i++)
		assert_string_equal(note_of(&b.v[i], 0), "link: shares a bottleneck with a b (read "
				    "together 1200 MB/s, 60 % of their solo sum 2000 MB/s)");
	for (size_t i = 2; i < 5; i++)
		assert_int_equal(b.v[i].prof->devices[0].n_notes, 0);
	profile_free(prof);
	bench_free(&b);
}

/* Each keeps its own when read all at once: one read answers, noted. */
static void test_links_none(void **state)
{
	static const struct fake_dev devs[] = {
		{ .id = "a", .port = "p1", .seq_alone = 1000, .link_cap = 4000 },
		{ .id = "b", .port = "p1", .seq_alone = 1000, .link_cap = 4000 },
		{ .id = "c", .port = "p2", .seq_alone = 500 },
	};
	struct bench b;
	struct profile *prof = measured(&b, devs, N(devs));

	(void)state;
	b.so.note = NULL;	/* quiet */
	assert_int_equal(probe_links_find(b.v, 3, &b.o, prof, &b.so), 0);
	assert_int_equal(b.f.n_notes, 0);
	assert_int_equal(b.f.reads, 1);
	assert_int_equal(prof->n_links, 0);
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(note_of(&b.v[i], 0), "link pass: the 3 devices read at once "
				    "reached 2500 of their solo 2500 MB/s, each at least 100 % of its "
				    "own: no shared bottleneck");
	profile_free(prof);
	bench_free(&b);
}

/* Two namespaces of one drive: one link, read once through the first; the
 * second gets a note and is never read in the pass. */
static void test_links_one_per_drive(void **state)
{
	static const struct fake_dev devs[] = {
		{ .id = "n1", .port = "p1", .drive = "D1", .seq_alone = 1000, .link_cap = 4000 },
		{ .id = "n2", .port = "p1", .drive = "D1", .seq_alone = 1000, .link_cap = 4000 },
		{ .id = "c", .port = "p2", .seq_alone = 500 },
	};
	struct bench b;
	struct profile *prof = measured(&b, devs, N(devs));

	(void)state;
	assert_int_equal(probe_links_find(b.v, 3, &b.o, prof, &b.so), 0);
	assert_int_equal(b.f.reads, 1);	/* n1 and c at once, kept up */
	assert_string_equal(b.f.notes[0], "checking links: reading 2 devices at once");
	assert_int_equal(prof->n_links, 0);
	assert_string_equal(note_of(&b.v[1], 0), "link pass: read through n1, a namespace of the "
			    "same drive (one drive, one link)");
	assert_string_equal(note_of(&b.v[0], 0), "link pass: the 2 devices read at once reached "
			    "1500 of their solo 1500 MB/s, each at least 100 % of its own: no shared "
			    "bottleneck");
	profile_free(prof);
	bench_free(&b);
}

/* Fewer than two devices with a solo read: no pass at all. */
static void test_links_too_few(void **state)
{
	static const struct fake_dev devs[] = {
		{ .id = "a", .port = "p1", .seq_alone = 1000 },
		{ .id = "e", .port = "p4", .seq_alone = 3000, .ram = true },
	};
	struct bench b;
	struct profile *prof = measured(&b, devs, N(devs));

	(void)state;
	assert_int_equal(probe_links_find(b.v, 2, &b.o, prof, &b.so), 0);
	assert_int_equal(b.f.reads, 0);
	assert_int_equal(b.f.n_notes, 0);
	assert_int_equal(prof->n_links, 0);
	profile_free(prof);
	bench_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workers),
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_next_drive),
		cmocka_unit_test(test_cpu_allows),
		cmocka_unit_test(test_spot_off),
		cmocka_unit_test(test_link_rules),
		cmocka_unit_test(test_side_by_side),
		cmocka_unit_test(test_one_after_another),
		cmocka_unit_test(test_spot_check),
		cmocka_unit_test(test_links_one_per_drive),
		cmocka_unit_test(test_links_shared),
		cmocka_unit_test(test_links_none),
		cmocka_unit_test(test_links_too_few),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
