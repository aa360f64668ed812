/* schedule_run.c — one task's tests into a profile of its own, as the
 * scheduler (schedule.c), the spot check (spot.c) and the link pass
 * (links.c) run them (schedule_priv.h). */
#include "schedule_priv.h"

#include <errno.h>
#include <stdio.h>

int probe_sched_run_into(struct probe_task *t, const struct probe_options *o,
			 const struct probe_sched_opts *so, unsigned mask, bool alone,
			 struct profile **out, char *err, size_t errlen)
{
	struct probe_options o2 = *o;

	o2.tests = mask;
	if (!alone)
		o2.progress = NULL;
	if (!(*out = profile_new())) {
		snprintf(err, errlen, "%s: out of memory", t->t.id);
		return -ENOMEM;
	}
	if (so && so->run)
		return so->run(so->run_arg, &t->t, &o2, *out, err, errlen);
	return probe_run(&t->t, &o2, *out, err, errlen);
}
