/* raid.c — like devices of a tier grouped into a suggested md array; with
 * none, when the tier's policies want redundancy, its unlike devices of one
 * media class (mirror mates: md uses each at the smallest's size).
 *
 * Like devices: the same model and measurements within LIKE_TOLERANCE of
 * each other, widened by what the figures themselves resolve (sequential
 * read and QD1 random read, where measured).  The
 * largest group of like devices in a tier (two or more, none of them the
 * root disk or holding data to keep) becomes the array:
 *   warm (model loading)  RAID0  re-downloadable data, bandwidth adds up
 *   hot                   RAID1 (RAID10 from four)  must survive a disk loss
 *   cold                  RAID6 from four, RAID5 of three, else RAID1
 * Estimates: the data-bearing disks (RAID0 all, RAID10 half, RAID5 all but
 * one, RAID6 all but two, RAID1 one) times the slowest member's measured figure — for like
 * devices about the sum of their bandwidth (two PCIe 3.0 drives measured
 * 6,560 MB/s together in the reference), never more than the data shows.
 */
#include "plan_priv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIKE_TOLERANCE 0.15

/*
 * What a measured figure can tell apart, as a share of it: one I/O of the
 * ios counted in its window (a figure counted from 20 I/Os moves 5 % with
 * one I/O more or less, whatever the device did), or the ± band the probe
 * reached for it, whichever is wider; 0 for a figure with neither (catalog
 * data).  An emulated HDD read 1 MiB at a time for 1 s counts about 20
 * I/Os: two of them measured 20 and 17 on a busy host, 15 % apart by the
 * count alone.
 */
double advisor_io_resolution(const struct profile_io *io)
{
	double r = io->ios > 0 ? 1.0 / (double)io->ios : 0.0;

	if (isfinite(io->spread_pct) && io->spread_pct > 0)
		r = fmax(r, io->spread_pct / 100.0);
	return r;
}

/* The figures of a and b (MB/s or IOPS) within the tolerance of each
 * other, widened by what each resolves (either unknown: alike). */
static bool close_to(const struct profile_io *a, const struct profile_io *b, bool mbps)
{
	const double x = mbps ? a->mbps : a->iops, y = mbps ? b->mbps : b->iops;

	if (isnan(x) || isnan(y))
		return true;
	return fabs(x - y) <= LIKE_TOLERANCE * fmax(fabs(x), fabs(y)) +
				      advisor_io_resolution(a) * fabs(x) +
				      advisor_io_resolution(b) * fabs(y);
}

/* Capacities within 1 % (either unknown: alike). */
static bool same_size(int64_t a, int64_t b)
{
	if (a <= 0 || b <= 0)
		return true;
	return llabs(a - b) <= (a > b ? a : b) / 100;
}

/*
 * Like devices: the same model and size, sequential read and QD1 IOPS
 * within LIKE_TOLERANCE, widened by what the figures resolve.  The size matters: an array offers n × its
 * smallest member, and one model name can cover several sizes (every
 * emulated disk is "QEMU HARDDISK").  Two namespaces of one drive are never
 * alike: an array over them has no redundancy (one drive fails, both go)
 * and no bandwidth (one flash, one link).
 */
static bool alike(const struct profile_device *a, const struct profile_device *b)
{
	return !advisor_one_drive(a, b) && a->model && b->model && !strcmp(a->model, b->model) &&
	       same_size(a->capacity_bytes, b->capacity_bytes) &&
	       close_to(&a->io[PROFILE_SEQ_READ], &b->io[PROFILE_SEQ_READ], true) &&
	       close_to(&a->io[PROFILE_RAND_READ_QD1], &b->io[PROFILE_RAND_READ_QD1], false);
}

/* A device that may join an array: new, not the root disk, not
 * host-managed zoned (md takes no zoned device), not holding one policy's
 * data alone (a mount of its own). */
static bool raidable(const struct advisor_plan_device *pd)
{
	return !pd->has_data && !(pd->disk && pd->disk->root) && !advisor_host_managed(pd->p) &&
	       !pd->own;
}

bool advisor_alike(const struct advisor_plan_device *a, const struct advisor_plan_device *b)
{
	return raidable(a) && raidable(b) && alike(a->p, b->p);
}

/* A mirror mate is at least this share of the other's speed: md reads
 * from either member, so a read runs at either one's pace by chance. */
#define MATE_SPEED 0.5

/* x and y within MATE_SPEED of each other (either unknown: close). */
static bool near_speed(double x, double y)
{
	return isnan(x) || isnan(y) || fmin(x, y) >= MATE_SPEED * fmax(x, y);
}

/* Mirror mates: one media class in tier t, not two namespaces of one drive,
 * sequential read and QD1 IOPS within MATE_SPEED (unlike in model, size or
 * speed otherwise: md uses each at the smallest's size, and writes at the
 * slowest's pace). */
static bool mates(const struct profile_device *a, const struct profile_device *b, int t)
{
	return !advisor_one_drive(a, b) && advisor_media_class(a, t) == advisor_media_class(b, t) &&
	       near_speed(a->io[PROFILE_SEQ_READ].mbps, b->io[PROFILE_SEQ_READ].mbps) &&
	       near_speed(a->io[PROFILE_RAND_READ_QD1].iops, b->io[PROFILE_RAND_READ_QD1].iops);
}

bool advisor_mirror_mates(const struct advisor_plan_device *a,
			  const struct advisor_plan_device *b, int t)
{
	return raidable(a) && raidable(b) && mates(a->p, b->p, t);
}

static const char *tradeoff(enum advisor_raid_level l, bool refetchable)
{
	switch (l) {
	case ADVISOR_RAID0:
		return refetchable ? "no redundancy: one failed disk loses the whole array; "
				     "what the tier holds can be downloaded again"
				   : "no redundancy: one failed disk loses the whole array and "
				     "data that has no other copy: keep a copy elsewhere";
	case ADVISOR_RAID1:
		return "survives the loss of all but one disk; the capacity of one disk";
	case ADVISOR_RAID10:
		return "survives one disk loss per mirror pair; half the raw capacity";
	case ADVISOR_RAID5:
		return "survives one disk loss; a second failure during the long rebuild of a "
		       "large HDD loses the array (RAID6 from four disks)";
	case ADVISOR_RAID6:
		return "survives any two disk losses; rebuilding a large HDD takes a day or more, "
		       "with reduced speed meanwhile";
	default:
		return "";
	}
}

/* Does one of idx[0..n) share p's drive? */
static bool drive_taken(const struct advisor_plan *plan, const size_t *idx, size_t n,
			const struct profile_device *p)
{
	for (size_t k = 0; k < n; k++)
		if (advisor_one_drive(plan->devs[idx[k]].p, p))
			return true;
	return false;
}

/* Largest group of raidable devices of the tier, one per drive, that are
 * alike (like) or mirror mates (!like): members in *idx. */
static size_t largest_group(const struct advisor_plan *plan,
			    const struct advisor_plan_tier *t, bool like, size_t *idx)
{
	size_t best = 0;
	size_t *cur = calloc(t->n_devices ? t->n_devices : 1, sizeof(*cur));

	if (!cur)
		return 0;
	for (size_t a = 0; a < t->n_devices; a++) {
		const struct advisor_plan_device *pa = &plan->devs[t->devices[a]];
		size_t n = 0;

		if (!raidable(pa))
			continue;
		for (size_t b = 0; b < t->n_devices; b++) {
			const struct advisor_plan_device *pb = &plan->devs[t->devices[b]];

			if (raidable(pb) && (like ? alike(pa->p, pb->p) : mates(pa->p, pb->p, (int)t->tier)) &&
			    !drive_taken(plan, cur, n, pb->p))
				cur[n++] = t->devices[b];
		}
		if (n > best) {
			best = n;
			memcpy(idx, cur, n * sizeof(*idx));
		}
	}
	free(cur);
	return best >= 2 ? best : 0;
}

/* min over members of a figure (NAN when any is unknown). */
static double member_min(const struct advisor_plan *plan, const struct advisor_raid *r,
			 double (*get)(const struct profile_device *))
{
	double m = INFINITY;

	for (size_t i = 0; i < r->n; i++) {
		double v = get(plan->devs[r->members[i]].p);

		if (isnan(v))
			return NAN;
		m = fmin(m, v);
	}
	return r->n ? m : NAN;
}

static double get_read(const struct profile_device *d)
{
	return d->io[PROFILE_SEQ_READ].mbps;
}

static double get_write(const struct profile_device *d)
{
	if (d->sustained.present && !isnan(d->sustained.mbps))
		return d->sustained.mbps;
	return d->io[PROFILE_SEQ_WRITE].mbps;
}

static double get_cap(const struct profile_device *d)
{
	return d->capacity_bytes > 0 ? (double)d->capacity_bytes : NAN;
}

/* A rate for the basis text: whole MB/s, or "unknown" (never "nan"). */
static const char *mbps_str(char buf[32], double v)
{
	if (isnan(v))
		return "unknown";
	snprintf(buf, 32, "%.0f", v);
	return buf;
}

/* How many members of r the group g names. */
static size_t members_in(const struct advisor_plan *plan, const struct advisor_raid *r,
			 const struct profile_shared *g)
{
	size_t m = 0;

	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < g->n_ids; k++)
			if (!strcmp(plan->devs[r->members[i]].p->id, g->ids[k]))
				m++;
	return m;
}

/*
 * Cap a striped array's read rate (k data disks of rd MB/s each) by what
 * members that share a bottleneck read together: those m members give at
 * most the group's together_mbps.  *g_out = the first group that capped it.
 */
static double cap_by_links(const struct advisor_plan *plan, const struct advisor_raid *r,
			   size_t k, double rd, const struct profile_shared **g_out)
{
	double total = rd * (double)k;

	*g_out = NULL;
	if (isnan(rd) || k < 2 || r->level == ADVISOR_RAID1)
		return total;
	for (size_t i = 0; i < plan->n_links; i++) {
		const struct profile_shared *g = plan->links[i];
		size_t m = members_in(plan, r, g);

		if (m < 2 || isnan(g->together_mbps) || g->together_mbps >= rd * (double)m)
			continue;
		total -= rd * (double)m - g->together_mbps;
		*g_out = *g_out ? *g_out : g;
	}
	return total;
}

static int describe(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	char rds[32], wrs[32];
	struct advisor_raid *r = &t->raid;
	const size_t k = advisor_raid_level_data_disks(r->level, r->n);
	const char *dir = strrchr(plan->mount_point[t->tier], '/');
	double rd = member_min(plan, r, get_read), wr = member_min(plan, r, get_write);
	double cap = member_min(plan, r, get_cap);
	const bool mirror = r->level == ADVISOR_RAID1;

	const struct profile_shared *shared;
	char capped[256] = "";

	/* reads from every copy: md balances parallel readers over the mirrors */
	const size_t kr = r->level == ADVISOR_RAID1 || r->level == ADVISOR_RAID10 ? r->n : k;
	size_t slow = r->members[0];	/* the member whose read is rd */

	for (size_t i = 0; i < r->n; i++)
		if (get_read(plan->devs[r->members[i]].p) == rd)
			slow = r->members[i];

	r->seq_read_mbps = cap_by_links(plan, r, kr, rd, &shared);
	if (shared) {
		snprintf(capped, sizeof(capped), "; read capped to %.0f MB/s: members share a"
			 " bottleneck that read %.0f MB/s together", r->seq_read_mbps,
			 shared->together_mbps);
	} else if (kr >= 2) {
		size_t a, b;
		const char *br = advisor_unmeasured_bridge(plan, r->members, r->n, &a, &b);

		if (br)
			snprintf(capped, sizeof(capped), "; %s and %s sit under one PCIe bridge "
				 "(%s), not measured together: the sum assumes its uplink "
				 "carries both (probe them side by side to know)",
				 plan->devs[a].p->id, plan->devs[b].p->id, br);
	}
	r->seq_write_mbps = isnan(wr) ? NAN : wr * (double)k;
	r->capacity_bytes = isnan(cap) ? -1 : (int64_t)(cap * (double)k);
	if (asprintf(&r->name, "md-%s", dir && dir[1] ? dir + 1 : advisor_tier_name(t->tier)) < 0) {
		r->name = NULL;
		return -ENOMEM;
	}
	for (char *c = r->name; *c; c++)	/* a name for /dev/md/: [A-Za-z0-9._-] */
		if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
			*c = '_';
	if (asprintf(&r->basis, "read %zu × the slowest member (%s %s MB/s), write %zu × (%s MB/s)%s%s",
		     kr, plan->devs[slow].p->model, mbps_str(rds, rd), k,
		     mbps_str(wrs, wr),
		     mirror || r->level == ADVISOR_RAID10 ?
		     "; reads from every copy: md balances parallel readers (a model loader's "
		     "threads) over the mirrors, one stream reads from one disk" : "",
		     capped) < 0) {
		r->basis = NULL;
		return -ENOMEM;
	}
	if (!(r->tradeoff = strdup(tradeoff(r->level, t->refetchable))))
		return -ENOMEM;
	return 0;
}

/*
 * The usable capacity of the tier with r's members in their level (r->level,
 * set), the other devices as they are.
 */
static double redundant_usable(const struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	const struct advisor_raid *r = &t->raid;
	double cmin = INFINITY, usable;

	for (size_t k = 0; k < r->n; k++)
		cmin = fmin(cmin, advisor_usable(plan, r->members[k]));
	usable = cmin * (double)advisor_raid_level_data_disks(r->level, r->n);
	for (size_t k = 0; k < t->n_devices; k++)
		if (!advisor_in_raid(t, t->devices[k]))
			usable += advisor_usable(plan, t->devices[k]);
	return usable;
}

/*
 * Does the tier still meet its need with r's members in their redundant
 * level?  A tier whose policies only prefer redundancy is mirrored only
 * then: the optimiser counted their whole capacity (plan_opt.c).
 */
static bool redundant_fits(const struct advisor_plan *plan, const struct advisor_plan_tier *t)
{
	return t->need_bytes <= 0 || redundant_usable(plan, t) >= (double)t->need_bytes;
}

bool advisor_redundant_rule(const struct advisor_plan_tier *t)
{
	return t->redundancy != MODEL_REDUNDANCY_NONE &&
	       advisor_array_rule_of(t->rule, (int)t->tier) != ADVISOR_ARRAY_STRIPE;
}

/* Raw and smallest capacity of r's members (bytes; NAN when one is unknown). */
static void raw_min(const struct advisor_plan *plan, const struct advisor_raid *r, double *raw,
		    double *min)
{
	*raw = 0.0;
	*min = member_min(plan, r, get_cap);
	for (size_t k = 0; k < r->n; k++)
		*raw += get_cap(plan->devs[r->members[k]].p);
}

/*
 * An array over unlike devices of one media class: said with the capacity
 * md leaves unused (each member at the smallest's size); or, when the
 * tier's redundancy is only preferred and the array would not hold the need,
 * not made (one volume over them instead, volume.c), with why.  *made: the
 * array stands.
 */
static int unlike_array(struct advisor_plan *plan, struct advisor_plan_tier *t, bool *made)
{
	struct advisor_raid *r = &t->raid;
	char rawb[32], minb[32], lost[32], use[32], need[32];
	double raw, min;

	raw_min(plan, r, &raw, &min);
	advisor_fmt_bytes(rawb, sizeof(rawb), raw);
	advisor_fmt_bytes(minb, sizeof(minb), min);
	advisor_fmt_bytes(lost, sizeof(lost), raw - min * (double)r->n);
	*made = t->redundancy == MODEL_REDUNDANCY_REQUIRED || redundant_fits(plan, t);
	if (!*made) {
		advisor_fmt_bytes(use, sizeof(use), redundant_usable(plan, t));
		advisor_fmt_bytes(need, sizeof(need), (double)t->need_bytes);
		return tw_strv_addf(&t->notes, &t->n_notes,
				    "redundancy preferred, not required: md %s of its %zu unlike "
				    "devices (each used at the smallest's size, %s) would leave %s "
				    "usable for the %s need, so none is made",
				    advisor_raid_name(r->level), r->n, minb, use, need);
	}
	if (!isnan(raw) && raw - min * (double)r->n <= raw / 100)
		return tw_strv_addf(&t->notes, &t->n_notes,
				    "md %s over %zu devices of one size that are not like devices "
				    "(another model, or figures more than %.0f %% apart): it reads "
				    "and writes at the slowest one's pace", advisor_raid_name(r->level),
				    r->n, LIKE_TOLERANCE * 100);
	if (isnan(raw))
		return tw_strv_addf(&t->notes, &t->n_notes,
				    "md %s over %zu unlike devices of one media class: md uses "
				    "each at the smallest's size (a capacity is unknown) and "
				    "writes at the slowest one's pace",
				    advisor_raid_name(r->level), r->n);
	return tw_strv_addf(&t->notes, &t->n_notes,
			    "md %s over %zu unlike devices of one media class: md uses each "
			    "at the smallest's size (%s), so %s of their %s go unused, and it "
			    "writes at the slowest one's pace", advisor_raid_name(r->level), r->n,
			    minb, lost, rawb);
}

/*
 * The tier's array: its largest group of like devices; failing that, when
 * its policies want redundancy, its mirror mates (unlike devices of one
 * media class, at the smallest's size).
 */
int advisor_raid_make(struct advisor_plan *plan, struct advisor_plan_tier *t)
{
	struct advisor_raid *r = &t->raid;
	bool made = true;
	size_t n;
	int ret;

	memset(r, 0, sizeof(*r));
	r->seq_read_mbps = r->seq_write_mbps = NAN;
	r->capacity_bytes = -1;
	if (t->n_devices < 2)
		return 0;
	r->members = calloc(t->n_devices, sizeof(*r->members));
	if (!r->members)
		return -ENOMEM;
	n = largest_group(plan, t, true, r->members);
	if (!n && advisor_redundant_rule(t)) {
		n = largest_group(plan, t, false, r->members);
		r->unlike = n > 0;
	}
	r->n = n;
	r->level = n ? advisor_array_level(t->rule, (int)t->tier, n) : ADVISOR_RAID_NONE;
	if (r->unlike) {
		ret = unlike_array(plan, t, &made);
		if (ret || !made) {
			r->level = ADVISOR_RAID_NONE;
			r->n = 0;
			r->unlike = false;
			r->refused = !ret;
		}
		if (ret)
			return ret;
	} else if (n && r->level != ADVISOR_RAID0 &&
		   t->redundancy == MODEL_REDUNDANCY_PREFERRED && !redundant_fits(plan, t)) {
		ret = tw_strv_addf(&t->notes, &t->n_notes,
				   "redundancy preferred, not required: md %s of %zu would leave "
				   "too little for the need, so they are striped (RAID0) instead",
				   advisor_raid_name(r->level), n);
		r->level = ADVISOR_RAID0;
		if (ret)
			return ret;
	}
	if (!r->n) {
		free(r->members);
		r->members = NULL;
		return 0;
	}
	return describe(plan, t);
}

void advisor_raid_clear(struct advisor_raid *r)
{
	if (!r)
		return;
	free(r->members);
	free(r->name);
	free(r->basis);
	free(r->tradeoff);
	memset(r, 0, sizeof(*r));
}
