/* scratch.h — private: scratch files that must not outlive the probe.
 *
 * A fixed registry (no allocation) that signal handlers can walk: on SIGINT,
 * SIGTERM or SIGHUP every registered file is unlinked before the process
 * dies with the signal's default action.
 */
#ifndef TW_PROBE_SCRATCH_H
#define TW_PROBE_SCRATCH_H

#define PROBE_SCRATCH_MAX 16
#define PROBE_SCRATCH_PATH 4096

/* Remember path for removal on a fatal signal.  Returns 0 or -ENOSPC. */
int probe_scratch_register(const char *path);

/* Forget path (after the caller removed it).  No-op when unknown. */
void probe_scratch_unregister(const char *path);

#endif
