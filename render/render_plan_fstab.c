/* render_plan_fstab.c — the plan as /etc/fstab lines and as udev rules.
 *
 * fstab: active lines (UUID=) only for filesystems that exist; filesystems
 * still to be made get a commented line to complete once mkfs has given
 * them a UUID; directories get a comment.  Mount points are written with
 * fstab(5)'s octal escapes; what cannot be written safely (a newline, a
 * UUID that is not hex and dashes) makes the renderer refuse (-EINVAL)
 * before it prints anything.
 *
 * udev: the I/O scheduler of every planned device and read-ahead for the
 * warm (model loading) tier, matched by serial when known (stable across
 * boots), else by kernel name.  Values that cannot sit inside a udev
 * string (a quote, a backslash, a control character) are refused.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_plan.h"
#include "tw_tier.h"
#include "tw_util.h"

/* ---- text that goes into comments ------------------------------------- */

void render_plan_put_comment(FILE *out, const char *s)
{
	for (s = s ? s : "-"; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

/* Print s for a comment as one shell word, since the comment offers it in a
 * command to copy: plain paths as they are, anything else in single quotes
 * (' as '\''), control characters as '?'. */
static void put_comment_word(FILE *out, const char *s)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789/._+:,=@%-";

	if (s && *s && s[strspn(s, plain)] == '\0') {
		fputs(s, out);
		return;
	}
	fputc('\'', out);
	for (s = s ? s : ""; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
	}
	fputc('\'', out);
}

static const char *tier_label(enum advisor_tier t)
{
	const char *n = advisor_tier_name(t);

	return n ? n : "?";
}

/* ---- fstab ------------------------------------------------------------- */

/* fsck pass per filesystem type: 2 for those fsck checks at boot, 0 for
 * the journalled ones whose fsck does nothing (xfs, btrfs) and the rest. */
static int fsck_pass(const char *fs)
{
	static const char *const checked[] = { "ext2", "ext3", "ext4", "vfat" };

	for (size_t i = 0; i < ARRAY_SIZE(checked); i++)
		if (!strcmp(fs, checked[i]))
			return 2;
	return 0;
}

/* Whether s is a UUID as blkid prints them: [0-9A-Fa-f-]+. */
static bool uuid_ok(const char *s)
{
	return s && *s && s[strspn(s, "0123456789abcdefABCDEF-")] == '\0';
}

/* Whether s is a plain word: non-empty, no whitespace or control characters. */
static bool word_ok(const char *s, const char *allowed)
{
	return s && *s && s[strspn(s, allowed)] == '\0';
}

/*
 * Write a mount point as fstab(5) wants it: space, tab and backslash as
 * \040, \011, \134.  Returns 0, or -EINVAL for a path that is not absolute
 * or holds a newline or another control character (nothing written then
 * matters: the caller discards the buffer).
 */
static int put_fstab_path(FILE *out, const char *s)
{
	if (!s || s[0] != '/')
		return -EINVAL;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\\')
			fprintf(out, "\\%03o", (unsigned char)*s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return -EINVAL;
		else
			fputc(*s, out);
	}
	return 0;
}

/*
 * The fields of m's fstab line after the source: "POINT FS OPTIONS 0 PASS",
 * the mount point escaped.  On success returns 0 and *fields is malloc'd
 * (the caller frees it).  -EINVAL when m cannot be written safely: a bad
 * mount point, type or options, or a UUID that is not [0-9A-Fa-f-]+;
 * -ENOMEM.  *fields is NULL on error.
 */
int render_plan_fstab_fields(const struct advisor_mount *m, char **fields)
{
	static const char fs_chars[] = "abcdefghijklmnopqrstuvwxyz0123456789._-";
	static const char opt_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789,=._-:/+";
	const char *opts = m->options && *m->options ? m->options : "defaults";
	size_t len;
	FILE *f;
	int rc;

	*fields = NULL;
	if (!word_ok(m->fs, fs_chars) || !word_ok(opts, opt_chars) ||
	    (m->uuid && !uuid_ok(m->uuid)))
		return -EINVAL;
	if (!(f = open_memstream(fields, &len)))
		return -ENOMEM;
	rc = put_fstab_path(f, m->point);
	fprintf(f, " %s %s 0 %d", m->fs, opts, fsck_pass(m->fs));
	if (fclose(f) || !*fields)
		rc = -ENOMEM;
	if (rc) {
		free(*fields);
		*fields = NULL;
	}
	return rc;
}

/* Check every mount that gets a line.  Returns 0 or -EINVAL / -ENOMEM. */
static int fstab_check(const struct advisor_plan *plan)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		for (size_t i = 0; i < tier->n_mounts; i++) {
			char *fields;
			int rc;

			if (tier->mounts[i].directory)
				continue;
			if ((rc = render_plan_fstab_fields(&tier->mounts[i], &fields)))
				return rc;
			free(fields);
		}
	}
	return 0;
}

/* The line (or comment) of one mount; fields from render_plan_fstab_fields(). */
static void fstab_mount(FILE *out, const struct advisor_mount *m, const char *fields)
{
	if (m->directory) {
		fputs("# ", out);
		render_plan_put_comment(out, m->point);
		fputs(": a directory on an existing filesystem, no line needed\n", out);
	} else if (m->reuse && m->uuid) {
		fputs("# existing filesystem on ", out);
		render_plan_put_comment(out, m->source);
		fprintf(out, ", kept as it is\nUUID=%s %s\n", m->uuid, fields);
	} else if (m->reuse) {
		fputs("# ", out);
		render_plan_put_comment(out, m->source);
		fputs(": existing data without a UUID tierwise knows; add its line by hand:\n"
		      "# UUID=<its-uuid> ", out);
		fprintf(out, "%s\n", fields);
	} else if (m->source && m->source[0] != '/') {	/* a catalog entry: no device node to name */
		fprintf(out, "# new %s on ", m->fs);
		render_plan_put_comment(out, m->source);
		fputs(": a catalog entry, not a device of this machine; once the filesystem is "
		      "made on the real device, replace <new-uuid> with `blkid -s UUID -o value "
		      "/dev/<its node>`\n", out);
		fprintf(out, "# after mkfs: UUID=<new-uuid> %s\n", fields);
	} else {
		fprintf(out, "# new %s on ", m->fs);
		render_plan_put_comment(out, m->source);
		fputs(": once made, replace <new-uuid> with `blkid -s UUID -o value ", out);
		put_comment_word(out, m->source);
		fprintf(out, "`\n# after mkfs: UUID=<new-uuid> %s\n", fields);
	}
}

int render_plan_print_fstab(FILE *out, const struct advisor_plan *plan)
{
	int rc = fstab_check(plan);

	if (rc)
		return rc;
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		fprintf(out, "# %s tier%s\n", tier_label(tier->tier),
			tier->n_mounts ? "" : ": nothing to mount");
		for (size_t i = 0; i < tier->n_mounts; i++) {
			char *fields = NULL;

			if (!tier->mounts[i].directory &&
			    (rc = render_plan_fstab_fields(&tier->mounts[i], &fields)))
				return rc;
			fstab_mount(out, &tier->mounts[i], fields);
			free(fields);
		}
	}
	return 0;
}

static int print_fstab(FILE *out, const struct advisor_plan *plan)
{
	int rc = fstab_check(plan);

	if (rc)
		return rc;
	fputs("# /etc/fstab lines suggested by `tierwise plan` (" PLAN_SCHEMA ").\n"
	      "# Review, then append to /etc/fstab.  Active lines are filesystems that\n"
	      "# exist (by UUID); \"# after mkfs:\" lines are for filesystems still to be\n"
	      "# made.  nofail + x-systemd.device-timeout=10s: a dead data disk does not\n"
	      "# stop the boot.  No \"discard\": SSDs are trimmed weekly by fstrim.timer\n"
	      "# (systemctl enable --now fstrim.timer).\n"
	      "# <file system> <mount point> <type> <options> <dump> <pass>\n", out);
	return render_plan_print_fstab(out, plan);
}

const struct render_plan_ops render_plan_fstab = { .name = "fstab", .print = print_fstab };

/* ---- udev -------------------------------------------------------------- */

/* How a device is matched in a rule. */
struct udev_match {
	char serial[128];	/* normalised like ID_SERIAL_SHORT; "" = by name */
	const char *name;	/* kernel name, or the profile id (placeholder) */
	bool placeholder;	/* name is a profile id, not a device here */
	bool serial_unusable;	/* a serial udev cannot match exactly (glob) */
	bool safe;		/* name and serial can be quoted */
};

/* Whether s can sit inside a udev "..." string: no quote, backslash or
 * control character. */
static bool udev_quotable(const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* Whether s matches only itself in a udev match (no glob or '|'). */
static bool udev_literal(const char *s)
{
	return !strpbrk(s, "*?[]|");
}

/* The serial as udev's ID_SERIAL_SHORT has it: trimmed, inner whitespace
 * runs as '_'.  Returns false when it does not fit or is empty. */
static bool udev_serial(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	for (; *s && o + 1 < len; s++) {
		if (*s == ' ' || *s == '\t') {
			if (s[strspn(s, " \t")] == '\0')
				break;
			buf[o++] = '_';
			s += strspn(s, " \t") - 1;
		} else {
			buf[o++] = *s;
		}
	}
	buf[o] = '\0';
	return o > 0 && !*s;
}

/* How to match plan device pd (see struct udev_match). */
static void udev_match_of(const struct advisor_plan_device *pd, struct udev_match *m)
{
	const char *serial = pd->disk && pd->disk->serial ? pd->disk->serial : pd->p->serial;
	const char *path = pd->p->path;

	memset(m, 0, sizeof(*m));
	if (pd->disk && pd->disk->name)
		m->name = pd->disk->name;
	else if (path && !strncmp(path, "/dev/", 5) && path[5] && !strchr(path + 5, '/'))
		m->name = path + 5;
	else
		m->name = pd->p->id, m->placeholder = true;
	m->safe = udev_quotable(m->name) && udev_literal(m->name) && *m->name;
	if (serial && !udev_quotable(serial))
		m->safe = false;
	else if (serial && udev_serial(serial, m->serial, sizeof(m->serial)) &&
		 !udev_literal(m->serial))
		m->serial[0] = '\0', m->serial_unusable = true;
}

/* The I/O scheduler for p and why; NULL when the device has none to set
 * (md, dm, zram: stacked or RAM devices; files). */
static const char *udev_scheduler(const struct profile_device *p, const char **why)
{
	switch (p->transport) {
	case PROFILE_TR_NVME:
		if (p->rotational)
			break;
		*why = "NVMe: deep hardware queues; a host scheduler only adds latency";
		return "none";
	case PROFILE_TR_VIRTIO:
	case PROFILE_TR_LOOP:
		if (p->rotational)
			break;
		*why = "virtual device: the layer below schedules; none avoids doing it twice";
		return "none";
	case PROFILE_TR_SATA:
	case PROFILE_TR_SAS:
	case PROFILE_TR_USB:
		break;
	default:
		*why = "no I/O scheduler of its own (stacked, RAM or file)";
		return NULL;
	}
	*why = p->rotational ? "HDD: mq-deadline bounds how long reads wait behind writes"
			     : "SATA/SAS SSD: one shallow queue; mq-deadline keeps reads from "
			       "starving behind writes";
	return "mq-deadline";
}

static const char WARM_COMMENT[] =
	"# read_ahead_kb=4096 for the warm (model loading) tier: model files are read\n"
	"# in long sequential streams; 4 MiB of read-ahead keeps large requests in\n"
	"# flight where the 128 KiB default issues small ones.  The other tiers keep\n"
	"# the default: read-ahead would waste page cache on their random reads.\n";

static const char MATCH[] = "ACTION==\"add|change\", SUBSYSTEM==\"block\", ";

/* Whether device d is a member of the tier's md array. */
static bool in_array(const struct advisor_plan_tier *tier, size_t d)
{
	for (size_t i = 0; tier->raid.level != ADVISOR_RAID_NONE && i < tier->raid.n; i++)
		if (tier->raid.members[i] == d)
			return true;
	return false;
}

/* The rule of device d in tier t (or a comment why there is none). */
static void udev_device(FILE *out, const struct advisor_plan *plan,
			const struct advisor_plan_tier *tier, size_t d)
{
	const struct advisor_plan_device *pd = &plan->devs[d];
	const char *why = NULL, *sched = udev_scheduler(pd->p, &why);
	bool ra = tier->tier == ADVISOR_WARM && !in_array(tier, d) && !advisor_volume_has(tier, d);
	struct udev_match m;

	udev_match_of(pd, &m);
	fputs("# ", out);
	render_plan_put_comment(out, pd->p->id);
	fprintf(out, " (%s tier", tier_label(tier->tier));
	if (pd->p->model && *pd->p->model)
		fputs(", ", out), render_plan_put_comment(out, pd->p->model);
	fputs("): ", out);
	render_plan_put_comment(out, why);
	fputc('\n', out);
	if (!m.safe) {
		fputs("# skipped: its name or serial cannot be quoted in a udev rule\n", out);
		return;
	}
	if (m.placeholder)
		fputs("# a catalog entry, not a device here: KERNEL is its profile id, a\n"
		      "# placeholder to replace with the device's kernel name\n", out);
	if (m.serial_unusable)
		fputs("# its serial holds udev glob characters: matched by kernel name\n", out);
	if (!sched && !ra)
		return;
	fputs(MATCH, out);
	if (m.serial[0])
		fprintf(out, "ENV{DEVTYPE}==\"disk\", ENV{ID_SERIAL_SHORT}==\"%s\"", m.serial);
	else
		fprintf(out, "KERNEL==\"%s\"", m.name);
	if (sched)
		fprintf(out, ", ATTR{queue/scheduler}=\"%s\"", sched);
	if (ra)
		fprintf(out, ", ATTR{queue/read_ahead_kb}=\"%d\"", TW_WARM_READ_AHEAD_KB);
	fputc('\n', out);
}

/* Whether a name can be matched literally in a rule. */
static bool udev_array_ok_name(const char *s)
{
	return s && *s && udev_quotable(s) && udev_literal(s);
}

/* Whether the tier's array name can be matched in a rule. */
static bool udev_array_ok(const struct advisor_raid *r)
{
	return udev_array_ok_name(r->name);
}

/* Read-ahead on the warm tier's md array, found by its name: MD_DEVNAME is
 * imported here because 63-md-raid-arrays.rules runs after this file. */
static void udev_array(FILE *out, const struct advisor_raid *r)
{
	const char *level = advisor_raid_name(r->level);

	fprintf(out, "# the %s array ", level ? level : "md");
	render_plan_put_comment(out, r->name);
	fputs(" (warm tier): read-ahead on the array, whose page cache the\n"
	      "# loaders use; MD_DEVNAME comes from mdadm (63-md-raid-arrays.rules runs later)\n", out);
	if (!udev_array_ok(r)) {
		fputs("# skipped: its name cannot be quoted in a udev rule\n", out);
		return;
	}
	fprintf(out, "%sKERNEL==\"md*\", ENV{MD_DEVNAME}==\"\", "
		"IMPORT{program}=\"/sbin/mdadm --detail --no-devices --export $devnode\"\n",
		MATCH);
	fprintf(out, "%sKERNEL==\"md*\", ENV{MD_DEVNAME}==\"%s\", "
		"ATTR{queue/read_ahead_kb}=\"%d\"\n", MATCH, r->name, TW_WARM_READ_AHEAD_KB);
}

/* Read-ahead on the warm tier's LVM volume, found by its names (set by
 * 11-dm-lvm.rules, which runs before this file). */
static void udev_volume(FILE *out, const struct advisor_volume *v)
{
	fputs("# the LVM volume ", out);
	render_plan_put_comment(out, v->vg);
	fputc('/', out);
	render_plan_put_comment(out, v->lv);
	fputs(" (warm tier): read-ahead on the volume, whose page cache the\n"
	      "# loaders use; DM_VG_NAME and DM_LV_NAME come from 11-dm-lvm.rules\n", out);
	if (!udev_array_ok_name(v->vg) || !udev_array_ok_name(v->lv)) {
		fputs("# skipped: its name cannot be quoted in a udev rule\n", out);
		return;
	}
	fprintf(out, "%sKERNEL==\"dm-*\", ENV{DM_VG_NAME}==\"%s\", ENV{DM_LV_NAME}==\"%s\", "
		"ATTR{queue/read_ahead_kb}=\"%d\"\n", MATCH, v->vg, v->lv, TW_WARM_READ_AHEAD_KB);
}

void render_plan_print_udev_rules(FILE *out, const struct advisor_plan *plan)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		if (tier->tier == ADVISOR_WARM && tier->n_devices)
			fputs(WARM_COMMENT, out);
		for (size_t i = 0; i < tier->n_devices; i++)
			if (tier->devices[i] < plan->n_devs && !plan->devs[tier->devices[i]].excluded)
				udev_device(out, plan, tier, tier->devices[i]);
		if (tier->tier == ADVISOR_WARM && tier->raid.level != ADVISOR_RAID_NONE &&
		    !tier->volume.n)
			udev_array(out, &tier->raid);
		if (tier->tier == ADVISOR_WARM && tier->volume.n)
			udev_volume(out, &tier->volume);
	}
}

/* Whether every rule can be written.  Returns 0 or -EINVAL. */
static int udev_check(const struct advisor_plan *plan)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		for (size_t i = 0; i < tier->n_devices; i++) {
			struct udev_match m;

			if (tier->devices[i] >= plan->n_devs)
				continue;
			udev_match_of(&plan->devs[tier->devices[i]], &m);
			if (!m.safe)
				return -EINVAL;
		}
		if (tier->tier == ADVISOR_WARM && tier->raid.level != ADVISOR_RAID_NONE &&
		    !udev_array_ok(&tier->raid))
			return -EINVAL;
	}
	return 0;
}

static int print_udev(FILE *out, const struct advisor_plan *plan)
{
	int rc = udev_check(plan);

	if (rc)
		return rc;
	fputs("# udev rules suggested by `tierwise plan` (" PLAN_SCHEMA "):\n"
	      "# install as /etc/udev/rules.d/60-tierwise.rules, then\n"
	      "# udevadm control --reload && udevadm trigger --subsystem-match=block --action=change\n"
	      "# Matched by serial (ID_SERIAL_SHORT, set by 60-persistent-storage.rules)\n"
	      "# when known, as kernel names can change between boots.\n", out);
	render_plan_print_udev_rules(out, plan);
	return 0;
}

const struct render_plan_ops render_plan_udev = { .name = "udev", .print = print_udev };
