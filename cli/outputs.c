/* Outputs more than one command writes: the node_exporter textfile
 * (probe, export) and the inventory (list, the default job). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "render_prom.h"

char *cli_textfile_path(const char *cmd, const char *dir, int *rc)
{
	struct stat st;
	char *p = NULL;

	*rc = TW_EXIT_OK;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "tierwise %s: --textfile %s: %s; nothing was written\n", cmd, dir,
			stat(dir, &st) != 0 ? strerror(errno) : "not a directory");
		*rc = TW_EXIT_USAGE;
		return NULL;
	}
	if (asprintf(&p, "%s/%s", dir, CLI_TEXTFILE_NAME) < 0) {
		*rc = TW_EXIT_SYSTEM;
		return NULL;
	}
	if ((*rc = cli_check_output(cmd, "--textfile", p))) {
		free(p);
		return NULL;
	}
	return p;
}

struct prom_out {
	const struct prom_source *src;
	size_t n;
};

static int render_prom_out(FILE *out, const void *arg)
{
	const struct prom_out *po = arg;

	return prom_render(out, po->src, po->n);
}

int cli_write_prom(const char *cmd, const char *path, const struct prom_source *src, size_t n)
{
	return cli_write_rendered(cmd, path, render_prom_out, &(struct prom_out){ src, n });
}

int cli_list_print(const struct tw_global *g, const struct list_render_ops *r, FILE *out)
{
	struct probe_inventory *inv;
	char err[512] = "";
	int ret = probe_inventory_scan(g->sysroot, &inv, err, sizeof(err));

	if (ret < 0) {
		fprintf(stderr, "tierwise list: %s\n", err[0] ? err : strerror(-ret));
		return TW_EXIT_SYSTEM;
	}
	r->print(out, inv);
	probe_inventory_free(inv);
	return TW_EXIT_OK;
}
