/* tierwise probe: the run of a whole probe — check the outputs, scan the
 * inventory, run the targets (probe_targets.c), then save the profile and
 * print the summary.  The probe command and the default job start it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "probe_cli.h"
#include "render.h"
#include "render_prom.h"

/* The progress line on a terminal: the target, the test, its seconds, its rates. */
static void show_progress(void *arg, const struct probe_status *st)
{
	char test[48];

	(void)arg;
	if (st->qd && !strcmp(st->test, "qd_sweep"))	/* eight jobs: say which */
		snprintf(test, sizeof(test), "%s QD=%u", st->test, st->qd);
	else
		snprintf(test, sizeof(test), "%s", st->test);
	fprintf(stderr, "\r  %-14s %-16s %5.1f/%4.1fs %12.0f IOPS %9.1f MB/s\033[K",
		st->target, test, st->elapsed_s, st->budget_s, st->iops, st->mbps);
	fflush(stderr);
}

/*
 * Save the profile to c->json: never when nothing was measured (a failed or
 * refused run leaves the previous file as it was).  Returns 0 or an exit code.
 */
static int save_profile(const struct probe_cli *c)
{
	char err[512];

	if (!c->json)
		return 0;
	if (c->prof->n_devices == 0) {
		if (strcmp(c->json, "-"))
			fprintf(stderr, "tierwise probe: nothing was measured; %s was not written "
				"(a previous file there is left as it was)\n", c->json);
		return 0;
	}
	if (profile_write_file(c->prof, c->json, err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise probe: %s: %s (the profile was not saved)\n",
			c->json, err);
		return TW_EXIT_SYSTEM;
	}
	return 0;
}

/*
 * After an interrupt: the previous file is kept as it was; what was measured
 * goes beside it, to FILE.partial.json (or to stdout for "-").  Returns
 * 128 + the signal, as a shell reports it.
 */
static int finish_interrupted(struct probe_cli *c)
{
	char side[4096], err[512];
	size_t n;

	if (!c->quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	fprintf(stderr, "tierwise probe: interrupted (%s)", strsignal(cli_probe_interrupted()));
	if (c->prof->n_devices == 0 || !c->json) {
		fprintf(stderr, c->prof->n_devices ? "; nothing saved (-o FILE saves the figures "
			"measured before an interrupt)\n" : "; nothing was measured\n");
		return 128 + cli_probe_interrupted();
	}
	n = strlen(c->json);
	if (!strcmp(c->json, "-"))
		snprintf(side, sizeof(side), "-");
	else
		snprintf(side, sizeof(side), "%.*s.partial.json",
			 (int)(n > 5 && !strcmp(c->json + n - 5, ".json") ? n - 5 : n), c->json);
	if (profile_write_file(c->prof, side, err, sizeof(err)) < 0)
		fprintf(stderr, "; %s: %s\n", side, err);
	else
		fprintf(stderr, "; what was measured (%zu device%s, the last one cut short) is in %s%s%s\n",
			c->prof->n_devices, c->prof->n_devices == 1 ? "" : "s",
			strcmp(side, "-") ? side : "standard output", strcmp(side, "-") ? "; " : "",
			strcmp(side, "-") ? "the -o file is left as it was" : "");
	return 128 + cli_probe_interrupted();
}

static int probe_finish(struct probe_cli *c)
{
	char err[512];
	int ret;

	if (probe_inventory_to_profile(c->inv, c->prof) < 0) {	/* drive_id, multipath */
		fprintf(stderr, "tierwise probe: out of memory\n");
		return TW_EXIT_SYSTEM;
	}
	if (cli_probe_interrupted())
		return finish_interrupted(c);
	ret = save_profile(c);

	if (c->format_json && c->json && strcmp(c->json, "-"))	/* -o FILE --format json */
		ret = ret ? ret : profile_write_file(c->prof, "-", err, sizeof(err)) < 0 ?
			TW_EXIT_SYSTEM : 0;
	else if (!c->json || strcmp(c->json, "-"))
		probe_render_text.print(c->out ? c->out : stdout, c->prof);
	if (ret)
		return ret;
	if (!c->json && c->prof->n_devices)
		fprintf(stderr, "tierwise probe: the profile was not saved: add -o FILE to "
			"keep these figures\n");
	if (c->failed && c->prof->n_devices == 0)
		return TW_EXIT_SYSTEM;
	return c->failed ? TW_EXIT_PARTIAL : TW_EXIT_OK;
}


/*
 * The test hook TIERWISE_FAULT (docs/reliability.md): refuse a bad spec
 * before anything runs, and say loudly that faults are being injected.
 * Returns 0 or TW_EXIT_USAGE.
 */
static int check_fault_hook(struct probe_cli *c)
{
	const char *spec = getenv("TIERWISE_FAULT");
	char err[128];

	if (!spec || !*spec)
		return 0;
	c->o.fault = spec;	/* the library reads no environment */
	if (probe_fault_check(spec, err, sizeof(err)) < 0) {
		fprintf(stderr, "tierwise probe: TIERWISE_FAULT: %s\n", err);
		return TW_EXIT_USAGE;
	}
	fprintf(stderr, "tierwise probe: TIERWISE_FAULT=%s: injecting faults (a test hook; "
		"the figures are not measurements)\n", spec);
	return 0;
}

/*
 * Scan the inventory and run the targets (none = everything probe_all
 * chooses), then save and summarise.  Returns the exit code.
 */
int cli_probe_execute(struct probe_cli *c, struct tw_global *g, char **targets, int n)
{
	char err[512] = "";
	int ret = check_fault_hook(c);

	if (!ret && c->json)
		ret = cli_check_output("probe", "-o", c->json);
	if (!ret && c->textfile_dir)
		c->textfile = cli_textfile_path("probe", c->textfile_dir, &ret);
	if (ret)
		return ret;
	if (!c->quiet && isatty(STDERR_FILENO))
		c->o.progress = show_progress;
	c->o.sysroot = g->sysroot;
	if (probe_inventory_scan(g->sysroot, &c->inv, err, sizeof(err)) < 0 ||
	    !(c->prof = profile_new())) {
		fprintf(stderr, "tierwise probe: %s\n", err[0] ? err : "out of memory");
		probe_inventory_free(c->inv);
		return TW_EXIT_SYSTEM;
	}
	probe_scratch_install_handlers();
	cli_probe_catch_interrupts(c);
	cli_probe_targets(c, targets, n);
	ret = probe_finish(c);
	if (c->textfile && c->prof->n_devices && (!ret || ret == TW_EXIT_PARTIAL)) {
		struct prom_source src = { c->prof, NULL, NULL };	/* what was measured */
		int wr = cli_write_prom("probe", c->textfile, &src, 1);

		ret = wr ? wr : ret;
	}
	free(c->textfile);
	free(c->fs_seen);
	free(c->fs_seen_at);
	profile_free(c->prof);
	probe_inventory_free(c->inv);
	return ret;
}

int cli_probe_everything(const struct cli_probe_req *r, struct tw_global *g)
{
	struct probe_cli c = {
		.o = { .ramp_s = -1, .full = r->full },
		.json = r->json, .destructive = r->destructive, .yes = r->yes, .quiet = r->quiet,
		.out = r->out,
	};

	return cli_probe_execute(&c, g, NULL, 0);
}
