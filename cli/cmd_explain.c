/* tierwise explain — one device against another for one policy, side by
 * side with ratios, and what the difference means. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "score.h"
#include "tw_util.h"

static void explain_usage(FILE *out)
{
	fputs("Usage: tierwise explain DEVICE --policy NAME [--vs DEVICE] PROFILE...\n"
	      "                        [--format text|md|json] [-o FILE] [--policies DIR]\n"
	      "                        [--prices FILE]\n\n"
	      "Compare DEVICE with another (--vs, else the policy's best other device)\n"
	      "for one policy: its metrics and a few context figures side by side with\n"
	      "the ratio DEVICE / other, the estimates in user terms, the scores, and a\n"
	      "sentence on what it means.  Options as for 'tierwise score'.\n\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error, 3 no memory.\n\n"
	      "Example: tierwise explain optane905p --policy vector-db --vs pm9a1-1t \\\n"
	      "             examples/ai-server-18-devices.json\n", out);
}

/* Figures shown for context when the policy does not weigh them. */
static const char *const context[] = { "rand_read_qd1.iops", "rand_read_qd1.lat_us.p50",
	"rand_read_qd1.lat_us.p99", "seq_read.mbps", "sustained_write.mbps",
	"capacity_bytes" };
#define N_CONTEXT (ARRAY_SIZE(context))

struct row {
	char what[96];
	double a, b;
	const char *unit;
	double weight;		/* NAN = context, not scored */
};

enum fmt { FMT_TEXT, FMT_MD, FMT_JSON };

struct explain {
	const struct model_policy *policy;
	const struct model_score *a, *b;
	size_t n;
	struct row rows[64];
};

static void add_row(struct explain *x, const char *what, double a, double b,
		    const char *unit, double weight)
{
	struct row *r;

	if (x->n >= ARRAY_SIZE(x->rows))
		return;
	r = &x->rows[x->n++];
	snprintf(r->what, sizeof(r->what), "%s", what);
	r->a = a;
	r->b = b;
	r->unit = unit;
	r->weight = weight;
}

static bool in_policy(const struct model_policy *p, const char *path)
{
	for (size_t i = 0; i < p->n_metrics; i++)
		if (!strcmp(p->metrics[i].desc->path, path))
			return true;
	return false;
}

static void build_rows(struct explain *x)
{
	const struct model_score *a = x->a, *b = x->b;

	for (size_t i = 0; i < a->n_contrib; i++)
		add_row(x, a->contrib[i].pm->desc->path, a->contrib[i].value,
			b->contrib[i].value, a->contrib[i].pm->desc->unit,
			a->contrib[i].weight);
	for (size_t i = 0; i < N_CONTEXT; i++) {
		const struct model_metric_desc *m = model_metric_find(context[i]);

		if (m && !in_policy(x->policy, m->path))
			add_row(x, m->path, model_metric_value(a->dev, m),
				model_metric_value(b->dev, m), m->unit, NAN);
	}
	if (!in_policy(x->policy, "price_per_tb") &&
	    (!isnan(a->dev->price_per_tb) || !isnan(b->dev->price_per_tb)))
		add_row(x, "price_per_tb", a->dev->price_per_tb, b->dev->price_per_tb, "per TB", NAN);
	for (size_t i = 0; i < a->n_est; i++)
		add_row(x, a->est[i].pe->label ? a->est[i].pe->label
			: model_estimate_kind_name(a->est[i].pe->kind),
			a->est[i].value, b->est[i].value, a->est[i].unit, NAN);
}

/* ---- formatting ---- */

static void value_cell(char *buf, size_t len, double v, const char *unit)
{
	size_t o;

	render_value(buf, len, v, unit);
	o = strlen(buf);
	if (!isnan(v) && unit && strcmp(unit, "bytes"))
		snprintf(buf + o, len - o, " %s", unit);
}

static void ratio_cell(char *buf, size_t len, double a, double b)
{
	double r = a / b;

	if (!isfinite(r) || b == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, r >= 1 ? "%.1f×" : "%.2f×", r);
}

static void score_cell(char *buf, size_t len, const struct model_score *s)
{
	if (!s->eligible)
		snprintf(buf, len, "excluded (%s)", s->failed[0].key);
	else if (isnan(s->score))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f (conf %.2f)", s->score, s->confidence);
}


/* One row; idw: the width of the two device columns (the longer id + 2). */
static void print_line(FILE *out, enum fmt f, const char *const cell[5], int idw)
{
	const int w[5] = { 30, idw, idw, 8, 0 };
	int last = 4;

	while (f == FMT_TEXT && last > 0 && !*cell[last])
		last--;
	for (int i = 0; i <= last; i++) {
		if (f == FMT_MD) {
			fprintf(out, "| %s ", cell[i]);
			continue;
		}
		fputs("  ", out);
		render_pad(out, cell[i], i < last ? w[i] : 0);
	}
	fputs(f == FMT_MD ? "|\n" : "\n", out);
}

static void print_row(FILE *out, enum fmt f, const struct row *r, int idw)
{
	char a[48], b[48], ratio[24], weight[24] = "";
	const char *cell[5] = { r->what, a, b, ratio, weight };

	value_cell(a, sizeof(a), r->a, r->unit);
	value_cell(b, sizeof(b), r->b, r->unit);
	ratio_cell(ratio, sizeof(ratio), r->a, r->b);
	if (!isnan(r->weight))
		snprintf(weight, sizeof(weight), "%g", r->weight);
	print_line(out, f, cell, idw);
}

/* The scored metric where the two differ most, weight × |Δ utility|. */
static const struct model_contrib *decisive(const struct explain *x, size_t *idx)
{
	const struct model_contrib *best = NULL;
	double most = 0;

	for (size_t i = 0; i < x->a->n_contrib; i++) {
		const struct model_contrib *ca = &x->a->contrib[i], *cb = &x->b->contrib[i];
		double d = ca->weight * fabs(ca->utility - cb->utility);

		if (!isnan(d) && d > most) {
			most = d;
			best = ca;
			*idx = i;
		}
	}
	return best;
}

static void print_meaning(FILE *out, const struct explain *x)
{
	const struct model_score *a = x->a, *b = x->b;
	const char *ia = a->dev->id, *ib = b->dev->id;
	size_t i = 0;
	const struct model_contrib *c = decisive(x, &i);

	fputc('\n', out);
	if (a->eligible != b->eligible) {
		const struct model_score *out_ = a->eligible ? b : a;

		fprintf(out, "%s is excluded from %s: %s.  ", out_->dev->id,
			x->policy->name, out_->failed[0].msg);
	}
	fprintf(out, "For %s (%s), %s %s %s", x->policy->name, x->policy->tier, ia,
		a->score > b->score ? "beats" : a->score < b->score ? "trails" : "ties with",
		ib);
	if (c) {
		char va[48], vb[48], ratio[24];

		value_cell(va, sizeof(va), c->value, c->pm->desc->unit);
		value_cell(vb, sizeof(vb), b->contrib[i].value, c->pm->desc->unit);
		ratio_cell(ratio, sizeof(ratio), c->value, b->contrib[i].value);
		fprintf(out, " mostly on %s (weight %g): %s against %s (%s)",
			c->pm->desc->path, c->weight, va, vb, ratio);
	}
	fputs(".", out);
	for (size_t k = 0; k < a->n_est; k++) {
		char va[48], vb[48];

		if (isnan(a->est[k].value) || isnan(b->est[k].value))
			continue;
		value_cell(va, sizeof(va), a->est[k].value, a->est[k].unit);
		value_cell(vb, sizeof(vb), b->est[k].value, b->est[k].unit);
		fprintf(out, "  %s: %s on %s, %s on %s.",
			a->est[k].pe->label ? a->est[k].pe->label : "estimate", va, ia, vb, ib);
	}
	fputc('\n', out);
}

/* A latency in µs as people read it: "12 µs", "2.1 ms". */
static void lat_text(char *buf, size_t len, double us)
{
	if (us >= 1000)
		snprintf(buf, len, "%.1f ms", us / 1000);
	else
		snprintf(buf, len, us < 10 ? "%.1f µs" : "%.0f µs", us);
}

/* One device's idle → under-write p99, or why it is unknown. */
static void under_write_part(FILE *out, const struct profile_device *d)
{
	const struct profile_under_write *uw = &d->under_write;
	double idle = !isnan(uw->idle_p99_us) ? uw->idle_p99_us
					      : d->io[PROFILE_RAND_READ_QD1].lat.v[PROFILE_LAT_P99];
	double busy = uw->lat.v[PROFILE_LAT_P99];
	char a[32], b[32];

	if (!uw->present || isnan(busy)) {
		fprintf(out, "not measured on %s (read_under_write needs a writable target: "
			"--destructive or a scratch file)", d->id);
		return;
	}
	lat_text(b, sizeof(b), busy);
	if (isnan(idle)) {
		fprintf(out, "p99 %s under writes on %s (no idle figure)", b, d->id);
		return;
	}
	lat_text(a, sizeof(a), idle);
	fprintf(out, "p99 %s → %s under writes on %s (%.1f×)", a, b, d->id, busy / idle);
}

/*
 * When the policy weighs the reads under writes: idle and under-write p99
 * of both devices side by side.
 */
static void print_under_write(FILE *out, const struct explain *x)
{
	bool weighs = false;

	for (size_t i = 0; i < x->policy->n_metrics; i++)
		weighs |= !strncmp(x->policy->metrics[i].desc->path, "read_under_write.", 17);
	if (!weighs)
		return;
	fputs("\nUnder writes: ", out);
	under_write_part(out, x->a->dev);
	fputs("; ", out);
	under_write_part(out, x->b->dev);
	fputs(".\n", out);
}

/* A device's price: per TB × its capacity; NAN when either is unknown. */
static double device_price(const struct profile_device *d)
{
	return d->capacity_bytes > 0 ? d->price_per_tb * (double)d->capacity_bytes / 1e12 : NAN;
}

/*
 * With prices for both: what the first costs per TB against the second, and
 * what the difference buys in the policy's own terms (its estimates).
 */
static void print_money(FILE *out, const struct explain *x)
{
	const struct profile_device *da = x->a->dev, *db = x->b->dev;
	double pa = da->price_per_tb, pb = db->price_per_tb;
	char a[32], b[32], d[32], r[24], wa[32], wb[32];

	if (isnan(pa) || isnan(pb))
		return;
	render_value(a, sizeof(a), pa, NULL);
	render_value(b, sizeof(b), pb, NULL);
	render_value(d, sizeof(d), fabs(pa - pb), NULL);
	ratio_cell(r, sizeof(r), pa, pb);
	render_value(wa, sizeof(wa), device_price(da), NULL);
	render_value(wb, sizeof(wb), device_price(db), NULL);
	fprintf(out, "\nMoney: %s costs %s per TB, %s %s (%s); a whole %s %s, a whole %s %s.",
		da->id, a, db->id, b, r, da->id, wa, db->id, wb);
	if (pa > pb)
		fprintf(out, "  Per TB, the %s more for %s buys:", d, da->id);
	else if (pa < pb)
		fprintf(out, "  Per TB, %s saves %s and gives:", da->id, d);
	else
		fprintf(out, "  The same price per TB, for:");
	for (size_t k = 0, n = 0; k < x->a->n_est; k++) {
		const struct model_score_estimate *ea = &x->a->est[k], *eb = &x->b->est[k];
		char va[48], vb[48], dv[48], ratio[24];

		if (isnan(ea->value) || isnan(eb->value) || ea->value <= 0 || eb->value <= 0)
			continue;
		value_cell(va, sizeof(va), ea->value, ea->unit);
		value_cell(vb, sizeof(vb), eb->value, eb->unit);
		value_cell(dv, sizeof(dv), fabs(ea->value - eb->value), ea->unit);
		ratio_cell(ratio, sizeof(ratio), fmax(ea->value, eb->value) / fmin(ea->value, eb->value), 1.0);
		fprintf(out, "%s %s in %s instead of %s (%s %s, %s %s each)", n++ ? ";" : "",
			ea->pe->label ? ea->pe->label : "the estimate", va, vb, ratio,
			ea->value <= eb->value ? "faster" : "slower", dv,
			ea->value <= eb->value ? "less" : "more");
	}
	fputs(".\n", out);
}

static void explain_print(FILE *out, enum fmt f, const struct explain *x)
{
	char sa[64], sb[64];
	const char *head[5] = { "metric", x->a->dev->id, x->b->dev->id, "ratio", "weight" };
	const char *score[5] = { "score (0-100)", sa, sb, "", "" };
	size_t la = strlen(x->a->dev->id), lb = strlen(x->b->dev->id);
	int idw = (int)(la > lb ? la : lb) + 2;

	if (idw < 16)
		idw = 16;

	if (f == FMT_MD)
		fprintf(out, "### %s vs %s for %s (%s)\n\n", x->a->dev->id, x->b->dev->id,
			x->policy->name, x->policy->tier);
	else
		fprintf(out, "%s vs %s for %s (%s)\n", x->a->dev->id, x->b->dev->id,
			x->policy->name, x->policy->tier);
	print_line(out, f, head, idw);
	if (f == FMT_MD)
		fputs("| --- | ---: | ---: | ---: | ---: |\n", out);
	for (size_t i = 0; i < x->n; i++)
		print_row(out, f, &x->rows[i], idw);
	score_cell(sa, sizeof(sa), x->a);
	score_cell(sb, sizeof(sb), x->b);
	print_line(out, f, score, idw);
	print_meaning(out, x);
	print_under_write(out, x);
	print_money(out, x);
}

/* A number, or null when unknown (JSON has no NaN). */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *json_side(const struct model_score *s)
{
	return json_pack("{s:s, s:b, s:o, s:o}", "id", s->dev->id, "eligible", s->eligible,
			 "score", jnum(s->eligible ? s->score : NAN), "confidence",
			 jnum(s->confidence));
}

/* tierwise.explain/1: the two devices, their scores and the rows of the table. */
static int explain_print_json(FILE *out, const struct explain *x)
{
	json_t *rows = json_array(), *doc;
	int ret;

	for (size_t i = 0; i < x->n; i++) {
		const struct row *r = &x->rows[i];
		double ratio = r->b != 0 ? r->a / r->b : NAN;

		json_array_append_new(rows, json_pack("{s:s, s:o, s:o, s:s?, s:o, s:o}",
			"metric", r->what, "a", jnum(r->a), "b", jnum(r->b), "unit", r->unit,
			"ratio", jnum(ratio), "weight", jnum(r->weight)));
	}
	doc = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o}", "schema", "tierwise.explain/1",
			"policy", x->policy->name, "tier", x->policy->tier, "a", json_side(x->a),
			"b", json_side(x->b), "rows", rows);
	if (!doc)
		return -ENOMEM;
	ret = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
	return ret ? -EIO : 0;
}

/* ---- the command ---- */

struct explain_opts {
	const char *policy, *vs, *policies, *prices, *output;
	enum fmt fmt;
};

/* Returns -1 to go on, else the exit code. */
static int explain_parse(int argc, char **argv, struct explain_opts *o)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "vs", required_argument, NULL, 'v' },
		{ "format", required_argument, NULL, 'f' },
		{ "policies", required_argument, NULL, 'P' },
		{ "prices", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'p': o->policy = optarg; break;
		case 'v': o->vs = optarg; break;
		case 'P': o->policies = optarg; break;
		case 'r': o->prices = optarg; break;
		case 'f': {
			static const char *const formats[] = { "text", "md", "json" };
			int f = cli_pick_format("explain", optarg, formats, ARRAY_SIZE(formats));

			if (f < 0)
				return TW_EXIT_USAGE;
			o->fmt = (enum fmt)f;
			break;
		}
		case 'o': o->output = optarg; break;
		case 'h': explain_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option("explain", argv, opts);
		}
	}
	if (!o->policy)
		return cli_usage_error("explain", "--policy NAME is required");
	if (argc - optind < 2)
		return cli_usage_error("explain", "give a DEVICE and at least one PROFILE");
	return -1;
}

/* The device to compare with: --vs, else the best other one. */
static const struct model_score *other(const struct model_ranking *r,
				       const struct model_score *a, const char *vs)
{
	if (vs)
		return model_ranking_find(r, vs);
	for (size_t i = 0; i < r->n; i++)
		if (&r->v[i] != a)
			return &r->v[i];
	return NULL;
}

static int explain_ranked(const struct model_ranking *r, const char *id,
			  const struct explain_opts *o)
{
	struct explain *x = calloc(1, sizeof(*x));

	if (!x)
		return TW_EXIT_SYSTEM;
	x->policy = r->policy;
	x->a = model_ranking_find(r, id);
	x->b = x->a ? other(r, x->a, o->vs) : NULL;
	if (!x->a || !x->b) {
		if (!x->a || o->vs)
			cli_no_device("explain", r, !x->a ? id : o->vs);
		else
			fprintf(stderr, "tierwise explain: no other device to compare %s with\n", id);
		free(x);
		return TW_EXIT_INVALID;
	}
	build_rows(x);
	if (o->fmt == FMT_JSON)
		explain_print_json(stdout, x);
	else
		explain_print(stdout, o->fmt, x);
	free(x);
	return TW_EXIT_OK;
}

static int explain_run(int argc, char **argv, struct tw_global *g)
{
	struct explain_opts o = { 0 };
	struct score_inputs in;
	struct model_ranking *r = NULL;
	const struct model_policy *p;
	int rc = explain_parse(argc, argv, &o);

	struct cli_output out;

	(void)g;
	if (rc >= 0)
		return rc;
	if ((rc = cli_output_open(&out, "explain", o.output)))
		return rc;
	rc = cli_score_inputs_load(&in, argv + optind + 1, (size_t)(argc - optind - 1),
				   o.policies, o.prices);
	if (rc != TW_EXIT_OK)
		return cli_output_close(&out, rc);
	p = model_policy_set_find(in.policies, o.policy);
	if (!p) {
		cli_no_policy("explain", in.policies, o.policy);
		rc = TW_EXIT_INVALID;
	} else if (model_rank(p, in.devs, in.n_devs, &r) < 0) {
		rc = TW_EXIT_SYSTEM;
	} else {
		rc = explain_ranked(r, argv[optind], &o);
	}
	model_ranking_free(r);
	cli_score_inputs_free(&in);
	return cli_output_close(&out, rc);
}

const struct tw_command tw_cmd_explain = {
	.name = "explain",
	.summary = "compare two devices for one policy, side by side",
	.run = explain_run,
	.usage = explain_usage,
};
