/* Output files that never destroy anything: checked, then written atomically. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tw_outfile.h"
#include "tw_util.h"

static const int held_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static int fail(char *err, size_t len, int ret, const char *what)
{
	snprintf(err, len, "%s", what);
	return ret;
}

/* Standard streams named as such: written in place, never renamed over. */
static FILE *std_stream(const char *path)
{
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return stdout;
	if (!strcmp(path, "/dev/stderr"))
		return stderr;
	return NULL;
}

/* What a non-regular file is, for the error message. */
static const char *kind_of(mode_t m)
{
	if (S_ISBLK(m))
		return "is a block device (an output file must be a regular file or a new path)";
	if (S_ISCHR(m))
		return "is a character device (an output file must be a regular file or a new path)";
	if (S_ISSOCK(m))
		return "is a socket (an output file must be a regular file or a new path)";
	return "is not a regular file (an output file must be a regular file or a new path)";
}

/* The directory part of path into buf ("." when there is none). */
static void dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == path)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

/* A path that does not exist: its directory must. */
static int check_new(const char *path, char *err, size_t len)
{
	char dir[PATH_MAX];
	struct stat st;

	if (lstat(path, &st) == 0)	/* a symbolic link to nothing */
		return fail(err, len, -ELOOP, "is a symbolic link to a file that does not exist");
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st) < 0) {
		snprintf(err, len, "the directory %s does not exist (create it first)", dir);
		return -ENOENT;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, len, "%s is not a directory", dir);
		return -ENOTDIR;
	}
	return 0;
}

int tw_outfile_check(const char *path, char *err, size_t len)
{
	struct stat st;

	if (!path)
		return 0;	/* no output file asked for */
	if (!*path)
		return fail(err, len, -EINVAL, "an empty file name");
	if (std_stream(path))
		return 0;
	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return check_new(path, err, len);
		snprintf(err, len, "%s", strerror(errno));
		return -errno;
	}
	if (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode))
		return fail(err, len, -EISDIR, "is a directory (an output file must be a regular "
			    "file or a new path)");
	return fail(err, len, -EINVAL, kind_of(st.st_mode));
}

static void hold_signals(struct tw_outfile *o)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(held_signals); i++)
		sigaddset(&set, held_signals[i]);
	sigprocmask(SIG_BLOCK, &set, &o->saved);
}

static void release(struct tw_outfile *o)
{
	bool held = o->tmp != NULL;

	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->f = NULL;
	if (held)
		sigprocmask(SIG_SETMASK, &o->saved, NULL);
}

/* The mode the new file gets: the old file's, or 0666 less the umask. */
static mode_t target_mode(const char *path)
{
	struct stat st;
	mode_t mask;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	mask = umask(022);
	umask(mask);
	return 0666 & ~mask;
}

/* A FIFO (e.g. a shell's >(...)) is written in place: there is no file to keep. */
static int open_direct(struct tw_outfile *o, const char *path, char *err, size_t len)
{
	o->f = fopen(path, "w");
	if (!o->f) {
		snprintf(err, len, "%s", strerror(errno));
		return -errno;
	}
	o->std = true;
	return 0;
}

static int open_tmp(struct tw_outfile *o, char *err, size_t len)
{
	char dir[PATH_MAX];
	const char *base = strrchr(o->path, '/');
	size_t n;
	int fd;

	dir_of(o->path, dir, sizeof(dir));
	base = base ? base + 1 : o->path;
	n = strlen(dir) + strlen(base) + 16;
	if (!(o->tmp = malloc(n)))
		return fail(err, len, -ENOMEM, "out of memory");
	snprintf(o->tmp, n, "%s/.%s.XXXXXX", dir, base);
	hold_signals(o);
	fd = mkstemp(o->tmp);
	if (fd < 0 || fchmod(fd, target_mode(o->path)) < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		snprintf(err, len, "cannot create a file in %s: %s", dir, strerror(e));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		release(o);
		return -e;
	}
	return 0;
}

int tw_outfile_open(struct tw_outfile *o, const char *path, char *err, size_t len)
{
	struct stat st;
	int ret = tw_outfile_check(path, err, len);

	memset(o, 0, sizeof(*o));
	if (ret < 0)
		return ret;
	if ((o->f = std_stream(path))) {
		o->std = true;
		return 0;
	}
	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
		return open_direct(o, path, err, len);
	o->path = realpath(path, NULL);		/* a link to a file: replace the file */
	if (!o->path && errno != ENOENT)
		return fail(err, len, -errno, strerror(errno));
	if (!o->path && !(o->path = strdup(path)))
		return fail(err, len, -ENOMEM, "out of memory");
	ret = open_tmp(o, err, len);
	if (ret < 0)
		free(o->path), o->path = NULL;
	return ret;
}

/* Finish a stream written in place: flush and report what went wrong. */
static int commit_direct(struct tw_outfile *o, char *err, size_t len)
{
	bool is_std = o->f == stdout || o->f == stderr;
	int ret = 0;

	if (fflush(o->f) != 0 || ferror(o->f))
		ret = -(errno ? errno : EIO);
	if (!is_std && fclose(o->f) != 0 && !ret)
		ret = -(errno ? errno : EIO);
	o->f = NULL;
	if (ret)
		snprintf(err, len, "%s", strerror(-ret));
	return ret;
}

int tw_outfile_commit(struct tw_outfile *o, char *err, size_t len)
{
	struct stat st;
	int ret = 0;

	if (o->std)
		return commit_direct(o, err, len);
	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		ret = -(errno ? errno : EIO);
	else if (fsync(fileno(o->f)) < 0)
		ret = -errno;
	if (fclose(o->f) != 0 && !ret)
		ret = -(errno ? errno : EIO);
	o->f = NULL;
	if (ret)
		snprintf(err, len, "%s", strerror(-ret));
	else if (lstat(o->path, &st) == 0 && !S_ISREG(st.st_mode))	/* changed meanwhile */
		ret = fail(err, len, -EINVAL, kind_of(st.st_mode));
	else if (rename(o->tmp, o->path) < 0)
		ret = -errno, snprintf(err, len, "%s", strerror(errno));
	if (ret)
		unlink(o->tmp);
	release(o);
	return ret;
}

void tw_outfile_abort(struct tw_outfile *o)
{
	if (o->std) {
		if (o->f && o->f != stdout && o->f != stderr)
			fclose(o->f);
		o->f = NULL;
		return;
	}
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}

int tw_outfile_write_string(const char *path, const char *s, char *err, size_t len)
{
	struct tw_outfile o;
	int ret = tw_outfile_open(&o, path, err, len);

	if (ret < 0)
		return ret;
	fputs(s, o.f);
	return tw_outfile_commit(&o, err, len);
}
