/* The inventory: mounts (proc/self/mountinfo) and swaps (proc/swaps), read
 * with libmount, util-linux's own parser (escapes, optional fields). */
#include <blkid/blkid.h>
#include <errno.h>
#include <libmount/libmount.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inventory_priv.h"
#include "sysroot.h"
#include "tw_util.h"

static int probe_inv_mnts_add(struct probe_mnts *m, const char *majmin, const char *source,
		    const char *point, const char *fstype, const char *root)
{
	struct probe_mnt *v = realloc(m->v, (m->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	m->v = v;
	snprintf(v[m->n].majmin, sizeof(v[m->n].majmin), "%s", majmin);
	v[m->n].source = strdup(source);
	v[m->n].point = point ? strdup(point) : NULL;
	v[m->n].fstype = fstype ? strdup(fstype) : NULL;
	v[m->n].root = strdup(root ? root : "/");
	if (!v[m->n].source || (point && !v[m->n].point) || (fstype && !v[m->n].fstype) ||
	    !v[m->n].root) {
		free(v[m->n].source);
		free(v[m->n].point);
		free(v[m->n].fstype);
		free(v[m->n].root);
		return -ENOMEM;
	}
	m->n++;
	return 0;
}

void probe_inv_mnts_free(struct probe_mnts *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].source);
		free(m->v[i].point);
		free(m->v[i].fstype);
		free(m->v[i].root);
	}
	free(m->v);
}

/* libmount's parser: a line it cannot read is skipped, as before. */
static int skip_bad_line(struct libmnt_table *tb, const char *file, int line)
{
	(void)tb;
	(void)file;
	(void)line;
	return 1;
}

/* Each entry of the table into sc->mounts (swaps: sc->swaps). */
static int take_table(struct probe_scan *sc, struct libmnt_table *tb, bool swaps)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int ret = 0, r;

	if (!it)
		return -ENOMEM;
	while (!ret && (r = mnt_table_next_fs(tb, it, &fs)) == 0) {
		const char *src = mnt_fs_get_source(fs), *point = mnt_fs_get_target(fs);
		dev_t devno = mnt_fs_get_devno(fs);
		char majmin[16] = "";

		if (!src)
			src = "none";
		if (swaps) {
			ret = probe_inv_mnts_add(&sc->swaps, "", src, NULL, "swap", NULL);
			continue;
		}
		if (!point)
			continue;
		if (devno)
			snprintf(majmin, sizeof(majmin), "%u:%u", major(devno), minor(devno));
		if (!strcmp(point, "/"))
			snprintf(sc->root_majmin, sizeof(sc->root_majmin), "%s", majmin);
		ret = probe_inv_mnts_add(&sc->mounts, majmin, src, point, mnt_fs_get_fstype(fs),
				   mnt_fs_get_root(fs));
	}
	mnt_free_iter(it);
	return ret;
}

int probe_inv_read_mounts(struct probe_scan *sc, bool swaps)
{
	const char *rel = swaps ? "proc/swaps" : "proc/self/mountinfo";
	struct libmnt_table *tb;
	char path[PATH_MAX];
	int ret;

	if (probe_sys_path(sc->root, path, sizeof(path), "%s", rel) < 0)
		return -ENAMETOOLONG;
	if (access(path, R_OK) != 0)
		return 0;	/* absent: nothing mounted that we can see */
	tb = mnt_new_table();
	if (!tb)
		return -ENOMEM;
	mnt_table_set_parser_errcb(tb, skip_bad_line);
	ret = swaps ? mnt_table_parse_swaps(tb, path) : mnt_table_parse_file(tb, path);
	if (ret == 0 || ret == 1)	/* 1: some lines skipped */
		ret = take_table(sc, tb, swaps);
	else
		ret = 0;	/* unreadable as a whole: as if absent */
	mnt_unref_table(tb);
	return ret;
}

static bool probe_inv_same_dev(const struct probe_mnt *m, const char *name, const char *majmin)
{
	const char *base = strrchr(m->source, '/');

	if (*majmin && !strcmp(m->majmin, majmin))
		return true;
	return !strncmp(m->source, "/dev/", 5) && base && !strcmp(base + 1, name);
}

/* Whether an earlier entry of sc->mounts before index i that is also on
 * the device shows the same tree (one device, one root): a bind mount of a
 * mount already listed, counted once. */
static bool probe_inv_same_tree_before(const struct probe_scan *sc, size_t i, const char *name,
				 const char *majmin)
{
	const struct probe_mnt *m = &sc->mounts.v[i];

	for (size_t j = 0; j < i; j++) {
		const struct probe_mnt *o = &sc->mounts.v[j];

		if (probe_inv_same_dev(o, name, majmin) && !strcmp(o->root, m->root) &&
		    (!*m->majmin || !strcmp(o->majmin, m->majmin)))
			return true;
	}
	return false;
}

/*
 * Fill mounts and swap for the device or partition name.  When libblkid
 * could not look (no permission), the mounted filesystem's type stands in
 * for the signature; the signature stays "not probed".  Each tree once (see
 * probe_inv_same_tree_before), the filesystem's own mount (root "/") first.
 */
int probe_inv_find_mounts(const struct probe_scan *sc, const char *name, const char *majmin,
		       struct probe_strv *mounts, bool *swap, struct probe_sig *sig)
{
	for (int top = 1; top >= 0; top--)
		for (size_t i = 0; i < sc->mounts.n; i++) {
			const struct probe_mnt *m = &sc->mounts.v[i];

			if (!probe_inv_same_dev(m, name, majmin) || (strcmp(m->root, "/") == 0) != (top == 1) ||
			    probe_inv_same_tree_before(sc, i, name, majmin))
				continue;
			if (tw_strv_addf(&mounts->v, &mounts->n, "%s", m->point) < 0)
				return -ENOMEM;
			if (!sig->probed && !sig->type && !(sig->type = strdup(m->fstype)))
				return -ENOMEM;
		}
	*swap = false;
	for (size_t i = 0; i < sc->swaps.n; i++)
		if (probe_inv_same_dev(&sc->swaps.v[i], name, ""))
			*swap = true;
	if (*swap && !sig->probed && !sig->type && !(sig->type = strdup("swap")))
		return -ENOMEM;
	return 0;
}

