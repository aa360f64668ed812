/* tierwise.profile/1: construction, names and destruction. */
#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "profile.h"
#include "profile_fields.h"

#ifndef TW_VERSION
#define TW_VERSION "0"
#endif

static const char *name_at(const char *const *names, int n, int i)
{
	return i >= 0 && i < n ? names[i] : NULL;
}

const char *profile_transport_name(enum profile_transport t)
{
	return name_at(pf_transport_names, PROFILE_TR_COUNT, t);
}

const char *profile_media_name(enum profile_media m)
{
	return name_at(pf_media_names, PROFILE_MEDIA_COUNT, m);
}

const char *profile_zoned_name(enum profile_zoned_model m)
{
	return name_at(pf_zoned_names, PROFILE_ZONED_COUNT, m);
}

const char *profile_mode_name(enum profile_mode m)
{
	return name_at(pf_mode_names, PROFILE_MODE_COUNT, m);
}

const char *profile_target_name(enum profile_target t)
{
	return name_at(pf_target_names, PROFILE_TGT_COUNT, t);
}

const char *profile_io_test_name(enum profile_io_test t)
{
	return name_at(pf_io_names, PROFILE_IO_COUNT, t);
}

const char *profile_lat_name(enum profile_lat_field f)
{
	return name_at(pf_lat_names, PROFILE_LAT_COUNT, f);
}

const char *profile_critical_warning_name(int bit)
{
	return bit >= 0 && bit < 6 ? pf_crit_names[bit] : NULL;
}

void profile_health_init(struct profile_health *h)
{
	memset(h, 0, sizeof(*h));
	h->critical_warning = h->percentage_used = h->available_spare = -1;
	h->available_spare_threshold = h->media_errors = h->power_on_hours = -1;
	h->warning_temp_minutes = h->critical_temp_minutes = -1;
	h->tmt1_transitions = h->tmt2_transitions = -1;
	h->tmt1_seconds = h->tmt2_seconds = -1;
	h->smart_ok = -1;
	for (int i = 0; i < PROFILE_SENSORS; i++)
		h->sensors_c[i] = NAN;
}

struct profile_lat profile_lat_none(void)
{
	struct profile_lat l;

	for (int i = 0; i < PROFILE_LAT_COUNT; i++)
		l.v[i] = NAN;
	return l;
}

struct profile *profile_new(void)
{
	struct profile *p = calloc(1, sizeof(*p));
	struct utsname u;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (!p)
		return NULL;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	p->host = strdup(uname(&u) == 0 ? u.nodename : "unknown");
	p->created = strdup(stamp);
	p->tool_name = strdup("tierwise");
	p->tool_version = strdup(TW_VERSION);
	if (!p->host || !p->created || !p->tool_name || !p->tool_version) {
		profile_free(p);
		return NULL;
	}
	return p;
}

static void device_init(struct profile_device *d)
{
	memset(d, 0, sizeof(*d));
	d->transport = PROFILE_TR_OTHER;
	d->media = PROFILE_MEDIA_UNKNOWN;
	d->capacity_bytes = -1;
	d->zoned.zone_bytes = d->zoned.zones = -1;
	d->price_per_tb = NAN;
	d->probe.seconds = NAN;
	d->probe.test_seconds = NAN;
	for (int t = 0; t < PROFILE_IO_COUNT; t++) {
		struct profile_io *io = &d->io[t];

		io->bs = io->qd = -1;
		io->mbps = io->iops = io->read_iops = io->write_iops = NAN;
		io->lat = profile_lat_none();
		io->seconds = io->spread_pct = NAN;
		io->ios = -1;
		io->steady = -1;
		io->threads = -1;
		io->unwritten = NAN;
	}
	d->lat_target.p99_us = d->lat_target.iops = NAN;
	d->lat_target.unwritten = NAN;
	d->lat_target.qd = -1;
	d->under_write.bs = d->under_write.qd = d->under_write.write_bs = -1;
	d->under_write.iops = d->under_write.idle_p99_us = d->under_write.p99_ratio = NAN;
	d->under_write.write_rate_mibps = d->under_write.write_mibps = NAN;
	d->under_write.trim_mibps = d->under_write.seconds = NAN;
	d->under_write.ios = -1;
	d->under_write.unwritten = NAN;
	d->under_write.lat = profile_lat_none();
	d->under_write.boot_bs = d->under_write.boot_qd = -1;
	d->under_write.boot_iops = NAN;
	d->under_write.boot_lat = profile_lat_none();
	d->app.buffered_mbps = d->app.buffered_plan_mbps = d->app.mmap_mbps = NAN;
	d->app.direct_mbps = NAN;
	d->app.fault_iops = d->app.fault_p99_us = d->app.fault_kib = NAN;
	d->app.chain_iops = d->app.chain_p50_us = d->app.chain_p99_us = NAN;
	d->app.fault_rand_iops = d->app.fault_rand_p50_us = d->app.fault_rand_p99_us = NAN;
	d->app.fsync_mbps = d->app.inner_mbps = NAN;
	d->app.read_ahead_kb = d->app.plan_read_ahead_kb = -1;
	d->sustained.mbps = d->sustained.initial_mbps = NAN;
	d->sustained.cliff_after_gb = d->sustained.seconds = NAN;
	d->thermal.idle_c = d->thermal.load_c = d->thermal.rise_c = NAN;
	d->thermal.warning_c = d->thermal.critical_c = NAN;
	d->thermal.throttle_events = -1;
	profile_health_init(&d->health);
	d->link.speed_gts = d->link.max_speed_gts = NAN;
	d->link.width = d->link.max_width = d->link.numa_node = -1;
}

int profile_link_gen(double gts)
{
	static const double speeds[] = { 2.5, 5, 8, 16, 32, 64 };

	for (int i = 0; i < (int)(sizeof(speeds) / sizeof(speeds[0])); i++)
		if (fabs(gts - speeds[i]) < 0.01 * speeds[i])
			return i + 1;
	return 0;
}

double profile_link_mbps(double gts, long width)
{
	double eff;

	if (!(gts > 0) || width <= 0)
		return NAN;
	eff = gts <= 5.01 ? 8.0 / 10 : gts <= 32.01 ? 128.0 / 130 : 242.0 / 256;
	return gts * 1000.0 / 8 * eff * (double)width;
}

bool profile_link_degraded(const struct profile_link *l)
{
	if (!l->present)
		return false;
	return (!isnan(l->speed_gts) && !isnan(l->max_speed_gts) &&
		l->speed_gts < l->max_speed_gts) ||
	       (l->width > 0 && l->max_width > 0 && l->width < l->max_width);
}

struct profile_device *profile_add_device(struct profile *p, const char *id)
{
	struct profile_device *v, *d;
	char *idc = NULL;

	if (id && !(idc = strdup(id)))
		return NULL;
	v = realloc(p->devices, (p->n_devices + 1) * sizeof(*v));
	if (!v) {
		free(idc);
		return NULL;
	}
	p->devices = v;
	d = &v[p->n_devices++];
	device_init(d);
	d->id = idc;
	return d;
}

static void shared_free(struct profile_shared *g)
{
	for (size_t i = 0; i < g->n_ids; i++)
		free(g->ids[i]);
	free(g->ids);
}

int profile_add_shared(struct profile *p, const char *const *ids, size_t n,
		       double solo_sum_mbps, double together_mbps)
{
	struct profile_shared g = { .solo_sum_mbps = solo_sum_mbps,
				    .together_mbps = together_mbps };
	struct profile_shared *v;

	if (!(g.ids = calloc(n ? n : 1, sizeof(*g.ids))))
		return -ENOMEM;
	for (; g.n_ids < n; g.n_ids++)
		if (!(g.ids[g.n_ids] = strdup(ids[g.n_ids]))) {
			shared_free(&g);
			return -ENOMEM;
		}
	v = realloc(p->links, (p->n_links + 1) * sizeof(*v));
	if (!v) {
		shared_free(&g);
		return -ENOMEM;
	}
	p->links = v;
	v[p->n_links++] = g;
	return 0;
}

int profile_take_devices(struct profile *dst, struct profile *src)
{
	struct profile_device *v;

	if (!src->n_devices)
		return 0;
	v = realloc(dst->devices, (dst->n_devices + src->n_devices) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	dst->devices = v;
	memcpy(v + dst->n_devices, src->devices, src->n_devices * sizeof(*v));
	dst->n_devices += src->n_devices;
	free(src->devices);
	src->devices = NULL;
	src->n_devices = 0;
	return 0;
}

int profile_device_add_note(struct profile_device *dev, const char *note)
{
	char **v = realloc(dev->notes, (dev->n_notes + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	dev->notes = v;
	if (!(v[dev->n_notes] = strdup(note)))
		return -ENOMEM;
	dev->n_notes++;
	return 0;
}

void profile_utf8_trim(char *s)
{
	size_t n = strlen(s), lead = n;

	while (lead > 0 && ((unsigned char)s[lead - 1] & 0xC0) == 0x80)
		lead--;			/* back over continuation bytes */
	if (lead == 0 || (unsigned char)s[lead - 1] < 0xC0)
		return;			/* ASCII last, or no lead byte */
	unsigned char c = (unsigned char)s[lead - 1];
	size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;

	if (n - (lead - 1) < want)
		s[lead - 1] = '\0';	/* a sequence cut short */
}

int profile_device_add_notef(struct profile_device *dev, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	profile_utf8_trim(buf);		/* the cut must not split a character */
	return profile_device_add_note(dev, buf);
}

static void link_free(struct profile_link *l)
{
	free(l->pcie_address);
	for (size_t i = 0; i < l->n_upstream; i++)
		free(l->upstream[i]);
	free(l->upstream);
}

static void device_free(struct profile_device *d)
{
	free(d->id);
	free(d->path);
	free(d->model);
	free(d->serial);
	free(d->firmware);
	free(d->drive_id);
	free(d->multipath.subsysnqn);
	free(d->multipath.iopolicy);
	for (size_t i = 0; i < d->multipath.n_paths; i++) {
		struct profile_path *x = &d->multipath.paths[i];

		free(x->name);
		free(x->controller);
		free(x->transport);
		free(x->address);
		free(x->pci_function);
		free(x->ana_state);
		link_free(&x->link);
	}
	free(d->multipath.paths);
	free(d->fabric.transport);
	free(d->fabric.address);
	free(d->probe.engine);
	free(d->sustained.series);
	for (int t = 0; t < PROFILE_IO_COUNT; t++)
		free(d->io[t].label);
	free(d->sweep);
	free(d->iorate);
	free(d->thermal.source);
	free(d->thermal.throttle);
	free(d->health.source);
	link_free(&d->link);
	for (size_t i = 0; i < d->n_notes; i++)
		free(d->notes[i]);
	free(d->notes);
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_devices; i++)
		device_free(&p->devices[i]);
	free(p->devices);
	for (size_t i = 0; i < p->n_links; i++)
		shared_free(&p->links[i]);
	free(p->links);
	free(p->host);
	free(p->created);
	free(p->tool_name);
	free(p->tool_version);
	free(p);
}

bool profile_unwritten(const struct profile_device *d, double share)
{
	return share >= PROFILE_UNWRITTEN_MIN && d->media != PROFILE_MEDIA_HDD;
}
