/* Fuzz the inventory (probe_inventory_scan) through a sysroot.
 *
 * Once per process a small sysroot is built in a temporary directory, shaped
 * like tests/fixtures/server: an NVMe namespace (nvme0n1 on controller
 * nvme0), a SATA disk sda with a partition sda1, and md0 over nvme0n1.  Each
 * input is split at the byte 0x1E (ASCII record separator) into the contents
 * of the attribute files in attrs[], in order; an attribute past the last
 * piece is removed (absent file).  Then the sysroot is scanned, the result
 * is checked, handed to the plan's inventory copy (cli/plan_disks.c) and
 * freed.  Invariants: the scan succeeds with the three devices, and the
 * verdicts agree with their reasons.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <ftw.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "plan_disks.h"
#include "probe.h"

#define SEP 0x1e
#define NVME "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0"
#define SCSI "sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0"
#define MD "sys/devices/virtual/block/md0"

/* The fuzzed files, in input order (docs/fuzzing.md). */
static const char *const attrs[] = {
	NVME "/nvme0n1/size", NVME "/nvme0n1/queue/rotational",
	NVME "/nvme0n1/queue/logical_block_size", NVME "/nvme0n1/queue/physical_block_size",
	NVME "/nvme0n1/removable", NVME "/nvme0n1/ro", NVME "/nvme0n1/dev",
	NVME "/model", NVME "/serial", NVME "/firmware_rev", NVME "/hwmon0/temp1_input",
	SCSI "/block/sda/size", SCSI "/block/sda/queue/rotational", SCSI "/block/sda/dev",
	SCSI "/model", SCSI "/rev", SCSI "/vpd_pg80", SCSI "/vpd_pg89",
	SCSI "/hwmon/hwmon4/temp1_input",
	SCSI "/block/sda/sda1/partition", SCSI "/block/sda/sda1/size",
	SCSI "/block/sda/sda1/dev",
	MD "/size", MD "/md/level", MD "/dev",
	"proc/self/mountinfo", "proc/swaps",
};
#define N_ATTRS (sizeof(attrs) / sizeof(attrs[0]))

/* Fixed links, from → to, relative to the sysroot. */
static const char *const links[][2] = {
	{ "sys/block/nvme0n1", "../devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1" },
	{ "sys/block/sda", "../devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda" },
	{ "sys/block/md0", "../devices/virtual/block/md0" },
	{ NVME "/nvme0n1/device", "../../nvme0" },
	{ SCSI "/block/sda/device", "../../../0:0:0:0" },
	{ NVME "/nvme0n1/holders/md0", "../../../../../../../virtual/block/md0" },
	{ MD "/slaves/nvme0n1", "../../../../pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1" },
};

/* Fixed files: { path, contents }. */
static const char *const fixed[][2] = {
	{ NVME "/transport", "pcie\n" }, { NVME "/hwmon0/name", "nvme\n" },
	{ SCSI "/vendor", "ATA     \n" }, { SCSI "/hwmon/hwmon4/name", "drivetemp\n" },
	{ SCSI "/block/sda/removable", "0\n" }, { SCSI "/block/sda/ro", "0\n" },
	{ SCSI "/block/sda/sda1/start", "2048\n" }, { MD "/md/raid_disks", "1\n" },
	{ "dev/nvme0n1", "" },
};

static char root[256];

/* What attribute i holds now: writing only what changed saves time. */
static struct { bool present; size_t len; uint8_t *data; } now[N_ATTRS];

/* sysroot/rel into buf (PATH_MAX); aborts when it does not fit. */
static void path_of(char *buf, const char *rel)
{
	if ((size_t)snprintf(buf, PATH_MAX, "%s/%s", root, rel) >= PATH_MAX)
		fuzz_fail("path too long: %s", rel);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void root_remove(void)
{
	for (size_t i = 0; i < N_ATTRS; i++)
		free(now[i].data);
	if (*root)
		nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p of the directory part of sysroot/rel. */
static void mkdirs(const char *rel)
{
	char path[PATH_MAX];

	path_of(path, rel);
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			fuzz_fail("mkdir %s: %s", path, strerror(errno));
		*s = '/';
	}
}

/* Write sysroot/rel with len bytes, or remove it when data is NULL. */
static void put(const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX];
	int fd;

	path_of(path, rel);
	if (!data) {
		unlink(path);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len))
		fuzz_fail("write %s: %s", path, strerror(errno));
	close(fd);
}

static void put_attr(size_t i, const uint8_t *data, size_t len)
{
	if (now[i].present == (data != NULL) &&
	    (!data || (now[i].len == len && !memcmp(now[i].data, data, len))))
		return;
	put(attrs[i], data, len);
	free(now[i].data);
	now[i].data = data ? malloc(len ? len : 1) : NULL;
	if (data && !now[i].data)
		fuzz_fail("out of memory");
	if (data)
		memcpy(now[i].data, data, len);
	now[i].present = data != NULL;
	now[i].len = len;
}

static void root_build(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX];

	snprintf(root, sizeof(root), "%s/tw-fuzz-inventory.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		fuzz_fail("mkdtemp %s: %s", root, strerror(errno));
	atexit(root_remove);
	for (size_t i = 0; i < N_ATTRS; i++)
		mkdirs(attrs[i]);
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		mkdirs(fixed[i][0]);
		put(fixed[i][0], fixed[i][1], strlen(fixed[i][1]));
	}
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		mkdirs(links[i][0]);
		path_of(path, links[i][0]);
		if (symlink(links[i][1], path) < 0)
			fuzz_fail("symlink %s: %s", path, strerror(errno));
	}
}

/* Every verdict agrees with its list of reasons. */
static void check_inventory(const struct probe_inventory *inv)
{
	if (inv->n != 3)
		fuzz_fail("%zu devices, want md0, nvme0n1, sda", inv->n);
	for (size_t i = 0; i < inv->n; i++) {
		const struct probe_dev *d = &inv->v[i];

		if (!d->name || !d->path || probe_inventory_find(inv, d->name) != d)
			fuzz_fail("device %zu: no name or not found by it", i);
		if (d->safe_readonly != (d->readonly_why.n == 0) ||
		    d->safe_destructive != (d->destructive_why.n == 0))
			fuzz_fail("%s: verdicts disagree with their reasons", d->name);
		if (d->capacity_bytes <= 0 && (d->safe_readonly || d->safe_destructive))
			fuzz_fail("%s: size %lld judged safe", d->name, (long long)d->capacity_bytes);
		if (d->n_parts && d->safe_destructive)
			fuzz_fail("%s: partitions judged safe", d->name);
		for (size_t p = 0; p < d->n_parts; p++)
			if (probe_inventory_find(inv, d->parts[p].name) != d)
				fuzz_fail("%s: partition %s not found", d->name, d->parts[p].name);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_inventory *inv = NULL;
	struct cli_plan_disks disks = { 0 };
	const uint8_t *p = data, *end = data + size;
	char err[256];
	int ret;

	if (!*root)
		root_build();
	for (size_t i = 0; i < N_ATTRS; i++) {
		const uint8_t *sep = p ? memchr(p, SEP, (size_t)(end - p)) : NULL;
		const uint8_t *stop = sep ? sep : end;

		put_attr(i, p, p ? (size_t)(stop - p) : 0);
		p = sep ? sep + 1 : NULL;
	}
	ret = probe_inventory_scan(root, &inv, err, sizeof(err));
	if (ret < 0 && ret != -ENOMEM)
		fuzz_fail("scan: %s (%d)", err, ret);
	if (ret == 0) {
		check_inventory(inv);
		if (cli_plan_disks_from_inventory(inv, &disks) == 0 && disks.n != inv->n)
			fuzz_fail("%zu plan disks for %zu devices", disks.n, inv->n);
		cli_plan_disks_free(&disks);
	}
	probe_inventory_free(inv);
	return 0;
}
