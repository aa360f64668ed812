/* plan_disks.c — inventory facts for the advisor (see plan_disks.h). */
#include "plan_disks.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Copy a string vector; false on allocation failure. */
static bool copy_strv(char ***v, size_t *n, char *const *src, size_t count)
{
	*n = 0;
	*v = calloc(count ? count : 1, sizeof(**v));
	if (!*v)
		return false;
	for (size_t i = 0; i < count; i++, (*n)++)
		if (!((*v)[i] = strdup(src[i])))
			return false;
	return true;
}

static bool copy_part(struct advisor_part *p, const struct probe_part *src)
{
	p->name = dup_or_null(src->name);
	p->fstype = dup_or_null(src->sig.type);
	p->uuid = dup_or_null(src->sig.uuid);
	p->label = dup_or_null(src->sig.label);
	p->size_bytes = src->size_bytes;
	return copy_strv(&p->mounts, &p->n_mounts, src->mounts.v, src->mounts.n);
}

static bool copy_dev(struct advisor_disk *k, const struct probe_dev *d)
{
	k->name = dup_or_null(d->name);
	k->path = dup_or_null(d->path);
	k->serial = dup_or_null(d->serial);
	k->fstype = dup_or_null(d->sig.type);
	k->uuid = dup_or_null(d->sig.uuid);
	k->label = dup_or_null(d->sig.label);
	k->pttype = dup_or_null(d->sig.pttype);
	k->root = d->root;
	k->swap = d->swap;
	k->logical_bs = d->logical_bs;
	k->cls = dup_or_null(probe_class_name(d->cls));
	k->cls_why = dup_or_null(d->cls_why);
	if (!k->cls || !copy_strv(&k->mounts, &k->n_mounts, d->mounts.v, d->mounts.n) ||
	    !copy_strv(&k->holders, &k->n_holders, d->holders.v, d->holders.n))
		return false;
	k->parts = calloc(d->n_parts ? d->n_parts : 1, sizeof(*k->parts));
	if (!k->parts)
		return false;
	for (size_t i = 0; i < d->n_parts; i++, k->n_parts++)
		if (!copy_part(&k->parts[i], &d->parts[i]))
			return false;
	return true;
}

int cli_plan_disks_from_inventory(const struct probe_inventory *inv, struct cli_plan_disks *out)
{
	out->n = 0;
	out->v = calloc(inv->n ? inv->n : 1, sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n; i++) {
		out->n++;
		if (!copy_dev(&out->v[i], &inv->v[i])) {
			cli_plan_disks_free(out);
			return -ENOMEM;
		}
	}
	return 0;
}

/* ---- tierwise.inventory/1 ---- */

static char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? strdup(s) : NULL;
}

static bool jstrv(const json_t *o, const char *key, char ***v, size_t *n)
{
	const json_t *a = json_object_get(o, key);
	size_t count = json_is_array(a) ? json_array_size(a) : 0;

	*n = 0;
	*v = calloc(count ? count : 1, sizeof(**v));
	if (!*v)
		return false;
	for (size_t i = 0; i < count; i++) {
		const char *s = json_string_value(json_array_get(a, i));

		if (s && !((*v)[(*n)++] = strdup(s)))
			return false;
	}
	return true;
}

static bool read_part(struct advisor_part *p, const json_t *o)
{
	const json_t *sz = json_object_get(o, "size_bytes");

	p->name = jstr(o, "name");
	p->fstype = jstr(o, "fstype");
	p->uuid = jstr(o, "uuid");
	p->label = jstr(o, "label");
	p->size_bytes = json_is_integer(sz) ? (int64_t)json_integer_value(sz) : -1;
	return jstrv(o, "mountpoints", &p->mounts, &p->n_mounts);
}

static bool read_dev(struct advisor_disk *k, const json_t *o)
{
	const json_t *parts = json_object_get(o, "partitions");
	size_t np = json_is_array(parts) ? json_array_size(parts) : 0;

	k->name = jstr(o, "name");
	k->path = jstr(o, "path");
	k->serial = jstr(o, "serial");
	k->fstype = jstr(o, "fstype");
	k->uuid = jstr(o, "uuid");
	k->label = jstr(o, "label");
	k->pttype = jstr(o, "pttype");
	k->root = json_is_true(json_object_get(o, "root"));
	k->swap = json_is_true(json_object_get(o, "swap"));
	{
		json_int_t bs = json_integer_value(json_object_get(o, "logical_block_size"));

		k->logical_bs = bs > 0 && bs <= 1 << 20 ? (unsigned)bs : 0;
	}
	k->cls = jstr(o, "class");	/* absent in lists written before it */
	k->cls_why = jstr(o, "class_reason");
	if (!jstrv(o, "mountpoints", &k->mounts, &k->n_mounts) ||
	    !jstrv(o, "holders", &k->holders, &k->n_holders))
		return false;
	k->parts = calloc(np ? np : 1, sizeof(*k->parts));
	if (!k->parts)
		return false;
	for (size_t i = 0; i < np; i++, k->n_parts++)
		if (!read_part(&k->parts[i], json_array_get(parts, i)))
			return false;
	return true;
}

static int from_json(const json_t *root, struct cli_plan_disks *out, const char *path,
		     char *err, size_t errlen)
{
	const json_t *devs = json_object_get(root, "devices");
	const char *schema = json_string_value(json_object_get(root, "schema"));

	if (!schema || strcmp(schema, "tierwise.inventory/1") || !json_is_array(devs)) {
		snprintf(err, errlen, "%s: schema: not a tierwise.inventory/1 document "
			 "(the output of `tierwise list --format json`)", path);
		return -EINVAL;
	}
	out->v = calloc(json_array_size(devs) ? json_array_size(devs) : 1, sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	for (size_t i = 0; i < json_array_size(devs); i++) {
		const json_t *o = json_array_get(devs, i);

		if (!json_is_object(o) || !json_is_string(json_object_get(o, "name"))) {
			snprintf(err, errlen, "%s: devices[%zu].name: missing", path, i);
			return -EINVAL;
		}
		out->n++;
		if (!read_dev(&out->v[i], o))
			return -ENOMEM;
	}
	return 0;
}

static bool is_dir(FILE *f)
{
	struct stat st;

	return fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode);
}

int cli_plan_disks_load_json(const char *path, struct cli_plan_disks *out, char *err, size_t errlen)
{
	json_error_t je;
	FILE *f = fopen(path, "r");
	json_t *root;
	int ret;

	out->n = 0;
	out->v = NULL;
	if (!f || is_dir(f)) {
		ret = f ? -EISDIR : -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		if (f)
			fclose(f);
		return ret;
	}
	root = json_loadf(f, 0, &je);
	fclose(f);
	if (!root) {
		snprintf(err, errlen, "%s:%d:%d: %s", path, je.line, je.column, je.text);
		return -EINVAL;
	}
	ret = from_json(root, out, path, err, errlen);
	json_decref(root);
	if (ret)
		cli_plan_disks_free(out);
	return ret;
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p;
}

const struct advisor_disk *cli_plan_disks_match(const struct cli_plan_disks *disks,
					    const struct profile_device *d)
{
	for (size_t i = 0; disks && i < disks->n; i++) {
		const struct advisor_disk *k = &disks->v[i];

		if (d->serial && k->serial && *d->serial)
			if (!strcmp(d->serial, k->serial))
				return k;
	}
	for (size_t i = 0; disks && i < disks->n; i++) {
		const struct advisor_disk *k = &disks->v[i];

		if (d->path && k->path && !strcmp(d->path, k->path))
			return k;
		if (d->path && k->name && !strcmp(base_name(d->path), k->name))
			return k;
		if (d->id && k->name && !strcmp(d->id, k->name))
			return k;
	}
	return NULL;
}

void cli_plan_disks_free(struct cli_plan_disks *disks)
{
	if (!disks)
		return;
	for (size_t i = 0; i < disks->n; i++)
		advisor_disk_clear(&disks->v[i]);
	free(disks->v);
	disks->v = NULL;
	disks->n = 0;
}
