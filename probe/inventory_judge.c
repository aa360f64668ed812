/* The inventory: the two safety verdicts and every reason against each. */
#include <blkid/blkid.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inventory_priv.h"
#include "sysroot.h"
#include "tw_util.h"

/* who = NULL for the device itself, else the partition's name. */
static int why_sig(struct probe_strv *why, const char *who, const struct probe_sig *s)
{
	const char *w = who ? who : "", *sep = who ? ": " : "";

	if (!s->probed)
		return tw_strv_addf(&why->v, &why->n, "%s%ssignatures unknown (%s)", w, sep,
				s->error ? s->error : "not probed");
	if (s->pttype)
		return tw_strv_addf(&why->v, &why->n, "%s%s%s partition table", w, sep, s->pttype);
	if (s->type)
		return tw_strv_addf(&why->v, &why->n, "%s%s%s signature", w, sep, s->type);
	return 0;
}

static int why_use(struct probe_strv *why, const char *who,
		   const struct probe_strv *mounts, const struct probe_strv *holders,
		   bool swap)
{
	const char *w = who ? who : "", *sep = who ? ": " : "";
	int r = 0;

	for (size_t i = 0; !r && i < mounts->n; i++)
		r = tw_strv_addf(&why->v, &why->n, "%s%smounted at %s", w, sep, mounts->v[i]);
	for (size_t i = 0; !r && i < holders->n; i++)
		r = tw_strv_addf(&why->v, &why->n, "%s%sheld by %s", w, sep, holders->v[i]);
	if (!r && swap)
		r = tw_strv_addf(&why->v, &why->n, "%s%sin use as swap", w, sep);
	return r;
}

/* The two verdicts, each with every reason against it. */
int probe_inv_judge(struct probe_dev *d)
{
	struct probe_strv *ro = &d->readonly_why, *rw = &d->destructive_why;
	int r = 0;

	if (d->cls != PROBE_CLASS_DISK && d->cls != PROBE_CLASS_READONLY)
		r |= tw_strv_addf(&rw->v, &rw->n, "not a fixed disk: %s", d->cls_why);
	if (d->capacity_bytes <= 0) {
		r |= tw_strv_addf(&ro->v, &ro->n, "size is 0 (no medium, or not set up)");
		r |= tw_strv_addf(&rw->v, &rw->n, "size is 0 (no medium, or not set up)");
	}
	if (d->root)
		r |= tw_strv_addf(&rw->v, &rw->n, "holds the running root filesystem");
	if (d->readonly)
		r |= tw_strv_addf(&rw->v, &rw->n, "device is read-only");
	if (d->n_parts)
		r |= tw_strv_addf(&rw->v, &rw->n, "has %zu partition%s", d->n_parts, d->n_parts > 1 ? "s" : "");
	r |= why_sig(rw, NULL, &d->sig);
	r |= why_use(rw, NULL, &d->mounts, &d->holders, d->swap);
	for (size_t i = 0; i < d->n_parts; i++) {
		const struct probe_part *p = &d->parts[i];

		r |= why_sig(rw, p->name, &p->sig);
		r |= why_use(rw, p->name, &p->mounts, &p->holders, p->swap);
	}
	d->safe_readonly = ro->n == 0;
	d->safe_destructive = rw->n == 0;
	return r ? -ENOMEM : 0;
}

/* Unbound loop devices (size 0, no backing file) are not devices to list. */
