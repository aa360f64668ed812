/* render_prom.h — profiles as Prometheus metrics in the text exposition
 * format that node_exporter's textfile collector reads (docs/prometheus.md):
 * per device and test the IOPS, throughput and latency quantiles, the
 * temperature idle and under load, health (critical warning, spare, wear,
 * media errors) and the tier the plan gave it.  Labels: host, device,
 * model, serial, and test / quantile / state / tier where they apply.
 */
#ifndef TW_RENDER_PROM_H
#define TW_RENDER_PROM_H

#include <stddef.h>
#include <stdio.h>

#include "fleet.h"
#include "profile.h"

struct prom_source {
	const struct profile *profile;
	const struct fleet_plan *plan;	/* NULL = no tier metric for its devices */
	const char *host;		/* the host label; NULL = the profile's host */
};

/*
 * Write the metrics of src[0..n) to out, each metric family once (HELP,
 * TYPE, then its samples), unmeasured figures left out.  Returns 0, -ENOMEM,
 * or -EIO when out failed.
 */
int prom_render(FILE *out, const struct prom_source *src, size_t n);

/* A label value of the text format: backslash, double quote and newline
 * escaped (render_prom.c; the textfile of verify uses it too). */
void render_prom_escape(FILE *out, const char *s);

#endif
