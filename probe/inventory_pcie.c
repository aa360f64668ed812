/* The inventory: the PCIe link of a device from its sysfs path. */
#include <blkid/blkid.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpulist.h"
#include "inventory_priv.h"
#include "sysroot.h"
#include "tw_util.h"

/* ---- the PCIe link: the PCI functions in the device's sysfs path ---- */

/* "0000:01:00.0": domain:bus:device.function, as sysfs names PCI functions. */
static bool is_pci_address(const char *s, size_t len)
{
	static const char shape[] = "hhhh:hh:hh.h";

	if (len != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; i < len; i++)
		if (shape[i] == 'h' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	return true;
}

/* "8.0 GT/s PCIe" → 8.0; NAN for "Unknown" or a missing attribute. */
static double read_gts(const struct probe_scan *sc, const char *dir, const char *attr)
{
	char *v = probe_sys_str(sc->root, "%s/%s", dir, attr), *end;
	double x = NAN;

	if (v) {
		x = strtod(v, &end);
		if (end == v || !(x > 0))
			x = NAN;
	}
	free(v);
	return x;
}

/* "4" (or "x4") → 4; -1 when missing or 0 (link down). */
static long read_width(const struct probe_scan *sc, const char *dir, const char *attr)
{
	char *v = probe_sys_str(sc->root, "%s/%s", dir, attr), *p = v, *end;
	long n = -1;

	if (v) {
		if (*p == 'x')
			p++;
		n = strtol(p, &end, 10);
		if (end == p || n <= 0)
			n = -1;
	}
	free(v);
	return n;
}

int probe_inv_read_numa(const struct probe_scan *sc, const char *dir)
{
	char *v = probe_sys_str(sc->root, "%s/numa_node", dir), *end;
	long n = -1;

	if (v) {
		n = strtol(v, &end, 10);
		if (end == v || n < 0 || n > 65535)
			n = -1;
	}
	free(v);
	return (int)n;
}

/* The link of p unknown, not present. */
static void pcie_unknown(struct probe_pcie *p)
{
	memset(p, 0, sizeof(*p));
	p->speed_gts = p->max_speed_gts = NAN;
	p->width = p->max_width = -1;
	p->numa_node = -1;
}

/*
 * The PCI functions in real (a path relative to the sysroot,
 * "/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/..."): the last
 * one is the device's own function, the ones before it the bridges above.
 * Its directory (relative to the sysroot) into dir, the function's and the
 * topmost one's names into *fn and *top.  False when there is none.
 */
static bool find_function(const char *real, char *dir, size_t len,
			  const char **fn, const char **top)
{
	const char *p = real, *slash;
	size_t fn_end = 0;

	*fn = *top = NULL;
	for (; *p; p = *slash ? slash + 1 : slash) {
		slash = strchrnul(p, '/');
		if (is_pci_address(p, (size_t)(slash - p))) {
			*top = *top ? *top : p;
			*fn = p;
			fn_end = (size_t)(slash - real);
		}
	}
	if (!*fn || fn_end >= len || real[0] != '/')
		return false;
	snprintf(dir, len, "%.*s", (int)fn_end - 1, real + 1);
	return true;
}

/* The link attributes of function fn (in real, its directory dir) into pc,
 * with the bridges above it.  Not present when it has none (conventional
 * PCI, integrated).  Returns 0 or -ENOMEM. */
static int read_link_at(const struct probe_scan *sc, struct probe_pcie *pc, const char *real,
			const char *fn, const char *dir)
{
	pc->speed_gts = read_gts(sc, dir, "current_link_speed");
	pc->width = read_width(sc, dir, "current_link_width");
	if (isnan(pc->speed_gts) && pc->width < 0)
		return 0;	/* no PCIe link: conventional PCI, integrated */
	pc->present = true;
	pc->max_speed_gts = read_gts(sc, dir, "max_link_speed");
	pc->max_width = read_width(sc, dir, "max_link_width");
	pc->numa_node = probe_inv_read_numa(sc, dir);
	snprintf(pc->address, sizeof(pc->address), "%.12s", fn);
	for (const char *q = fn; q > real + 1; ) {	/* bridges, nearest first */
		const char *e = q - 1, *b = e;

		while (b > real && b[-1] != '/')
			b--;
		if (is_pci_address(b, (size_t)(e - b)) &&
		    tw_strv_addf(&pc->upstream.v, &pc->upstream.n, "%.*s", (int)(e - b), b) < 0)
			return -ENOMEM;
		q = b;
	}
	return 0;
}

/* Mark in on[PROBE_CPUS_MAX] the CPUs that take interrupt irq (a number):
 * its effective affinity, or smp_affinity where the kernel has none.
 * false when neither is known. */
static bool mark_irq(const struct probe_scan *sc, const char *irq, bool *on)
{
	char *list = probe_sys_str(sc->root, "proc/irq/%s/effective_affinity_list", irq);
	bool ok;

	if (!list)
		list = probe_sys_str(sc->root, "proc/irq/%s/smp_affinity_list", irq);
	ok = list && probe_cpulist_mark(list, on, PROBE_CPUS_MAX);
	free(list);
	return ok;
}

/*
 * The CPUs that take the interrupts of PCI function dir (mark_irq): those
 * of each of its MSI/MSI-X vectors (msi_irqs/), or of its one legacy
 * interrupt (irq), as a list; NULL when none is known.  *err = -ENOMEM
 * when out of memory.
 */
static char *irq_cpus(const struct probe_scan *sc, const char *dir, int *err)
{
	bool *on = calloc(PROBE_CPUS_MAX, sizeof(*on));
	char **irqs = NULL, *out = NULL;
	size_t n = 0, known = 0;
	uint64_t legacy;

	if (!on || probe_sys_list(sc->root, &irqs, &n, "%s/msi_irqs", dir) < 0) {
		free(on);
		*err = -ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		known += mark_irq(sc, irqs[i], on);
	probe_sys_names_free(irqs, n);
	if (!n && probe_sys_u64(sc->root, &legacy, "%s/irq", dir) == 0 && legacy) {
		char num[24];	/* no MSI: the legacy line */

		snprintf(num, sizeof(num), "%llu", (unsigned long long)legacy);
		known += mark_irq(sc, num, on);
	}
	if (known && !(out = probe_cpulist_format(on, PROBE_CPUS_MAX)))
		*err = -ENOMEM;
	free(on);
	return out;
}

/*
 * Fills d->pcie when the device's function (see find_function) has link
 * attributes, and d->numa_node, d->local_cpulist, d->irq_cpulist and
 * d->pci_port from it either way.  Returns 0 or -ENOMEM.
 */
int probe_inv_read_pcie(const struct probe_scan *sc, struct probe_dev *d, const char *real)
{
	const char *fn, *top;
	char dir[PATH_MAX];
	int err = 0;

	pcie_unknown(&d->pcie);
	d->numa_node = -1;
	if (!find_function(real, dir, sizeof(dir), &fn, &top))
		return 0;
	if (!(d->pci_port = strndup(top, 12)))
		return -ENOMEM;
	d->numa_node = probe_inv_read_numa(sc, dir);
	d->local_cpulist = probe_sys_str(sc->root, "%s/local_cpulist", dir);
	d->irq_cpulist = irq_cpus(sc, dir, &err);
	if (err)
		return err;
	return read_link_at(sc, &d->pcie, real, fn, dir);
}

int probe_inv_read_link(const struct probe_scan *sc, struct probe_pcie *pc, const char *real)
{
	const char *fn, *top;
	char dir[PATH_MAX];

	pcie_unknown(pc);
	if (!find_function(real, dir, sizeof(dir), &fn, &top))
		return 0;
	return read_link_at(sc, pc, real, fn, dir);
}

bool probe_pcie_degraded(const struct probe_pcie *p)
{
	if (!p->present)
		return false;
	return (!isnan(p->speed_gts) && !isnan(p->max_speed_gts) &&
		p->speed_gts < p->max_speed_gts) ||
	       (p->width > 0 && p->max_width > 0 && p->width < p->max_width);
}

int probe_pcie_to_link(const struct probe_pcie *p, struct profile_link *l)
{
	if (!p->present)
		return 0;
	l->present = true;
	l->speed_gts = p->speed_gts;
	l->max_speed_gts = p->max_speed_gts;
	l->width = p->width;
	l->max_width = p->max_width;
	l->numa_node = p->numa_node;
	if (!(l->pcie_address = strdup(p->address)) ||
	    !(l->upstream = calloc(p->upstream.n + 1, sizeof(*l->upstream))))
		return -ENOMEM;
	for (size_t i = 0; i < p->upstream.n; i++, l->n_upstream++)
		if (!(l->upstream[i] = strdup(p->upstream.v[i])))
			return -ENOMEM;
	return 0;
}

