/* schedule.h — devices probed side by side (`tierwise probe --jobs N`) and the
 * link pass (which devices share a bottleneck).
 *
 * The scheduler (schedule.c) runs probe_run() for up to N devices at once — one
 * per CPU, and more while the running tasks leave a whole core idle (capped
 * disks, HDDs need little CPU) — never two on the same PCI port (root port or
 * controller), nor two namespaces of one drive (one drive_id), each task's thread pinned to the CPUs local to its device;
 * QD1 latency tests one device at a time; then a spot check (spot.c) against
 * a short solo run re-measures alone a device whose figures moved by more
 * than PROBE_SCHED_SPOT_TOLERANCE.  The link pass (links.c) reads devices
 * together against alone.
 *
 * Neither prints: what the command shows ("probing …", "checking links: …")
 * is handed to opts->note.
 */
#ifndef TW_PROBE_SCHEDULE_H
#define TW_PROBE_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>

#include "probe.h"

/* One device of a side-by-side run (not the job loop's struct probe_job). */
struct probe_task {
	struct probe_target t;	/* opened (and closed) by the caller */
	struct profile *prof;	/* the device's results (owned; NULL before) */
	int ret;		/* probe_run()'s return */
	char err[512];		/* its message when ret < 0 */
};

/* What runs one device's tests into prof: probe_run() unless a test injects
 * another.  Same contract as probe_run(). */
typedef int (*probe_sched_run_fn)(void *arg, const struct probe_target *t,
				  const struct probe_options *o, struct profile *prof,
				  char *err, size_t errlen);

/* What reads set[0..k) sequentially at once for the link pass: the sum of
 * their MB/s (NAN: unknown), each one's in each[0..k) when each is not NULL
 * (0: nothing read, NAN: not run).  NULL: real reads through run. */
typedef double (*probe_links_read_fn)(void *arg, struct probe_task *const *set, size_t k,
				      const struct probe_options *o, double *each);

struct probe_sched_opts {
	unsigned jobs;		/* devices at once at most: >= 1 (PROBE_SCHED_AUTO: as the
				 * CPUs allow); past one per CPU only while a core is idle */
	bool serial_qd1;	/* rand_read_qd1 one device at a time (else side by side,
				 * the spot check guarding it) */
	bool spot_check;	/* compare with a short solo run (jobs > 1) */
	/* Each line the command shows ("probing nvme0n1 (/dev/nvme0n1)"), no
	 * newline; may be called from several threads at once.  NULL: none. */
	void (*note)(void *arg, const char *msg);
	void *note_arg;
	/* For tests: 0 = probe_sched_cpus(); NULL = probe_run(), real reads. */
	unsigned cpus;
	probe_sched_run_fn run;
	probe_links_read_fn read;
	void *run_arg;		/* handed to run and read */
};

/* --jobs not given: as many as the CPUs allow (the scheduler's limit). */
#define PROBE_SCHED_AUTO 64

/* Differences above this share between a concurrent figure and a solo one
 * send the device back to be measured alone. */
#define PROBE_SCHED_SPOT_TOLERANCE 0.10

/*
 * Run the tests of o for every task v[0..n) (o->progress is not used when
 * more than one task runs at once).  Each task gets its own profile in
 * task->prof (owned by the caller: profile_free()).  Returns 0, or -ENOMEM /
 * -errno when the scheduler itself failed (the tasks' own failures are in
 * their ret and err).
 */
int probe_sched_run(struct probe_task *v, size_t n, const struct probe_options *o,
		    const struct probe_sched_opts *so);

/* The CPUs this process may run on (at least 1). */
unsigned probe_sched_cpus(void);

/* Together below this share of the sum of the solo reads: shared. */
#define PROBE_LINKS_SHARED 0.80
/* A device whose addition raises the total by less than this share of its
 * own solo read is checked for a partner. */
#define PROBE_LINKS_RAISE 0.50

/*
 * The link pass over the tasks v[0..n) probe_sched_run() measured.  Among
 * those whose profiles hold a solo seq_read (RAM-backed devices left out:
 * their bottleneck is the CPU), read all at once: when each keeps
 * PROBE_LINKS_SHARED of its solo read nothing is shared (one read, noted on
 * each).  Else add devices one at a time to a set read at once; a device
 * whose addition does not raise the total is read in pairs with each member
 * to name exactly whom it shares with.  Each group found (together <
 * PROBE_LINKS_SHARED × the solo sum) is added to prof->links and noted on
 * its devices.  Uses so's note, run and read only.  Returns 0 or -ENOMEM.
 */
int probe_links_find(struct probe_task *v, size_t n, const struct probe_options *o,
		     struct profile *prof, const struct probe_sched_opts *so);

#endif
