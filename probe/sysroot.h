/* sysroot.h — private: every /sys, /proc and /dev access goes through here.
 *
 * A sysroot is a directory prefix ("" or "/" for the live system), as
 * lsblk --sysroot: tests replay recorded machines from tests/fixtures/.
 */
#ifndef TW_PROBE_SYSROOT_H
#define TW_PROBE_SYSROOT_H

#include <limits.h>
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

/*
 * One block device's sysfs directory, sys/block/NAME (or a directory under
 * it: a partition, a hwmon), as util-linux's ul_path: built once per
 * device, its attributes read by a path relative to it ("queue/rotational")
 * through the probe_sys_* functions above.  A plain value, nothing to free;
 * sysroot is borrowed and must outlive the handle.
 */
struct probe_sysdev {
	const char *sysroot;
	char rel[sizeof("sys/block/") + 2 * (NAME_MAX + 1)];	/* "sys/block/NAME" */
};

/*
 * Point h at sys/block/name under sysroot.  name is one directory entry:
 * not empty, no '/', not "." or "..".  Returns 0, -EINVAL for such a name
 * or -ENAMETOOLONG when it does not fit; h is unusable after an error.
 */
int probe_sysdev_init(struct probe_sysdev *h, const char *sysroot, const char *name);

/*
 * Point child at the directory sub under parent's (a partition "sda1",
 * "device/hwmon/hwmon0").  sub is relative: not empty, not starting with
 * '/', no ".." component.  child may be parent.  Returns 0, -EINVAL for
 * such a sub or -ENAMETOOLONG when it does not fit; child is unusable
 * after an error.
 */
int probe_sysdev_sub(struct probe_sysdev *child, const struct probe_sysdev *parent,
		     const char *sub);

/*
 * The attribute attr (a path relative to the device's directory) as
 * probe_sys_str(): a malloc'd string, trailing whitespace removed (caller
 * frees), or NULL when it is missing, unreadable or empty.
 */
char *probe_sysdev_str(const struct probe_sysdev *h, const char *attr);

/*
 * The unsigned decimal attribute attr into *val, as probe_sys_u64().
 * Returns 0, -ENOENT when it is missing, unreadable or empty, or -EINVAL
 * when it is not a number; *val is untouched on error.
 */
int probe_sysdev_u64(const struct probe_sysdev *h, const char *attr, uint64_t *val);

/*
 * Up to len bytes of the (binary) attribute attr into buf, as
 * probe_sys_bin().  Returns the number of bytes read, or -errno.
 */
long probe_sysdev_bin(const struct probe_sysdev *h, const char *attr, void *buf,
		      size_t len);

/*
 * The names in the directory sub of the device's directory (NULL or "":
 * the device's directory itself), sorted as probe_sys_list(); free with
 * probe_sys_names_free().  A missing directory gives 0 names.  Returns 0,
 * -ENAMETOOLONG or -ENOMEM.
 */
int probe_sysdev_list(const struct probe_sysdev *h, const char *sub, char ***names,
		      size_t *n);

/*
 * The resolved target of attr (NULL or "": the device's directory itself)
 * relative to the sysroot ("/sys/devices/..."), into buf, as
 * probe_sys_realpath().  Returns 0 or -errno (-EXDEV when it leaves the
 * sysroot).
 */
int probe_sysdev_realpath(const struct probe_sysdev *h, const char *attr, char *buf,
			  size_t len);

#endif
