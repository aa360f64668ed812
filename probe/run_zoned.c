/* The run on a host-managed zoned device written raw: which write tests
 * run there (the sequential ones) and how, as zone-sequential writes after
 * a zone reset (zoned.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "probe.h"
#include "run_int.h"
#include "sysroot.h"
#include "zoned.h"

/*
 * Whether r writes to a host-managed zoned device itself (a raw target, not
 * a file on its filesystem): writes there must be zone-sequential after a
 * zone reset, so only the sequential write tests run (probe_run_zoned_write).
 */
bool probe_run_zoned_raw(const struct probe_run_state *r)
{
	return r->t->kind != PROBE_TARGET_SCRATCH && probe_dev_host_managed(r->t->dev);
}

/* Whether write test t runs on a host-managed zoned device: the
 * sequential ones, as zone-sequential writes (probe_run_zoned_write). */
bool probe_run_zoned_runs(enum probe_test t)
{
	return t == PROBE_TEST_SEQ_WRITE || t == PROBE_TEST_SUSTAINED_WRITE;
}

/* A zone limit of r's device from sysfs (queue/max_open_zones, …); 0 =
 * none or unknown. */
static unsigned zone_limit(const struct probe_run_state *r, const char *attr)
{
	char *v = r->t->dev && r->t->dev->name ?
		probe_sys_str(r->o->sysroot, "sys/block/%s/queue/%s", r->t->dev->name, attr) : NULL;
	unsigned long n = v ? strtoul(v, NULL, 10) : 0;

	free(v);
	return n > 4096 ? 4096 : (unsigned)n;
}

/*
 * Sequential write test t on a host-managed zoned device (--destructive):
 * its zones reset, then written in order (zoned.h, job.h's zone map).  A
 * refused reset or no usable zone: the test is not run, a note says why,
 * the other figures stay.  Returns what the test returns, 0 when not run.
 */
int probe_run_zoned_write(struct probe_run_state *r, enum probe_test t)
{
	const struct probe_test_def *def = &probe_test_defs[t];
	char why[200];
	int ret = probe_zones_prepare(r->t->fd, r->span, def->bs, def->qd,
				      zone_limit(r, "max_open_zones"),
				      zone_limit(r, "max_active_zones"), &r->zone, why, sizeof(why));

	if (ret == -ENOMEM)
		return ret;
	if (ret < 0)
		return profile_device_add_notef(r->dev, "%s: not run: host-managed zoned device: %s; "
						"the other figures are kept", def->name, why) < 0 ?
			-ENOMEM : 0;
	if (profile_device_add_notef(r->dev, "%s: zone-sequential writes after a zone reset: %llu "
				     "zones of %llu MiB from %llu MiB, each written to %llu MiB, "
				     "%u at once", def->name, (unsigned long long)r->zone.n,
				     (unsigned long long)(r->zone.bytes >> 20),
				     (unsigned long long)(r->zone.base >> 20),
				     (unsigned long long)(r->zone.cap >> 20), r->zone.par) < 0)
		ret = -ENOMEM;
	else
		ret = t == PROBE_TEST_SUSTAINED_WRITE ? probe_run_sustained(r) : probe_run_io_test(r, t);
	memset(&r->zone, 0, sizeof(r->zone));
	return ret;
}
