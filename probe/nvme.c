/* NVMe thermal and health data through libnvme (1.x): the one file that
 * sends admin commands, and the decoders of the pages they return. */
#include "nvme.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libnvme.h>

#include "sysroot.h"

_Static_assert(sizeof(struct nvme_id_ctrl) == PROBE_NVME_ID_LEN, "id page size");
_Static_assert(sizeof(struct nvme_smart_log) == PROBE_NVME_SMART_LEN, "smart page size");

double probe_nvme_kelvin(unsigned k)
{
	double c = (double)k - 273.0;

	/* Outside the profile's [-50, 200] °C: a broken sensor, not a reading
	 * (the profile reader would refuse the whole device). */
	return k && c >= -50 && c <= 200 ? c : NAN;
}

/* A 128-bit little-endian counter, saturated to LONG_MAX. */
static long le128(const unsigned char *b)
{
	unsigned long long lo = 0;

	for (int i = 15; i >= 8; i--)
		if (b[i])
			return LONG_MAX;
	for (int i = 7; i >= 0; i--)
		lo = lo << 8 | b[i];
	return lo > (unsigned long long)LONG_MAX ? LONG_MAX : (long)lo;
}

int probe_nvme_decode_id(const void *page, size_t len, struct probe_health *h)
{
	struct nvme_id_ctrl id;

	if (len < sizeof(id))
		return -EINVAL;
	memcpy(&id, page, sizeof(id));
	h->warning_c = probe_nvme_kelvin(le16toh(id.wctemp));
	h->critical_c = probe_nvme_kelvin(le16toh(id.cctemp));
	h->mntmt_c = probe_nvme_kelvin(le16toh(id.mntmt));
	h->mxtmt_c = probe_nvme_kelvin(le16toh(id.mxtmt));
	h->hctma = le16toh(id.hctma) & 1;
	return 0;
}

int probe_nvme_decode_smart(const void *page, size_t len, struct probe_health *h)
{
	struct nvme_smart_log s;
	struct profile_health *l = &h->log;

	if (len < sizeof(s))
		return -EINVAL;
	memcpy(&s, page, sizeof(s));
	h->temp_c = probe_nvme_kelvin((unsigned)s.temperature[1] << 8 | s.temperature[0]);
	l->present = true;
	l->critical_warning = s.critical_warning;
	l->available_spare = s.avail_spare;
	l->available_spare_threshold = s.spare_thresh;
	l->percentage_used = s.percent_used;
	l->media_errors = le128(s.media_errors);
	l->power_on_hours = le128(s.power_on_hours);
	l->warning_temp_minutes = le32toh(s.warning_temp_time);
	l->critical_temp_minutes = le32toh(s.critical_comp_time);
	l->tmt1_transitions = le32toh(s.thm_temp1_trans_count);
	l->tmt2_transitions = le32toh(s.thm_temp2_trans_count);
	l->tmt1_seconds = le32toh(s.thm_temp1_total_time);
	l->tmt2_seconds = le32toh(s.thm_temp2_total_time);
	for (int i = 0; i < PROFILE_SENSORS; i++)
		l->sensors_c[i] = probe_nvme_kelvin(le16toh(s.temp_sensor[i]));
	return 0;
}

void probe_nvme_status_str(int status, const char *cmd, char *buf, size_t len)
{
	snprintf(buf, len, "%s failed with NVMe status 0x%x (%s)", cmd, (unsigned)status,
		 nvme_status_to_string(status, false));
}

int probe_nvme_read(const char *sysroot, const char *ctrl, bool with_id,
		    struct probe_health *h, char *err, size_t errlen)
{
	struct nvme_smart_log smart;
	struct nvme_id_ctrl id;
	char path[PATH_MAX];
	const char *cmd = "Identify Controller";
	int fd, ret = 0;

	if (errlen)
		err[0] = '\0';
	if (probe_sys_path(sysroot, path, sizeof(path), "dev/%s", ctrl) < 0)
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (with_id) {
		ret = nvme_identify_ctrl(fd, &id);
		if (ret == 0)
			probe_nvme_decode_id(&id, sizeof(id), h);
	}
	if (ret == 0) {
		cmd = "Get Log Page (SMART / Health)";
		ret = nvme_get_log_smart(fd, NVME_NSID_ALL, true, &smart);
	}
	if (ret == 0) {
		probe_nvme_decode_smart(&smart, sizeof(smart), h);
	} else if (ret > 0) {	/* the controller answered with a status: keep it */
		probe_nvme_status_str(ret, cmd, err, errlen);
		ret = -EIO;
	} else {
		ret = -errno;
	}
	close(fd);
	return ret;
}
