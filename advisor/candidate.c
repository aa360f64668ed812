/* candidate.c — which devices may hold a tier: fixed disks, and the
 * optical, removable or tape devices the user named; what a device holds
 * already, and whether it is RAM-backed. */
#include <string.h>

#include "plan_priv.h"

/* What the profile's media alone says, for devices without inventory facts. */
static const char *class_of_media(enum profile_media m, const char **why)
{
	switch (m) {
	case PROFILE_MEDIA_OPTICAL:
		*why = "optical drive (media optical in the profile)";
		return "optical";
	case PROFILE_MEDIA_REMOVABLE:
		*why = "removable media (media removable in the profile)";
		return "removable";
	default:
		return NULL;
	}
}

/* Read-only devices and boot areas cannot hold a tier even when named. */
static bool nameable(const char *cls)
{
	return strcmp(cls, "read-only") && strcmp(cls, "boot-area");
}

static bool is_named(const struct advisor_plan_device *pd, const struct advisor_options *opt)
{
	const char *name = pd->disk ? pd->disk->name : NULL;

	if (opt->include_removable && !opt->n_include)
		return true;
	for (size_t i = 0; i < opt->n_include; i++) {
		const char *s = opt->include[i];

		if (!strncmp(s, "/dev/", 5))
			s += 5;
		if ((pd->p->id && !strcmp(s, pd->p->id)) || (name && !strcmp(s, name)))
			return true;
	}
	return false;
}

void advisor_judge_class(struct advisor_plan_device *pd, const struct advisor_options *opt)
{
	const struct advisor_disk *k = pd->disk;

	pd->cls = pd->cls_why = NULL;
	pd->named = false;
	if (k && k->cls && strcmp(k->cls, "disk")) {
		pd->cls = k->cls;
		pd->cls_why = k->cls_why ? k->cls_why : k->cls;
	} else if (!k || !k->cls) {
		pd->cls = class_of_media(pd->p->media, &pd->cls_why);
	}
	if (pd->cls && opt && nameable(pd->cls))
		pd->named = is_named(pd, opt);
}

void advisor_judge_disk(struct advisor_plan_device *pd)
{
	const struct advisor_disk *k = pd->disk;

	pd->has_data = pd->reusable = false;
	if (!k)
		return;
	pd->has_data = k->fstype || k->pttype || k->n_mounts || k->n_holders ||
		       k->n_parts || k->swap;
	if (k->n_holders || k->swap)
		return;		/* in use by md/dm or swap: not ours to reuse */
	if (k->fstype && k->uuid && advisor_is_filesystem(k->fstype))
		pd->reusable = true;
	for (size_t i = 0; i < k->n_parts; i++)
		if (k->parts[i].fstype && k->parts[i].uuid &&
		    advisor_is_filesystem(k->parts[i].fstype))
			pd->reusable = true;
}

/* RAM-backed (zram, brd): whatever is stored there is gone at reboot. */
bool advisor_volatile(const struct profile_device *d)
{
	return d->media == PROFILE_MEDIA_RAM || d->transport == PROFILE_TR_ZRAM;
}
