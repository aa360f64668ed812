/* The 1 Hz series of the heaviest test: throughput, temperature, throttling. */
#include "thermal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int note(struct profile_device *d, const char *what, const char *why)
{
	char buf[400];

	snprintf(buf, sizeof(buf), "%s: %s", what, why);
	return profile_device_add_note(d, buf);
}

/* Copy a health log into the profile's, with its source. */
static int set_health(struct profile_device *d, const struct probe_health *h)
{
	free(d->health.source);
	d->health = h->log;
	d->health.present = true;
	d->health.source = strdup(h->source);
	return d->health.source ? 0 : -ENOMEM;
}

int probe_series_init(struct probe_series *s, const char *sysroot,
		      const struct probe_target *t, struct profile_device *d)
{
	struct probe_health h;
	int ret;

	memset(s, 0, sizeof(*s));
	s->sysroot = sysroot;
	s->dev = t->dev;
	s->warning_c = NAN;
	if (!t->dev)
		return note(d, "thermal", "no block device known behind this target; "
			    "temperature unknown");
	ret = probe_health_read(sysroot, t->dev, &h);
	if (h.why[0] && note(d, "thermal", h.why) < 0)
		return -ENOMEM;
	if (h.shared_with[0] &&
	    profile_device_add_notef(d, "thermal: the drive's temperature and health read once, "
				     "with %s (a namespace of the same drive)", h.shared_with) < 0)
		return -ENOMEM;
	if (h.log.present && set_health(d, &h) < 0)
		return -ENOMEM;
	if (ret < 0)
		return 0;
	s->sensor = true;
	s->warning_c = h.warning_c;
	d->thermal.idle_c = h.temp_c;
	d->thermal.warning_c = h.warning_c;
	d->thermal.critical_c = h.critical_c;
	d->thermal.throttle_events = 0;
	free(d->thermal.source);
	d->thermal.source = strdup(h.source);
	return d->thermal.source ? 0 : -ENOMEM;
}

int probe_series_begin(struct probe_series *s, size_t max_points)
{
	struct probe_health h;

	free(s->pts);
	s->pts = calloc(max_points, sizeof(*s->pts));
	if (!s->pts)
		return -ENOMEM;
	s->cap = max_points;
	s->n = 0;
	s->have_start = false;
	if (s->sensor && probe_health_sample(s->sysroot, s->dev, &h) == 0 && h.log.present) {
		s->start = h.log;
		s->have_start = true;
	}
	return 0;
}

static void add_event(struct probe_series *s, double t, double temp,
		      enum profile_throttle_kind kind)
{
	struct profile_throttle *v = realloc(s->ev, (s->n_ev + 1) * sizeof(*v));

	if (!v)
		return;
	s->ev = v;
	v[s->n_ev++] = (struct profile_throttle){ t, temp, kind };
}

/* Any increase of a thermal-management counter is one throttling event. */
static void tmt_check(struct probe_series *s, const struct profile_health *now,
		      double t, double temp)
{
	if (!s->have_start)
		return;
	if (now->tmt1_transitions > s->start.tmt1_transitions ||
	    now->tmt1_seconds > s->start.tmt1_seconds)
		add_event(s, t, temp, PROFILE_THR_TMT1);
	if (now->tmt2_transitions > s->start.tmt2_transitions ||
	    now->tmt2_seconds > s->start.tmt2_seconds)
		add_event(s, t, temp, PROFILE_THR_TMT2);
	s->start = *now;
}

/* A drop of more than 20 % from the start while hot is one event per episode. */
static void drop_check(struct probe_series *s, double t, double mbps, double temp)
{
	double initial = 0;
	size_t k = s->n < 4 ? 0 : 3;
	bool dropped, hot;

	if (!k)
		return;
	for (size_t i = 0; i < k; i++)
		initial += s->pts[i].mbps / (double)k;
	dropped = mbps < PROBE_THROTTLE_DROP * initial;
	hot = !isnan(temp) && !isnan(s->warning_c) &&
	      temp >= s->warning_c - PROBE_THROTTLE_MARGIN_C;
	if (dropped && hot && !s->in_drop)
		add_event(s, t, temp, PROFILE_THR_DROP);
	s->in_drop = dropped && hot;
}

void probe_series_window(struct probe_series *s, double t, double mbps)
{
	struct probe_health h;
	double temp = NAN;

	if ((s->n && t - s->last_t < 0.999) || s->n >= s->cap)
		return;
	if (s->sensor && probe_health_sample(s->sysroot, s->dev, &h) == 0) {
		temp = h.temp_c;
		if (h.log.present)
			tmt_check(s, &h.log, t, temp);
	}
	s->pts[s->n++] = (struct profile_point){ t, mbps, temp };
	s->last_t = t;
	drop_check(s, t, mbps, temp);
}

void probe_series_end(struct probe_series *s, struct profile_device *d)
{
	struct profile_thermal *th = &d->thermal;
	struct probe_health h;
	double peak = NAN;

	for (size_t i = 0; i < s->n; i++)
		if (!isnan(s->pts[i].temp_c) && !(s->pts[i].temp_c <= peak))
			peak = s->pts[i].temp_c;
	if (s->sensor && probe_health_sample(s->sysroot, s->dev, &h) == 0) {
		if (!(h.temp_c <= peak))
			peak = h.temp_c;
		if (h.log.present) {
			tmt_check(s, &h.log, s->last_t, h.temp_c);
			if (d->health.present) {	/* the counters after the load */
				h.log.source = d->health.source;
				d->health = h.log;
			}
		}
	}
	if (!isnan(peak)) {
		th->load_c = peak;
		if (!isnan(th->idle_c) && fabs(peak - th->idle_c) <= 200)
			th->rise_c = peak - th->idle_c;	/* the profile's range */
	}
	if (s->sensor) {
		free(th->throttle);
		th->throttle = s->ev;
		th->n_throttle = s->n_ev;
		th->throttle_events = (long)s->n_ev;
		s->ev = NULL;
		s->n_ev = 0;
	}
}

struct profile_point *probe_series_take(struct probe_series *s, size_t *n)
{
	struct profile_point *p = s->pts;

	*n = s->n;
	s->pts = NULL;
	s->n = s->cap = 0;
	return p;
}

void probe_series_free(struct probe_series *s)
{
	if (!s)
		return;
	free(s->pts);
	free(s->ev);
	s->pts = NULL;
	s->ev = NULL;
}
