/* model.h — tierwise's cost model: device measurements in user terms.
 *
 * Pure functions over tierwise.profile/1 devices; never print.  Policies and
 * scoring build on these estimates.
 */
#ifndef TW_MODEL_H
#define TW_MODEL_H

#include "profile.h"

/* A user-facing estimate and the metric it came from. */
struct model_estimate {
	double value;		/* seconds (or hours, see the function); NAN = unknown */
	const char *metric;	/* profile path used, e.g. "seq_read.mbps" */
};

/*
 * Seconds to read a model (or any file) of gb decimal gigabytes sequentially:
 * gb × 1000 ÷ seq_read MB/s.  value is NAN when seq_read was not measured or
 * gb is negative.
 */
struct model_estimate model_load_seconds(const struct profile_device *d, double gb);

/*
 * Seconds for a search of `reads` dependent random 4 KiB reads at QD1:
 * reads ÷ rand_read_qd1 IOPS.  value is NAN when not measured.
 */
struct model_estimate model_search_seconds(const struct profile_device *d, double reads);

/*
 * Hours to write a backup of tb decimal terabytes at the sustained write
 * rate (sustained_write.mbps, else seq_write.mbps, named in metric).
 */
struct model_estimate model_backup_hours(const struct profile_device *d, double tb);

#endif
