/* tierwise list — the device inventory with safety verdicts. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tw_util.h"

static void list_usage(FILE *out)
{
	fputs("Usage: tierwise list [--format text|json] [-o FILE] [--sysroot DIR]\n\n"
	      "Every block device: transport, media, size, identity, signatures,\n"
	      "mounts, holders, and whether it is safe to probe read-only and safe\n"
	      "for destructive (write) tests, with the reasons when it is not.\n\n"
	      "  --format F     text (default) or json (schema tierwise.inventory/1)\n"
	      "  -o FILE        write to FILE (atomically) instead of standard output\n"
	      "  --sysroot DIR  read /sys, /proc and /dev under DIR\n\n"
	      "Example: tierwise list --format json | jq '.devices[] | select(.safe_destructive.ok)'\n",
	      out);
}

static int list_run(int argc, char **argv, struct tw_global *g)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "sysroot", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const formats[] = { "text", "json" };
	const struct list_render_ops *r = &list_render_text;
	const char *output = NULL;
	struct cli_output out;
	int c, f, rc;

	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			cli_deprecated("list", "--json", "--format json");
			r = &list_render_json;
			break;
		case 'F':
			if ((f = cli_pick_format("list", optarg, formats, ARRAY_SIZE(formats))) < 0)
				return TW_EXIT_USAGE;
			r = f ? &list_render_json : &list_render_text;
			break;
		case 'o': output = optarg; break;
		case 's': g->sysroot = optarg; break;
		case 'h': list_usage(stdout); return TW_EXIT_OK;
		default: return cli_bad_option("list", c, argv, opts);
		}
	}
	if (optind < argc)
		return cli_usage_error("list", "unexpected argument '%s'", argv[optind]);
	if (cli_check_sysroot("list", g->sysroot))
		return TW_EXIT_SYSTEM;
	rc = cli_output_open(&out, "list", output);
	if (rc == TW_EXIT_OK)
		rc = cli_output_close(&out, cli_list_print(g, r, stdout));
	return rc;
}

const struct tw_command tw_cmd_list = {
	.name = "list",
	.summary = "inventory of block devices with safety verdicts",
	.run = list_run,
	.usage = list_usage,
};
