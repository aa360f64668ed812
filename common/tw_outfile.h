/* tw_outfile.h — output files that never destroy anything.
 *
 * Every file tierwise writes goes through here.  A path is accepted only when
 * it is "-" (standard output), /dev/stdout or /dev/stderr by name, a regular
 * file, or does not exist yet (in an existing directory): never a block or
 * character device, a directory, a socket or a FIFO.  Files are written
 * atomically: a temporary file in the same directory, fsync, rename; a
 * failed or abandoned write leaves the previous file as it was.  While a
 * temporary file exists, SIGINT, SIGTERM, SIGHUP and SIGQUIT are held back,
 * so a signal cannot leave it behind (it is delivered after the rename or
 * the removal).
 */
#ifndef TW_OUTFILE_H
#define TW_OUTFILE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

struct tw_outfile {
	FILE *f;		/* write here between open and commit/abort */
	char *path;		/* the final path (symbolic links resolved) */
	char *tmp;		/* the temporary file; NULL for a standard stream */
	bool std;		/* f is stdout or stderr */
	sigset_t saved;		/* the signal mask before open */
};

/*
 * Check that path may be written as an output file (see above), naming what
 * it is when it may not: "/dev/loop0 is a block device".  Nothing is created;
 * NULL (no file asked for) passes.
 * Returns 0, or -EINVAL (a device, socket, FIFO or other special file),
 * -EISDIR, -ENOENT (the directory does not exist), -ELOOP, or another -errno
 * from stat; err then holds the reason (without the path).
 */
int tw_outfile_check(const char *path, char *err, size_t len);

/*
 * Open path for writing: checks it (tw_outfile_check), then creates a
 * temporary file beside it (mode 0666 & ~umask, or the mode of the file it
 * will replace).  Returns 0, or -errno with err set; nothing is created then.
 * On success, finish with tw_outfile_commit() or tw_outfile_abort().
 */
int tw_outfile_open(struct tw_outfile *o, const char *path, char *err, size_t len);

/*
 * Flush, check for write errors, fsync and rename the temporary file over the
 * final path (the path is checked once more just before).  Returns 0, or
 * -errno with err set (e.g. -ENOSPC) — the temporary file is then removed and
 * the previous file is unchanged.  o is released either way.
 */
int tw_outfile_commit(struct tw_outfile *o, char *err, size_t len);

/* Remove the temporary file and release o; the previous file is unchanged. */
void tw_outfile_abort(struct tw_outfile *o);

/*
 * Write the string s to path atomically ("-" = stdout).  Returns 0 or -errno
 * with err set.
 */
int tw_outfile_write_string(const char *path, const char *s, char *err, size_t len);

#endif
