/* The inventory: NVMe drives as servers show them — a multipath head under
 * its subsystem, its paths through controllers, and the physical drive. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "inventory_priv.h"
#include "sysroot.h"
#include "tw_util.h"

/* "/sys/devices/.../nvme/nvme1/nvme0c1n1" → the controller's directory
 * ("sys/devices/.../nvme/nvme1", relative to the sysroot) into dir and its
 * name into *name.  Returns 0, -EINVAL for another shape, or -ENOMEM. */
static int path_controller(const char *real, char *dir, size_t len, char **name)
{
	const char *end = strrchr(real, '/'), *b;

	if (!end || end == real || real[0] != '/')
		return -EINVAL;
	for (b = end; b > real && b[-1] != '/'; b--)
		;
	if ((size_t)(end - real) >= len || strncmp(b, "nvme", 4))
		return -EINVAL;
	snprintf(dir, len, "%.*s", (int)(end - real - 1), real + 1);
	return (*name = strndup(b, (size_t)(end - b))) ? 0 : -ENOMEM;
}

/* The PCI function the controller's device link names, NULL off PCI. */
static char *pci_function_of(const struct probe_scan *sc, const char *ctrl_dir)
{
	char real[PATH_MAX];
	const char *b;

	if (probe_sys_realpath(sc->root, real, sizeof(real), "%s/device", ctrl_dir) < 0)
		return NULL;
	b = strrchr(real, '/');
	b = b ? b + 1 : real;
	return strlen(b) == 12 && b[4] == ':' && b[7] == ':' && b[10] == '.' ? strdup(b) : NULL;
}

/* Where path device name (nvmeXcYnZ) of the head h is, relative to h, into
 * rel: the head's multipath/NAME (newer kernels), else its
 * subsystem's controller nvmeY holding it (device/nvmeY/NAME, as every
 * kernel with native multipath shows it). */
static void path_rel(const struct probe_sysdev *h, const char *name, char *rel, size_t len)
{
	char real[PATH_MAX];
	const char *c = strrchr(name, 'c'), *n = c ? strchr(c, 'n') : NULL;

	snprintf(rel, len, "multipath/%s", name);
	if (probe_sysdev_realpath(h, rel, real, sizeof(real)) == 0 || !n)
		return;
	snprintf(rel, len, "device/nvme%.*s/%s", (int)(n - c - 1), c + 1, name);
}

/* Path entry name of the head h into p.  Returns 0, -ENOENT when it does not
 * resolve to a controller's directory, or -ENOMEM. */
static int read_path(const struct probe_scan *sc, const struct probe_sysdev *h,
		     const char *name, struct probe_nvme_path *p)
{
	char rel[2 * NAME_MAX + 32], real[PATH_MAX], ctrl[PATH_MAX];
	struct probe_sysdev ph;
	int ret;

	p->numa_node = p->pcie.numa_node = -1;
	p->pcie.speed_gts = p->pcie.max_speed_gts = NAN;
	p->pcie.width = p->pcie.max_width = -1;
	path_rel(h, name, rel, sizeof(rel));
	if (probe_sysdev_realpath(h, rel, real, sizeof(real)) < 0 ||
	    probe_sysdev_sub(&ph, h, rel) < 0)
		return -ENOENT;
	ret = path_controller(real, ctrl, sizeof(ctrl), &p->controller);
	if (ret < 0)
		return ret == -ENOMEM ? ret : -ENOENT;
	if (!(p->name = strdup(name)))
		return -ENOMEM;
	p->ana_state = probe_sysdev_str(&ph, "ana_state");
	p->transport = probe_sys_str(sc->root, "%s/transport", ctrl);
	p->address = probe_sys_str(sc->root, "%s/address", ctrl);
	p->state = probe_sys_str(sc->root, "%s/state", ctrl);
	p->pci_function = pci_function_of(sc, ctrl);
	if (probe_nvme_fabric(p->transport))
		return 0;	/* network-attached: no local NUMA node assumed */
	if (p->pci_function) {
		char at[PATH_MAX + 1];

		p->local_cpulist = probe_sys_str(sc->root, "%s/device/local_cpulist", ctrl);
		snprintf(at, sizeof(at), "/%s", ctrl);	/* its function's link */
		if (probe_inv_read_link(sc, &p->pcie, at) < 0)
			return -ENOMEM;
	}
	p->numa_node = probe_inv_read_numa(sc, ctrl);
	if (p->numa_node < 0 && p->pci_function) {
		char fn[PATH_MAX + 8];

		snprintf(fn, sizeof(fn), "%s/device", ctrl);
		p->numa_node = probe_inv_read_numa(sc, fn);
	}
	return 0;
}

void probe_inv_nvme_path_free(struct probe_nvme_path *p)
{
	free(p->name);
	free(p->controller);
	free(p->transport);
	free(p->address);
	free(p->pci_function);
	free(p->state);
	free(p->ana_state);
	free(p->local_cpulist);
	probe_inv_strv_free(&p->pcie.upstream);
}

bool probe_nvme_path_degraded(const struct probe_nvme_path *p)
{
	return (p->ana_state && strcmp(p->ana_state, "optimized")) ||
	       (p->state && strcmp(p->state, "live"));
}

/* Whether s is "nvme" and digits: a controller's name. */
static bool ctrl_name(const char *s)
{
	if (strncmp(s, "nvme", 4) || !s[4])
		return false;
	for (s += 4; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The names of head h's paths (nvmeXcYnZ for head nvmeXnZ) from the
 * controllers nvmeY of its subsystem (h's device/), for kernels (6.1) whose
 * heads have no multipath/ directory.  0 or -ENOMEM. */
static int paths_from_subsystem(const struct probe_sysdev *h, const char *head,
				char ***names, size_t *n)
{
	const char *tail = strrchr(head, 'n');
	char **c;
	size_t nc, k = 0;
	int ret;

	*names = NULL;
	*n = 0;
	if (!tail || tail == head || (ret = probe_sysdev_list(h, "device", &c, &nc)) < 0)
		return 0;
	if (nc && !(*names = calloc(nc, sizeof(**names))))
		ret = -ENOMEM;
	for (size_t i = 0; !ret && i < nc; i++) {
		if (!ctrl_name(c[i]))
			continue;
		if (asprintf(&(*names)[k], "%.*sc%s%s", (int)(tail - head), head, c[i] + 4,
				tail) < 0)
			ret = -ENOMEM;
		else
			k++;
	}
	*n = k;
	probe_sys_names_free(c, nc);
	return ret;
}

/* The paths of head h, in multipath/ order (else its subsystem's), into d.
 * 0 or -ENOMEM. */
static int read_paths(const struct probe_scan *sc, const struct probe_sysdev *h,
		      struct probe_dev *d)
{
	char **names;
	size_t n;
	int ret = probe_sysdev_list(h, "multipath", &names, &n);

	if (ret == 0 && n == 0)
		ret = paths_from_subsystem(h, d->name, &names, &n);
	if (ret < 0) {
		probe_sys_names_free(names, n);
		return ret;
	}
	if (n && !(d->paths = calloc(n, sizeof(*d->paths))))
		ret = -ENOMEM;
	for (size_t i = 0; !ret && i < n; i++) {
		ret = read_path(sc, h, names[i], &d->paths[d->n_paths]);
		if (ret == 0)
			d->n_paths++;
		else
			probe_inv_nvme_path_free(&d->paths[d->n_paths]);
		if (ret == -ENOENT)	/* a path that vanished or is no controller's */
			ret = 0;
	}
	probe_sys_names_free(names, n);
	return ret;
}

/* The path whose controller serves SMART, hwmon and the link: a live
 * optimized one, else a live one, else the first; NULL when none. */
static const struct probe_nvme_path *best_path(const struct probe_dev *d)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < d->n_paths; i++) {
			const struct probe_nvme_path *p = &d->paths[i];
			bool live = !p->state || !strcmp(p->state, "live");

			if (live && (pass || !probe_nvme_path_degraded(p)))
				return p;
		}
	return d->n_paths ? &d->paths[0] : NULL;
}

bool probe_nvme_fabric(const char *transport)
{
	static const char *const fabrics[] = { "tcp", "rdma", "fc", "loop" };

	for (size_t i = 0; transport && i < ARRAY_SIZE(fabrics); i++)
		if (!strcmp(transport, fabrics[i]))
			return true;
	return false;
}

/* d is network-attached over transport (a fabric) at address (NULL =
 * unknown): whatever its sysfs path says, it has no PCIe link, no NUMA
 * node, no local CPUs and no PCI port.  Returns 0 or -ENOMEM. */
static int set_fabric(struct probe_dev *d, const char *transport, const char *address)
{
	if (!(d->fabric = strdup(transport)) ||
	    (address && !(d->fabric_address = strdup(address))))
		return -ENOMEM;
	probe_inv_strv_free(&d->pcie.upstream);
	memset(&d->pcie, 0, sizeof(d->pcie));
	d->pcie.speed_gts = d->pcie.max_speed_gts = NAN;
	d->pcie.width = d->pcie.max_width = -1;
	d->pcie.numa_node = d->numa_node = -1;
	free(d->local_cpulist);
	free(d->irq_cpulist);
	free(d->pci_port);
	d->local_cpulist = d->irq_cpulist = d->pci_port = NULL;
	return 0;
}

/* A namespace of its own controller (h/device): the subsystem NQN, and the
 * fabric when the controller's transport is one.  0 or -ENOMEM. */
static int read_namespace(const struct probe_sysdev *h, struct probe_dev *d)
{
	char *t = probe_sysdev_str(h, "device/transport"), *a = NULL;
	int ret = 0;

	d->subsysnqn = probe_sysdev_str(h, "device/subsysnqn");
	if (probe_nvme_fabric(t)) {
		a = probe_sysdev_str(h, "device/address");
		ret = set_fabric(d, t, a);
	}
	free(t);
	free(a);
	return ret;
}

/* Whether real (a device's path under sys/devices) is a multipath head. */
static bool is_head(const char *real)
{
	return strstr(real, "/devices/virtual/nvme-subsystem/") != NULL;
}

/*
 * d->local_cpulist of a head: the CPUs local to any live optimized path
 * (ranges, ascending), when two or more such paths name their CPUs; else it
 * stays that of the best path.  0 or -ENOMEM.
 */
static int head_local_cpus(struct probe_dev *d)
{
	bool *on = calloc(PROBE_CPUS_MAX, sizeof(*on));
	size_t n = 0;
	char *out;

	if (!on)
		return -ENOMEM;
	for (size_t i = 0; i < d->n_paths; i++) {
		const struct probe_nvme_path *p = &d->paths[i];

		if (!probe_nvme_path_degraded(p) && p->local_cpulist && probe_cpulist_mark(p->local_cpulist, on, PROBE_CPUS_MAX))
			n++;
	}
	if (n < 2) {
		free(on);
		return 0;
	}
	out = probe_cpulist_format(on, PROBE_CPUS_MAX);
	free(on);
	if (!out)
		return -ENOMEM;
	free(d->local_cpulist);
	d->local_cpulist = out;
	return 0;
}

int probe_inv_read_nvme(const struct probe_scan *sc, const struct probe_sysdev *h,
		  struct probe_dev *d, const char *real)
{
	const struct probe_nvme_path *best;
	char dir[PATH_MAX], real_path[PATH_MAX], *name = NULL, rel[2 * NAME_MAX + 32];

	if (!is_head(real))	/* a namespace of its controller */
		return read_namespace(h, d);
	d->nvme_head = true;
	d->model = probe_sysdev_str(h, "device/model");
	d->serial = probe_sysdev_str(h, "device/serial");
	d->firmware = probe_sysdev_str(h, "device/firmware_rev");
	d->subsysnqn = probe_sysdev_str(h, "device/subsysnqn");
	d->iopolicy = probe_sysdev_str(h, "device/iopolicy");
	if (read_paths(sc, h, d) < 0)
		return -ENOMEM;
	if (!(best = best_path(d)))
		return 0;
	if (!(d->controller = strdup(best->controller)))
		return -ENOMEM;
	if (probe_nvme_fabric(best->transport))	/* no link to read */
		return set_fabric(d, best->transport, best->address);
	path_rel(h, best->name, rel, sizeof(rel));
	if (probe_sysdev_realpath(h, rel, real_path, sizeof(real_path)) < 0 ||
	    path_controller(real_path, dir + 1, sizeof(dir) - 1, &name) < 0) {
		free(name);
		return 0;
	}
	free(name);
	dir[0] = '/';	/* the link, NUMA node and local CPUs of its function */
	if (probe_inv_read_pcie(sc, d, dir) < 0)
		return -ENOMEM;
	return head_local_cpus(d);
}

/* x's paths into m.  0 or -ENOMEM. */
static int paths_to_profile(const struct probe_dev *x, struct profile_multipath *m)
{
	m->present = true;
	if ((x->subsysnqn && !(m->subsysnqn = strdup(x->subsysnqn))) ||
	    (x->iopolicy && !(m->iopolicy = strdup(x->iopolicy))) ||
	    (x->n_paths && !(m->paths = calloc(x->n_paths, sizeof(*m->paths)))))
		return -ENOMEM;
	for (size_t i = 0; i < x->n_paths; i++, m->n_paths++) {
		const struct probe_nvme_path *p = &x->paths[i];
		struct profile_path *q = &m->paths[i];
		const char *const src[] = { p->name, p->controller, p->transport, p->address,
					    p->pci_function, p->ana_state };
		char **const dst[] = { &q->name, &q->controller, &q->transport, &q->address,
				       &q->pci_function, &q->ana_state };

		q->numa_node = p->numa_node;
		q->link.speed_gts = q->link.max_speed_gts = NAN;
		q->link.width = q->link.max_width = q->link.numa_node = -1;
		for (size_t k = 0; k < ARRAY_SIZE(src); k++)
			if (src[k] && !(*dst[k] = strdup(src[k])))
				return -ENOMEM;
		if (probe_pcie_to_link(&p->pcie, &q->link) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* A network-attached x: d's fabric block and a note that the network is in
 * every figure.  0 or -ENOMEM. */
static int fabric_to_profile(const struct probe_dev *x, struct profile_device *d)
{
	d->fabric.present = true;
	if (!(d->fabric.transport = strdup(x->fabric)) ||
	    (x->fabric_address && !(d->fabric.address = strdup(x->fabric_address))))
		return -ENOMEM;
	return profile_device_add_notef(d, "fabric: network-attached through nvme-%s%s%s; every "
					"figure includes the network's latency and varies with it",
					x->fabric, x->fabric_address ? " at " : "",
					x->fabric_address ? x->fabric_address : "");
}

/* A zoned x: d's zoned block and a note on what its model allows.  0 or
 * -ENOMEM. */
static int zoned_to_profile(const struct probe_dev *x, struct profile_device *d)
{
	bool managed = x->zoned.model == PROFILE_ZONED_HOST_MANAGED;
	char zone[40] = "zone size unknown", zones[40] = "";

	d->zoned = x->zoned;
	if (x->zoned.zone_bytes > 0)
		snprintf(zone, sizeof(zone), "zones of %ld MiB", x->zoned.zone_bytes >> 20);
	if (x->zoned.zones > 0)
		snprintf(zones, sizeof(zones), ", %ld zones", x->zoned.zones);
	return profile_device_add_notef(d, "zoned: %s (%s%s): %s",
					profile_zoned_name(x->zoned.model), zone, zones,
					managed ? "writes must be zone-sequential after a zone reset; "
					"random writes fail and ext4/XFS cannot be made on it"
					: "random writes are accepted but collapse once the "
					"drive's conventional cache is full");
}

/* The drive facts of x into d (see probe_inventory_to_profile).  0 or -ENOMEM. */
static int dev_to_profile(const struct probe_dev *x, struct profile_device *d)
{
	if (x->drive_id && !(d->drive_id = strdup(x->drive_id)))
		return -ENOMEM;
	if (x->fabric && fabric_to_profile(x, d) < 0)
		return -ENOMEM;
	if (x->zoned.present && zoned_to_profile(x, d) < 0)
		return -ENOMEM;
	if (!x->nvme_head)
		return 0;
	if (paths_to_profile(x, &d->multipath) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < x->n_paths; i++) {
		const struct probe_nvme_path *p = &x->paths[i];

		bool dead = p->state && strcmp(p->state, "live");

		if (probe_nvme_path_degraded(p) &&
		    profile_device_add_notef(d, "multipath: path %s via %s is %s%s%s; the figures "
					     "are those of the optimized paths", p->name,
					     p->controller, p->ana_state ? p->ana_state : "",
					     p->ana_state && dead ? ", controller " : dead ?
					     "controller " : "", dead ? p->state : "") < 0)
			return -ENOMEM;
	}
	return 0;
}

int probe_inventory_to_profile(const struct probe_inventory *inv, struct profile *prof)
{
	for (size_t i = 0; inv && i < prof->n_devices; i++) {
		struct profile_device *d = &prof->devices[i];
		const struct probe_dev *x;

		if (d->drive_id || d->multipath.present || d->fabric.present ||
		    d->zoned.present || !d->id ||
		    !(x = probe_inventory_find(inv, d->id)) || strcmp(x->name, d->id))
			continue;	/* filled, a scratch file or a partition */
		if (dev_to_profile(x, d) < 0)
			return -ENOMEM;
	}
	return 0;
}

int probe_inv_drive_id(struct probe_dev *d)
{
	const char *id = d->subsysnqn ? d->subsysnqn : d->serial;

	if (id && !(d->drive_id = strdup(id)))
		return -ENOMEM;
	return 0;
}

/* The path named name among d's, NULL when none. */
static const struct probe_nvme_path *path_named(const struct probe_dev *d, const char *name)
{
	for (size_t i = 0; i < d->n_paths; i++)
		if (!strcmp(d->paths[i].name, name))
			return &d->paths[i];
	return NULL;
}

static const char *or_unknown(const char *s)
{
	return s ? s : "unknown";
}

/* A note per path of was (the inventory's) that changed in now.  Returns
 * the notes added or -ENOMEM. */
static int paths_changed(const struct probe_dev *was, const struct probe_dev *now,
			 struct profile_device *out)
{
	int n = 0;

	for (size_t i = 0; i < was->n_paths; i++) {
		const struct probe_nvme_path *a = &was->paths[i], *b = path_named(now, a->name);
		int ret = 0;

		if (!b)
			ret = profile_device_add_notef(out, "multipath: path %s via %s vanished during "
						       "the probe (controller removed or reset); the "
						       "figures ran on the paths left", a->name,
						       a->controller);
		else if (strcmp(or_unknown(a->state), or_unknown(b->state)))
			ret = profile_device_add_notef(out, "multipath: controller %s of path %s went "
						       "from %s to %s during the probe (%s); the figures "
						       "are kept: they ran on the paths left", a->controller,
						       a->name, or_unknown(a->state), or_unknown(b->state),
						       probe_nvme_fabric(a->transport) ?
						       "a fabrics controller reconnecting" : "a reset");
		else if (strcmp(or_unknown(a->ana_state), or_unknown(b->ana_state)))
			ret = profile_device_add_notef(out, "multipath: path %s via %s went from %s to "
						       "%s during the probe (an ANA change); the figures "
						       "are kept", a->name, a->controller,
						       or_unknown(a->ana_state), or_unknown(b->ana_state));
		else
			continue;
		if (ret < 0)
			return -ENOMEM;
		n++;
	}
	return n;
}

int probe_nvme_recheck(const char *sysroot, const struct probe_dev *d,
		       struct profile_device *out)
{
	struct probe_scan sc = { .root = sysroot };
	struct probe_dev now = { .name = d->name };	/* read_paths needs the head's name */
	struct probe_sysdev h;
	char *state;
	int n;

	if (d->nvme_head) {
		if (probe_sysdev_init(&h, sc.root, d->name) < 0)
			return 0;
		if (read_paths(&sc, &h, &now) < 0)
			n = -ENOMEM;
		else
			n = paths_changed(d, &now, out);
		for (size_t i = 0; i < now.n_paths; i++)
			probe_inv_nvme_path_free(&now.paths[i]);
		free(now.paths);
		return n;
	}
	if (!d->fabric || !d->controller)
		return 0;
	state = probe_sys_str(sc.root, "sys/class/nvme/%s/state", d->controller);
	if (!state || !strcmp(state, "live")) {
		free(state);
		return 0;
	}
	n = profile_device_add_notef(out, "fabric: controller %s is %s after the probe (a fabrics "
				     "controller reconnecting); the figures are kept, but some ran "
				     "while it was away", d->controller, state) < 0 ? -ENOMEM : 1;
	free(state);
	return n;
}
