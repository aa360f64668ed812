/* The inputs of the commands that score (score, explain, plan, report,
 * compare): the profiles, the policies (--policies DIR, ./policies,
 * $TW_SRCDIR/policies, the installed ones, else the built-in ones) and the
 * prices, every problem said on stderr. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "fleet.h"
#include "inputs.h"
#include "score.h"

void cli_print_diags(const struct tw_diags *d)
{
	char line[1024];

	for (size_t i = 0; i < d->n; i++) {
		tw_diag_format(&d->v[i], line, sizeof(line));
		fprintf(stderr, "%s\n", line);
	}
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The installed policies: TW_POLICY_RELDIR from the executable's directory
 * (any install prefix), else TW_POLICY_DIR.  Returns buf, TW_POLICY_DIR, or
 * NULL when neither is a directory. */
static const char *installed_policy_dir(char *buf, size_t len)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			n = snprintf(buf, len, "%s/%s", exe, TW_POLICY_RELDIR);
			if (n > 0 && (size_t)n < len && is_dir(buf))
				return buf;
		}
	}
	return is_dir(TW_POLICY_DIR) ? TW_POLICY_DIR : NULL;
}

/* --policies, else ./policies, else $TW_SRCDIR/policies, else the installed
 * policies (into buf); NULL when none: the built-in policies.  *how says
 * which of them ("--policies", "./policies", ...). */
static const char *policy_dir(const char *given, char *buf, size_t len, const char **how)
{
	const char *top = getenv("TW_SRCDIR"), *dir;

	if (given) {
		*how = "--policies";
		return given;
	}
	if (is_dir("policies")) {
		*how = "./policies";
		return "policies";
	}
	if (top) {
		*how = "$TW_SRCDIR/policies";
		snprintf(buf, len, "%s/policies", top);
		return buf;
	}
	dir = installed_policy_dir(buf, len);
	*how = dir ? "installed" : "built-in";
	return dir;
}

/* Print a load failure: diagnostics, or the errno for path. */
static int load_failed(int ret, const char *path, struct tw_diags *d)
{
	if (d->n)
		cli_print_diags(d);
	else
		fprintf(stderr, "%s: cannot read: %s%s\n", path, strerror(-ret),
			ret == -ENOENT ? " (a PROFILE argument: a tierwise.profile/1 file, "
			"as `tierwise probe -o FILE` writes it)" : "");
	tw_diags_clear(d);
	return ret == -ENOMEM ? TW_EXIT_SYSTEM : TW_EXIT_INVALID;
}

/* Does a device of another profile than `pi` carry the id `id`? */
static bool id_collides(const struct cli_inputs *in, size_t pi, const char *id)
{
	for (size_t i = 0; i < in->n_profiles; i++)
		for (size_t j = 0; i != pi && j < in->profiles[i]->n_devices; j++)
			if (!strcmp(in->profiles[i]->devices[j].id, id))
				return true;
	return false;
}

/* Does another profile than `pi` come from the same host? */
static bool host_collides(const struct cli_inputs *in, size_t pi)
{
	const char *h = in->profiles[pi]->host;

	for (size_t i = 0; h && i < in->n_profiles; i++)
		if (i != pi && in->profiles[i]->host && !strcmp(in->profiles[i]->host, h))
			return true;
	return false;
}

/* The file name of path without the directory and ".json": base, its length. */
static const char *file_stem(const char *path, int *len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	*len = (int)n;
	return base;
}

/* Does another profile than `pi` have the same file stem? */
static bool stem_collides(char *const *files, size_t n, size_t pi)
{
	int la, lb;
	const char *a = file_stem(files[pi], &la);

	for (size_t i = 0; i < n; i++) {
		const char *b = file_stem(files[i], &lb);

		if (i != pi && la == lb && !strncmp(a, b, (size_t)la))
			return true;
	}
	return false;
}

/* The label of profile pi: its host, else (no host, or two profiles of one
 * host) its file name without the directory and ".json", else (one file
 * name twice) "profileN", N counted from 1. */
static void profile_label(const struct cli_inputs *in, size_t pi, char *const *files,
			  char *buf, size_t len)
{
	int n;
	const char *stem = file_stem(files[pi], &n);

	if (in->profiles[pi]->host && *in->profiles[pi]->host && !host_collides(in, pi))
		snprintf(buf, len, "%s", in->profiles[pi]->host);
	else if (!stem_collides(files, in->n_profiles, pi))
		snprintf(buf, len, "%.*s", n, stem);
	else
		snprintf(buf, len, "profile%zu", pi + 1);
}

/* See cli.h: so that score, explain, plan and report tell them apart. */
int cli_inputs_qualify_ids(struct cli_inputs *in, char *const *files)
{
	size_t n = 0, k = 0;
	bool *clash;

	for (size_t i = 0; i < in->n_profiles; i++)
		n += in->profiles[i]->n_devices;
	clash = calloc(n ? n : 1, sizeof(*clash));
	if (!clash)
		return -ENOMEM;
	for (size_t i = 0; i < in->n_profiles; i++)	/* decide first, rename after */
		for (size_t j = 0; j < in->profiles[i]->n_devices; j++)
			clash[k++] = id_collides(in, i, in->profiles[i]->devices[j].id);
	k = 0;
	for (size_t i = 0; i < in->n_profiles; i++) {
		char label[256], *id;

		profile_label(in, i, files, label, sizeof(label));
		for (size_t j = 0; j < in->profiles[i]->n_devices; j++) {
			struct profile_device *d = &in->profiles[i]->devices[j];

			if (!clash[k++])
				continue;
			if (asprintf(&id, "%s:%s", label, d->id) < 0) {
				free(clash);
				return -ENOMEM;
			}
			free(d->id);
			d->id = id;
		}
	}
	free(clash);
	return 0;
}

static int load_profiles(struct cli_inputs *in, char *const *files, size_t n)
{
	struct tw_diags d = { 0 };
	size_t k = 0;

	in->profiles = calloc(n ? n : 1, sizeof(*in->profiles));
	if (!in->profiles)
		return TW_EXIT_SYSTEM;
	for (size_t i = 0; i < n; i++) {
		int ret = profile_read_file(files[i], &in->profiles[i], &d);

		if (ret < 0)
			return load_failed(ret, files[i], &d);
		in->n_profiles++;
		k += in->profiles[i]->n_devices;
	}
	in->devs = calloc(k ? k : 1, sizeof(*in->devs));
	if (!in->devs)
		return TW_EXIT_SYSTEM;
	for (size_t i = 0; i < in->n_profiles; i++)
		for (size_t j = 0; j < in->profiles[i]->n_devices; j++) {
			/* figures read from unwritten blocks count as missing */
			model_drop_unwritten(&in->profiles[i]->devices[j]);
			in->devs[in->n_devs++] = &in->profiles[i]->devices[j];
		}
	return TW_EXIT_OK;
}

/* Does a device of in carry the id or the model name? */
static bool price_name_known(const struct cli_inputs *in, const char *name)
{
	for (size_t i = 0; i < in->n_devs; i++)
		if (!strcmp(in->devs[i]->id, name) ||
		    (in->devs[i]->model && !strcmp(in->devs[i]->model, name)))
			return true;
	return false;
}

/* Print the ids and then the models of in's devices (each once) to stderr. */
static void print_names(const struct cli_inputs *in, bool models)
{
	for (size_t i = 0; i < in->n_devs; i++) {
		const char *s = models ? in->devs[i]->model : in->devs[i]->id;
		bool seen = !s;

		for (size_t k = 0; !seen && k < i; k++) {
			const char *t = models ? in->devs[k]->model : in->devs[k]->id;

			seen = t && !strcmp(s, t);
		}
		if (!seen)
			fprintf(stderr, "%s\"%s\"", i ? ", " : "", s);
	}
}

/* A warning per --prices name that is neither an id nor a model of the
 * profiles (it priced nothing), with the names that would. */
static void warn_unknown_prices(const struct cli_inputs *in, const struct model_prices *pr,
				const char *path)
{
	const char *name;
	int line;
	bool any = false;

	for (size_t i = 0; (name = model_prices_entry(pr, i, &line)); i++) {
		if (price_name_known(in, name))
			continue;
		fprintf(stderr, "tierwise: warning: %s:%d: --prices: \"%s\" is neither a device id "
			"nor a model of the profiles: it prices nothing\n", path, line, name);
		any = true;
	}
	if (!any || !in->n_devs)
		return;
	fputs("  ids: ", stderr);
	print_names(in, false);
	fputs("\n  models: ", stderr);
	print_names(in, true);
	fputc('\n', stderr);
}

static int apply_prices(const char *cmd, struct cli_inputs *in, const char *path)
{
	struct tw_diags d = { 0 };
	struct model_prices *pr;
	int ret = model_prices_load_file(path, &pr, &d);

	if (ret < 0 && ret != -EINVAL && ret != -ENOMEM) {	/* unreadable: say which option */
		char fix[96];

		snprintf(fix, sizeof(fix), "give a file of MODEL = PRICE lines, see `tierwise %s "
			 "--help`", cmd);
		cli_path_error(NULL, "--prices", path, "read", -ret, fix);
		tw_diags_clear(&d);
		return TW_EXIT_INVALID;
	}
	if (ret < 0) {
		cli_print_diags(&d);
		tw_diags_clear(&d);
		return ret == -ENOMEM ? TW_EXIT_SYSTEM : TW_EXIT_INVALID;
	}
	for (size_t i = 0; i < in->n_profiles; i++)
		for (size_t j = 0; j < in->profiles[i]->n_devices; j++)
			model_prices_apply(pr, &in->profiles[i]->devices[j]);
	warn_unknown_prices(in, pr, path);
	model_prices_free(pr);
	return TW_EXIT_OK;
}

/* cli_inputs_load(), ids qualified when they collide (qualify) or not. */
static int inputs_load(const char *cmd, struct cli_inputs *in, char *const *files, size_t n,
		       const char *policies, const char *prices, bool qualify)
{
	struct tw_diags d = { 0 };
	char buf[4096];
	const char *how, *dir = policy_dir(policies, buf, sizeof(buf), &how);
	int rc, ret;

	memset(in, 0, sizeof(*in));
	if (dir)
		snprintf(in->policies_from, sizeof(in->policies_from), "%s (%s)", dir, how);
	else
		snprintf(in->policies_from, sizeof(in->policies_from),
			 "built-in (no --policies, ./policies or installed directory)");
	rc = load_profiles(in, files, n);
	if (rc == TW_EXIT_OK && prices)	/* by the ids of the files, not qualified */
		rc = apply_prices(cmd, in, prices);
	if (rc == TW_EXIT_OK && qualify && cli_inputs_qualify_ids(in, files) < 0)
		rc = TW_EXIT_SYSTEM;
	if (rc == TW_EXIT_OK) {
		ret = dir ? model_policy_load_dir(dir, &in->policies, &d)
			  : model_policy_load_builtin(&in->policies, &d);
		if (ret < 0)
			rc = load_failed(ret, dir ? dir : MODEL_POLICY_BUILTIN, &d);
	}
	if (rc != TW_EXIT_OK)
		cli_inputs_free(in);
	return rc;
}

int cli_inputs_load(const char *cmd, struct cli_inputs *in, char *const *files,
		    size_t n, const char *policies, const char *prices)
{
	return inputs_load(cmd, in, files, n, policies, prices, true);
}

int cli_inputs_load_unqualified(const char *cmd, struct cli_inputs *in, char *const *files,
				size_t n, const char *policies, const char *prices)
{
	return inputs_load(cmd, in, files, n, policies, prices, false);
}

int cli_inputs_load_profiles(struct cli_inputs *in, char *const *files, size_t n)
{
	struct tw_diags d = { 0 };
	size_t k = 0;

	memset(in, 0, sizeof(*in));
	if (!(in->profiles = calloc(n, sizeof(*in->profiles))))
		return TW_EXIT_SYSTEM;
	for (size_t i = 0; i < n; i++) {
		int ret = profile_read_file(files[i], &in->profiles[i], &d);

		cli_print_diags(&d);
		if (ret < 0 && !d.n)
			fprintf(stderr, "%s: cannot read: %s%s\n", files[i], strerror(-ret),
				ret == -ENOENT ? " (a PROFILE argument: a tierwise.profile/1 "
				"file, as `tierwise probe -o FILE` writes it)" : "");
		tw_diags_clear(&d);
		if (ret < 0)
			return ret == -ENOMEM ? TW_EXIT_SYSTEM : TW_EXIT_INVALID;
		in->n_profiles++;
		k += in->profiles[i]->n_devices;
	}
	if (!(in->devs = calloc(k ? k : 1, sizeof(*in->devs))))
		return TW_EXIT_SYSTEM;
	for (size_t i = 0; i < in->n_profiles; i++)
		for (size_t j = 0; j < in->profiles[i]->n_devices; j++)
			in->devs[in->n_devs++] = &in->profiles[i]->devices[j];
	return cli_inputs_qualify_ids(in, files) < 0 ? TW_EXIT_SYSTEM : TW_EXIT_OK;
}

/* The advisor, in-process, without inventory facts. */
void cli_print_policies_from(FILE *out, const struct cli_inputs *in, const char *prefix)
{
	fprintf(out, "\n%sPolicies: %s\n", prefix, in->policies_from);
}

void cli_inputs_free(struct cli_inputs *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->n_profiles; i++)
		profile_free(in->profiles[i]);
	free(in->profiles);
	free(in->devs);
	model_policy_set_free(in->policies);
	memset(in, 0, sizeof(*in));
}

/* Read the fleet; problems go to stderr.  Returns the exit code. */
int cli_fleet_load(const char *cmd, char *const *paths, size_t n, struct fleet **f)
{
	struct tw_diags d = { 0 };
	char err[512] = "";
	int ret = fleet_load(paths, n, f, &d, err, sizeof(err));

	cli_print_diags(&d);
	tw_diags_clear(&d);
	if (!ret)
		return TW_EXIT_OK;
	if (err[0])
		fprintf(stderr, "tierwise %s: %s\n", cmd, err);
	if (ret == -ENOMEM)
		return TW_EXIT_SYSTEM;
	return ret == -EINVAL || ret == -ENOENT ? TW_EXIT_INVALID : TW_EXIT_SYSTEM;
}
