/* The inventory: mounts (proc/self/mountinfo) and swaps (proc/swaps). */
#include <blkid/blkid.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inventory_priv.h"
#include "sysroot.h"
#include "tw_util.h"

/* Decode mountinfo's octal escapes (\040 for a space) in place. */
static void inv_unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static int inv_mnts_add(struct mnts *m, const char *majmin, const char *source,
		    const char *point, const char *fstype)
{
	struct mnt *v = realloc(m->v, (m->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	m->v = v;
	snprintf(v[m->n].majmin, sizeof(v[m->n].majmin), "%s", majmin);
	v[m->n].source = strdup(source);
	v[m->n].point = point ? strdup(point) : NULL;
	v[m->n].fstype = fstype ? strdup(fstype) : NULL;
	if (!v[m->n].source || (point && !v[m->n].point) || (fstype && !v[m->n].fstype)) {
		free(v[m->n].source);
		free(v[m->n].point);
		free(v[m->n].fstype);
		return -ENOMEM;
	}
	m->n++;
	return 0;
}

void inv_mnts_free(struct mnts *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].source);
		free(m->v[i].point);
		free(m->v[i].fstype);
	}
	free(m->v);
}

/* Parse one mountinfo line: "36 35 98:0 / /mnt rw - ext3 /dev/root rw". */
int inv_parse_mountinfo_line(struct scan *sc, char *line)
{
	char majmin[16], point[PATH_MAX], source[PATH_MAX], fstype[64];
	char *sep = strstr(line, " - ");

	if (!sep || sscanf(line, "%*s %*s %15s %*s %4095s", majmin, point) != 2 ||
	    sscanf(sep + 3, "%63s %4095s", fstype, source) != 2)
		return 0;	/* not a mount line; ignore */
	inv_unescape(point);
	inv_unescape(source);
	if (!strcmp(point, "/"))
		snprintf(sc->root_majmin, sizeof(sc->root_majmin), "%s", majmin);
	return inv_mnts_add(&sc->mounts, majmin, source, point, fstype);
}

int inv_read_lines(struct scan *sc, const char *rel,
		      int (*fn)(struct scan *, char *))
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	if (probe_sys_path(sc->root, path, sizeof(path), "%s", rel) < 0)
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return 0;	/* absent: nothing mounted that we can see */
	while (!ret && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		ret = fn(sc, line);
	}
	free(line);
	fclose(f);
	return ret;
}

/* proc/swaps: "/dev/zram0  partition  4194300  0  100" after a header. */
int inv_parse_swaps_line(struct scan *sc, char *line)
{
	char source[PATH_MAX];

	if (!strncmp(line, "Filename", 8) || sscanf(line, "%4095s", source) != 1)
		return 0;
	inv_unescape(source);
	return inv_mnts_add(&sc->swaps, "", source, NULL, "swap");
}

static bool inv_same_dev(const struct mnt *m, const char *name, const char *majmin)
{
	const char *base = strrchr(m->source, '/');

	if (*majmin && !strcmp(m->majmin, majmin))
		return true;
	return !strncmp(m->source, "/dev/", 5) && base && !strcmp(base + 1, name);
}

/*
 * Fill mounts and swap for the device or partition name.  When libblkid
 * could not look (no permission), the mounted filesystem's type stands in
 * for the signature; the signature stays "not probed".
 */
int inv_find_mounts(const struct scan *sc, const char *name, const char *majmin,
		       struct probe_strv *mounts, bool *swap, struct probe_sig *sig)
{
	for (size_t i = 0; i < sc->mounts.n; i++) {
		const struct mnt *m = &sc->mounts.v[i];

		if (!inv_same_dev(m, name, majmin))
			continue;
		if (tw_strv_addf(&mounts->v, &mounts->n, "%s", m->point) < 0)
			return -ENOMEM;
		if (!sig->probed && !sig->type && !(sig->type = strdup(m->fstype)))
			return -ENOMEM;
	}
	*swap = false;
	for (size_t i = 0; i < sc->swaps.n; i++)
		if (inv_same_dev(&sc->swaps.v[i], name, ""))
			*swap = true;
	if (*swap && !sig->probed && !sig->type && !(sig->type = strdup("swap")))
		return -ENOMEM;
	return 0;
}

