/* What kind of file a text is: a profile, fio output, a plan, YAML, … —
 * so that a file of the wrong kind gets one line that says so. */
#include <jansson.h>
#include <string.h>

#include "profile.h"
#include "profile_fields.h"

static const char *skip_space(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	return s;
}

/* The kind of a parsed JSON document, by its telltale keys. */
enum profile_file_kind pf_json_kind(const json_t *root)
{
	const json_t *s;
	const char *v;

	if (!json_is_object(root))
		return PROFILE_KIND_JSON;
	if (json_object_get(root, "fio version") || json_object_get(root, "client_stats"))
		return PROFILE_KIND_FIO;
	s = json_object_get(root, "schema");
	v = json_is_string(s) ? json_string_value(s) : "";
	if (!strcmp(v, PROFILE_SCHEMA))
		return PROFILE_KIND_PROFILE;
	if (!strncmp(v, "tierwise.plan/", 14))
		return PROFILE_KIND_PLAN;
	if (!strncmp(v, "tierwise.inventory/", 19))
		return PROFILE_KIND_INVENTORY;
	if (!strncmp(v, "tierwise.fleet/", 15))
		return PROFILE_KIND_FLEET;
	return PROFILE_KIND_JSON;
}

/* Whether the first line with content looks like YAML: "---", or "key:"
 * with no '=' (a price list's NAME = PRICE). */
static bool looks_yaml(const char *s, const char *end)
{
	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s)), *colon;
		size_t n;

		eol = eol ? eol : end;
		n = (size_t)(eol - s);
		if (n && *s != '#' && *s != '\r') {
			if (n >= 3 && !memcmp(s, "---", 3))
				return true;
			colon = memchr(s, ':', n);
			return colon && !memchr(s, '=', n) && !memchr(s, '\t', n) &&
			       (colon + 1 == eol || colon[1] == ' ' || colon[1] == '\r');
		}
		s = eol + 1;
	}
	return false;
}

enum profile_file_kind profile_file_kind(const char *text, size_t len)
{
	const char *end = text + len, *s = skip_space(text, end);
	enum profile_file_kind k;
	json_t *root;

	if (s == end)
		return PROFILE_KIND_EMPTY;
	if (*s != '{' && *s != '[')
		return looks_yaml(s, end) ? PROFILE_KIND_YAML : PROFILE_KIND_TEXT;
	root = json_loadb(text, len, JSON_ALLOW_NUL, NULL);
	if (!root)
		return PROFILE_KIND_JSON;
	k = pf_json_kind(root);
	json_decref(root);
	return k;
}

const char *profile_file_kind_name(enum profile_file_kind k)
{
	static const char *const names[] = {
		[PROFILE_KIND_PROFILE] = "a tierwise profile (tierwise.profile/1)",
		[PROFILE_KIND_FIO] = "fio output",
		[PROFILE_KIND_PLAN] = "a tierwise plan (tierwise.plan/1, what `tierwise plan "
				      "--format json` writes)",
		[PROFILE_KIND_INVENTORY] = "an inventory (tierwise.inventory/1, what "
					   "`tierwise list --format json` writes)",
		[PROFILE_KIND_FLEET] = "a fleet summary (tierwise.fleet/1)",
		[PROFILE_KIND_JSON] = "JSON of another kind",
		[PROFILE_KIND_YAML] = "YAML (a policy?)",
		[PROFILE_KIND_TEXT] = "plain text",
		[PROFILE_KIND_EMPTY] = "empty",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "unknown";
}
