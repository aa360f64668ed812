/* volume.c — one volume per tier: an LVM volume group over unlike devices.
 *
 * A tier with two or more new units — its md array (like devices), and each
 * blank device outside it (not the root disk, no data to keep, not a scratch
 * file) — gets one LVM volume group "tw-<dir>" over them and one logical
 * volume "<dir>" using all of it, mounted once at the tier's mount point,
 * instead of /srv/models, /srv/models-2, /srv/models-3.  The volume is
 * striped when its units are alike in size and sequential read (within
 * STRIPE_TOLERANCE): every stripe then fills and runs at the same rate;
 * otherwise linear: striping would stop at the smallest unit and run every
 * request at the slowest one's pace.  Devices with data to keep stay mounts
 * of their own, and so does a namespace of a drive already in the volume
 * (advisor_one_drive: one flash, one link; plan_notes.c notes it).  Method in
 * docs/advisor.md ("One volume per tier").
 */
#include "plan_priv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRIPE_TOLERANCE 0.15
#define STRIPE_KIB 256		/* lvcreate -I: 256 KiB stripes, as md's 512 KiB chunk order */

/* A device LVM may take whole: new, not the root disk, a block device,
 * not host-managed zoned (LVM takes no zoned device), not holding one
 * policy's data alone (a mount of its own). */
static bool pv_ok(const struct advisor_plan_device *pd)
{
	return !pd->excluded && !pd->has_data && !(pd->disk && pd->disk->root) &&
	       pd->p->transport != PROFILE_TR_FILE && !advisor_host_managed(pd->p) && !pd->own;
}

/* Capacity and sequential read of unit k (-1: the array). */
static void unit_figures(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
			 ptrdiff_t d, double *cap, double *rd)
{
	if (d < 0) {
		*cap = t->raid.capacity_bytes > 0 ? (double)t->raid.capacity_bytes : NAN;
		*rd = t->raid.seq_read_mbps;
		return;
	}
	*cap = plan->devs[d].p->capacity_bytes > 0 ? (double)plan->devs[d].p->capacity_bytes : NAN;
	*rd = plan->devs[d].p->io[PROFILE_SEQ_READ].mbps;
}

static bool within(double a, double b)
{
	return !isnan(a) && !isnan(b) && fabs(a - b) <= STRIPE_TOLERANCE * fmax(a, b);
}

/* "tw-models" / "models" from the tier's mount point: [A-Za-z0-9._-]. */
static int names(const struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	const char *dir = strrchr(plan->mount_point[t->tier], '/');
	const char *base = dir && dir[1] ? dir + 1 : advisor_tier_name(t->tier);
	struct advisor_volume *v = &t->volume;

	if (asprintf(&v->vg, "tw-%s", base) < 0) {
		v->vg = NULL;
		return -ENOMEM;
	}
	if (!(v->lv = strdup(base)))
		return -ENOMEM;
	for (char *c = v->vg; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
			*c = '_';
	for (char *c = v->lv; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
			*c = '_';
	if (v->lv[0] == '-' || v->lv[0] == '.')	/* LVM names never start so */
		v->lv[0] = '_';
	return 0;
}

/* Linear or striped, and the one-line reason. */
static int layout(const struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	struct advisor_volume *v = &t->volume;
	double cap0, rd0, cap, rd, sum = 0.0, min = INFINITY;
	bool alike = true;

	unit_figures(plan, t, v->pv[0], &cap0, &rd0);
	for (size_t k = 0; k < v->n; k++) {
		unit_figures(plan, t, v->pv[k], &cap, &rd);
		alike = alike && within(cap, cap0) && within(rd, rd0);
		sum += isnan(cap) ? 0.0 : cap;
		min = isnan(cap) ? min : fmin(min, cap);
	}
	v->striped = alike;
	v->capacity_bytes = (int64_t)(alike ? min * (double)v->n : sum);
	if (alike)
		return asprintf(&v->why, "striped over %zu devices (%d KiB stripes): they are alike "
				"in size and sequential read (within %.0f %%), so every stripe fills "
				"and reads at the same rate", v->n, STRIPE_KIB,
				STRIPE_TOLERANCE * 100) < 0 ? (v->why = NULL, -ENOMEM) : 0;
	return asprintf(&v->why, "linear over %zu devices: they differ in size or sequential "
			"read, and a striped volume would stop at the smallest and run every "
			"request at the slowest one's pace; linear uses all of each",
			v->n) < 0 ? (v->why = NULL, -ENOMEM) : 0;
}

/*
 * Which policy's data goes where: each policy's best device in the tier.
 * When they differ, one volume still, with how to pin a policy's files.
 */
static int placement_note(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	char list[512] = "";
	size_t at = 0;
	ptrdiff_t first = -1;
	bool differ = false;

	if (t->n_policies < 2)
		return 0;
	for (size_t k = 0; k < t->n_policies; k++) {
		ptrdiff_t best = -1;
		double top = -1.0;

		for (size_t i = 0; i < t->n_devices; i++) {
			struct model_score s;

			if (model_score_device(t->policies[k], plan->devs[t->devices[i]].p, &s))
				return -ENOMEM;
			if (s.eligible && !isnan(s.score) && s.score > top) {
				top = s.score;
				best = (ptrdiff_t)t->devices[i];
			}
			model_score_clear(&s);
		}
		if (best < 0)
			continue;
		differ = differ || (first >= 0 && best != first);
		if (first < 0)
			first = best;
		if (at < sizeof(list))
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s on %s (%.1f)",
					       at ? ", " : "", t->policies[k]->name,
					       plan->devs[best].p->id, top);
	}
	if (!at)
		return 0;
	if (!differ)
		return tw_strv_addf(&t->notes, &t->n_notes,
				     "one volume for all its policies: the best device for each is "
				     "the same (%s)", list);
	return tw_strv_addf(&t->notes, &t->n_notes,
			     "one volume for all its policies (simpler to fill and to grow), "
			     "though their best devices differ: %s; to keep the first policy's "
			     "files on its device, give it a logical volume of its own on that "
			     "physical volume (lvcreate -n NAME -L SIZE %s DEVICE)", list,
			     t->volume.vg);
}

/* Does a unit of the volume so far (the array's members too) share device
 * d's drive? */
static bool drive_in_volume(const struct advisor_plan *plan, const struct advisor_plan_tier *t,
			    size_t d)
{
	const struct advisor_volume *v = &t->volume;

	for (size_t k = 0; k < v->n; k++) {
		if (v->pv[k] >= 0 && advisor_one_drive(plan->devs[v->pv[k]].p, plan->devs[d].p))
			return true;
		for (size_t m = 0; v->pv[k] < 0 && m < t->raid.n; m++)
			if (advisor_one_drive(plan->devs[t->raid.members[m]].p, plan->devs[d].p))
				return true;
	}
	return false;
}

/* Device d's logical block size, 0 when unknown (no inventory). */
static unsigned dev_bs(const struct advisor_plan *plan, size_t d)
{
	return plan->devs[d].disk ? plan->devs[d].disk->logical_bs : 0;
}

/* The device that sets the volume's logical block size so far: its first
 * unit whose size is known (the array: its first member's); -1 when none. */
static ptrdiff_t volume_bs_dev(const struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	const struct advisor_volume *v = &t->volume;

	for (size_t k = 0; k < v->n; k++) {
		if (v->pv[k] >= 0 && dev_bs(plan, (size_t)v->pv[k]))
			return v->pv[k];
		for (size_t m = 0; v->pv[k] < 0 && m < t->raid.n; m++)
			if (dev_bs(plan, t->raid.members[m]))
				return (ptrdiff_t)t->raid.members[m];
	}
	return -1;
}

/* Device d left out of the volume for its block size, unlike device e's:
 * a mount of its own, and a tier note saying why.  0 or -ENOMEM. */
static int bs_note(struct advisor_plan *plan, struct advisor_plan_tier *t, size_t d, size_t e)
{
	return tw_strv_addf(&t->notes, &t->n_notes, "%s has %u-byte logical blocks, %s %u-byte "
			    "ones: LVM makes no volume group over unlike block sizes (vgcreate "
			    "refuses them), so %s is a mount of its own", plan->devs[d].p->id,
			    dev_bs(plan, d), plan->devs[e].p->id, dev_bs(plan, e),
			    plan->devs[d].p->id);
}

/* The media class that holds most of the tier's usable bytes: its volume's
 * (a device of another class, joined when the tier was short, is a mount
 * of its own). */
static int lead_class(const struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	double by[ADVISOR_CLASS_SCM + 1] = { 0 };
	int lead = ADVISOR_CLASS_SSD;

	for (size_t i = 0; i < t->n_devices; i++) {
		const struct profile_device *p = plan->devs[t->devices[i]].p;

		if (!plan->devs[t->devices[i]].own)
			by[advisor_media_class(p, (int)t->tier)] +=
				advisor_usable(plan, t->devices[i]);
	}
	for (int c = 0; c <= ADVISOR_CLASS_SCM; c++)
		if (by[c] > by[lead])
			lead = c;
	return lead;
}

static const char *class_words(int c)
{
	return c == ADVISOR_CLASS_HDD ? "a hard disk" : c == ADVISOR_CLASS_SCM ?
	       "storage-class memory" : "NAND flash";
}

/* Device d left out of the volume for its media class: a mount of its own,
 * and a tier note saying why.  0 or -ENOMEM. */
static int class_out_note(struct advisor_plan *plan, struct advisor_plan_tier *t, size_t d,
			  int lead)
{
	const char *id = plan->devs[d].p->id;

	return tw_strv_addf(&t->notes, &t->n_notes, "%s is %s, the rest of the tier %s: never "
			    "in one volume or array with them (a file's reads would run at "
			    "either speed by chance), so %s is a mount of its own, with its own "
			    "estimate and failure domain", id,
			    class_words(advisor_media_class(plan->devs[d].p, (int)t->tier)),
			    class_words(lead), id);
}

/* A striped volume whose device units sit under one PCIe bridge, not
 * measured together: its estimates assume the bridge's uplink carries
 * them all, said in a tier note.  0 or -ENOMEM. */
static int bridge_note(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	const struct advisor_volume *v = &t->volume;
	size_t idx[64], n = 0, a, b;
	const char *br;

	for (size_t k = 0; k < v->n && n < ARRAY_SIZE(idx); k++)
		if (v->pv[k] >= 0)
			idx[n++] = (size_t)v->pv[k];
	br = advisor_unmeasured_bridge(plan, idx, n, &a, &b);
	if (!br)
		return 0;
	return tw_strv_addf(&t->notes, &t->n_notes, "%s/%s is striped over %s and %s, which sit "
			    "under one PCIe bridge (%s), not measured together: its estimates "
			    "assume the bridge's uplink carries both (probe them side by side to "
			    "know)", v->vg, v->lv, plan->devs[a].p->id, plan->devs[b].p->id, br);
}

int advisor_volume_make(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	struct advisor_volume *v = &t->volume;
	size_t out[64], n_out = 0;
	ptrdiff_t e = -1;
	int ret, lead;

	memset(v, 0, sizeof(*v));
	if (t->shared || t->n_devices < 2)
		return 0;
	v->pv = calloc(t->n_devices + 1, sizeof(*v->pv));
	if (!v->pv)
		return -ENOMEM;
	lead = lead_class(plan, t);
	if (t->raid.level != ADVISOR_RAID_NONE)
		v->pv[v->n++] = -1;	/* the md array, one physical volume */
	for (size_t i = 0; i < t->n_devices; i++) {
		size_t d = t->devices[i];

		if (advisor_in_raid(t, d) || !pv_ok(&plan->devs[d]) || drive_in_volume(plan, t, d))
			continue;
		if (advisor_media_class(plan->devs[d].p, (int)t->tier) != lead) {
			if (class_out_note(plan, t, d, lead) < 0)
				return -ENOMEM;
			continue;
		}
		e = volume_bs_dev(plan, t);
		if (e >= 0 && dev_bs(plan, d) && dev_bs(plan, d) != dev_bs(plan, (size_t)e)) {
			if (n_out < ARRAY_SIZE(out))
				out[n_out++] = d;	/* a mount of its own */
			continue;
		}
		v->pv[v->n++] = (ptrdiff_t)d;
	}
	e = volume_bs_dev(plan, t);
	for (size_t k = 0; k < n_out && e >= 0; k++)	/* said, volume or not */
		if (bs_note(plan, t, out[k], (size_t)e) < 0)
			return -ENOMEM;
	if (v->n < 2) {
		advisor_volume_clear(v);
		return 0;
	}
	ret = names(plan, t);
	if (!ret)
		ret = layout(plan, t);
	if (!ret && v->striped)
		ret = bridge_note(plan, t);
	if (!ret)
		ret = placement_note(plan, t);
	return ret;	/* its failure domain: advisor_failure_note() */
}

void advisor_volume_clear(struct advisor_volume *v)
{
	if (!v)
		return;
	free(v->pv);
	free(v->vg);
	free(v->lv);
	free(v->why);
	memset(v, 0, sizeof(*v));
}

bool advisor_volume_has(const struct advisor_plan_tier *t, size_t d)
{
	for (size_t k = 0; k < t->volume.n; k++)
		if (t->volume.pv[k] == (ptrdiff_t)d)
			return true;
	return false;
}
