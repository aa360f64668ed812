/* Usage errors, said one way by every command (cli.h). */
#include <stdarg.h>
#include <stdio.h>

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
