/* sysroot.h — private: every /sys, /proc and /dev access goes through here.
 *
 * A sysroot is a directory prefix ("" or "/" for the live system), as
 * lsblk --sysroot: tests replay recorded machines from tests/fixtures/.
 */
#ifndef TW_PROBE_SYSROOT_H
#define TW_PROBE_SYSROOT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Build sysroot + "/" + rel (printf-style) into buf.
 * Returns 0, or -ENAMETOOLONG when it does not fit.
 */
int probe_sys_path(const char *sysroot, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Read a sysfs attribute as a string with trailing whitespace and NULs
 * removed.  Returns a malloc'd string (caller frees), or NULL when the file
 * is missing, unreadable or empty.
 */
char *probe_sys_str(const char *sysroot, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Read up to len bytes of a (possibly binary) attribute into buf.
 * Returns the number of bytes read, or -errno.
 */
long probe_sys_bin(const char *sysroot, void *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Read an unsigned decimal attribute into *val.
 * Returns 0, -errno when unreadable, or -EINVAL when it is not a number.
 */
int probe_sys_u64(const char *sysroot, uint64_t *val, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The names in a directory (without "." and ".."), sorted with a natural
 * order (nvme2n1 before nvme10n1).  *names is a malloc'd array of malloc'd
 * strings; free with probe_sys_names_free().  A missing directory gives 0
 * names.  Returns 0 or -ENOMEM.
 */
int probe_sys_list(const char *sysroot, char ***names, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Free what probe_sys_list() returned.  NULL-safe. */
void probe_sys_names_free(char **names, size_t n);

/*
 * The target of a symlink resolved inside the sysroot, made relative to it
 * again ("/sys/devices/..."), into buf.  Returns 0 or -errno.
 */
int probe_sys_realpath(const char *sysroot, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
