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

#endif
