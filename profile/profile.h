/* profile.h — tierwise.profile/1: the document that connects the stages.
 *
 * One reader/writer (jansson) used by probe, model and advisor.  Numbers that
 * were not measured are NAN (integers: -1); the writer omits or nulls them,
 * never writes 0.  The field names are a contract (docs/profile-schema.md).
 */
#ifndef TW_PROFILE_H
#define TW_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tw_diag.h"

#define PROFILE_SCHEMA "tierwise.profile/1"

enum profile_transport {
	PROFILE_TR_NVME, PROFILE_TR_SATA, PROFILE_TR_SAS, PROFILE_TR_USB,
	PROFILE_TR_VIRTIO, PROFILE_TR_MD, PROFILE_TR_DM, PROFILE_TR_LOOP,
	PROFILE_TR_ZRAM, PROFILE_TR_FILE, PROFILE_TR_MMC, PROFILE_TR_OTHER, PROFILE_TR_COUNT
};

enum profile_media {
	PROFILE_MEDIA_NAND, PROFILE_MEDIA_3DXPOINT, PROFILE_MEDIA_HDD,
	PROFILE_MEDIA_RAM, PROFILE_MEDIA_OPTICAL, PROFILE_MEDIA_REMOVABLE,
	PROFILE_MEDIA_UNKNOWN, PROFILE_MEDIA_COUNT
};

enum profile_mode { PROFILE_MODE_QUICK, PROFILE_MODE_FULL, PROFILE_MODE_CATALOG, PROFILE_MODE_COUNT };

enum profile_target {
	PROFILE_TGT_RAW_READONLY, PROFILE_TGT_SCRATCH_FILE,
	PROFILE_TGT_RAW_DESTRUCTIVE, PROFILE_TGT_CATALOG, PROFILE_TGT_COUNT
};

/*
 * A read figure whose sampled reads returned only zeros this often or more
 * (the `unwritten` share) was taken mostly from never-written or trimmed
 * blocks, which flash and thin or sparse storage answer without touching
 * the media: see profile_unwritten().
 */
#define PROFILE_UNWRITTEN_MIN 0.5

/* Latency summary in microseconds; NAN = absent. */
enum profile_lat_field { PROFILE_LAT_MEAN, PROFILE_LAT_P50, PROFILE_LAT_P90,
			 PROFILE_LAT_P99, PROFILE_LAT_P999, PROFILE_LAT_MAX,
			 PROFILE_LAT_COUNT };
struct profile_lat {
	double v[PROFILE_LAT_COUNT];
};

/* The five fixed-shape I/O tests, in schema order. */
enum profile_io_test { PROFILE_SEQ_READ, PROFILE_SEQ_WRITE, PROFILE_RAND_READ_QD1,
		       PROFILE_RAND_READ_QD32, PROFILE_MIXED_70_30, PROFILE_IO_COUNT };

struct profile_io {
	bool present;
	long bs, qd;			/* required when present */
	double mbps, iops, read_iops, write_iops;	/* NAN = absent */
	struct profile_lat lat;
	/* how it was measured (absent for catalog data) */
	double seconds;			/* measured seconds, NAN = absent */
	int64_t ios;			/* I/Os measured in them, -1 = absent */
	int steady;			/* steady state reached: 1, 0, -1 = unknown */
	double spread_pct;		/* ± % of the last windows around their mean */
	long threads;			/* rings/threads used, -1 = absent */
	char *label;			/* "burst, fresh" / "sustained", or NULL */
	double unwritten;		/* share of sampled reads all zeros, NAN */
};

/* The highest IOPS of the sweep whose p99 stays under a latency target. */
struct profile_lat_target {
	bool present;
	double p99_us;			/* the target */
	long qd;			/* best depth, -1 = none met the target */
	double iops;			/* its IOPS, NAN = none */
	double unwritten;		/* the sweep's share of zero reads, NAN */
};

struct profile_point {
	double t, mbps, temp_c;		/* temp_c NAN = unknown */
};

struct profile_sustained {
	bool present;
	double mbps, initial_mbps, cliff_after_gb, seconds;
	size_t n_series;
	struct profile_point *series;
};

struct profile_sweep {
	long qd;
	double iops;
	struct profile_lat lat;
};

/*
 * QD1 random reads while a background writer runs at a set rate
 * (results.read_under_write): what a vector DB feels while the drive
 * ingests.  Compared with the idle QD1 figure (rand_read_qd1).
 */
struct profile_under_write {
	bool present;
	long bs, qd;			/* the reads; required when present */
	double iops;			/* read IOPS under the writes */
	struct profile_lat lat;		/* read latency under the writes */
	double idle_p99_us;		/* rand_read_qd1's p99, NAN = not measured */
	double p99_ratio;		/* lat p99 / idle_p99_us, NAN = unknown */
	long write_bs;			/* the writer's block size, -1 = absent */
	double write_rate_mibps;	/* the set rate (MiB/s), NAN = absent */
	double write_mibps;		/* the rate it delivered, NAN = absent */
	double trim_mibps;		/* discards issued, NAN = none issued */
	double seconds;			/* measured seconds, NAN = absent */
	int64_t ios;			/* I/Os measured in them, -1 = absent */
	double unwritten;		/* share of sampled reads all zeros, NAN */
	/* OCP BOOT-BENCH-1's reads under the same writes: 32 KiB random at depth */
	long boot_bs, boot_qd;		/* -1 = not measured */
	double boot_iops;		/* NAN = not measured */
	struct profile_lat boot_lat;
};

/* One step of the open-loop rate curve (results.iorate). */
struct profile_iorate {
	double pct;			/* offered rate, % of the sweep's best IOPS */
	double offered_iops;		/* the rate offered */
	double iops;			/* the rate delivered, NAN = none */
	struct profile_lat lat;		/* from each I/O's scheduled time */
};

/* One piece of throttling evidence seen during the heaviest write. */
enum profile_throttle_kind { PROFILE_THR_TMT1, PROFILE_THR_TMT2, PROFILE_THR_DROP,
			     PROFILE_THR_COUNT };
struct profile_throttle {
	double t;			/* seconds into the test */
	double temp_c;			/* NAN = unknown */
	enum profile_throttle_kind kind;
};

struct profile_thermal {
	double idle_c, load_c, rise_c, warning_c, critical_c;
	long throttle_events;		/* -1 = unknown */
	char *source;
	size_t n_throttle;
	struct profile_throttle *throttle;
};

/* SMART / health log; -1 or NAN = unknown. */
#define PROFILE_SENSORS 8
struct profile_health {
	bool present;
	char *source;
	long critical_warning;		/* NVMe bit field */
	long percentage_used, available_spare, available_spare_threshold;
	long media_errors, power_on_hours;
	long warning_temp_minutes, critical_temp_minutes;
	long tmt1_transitions, tmt2_transitions, tmt1_seconds, tmt2_seconds;
	int smart_ok;			/* ATA overall status: 1, 0, -1 = unknown */
	double sensors_c[PROFILE_SENSORS];
};

/* Names of the NVMe critical-warning bits 0..5 ("spare", "temperature", …). */
const char *profile_critical_warning_name(int bit);

/* Every field unknown (-1 / NAN), present = false. */
void profile_health_init(struct profile_health *h);

struct profile_probe {
	enum profile_mode mode;
	enum profile_target target;
	double seconds;
	char *engine;			/* "io_uring", "psync", …; NULL = absent */
	double test_seconds;		/* --seconds per test; NAN = the mode's */
};

/*
 * The PCIe link the device was found behind (`link` in the profile):
 * present only when it was read.  NAN / -1 = unknown.
 */
struct profile_link {
	bool present;
	char *pcie_address;		/* 0000:01:00.0 */
	double speed_gts, max_speed_gts;
	long width, max_width;
	long numa_node;
	size_t n_upstream;
	char **upstream;		/* bridges above it, nearest first */
};

/* The PCIe generation of a link speed (8 GT/s → 3), 0 when unknown. */
int profile_link_gen(double gts);

/*
 * Usable bandwidth of a PCIe link in MB/s: lanes × speed after the line
 * encoding (8b/10b up to 5 GT/s, 128b/130b up to 32 GT/s, FLIT above).
 * NAN when speed or width is unknown.
 */
double profile_link_mbps(double gts, long width);

/* Whether l trained below its maximum speed or width; false when unknown. */
bool profile_link_degraded(const struct profile_link *l);

/*
 * One path of an NVMe multipath head (`multipath.paths[]`): the hidden path
 * device, its controller and how it is reached.  NULL / -1 = unknown.
 */
struct profile_path {
	char *name, *controller, *transport, *address, *pci_function, *ana_state;
	long numa_node;
	struct profile_link link;	/* its PCI function's link (`link`):
					 * not present for a fabrics path */
};

/* An NVMe multipath head's subsystem (`multipath`): present only for one. */
struct profile_multipath {
	bool present;
	char *subsysnqn, *iopolicy;	/* NULL = unknown */
	size_t n_paths;
	struct profile_path *paths;
};

/*
 * NVMe over Fabrics (`fabric`): a network-attached device, present only for
 * one.  Its figures include the network's latency; it has no PCIe link and
 * no local NUMA node.
 */
struct profile_fabric {
	bool present;
	char *transport;		/* the controller's: tcp, rdma, fc, loop */
	char *address;			/* traddr=192.168.1.20,trsvcid=4420; NULL = unknown */
};

/* A zoned block device's model (sysfs queue/zoned). */
enum profile_zoned_model {
	PROFILE_ZONED_NONE,		/* "none": a conventional device */
	PROFILE_ZONED_HOST_AWARE,	/* random writes work, but slowly once
					 * the conventional cache is full (SMR) */
	PROFILE_ZONED_HOST_MANAGED,	/* writes must be zone-sequential: random
					 * writes fail, no ext4/XFS (ZNS, SMR) */
	PROFILE_ZONED_COUNT
};

/*
 * A zoned device (`zoned`): present only for one (host-aware or
 * host-managed).  -1 = unknown.
 */
struct profile_zoned {
	bool present;
	enum profile_zoned_model model;
	long zone_bytes;		/* queue/chunk_sectors × 512 */
	long zones;			/* queue/nr_zones */
};

/*
 * The device read and written the way applications do (`results.app`,
 * probe/app.c): what the estimates of the policies' workloads use beside
 * the O_DIRECT figures.  NAN / -1 = not measured.
 */
struct profile_app {
	bool present;
	double buffered_mbps;		/* buffered_read: cold, 1 MiB, one stream,
					 * the device's read-ahead */
	long read_ahead_kb;		/* that read-ahead */
	double buffered_plan_mbps;	/* buffered_read_plan: the same with the
					 * plan's read-ahead window */
	long plan_read_ahead_kb;	/* that window (4096) */
	double mmap_mbps;		/* mmap_read: cold mapping, one touch per
					 * 4 KiB in order, default read-around */
	double direct_mbps;		/* direct_read: O_DIRECT 1 MiB reads one at
					 * a time (one stream, QD1) */
	double fault_iops;		/* mmap_fault: random 4 KiB touches of a
					 * cold mapping, faults/s */
	double fault_p99_us;		/* their p99 */
	double fault_kib;		/* KiB the device read per fault */
	double chain_iops;		/* pread_chain: dependent 4 KiB O_DIRECT
					 * pread(2)s one at a time, reads/s */
	double chain_p50_us, chain_p99_us;	/* their latency */
	double fault_rand_iops;		/* mmap_fault_random: dependent 4 KiB
					 * touches of a cold mapping under
					 * MADV_RANDOM, faults/s */
	double fault_rand_p50_us, fault_rand_p99_us;	/* their latency */
	double fsync_mbps;		/* fsync_write: buffered 1 MiB writes +
					 * fsync (writable targets only) */
	double inner_mbps;		/* seq_read_inner: 1 MiB QD32 reads in the
					 * device's last 2 % (rotational only) */
};

struct profile_device {
	char *id, *path, *model, *serial, *firmware;
	char *drive_id;			/* the physical drive (NVMe subsystem NQN,
					 * else serial); NULL = unknown */
	enum profile_transport transport;
	enum profile_media media;
	bool rotational;
	int64_t capacity_bytes;
	double price_per_tb;
	struct profile_probe probe;
	struct profile_io io[PROFILE_IO_COUNT];
	struct profile_sustained sustained;
	size_t n_sweep;
	struct profile_sweep *sweep;
	struct profile_lat_target lat_target;
	struct profile_under_write under_write;
	struct profile_app app;
	size_t n_iorate;
	struct profile_iorate *iorate;
	struct profile_thermal thermal;
	struct profile_health health;
	struct profile_link link;
	struct profile_multipath multipath;
	struct profile_fabric fabric;
	struct profile_zoned zoned;
	size_t n_notes;
	char **notes;
};

/*
 * Devices found sharing a bottleneck (`links` in the profile): read at once
 * they reached together_mbps, less than 80 % of the sum of their solo
 * sequential reads (solo_sum_mbps).
 */
struct profile_shared {
	size_t n_ids;
	char **ids;			/* device ids, at least two */
	double solo_sum_mbps, together_mbps;	/* NAN = unknown */
};

struct profile {
	char *host, *created, *tool_name, *tool_version;
	size_t n_devices;
	struct profile_device *devices;
	size_t n_links;
	struct profile_shared *links;
};

/*
 * Append a shared-bottleneck group of n ids (copied) with its figures.
 * Returns 0 or -ENOMEM (p unaltered).
 */
int profile_add_shared(struct profile *p, const char *const *ids, size_t n,
		       double solo_sum_mbps, double together_mbps);

/* Names used in the JSON document (NULL when out of range). */
const char *profile_transport_name(enum profile_transport t);
const char *profile_media_name(enum profile_media m);
/* "none", "host-aware", "host-managed" (sysfs spelling). */
const char *profile_zoned_name(enum profile_zoned_model m);
const char *profile_mode_name(enum profile_mode m);
const char *profile_target_name(enum profile_target t);
const char *profile_io_test_name(enum profile_io_test t);
const char *profile_lat_name(enum profile_lat_field f);

/* An empty latency summary (all NAN). */
struct profile_lat profile_lat_none(void);

/*
 * A new, empty profile with schema fields filled (host from uname,
 * created = now, tool = tierwise).  Returns NULL on allocation failure.
 * Free with profile_free().
 */
struct profile *profile_new(void);

/*
 * Append a device with every measurement absent and the given id (copied).
 * Returns the device (owned by p, valid until the next add) or NULL on
 * allocation failure (p unaltered).
 */
struct profile_device *profile_add_device(struct profile *p, const char *id);

/*
 * Move every device of src to the end of dst, in order; src is left with
 * none.  Returns 0, or -ENOMEM (both unaltered).
 */
int profile_take_devices(struct profile *dst, struct profile *src);

/* Append a copy of note to dev.  Returns 0 or -ENOMEM. */
int profile_device_add_note(struct profile_device *dev, const char *note);

/* Cut a UTF-8 sequence left incomplete at the end of s (by a truncating
 * snprintf), so that the string stays valid UTF-8. */
void profile_utf8_trim(char *s);

/* profile_device_add_note() with a printf-style note (cut at 511 bytes, never
 * inside a UTF-8 character).
 * Returns 0 or -ENOMEM. */
int profile_device_add_notef(struct profile_device *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Whether a read figure of d with this `unwritten` share (NAN = not
 * checked) counts as read from unwritten blocks: share >=
 * PROFILE_UNWRITTEN_MIN, unless d is a hard disk (media "hdd"), which
 * reads never-written sectors from the platter all the same.
 */
bool profile_unwritten(const struct profile_device *d, double share);

/* Free a profile and everything it owns.  NULL-safe. */
void profile_free(struct profile *p);

/*
 * Parse and validate a profile from text.  name labels diagnostics.
 * On success returns 0 and *out owns the profile.  On invalid input returns
 * -EINVAL, *out is NULL and every problem found is appended to diags with
 * its line, column and key.  -ENOMEM on allocation failure.
 */
int profile_read_string(const char *text, size_t len, const char *name,
			struct profile **out, struct tw_diags *diags);

/* Like profile_read_string() on the contents of path.  -errno if unreadable. */
int profile_read_file(const char *path, struct profile **out,
		      struct tw_diags *diags);

/*
 * Serialise p as indented JSON (keys in schema order).  Returns a malloc'd
 * NUL-terminated string the caller frees, or NULL on allocation failure.
 */
char *profile_write_string(const struct profile *p);

/*
 * Write p to path ("-" = stdout) through tw_outfile: refused for anything but
 * a regular file or a new path, written atomically (the previous file stays
 * as it was on failure).  Returns 0 or -errno with err set to the reason.
 */
int profile_write_file(const struct profile *p, const char *path, char *err, size_t len);

/*
 * What kind of file a text is, so that a file of the wrong kind gets one
 * line that names it (fio output given as a profile, a profile given as a
 * price list) instead of a line per key it lacks.
 */
enum profile_file_kind {
	PROFILE_KIND_PROFILE,	/* "schema": "tierwise.profile/1" */
	PROFILE_KIND_FIO,	/* fio --output-format=json(+): "fio version" */
	PROFILE_KIND_PLAN,	/* "schema": "tierwise.plan/…" */
	PROFILE_KIND_INVENTORY,	/* "schema": "tierwise.inventory/…" */
	PROFILE_KIND_FLEET,	/* "schema": "tierwise.fleet/…" */
	PROFILE_KIND_JSON,	/* other JSON, or broken JSON */
	PROFILE_KIND_YAML,	/* "---" or "key:" on its first line of content */
	PROFILE_KIND_TEXT,	/* anything else (a price list, say) */
	PROFILE_KIND_EMPTY,	/* nothing but white space */
};

/* The kind of text[0..len) (parsed with jansson when it starts like JSON). */
enum profile_file_kind profile_file_kind(const char *text, size_t len);

/* "fio output", "a tierwise plan (tierwise.plan/1, …)", …: for messages. */
const char *profile_file_kind_name(enum profile_file_kind k);

/*
 * Read a file into a malloc'd NUL-terminated buffer (*len excludes the NUL).
 * Returns 0 or -errno.
 */
int profile_slurp(const char *path, char **buf, size_t *len);

#endif
