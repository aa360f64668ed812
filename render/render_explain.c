/* Renderers of tierwise explain: a text or Markdown table for people, with
 * the two-sided summary, the verdict, reads under writes and the money; and
 * tierwise.explain/1 JSON.  The data comes from cli/cmd_explain.c. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "render_explain.h"
#include "tw_util.h"

enum fmt { FMT_TEXT, FMT_MD };

/* ---- words ---- */

/* How a unit reads when the first device's value is higher or lower. */
static const struct unit_words {
	const char *unit, *higher, *lower, *shown;	/* shown: in the label, NULL = none */
} unit_words[] = {
	{ "µs", "slower", "faster", "µs" },
	{ "IOPS", "faster", "slower", "IOPS" },
	{ "MB/s", "faster", "slower", "MB/s" },
	{ "s", "slower", "faster", "seconds" },
	{ "h", "slower", "faster", "hours" },
	{ "per TB", "more expensive", "cheaper", NULL },
	{ "per IOPS", "more expensive", "cheaper", NULL },
	{ "bytes", "larger", "smaller", NULL },
	{ "GB", "more", "less", "GB" },
	{ "°C", "hotter", "cooler", "°C" },
	{ "count", "more", "fewer", NULL },
	{ "hours", "more", "fewer", "hours" },
};

static const struct unit_words *words_of(const char *unit)
{
	static const struct unit_words plain = { "", "higher", "lower", NULL };

	for (size_t i = 0; unit && i < ARRAY_SIZE(unit_words); i++)
		if (!strcmp(unit_words[i].unit, unit))
			return &unit_words[i];
	return &plain;
}

/* The word for one device on row r ("faster"; b: the second device's), or
 * NULL when a side is unknown or they tie. */
static const char *word_for(const struct explain_row *r, bool b)
{
	const struct unit_words *w = words_of(r->unit);
	double mine = b ? r->b : r->a, theirs = b ? r->a : r->b;

	if (r->winner == EXPLAIN_UNKNOWN || r->winner == EXPLAIN_TIE)
		return NULL;
	return mine > theirs ? w->higher : w->lower;
}

static const char *a_is(const struct explain_row *r)
{
	return word_for(r, false);
}

void render_explain_label(char *buf, size_t len, const struct explain_row *r)
{
	const struct unit_words *w = words_of(r->unit);
	const char *better = r->better == MODEL_BETTER_LOWER ? "lower" : "higher";
	const char *shown = w->shown ? w->shown : (r->unit && !strcmp(w->unit, "") ? r->unit : NULL);

	if (shown && *shown && !strstr(r->words, shown))	/* not "IOPS (IOPS, …)" */
		snprintf(buf, len, "%s (%s, %s is better)", r->words, shown, better);
	else
		snprintf(buf, len, "%s (%s is better)", r->words, better);
}

/* A factor ≥ 1 that never rounds to 1.00 or 0: "1.07", "3.8", "11.1",
 * "742", "1,204". */
static void factor_text(char *buf, size_t len, double f)
{
	if (f < 1.1)
		snprintf(buf, len, "%.2f", f);
	else if (f < 99.95)
		snprintf(buf, len, "%.1f", f);
	else
		render_value(buf, len, f, NULL);
}

/* render_explain_ratio() for the first device, or (b) the second. */
static void ratio_for(char *buf, size_t len, const struct explain_row *r, bool b)
{
	char f[32];
	const char *w = word_for(r, b);

	if (r->winner == EXPLAIN_TIE)
		snprintf(buf, len, r->a == r->b ? "the same" : "the same (within 1 %%)");
	else if (!w)
		snprintf(buf, len, "-");
	else if (!strcmp(r->unit ? r->unit : "", "°C"))	/* no true zero: the difference */
		snprintf(buf, len, "%.0f °C %s", fabs(r->a - r->b), w);
	else if (!isfinite(r->factor))	/* one side 0 */
		snprintf(buf, len, "%s", w);
	else {
		factor_text(f, sizeof(f), r->factor);
		snprintf(buf, len, "%s× %s", f, w);
	}
}

void render_explain_ratio(char *buf, size_t len, const struct explain_row *r)
{
	ratio_for(buf, len, r, false);
}

/* Three significant digits for small prices: "0.0114", "1.52", "960". */
static void small_value(char *buf, size_t len, double v)
{
	int places;

	if (v >= 100 || v <= 0) {
		render_value(buf, len, v, NULL);
		return;
	}
	places = 2 - (int)floor(log10(v));
	snprintf(buf, len, "%.*f", places > 6 ? 6 : places, v);
}

/* A value with its unit for people: "22 µs", "960 GB", "0.12 s", "-". */
static void value_cell(char *buf, size_t len, double v, const char *unit)
{
	size_t o;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (unit && (!strcmp(unit, "s") || !strcmp(unit, "h"))) {
		render_estimate(buf, len, v, unit);
		return;
	}
	if (unit && !strcmp(unit, "per IOPS"))
		small_value(buf, len, v);
	else
		render_value(buf, len, v, unit);
	o = strlen(buf);
	if (unit && strcmp(unit, "bytes"))
		snprintf(buf + o, len - o, " %s", unit);
}

static const char *id_of(const struct explain_case *x, enum explain_winner w)
{
	return w == EXPLAIN_A ? x->a->dev->id : w == EXPLAIN_B ? x->b->dev->id : NULL;
}

/* "beats", "trails", "ties with", or "cannot be ranked against". */
static const char *verdict(const struct explain_case *x)
{
	const struct model_score *a = x->a, *b = x->b;

	if (a->eligible != b->eligible)
		return a->eligible ? "beats" : "trails";
	if (isnan(a->score) || isnan(b->score))
		return "cannot be ranked against";
	return a->score > b->score ? "beats" : a->score < b->score ? "trails" : "ties with";
}

/* One device compared with itself: the one line every format says. */
static void same_device_line(char *buf, size_t len, const struct explain_case *x)
{
	int n = snprintf(buf, len, "%s is the same device on both sides: nothing to compare "
			 "for %s", x->a->dev->id, x->policy->name);

	if (n < 0 || (size_t)n >= len)
		return;
	if (x->suggest)
		snprintf(buf + n, len - (size_t)n, " (name another with --vs, e.g. %s).",
			 x->suggest);
	else
		snprintf(buf + n, len - (size_t)n, " (the profiles hold no other device).");
}

/* ---- the table (text and Markdown) ---- */

#define N_COLS 6
#define CELL 160

/* The score row's cells. */
static void score_cells(const struct explain_case *x, char c[N_COLS][CELL])
{
	const struct model_score *s[2] = { x->a, x->b };

	snprintf(c[0], CELL, "score (0-100, higher is better)");
	for (int k = 0; k < 2; k++) {
		if (!s[k]->eligible)
			snprintf(c[1 + k], CELL, "excluded (%s)", s[k]->failed[0].key);
		else if (isnan(s[k]->score))
			snprintf(c[1 + k], CELL, "-");
		else
			snprintf(c[1 + k], CELL, "%.1f (conf %.2f)", s[k]->score, s[k]->confidence);
	}
}

/* The cells of table line i: 0 the header, 1..n the rows, n + 1 the scores. */
static void line_cells(const struct explain_case *x, size_t i, char c[N_COLS][CELL])
{
	const struct explain_row *r;

	for (int k = 0; k < N_COLS; k++)
		c[k][0] = '\0';
	if (i == 0) {
		snprintf(c[0], CELL, "figure");
		snprintf(c[1], CELL, "%s", x->a->dev->id);
		snprintf(c[2], CELL, "%s", x->b->dev->id);
		snprintf(c[3], CELL, "%s is", x->a->dev->id);
		snprintf(c[4], CELL, "wins");
		snprintf(c[5], CELL, "weight");
		return;
	}
	if (i > x->n) {
		score_cells(x, c);
		return;
	}
	r = &x->rows[i - 1];
	render_explain_label(c[0], CELL, r);
	value_cell(c[1], CELL, r->a, r->unit);
	value_cell(c[2], CELL, r->b, r->unit);
	render_explain_ratio(c[3], CELL, r);
	snprintf(c[4], CELL, "%s", r->winner == EXPLAIN_TIE ? "tie"
		 : r->winner == EXPLAIN_UNKNOWN ? "-" : id_of(x, r->winner));
	if (!isnan(r->weight))
		snprintf(c[5], CELL, "%g", r->weight);
}

/* Display columns of s (UTF-8 characters). */
static int cols_of(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static void print_cells(FILE *out, enum fmt f, char c[N_COLS][CELL], const int *w)
{
	int last = N_COLS - 1;

	if (f == FMT_MD) {
		for (int k = 0; k < N_COLS; k++)
			fprintf(out, "| %s ", c[k]);
		fputs("|\n", out);
		return;
	}
	while (last > 0 && !c[last][0])
		last--;
	for (int k = 0; k <= last; k++) {
		fputs("  ", out);
		render_pad(out, c[k], k < last ? w[k] : 0);
	}
	fputc('\n', out);
}

/* The table: text columns as wide as their widest cell, or Markdown. */
static void print_table(FILE *out, enum fmt f, const struct explain_case *x)
{
	char c[N_COLS][CELL];
	int w[N_COLS] = { 0 };

	for (size_t i = 0; i <= x->n + 1; i++) {
		line_cells(x, i, c);
		for (int k = 0; k < N_COLS; k++)
			if (cols_of(c[k]) > w[k])
				w[k] = cols_of(c[k]);
	}
	for (size_t i = 0; i <= x->n + 1; i++) {
		line_cells(x, i, c);
		print_cells(out, f, c, w);
		if (i == 0 && f == FMT_MD)
			fputs("| --- | ---: | ---: | --- | --- | ---: |\n", out);
	}
}

/* ---- the summary: where each side wins ---- */

/* The rows won by w, "QD1 p99 latency (2.2× faster), …"; returns how many. */
static size_t print_wins(FILE *out, const struct explain_case *x, enum explain_winner w)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n; i++) {
		const struct explain_row *r = &x->rows[i];
		char ratio[CELL];

		if (r->winner != w)
			continue;
		fputs(n++ ? ", " : " ", out);
		if (w == EXPLAIN_TIE || w == EXPLAIN_UNKNOWN) {
			fputs(r->brief, out);
			continue;
		}
		ratio_for(ratio, sizeof(ratio), r, w == EXPLAIN_B);	/* the winner's view */
		fprintf(out, "%s (%s)", r->brief, ratio);
	}
	return n;
}

/* The measurements behind the rows won by w, each once ("rand_read_qd1,
 * seq_read"): one figure counted as several wins shows here as one. */
static size_t sources(const struct explain_case *x, enum explain_winner w, char *buf, size_t len)
{
	size_t n = 0, at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < x->n; i++) {
		bool seen = false;

		if (x->rows[i].winner != w)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = x->rows[j].winner == w &&
			       !strcmp(x->rows[j].source, x->rows[i].source);
		if (seen)
			continue;
		n++;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
					       x->rows[i].source);
	}
	return n;
}

static bool any_row(const struct explain_case *x, enum explain_winner w)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->rows[i].winner == w)
			return true;
	return false;
}

static void print_summary(FILE *out, enum fmt f, const struct explain_case *x)
{
	const char *item = f == FMT_MD ? "- " : "";
	const char *bold = f == FMT_MD ? "**" : "";

	fputc('\n', out);
	for (enum explain_winner w = EXPLAIN_A; w <= EXPLAIN_B; w++) {
		char src[256];
		size_t k = sources(x, w, src, sizeof(src));

		fprintf(out, "%s%sWhere %s wins:%s", item, bold, id_of(x, w), bold);
		if (!print_wins(out, x, w))
			fputs(" nothing among these figures", out);
		else
			fprintf(out, " — %zu measurement%s (%s)", k, k == 1 ? "" : "s", src);
		fputs(".\n", out);
	}
	if (any_row(x, EXPLAIN_TIE)) {
		fprintf(out, "%s%sEven (within 1 %%):%s", item, bold, bold);
		print_wins(out, x, EXPLAIN_TIE);
		fputs(".\n", out);
	}
	if (any_row(x, EXPLAIN_UNKNOWN)) {
		fprintf(out, "%s%sNot compared (not measured on one side or both):%s", item,
			bold, bold);
		print_wins(out, x, EXPLAIN_UNKNOWN);
		fputs(".\n", out);
	}
}

/* ---- what it means ---- */

static void print_meaning(FILE *out, const struct explain_case *x)
{
	const struct model_score *a = x->a, *b = x->b;
	const char *ia = a->dev->id, *ib = b->dev->id;

	fputc('\n', out);
	if (a->eligible != b->eligible) {
		const struct model_score *out_ = a->eligible ? b : a;

		fprintf(out, "%s is excluded from %s: %s.  ", out_->dev->id,
			x->policy->name, out_->failed[0].msg);
	}
	fprintf(out, "For %s (%s), %s %s %s", x->policy->name, x->policy->tier, ia,
		verdict(x), ib);
	if (x->decisive >= 0) {
		const struct explain_row *r = &x->rows[x->decisive];
		char va[48], vb[48], ratio[CELL];

		value_cell(va, sizeof(va), r->a, r->unit);
		value_cell(vb, sizeof(vb), r->b, r->unit);
		render_explain_ratio(ratio, sizeof(ratio), r);
		fprintf(out, " mostly on %s (weight %g): %s against %s (%s)", r->brief,
			r->weight, va, vb, ratio);
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
	if (x->same_serial)
		fprintf(out, "\n%s and %s carry the same serial number: one device measured "
			"twice ('tierwise compare' puts two runs side by side).\n", ia, ib);
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
	char a[32], b[32], f[32];

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
	if (idle <= 0 || busy <= 0) {
		fprintf(out, "p99 %s → %s under writes on %s", a, b, d->id);
		return;
	}
	factor_text(f, sizeof(f), fmax(busy, idle) / fmin(busy, idle));
	fprintf(out, "p99 %s → %s under writes on %s (%s× %s)", a, b, d->id, f,
		busy >= idle ? "slower" : "faster");
}

/* When the policy weighs the reads under writes: idle and under-write p99
 * of both devices side by side. */
static void print_under_write(FILE *out, const struct explain_case *x)
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

/* What one estimate gives on the first device against the second. */
static void money_estimate(FILE *out, const struct model_score_estimate *ea,
			   const struct model_score_estimate *eb, bool first)
{
	char va[48], vb[48], dv[48], f[32];
	bool faster = ea->value <= eb->value;

	value_cell(va, sizeof(va), ea->value, ea->unit);
	value_cell(vb, sizeof(vb), eb->value, eb->unit);
	value_cell(dv, sizeof(dv), fabs(ea->value - eb->value), ea->unit);
	factor_text(f, sizeof(f), fmax(ea->value, eb->value) / fmin(ea->value, eb->value));
	fprintf(out, "%s %s in %s instead of %s (%s× %s, %s %s each)", first ? "" : ";",
		ea->pe->label ? ea->pe->label : "the estimate", va, vb, f,
		faster ? "faster" : "slower", dv, faster ? "less" : "more");
}

/* With prices for both: what the first costs per TB against the second, and
 * what the difference buys in the policy's own terms (its estimates). */
static void print_money(FILE *out, const struct explain_case *x)
{
	const struct profile_device *da = x->a->dev, *db = x->b->dev;
	double pa = da->price_per_tb, pb = db->price_per_tb;
	char a[32], b[32], d[32], f[32], wa[32], wb[32];
	size_t n = 0;

	if (isnan(pa) || isnan(pb))
		return;
	render_value(a, sizeof(a), pa, NULL);
	render_value(b, sizeof(b), pb, NULL);
	render_value(d, sizeof(d), fabs(pa - pb), NULL);
	render_value(wa, sizeof(wa), model_device_price(da), NULL);
	render_value(wb, sizeof(wb), model_device_price(db), NULL);
	if (pa > 0 && pb > 0 && pa != pb) {
		factor_text(f, sizeof(f), fmax(pa, pb) / fmin(pa, pb));
		snprintf(f + strlen(f), sizeof(f) - strlen(f), "× %s",
			 pa > pb ? "more expensive" : "cheaper");
	} else {
		snprintf(f, sizeof(f), pa == pb ? "the same" : "-");
	}
	fprintf(out, "\nMoney: %s costs %s per TB, %s %s (%s); a whole %s %s, a whole %s %s.",
		da->id, a, db->id, b, f, da->id, wa, db->id, wb);
	if (pa > pb)
		fprintf(out, "  Per TB, the %s more for %s buys:", d, da->id);
	else if (pa < pb)
		fprintf(out, "  Per TB, %s saves %s and gives:", da->id, d);
	else
		fprintf(out, "  The same price per TB, for:");
	for (size_t k = 0; k < x->a->n_est; k++) {
		const struct model_score_estimate *ea = &x->a->est[k], *eb = &x->b->est[k];

		if (isnan(ea->value) || isnan(eb->value) || ea->value <= 0 || eb->value <= 0)
			continue;
		money_estimate(out, ea, eb, !n++);
	}
	fputs(".\n", out);
}

/* ---- text and Markdown ---- */

static int print_people(FILE *out, enum fmt f, const struct explain_case *x)
{
	char line[512];

	if (x->a == x->b) {	/* one line, in every format */
		same_device_line(line, sizeof(line), x);
		fprintf(out, "%s\n", line);
		return ferror(out) ? -EIO : 0;
	}
	if (f == FMT_MD)
		fputs("### ", out);
	fprintf(out, "%s vs %s for %s (%s)\n", x->a->dev->id, x->b->dev->id,
		x->policy->name, x->policy->tier);
	if (f == FMT_MD)
		fputc('\n', out);
	print_table(out, f, x);
	print_summary(out, f, x);
	print_meaning(out, x);
	print_under_write(out, x);
	print_money(out, x);
	return ferror(out) ? -EIO : 0;
}

static int print_text(FILE *out, const struct explain_case *x)
{
	return print_people(out, FMT_TEXT, x);
}

static int print_md(FILE *out, const struct explain_case *x)
{
	return print_people(out, FMT_MD, x);
}

const struct explain_render_ops explain_render_text = { .name = "text", .print = print_text };
const struct explain_render_ops explain_render_md = { .name = "md", .print = print_md };

/* ---- tierwise.explain/1 JSON ---- */

/* A number, or null when unknown (JSON has no NaN). */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A string, or null. */
static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static const char *const winner_names[] = {
	[EXPLAIN_UNKNOWN] = NULL, [EXPLAIN_A] = "a", [EXPLAIN_B] = "b", [EXPLAIN_TIE] = "tie",
};

static const char *const kind_names[] = {
	[EXPLAIN_POLICY] = "policy", [EXPLAIN_CONTEXT] = "context",
	[EXPLAIN_PRICE] = "price", [EXPLAIN_ESTIMATE] = "estimate",
};

static json_t *json_side(const struct model_score *s)
{
	return json_pack("{s:s, s:s?, s:b, s:o, s:o}", "id", s->dev->id, "model", s->dev->model,
			 "eligible", s->eligible, "score",
			 jnum(s->eligible ? s->score : NAN), "confidence", jnum(s->confidence));
}

static json_t *json_row(const struct explain_case *x, const struct explain_row *r)
{
	char label[CELL], ratio[CELL];

	render_explain_label(label, sizeof(label), r);
	render_explain_ratio(ratio, sizeof(ratio), r);
	return json_pack("{s:s, s:s, s:s, s:s, s:s?, s:s, s:o, s:o, s:o, s:o, s:o, s:s, s:o, "
			 "s:o, s:o, s:s}",
			 "metric", r->metric, "label", label, "brief", r->brief,
			 "kind", kind_names[r->kind], "unit", r->unit,
			 "better", model_better_name(r->better), "a", jnum(r->a), "b", jnum(r->b),
			 "ratio", jnum(r->b != 0 ? r->a / r->b : NAN),
			 "factor", jnum(r->winner == EXPLAIN_TIE ? 1 : r->factor),
			 "a_is", jstr(a_is(r)), "ratio_text", ratio,
			 "winner", jstr(winner_names[r->winner]),
			 "winner_id", jstr(id_of(x, r->winner)), "weight", jnum(r->weight),
			 "source", r->source);
}

/* The metrics of the rows won by w. */
static json_t *json_wins(const struct explain_case *x, enum explain_winner w)
{
	json_t *v = json_array();

	for (size_t i = 0; v && i < x->n; i++)
		if (x->rows[i].winner == w)
			json_array_append_new(v, json_string(x->rows[i].metric));
	return v;
}

static json_t *json_doc(const struct explain_case *x)
{
	json_t *rows = json_array();
	char line[512] = "";

	for (size_t i = 0; rows && i < x->n; i++)
		json_array_append_new(rows, json_row(x, &x->rows[i]));
	if (x->a == x->b)
		same_device_line(line, sizeof(line), x);
	return json_pack("{s:s, s:s, s:s, s:b, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:{s:o, s:o, "
			 "s:o, s:o}}",
			 "schema", "tierwise.explain/1", "policy", x->policy->name,
			 "tier", x->policy->tier, "same_device", x->a == x->b,
			 "same_serial", x->same_serial, "message", jstr(x->a == x->b ? line : NULL),
			 "a", json_side(x->a), "b", json_side(x->b),
			 "verdict", jstr(x->a == x->b ? NULL : verdict(x)),
			 "decisive", jstr(x->decisive >= 0 ? x->rows[x->decisive].metric : NULL),
			 "rows", rows, "wins", "a", json_wins(x, EXPLAIN_A),
			 "b", json_wins(x, EXPLAIN_B), "tie", json_wins(x, EXPLAIN_TIE),
			 "unknown", json_wins(x, EXPLAIN_UNKNOWN));
}

static int print_json(FILE *out, const struct explain_case *x)
{
	json_t *doc = json_doc(x);
	int ret;

	if (!doc)
		return -ENOMEM;
	json_object_set_new(doc, "policies_from",
			    x->policies_from ? json_string(x->policies_from) : json_null());
	ret = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
	return ret || ferror(out) ? -EIO : 0;
}

const struct explain_render_ops explain_render_json = { .name = "json", .print = print_json };
