/* profile_fields.h — private: descriptor tables of tierwise.profile/1.
 *
 * One table per JSON object drives the reader, the validator and the writer,
 * so a field is declared once.  Private to profile/.
 */
#ifndef TW_PROFILE_FIELDS_H
#define TW_PROFILE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

enum pf_kind {
	PF_STR,		/* string (char *) */
	PF_BOOL,	/* bool */
	PF_OPTBOOL,	/* bool or null (int: 1, 0, -1 = null) */
	PF_I64,		/* integer >= 0 (int64_t) */
	PF_POSINT,	/* integer > 0 (long) */
	PF_COUNT,	/* integer >= 0 or null (long, -1 = null) */
	PF_POS,		/* number > 0 or null (double, NAN = null) */
	PF_IOPS,	/* PF_POS, at most PF_MOST_IOPS */
	PF_MBPS,	/* PF_POS, at most PF_MOST_MBPS */
	PF_US,		/* PF_POS, at most PF_MOST_US (a latency) */
	PF_NONNEG,	/* number >= 0 or null (double, NAN = null) */
	PF_TEMP,	/* number in [-50, 200] or null (double, NAN = null) */
	PF_FRAC,	/* number in [0, 1] or null (double, NAN = null) */
	PF_ENUM,	/* one of names[] (int-sized enum) */
	PF_LAT,		/* latency summary object (struct profile_lat) */
	PF_OBJ,		/* nested object described by sub (NULL allowed if optional) */
};

/*
 * Figures no device has: a profile past them is refused, never planned on.
 * IOPS: 100 million, 15 times the fastest PCIe 6.0 SSDs announced (about
 * 7 M) and 7 times the record of one CPU core through io_uring (13 M); an
 * md array of 30 PCIe 5.0 drives stays below.  MB/s: 1 TB/s, 8 times a
 * PCIe 6.0 x16 link (128 GB/s).  A latency: 1,000 s, past any I/O timeout.
 */
#define PF_MOST_IOPS 1e8
#define PF_MOST_MBPS 1e6
#define PF_MOST_US 1e9

#define PF_REQUIRED  0x1	/* must be present and not null */
#define PF_NULLOUT   0x2	/* writer emits null when absent (else omits) */

struct pf_table;

struct pf_field {
	const char *key;
	enum pf_kind kind;
	size_t off;
	unsigned flags;
	const char *const *names;	/* PF_ENUM */
	const struct pf_table *sub;	/* PF_OBJ */
};

struct pf_table {
	const struct pf_field *f;
	size_t n;
};

extern const struct pf_table pf_top, pf_tool, pf_device, pf_probe, pf_io,
	pf_sustained, pf_point, pf_sweep, pf_thermal, pf_lat_target, pf_throttle,
	pf_health, pf_link, pf_under_write, pf_iorate, pf_multipath, pf_path,
	pf_fabric, pf_zoned;
extern const char *const pf_transport_names[], *const pf_media_names[], *const pf_zoned_names[],
	*const pf_mode_names[], *const pf_target_names[], *const pf_io_names[],
	*const pf_lat_names[], *const pf_throttle_names[], *const pf_crit_names[];

/*
 * The application figures (struct profile_app) are one object each under
 * results, each a table over the whole struct profile_app: written when
 * its headline figure (a double at `figure`) is known, read into
 * the device's app.
 */
struct pf_app_result {
	const char *key;		/* "buffered_read" */
	const struct pf_table *t;
	size_t figure;			/* offsetof(struct profile_app, …) */
};

extern const struct pf_app_result pf_app_results[];
extern const size_t pf_app_result_count;

struct json_t;
enum profile_file_kind;

/* The kind of a parsed JSON document, by its telltale keys (profile_kind.c). */
enum profile_file_kind pf_json_kind(const struct json_t *root);

#endif
