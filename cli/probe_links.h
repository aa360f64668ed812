/* probe_links.h — the link pass of `tierwise probe`: which devices share a
 * bottleneck (a link, a switch, an HBA, a throttle group), found by reading
 * them together against alone.
 */
#ifndef TW_PROBE_LINKS_H
#define TW_PROBE_LINKS_H

#include "probe_jobs.h"

/* Together below this share of the sum of the solo reads: shared. */
#define PROBE_LINKS_SHARED 0.80
/* A device whose addition raises the total by less than this share of its
 * own solo read is checked for a partner. */
#define PROBE_LINKS_RAISE 0.50

/*
 * Among the jobs v[0..n) whose profiles hold a solo seq_read (RAM-backed
 * devices left out: their bottleneck is the CPU), read all at once: when
 * each keeps PROBE_LINKS_SHARED of its solo read nothing is shared (one
 * read, noted on each).  Else add devices one at a time
 * to a set read at once; a device whose addition does not raise the total
 * is read in pairs with each member to name exactly whom it shares with.
 * Each group found (together < PROBE_LINKS_SHARED × the solo sum) is added
 * to prof->links and noted on its devices.  Returns 0 or -ENOMEM.
 */
int probe_links_find(struct probe_job *v, size_t n, const struct probe_options *o,
		     struct profile *prof, bool quiet);

#endif
