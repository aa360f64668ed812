/* schedule_priv.h — what schedule.c, schedule_run.c, spot.c and links.c
 * share, and their decisions as pure functions (unit tests call them:
 * tests/unit/test_schedule.c).
 */
#ifndef TW_PROBE_SCHEDULE_PRIV_H
#define TW_PROBE_SCHEDULE_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "schedule.h"

/* The link a task's device sits on (its PCI port, else its id): tasks on one
 * never run together. */
const char *probe_sched_port(const struct probe_task *t);

/* The physical drive a task's device is part of (its inventory drive_id:
 * the NVMe subsystem NQN, else the serial); NULL when unknown. */
const char *probe_sched_drive(const struct probe_task *t);

/* Whether a and b may not run together: one port, or one drive (namespaces
 * of one drive share its flash, link and heat; unknown drives never clash). */
bool probe_sched_clash(const struct probe_task *a, const struct probe_task *b);

/*
 * The next task of v[0..n) that may start now: not started, no running task
 * on its port or its drive (probe_sched_clash).  Returns its index, -1 when none may start now, -2 when every
 * task has started.
 */
ptrdiff_t probe_sched_next(const struct probe_task *v, size_t n, const bool *started,
			   const bool *running);

/*
 * How many worker threads run n tasks with tests mask: jobs capped at 64 and
 * at n; 1 (one after another) with one CPU, or when only rand_read_qd1 runs
 * and it runs serially.
 */
unsigned probe_sched_workers(unsigned jobs, unsigned cpus, size_t n, unsigned mask,
			     bool serial_qd1);

/* The CPU load the scheduler watches. */
struct probe_sched_load {
	unsigned cpus;		/* tasks at once without asking the CPU load */
	double win_wall, win_cpu;	/* the start of the current window, s */
	double util;		/* CPUs used over the last window; NAN unknown */
	double extra_at;	/* when the last task beyond cpus started */
};

/* The start of the load window (now, cpu_s: the clocks' readings). */
#define PROBE_SCHED_LOAD_INIT(ncpus, now, cpu_s) \
	((struct probe_sched_load){ .cpus = (ncpus), .win_wall = (now), .win_cpu = (cpu_s), \
				    .util = NAN, .extra_at = -1e9 })

/*
 * May one more task start beside n_running at wall time now with the
 * process's CPU time cpu_s (seconds)?  Up to one per CPU, always; past that
 * only while the running tasks leave a whole core idle over the last window
 * — throughput-capped disks, an HDD, a USB stick need little CPU, so more of
 * them run together; fast devices keep a core each.  Updates the window in
 * *l.
 */
bool probe_sched_cpu_allows(struct probe_sched_load *l, size_t n_running, double now,
			    double cpu_s);

/*
 * Run the tests of mask for t into a new profile *out (the caller frees it,
 * also on failure) through so->run (probe_run() when so or so->run is NULL);
 * without o's progress unless alone.  Returns run's return, -ENOMEM with a
 * message in err when no profile could be made.
 */
int probe_sched_run_into(struct probe_task *t, const struct probe_options *o,
			 const struct probe_sched_opts *so, unsigned mask, bool alone,
			 struct profile **out, char *err, size_t errlen);

/* Hand msg (printf-style) to so->note, if any. */
void probe_sched_note(const struct probe_sched_opts *so, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The tests of smask (seq_read, rand_read_qd1, rand_read_qd32) whose figure
 * in the side-by-side device d is off the solo run s's: missing where s has
 * it, or more than PROBE_SCHED_SPOT_TOLERANCE apart.  Returns their mask.
 */
unsigned probe_spot_off(const struct profile_device *d, const struct profile_device *s,
			unsigned smask);

/*
 * The tests of tmask (among seq_read and the random reads) for t alone now:
 * their figures replace t's, with note on t's device.  Returns 0 or -ENOMEM.
 */
int probe_spot_alone(struct probe_task *t, const struct probe_options *o,
		     const struct probe_sched_opts *so, unsigned tmask, const char *note);

/*
 * Compare t's side-by-side seq_read and rand_read_qd32 (and QD1 when
 * qd1_concurrent) of mask with a short solo run of each; figures off are
 * measured again alone (see spot.c), and a note says which, with the
 * figures.  Returns 0 or -ENOMEM.
 */
int probe_spot_check(struct probe_task *t, const struct probe_options *o,
		     const struct probe_sched_opts *so, unsigned mask, bool qd1_concurrent);

/* Whether devices read together at together MB/s share a bottleneck, their
 * solo reads summing to solo_sum: together < PROBE_LINKS_SHARED × solo_sum. */
bool probe_links_shared(double together, double solo_sum);

/* Whether adding a device of solo MB/s raised a set's read from total to
 * together by at least PROBE_LINKS_RAISE of its solo (else it is paired). */
bool probe_links_raises(double together, double total, double solo);

#endif
