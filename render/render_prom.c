/* render_prom.c — the Prometheus text exposition format (version 0.0.4), one
 * family at a time: a family's samples are written to a memory stream first,
 * so that a family nobody measured leaves no HELP/TYPE lines behind. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render_prom.h"

/* What a family's writer sees: one device of one profile. */
struct prom_dev {
	const struct profile *p;
	const struct fleet_plan *plan;
	const struct profile_device *d;
	const char *labels;		/* host="…",device="…",model="…",serial="…" */
};

struct prom_family {
	const char *name, *help;
	void (*emit)(FILE *out, const struct prom_family *fam, const struct prom_dev *x);
};

void render_prom_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

/* One sample: NAME{LABELS[,extra]} VALUE; nothing for NAN. */
static void sample(FILE *out, const struct prom_family *fam, const struct prom_dev *x,
		   const char *extra, double v)
{
	if (!isfinite(v))
		return;
	fprintf(out, "%s{%s%s%s} ", fam->name, x->labels, extra ? "," : "", extra ? extra : "");
	if (v == floor(v) && fabs(v) < 1e15)	/* integers exactly: byte counts */
		fprintf(out, "%.0f\n", v);
	else
		fprintf(out, "%.10g\n", v);
}

static void emit_info(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	char extra[256];
	const char *tr = profile_transport_name(x->d->transport);
	const char *media = profile_media_name(x->d->media);
	char *fw = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&fw, &len);

	if (!m)
		return;
	render_prom_escape(m, x->d->firmware);
	fclose(m);
	snprintf(extra, sizeof(extra), "firmware=\"%s\",transport=\"%s\",media=\"%s\"",
		 fw ? fw : "", tr ? tr : "", media ? media : "");
	free(fw);
	sample(out, fam, x, extra, 1);
}

static void emit_capacity(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	sample(out, fam, x, NULL, x->d->capacity_bytes >= 0 ? (double)x->d->capacity_bytes : NAN);
}

static void test_label(char *buf, size_t len, int t, const char *more)
{
	snprintf(buf, len, "test=\"%s\"%s%s", profile_io_test_name(t), more ? "," : "",
		 more ? more : "");
}

static void emit_iops(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	char l[96];

	for (int t = 0; t < PROFILE_IO_COUNT; t++) {
		if (!x->d->io[t].present)
			continue;
		test_label(l, sizeof(l), t, NULL);
		sample(out, fam, x, l, x->d->io[t].iops);
	}
}

static void emit_bytes(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	char l[96];

	for (int t = 0; t < PROFILE_IO_COUNT; t++) {
		if (!x->d->io[t].present)
			continue;
		test_label(l, sizeof(l), t, NULL);
		sample(out, fam, x, l, x->d->io[t].mbps * 1e6);
	}
	if (x->d->sustained.present)
		sample(out, fam, x, "test=\"sustained_write\"", x->d->sustained.mbps * 1e6);
}

static void emit_latency(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	static const struct { int f; const char *q; } qs[] = {
		{ PROFILE_LAT_P50, "p50" }, { PROFILE_LAT_P90, "p90" }, { PROFILE_LAT_P99, "p99" },
		{ PROFILE_LAT_P999, "p99.9" }, { PROFILE_LAT_MAX, "max" },
	};
	char q[32], l[128];

	for (int t = 0; t < PROFILE_IO_COUNT; t++)
		for (size_t i = 0; x->d->io[t].present && i < sizeof(qs) / sizeof(qs[0]); i++) {
			snprintf(q, sizeof(q), "percentile=\"%s\"", qs[i].q);
			test_label(l, sizeof(l), t, q);
			sample(out, fam, x, l, x->d->io[t].lat.v[qs[i].f] / 1e6);
		}
}

static void emit_temp(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	sample(out, fam, x, "state=\"idle\"", x->d->thermal.idle_c);
	sample(out, fam, x, "state=\"load\"", x->d->thermal.load_c);
}

static double known(long v, double scale)
{
	return v >= 0 ? (double)v * scale : NAN;
}

static void emit_crit(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	if (x->d->health.present)
		sample(out, fam, x, NULL, known(x->d->health.critical_warning, 1));
}

static void emit_spare(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	if (x->d->health.present)
		sample(out, fam, x, NULL, known(x->d->health.available_spare, 0.01));
}

static void emit_wear(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	if (x->d->health.present)
		sample(out, fam, x, NULL, known(x->d->health.percentage_used, 0.01));
}

static void emit_media_err(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	if (x->d->health.present)
		sample(out, fam, x, NULL, known(x->d->health.media_errors, 1));
}

static void emit_tier(FILE *out, const struct prom_family *fam, const struct prom_dev *x)
{
	const char *t = fleet_plan_tier_of(x->plan, x->d->id);
	char l[48];

	if (!x->plan)
		return;
	snprintf(l, sizeof(l), "tier=\"%s\"", t ? t : "unassigned");
	sample(out, fam, x, l, 1);
}

static const struct prom_family families[] = {
	{ "tierwise_device_info", "Device facts from the profile (value 1).", emit_info },
	{ "tierwise_device_capacity_bytes", "Device capacity in bytes.", emit_capacity },
	{ "tierwise_io_iops", "I/O operations per second measured by the test.", emit_iops },
	{ "tierwise_io_throughput_bytes_per_second",
	  "Throughput measured by the test, in bytes per second.", emit_bytes },
	{ "tierwise_io_latency_seconds",
	  "Completion latency percentile of the test (p50 ... p99.9, max), in seconds.",
	  emit_latency },
	{ "tierwise_temperature_celsius",
	  "Drive temperature idle and at the peak under load, in degrees Celsius.", emit_temp },
	{ "tierwise_health_critical_warning",
	  "NVMe SMART critical warning bit field (0 = none).", emit_crit },
	{ "tierwise_health_available_spare_ratio", "Available spare, 0 to 1.", emit_spare },
	{ "tierwise_health_wear_ratio",
	  "Percentage used of the rated endurance as a ratio (1 = rated life reached).", emit_wear },
	{ "tierwise_health_media_errors", "Media and data integrity errors reported.", emit_media_err },
	{ "tierwise_plan_tier_info", "The tier the plan gave the device (value 1).", emit_tier },
};

static const char *host_of(const struct prom_source *s)
{
	return s->host ? s->host : s->profile->host;
}

/* host="…",device="…",model="…",serial="…" for d, malloc'd. */
static char *base_labels(const char *host, const struct profile_device *d)
{
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);

	if (!m)
		return NULL;
	fputs("host=\"", m);
	render_prom_escape(m, host);
	fputs("\",device=\"", m);
	render_prom_escape(m, d->id);
	fputs("\",model=\"", m);
	render_prom_escape(m, d->model);
	fputs("\",serial=\"", m);
	render_prom_escape(m, d->serial);
	fputc('"', m);
	if (fclose(m)) {
		free(s);
		return NULL;
	}
	return s;
}

static int family(FILE *out, const struct prom_family *fam, const struct prom_source *src,
		  size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ret = m ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < n; i++)
		for (size_t k = 0; !ret && k < src[i].profile->n_devices; k++) {
			const struct profile_device *d = &src[i].profile->devices[k];
			struct prom_dev x = { src[i].profile, src[i].plan, d,
					      base_labels(host_of(&src[i]), d) };

			if (!x.labels)
				ret = -ENOMEM;
			else
				fam->emit(m, fam, &x);
			free((char *)x.labels);
		}
	if (m && fclose(m) && !ret)
		ret = -ENOMEM;
	if (!ret && len)
		fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n%s", fam->name, fam->help, fam->name,
			buf);
	free(buf);
	return ret;
}

/* When the profile was made, as a Unix time (NAN when unparsable). */
static double created_ts(const char *s)
{
	struct tm tm = { 0 };
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;

	return end ? (double)timegm(&tm) : NAN;
}

static void profile_times(FILE *out, const struct prom_source *src, size_t n)
{
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		double t = created_ts(src[i].profile->created);

		if (!isfinite(t))
			continue;
		if (!any)
			fputs("# HELP tierwise_profile_created_timestamp_seconds When the profile "
			      "was measured (Unix time).\n"
			      "# TYPE tierwise_profile_created_timestamp_seconds gauge\n", out);
		any = true;
		fputs("tierwise_profile_created_timestamp_seconds{host=\"", out);
		render_prom_escape(out, host_of(&src[i]));
		fprintf(out, "\"} %.0f\n", t);
	}
}

int prom_render(FILE *out, const struct prom_source *src, size_t n)
{
	int ret = 0;

	for (size_t f = 0; !ret && f < sizeof(families) / sizeof(families[0]); f++)
		ret = family(out, &families[f], src, n);
	if (!ret)
		profile_times(out, src, n);
	if (!ret && ferror(out))
		ret = -EIO;
	return ret;
}
