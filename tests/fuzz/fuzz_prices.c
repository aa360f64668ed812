/* Fuzz the price-list parser (model_prices_parse) on arbitrary bytes.
 *
 * A list the parser accepts is applied to two devices (one named by id, one
 * by model): an applied price is a finite number ≥ 0, and a device that
 * already has a price keeps it.
 */
#include <errno.h>
#include <math.h>

#include "fuzz.h"
#include "profile.h"
#include "score.h"

static void check_apply(const struct model_prices *pr)
{
	struct profile_device d = { .id = "nvme0n1", .model = "INTEL SSDPE21D960GA",
				    .price_per_tb = NAN };
	struct profile_device priced = d;
	double first;

	if (model_prices_apply(pr, &d) && !(isfinite(d.price_per_tb) && d.price_per_tb >= 0))
		fuzz_fail("applied price %g", d.price_per_tb);
	first = d.price_per_tb;
	if (!isnan(first) && (model_prices_apply(pr, &d) || d.price_per_tb != first))
		fuzz_fail("a price applied twice");
	priced.price_per_tb = 123.5;
	if (model_prices_apply(pr, &priced) || priced.price_per_tb != 123.5)
		fuzz_fail("a device's own price was replaced by %g", priced.price_per_tb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tw_diags diags = { 0 };
	struct model_prices *pr = NULL;
	int ret = model_prices_parse((const char *)data, size, "fuzz.prices", &pr, &diags);

	if (ret == 0 && !pr)
		fuzz_fail("success without a list");
	if (ret == -EINVAL && (pr || diags.n == 0))
		fuzz_fail("invalid input: list %p, %zu diagnostics", (void *)pr, diags.n);
	fuzz_diags_check(&diags);
	if (ret == 0)
		check_apply(pr);
	model_prices_free(pr);
	tw_diags_clear(&diags);
	return 0;
}
