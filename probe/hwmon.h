/* hwmon.h — private: device temperatures from sysfs hwmon. */
#ifndef TW_PROBE_HWMON_H
#define TW_PROBE_HWMON_H

#include "probe.h"

/*
 * Read temp1_input (and temp1_max / temp1_crit as warning / critical) of
 * the hwmon device under sys/block/NAME/device (a multipath head's: its
 * controller's, d->controller).  Sets h->source.
 * Returns 0, -ENOENT when there is no hwmon, -ENODATA when it has no
 * readable temperature.
 */
int probe_hwmon_read(const char *sysroot, const struct probe_dev *d,
		     struct probe_health *h);

#endif
