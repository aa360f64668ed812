/* Usage errors, said one way by every command (cli.h). */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

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

/* Edit distance of a and b (short strings: option and policy names). */
size_t cli_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], prev, cur;

	if (la >= 64 || lb >= 64)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			cur = row[j];
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	return row[lb];
}

const char *cli_nearest(const char *s, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t d, best_d = strlen(s) / 3 + 2;	/* close enough to be a typo */

	for (size_t i = 0; i < n; i++)
		if (names[i] && (d = cli_edit_distance(s, names[i])) < best_d) {
			best_d = d;
			best = names[i];
		}
	return best;
}

int cli_bad_option(const char *cmd, char **argv, const struct option *opts)
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
	if (optopt && strchr("ojhq", optopt) && arg[0] == '-' && arg[1] == optopt)
		return cli_usage_error(cmd, "option '-%c' needs a value", optopt);
	return cli_usage_error(cmd, "unknown option '%s'", arg);
}
