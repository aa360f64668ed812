/* thermal.h — private: the 1 Hz series of the heaviest test, with
 * temperatures, and what it shows (peak, rise, throttling). */
#ifndef TW_PROBE_THERMAL_H
#define TW_PROBE_THERMAL_H

#include "probe.h"

/* A throughput drop counts as throttling below this share of the start... */
#define PROBE_THROTTLE_DROP 0.8
/* ...while the temperature is at or above warning − this margin. */
#define PROBE_THROTTLE_MARGIN_C 5.0

struct probe_series {
	const char *sysroot;
	const struct probe_dev *dev;	/* NULL: no sensor to read */
	bool sensor;			/* a temperature could be read */
	double warning_c;
	struct profile_health start;	/* counters when the series began */
	bool have_start;
	struct profile_point *pts;
	size_t n, cap;
	double last_t;
	bool in_drop;			/* inside a hot throughput drop */
	struct profile_throttle *ev;
	size_t n_ev;
};

/*
 * Read the idle temperature, thresholds and health of t's device into d
 * (thermal.idle_c/warning_c/critical_c/source, health) and prepare s for
 * sampling.  What cannot be read becomes null and a note says why.
 * Returns 0 or -ENOMEM.
 */
int probe_series_init(struct probe_series *s, const char *sysroot,
		      const struct probe_target *t, struct profile_device *d);

/* Start a series of at most max_points points.  Returns 0 or -ENOMEM. */
int probe_series_begin(struct probe_series *s, size_t max_points);

/*
 * A throughput window ended at t seconds: keep one point a second (with a
 * temperature sample when there is a sensor) and look for throttling.
 */
void probe_series_window(struct probe_series *s, double t, double mbps);

/*
 * The test is over: fold the peak, rise and throttling evidence into d's
 * thermal block.  Ownership of the points stays with s (see take).
 */
void probe_series_end(struct probe_series *s, struct profile_device *d);

/* Hand the points to the caller (who frees them); s keeps none. */
struct profile_point *probe_series_take(struct probe_series *s, size_t *n);

/* Free what s holds.  NULL-safe. */
void probe_series_free(struct probe_series *s);

#endif
