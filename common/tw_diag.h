/* tw_diag.h — diagnostics that libraries hand back to the command.
 *
 * Libraries never print: they append problems to a caller-owned list and
 * return -errno.  The CLI prints them as "FILE:LINE:COLUMN: key: message".
 */
#ifndef TW_DIAG_H
#define TW_DIAG_H

#include <stddef.h>

struct tw_diag {
	char *file;	/* may be NULL */
	int line, col;	/* 1-based; 0 = unknown */
	char *key;	/* dotted path of the offending key, may be NULL */
	char *msg;
};

struct tw_diags {
	size_t n, cap;
	struct tw_diag *v;
};

/*
 * Append one diagnostic (printf-style message).  Strings are copied.
 * Returns 0, or -ENOMEM (the list is left unaltered).
 */
int tw_diags_add(struct tw_diags *d, const char *file, int line, int col,
		 const char *key, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Free every entry; the list is empty and reusable afterwards.  NULL-safe. */
void tw_diags_clear(struct tw_diags *d);

/* Format entry i as "file:line:col: key: msg" into buf (truncating). */
void tw_diag_format(const struct tw_diag *g, char *buf, size_t len);

#endif
