/* The scratch-file registry and its signal handlers. */
#include "scratch.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"
#include "tw_util.h"

static char scratch_paths[PROBE_SCRATCH_MAX][PROBE_SCRATCH_PATH];
static volatile sig_atomic_t scratch_used[PROBE_SCRATCH_MAX];

int probe_scratch_register(const char *path)
{
	if (strlen(path) >= PROBE_SCRATCH_PATH)
		return -ENAMETOOLONG;
	for (int i = 0; i < PROBE_SCRATCH_MAX; i++) {
		if (scratch_used[i])
			continue;
		memcpy(scratch_paths[i], path, strlen(path) + 1);
		scratch_used[i] = 1;
		return 0;
	}
	return -ENOSPC;
}

void probe_scratch_unregister(const char *path)
{
	for (int i = 0; i < PROBE_SCRATCH_MAX; i++)
		if (scratch_used[i] && !strcmp(scratch_paths[i], path))
			scratch_used[i] = 0;
}

void probe_scratch_cleanup(void)
{
	for (int i = 0; i < PROBE_SCRATCH_MAX; i++) {
		if (scratch_used[i]) {
			unlink(scratch_paths[i]);	/* async-signal-safe */
			scratch_used[i] = 0;
		}
	}
}

static void on_fatal_signal(int sig)
{
	probe_scratch_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

int probe_scratch_install_handlers(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigfillset(&sa.sa_mask);	/* no handler runs inside another */
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		if (sigaction(sigs[i], &sa, NULL) < 0)
			return -errno;
	return 0;
}
