/* tierwise explain — one device against another for one policy: the case
 * for each side, figure by figure, with who wins and by how much (the data;
 * render/render_explain.c prints it as text, Markdown or JSON). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inputs.h"
#include "render_explain.h"
#include "score.h"
#include "tw_util.h"

static void explain_usage(FILE *out)
{
	fputs("Usage: tierwise explain DEVICE --policy NAME [--vs DEVICE] PROFILE...\n"
	      "                        [--format text|md|json] [-o FILE] [--policies DIR]\n"
	      "                        [--prices FILE]\n\n"
	      "Compare DEVICE with another (--vs, else the policy's best other device)\n"
	      "for one policy, figure by figure: the policy's metrics, then QD1 and QD32\n"
	      "latency and IOPS, sequential read and write, the 70/30 mix, capacity and\n"
	      "(with prices) price per TB and per IOPS, each in words with its unit and\n"
	      "which way is better, how many times faster or slower DEVICE is, and who\n"
	      "wins; then where each side wins, the scores and what it means.  Options\n"
	      "as for 'tierwise score'.  DEVICE --vs DEVICE says it is the same device\n"
	      "(one line, exit 0).\n\n"
	      "Exit codes: 0 success, 1 invalid input, 2 usage error, 3 no memory.\n\n"
	      "Example: tierwise explain optane905p --policy vector-db --vs pm9a1-1t \\\n"
	      "             examples/ai-server-18-devices.json\n", out);
}

/* The figures explain shows even when the policy does not weigh them, in
 * order.  Their words, units and which way is better come from the metric
 * table (metrics.h), as do those of every policy metric. */
static const char *const context[] = {
	"rand_read_qd1.lat_us.p50", "rand_read_qd1.lat_us.p99", "rand_read_qd1.iops",
	"rand_read_qd32.lat_us.p50", "rand_read_qd32.lat_us.p99", "rand_read_qd32.iops",
	"seq_read.mbps", "seq_write.mbps", "sustained_write.mbps", "mixed_70_30.iops",
	"capacity_bytes",
};

/* The figures explain derives from a profile: not in the metric table. */
static const struct derived {
	const char *path, *words, *brief, *unit;
	enum model_better better;
} derived[] = {
	{ "price_per_iops.qd1", "device price / random 4 KiB read IOPS, QD1",
	  "price per QD1 IOPS", "per IOPS", MODEL_BETTER_LOWER },
	{ "price_per_iops.qd32", "device price / random 4 KiB read IOPS, QD32",
	  "price per QD32 IOPS", "per IOPS", MODEL_BETTER_LOWER },
};

static const struct derived *derived_find(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(derived); i++)
		if (!strcmp(derived[i].path, path))
			return &derived[i];
	return NULL;
}

/* Who wins and by how much: a tie within 1 %. */
static void judge(struct explain_row *r)
{
	double hi = fmax(r->a, r->b), lo = fmin(r->a, r->b);

	r->factor = NAN;
	r->winner = EXPLAIN_UNKNOWN;
	if (isnan(r->a) || isnan(r->b))
		return;
	if (hi == lo)
		r->factor = 1;
	else if (lo == 0)
		r->factor = INFINITY;
	else if (lo > 0)
		r->factor = hi / lo;
	if (r->factor < 1.01) {
		r->winner = EXPLAIN_TIE;
		return;
	}
	r->winner = (r->a > r->b) == (r->better == MODEL_BETTER_HIGHER) ? EXPLAIN_A : EXPLAIN_B;
}

/* Append a row; its words from the metric table (its help where it has no
 * words) or from the derived figures, else the path itself. */
static struct explain_row *add_row(struct explain_case *x, const char *path, double a,
				   double b, enum explain_kind kind)
{
	const struct model_metric_desc *d = model_metric_find(path);
	const struct derived *v = d ? NULL : derived_find(path);
	const char *words = model_metric_label(d, MODEL_LABEL_WORDS);
	const char *brief = model_metric_label(d, MODEL_LABEL_BRIEF);
	struct explain_row *r;

	if (x->n >= ARRAY_SIZE(x->rows))
		return NULL;
	r = &x->rows[x->n++];
	*r = (struct explain_row){
		.metric = d ? d->path : path,
		.words = words ? words : v ? v->words : d ? d->help : path,
		.brief = brief ? brief : v ? v->brief : path,
		.unit = v ? v->unit : d ? d->unit : NULL,
		.kind = kind,
		.better = d ? d->better : v ? v->better : MODEL_BETTER_HIGHER,
		.a = a, .b = b, .weight = NAN,
	};
	snprintf(r->source, sizeof(r->source), "%.*s", (int)strcspn(path, "."),
		 kind == EXPLAIN_PRICE ? "price" : path);
	judge(r);
	return r;
}

static bool in_policy(const struct model_policy *p, const char *path)
{
	for (size_t i = 0; i < p->n_metrics; i++)
		if (!strcmp(p->metrics[i].desc->path, path))
			return true;
	return false;
}

/* The policy's metrics, weighted, in policy order (rows 0..n_contrib). */
static void policy_rows(struct explain_case *x)
{
	for (size_t i = 0; i < x->a->n_contrib; i++) {
		const struct model_contrib *ca = &x->a->contrib[i];
		struct explain_row *r = add_row(x, ca->pm->desc->path, ca->value,
						x->b->contrib[i].value, EXPLAIN_POLICY);

		if (!r)
			return;
		r->weight = ca->weight;
		r->better = ca->pm->better;	/* the policy says which way */
		judge(r);
	}
}

static double per_iops(const struct profile_device *d, enum profile_io_test t)
{
	double iops = d->io[t].iops;

	return iops > 0 ? model_device_price(d) / iops : NAN;
}

/* Price per TB and per IOPS, when either side has a price. */
static void price_rows(struct explain_case *x)
{
	const struct profile_device *a = x->a->dev, *b = x->b->dev;

	if (isnan(a->price_per_tb) && isnan(b->price_per_tb))
		return;
	if (!in_policy(x->policy, "price_per_tb"))
		add_row(x, "price_per_tb", a->price_per_tb, b->price_per_tb, EXPLAIN_PRICE);
	add_row(x, "price_per_iops.qd1", per_iops(a, PROFILE_RAND_READ_QD1),
		per_iops(b, PROFILE_RAND_READ_QD1), EXPLAIN_PRICE);
	add_row(x, "price_per_iops.qd32", per_iops(a, PROFILE_RAND_READ_QD32),
		per_iops(b, PROFILE_RAND_READ_QD32), EXPLAIN_PRICE);
}

/* One row of a workload: its figure `what` on both sides; the row's metric
 * ("estimate.beam-search.qps") and words live in the case. */
static void workload_row(struct explain_case *x, const struct model_policy_estimate *pe,
			 const struct model_workload_est *wa, const char *what, const char *words,
			 double a, double b, const char *unit, enum model_better better)
{
	size_t i = x->n;
	struct explain_row *r;

	if (i >= ARRAY_SIZE(x->rows))
		return;
	snprintf(x->text[i][0], sizeof(x->text[i][0]), "estimate.%s.%s", pe->name, what);
	snprintf(x->text[i][1], sizeof(x->text[i][1]), "%s%s%s",
		 pe->label ? pe->label : pe->name, *words ? ": " : "", words);
	if (!(r = add_row(x, x->text[i][0], a, b, EXPLAIN_ESTIMATE)))
		return;
	r->words = r->brief = x->text[i][1];
	r->unit = unit;
	r->better = better;
	if (wa->n_basis)	/* the figure it is computed from */
		snprintf(r->source, sizeof(r->source), "%.*s",
			 (int)strcspn(wa->basis[0], "."), wa->basis[0]);
	judge(r);
}

/* A device's price spread over five years of full use (a server's
 * depreciation): the cost of its queries (docs/scoring.md). */
#define AMORTIZE_S (5 * 365.25 * 86400)

/* A query's cost with prices: per billion queries at its queries/s (a
 * load's or a save's is a fraction of a cent: not shown). */
static void cost_row(struct explain_case *x, const struct model_policy_estimate *pe,
		     const struct model_workload_est *a, const struct model_workload_est *b)
{
	double pa = model_device_price(x->a->dev), pb = model_device_price(x->b->dev);
	struct explain_row *r;

	if (isnan(pa) && isnan(pb))
		return;
	workload_row(x, pe, a, "cost_per_billion", "price per billion queries",
		     pa / (a->qps * AMORTIZE_S) * 1e9, pb / (b->qps * AMORTIZE_S) * 1e9,
		     "per 10⁹ queries", MODEL_BETTER_LOWER);
	r = &x->rows[x->n - 1];
	r->kind = EXPLAIN_PRICE;
	snprintf(r->source, sizeof(r->source), "price");
}

/* Each workload in the application's terms: queries/s and p99 for the
 * queries, time for loads, saves and restores, accelerators fed; what each
 * costs when there are prices. */
static void estimate_rows(struct explain_case *x)
{
	for (size_t i = 0; i < x->a->n_est; i++) {
		const struct model_policy_estimate *pe = x->a->est[i].pe;
		const struct model_workload_est *a = &x->a->est[i].w, *b = &x->b->est[i].w;

		if (pe->pattern == MODEL_PAT_CHAIN || pe->pattern == MODEL_PAT_BEAM)
			cost_row(x, pe, a, b);

		switch (pe->pattern) {
		case MODEL_PAT_CHAIN:
		case MODEL_PAT_BEAM:
			workload_row(x, pe, a, "qps", "queries/s", a->qps, b->qps, "queries/s",
				     MODEL_BETTER_HIGHER);
			workload_row(x, pe, a, "p99", "p99 a query", a->p99_ms / 1e3, b->p99_ms / 1e3,
				     "s", MODEL_BETTER_LOWER);
			break;
		case MODEL_PAT_STREAM:
			workload_row(x, pe, a, "seconds", "", a->seconds, b->seconds, "s",
				     MODEL_BETTER_LOWER);
			break;
		case MODEL_PAT_WRITE:
			workload_row(x, pe, a, "seconds", "save", a->seconds, b->seconds, "s",
				     MODEL_BETTER_LOWER);
			if (pe->restore)
				workload_row(x, pe, a, "restore", "restore", a->restore_seconds,
					     b->restore_seconds, "s", MODEL_BETTER_LOWER);
			break;
		case MODEL_PAT_SAMPLES:
			workload_row(x, pe, a, "accelerators", "", a->accelerators, b->accelerators,
				     "accelerators", MODEL_BETTER_HIGHER);
			break;
		case MODEL_PAT_COUNT:
			break;
		}
	}
}

/* The policy metric where the two differ most, weight × |Δ utility|: its
 * row, or -1. */
static int decisive(const struct explain_case *x)
{
	double most = 0;
	int best = -1;

	for (size_t i = 0; i < x->a->n_contrib; i++) {
		const struct model_contrib *ca = &x->a->contrib[i], *cb = &x->b->contrib[i];
		double d = ca->weight * fabs(ca->utility - cb->utility);

		if (!isnan(d) && d > most && i < x->n) {
			most = d;
			best = (int)i;
		}
	}
	return best;
}

static void build_rows(struct explain_case *x)
{
	policy_rows(x);
	for (size_t i = 0; i < ARRAY_SIZE(context); i++) {
		const struct model_metric_desc *m = model_metric_find(context[i]);

		if (m && !in_policy(x->policy, m->path))
			add_row(x, m->path, model_metric_value(x->a->dev, m),
				model_metric_value(x->b->dev, m), EXPLAIN_CONTEXT);
	}
	price_rows(x);
	estimate_rows(x);
	x->decisive = decisive(x);
}

/* Two entries with one serial number (and model): one device measured twice. */
static bool same_serial(const struct profile_device *a, const struct profile_device *b)
{
	return a != b && a->serial && b->serial && *a->serial && !strcmp(a->serial, b->serial) &&
	       (!a->model || !b->model || !strcmp(a->model, b->model));
}

/* ---- the command ---- */

struct explain_opts {
	const char *policy, *vs, *policies, *prices, *output;
	const struct explain_render_ops *render;
};

/* --format: the names, in the order of the renderers. */
static const char *const formats[] = { "text", "md", "json" };
static const struct explain_render_ops *const renderers[] = {
	&explain_render_text, &explain_render_md, &explain_render_json,
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

	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'p': o->policy = optarg; break;
		case 'v': o->vs = optarg; break;
		case 'P': o->policies = optarg; break;
		case 'r': o->prices = optarg; break;
		case 'f': {
			int f = cli_pick_format("explain", optarg, formats, ARRAY_SIZE(formats));

			if (f < 0)
				return TW_EXIT_USAGE;
			o->render = renderers[f];
			break;
		}
		case 'o': o->output = optarg; break;
		case 'h': explain_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option("explain", c, argv, opts);
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

/* Fill x for DEVICE id of ranking r: 0, or the exit code (message printed). */
static int explain_fill(struct explain_case *x, const struct model_ranking *r,
			const char *id, const char *vs)
{
	x->policy = r->policy;
	x->a = model_ranking_find(r, id);
	x->b = x->a ? other(r, x->a, vs) : NULL;
	if (!x->a || !x->b) {
		if (!x->a || vs)
			cli_no_device("explain", r, !x->a ? id : vs);
		else
			fprintf(stderr, "tierwise explain: no other device to compare %s with\n", id);
		return TW_EXIT_INVALID;
	}
	x->decisive = -1;
	if (x->a == x->b) {	/* --vs DEVICE: said in one line, no rows */
		const struct model_score *o = other(r, x->a, NULL);

		x->suggest = o ? o->dev->id : NULL;
		return TW_EXIT_OK;
	}
	x->same_serial = same_serial(x->a->dev, x->b->dev);
	build_rows(x);
	return TW_EXIT_OK;
}

static int explain_ranked(const struct model_ranking *r, const char *id,
			  const struct explain_opts *o, const struct cli_inputs *in)
{
	struct explain_case *x = calloc(1, sizeof(*x));
	int rc;

	if (!x)
		return TW_EXIT_SYSTEM;
	rc = explain_fill(x, r, id, o->vs);
	x->policies_from = in->policies_from;
	/* -EIO, a failed write, is left to cli_output_close(), which says so */
	if (rc == TW_EXIT_OK && o->render->print(stdout, x) == -ENOMEM) {
		fputs("tierwise explain: out of memory\n", stderr);
		rc = TW_EXIT_SYSTEM;
	}
	/* where the policy came from; the same device twice stays one line */
	if (rc == TW_EXIT_OK && x->a != x->b && o->render != &explain_render_json)
		cli_print_policies_from(stdout, in, "");
	free(x);
	return rc;
}

static int explain_run(int argc, char **argv, struct tw_global *g)
{
	struct explain_opts o = { .render = &explain_render_text };
	struct cli_inputs in;
	struct model_ranking *r = NULL;
	const struct model_policy *p;
	int rc = explain_parse(argc, argv, &o);

	struct cli_output out;

	(void)g;
	if (rc >= 0)
		return rc;
	if ((rc = cli_output_open(&out, "explain", o.output)))
		return rc;
	rc = cli_inputs_load("explain", &in, argv + optind + 1, (size_t)(argc - optind - 1),
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
		rc = explain_ranked(r, argv[optind], &o, &in);
	}
	model_ranking_free(r);
	cli_inputs_free(&in);
	return cli_output_close(&out, rc);
}

const struct tw_command tw_cmd_explain = {
	.name = "explain",
	.summary = "compare two devices for one policy, side by side",
	.run = explain_run,
	.usage = explain_usage,
};
