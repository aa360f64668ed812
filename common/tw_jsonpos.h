/* tw_jsonpos.h — where each value of a JSON text starts.
 *
 * jansson reports positions only for syntax errors.  To name the line and
 * column of a value that is well-formed but wrong (a negative IOPS figure),
 * the text is scanned once more and every value is indexed by its path:
 * "devices[3].results.seq_read.mbps".  The root value has the path "".
 */
#ifndef TW_JSONPOS_H
#define TW_JSONPOS_H

#include <stddef.h>

struct tw_jsonpos;

/*
 * Index every value of text[0..len).  Malformed text is indexed up to the
 * first error.  Returns the index (free with tw_jsonpos_free) or NULL on
 * allocation failure.
 */
struct tw_jsonpos *tw_jsonpos_build(const char *text, size_t len);

/*
 * Find the 1-based line and column where the value at path starts.  When
 * path is not indexed, its longest indexed prefix is used (the enclosing
 * object of a missing key).  Returns 0, or -ENOENT when nothing matches.
 */
int tw_jsonpos_find(const struct tw_jsonpos *ix, const char *path, int *line,
		    int *col);

/* Free the index.  NULL-safe. */
void tw_jsonpos_free(struct tw_jsonpos *ix);

struct tw_diags;

/* A JSON document being checked, and where its problems go. */
struct tw_jsondoc {
	const char *name;	/* the file, for messages */
	const char *text;	/* the document, for the position index */
	size_t len;
	int line_off;		/* lines of the file before text (0: none) */
	struct tw_jsonpos *ix;	/* built at the first problem: most files have
				 * none (free with tw_jsonpos_free) */
	struct tw_diags *d;
	int err;		/* first -errno seen (-EINVAL for invalid data) */
};

/*
 * Record a problem at path's position in doc (or its enclosing object's),
 * as "name:line:col: path: message" in doc->d; doc->err becomes -EINVAL
 * (-ENOMEM when the list cannot grow) unless already set.
 */
void tw_jsondoc_bad(struct tw_jsondoc *doc, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* path + "." + key (key alone at the root) into out[0..len); an over-long
 * path is cut. */
void tw_json_child(char *out, size_t len, const char *path, const char *key);

#endif
