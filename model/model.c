/* The policies' workloads estimated from tierwise.profile/1 measurements:
 * one function a pattern (docs/scoring.md, "Workload estimates").
 */
#include "model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MIB_MB 1.048576		/* 1 MiB in MB */
#define DEFAULT_RA_KB 128	/* the kernel's read_ahead_kb when none was read */
#define INNER_SHARE 0.55	/* an HDD's inner-zone rate ÷ outer, when not measured */

static void basis(struct model_workload_est *e, const char *path)
{
	for (size_t i = 0; i < e->n_basis; i++)
		if (!strcmp(e->basis[i], path))
			return;
	if (e->n_basis < MODEL_BASIS_MAX)
		e->basis[e->n_basis++] = path;
}

/* Append a sentence to e->how. */
static void __attribute__((format(printf, 2, 3))) how(struct model_workload_est *e,
						      const char *fmt, ...)
{
	size_t n = strlen(e->how);
	va_list ap;

	if (n && n + 2 < sizeof(e->how)) {
		strcpy(e->how + n, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(e->how + n, sizeof(e->how) - n, fmt, ap);
	va_end(ap);
}

static bool ok(double x)
{
	return isfinite(x) && x > 0;
}

/* ---- the queue-depth curve: the sweep, QD1 and QD32 as its points ---- */

struct point {
	double qd, iops, p50, p99;	/* latencies in µs */
};

static size_t curve(const struct profile_device *d, struct point *p, size_t max)
{
	const struct profile_io *q1 = &d->io[PROFILE_RAND_READ_QD1];
	const struct profile_io *q32 = &d->io[PROFILE_RAND_READ_QD32];
	size_t n = 0;

	for (size_t i = 0; i < d->n_sweep && n < max; i++)
		if (ok(d->sweep[i].iops) && d->sweep[i].qd > 0)
			p[n++] = (struct point){ (double)d->sweep[i].qd, d->sweep[i].iops,
						 d->sweep[i].lat.v[PROFILE_LAT_P50],
						 d->sweep[i].lat.v[PROFILE_LAT_P99] };
	if (!n) {
		if (q1->present && ok(q1->iops) && n < max)
			p[n++] = (struct point){ 1, q1->iops, q1->lat.v[PROFILE_LAT_P50],
						 q1->lat.v[PROFILE_LAT_P99] };
		if (q32->present && ok(q32->iops) && n < max)
			p[n++] = (struct point){ (double)(q32->qd > 0 ? q32->qd : 32), q32->iops,
						 q32->lat.v[PROFILE_LAT_P50],
						 q32->lat.v[PROFILE_LAT_P99] };
	}
	/* in depth order (a sweep is; the two tests are) */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && p[j].qd < p[j - 1].qd; j--) {
			struct point t = p[j];

			p[j] = p[j - 1];
			p[j - 1] = t;
		}
	return n;
}

/*
 * Random 4 KiB reads at depth q: IOPS and latency percentiles, interpolated
 * between the curve's points in log(depth); past the deepest point the
 * device is taken as saturated (its IOPS, latency growing with the depth,
 * Little's law).  Returns false when there is no point at all.
 */
static bool at_depth(const struct profile_device *d, double q, struct point *out,
		     struct model_workload_est *e)
{
	struct point p[64];
	size_t n = curve(d, p, 64), i;

	if (!n)
		return false;
	if (d->n_sweep) {
		basis(e, "qd_sweep.iops");
	} else {	/* the two random-read tests as the curve's points */
		basis(e, q > p[0].qd && n > 1 ? "rand_read_qd32.iops" : "rand_read_qd1.iops");
		if (q > p[0].qd && q < p[n - 1].qd)
			basis(e, "rand_read_qd1.iops");
	}
	if (q <= p[0].qd) {
		*out = p[0];
	} else if (q >= p[n - 1].qd) {
		double k = q / p[n - 1].qd;

		*out = p[n - 1];
		out->p50 *= k;
		out->p99 *= k;
		if (k > 1.0)
			how(e, "depth %.0f is past the deepest measured (%.0f): the device's "
			    "ceiling assumed", q, p[n - 1].qd);
	} else {
		for (i = 1; i < n && p[i].qd < q; i++)
			;
		double f = log(q / p[i - 1].qd) / log(p[i].qd / p[i - 1].qd);

		out->qd = q;
		out->iops = p[i - 1].iops + f * (p[i].iops - p[i - 1].iops);
		out->p50 = p[i - 1].p50 + f * (p[i].p50 - p[i - 1].p50);
		out->p99 = p[i - 1].p99 + f * (p[i].p99 - p[i - 1].p99);
	}
	out->qd = q;
	return ok(out->iops);
}

/* ---- queries: chain and beam ---- */

/*
 * A query of `hops` dependent steps, each taking `step` seconds on average
 * with per-read p50/p99 (µs): the p50 is the sum of the means, the p99 adds
 * sqrt(hops) × (p99 − p50) of one step (the sum of independent steps).
 */
static void query(struct model_workload_est *e, double hops, double step, double p50,
		  double p99, double concurrency)
{
	double tail = isfinite(p99) && isfinite(p50) ? fmax(0, p99 - p50) * 1e-6 : NAN;

	e->seconds = hops * step;
	e->p50_ms = e->seconds * 1e3;
	e->p99_ms = (e->seconds + sqrt(hops) * tail) * 1e3;	/* NAN: no p99 measured */
	e->qps = concurrency / e->seconds;
}

static double ra_kb(const struct profile_device *d)
{
	return d->app.present && d->app.read_ahead_kb > 0 ? (double)d->app.read_ahead_kb
							   : DEFAULT_RA_KB;
}

/*
 * What a page fault costs beyond the read it waits for, seconds (0 when not
 * measured): the measured fault (mmap_fault: 1/iops, fault_kib read around
 * each) less its read, taken as a 4 KiB read of the pread chain (else the
 * engine's QD1 read) plus the rest of the read-around at the buffered rate
 * (the page cache's cost of a page).  A
 * fault under MADV_RANDOM reads only its page but pays the rest (the
 * exception, the mapping's lookup, the page's insertion and mapping).
 */
static double fault_cost(const struct profile_device *d, struct model_workload_est *e)
{
	const struct profile_app *a = &d->app;
	struct point q1;
	double rest, read;

	if (!a->present || !ok(a->fault_iops) || !ok(a->fault_kib) || !ok(a->buffered_mbps))
		return 0;
	if (ok(a->chain_iops)) {
		read = 1.0 / a->chain_iops;
	} else if (at_depth(d, 1, &q1, e)) {
		read = 1.0 / q1.iops;
	} else {
		return 0;
	}
	rest = 1.0 / a->fault_iops - read -
	       fmax(0, a->fault_kib - 4) * 1024.0 / (a->buffered_mbps * 1e6);
	if (!(rest > 0))
		return 0;
	basis(e, "mmap_fault.iops");
	basis(e, "buffered_read.mbps");
	how(e, "each fault costs %.0f µs beyond its read (the measured faults less the "
	    "pages they read around)", rest * 1e6);
	return rest;
}

/* A chain the app test timed: reads a second, p50/p99 µs, its metric. */
struct own_chain {
	double iops, p50, p99;
	const char *metric;
};

/*
 * c dependent chains of 4 KiB reads that the program issues itself (pread,
 * or a fault's read): the chain the app test timed (own: pread_chain, or
 * mmap_fault_random for faults under MADV_RANDOM) when there is one, each
 * chain at its rate and together no faster than the device at depth c
 * (pt); else the engine's reads at depth c.  *step: seconds a read of one
 * chain; p50/p99 per read, µs.
 */
static void chain_reads(const struct own_chain *own, double c, const struct point *pt,
			double *step, double *p50, double *p99, struct model_workload_est *e)
{
	*step = c / pt->iops;
	*p50 = pt->p50;
	*p99 = pt->p99;
	if (!ok(own->iops)) {
		if (c <= 1)
			basis(e, "rand_read_qd1.lat_us.p99");
		return;
	}
	basis(e, own->metric);
	if (c <= 1) {
		*step = 1.0 / own->iops;
		*p50 = ok(own->p50) ? own->p50 : *step * 1e6;
		*p99 = ok(own->p99) ? own->p99 : *p99;
		return;
	}
	*step = c / fmin(c * own->iops, pt->iops);
	*p50 = fmax(*p50, ok(own->p50) ? own->p50 : 0);
	*p99 = fmax(*p99, ok(own->p99) ? own->p99 : 0);
}

static void chain(const struct model_policy_estimate *w, const struct profile_device *d,
		  struct model_workload_est *e)
{
	const struct profile_app *a = &d->app;
	double c = w->concurrency, seqr = d->io[PROFILE_SEQ_READ].mbps;
	struct point pt;

	if (w->via == MODEL_VIA_MMAP && !w->madv_random) {
		/* Each fault reads around the page: the measured fault rate, or
		 * one read of the read-around window at QD1 latency. */
		double step, p99;

		if (a->present && ok(a->fault_iops)) {
			step = 1.0 / a->fault_iops;
			p99 = a->fault_p99_us;
			basis(e, "mmap_fault.iops");
			if (c > 1 && ok(a->fault_kib) && ok(seqr)) {
				double cap = seqr * 1e6 / (a->fault_kib * 1024.0);

				step = c / fmin(c * a->fault_iops, cap);
				basis(e, "seq_read.mbps");
			}
		} else if (at_depth(d, 1, &pt, e) && ok(seqr)) {
			step = pt.p50 * 1e-6 + ra_kb(d) / 1024.0 * MIB_MB / seqr;
			p99 = pt.p99 + ra_kb(d) / 1024.0 * MIB_MB / seqr * 1e6;
			basis(e, "seq_read.mbps");
			how(e, "mmap faults not measured: each fault reads the %.0f KiB "
			    "read-around at QD1 latency", ra_kb(d));
			if (c > 1)
				step = c / fmin(c / step, seqr * 1e6 / (ra_kb(d) * 1024.0));
		} else {
			e->missing = "mmap_fault.iops";
			return;
		}
		query(e, w->reads, step, step * 1e6, p99, c);
		return;
	}
	/* One 4 KiB read per step (O_DIRECT, the page cache or a fault with
	 * MADV_RANDOM all read just the page), c chains keeping depth c. */
	if (!at_depth(d, c, &pt, e)) {
		e->missing = "rand_read_qd1.iops";
		return;
	}
	/* the faults under MADV_RANDOM timed: the read and the fault's own
	 * cost in one; else the pread chain, and a fault's cost added */
	const bool faults = w->via == MODEL_VIA_MMAP && a->present && ok(a->fault_rand_iops);
	struct own_chain own = { NAN, NAN, NAN, "pread_chain.iops" };
	double step, p50, p99, fault = 0;

	if (faults)
		own = (struct own_chain){ a->fault_rand_iops, a->fault_rand_p50_us,
					  a->fault_rand_p99_us, "mmap_fault_random.iops" };
	else if (a->present)
		own = (struct own_chain){ a->chain_iops, a->chain_p50_us, a->chain_p99_us,
					  "pread_chain.iops" };
	chain_reads(&own, c, &pt, &step, &p50, &p99, e);
	if (w->via == MODEL_VIA_MMAP && !faults)
		fault = fault_cost(d, e);
	query(e, w->reads, step + fault, p50 + fault * 1e6, p99 + fault * 1e6, c);
}

static void beam(const struct model_policy_estimate *w, const struct profile_device *d,
		 struct model_workload_est *e)
{
	double bw = w->beam_width, c = w->concurrency;
	double hops = ceil(w->reads_per_query / bw);
	struct point pt;

	/* beam_width reads at once per query, c queries: depth bw × c; a hop
	 * takes the mean read latency at that depth (Little's law). */
	if (!at_depth(d, bw * c, &pt, e)) {
		e->missing = "qd_sweep.iops";
		return;
	}
	if (!d->n_sweep)
		how(e, "no queue-depth sweep: interpolated between QD1 and QD32");
	query(e, hops, bw * c / pt.iops, pt.p50, pt.p99, c);
}

/* ---- streams and writes ---- */

/*
 * An HDD's rate over the first `bytes` of the surface: the outer zone's
 * rate falling linearly to the inner zone's (measured, or INNER_SHARE of the
 * outer one, said so); the factor to apply to an outer-zone rate.
 */
static double zone_factor(const struct profile_device *d, double bytes,
			  struct model_workload_est *e)
{
	double outer = d->io[PROFILE_SEQ_READ].mbps, inner, share;

	if (!d->rotational || !(d->capacity_bytes > 0) || !ok(outer))
		return 1.0;
	if (d->app.present && ok(d->app.inner_mbps)) {
		inner = d->app.inner_mbps;
		basis(e, "seq_read_inner.mbps");
	} else {
		inner = outer * INNER_SHARE;
		how(e, "inner zone not measured: %.0f %% of the outer one assumed",
		    INNER_SHARE * 100);
	}
	share = fmin(1.0, bytes / (double)d->capacity_bytes);
	return (outer - (outer - inner) * share / 2.0) / outer;
}

/* One buffered stream with read-ahead ra (KiB), MB/s; NAN when unknown. */
static double buffered_rate(const struct profile_device *d, double ra,
			    struct model_workload_est *e)
{
	const struct profile_app *a = &d->app;
	double seqr = d->io[PROFILE_SEQ_READ].mbps;
	bool have_dev = a->present && ok(a->buffered_mbps) && a->read_ahead_kb > 0;
	bool have_plan = a->present && ok(a->buffered_plan_mbps) && a->plan_read_ahead_kb > 0;
	struct point pt;

	if (have_plan && ra == (double)a->plan_read_ahead_kb) {
		basis(e, "buffered_read_plan.mbps");
		return a->buffered_plan_mbps;
	}
	if (have_dev && ra == (double)a->read_ahead_kb) {
		basis(e, "buffered_read.mbps");
		return a->buffered_mbps;
	}
	if (have_dev && have_plan && a->plan_read_ahead_kb != a->read_ahead_kb) {
		double x0 = log((double)a->read_ahead_kb), x1 = log((double)a->plan_read_ahead_kb);
		double f = fmin(1, fmax(0, (log(ra) - x0) / (x1 - x0)));

		basis(e, "buffered_read.mbps");
		basis(e, "buffered_read_plan.mbps");
		how(e, "read-ahead %.0f KiB not measured: between %ld and %ld KiB", ra,
		    a->read_ahead_kb, a->plan_read_ahead_kb);
		return a->buffered_mbps + f * (a->buffered_plan_mbps - a->buffered_mbps);
	}
	if (have_dev || have_plan) {
		basis(e, have_plan ? "buffered_read_plan.mbps" : "buffered_read.mbps");
		how(e, "measured at a read-ahead of %ld KiB, not %.0f",
		    have_plan ? a->plan_read_ahead_kb : a->read_ahead_kb, ra);
		return have_plan ? a->buffered_plan_mbps : a->buffered_mbps;
	}
	if (!ok(seqr) || !at_depth(d, 1, &pt, e) || !ok(pt.p50))
		return NAN;
	/* One read-ahead window at a time: QD1 latency plus its transfer. */
	basis(e, "seq_read.mbps");
	how(e, "buffered reads not measured: one %.0f KiB read-ahead window at a time "
	    "at QD1 latency", ra);
	return ra / 1024.0 * MIB_MB / (pt.p50 * 1e-6 + ra / 1024.0 * MIB_MB / seqr);
}

/* One stream's rate by via, MB/s; NAN when unknown. */
static double stream_rate(const struct profile_device *d, enum model_via via, double ra,
			  struct model_workload_est *e)
{
	const struct profile_app *a = &d->app;
	double seqr = d->io[PROFILE_SEQ_READ].mbps;
	struct point pt;

	switch (via) {
	case MODEL_VIA_DIRECT:
		if (a->present && ok(a->direct_mbps)) {
			basis(e, "direct_read.mbps");
			return a->direct_mbps;
		}
		/* 1 MiB O_DIRECT reads one at a time: QD1 latency + transfer. */
		if (!ok(seqr) || !at_depth(d, 1, &pt, e) || !ok(pt.p50))
			return NAN;
		basis(e, "seq_read.mbps");
		how(e, "one O_DIRECT stream not measured: 1 MiB reads one at a time at the "
		    "4 KiB QD1 latency plus seq_read's transfer time");
		return MIB_MB / (pt.p50 * 1e-6 + MIB_MB / seqr);
	case MODEL_VIA_MMAP:
		if (a->present && ok(a->mmap_mbps)) {
			double dev = ok(a->buffered_mbps) && a->read_ahead_kb > 0 &&
				     ra != (double)a->read_ahead_kb
				     ? buffered_rate(d, ra, e) / a->buffered_mbps : 1.0;

			basis(e, "mmap_read.mbps");
			if (dev != 1.0)
				how(e, "mmap scaled from the %ld KiB read-ahead it was measured at "
				    "as buffered reads scale", a->read_ahead_kb);
			return ok(seqr) ? fmin(seqr, a->mmap_mbps * dev) : a->mmap_mbps * dev;
		}
		how(e, "mmap reads not measured: as buffered reads");
		return buffered_rate(d, ra, e);
	case MODEL_VIA_BUFFERED:
		return buffered_rate(d, ra, e);
	case MODEL_VIA_COUNT:
		break;
	}
	return NAN;
}

/* `streams` streams: each at one stream's rate, together at most the
 * device's O_DIRECT QD32 rate. */
static double streams_rate(const struct profile_device *d, const struct model_policy_estimate *w,
			   enum model_via via, double streams, double bytes,
			   struct model_workload_est *e)
{
	double one = stream_rate(d, via, isfinite(w->read_ahead_kb) ? w->read_ahead_kb
						: MODEL_PLAN_READ_AHEAD_KB, e);
	double seqr = d->io[PROFILE_SEQ_READ].mbps;

	if (!ok(one))
		return NAN;
	if (streams > 1 && ok(seqr)) {
		basis(e, "seq_read.mbps");
		one = fmin(seqr, streams * one);
	}
	return one * zone_factor(d, bytes, e);
}

static void stream(const struct model_policy_estimate *w, const struct profile_device *d,
		   struct model_workload_est *e)
{
	double rate = streams_rate(d, w, w->via, w->streams, (double)w->size_bytes, e);

	if (!ok(rate)) {
		e->missing = "seq_read.mbps";
		return;
	}
	e->mbps = rate;
	e->seconds = (double)w->size_bytes / 1e6 / rate;
}

static void write_file(const struct model_policy_estimate *w, const struct profile_device *d,
		       struct model_workload_est *e)
{
	const struct profile_sustained *s = &d->sustained;
	double rate, bytes = (double)w->size_bytes, t;

	if (d->app.present && ok(d->app.fsync_mbps)) {
		rate = d->app.fsync_mbps;
		basis(e, "fsync_write.mbps");
	} else if (ok(d->io[PROFILE_SEQ_WRITE].mbps)) {
		rate = d->io[PROFILE_SEQ_WRITE].mbps;
		basis(e, "seq_write.mbps");
		how(e, "buffered writes + fsync not measured: the O_DIRECT write rate");
	} else {
		e->missing = "fsync_write.mbps";
		return;
	}
	rate *= zone_factor(d, bytes, e);
	t = bytes / 1e6 / rate;
	/* Past the write cache the rate drops to the sustained one. */
	if (s->present && ok(s->mbps) && ok(s->cliff_after_gb) && bytes > s->cliff_after_gb * 1e9 &&
	    s->mbps < rate) {
		t = s->cliff_after_gb * 1e3 / rate + (bytes - s->cliff_after_gb * 1e9) / 1e6 / s->mbps;
		basis(e, "sustained_write.mbps");
		how(e, "past the write cache (%.0f GB) at the sustained %.0f MB/s",
		    s->cliff_after_gb, s->mbps);
	}
	e->seconds = t;
	e->mbps = bytes / 1e6 / t;
	if (w->restore) {
		double r = streams_rate(d, w, MODEL_VIA_BUFFERED, 1, bytes, e);

		if (ok(r)) {
			e->restore_mbps = r;
			e->restore_seconds = bytes / 1e6 / r;
		}
	}
}

/* Training samples as DLIO reads them: each accelerator needs batch ×
 * sample bytes every compute_s ÷ utilization seconds. */
static void samples(const struct model_policy_estimate *w, const struct profile_device *d,
		    struct model_workload_est *e)
{
	double rate = streams_rate(d, w, MODEL_VIA_BUFFERED, w->streams,
				   w->size_bytes > 0 ? (double)w->size_bytes
						     : (double)d->capacity_bytes, e);

	e->need_mbps = w->batch * (double)w->sample_bytes / 1e6 * w->utilization / w->compute_s;
	if (!ok(rate)) {
		e->missing = "seq_read.mbps";
		return;
	}
	e->mbps = rate;
	e->accelerators = floor(rate / e->need_mbps);
}

void model_workload(const struct model_policy_estimate *w, const struct profile_device *d,
		    struct model_workload_est *e)
{
	*e = (struct model_workload_est){ .seconds = NAN, .p50_ms = NAN, .p99_ms = NAN,
		.qps = NAN, .mbps = NAN, .restore_seconds = NAN, .restore_mbps = NAN,
		.need_mbps = NAN, .accelerators = NAN, .fits = -1, .capacity_bytes = NAN };
	if (w->size_bytes > 0 && d->capacity_bytes > 0) {
		e->capacity_bytes = (double)d->capacity_bytes;
		e->fits = w->size_bytes <= d->capacity_bytes;
	}
	switch (w->pattern) {
	case MODEL_PAT_CHAIN:
		chain(w, d, e);
		break;
	case MODEL_PAT_BEAM:
		beam(w, d, e);
		break;
	case MODEL_PAT_STREAM:
		stream(w, d, e);
		break;
	case MODEL_PAT_WRITE:
		write_file(w, d, e);
		break;
	case MODEL_PAT_SAMPLES:
		samples(w, d, e);
		break;
	case MODEL_PAT_COUNT:
		break;
	}
}

double model_workload_value(const struct model_policy_estimate *w,
			    const struct model_workload_est *e, const char **unit)
{
	if (w->pattern == MODEL_PAT_SAMPLES) {
		*unit = "accelerators";
		return e->accelerators;
	}
	*unit = "s";
	return e->seconds;
}

unsigned model_workload_depth(const struct model_policy_estimate *w)
{
	if (w->pattern == MODEL_PAT_BEAM)
		return (unsigned)(w->beam_width * w->concurrency);
	if (w->pattern == MODEL_PAT_CHAIN)
		return (unsigned)w->concurrency;
	return 1;
}
