/* plan_util.c — the leaf helpers every advisor source shares (plan_priv.h):
 * string lists, warnings, byte formatting, filesystem signatures, the
 * default mount points, usable capacities, media classes, shared links.
 * It calls nothing else of the advisor, so the other advisor sources
 * depend on it and not on each other's helpers.
 */
#include "plan_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tw_util.h"

const char *const advisor_default_point[TW_TIER_COUNT] = {
	"/srv/vector-db", "/srv/models", "/srv/archive" };

int advisor_warn(struct advisor_plan *plan, ptrdiff_t dev, const char *kind,
		 const char *fmt, ...)
{
	struct advisor_warning *nv = realloc(plan->warnings,
					     (plan->n_warnings + 1) * sizeof(*nv));
	va_list ap;
	int ret;

	if (!nv)
		return -ENOMEM;
	plan->warnings = nv;
	nv += plan->n_warnings;
	nv->dev = dev;
	nv->kind = kind;
	va_start(ap, fmt);
	ret = vasprintf(&nv->message, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	plan->n_warnings++;
	return 0;
}

void advisor_fmt_bytes(char *buf, size_t len, double bytes)
{
	tw_fmt_bytes(buf, len, bytes, TW_BYTES_DECIMAL);
}

bool advisor_is_filesystem(const char *fstype)
{
	static const char *const v[] = { "LVM2_member", "linux_raid_member", "swap",
		"crypto_LUKS", "zfs_member", "bcache", "ceph", "isw_raid_member",
		"ddf_raid_member", "VMFS_volume_member", "drbd" };

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		if (!strcmp(fstype, v[i]))
			return false;
	return true;
}


bool advisor_one_drive(const struct profile_device *a, const struct profile_device *b)
{
	return a != b && a->drive_id && b->drive_id && !strcmp(a->drive_id, b->drive_id);
}

bool advisor_host_managed(const struct profile_device *p)
{
	return p && p->zoned.present && p->zoned.model == PROFILE_ZONED_HOST_MANAGED;
}

bool advisor_drive_in_tier(const struct advisor_plan *plan, size_t d, int t)
{
	for (size_t k = 0; k < plan->n_devs; k++)
		if (k != d && plan->devs[k].tier == t && advisor_one_drive(plan->devs[k].p, plan->devs[d].p))
			return true;
	return false;
}

bool advisor_in_raid(const struct advisor_plan_tier *t, size_t d)
{
	for (size_t i = 0; t->raid.level != ADVISOR_RAID_NONE && i < t->raid.n; i++)
		if (t->raid.members[i] == d)
			return true;
	return false;
}

void advisor_need_names(const struct advisor_plan_tier *t, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t k = 0; k < t->n_policies && at < len; k++)
		if (k >= 64 || (t->sized & (1ull << k)))
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " + " : "",
					       t->policies[k]->name);
}

size_t advisor_need_order(const struct advisor_plan_tier *t, size_t *idx, size_t max)
{
	size_t n = 0;

	for (size_t k = 0; t->need_of && k < t->n_policies && n < max; k++) {
		size_t j = n;

		if (t->need_of[k] <= 0)
			continue;
		for (; j > 0 && t->need_of[idx[j - 1]] < t->need_of[k]; j--)
			idx[j] = idx[j - 1];
		idx[j] = k;
		n++;
	}
	return n;
}

double advisor_usable(const struct advisor_plan *plan, size_t i)
{
	int64_t cap = plan->devs[i].p->capacity_bytes;

	return cap > 0 ? (double)cap * plan->fill : 1.0;
}

int advisor_media_class(const struct profile_device *p, int t)
{
	if (p->rotational || p->media == PROFILE_MEDIA_HDD)
		return ADVISOR_CLASS_HDD;
	if (t == ADVISOR_HOT && p->media == PROFILE_MEDIA_3DXPOINT)
		return ADVISOR_CLASS_SCM;
	return ADVISOR_CLASS_SSD;
}

/* The PCIe bridge above both a and b (their links' upstream lists), or
 * NULL. */
static const char *common_bridge(const struct profile_device *a, const struct profile_device *b)
{
	for (size_t i = 0; a->link.present && i < a->link.n_upstream; i++)
		for (size_t j = 0; b->link.present && j < b->link.n_upstream; j++)
			if (!strcmp(a->link.upstream[i], b->link.upstream[j]))
				return a->link.upstream[i];
	return NULL;
}

const char *advisor_unmeasured_bridge(const struct advisor_plan *plan, const size_t *idx,
				      size_t n, size_t *a, size_t *b)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			const char *br = common_bridge(plan->devs[idx[i]].p, plan->devs[idx[j]].p);

			if (br && !advisor_share_link(plan, idx[i], idx[j])) {
				*a = idx[i];
				*b = idx[j];
				return br;
			}
		}
	return NULL;
}

bool advisor_share_link(const struct advisor_plan *plan, size_t a, size_t b)
{
	for (size_t g = 0; g < plan->n_links; g++) {
		const struct profile_shared *l = plan->links[g];
		bool ia = false, ib = false;

		for (size_t k = 0; k < l->n_ids; k++) {
			ia = ia || !strcmp(plan->devs[a].p->id, l->ids[k]);
			ib = ib || !strcmp(plan->devs[b].p->id, l->ids[k]);
		}
		if (ia && ib)
			return true;
	}
	return false;
}
