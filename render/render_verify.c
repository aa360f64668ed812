/* render_verify.c — `tierwise verify`'s findings as text, as JSON
 * (tierwise.verify/1) and as Prometheus metrics in the textfile collector's
 * format (render_verify.h, docs/verify.md). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render.h"
#include "render_prom.h"
#include "render_verify.h"
#include "tw_fmt.h"

const char *verify_state_name(enum verify_state s)
{
	static const char *const names[] = {
		[VERIFY_WITHIN] = "within", [VERIFY_OUTSIDE] = "outside",
		[VERIFY_SKIPPED] = "skipped", [VERIFY_FAILED] = "failed",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

struct verify_counts verify_count(const struct verify_report *r)
{
	struct verify_counts c = { 0 };

	for (size_t t = 0; t < r->n; t++) {
		c.unmounted += !r->tiers[t].mounted;
		for (size_t i = 0; i < r->tiers[t].n; i++) {
			switch (r->tiers[t].w[i].state) {
			case VERIFY_WITHIN: c.within++; break;
			case VERIFY_OUTSIDE: c.outside++; break;
			case VERIFY_SKIPPED: c.skipped++; break;
			case VERIFY_FAILED: c.failed++; break;
			}
		}
	}
	return c;
}

/* ---- text ---------------------------------------------------------------- */

/* The pattern and its parameters in a few words: "stream mmap ×4",
 * "beam 4 × 40 reads, 8 in flight". */
static void pattern_words(char *buf, size_t len, const struct advisor_file_est *e)
{
	const char *p = e->pattern ? e->pattern : "?";

	if (!strcmp(p, "beam"))
		snprintf(buf, len, "beam %u × %u reads, %u in flight", e->beam_width ? e->beam_width : 1,
			 e->reads_per_query, e->concurrency ? e->concurrency : 1);
	else if (!strcmp(p, "chain"))
		snprintf(buf, len, "chain %s%s", e->via ? e->via : "buffered",
			 e->madvise && !strcmp(e->madvise, "random") ? " (random)" : "");
	else if (!strcmp(p, "stream") || !strcmp(p, "samples"))
		snprintf(buf, len, "%s %s ×%u", p, e->via ? e->via : "buffered",
			 e->streams ? e->streams : 1);
	else if (!strcmp(p, "write"))
		snprintf(buf, len, "write + fsync");
	else
		snprintf(buf, len, "%s", p);
}

/* A compared figure with its unit: "1,234 MB/s", "0.085 ms/read", "520 q/s". */
static void figure_words(char *buf, size_t len, const char *figure, double v)
{
	char n[32];

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (figure && !strcmp(figure, "ms_per_read")) {
		snprintf(buf, len, "%.3g ms/read", v);
		return;
	}
	tw_fmt_count(n, sizeof(n), v);
	snprintf(buf, len, "%s %s", n, figure && !strcmp(figure, "qps") ? "q/s" : "MB/s");
}

static void text_workload(FILE *out, const struct verify_workload *w, int pw, int ww)
{
	char pat[96], est[48], meas[48], ratio[16];
	const struct advisor_file_est *e = w->est;

	pattern_words(pat, sizeof(pat), e);
	figure_words(est, sizeof(est), w->figure, w->estimate);
	figure_words(meas, sizeof(meas), w->figure, w->measured);
	if (isfinite(w->ratio))
		snprintf(ratio, sizeof(ratio), "%.2f", w->ratio);
	else
		snprintf(ratio, sizeof(ratio), "-");
	fputs("  ", out);
	render_pad(out, e->policy, pw + 2);
	render_pad(out, e->workload ? e->workload : "-", ww + 2);
	render_pad(out, pat, 34);
	render_pad(out, est, 16);
	render_pad(out, meas, 16);
	render_pad(out, ratio, 7);
	fputs(w->state == VERIFY_WITHIN ? "ok" : w->state == VERIFY_OUTSIDE ? "OUTSIDE" :
	      verify_state_name(w->state), out);
	if (w->why[0])
		fprintf(out, ": %s", w->why);
	if (w->figure && !strcmp(w->figure, "qps") && isfinite(w->m.p50_ms))
		fprintf(out, " (p50 %.3g ms a query, estimate %.3g)", w->m.p50_ms, e->p50_ms);
	fputc('\n', out);
}

static void text_tier(FILE *out, const struct verify_tier *t)
{
	int pw = 6, ww = 8;

	fprintf(out, "%s  %s", t->name, t->mount ? t->mount : "(no mount point in the plan)");
	if (t->mounted && (t->device[0] || t->fs[0]))
		fprintf(out, "  (%s%s%s)", t->device[0] ? t->device : "", t->device[0] && t->fs[0] ?
			", " : "", t->fs);
	if (t->why[0])
		fprintf(out, "  %s", t->why);
	fputc('\n', out);
	if (!t->written)
		return;
	for (size_t i = 0; i < t->n; i++) {
		const struct advisor_file_est *e = t->w[i].est;
		int l = (int)strlen(e->policy), lw = e->workload ? (int)strlen(e->workload) : 1;

		pw = l > pw ? l : pw;
		ww = lw > ww ? lw : ww;
	}
	fputs("  ", out);
	render_pad(out, "POLICY", pw + 2);
	render_pad(out, "WORKLOAD", ww + 2);
	render_pad(out, "PATTERN", 34);
	render_pad(out, "ESTIMATE", 16);
	render_pad(out, "MEASURED", 16);
	fputs("RATIO\n", out);
	for (size_t i = 0; i < t->n; i++)
		text_workload(out, &t->w[i], pw, ww);
}

static int text_print(FILE *out, const struct verify_report *r)
{
	struct verify_counts c = verify_count(r);

	fprintf(out, "%s: within ±%g %% of the estimate (ratio %.2f to %.2f), %g s a "
		"workload\n\n", r->plan, r->tolerance_pct, fmax(0, 1 - r->tolerance_pct / 100),
		1 + r->tolerance_pct / 100, r->seconds);
	for (size_t t = 0; t < r->n; t++) {
		text_tier(out, &r->tiers[t]);
		fputc('\n', out);
	}
	fprintf(out, "%zu within, %zu outside, %zu not run, %zu failed; %zu tier%s not mounted\n",
		c.within, c.outside, c.skipped, c.failed, c.unmounted, c.unmounted == 1 ? "" : "s");
	return ferror(out) ? -EIO : 0;
}

const struct verify_render_ops verify_render_text = { .name = "text", .print = text_print };

/* ---- json ---------------------------------------------------------------- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *count(unsigned v)
{
	return v ? json_integer(v) : json_null();
}

static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *json_estimate(const struct advisor_file_est *e)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "seconds", num(e->seconds),
			 "p50_ms", num(e->p50_ms), "p99_ms", num(e->p99_ms), "qps", num(e->qps),
			 "mbps", num(e->mbps), "value", num(e->value), "unit", str(e->unit));
}

static json_t *json_measured(const struct verify_workload *w)
{
	const struct verify_measured *m = &w->m;

	if (w->state != VERIFY_WITHIN && w->state != VERIFY_OUTSIDE)
		return json_null();
	return json_pack("{s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:b, s:I}", "seconds", num(m->seconds),
			 "bytes", (json_int_t)m->bytes, "mbps", num(m->mbps), "qps", num(m->qps),
			 "p50_ms", num(m->p50_ms), "p99_ms", num(m->p99_ms),
			 "queries", m->queries ? json_integer((json_int_t)m->queries) : json_null(),
			 "cold", m->cold, "scratch_bytes", (json_int_t)w->scratch_bytes);
}

static json_t *json_workload(const struct verify_workload *w)
{
	const struct advisor_file_est *e = w->est;
	bool run = w->state == VERIFY_WITHIN || w->state == VERIFY_OUTSIDE;

	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:o, s:o, s:o, s:o, s:s, s:o}",
			 "policy", e->policy, "workload", str(e->workload), "label", str(e->label),
			 "pattern", str(e->pattern), "via", str(e->via), "madvise", str(e->madvise),
			 "streams", count(e->streams), "beam_width", count(e->beam_width),
			 "reads_per_query", count(e->reads_per_query),
			 "concurrency", count(e->concurrency), "size_bytes", num(e->size_bytes),
			 "estimate", json_estimate(e), "measured", json_measured(w),
			 "compared", json_pack("{s:o, s:o, s:o}", "figure", str(w->figure),
					       "estimate", num(w->estimate),
					       "measured", num(w->measured)),
			 "ratio", num(w->ratio),
			 "within", run ? json_boolean(w->state == VERIFY_WITHIN) : json_null(),
			 "status", verify_state_name(w->state),
			 "why", w->why[0] ? json_string(w->why) : json_null());
}

static json_t *json_tier(const struct verify_tier *t)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < t->n; i++)
		json_array_append_new(a, json_workload(&t->w[i]));
	return json_pack("{s:s, s:o, s:b, s:o, s:o, s:o, s:o}", "tier", t->name, "mount",
			 str(t->mount), "mounted", t->mounted,
			 "device", t->device[0] ? json_string(t->device) : json_null(),
			 "fs", t->fs[0] ? json_string(t->fs) : json_null(),
			 "why", t->why[0] ? json_string(t->why) : json_null(), "workloads", a);
}

static int json_print(FILE *out, const struct verify_report *r)
{
	struct verify_counts c = verify_count(r);
	json_t *tiers = json_array(), *doc;
	int ret;

	for (size_t t = 0; tiers && t < r->n; t++)
		json_array_append_new(tiers, json_tier(&r->tiers[t]));
	doc = json_pack("{s:s, s:s, s:o, s:f, s:f, s:o, s:{s:I, s:I, s:I, s:I, s:I}}",
			"schema", VERIFY_SCHEMA, "plan", r->plan, "host", str(r->host),
			"tolerance_pct", r->tolerance_pct, "seconds", r->seconds, "tiers", tiers,
			"counts", "within", (json_int_t)c.within, "outside", (json_int_t)c.outside,
			"skipped", (json_int_t)c.skipped, "failed", (json_int_t)c.failed,
			"unmounted", (json_int_t)c.unmounted);
	if (!doc)
		return -ENOMEM;
	ret = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	json_decref(doc);
	fputc('\n', out);
	return ret || ferror(out) ? -EIO : 0;
}

const struct verify_render_ops verify_render_json = { .name = "json", .print = json_print };

/* ---- prometheus ---------------------------------------------------------- */

/* One sample: NAME{host,tier[,policy,workload,pattern]} VALUE; nothing for NAN. */
static void sample(FILE *out, const char *name, const struct verify_report *r,
		   const struct verify_tier *t, const struct verify_workload *w, double v)
{
	if (!isfinite(v))
		return;
	fprintf(out, "%s{host=\"", name);
	render_prom_escape(out, r->host);
	fputs("\",tier=\"", out);
	render_prom_escape(out, t->name);
	if (w) {
		fputs("\",policy=\"", out);
		render_prom_escape(out, w->est->policy);
		fputs("\",workload=\"", out);
		render_prom_escape(out, w->est->workload ? w->est->workload : w->est->label);
		fputs("\",pattern=\"", out);	/* a save and its restore share a workload */
		render_prom_escape(out, w->est->pattern);
	}
	fprintf(out, "\"} %.10g\n", v);
}

/* What a family's sample of one workload is; NAN = none. */
typedef double (*verify_value_fn)(const struct verify_workload *w);

static bool run(const struct verify_workload *w)
{
	return w->state == VERIFY_WITHIN || w->state == VERIFY_OUTSIDE;
}

static bool is(const struct verify_workload *w, const char *figure)
{
	return run(w) && w->figure && !strcmp(w->figure, figure);
}

static double v_ratio(const struct verify_workload *w) { return run(w) ? w->ratio : NAN; }
static double v_within(const struct verify_workload *w)
{
	return run(w) ? w->state == VERIFY_WITHIN : NAN;
}
static double v_mbps(const struct verify_workload *w)
{
	return is(w, "mbps") ? w->measured * 1e6 : NAN;
}
static double v_est_mbps(const struct verify_workload *w)
{
	return is(w, "mbps") ? w->estimate * 1e6 : NAN;
}
static double v_qps(const struct verify_workload *w) { return is(w, "qps") ? w->measured : NAN; }
static double v_est_qps(const struct verify_workload *w)
{
	return is(w, "qps") ? w->estimate : NAN;
}
static double v_read(const struct verify_workload *w)
{
	return is(w, "ms_per_read") ? w->measured / 1e3 : NAN;
}
static double v_est_read(const struct verify_workload *w)
{
	return is(w, "ms_per_read") ? w->estimate / 1e3 : NAN;
}
static double v_query(const struct verify_workload *w)
{
	return is(w, "qps") ? w->m.p50_ms / 1e3 : NAN;
}

static const struct {
	const char *name, *help;
	verify_value_fn value;	/* NULL: a tier's family */
} families[] = {
	{ "tierwise_verify_tier_mounted",
	  "1 when the tier's mount point is a mounted filesystem, 0 when not (not written).", NULL },
	{ "tierwise_verify_ratio",
	  "Measured against the plan's estimate (1 = as estimated, below 1 slower).", v_ratio },
	{ "tierwise_verify_within",
	  "1 when the ratio is within the tolerance of 1, else 0.", v_within },
	{ "tierwise_verify_measured_bytes_per_second",
	  "Throughput measured by the workload (stream, write, restore, samples).", v_mbps },
	{ "tierwise_verify_estimate_bytes_per_second",
	  "Throughput the plan estimates for the workload.", v_est_mbps },
	{ "tierwise_verify_measured_queries_per_second",
	  "Queries per second measured by a beam search at the plan's concurrency.", v_qps },
	{ "tierwise_verify_estimate_queries_per_second",
	  "Queries per second the plan estimates for the beam search.", v_est_qps },
	{ "tierwise_verify_measured_query_seconds",
	  "Median time of one beam-search query measured, in seconds.", v_query },
	{ "tierwise_verify_measured_read_seconds",
	  "Median time of one dependent read of a chain measured, in seconds.", v_read },
	{ "tierwise_verify_estimate_read_seconds",
	  "Time of one dependent read of a chain the plan estimates, in seconds.", v_est_read },
};

/* One family: its samples to a memory stream first, so that a family
 * without samples leaves no HELP/TYPE lines. */
static int prom_family(FILE *out, const struct verify_report *r, size_t f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return -ENOMEM;
	for (size_t t = 0; t < r->n; t++) {
		const struct verify_tier *vt = &r->tiers[t];

		if (!families[f].value)
			sample(m, families[f].name, r, vt, NULL, vt->mounted);
		for (size_t i = 0; families[f].value && i < vt->n; i++)
			sample(m, families[f].name, r, vt, &vt->w[i], families[f].value(&vt->w[i]));
	}
	if (fclose(m)) {
		free(buf);
		return -ENOMEM;
	}
	if (len)
		fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n%s", families[f].name, families[f].help,
			families[f].name, buf);
	free(buf);
	return 0;
}

static int prom_print(FILE *out, const struct verify_report *r)
{
	int ret = 0;

	for (size_t f = 0; !ret && f < sizeof(families) / sizeof(families[0]); f++)
		ret = prom_family(out, r, f);
	if (!ret) {
		fputs("# HELP tierwise_verify_timestamp_seconds When tierwise verify ran (Unix "
		      "time).\n# TYPE tierwise_verify_timestamp_seconds gauge\n"
		      "tierwise_verify_timestamp_seconds{host=\"", out);
		render_prom_escape(out, r->host);
		fprintf(out, "\"} %lld\n", (long long)time(NULL));
	}
	return !ret && ferror(out) ? -EIO : ret;
}

const struct verify_render_ops verify_render_prom = { .name = "prom", .print = prom_print };
