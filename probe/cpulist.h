/* cpulist.h — the kernel's CPU list format ("0-31,64-95"), as in sysfs
 * local_cpulist (private to the probe). */
#ifndef TW_CPULIST_H
#define TW_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Set on[c] for every CPU c < n that list names; CPUs at or past n are
 * ignored, a trailing newline is fine.  Returns false when list does not
 * parse (on[] may then be partly set).
 */
bool probe_cpulist_mark(const char *list, bool *on, size_t n);

#endif
