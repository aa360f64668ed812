/* fleet_plan.c — what the fleet keeps of a tierwise.plan/1 file (read by the
 * advisor's advisor_plan_file_read()): the devices of each tier, the
 * warnings, the score. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "plan_file.h"

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

/* A copy of s, NULL for NULL.  Returns 0 or -ENOMEM. */
static int copy(const char *s, char **out)
{
	*out = NULL;
	return !s || (*out = strdup(s)) ? 0 : -ENOMEM;
}

/* What the fleet keeps of the file f. */
static int keep(struct fleet_plan *p, const struct advisor_plan_file *f)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_file_tier *ft = &f->tiers[t];

		if (!(p->tier[t] = calloc(ft->n_devices + 1, sizeof(char *))))
			return -ENOMEM;
		for (; p->n_tier[t] < ft->n_devices; p->n_tier[t]++)
			if (copy(ft->devices[p->n_tier[t]], &p->tier[t][p->n_tier[t]]))
				return -ENOMEM;
	}
	p->n_unassigned = f->n_unassigned;
	p->score = f->score;
	if (!(p->warnings = calloc(f->n_warnings + 1, sizeof(*p->warnings))))
		return -ENOMEM;
	for (size_t i = 0; i < f->n_warnings; i++) {
		const struct advisor_file_warning *w = &f->warnings[i];
		struct fleet_warning *fw = &p->warnings[p->n_warnings++];	/* freed with p */

		if (copy(w->device, &fw->device) || copy(w->kind, &fw->kind) ||
		    copy(w->message, &fw->message))
			return -ENOMEM;
	}
	return 0;
}

int fleet_plan_read(const char *path, struct fleet_plan **out, char *err, size_t len)
{
	struct fleet_plan *p = calloc(1, sizeof(*p));
	struct advisor_plan_file *f = NULL;
	int ret;

	*out = NULL;
	if (!p || !(p->path = strdup(path))) {
		free(p);
		return -ENOMEM;
	}
	ret = advisor_plan_file_read(path, NULL, &f, err, len);
	if (!ret)
		ret = keep(p, f);
	advisor_plan_file_free(f);
	if (ret) {
		fleet_plan_free(p);
		return ret;
	}
	*out = p;
	return 0;
}
