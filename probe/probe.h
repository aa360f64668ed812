/* probe.h — tierwise's probe stage: device inventory and measurement.
 *
 * The inventory reads sysfs and libblkid (through a relocatable sysroot) and
 * says, with reasons, which devices are safe to probe read-only and which
 * are safe for destructive (write) tests.  The library never prints.
 */
#ifndef TW_PROBE_H
#define TW_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>

#include "profile.h"

/* A list of strings (mount points, holders, reasons). */
struct probe_strv {
	size_t n;
	char **v;
};

/* Filesystem / RAID / partition-table signatures found by libblkid. */
struct probe_sig {
	bool probed;		/* libblkid ran; false = unknown (see error) */
	char *error;		/* why it could not run, or NULL */
	char *type, *uuid, *label, *pttype;	/* NULL when none */
};

struct probe_part {
	char *name;
	char majmin[16];
	int64_t size_bytes;
	struct probe_sig sig;
	struct probe_strv mounts, holders;
	bool swap;
};

/*
 * What a device is, from sysfs facts: a fixed disk (a tier candidate) or
 * something that is not one.  Only PROBE_CLASS_DISK devices are probed by
 * default, planned, or allowed destructive tests.
 */
enum probe_class {
	PROBE_CLASS_DISK,	/* a fixed disk */
	PROBE_CLASS_OPTICAL,	/* CD/DVD/BD drive: SCSI type 4/5/7, sr (major 11) */
	PROBE_CLASS_REMOVABLE,	/* removable = 1 (USB stick, card reader,
				 * floppy), or an SD card */
	PROBE_CLASS_TAPE,	/* SCSI type 1 */
	PROBE_CLASS_CHANGER,	/* SCSI type 8: a media changer */
	PROBE_CLASS_BOOT_AREA,	/* eMMC boot0/boot1/rpmb, MTD flash */
	PROBE_CLASS_READONLY,	/* ro = 1 */
	PROBE_CLASS_COUNT
};

/* "disk", "optical", "removable", "tape", "changer", "boot-area",
 * "read-only"; NULL when out of range. */
const char *probe_class_name(enum probe_class c);

/*
 * The PCIe link of a device: the PCI function nearest to the block device
 * in its /sys/devices path, when that function has link attributes.
 */
struct probe_pcie {
	bool present;		/* false: no PCIe function (virtual, platform,
				 * conventional PCI, integrated controller) */
	char address[32];	/* 0000:01:00.0 */
	double speed_gts, max_speed_gts;	/* GT/s, NAN when unknown */
	long width, max_width;	/* lanes, -1 when unknown */
	struct probe_strv upstream;	/* bridges above it, nearest first */
	int numa_node;		/* -1 when unknown or none */
};

/*
 * One path of an NVMe multipath head: a hidden path device (nvme0c1n1, no
 * /dev node, not in sys/block) listed in the head's multipath/ directory,
 * under the controller it goes through.  NULL / -1 = unknown.
 */
struct probe_nvme_path {
	char *name;		/* nvme0c1n1 */
	char *controller;	/* nvme1 */
	char *transport;	/* the controller's: pcie, tcp, rdma, fc, loop */
	char *address;		/* the controller's address attribute */
	char *pci_function;	/* 0001:5e:00.0, via the controller's device link */
	char *state;		/* the controller's state: live, connecting, … */
	char *ana_state;	/* optimized, non-optimized, inaccessible, … */
	char *local_cpulist;	/* of its PCI function ("0-31,64-95") */
	int numa_node;
	struct probe_pcie pcie;	/* its PCI function's link; not present for
				 * a fabrics path or a function without one */
};

struct probe_dev {
	char *name;		/* kernel name: nvme0n1 */
	char *path;		/* /dev/nvme0n1 on the live system */
	char majmin[16];
	char *model, *serial, *firmware;	/* NULL when unknown */
	enum profile_transport transport;
	enum profile_media media;
	bool rotational, removable, readonly;
	unsigned logical_bs, physical_bs;
	int64_t capacity_bytes;
	char *controller;	/* nvme0 for nvme0n1, else NULL; for a multipath
				 * head the controller of a live path (an
				 * optimized one first): SMART, hwmon, link */
	char *drive_id;		/* the physical drive: the NVMe subsystem NQN,
				 * else the serial; NULL when unknown.  Equal
				 * for namespaces of one drive. */
	char *subsysnqn, *iopolicy;	/* NVMe subsystem facts, NULL = unknown */
	bool nvme_head;		/* a multipath head (under nvme-subsystem) */
	char *fabric;		/* NVMe over Fabrics: the controller's transport
				 * (tcp, rdma, fc, loop); NULL for a local
				 * device.  Network-attached: no PCIe link, no
				 * NUMA node, no PCI port. */
	char *fabric_address;	/* its controller's address attribute:
				 * traddr=192.168.1.20,trsvcid=4420; NULL = unknown */
	struct profile_zoned zoned;	/* queue/zoned, chunk_sectors, nr_zones:
					 * present for host-aware and
					 * host-managed devices only */
	size_t n_paths;		/* its paths, in multipath/ order */
	struct probe_nvme_path *paths;
	double temp_c;		/* hwmon temperature now, NAN when none */
	char *md_level, *dm_name, *backing_file;	/* md, dm, loop extras */
	struct probe_sig sig;
	struct probe_strv mounts, holders, slaves;	/* mounts: each mounted tree
				 * once (bind mounts of one device and root
				 * counted once), the filesystem's own mount
				 * (root "/") first; partitions' alike */
	bool swap;
	size_t n_parts;
	struct probe_part *parts;
	bool root;		/* holds the running root filesystem */
	enum probe_class cls;
	char *cls_why;		/* what it is and the sysfs fact that says so;
				 * NULL for a fixed disk */
	bool safe_readonly, safe_destructive;
	struct probe_strv readonly_why, destructive_why;	/* reasons when unsafe */
	struct probe_pcie pcie;	/* the link, when behind PCIe */
	int numa_node;		/* of the nearest PCI function; -1 = unknown */
	char *local_cpulist;	/* its local_cpulist ("0-7"), NULL = unknown;
				 * a multipath head: the CPUs local to any of
				 * its live optimized paths (the numa iopolicy
				 * sends each CPU's I/O down its local one) */
	char *irq_cpulist;	/* the CPUs that take its completion interrupts
				 * (the effective affinity of its PCI function's
				 * vectors, "1"), NULL = unknown: the probe runs
				 * its QD1 reads there when that is some of the
				 * CPUs only (run.c) */
	char *pci_port;		/* the topmost PCI function in its path (the
				 * root port, or the controller on the root
				 * complex); NULL for virtual devices */
};

/*
 * Whether path p of a multipath head is not one to rely on: its ANA state is
 * known and not "optimized", or its controller is known and not "live".
 */
bool probe_nvme_path_degraded(const struct probe_nvme_path *p);

/*
 * Whether transport (an NVMe controller's transport attribute) is a fabric:
 * tcp, rdma, fc or loop.  False for pcie, unknown ones and NULL.
 */
bool probe_nvme_fabric(const char *transport);

/*
 * Whether d is a host-managed zoned device (NVMe ZNS, host-managed SMR):
 * writes must be zone-sequential, so random, mixed and plain writes fail.
 * False for NULL.
 */
bool probe_dev_host_managed(const struct probe_dev *d);

/*
 * Whether the link trained below what both ends allow: a lower speed or
 * fewer lanes than the device's maximum.  False when unknown.
 */
bool probe_pcie_degraded(const struct probe_pcie *p);

/*
 * Copy the link facts of p into the profile's l (nothing when p has none).
 * Returns 0 or -ENOMEM.
 */
int probe_pcie_to_link(const struct probe_pcie *p, struct profile_link *l);

struct probe_inventory {
	size_t n;
	struct probe_dev *v;
};

/*
 * The drive facts of the inventory into the profile's devices of the same
 * name (raw targets; scratch files are left alone): drive_id; for an NVMe
 * multipath head its multipath block (subsysnqn, iopolicy, paths) and a
 * note per path that is not optimized; for a network-attached (NVMe over
 * Fabrics) device its fabric block (transport, address) and a note; for a
 * zoned device its zoned block (model, zone size, zones) and a note.
 * Devices that already have a
 * drive_id are skipped, so calling it twice changes nothing.  Returns 0 or
 * -ENOMEM (then some devices may have been filled).
 */
int probe_inventory_to_profile(const struct probe_inventory *inv, struct profile *prof);

/*
 * After a probe of d: its NVMe paths read again from sysroot's sysfs and
 * compared with the inventory's, a note on out for each that changed (a
 * path that vanished, a controller no longer live: reset, or a fabrics
 * controller reconnecting; an ANA state that moved); a network-attached
 * namespace without a head, its controller's state.  The figures stay: the
 * notes say what they ran through.  Nothing for other devices.  Returns
 * the number of notes added or -ENOMEM.
 */
int probe_nvme_recheck(const char *sysroot, const struct probe_dev *d,
		       struct profile_device *out);

/*
 * Scan every block device under sysroot ("/" or NULL = live system) and
 * judge its safety.  On success returns 0 and *out owns the inventory (free
 * with probe_inventory_free).  Returns -errno on failure with a message in
 * err (err may be NULL).
 */
int probe_inventory_scan(const char *sysroot, struct probe_inventory **out,
			 char *err, size_t errlen);

/*
 * The device named name (kernel name or /dev path), or the disk holding the
 * partition so named; NULL when there is none.
 */
const struct probe_dev *probe_inventory_find(const struct probe_inventory *inv,
					     const char *name);

/*
 * Whether d is a tier candidate (a fixed disk): what `tierwise probe` with
 * no target and the default job measure, and the plan uses.
 */
bool probe_dev_candidate(const struct probe_dev *d);

/* Free an inventory.  NULL-safe. */
void probe_inventory_free(struct probe_inventory *inv);

/*
 * Guess the media of a device from its transport, rotational flag and model
 * (Optane model names → 3dxpoint).  Pure function.
 */
enum profile_media probe_guess_media(enum profile_transport t, bool rotational,
				     const char *model);

/* ---- probe targets: a raw device, or a scratch file on a filesystem ---- */

enum probe_target_kind { PROBE_TARGET_RAW, PROBE_TARGET_SCRATCH };

struct probe_target {
	enum probe_target_kind kind;
	bool writable;		/* scratch files, or raw with --destructive */
	int fd;			/* O_DIRECT; -1 when closed */
	char *id;		/* profile id: kernel name, or "scratch:DIR" */
	char *path;		/* device path or scratch file path */
	uint64_t span_bytes;	/* bytes the tests may touch, from offset 0 */
	unsigned align;		/* I/O alignment: the logical block size */
	bool blank;		/* a scratch file allocated, never written: the
				 * run fills what its reads need (run_fill.c) */
	const struct probe_dev *dev;	/* inventory entry (raw), or the
					 * filesystem's disk (scratch); may be NULL */
};

/*
 * Open the block device name (kernel name or /dev path) for probing.
 * Read-only unless destructive; destructive is refused (-EPERM, the reasons
 * in err) for any device the inventory marks unsafe, and the device is then
 * opened O_EXCL so a concurrent mount or holder makes it fail with -EBUSY.
 * Returns 0 and fills *t (close with probe_target_close) or -errno with a
 * message in err.
 */
int probe_target_open_device(const struct probe_inventory *inv, const char *name,
			     bool destructive, struct probe_target *t,
			     char *err, size_t errlen);

/*
 * Create a scratch file in directory dir (size bytes; 0 = default: 2 GiB or
 * a quarter of the free space, whichever is smaller), registered for removal
 * on fatal signals, its space reserved with fallocate() and left blank
 * (t->blank: the run writes incompressible data where its reads go, at the
 * device's rate, or seq_write did); where the filesystem cannot allocate
 * ahead (EOPNOTSUPP), written with incompressible data here instead.  The file is held under flock() for its life; stale scratch
 * files of dead runs in dir are removed first (only ones provably ours; see
 * sweep_stale in target.c), and then err holds a notice even on success.
 * cancel (may be NULL) aborts the fill.  Returns 0 and fills *t,
 * or -errno with a message in err (no file is left behind on error).
 */
int probe_target_open_scratch(const struct probe_inventory *inv, const char *dir,
			      uint64_t size, volatile int *cancel,
			      struct probe_target *t, char *err, size_t errlen);

/* Close the target and remove its scratch file, if any.  NULL-safe. */
void probe_target_close(struct probe_target *t);

/*
 * Install SIGINT/SIGTERM/SIGHUP/SIGQUIT handlers that remove every scratch
 * file still registered, then let the signal take its default action.
 * Returns 0 or -errno.  For the command; libraries do not call it.
 */
int probe_scratch_install_handlers(void);

/* Remove every registered scratch file now (async-signal-safe). */
void probe_scratch_cleanup(void);

/* ---- the measurement run: tests on one target into a profile device ---- */

/*
 * The tests in the order they run: on a writable target the sequential
 * write goes first, so that the reads after it find written data rather
 * than never-written (zero) regions; the long sustained write goes last.
 */
enum probe_test {
	PROBE_TEST_SEQ_WRITE, PROBE_TEST_SEQ_READ, PROBE_TEST_RAND_READ_QD1,
	PROBE_TEST_RAND_READ_QD32, PROBE_TEST_QD_SWEEP, PROBE_TEST_IORATE,
	PROBE_TEST_MIXED_70_30, PROBE_TEST_READ_UNDER_WRITE, PROBE_TEST_APP,
	PROBE_TEST_SUSTAINED_WRITE, PROBE_TEST_COUNT
};
#define PROBE_TESTS_ALL ((1u << PROBE_TEST_COUNT) - 1)
/* Quick mode's default: everything but the long sustained write and the
 * open-loop rate curve (iorate); --full runs them all. */
#define PROBE_TESTS_DEFAULT (PROBE_TESTS_ALL & ~(1u << PROBE_TEST_SUSTAINED_WRITE) & \
			     ~(1u << PROBE_TEST_IORATE))
/* --full's default: the quick set and iorate. */
#define PROBE_TESTS_FULL (PROBE_TESTS_DEFAULT | (1u << PROBE_TEST_IORATE))

/* The profile name of a test ("seq_read"), NULL when out of range. */
const char *probe_test_name(enum probe_test t);

/*
 * Parse a comma-separated list of test names (or "all", "default") into a
 * bit mask.  Returns 0, or -EINVAL with the offending name in err.
 */
int probe_tests_parse(const char *list, unsigned *mask, char *err, size_t errlen);

/* Live progress, for a display the command draws. */
struct probe_status {
	const char *target, *test;
	double elapsed_s;	/* in this test */
	double budget_s;	/* the test's maximum */
	double iops, mbps;	/* the last window */
	unsigned qd;		/* the job's queue depth (all threads) */
};

struct probe_options {
	bool full;		/* the published recipe: 30 s per test, 120 s sustained */
	unsigned tests;		/* mask of enum probe_test; 0 = PROBE_TESTS_DEFAULT
				 * (PROBE_TESTS_FULL with full) */
	double seconds;		/* > 0: fixed measured seconds per test */
	double ramp_s;		/* < 0: default (0.5 s) */
	double sustained_s;	/* 0: default (quick 30 s, full 120 s) */
	double latency_target_us;	/* 0: 1000 µs */
	unsigned min_sweep_qd;	/* qd_sweep goes at least this deep whatever
				 * the latency target (the policies' beam_width
				 * × concurrency); 0 = as the target says */
	double uw_write_mibps;	/* read_under_write's writer; 0 = 15 MiB/s */
	double uw_trim_mibps;	/* and its trim stream; 0 = 5 MiB/s, < 0 = none */
	unsigned threads;	/* rings/threads for the QD32 tests; 0 = auto:
				 * one, and more when one keeps a core busy */
	double busy_cores;	/* auto: CPU (cores) that counts as busy; 0 = 0.9 */
	const char *engine;	/* "io_uring" (default, falls back), "psync", "null" */
	const char *sysroot;	/* for temperature sensors; NULL = live system */
	const char *fault;	/* test hook: a fault spec (probe_fault_check(),
				 * docs/reliability.md) that puts the fault engine
				 * around the engine for the targets it names; NULL
				 * or "" = none.  The CLI fills it from
				 * TIERWISE_FAULT: the library reads no environment.
				 * Its counters span every probe_run() of the
				 * process, side by side too (atomic). */
	bool settle_first;	/* the device was busy just before this run (a
				 * side-by-side phase): QD1 waits as it does
				 * after a test of the same run (run.c settle()) */
	void (*progress)(void *arg, const struct probe_status *st);
	void *arg;
	volatile sig_atomic_t *cancel;
};

/*
 * Run the selected tests on t and append one device to prof with the
 * results, the inventory facts and notes (skipped tests, engine fallback,
 * zero reads, failures).  Write tests run only on writable targets.  A test
 * that fails is recorded in the device's notes and the others still run.
 * Returns 0 when every selected test ran; -EIO when some failed (the device
 * is still added); -ECANCELED when cancelled; -EINVAL for a malformed
 * o->fault test hook (docs/reliability.md); -ENOMEM.
 */
int probe_run(const struct probe_target *t, const struct probe_options *o,
	      struct profile *prof, char *err, size_t errlen);

/* True when name is an I/O engine of the probe: io_uring, psync, null. */
bool probe_engine_known(const char *name);

/*
 * Check a TIERWISE_FAULT test-hook spec (docs/reliability.md) before a
 * probe runs.  Returns 0, or -EINVAL with err saying what is wrong.
 */
int probe_fault_check(const char *spec, char *err, size_t len);

/* ---- temperature and health ---- */

/* A device's temperature, thresholds and health log; NAN / -1 = unknown. */
struct probe_health {
	char source[64];	/* "nvme smart log (libnvme)", "hwmon (drivetemp)", … */
	double temp_c;		/* composite / drive temperature now */
	double warning_c, critical_c;	/* NVMe WCTEMP / CCTEMP, hwmon max / crit */
	double mntmt_c, mxtmt_c;	/* NVMe thermal management range */
	int hctma;		/* NVMe host controlled thermal management: 1, 0, -1 */
	struct profile_health log;	/* log.source unused (see source) */
	char why[320];		/* why fields are unknown, or "" */
	char shared_with[32];	/* probe_health_read: the device of the same
				 * drive whose read this is, or "" (read now) */
};

/* Every field unknown. */
void probe_health_init(struct probe_health *h);

/*
 * Read dev's temperature and health now: NVMe Identify + SMART log through
 * libnvme (needs root), ATA SMART through libatasmart (needs root), else
 * hwmon (nvme, drivetemp).  Returns 0 when a temperature was read, or
 * -errno with h->why saying why not (missing sensor, no permission, a USB
 * bridge hiding SMART); fields that could not be read stay unknown.  One
 * read per physical drive and sysroot in a process: a namespace of a drive
 * read before gets that read (h->shared_with names its device), so
 * namespaces of one drive share one SMART read, taken before any of them
 * was loaded.
 */
int probe_health_read(const char *sysroot, const struct probe_dev *dev,
		      struct probe_health *h);

/*
 * Like probe_health_read() without the NVMe Identify (thresholds): the
 * temperature and SMART counters only, for 1 Hz sampling under load.
 */
int probe_health_sample(const char *sysroot, const struct probe_dev *dev,
			struct probe_health *h);

/* The hwmon temperature of dev (°C), NAN when none: cheap, no root needed. */
double probe_hwmon_temp(const char *sysroot, const struct probe_dev *dev);

#endif
