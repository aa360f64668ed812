/* spot.c — the spot check after a side-by-side run (see schedule_priv.h): a
 * device's concurrent figures against a short solo run, and what is
 * measured again alone when they are off. */
#include "schedule_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tw_util.h"

/* Measured seconds of each test of the spot check's solo run, after a
 * ramp of SPOT_RAMP_S: seq_read and rand_read_qd32 cost about 1 s per
 * device in all; a figure off in it is confirmed by a run as
 * long as the side-by-side one before anything is measured again. */
#define SPOT_SECONDS 0.4
#define SPOT_RAMP_S 0.1
#define SPOT_FIXED_MAX_S 1.0	/* --seconds S: S, at most this */

/* What the spot check compares: a test, its figure's slot, MB/s or IOPS. */
static const struct spot_test {
	int test, slot;
	bool mbps;
	const char *name;
} spot_tests[] = {
	{ PROBE_TEST_SEQ_READ, PROFILE_SEQ_READ, true, "seq_read" },
	{ PROBE_TEST_RAND_READ_QD1, PROFILE_RAND_READ_QD1, false, "rand_read_qd1" },
	{ PROBE_TEST_RAND_READ_QD32, PROFILE_RAND_READ_QD32, false, "rand_read_qd32" },
};

/* Swap test slot between a and b (a takes b's figures). */
static void take_io(struct profile_device *a, struct profile_device *b, int slot)
{
	struct profile_io tmp = a->io[slot];

	a->io[slot] = b->io[slot];
	b->io[slot] = tmp;
}

/* a takes b's figures of the tests of tmask. */
static void take_tests(struct profile_device *a, struct profile_device *b, unsigned tmask)
{
	for (size_t i = 0; i < ARRAY_SIZE(spot_tests); i++)
		if (tmask & (1u << spot_tests[i].test))
			take_io(a, b, spot_tests[i].slot);
}

/* d's figure for test t: MB/s or IOPS (NAN when not measured). */
static double figure(const struct profile_device *d, const struct spot_test *t)
{
	return t->mbps ? d->io[t->slot].mbps : d->io[t->slot].iops;
}

int probe_spot_alone(struct probe_task *t, const struct probe_options *o,
		     const struct probe_sched_opts *so, unsigned tmask, const char *note)
{
	struct profile *p = NULL;
	char err[512];
	int ret = probe_sched_run_into(t, o, so, tmask, true, &p, err, sizeof(err));

	if (p && p->n_devices && t->prof && t->prof->n_devices) {
		struct profile_device *d = &t->prof->devices[0];

		take_tests(d, &p->devices[0], tmask);
		d->probe.seconds += p->devices[0].probe.seconds;
		if (ret < 0 && t->ret >= 0) {
			t->ret = ret;
			snprintf(t->err, sizeof(t->err), "%s", err);
		}
		ret = profile_device_add_note(d, note);
	}
	profile_free(p);
	return ret == -ENOMEM ? -ENOMEM : 0;
}

struct figs {
	char s[200];
	char names[64];		/* "rand_read_qd1 and rand_read_qd32" */
};

/* "seq_read 872 MB/s, rand_read_qd1 72289 IOPS": the tests of smask that
 * were measured. */
static struct figs figures(const struct profile_device *d, unsigned smask)
{
	struct figs f = { "", "" };
	size_t o = 0;

	for (size_t i = 0; i < ARRAY_SIZE(spot_tests) && o < sizeof(f.s); i++) {
		const struct spot_test *t = &spot_tests[i];

		if (smask & (1u << t->test) && !isnan(figure(d, t)))
			o += (size_t)snprintf(f.s + o, sizeof(f.s) - o, "%s%s %.0f %s", o ? ", " : "",
					      t->name, figure(d, t), t->mbps ? "MB/s" : "IOPS");
		if (smask & (1u << t->test)) {
			size_t n = strlen(f.names);

			snprintf(f.names + n, sizeof(f.names) - n, "%s%s", n ? " and " : "", t->name);
		}
	}
	if (!f.s[0])
		snprintf(f.s, sizeof(f.s), "no figure");
	return f;
}

/* A figure the solo run s has and the side-by-side run d lacks (the test
 * failed there, a device starved by a neighbour on its link). */
static bool missing(const struct profile_device *d, const struct profile_device *s,
		    const struct spot_test *t)
{
	return s->io[t->slot].present && !isnan(figure(s, t)) &&
	       !(d->io[t->slot].present && !isnan(figure(d, t)));
}

/* |a - b| / b, NAN when either is unknown. */
static double rel_diff(double a, double b)
{
	return isnan(a) || isnan(b) || b <= 0 ? NAN : fabs(a - b) / b;
}

unsigned probe_spot_off(const struct profile_device *d, const struct profile_device *s,
			unsigned smask)
{
	unsigned m = 0;

	for (size_t i = 0; i < ARRAY_SIZE(spot_tests); i++) {
		const struct spot_test *t = &spot_tests[i];

		if (smask & (1u << t->test) &&
		    (rel_diff(figure(d, t), figure(s, t)) > PROBE_SCHED_SPOT_TOLERANCE ||
		     missing(d, s, t)))
			m |= 1u << t->test;
	}
	return m;
}

/* The longest the side-by-side run measured a test of smask, s. */
static double longest(const struct profile_device *d, unsigned smask)
{
	double t = 0;

	for (size_t i = 0; i < ARRAY_SIZE(spot_tests); i++)
		if (smask & (1u << spot_tests[i].test) && d->io[spot_tests[i].slot].seconds > t)
			t = d->io[spot_tests[i].slot].seconds;
	return t;
}

/* Every test of mask again for t alone: the new profile replaces t's, with
 * "measured again alone: why" on it.  Returns 0 or -ENOMEM. */
static int device_alone(struct probe_task *t, const struct probe_options *o,
			const struct probe_sched_opts *so, unsigned mask, const char *why)
{
	struct profile *again = NULL;
	char err[512];
	int rr = probe_sched_run_into(t, o, so, mask, true, &again, err, sizeof(err)), ret = 0;

	if (again && again->n_devices) {
		ret = profile_device_add_notef(&again->devices[0], "measured again alone: %s", why);
		profile_free(t->prof);
		t->prof = again;
		t->ret = rr;
		snprintf(t->err, sizeof(t->err), "%s", rr < 0 ? err : "");
		again = NULL;
	}
	profile_free(again);
	return ret == -ENOMEM ? -ENOMEM : 0;
}

/* The solo runs of the spot check: their figures, what was off. */
struct solo {
	struct profile *p;	/* the last solo run (NULL: none) */
	double seconds;		/* its length */
	unsigned bad;		/* what was off in it */
	char said[400];		/* "a 2.0 s solo run seq_read 870 MB/s, then …" */
};

/*
 * Solo runs of smask against d: a short one; when one is off and the
 * side-by-side tests ran longer, one that long of what was off confirms (a
 * short read of a throttled or bursty disk is off by its length alone).
 * Returns 0, or the failure that left no figures (-ENOMEM, or 1: nothing to
 * compare; sl->p NULL).
 */
static int solo_runs(struct probe_task *t, const struct probe_options *o,
		     const struct probe_sched_opts *so, unsigned smask, double spot_s,
		     struct solo *sl)
{
	const struct profile_device *d = &t->prof->devices[0];
	struct probe_options po = *o;
	size_t len = 0;
	char err[512];

	if (po.ramp_s < 0)
		po.ramp_s = SPOT_RAMP_S;
	for (po.seconds = spot_s;; po.seconds = longest(d, sl->bad)) {
		int ret;

		profile_free(sl->p);
		ret = probe_sched_run_into(t, &po, so, smask, true, &sl->p, err, sizeof(err));
		if (ret == -ENOMEM || !sl->p->n_devices) {
			profile_free(sl->p);
			sl->p = NULL;
			return ret == -ENOMEM ? ret : 1;
		}
		sl->seconds = po.seconds;
		sl->bad = probe_spot_off(d, &sl->p->devices[0], smask);
		if (len < sizeof(sl->said))
			len += (size_t)snprintf(sl->said + len, sizeof(sl->said) - len,
						"%sa %.1f s solo run %s", len ? ", then " : "",
						po.seconds, figures(&sl->p->devices[0], smask).s);
		if (!sl->bad || po.seconds > spot_s || !(longest(d, sl->bad) > 1.25 * spot_s))
			return 0;
		smask = sl->bad;	/* confirm what was off, as long as it ran */
	}
}

int probe_spot_check(struct probe_task *t, const struct probe_options *o,
		     const struct probe_sched_opts *so, unsigned mask, bool qd1_concurrent)
{
	const unsigned checked = mask & ((1u << PROBE_TEST_SEQ_READ) |
					 (1u << PROBE_TEST_RAND_READ_QD32) |
					 (qd1_concurrent ? 1u << PROBE_TEST_RAND_READ_QD1 : 0));
	double spot_s = o->seconds > 0 ? fmin(o->seconds, SPOT_FIXED_MAX_S) : SPOT_SECONDS;
	struct solo sl = { .p = NULL };
	struct profile_device *d;
	char why[1024], note[1200];
	int ret;

	if (!checked || !t->prof || !t->prof->n_devices)
		return 0;
	d = &t->prof->devices[0];
	if ((ret = solo_runs(t, o, so, checked, spot_s, &sl)) != 0)
		return ret < 0 ? ret : 0;
	if (sl.bad && sl.seconds > spot_s && !(sl.bad & (1u << PROBE_TEST_SEQ_READ))) {
		/* the confirming run measured the random reads alone, as long as
		 * side by side: its figures are the device's */
		snprintf(why, sizeof(why), "%s measured again alone (the confirming run's figures): "
			 "side by side with other devices %s, %s (more than %.0f %% apart)",
			 figures(d, sl.bad).names, figures(d, sl.bad).s, sl.said,
			 100 * PROBE_SCHED_SPOT_TOLERANCE);
		take_tests(d, &sl.p->devices[0], sl.bad);
		profile_free(sl.p);
		return profile_device_add_note(d, why);
	}
	profile_free(sl.p);
	if (!sl.bad)
		return profile_device_add_notef(d, "spot check: measured side by side with other "
				"devices, %s; %s (within %.0f %%)", figures(d, checked).s, sl.said,
				100 * PROBE_SCHED_SPOT_TOLERANCE);
	snprintf(why, sizeof(why), "side by side with other devices %s, %s (missing, or more "
		 "than %.0f %% apart)", figures(d, sl.bad).s, sl.said,
		 100 * PROBE_SCHED_SPOT_TOLERANCE);
	if (!(sl.bad & (1u << PROBE_TEST_SEQ_READ))) {	/* random reads only: those again */
		snprintf(note, sizeof(note), "%s measured again alone: %s", figures(d, sl.bad).names,
			 why);
		return probe_spot_alone(t, o, so, sl.bad, note);
	}
	return device_alone(t, o, so, mask, why);
}
