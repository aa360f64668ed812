/* Loading policies from files and directories, and checking a set. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_priv.h"
#include "tw_tier.h"

int model_policy_load_file(const char *path, struct model_policy **out,
			   struct tw_diags *diags)
{
	char *text;
	size_t len;
	int ret = profile_slurp(path, &text, &len);

	*out = NULL;
	if (ret < 0)
		return ret;
	ret = model_policy_parse(text, len, path, out, diags);
	free(text);
	return ret;
}

static int is_policy_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".yaml");
}

/* Byte order, whatever the locale. */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Returns 0, or -ENOMEM (the only error a diagnostic can add). */
static int add(struct tw_diags *d, const char *file, int line, int col,
	       const char *key, const char *msg, const char *arg)
{
	return tw_diags_add(d, file, line, col, key, "%s%s", msg, arg) < 0 ? -ENOMEM : 0;
}

/* Names must be unique: each later duplicate is reported at its name. */
static int check_names(const struct model_policy_set *s, struct tw_diags *d)
{
	int bad = 0;

	for (size_t j = 0; j < s->n; j++) {
		for (size_t i = 0; i < j; i++) {
			const struct model_policy *a = s->v[i], *b = s->v[j];

			if (strcmp(a->name, b->name))
				continue;
			if (tw_diags_add(d, b->file, b->line, b->col, "name",
					 "policy \"%s\" is already defined in %s (line %d)",
					 b->name, a->file, a->line) < 0)
				return -ENOMEM;
			bad = -EINVAL;
			break;
		}
	}
	return bad;
}

/* Every tier needs at least one policy. */
static int check_tiers(const struct model_policy_set *s, const char *dir,
		       struct tw_diags *d)
{
	const char *const *tiers = tw_tier_names;
	int bad = 0;

	for (size_t t = 0; t < TW_TIER_COUNT; t++) {
		size_t i = 0;

		while (i < s->n && strcmp(s->v[i]->tier, tiers[t]))
			i++;
		if (i < s->n)
			continue;
		if (tw_diags_add(d, dir, 0, 0, "tier",
				 "no policy maps to the %s tier (hot, warm and cold each "
				 "need at least one)", tiers[t]) < 0)
			return -ENOMEM;
		bad = -EINVAL;
	}
	return bad;
}

/* Load one file of dir into the set; returns 0, -EINVAL or -errno. */
static int load_one(const char *dir, const char *name, struct model_policy_set *s,
		    struct tw_diags *d)
{
	struct model_policy *p;
	char *path;
	int ret;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	ret = model_policy_load_file(path, &p, d);
	if (ret == 0)
		s->v[s->n++] = p;
	else if (ret != -EINVAL && ret != -ENOMEM &&
		 add(d, path, 0, 0, NULL, "cannot read: ", strerror(-ret)) < 0)
		ret = -ENOMEM;
	free(path);
	return ret;
}

/* Load every listed file; the worst result wins (-ENOMEM, -errno, -EINVAL). */
static int load_all(const char *dir, struct dirent **names, int n,
		    struct model_policy_set *s, struct tw_diags *d)
{
	int ret = 0;

	for (int i = 0; i < n && ret != -ENOMEM; i++) {
		int r = load_one(dir, names[i]->d_name, s, d);

		if (r == -ENOMEM || (r < 0 && (ret == 0 || ret == -EINVAL)))
			ret = r;
	}
	return ret;
}

/*
 * Check a loaded set (loaded: load_all's result).  The tier check runs only
 * when every file loaded: a broken file may hold the missing tier.
 */
static int check_set(const struct model_policy_set *s, const char *dir, int loaded,
		     struct tw_diags *d)
{
	int names, tiers = 0;

	if (loaded != 0 && loaded != -EINVAL)
		return loaded;
	if ((names = check_names(s, d)) == -ENOMEM)
		return names;
	if (loaded == 0 && (tiers = check_tiers(s, dir, d)) == -ENOMEM)
		return tiers;
	return loaded ? loaded : names ? names : tiers;
}

static struct model_policy_set *set_new(size_t n)
{
	struct model_policy_set *s = calloc(1, sizeof(*s));

	if (s && n && !(s->v = calloc(n, sizeof(*s->v)))) {
		free(s);
		return NULL;
	}
	return s;
}

int model_policy_load_dir(const char *dir, struct model_policy_set **out,
			  struct tw_diags *diags)
{
	struct model_policy_set *s;
	struct dirent **names;
	int n, ret;

	*out = NULL;
	if ((n = scandir(dir, &names, is_policy_file, by_name)) < 0) {
		ret = -errno;
		return tw_diags_add(diags, dir, 0, 0, NULL, "cannot read the policy "
				    "directory: %s (--policies DIR names a directory of "
				    "policy .yaml files)", strerror(-ret)) < 0 ? -ENOMEM : ret;
	}
	s = set_new((size_t)n);
	ret = s ? check_set(s, dir, load_all(dir, names, n, s, diags), diags) : -ENOMEM;
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (ret < 0) {
		model_policy_set_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

const struct model_policy *model_policy_set_find(const struct model_policy_set *set,
						 const char *name)
{
	if (!set || !name)
		return NULL;
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->v[i]->name, name))
			return set->v[i];
	return NULL;
}

void model_policy_set_free(struct model_policy_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		model_policy_free(set->v[i]);
	free(set->v);
	free(set);
}

/* Parse one text into the set; returns 0, -EINVAL or -ENOMEM. */
static int load_text(const struct model_policy_text *t, const char *origin,
		     struct model_policy_set *s, struct tw_diags *d)
{
	struct model_policy *p;
	char *label;
	int ret;

	if (asprintf(&label, "%s/%s", origin, t->name) < 0)
		return -ENOMEM;
	ret = model_policy_parse(t->text, t->len, label, &p, d);
	if (ret == 0)
		s->v[s->n++] = p;
	free(label);
	return ret;
}

int model_policy_load_texts(const struct model_policy_text *t, size_t n,
			    const char *origin, struct model_policy_set **out,
			    struct tw_diags *diags)
{
	struct model_policy_set *s = set_new(n);
	int ret = 0;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n && ret != -ENOMEM; i++) {
		int r = load_text(&t[i], origin, s, diags);

		if (r < 0 && ret == 0)
			ret = r;
		else if (r == -ENOMEM)
			ret = r;
	}
	ret = check_set(s, origin, ret, diags);
	if (ret < 0) {
		model_policy_set_free(s);
		return ret;
	}
	*out = s;
	return 0;
}
