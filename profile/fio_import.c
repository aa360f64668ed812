/* fio's JSON output into tierwise.profile/1: each job mapped to a test by
 * rw, bs, iodepth and numjobs; one device per filename.  The field sets of
 * fio's stat.c: 3.x writes clat_ns/lat_ns (ns), io_bytes and bw_bytes in
 * bytes; 2.x wrote clat/lat (µs), io_bytes in KiB and bw in KiB/s; json+
 * adds the latency histogram ("bins": value → count) to clat(_ns). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fio_import.h"
#include "profile_fields.h"
#include "tw_jsonpos.h"

#define PATH_LEN 256
#define MAX_ENTRIES 64		/* numjobs entries of one job summed */
#define SEQ_BS 1048576L
#define RAND_BS 4096L
#define FIO_MAX_NUM 1e15	/* no figure of fio's is larger: ns in 11 days, I/Os */
#define FIO_MAX_DEPTH 65536L	/* iodepth, numjobs */

/* What a job is, as far as the tests go. */
enum fkind { FK_NONE, FK_SEQ_READ, FK_SEQ_WRITE, FK_RAND_READ, FK_MIXED };

/* One direction (read, write) of a job, its entries summed. */
struct fdir {
	double iops, bw_bytes, runtime_ms;
	int64_t ios;
	struct profile_lat lat;
};

/* One fio job: its options (job over global) and figures. */
struct fjob {
	const char *name;
	char path[PATH_LEN];		/* "jobs[3]", for diagnostics */
	long groupid, bs, iodepth, numjobs, rwmix;
	char rw[16], opts[400];
	const char *filename, *ioengine;
	long error;
	size_t n_entries;
	const json_t *entry[MAX_ENTRIES];
	struct fdir rd, wr;
	enum fkind kind;
	const char *why;		/* why it maps to nothing (kind FK_NONE) */
	char whybuf[160];
	bool used, sustained, sweep;
	struct profile_device *dev;
};

struct ictx {
	struct tw_jsondoc doc;		/* the JSON (after any lines before it),
					 * its problems (tw_jsonpos.h) */
	const json_t *gopts;		/* "global options", or NULL */
	const char *version;
	char created[32];
	struct profile *p;
	struct fio_import_result *res;
};

/* Record a problem at path's position (or its enclosing object's). */
#define bad(c, path, ...) tw_jsondoc_bad(&(c)->doc, path, __VA_ARGS__)

static void child(char *out, const char *path, const char *key)
{
	tw_json_child(out, PATH_LEN, path, key);
}

long fio_parse_size(const char *s)
{
	char *end;
	double v;
	long mult = 1;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v <= 0)
		return -1;
	switch (*end) {
	case 'k': case 'K': mult = 1L << 10; end++; break;
	case 'm': case 'M': mult = 1L << 20; end++; break;
	case 'g': case 'G': mult = 1L << 30; end++; break;
	case 't': case 'T': mult = 1L << 40; end++; break;
	default: break;
	}
	if (mult > 1 && (*end == 'i' || *end == 'I'))
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end && *end != ',')	/* a range "4k-64k" or junk */
		return -1;
	if (*end == ',' && fio_parse_size(end + 1) < 0)
		return -1;
	return (long)(v * (double)mult);
}

/* The option key of job j: its "job options", else "global options"; NULL
 * when neither sets it.  A value that is no string is a problem. */
static const char *opt(struct ictx *c, const json_t *jopts, const char *jpath, const char *key)
{
	const json_t *v = jopts ? json_object_get(jopts, key) : NULL;
	char p[PATH_LEN];

	if (v)
		child(p, jpath, key);
	else if (c->gopts && (v = json_object_get(c->gopts, key)))
		child(p, "global options", key);
	if (!v)
		return NULL;
	if (!json_is_string(v)) {
		bad(c, p, "must be a string (fio writes every option as one)");
		return NULL;
	}
	return json_string_value(v);
}

/* A whole number option (iodepth, numjobs, rwmixread), def when absent. */
static long opt_long(struct ictx *c, const json_t *jopts, const char *jpath,
		     const char *key, long def)
{
	const char *s = opt(c, jopts, jpath, key);
	char *end, p[PATH_LEN];
	long v;

	if (!s)
		return def;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > FIO_MAX_DEPTH) {
		child(p, json_object_get(jopts, key) ? jpath : "global options", key);
		bad(c, p, "must be a whole number from 0 to %ld, not \"%s\"", FIO_MAX_DEPTH, s);
		return def;
	}
	return v;
}

/* "k=v k=v" of the job's options (global first, then the job's), without
 * filename: the device says it. */
static void opts_string(const json_t *g, const json_t *j, char *out, size_t len)
{
	const json_t *sets[2] = { g, j }, *v;
	const char *k;
	size_t off = 0;

	out[0] = '\0';
	for (int s = 0; s < 2; s++) {
		if (!json_is_object(sets[s]))
			continue;
		json_object_foreach((json_t *)sets[s], k, v) {
			if (!strcmp(k, "filename") || !json_is_string(v) ||
			    (s == 0 && j && json_object_get(j, k)))
				continue;
			int n = snprintf(out + off, len - off, "%s%s=%s", off ? " " : "", k,
					 json_string_value(v));
			if (n < 0 || (size_t)n >= len - off) {
				out[off] = '\0';
				return;
			}
			off += (size_t)n;
		}
	}
}

/* ---- figures ---- */

/* A number >= 0 at obj.key into *out (0 when absent and !required). */
static bool num(struct ictx *c, const json_t *obj, const char *path, const char *key,
		bool required, double *out)
{
	const json_t *v = json_object_get(obj, key);
	char p[PATH_LEN];

	*out = 0;
	child(p, path, key);
	if (!v) {
		if (required)
			bad(c, p, "required key is missing");
		return false;
	}
	if (!json_is_number(v) || json_number_value(v) < 0 || !isfinite(json_number_value(v))) {
		bad(c, p, "must be a number >= 0");
		return false;
	}
	if (json_number_value(v) > FIO_MAX_NUM) {
		bad(c, p, "%g is out of range (at most %g)", json_number_value(v), FIO_MAX_NUM);
		return false;
	}
	*out = json_number_value(v);
	return true;
}

struct bin {
	double x, n;
};

static int bin_cmp(const void *a, const void *b)
{
	double x = ((const struct bin *)a)->x, y = ((const struct bin *)b)->x;

	return (x > y) - (x < y);
}

/* Percentiles pct[0..np) into out[] from the histograms bins[0..nb) (value →
 * count), as fio computes them: the first value whose running count reaches
 * pct % of all.  NAN when empty or out of memory. */
static void bins_pct(const json_t *const *bins, size_t nb, const double *pct,
		     size_t np, double *out)
{
	struct bin *v = NULL;
	size_t n = 0, cap = 0;
	double total = 0, run = 0;
	const json_t *w;
	const char *k;

	for (size_t i = 0; i < np; i++)
		out[i] = NAN;
	for (size_t i = 0; i < nb; i++)
		json_object_foreach((json_t *)bins[i], k, w) {
			if (n == cap) {
				struct bin *nv = realloc(v, (cap = cap ? 2 * cap : 256) * sizeof(*v));

				if (!nv)
					goto out;
				v = nv;
			}
			v[n++] = (struct bin){ strtod(k, NULL), json_number_value(w) };
			total += json_number_value(w);
		}
	if (total <= 0)
		goto out;
	qsort(v, n, sizeof(*v), bin_cmp);
	for (size_t i = 0; i < n; i++) {
		run += v[i].n;
		for (size_t p = 0; p < np; p++)
			if (isnan(out[p]) && run >= total * pct[p] / 100.0)
				out[p] = v[i].x;
	}
out:
	free(v);
}

/* The latency object of a direction: clat_ns (ns) or clat (µs); want
 * "percentile" or "bins" in it when pct, else any.  *scale: to µs. */
static const json_t *lat_obj(const json_t *d, bool pct, double *scale, const char **key)
{
	static const struct { const char *key; double scale; } src[] = {
		{ "clat_ns", 1e-3 }, { "clat", 1 }, { "lat_ns", 1e-3 }, { "lat", 1 },
	};

	for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
		const json_t *o = json_object_get(d, src[i].key);

		if (!json_is_object(o) || (pct && !json_object_get(o, "percentile") &&
					   !json_object_get(o, "bins")))
			continue;
		*scale = src[i].scale;
		*key = src[i].key;
		return o;
	}
	return NULL;
}

static const double pct_of[] = { [PROFILE_LAT_P50] = 50, [PROFILE_LAT_P90] = 90,
	[PROFILE_LAT_P99] = 99, [PROFILE_LAT_P999] = 99.9 };

/* The percentiles of one "percentile" object (keys "99.000000"). */
static void lat_from_pct(struct ictx *c, const json_t *po, const char *path, double scale,
			 struct profile_lat *l)
{
	const json_t *v;
	const char *k;
	char p[PATH_LEN];

	json_object_foreach((json_t *)po, k, v) {
		double key = strtod(k, NULL);

		child(p, path, k);
		if (!json_is_number(v) || json_number_value(v) < 0) {
			bad(c, p, "must be a number >= 0");
			continue;
		}
		for (int f = PROFILE_LAT_P50; f <= PROFILE_LAT_P999; f++)
			if (f != PROFILE_LAT_MAX && fabs(key - pct_of[f]) < 1e-6 &&
			    json_number_value(v) > 0)
				l->v[f] = json_number_value(v) * scale;
	}
}

/* Check a "bins" object: every value a count. */
static bool bins_ok(struct ictx *c, const json_t *b, const char *path)
{
	const json_t *v;
	const char *k;
	char p[PATH_LEN];
	bool ok = json_is_object(b);

	if (!ok)
		bad(c, path, "must be an object of latency → count");
	else
		json_object_foreach((json_t *)b, k, v) {
			if (!json_is_integer(v) || json_integer_value(v) < 0 ||
			    strtod(k, NULL) <= 0) {
				child(p, path, k);
				bad(c, p, "must be a count of I/Os (an integer >= 0)");
				ok = false;
			}
		}
	return ok;
}

/* Percentiles that decrease (p90 below p50) are no fio output: a problem
 * at the direction's latency object, and the latency left out. */
static void lat_order(struct ictx *c, const struct fjob *j, const char *dn,
		      struct profile_lat *l)
{
	double last = 0;
	char p[PATH_LEN];

	for (int f = PROFILE_LAT_P50; f <= PROFILE_LAT_MAX; f++) {
		if (isnan(l->v[f]))
			continue;
		if (l->v[f] < last) {
			child(p, j->path, dn);
			bad(c, p, "latency percentiles decrease (%s %g us below %g us)",
			    profile_lat_name(f), l->v[f], last);
			*l = profile_lat_none();
			return;
		}
		last = l->v[f];
	}
}

/* Latency of direction dn ("read") over the job's entries: mean weighted by
 * I/Os, max of max, percentiles from one entry's "percentile" or from the
 * bins of all of them (json+). */
static void dir_lat(struct ictx *c, struct fjob *j, const char *dn, struct fdir *fd)
{
	const json_t *bins[MAX_ENTRIES];
	size_t nb = 0;
	double wsum = 0, msum = 0, max = NAN, scale = 1;
	char p[PATH_LEN], q[PATH_LEN];
	const char *key = NULL;

	fd->lat = profile_lat_none();
	for (size_t e = 0; e < j->n_entries; e++) {
		const json_t *d = json_object_get(j->entry[e], dn);
		const json_t *o = lat_obj(d, true, &scale, &key), *b;
		double mean, mx, n;

		if (!o)
			o = lat_obj(d, false, &scale, &key);
		if (!o)
			continue;
		child(q, j->path, dn);
		child(p, q, key);
		if (!num(c, o, p, "mean", true, &mean) || !num(c, o, p, "max", true, &mx))
			continue;
		if (!num(c, o, p, "N", false, &n) || n <= 0)
			n = 1;
		wsum += n;
		msum += mean * n;
		if (isnan(max) || mx > max)
			max = mx;
		b = json_object_get(o, "bins");
		if (b && bins_ok(c, b, (child(q, p, "bins"), q)))
			bins[nb++] = b;
		if (j->n_entries == 1 && json_object_get(o, "percentile")) {
			child(q, p, "percentile");
			if (!json_is_object(json_object_get(o, "percentile")))
				bad(c, q, "must be an object of percentile → latency");
			else
				lat_from_pct(c, json_object_get(o, "percentile"), q, scale, &fd->lat);
		}
	}
	if (wsum > 0 && msum > 0)
		fd->lat.v[PROFILE_LAT_MEAN] = msum / wsum * scale;
	if (max > 0)
		fd->lat.v[PROFILE_LAT_MAX] = max * scale;
	if (nb == j->n_entries && nb && isnan(fd->lat.v[PROFILE_LAT_P50])) {
		double got[PROFILE_LAT_P999];

		bins_pct(bins, nb, pct_of + PROFILE_LAT_P50, PROFILE_LAT_P999, got);
		for (int f = PROFILE_LAT_P50; f <= PROFILE_LAT_P999; f++)
			fd->lat.v[f] = got[f - PROFILE_LAT_P50] * scale;
	}
	/* fio's percentiles are bin values: the top one may pass the max */
	for (int f = PROFILE_LAT_P50; f <= PROFILE_LAT_P999; f++)
		if (f != PROFILE_LAT_MAX && fd->lat.v[f] > fd->lat.v[PROFILE_LAT_MAX])
			fd->lat.v[f] = fd->lat.v[PROFILE_LAT_MAX];
	lat_order(c, j, dn, &fd->lat);
}

/* Throughput, IOPS, I/Os and runtime of direction dn, summed over entries. */
static void dir_figures(struct ictx *c, struct fjob *j, const char *dn, struct fdir *fd)
{
	char p[PATH_LEN];

	memset(fd, 0, sizeof(*fd));
	for (size_t e = 0; e < j->n_entries; e++) {
		const json_t *d = json_object_get(j->entry[e], dn);
		double iops, bwb, bw, rt, ios;

		child(p, j->path, dn);
		if (!d)
			continue;
		if (!json_is_object(d)) {
			bad(c, p, "must be an object");
			continue;
		}
		num(c, d, p, "iops", true, &iops);
		num(c, d, p, "runtime", true, &rt);
		if (!num(c, d, p, "bw_bytes", false, &bwb) &&	/* fio 2.x: bw in KiB/s */
		    num(c, d, p, "bw", true, &bw))
			bwb = bw * 1024;
		num(c, d, p, "total_ios", false, &ios);
		fd->iops += iops;
		fd->bw_bytes += bwb;
		fd->ios += (int64_t)ios;
		if (rt > fd->runtime_ms)
			fd->runtime_ms = rt;
	}
	child(p, j->path, dn);
	if (fd->iops > PF_MOST_IOPS)
		bad(c, p, "%.10g IOPS (iops, all jobs) is more than any device does (at most %g): "
		    "not a measurement", fd->iops, PF_MOST_IOPS);
	if (fd->bw_bytes / 1e6 > PF_MOST_MBPS)
		bad(c, p, "%.10g MB/s (bw_bytes, all jobs) is more than any device does (at most %g): "
		    "not a measurement", fd->bw_bytes / 1e6, PF_MOST_MBPS);
	dir_lat(c, j, dn, fd);
}

/* ---- jobs ---- */

static void classify(struct fjob *j)
{
	bool seq_bs = j->bs == SEQ_BS, rand_bs = j->bs == RAND_BS;
	const char *rw = j->rw;

	j->kind = FK_NONE;
	if (j->error) {
		snprintf(j->whybuf, sizeof(j->whybuf), "fio reported error %ld", j->error);
		j->why = j->whybuf;
	} else if (j->bs < 0) {
		j->why = "its bs is no single block size";
	} else if (!strcmp(rw, "read") && seq_bs) {
		j->kind = FK_SEQ_READ;
	} else if (!strcmp(rw, "write") && seq_bs) {
		j->kind = FK_SEQ_WRITE;
	} else if (!strcmp(rw, "randread") && rand_bs) {
		j->kind = FK_RAND_READ;
	} else if (!strcmp(rw, "randrw") && rand_bs && j->rwmix == 70) {
		j->kind = FK_MIXED;
	} else if (!strcmp(rw, "randrw") && rand_bs) {
		j->why = "random read/write at another mix (the test is 70 % reads)";
	} else if (!strcmp(rw, "read") || !strcmp(rw, "write")) {
		j->why = "sequential I/O of another block size (the tests use 1 MiB)";
	} else if (!strcmp(rw, "randread")) {
		j->why = "random reads of another block size (the tests use 4 KiB)";
	} else if (!strcmp(rw, "randwrite")) {
		j->why = "random writes: no tierwise test measures them alone";
	} else {
		snprintf(j->whybuf, sizeof(j->whybuf), "no tierwise test is rw=%s", rw);
		profile_utf8_trim(j->whybuf);
		j->why = j->whybuf;
	}
	if (j->kind != FK_NONE && ((j->kind == FK_SEQ_WRITE ? j->wr.iops : j->rd.iops) <= 0)) {
		j->kind = FK_NONE;
		j->why = "fio measured no I/O in it";
	}
}

/* rw without fio's ":N" offset suffix; "readwrite" and "rw" as "randrw"'s
 * sequential twin. */
static void job_rw(struct ictx *c, const json_t *jo, const char *jp, struct fjob *j)
{
	const char *rw = opt(c, jo, jp, "rw");

	if (!rw)
		rw = opt(c, jo, jp, "readwrite");
	snprintf(j->rw, sizeof(j->rw), "%s", rw ? rw : "read");	/* fio's default */
	j->rw[strcspn(j->rw, ":")] = '\0';
	profile_utf8_trim(j->rw);
	if (!strcmp(j->rw, "readwrite"))
		snprintf(j->rw, sizeof(j->rw), "rw");
}

/* The block size of the direction the job's kind uses ("4k,64k": reads,
 * writes). */
static long job_bs(struct ictx *c, const json_t *jo, const char *jp, const char *rw)
{
	const char *s = opt(c, jo, jp, "bs");
	const char *comma;

	if (!s)
		s = opt(c, jo, jp, "blocksize");
	if (!s)
		return RAND_BS;		/* fio's default */
	comma = strchr(s, ',');
	if (comma && strstr(rw, "write") && !strstr(rw, "rw") && comma[1])
		return fio_parse_size(comma + 1);
	return fio_parse_size(s);
}

/* Options of entry e at path jp into j. */
static void job_options(struct ictx *c, const json_t *e, const char *jp, struct fjob *j)
{
	const json_t *jo = json_object_get(e, "job options");
	char op[PATH_LEN];
	const char *mix;

	child(op, jp, "job options");
	if (jo && !json_is_object(jo)) {
		bad(c, op, "must be an object");
		jo = NULL;
	}
	job_rw(c, jo, op, j);
	j->bs = job_bs(c, jo, op, j->rw);
	j->iodepth = opt_long(c, jo, op, "iodepth", 1);
	j->numjobs = opt_long(c, jo, op, "numjobs", 1);
	j->rwmix = opt_long(c, jo, op, "rwmixread", 50);
	if ((mix = opt(c, jo, op, "rwmixwrite")) && !opt(c, jo, op, "rwmixread"))
		j->rwmix = 100 - strtol(mix, NULL, 10);
	j->filename = opt(c, jo, op, "filename");
	j->ioengine = opt(c, jo, op, "ioengine");
	if (j->iodepth < 1)
		j->iodepth = 1;
	if (j->numjobs < 1)
		j->numjobs = 1;
	opts_string(c->gopts, jo, j->opts, sizeof(j->opts));
}

/* Whether entry e is one more numjobs entry of j (same name, group, options). */
static bool same_job(const struct fjob *j, const json_t *e)
{
	const json_t *n = json_object_get(e, "jobname"), *g = json_object_get(e, "groupid");

	return j && j->n_entries < MAX_ENTRIES && j->numjobs > 1 && json_is_string(n) &&
	       !strcmp(json_string_value(n), j->name) &&
	       json_integer_value(g) == j->groupid &&
	       json_equal(json_object_get(e, "job options"),
			  json_object_get(j->entry[0], "job options"));
}

/* Start job j from entry e (jobs[i]). */
static void job_start(struct ictx *c, const json_t *e, size_t i, const char *arr,
		      struct fjob *j)
{
	const json_t *n = json_object_get(e, "jobname"), *v;
	char p[PATH_LEN];

	memset(j, 0, sizeof(*j));
	snprintf(j->path, sizeof(j->path), "%s[%zu]", arr, i);
	child(p, j->path, "jobname");
	if (!json_is_string(n)) {
		bad(c, p, n ? "must be a string" : "required key is missing");
		j->name = "?";
	} else {
		j->name = json_string_value(n);
	}
	j->groupid = json_integer_value(json_object_get(e, "groupid"));
	v = json_object_get(e, "error");
	child(p, j->path, "error");
	if (v && !json_is_integer(v))
		bad(c, p, "must be an integer");
	j->error = json_integer_value(v);
	j->entry[j->n_entries++] = e;
	job_options(c, e, j->path, j);
}

/* Read every job of arr ("jobs" or "client_stats") into *jobs.  Returns the
 * count, or -ENOMEM. */
static long read_jobs(struct ictx *c, const json_t *arr, const char *an, struct fjob **jobs)
{
	struct fjob *v = NULL, *cur = NULL;
	const json_t *e;
	size_t i, n = 0;

	json_array_foreach(arr, i, e) {
		char p[PATH_LEN];

		snprintf(p, sizeof(p), "%s[%zu]", an, i);
		if (!json_is_object(e)) {
			bad(c, p, "must be an object (one fio job)");
			continue;
		}
		if (json_is_string(json_object_get(e, "jobname")) &&	/* client/server sum */
		    !strcmp(json_string_value(json_object_get(e, "jobname")), "All clients"))
			continue;
		if (same_job(cur, e)) {
			cur->entry[cur->n_entries++] = e;
			continue;
		}
		struct fjob *nv = realloc(v, (n + 1) * sizeof(*v));

		if (!nv) {
			free(v);
			return -ENOMEM;
		}
		v = nv;
		cur = &v[n++];
		job_start(c, e, i, an, cur);
	}
	for (i = 0; i < n; i++) {
		dir_figures(c, &v[i], "read", &v[i].rd);
		dir_figures(c, &v[i], json_object_get(v[i].entry[0], "mixed") &&
			    !json_object_get(v[i].entry[0], "write") ? "mixed" : "write",
			    &v[i].wr);
		classify(&v[i]);
	}
	*jobs = v;
	return (long)n;
}

/* ---- devices and tests ---- */

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* Transport and media guessed from a device node's name; a file otherwise. */
static void guess_kind(struct profile_device *d, const char *path)
{
	static const struct { const char *prefix; enum profile_transport t; } tr[] = {
		{ "/dev/nvme", PROFILE_TR_NVME }, { "/dev/vd", PROFILE_TR_VIRTIO },
		{ "/dev/md", PROFILE_TR_MD }, { "/dev/dm-", PROFILE_TR_DM },
		{ "/dev/mapper/", PROFILE_TR_DM }, { "/dev/loop", PROFILE_TR_LOOP },
		{ "/dev/zram", PROFILE_TR_ZRAM }, { "/dev/mmcblk", PROFILE_TR_MMC },
	};

	d->transport = strncmp(path, "/dev/", 5) ? PROFILE_TR_FILE : PROFILE_TR_OTHER;
	for (size_t i = 0; i < sizeof(tr) / sizeof(tr[0]); i++)
		if (!strncmp(path, tr[i].prefix, strlen(tr[i].prefix)))
			d->transport = tr[i].t;
	d->media = d->transport == PROFILE_TR_ZRAM ? PROFILE_MEDIA_RAM : PROFILE_MEDIA_UNKNOWN;
}

/* The device of fio filename fn (NULL: fio's own files, named after each
 * job): found by id in p, else added.  NULL on allocation failure. */
static struct profile_device *device_for(struct ictx *c, const char *fn, const struct fjob *j)
{
	char id[256], *colon;
	struct profile_device *d;
	const char *path = fn && *fn ? fn : "fio-files";

	snprintf(id, sizeof(id), "%s", basename_of(path));
	profile_utf8_trim(id);
	while ((colon = strchr(id, ':')))	/* several files: a+b */
		*colon = '+';
	for (size_t i = 0; i < c->p->n_devices; i++)
		if (!strcmp(c->p->devices[i].id, id))
			return &c->p->devices[i];
	d = profile_add_device(c->p, id);
	if (!d || !(d->model = strdup("")) || !(d->path = strdup(path)))
		return NULL;
	guess_kind(d, path);
	d->capacity_bytes = 0;
	d->probe.mode = PROFILE_MODE_FULL;
	d->probe.target = d->transport == PROFILE_TR_FILE ? PROFILE_TGT_SCRATCH_FILE :
							     PROFILE_TGT_RAW_READONLY;
	d->probe.seconds = 0;
	if (c->version && (d->probe.engine = malloc(strlen(c->version) + 40)))
		sprintf(d->probe.engine, "%s%s%.30s", c->version, j->ioengine ? " " : "",
			j->ioengine ? j->ioengine : "");
	profile_device_add_notef(d, "imported by `tierwise import fio` from %s (%s, %s): "
				 "each test's fio job and options are in the notes below",
				 c->doc.name, c->version ? c->version : "fio", c->created);
	profile_device_add_note(d, fn ? "capacity_bytes: unknown (0) unless `import fio "
				"--capacity ID=SIZE` gave it: fio output does not give the "
				"device's size" :
				"no filename: fio wrote files named after each job "
				"(jobname.N.M) in its directory; capacity_bytes unknown (0)");
	return d;
}

/* The I/O result of direction fd for job j. */
static void fill_io(struct profile_io *io, const struct fjob *j, const struct fdir *fd)
{
	io->present = true;
	io->bs = j->bs;
	io->qd = j->iodepth * j->numjobs;
	io->threads = j->numjobs;
	io->mbps = fd->bw_bytes > 0 ? fd->bw_bytes / 1e6 : NAN;
	io->iops = fd->iops > 0 ? fd->iops : NAN;
	io->lat = fd->lat;
	io->seconds = fd->runtime_ms > 0 ? fd->runtime_ms / 1000 : NAN;
	io->ios = fd->ios > 0 ? fd->ios : -1;
}

static void note_used(struct fjob *j, const char *test)
{
	profile_device_add_notef(j->dev, "%s: fio job \"%s\": %s%s", test, j->name, j->opts,
				 j->n_entries > 1 && isnan(j->rd.lat.v[PROFILE_LAT_P99]) &&
				 isnan(j->wr.lat.v[PROFILE_LAT_P99]) ?
				 " (numjobs reported apart: their percentiles cannot be "
				 "combined without json+ bins or group_reporting)" : "");
	j->used = true;
	if (j->dev->probe.target == PROFILE_TGT_RAW_READONLY && j->kind != FK_SEQ_READ &&
	    j->kind != FK_RAND_READ)
		j->dev->probe.target = PROFILE_TGT_RAW_DESTRUCTIVE;
	j->dev->probe.seconds += (j->rd.runtime_ms > j->wr.runtime_ms ? j->rd.runtime_ms :
				 j->wr.runtime_ms) / 1000;
}

/* Put job j in test t unless the test is taken; true when it was. */
static bool take_test(struct fjob *j, enum profile_io_test t, const struct fdir *fd)
{
	struct profile_io *io = &j->dev->io[t];

	if (io->present)
		return false;
	fill_io(io, j, fd);
	if (t == PROFILE_MIXED_70_30) {
		io->iops = j->rd.iops + j->wr.iops;
		io->mbps = (j->rd.bw_bytes + j->wr.bw_bytes) / 1e6;
		io->read_iops = j->rd.iops > 0 ? j->rd.iops : NAN;
		io->write_iops = j->wr.iops > 0 ? j->wr.iops : NAN;
		io->ios = j->rd.ios + j->wr.ios;
	}
	note_used(j, profile_io_test_name(t));
	return true;
}

/* A qd_sweep point for job j unless its depth is there already. */
static int take_sweep(struct fjob *j)
{
	struct profile_device *d = j->dev;
	long qd = j->iodepth * j->numjobs;
	struct profile_sweep *v;
	size_t at = 0;

	for (; at < d->n_sweep && d->sweep[at].qd <= qd; at++)
		if (d->sweep[at].qd == qd)
			return 0;
	v = realloc(d->sweep, (d->n_sweep + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	d->sweep = v;
	memmove(&v[at + 1], &v[at], (d->n_sweep - at) * sizeof(*v));
	v[at] = (struct profile_sweep){ .qd = qd, .iops = j->rd.iops, .lat = j->rd.lat };
	d->n_sweep++;
	if (!j->used)
		note_used(j, "qd_sweep");
	else
		profile_device_add_notef(d, "qd_sweep: QD%ld from fio job \"%s\" too", qd,
					 j->name);
	return 0;
}

/* Mark per device: the longest of two or more 1 MiB sequential-write jobs is
 * the sustained write; three or more depths of 4 KiB random reads are a
 * sweep. */
static void mark_families(struct fjob *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t writes = 0, depths = 0, longest = i;

		for (size_t k = 0; k < n; k++) {
			if (v[k].dev != v[i].dev || v[k].kind != v[i].kind)
				continue;
			writes++;
			if (v[k].wr.runtime_ms > v[longest].wr.runtime_ms)
				longest = k;
			bool seen = false;

			for (size_t m = 0; m < k; m++)
				seen |= v[m].dev == v[k].dev && v[m].kind == FK_RAND_READ &&
					v[m].iodepth * v[m].numjobs == v[k].iodepth * v[k].numjobs;
			depths += !seen;
		}
		if (v[i].kind == FK_SEQ_WRITE && writes >= 2 && longest == i)
			v[i].sustained = true;
		if (v[i].kind == FK_RAND_READ && depths >= 3)
			v[i].sweep = true;
	}
}

static void take_sustained(struct fjob *j)
{
	struct profile_sustained *s = &j->dev->sustained;

	if (s->present)
		return;
	s->present = true;
	s->mbps = j->wr.bw_bytes > 0 ? j->wr.bw_bytes / 1e6 : NAN;
	s->initial_mbps = NAN;
	s->cliff_after_gb = NAN;
	s->seconds = j->wr.runtime_ms > 0 ? j->wr.runtime_ms / 1000 : NAN;
	note_used(j, "sustained_write");
	profile_device_add_note(j->dev, "sustained_write: the mean over the whole fio job; "
				"fio gives no cliff (initial_mbps, cliff_after_gb unknown)");
}

/* Place job j in the tests it measures.  Returns 0 or -ENOMEM. */
static int place(struct fjob *j)
{
	long qd = j->iodepth * j->numjobs;

	switch (j->kind) {
	case FK_SEQ_READ:
		take_test(j, PROFILE_SEQ_READ, &j->rd);
		break;
	case FK_SEQ_WRITE:
		if (j->sustained)
			take_sustained(j);
		else
			take_test(j, PROFILE_SEQ_WRITE, &j->wr);
		break;
	case FK_RAND_READ:
		if (qd == 1 || qd == 32)
			take_test(j, qd == 1 ? PROFILE_RAND_READ_QD1 : PROFILE_RAND_READ_QD32, &j->rd);
		if (j->sweep && take_sweep(j) < 0)
			return -ENOMEM;
		if (!j->used && qd != 1 && qd != 32 && !j->sweep)
			j->why = "4 KiB random reads at a depth of neither 1 nor 32 (a sweep "
				 "needs three depths or more)";
		break;
	case FK_MIXED:
		take_test(j, PROFILE_MIXED_70_30, &j->rd);
		break;
	default:
		break;
	}
	if (!j->used && !j->why && j->kind == FK_RAND_READ && qd != 1 && qd != 32) {
		snprintf(j->whybuf, sizeof(j->whybuf), "qd_sweep's QD%ld is given already by "
			 "an earlier job", qd);
		j->why = j->whybuf;
	} else if (!j->used && !j->why) {
		snprintf(j->whybuf, sizeof(j->whybuf), "%s is given already by an earlier job",
			 j->kind == FK_SEQ_WRITE && j->sustained ? "sustained_write" :
			 profile_io_test_name(j->kind == FK_SEQ_READ ? PROFILE_SEQ_READ :
					      j->kind == FK_SEQ_WRITE ? PROFILE_SEQ_WRITE :
					      j->kind == FK_MIXED ? PROFILE_MIXED_70_30 :
					      qd == 1 ? PROFILE_RAND_READ_QD1 : PROFILE_RAND_READ_QD32));
		j->why = j->whybuf;
	}
	return 0;
}

/* A job that maps to nothing: a note on its device and a line in res. */
static int unmapped(struct ictx *c, const struct fjob *j)
{
	char line[640], **v;
	int n = snprintf(line, sizeof(line), "job \"%s\" (rw=%s bs=%ld iodepth=%ld numjobs=%ld) "
			 "maps to no test: %s", j->name, j->rw, j->bs, j->iodepth, j->numjobs,
			 j->why ? j->why : "none measures it");

	if (n < 0 || profile_device_add_notef(j->dev, "not imported: fio %s", line) < 0)
		return -ENOMEM;
	v = realloc(c->res->unmapped, (c->res->n_unmapped + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->res->unmapped = v;
	if (asprintf(&v[c->res->n_unmapped], "%s: %s", c->doc.name, line) < 0)
		return -ENOMEM;
	c->res->n_unmapped++;
	return 0;
}

static int map_jobs(struct ictx *c, struct fjob *v, size_t n)
{
	size_t *at = calloc(n ? n : 1, sizeof(*at));

	if (!at)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {	/* adding moves the devices: indexes first */
		struct profile_device *d = device_for(c, v[i].filename, &v[i]);

		if (!d) {
			free(at);
			return -ENOMEM;
		}
		at[i] = (size_t)(d - c->p->devices);
	}
	for (size_t i = 0; i < n; i++)
		v[i].dev = &c->p->devices[at[i]];
	free(at);
	mark_families(v, n);
	for (size_t i = 0; i < n; i++) {
		if (place(&v[i]) < 0 || (!v[i].used && unmapped(c, &v[i]) < 0))
			return -ENOMEM;
		c->res->n_jobs++;
		c->res->n_mapped += v[i].used;
	}
	return 0;
}

/* ---- the document ---- */

/* The offset of the JSON document: fio may print warnings on the same
 * stream first.  The lines skipped are counted into *lines. */
static size_t json_start(const char *text, size_t len, int *lines)
{
	size_t i = 0;

	*lines = 0;
	while (i < len && text[i] != '{') {
		const char *nl = memchr(text + i, '\n', len - i);

		if (!nl)
			return 0;
		i = (size_t)(nl - text) + 1;
		++*lines;
		while (i < len && (text[i] == ' ' || text[i] == '\t'))
			i++;
		if (i < len && text[i] == '{')
			break;
	}
	return i < len ? i : 0;
}

static void set_created(struct ictx *c, const json_t *root)
{
	const json_t *ts = json_object_get(root, "timestamp");
	time_t t = json_is_integer(ts) ? (time_t)json_integer_value(ts) : 0;
	struct tm tm;

	if (!t || !gmtime_r(&t, &tm) ||
	    !strftime(c->created, sizeof(c->created), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(c->created, sizeof(c->created), "an unknown time");
}

/* Check the top level: fio's version, its jobs.  Returns the jobs array. */
static const json_t *top(struct ictx *c, const json_t *root, const char **an)
{
	const json_t *v = json_object_get(root, "fio version"), *jobs;

	if (!v) {
		enum profile_file_kind k = profile_file_kind(c->doc.text, c->doc.len);

		if (tw_diags_add(c->doc.d, c->doc.name, 0, 0, NULL, "this is %s, not fio output (no "
				 "\"fio version\" key): give what `fio --output-format=json` "
				 "writes", profile_file_kind_name(k)) < 0)
			c->doc.err = -ENOMEM;
		else
			c->doc.err = -EINVAL;
		return NULL;
	}
	if (!json_is_string(v))
		bad(c, "fio version", "must be a string");
	else
		c->version = json_string_value(v);
	c->gopts = json_object_get(root, "global options");
	if (c->gopts && !json_is_object(c->gopts)) {
		bad(c, "global options", "must be an object");
		c->gopts = NULL;
	}
	*an = json_object_get(root, "jobs") ? "jobs" : "client_stats";
	jobs = json_object_get(root, *an);
	if (!json_is_array(jobs)) {
		bad(c, "jobs", jobs ? "must be an array" : "required key is missing");
		return NULL;
	}
	set_created(c, root);
	return jobs;
}

static int import_root(struct ictx *c, const json_t *root)
{
	const char *an = "jobs";
	const json_t *jobs;
	struct fjob *v = NULL;
	long n;
	int ret;

	if (!json_is_object(root)) {
		bad(c, "", "fio output is a JSON object, not this");
		return c->doc.err;
	}
	jobs = top(c, root, &an);
	if (!jobs)
		return c->doc.err;
	n = read_jobs(c, jobs, an, &v);
	if (n < 0)
		return (int)n;
	if (c->doc.err) {
		free(v);
		return c->doc.err;
	}
	if (c->version && !c->res->fio_version) {	/* the first file: when it ran */
		c->res->fio_version = strdup(c->version);
		if (c->created[0] >= '0' && c->created[0] <= '9') {
			char *t = strdup(c->created);

			if (t) {
				free(c->p->created);
				c->p->created = t;
			}
		}
	}
	ret = map_jobs(c, v, (size_t)n);
	free(v);
	return ret;
}

int fio_import_string(struct profile *p, const char *text, size_t len, const char *name,
		      struct fio_import_result *res, struct tw_diags *diags)
{
	struct ictx c = { .doc = { .name = name, .d = diags }, .p = p, .res = res };
	size_t off = json_start(text, len, &c.doc.line_off);
	json_error_t je;
	json_t *root;
	int ret;

	c.doc.text = text + off;
	c.doc.len = len - off;
	if (!off)
		c.doc.line_off = 0;
	/* no JSON_REJECT_DUPLICATES: fio 2.x repeats "0.00" in percentile */
	root = json_loadb(c.doc.text, c.doc.len, JSON_DISABLE_EOF_CHECK, &je);
	if (!root) {
		enum profile_file_kind k = profile_file_kind(text, len);

		if (k == PROFILE_KIND_JSON)
			ret = tw_diags_add(diags, name, je.line + c.doc.line_off, je.column, NULL,
					   "not valid JSON: %s", je.text);
		else
			ret = tw_diags_add(diags, name, 0, 0, NULL, "this is %s, not fio "
					   "output: give what `fio --output-format=json` writes",
					   profile_file_kind_name(k));
		return ret < 0 ? -ENOMEM : -EINVAL;
	}
	ret = import_root(&c, root);
	json_decref(root);
	tw_jsonpos_free(c.doc.ix);
	return ret;
}

int fio_import_file(struct profile *p, const char *path, struct fio_import_result *res,
		    struct tw_diags *diags)
{
	char *text;
	size_t len;
	int ret = profile_slurp(path, &text, &len);

	if (ret < 0)
		return ret;
	ret = fio_import_string(p, text, len, path, res, diags);
	free(text);
	return ret;
}

void fio_import_result_free(struct fio_import_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n_unmapped; i++)
		free(res->unmapped[i]);
	free(res->unmapped);
	free(res->fio_version);
	memset(res, 0, sizeof(*res));
}
