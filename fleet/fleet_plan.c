/* fleet_plan.c — what the fleet keeps of a tierwise.plan/1 file: the devices
 * of each tier, the warnings, the score. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fleet.h"


void fleet_plan_free(struct fleet_plan *p)
{
	if (!p)
		return;
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		for (size_t i = 0; i < p->n_tier[t]; i++)
			free(p->tier[t][i]);
		free(p->tier[t]);
	}
	for (size_t i = 0; i < p->n_warnings; i++) {
		free(p->warnings[i].device);
		free(p->warnings[i].kind);
		free(p->warnings[i].message);
	}
	free(p->warnings);
	free(p->path);
	free(p);
}

const char *fleet_plan_tier_of(const struct fleet_plan *p, const char *id)
{
	for (int t = 0; p && id && t < TW_TIER_COUNT; t++)
		for (size_t i = 0; i < p->n_tier[t]; i++)
			if (!strcmp(p->tier[t][i], id))
				return tw_tier_names[t];
	return NULL;
}

char *fleet_plan_path_for(const char *profile_path)
{
	size_t n = strlen(profile_path);
	char *out = malloc(n + sizeof(".plan.json"));

	if (!out)
		return NULL;
	if (n > 5 && !strcmp(profile_path + n - 5, ".json"))
		n -= 5;
	memcpy(out, profile_path, n);
	strcpy(out + n, ".plan.json");
	return out;
}

/* A copy of string v, NULL for null/absent.  -EINVAL when not a string. */
static int opt_str(json_t *v, char **out)
{
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -EINVAL;
	return (*out = strdup(json_string_value(v))) ? 0 : -ENOMEM;
}

static int read_tier(struct fleet_plan *p, json_t *tier, char *err, size_t len)
{
	const char *name = json_string_value(json_object_get(tier, "name"));
	json_t *devs = json_object_get(tier, "devices"), *v;
	int t = tw_tier_find(name);
	size_t i;

	if (t < 0 || !json_is_array(devs) || p->n_tier[t]) {
		snprintf(err, len, "tiers: a tier needs a name (hot, warm, cold; once each) "
			 "and a devices array");
		return -EINVAL;
	}
	if (!(p->tier[t] = calloc(json_array_size(devs) + 1, sizeof(char *))))
		return -ENOMEM;
	json_array_foreach(devs, i, v) {
		if (!json_is_string(v)) {
			snprintf(err, len, "tiers.%s.devices[%zu]: not a string", name, i);
			return -EINVAL;
		}
		if (!(p->tier[t][p->n_tier[t]] = strdup(json_string_value(v))))
			return -ENOMEM;
		p->n_tier[t]++;
	}
	return 0;
}

static int read_warnings(struct fleet_plan *p, json_t *a, char *err, size_t len)
{
	json_t *w;
	size_t i;
	int ret;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a) ||
	    !(p->warnings = calloc(json_array_size(a) + 1, sizeof(*p->warnings)))) {
		snprintf(err, len, "warnings: not an array");
		return json_is_array(a) ? -ENOMEM : -EINVAL;
	}
	json_array_foreach(a, i, w) {
		struct fleet_warning *fw = &p->warnings[p->n_warnings++];

		if ((ret = opt_str(json_object_get(w, "device"), &fw->device)) ||
		    (ret = opt_str(json_object_get(w, "kind"), &fw->kind)) ||
		    (ret = opt_str(json_object_get(w, "message"), &fw->message)) ||
		    (!fw->kind && (ret = -EINVAL))) {
			if (ret == -EINVAL)
				snprintf(err, len, "warnings[%zu]: kind, device and message "
					 "are strings (kind required)", i);
			return ret;
		}
	}
	return 0;
}

/* Fill p from the parsed document root.  Returns 0, -EINVAL (err), -ENOMEM. */
static int read_root(struct fleet_plan *p, json_t *root, char *err, size_t len)
{
	json_t *tiers = json_object_get(root, "tiers"), *un = json_object_get(root, "unassigned");
	json_t *score = json_object_get(root, "score"), *t;
	const char *schema = json_string_value(json_object_get(root, "schema"));
	size_t i;
	int ret;

	if (!schema || strcmp(schema, "tierwise.plan/1")) {
		snprintf(err, len, "schema: not a tierwise.plan/1 document");
		return -EINVAL;
	}
	if (!json_is_array(tiers)) {
		snprintf(err, len, "tiers: missing or not an array");
		return -EINVAL;
	}
	json_array_foreach(tiers, i, t)
		if ((ret = read_tier(p, t, err, len)))
			return ret;
	p->n_unassigned = json_is_array(un) ? json_array_size(un) : 0;
	p->score = json_is_number(score) ? json_number_value(score) : NAN;
	return read_warnings(p, json_object_get(root, "warnings"), err, len);
}

int fleet_plan_read(const char *path, struct fleet_plan **out, char *err, size_t len)
{
	struct fleet_plan *p = calloc(1, sizeof(*p));
	json_error_t je;
	json_t *root;
	char *text;
	size_t tlen;
	int ret;

	*out = NULL;
	if (!p || !(p->path = strdup(path))) {
		free(p);
		return -ENOMEM;
	}
	ret = profile_slurp(path, &text, &tlen);	/* one read: jansson's file loader reads by getc */
	if (ret) {
		snprintf(err, len, "cannot read it");
		fleet_plan_free(p);
		return -ENOENT;
	}
	root = json_loadb(text, tlen, 0, &je);
	free(text);
	if (!root) {
		snprintf(err, len, "%d:%d: %s", je.line, je.column, je.text);
		fleet_plan_free(p);
		return -EINVAL;
	}
	ret = read_root(p, root, err, len);
	json_decref(root);
	if (ret) {
		fleet_plan_free(p);
		return ret;
	}
	*out = p;
	return 0;
}
