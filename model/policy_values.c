/* Checking policy values: scalar types, numbers, sizes, names, enums, metric
 * paths and media, each with a message at the value's line:column. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_priv.h"
#include "tw_size.h"
#include "tw_util.h"

void policy_bad(struct pctx *c, const struct pnode *at, const char *path,
		const char *fmt, ...)
{
	char msg[512];
	int line = at ? at->line : 1, col = at ? at->col : 1;
	va_list ap;

	if (!c->err)
		c->err = -EINVAL;
	if (c->n_bad++ > POLICY_MAX_DIAGS)
		return;
	if (c->n_bad > POLICY_MAX_DIAGS)
		snprintf(msg, sizeof(msg), "too many problems; the rest are not reported");
	else {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
	}
	if (tw_diags_add(c->d, c->file, line, col, path && *path ? path : NULL,
			 "%s", msg) < 0)
		c->err = -ENOMEM;
}

void policy_nomem(struct pctx *c)
{
	c->err = -ENOMEM;
}

/* path + "." + key into out; an over-long path is cut. */
void policy_child_path(char *out, const char *path, const char *key)
{
	if (snprintf(out, PATH_LEN, "%s%s%s", path, *path ? "." : "", key) >= PATH_LEN)
		out[PATH_LEN - 1] = '\0';
}

void policy_index_path(char *out, const char *path, size_t i)
{
	if (snprintf(out, PATH_LEN, "%s[%zu]", path, i) >= PATH_LEN)
		out[PATH_LEN - 1] = '\0';
}

/* ---- scalars ---- */

enum sclass { SC_NULL, SC_BOOL, SC_NUMBER, SC_STRING };

/* A decimal number: [-+]? (digits [. digits*] | . digits) ([eE] [-+]? digits)? */
static bool is_number(const char *s)
{
	size_t before = 0, after = 0;

	if (*s == '-' || *s == '+')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		before++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			after++;
	if (!before && !after)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			s++;
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return *s == '\0';
}

/* Quoted scalars are strings; plain ones may be null, a boolean or a number. */
static enum sclass classify(const struct pnode *n)
{
	const char *t = n->text;

	if (!n->plain)
		return SC_STRING;
	if (!*t || !strcmp(t, "~") || !strcmp(t, "null"))
		return SC_NULL;
	if (!strcmp(t, "true") || !strcmp(t, "false"))
		return SC_BOOL;
	return is_number(t) ? SC_NUMBER : SC_STRING;
}

bool policy_is_null(const struct pnode *n)
{
	return n->kind == PN_SCALAR && classify(n) == SC_NULL;
}

/* What n is, for messages: "a list", "a number (20)", "a string (\"20 ms\")". */
const char *policy_describe(const struct pnode *n, char *buf, size_t len)
{
	if (n->kind != PN_SCALAR)
		return n->kind == PN_SEQ ? "a list" : "a map";
	switch (classify(n)) {
	case SC_NULL:
		return "null";
	case SC_BOOL:
		snprintf(buf, len, "a boolean (%s)", n->text);
		break;
	case SC_NUMBER:
		snprintf(buf, len, "a number (%.40s)", n->text);
		break;
	default:
		snprintf(buf, len, "a string (\"%.40s%s\")", n->text,
			 strlen(n->text) > 40 ? "…" : "");
		break;
	}
	return buf;
}

bool policy_want_kind(struct pctx *c, const struct pnode *n, const char *path,
		      enum pnode_kind kind, const char *what)
{
	char buf[80];

	if (n->kind == kind)
		return true;
	policy_bad(c, n, path, "must be %s, not %s", what,
		   policy_describe(n, buf, sizeof(buf)));
	return false;
}

bool policy_want_string(struct pctx *c, const struct pnode *n, const char *path)
{
	char buf[80];

	if (n->kind == PN_SCALAR && classify(n) == SC_STRING)
		return true;
	policy_bad(c, n, path, "must be a string, not %s%s",
		   policy_describe(n, buf, sizeof(buf)),
		   n->kind == PN_SCALAR ? "; quote it" : "");
	return false;
}

bool policy_want_number(struct pctx *c, const struct pnode *n, const char *path,
			double *out)
{
	char buf[80];

	if (n->kind != PN_SCALAR || classify(n) != SC_NUMBER) {
		policy_bad(c, n, path, "must be a number, not %s",
			   policy_describe(n, buf, sizeof(buf)));
		return false;
	}
	*out = strtod(n->text, NULL);
	if (!isfinite(*out)) {
		policy_bad(c, n, path, "%.40s is out of range", n->text);
		return false;
	}
	return true;
}

bool policy_want_bool(struct pctx *c, const struct pnode *n, const char *path,
		      bool *out)
{
	char buf[80];

	if (n->kind != PN_SCALAR || classify(n) != SC_BOOL) {
		policy_bad(c, n, path, "must be true or false, not %s",
			   policy_describe(n, buf, sizeof(buf)));
		return false;
	}
	*out = !strcmp(n->text, "true");
	return true;
}

/* A whole number in [lo, hi]. */
bool policy_want_whole(struct pctx *c, const struct pnode *n, const char *path,
		       double lo, double hi, double *out)
{
	if (!policy_want_number(c, n, path, out))
		return false;
	if (*out != floor(*out) || *out < lo || *out > hi) {
		policy_bad(c, n, path, "must be a whole number from %.0f to %.0f, not %s",
			   lo, hi, n->text);
		return false;
	}
	return true;
}

/* Index of s in a NULL-terminated names list, or -1. */
static int name_index(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* "a, b or c" from a NULL-terminated list. */
static const char *name_list(const char *const *names, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; names[i] && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s",
				!i ? "" : names[i + 1] ? ", " : " or ", names[i]);
	return buf;
}

bool policy_want_enum(struct pctx *c, const struct pnode *n, const char *path,
		      const char *what, const char *const *names, int *out)
{
	char list[128], buf[80];

	name_list(names, list, sizeof(list));
	if (n->kind != PN_SCALAR || classify(n) != SC_STRING) {
		/* not "quote it": a quoted number is no better a value */
		policy_bad(c, n, path, "must be %s, not %s", list,
			   policy_describe(n, buf, sizeof(buf)));
		return false;
	}
	if ((*out = name_index(names, n->text)) >= 0)
		return true;
	policy_bad(c, n, path, "unknown %s \"%.60s\" (expected %s)", what, n->text, list);
	return false;
}

/* ---- sizes: a number with a unit (tw_size.h), as on the command line ---- */

static bool parse_size(const char *s, double *out)
{
	uint64_t v;

	if (tw_size_parse(s, true, &v) < 0)
		return false;
	*out = (double)v;
	return true;
}

/* A size needs its unit: 500 could be bytes or gigabytes, so it is refused
 * (4096B says bytes); a string is read by tw_size_parse with the unit
 * required. */
bool policy_want_size(struct pctx *c, const struct pnode *n, const char *path,
		      int64_t *out)
{
	char buf[80];
	double x;

	if (n->kind == PN_SCALAR && classify(n) == SC_NUMBER) {
		if (!policy_want_number(c, n, path, &x))
			return false;
		if (x != 0) {	/* 0 is 0 in any unit: the range says why it is refused */
			policy_bad(c, n, path, "a size needs a unit, not a bare number (%.30s): "
				   "write %.30sG or %.30sT, or %.30sB for bytes (K M G T P = "
				   "powers of 1000, Ki Mi Gi Ti Pi = powers of 1024)",
				   n->text, n->text, n->text, n->text);
			return false;
		}
	} else if (n->kind != PN_SCALAR || classify(n) != SC_STRING ||
		   !parse_size(n->text, &x)) {
		policy_bad(c, n, path, "must be a size with a unit (500G, 4T, 512Gi, "
			   "4096B), not %s", policy_describe(n, buf, sizeof(buf)));
		return false;
	}
	if (x < 1 || x >= 9.2e18) {
		policy_bad(c, n, path, "must be from 1 byte to 9.2E, not %.40s", n->text);
		return false;
	}
	*out = (int64_t)llround(x);
	return true;
}

/* ---- names, tiers, metric paths, media ---- */

bool policy_want_name(struct pctx *c, const struct pnode *n, const char *path)
{
	const char *s = n->text;
	size_t len;

	if (!policy_want_string(c, n, path))
		return false;
	len = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.");
	if (len && len == strlen(s) && len <= 64 && isalnum((unsigned char)s[0]))
		return true;
	policy_bad(c, n, path, "\"%.60s\" is not a valid name (1 to 64 letters, "
		   "digits, '-', '_' or '.', starting with a letter or digit)", s);
	return false;
}

/* The metric paths closest to s (at most 3 edits away) as "a or b", or "". */
static const char *closest_metrics(const char *s, char *buf, size_t len)
{
	size_t best = 4, off = 0;

	for (size_t i = 0; i < model_metric_count(); i++) {
		size_t d = tw_edit_distance(s, model_metric_at(i)->path);

		best = d < best ? d : best;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < model_metric_count() && off < len; i++)
		if (tw_edit_distance(s, model_metric_at(i)->path) == best)
			off += snprintf(buf + off, len - off, "%s%s", off ? " or " : "",
					model_metric_at(i)->path);
	return buf;
}

bool policy_want_metric(struct pctx *c, const struct pnode *n, const char *path,
			const struct model_metric_desc **out)
{
	char near[160];

	if (!policy_want_string(c, n, path))
		return false;
	if ((*out = model_metric_find(n->text)))
		return true;
	if (*closest_metrics(n->text, near, sizeof(near)))
		policy_bad(c, n, path, "unknown metric \"%.60s\" (did you mean %s?)",
			   n->text, near);
	else
		policy_bad(c, n, path, "unknown metric \"%.60s\" (docs/policies.md lists them)",
			   n->text);
	return false;
}

static int media_index(const char *s)
{
	for (int m = 0; m < PROFILE_MEDIA_COUNT; m++)
		if (!strcmp(profile_media_name(m), s))
			return m;
	return -1;
}

bool policy_want_media(struct pctx *c, const struct pnode *n, const char *path,
		       unsigned *out)
{
	char p[PATH_LEN];
	int m;

	if (!policy_want_kind(c, n, path, PN_SEQ,
			      "a list of media (nand, 3dxpoint, hdd, ram, unknown)"))
		return false;
	if (!n->n) {
		policy_bad(c, n, path,
			   "must name at least one media (leave the key out to allow any)");
		return false;
	}
	*out = 0;
	for (size_t i = 0; i < n->n; i++) {
		policy_index_path(p, path, i);
		if (!policy_want_string(c, n->kids[i], p))
			continue;
		if ((m = media_index(n->kids[i]->text)) < 0)
			policy_bad(c, n->kids[i], p, "unknown media \"%.60s\" (expected "
				   "nand, 3dxpoint, hdd, ram or unknown)", n->kids[i]->text);
		else if (*out & (1u << m))
			policy_bad(c, n->kids[i], p, "%s is listed twice", n->kids[i]->text);
		else
			*out |= 1u << m;
	}
	return true;
}

/* ---- numbers with a range, and free text ---- */

bool policy_want_pos(struct pctx *c, const struct pnode *n, const char *path,
		     double *out)
{
	if (!policy_want_number(c, n, path, out))
		return false;
	if (*out > 0)
		return true;
	policy_bad(c, n, path, "must be greater than 0, not %g", *out);
	return false;
}

bool policy_want_weight(struct pctx *c, const struct pnode *n, const char *path,
			double *out)
{
	if (!policy_want_number(c, n, path, out))
		return false;
	if (*out >= 0)
		return true;
	policy_bad(c, n, path, "must not be negative (%g)", *out);
	return false;
}

bool policy_want_temp(struct pctx *c, const struct pnode *n, const char *path,
		      double *out)
{
	if (!policy_want_number(c, n, path, out))
		return false;
	if (*out >= -50 && *out <= 200)
		return true;
	policy_bad(c, n, path, "must be from -50 to 200 °C, not %g", *out);
	return false;
}

bool policy_want_text(struct pctx *c, const struct pnode *n, const char *path,
		      char **out)
{
	if (!policy_want_string(c, n, path))
		return false;
	if (!(*out = strdup(n->text)))
		policy_nomem(c);
	return *out != NULL;
}
