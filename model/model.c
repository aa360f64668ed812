/* Estimates in user terms from tierwise.profile/1 measurements. */
#include "model.h"

#include <math.h>

static struct model_estimate ratio(double amount, double rate, const char *metric)
{
	struct model_estimate e = { NAN, metric };

	if (amount >= 0 && isfinite(rate) && rate > 0)
		e.value = amount / rate;
	return e;
}

struct model_estimate model_load_seconds(const struct profile_device *d, double gb)
{
	return ratio(gb * 1000.0, d->io[PROFILE_SEQ_READ].mbps, "seq_read.mbps");
}

struct model_estimate model_search_seconds(const struct profile_device *d, double reads)
{
	return ratio(reads, d->io[PROFILE_RAND_READ_QD1].iops, "rand_read_qd1.iops");
}

struct model_estimate model_backup_hours(const struct profile_device *d, double tb)
{
	struct model_estimate e;

	if (d->sustained.present && isfinite(d->sustained.mbps))
		e = ratio(tb * 1e6, d->sustained.mbps, "sustained_write.mbps");
	else
		e = ratio(tb * 1e6, d->io[PROFILE_SEQ_WRITE].mbps, "seq_write.mbps");
	e.value /= 3600.0;
	return e;
}
