/* render_plan_script.c — the plan as a bash script a person reviews and runs.
 *
 * The script does nothing unless run with --apply: it checks the devices
 * (read-only) and prints each command, prefixed "would run:".  With
 * --apply it checks every device it would format before changing
 * anything, refuses a device that is not blank unless --force-device names
 * it (never one that is mounted or held), then creates the arrays and
 * filesystems, mount points, fstab lines, udev rules and mounts.  Every
 * string from the plan is single-quoted for bash; nothing is eval'd.
 * tierwise itself never runs mkfs, mdadm or mount.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tw_util.h"
#include "render_plan.h"


#define UDEV_RULES_FILE "/etc/udev/rules.d/60-tierwise.rules"

/* ---- quoting ------------------------------------------------------------ */

/* Write " WORD" for each word (NULL ends the list), quoted, then a newline. */
static void sh_words(FILE *out, const char *cmd, const char *const *words)
{
	fputs(cmd, out);
	for (; *words; words++) {
		fputc(' ', out);
		tw_shell_quote(out, *words);
	}
	fputc('\n', out);
}

/* ---- what the plan asks for -------------------------------------------- */

static bool is_path(const char *s)
{
	return s && s[0] == '/';
}

/* The device node of plan device d, or NULL (a catalog entry). */
static const char *dev_path(const struct advisor_plan *plan, size_t d)
{
	const struct advisor_plan_device *pd = &plan->devs[d];

	if (pd->disk && is_path(pd->disk->path))
		return pd->disk->path;
	return is_path(pd->p->path) ? pd->p->path : NULL;
}

/* Whether every member of the tier's array is a device of this machine. */
static bool array_ready(const struct advisor_plan *plan, const struct advisor_plan_tier *tier)
{
	for (size_t i = 0; i < tier->raid.n; i++)
		if (tier->raid.members[i] >= plan->n_devs || !dev_path(plan, tier->raid.members[i]))
			return false;
	return tier->raid.n > 0;
}

/* Whether every physical volume of the tier's volume is here. */
static bool volume_ready(const struct advisor_plan *plan, const struct advisor_plan_tier *tier)
{
	for (size_t k = 0; k < tier->volume.n; k++) {
		ptrdiff_t d = tier->volume.pv[k];

		if (d < 0 ? !array_ready(plan, tier) : (size_t)d >= plan->n_devs || !dev_path(plan, (size_t)d))
			return false;
	}
	return tier->volume.n > 0;
}

/* Whether the script can act on m (else it says why it skips it). */
static bool actionable(const struct advisor_plan *plan, const struct advisor_plan_tier *tier,
		       const struct advisor_mount *m)
{
	if (m->directory)
		return is_path(m->source);
	if (m->volume)
		return volume_ready(plan, tier) && is_path(m->source);
	if (m->raid)
		return array_ready(plan, tier) && is_path(m->source);
	if (m->reuse)
		return m->uuid && is_path(m->point);
	return is_path(m->source);
}

static bool makes_fs(const struct advisor_mount *m)
{
	return !m->reuse && !m->directory;
}

/* Whether an md array name can be used in /dev/md/NAME: [A-Za-z0-9._-]+,
 * not starting with '-' or '.'. */
static bool md_name_ok(const char *s)
{
	return s && *s && *s != '-' && *s != '.' &&
	       s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")] == '\0';
}

/* Whether the whole plan can be written as a script.  Returns 0, or
 * -EINVAL (a mount with no safe fstab line, an unusable array name). */
static int script_check(const struct advisor_plan *plan)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		for (size_t i = 0; i < tier->n_mounts; i++) {
			const struct advisor_mount *m = &tier->mounts[i];
			char *fields;
			int rc;

			if ((m->raid || (m->volume && tier->raid.level != ADVISOR_RAID_NONE)) &&
			    !md_name_ok(tier->raid.name))
				return -EINVAL;
			if (m->volume && (!md_name_ok(tier->volume.vg) || !md_name_ok(tier->volume.lv)))
				return -EINVAL;
			if (m->directory)
				continue;
			if ((rc = plan_fstab_fields(m, &fields)))
				return rc;
			free(fields);
		}
	}
	return 0;
}

/* ---- the fixed part ---------------------------------------------------- */

static const char HEADER[] =
	"#!/bin/bash\n"
	"# Set up the storage tiers of a `tierwise plan` (" PLAN_SCHEMA ").\n"
	"#\n"
	"# READ IT BEFORE RUNNING IT.  Without --apply it changes nothing: it checks\n"
	"# the devices (read-only) and prints every command it would run, prefixed\n"
	"# \"would run:\".  With --apply, as root, it\n"
	"#  1. checks every device it would format, before changing anything: no\n"
	"#     signature (blkid -p, wipefs -n), no partitions, not mounted, not swap,\n"
	"#     not held by md/dm/LVM (lsblk, /sys/class/block/*/holders).  It refuses\n"
	"#     (exit 1) a device that is not blank unless --force-device names it; a\n"
	"#     mounted or held device is refused even then;\n"
	"#  2. creates the md arrays (mdadm --create, recorded in mdadm.conf) and the\n"
	"#     new filesystems (mkfs);\n"
	"#  3. creates the mount points and appends their lines to /etc/fstab, by\n"
	"#     UUID read with blkid (a copy of /etc/fstab is kept first);\n"
	"#  4. writes " UDEV_RULES_FILE " (I/O scheduler,\n"
	"#     read-ahead) and reloads udev;\n"
	"#  5. enables fstrim.timer (weekly TRIM instead of the discard option);\n"
	"#  6. mounts the new mount points, and only those;\n"
	"#  7. creates the directories of tiers that live on an existing filesystem.\n"
	"# It stops at the first error.  tierwise itself never formats or mounts.\n"
	"#\n"
	"# Usage: SCRIPT [--apply] [--force-device DEVICE]...\n"
	"#   --apply                make the changes (as root)\n"
	"#   --force-device DEVICE  format DEVICE (/dev/sdb or sdb) although it carries\n"
	"#                          a signature or partitions: ITS DATA IS DESTROYED.\n"
	"#                          Repeatable.\n"
	"#\n"
	"# The plan:\n";

static const char FUNCTIONS[] =
	"set -euo pipefail\n"
	"\n"
	"me=${0##*/}\n"
	"apply=0\n"
	"forced=()\n"
	"usage() {\n"
	"\techo \"usage: $me [--apply] [--force-device DEVICE]...\"\n"
	"\techo 'Without --apply nothing is changed: the commands are printed (\"would run:\").'\n"
	"}\n"
	"while [ $# -gt 0 ]; do\n"
	"\tcase $1 in\n"
	"\t--apply) apply=1 ;;\n"
	"\t--force-device)\n"
	"\t\tif [ $# -lt 2 ] || [ -z \"$2\" ]; then\n"
	"\t\t\techo \"$me: --force-device needs a device\" >&2; usage >&2; exit 2\n"
	"\t\tfi\n"
	"\t\tforced+=(\"$2\"); shift ;;\n"
	"\t--force-device=?*) forced+=(\"${1#--force-device=}\") ;;\n"
	"\t-h|--help) usage; exit 0 ;;\n"
	"\t*) printf '%s: unknown argument %q\\n' \"$me\" \"$1\" >&2; usage >&2; exit 2 ;;\n"
	"\tesac\n"
	"\tshift\n"
	"done\n"
	"\n"
	"die() { printf '%s: %s\\n' \"$me\" \"$*\" >&2; exit 1; }\n"
	"# show PREFIX WORD... -- print a command, each word quoted for bash\n"
	"show() { printf '%s' \"$1\"; shift; printf ' %q' \"$@\"; printf '\\n'; }\n"
	"# run CMD... -- print the command; with --apply run it (a failure stops the script)\n"
	"run() {\n"
	"\tif [ \"$apply\" -eq 1 ]; then show 'running:' \"$@\"; \"$@\"; else show 'would run:' \"$@\"; fi\n"
	"}\n"
	"# need CMD... -- stop unless every command is installed\n"
	"need() {\n"
	"\tlocal c\n"
	"\tfor c in \"$@\"; do command -v \"$c\" >/dev/null 2>&1 || die \"$c is not installed\"; done\n"
	"}\n"
	"# is_forced DEV -- whether --force-device named DEV (path, name under /dev, or a link)\n"
	"is_forced() {\n"
	"\tlocal f real\n"
	"\treal=$(readlink -f -- \"$1\" 2>/dev/null) || real=$1\n"
	"\tfor f in ${forced[@]+\"${forced[@]}\"}; do\n"
	"\t\tcase $f in /*) ;; *) f=/dev/$f ;; esac\n"
	"\t\tif [ \"$(readlink -f -- \"$f\" 2>/dev/null || printf '%s' \"$f\")\" = \"$real\" ]; then return 0; fi\n"
	"\tdone\n"
	"\treturn 1\n"
	"}\n"
	"# in_use DEV -- print why DEV is in use (held by md/dm/LVM, mounted, swap); nothing if not\n"
	"in_use() {\n"
	"\tlocal name h mnt\n"
	"\tname=$(basename -- \"$(readlink -f -- \"$1\")\")\n"
	"\tfor h in /sys/class/block/\"$name\"/holders/* /sys/class/block/\"$name\"/\"$name\"*/holders/*; do\n"
	"\t\tif [ -e \"$h\" ]; then printf 'held by %s\\n' \"${h##*/}\"; fi\n"
	"\tdone\n"
	"\tmnt=$(lsblk -nrpo MOUNTPOINT -- \"$1\" 2>/dev/null | grep -v '^$' | tr '\\n' ' ') || true\n"
	"\tif [ -n \"$mnt\" ]; then printf 'mounted at %s\\n' \"$mnt\"; fi\n"
	"\treturn 0\n"
	"}\n"
	"# not_blank DEV -- print what DEV holds (signatures, partitions); nothing if blank\n"
	"not_blank() {\n"
	"\tlocal out rc=0\n"
	"\tout=$(blkid -p -o export -- \"$1\" 2>&1) || rc=$?\n"
	"\tcase $rc in\n"
	"\t0) printf 'blkid -p: %s\\n' \"$(printf '%s\\n' \"$out\" | grep -E '^(TYPE|PTTYPE|USAGE)=' | tr '\\n' ' ')\" ;;\n"
	"\t2) ;;\n"
	"\t*) printf 'blkid -p failed (exit %s): %s\\n' \"$rc\" \"$out\" ;;\n"
	"\tesac\n"
	"\tout=$(wipefs -n -- \"$1\" 2>&1) || { printf 'wipefs -n failed: %s\\n' \"$out\"; return 0; }\n"
	"\tif [ -n \"$out\" ]; then printf 'wipefs -n: %s\\n' \"$(printf '%s\\n' \"$out\" | tail -n +2 | tr -s ' \\n' ' ')\"; fi\n"
	"\tout=$(lsblk -nrpo NAME,TYPE -- \"$1\" 2>/dev/null | awk '$2 == \"part\" { printf \"%s \", $1 }') || true\n"
	"\tif [ -n \"$out\" ]; then printf 'partitions: %s\\n' \"$out\"; fi\n"
	"\treturn 0\n"
	"}\n"
	"# check_device DEV -- stop (exit 1) unless DEV is an unused block device, blank or forced\n"
	"check_device() {\n"
	"\tlocal use data\n"
	"\t[ -b \"$1\" ] || die \"refusing $1: not a block device on this machine\"\n"
	"\tuse=$(in_use \"$1\")\n"
	"\t[ -z \"$use\" ] || die \"refusing $1: ${use//$'\\n'/; } (never formatted, even with --force-device)\"\n"
	"\tdata=$(not_blank \"$1\")\n"
	"\tif [ -z \"$data\" ]; then echo \"ok: $1 is blank\"; return 0; fi\n"
	"\tis_forced \"$1\" || die \"refusing $1: not blank: ${data//$'\\n'/; } (--force-device $1 would destroy it)\"\n"
	"\techo \"note: $1 is not blank (${data//$'\\n'/; }): --force-device, it will be overwritten\"\n"
	"}\n"
	"# make_pv DEV -- an LVM physical volume; on a forced device, over its signatures\n"
	"make_pv() { if is_forced \"$1\"; then run pvcreate -ff -y \"$1\"; else run pvcreate \"$1\"; fi; }\n"
	"# check_new_array MD -- stop unless the array device does not exist yet\n"
	"check_new_array() { [ ! -e \"$1\" ] || die \"refusing $1: it exists already\"; }\n"
	"# md_conf MD -- record the array in mdadm.conf, so that it assembles under its name\n"
	"md_conf() {\n"
	"\tlocal conf=/etc/mdadm/mdadm.conf line\n"
	"\t[ -d /etc/mdadm ] || conf=/etc/mdadm.conf\n"
	"\tif [ \"$apply\" -eq 0 ]; then show 'would run: append mdadm --detail --brief of' \"$1\" 'to' \"$conf\"; return 0; fi\n"
	"\tline=$(mdadm --detail --brief \"$1\")\n"
	"\tshow 'running: append to' \"$conf\"; printf '%s\\n' \"$line\" >>\"$conf\"\n"
	"}\n"
	"# make_fs TYPE DEV -- a new filesystem; on a forced device, over its signatures\n"
	"make_fs() {\n"
	"\tlocal force=()\n"
	"\tif is_forced \"$2\"; then case $1 in xfs|btrfs) force=(-f) ;; ext*) force=(-F) ;; esac; fi\n"
	"\trun \"mkfs.$1\" ${force[@]+\"${force[@]}\"} \"$2\"\n"
	"}\n"
	"fstab_saved=0\n"
	"# fstab_append LINE POINT -- append LINE to /etc/fstab unless POINT is there already\n"
	"fstab_append() {\n"
	"\tif [ -e /etc/fstab ] && findmnt --fstab -n --mountpoint \"$2\" >/dev/null 2>&1; then\n"
	"\t\tshow 'skip: already in /etc/fstab:' \"$2\"; return 0\n"
	"\tfi\n"
	"\tif [ \"$apply\" -eq 0 ]; then printf 'would run: append to /etc/fstab: %s\\n' \"$1\"; return 0; fi\n"
	"\tif [ \"$fstab_saved\" -eq 0 ] && [ -e /etc/fstab ]; then\n"
	"\t\trun cp -a /etc/fstab \"/etc/fstab.before-tierwise.$(date +%Y%m%d-%H%M%S)\"; fstab_saved=1\n"
	"\tfi\n"
	"\tprintf 'running: append to /etc/fstab: %s\\n' \"$1\"\n"
	"\tprintf '%s\\n' \"$1\" >>/etc/fstab\n"
	"}\n"
	"# fstab_new DEV POINT FIELDS -- the fstab line of the filesystem just made on DEV\n"
	"fstab_new() {\n"
	"\tlocal uuid='<UUID of the new filesystem>'\n"
	"\tif [ \"$apply\" -eq 1 ]; then\n"
	"\t\tuuid=$(blkid -p -s UUID -o value -- \"$1\") || true\n"
	"\t\tcase $uuid in ''|*[!0-9A-Fa-f-]*) die \"no UUID on $1 after mkfs\" ;; esac\n"
	"\tfi\n"
	"\tfstab_append \"UUID=$uuid $3\" \"$2\"\n"
	"}\n"
	"# write_file FILE TEXT -- replace FILE with TEXT (an earlier FILE is kept as FILE.bak)\n"
	"write_file() {\n"
	"\tif [ \"$apply\" -eq 0 ]; then show 'would run: write' \"$1\"; printf '%s' \"$2\" | sed 's/^/    /'; return 0; fi\n"
	"\tif [ -e \"$1\" ]; then run cp -a -- \"$1\" \"$1.bak\"; fi\n"
	"\tshow 'running: write' \"$1\"\n"
	"\tprintf '%s' \"$2\" >\"$1\"\n"
	"}\n"
	"# mount_new POINT -- mount POINT (from /etc/fstab) unless something is mounted there\n"
	"mount_new() {\n"
	"\tif findmnt -n --mountpoint \"$1\" >/dev/null 2>&1; then show 'skip: already mounted:' \"$1\"; return 0; fi\n"
	"\trun mount --target \"$1\"\n"
	"}\n";

/* ---- the parts from the plan ------------------------------------------- */

/* One "# TIER POINT FS what" line per mount, for the header. */
static void script_summary(FILE *out, const struct advisor_plan *plan)
{
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];
		const char *name = advisor_tier_name(tier->tier);

		if (!tier->n_mounts)
			fprintf(out, "#   %-5s nothing to set up\n", name ? name : "?");
		for (size_t i = 0; i < tier->n_mounts; i++) {
			const struct advisor_mount *m = &tier->mounts[i];

			fprintf(out, "#   %-5s ", name ? name : "?");
			plan_put_comment(out, m->point);
			if (m->directory) {
				fputs("  a directory on an existing filesystem", out);
			} else {
				fputs(m->reuse ? "  existing " : "  new ", out);
				plan_put_comment(out, m->fs);
				fputs(" on ", out);
				plan_put_comment(out, m->source);
			}
			fputs(actionable(plan, tier, m) ? "\n" : "  (skipped: not on this machine)\n",
			      out);
		}
	}
	fputs("\n", out);
}

/* The tools the script runs: checks always, the rest with --apply. */
static void script_tools(FILE *out, const struct advisor_plan *plan)
{
	fputs("if [ \"$apply\" -eq 1 ] && [ \"$(id -u)\" -ne 0 ]; then die '--apply needs root'; fi\n"
	      "need blkid wipefs lsblk findmnt readlink awk sed\n"
	      "if [ \"$apply\" -eq 1 ]; then\n\tneed udevadm systemctl mount", out);
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		for (size_t i = 0; i < tier->n_mounts; i++) {
			const struct advisor_mount *m = &tier->mounts[i];

			if (!makes_fs(m) || !actionable(plan, tier, m))
				continue;
			if (m->raid || (m->volume && tier->raid.level != ADVISOR_RAID_NONE))
				fputs(" mdadm", out);
			if (m->volume)
				fputs(" pvcreate vgcreate lvcreate", out);
			fprintf(out, " mkfs.%s", m->fs);	/* [a-z0-9._-]: script_check() */
		}
	}
	fputs("\nfi\n", out);
}

/* check_new_array for the tier's md array, /dev/md/NAME. */
static void check_array_of(FILE *out, const struct advisor_plan_tier *tier)
{
	char *md = NULL;

	if (asprintf(&md, "/dev/md/%s", tier->raid.name) < 0)
		return;
	sh_words(out, "check_new_array", (const char *[]){ md, NULL });
	free(md);
}

/* check_device for every device to be formatted, check_new_array for arrays. */
static void script_checks(FILE *out, const struct advisor_plan *plan)
{
	fputs("\n# ---- 1. checks (read-only), before anything is changed\n", out);
	script_tools(out, plan);
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		for (size_t i = 0; i < tier->n_mounts; i++) {
			const struct advisor_mount *m = &tier->mounts[i];

			if (!makes_fs(m))
				continue;
			if (!actionable(plan, tier, m)) {
				sh_words(out, "printf 'skip: %s is not a device of this machine "
					 "(catalog entry)\\n'", (const char *[]){ m->source, NULL });
			} else if (m->raid || m->volume) {
				for (size_t k = 0; tier->raid.level != ADVISOR_RAID_NONE && k < tier->raid.n; k++)
					sh_words(out, "check_device",
						 (const char *[]){ dev_path(plan, tier->raid.members[k]), NULL });
				if (tier->raid.level != ADVISOR_RAID_NONE)
					check_array_of(out, tier);
				for (size_t k = 0; m->volume && k < tier->volume.n; k++)
					if (tier->volume.pv[k] >= 0)
						sh_words(out, "check_device", (const char *[]){
							 dev_path(plan, (size_t)tier->volume.pv[k]), NULL });
				if (m->volume)
					sh_words(out, "check_new_array", (const char *[]){ m->source, NULL });
			} else {
				sh_words(out, "check_device", (const char *[]){ m->source, NULL });
			}
		}
	}
	fputs("echo 'checks passed'\n", out);
}

/* mdadm --create for the tier's array, at md (/dev/md/NAME). */
static void script_array(FILE *out, const struct advisor_plan *plan,
			 const struct advisor_plan_tier *tier, const char *md)
{
	const char *level = advisor_raid_name(tier->raid.level);

	fputs("# ", out);
	plan_put_comment(out, tier->raid.tradeoff);
	fprintf(out, "\nrun mdadm --create ");
	tw_shell_quote(out, md);
	fprintf(out, " --run --level=%s --raid-devices=%zu", level ? level + 4 : "?", tier->raid.n);
	for (size_t k = 0; k < tier->raid.n; k++) {
		fputc(' ', out);
		tw_shell_quote(out, dev_path(plan, tier->raid.members[k]));
	}
	fputc('\n', out);
	sh_words(out, "md_conf", (const char *[]){ md, NULL });
}

/* The physical volume k of the tier's volume: a device node or the array. */
static const char *pv_path(const struct advisor_plan *plan, const struct advisor_plan_tier *tier,
			   size_t k, const char *md)
{
	return tier->volume.pv[k] < 0 ? md : dev_path(plan, (size_t)tier->volume.pv[k]);
}

/* The tier's array if any, then pvcreate, vgcreate and lvcreate. */
static void script_volume(FILE *out, const struct advisor_plan *plan,
			  const struct advisor_plan_tier *tier)
{
	const struct advisor_volume *v = &tier->volume;
	char *md = NULL;

	if (tier->raid.level != ADVISOR_RAID_NONE) {
		if (asprintf(&md, "/dev/md/%s", tier->raid.name) < 0)
			return;
		script_array(out, plan, tier, md);
	}
	fputs("# ", out);
	plan_put_comment(out, v->why);
	fputc('\n', out);
	for (size_t k = 0; k < v->n; k++)
		sh_words(out, "make_pv", (const char *[]){ pv_path(plan, tier, k, md), NULL });
	fputs("run vgcreate ", out);
	tw_shell_quote(out, v->vg);
	for (size_t k = 0; k < v->n; k++) {
		fputc(' ', out);
		tw_shell_quote(out, pv_path(plan, tier, k, md));
	}
	fputs("\nrun lvcreate --yes --name ", out);
	tw_shell_quote(out, v->lv);
	fputs(" --extents 100%FREE", out);
	if (v->striped)
		fprintf(out, " --stripes %zu --stripesize 256k", v->n);
	fputc(' ', out);
	tw_shell_quote(out, v->vg);
	fputc('\n', out);
	free(md);
}

/* mdadm and mkfs for every new array and filesystem. */
static void script_make(FILE *out, const struct advisor_plan *plan)
{
	bool any = false;

	fputs("\n# ---- 2. md arrays, LVM volumes and new filesystems\n", out);
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		for (size_t i = 0; i < tier->n_mounts; i++) {
			const struct advisor_mount *m = &tier->mounts[i];

			if (!makes_fs(m) || !actionable(plan, tier, m))
				continue;
			if (m->raid)
				script_array(out, plan, tier, m->source);
			if (m->volume)
				script_volume(out, plan, tier);
			fputs("# ", out);
			plan_put_comment(out, m->why);
			fputc('\n', out);
			sh_words(out, "make_fs", (const char *[]){ m->fs, m->source, NULL });
			any = true;
		}
	}
	fputs(any ? "run udevadm settle\n" : "# (none)\n", out);
}

/* mkdir and the fstab line of one mount.  Returns 0, -EINVAL or -ENOMEM. */
static int script_mount(FILE *out, const struct advisor_mount *m)
{
	char *fields = NULL, *line = NULL;
	int rc;

	if ((rc = plan_fstab_fields(m, &fields)))
		return rc;
	sh_words(out, "run mkdir -p --", (const char *[]){ m->point, NULL });
	if (!m->reuse)
		sh_words(out, "fstab_new", (const char *[]){ m->source, m->point, fields, NULL });
	else if (asprintf(&line, "UUID=%s %s", m->uuid, fields) < 0)
		rc = -ENOMEM;
	else
		sh_words(out, "fstab_append", (const char *[]){ line, m->point, NULL });
	free(line);
	free(fields);
	return rc;
}

/* Mount points and fstab lines of the filesystems.  Returns 0 or -errno. */
static int script_fstab(FILE *out, const struct advisor_plan *plan)
{
	fputs("\n# ---- 3. mount points and /etc/fstab\n", out);
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		for (size_t i = 0; i < tier->n_mounts; i++) {
			const struct advisor_mount *m = &tier->mounts[i];
			int rc;

			if (m->directory || !actionable(plan, tier, m))
				continue;
			fprintf(out, "# %s: ", advisor_tier_name(tier->tier));
			plan_put_comment(out, m->why);
			fputc('\n', out);
			if ((rc = script_mount(out, m)))
				return rc;
		}
	}
	return 0;
}

/* The udev rules file, reload, fstrim.timer.  Returns 0 or -ENOMEM. */
static int script_udev(FILE *out, const struct advisor_plan *plan)
{
	char *rules = NULL;
	size_t len;
	FILE *f = open_memstream(&rules, &len);

	if (!f)
		return -ENOMEM;
	fputs("# written by a `tierwise plan` script: I/O scheduler and read-ahead\n", f);
	plan_print_udev_rules(f, plan);
	if (fclose(f) || !rules) {
		free(rules);
		return -ENOMEM;
	}
	fputs("\n# ---- 4. udev rules (I/O scheduler, read-ahead)\n", out);
	sh_words(out, "write_file", (const char *[]){ UDEV_RULES_FILE, rules, NULL });
	fputs("run udevadm control --reload\n"
	      "run udevadm trigger --subsystem-match=block --action=change\n"
	      "\n# ---- 5. weekly TRIM instead of the discard mount option\n"
	      "run systemctl enable --now fstrim.timer\n", out);
	free(rules);
	return 0;
}

/* Mount the new mount points (not mount -a), then make the directories:
 * after the mounts, so that none hides under a filesystem mounted over it. */
static void script_mount_all(FILE *out, const struct advisor_plan *plan)
{
	fputs("\n# ---- 6. mount the new mount points (only those)\n", out);
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		for (size_t i = 0; i < tier->n_mounts; i++)
			if (!tier->mounts[i].directory && actionable(plan, tier, &tier->mounts[i]))
				sh_words(out, "mount_new", (const char *[]){ tier->mounts[i].point, NULL });
	}
	fputs("\n# ---- 7. directories on existing filesystems\n", out);
	for (int t = 0; t < TW_TIER_COUNT; t++) {
		const struct advisor_plan_tier *tier = &plan->tiers[t];

		for (size_t i = 0; i < tier->n_mounts; i++) {
			const struct advisor_mount *m = &tier->mounts[i];

			if (!m->directory || !actionable(plan, tier, m))
				continue;
			fprintf(out, "# %s: ", advisor_tier_name(tier->tier));
			plan_put_comment(out, m->why);
			fputc('\n', out);
			sh_words(out, "run mkdir -p --", (const char *[]){ m->source, NULL });
		}
	}
	fputs("\nif [ \"$apply\" -eq 1 ]; then\n\techo 'done'\nelse\n"
	      "\techo 'nothing was changed (no --apply); review the commands above'\nfi\n", out);
}

/* Whether the script can act on any mount of the plan. */
/* What --apply would do for m on a machine that has its devices, one
 * "  on the real devices, --apply would: ..." line: a catalog plan's dry run
 * says what the plan means, not only that it skips. */
static void would_do(FILE *out, const struct advisor_plan *plan,
		     const struct advisor_plan_tier *tier, const struct advisor_mount *m)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!f)
		return;
	fputs("  on the real devices, --apply would:", f);
	if (makes_fs(m) && tier->raid.level != ADVISOR_RAID_NONE && (m->raid || m->volume)) {
		fprintf(f, " create md %s /dev/md/%s over", advisor_raid_name(tier->raid.level),
			tier->raid.name);
		for (size_t k = 0; k < tier->raid.n; k++)
			fprintf(f, " %s", plan->devs[tier->raid.members[k]].p->id);
		fputc(';', f);
	}
	if (makes_fs(m) && m->volume) {
		fprintf(f, " create a %s LVM volume %s/%s over",
			tier->volume.striped ? "striped" : "linear", tier->volume.vg, tier->volume.lv);
		for (size_t k = 0; k < tier->volume.n; k++)
			fprintf(f, " %s", tier->volume.pv[k] >= 0 ?
				plan->devs[tier->volume.pv[k]].p->id : "the md array");
		fputc(';', f);
	}
	if (makes_fs(m))
		fprintf(f, m->source[0] == '/' ? " mkfs.%s on %s;" : " mkfs.%s on the device of %s;",
			m->fs, m->source);
	fprintf(f, " mkdir -p %s; add its /etc/fstab line (%s, %s); mount it", m->point, m->fs,
		m->options);
	if (fclose(f) == 0 && line)
		sh_words(out, "printf '%s\\n'", (const char *[]){ line, NULL });
	free(line);
}

static bool any_actionable(const struct advisor_plan *plan)
{
	for (int t = 0; t < TW_TIER_COUNT; t++)
		for (size_t i = 0; i < plan->tiers[t].n_mounts; i++)
			if (actionable(plan, &plan->tiers[t], &plan->tiers[t].mounts[i]))
				return true;
	return false;
}

/* The body of a script with nothing to do (every device a catalog entry or
 * not on this machine): no udev rules, no reload, no fstrim, even with --apply. */
static void script_nothing(FILE *out, const struct advisor_plan *plan)
{
	fputs("\n# ---- nothing to do: no mount of this plan is on this machine\n"
	      "# (catalog entries or devices of another host); with --apply too, this\n"
	      "# script writes no udev rules, reloads nothing and enables no timer.\n", out);
	for (int t = 0; t < TW_TIER_COUNT; t++)
		for (size_t i = 0; i < plan->tiers[t].n_mounts; i++) {
			sh_words(out, "printf 'skip: %s is not a device of this machine "
				 "(catalog entry)\\n'",
				 (const char *[]){ plan->tiers[t].mounts[i].source, NULL });
			would_do(out, plan, &plan->tiers[t], &plan->tiers[t].mounts[i]);
		}
	fputs("echo 'nothing to do: no device of this plan is on this machine; "
	      "nothing was changed'\nexit 0\n", out);
}

static int print_script(FILE *out, const struct advisor_plan *plan)
{
	int rc = script_check(plan);

	if (rc)
		return rc;
	fputs(HEADER, out);
	script_summary(out, plan);
	fputs(FUNCTIONS, out);
	if (!any_actionable(plan)) {
		script_nothing(out, plan);
		return 0;
	}
	script_checks(out, plan);
	script_make(out, plan);
	if ((rc = script_fstab(out, plan)) || (rc = script_udev(out, plan)))
		return rc;
	script_mount_all(out, plan);
	return 0;
}

const struct plan_render_ops plan_render_script = { .name = "script", .print = print_script };
