/* ata.h — private: ATA SMART through libatasmart. */
#ifndef TW_PROBE_ATA_H
#define TW_PROBE_ATA_H

#include "probe.h"

/*
 * Read the SMART data of the ATA disk at devpath: temperature, overall
 * status, power-on hours, bad (reallocated + pending) sectors as media
 * errors.  Sets h->source.  Returns 0, -EOPNOTSUPP when SMART is not
 * available (USB bridges), -ENODATA without a temperature, or -errno.
 */
int probe_ata_read(const char *devpath, struct probe_health *h);

#endif
