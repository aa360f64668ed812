/* Fuzz the NVMe Identify Controller and SMART / Health log decoders.
 *
 * Input: a 4096-byte Identify page followed by a 512-byte SMART log page
 * (shorter inputs exercise the short-page checks).  Invariants: a short
 * page is refused with -EINVAL and leaves h alone; decoded values are in the
 * ranges their fields allow; and the decoded health, put into a profile as
 * the probe does (probe/thermal.c), is written into a profile the reader
 * accepts (whatever a drive reports, the probe writes a valid profile).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "nvme.h"
#include "profile.h"

static void check_health(const struct probe_health *h)
{
	const struct profile_health *l = &h->log;

	if (h->hctma < -1 || h->hctma > 1)
		fuzz_fail("hctma %d", h->hctma);
	if (!l->present)
		return;	/* no SMART page decoded: every field unknown */
	if (l->critical_warning < 0 || l->critical_warning > 255 ||
	    l->percentage_used < 0 || l->percentage_used > 255 ||
	    l->available_spare < 0 || l->available_spare > 255)
		fuzz_fail("a one-byte field out of 0-255");
	if (l->media_errors < 0 || l->power_on_hours < 0 || l->tmt1_seconds < 0 ||
	    l->tmt2_seconds < 0 || l->warning_temp_minutes < 0)
		fuzz_fail("a negative counter");
	for (int i = 0; i < PROFILE_SENSORS; i++)
		if (!isnan(l->sensors_c[i]) && (l->sensors_c[i] < -50 || l->sensors_c[i] > 200))
			fuzz_fail("sensor %d at %g °C", i, l->sensors_c[i]);
}

/* Put h into a device as probe/thermal.c does, write, read back. */
static void check_profile(const struct probe_health *h)
{
	struct tw_diags diags = { 0 };
	struct profile *p = profile_new(), *back = NULL;
	struct profile_device *d = p ? profile_add_device(p, "nvme0n1") : NULL;
	char *text = NULL;

	if (!d)
		goto out;
	d->path = strdup("/dev/nvme0n1");
	d->model = strdup("FUZZ NVME");
	d->transport = PROFILE_TR_NVME;
	d->media = PROFILE_MEDIA_NAND;
	d->capacity_bytes = 960197124096;
	d->health = h->log;
	d->health.present = true;
	d->health.source = strdup("nvme smart log (libnvme)");
	d->thermal.idle_c = h->temp_c;
	d->thermal.warning_c = h->warning_c;
	d->thermal.critical_c = h->critical_c;
	d->thermal.throttle_events = 0;
	d->thermal.source = strdup("nvme smart log (libnvme)");
	if (!d->path || !d->model || !d->health.source || !d->thermal.source)
		goto out;
	text = profile_write_string(p);
	if (text && profile_read_string(text, strlen(text), "nvme.json", &back, &diags) == -EINVAL) {
		fuzz_diags_print(&diags);
		fuzz_fail("the probe's profile is refused:\n%s", text);
	}
out:
	free(text);
	profile_free(back);
	profile_free(p);
	tw_diags_clear(&diags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *smart = size > PROBE_NVME_ID_LEN ? data + PROBE_NVME_ID_LEN : data;
	size_t smart_len = size > PROBE_NVME_ID_LEN ? size - PROBE_NVME_ID_LEN : size;
	struct probe_health h, none;
	int id_ret, smart_ret;

	memset(&h, 0, sizeof(h));	/* padding too: compared below */
	memset(&none, 0, sizeof(none));
	probe_health_init(&h);
	probe_health_init(&none);
	id_ret = probe_nvme_decode_id(data, size, &h);
	if ((size < PROBE_NVME_ID_LEN) != (id_ret == -EINVAL) || (id_ret && id_ret != -EINVAL))
		fuzz_fail("identify: %d for %zu bytes", id_ret, size);
	smart_ret = probe_nvme_decode_smart(smart, smart_len, &h);
	if ((smart_len < PROBE_NVME_SMART_LEN) != (smart_ret == -EINVAL) ||
	    (smart_ret && smart_ret != -EINVAL))
		fuzz_fail("smart: %d for %zu bytes", smart_ret, smart_len);
	if (id_ret && smart_ret && memcmp(&h, &none, sizeof(h)))
		fuzz_fail("a refused page changed the health");
	check_health(&h);
	if (!smart_ret)
		check_profile(&h);
	return 0;
}
