#include "tw_diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int tw_diags_add(struct tw_diags *d, const char *file, int line, int col,
		 const char *key, const char *fmt, ...)
{
	struct tw_diag g = { .line = line, .col = col };
	va_list ap;

	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 8;
		struct tw_diag *v = realloc(d->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		d->v = v;
		d->cap = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&g.msg, fmt, ap) < 0)
		g.msg = NULL;
	va_end(ap);
	g.file = dup_or_null(file);
	g.key = dup_or_null(key);
	if (!g.msg || (file && !g.file) || (key && !g.key)) {
		free(g.msg);
		free(g.file);
		free(g.key);
		return -ENOMEM;
	}
	d->v[d->n++] = g;
	return 0;
}

void tw_diags_clear(struct tw_diags *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].key);
		free(d->v[i].msg);
	}
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}

void tw_diag_format(const struct tw_diag *g, char *buf, size_t len)
{
	int off = 0;

	off = snprintf(buf, len, "%s", g->file ? g->file : "-");
	if (off >= 0 && (size_t)off < len && g->line > 0)
		off += snprintf(buf + off, len - off, ":%d:%d", g->line, g->col);
	if (off >= 0 && (size_t)off < len)
		snprintf(buf + off, len - off, ": %s%s%s", g->key ? g->key : "",
			 g->key ? ": " : "", g->msg);
}
