#include "tw_jsonpos.h"
#include "tw_diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 2048

struct ent {
	char *path;
	int line, col;
};

struct tw_jsonpos {
	size_t n, cap;
	struct ent *v;
};

struct scan {
	const char *s;
	size_t len, i;
	int line, col;
	bool oom;
	struct tw_jsonpos *ix;
};

static int peek(const struct scan *sc)
{
	return sc->i < sc->len ? (unsigned char)sc->s[sc->i] : -1;
}

static void advance(struct scan *sc)
{
	if (sc->i >= sc->len)
		return;
	if (sc->s[sc->i] == '\n') {
		sc->line++;
		sc->col = 1;
	} else if (((unsigned char)sc->s[sc->i] & 0xc0) != 0x80) {
		sc->col++;	/* count characters, not UTF-8 continuation bytes */
	}
	sc->i++;
}

static void skip_ws(struct scan *sc)
{
	while (peek(sc) == ' ' || peek(sc) == '\t' || peek(sc) == '\n' ||
	       peek(sc) == '\r')
		advance(sc);
}

static void record(struct scan *sc, const char *path)
{
	struct tw_jsonpos *ix = sc->ix;

	if (ix->n == ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 64;
		struct ent *v = realloc(ix->v, cap * sizeof(*v));

		if (!v) {
			sc->oom = true;
			return;
		}
		ix->v = v;
		ix->cap = cap;
	}
	ix->v[ix->n].path = strdup(path);
	if (!ix->v[ix->n].path) {
		sc->oom = true;
		return;
	}
	ix->v[ix->n].line = sc->line;
	ix->v[ix->n].col = sc->col;
	ix->n++;
}

/* Scan a string literal; copy its raw contents into out (if non-NULL). */
static bool scan_string(struct scan *sc, char *out, size_t outlen)
{
	size_t o = 0;

	advance(sc); /* opening quote */
	while (peek(sc) >= 0 && peek(sc) != '"') {
		int c = peek(sc);

		if (c == '\\') {
			advance(sc);
			c = peek(sc);
		}
		if (out && o + 1 < outlen)
			out[o++] = (char)c;
		advance(sc);
	}
	if (out)
		out[o] = '\0';
	if (peek(sc) != '"')
		return false;
	advance(sc);
	return true;
}

static bool scan_value(struct scan *sc, const char *path, int depth);

/*
 * One member of an object or array: its value at path child (freed here),
 * then ',' (returns 1: another follows) or the closing character close
 * (returns 0: the end); -1 on a scan error.
 */
static int scan_member(struct scan *sc, char *child, int depth, int close)
{
	bool ok = scan_value(sc, child, depth + 1);

	free(child);
	if (!ok)
		return -1;
	skip_ws(sc);
	if (peek(sc) == ',') {
		advance(sc);
		return 1;
	}
	if (peek(sc) != close)
		return -1;
	advance(sc);
	return 0;
}

static bool scan_object(struct scan *sc, const char *path, int depth)
{
	char key[256], *child;

	advance(sc);
	skip_ws(sc);
	if (peek(sc) == '}') {
		advance(sc);
		return true;
	}
	for (;;) {
		skip_ws(sc);
		if (peek(sc) != '"' || !scan_string(sc, key, sizeof(key)))
			return false;
		skip_ws(sc);
		if (peek(sc) != ':')
			return false;
		advance(sc);
		if (asprintf(&child, "%s%s%s", path, *path ? "." : "", key) < 0) {
			sc->oom = true;
			return false;
		}
		int more = scan_member(sc, child, depth, '}');

		if (more <= 0)
			return more == 0;
	}
}

static bool scan_array(struct scan *sc, const char *path, int depth)
{
	char *child;

	advance(sc);
	skip_ws(sc);
	if (peek(sc) == ']') {
		advance(sc);
		return true;
	}
	for (long idx = 0;; idx++) {
		if (asprintf(&child, "%s[%ld]", path, idx) < 0) {
			sc->oom = true;
			return false;
		}
		int more = scan_member(sc, child, depth, ']');

		if (more <= 0)
			return more == 0;
	}
}

static bool scan_value(struct scan *sc, const char *path, int depth)
{
	int c;

	if (depth > MAX_DEPTH)
		return false;
	skip_ws(sc);
	record(sc, path);
	if (sc->oom)
		return false;
	c = peek(sc);
	if (c == '{')
		return scan_object(sc, path, depth);
	if (c == '[')
		return scan_array(sc, path, depth);
	if (c == '"')
		return scan_string(sc, NULL, 0);
	if (c < 0)
		return false;
	/* number, true, false, null: up to the next delimiter */
	while (peek(sc) >= 0 && !strchr(",]} \t\r\n", peek(sc)))
		advance(sc);
	return true;
}

struct tw_jsonpos *tw_jsonpos_build(const char *text, size_t len)
{
	struct tw_jsonpos *ix = calloc(1, sizeof(*ix));
	struct scan sc = { .s = text, .len = len, .line = 1, .col = 1, .ix = ix };

	if (!ix)
		return NULL;
	scan_value(&sc, "", 0);
	if (sc.oom) {
		tw_jsonpos_free(ix);
		return NULL;
	}
	return ix;
}

static const struct ent *lookup(const struct tw_jsonpos *ix, const char *path,
				size_t plen)
{
	for (size_t i = 0; i < ix->n; i++)
		if (strlen(ix->v[i].path) == plen &&
		    !strncmp(ix->v[i].path, path, plen))
			return &ix->v[i];
	return NULL;
}

int tw_jsonpos_find(const struct tw_jsonpos *ix, const char *path, int *line,
		    int *col)
{
	size_t plen = strlen(path);

	if (!ix)
		return -ENOENT;
	for (;;) {
		const struct ent *e = lookup(ix, path, plen);

		if (e) {
			*line = e->line;
			*col = e->col;
			return 0;
		}
		if (plen == 0)
			return -ENOENT;
		/* strip the last ".key" or "[n]" */
		while (plen > 0 && path[plen - 1] != '.' && path[plen - 1] != '[')
			plen--;
		if (plen > 0)
			plen--;
	}
}

void tw_jsonpos_free(struct tw_jsonpos *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->n; i++)
		free(ix->v[i].path);
	free(ix->v);
	free(ix);
}

void tw_jsondoc_bad(struct tw_jsondoc *doc, const char *path, const char *fmt, ...)
{
	char msg[512];
	int line = 0, col = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!doc->ix)
		doc->ix = tw_jsonpos_build(doc->text, doc->len);
	if (doc->ix && tw_jsonpos_find(doc->ix, path, &line, &col) == 0)
		line += doc->line_off;
	if (tw_diags_add(doc->d, doc->name, line, col, path, "%s", msg) < 0)
		doc->err = -ENOMEM;
	else if (!doc->err)
		doc->err = -EINVAL;
}

void tw_json_child(char *out, size_t len, const char *path, const char *key)
{
	if (len && snprintf(out, len, "%s%s%s", path, *path ? "." : "", key) >= (int)len)
		out[len - 1] = '\0';
}
