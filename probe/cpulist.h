/* cpulist.h — the kernel's CPU list format ("0-31,64-95"), as in sysfs
 * local_cpulist (private to the probe). */
#ifndef TW_CPULIST_H
#define TW_CPULIST_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#define PROBE_CPUS_MAX 8192	/* CPUs a list is read for (the kernel's NR_CPUS at most) */

/*
 * Set on[c] for every CPU c < n that list names; CPUs at or past n are
 * ignored, a trailing newline is fine.  Returns false when list does not
 * parse (on[] may then be partly set).
 */
bool probe_cpulist_mark(const char *list, bool *on, size_t n);

/*
 * The CPUs c < n with on[c] set, as a list ("0-3,8"; "" for none).
 * Returns a malloc'd string, or NULL when out of memory.
 */
char *probe_cpulist_format(const bool *on, size_t n);

/* The same for the CPUs of s. */
char *probe_cpuset_format(const cpu_set_t *s);

/*
 * The CPUs of list that are in allowed, into *s.  Returns false when list
 * does not parse or none of its CPUs is allowed.
 */
bool probe_cpulist_set(const char *list, const cpu_set_t *allowed, cpu_set_t *s);

#endif
