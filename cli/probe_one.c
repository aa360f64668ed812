/* tierwise probe: running the targets — one device or scratch file at a
 * time, or devices side by side (probe/schedule.c) — into the profile, the
 * confirmation a destructive run asks for, and the interrupt that stops
 * them. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "probe_cli.h"
#include "render.h"
#include "schedule.h"

/* Ask for the device name to be typed before a destructive run. */
static bool confirm(const struct probe_cli *c, const struct probe_dev *d)
{
	char line[128], size[32];
	FILE *tty;

	if (c->yes)
		return true;
	tty = fopen("/dev/tty", "r+");
	if (!tty) {
		fprintf(stderr, "tierwise probe: --destructive without a terminal needs --yes\n");
		return false;
	}
	render_size(size, sizeof(size), (double)d->capacity_bytes);
	fprintf(tty, "Destructive tests will OVERWRITE ALL DATA on %s (%s, %s).\n"
		"Type the device name (%s) to continue: ", d->path,
		d->model ? d->model : "no model", size, d->name);
	fflush(tty);
	bool ok = fgets(line, sizeof(line), tty) && (line[strcspn(line, "\n")] = '\0',
						      !strcmp(line, d->name));
	if (!ok)
		fprintf(tty, "Not confirmed; %s is left alone.\n", d->name);
	fclose(tty);
	return ok;
}

/* Ctrl-C / SIGTERM: the first one cancels the test running and stops the
 * probe, which then says "interrupted" and keeps what was measured; a second
 * one ends the process at once (the scratch files' fatal handlers). */
static volatile sig_atomic_t interrupt_cancel, interrupt_sig;

static void on_interrupt(int sig)
{
	interrupt_sig = sig;
	interrupt_cancel = 1;
	probe_scratch_install_handlers();	/* sigaction only: async-signal-safe */
}

int cli_probe_interrupted(void)
{
	return interrupt_sig;
}

void cli_probe_catch_interrupts(struct probe_cli *c)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigfillset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	c->o.cancel = &interrupt_cancel;
}

static void probe_one(struct probe_cli *c, struct probe_target *t)
{
	char err[512] = "";
	int ret;

	if (interrupt_sig)
		return;

	if (!c->quiet)
		fprintf(stderr, "probing %s (%s)\n", t->id, t->path);
	ret = probe_run(t, &c->o, c->prof, err, sizeof(err));
	if (!c->quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (ret < 0) {
		fprintf(stderr, "tierwise probe: %s\n", err);
		c->failed++;
	}
	c->done++;
}

/* Probe device name, with write tests when destructive (confirmed first). */
void cli_probe_device(struct probe_cli *c, const char *name, bool destructive)
{
	const struct probe_dev *d = probe_inventory_find(c->inv, name);
	struct probe_target t;
	char err[1024];

	if (destructive && d && d->safe_destructive && !confirm(c, d)) {
		c->failed++;
		return;
	}
	if (probe_target_open_device(c->inv, name, destructive, &t, err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise probe: %s\n", err);
		c->failed++;
		return;
	}
	probe_one(c, &t);
	probe_target_close(&t);
}

/*
 * One filesystem is one target: true (and a line saying so) when dir lands on
 * a filesystem already probed (a bind mount, the same device mounted twice).
 */
static bool fs_already_probed(struct probe_cli *c, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return false;	/* the scratch open will say why */
	for (size_t i = 0; i < c->n_fs; i++)
		if (c->fs_seen[i] == st.st_dev) {
			fprintf(stderr, "tierwise probe: skipping %s: the same filesystem as %s "
				"(one scratch file per filesystem)\n", dir, c->fs_seen_at[i]);
			return true;
		}
	dev_t *seen = realloc(c->fs_seen, (c->n_fs + 1) * sizeof(*seen));
	const char **at = seen ? realloc(c->fs_seen_at, (c->n_fs + 1) * sizeof(*at)) : NULL;

	if (seen)
		c->fs_seen = seen;
	if (at) {
		c->fs_seen_at = at;
		c->fs_seen[c->n_fs] = st.st_dev;
		c->fs_seen_at[c->n_fs++] = dir;
	}
	return false;
}

void cli_probe_dir(struct probe_cli *c, const char *dir)
{
	struct probe_target t;
	char err[1024] = "";

	if (fs_already_probed(c, dir))
		return;

	if (!c->quiet)
		fprintf(stderr, "creating a scratch file in %s\n", dir);
	if (probe_target_open_scratch(c->inv, dir, c->size, NULL, &t, err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise probe: %s\n", err);
		c->failed++;
		return;
	}
	if (err[0])	/* stale scratch files of a killed run were removed */
		fprintf(stderr, "tierwise probe: %s\n", err);
	probe_one(c, &t);
	probe_target_close(&t);
}

/* The scheduler's and the link pass's lines ("probing …"), on stderr. */
static void sched_note(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "%s\n", msg);
}

/*
 * Probe the devices names[0..n) read-only side by side (probe/schedule.c) and
 * add their results to the profile in this order.
 */
void cli_probe_side_by_side(struct probe_cli *c, const char **names, size_t n)
{
	struct probe_sched_opts so = { .jobs = c->jobs ? c->jobs : PROBE_SCHED_AUTO,
				       .serial_qd1 = !c->qd1_side, .spot_check = true,
				       .note = c->quiet ? NULL : sched_note };
	struct probe_task *v = calloc(n ? n : 1, sizeof(*v));
	size_t m = 0;

	if (!v) {
		fprintf(stderr, "tierwise probe: out of memory\n");
		c->failed += (int)n;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char err[1024];

		if (probe_target_open_device(c->inv, names[i], false, &v[m].t, err, sizeof(err)) < 0) {
			fprintf(stderr, "tierwise probe: %s\n", err);
			c->failed++;
		} else {
			m++;
		}
	}
	if (probe_sched_run(v, m, &c->o, &so) < 0)
		fprintf(stderr, "tierwise probe: could not start the jobs side by side\n");
	else if (!c->no_links && probe_links_find(v, m, &c->o, c->prof, &so) < 0)
		fprintf(stderr, "tierwise probe: the link pass ran out of memory\n");
	for (size_t i = 0; i < m; i++) {
		if (v[i].ret < 0) {
			fprintf(stderr, "tierwise probe: %s\n", v[i].err);
			c->failed++;
		}
		c->done++;
		if (v[i].prof && profile_take_devices(c->prof, v[i].prof) < 0) {
			fprintf(stderr, "tierwise probe: %s: out of memory\n", v[i].t.id);
			c->failed++;
		}
		profile_free(v[i].prof);
		probe_target_close(&v[i].t);
	}
	free(v);
}
