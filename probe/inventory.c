/* The device inventory: sysfs + libblkid through a relocatable sysroot. */
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

/* The entries of the device's directory sub (holders, slaves) into s. */
static int strv_from_dir(const struct probe_sysdev *h, struct probe_strv *s,
			 const char *sub)
{
	char **names;
	size_t n;
	int ret = probe_sysdev_list(h, sub, &names, &n);

	if (ret < 0)
		return ret;
	s->v = names;
	s->n = n;
	return 0;
}

static void sig_free(struct probe_sig *s)
{
	free(s->error);
	free(s->type);
	free(s->uuid);
	free(s->label);
	free(s->pttype);
}

static char *blkid_value(blkid_probe pr, const char *name)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) == 0 && v && *v)
		return strdup(v);
	return NULL;
}

static void sig_error(struct probe_sig *s, const char *what, const char *name, int e)
{
	if (asprintf(&s->error, "%s /dev/%s: %s", what, name, strerror(e)) < 0)
		s->error = NULL;
}

/* Look for signatures on sysroot/dev/name with libblkid (read-only). */
static void read_sig(const struct probe_scan *sc, const char *name, struct probe_sig *s)
{
	char path[PATH_MAX];
	blkid_probe pr;
	int fd, rc;

	if (probe_sys_path(sc->root, path, sizeof(path), "dev/%s", name) < 0)
		return sig_error(s, "cannot open", name, ENAMETOOLONG);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return sig_error(s, "cannot open", name, errno);
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0) < 0) {
		sig_error(s, "libblkid could not probe", name, ENOMEM);
		goto out;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID |
					  BLKID_SUBLKS_LABEL | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == -1) {
		sig_error(s, "libblkid could not probe", name, EIO);
		goto out;
	}
	s->probed = true;
	if (rc == -2 && !(s->type = strdup("ambivalent (several signatures)")))
		goto out;
	if (rc == 0) {
		s->type = blkid_value(pr, "TYPE");
		s->uuid = blkid_value(pr, "UUID");
		s->label = blkid_value(pr, "LABEL");
		s->pttype = blkid_value(pr, "PTTYPE");
	}
out:
	blkid_free_probe(pr);
	close(fd);
}

static int64_t read_size(const struct probe_sysdev *h)
{
	uint64_t sectors;

	if (probe_sysdev_u64(h, "size", &sectors) < 0)
		return -1;
	return (int64_t)(sectors * 512);
}

/* Read partition name of a disk into p; h is its directory, sys/block/DISK/NAME. */
static int read_part(const struct probe_scan *sc, const struct probe_sysdev *h,
		     const char *name, struct probe_part *p)
{
	char *mm;

	if (!(p->name = strdup(name)))
		return -ENOMEM;
	mm = probe_sysdev_str(h, "dev");
	snprintf(p->majmin, sizeof(p->majmin), "%s", mm ? mm : "");
	free(mm);
	p->size_bytes = read_size(h);
	read_sig(sc, name, &p->sig);
	if (strv_from_dir(h, &p->holders, "holders") < 0)
		return -ENOMEM;
	return probe_inv_find_mounts(sc, name, p->majmin, &p->mounts, &p->swap, &p->sig);
}

/* The entry e of disk's directory when it is a partition's: 0 or -errno. */
static int partition_dir(const struct probe_sysdev *disk, const char *e,
			 struct probe_sysdev *part)
{
	uint64_t n;
	int ret = probe_sysdev_sub(part, disk, e);

	return ret < 0 ? ret : probe_sysdev_u64(part, "partition", &n);
}

static int read_parts(const struct probe_scan *sc, const struct probe_sysdev *h,
		      struct probe_dev *d)
{
	char **names;
	size_t n;
	int ret = probe_sysdev_list(h, NULL, &names, &n);

	for (size_t i = 0; !ret && i < n; i++) {
		struct probe_sysdev part;
		struct probe_part *v;

		if (partition_dir(h, names[i], &part) < 0)
			continue;
		v = realloc(d->parts, (d->n_parts + 1) * sizeof(*v));
		if (!v) {
			ret = -ENOMEM;
			break;
		}
		d->parts = v;
		memset(&v[d->n_parts], 0, sizeof(*v));
		ret = read_part(sc, &part, names[i], &v[d->n_parts++]);
	}
	probe_sys_names_free(names, n);
	return ret;
}

static enum profile_transport transport_of(const char *name, const char *real)
{
	static const struct { const char *prefix; enum profile_transport t; } pfx[] = {
		{ "loop", PROFILE_TR_LOOP }, { "zram", PROFILE_TR_ZRAM },
		{ "md", PROFILE_TR_MD }, { "dm-", PROFILE_TR_DM },
		{ "nvme", PROFILE_TR_NVME }, { "mmcblk", PROFILE_TR_MMC },
	};
	static const struct { const char *part; enum profile_transport t; } path[] = {
		{ "/usb", PROFILE_TR_USB }, { "/ata", PROFILE_TR_SATA },
		{ "/port-", PROFILE_TR_SAS }, { "/end_device-", PROFILE_TR_SAS },
		{ "/sas", PROFILE_TR_SAS }, { "/virtio", PROFILE_TR_VIRTIO },
		{ "/nvme/", PROFILE_TR_NVME }, { "/mmc_host/", PROFILE_TR_MMC },
	};

	for (size_t i = 0; i < ARRAY_SIZE(pfx); i++)
		if (!strncmp(name, pfx[i].prefix, strlen(pfx[i].prefix)))
			return pfx[i].t;
	for (size_t i = 0; i < ARRAY_SIZE(path); i++)
		if (strstr(real, path[i].part))
			return path[i].t;
	return PROFILE_TR_OTHER;
}

enum profile_media probe_guess_media(enum profile_transport t, bool rotational,
				     const char *model)
{
	/* Intel/Solidigm Optane model numbers: 900P/905P (SSDPED1D, SSDPE21D),
	 * P4800X/P4801X (SSDPED1K, SSDPE21K, SSDPEL1K), P5800X (SSDPF21Q,
	 * SSDPF61Q), M10 (MEMPEK1). */
	static const char *const optane[] = { "optane", "ssdped1d", "ssdpe21d",
		"ssdped1k", "ssdpe21k", "ssdpel1k", "ssdpf21q", "ssdpf61q", "mempek1" };

	if (t == PROFILE_TR_ZRAM)
		return PROFILE_MEDIA_RAM;
	for (size_t i = 0; model && i < ARRAY_SIZE(optane); i++)
		if (strcasestr(model, optane[i]))
			return PROFILE_MEDIA_3DXPOINT;
	switch (t) {
	case PROFILE_TR_NVME: case PROFILE_TR_SATA: case PROFILE_TR_SAS:
	case PROFILE_TR_USB: case PROFILE_TR_MMC: case PROFILE_TR_OTHER:
		if (rotational)
			return PROFILE_MEDIA_HDD;
		return t == PROFILE_TR_OTHER ? PROFILE_MEDIA_UNKNOWN : PROFILE_MEDIA_NAND;
	default:
		return PROFILE_MEDIA_UNKNOWN;
	}
}

/* SCSI unit serial number page 0x80: 4-byte header, then the serial. */
static char *vpd80_serial(const struct probe_sysdev *h)
{
	unsigned char buf[256];
	long n = probe_sysdev_bin(h, "device/vpd_pg80", buf, sizeof(buf));
	size_t len, b = 4, e;

	if (n < 4 || buf[1] != 0x80)
		return NULL;
	len = ((size_t)buf[2] << 8 | buf[3]);
	e = 4 + len < (size_t)n ? 4 + len : (size_t)n;
	while (b < e && buf[b] == ' ')
		b++;
	while (e > b && (buf[e - 1] == ' ' || buf[e - 1] == '\0'))
		e--;
	return e > b ? strndup((const char *)buf + b, e - b) : NULL;
}

/*
 * ATA IDENTIFY words [w0, w0+nw) from the ATA Information VPD page (0x89),
 * which holds the full model (40 chars) where sysfs's model is cut at 16.
 * IDENTIFY data starts at byte 60; each 16-bit word is byte-swapped.
 */
static char *vpd89_string(const struct probe_sysdev *h, unsigned w0, unsigned nw)
{
	unsigned char buf[572];
	char out[96];
	long n = probe_sysdev_bin(h, "device/vpd_pg89", buf, sizeof(buf));
	size_t b = 0, e = 0;

	if (n < 60 + 512 || buf[1] != 0x89 || nw * 2 >= sizeof(out))
		return NULL;
	for (unsigned i = 0; i < nw; i++) {
		out[2 * i] = (char)buf[60 + 2 * (w0 + i) + 1];
		out[2 * i + 1] = (char)buf[60 + 2 * (w0 + i)];
	}
	e = nw * 2;
	while (b < e && out[b] == ' ')
		b++;
	while (e > b && (out[e - 1] == ' ' || out[e - 1] == '\0'))
		e--;
	return e > b ? strndup(out + b, e - b) : NULL;
}

/* Prefer the full ATA model to sysfs's 16-character SCSI INQUIRY one. */
static void ata_identity(const struct probe_sysdev *h, struct probe_dev *d)
{
	char *model = vpd89_string(h, 27, 20);
	char *fw = vpd89_string(h, 23, 4);

	if (model) {
		free(d->model);
		d->model = model;
	}
	if (fw) {
		free(d->firmware);
		d->firmware = fw;
	}
}

/* nvme0n1 → nvme0: the controller the namespace's "device" link names. */
static char *nvme_controller(const struct probe_sysdev *h)
{
	char real[PATH_MAX];
	const char *base;

	if (probe_sysdev_realpath(h, "device", real, sizeof(real)) < 0)
		return NULL;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (!strncmp(base, "nvme", 4) && isdigit((unsigned char)base[4]))
		return strdup(base);
	return NULL;
}

static void read_identity(const struct probe_sysdev *h, struct probe_dev *d)
{
	if (d->nvme_head)
		return;	/* read from the subsystem (inventory_nvme.c) */
	if (d->transport == PROFILE_TR_NVME && (d->controller = nvme_controller(h))) {
		d->model = probe_sysdev_str(h, "device/model");
		d->serial = probe_sysdev_str(h, "device/serial");
		d->firmware = probe_sysdev_str(h, "device/firmware_rev");
		return;
	}
	if (d->transport == PROFILE_TR_MMC) {	/* the card's CID fields */
		d->model = probe_sysdev_str(h, "device/name");
		d->serial = probe_sysdev_str(h, "device/serial");
		d->firmware = probe_sysdev_str(h, "device/fwrev");
		return;
	}
	d->model = probe_sysdev_str(h, "device/model");
	d->firmware = probe_sysdev_str(h, "device/rev");
	d->serial = probe_sysdev_str(h, "serial");
	if (!d->serial)
		d->serial = vpd80_serial(h);
	if (d->transport == PROFILE_TR_SATA || d->transport == PROFILE_TR_SAS)
		ata_identity(h, d);
	d->md_level = probe_sysdev_str(h, "md/level");
	d->dm_name = probe_sysdev_str(h, "dm/name");
	d->backing_file = probe_sysdev_str(h, "loop/backing_file");
}

static void read_queue(const struct probe_sysdev *h, struct probe_dev *d)
{
	uint64_t v;

	if (probe_sysdev_u64(h, "queue/rotational", &v) == 0)
		d->rotational = v != 0;
	if (probe_sysdev_u64(h, "removable", &v) == 0)
		d->removable = v != 0;
	if (probe_sysdev_u64(h, "ro", &v) == 0)
		d->readonly = v != 0;
	d->logical_bs = probe_sysdev_u64(h, "queue/logical_block_size", &v) == 0 ?
		(unsigned)v : 512;
	d->physical_bs = probe_sysdev_u64(h, "queue/physical_block_size", &v) == 0 ?
		(unsigned)v : d->logical_bs;
}

/* d->zoned from queue/zoned ("none", "host-aware", "host-managed"),
 * queue/chunk_sectors (the zone size) and queue/nr_zones; absent or "none":
 * not zoned. */
static void read_zoned(const struct probe_sysdev *h, struct probe_dev *d)
{
	char *model = probe_sysdev_str(h, "queue/zoned");
	uint64_t v;

	d->zoned.zone_bytes = d->zoned.zones = -1;
	for (int m = PROFILE_ZONED_HOST_AWARE; model && m < PROFILE_ZONED_COUNT; m++)
		if (!strcmp(model, profile_zoned_name(m))) {
			d->zoned.present = true;
			d->zoned.model = m;
		}
	free(model);
	if (!d->zoned.present)
		return;
	if (probe_sysdev_u64(h, "queue/chunk_sectors", &v) == 0 && v && v <= LONG_MAX / 512)
		d->zoned.zone_bytes = (long)(v * 512);
	if (probe_sysdev_u64(h, "queue/nr_zones", &v) == 0 && v && v <= LONG_MAX)
		d->zoned.zones = (long)v;
}

bool probe_dev_host_managed(const struct probe_dev *d)
{
	return d && d->zoned.present && d->zoned.model == PROFILE_ZONED_HOST_MANAGED;
}

/* Read device name into d; h is its directory, sys/block/NAME. */
static int read_dev(const struct probe_scan *sc, const struct probe_sysdev *h,
		    const char *name, struct probe_dev *d)
{
	char real[PATH_MAX], *mm;

	if (!(d->name = strdup(name)) || asprintf(&d->path, "/dev/%s", name) < 0)
		return -ENOMEM;
	if (probe_sysdev_realpath(h, NULL, real, sizeof(real)) < 0)
		real[0] = '\0';
	d->transport = transport_of(name, real);
	if (probe_inv_read_pcie(sc, d, real) < 0)
		return -ENOMEM;
	mm = probe_sysdev_str(h, "dev");
	snprintf(d->majmin, sizeof(d->majmin), "%s", mm ? mm : "");
	free(mm);
	d->capacity_bytes = read_size(h);
	read_queue(h, d);
	read_zoned(h, d);
	if (d->transport == PROFILE_TR_NVME && probe_inv_read_nvme(sc, h, d, real) < 0)
		return -ENOMEM;
	read_identity(h, d);
	if (probe_inv_drive_id(d) < 0)
		return -ENOMEM;
	d->media = probe_guess_media(d->transport, d->rotational, d->model);
	if (probe_inv_classify(h, d) < 0)
		return -ENOMEM;
	d->temp_c = probe_hwmon_temp(sc->root, d);
	read_sig(sc, name, &d->sig);
	if (strv_from_dir(h, &d->holders, "holders") < 0 ||
	    strv_from_dir(h, &d->slaves, "slaves") < 0 ||
	    probe_inv_find_mounts(sc, name, d->majmin, &d->mounts, &d->swap, &d->sig) < 0)
		return -ENOMEM;
	return read_parts(sc, h, d);
}

static void part_free(struct probe_part *p)
{
	free(p->name);
	sig_free(&p->sig);
	probe_inv_strv_free(&p->mounts);
	probe_inv_strv_free(&p->holders);
}

static void dev_free(struct probe_dev *d)
{
	free(d->name);
	free(d->path);
	free(d->model);
	free(d->serial);
	free(d->firmware);
	free(d->controller);
	free(d->drive_id);
	free(d->subsysnqn);
	free(d->iopolicy);
	free(d->fabric);
	free(d->fabric_address);
	for (size_t i = 0; i < d->n_paths; i++)
		probe_inv_nvme_path_free(&d->paths[i]);
	free(d->paths);
	free(d->md_level);
	free(d->dm_name);
	free(d->backing_file);
	free(d->cls_why);
	free(d->local_cpulist);
	free(d->irq_cpulist);
	free(d->pci_port);
	probe_inv_strv_free(&d->pcie.upstream);
	sig_free(&d->sig);
	probe_inv_strv_free(&d->mounts);
	probe_inv_strv_free(&d->holders);
	probe_inv_strv_free(&d->slaves);
	for (size_t i = 0; i < d->n_parts; i++)
		part_free(&d->parts[i]);
	free(d->parts);
	probe_inv_strv_free(&d->readonly_why);
	probe_inv_strv_free(&d->destructive_why);
}

void probe_inventory_free(struct probe_inventory *inv)
{
	if (!inv)
		return;
	for (size_t i = 0; i < inv->n; i++)
		dev_free(&inv->v[i]);
	free(inv->v);
	free(inv);
}

static bool has_root_majmin(const struct probe_scan *sc, const struct probe_dev *d)
{
	if (!*sc->root_majmin)
		return false;
	if (!strcmp(d->majmin, sc->root_majmin))
		return true;
	for (size_t i = 0; i < d->n_parts; i++)
		if (!strcmp(d->parts[i].majmin, sc->root_majmin))
			return true;
	return false;
}

/* The root filesystem's disk, and every disk under it (md/dm slaves). */
static void mark_root(const struct probe_scan *sc, struct probe_inventory *inv)
{
	bool changed = true;

	for (size_t i = 0; i < inv->n; i++)
		inv->v[i].root = has_root_majmin(sc, &inv->v[i]);
	while (changed) {
		changed = false;
		for (size_t i = 0; i < inv->n; i++) {
			const struct probe_dev *d = &inv->v[i];

			for (size_t s = 0; d->root && s < d->slaves.n; s++) {
				struct probe_dev *m = (struct probe_dev *)
					probe_inventory_find(inv, d->slaves.v[s]);

				if (m && !m->root)
					changed = m->root = true;
			}
		}
	}
}

/* md and dm devices take the media of their members when all agree. */
static void media_from_slaves(struct probe_inventory *inv)
{
	for (size_t i = 0; i < inv->n; i++) {
		struct probe_dev *d = &inv->v[i];
		enum profile_media m = PROFILE_MEDIA_COUNT;

		if (d->transport != PROFILE_TR_MD && d->transport != PROFILE_TR_DM)
			continue;
		for (size_t s = 0; s < d->slaves.n; s++) {
			const struct probe_dev *x = probe_inventory_find(inv, d->slaves.v[s]);
			enum profile_media xm = x ? x->media : PROFILE_MEDIA_UNKNOWN;

			m = (m == PROFILE_MEDIA_COUNT || m == xm) ? xm : PROFILE_MEDIA_UNKNOWN;
		}
		d->media = m == PROFILE_MEDIA_COUNT ? PROFILE_MEDIA_UNKNOWN : m;
	}
}

/* Whether sys/block/name is no disk of the machine: a loop device with no
 * file, or a hidden disk (an NVMe multipath path, nvmeXcYnZ: no /dev node;
 * its head, nvmeXnZ, is the disk). */
static bool skip_dev(const struct probe_sysdev *h, const char *name)
{
	char *hidden;
	bool skip;

	if (!strncmp(name, "loop", 4) && read_size(h) <= 0)
		return true;
	hidden = probe_sysdev_str(h, "hidden");
	skip = hidden && !strcmp(hidden, "1");
	free(hidden);
	return skip;
}

static int scan_devices(struct probe_scan *sc, struct probe_inventory *inv)
{
	char **names;
	size_t n;
	int ret = probe_sys_list(sc->root, &names, &n, "sys/block");

	for (size_t i = 0; !ret && i < n; i++) {
		struct probe_sysdev h;
		struct probe_dev *v;

		/* init cannot fail on a name read from sys/block */
		if (probe_sysdev_init(&h, sc->root, names[i]) < 0 || skip_dev(&h, names[i]))
			continue;
		v = realloc(inv->v, (inv->n + 1) * sizeof(*v));
		if (!v) {
			ret = -ENOMEM;
			break;
		}
		inv->v = v;
		memset(&v[inv->n], 0, sizeof(*v));
		ret = read_dev(sc, &h, names[i], &v[inv->n++]);
	}
	probe_sys_names_free(names, n);
	return ret;
}

int probe_inventory_scan(const char *sysroot, struct probe_inventory **out,
			 char *err, size_t errlen)
{
	struct probe_scan sc = { .root = sysroot };
	struct probe_inventory *inv = calloc(1, sizeof(*inv));
	char path[PATH_MAX];
	int ret = -ENOMEM;

	*out = NULL;
	if (!inv)
		goto err;
	ret = probe_sys_path(sysroot, path, sizeof(path), "sys/block");
	if (!ret && access(path, R_OK) != 0) {
		ret = -errno;
		if (err)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto err;
	}
	if (!ret)
		ret = probe_inv_read_mounts(&sc, false);
	if (!ret)
		ret = probe_inv_read_mounts(&sc, true);
	if (!ret)
		ret = scan_devices(&sc, inv);
	if (ret)
		goto err;
	mark_root(&sc, inv);
	media_from_slaves(inv);
	ret = probe_inv_class_from_slaves(inv);
	for (size_t i = 0; !ret && i < inv->n; i++)
		ret = probe_inv_judge(&inv->v[i]);
	if (ret)
		goto err;
	probe_inv_mnts_free(&sc.mounts);
	probe_inv_mnts_free(&sc.swaps);
	*out = inv;
	return 0;
err:
	if (err && ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	probe_inv_mnts_free(&sc.mounts);
	probe_inv_mnts_free(&sc.swaps);
	probe_inventory_free(inv);
	return ret;
}
