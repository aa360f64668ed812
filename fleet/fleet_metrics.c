/* fleet_metrics.c — the fleet's key figures: which metrics of the table
 * (metrics.h) the fleet compares, and how a device measured each. */
#include <pthread.h>
#include <stdio.h>

#include "fleet.h"

const struct fleet_metric fleet_metrics[] = {
	{ "seq_read.mbps", true },
	{ "seq_write.mbps", true },
	{ "rand_read_qd1.iops", true },
	{ "rand_read_qd1.lat_us.p99", true },
	{ "rand_read_qd32.iops", true },
	{ "mixed_70_30.iops", true },
	{ "sustained_write.mbps", true },
	{ "thermal.load_c", false },
};
const size_t fleet_n_metrics = sizeof(fleet_metrics) / sizeof(fleet_metrics[0]);

/* The rows of fleet_metrics, looked up once: renderers ask per device. */
static const struct model_metric_desc *descs[sizeof(fleet_metrics) / sizeof(fleet_metrics[0])];
static pthread_once_t descs_once = PTHREAD_ONCE_INIT;

static void find_descs(void)
{
	for (size_t i = 0; i < fleet_n_metrics; i++)
		descs[i] = model_metric_find(fleet_metrics[i].key);
}

const struct model_metric_desc *fleet_metric_desc(size_t i)
{
	pthread_once(&descs_once, find_descs);
	return i < fleet_n_metrics ? descs[i] : NULL;
}

void fleet_method(const struct profile_device *d, const struct model_metric_desc *m,
		  char *buf, size_t len)
{
	const char *tgt = profile_target_name(d->probe.target);
	const char *mode = profile_mode_name(d->probe.mode);

	if (m->test >= 0)
		snprintf(buf, len, "%s %s bs=%ld qd=%ld", tgt ? tgt : "?", mode ? mode : "?",
			 d->io[m->test].bs, d->io[m->test].qd);
	else
		snprintf(buf, len, "%s %s", tgt ? tgt : "?", mode ? mode : "?");
}
