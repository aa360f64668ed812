/* policy_priv.h — private to the policy sources of model/.
 *
 * policy_yaml.c turns YAML text into a small bounded tree (no anchors, no
 * aliases, limited depth and size); policy.c decodes and validates the tree
 * with the key tables of policy_keys.c, checking each value with
 * policy_values.c; policy_load.c reads files and directories.
 */
#ifndef TW_POLICY_PRIV_H
#define TW_POLICY_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

#define POLICY_MAX_BYTES (1u << 20)	/* a policy file is a few hundred bytes */
#define POLICY_MAX_DEPTH 16		/* the format needs 3 levels */
#define POLICY_MAX_NODES 10000
#define POLICY_MAX_DIAGS 50		/* per file; then one "too many" line */

/* ---- the YAML tree (policy_yaml.c) ---- */

enum pnode_kind { PN_SCALAR, PN_SEQ, PN_MAP };

struct pnode {
	enum pnode_kind kind;
	int line, col;		/* 1-based, from libyaml's start mark */
	bool plain;		/* scalar written without quotes */
	char *text;		/* scalar: NUL-terminated value */
	size_t n, cap;
	struct pnode **kids;	/* seq: items; map: key, value, key, value, … */
};

/*
 * Parse text into a tree of one document.  Returns 0 with *root set (NULL
 * for an empty stream), -EINVAL with one diagnostic (syntax error, alias,
 * anchor, tag, too deep, too big, several documents), or -ENOMEM.
 * Free the tree with pnode_free().
 */
int policy_yaml_load(const char *text, size_t len, const char *file,
		     struct pnode **root, struct tw_diags *d);

/* Free a tree (recursion bounded by POLICY_MAX_DEPTH).  NULL-safe. */
void pnode_free(struct pnode *n);

/* ---- the key tables (policy_keys.c) ---- */

enum pk_kind {
	PK_NAME,	/* char *: letters, digits, '-', '_', '.' */
	PK_TEXT,	/* char *: any string */
	PK_TIER,	/* const char *: "hot", "warm", "cold" */
	PK_METRIC,	/* const struct model_metric_desc *: a metric path */
	PK_BETTER,	/* enum model_better */
	PK_POS,		/* double > 0 */
	PK_WEIGHT,	/* double >= 0 */
	PK_TEMP,	/* double in [-50, 200] °C */
	PK_COUNT,	/* double: whole number >= 1 */
	PK_SHARE,	/* double in (0, 1] */
	PK_PERCENT,	/* long: whole number >= 0 */
	PK_SIZE,	/* int64_t > 0: bytes or "500G", "4T", "512Gi" */
	PK_BOOL,	/* bool */
	PK_OPTBOOL,	/* int: 1, 0 (-1 = not given) */
	PK_MEDIA,	/* unsigned: list of profile media names, as a bit set */
	PK_PATTERN,	/* enum model_pattern */
	PK_VIA,		/* enum model_via */
	PK_MADVISE,	/* bool: "random" = true, "normal" = false */
	PK_REDUNDANCY,	/* enum model_redundancy: "none", "preferred", "required" */
	PK_METRICS,	/* list of metric maps (into struct model_policy) */
	PK_CONSTRAINTS,	/* map (into struct model_policy) */
	PK_ESTIMATES,	/* list of estimate maps (into struct model_policy) */
};

struct pk_field {
	struct model_policy_key doc;	/* first: model_policy_key_at() points here */
	enum pk_kind kind;
	size_t off;			/* in the table's struct */
};

struct pk_table {
	const struct pk_field *f;
	size_t n;		/* at most PK_MAX_FIELDS */
};

#define PK_MAX_FIELDS 16

/* The policy (struct model_policy), one metrics[] entry, constraints, and
 * one table per estimate pattern (indexed by enum model_pattern). */
extern const struct pk_table pk_policy, pk_metric, pk_constraints,
	pk_estimate[MODEL_PAT_COUNT];
extern const char *const pk_tier_names[], *const pk_better_names[],
	*const pk_pattern_names[], *const pk_via_names[], *const pk_madvise_names[],
	*const pk_redundancy_names[];

/* ---- checking values (policy_values.c) ---- */

#define PATH_LEN 256	/* dotted key paths: "metrics[0].good" */

/* The decoding context: where problems go and the result so far. */
struct pctx {
	const char *file;
	struct tw_diags *d;
	int err;		/* -EINVAL once a problem is seen; -ENOMEM wins */
	unsigned n_bad;		/* problems seen; only POLICY_MAX_DIAGS are kept */
};

/* Record a problem at node at (NULL: line 1, column 1) under key path. */
void policy_bad(struct pctx *c, const struct pnode *at, const char *path,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Note an allocation failure. */
void policy_nomem(struct pctx *c);

/* path + "." + key, and path + "[i]", into out (PATH_LEN; long paths are cut). */
void policy_child_path(char *out, const char *path, const char *key);
void policy_index_path(char *out, const char *path, size_t i);

/* Whether n is a null scalar (empty, ~ or null, unquoted). */
bool policy_is_null(const struct pnode *n);

/* What n is, for messages: "a list", "a number (20)", "a string (\"x\")". */
const char *policy_describe(const struct pnode *n, char *buf, size_t len);

/*
 * Value checkers: each returns true and stores the value in *out when n is
 * valid, else records one problem at n under path and returns false.
 * Quoted scalars are strings; unquoted ones may be null, true/false or a
 * decimal number.
 */
bool policy_want_kind(struct pctx *c, const struct pnode *n, const char *path,
		      enum pnode_kind kind, const char *what);
bool policy_want_string(struct pctx *c, const struct pnode *n, const char *path);
bool policy_want_text(struct pctx *c, const struct pnode *n, const char *path,
		      char **out);	/* a malloc'd copy */
bool policy_want_name(struct pctx *c, const struct pnode *n, const char *path);
bool policy_want_number(struct pctx *c, const struct pnode *n, const char *path,
			double *out);
bool policy_want_pos(struct pctx *c, const struct pnode *n, const char *path,
		     double *out);	/* > 0 */
bool policy_want_weight(struct pctx *c, const struct pnode *n, const char *path,
			double *out);	/* >= 0 */
bool policy_want_temp(struct pctx *c, const struct pnode *n, const char *path,
		      double *out);	/* [-50, 200] */
bool policy_want_whole(struct pctx *c, const struct pnode *n, const char *path,
		       double lo, double hi, double *out);
bool policy_want_bool(struct pctx *c, const struct pnode *n, const char *path,
		      bool *out);
bool policy_want_size(struct pctx *c, const struct pnode *n, const char *path,
		      int64_t *out);
/* one of names (NULL-terminated); messages list them all */
bool policy_want_enum(struct pctx *c, const struct pnode *n, const char *path,
		      const char *what, const char *const *names, int *out);
bool policy_want_metric(struct pctx *c, const struct pnode *n, const char *path,
			const struct model_metric_desc **out);
bool policy_want_media(struct pctx *c, const struct pnode *n, const char *path,
		       unsigned *out);

/* ---- the built-in policies (generated policy_builtin_data.c) ---- */

/* One policy text: a file name of policies/ and its NUL-terminated bytes. */
struct model_policy_text {
	const char *name;
	const char *text;
	size_t len;		/* without the NUL */
};

extern const struct model_policy_text model_builtin_policies[];
extern const size_t model_builtin_policies_n;

/*
 * Parse the n texts, labelled "ORIGIN/NAME" in diagnostics, into a set and
 * check it as model_policy_load_dir() does.  Same returns and ownership.
 */
int model_policy_load_texts(const struct model_policy_text *t, size_t n,
			    const char *origin, struct model_policy_set **out,
			    struct tw_diags *diags);

#endif
