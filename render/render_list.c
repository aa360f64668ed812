/* Renderers of the inventory: an aligned text table and JSON. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "tw_util.h"

enum { COL_NAME, COL_TRAN, COL_MEDIA, COL_ROT, COL_SIZE, COL_SECTOR, COL_MODEL,
       COL_SERIAL, COL_FW, COL_CTRL, COL_TEMP, COL_CONTENT, COL_MOUNTS, COL_RO, COL_RW,
       NCOL };

static const char *const headers[NCOL] = { "NAME", "TRAN", "MEDIA", "ROT", "SIZE",
	"SECTOR", "MODEL", "SERIAL", "FW", "CTRL", "TEMP", "CONTENT", "MOUNTS",
	"READ-ONLY", "DESTRUCTIVE" };

void render_size(char *buf, size_t len, double bytes)
{
	tw_fmt_bytes(buf, len, bytes, TW_BYTES_BINARY);
}

static void append(char *buf, size_t len, const char *sep, const char *s)
{
	size_t o = strlen(buf);

	snprintf(buf + o, len - o, "%s%s", o ? sep : "", s);
}

/* What the device holds: partition table, signature, holders. */
static void content_cell(const struct probe_dev *d, char *buf, size_t len)
{
	char tmp[64];

	buf[0] = '\0';
	if (!d->sig.probed)
		append(buf, len, ", ", "?");
	if (d->sig.pttype) {
		snprintf(tmp, sizeof(tmp), "%s:%zu part", d->sig.pttype, d->n_parts);
		append(buf, len, ", ", tmp);
	} else if (d->sig.type) {
		append(buf, len, ", ", d->sig.type);
	}
	for (size_t i = 0; i < d->holders.n; i++) {
		snprintf(tmp, sizeof(tmp), "->%s", d->holders.v[i]);
		append(buf, len, " ", tmp);
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void mounts_cell(const struct probe_dev *d, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < d->mounts.n; i++)
		append(buf, len, ",", d->mounts.v[i]);
	if (d->swap)
		append(buf, len, ",", "[SWAP]");
	for (size_t p = 0; p < d->n_parts; p++) {
		for (size_t i = 0; i < d->parts[p].mounts.n; i++)
			append(buf, len, ",", d->parts[p].mounts.v[i]);
		if (d->parts[p].swap)
			append(buf, len, ",", "[SWAP]");
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void fill_row(const struct probe_dev *d, char cells[NCOL][128])
{
	snprintf(cells[COL_NAME], 128, "%s", d->name);
	snprintf(cells[COL_TRAN], 128, "%s", profile_transport_name(d->transport));
	snprintf(cells[COL_MEDIA], 128, "%s", profile_media_name(d->media));
	snprintf(cells[COL_ROT], 128, "%d", d->rotational);
	render_size(cells[COL_SIZE], 128, (double)d->capacity_bytes);
	snprintf(cells[COL_SECTOR], 128, "%u/%u", d->logical_bs, d->physical_bs);
	snprintf(cells[COL_MODEL], 128, "%s", d->model ? d->model : "-");
	snprintf(cells[COL_SERIAL], 128, "%s", d->serial ? d->serial : "-");
	snprintf(cells[COL_FW], 128, "%s", d->firmware ? d->firmware : "-");
	snprintf(cells[COL_CTRL], 128, "%s", d->controller ? d->controller : "-");
	if (isnan(d->temp_c))
		snprintf(cells[COL_TEMP], 128, "-");
	else
		snprintf(cells[COL_TEMP], 128, "%.0fC", d->temp_c);
	content_cell(d, cells[COL_CONTENT], 128);
	mounts_cell(d, cells[COL_MOUNTS], 128);
	snprintf(cells[COL_RO], 128, "%s", d->safe_readonly ? "safe" : "no");
	snprintf(cells[COL_RW], 128, "%s", d->safe_destructive ? "safe" : "no");
}

static void print_row(FILE *out, char cells[NCOL][128], const size_t *w)
{
	for (int c = 0; c < NCOL; c++) {
		if (c == NCOL - 1)
			fprintf(out, "%s\n", cells[c]);
		else
			fprintf(out, "%-*s  ", (int)w[c], cells[c]);
	}
}

static void print_reasons(FILE *out, const struct probe_inventory *inv, bool rw)
{
	bool any = false;

	for (size_t i = 0; i < inv->n; i++) {
		const struct probe_strv *why = rw ? &inv->v[i].destructive_why :
						    &inv->v[i].readonly_why;

		if (!why->n)
			continue;
		if (!any)
			fprintf(out, "\nNot safe for %s probes:\n", rw ? "destructive" : "read-only");
		any = true;
		fprintf(out, "  %s: ", inv->v[i].name);
		for (size_t r = 0; r < why->n; r++)
			fprintf(out, "%s%s", r ? "; " : "", why->v[r]);
		fputc('\n', out);
	}
}

/* Devices that are not fixed disks: what each is, and how we know. */
static void print_classes(FILE *out, const struct probe_inventory *inv)
{
	bool any = false;

	for (size_t i = 0; i < inv->n; i++) {
		const struct probe_dev *d = &inv->v[i];

		if (probe_dev_candidate(d))
			continue;
		if (!any)
			fprintf(out, "\nNot tier candidates (not probed by default, left out of "
				"plans):\n");
		any = true;
		fprintf(out, "  %s: %s: %s\n", d->name, probe_class_name(d->cls),
			d->cls_why ? d->cls_why : "?");
	}
}

static void text_print(FILE *out, const struct probe_inventory *inv)
{
	char (*rows)[NCOL][128] = calloc(inv->n + 1, sizeof(*rows));
	size_t w[NCOL] = { 0 };

	if (!rows)
		return;
	for (int c = 0; c < NCOL; c++)
		snprintf(rows[0][c], 128, "%s", headers[c]);
	for (size_t i = 0; i < inv->n; i++)
		fill_row(&inv->v[i], rows[i + 1]);
	for (size_t i = 0; i <= inv->n; i++)
		for (int c = 0; c < NCOL; c++)
			if (strlen(rows[i][c]) > w[c])
				w[c] = strlen(rows[i][c]);
	for (size_t i = 0; i <= inv->n; i++)
		print_row(out, rows[i], w);
	print_classes(out, inv);
	print_reasons(out, inv, false);
	print_reasons(out, inv, true);
	free(rows);
}

const struct list_render_ops list_render_text = { "text", text_print };

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *strv_json(const struct probe_strv *s)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < s->n; i++)
		json_array_append_new(a, json_string(s->v[i]));
	return a;
}

static void sig_json(json_t *o, const struct probe_sig *s)
{
	json_object_set_new(o, "signatures_probed", json_boolean(s->probed));
	json_object_set_new(o, "fstype", str_or_null(s->type));
	json_object_set_new(o, "uuid", str_or_null(s->uuid));
	json_object_set_new(o, "label", str_or_null(s->label));
	json_object_set_new(o, "pttype", str_or_null(s->pttype));
}

static json_t *part_json(const struct probe_part *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "majmin", json_string(p->majmin));
	json_object_set_new(o, "size_bytes", json_integer(p->size_bytes));
	sig_json(o, &p->sig);
	json_object_set_new(o, "mountpoints", strv_json(&p->mounts));
	json_object_set_new(o, "holders", strv_json(&p->holders));
	json_object_set_new(o, "swap", json_boolean(p->swap));
	return o;
}

static json_t *verdict_json(bool ok, const struct probe_strv *why)
{
	json_t *o = json_object();

	json_object_set_new(o, "ok", json_boolean(ok));
	json_object_set_new(o, "reasons", strv_json(why));
	return o;
}

static json_t *dev_json(const struct probe_dev *d)
{
	json_t *o = json_object(), *parts = json_array();

	json_object_set_new(o, "name", json_string(d->name));
	json_object_set_new(o, "path", json_string(d->path));
	json_object_set_new(o, "majmin", json_string(d->majmin));
	json_object_set_new(o, "model", str_or_null(d->model));
	json_object_set_new(o, "serial", str_or_null(d->serial));
	json_object_set_new(o, "firmware", str_or_null(d->firmware));
	json_object_set_new(o, "transport", json_string(profile_transport_name(d->transport)));
	json_object_set_new(o, "media", json_string(profile_media_name(d->media)));
	json_object_set_new(o, "rotational", json_boolean(d->rotational));
	json_object_set_new(o, "removable", json_boolean(d->removable));
	json_object_set_new(o, "readonly", json_boolean(d->readonly));
	json_object_set_new(o, "logical_block_size", json_integer(d->logical_bs));
	json_object_set_new(o, "physical_block_size", json_integer(d->physical_bs));
	json_object_set_new(o, "capacity_bytes", json_integer(d->capacity_bytes));
	json_object_set_new(o, "controller", str_or_null(d->controller));
	json_object_set_new(o, "temperature_c", isnan(d->temp_c) ? json_null() : json_real(d->temp_c));
	sig_json(o, &d->sig);
	json_object_set_new(o, "mountpoints", strv_json(&d->mounts));
	json_object_set_new(o, "swap", json_boolean(d->swap));
	json_object_set_new(o, "holders", strv_json(&d->holders));
	json_object_set_new(o, "slaves", strv_json(&d->slaves));
	for (size_t i = 0; i < d->n_parts; i++)
		json_array_append_new(parts, part_json(&d->parts[i]));
	json_object_set_new(o, "partitions", parts);
	json_object_set_new(o, "md_level", str_or_null(d->md_level));
	json_object_set_new(o, "dm_name", str_or_null(d->dm_name));
	json_object_set_new(o, "backing_file", str_or_null(d->backing_file));
	json_object_set_new(o, "root", json_boolean(d->root));
	json_object_set_new(o, "class", json_string(probe_class_name(d->cls)));
	json_object_set_new(o, "class_reason", str_or_null(d->cls_why));
	json_object_set_new(o, "safe_readonly", verdict_json(d->safe_readonly, &d->readonly_why));
	json_object_set_new(o, "safe_destructive",
			    verdict_json(d->safe_destructive, &d->destructive_why));
	return o;
}

static void json_print(FILE *out, const struct probe_inventory *inv)
{
	json_t *root = json_object(), *devs = json_array();

	json_object_set_new(root, "schema", json_string("tierwise.inventory/1"));
	for (size_t i = 0; i < inv->n; i++)
		json_array_append_new(devs, dev_json(&inv->v[i]));
	json_object_set_new(root, "devices", devs);
	json_dumpf(root, out, JSON_INDENT(2));
	fputc('\n', out);
	json_decref(root);
}

const struct list_render_ops list_render_json = { "json", json_print };
