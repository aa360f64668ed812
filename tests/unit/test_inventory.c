/* The inventory on recorded machines (tests/fixtures/): values, not just runs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpulist.h"
#include "probe.h"
#include "tw_diag.h"

static struct probe_inventory *scan(const char *fixture)
{
	char root[4096], err[256] = "";
	const char *src = getenv("TW_SRCDIR");
	struct probe_inventory *inv = NULL;

	snprintf(root, sizeof(root), "%s/tests/fixtures/%s", src ? src : ".", fixture);
	if (probe_inventory_scan(root, &inv, err, sizeof(err)) != 0)
		fail_msg("scan %s: %s", root, err);
	return inv;
}

static const struct probe_dev *dev(const struct probe_inventory *inv, const char *name)
{
	const struct probe_dev *d = probe_inventory_find(inv, name);

	if (!d)
		fail_msg("%s not found", name);
	return d;
}

static bool has_reason(const struct probe_dev *d, const char *what)
{
	for (size_t i = 0; i < d->destructive_why.n; i++)
		if (strstr(d->destructive_why.v[i], what))
			return true;
	return false;
}

static void test_server_nvme(void **state)
{
	struct probe_inventory *inv = scan("server");
	const struct probe_dev *d;

	(void)state;
	assert_int_equal(inv->n, 9);	/* dm-0 md0 nvme0-3n1 sda sdb sdc */
	d = dev(inv, "nvme0n1");
	assert_int_equal(d->transport, PROFILE_TR_NVME);
	assert_int_equal(d->media, PROFILE_MEDIA_3DXPOINT);	/* Optane by model */
	assert_string_equal(d->model, "INTEL SSDPE21D960GA");
	assert_string_equal(d->controller, "nvme0");
	assert_float_equal(d->temp_c, 30, 1e-9);	/* the controller's hwmon */
	assert_true(d->capacity_bytes == 960197124096);
	assert_true(d->sig.probed);
	assert_null(d->sig.type);
	assert_true(d->safe_readonly);
	assert_true(d->safe_destructive);
	assert_int_equal(d->destructive_why.n, 0);

	d = dev(inv, "nvme1n1");
	assert_true(d->root);
	assert_int_equal(d->n_parts, 2);
	assert_string_equal(d->sig.pttype, "gpt");
	assert_string_equal(d->parts[1].sig.type, "ext4");
	assert_string_equal(d->parts[1].mounts.v[0], "/");
	assert_false(d->safe_destructive);
	assert_true(has_reason(d, "holds the running root filesystem"));
	assert_true(has_reason(d, "has 2 partitions"));
	assert_true(has_reason(d, "nvme1n1p1: mounted at /boot/efi"));
	assert_ptr_equal(probe_inventory_find(inv, "/dev/nvme1n1p2"), d);
	probe_inventory_free(inv);
}

static void test_server_raid_lvm_sata(void **state)
{
	struct probe_inventory *inv = scan("server");
	const struct probe_dev *d;

	(void)state;
	d = dev(inv, "nvme2n1");
	assert_string_equal(d->sig.type, "linux_raid_member");
	assert_int_equal(d->holders.n, 1);
	assert_string_equal(d->holders.v[0], "md0");
	assert_true(has_reason(d, "held by md0"));
	d = dev(inv, "md0");
	assert_int_equal(d->transport, PROFILE_TR_MD);
	assert_int_equal(d->media, PROFILE_MEDIA_NAND);	/* from its members */
	assert_string_equal(d->md_level, "raid0");
	assert_int_equal(d->slaves.n, 2);
	assert_string_equal(d->mounts.v[0], "/srv/models");
	d = dev(inv, "sdb");
	assert_int_equal(d->transport, PROFILE_TR_SATA);
	assert_int_equal(d->media, PROFILE_MEDIA_HDD);
	assert_true(d->rotational);
	assert_int_equal(d->logical_bs, 512);
	assert_int_equal(d->physical_bs, 4096);
	assert_string_equal(d->model, "ST12000VN0008-2YS101");	/* full ATA model */
	assert_float_equal(d->temp_c, 24, 1e-9);	/* drivetemp */
	assert_string_equal(d->serial, "ZRT0ABCD");
	assert_true(d->safe_destructive);
	d = dev(inv, "sdc");
	assert_string_equal(d->sig.type, "LVM2_member");
	assert_true(has_reason(d, "held by dm-0"));
	d = dev(inv, "dm-0");
	assert_string_equal(d->dm_name, "vg_archive-lv_backup");
	assert_true(isnan(d->temp_c));	/* no sensor on a dm device */
	assert_int_equal(d->media, PROFILE_MEDIA_HDD);
	d = dev(inv, "sda");
	assert_int_equal(d->media, PROFILE_MEDIA_NAND);
	assert_string_equal(d->sig.label, "scratch");
	assert_true(has_reason(d, "ext4 signature"));
	assert_false(d->root);
	probe_inventory_free(inv);
}

static void test_laptop_swap(void **state)
{
	struct probe_inventory *inv = scan("laptop");
	const struct probe_dev *d = dev(inv, "nvme0n1");

	(void)state;
	assert_int_equal(inv->n, 1);
	assert_true(d->root);
	assert_int_equal(d->n_parts, 3);
	assert_true(d->parts[2].swap);
	assert_true(has_reason(d, "nvme0n1p3: in use as swap"));
	/* mountinfo through libmount: \040 is a space, a bad line is skipped */
	assert_int_equal(d->parts[1].mounts.n, 2);
	assert_string_equal(d->parts[1].mounts.v[0], "/");
	assert_string_equal(d->parts[1].mounts.v[1], "/mnt/my disk");
	probe_inventory_free(inv);
}

static void test_vm(void **state)
{
	struct probe_inventory *inv = scan("vm");
	const struct probe_dev *d;

	(void)state;
	d = dev(inv, "vda");
	assert_int_equal(d->transport, PROFILE_TR_VIRTIO);
	assert_int_equal(d->media, PROFILE_MEDIA_UNKNOWN);
	assert_true(d->root);
	assert_false(d->sig.probed);	/* no dev file: unknown, so unsafe */
	assert_string_equal(d->sig.type, "ext4");	/* from mountinfo */
	assert_true(has_reason(d, "signatures unknown"));
	d = dev(inv, "zram0");
	assert_int_equal(d->media, PROFILE_MEDIA_RAM);
	assert_true(d->safe_destructive);
	d = dev(inv, "loop1");
	assert_int_equal(d->transport, PROFILE_TR_LOOP);
	assert_string_equal(d->sig.type, "ext4");
	assert_false(d->safe_destructive);
	probe_inventory_free(inv);
}

/* The PCIe link of each device from its /sys/devices path; nvme3n1 trained x2. */
static void test_pcie_links(void **state)
{
	struct probe_inventory *inv = scan("server");
	const struct probe_dev *d = dev(inv, "nvme3n1");
	struct profile_link l = { .present = false };

	(void)state;
	assert_true(d->pcie.present);
	assert_string_equal(d->pcie.address, "0000:04:00.0");
	assert_float_equal(d->pcie.speed_gts, 8.0, 1e-9);
	assert_int_equal(d->pcie.width, 2);
	assert_float_equal(d->pcie.max_speed_gts, 8.0, 1e-9);
	assert_int_equal(d->pcie.max_width, 4);
	assert_int_equal(d->pcie.upstream.n, 1);
	assert_string_equal(d->pcie.upstream.v[0], "0000:00:01.4");
	assert_int_equal(d->pcie.numa_node, 0);
	assert_string_equal(d->local_cpulist, "0-31");
	assert_null(d->irq_cpulist);	/* no vectors recorded: unknown */
	assert_true(probe_pcie_degraded(&d->pcie));
	assert_int_equal(probe_pcie_to_link(&d->pcie, &l), 0);
	assert_true(profile_link_degraded(&l));
	assert_string_equal(l.pcie_address, "0000:04:00.0");
	assert_int_equal(l.n_upstream, 1);
	free(l.pcie_address);
	free(l.upstream[0]);
	free(l.upstream);
	d = dev(inv, "nvme1n1");	/* Gen4 x4 at full speed */
	assert_float_equal(d->pcie.speed_gts, 16.0, 1e-9);
	assert_false(probe_pcie_degraded(&d->pcie));
	d = dev(inv, "sda");	/* AHCI on the root complex: no link, a node */
	assert_false(d->pcie.present);
	assert_int_equal(d->numa_node, 0);
	d = dev(inv, "md0");	/* virtual */
	assert_false(d->pcie.present);
	assert_int_equal(d->numa_node, -1);
	assert_null(d->local_cpulist);
	probe_inventory_free(inv);
	inv = scan("vm");	/* virtio on conventional PCI: no link */
	d = dev(inv, "vda");
	assert_false(d->pcie.present);
	assert_string_equal(d->local_cpulist, "0-1");
	/* its two MSI-X vectors (config, the one request queue) may go to
	 * either vCPU; the kernel sends both to vCPU 1 */
	assert_string_equal(d->irq_cpulist, "1");
	assert_null(dev(inv, "zram0")->irq_cpulist);	/* no PCI function */
	probe_inventory_free(inv);
	inv = scan("board");	/* behind a platform PCIe host: one bridge */
	d = dev(inv, "nvme0n1");
	assert_string_equal(d->pcie.address, "0000:01:00.0");
	assert_int_equal(d->pcie.upstream.n, 1);
	assert_string_equal(d->pcie.upstream.v[0], "0000:00:00.0");
	assert_int_equal(d->pcie.numa_node, -1);
	probe_inventory_free(inv);
	/* bandwidth per generation after line encoding */
	assert_int_equal(profile_link_gen(8.0), 3);
	assert_int_equal(profile_link_gen(2.5), 1);
	assert_int_equal(profile_link_gen(7.0), 0);
	assert_float_equal(profile_link_mbps(8.0, 4), 3938.46, 0.01);
	assert_float_equal(profile_link_mbps(5.0, 1), 500, 1e-9);
	assert_true(isnan(profile_link_mbps(NAN, 4)));
}

static void test_missing_sysroot(void **state)
{
	struct probe_inventory *inv = (struct probe_inventory *)1;
	char err[256] = "";

	(void)state;
	assert_true(probe_inventory_scan("/nonexistent-sysroot", &inv, err, sizeof(err)) < 0);
	assert_null(inv);
	assert_non_null(strstr(err, "/nonexistent-sysroot/sys/block"));
	probe_inventory_free(NULL);
}

static void test_media_guess(void **state)
{
	(void)state;
	assert_int_equal(probe_guess_media(PROFILE_TR_NVME, false, "INTEL SSDPED1D960GAY"),
			 PROFILE_MEDIA_3DXPOINT);
	assert_int_equal(probe_guess_media(PROFILE_TR_NVME, false, "INTEL OPTANE SSD P5800X"),
			 PROFILE_MEDIA_3DXPOINT);
	assert_int_equal(probe_guess_media(PROFILE_TR_NVME, false, "Samsung SSD 980 PRO 2TB"),
			 PROFILE_MEDIA_NAND);
	assert_int_equal(probe_guess_media(PROFILE_TR_USB, true, NULL), PROFILE_MEDIA_HDD);
	assert_int_equal(probe_guess_media(PROFILE_TR_LOOP, true, NULL), PROFILE_MEDIA_UNKNOWN);
	assert_int_equal(probe_guess_media(PROFILE_TR_ZRAM, false, NULL), PROFILE_MEDIA_RAM);
}

/* Not a fixed disk: class, reason, media; never destructive, not a candidate. */
static void assert_not_disk(const struct probe_dev *d, enum probe_class c, const char *why)
{
	assert_int_equal(d->cls, c);
	assert_false(probe_dev_candidate(d));
	assert_non_null(d->cls_why);
	if (!strstr(d->cls_why, why))
		fail_msg("%s: class reason \"%s\" lacks \"%s\"", d->name, d->cls_why, why);
	assert_false(d->safe_destructive);
	if (c != PROBE_CLASS_READONLY)
		assert_true(has_reason(d, "not a fixed disk: "));
}

static void test_desktop(void **state)
{
	struct probe_inventory *inv = scan("desktop");
	const struct probe_dev *d;

	(void)state;
	assert_int_equal(inv->n, 7);	/* nvme0n1 sda sdb sdc sdd sde sr0 */
	d = dev(inv, "sr0");	/* the DVD writer, no disc */
	assert_not_disk(d, PROBE_CLASS_OPTICAL, "optical drive (SCSI type 5, sr major 11)");
	assert_int_equal(d->media, PROFILE_MEDIA_OPTICAL);
	assert_int_equal(d->transport, PROFILE_TR_SATA);
	assert_true(d->removable);
	assert_int_equal(d->logical_bs, 2048);
	assert_true(d->capacity_bytes == 2097151LL * 512);
	assert_string_equal(d->model, "DRW-24D5MT");
	assert_true(d->safe_readonly);	/* an explicit read-only probe stays allowed */
	assert_int_equal(d->destructive_why.n, 1);
	d = dev(inv, "sdc");	/* the USB stick */
	assert_not_disk(d, PROBE_CLASS_REMOVABLE, "removable = 1, USB");
	assert_int_equal(d->media, PROFILE_MEDIA_REMOVABLE);
	assert_int_equal(d->transport, PROFILE_TR_USB);
	assert_string_equal(d->parts[0].mounts.v[0], "/media/alice/CRUZER");
	d = dev(inv, "sde");	/* the empty card reader */
	assert_not_disk(d, PROBE_CLASS_REMOVABLE, "removable = 1");
	assert_false(d->safe_readonly);
	d = dev(inv, "sdd");	/* the USB disk: a candidate */
	assert_int_equal(d->cls, PROBE_CLASS_DISK);
	assert_null(d->cls_why);
	assert_true(probe_dev_candidate(d));
	assert_int_equal(d->transport, PROFILE_TR_USB);
	assert_int_equal(d->media, PROFILE_MEDIA_HDD);
	assert_true(d->safe_destructive);
	d = dev(inv, "sdb");
	assert_true(probe_dev_candidate(d));
	assert_string_equal(d->model, "WDC WD10EZEX-08WN4A0");
	assert_true(d->safe_destructive);
	assert_true(probe_dev_candidate(dev(inv, "nvme0n1")));
	probe_inventory_free(inv);
}

static void test_board(void **state)
{
	struct probe_inventory *inv = scan("board");
	const struct probe_dev *d;

	(void)state;
	assert_int_equal(inv->n, 7);
	d = dev(inv, "mmcblk0");	/* the eMMC user area: a fixed disk */
	assert_int_equal(d->cls, PROBE_CLASS_DISK);
	assert_int_equal(d->transport, PROFILE_TR_MMC);
	assert_int_equal(d->media, PROFILE_MEDIA_NAND);
	assert_string_equal(d->model, "AJTD4R");
	assert_string_equal(d->serial, "0x1b7d2c94");
	assert_true(d->root);
	assert_int_equal(d->n_parts, 1);	/* boot0/boot1 are no partitions */
	d = dev(inv, "mmcblk0boot0");
	assert_not_disk(d, PROBE_CLASS_BOOT_AREA, "eMMC boot area");
	assert_true(d->readonly);
	assert_true(has_reason(d, "device is read-only"));
	assert_not_disk(dev(inv, "mmcblk0boot1"), PROBE_CLASS_BOOT_AREA, "eMMC boot area");
	d = dev(inv, "mmcblk1");	/* the SD card: removable 0 in sysfs */
	assert_false(d->removable);
	assert_not_disk(d, PROBE_CLASS_REMOVABLE, "SD card (mmc type SD)");
	assert_int_equal(d->media, PROFILE_MEDIA_REMOVABLE);
	d = dev(inv, "mtdblock0");	/* the boot loader's SPI NOR flash */
	assert_not_disk(d, PROBE_CLASS_BOOT_AREA, "MTD flash");
	assert_true(d->safe_readonly);
	d = dev(inv, "nvme0n1");
	assert_true(probe_dev_candidate(d));
	assert_true(d->safe_destructive);
	probe_inventory_free(inv);
}

/* A dual-port U.2 drive behind an NVMe multipath head. */
static void test_enterprise_multipath(void **state)
{
	struct probe_inventory *inv = scan("enterprise");
	const char *nqn = "nqn.1994-11.com.samsung:nvme:PM1733:2.5-inch:S6EXNE0T800123";
	const struct probe_dev *d;
	const struct probe_nvme_path *p;

	(void)state;
	assert_int_equal(inv->n, 1);	/* the hidden paths are no devices */
	assert_null(probe_inventory_find(inv, "nvme0c0n1"));
	d = dev(inv, "nvme0n1");
	assert_true(d->nvme_head);
	assert_string_equal(d->model, "SAMSUNG MZWLR3T8HBLS-00007");
	assert_string_equal(d->serial, "S6EXNE0T800123");
	assert_string_equal(d->firmware, "MPK7525Q");
	assert_string_equal(d->subsysnqn, nqn);
	assert_string_equal(d->drive_id, nqn);
	assert_string_equal(d->iopolicy, "numa");
	assert_int_equal(d->transport, PROFILE_TR_NVME);
	assert_int_equal(d->media, PROFILE_MEDIA_NAND);
	assert_int_equal(d->capacity_bytes, 3840755982336);
	assert_int_equal(d->n_paths, 2);
	p = &d->paths[0];
	assert_string_equal(p->name, "nvme0c0n1");
	assert_string_equal(p->controller, "nvme0");
	assert_string_equal(p->transport, "pcie");
	assert_string_equal(p->address, "0000:3b:00.0");
	assert_string_equal(p->pci_function, "0000:3b:00.0");
	assert_int_equal(p->numa_node, 0);
	assert_string_equal(p->ana_state, "optimized");
	assert_false(probe_nvme_path_degraded(p));
	p = &d->paths[1];
	assert_string_equal(p->name, "nvme0c1n1");
	assert_string_equal(p->controller, "nvme1");
	assert_string_equal(p->pci_function, "0001:5e:00.0");
	assert_int_equal(p->numa_node, 1);
	assert_string_equal(p->ana_state, "non-optimized");
	assert_true(probe_nvme_path_degraded(p));
	/* each path's own PCIe link: the second port trained x1 of its x2 */
	assert_true(d->paths[0].pcie.present);
	assert_string_equal(d->paths[0].pcie.address, "0000:3b:00.0");
	assert_int_equal(d->paths[0].pcie.width, 2);
	assert_int_equal(d->paths[0].pcie.max_width, 2);
	assert_false(probe_pcie_degraded(&d->paths[0].pcie));
	assert_true(p->pcie.present);
	assert_string_equal(p->pcie.address, "0001:5e:00.0");
	assert_float_equal(p->pcie.speed_gts, 16.0, 1e-9);
	assert_float_equal(p->pcie.max_speed_gts, 16.0, 1e-9);
	assert_int_equal(p->pcie.width, 1);
	assert_int_equal(p->pcie.max_width, 2);
	assert_int_equal(p->pcie.numa_node, 1);
	assert_int_equal(p->pcie.upstream.n, 1);
	assert_string_equal(p->pcie.upstream.v[0], "0001:5d:00.0");
	assert_true(probe_pcie_degraded(&p->pcie));
	/* the controller of the optimized path serves SMART, hwmon and the link */
	assert_string_equal(d->controller, "nvme0");
	assert_true(d->pcie.present);
	assert_string_equal(d->pcie.address, "0000:3b:00.0");
	assert_int_equal(d->pcie.width, 2);
	assert_int_equal(d->numa_node, 0);
	assert_string_equal(d->local_cpulist, "0-31,64-95");
	assert_string_equal(d->pci_port, "0000:3a:00.0");
	assert_true(d->temp_c == 36);
	assert_false(probe_pcie_degraded(&d->pcie));	/* the best path's */
	probe_inventory_free(inv);
	/* Linux 6.1's layout: the same links through the subsystem's controllers */
	inv = scan("enterprise-6.1");
	d = dev(inv, "nvme0n1");
	assert_int_equal(d->n_paths, 2);
	assert_string_equal(d->paths[0].pcie.address, "0000:3b:00.0");
	assert_false(probe_pcie_degraded(&d->paths[0].pcie));
	assert_string_equal(d->paths[1].pcie.address, "0001:5e:00.0");
	assert_int_equal(d->paths[1].pcie.width, 1);
	assert_true(probe_pcie_degraded(&d->paths[1].pcie));
	probe_inventory_free(inv);
}

/* Both paths optimized (a copy of the fixture): the head's local CPUs are
 * those of either path's function, so probing may run on both nodes (the
 * numa iopolicy sends each CPU's I/O down its local path). */
static void test_enterprise_both_optimized(void **state)
{
	char tmp[] = "/tmp/tw-inv-XXXXXX", cmd[8192], root[4096];
	const char *src = getenv("TW_SRCDIR");
	struct probe_inventory *inv = NULL;
	const struct probe_dev *d;
	char err[256] = "";
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	snprintf(cmd, sizeof(cmd), "cp -a '%s/tests/fixtures/enterprise' '%s/e'", src ? src : ".", tmp);
	assert_int_equal(system(cmd), 0);
	snprintf(root, sizeof(root), "%s/e/sys/devices/pci0001:5d/0001:5d:00.0/0001:5e:00.0/nvme/"
		 "nvme1/nvme0c1n1/ana_state", tmp);
	assert_non_null(f = fopen(root, "w"));
	fputs("optimized\n", f);
	fclose(f);
	snprintf(root, sizeof(root), "%s/e", tmp);
	assert_int_equal(probe_inventory_scan(root, &inv, err, sizeof(err)), 0);
	d = dev(inv, "nvme0n1");
	assert_int_equal(d->n_paths, 2);
	assert_string_equal(d->paths[0].local_cpulist, "0-31,64-95");
	assert_string_equal(d->paths[1].local_cpulist, "32-63,96-127");
	assert_string_equal(d->local_cpulist, "0-127");
	assert_string_equal(d->controller, "nvme0");	/* SMART: the first optimized */
	probe_inventory_free(inv);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

/* A path that vanished, a controller reset, an ANA change between the
 * inventory and the end of a probe: a note each (probe_nvme_recheck). */
static void test_enterprise_recheck(void **state)
{
	char tmp[] = "/tmp/tw-inv-XXXXXX", cmd[8192], root[4096], path[4600];
	const char *src = getenv("TW_SRCDIR");
	const char *p1 = "sys/devices/pci0001:5d/0001:5d:00.0/0001:5e:00.0/nvme/nvme1";
	const char *p0 = "sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/nvme/nvme0";
	struct probe_inventory *inv = NULL;
	struct profile *prof = profile_new();
	struct profile_device *out;
	const struct probe_dev *d;
	char err[256] = "";
	FILE *f;

	(void)state;
	assert_non_null(prof);
	assert_non_null(out = profile_add_device(prof, "nvme0n1"));
	assert_non_null(mkdtemp(tmp));
	snprintf(cmd, sizeof(cmd), "cp -a '%s/tests/fixtures/enterprise' '%s/e'", src ? src : ".", tmp);
	assert_int_equal(system(cmd), 0);
	snprintf(root, sizeof(root), "%s/e", tmp);
	assert_int_equal(probe_inventory_scan(root, &inv, err, sizeof(err)), 0);
	d = dev(inv, "nvme0n1");
	assert_int_equal(probe_nvme_recheck(root, d, out), 0);	/* nothing changed */
	assert_int_equal(out->n_notes, 0);
	/* the controller of the second path resets, the first path's ANA moves */
	snprintf(path, sizeof(path), "%s/%s/state", root, p1);
	assert_non_null(f = fopen(path, "w"));
	fputs("resetting\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s/nvme0c0n1/ana_state", root, p0);
	assert_non_null(f = fopen(path, "w"));
	fputs("inaccessible\n", f);
	fclose(f);
	assert_int_equal(probe_nvme_recheck(root, d, out), 2);
	assert_string_equal(out->notes[0], "multipath: path nvme0c0n1 via nvme0 went from optimized to "
			    "inaccessible during the probe (an ANA change); the figures are kept");
	assert_string_equal(out->notes[1], "multipath: controller nvme1 of path nvme0c1n1 went from "
			    "live to resetting during the probe (a reset); the figures are kept: they "
			    "ran on the paths left");
	/* the second path vanishes */
	snprintf(cmd, sizeof(cmd), "rm -f '%s/sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1/"
		 "multipath/nvme0c1n1'", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(probe_nvme_recheck(root, d, out), 2);
	assert_string_equal(out->notes[3], "multipath: path nvme0c1n1 via nvme1 vanished during the "
			    "probe (controller removed or reset); the figures ran on the paths left");
	probe_inventory_free(inv);
	/* a fabrics namespace (no head) whose controller reconnects */
	snprintf(cmd, sizeof(cmd), "cp -a '%s/tests/fixtures/fabrics' '%s/f'", src ? src : ".", tmp);
	assert_int_equal(system(cmd), 0);
	snprintf(root, sizeof(root), "%s/f", tmp);
	assert_int_equal(probe_inventory_scan(root, &inv, err, sizeof(err)), 0);
	d = dev(inv, "nvme2n1");
	assert_int_equal(probe_nvme_recheck(root, d, out), 0);
	snprintf(path, sizeof(path), "%s/sys/class/nvme/nvme2/state", root);
	assert_non_null(f = fopen(path, "w"));
	fputs("connecting\n", f);
	fclose(f);
	assert_int_equal(probe_nvme_recheck(root, d, out), 1);
	assert_string_equal(out->notes[4], "fabric: controller nvme2 is connecting after the probe (a "
			    "fabrics controller reconnecting); the figures are kept, but some ran while "
			    "it was away");
	assert_int_equal(probe_nvme_recheck(root, dev(inv, "nvme0n1"), out), 0);	/* local */
	probe_inventory_free(inv);
	profile_free(prof);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

/* One health read per drive: the second namespace of a drive gets the
 * first one's read and is told whose; another drive reads its own. */
static void test_health_once_per_drive(void **state)
{
	struct probe_inventory *inv = scan("zoned");
	const char *src = getenv("TW_SRCDIR");
	char root[4096];
	struct probe_health a, b, c;

	(void)state;
	snprintf(root, sizeof(root), "%s/tests/fixtures/zoned", src ? src : ".");
	assert_string_equal(dev(inv, "nvme1n1")->drive_id, dev(inv, "nvme1n2")->drive_id);
	assert_int_equal(probe_health_read(root, dev(inv, "nvme1n1"), &a), 0);
	assert_string_equal(a.shared_with, "");
	assert_true(a.temp_c == 41);
	assert_int_equal(probe_health_read(root, dev(inv, "nvme1n2"), &b), 0);
	assert_string_equal(b.shared_with, "nvme1n1");
	assert_true(b.temp_c == 41);
	assert_string_equal(b.source, a.source);
	assert_int_equal(probe_health_read(root, dev(inv, "nvme0n1"), &c), 0);
	assert_string_equal(c.shared_with, "");
	assert_true(c.temp_c == 37);
	probe_inventory_free(inv);
}

/* The head's facts reach the profile, and come back from its JSON. */
static void test_enterprise_profile(void **state)
{
	struct probe_inventory *inv = scan("enterprise");
	struct profile *p = profile_new(), *back = NULL;
	struct profile_device *d = profile_add_device(p, "nvme0n1");
	struct tw_diags diags = { 0 };
	const struct profile_multipath *m;
	char *text;

	(void)state;
	assert_non_null(d);
	d->model = strdup("SAMSUNG MZWLR3T8HBLS-00007");
	d->transport = PROFILE_TR_NVME;
	d->media = PROFILE_MEDIA_NAND;
	d->capacity_bytes = 3840755982336;
	assert_int_equal(probe_inventory_to_profile(inv, p), 0);
	assert_int_equal(probe_inventory_to_profile(inv, p), 0);	/* idempotent */
	assert_int_equal(p->devices[0].n_notes, 1);
	assert_non_null(strstr(p->devices[0].notes[0], "path nvme0c1n1 via nvme1 is non-optimized"));
	text = profile_write_string(p);
	assert_non_null(text);
	assert_int_equal(profile_read_string(text, strlen(text), "t", &back, &diags), 0);
	d = &back->devices[0];
	assert_string_equal(d->drive_id, "nqn.1994-11.com.samsung:nvme:PM1733:2.5-inch:S6EXNE0T800123");
	m = &d->multipath;
	assert_true(m->present);
	assert_string_equal(m->iopolicy, "numa");
	assert_string_equal(m->subsysnqn, d->drive_id);
	assert_int_equal(m->n_paths, 2);
	assert_string_equal(m->paths[0].controller, "nvme0");
	assert_string_equal(m->paths[0].ana_state, "optimized");
	assert_string_equal(m->paths[1].pci_function, "0001:5e:00.0");
	assert_int_equal(m->paths[1].numa_node, 1);
	assert_string_equal(m->paths[1].ana_state, "non-optimized");
	/* each path's link, through the JSON and back */
	assert_true(m->paths[0].link.present);
	assert_string_equal(m->paths[0].link.pcie_address, "0000:3b:00.0");
	assert_false(profile_link_degraded(&m->paths[0].link));
	assert_true(m->paths[1].link.present);
	assert_string_equal(m->paths[1].link.pcie_address, "0001:5e:00.0");
	assert_int_equal(m->paths[1].link.width, 1);
	assert_int_equal(m->paths[1].link.max_width, 2);
	assert_float_equal(m->paths[1].link.speed_gts, 16.0, 1e-9);
	assert_int_equal(m->paths[1].link.numa_node, 1);
	assert_int_equal(m->paths[1].link.n_upstream, 1);
	assert_string_equal(m->paths[1].link.upstream[0], "0001:5d:00.0");
	assert_true(profile_link_degraded(&m->paths[1].link));
	assert_null(strstr(text, "\"link\": null"));	/* no link: no key */
	free(text);
	tw_diags_clear(&diags);
	profile_free(back);
	profile_free(p);
	probe_inventory_free(inv);
}

/* NVMe over Fabrics — an nvme-tcp namespace of its own controller
 * and an nvme-rdma one behind a multipath head: network-attached, no link,
 * no NUMA node (though the controllers' numa_node says 1), no PCI port. */
static void test_fabrics(void **state)
{
	struct probe_inventory *inv = scan("fabrics");
	const struct probe_dev *d;

	(void)state;
	assert_int_equal(inv->n, 3);
	d = dev(inv, "nvme0n1");	/* the local boot drive */
	assert_null(d->fabric);
	assert_true(d->pcie.present);
	assert_int_equal(d->numa_node, 0);
	d = dev(inv, "nvme2n1");
	assert_int_equal(d->transport, PROFILE_TR_NVME);
	assert_false(d->nvme_head);
	assert_string_equal(d->fabric, "tcp");
	assert_string_equal(d->fabric_address, "traddr=192.168.1.20,trsvcid=4420");
	assert_string_equal(d->controller, "nvme2");
	assert_string_equal(d->model, "Linux");
	assert_string_equal(d->serial, "7e1d6c2b9a804f11");
	assert_string_equal(d->firmware, "6.1.0-18");
	assert_string_equal(d->drive_id, "nqn.2026-01.io.example.storage:vol-tcp");
	assert_false(d->pcie.present);
	assert_int_equal(d->numa_node, -1);
	assert_int_equal(d->pcie.numa_node, -1);
	assert_null(d->local_cpulist);
	assert_null(d->pci_port);
	assert_true(isnan(d->temp_c));
	assert_true(probe_dev_candidate(d));
	d = dev(inv, "nvme3n1");
	assert_true(d->nvme_head);
	assert_string_equal(d->fabric, "rdma");
	assert_string_equal(d->fabric_address, "traddr=10.0.20.5,trsvcid=4420");
	assert_string_equal(d->controller, "nvme3");
	assert_int_equal(d->n_paths, 1);
	assert_string_equal(d->paths[0].transport, "rdma");
	assert_null(d->paths[0].pci_function);
	assert_int_equal(d->paths[0].numa_node, -1);
	assert_false(d->paths[0].pcie.present);	/* a fabrics path has no link */
	assert_false(d->pcie.present);
	assert_int_equal(d->numa_node, -1);
	assert_null(d->pci_port);
	assert_true(probe_nvme_fabric("tcp") && probe_nvme_fabric("rdma") &&
		    probe_nvme_fabric("fc") && probe_nvme_fabric("loop"));
	assert_false(probe_nvme_fabric("pcie") || probe_nvme_fabric(NULL) ||
		     probe_nvme_fabric("tcp6"));
	probe_inventory_free(inv);
}

/* The fabric reaches the profile with a note, and comes back from its JSON. */
static void test_fabrics_profile(void **state)
{
	struct probe_inventory *inv = scan("fabrics");
	struct profile *p = profile_new(), *back = NULL;
	struct tw_diags diags = { 0 };
	const char *ids[] = { "nvme0n1", "nvme2n1" };
	char *text;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct profile_device *d = profile_add_device(p, ids[i]);

		assert_non_null(d);
		d->model = strdup("m");
		d->transport = PROFILE_TR_NVME;
		d->media = PROFILE_MEDIA_NAND;
		d->capacity_bytes = 1000000000;
	}
	assert_int_equal(probe_inventory_to_profile(inv, p), 0);
	assert_int_equal(probe_inventory_to_profile(inv, p), 0);	/* idempotent */
	assert_false(p->devices[0].fabric.present);
	assert_int_equal(p->devices[1].n_notes, 1);
	assert_non_null(strstr(p->devices[1].notes[0], "fabric: network-attached through "
			       "nvme-tcp at traddr=192.168.1.20,trsvcid=4420"));
	text = profile_write_string(p);
	assert_non_null(text);
	assert_int_equal(profile_read_string(text, strlen(text), "t", &back, &diags), 0);
	assert_false(back->devices[0].fabric.present);
	assert_true(back->devices[1].fabric.present);
	assert_string_equal(back->devices[1].fabric.transport, "tcp");
	assert_string_equal(back->devices[1].fabric.address, "traddr=192.168.1.20,trsvcid=4420");
	assert_false(back->devices[1].link.present);
	free(text);
	tw_diags_clear(&diags);
	profile_free(back);
	profile_free(p);
	probe_inventory_free(inv);
}

/* Zoned devices.  queue/zoned, chunk_sectors and nr_zones: a ZNS
 * namespace (host-managed, 64 MiB zones) beside the drive's conventional
 * one (one drive_id), a host-aware SMR disk; "none" is no zoned block. */
static void test_zoned(void **state)
{
	struct probe_inventory *inv = scan("zoned");
	const struct probe_dev *d;

	(void)state;
	assert_int_equal(inv->n, 4);
	assert_false(dev(inv, "nvme0n1")->zoned.present);
	assert_false(probe_dev_host_managed(dev(inv, "nvme0n1")));
	d = dev(inv, "nvme1n1");
	assert_false(d->zoned.present);
	assert_int_equal(d->zoned.zone_bytes, -1);
	d = dev(inv, "nvme1n2");
	assert_true(d->zoned.present);
	assert_int_equal(d->zoned.model, PROFILE_ZONED_HOST_MANAGED);
	assert_int_equal(d->zoned.zone_bytes, 64L << 20);
	assert_int_equal(d->zoned.zones, 61440);
	assert_true(probe_dev_host_managed(d));
	assert_int_equal(d->capacity_bytes, 61440LL * (64LL << 20));
	assert_string_equal(d->drive_id, dev(inv, "nvme1n1")->drive_id);
	assert_true(probe_dev_candidate(d));
	d = dev(inv, "sda");
	assert_true(d->zoned.present);
	assert_int_equal(d->zoned.model, PROFILE_ZONED_HOST_AWARE);
	assert_int_equal(d->zoned.zone_bytes, 256L << 20);
	assert_int_equal(d->zoned.zones, 29809);
	assert_false(probe_dev_host_managed(d));
	assert_int_equal(d->media, PROFILE_MEDIA_HDD);
	assert_false(probe_dev_host_managed(NULL));
	assert_string_equal(profile_zoned_name(PROFILE_ZONED_HOST_AWARE), "host-aware");
	assert_null(profile_zoned_name(PROFILE_ZONED_COUNT));
	probe_inventory_free(inv);
}

/* The zoned block reaches the profile with a note, and comes back from
 * its JSON; a bad model is refused. */
static void test_zoned_profile(void **state)
{
	struct probe_inventory *inv = scan("zoned");
	struct profile *p = profile_new(), *back = NULL;
	struct tw_diags diags = { 0 };
	const char *ids[] = { "nvme1n1", "nvme1n2", "sda" };
	char *text, *bad;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct profile_device *d = profile_add_device(p, ids[i]);

		assert_non_null(d);
		d->model = strdup("m");
		d->transport = PROFILE_TR_NVME;
		d->media = PROFILE_MEDIA_NAND;
		d->capacity_bytes = 1000000000;
	}
	assert_int_equal(probe_inventory_to_profile(inv, p), 0);
	assert_int_equal(probe_inventory_to_profile(inv, p), 0);	/* idempotent */
	assert_false(p->devices[0].zoned.present);
	assert_int_equal(p->devices[0].n_notes, 0);
	assert_int_equal(p->devices[1].n_notes, 1);
	assert_string_equal(p->devices[1].notes[0], "zoned: host-managed (zones of 64 MiB, "
			    "61440 zones): writes must be zone-sequential after a zone reset; "
			    "random writes fail and ext4/XFS cannot be made on it");
	assert_int_equal(p->devices[2].n_notes, 1);
	assert_non_null(strstr(p->devices[2].notes[0], "zoned: host-aware (zones of 256 MiB, "
			       "29809 zones): random writes are accepted but collapse"));
	text = profile_write_string(p);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"zoned\": {\n"));
	assert_int_equal(profile_read_string(text, strlen(text), "t", &back, &diags), 0);
	assert_false(back->devices[0].zoned.present);
	assert_true(back->devices[1].zoned.present);
	assert_int_equal(back->devices[1].zoned.model, PROFILE_ZONED_HOST_MANAGED);
	assert_int_equal(back->devices[1].zoned.zone_bytes, 64L << 20);
	assert_int_equal(back->devices[1].zoned.zones, 61440);
	assert_int_equal(back->devices[2].zoned.model, PROFILE_ZONED_HOST_AWARE);
	profile_free(back);
	back = NULL;
	tw_diags_clear(&diags);
	bad = strstr(text, "\"host-managed\"");
	assert_non_null(bad);
	memcpy(bad, "\"host-mangled\"", 14);
	assert_int_not_equal(profile_read_string(text, strlen(text), "t", &back, &diags), 0);
	free(text);
	tw_diags_clear(&diags);
	profile_free(back);
	profile_free(p);
	probe_inventory_free(inv);
}

/* The physical drive: the NQN where the controller has one, else the
 * serial; none for md, dm, zram, loop. */
static void test_drive_id(void **state)
{
	struct probe_inventory *inv = scan("server");

	(void)state;
	assert_string_equal(dev(inv, "nvme0n1")->drive_id, "PHM2913000QM960CGN");
	assert_string_equal(dev(inv, "sdb")->drive_id, "ZRT0ABCD");
	assert_null(dev(inv, "md0")->drive_id);
	assert_null(dev(inv, "dm-0")->drive_id);
	assert_false(dev(inv, "nvme0n1")->nvme_head);
	assert_int_equal(dev(inv, "nvme0n1")->n_paths, 0);
	probe_inventory_free(inv);
}

static void test_class_names(void **state)
{
	struct probe_inventory *inv = scan("server");

	(void)state;
	for (size_t i = 0; i < inv->n; i++)	/* SCSI type 0 disks, NVMe, md, dm */
		assert_true(probe_dev_candidate(&inv->v[i]));
	probe_inventory_free(inv);
	assert_string_equal(probe_class_name(PROBE_CLASS_DISK), "disk");
	assert_string_equal(probe_class_name(PROBE_CLASS_OPTICAL), "optical");
	assert_string_equal(probe_class_name(PROBE_CLASS_BOOT_AREA), "boot-area");
	assert_string_equal(probe_class_name(PROBE_CLASS_READONLY), "read-only");
	assert_null(probe_class_name(PROBE_CLASS_COUNT));
}

/* The kernel's CPU list format, read and written back; only allowed CPUs
 * kept. */
static void test_cpulist(void **state)
{
	bool on[200] = { false };
	cpu_set_t allowed, s;
	char *list, want[32];

	(void)state;
	assert_true(probe_cpulist_mark("0-3,8,10-11\n", on, 200));
	assert_true(probe_cpulist_mark("190-250", on, 200));	/* past n: ignored */
	assert_false(probe_cpulist_mark("0-3;5", on, 200));
	list = probe_cpulist_format(on, 200);
	assert_string_equal(list, "0-3,8,10-11,190-199");
	free(list);
	memset(on, 0, sizeof(on));
	list = probe_cpulist_format(on, 200);
	assert_string_equal(list, "");
	free(list);
	on[7] = true;
	list = probe_cpulist_format(on, 200);
	assert_string_equal(list, "7");
	free(list);
	CPU_ZERO(&allowed);
	CPU_SET(1, &allowed);
	CPU_SET(2, &allowed);
	assert_true(probe_cpulist_set("0-1", &allowed, &s));
	assert_int_equal(CPU_COUNT(&s), 1);
	assert_true(CPU_ISSET(1, &s));
	list = probe_cpuset_format(&allowed);
	assert_string_equal(list, "1-2");
	free(list);
	s = allowed;
	CPU_SET(5, &s);
	CPU_SET(CPU_SETSIZE - 1, &s);
	list = probe_cpuset_format(&s);
	snprintf(want, sizeof(want), "1-2,5,%d", CPU_SETSIZE - 1);	/* the last CPU a set holds */
	assert_string_equal(list, want);
	free(list);
	CPU_ZERO(&s);
	list = probe_cpuset_format(&s);
	assert_string_equal(list, "");
	free(list);
	assert_false(probe_cpulist_set("3-5", &allowed, &s));
	assert_false(probe_cpulist_set("x", &allowed, &s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_server_nvme),
		cmocka_unit_test(test_server_raid_lvm_sata),
		cmocka_unit_test(test_laptop_swap),
		cmocka_unit_test(test_vm),
		cmocka_unit_test(test_pcie_links),
		cmocka_unit_test(test_missing_sysroot),
		cmocka_unit_test(test_media_guess),
		cmocka_unit_test(test_desktop),
		cmocka_unit_test(test_board),
		cmocka_unit_test(test_class_names),
		cmocka_unit_test(test_enterprise_multipath),
		cmocka_unit_test(test_drive_id),
		cmocka_unit_test(test_enterprise_profile),
		cmocka_unit_test(test_enterprise_both_optimized),
		cmocka_unit_test(test_enterprise_recheck),
		cmocka_unit_test(test_health_once_per_drive),
		cmocka_unit_test(test_fabrics),
		cmocka_unit_test(test_fabrics_profile),
		cmocka_unit_test(test_zoned),
		cmocka_unit_test(test_zoned_profile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
