/* Fuzz the policy parser (model_policy_parse) on arbitrary bytes.
 *
 * A policy the parser accepts ranks the 18 devices of
 * examples/ai-server-18-devices.json (loaded once): every score is NAN or
 * in 0–100, every confidence in 0–1, and every device appears once.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "policy.h"
#include "profile.h"
#include "score.h"

#ifndef TW_FUZZ_SRCDIR
#define TW_FUZZ_SRCDIR "."
#endif

static struct profile *example;
static const struct profile_device **devs;

static void example_free(void)
{
	profile_free(example);
	free(devs);
}

/* The example profile, read once; aborts when it cannot be read. */
static void example_load(void)
{
	const char *src = getenv("TW_SRCDIR");
	struct tw_diags diags = { 0 };
	char path[4096];

	if (example)
		return;
	snprintf(path, sizeof(path), "%s/examples/ai-server-18-devices.json",
		 src ? src : TW_FUZZ_SRCDIR);
	if (profile_read_file(path, &example, &diags) < 0) {
		fuzz_diags_print(&diags);
		fuzz_fail("cannot read %s (set TW_SRCDIR)", path);
	}
	tw_diags_clear(&diags);
	devs = calloc(example->n_devices, sizeof(*devs));
	if (!devs)
		fuzz_fail("out of memory");
	for (size_t i = 0; i < example->n_devices; i++)
		devs[i] = &example->devices[i];
	atexit(example_free);
}

static void check_ranking(const struct model_policy *p, const struct model_ranking *r)
{
	if (r->n != example->n_devices)
		fuzz_fail("%zu devices ranked, %zu given", r->n, example->n_devices);
	for (size_t i = 0; i < r->n; i++) {
		const struct model_score *s = &r->v[i];

		if (!isnan(s->score) && (s->score < 0 || s->score > 100))
			fuzz_fail("score %g out of 0-100", s->score);
		if (!(s->confidence >= 0 && s->confidence <= 1))
			fuzz_fail("confidence %g out of 0-1", s->confidence);
		if (s->n_contrib != p->n_metrics || s->n_est != p->n_estimates)
			fuzz_fail("%zu contributions for %zu metrics", s->n_contrib, p->n_metrics);
		if (model_ranking_find(r, s->dev->id) != s)
			fuzz_fail("device %s ranked twice", s->dev->id);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tw_diags diags = { 0 };
	struct model_policy *p = NULL;
	struct model_ranking *r = NULL;
	int ret;

	example_load();
	ret = model_policy_parse((const char *)data, size, "fuzz.yaml", &p, &diags);
	if (ret == 0 && !p)
		fuzz_fail("success without a policy");
	if (ret == -EINVAL && (p || diags.n == 0))
		fuzz_fail("invalid input: policy %p, %zu diagnostics", (void *)p, diags.n);
	fuzz_diags_check(&diags);
	if (ret == 0 && model_rank(p, devs, example->n_devices, &r) == 0)
		check_ranking(p, r);
	model_ranking_free(r);
	model_policy_free(p);
	tw_diags_clear(&diags);
	return 0;
}
