/* render_plan.h — renderers of an advisor_plan: one data struct, several
 * formats (text, json, md in render_plan.c; fstab, udev in
 * render_plan_fstab.c; script in render_plan_script.c).
 */
#ifndef TW_RENDER_PLAN_H
#define TW_RENDER_PLAN_H

#include <stdio.h>

#include "plan.h"

struct render_plan_ops {
	const char *name;
	/* Print the plan; returns 0, or -EINVAL when the plan cannot be
	 * rendered safely in this format (message on stderr by the caller). */
	int (*print)(FILE *out, const struct advisor_plan *plan);
};

extern const struct render_plan_ops render_plan_text, render_plan_json,
	render_plan_md, render_plan_fstab, render_plan_udev, render_plan_script;

/*
 * The udev rules of the plan (I/O scheduler per device, read_ahead_kb for
 * the model tier), one rule per line, matched by serial when known, else by
 * kernel name.  Shared by the fstab/udev/script/text renderers.
 */
void render_plan_print_udev_rules(FILE *out, const struct advisor_plan *plan);

/*
 * fstab lines of the plan: active lines for existing filesystems (UUID=),
 * commented lines for filesystems still to be made.  Returns 0, or -EINVAL
 * when a mount point or label cannot be written safely in fstab.
 */
int render_plan_print_fstab(FILE *out, const struct advisor_plan *plan);

/* Print s for a comment (fstab, udev, script): control characters (a newline
 * would end the comment and start a line of its own) become '?'.  NULL
 * prints "-". */
void render_plan_put_comment(FILE *out, const char *s);

/*
 * The fstab fields of one mount ("UUID=… /srv/models xfs noatime,… 0 0",
 * or "<new-uuid>" as the first field of a filesystem still to be made),
 * the mount point escaped.  On success returns 0 and *fields is malloc'd
 * (the caller frees it).  -EINVAL when m cannot be written safely; -ENOMEM.
 */
int render_plan_fstab_fields(const struct advisor_mount *m, char **fields);

#endif
