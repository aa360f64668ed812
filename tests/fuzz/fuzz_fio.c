/* Fuzz the fio importer (fio_import_string) on arbitrary bytes.
 *
 * Whatever it accepts must be a valid profile: written and read back by
 * the profile reader without a problem.  Whatever it refuses must say why.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fio_import.h"
#include "fuzz.h"
#include "profile.h"

/* The imported profile, written and read back: the reader accepts it. */
static void check_roundtrip(const struct profile *p)
{
	struct tw_diags d = { 0 };
	struct profile *back = NULL;
	char *text = profile_write_string(p);

	if (!text)
		return;		/* out of memory */
	if (profile_read_string(text, strlen(text), "imported", &back, &d) != 0) {
		fuzz_diags_print(&d);
		fuzz_fail("an imported profile does not read back");
	}
	if (back->n_devices != p->n_devices)
		fuzz_fail("%zu devices read back of %zu", back->n_devices, p->n_devices);
	profile_free(back);
	tw_diags_clear(&d);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tw_diags diags = { 0 };
	struct fio_import_result res = { 0 };
	struct profile *p = profile_new();
	bool quoted_null;
	int ret;

	if (!p)
		return 0;
	/* "(null)" in a line is a NULL string printed, unless the input has it. */
	quoted_null = memmem(data, size, "(null)", 6) != NULL;
	ret = fio_import_string(p, (const char *)data, size, "fuzz.json", &res, &diags);
	if (ret == -EINVAL && diags.n == 0)
		fuzz_fail("invalid input without a diagnostic");
	if (ret == 0 && diags.n)
		fuzz_fail("success with %zu diagnostics", diags.n);
	fuzz_diags_check(&diags);
	if (ret == 0 && res.n_mapped + res.n_unmapped != res.n_jobs)
		fuzz_fail("%zu jobs: %zu mapped, %zu not", res.n_jobs, res.n_mapped, res.n_unmapped);
	for (size_t i = 0; i < res.n_unmapped; i++)
		if ((strstr(res.unmapped[i], "(null)") && !quoted_null) ||
		    !strstr(res.unmapped[i], "maps to no test: "))
			fuzz_fail("unmapped line \"%s\"", res.unmapped[i]);
	if (ret == 0)
		check_roundtrip(p);
	fio_import_result_free(&res);
	tw_diags_clear(&diags);
	profile_free(p);
	return 0;
}
