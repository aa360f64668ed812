/* Renderers of the inventory: an aligned text table and JSON. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "tw_util.h"

enum { COL_NAME, COL_TRAN, COL_MEDIA, COL_ROT, COL_SIZE, COL_SECTOR, COL_MODEL,
       COL_SERIAL, COL_FW, COL_CTRL, COL_LINK, COL_TEMP, COL_CONTENT, COL_MOUNTS, COL_RO, COL_RW,
       NCOL };

static const char *const headers[NCOL] = { "NAME", "TRAN", "MEDIA", "ROT", "SIZE",
	"SECTOR", "MODEL", "SERIAL", "FW", "CTRL", "LINK", "TEMP", "CONTENT", "MOUNTS",
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

/* One end of a link: "Gen3 x2", "8 GT/s x2" off the known generations. */
static void link_end(char *buf, size_t len, double gts, long width)
{
	char w[24] = "";

	if (width > 0)
		snprintf(w, sizeof(w), " x%ld", width);
	if (profile_link_gen(gts))
		snprintf(buf, len, "Gen%d%.12s", profile_link_gen(gts), w);
	else if (!isnan(gts))
		snprintf(buf, len, "%g GT/s%.12s", gts, w);
	else
		snprintf(buf, len, "?%.12s", w);
}

/* The PCIe link: "Gen4 x4", or "Gen3 x2 of Gen4 x4 (degraded)"; "-". */
static void link_cell(const struct probe_pcie *p, char *buf, size_t len)
{
	char cur[56], max[56];

	if (!p->present) {
		snprintf(buf, len, "-");
		return;
	}
	link_end(cur, sizeof(cur), p->speed_gts, p->width);
	link_end(max, sizeof(max), p->max_speed_gts, p->max_width);
	if (probe_pcie_degraded(p))
		snprintf(buf, len, "%s of %s (degraded)", cur, max);
	else
		snprintf(buf, len, "%s", cur);
}

static void fill_row(const struct probe_dev *d, char cells[NCOL][128])
{
	snprintf(cells[COL_NAME], 128, "%s", d->name);
	snprintf(cells[COL_TRAN], 128, "%s%s%s", profile_transport_name(d->transport),
		 d->fabric ? "-" : "", d->fabric ? d->fabric : "");	/* nvme-tcp */
	snprintf(cells[COL_MEDIA], 128, "%s", profile_media_name(d->media));
	snprintf(cells[COL_ROT], 128, "%d", d->rotational);
	render_size(cells[COL_SIZE], 128, (double)d->capacity_bytes);
	snprintf(cells[COL_SECTOR], 128, "%u/%u", d->logical_bs, d->physical_bs);
	snprintf(cells[COL_MODEL], 128, "%s", d->model ? d->model : "-");
	snprintf(cells[COL_SERIAL], 128, "%s", d->serial ? d->serial : "-");
	snprintf(cells[COL_FW], 128, "%s", d->firmware ? d->firmware : "-");
	snprintf(cells[COL_CTRL], 128, "%s", d->controller ? d->controller : "-");
	link_cell(&d->pcie, cells[COL_LINK], 128);
	if (isnan(d->temp_c))
		snprintf(cells[COL_TEMP], 128, "-");
	else
		snprintf(cells[COL_TEMP], 128, "%.0f°C", d->temp_c);	/* one word: a column */
	content_cell(d, cells[COL_CONTENT], 128);
	mounts_cell(d, cells[COL_MOUNTS], 128);
	snprintf(cells[COL_RO], 128, "%s", d->safe_readonly ? "safe" : "no");
	snprintf(cells[COL_RW], 128, "%s", d->safe_destructive ? "safe" : "no");
}

static void print_row(FILE *out, char cells[NCOL][128], const size_t *w)
{
	for (int c = 0; c < NCOL; c++) {
		if (c == NCOL - 1) {
			fprintf(out, "%s\n", cells[c]);
		} else {
			render_pad(out, cells[c], (int)w[c]);	/* columns, not bytes: °C */
			fputs("  ", out);
		}
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

/* A link to list: a device's, or one path's of a multipath head. */
struct link_at {
	const struct probe_dev *d;
	const struct probe_nvme_path *path;	/* NULL: the device's own */
	const struct probe_pcie *p;
};

/* Whether head d has a link read on any of its paths. */
static bool paths_have_links(const struct probe_dev *d)
{
	for (size_t i = 0; i < d->n_paths; i++)
		if (d->paths[i].pcie.present)
			return true;
	return false;
}

/* The degraded links of inv into v (room for every device and path): each
 * path's for a multipath head whose paths have links (the head's own is its
 * best path's), else the device's.  Returns how many. */
static size_t degraded_links(const struct probe_inventory *inv, struct link_at *v)
{
	size_t n = 0;

	for (size_t i = 0; i < inv->n; i++) {
		const struct probe_dev *d = &inv->v[i];

		if (!paths_have_links(d)) {
			if (probe_pcie_degraded(&d->pcie))
				v[n++] = (struct link_at){ d, NULL, &d->pcie };
			continue;
		}
		for (size_t k = 0; k < d->n_paths; k++)
			if (probe_pcie_degraded(&d->paths[k].pcie))
				v[n++] = (struct link_at){ d, &d->paths[k], &d->paths[k].pcie };
	}
	return n;
}

/* "nvme0n1" or "nvme0n1 path nvme0c1n1 via nvme1". */
static void link_who(FILE *out, const struct link_at *a)
{
	fputs(a->d->name, out);
	if (a->path)
		fprintf(out, " path %s via %s", a->path->name, a->path->controller);
}

/* Links that trained below what the device can do, and what it costs: one
 * line per PCI function, naming every device and path behind it (the
 * namespaces of one drive share its links). */
static void print_degraded(FILE *out, const struct probe_inventory *inv)
{
	size_t n_all = inv->n, n;
	struct link_at *v;

	for (size_t i = 0; i < inv->n; i++)
		n_all += inv->v[i].n_paths;
	if (!(v = calloc(n_all + 1, sizeof(*v))) || !(n = degraded_links(inv, v))) {
		free(v);
		return;
	}
	fprintf(out, "\nDegraded PCIe links:\n");
	for (size_t i = 0; i < n; i++) {
		const struct probe_pcie *p = v[i].p;
		double now = profile_link_mbps(p->speed_gts, p->width);
		double max = profile_link_mbps(p->max_speed_gts, p->max_width);
		char cell[128];
		bool said = false;

		for (size_t j = 0; j < i && !said; j++)
			said = !strcmp(v[j].p->address, p->address);
		if (said)
			continue;
		fputs("  ", out);
		link_who(out, &v[i]);
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(v[j].p->address, p->address)) {
				fputs(", ", out);
				link_who(out, &v[j]);
			}
		link_cell(p, cell, sizeof(cell));
		fprintf(out, ": %s at %s", cell, p->address);
		if (!isnan(now) && !isnan(max))
			fprintf(out, ": %.0f of %.0f MB/s", now, max);
		if (v[i].path)	/* one port of a dual-port drive */
			fprintf(out, "; check that port: the drive's seating in its bay, the "
				"backplane and its cable, and the port's BIOS lane bifurcation\n");
		else
			fprintf(out, "; check the slot, the riser and the BIOS lane bifurcation\n");
	}
	free(v);
}

/* "nvme1 (pcie 0001:5e:00.0, NUMA node 1)": a path's controller. */
static void path_via(const struct probe_nvme_path *p, char *buf, size_t len)
{
	char numa[32] = "";

	if (p->numa_node >= 0)
		snprintf(numa, sizeof(numa), ", NUMA node %d", p->numa_node);
	snprintf(buf, len, "%s (%s %s%s)", p->controller, p->transport ? p->transport : "?",
		 p->pci_function ? p->pci_function : p->address ? p->address : "?", numa);
}

/* NVMe multipath heads: the subsystem, its I/O policy and every path. */
static void print_multipath(FILE *out, const struct probe_inventory *inv)
{
	bool any = false;
	char via[160];

	for (size_t i = 0; i < inv->n; i++) {
		const struct probe_dev *d = &inv->v[i];

		if (!d->nvme_head)
			continue;
		if (!any)
			fprintf(out, "\nNVMe multipath (one drive, reached through several controllers):\n");
		any = true;
		fprintf(out, "  %s: %s, iopolicy %s, %zu path%s\n", d->name,
			d->subsysnqn ? d->subsysnqn : "subsystem NQN unknown",
			d->iopolicy ? d->iopolicy : "?", d->n_paths, d->n_paths == 1 ? "" : "s");
		for (size_t p = 0; p < d->n_paths; p++) {
			const struct probe_nvme_path *x = &d->paths[p];
			char link[128];

			path_via(x, via, sizeof(via));
			fprintf(out, "    %s via %s: %s, %s", x->name, via,
				x->ana_state ? x->ana_state : "ANA state unknown",
				x->state ? x->state : "state unknown");
			if (x->pcie.present) {
				link_cell(&x->pcie, link, sizeof(link));
				fprintf(out, ", link %s", link);
			}
			fputc('\n', out);
		}
	}
}

/* NVMe over Fabrics: devices reached over the network, and where. */
static void print_fabrics(FILE *out, const struct probe_inventory *inv)
{
	bool any = false;

	for (size_t i = 0; i < inv->n; i++) {
		const struct probe_dev *d = &inv->v[i];

		if (!d->fabric)
			continue;
		if (!any)
			fprintf(out, "\nNetwork-attached (NVMe over Fabrics: the network is part of "
				"every figure; no PCIe link, no local NUMA node):\n");
		any = true;
		fprintf(out, "  %s: nvme-%s via %s at %s, %s\n", d->name, d->fabric,
			d->controller ? d->controller : "?",
			d->fabric_address ? d->fabric_address : "address unknown",
			d->subsysnqn ? d->subsysnqn : "subsystem NQN unknown");
	}
}

/* Zoned devices: their model, zones, and what the model allows. */
static void print_zoned(FILE *out, const struct probe_inventory *inv)
{
	bool any = false;

	for (size_t i = 0; i < inv->n; i++) {
		const struct profile_zoned *z = &inv->v[i].zoned;
		char size[32] = "? MiB";

		if (!z->present)
			continue;
		if (!any)
			fprintf(out, "\nZoned (written in zones; see queue/zoned):\n");
		any = true;
		if (z->zone_bytes > 0)
			snprintf(size, sizeof(size), "%g MiB", z->zone_bytes / 1048576.0);
		fprintf(out, "  %s: %s, zones of %s", inv->v[i].name,
			profile_zoned_name(z->model), size);
		if (z->zones > 0)
			fprintf(out, ", %ld zones", z->zones);
		fprintf(out, ": %s\n", z->model == PROFILE_ZONED_HOST_MANAGED ?
			"writes must be zone-sequential: no random or mixed write test, no "
			"ext4/XFS" : "random writes collapse once its conventional cache is full");
	}
}

/* Warnings: multipath paths that are not optimized or not live. */
static void print_path_warnings(FILE *out, const struct probe_inventory *inv)
{
	char via[160];

	for (size_t i = 0; i < inv->n; i++)
		for (size_t p = 0; p < inv->v[i].n_paths; p++) {
			const struct probe_nvme_path *x = &inv->v[i].paths[p];

			if (!probe_nvme_path_degraded(x))
				continue;
			path_via(x, via, sizeof(via));
			fprintf(out, "warning: %s: path %s via %s is %s%s%s: the host sends I/O through it "
				"only when no optimized path is live, and slower; check the port, its "
				"link and the drive's ANA groups\n",
				inv->v[i].name, x->name, via,
				x->ana_state ? x->ana_state : "",
				x->ana_state && x->state && strcmp(x->state, "live") ? ", controller " : "",
				x->state && strcmp(x->state, "live") ? x->state : "");
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

static bool any_path_warning(const struct probe_inventory *inv)
{
	for (size_t i = 0; i < inv->n; i++)
		for (size_t p = 0; p < inv->v[i].n_paths; p++)
			if (probe_nvme_path_degraded(&inv->v[i].paths[p]))
				return true;
	return false;
}

/* Display columns of s (UTF-8 characters). */
static size_t cols(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
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
			if (cols(rows[i][c]) > w[c])
				w[c] = cols(rows[i][c]);
	for (size_t i = 0; i <= inv->n; i++)
		print_row(out, rows[i], w);
	print_degraded(out, inv);
	if (inv->n)
		fputs("(SIZE in binary units, as lsblk: G = GiB = 2^30 bytes, T = TiB = 2^40; "
		      "plan and report use decimal GB/TB = 10^9/10^12)\n", out);
	print_multipath(out, inv);
	print_fabrics(out, inv);
	print_zoned(out, inv);
	print_classes(out, inv);
	print_reasons(out, inv, false);
	print_reasons(out, inv, true);
	if (any_path_warning(inv))
		fputc('\n', out);
	print_path_warnings(out, inv);
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

static json_t *gts_json(double x)
{
	return isnan(x) ? json_null() : json_real(x);
}

static json_t *count_json(long x)
{
	return x < 0 ? json_null() : json_integer(x);
}

/* "pcie": the link, or null when the device is behind none. */
static json_t *pcie_json(const struct probe_pcie *p)
{
	json_t *o;

	if (!p->present)
		return json_null();
	o = json_object();
	json_object_set_new(o, "address", json_string(p->address));
	json_object_set_new(o, "speed_gts", gts_json(p->speed_gts));
	json_object_set_new(o, "width", count_json(p->width));
	json_object_set_new(o, "max_speed_gts", gts_json(p->max_speed_gts));
	json_object_set_new(o, "max_width", count_json(p->max_width));
	json_object_set_new(o, "upstream", strv_json(&p->upstream));
	json_object_set_new(o, "numa_node", count_json(p->numa_node));
	json_object_set_new(o, "degraded", json_boolean(probe_pcie_degraded(p)));
	return o;
}

static json_t *path_json(const struct probe_nvme_path *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "controller", json_string(p->controller));
	json_object_set_new(o, "transport", str_or_null(p->transport));
	json_object_set_new(o, "address", str_or_null(p->address));
	json_object_set_new(o, "pci_function", str_or_null(p->pci_function));
	json_object_set_new(o, "numa_node", count_json(p->numa_node));
	json_object_set_new(o, "state", str_or_null(p->state));
	json_object_set_new(o, "ana_state", str_or_null(p->ana_state));
	json_object_set_new(o, "degraded", json_boolean(probe_nvme_path_degraded(p)));
	json_object_set_new(o, "pcie", pcie_json(&p->pcie));
	return o;
}

/* "multipath": an NVMe multipath head's subsystem and paths. */
static json_t *multipath_json(const struct probe_dev *d)
{
	json_t *o = json_object(), *a = json_array();

	json_object_set_new(o, "subsysnqn", str_or_null(d->subsysnqn));
	json_object_set_new(o, "iopolicy", str_or_null(d->iopolicy));
	for (size_t i = 0; i < d->n_paths; i++)
		json_array_append_new(a, path_json(&d->paths[i]));
	json_object_set_new(o, "paths", a);
	return o;
}

/* "fabric": a network-attached device's transport and controller address. */
static json_t *fabric_json(const struct probe_dev *d)
{
	json_t *o = json_object();

	json_object_set_new(o, "transport", json_string(d->fabric));
	json_object_set_new(o, "address", str_or_null(d->fabric_address));
	return o;
}

/* "zoned": a zoned device's model, zone size and zones; null when none. */
static json_t *zoned_json(const struct profile_zoned *z)
{
	json_t *o;

	if (!z->present)
		return json_null();
	o = json_object();
	json_object_set_new(o, "model", json_string(profile_zoned_name(z->model)));
	json_object_set_new(o, "zone_bytes", count_json(z->zone_bytes));
	json_object_set_new(o, "zones", count_json(z->zones));
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
	json_object_set_new(o, "drive_id", str_or_null(d->drive_id));
	json_object_set_new(o, "transport", json_string(profile_transport_name(d->transport)));
	json_object_set_new(o, "media", json_string(profile_media_name(d->media)));
	json_object_set_new(o, "rotational", json_boolean(d->rotational));
	json_object_set_new(o, "removable", json_boolean(d->removable));
	json_object_set_new(o, "readonly", json_boolean(d->readonly));
	json_object_set_new(o, "logical_block_size", json_integer(d->logical_bs));
	json_object_set_new(o, "physical_block_size", json_integer(d->physical_bs));
	json_object_set_new(o, "capacity_bytes", json_integer(d->capacity_bytes));
	json_object_set_new(o, "controller", str_or_null(d->controller));
	if (d->nvme_head)
		json_object_set_new(o, "multipath", multipath_json(d));
	if (d->fabric)
		json_object_set_new(o, "fabric", fabric_json(d));
	json_object_set_new(o, "zoned", zoned_json(&d->zoned));
	json_object_set_new(o, "pcie", pcie_json(&d->pcie));
	json_object_set_new(o, "numa_node", count_json(d->numa_node));
	json_object_set_new(o, "local_cpulist", str_or_null(d->local_cpulist));
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
