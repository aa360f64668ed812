/* Relocatable access to /sys, /proc and /dev. */
#include "sysroot.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *root_or_empty(const char *sysroot)
{
	if (!sysroot || !strcmp(sysroot, "/"))
		return "";
	return sysroot;
}

static int vpath(const char *sysroot, char *buf, size_t len, const char *fmt,
		 va_list ap) __attribute__((format(printf, 4, 0)));

static int vpath(const char *sysroot, char *buf, size_t len, const char *fmt,
		 va_list ap)
{
	int n = snprintf(buf, len, "%s/", root_or_empty(sysroot));

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	int m = vsnprintf(buf + n, len - n, fmt, ap);

	if (m < 0 || (size_t)m >= len - n)
		return -ENAMETOOLONG;
	return 0;
}

int probe_sys_path(const char *sysroot, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(sysroot, buf, len, fmt, ap);
	va_end(ap);
	return ret;
}

static long read_at(const char *path, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -errno;
	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			close(fd);
			return e;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	return (long)got;
}

long probe_sys_bin(const char *sysroot, void *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(sysroot, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ret < 0)
		return ret;
	return read_at(path, buf, len);
}

static char *vstr(const char *sysroot, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static char *vstr(const char *sysroot, const char *fmt, va_list ap)
{
	char path[PATH_MAX], buf[4096];
	long n;

	if (vpath(sysroot, path, sizeof(path), fmt, ap) < 0)
		return NULL;
	n = read_at(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	n = (long)strlen(buf);	/* stop at an embedded NUL */
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return n > 0 ? strdup(buf) : NULL;
}

char *probe_sys_str(const char *sysroot, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vstr(sysroot, fmt, ap);
	va_end(ap);
	return s;
}

int probe_sys_u64(const char *sysroot, uint64_t *val, const char *fmt, ...)
{
	va_list ap;
	char *s, *end;
	unsigned long long v;

	va_start(ap, fmt);
	s = vstr(sysroot, fmt, ap);
	va_end(ap);
	if (!s)
		return -ENOENT;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-') {
		free(s);
		return -EINVAL;
	}
	free(s);
	*val = v;
	return 0;
}

/* Natural order: digit runs compare by value. */
static int natcmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	while (*x && *y) {
		if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
			unsigned long long nx = strtoull(x, (char **)&x, 10);
			unsigned long long ny = strtoull(y, (char **)&y, 10);

			if (nx != ny)
				return nx < ny ? -1 : 1;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x - (unsigned char)*y;
		x++;
		y++;
	}
	return (unsigned char)*x - (unsigned char)*y;
}

int probe_sys_list(const char *sysroot, char ***names, size_t *n, const char *fmt, ...)
{
	char path[PATH_MAX];
	char **v = NULL;
	size_t cnt = 0;
	struct dirent *de;
	va_list ap;
	DIR *d;
	int ret;

	*names = NULL;
	*n = 0;
	va_start(ap, fmt);
	ret = vpath(sysroot, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ret < 0)
		return ret;
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char **nv;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		nv = realloc(v, (cnt + 1) * sizeof(*v));
		if (!nv || !(nv[cnt] = strdup(de->d_name))) {
			v = nv ? nv : v;
			probe_sys_names_free(v, cnt);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), natcmp);
	*names = v;
	*n = cnt;
	return 0;
}

void probe_sys_names_free(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

int probe_sys_realpath(const char *sysroot, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX], real[PATH_MAX], root[PATH_MAX];
	const char *r = root_or_empty(sysroot);
	size_t rl = 0;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(sysroot, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ret < 0)
		return ret;
	if (!realpath(path, real))
		return -errno;
	if (*r) {
		if (!realpath(r, root))
			return -errno;
		rl = strlen(root);
		if (strncmp(real, root, rl) || (real[rl] && real[rl] != '/'))
			return -EXDEV;	/* the link leaves the sysroot */
	}
	if ((size_t)snprintf(buf, len, "%s", real + rl) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* "" for no attribute (the directory itself), else "/". */
static const char *sep(const char *attr)
{
	return attr && *attr ? "/" : "";
}

static const char *or_empty(const char *attr)
{
	return attr ? attr : "";
}

/* Whether rel is a relative path without a ".." component. */
static bool rel_ok(const char *rel)
{
	const char *p = rel;

	if (!*rel || *rel == '/')
		return false;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += n;
		p += *p == '/';
	}
	return true;
}

int probe_sysdev_init(struct probe_sysdev *h, const char *sysroot, const char *name)
{
	int n;

	h->sysroot = sysroot;
	h->rel[0] = '\0';
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	n = snprintf(h->rel, sizeof(h->rel), "sys/block/%s", name);
	if (n < 0 || (size_t)n >= sizeof(h->rel))
		return -ENAMETOOLONG;
	return 0;
}

int probe_sysdev_sub(struct probe_sysdev *child, const struct probe_sysdev *parent,
		     const char *sub)
{
	char rel[sizeof(child->rel)];
	int n;

	if (!rel_ok(sub))
		return -EINVAL;
	n = snprintf(rel, sizeof(rel), "%s/%s", parent->rel, sub);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	child->sysroot = parent->sysroot;
	memcpy(child->rel, rel, (size_t)n + 1);
	return 0;
}

char *probe_sysdev_str(const struct probe_sysdev *h, const char *attr)
{
	return probe_sys_str(h->sysroot, "%s%s%s", h->rel, sep(attr), or_empty(attr));
}

int probe_sysdev_u64(const struct probe_sysdev *h, const char *attr, uint64_t *val)
{
	return probe_sys_u64(h->sysroot, val, "%s%s%s", h->rel, sep(attr), or_empty(attr));
}

long probe_sysdev_bin(const struct probe_sysdev *h, const char *attr, void *buf,
		      size_t len)
{
	return probe_sys_bin(h->sysroot, buf, len, "%s%s%s", h->rel, sep(attr),
			     or_empty(attr));
}

int probe_sysdev_list(const struct probe_sysdev *h, const char *sub, char ***names,
		      size_t *n)
{
	return probe_sys_list(h->sysroot, names, n, "%s%s%s", h->rel, sep(sub),
			      or_empty(sub));
}

int probe_sysdev_realpath(const struct probe_sysdev *h, const char *attr, char *buf,
			  size_t len)
{
	return probe_sys_realpath(h->sysroot, buf, len, "%s%s%s", h->rel, sep(attr),
				  or_empty(attr));
}
