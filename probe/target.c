/* Probe targets: raw block devices (guarded) and scratch files. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "probe.h"
#include "rng.h"
#include "scratch.h"

#define SCRATCH_DEFAULT (2ULL << 30)
#define SCRATCH_MIN (64ULL << 20)
#define FILL_CHUNK (1U << 20)

static void target_init(struct probe_target *t)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}

static int refuse_unsafe(const struct probe_dev *d, char *err, size_t errlen)
{
	size_t off = (size_t)snprintf(err, errlen, "refusing destructive tests on %s:", d->name);

	for (size_t i = 0; i < d->destructive_why.n && off < errlen; i++)
		off += (size_t)snprintf(err + off, errlen - off, "%s %s", i ? ";" : "",
					d->destructive_why.v[i]);
	return -EPERM;
}

int probe_target_open_device(const struct probe_inventory *inv, const char *name,
			     bool destructive, struct probe_target *t,
			     char *err, size_t errlen)
{
	const struct probe_dev *d = probe_inventory_find(inv, name);
	int flags = O_DIRECT | O_CLOEXEC;

	target_init(t);
	if (!d || (strncmp(name, "/dev/", 5) ? strcmp(d->name, name) :
		   strcmp(d->name, name + 5))) {
		snprintf(err, errlen, "%s: not a whole block device in the inventory", name);
		return -ENODEV;
	}
	if (!d->safe_readonly) {
		snprintf(err, errlen, "%s: %s", d->name, d->readonly_why.n ?
			 d->readonly_why.v[0] : "not safe to probe");
		return -EPERM;
	}
	if (destructive && !d->safe_destructive)
		return refuse_unsafe(d, err, errlen);
	flags |= destructive ? O_RDWR | O_EXCL : O_RDONLY;
	t->fd = open(d->path, flags);
	if (t->fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: cannot open%s: %s", d->path,
			 destructive ? " exclusively for writing" : "", strerror(e));
		return -e;
	}
	t->kind = PROBE_TARGET_RAW;
	t->writable = destructive;
	t->id = strdup(d->name);
	t->path = strdup(d->path);
	t->span_bytes = (uint64_t)d->capacity_bytes;
	t->align = d->logical_bs ? d->logical_bs : 512;
	t->dev = d;
	if (!t->id || !t->path) {
		probe_target_close(t);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* The inventory disk under a filesystem directory (its partition's disk). */
static const struct probe_dev *disk_of_dir(const struct probe_inventory *inv,
					   const char *dir)
{
	struct stat st;
	char mm[32];

	if (!inv || stat(dir, &st) < 0)
		return NULL;
	snprintf(mm, sizeof(mm), "%u:%u", major(st.st_dev), minor(st.st_dev));
	for (size_t i = 0; i < inv->n; i++) {
		if (!strcmp(inv->v[i].majmin, mm))
			return &inv->v[i];
		for (size_t p = 0; p < inv->v[i].n_parts; p++)
			if (!strcmp(inv->v[i].parts[p].majmin, mm))
				return &inv->v[i];
	}
	return NULL;
}

static int scratch_size(const char *dir, uint64_t want, uint64_t *size,
			char *err, size_t errlen)
{
	struct statvfs vfs;
	uint64_t avail;

	if (statvfs(dir, &vfs) < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", dir, strerror(e));
		return -e;
	}
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (!want)
		want = avail / 4 < SCRATCH_DEFAULT ? avail / 4 : SCRATCH_DEFAULT;
	want &= ~(uint64_t)(FILL_CHUNK - 1);
	if (want < SCRATCH_MIN || want > avail - avail / 10) {
		snprintf(err, errlen, "%s: %llu MiB free; a scratch file of %llu MiB "
			 "(minimum %llu MiB, leaving 10%% free) does not fit", dir,
			 (unsigned long long)(avail >> 20), (unsigned long long)(want >> 20),
			 (unsigned long long)(SCRATCH_MIN >> 20));
		return -ENOSPC;
	}
	*size = want;
	return 0;
}

/* Write size bytes of incompressible data, 1 MiB at a time. */
static int fill(int fd, uint64_t size, volatile int *cancel)
{
	struct probe_rng rng;
	void *buf;
	int ret = 0;

	if (posix_memalign(&buf, 4096, FILL_CHUNK))
		return -ENOMEM;
	probe_rng_seed(&rng, (uint64_t)getpid() ^ (uint64_t)(uintptr_t)buf);
	for (uint64_t off = 0; off < size && !ret; off += FILL_CHUNK) {
		ssize_t w;

		if (cancel && *cancel) {
			ret = -EINTR;
			break;
		}
		probe_rng_fill(&rng, buf, FILL_CHUNK);
		w = pwrite(fd, buf, FILL_CHUNK, (off_t)off);
		if (w < 0)
			ret = -errno;
		else if (w != FILL_CHUNK)
			ret = -EIO;
	}
	if (!ret && fdatasync(fd) < 0)
		ret = -errno;
	free(buf);
	return ret;
}

static int scratch_create(const char *dir, struct probe_target *t, char *err,
			  size_t errlen)
{
	char path[PATH_MAX];
	int e;

	size_t dl = strlen(dir);
	const char *sep = dl && dir[dl - 1] == '/' ? "" : "/";

	if ((size_t)snprintf(path, sizeof(path), "%s%s.tierwise-scratch.%d", dir, sep,
			     (int)getpid()) >= sizeof(path)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	t->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
	if (t->fd < 0) {
		e = errno;
		snprintf(err, errlen, "%s: cannot create a scratch file%s: %s", path,
			 e == EINVAL ? " with O_DIRECT (filesystem without direct I/O?)" : "",
			 strerror(e));
		return -e;
	}
	if (!(t->path = strdup(path)) || probe_scratch_register(path) < 0) {
		unlink(path);
		snprintf(err, errlen, "cannot register the scratch file");
		return -ENOMEM;
	}
	t->kind = PROBE_TARGET_SCRATCH;	/* from here on, close removes it */
	return 0;
}

int probe_target_open_scratch(const struct probe_inventory *inv, const char *dir,
			      uint64_t size, volatile int *cancel,
			      struct probe_target *t, char *err, size_t errlen)
{
	uint64_t bytes = 0;
	int ret;

	target_init(t);
	ret = scratch_size(dir, size, &bytes, err, errlen);
	if (ret < 0)
		return ret;
	ret = scratch_create(dir, t, err, errlen);
	if (ret < 0)
		goto fail;
	t->writable = true;
	t->span_bytes = bytes;
	t->align = 4096;
	t->dev = disk_of_dir(inv, dir);
	if (asprintf(&t->id, "scratch:%s", dir) < 0) {
		t->id = NULL;
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	ret = fill(t->fd, bytes, cancel);
	if (ret < 0) {
		snprintf(err, errlen, "%s: filling the scratch file: %s", t->path,
			 strerror(-ret));
		goto fail;
	}
	return 0;
fail:
	probe_target_close(t);
	return ret;
}

void probe_target_close(struct probe_target *t)
{
	if (!t)
		return;
	if (t->fd >= 0)
		close(t->fd);
	if (t->kind == PROBE_TARGET_SCRATCH && t->path) {
		unlink(t->path);
		probe_scratch_unregister(t->path);
	}
	free(t->id);
	free(t->path);
	target_init(t);
}
