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
 *
 * The fixed text (the header, the options, the shell functions) is the
 * template plan_script.sh.in, embedded at build time; this file fills in its
 * fields and writes the parts the plan decides.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_script.h"
#include "render_plan.h"
#include "tw_util.h"


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

/* The serial the plan was made for (the inventory's, else the profile's),
 * or NULL: check_device compares it with the device's before anything. */
static const char *dev_serial(const struct advisor_plan *plan, size_t d)
{
	const struct advisor_plan_device *pd = &plan->devs[d];

	if (pd->disk && pd->disk->serial && *pd->disk->serial)
		return pd->disk->serial;
	return pd->p->serial && *pd->p->serial ? pd->p->serial : NULL;
}

/* check_device PATH [SERIAL] for plan device d. */
static void check_dev(FILE *out, const struct advisor_plan *plan, size_t d)
{
	sh_words(out, "check_device", (const char *[]){ dev_path(plan, d), dev_serial(plan, d), NULL });
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
			if ((rc = render_plan_fstab_fields(m, &fields)))
				return rc;
			free(fields);
		}
	}
	return 0;
}

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
			render_plan_put_comment(out, m->point);
			if (m->directory) {
				fputs("  a directory on an existing filesystem", out);
			} else {
				fputs(m->reuse ? "  existing " : "  new ", out);
				render_plan_put_comment(out, m->fs);
				fputs(" on ", out);
				render_plan_put_comment(out, m->source);
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
					check_dev(out, plan, tier->raid.members[k]);
				if (tier->raid.level != ADVISOR_RAID_NONE)
					check_array_of(out, tier);
				for (size_t k = 0; m->volume && k < tier->volume.n; k++)
					if (tier->volume.pv[k] >= 0)
						check_dev(out, plan, (size_t)tier->volume.pv[k]);
				if (m->volume)
					sh_words(out, "check_new_array", (const char *[]){ m->source, NULL });
			} else if (m->dev >= 0) {
				check_dev(out, plan, (size_t)m->dev);
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
	render_plan_put_comment(out, tier->raid.tradeoff);
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
	render_plan_put_comment(out, v->why);
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
			render_plan_put_comment(out, m->why);
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

	if ((rc = render_plan_fstab_fields(m, &fields)))
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
			render_plan_put_comment(out, m->why);
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
	render_plan_print_udev_rules(f, plan);
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
			render_plan_put_comment(out, m->why);
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

/* A field of the template, @NAME@: the text it stands for, or (a line of
 * its own) the part of the script the plan writes there. */
struct script_field {
	const char *marker;
	const char *text;
	void (*print)(FILE *out, const struct advisor_plan *plan);
};

static const struct script_field script_fields[] = {
	{ .marker = "@PLAN_SCHEMA@", .text = PLAN_SCHEMA },
	{ .marker = "@UDEV_RULES_FILE@", .text = UDEV_RULES_FILE },
	{ .marker = "@PLAN_SUMMARY@\n", .print = script_summary },
};

/* The template (plan_script.sh.in) with its fields filled in. */
static void script_template(FILE *out, const struct advisor_plan *plan)
{
	const char *s = render_plan_script_sh;

	while (*s) {
		size_t n = strcspn(s, "@"), i = 0;

		fwrite(s, 1, n, out);
		s += n;
		if (!*s)
			break;
		while (i < ARRAY_SIZE(script_fields) &&
		       strncmp(s, script_fields[i].marker, strlen(script_fields[i].marker)))
			i++;
		if (i == ARRAY_SIZE(script_fields)) {	/* bash's own "$@", "${a[@]}" */
			fputc(*s++, out);
			continue;
		}
		if (script_fields[i].text)
			fputs(script_fields[i].text, out);
		else
			script_fields[i].print(out, plan);
		s += strlen(script_fields[i].marker);
	}
}

static int print_script(FILE *out, const struct advisor_plan *plan)
{
	int rc = script_check(plan);

	if (rc)
		return rc;
	script_template(out, plan);
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

const struct render_plan_ops render_plan_script = { .name = "script", .print = print_script };
