/* Renderers of tierwise compare: text and Markdown tables for people, and
 * tierwise.compare/1 JSON (docs/compare.md). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "compare.h"

enum fmt { FMT_TEXT, FMT_MD };

/* ---- cells ---- */

/* A number with a sign, U+2212 for minus; "0" when it rounds to 0. */
static void signed_num(char *buf, size_t len, double v, int places)
{
	double k = pow(10, places);
	double r = round(fabs(v) * k) / k;

	if (r == 0)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%s%.*f", v > 0 ? "+" : "\u2212", places, r);
}

/* "+33,202" from 33202.4. */
static void signed_thousands(char *buf, size_t len, double v)
{
	char digits[24];

	render_value(digits, sizeof(digits), fabs(v), NULL);
	snprintf(buf, len, "%s%s", v > 0 ? "+" : "\u2212", digits);
}

/* The change: "−23 %", "+0.4 %", "+10 °C", or "-" when unknown. */
static void change_cell(char *buf, size_t len, const struct compare_metric *m)
{
	double v = m->in_celsius ? m->delta : m->change_pct;
	size_t o;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (m->in_celsius)
		signed_num(buf, len, v, fabs(v - round(v)) < 0.05 ? 0 : 1);
	else if (fabs(v) >= 1000)	/* "+33,202 %" */
		signed_thousands(buf, len, v);
	else	/* one decimal near 0 and short of −100 %: "−0.4 %", "−99.9 %" */
		signed_num(buf, len, v, fabs(v) < 1 || (fabs(v) > 99 && fabs(v) < 100) ? 1 : 0);
	o = strlen(buf);
	snprintf(buf + o, len - o, m->in_celsius ? " °C" : " %%");
}

/* How one value is shown: divided by div, in unit, with places decimals
 * (-1: as score shows numbers, "83,989"). */
struct scale {
	double div;
	const char *unit;
	int places;
};

/* µs from 1,000 up in ms; bytes in TB from 1 TB, else GB. */
static struct scale scale_of(const char *unit, double v)
{
	struct scale s = { 1, unit, -1 };

	if (!strcmp(unit, "µs") && fabs(v) >= 1000)
		s = (struct scale){ 1000, "ms", 1 };
	else if (!strcmp(unit, "bytes"))
		s = fabs(v) >= 1e12 ? (struct scale){ 1e12, "TB", 1 }
				    : (struct scale){ 1e9, "GB", 0 };
	return s;
}

/* One side of a value pair: "-" when unknown. */
static void side(char *buf, size_t len, double v, struct scale s)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (s.places >= 0)
		snprintf(buf, len, "%.*f", s.places, v / s.div);
	else
		render_value(buf, len, v, NULL);
}

/* "241 → 186 MB/s", "16.3 → 25.2 ms", "49 µs → 16.3 ms", "- → 20 per TB". */
static void pair_cell(char *buf, size_t len, const struct compare_metric *m)
{
	struct scale sb = scale_of(m->desc->unit, isnan(m->before) ? m->after : m->before);
	struct scale sa = scale_of(m->desc->unit, isnan(m->after) ? m->before : m->after);
	char b[32], a[32];

	side(b, sizeof(b), m->before, sb);
	side(a, sizeof(a), m->after, sa);
	if (!strcmp(sb.unit, sa.unit))
		snprintf(buf, len, "%s → %s %s", b, a, sa.unit);
	else
		snprintf(buf, len, "%s %s → %s %s", b, sb.unit, a, sa.unit);
}

static void score_side(char *buf, size_t len, const struct model_score *s)
{
	if (isnan(s->score))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", s->score);
}

static void scores_cell(char *buf, size_t len, const struct compare_policy *cp)
{
	char b[16], a[16];

	score_side(b, sizeof(b), &cp->before);
	score_side(a, sizeof(a), &cp->after);
	snprintf(buf, len, "%s → %s", b, a);
}

/* Append text to buf, after sep unless buf is empty (truncating). */
static void join(char *buf, size_t len, const char *sep, const char *text)
{
	size_t o = strlen(buf);

	snprintf(buf + o, len - o, "%s%s", o ? sep : "", text);
}

/* Eligibility changes, lasting exclusion, a change of confidence. */
static void policy_note(char *buf, size_t len, const struct compare_policy *cp)
{
	char part[160];

	buf[0] = '\0';
	for (size_t i = 0; i < cp->n_now_fails; i++) {
		snprintf(part, sizeof(part), "now fails %s: %s", cp->now_fails[i]->key,
			 cp->now_fails[i]->msg);
		join(buf, len, "; ", part);
	}
	for (size_t i = 0; i < cp->n_now_passes; i++) {
		snprintf(part, sizeof(part), "now passes %s", cp->now_passes[i]->key);
		join(buf, len, "; ", part);
	}
	if (!cp->before.eligible && !cp->after.eligible && !cp->n_now_fails &&
	    !cp->n_now_passes) {
		snprintf(part, sizeof(part), "excluded before and after (%s)",
			 cp->after.failed[0].key);
		join(buf, len, "; ", part);
	}
	if (fabs(cp->before.confidence - cp->after.confidence) >= 0.005) {
		snprintf(part, sizeof(part), "confidence %.2f → %.2f", cp->before.confidence,
			 cp->after.confidence);
		join(buf, len, "; ", part);
	}
}

/* "Seagate IronWolf 12TB, firmware SN04, serial ZL0..., /dev/sda". */
static void device_cell(char *buf, size_t len, const struct profile_device *d)
{
	char part[160];

	snprintf(buf, len, "%s", d->model ? d->model : d->id);
	if (d->firmware) {
		snprintf(part, sizeof(part), "firmware %s", d->firmware);
		join(buf, len, ", ", part);
	}
	if (d->serial) {
		snprintf(part, sizeof(part), "serial %s", d->serial);
		join(buf, len, ", ", part);
	}
	if (d->path)
		join(buf, len, ", ", d->path);
}

/* ---- table lines ---- */


/* Markdown: escape the table separator. */
static void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* One table line: text columns of the given widths, or a Markdown row. */
static void line(FILE *out, enum fmt f, const char *const *cell, const int *w, int n)
{
	int last = n - 1;

	while (f == FMT_TEXT && last > 0 && !*cell[last])
		last--;
	for (int i = 0; i <= last; i++) {
		if (f == FMT_MD) {
			fputs("| ", out);
			md_text(out, cell[i]);
			fputc(' ', out);
			continue;
		}
		fputs("  ", out);
		render_pad(out, cell[i], i < last ? w[i] : 0);
	}
	fputs(f == FMT_MD ? "|\n" : "\n", out);
}

/* ---- text and Markdown ---- */

/* How the pair was found, in words; capital for a sentence. */
static const char *paired_as(enum compare_match by, bool capital)
{
	static const char *const words[2][4] = {
		{ "a swap", "paired by serial", "paired by id", "paired by path" },
		{ "A swap", "Paired by serial", "Paired by id", "Paired by path" },
	};

	return (unsigned)by < 4 ? words[capital][by] : "paired";
}

static void print_head(FILE *out, enum fmt f, const struct compare_pair *pr)
{
	char b[512], a[512];

	device_cell(b, sizeof(b), pr->before);
	device_cell(a, sizeof(a), pr->after);
	if (f == FMT_TEXT) {
		fprintf(out, "%s → %s (%s)\n  before: %s\n  after:  %s\n\n", pr->before->id,
			pr->after->id, paired_as(pr->by, false), b, a);
		return;
	}
	fprintf(out, "## %s → %s\n\n%s.  Before: ", pr->before->id, pr->after->id,
		paired_as(pr->by, true));
	md_text(out, b);
	fputs(".  After: ", out);
	md_text(out, a);
	fputs(".\n\n", out);
}

static void print_metrics(FILE *out, enum fmt f, const struct compare_pair *pr)
{
	static const int w[] = { 18, 26, 9, 0 };
	static const char *const head[] = { "metric", "before → after", "change", "verdict" };
	static const char *const md_head[] = { "metric", "path", "before → after", "change",
					       "verdict" };

	if (f == FMT_MD) {
		line(out, f, md_head, NULL, 5);
		fputs("| --- | --- | ---: | ---: | --- |\n", out);
	} else {
		line(out, f, head, w, 4);
	}
	for (size_t i = 0; i < pr->n_metrics; i++) {
		const struct compare_metric *m = &pr->metrics[i];
		char path[80], pair[96], change[48];
		const char *dir = m->dir == CMP_UNKNOWN ? "" : compare_dir_name(m->dir);
		const char *text[] = { m->label, pair, change, dir };
		const char *md[] = { m->label, path, pair, change, dir };

		snprintf(path, sizeof(path), "`%s`", m->desc->path);
		pair_cell(pair, sizeof(pair), m);
		change_cell(change, sizeof(change), m);
		if (f == FMT_MD)
			line(out, f, md, NULL, 5);
		else
			line(out, f, text, w, 4);
	}
}

static void print_policies(FILE *out, enum fmt f, const struct compare_pair *pr)
{
	static const int w[] = { 15, 5, 21, 8, 0 };
	const char *head[] = { "policy", "tier", "score before → after", "verdict",
			       f == FMT_MD ? "notes" : "" };

	fputc('\n', out);
	line(out, f, head, w, 5);
	if (f == FMT_MD)
		fputs("| --- | --- | ---: | --- | --- |\n", out);
	for (size_t i = 0; i < pr->n_policies; i++) {
		const struct compare_policy *cp = &pr->policies[i];
		char scores[48], note[512];
		const char *cell[] = { cp->policy->name, cp->policy->tier, scores,
				       compare_dir_name(cp->verdict), note };

		scores_cell(scores, sizeof(scores), cp);
		policy_note(note, sizeof(note), cp);
		line(out, f, cell, w, 5);
	}
}

/* "only before: a (model), b (model)" */
static void print_only(FILE *out, enum fmt f, const char *what,
		       const struct profile_device *const *d, size_t n)
{
	if (!n)
		return;
	fprintf(out, f == FMT_MD ? "\n**%s:** " : "\n%s: ", what);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, f == FMT_MD ? "%s`%s`" : "%s%s", i ? ", " : "", d[i]->id);
		if (!d[i]->model)
			continue;
		fputs(" (", out);
		if (f == FMT_MD)
			md_text(out, d[i]->model);
		else
			fputs(d[i]->model, out);
		fputc(')', out);
	}
	fputc('\n', out);
}

static void print_all(FILE *out, enum fmt f, const struct compare *c)
{
	for (size_t i = 0; i < c->n_pairs; i++) {
		if (i)
			fputc('\n', out);
		print_head(out, f, &c->pairs[i]);
		print_metrics(out, f, &c->pairs[i]);
		print_policies(out, f, &c->pairs[i]);
	}
	if (!c->n_pairs)
		fputs("no device of BEFORE pairs with one of AFTER\n", out);
	print_only(out, f, f == FMT_MD ? "Only before" : "only before", c->only_before,
		   c->n_only_before);
	print_only(out, f, f == FMT_MD ? "Only after" : "only after", c->only_after,
		   c->n_only_after);
}

static void text_print(FILE *out, const struct compare *c)
{
	print_all(out, FMT_TEXT, c);
}

static void md_print(FILE *out, const struct compare *c)
{
	print_all(out, FMT_MD, c);
}

const struct compare_render_ops compare_render_text = { .name = "text", .print = text_print };
const struct compare_render_ops compare_render_md = { .name = "md", .print = md_print };

/* ---- JSON: tierwise.compare/1 ---- */

/* A number, or null when not known; rounded to `places` decimals. */
static json_t *num(double v, int places)
{
	double k = pow(10, places);

	return isfinite(v) ? json_real(round(v * k) / k) : json_null();
}

/* true better, false worse, null same or not comparable. */
static json_t *better(enum compare_dir d)
{
	return d == CMP_BETTER ? json_true() : d == CMP_WORSE ? json_false() : json_null();
}

static json_t *json_metrics(const struct compare_pair *pr)
{
	json_t *a = json_array();

	for (size_t i = 0; i < pr->n_metrics; i++) {
		const struct compare_metric *m = &pr->metrics[i];

		json_array_append_new(a, json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o}",
			"path", m->desc->path, "unit", m->desc->unit,
			"before", num(m->before, 3), "after", num(m->after, 3),
			"delta", num(m->delta, 3), "change_pct", num(m->change_pct, 1),
			"better", better(m->dir)));
	}
	return a;
}

static json_t *json_keys(const struct model_failure *const *f, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(f[i]->key));
	return a;
}

static json_t *json_policy(const struct compare_policy *cp)
{
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:b, s:b, s:o, s:o, s:s}",
		"name", cp->policy->name, "tier", cp->policy->tier,
		"before", num(cp->before.score, 2), "after", num(cp->after.score, 2),
		"delta", num(cp->after.score - cp->before.score, 2),
		"eligible_before", cp->before.eligible, "eligible_after", cp->after.eligible,
		"now_fails", json_keys(cp->now_fails, cp->n_now_fails),
		"now_passes", json_keys(cp->now_passes, cp->n_now_passes),
		"verdict", compare_dir_name(cp->verdict));
}

static json_t *json_pair(const struct compare_pair *pr)
{
	json_t *pols = json_array();

	for (size_t i = 0; i < pr->n_policies; i++)
		json_array_append_new(pols, json_policy(&pr->policies[i]));
	return json_pack("{s:s, s:s, s:s, s:o, s:o}", "before", pr->before->id,
			 "after", pr->after->id, "paired_by", compare_match_name(pr->by),
			 "metrics", json_metrics(pr), "policies", pols);
}

static json_t *json_ids(const struct profile_device *const *d, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(d[i]->id));
	return a;
}

static void json_print(FILE *out, const struct compare *c)
{
	json_t *pairs = json_array();
	json_t *root;

	for (size_t i = 0; i < c->n_pairs; i++)
		json_array_append_new(pairs, json_pair(&c->pairs[i]));
	root = json_pack("{s:s, s:o, s:o, s:o}", "schema", "tierwise.compare/1",
			 "pairs", pairs, "only_before", json_ids(c->only_before, c->n_only_before),
			 "only_after", json_ids(c->only_after, c->n_only_after));
	json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	fputc('\n', out);
	json_decref(root);
}

const struct compare_render_ops compare_render_json = { .name = "json", .print = json_print };
