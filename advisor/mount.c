/* mount.c — how each tier is mounted: filesystem, options, mount point.
 *
 * One mount per md array of the tier, one per device outside the array, or
 * one directory when the tier has no device of its own (shared) or its
 * device holds the root filesystem.  Existing filesystems are reused as
 * they are; the root disk is never proposed for reformatting.  Pure: never
 * prints, never touches a device.  Rules and reasons in docs/advisor.md
 * ("Mount suggestions").
 */
#include "plan_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Below this a single device gets ext4 whatever its tier (decimal GB). */
#define SMALL_DEVICE_BYTES (64LL * 1000 * 1000 * 1000)

/* Data disks: noatime, and boot goes on without them (no emergency shell
 * for a dead disk), waiting 10 s instead of the 90 s default.  Never
 * "discard": SSDs are trimmed weekly by fstrim.timer (TRIM_NOTE). */
static const char OPT_DATA[] = "noatime,nofail,x-systemd.device-timeout=10s";

static const char TRIM_NOTE[] = "no 'discard' mount option: trim the SSDs weekly with "
	"fstrim.timer (systemctl enable --now fstrim.timer) instead of on every delete";


/* The filesystem a new device or array of each tier gets, and why. */
struct fs_choice {
	const char *fs;
	const char *why;
};

static const struct fs_choice new_fs[TW_TIER_COUNT] = {
	[ADVISOR_HOT] = { "ext4", "ext4: the hot tier holds many small files and fsync-heavy "
		"databases (vector DB, SQLite, logs), where ext4's journal commits and "
		"small-file allocation do well" },
	[ADVISOR_WARM] = { "xfs", "XFS: large model files read by parallel loaders; its "
		"allocation groups keep big files contiguous and parallel I/O apart" },
	[ADVISOR_COLD] = { "xfs", "XFS: large archive and backup files streamed in and out; "
		"few extents per big file, and it grows online" },
};

static const struct fs_choice small_fs = { "ext4", "ext4: a single device under 64 GB, "
	"too small for XFS's allocation groups and log to pay off" };

/* A host-managed zoned device takes only zone-sequential writes: ext4 and
 * XFS cannot be made on it; btrfs's zoned mode writes its zones in order. */
static const struct fs_choice zoned_fs = { "btrfs", "btrfs: a host-managed zoned "
	"device takes only zone-sequential writes, so ext4 and XFS cannot be made on it; "
	"btrfs writes its zones in order (zoned mode: Linux 5.12 and btrfs-progs 5.12 or "
	"later, mkfs.btrfs finds the zones itself); f2fs would need a second, conventional "
	"device for its metadata" };

/* An existing filesystem on a disk: the whole device's or a partition's. */
struct found_fs {
	const char *fstype, *uuid, *mount;	/* mount NULL = not mounted */
	const char *part;			/* partition name, NULL = whole device */
};

/* ---- small helpers ---------------------------------------------------- */

/* Free the fields of n mounts and the array.  NULL-safe. */
static void mounts_free(struct advisor_mount *m, size_t n)
{
	for (size_t i = 0; m && i < n; i++) {
		free(m[i].point);
		free(m[i].fs);
		free(m[i].options);
		free(m[i].why);
		free(m[i].source);
		free(m[i].uuid);
	}
	free(m);
}

/* strdup() that keeps NULL; returns -ENOMEM or 0 with *dst set. */
static int dup_to(char **dst, const char *s)
{
	*dst = s ? strdup(s) : NULL;
	return s && !*dst ? -ENOMEM : 0;
}

/* asprintf() into *dst; returns 0 or -ENOMEM (*dst NULL). */
__attribute__((format(printf, 2, 3)))
static int fmt_to(char **dst, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(dst, fmt, ap);
	va_end(ap);
	if (r < 0) {
		*dst = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The tier's mount point: from the plan, else the default. */
static const char *tier_base(const struct advisor_plan *plan, enum advisor_tier t)
{
	return plan->mount_point[t] ? plan->mount_point[t] : advisor_default_point[t];
}

/* The last component of path ("/srv/vector-db" → "vector-db"). */
static const char *last_component(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* Whether path lies on the filesystem mounted at mnt (by prefix). */
static bool path_under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);

	if (!strcmp(mnt, "/"))
		return path[0] == '/';
	return !strncmp(path, mnt, n) && (path[n] == '/' || path[n] == '\0');
}

static bool has_array(const struct advisor_plan_tier *tier)
{
	return tier->raid.level != ADVISOR_RAID_NONE && tier->raid.n > 0;
}

static bool in_array(const struct advisor_plan_tier *tier, size_t dev)
{
	for (size_t i = 0; has_array(tier) && i < tier->raid.n; i++)
		if (tier->raid.members[i] == dev)
			return true;
	return false;
}

/* Is dev a physical volume of the tier's LVM volume, itself or through
 * its array? */
static bool in_volume(const struct advisor_plan_tier *tier, size_t dev)
{
	for (size_t i = 0; i < tier->volume.n; i++)
		if (tier->volume.pv[i] == (ptrdiff_t)dev ||
		    (tier->volume.pv[i] < 0 && in_array(tier, dev)))
			return true;
	return false;
}

static bool is_filesystem(const char *fstype)
{
	return fstype && *fstype && advisor_is_filesystem(fstype);
}

static bool list_has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] && !strcmp(v[i], s))
			return true;
	return false;
}

/* Whether the disk holds the running root filesystem. */
static bool is_root_disk(const struct advisor_disk *disk)
{
	if (!disk)
		return false;
	if (disk->root || list_has(disk->mounts, disk->n_mounts, "/"))
		return true;
	for (size_t i = 0; i < disk->n_parts; i++)
		if (list_has(disk->parts[i].mounts, disk->parts[i].n_mounts, "/"))
			return true;
	return false;
}

/* The type of the filesystem mounted at "/" on disk, or NULL. */
static const char *root_fstype(const struct advisor_disk *disk)
{
	if (list_has(disk->mounts, disk->n_mounts, "/"))
		return disk->fstype;
	for (size_t i = 0; i < disk->n_parts; i++)
		if (list_has(disk->parts[i].mounts, disk->parts[i].n_mounts, "/"))
			return disk->parts[i].fstype;
	return NULL;
}

/*
 * The filesystem to reuse on disk: the whole device's, else the largest
 * partition with one (unknown sizes count as smallest).  Returns false when
 * there is none.
 */
static bool find_fs(const struct advisor_disk *disk, struct found_fs *f)
{
	const struct advisor_part *best = NULL;

	if (is_filesystem(disk->fstype)) {
		*f = (struct found_fs){ disk->fstype, disk->uuid,
			disk->n_mounts ? disk->mounts[0] : NULL, NULL };
		return true;
	}
	for (size_t i = 0; i < disk->n_parts; i++) {
		const struct advisor_part *p = &disk->parts[i];

		if (is_filesystem(p->fstype) && (!best || p->size_bytes > best->size_bytes))
			best = p;
	}
	if (!best)
		return false;
	*f = (struct found_fs){ best->fstype, best->uuid,
		best->n_mounts ? best->mounts[0] : NULL, best->name };
	return true;
}

/* The device node of plan device d: the inventory's, the profile's, or
 * (catalog entries) the profile id, which is no path. */
static const char *dev_source(const struct advisor_plan_device *pd)
{
	if (pd->disk && pd->disk->path)
		return pd->disk->path;
	if (pd->p && pd->p->path)
		return pd->p->path;
	return pd->p && pd->p->id ? pd->p->id : "?";
}

static const char *dev_id(const struct advisor_plan_device *pd)
{
	return pd->p && pd->p->id ? pd->p->id : "?";
}

/* ---- mount points ----------------------------------------------------- */

/* Hands out the tier's mount point, then "-2", "-3" … for further mounts. */
struct slots {
	const char *base;
	unsigned used;
};

/* The next mount point of the tier into *dst.  Returns 0 or -ENOMEM. */
static int next_point(struct slots *s, char **dst)
{
	if (++s->used == 1)
		return dup_to(dst, s->base);
	return fmt_to(dst, "%s-%u", s->base, s->used);
}

/*
 * The directory for a tier that wants point, on the filesystem mounted at
 * host: point itself when it lies under host ("/srv/vector-db" on "/"),
 * else host joined with point's last component ("/srv/models/vector-db").
 * host NULL = unknown: point.  Returns 0 or -ENOMEM.
 */
static int dir_on(const char *host, const char *point, char **dst)
{
	if (!host || path_under(point, host))
		return dup_to(dst, point);
	return fmt_to(dst, "%s%s%s", host, host[strlen(host) - 1] == '/' ? "" : "/",
		      last_component(point));
}

/* ---- one mount each ----------------------------------------------------- */

/* Fill m as a directory at the tier's next point on the filesystem at host
 * (type fs, NULL = unknown), explained by why.  Returns 0 or -ENOMEM. */
static int directory_mount(struct slots *s, const char *host, const char *fs,
			   struct advisor_mount *m)
{
	char *want = NULL;
	int rc = next_point(s, &want);

	if (!rc)
		rc = dir_on(host, want, &m->point);
	free(want);
	if (!rc)
		rc = dup_to(&m->source, m->point);
	if (!rc)
		rc = dup_to(&m->fs, fs ? fs : "existing");
	if (!rc)
		rc = dup_to(&m->options, "");
	m->directory = true;
	return rc;
}

/* A directory on the root filesystem of device d's disk.  Returns 0 or -ENOMEM. */
static int root_dir_mount(const struct advisor_plan *plan, size_t d, struct slots *s,
			  struct advisor_mount *m)
{
	const struct advisor_plan_device *pd = &plan->devs[d];
	int rc = directory_mount(s, "/", root_fstype(pd->disk), m);

	if (!rc)
		rc = fmt_to(&m->why, "a directory on the root filesystem (/) of %s: the root "
			    "disk is never reformatted; no mkfs, no fstab line", dev_id(pd));
	return rc;
}

/* A directory on the filesystem a scratch-file profile measured (p->path). */
static int file_dir_mount(const struct advisor_plan *plan, size_t d, struct slots *s,
			  struct advisor_mount *m)
{
	const struct advisor_plan_device *pd = &plan->devs[d];
	int rc = directory_mount(s, pd->p->path, NULL, m);

	if (!rc)
		rc = fmt_to(&m->why, "a directory on the filesystem measured at %s (a scratch-"
			    "file profile, not a whole device); no mkfs, no fstab line",
			    pd->p->path);
	return rc;
}

/* A new filesystem on device d (btrfs on a host-managed zoned one).
 * Returns 0 or -ENOMEM. */
static int new_mount(const struct advisor_plan *plan, const struct advisor_plan_tier *tier,
		     size_t d, struct slots *s, struct advisor_mount *m)
{
	const struct advisor_plan_device *pd = &plan->devs[d];
	int64_t cap = pd->p ? pd->p->capacity_bytes : -1;
	const struct fs_choice *c = advisor_host_managed(pd->p) ? &zoned_fs :
				    cap > 0 && cap < SMALL_DEVICE_BYTES ? &small_fs :
				    &new_fs[tier->tier];
	bool catalog = !(pd->disk && pd->disk->path) && !(pd->p && pd->p->path);
	int rc = next_point(s, &m->point);

	if (!rc)
		rc = dup_to(&m->fs, c->fs);
	if (!rc)
		rc = dup_to(&m->options, OPT_DATA);
	if (!rc)
		rc = dup_to(&m->source, dev_source(pd));
	if (!rc)
		rc = fmt_to(&m->why, "%s%s", c->why,
			    catalog ? "; a catalog entry, not a device on this machine" : "");
	return rc;
}

/* Device d has data tierwise cannot name: keep it, format nothing. */
static int unknown_data_mount(const struct advisor_plan *plan, size_t d, struct slots *s,
			      struct advisor_mount *m)
{
	int rc = next_point(s, &m->point);

	m->reuse = true;
	if (!rc)
		rc = dup_to(&m->fs, "unknown");
	if (!rc)
		rc = dup_to(&m->options, OPT_DATA);
	if (!rc)
		rc = dup_to(&m->source, dev_source(&plan->devs[d]));
	if (!rc)
		rc = dup_to(&m->why, "has data but no filesystem tierwise can name: nothing "
			    "is formatted; check the device by hand");
	return rc;
}

/* The existing filesystem f of device d, kept as it is (and where it is
 * mounted, if it is).  Returns 0 or -ENOMEM. */
static int reuse_mount(const struct advisor_plan *plan, size_t d, const struct found_fs *f,
		       struct slots *s, struct advisor_mount *m)
{
	int rc = f->mount ? dup_to(&m->point, f->mount) : next_point(s, &m->point);

	m->reuse = true;
	if (!rc)
		rc = dup_to(&m->fs, f->fstype);
	if (!rc)
		rc = dup_to(&m->uuid, f->uuid);
	if (!rc)
		rc = dup_to(&m->options, OPT_DATA);
	if (!rc)
		rc = f->part ? fmt_to(&m->source, "%s%s", f->part[0] == '/' ? "" : "/dev/", f->part)
			     : dup_to(&m->source, dev_source(&plan->devs[d]));
	if (!rc && f->mount)
		rc = fmt_to(&m->why, "keeps the existing %s filesystem and its data; already "
			    "mounted at %s, so that mount point is kept", f->fstype, f->mount);
	else if (!rc)
		rc = fmt_to(&m->why, "keeps the existing %s filesystem and its data (not "
			    "reformatted)", f->fstype);
	return rc;
}

/* The mount of device d (not in the tier's array).  Returns 0 or -ENOMEM. */
static int device_mount(const struct advisor_plan *plan, const struct advisor_plan_tier *tier,
			size_t d, struct slots *s, struct advisor_mount *m)
{
	const struct advisor_plan_device *pd = &plan->devs[d];
	struct found_fs f;

	m->dev = (ptrdiff_t)d;
	if (is_root_disk(pd->disk))
		return root_dir_mount(plan, d, s, m);
	if (pd->p && pd->p->transport == PROFILE_TR_FILE && pd->p->path)
		return file_dir_mount(plan, d, s, m);
	if (pd->has_data && pd->disk && find_fs(pd->disk, &f))
		return reuse_mount(plan, d, &f, s, m);
	if (pd->has_data)
		return unknown_data_mount(plan, d, s, m);
	return new_mount(plan, tier, d, s, m);
}

/* The tier's md array: a new filesystem on /dev/md/NAME.  Returns 0 or -ENOMEM. */
static int array_mount(const struct advisor_plan_tier *tier,
		       struct slots *s, struct advisor_mount *m)
{
	const struct fs_choice *c = &new_fs[tier->tier];	/* no zoned member (raid.c) */
	const char *name = tier->raid.name ? tier->raid.name : "tierwise";
	const char *level = advisor_raid_name(tier->raid.level);
	int rc = next_point(s, &m->point);

	m->raid = true;
	m->dev = -1;
	if (!rc)
		rc = dup_to(&m->fs, c->fs);
	if (!rc)
		rc = dup_to(&m->options, OPT_DATA);
	if (!rc)
		rc = fmt_to(&m->source, "/dev/md/%s", name);
	if (!rc)
		rc = fmt_to(&m->why, "%s; on the %s array %s of %zu devices, mkfs takes the "
			    "stripe geometry from md (no options needed)", c->why,
			    level ? level : "md", name, tier->raid.n);
	return rc;
}

/* The tier's LVM volume: a new filesystem on /dev/VG/LV.  Returns 0 or -ENOMEM. */
static int volume_mount(const struct advisor_plan_tier *tier,
			struct slots *s, struct advisor_mount *m)
{
	const struct fs_choice *c = &new_fs[tier->tier];	/* no zoned member (volume.c) */
	const struct advisor_volume *v = &tier->volume;
	int rc = next_point(s, &m->point);

	m->volume = true;
	m->dev = -1;
	if (!rc)
		rc = dup_to(&m->fs, c->fs);
	if (!rc)
		rc = dup_to(&m->options, OPT_DATA);
	if (!rc)
		rc = fmt_to(&m->source, "/dev/%s/%s", v->vg, v->lv);
	if (!rc)
		rc = fmt_to(&m->why, "%s; one LVM volume for the tier, %s", c->why, v->why);
	return rc;
}

/* ---- a whole tier ------------------------------------------------------- */

static int shared_mount(const struct advisor_plan *plan, const struct advisor_plan_tier *tier,
			struct slots *s, struct advisor_mount *m);

/*
 * The mounts of tier into *out (n in *n_out; caller frees with
 * mounts_free()).  Nothing else is changed.  Returns 0 or -ENOMEM.
 */
static int tier_mounts(const struct advisor_plan *plan, const struct advisor_plan_tier *tier,
		       struct advisor_mount **out, size_t *n_out)
{
	struct advisor_mount *m = calloc(tier->n_devices + 1, sizeof(*m));
	struct slots s = { tier_base(plan, tier->tier), 0 };
	size_t n = 0;
	int rc = 0;

	if (!m)
		return -ENOMEM;
	/* a device holding one policy alone first: the tier's mount point */
	for (size_t i = 0; !tier->shared && !rc && i < tier->n_devices; i++) {
		size_t d = tier->devices[i];

		if (d >= plan->n_devs || plan->devs[d].excluded || !plan->devs[d].own)
			continue;
		rc = device_mount(plan, tier, d, &s, &m[n]);
		if (!rc && m[n].why) {
			char *why = NULL;

			rc = fmt_to(&why, "%s; it holds %s alone", m[n].why,
				    plan->devs[d].own->name);
			free(m[n].why);
			m[n].why = why;
		}
		n++;
	}
	if (!rc && tier->shared)
		rc = shared_mount(plan, tier, &s, &m[n++]);
	else if (!rc && tier->volume.n)
		rc = volume_mount(tier, &s, &m[n++]);
	else if (!rc && has_array(tier))
		rc = array_mount(tier, &s, &m[n++]);
	for (size_t i = 0; !tier->shared && !rc && i < tier->n_devices; i++) {
		size_t d = tier->devices[i];

		if (d >= plan->n_devs || plan->devs[d].excluded || in_array(tier, d) ||
		    advisor_volume_has(tier, d) || plan->devs[d].own)
			continue;
		rc = device_mount(plan, tier, d, &s, &m[n++]);
	}
	if (rc) {
		mounts_free(m, n);
		return rc;
	}
	*out = m;
	*n_out = n;
	return 0;
}

/*
 * Where the filesystem holding device d is (to be) mounted, and its type:
 * "/" for the root disk, the planned mount of d's own tier, else its
 * current mount, else the mount point of its tier (when that tier's devices
 * are not filled in yet).  *host and *fs are malloc'd, NULL when unknown.
 * Returns 0 or -ENOMEM.
 */
static int host_of(const struct advisor_plan *plan, const struct advisor_plan_tier *tier,
		   size_t d, char **host, char **fs)
{
	const struct advisor_plan_device *pd = &plan->devs[d];
	int t = pd->tier;
	struct advisor_mount *m;
	struct found_fs f;
	size_t n;
	int rc;

	*host = *fs = NULL;
	if (is_root_disk(pd->disk))
		return dup_to(host, "/") || dup_to(fs, root_fstype(pd->disk)) ? -ENOMEM : 0;
	if (pd->p && pd->p->transport == PROFILE_TR_FILE && pd->p->path)
		return dup_to(host, pd->p->path);
	if (t >= 0 && t < TW_TIER_COUNT && t != (int)tier->tier && !plan->tiers[t].shared) {
		if ((rc = tier_mounts(plan, &plan->tiers[t], &m, &n)))
			return rc;
		for (size_t i = 0; i < n && !rc && !*host; i++)
			if (m[i].dev == (ptrdiff_t)d || (m[i].raid && in_array(&plan->tiers[t], d)) ||
			    (m[i].volume && in_volume(&plan->tiers[t], d)))
				rc = dup_to(host, m[i].point) || dup_to(fs, m[i].fs) ? -ENOMEM : 0;
		mounts_free(m, n);
		if (rc || *host)
			return rc;
	}
	if (pd->disk && find_fs(pd->disk, &f) && f.mount)
		return dup_to(host, f.mount) || dup_to(fs, f.fstype) ? -ENOMEM : 0;
	if (t >= 0 && t < TW_TIER_COUNT && t != (int)tier->tier)
		return dup_to(host, tier_base(plan, t));	/* its tier, not filled yet */
	return 0;
}

/* The one directory of a tier with no device of its own, on the filesystem
 * of tier->shared_dev.  Returns 0 or -ENOMEM. */
static int shared_mount(const struct advisor_plan *plan, const struct advisor_plan_tier *tier,
			struct slots *s, struct advisor_mount *m)
{
	ptrdiff_t d = tier->shared_dev;
	char *host = NULL, *fs = NULL;
	int rc = 0;

	m->dev = d >= 0 && (size_t)d < plan->n_devs ? d : -1;
	if (m->dev >= 0)
		rc = host_of(plan, tier, (size_t)d, &host, &fs);
	if (!rc)
		rc = directory_mount(s, host, fs, m);
	if (!rc && host)
		rc = fmt_to(&m->why, "no device of its own: a directory on the filesystem of "
			    "%s at %s; no mkfs, no fstab line", dev_id(&plan->devs[d]), host);
	else if (!rc && m->dev >= 0)
		rc = fmt_to(&m->why, "no device of its own: a directory on the filesystem of "
			    "%s once that is mounted; no mkfs, no fstab line",
			    dev_id(&plan->devs[d]));
	else if (!rc)
		rc = dup_to(&m->why, "no device of its own: a directory on an existing "
			    "filesystem; no mkfs, no fstab line");
	free(host);
	free(fs);
	return rc;
}

/* Whether the tier makes or keeps a filesystem on a device that is not
 * rotational (and so wants trimming). */
static bool wants_trim(const struct advisor_plan *plan, const struct advisor_plan_tier *tier,
		       const struct advisor_mount *m, size_t n)
{
	bool fs = false, ssd = false;

	for (size_t i = 0; i < n; i++)
		fs |= !m[i].directory;
	for (size_t i = 0; i < tier->n_devices; i++) {
		size_t d = tier->devices[i];

		if (d < plan->n_devs && plan->devs[d].p && !plan->devs[d].p->rotational)
			ssd = true;
	}
	return fs && ssd;
}

/* Append TRIM_NOTE to tier->notes unless it is there.  Returns 0 or
 * -ENOMEM (notes unaltered). */
static int add_trim_note(struct advisor_plan_tier *tier)
{
	char **v;

	if (list_has(tier->notes, tier->n_notes, TRIM_NOTE))
		return 0;
	v = realloc(tier->notes, (tier->n_notes + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	tier->notes = v;
	if (!(v[tier->n_notes] = strdup(TRIM_NOTE)))
		return -ENOMEM;
	tier->n_notes++;
	return 0;
}

int advisor_mounts_make(struct advisor_plan *plan, struct advisor_plan_tier *tier)
{
	struct advisor_mount *m;
	size_t n;
	int rc = tier_mounts(plan, tier, &m, &n);

	if (rc)
		return rc;
	if (wants_trim(plan, tier, m, n) && (rc = add_trim_note(tier))) {
		mounts_free(m, n);
		return rc;
	}
	mounts_free(tier->mounts, tier->n_mounts);
	tier->mounts = n ? m : NULL;
	tier->n_mounts = n;
	if (!n)
		free(m);
	return 0;
}

void advisor_mounts_clear(struct advisor_plan_tier *tier)
{
	mounts_free(tier->mounts, tier->n_mounts);
	tier->mounts = NULL;
	tier->n_mounts = 0;
}
