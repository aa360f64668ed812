/* fio_import.h — fio's JSON output (--output-format=json or json+) into a
 * tierwise.profile/1.
 *
 * Each fio job is mapped to the profile's tests by rw, bs, iodepth and
 * numjobs (docs/profile-schema.md, "Imported from fio"); one device per fio
 * `filename`.  A job that maps to no test is kept as a note on its device
 * and listed in the result, never dropped silently.  Never prints.
 */
#ifndef TW_FIO_IMPORT_H
#define TW_FIO_IMPORT_H

#include <stddef.h>

#include "profile.h"
#include "tw_diag.h"

/* What an import did, for the command to say. */
struct fio_import_result {
	size_t n_jobs;		/* fio jobs read (numjobs entries of one job count once) */
	size_t n_mapped;	/* of them, mapped to at least one test */
	size_t n_unmapped;
	char **unmapped;	/* "FILE: job \"x\" (rw=… bs=… iodepth=… numjobs=…): why" */
	char *fio_version;	/* the first file's "fio version", NULL = none read */
};

/*
 * Read fio's JSON output text[0..len) (name labels diagnostics and notes)
 * and add its devices and their figures to p: a device whose id p already
 * has (an earlier file) gets the figures it lacks.  Text before the JSON
 * (fio's warnings on the same stream) is skipped.  Returns 0; -EINVAL with
 * every problem in diags as name:line:column and the key (p may then hold
 * part of the file); -ENOMEM.  res accumulates over calls; free it with
 * fio_import_result_free().
 */
int fio_import_string(struct profile *p, const char *text, size_t len, const char *name,
		      struct fio_import_result *res, struct tw_diags *diags);

/* fio_import_string() on the contents of path; -errno when unreadable. */
int fio_import_file(struct profile *p, const char *path, struct fio_import_result *res,
		    struct tw_diags *diags);

/* Free what res holds; it is empty and reusable afterwards.  NULL-safe. */
void fio_import_result_free(struct fio_import_result *res);

/*
 * fio's size strings as it reads them for bs: "4k", "1M", "64KiB", "4096"
 * (k, m, g, t = powers of 1024, fio's default kb_base).  Returns the bytes,
 * or -1 when s is no single size (a range "4k-64k", a list "4k,8k" takes
 * its first).
 */
long fio_parse_size(const char *s);

#endif
