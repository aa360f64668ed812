/* The probe's summary: what was measured, per device, as a text table
 * (the profile itself is the JSON form: profile_write_file). */
#include <math.h>
#include <stdio.h>

#include "render.h"
#include "profile.h"

/* v with prec decimals, or "-" when it was not measured (NAN): never "nan". */
static const char *num(char *buf, size_t len, double v, int prec)
{
	if (isnan(v) || isinf(v))
		return "-";
	snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

/* The application test's line (results.app): what it measured, "-" where
 * a part did not run. */
static void app_text(FILE *out, const struct profile_app *a)
{
	char b[32], c[32], d[32], e[32], f[32], g[32], h[32];

	if (!a->present)
		return;
	fprintf(out, "  app: buffered read %s MB/s (read-ahead %s KiB), %s MB/s (%s KiB); mmap read "
		"%s MB/s; O_DIRECT read %s MB/s\n", num(b, sizeof(b), a->buffered_mbps, 0),
		num(c, sizeof(c), a->read_ahead_kb < 0 ? NAN : (double)a->read_ahead_kb, 0),
		num(d, sizeof(d), a->buffered_plan_mbps, 0),
		num(e, sizeof(e), a->plan_read_ahead_kb < 0 ? NAN : (double)a->plan_read_ahead_kb, 0),
		num(f, sizeof(f), a->mmap_mbps, 0), num(g, sizeof(g), a->direct_mbps, 0));
	fprintf(out, "    pread chain %s /s, p50 %s µs; mmap faults under MADV_RANDOM %s /s, "
		"p50 %s µs\n", num(e, sizeof(e), a->chain_iops, 0),
		num(f, sizeof(f), a->chain_p50_us, 1), num(b, sizeof(b), a->fault_rand_iops, 0),
		num(c, sizeof(c), a->fault_rand_p50_us, 1));
	fprintf(out, "    mmap faults with read-around %s /s, p99 %s µs, %s KiB read each; fsync "
		"write %s MB/s", num(b, sizeof(b), a->fault_iops, 0),
		num(c, sizeof(c), a->fault_p99_us, 1), num(d, sizeof(d), a->fault_kib, 0),
		num(g, sizeof(g), a->fsync_mbps, 0));
	if (!isnan(a->inner_mbps))
		fprintf(out, "; inner zone %s MB/s", num(h, sizeof(h), a->inner_mbps, 0));
	fputc('\n', out);
}

static void probe_text(FILE *out, const struct profile *p)
{
	char a[32], b[32], c[32], e[32], f[32], g[32];

	for (size_t i = 0; i < p->n_devices; i++) {
		const struct profile_device *d = &p->devices[i];
		bool legend = false;

		fprintf(out, "%s  %s  (%s, %s s)\n", d->id, d->model,
			profile_target_name(d->probe.target),
			num(a, sizeof(a), d->probe.seconds, 1));
		/* µ takes two bytes and one column: %11s for a width of 10 */
		fprintf(out, "  %-16s %12s %10s %11s %11s %6s %s\n", "TEST", "IOPS", "MB/s",
			"p50 µs", "p99 µs", "SEC", "STEADY");
		for (int t = 0; t < PROFILE_IO_COUNT; t++) {
			const struct profile_io *io = &d->io[t];

			if (!io->present)
				continue;
			fprintf(out, "  %-16s %12s %10s %10s %10s %6s %s", profile_io_test_name(t),
				num(a, sizeof(a), io->iops, 0), num(b, sizeof(b), io->mbps, 1),
				num(c, sizeof(c), io->lat.v[PROFILE_LAT_P50], 1),
				num(e, sizeof(e), io->lat.v[PROFILE_LAT_P99], 1),
				num(f, sizeof(f), io->seconds, 1),
				io->steady < 0 ? "-" : io->steady ? "yes" : "no");
			if (!isnan(io->spread_pct))
				fprintf(out, " ±%.1f%%", io->spread_pct);
			fputc('\n', out);
			legend = true;
		}
		for (size_t s = 0; s < d->n_sweep; s++)
			fprintf(out, "  qd_sweep QD=%-4ld %12s %10s %10s %10s\n", d->sweep[s].qd,
				num(a, sizeof(a), d->sweep[s].iops, 0), "",
				num(c, sizeof(c), d->sweep[s].lat.v[PROFILE_LAT_P50], 1),
				num(e, sizeof(e), d->sweep[s].lat.v[PROFILE_LAT_P99], 1));
		for (size_t s = 0; s < d->n_iorate; s++)
			fprintf(out, "  iorate %3.0f%%     %12s %10s %10s %10s\n", d->iorate[s].pct,
				num(a, sizeof(a), d->iorate[s].iops, 0), "",
				num(c, sizeof(c), d->iorate[s].lat.v[PROFILE_LAT_P50], 1),
				num(e, sizeof(e), d->iorate[s].lat.v[PROFILE_LAT_P99], 1));
		if (d->under_write.present)
			fprintf(out, "  %-16s %12s %10s %10s %10s %6s x%s p99 of idle, writes %s "
				"MiB/s\n", "read_under_write", num(a, sizeof(a), d->under_write.iops, 0),
				"", num(c, sizeof(c), d->under_write.lat.v[PROFILE_LAT_P50], 1),
				num(e, sizeof(e), d->under_write.lat.v[PROFILE_LAT_P99], 1),
				num(f, sizeof(f), d->under_write.seconds, 1),
				num(b, sizeof(b), d->under_write.p99_ratio, 2),
				num(g, sizeof(g), d->under_write.write_mibps, 1));
		if (legend)
			fputs("  (SEC: seconds measured; STEADY: whether the figure became known "
			      "(quick mode: its mean\n   rate within ±2 % at 95 % confidence), and "
			      "the ± band it reached: \"no ±9.5%\" = the\n   cap came first; "
			      "\"-\" = not checked, --seconds fixed the length)\n", out);
		if (d->lat_target.present)
			fprintf(out, "  latency target p99 ≤ %.0f µs: %s\n", d->lat_target.p99_us,
				d->lat_target.qd > 0 ? "met" : "not met at any depth");
		if (d->lat_target.qd > 0)
			fprintf(out, "    best: QD %ld, %s IOPS\n", d->lat_target.qd,
				num(a, sizeof(a), d->lat_target.iops, 0));
		if (d->sustained.present && !isnan(d->sustained.mbps))
			fprintf(out, "  sustained_write: %s MB/s at start, %s MB/s %s\n",
				num(a, sizeof(a), d->sustained.initial_mbps, 0),
				num(b, sizeof(b), d->sustained.mbps, 0),
				isnan(d->sustained.cliff_after_gb) ? "throughout (no cliff)" :
				"after the cliff");
		if (d->sustained.present && !isnan(d->sustained.cliff_after_gb))
			fprintf(out, "    cache cliff after %.1f GB\n", d->sustained.cliff_after_gb);
		app_text(out, &d->app);
		if (!isnan(d->thermal.idle_c) && isnan(d->thermal.load_c))
			fprintf(out, "  temperature: idle %.0f °C, peak not measured (%s)\n",
				d->thermal.idle_c, d->thermal.source ? d->thermal.source : "?");
		else if (!isnan(d->thermal.idle_c))
			fprintf(out, "  temperature: idle %.0f °C, peak %.0f °C (%s)%s\n", d->thermal.idle_c,
				d->thermal.load_c, d->thermal.source ? d->thermal.source : "?",
				d->thermal.throttle_events > 0 ? ", THROTTLING SEEN" : "");
		for (size_t n = 0; n < d->n_notes; n++)
			fprintf(out, "  note: %s\n", d->notes[n]);
	}
}

const struct probe_render_ops probe_render_text = { .name = "text", .print = probe_text };
