/* tierwise probe: which targets — the ones named (devices side by side when
 * there are two or more, then directories), or with none the whole machine:
 * every fixed disk `list` marks safe and one scratch file per filesystem on
 * one, however many bind mounts show it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "probe_cli.h"
#include "schedule.h"

/* Whether devices run side by side: --jobs > 1, or auto (the whole machine,
 * two named devices or more); the fault hook's counters are atomic, so it
 * runs side by side too. */
static bool side_by_side(const struct probe_cli *c, bool whole_machine)
{
	unsigned jobs = c->jobs ? c->jobs : whole_machine ? probe_sched_cpus() : 1;

	return jobs > 1;
}

/* One named target: a directory (a scratch file), else a device. */
static void probe_arg(struct probe_cli *c, const char *arg)
{
	struct stat st;
	int found = stat(arg, &st) == 0, missing = !found && errno == ENOENT;

	if (found && S_ISDIR(st.st_mode)) {
		cli_probe_dir(c, arg);
	} else if (missing && strchr(arg, '/') && strncmp(arg, "/dev/", 5)) {
		cli_path_error("probe", NULL, arg, "probe", ENOENT, "a TARGET is a directory on "
			       "a mounted filesystem, or a whole block device that `tierwise list` "
			       "shows, e.g. nvme0n1 or /dev/nvme0n1");
		c->failed++;
	} else {
		cli_probe_device(c, arg, c->destructive);
	}
}

/* How many of the named targets are devices (not directories). */
static size_t named_devices(char **targets, int n)
{
	struct stat st;
	size_t m = 0;

	for (int i = 0; i < n; i++)
		m += !(stat(targets[i], &st) == 0 && S_ISDIR(st.st_mode));
	return m;
}

/* Named targets side by side (--jobs > 1, or two devices or more and no
 * --jobs: as many at once as the CPUs allow, as for the whole machine, and
 * the link pass): devices side by side, then directories. */
static void probe_named_side_by_side(struct probe_cli *c, char **targets, int n)
{
	const char **devs = calloc((size_t)n, sizeof(*devs));
	size_t nd = 0;
	struct stat st;

	if (!devs) {
		for (int i = 0; i < n; i++)
			probe_arg(c, targets[i]);
		return;
	}
	for (int i = 0; i < n; i++)
		if (!(stat(targets[i], &st) == 0 && S_ISDIR(st.st_mode)))
			devs[nd++] = targets[i];
	cli_probe_side_by_side(c, devs, nd);
	for (int i = 0; i < n; i++)
		if (stat(targets[i], &st) == 0 && S_ISDIR(st.st_mode))
			cli_probe_dir(c, targets[i]);
	free(devs);
}

/* Add the filesystem mounted at mounts (a device's or a partition's; its
 * own mount first, bind mounts after it: probe.h) to points, once. */
static void add_fs(const char **points, size_t *n, const struct probe_strv *mounts)
{
	if (!mounts->n)
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(points[i], mounts->v[0]))
			return;
	points[(*n)++] = mounts->v[0];
}

/* The mount point of each filesystem on a tier candidate, one per
 * filesystem (bind mounts of it are not counted): a NULL-terminated array
 * the caller frees, or NULL when out of memory. */
static const char **fs_points(const struct probe_inventory *inv)
{
	size_t cap = 1, n = 0;
	const char **points;

	for (size_t i = 0; i < inv->n; i++)
		cap += 1 + inv->v[i].n_parts;
	if (!(points = calloc(cap, sizeof(*points))))
		return NULL;
	for (size_t i = 0; i < inv->n; i++) {
		const struct probe_dev *d = &inv->v[i];

		if (!probe_dev_candidate(d))
			continue;
		add_fs(points, &n, &d->mounts);
		for (size_t p = 0; p < d->n_parts; p++)
			add_fs(points, &n, &d->parts[p].mounts);
	}
	return points;
}

/* No targets: every read-only-safe fixed disk, then each mounted filesystem
 * on one (optical, removable and read-only devices only when named). */
static void probe_all(struct probe_cli *c)
{
	const char **ro = calloc(c->inv->n + 1, sizeof(*ro));
	const char **points = fs_points(c->inv);
	bool together = ro && side_by_side(c, true);
	size_t n_ro = 0;

	for (size_t i = 0; i < c->inv->n; i++) {
		const struct probe_dev *d = &c->inv->v[i];
		bool rw = c->destructive && d->safe_destructive;

		if (d->safe_readonly && probe_dev_candidate(d) && together && !rw)
			ro[n_ro++] = d->name;	/* read-only: side by side below */
		else if (d->safe_readonly && probe_dev_candidate(d))
			cli_probe_device(c, d->name, rw);
		else if (!probe_dev_candidate(d) && !c->quiet)
			fprintf(stderr, "tierwise probe: not probing %s: %s; name it to probe it\n",
				d->name, d->cls_why);
	}
	if (n_ro)
		cli_probe_side_by_side(c, ro, n_ro);
	free(ro);
	if (!points) {
		fprintf(stderr, "tierwise probe: out of memory: no scratch files\n");
		c->failed++;
		return;
	}
	for (size_t i = 0; points[i]; i++)
		cli_probe_dir(c, points[i]);
	free(points);
}

void cli_probe_targets(struct probe_cli *c, char **targets, int n)
{
	if (n > 0 && side_by_side(c, named_devices(targets, n) >= 2) && !c->destructive)
		probe_named_side_by_side(c, targets, n);
	else
		for (int i = 0; i < n && !cli_probe_interrupted(); i++)
			probe_arg(c, targets[i]);
	if (n == 0)
		probe_all(c);
}
