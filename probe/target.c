/* Probe targets: raw block devices (guarded) and scratch files.
 *
 * Scratch files are named ".tierwise-scratch.PID", created O_EXCL and held
 * under an exclusive flock(2) for their whole life (the lock goes with the
 * process, however it dies).  They are removed on close, on error and, by
 * the signal handlers of scratch.c, on SIGINT/SIGTERM/SIGHUP/SIGQUIT.  A
 * SIGKILL (or a crash) leaves one behind: the next scratch probe of the
 * same directory removes it if it can prove the file is a dead tierwise's
 * (see sweep_stale).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"
#include "rng.h"
#include "scratch.h"

#define SCRATCH_DEFAULT (2ULL << 30)
#define SCRATCH_MIN (64ULL << 20)
#define FILL_CHUNK (1U << 20)
#define SCRATCH_PREFIX ".tierwise-scratch."

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

/*
 * open(2) of a device node; an exclusive open that meets EBUSY is tried
 * again for up to EXCL_RETRY_MS: a second probe started right after a
 * destructive one found the device busy for a moment, with no holder in
 * sight (most likely udev re-probing the disk its writer closed).  The inventory has already refused devices with real holders,
 * mounts or signatures, so a lasting EBUSY is still reported.  Returns the
 * fd or -1 with errno set.
 */
#define EXCL_RETRY_MS 2000
static int open_dev(const char *path, int flags)
{
	const struct timespec step = { 0, 50 * 1000000L };
	int fd;

	for (int waited = 0;; waited += 50) {
		fd = open(path, flags);
		if (fd >= 0 || errno != EBUSY || !(flags & O_EXCL) ||
		    waited >= EXCL_RETRY_MS)
			return fd;
		nanosleep(&step, NULL);
	}
}

/* What a refused open (EACCES, EPERM) says about why: root is not told to be
 * root; what refuses it then is the kernel's policy, not the file mode. */
static const char *open_refused_hint(int e)
{
	if (e != EACCES && e != EPERM)
		return "";
	if (geteuid() == 0)
		return " (the kernel refused the open although running as root: a container "
		       "without the device or a device cgroup, a user namespace, a security "
		       "module such as AppArmor or SELinux, or a lockdown)";
	return " (raw devices need root, or read access to the device node)";
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
		snprintf(err, errlen, "%s: not a whole block device in the inventory "
			 "(`tierwise list` shows them; a directory is probed with a scratch file)",
			 name);
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
	t->fd = open_dev(d->path, flags);
	if (t->fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: cannot open%s: %s%s", d->path,
			 destructive ? " exclusively for writing" : "", strerror(e),
			 open_refused_hint(e));
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
	if (vfs.f_flag & ST_RDONLY) {
		snprintf(err, errlen, "%s: read-only filesystem: no scratch file can be "
			 "written there (%s)", dir, strerror(EROFS));
		return -EROFS;
	}
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (!want)
		want = avail / 4 < SCRATCH_DEFAULT ? avail / 4 : SCRATCH_DEFAULT;
	want &= ~(uint64_t)(FILL_CHUNK - 1);
	if (want < SCRATCH_MIN || want > avail - avail / 10) {
		snprintf(err, errlen, "%s: %llu MiB free; a scratch file of %llu MiB "
			 "(minimum %llu MiB, leaving 10%% free) does not fit (%s)", dir,
			 (unsigned long long)(avail >> 20), (unsigned long long)(want >> 20),
			 (unsigned long long)(SCRATCH_MIN >> 20), strerror(ENOSPC));
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

static void block_fatal_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

/* PID from a name that is exactly SCRATCH_PREFIX and 1-9 digits, else 0. */
static pid_t stale_pid(const char *name)
{
	const char *p = name + strlen(SCRATCH_PREFIX);
	long v = 0;

	if (strncmp(name, SCRATCH_PREFIX, strlen(SCRATCH_PREFIX)) || !*p ||
	    *p == '0' || strlen(p) > 9)
		return 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		v = v * 10 + (*p - '0');
	}
	return (pid_t)v;
}

/*
 * Remove dir/name if it is provably a dead tierwise's scratch file; append
 * its name to msg.  Returns 1 when removed, else 0 (left alone).
 */
static int remove_if_stale(int dfd, const char *name, char *msg, size_t msglen)
{
	pid_t pid = stale_pid(name);
	struct stat st, now;
	int fd, removed = 0;

	if (pid <= 0 || pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH)
		return 0;	/* not our pattern, or its process may live */
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0 &&
	    fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
	    now.st_dev == st.st_dev && now.st_ino == st.st_ino &&
	    unlinkat(dfd, name, 0) == 0) {
		size_t off = strlen(msg);

		snprintf(msg + off, msglen - off, "%s%s", off ? ", " : "", name);
		removed = 1;
	}
	close(fd);	/* drops the lock */
	return removed;
}

/*
 * Remove the scratch files that earlier runs killed by SIGKILL (or a
 * crash) left in dir, and only those.  Contract: a file goes only when
 *  - its name is exactly ".tierwise-scratch.PID" (PID: 1-9 digits, no
 *    leading zero) and PID is not ours;
 *  - no process PID exists (kill(PID, 0) fails with ESRCH): a live
 *    tierwise's file stays even in the moment between its creation and its
 *    lock, and so does any file whose PID was reused;
 *  - it is a regular file (symlinks are not followed) owned by our
 *    effective uid;
 *  - an exclusive flock on it is granted at once: every tierwise holds one
 *    on its scratch file for the file's whole life, which also protects a
 *    live run in another PID namespace sharing the filesystem;
 *  - the name still names the inode we locked, right before the unlink.
 * Anything else is left alone.  Never fails: an unreadable directory or
 * file is skipped.  On return msg holds a sentence naming the files
 * removed, or "" when none.
 */
static void sweep_stale(const char *dir, char *msg, size_t msglen)
{
	char names[512] = "";
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (msglen)
		msg[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_type == DT_REG || e->d_type == DT_UNKNOWN)
			n += remove_if_stale(dirfd(d), e->d_name, names, sizeof(names));
	closedir(d);
	if (n)
		snprintf(msg, msglen, "%s: removed %d stale scratch file%s of a killed "
			 "tierwise run: %s", dir, n, n > 1 ? "s" : "", names);
}

static int scratch_create(const char *dir, struct probe_target *t, char *err,
			  size_t errlen)
{
	char path[PATH_MAX];
	sigset_t old;
	int e;

	size_t dl = strlen(dir);
	const char *sep = dl && dir[dl - 1] == '/' ? "" : "/";

	if ((size_t)snprintf(path, sizeof(path), "%s%s" SCRATCH_PREFIX "%d", dir, sep,
			     (int)getpid()) >= sizeof(path)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	/* No fatal signal between the file's creation and its registration
	 * (it would be left behind); a pending one is handled right after. */
	block_fatal_signals(&old);
	t->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
	if (t->fd < 0) {
		e = errno;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		snprintf(err, errlen, "%s: cannot create a scratch file%s: %s", path,
			 e == EINVAL ? " with O_DIRECT (filesystem without direct I/O?)" : "",
			 strerror(e));
		return -e;
	}
	/* Ours, alive: see sweep_stale.  A new file cannot be locked by
	 * anybody else, so failure here is an odd filesystem (ENOLCK). */
	e = flock(t->fd, LOCK_EX | LOCK_NB) < 0 ? errno : 0;
	if (e || !(t->path = strdup(path)) || probe_scratch_register(path) < 0) {
		unlink(path);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		snprintf(err, errlen, "%s: cannot %s the scratch file%s%s", path,
			 e ? "lock" : "register", e ? ": " : "", e ? strerror(e) : "");
		return e ? -e : -ENOMEM;
	}
	t->kind = PROBE_TARGET_SCRATCH;	/* from here on, close removes it */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}

/*
 * As probe.h says, and: stale scratch files of killed runs in dir are
 * removed first (sweep_stale), so their space counts as free.  On success
 * err holds a notice for the user when some were removed, else "".
 */
int probe_target_open_scratch(const struct probe_inventory *inv, const char *dir,
			      uint64_t size, volatile int *cancel,
			      struct probe_target *t, char *err, size_t errlen)
{
	char swept[768];
	uint64_t bytes = 0;
	int ret;

	target_init(t);
	sweep_stale(dir, swept, sizeof(swept));
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
	/* reserve the space; the run writes what its reads need */
	ret = fallocate(t->fd, 0, 0, (off_t)bytes) < 0 ? -errno : 0;
	if (ret == 0) {
		t->blank = true;
	} else if (ret == -EOPNOTSUPP) {
		ret = fill(t->fd, bytes, cancel);
	} else {
		snprintf(err, errlen, "%s: reserving %llu MiB for the scratch file: %s", t->path,
			 (unsigned long long)(bytes >> 20), strerror(-ret));
		goto fail;
	}
	if (ret < 0) {
		snprintf(err, errlen, "%s: filling the scratch file: %s", t->path,
			 strerror(-ret));
		goto fail;
	}
	snprintf(err, errlen, "%s", swept);
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
