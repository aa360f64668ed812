/* probe_jobs.h — device probes side by side (`tierwise probe --jobs N`).
 *
 * A small scheduler over probe_run(): up to N devices at once — one per CPU,
 * and more while the running jobs leave a whole core idle (capped disks, HDDs
 * need little CPU) — never two on
 * the same PCI port (root port or controller), each job's thread pinned to
 * the CPUs local to its device; QD1 latency tests one device at a time; then
 * a spot check against a short solo run re-measures alone a device whose
 * figures moved by more than 10 %.  Prints only the "probing" lines.
 */
#ifndef TW_PROBE_JOBS_H
#define TW_PROBE_JOBS_H

#include <stdbool.h>

#include "probe.h"

struct probe_job {
	struct probe_target t;	/* opened (and closed) by the caller */
	struct profile *prof;	/* the device's results (owned; NULL before) */
	int ret;		/* probe_run()'s return */
	char err[512];		/* its message when ret < 0 */
};

struct probe_jobs_opts {
	unsigned jobs;		/* devices at once at most: >= 1 (PROBE_JOBS_AUTO: as the
				 * CPUs allow); past one per CPU only while a core is idle */
	bool serial_qd1;	/* rand_read_qd1 one device at a time (else side by side,
				 * the spot check guarding it) */
	bool spot_check;	/* compare with a short solo run (jobs > 1) */
	bool quiet;		/* no "probing" lines */
};

/* --jobs not given: as many as the CPUs allow (the scheduler's limit). */
#define PROBE_JOBS_AUTO 64

/* Differences above this share between a concurrent figure and a solo one
 * send the device back to be measured alone. */
#define PROBE_JOBS_SPOT_TOLERANCE 0.10

/*
 * Run probe_run() for every job with options o (its progress callback is not
 * used when more than one job runs at once).  Each job gets its own profile
 * in job->prof.  Returns 0, or -ENOMEM / -errno when the scheduler itself
 * failed (the jobs' own failures are in their ret and err).
 */
int probe_jobs_run(struct probe_job *v, size_t n, const struct probe_options *o,
		   const struct probe_jobs_opts *jo);

/* The CPUs this process may run on (at least 1). */
unsigned probe_jobs_cpus(void);

#endif
