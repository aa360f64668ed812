/* Usage errors, said one way by every command (cli.h). */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "policy.h"
#include "score.h"
#include "tw_util.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tierwise%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'tierwise %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return TW_EXIT_USAGE;
}

const char *cli_nearest(const char *s, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t d, best_d = strlen(s) / 3 + 2, starts = 0;	/* close enough to be a typo */

	for (size_t i = 0; i < n; i++)	/* "optane" for "optane905p": a unique prefix */
		if (names[i] && *s && !strncmp(names[i], s, strlen(s)) && ++starts)
			best = names[i];
	if (starts == 1)
		return best;
	best = NULL;
	for (size_t i = 0; i < n; i++)
		if (names[i] && (d = tw_edit_distance(s, names[i])) < best_d) {
			best_d = d;
			best = names[i];
		}
	return best;
}

int cli_bad_option(const char *cmd, int ch, char **argv, const struct option *opts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const char *names[64];
	char name[64];
	size_t n = 0, len;

	if (arg[0] == '-' && arg[1] == '-') {
		len = strcspn(arg + 2, "=");
		snprintf(name, sizeof(name), "%.*s", (int)len, arg + 2);
		for (const struct option *o = opts; o && o->name && n < 64; o++) {
			if (!strcmp(o->name, name) && o->has_arg == required_argument)
				return cli_usage_error(cmd, "option '--%s' needs a value", name);
			if (!strcmp(o->name, name) && o->has_arg == no_argument)
				return cli_usage_error(cmd, "option '--%s' takes no value", name);
			names[n++] = o->name;
		}
		const char *near = cli_nearest(name, names, n);

		if (near)
			return cli_usage_error(cmd, "unknown option '--%s'; did you mean '--%s'?",
					       name, near);
		return cli_usage_error(cmd, "unknown option '--%s'", name);
	}
	if (ch == ':' && optopt)
		return cli_usage_error(cmd, "option '-%c' needs a value", optopt);
	if (optopt)
		return cli_usage_error(cmd, "unknown option '-%c'", optopt);
	return cli_usage_error(cmd, "unknown option '%s'", arg);
}

void cli_deprecated(const char *cmd, const char *old, const char *now)
{
	fprintf(stderr, "tierwise%s%s: %s is deprecated: use %s (the old spelling goes in the "
		"next release)\n", cmd ? " " : "", cmd ? cmd : "", old, now);
}

int cli_pick_format(const char *cmd, const char *arg, const char *const *names, size_t n)
{
	char list[256] = "";
	size_t at = 0;
	const char *near;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(arg, names[i]))
			return (int)i;
	for (size_t i = 0; i < n && at < sizeof(list); i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "", names[i]);
	near = cli_nearest(arg, names, n);
	if (near)
		cli_usage_error(cmd, "--format %s: unknown format; did you mean '%s'? (%s)", arg,
				near, list);
	else
		cli_usage_error(cmd, "--format %s: unknown format (%s)", arg, list);
	return -1;
}

/* "name", names listed and the nearest one, for "no X named Y" messages. */
static void no_such(const char *cmd, const char *what, const char *whats, const char *name,
		    const char *const *names, size_t n)
{
	char list[1024] = "";
	size_t at = 0;
	const char *near = cli_nearest(name, names, n);

	for (size_t i = 0; i < n && at < sizeof(list); i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "", names[i]);
	fprintf(stderr, "tierwise %s: no %s \"%s\"%s%s%s; the %s are: %s\n", cmd, what, name,
		near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "", whats,
		n ? list : "(none)");
}

void cli_no_policy(const char *cmd, const struct model_policy_set *set, const char *name)
{
	const char *names[64];
	size_t n = 0;

	for (size_t i = 0; i < set->n && n < ARRAY_SIZE(names); i++)
		names[n++] = set->v[i]->name;
	no_such(cmd, "policy", "policies", name, names, n);
}

void cli_no_device(const char *cmd, const struct model_ranking *r, const char *id)
{
	const char **names = calloc(r->n ? r->n : 1, sizeof(*names));

	if (!names)
		return;
	for (size_t i = 0; i < r->n; i++)
		names[i] = r->v[i].dev->id;
	no_such(cmd, "device", "devices", id, names, r->n);
	free(names);
}
