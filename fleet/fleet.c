/* fleet.c — reading a fleet: profiles from files and directories, the plans
 * beside them, host names made unique. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fleet.h"

#define FLEET_THREADS 8		/* threads reading profiles, at most */

void fleet_free(struct fleet *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n_hosts; i++) {
		free(f->hosts[i].name);
		free(f->hosts[i].profile_path);
		profile_free(f->hosts[i].profile);
		fleet_plan_free(f->hosts[i].plan);
	}
	free(f->hosts);
	fleet_clear_stats(f);
	free(f);
}

/* A growable list of paths. */
struct pathv {
	size_t n, cap;
	char **v;
};

static int pathv_add(struct pathv *pv, char *p)
{
	if (!p)
		return -ENOMEM;
	if (pv->n == pv->cap) {
		size_t cap = pv->cap ? 2 * pv->cap : 64;
		char **v = realloc(pv->v, cap * sizeof(*v));

		if (!v) {
			free(p);
			return -ENOMEM;
		}
		pv->v = v;
		pv->cap = cap;
	}
	pv->v[pv->n++] = p;
	return 0;
}

static void pathv_free(struct pathv *pv)
{
	for (size_t i = 0; i < pv->n; i++)
		free(pv->v[i]);
	free(pv->v);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The profiles of directory dir, sorted by name, appended to pv. */
static int scan_dir(const char *dir, struct pathv *pv, char *err, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t first = pv->n;
	int ret = 0;

	if (!d) {
		ret = -errno;
		snprintf(err, len, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	while (!ret && (e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.' || !ends_with(e->d_name, ".json") ||
		    ends_with(e->d_name, ".plan.json") || ends_with(e->d_name, ".fleet.json"))
			continue;
		if (asprintf(&p, "%s/%s", dir, e->d_name) < 0)
			p = NULL;
		ret = pathv_add(pv, p);
	}
	closedir(d);
	if (!ret)
		qsort(pv->v + first, pv->n - first, sizeof(*pv->v), cmp_str);
	return ret;
}

static int expand_paths(char *const *paths, size_t n, struct pathv *pv, char *err, size_t len)
{
	struct stat st;
	int ret = 0;

	for (size_t i = 0; !ret && i < n; i++) {
		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
			ret = scan_dir(paths[i], pv, err, len);
		else if (!ends_with(paths[i], ".plan.json"))	/* a glob of a directory: its plans too */
			ret = pathv_add(pv, strdup(paths[i]));
	}
	if (!ret && pv->n == 0) {
		snprintf(err, len, "no profile found (a directory's *.json files are read)");
		ret = -EINVAL;
	}
	return ret;
}

/* Note a problem with path that the reader did not describe; returns ret or -ENOMEM. */
static int note(struct tw_diags *diags, const char *path, int ret, const char *what)
{
	if (ret == -ENOMEM)
		return ret;
	return tw_diags_add(diags, path, 0, 0, NULL, "%s", what) < 0 ? -ENOMEM : ret;
}

/* Read the profile path and its plan (when beside it) into h. */
static int load_host(struct fleet_host *h, const char *path, struct tw_diags *diags)
{
	char *plan_path = fleet_plan_path_for(path), err[512] = "";
	size_t had = diags->n;
	struct stat st;
	int ret;

	if (!plan_path || !(h->profile_path = strdup(path))) {
		free(plan_path);
		return -ENOMEM;
	}
	ret = profile_read_file(path, &h->profile, diags);
	if (ret < 0 && diags->n == had) {
		snprintf(err, sizeof(err), "cannot read: %s", strerror(-ret));
		ret = note(diags, path, ret, err);
	}
	if (!ret && stat(plan_path, &st) == 0) {
		ret = fleet_plan_read(plan_path, &h->plan, err, sizeof(err));
		if (ret)
			ret = note(diags, plan_path, ret, err);
	}
	free(plan_path);
	return ret;
}

/* The name of a file without its directory and ".json". */
static char *file_stem(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s = strdup(b ? b + 1 : path);

	if (s && ends_with(s, ".json"))
		s[strlen(s) - 5] = '\0';
	return s;
}

/* Host names: the profile's, or the file's name for hosts whose names collide. */
static int name_hosts(struct fleet *f)
{
	for (size_t i = 0; i < f->n_hosts; i++) {
		const char *h = f->hosts[i].profile->host;
		bool dup = !h || !*h;

		for (size_t j = 0; j < f->n_hosts && !dup; j++)
			dup = j != i && f->hosts[j].profile->host &&
			      !strcmp(f->hosts[j].profile->host, h);
		f->hosts[i].name = dup ? file_stem(f->hosts[i].profile_path) : strdup(h);
		if (!f->hosts[i].name)
			return -ENOMEM;
	}
	return 0;
}

/* The profiles are read by a few threads: parsing dominates a fleet's time. */
struct loader {
	const struct pathv *pv;
	struct fleet_host *hosts;	/* one slot per path */
	struct tw_diags *diags;		/* one list per path */
	int *rets;
	atomic_size_t next;
};

static void *load_some(void *arg)
{
	struct loader *l = arg;
	size_t i;

	while ((i = atomic_fetch_add(&l->next, 1)) < l->pv->n)
		l->rets[i] = load_host(&l->hosts[i], l->pv->v[i], &l->diags[i]);
	return NULL;
}

static void load_parallel(struct loader *l)
{
	pthread_t t[FLEET_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = cpus > 1 ? (size_t)cpus : 1, started = 0;

	if (n > FLEET_THREADS)
		n = FLEET_THREADS;
	if (n > l->pv->n / 8 + 1)	/* a thread per 8 files at least */
		n = l->pv->n / 8 + 1;
	while (started + 1 < n && pthread_create(&t[started], NULL, load_some, l) == 0)
		started++;
	load_some(l);			/* this thread too (alone when none started) */
	while (started)
		pthread_join(t[--started], NULL);
}

/* Keep the hosts that loaded, in path order; move every diagnostic to diags. */
static int gather(struct fleet *f, struct loader *l, struct tw_diags *diags)
{
	int first = 0;

	for (size_t i = 0; i < l->pv->n; i++) {
		struct fleet_host *h = &l->hosts[i];

		for (size_t k = 0; k < l->diags[i].n && first != -ENOMEM; k++) {
			const struct tw_diag *g = &l->diags[i].v[k];

			if (tw_diags_add(diags, g->file, g->line, g->col, g->key, "%s", g->msg) < 0)
				first = -ENOMEM;
		}
		tw_diags_clear(&l->diags[i]);
		if (l->rets[i]) {	/* every bad file is named; the first error returned */
			free(h->profile_path);
			profile_free(h->profile);
			fleet_plan_free(h->plan);
			first = first ? first : l->rets[i];
			continue;
		}
		f->hosts[f->n_hosts++] = *h;
		f->n_devices += h->profile->n_devices;
		f->n_plans += h->plan != NULL;
	}
	return first;
}

static int load_all(struct fleet *f, const struct pathv *pv, struct tw_diags *diags)
{
	struct loader l = { .pv = pv };
	int ret = -ENOMEM;

	f->hosts = calloc(pv->n, sizeof(*f->hosts));
	l.hosts = calloc(pv->n, sizeof(*l.hosts));
	l.diags = calloc(pv->n, sizeof(*l.diags));
	l.rets = calloc(pv->n, sizeof(*l.rets));
	if (f->hosts && l.hosts && l.diags && l.rets) {
		atomic_init(&l.next, 0);
		load_parallel(&l);
		ret = gather(f, &l, diags);
	}
	free(l.hosts);
	free(l.diags);
	free(l.rets);
	return ret;
}

int fleet_load(char *const *paths, size_t n, struct fleet **out, struct tw_diags *diags,
	       char *err, size_t len)
{
	struct pathv pv = { 0 };
	struct fleet *f = calloc(1, sizeof(*f));
	int ret = f ? expand_paths(paths, n, &pv, err, len) : -ENOMEM;

	*out = NULL;
	if (!ret)
		ret = load_all(f, &pv, diags);
	if (!ret)
		ret = name_hosts(f);
	if (!ret)
		ret = fleet_analyse(f);
	pathv_free(&pv);
	if (ret) {
		fleet_free(f);
		return ret;
	}
	*out = f;
	return 0;
}
