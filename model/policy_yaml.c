/* YAML text to a bounded tree with libyaml's event parser.
 *
 * Events are consumed one at a time and containers are tracked on a fixed
 * stack, so nothing here recurses on the input.  Anchors, aliases and tags
 * are refused (a billion-laughs file stops at its first anchor), as are
 * documents nested deeper than POLICY_MAX_DEPTH or larger than
 * POLICY_MAX_NODES nodes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "policy_priv.h"

struct builder {
	const char *text, *file;
	size_t len;
	struct tw_diags *d;
	struct pnode *root;
	struct pnode *open[POLICY_MAX_DEPTH];
	int depth;
	size_t nodes;
	int docs;
	bool done;
};

void pnode_free(struct pnode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++)
		pnode_free(n->kids[i]);
	free(n->kids);
	free(n->text);
	free(n);
}

static int fail_at(struct builder *b, yaml_mark_t m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One diagnostic at a libyaml mark (0-based); returns -EINVAL or -ENOMEM. */
static int fail_at(struct builder *b, yaml_mark_t m, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (tw_diags_add(b->d, b->file, (int)m.line + 1, (int)m.column + 1, NULL,
			 "%s", msg) < 0)
		return -ENOMEM;
	return -EINVAL;
}

/*
 * The mark (0-based line, column in characters, as libyaml counts) of a
 * byte offset: reader errors (bad UTF-8, control characters) carry no mark.
 */
static yaml_mark_t mark_of_offset(const struct builder *b, size_t off)
{
	yaml_mark_t m = { 0, 0, 0 };

	for (size_t i = 0; i < off && i < b->len; i++) {
		const unsigned char ch = (unsigned char)b->text[i];

		if (ch == '\n') {
			m.line++;
			m.column = 0;
		} else if ((ch & 0xc0) != 0x80) {	/* not a UTF-8 continuation byte */
			m.column++;
		}
	}
	return m;
}

static int syntax_error(struct builder *b, const yaml_parser_t *p)
{
	char msg[256];
	yaml_mark_t m = p->problem_mark;
	const char *problem = p->problem ? p->problem : "unknown problem";

	if (p->error == YAML_MEMORY_ERROR)
		return -ENOMEM;
	if (p->error == YAML_READER_ERROR) {
		m = mark_of_offset(b, p->problem_offset);
		snprintf(msg, sizeof(msg), "not valid YAML text: %s", problem);
	} else if (p->context) {
		snprintf(msg, sizeof(msg), "YAML syntax error: %s (%s at line %zu, column %zu)",
			 problem, p->context, p->context_mark.line + 1,
			 p->context_mark.column + 1);
	} else {
		snprintf(msg, sizeof(msg), "YAML syntax error: %s", problem);
	}
	return fail_at(b, m, "%s", msg);
}

/* Append kid to parent's children.  Returns 0 or -ENOMEM. */
static int add_kid(struct pnode *parent, struct pnode *kid)
{
	if (parent->n == parent->cap) {
		size_t cap = parent->cap ? parent->cap * 2 : 8;
		struct pnode **v = realloc(parent->kids, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		parent->kids = v;
		parent->cap = cap;
	}
	parent->kids[parent->n++] = kid;
	return 0;
}

/*
 * A new node at ev's start mark, attached to the open container (or root).
 * Returns 0 with *out set, or -EINVAL (too many nodes) / -ENOMEM with *out NULL.
 */
static int new_node(struct builder *b, const yaml_event_t *ev,
		    enum pnode_kind kind, struct pnode **out)
{
	struct pnode *n;

	*out = NULL;
	if (++b->nodes > POLICY_MAX_NODES)
		return fail_at(b, ev->start_mark, "document too large (more than %d nodes)",
			       POLICY_MAX_NODES);
	if (!(n = calloc(1, sizeof(*n))))
		return -ENOMEM;
	n->kind = kind;
	n->line = (int)ev->start_mark.line + 1;
	n->col = (int)ev->start_mark.column + 1;
	if (b->depth == 0) {
		b->root = n;
	} else if (add_kid(b->open[b->depth - 1], n) < 0) {
		free(n);
		return -ENOMEM;
	}
	*out = n;
	return 0;
}

/* Anchors and tags are refused wherever they appear. */
static int check_props(struct builder *b, const yaml_event_t *ev,
		       const yaml_char_t *anchor, const yaml_char_t *tag)
{
	if (anchor)
		return fail_at(b, ev->start_mark,
			       "anchors and aliases are not allowed (&%s)",
			       (const char *)anchor);
	if (tag)
		return fail_at(b, ev->start_mark,
			       "tags are not allowed (%s); quote a value to make it a string",
			       (const char *)tag);
	return 0;
}

static int on_scalar(struct builder *b, const yaml_event_t *ev)
{
	const size_t len = ev->data.scalar.length;
	struct pnode *n;
	int ret = check_props(b, ev, ev->data.scalar.anchor, ev->data.scalar.tag);

	if (ret < 0 || (ret = new_node(b, ev, PN_SCALAR, &n)) < 0)
		return ret;
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	if (!(n->text = malloc(len + 1)))
		return -ENOMEM;
	memcpy(n->text, ev->data.scalar.value, len);
	n->text[len] = '\0';
	if (strlen(n->text) != len)
		return fail_at(b, ev->start_mark, "%s", "a value contains a NUL character");
	return 0;
}

static int on_open(struct builder *b, const yaml_event_t *ev, enum pnode_kind kind,
		   const yaml_char_t *anchor, const yaml_char_t *tag)
{
	struct pnode *n;
	int ret = check_props(b, ev, anchor, tag);

	if (ret < 0)
		return ret;
	if (b->depth == POLICY_MAX_DEPTH)
		return fail_at(b, ev->start_mark, "nested deeper than %d levels",
			       POLICY_MAX_DEPTH);
	if ((ret = new_node(b, ev, kind, &n)) < 0)
		return ret;
	b->open[b->depth++] = n;
	return 0;
}

static int on_event(struct builder *b, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (b->docs++)
			return fail_at(b, ev->start_mark, "%s",
				       "a policy file holds one document "
				       "(found a second '---')");
		return 0;
	case YAML_ALIAS_EVENT:
		return fail_at(b, ev->start_mark, "anchors and aliases are not allowed (*%s)",
			       (const char *)ev->data.alias.anchor);
	case YAML_SCALAR_EVENT:
		return on_scalar(b, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_open(b, ev, PN_SEQ, ev->data.sequence_start.anchor,
			       ev->data.sequence_start.tag);
	case YAML_MAPPING_START_EVENT:
		return on_open(b, ev, PN_MAP, ev->data.mapping_start.anchor,
			       ev->data.mapping_start.tag);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (b->depth > 0)
			b->depth--;
		return 0;
	case YAML_STREAM_END_EVENT:
		b->done = true;
		return 0;
	default:
		return 0;
	}
}

int policy_yaml_load(const char *text, size_t len, const char *file,
		     struct pnode **root, struct tw_diags *d)
{
	struct builder b = { .text = text, .file = file, .len = len, .d = d };
	yaml_parser_t p;
	yaml_event_t ev;
	int ret = 0;

	*root = NULL;
	if (len > POLICY_MAX_BYTES) {
		yaml_mark_t m = { 0, 0, 0 };

		return fail_at(&b, m, "%s", "larger than 1 MiB: not a policy file");
	}
	if (!yaml_parser_initialize(&p))
		return -ENOMEM;
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (!ret && !b.done) {
		if (!yaml_parser_parse(&p, &ev)) {
			ret = syntax_error(&b, &p);
			break;
		}
		ret = on_event(&b, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	if (ret < 0)
		pnode_free(b.root);
	else
		*root = b.root;
	return ret;
}
