/* Fuzz the profile reader (profile_read_string) on arbitrary bytes.
 *
 * Invariant: a profile the reader accepts is written by profile_write_string
 * into text that the reader accepts again and that writes back identically
 * (the writer and the reader agree on every field).
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "profile.h"

/* Write p, read it back and write again: both texts must be equal. */
static void roundtrip(const struct profile *p)
{
	struct tw_diags diags = { 0 };
	struct profile *again = NULL;
	char *text = profile_write_string(p), *text2 = NULL;
	int ret;

	if (!text)
		return;	/* out of memory */
	ret = profile_read_string(text, strlen(text), "rewritten.json", &again, &diags);
	if (ret == -EINVAL) {
		fuzz_diags_print(&diags);
		fuzz_fail("the reader rejects what the writer wrote:\n%s", text);
	}
	if (ret == 0 && (text2 = profile_write_string(again)) && strcmp(text, text2))
		fuzz_fail("write(read(write(p))) differs from write(p):\n%s\n---\n%s",
			  text, text2);
	free(text2);
	profile_free(again);
	tw_diags_clear(&diags);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tw_diags diags = { 0 };
	struct profile *p = NULL;
	int ret = profile_read_string((const char *)data, size, "fuzz.json", &p, &diags);

	if (ret == 0 && !p)
		fuzz_fail("success without a profile");
	if (ret == -EINVAL && (p || diags.n == 0))
		fuzz_fail("invalid input: profile %p, %zu diagnostics", (void *)p, diags.n);
	fuzz_diags_check(&diags);
	if (ret == 0)
		roundtrip(p);
	profile_free(p);
	tw_diags_clear(&diags);
	return 0;
}
