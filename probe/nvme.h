/* nvme.h — private: NVMe Identify Controller and SMART / Health log.
 *
 * The decoders are pure (tests feed recorded binary pages); the reader is
 * the one place that talks to a controller, through libnvme's 1.x API.
 */
#ifndef TW_PROBE_NVME_H
#define TW_PROBE_NVME_H

#include <stddef.h>

#include "probe.h"

#define PROBE_NVME_ID_LEN 4096
#define PROBE_NVME_SMART_LEN 512

/* NVMe temperatures are Kelvin: °C = K − 273; 0 = not reported and
 * readings outside [-50, 200] °C (what a profile accepts) = NAN. */
double probe_nvme_kelvin(unsigned k);

/*
 * Decode an Identify Controller page (4096 bytes): WCTEMP, CCTEMP, MNTMT,
 * MXTMT, HCTMA into h.  Returns 0, or -EINVAL when len is short.
 */
int probe_nvme_decode_id(const void *page, size_t len, struct probe_health *h);

/*
 * Decode a SMART / Health log page (512 bytes): composite temperature,
 * sensors 1–8, critical warning, spare, wear, media errors, power-on hours,
 * warning/critical temperature time, thermal-management transitions and
 * time into h.  Returns 0, or -EINVAL when len is short.
 */
int probe_nvme_decode_smart(const void *page, size_t len, struct probe_health *h);

/*
 * Read both pages from controller ctrl ("nvme0") at sysroot/dev/ctrl and
 * decode them (Identify only when with_id).  Returns 0 or -errno; when the
 * controller answered with an NVMe status, -EIO and err says which command
 * and which status (libnvme's name for it); err is "" otherwise.
 */
int probe_nvme_read(const char *sysroot, const char *ctrl, bool with_id,
		    struct probe_health *h, char *err, size_t errlen);

/* "CMD failed with NVMe status 0x2 (Invalid Field in Command…)" into buf. */
void probe_nvme_status_str(int status, const char *cmd, char *buf, size_t len);

#endif
