/*
 * Errors about paths, said one way: the command, the option (when one named
 * the path), the path as it was tried, what failed, and what would fix it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tw_outfile.h"

void cli_path_error(const char *cmd, const char *opt, const char *path,
		    const char *what, int err, const char *fix)
{
	fprintf(stderr, "tierwise%s%s: %s%s%s: cannot %s: %s%s%s%s\n", cmd ? " " : "",
		cmd ? cmd : "", opt ? opt : "", opt ? " " : "", path, what, strerror(err),
		fix ? " (" : "", fix ? fix : "", fix ? ")" : "");
}

/* The directory part of path into buf: "." when it has none. */
static const char *dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	if (slash == path)
		return "/";
	snprintf(buf, len, "%.*s", (int)(slash - path), path);
	return buf;
}

void cli_output_error(const char *cmd, const char *opt, const char *path, int err)
{
	char dir[4096], fix[4200];
	struct stat st;
	const char *d = dir_of(path, dir, sizeof(dir));

	if (err == ENOENT && stat(d, &st) < 0)
		snprintf(fix, sizeof(fix), "the directory %s does not exist: create it, "
			 "or give %s another path", d, opt ? opt : "the file");
	else if (err == ENOTDIR)
		snprintf(fix, sizeof(fix), "a part of %s is not a directory: give %s another path",
			 d, opt ? opt : "the file");
	else
		fix[0] = '\0';
	cli_path_error(cmd, opt, path, "create", err, fix[0] ? fix : NULL);
}

int cli_check_output(const char *cmd, const char *opt, const char *path)
{
	char err[256];
	struct stat st;
	int ret = tw_outfile_check(path, err, sizeof(err));

	if (ret == 0)
		return TW_EXIT_OK;
	if (ret == -ENOENT || ret == -ENOTDIR) {	/* its directory is missing */
		cli_output_error(cmd, opt, path, -ret);
		return TW_EXIT_SYSTEM;
	}
	fprintf(stderr, "tierwise%s%s: %s %s: %s; nothing was written\n", cmd ? " " : "",
		cmd ? cmd : "", opt, path, err);
	if ((!cmd || !strcmp(cmd, "probe")) && stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		fprintf(stderr, "(%s names the file to write; to measure %s, give it as a target "
			"without %s)\n", opt, path, opt);
	/* the wrong kind of path (a device, a directory, a socket) is a usage error */
	return ret == -EINVAL || ret == -EISDIR || ret == -ELOOP ? TW_EXIT_USAGE : TW_EXIT_SYSTEM;
}

int cli_check_sysroot(const char *cmd, const char *sysroot)
{
	struct stat st;
	int err;

	if (!sysroot)
		return TW_EXIT_OK;
	if (stat(sysroot, &st) < 0)
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else
		return TW_EXIT_OK;
	cli_path_error(cmd, "--sysroot", sysroot, "read", err,
		       "give a directory holding a machine's sys/, proc/ and dev/, "
		       "as scripts/record-sysroot.sh records them");
	return TW_EXIT_SYSTEM;
}

int cli_output_open(struct cli_output *o, const char *cmd, const char *path)
{
	char err[256];
	int ret;

	memset(o, 0, sizeof(*o));
	o->saved = -1;
	if (!path || !strcmp(path, "-"))
		return TW_EXIT_OK;
	ret = cli_check_output(cmd, "-o", path);
	if (ret)
		return ret;
	if (tw_outfile_open(&o->f, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise %s: -o %s: %s\n", cmd, path, err);
		return TW_EXIT_SYSTEM;
	}
	fflush(stdout);
	o->saved = dup(STDOUT_FILENO);
	if (o->saved < 0 || dup2(fileno(o->f.f), STDOUT_FILENO) < 0) {
		fprintf(stderr, "tierwise %s: -o %s: %s\n", cmd, path, strerror(errno));
		if (o->saved >= 0)
			close(o->saved);
		tw_outfile_abort(&o->f);
		return TW_EXIT_SYSTEM;
	}
	o->cmd = cmd;
	o->path = path;
	o->active = true;
	return TW_EXIT_OK;
}

int cli_output_close(struct cli_output *o, int rc)
{
	char err[256];
	bool bad;

	if (!o->active)
		return rc;
	errno = 0;
	bad = fflush(stdout) != 0 || ferror(stdout);
	snprintf(err, sizeof(err), "%s", strerror(errno ? errno : EIO));
	clearerr(stdout);
	dup2(o->saved, STDOUT_FILENO);
	close(o->saved);
	o->active = false;
	if (rc || bad) {
		tw_outfile_abort(&o->f);
		if (bad)
			fprintf(stderr, "tierwise %s: -o %s: %s (the file was not written)\n",
				o->cmd, o->path, err);
		return rc ? rc : TW_EXIT_SYSTEM;
	}
	if (tw_outfile_commit(&o->f, err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise %s: -o %s: %s (the file was not written)\n", o->cmd,
			o->path, err);
		return TW_EXIT_SYSTEM;
	}
	return rc;
}

int cli_write_rendered(const char *cmd, const char *path,
		       int (*render)(FILE *out, const void *arg), const void *arg)
{
	struct tw_outfile of;
	char err[256];
	int ret = tw_outfile_open(&of, path, err, sizeof(err));

	if (ret == 0) {
		errno = 0;
		ret = render(of.f, arg);
		if (ret == -EIO && fflush(of.f) != 0)	/* the write error itself: ENOSPC, EIO */
			ret = -errno;
		if (ret) {
			snprintf(err, sizeof(err), "%s", strerror(-ret));
			tw_outfile_abort(&of);
		} else {
			ret = tw_outfile_commit(&of, err, sizeof(err));
		}
	}
	if (!ret)
		return TW_EXIT_OK;
	fprintf(stderr, "tierwise %s: %s: %s\n", cmd, strcmp(path, "-") ? path : "stdout", err);
	return TW_EXIT_SYSTEM;
}
