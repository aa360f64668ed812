/* warn.c — warnings the measurements support: OEM write traps, SLC-cache
 * cliffs, heat, throttling, hard disks in a latency tier, failing health,
 * figures from a short burst, network-attached disks in the hot tier and
 * host-aware zoned disks.
 *
 * One checker per kind, in a const table whose order is the order of the
 * warnings of one device.  A checker looks only at figures that were
 * measured (NAN / -1 = unknown: no warning) and writes one line: the device
 * id, the figures that triggered it, what to do.  Thresholds are the named
 * constants below; docs/advisor-warnings.md lists them for users.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_priv.h"
#include "tw_util.h"

/* Sequential write below this share of sequential read: an OEM write trap
 * (SK hynix PC601: ~3,100 MB/s read, ~840 MB/s write). */
static const double WRITE_TRAP_RATIO = 0.35;
/* Sustained write below this share of the sequential write: the SLC cache
 * ran out (ShiJi 256 GB: 2,039 → 1,142 MB/s, −44 %). */
static const double CACHE_CLIFF_RATIO = 0.70;
/* Load temperature from which drives commonly throttle (NVMe: 70–80 °C;
 * 970 EVO Plus without heatsink: 83 °C). */
static const double HEAT_LOAD_C = 70.0;
/* Margin below the device's own warning threshold (WCTEMP) that counts as
 * hot as well, when the threshold is known. */
static const double HEAT_WARNING_MARGIN_C = 5.0;
/* Idle temperature that points at a crowded slot or no airflow (PC601 (3):
 * 48 °C idle). */
static const double HEAT_IDLE_C = 45.0;
/* QD1 random-read p99 of a hard disk in the hot tier above which searches
 * and metadata lookups stall (IronWolf 12 TB: 16 ms, Red Pro 10 TB: 25 ms). */
static const double HDD_TAIL_P99_US = 10000.0;
/* NVMe endurance used, %, from which to plan a replacement. */
static const long HEALTH_WEAR_PCT = 80;

/* A sequential read at this share of a degraded link's bandwidth or more
 * is capped by the link (the protocol overhead leaves about 85–90 %). */
static const double LINK_CAPPED_RATIO = 0.80;
/* A sequential read above this share of the link's bandwidth cannot have
 * passed through it: the link facts and the figures disagree. */
static const double LINK_OVER_RATIO = 1.05;

/* Longest warning message, including the NUL. */
#define WARN_MSG_MAX 512

/* A message being built: appends are truncated at WARN_MSG_MAX. */
struct msg {
	char s[WARN_MSG_MAX];
	size_t len;
};

/* A formatted number, by value, so several fit in one printf. */
struct num {
	char s[32];
};

/* Append printf-style text to m (truncated when full). */
__attribute__((format(printf, 2, 3)))
static void msg_add(struct msg *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->len + 1 >= sizeof(m->s))
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->s + m->len, sizeof(m->s) - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len += (size_t)n < sizeof(m->s) - m->len ? (size_t)n
							    : sizeof(m->s) - m->len - 1;
}

/* v rounded to a whole number with thousands separators: "3,171". */
static struct num grp(double v)
{
	struct num r;
	char digits[32];
	size_t n, o = 0, i = 0;

	snprintf(digits, sizeof(digits), "%.0f", v);
	n = strlen(digits);
	if (digits[0] == '-')
		r.s[o++] = digits[i++];
	for (; i < n && o + 2 < sizeof(r.s); i++) {
		if (i > (digits[0] == '-') && (n - i) % 3 == 0)
			r.s[o++] = ',';
		r.s[o++] = digits[i];
	}
	r.s[o] = '\0';
	return r;
}

static bool known(double v)
{
	return !isnan(v);
}

/* A measured rate (MB/s > 0) of one I/O test, or NAN. */
static double io_mbps(const struct profile_device *p, enum profile_io_test t)
{
	const struct profile_io *io = &p->io[t];

	return io->present && known(io->mbps) && io->mbps > 0 ? io->mbps : NAN;
}

/* ---- the checkers: true when m holds a warning ----------------------- */

enum trap { TRAP_NONE, TRAP_UNSURE, TRAP_SURE };

/* Sequential write < WRITE_TRAP_RATIO × sequential read: sure when it holds
 * at the ends of both figures' bands (advisor_io_resolution: the write at
 * its highest, the read at its lowest), else unsure.  *wr, *rd: MB/s. */
static enum trap write_trap(const struct profile_device *p, double *wr, double *rd)
{
	*rd = io_mbps(p, PROFILE_SEQ_READ);
	*wr = io_mbps(p, PROFILE_SEQ_WRITE);
	if (!known(*rd) || !known(*wr) || *wr >= WRITE_TRAP_RATIO * *rd)
		return TRAP_NONE;
	if (*wr * (1 + advisor_io_resolution(&p->io[PROFILE_SEQ_WRITE])) <
	    WRITE_TRAP_RATIO * *rd * (1 - advisor_io_resolution(&p->io[PROFILE_SEQ_READ])))
		return TRAP_SURE;
	return TRAP_UNSURE;
}

/* The write trap's warning; it keeps the device off the tiers that write
 * (advisor_objections) only when sure. */
static bool check_write_trap(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_io *w = &d->p->io[PROFILE_SEQ_WRITE], *r = &d->p->io[PROFILE_SEQ_READ];
	double wr, rd;
	enum trap t = write_trap(d->p, &wr, &rd);

	if (t == TRAP_NONE)
		return false;
	msg_add(m, "%s: writes %s MB/s, %.0f %% of its %s MB/s read (OEM write trap", d->p->id,
		grp(wr).s, 100.0 * wr / rd, grp(rd).s);
	if (t == TRAP_SURE) {
		msg_add(m, "): keep it off write-heavy tiers (checkpoints, logs, backups)");
		return true;
	}
	msg_add(m, "?): not known well enough to keep it off the tiers that write: the write "
		"figure is known to ±%.1f %%, the read to ±%.1f %%", advisor_io_resolution(w) * 100,
		advisor_io_resolution(r) * 100);
	if (advisor_io_resolution(r) < 1)
		msg_add(m, ", and at their ends it writes %.0f %% (the bar: %.0f %%)",
			100.0 * wr * (1 + advisor_io_resolution(w)) /
			(rd * (1 - advisor_io_resolution(r))), WRITE_TRAP_RATIO * 100);
	msg_add(m, "; probe it again with --full");
	return true;
}

/* Sustained write < CACHE_CLIFF_RATIO × sequential write. */
static bool check_cache_cliff(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_sustained *s = &d->p->sustained;
	double wr = io_mbps(d->p, PROFILE_SEQ_WRITE);

	if (!known(wr) || !known(s->mbps) || s->mbps < 0 ||
	    s->mbps >= CACHE_CLIFF_RATIO * wr)
		return false;
	msg_add(m, "%s: sustained write %s MB/s, −%.0f %% from its %s MB/s sequential"
		" write (SLC cache cliff", d->p->id, grp(s->mbps).s,
		100.0 * (1.0 - s->mbps / wr), grp(wr).s);
	if (known(s->initial_mbps))
		msg_add(m, "; %s MB/s at first", grp(s->initial_mbps).s);
	if (known(s->cliff_after_gb))
		msg_add(m, "; falls after %.1f GB", s->cliff_after_gb);
	msg_add(m, "): size large writes (checkpoints, backups) on %s MB/s",
		grp(s->mbps).s);
	return true;
}

/* Load ≥ HEAT_LOAD_C or ≥ warning − margin, or idle ≥ HEAT_IDLE_C. */
static bool check_heat(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_thermal *t = &d->p->thermal;
	bool hot_load = known(t->load_c) &&
		(t->load_c >= HEAT_LOAD_C ||
		 (known(t->warning_c) && t->load_c >= t->warning_c - HEAT_WARNING_MARGIN_C));
	bool hot_idle = known(t->idle_c) && t->idle_c >= HEAT_IDLE_C;

	if (!hot_load && !hot_idle)
		return false;
	msg_add(m, "%s:", d->p->id);
	if (hot_load)
		msg_add(m, " reaches %.0f °C under load", t->load_c);
	if (hot_load && known(t->warning_c))
		msg_add(m, " (warning threshold %.0f °C)", t->warning_c);
	if (hot_idle)
		msg_add(m, "%s idles at %.0f °C%s", hot_load ? "," : "", t->idle_c,
			hot_load ? "" : " (a crowded slot?)");
	msg_add(m, ": %sfit a heatsink (worth 10–20 °C) or improve airflow",
		hot_load ? "drives throttle from about 70–80 °C; " : "");
	return true;
}

/* How many pieces of throttling evidence of kind k the profile lists. */
static size_t throttle_count(const struct profile_thermal *t,
			     enum profile_throttle_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n_throttle; i++)
		n += t->throttle[i].kind == k;
	return n;
}

/* Throttle events seen during the test, or NVMe TMT transitions. */
static bool check_throttling(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_thermal *t = &d->p->thermal;
	const struct profile_health *h = &d->p->health;
	long events = t->throttle_events > (long)t->n_throttle ? t->throttle_events
							       : (long)t->n_throttle;
	bool tmt = h->tmt1_transitions > 0 || h->tmt2_transitions > 0;

	if (events <= 0 && !tmt)
		return false;
	msg_add(m, "%s: throttled", d->p->id);
	if (events > 0)
		msg_add(m, " %ld time%s during the test", events, events == 1 ? "" : "s");
	if (t->n_throttle)
		msg_add(m, " (%zu tmt1, %zu tmt2, %zu drop)",
			throttle_count(t, PROFILE_THR_TMT1),
			throttle_count(t, PROFILE_THR_TMT2),
			throttle_count(t, PROFILE_THR_DROP));
	if (tmt)
		msg_add(m, "%s NVMe thermal management: %ld TMT1 / %ld TMT2 transitions",
			events > 0 ? ";" : "",
			h->tmt1_transitions > 0 ? h->tmt1_transitions : 0,
			h->tmt2_transitions > 0 ? h->tmt2_transitions : 0);
	msg_add(m, ": its figures may be throttled ones; cool it (heatsink, airflow)"
		" and probe again");
	return true;
}

/* A rotational device in the hot tier with QD1 p99 > HDD_TAIL_P99_US. */
static bool check_hdd_tail(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_io *io = &d->p->io[PROFILE_RAND_READ_QD1];
	double p99 = io->lat.v[PROFILE_LAT_P99];

	if (!d->p->rotational || d->tier != ADVISOR_HOT || !io->present ||
	    !known(p99) || p99 <= HDD_TAIL_P99_US)
		return false;
	msg_add(m, "%s: a hard disk in the hot tier with QD1 p99 %.1f ms (> %.0f ms):"
		" searches and metadata lookups wait that long on every miss;"
		" put an SSD in the hot tier and this disk in cold",
		d->p->id, p99 / 1000.0, HDD_TAIL_P99_US / 1000.0);
	return true;
}

/* A USB-attached disk in the plan: the bridge's latency, and what it let us
 * read.  Not for devices left out (a USB stick, data it cannot reuse). */
static bool check_usb(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_io *io = &d->p->io[PROFILE_RAND_READ_QD1];
	const struct profile_thermal *t = &d->p->thermal;
	const struct profile_health *h = &d->p->health;

	if (d->p->transport != PROFILE_TR_USB || d->excluded)
		return false;
	msg_add(m, "%s: USB-attached: the USB bridge adds its own delay to every"
		" I/O, so QD1 latency is capped by it", d->p->id);
	if (io->present && known(io->lat.v[PROFILE_LAT_P99]))
		msg_add(m, " (QD1 p99 %s µs measured through it)",
			grp(io->lat.v[PROFILE_LAT_P99]).s);
	msg_add(m, ", and bridges often hide SMART and temperature: ");
	if (known(t->idle_c))
		msg_add(m, "temperature read (%.0f °C idle, %s)", t->idle_c,
			t->source ? t->source : "source unknown");
	else
		msg_add(m, "temperature not read");
	if (h->present)
		msg_add(m, ", health log read (%s)", h->source ? h->source : "source unknown");
	else
		msg_add(m, ", SMART / health log not read");
	msg_add(m, "; a disk on SATA, SAS or NVMe directly is faster and watched");
	return true;
}

/* A network-attached device (NVMe over Fabrics) in the hot tier: its
 * latency is the network's, measured once, and moves with the network. */
static bool check_fabric(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_fabric *f = &d->p->fabric;
	const struct profile_io *io = &d->p->io[PROFILE_RAND_READ_QD1];

	if (!f->present || d->tier != ADVISOR_HOT || d->excluded)
		return false;
	msg_add(m, "%s: network-attached (NVMe over Fabrics, nvme-%s%s%s) in the hot"
		" tier: its latency is the network's and varies with it", d->p->id,
		f->transport ? f->transport : "?", f->address ? " at " : "",
		f->address ? f->address : "");
	if (io->present && known(io->lat.v[PROFILE_LAT_P99]))
		msg_add(m, " (QD1 p99 %s µs when probed, network included)",
			grp(io->lat.v[PROFILE_LAT_P99]).s);
	msg_add(m, "; congestion, another host's traffic or a reconnect raise it"
		" where no local disk would: put a local NVMe drive in the hot tier,"
		" or probe it again at the busiest hour and watch the fabric");
	return true;
}

/* A host-aware zoned device (SMR, a host-aware ZNS namespace) in a tier:
 * it takes random writes, but once its conventional cache fills each one
 * rewrites a zone, and they collapse. */
static bool check_zoned(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_zoned *z = &d->p->zoned;

	if (!z->present || z->model != PROFILE_ZONED_HOST_AWARE || d->tier < 0 || d->excluded)
		return false;
	msg_add(m, "%s: host-aware zoned device", d->p->id);
	if (z->zone_bytes > 0)
		msg_add(m, " (zones of %ld MiB)", z->zone_bytes >> 20);
	msg_add(m, " in the %s tier: random writes collapse once its conventional cache is"
		" full (each rewrites a zone), far below what a short probe shows; keep it for"
		" data written sequentially (archive, backups), or use a filesystem that"
		" writes zones in order (btrfs zoned mode, f2fs)", advisor_tier_name(d->tier));
	return true;
}

/* One end of a PCIe link: "Gen3 x2" ("8 GT/s x2" off the known generations). */
static struct num link_end(double gts, long width)
{
	struct num r;
	char w[24] = "";

	if (width > 0)
		snprintf(w, sizeof(w), " x%ld", width);
	if (profile_link_gen(gts))
		snprintf(r.s, sizeof(r.s), "Gen%d%.12s", profile_link_gen(gts), w);
	else if (known(gts))
		snprintf(r.s, sizeof(r.s), "%g GT/s%.12s", gts, w);
	else
		snprintf(r.s, sizeof(r.s), "?%.12s", w);
	return r;
}

/* What degraded link l costs: its bandwidth now against at its maximum. */
static void link_cost(struct msg *m, const struct profile_link *l)
{
	double now = profile_link_mbps(l->speed_gts, l->width);
	double max = profile_link_mbps(l->max_speed_gts, l->max_width);

	msg_add(m, " trained at %s of %s", link_end(l->speed_gts, l->width).s,
		link_end(l->max_speed_gts, l->max_width).s);
	if (known(now) && known(max))
		msg_add(m, ": %s of %s MB/s, %s MB/s (%.0f %%) of bandwidth lost",
			grp(now).s, grp(max).s, grp(max - now).s, 100.0 * (max - now) / max);
}

/* Whether path q's link is degraded and not d's own (a multipath head's
 * link is that of its best path, said as the device's). */
static bool path_link_degraded(const struct profile_device *d, const struct profile_path *q)
{
	return profile_link_degraded(&q->link) &&
	       !(profile_link_degraded(&d->link) && d->link.pcie_address &&
		 q->link.pcie_address && !strcmp(d->link.pcie_address, q->link.pcie_address));
}

/* The device's own degraded link l: its cost, and whether its sequential
 * read says the slot caps it (or that the link was read idle). */
static void device_link(const struct profile_device *p, struct msg *m)
{
	const struct profile_link *l = &p->link;
	double now = profile_link_mbps(l->speed_gts, l->width);
	double seq = io_mbps(p, PROFILE_SEQ_READ);

	msg_add(m, "its PCIe link%s%s", l->pcie_address ? " at " : "",
		l->pcie_address ? l->pcie_address : "");
	link_cost(m, l);
	if (known(seq) && known(now) && seq > LINK_OVER_RATIO * now)
		msg_add(m, "; yet its sequential read (%s MB/s) is more than this"
			" link carries: the link was read while idle (some links slow"
			" down to save power) or the figures come from another slot;"
			" read the link again under load", grp(seq).s);
	else if (known(seq) && known(now) && seq >= LINK_CAPPED_RATIO * now)
		msg_add(m, "; its sequential read (%s MB/s) is at the link's limit,"
			" so it is capped by the slot, not the drive", grp(seq).s);
}

/* A PCIe link that trained below what the device can do: what it costs
 * (the link's bandwidth now against at its maximum) and what to check; for
 * a multipath head, each path's link too (a port of a dual-port drive).
 * For devices left out too: the slot is wrong whatever the plan. */
static bool check_link(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_multipath *mp = &d->p->multipath;
	bool dev = profile_link_degraded(&d->p->link), any = dev, slot = dev;

	for (size_t i = 0; i < mp->n_paths && !any; i++)
		any = path_link_degraded(d->p, &mp->paths[i]);
	if (!any)
		return false;
	msg_add(m, "%s: ", d->p->id);
	if (dev)
		device_link(d->p, m);
	for (size_t i = 0; i < mp->n_paths; i++) {
		const struct profile_path *q = &mp->paths[i];

		if (!path_link_degraded(d->p, q))
			continue;
		msg_add(m, "%sthe PCIe link of its path %s via %s%s%s", dev ? "; " : "",
			q->name, q->controller, q->link.pcie_address ? " at " : "",
			q->link.pcie_address ? q->link.pcie_address : "");
		link_cost(m, &q->link);
		dev = true;
	}
	if (!slot)	/* only ports of a dual-port drive: no slot of its own */
		msg_add(m, "; check that port: the drive's seating in its bay, the"
			" backplane and the cable to it, and the port's BIOS lane"
			" bifurcation (x2x2 for a dual-port drive), then probe again");
	else
		msg_add(m, "; check the slot (a x4 drive in a x2 or x1 slot, or a slot"
			" wired to the chipset), the riser or adapter, and the BIOS lane"
			" bifurcation (x4x4x4x4 for a multi-M.2 card), then re-seat it and"
			" probe again");
	return true;
}

/* Append ", " between the findings of one warning. */
static void msg_sep(struct msg *m, bool *first)
{
	msg_add(m, "%s", *first ? " " : ", ");
	*first = false;
}

/* The names of the critical-warning bits set in cw: "spare, reliability". */
static void add_critical_bits(struct msg *m, long cw)
{
	bool first = true;

	for (int bit = 0; bit < 63 && (cw >> bit); bit++) {
		const char *name = profile_critical_warning_name(bit);

		if (!((cw >> bit) & 1))
			continue;
		if (name)
			msg_add(m, "%s%s", first ? "" : ", ", name);
		else
			msg_add(m, "%sbit %d", first ? "" : ", ", bit);
		first = false;
	}
}

/* Wear ≥ HEALTH_WEAR_PCT, media errors, critical warning bits, spare below
 * its threshold, failing ATA SMART status. */
static bool check_health(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_health *h = &d->p->health;
	bool low_spare = h->available_spare >= 0 && h->available_spare_threshold >= 0 &&
			 h->available_spare < h->available_spare_threshold;
	bool first = true;

	if (h->critical_warning <= 0 && h->media_errors <= 0 &&
	    h->percentage_used < HEALTH_WEAR_PCT && !low_spare && h->smart_ok != 0)
		return false;
	msg_add(m, "%s: health:", d->p->id);
	if (h->critical_warning > 0) {
		msg_sep(m, &first);
		msg_add(m, "critical warning 0x%lx (", h->critical_warning);
		add_critical_bits(m, h->critical_warning);
		msg_add(m, ")");
	}
	if (h->media_errors > 0) {
		msg_sep(m, &first);
		msg_add(m, "%ld media error%s", h->media_errors,
			h->media_errors == 1 ? "" : "s");
	}
	if (h->percentage_used >= HEALTH_WEAR_PCT) {
		msg_sep(m, &first);
		msg_add(m, "%ld %% of rated endurance used", h->percentage_used);
	}
	if (low_spare) {
		msg_sep(m, &first);
		msg_add(m, "spare %ld %% below its %ld %% threshold",
			h->available_spare, h->available_spare_threshold);
	}
	if (h->smart_ok == 0) {
		msg_sep(m, &first);
		msg_add(m, "ATA SMART overall status failing");
	}
	msg_add(m, ": back up its data and plan to replace it; keep it out of"
		" tiers that hold the only copy");
	return true;
}

/* True for a result that writes (sequential write, mixed 70/30). */
static bool writes(enum profile_io_test t)
{
	return t == PROFILE_SEQ_WRITE || t == PROFILE_MIXED_70_30;
}

/* The write results labelled "burst"; appends their names, returns how many. */
static size_t add_burst_results(const struct profile_device *p, struct msg *m)
{
	size_t n = 0;

	for (int t = 0; t < PROFILE_IO_COUNT; t++) {
		const struct profile_io *io = &p->io[t];

		if (!writes(t) || !io->present || !io->label || !strstr(io->label, "burst"))
			continue;
		msg_add(m, "%s%s", n ? ", " : "", profile_io_test_name(t));
		n++;
	}
	return n;
}

/* Write results from a short burst (labelled so, or a quick probe of a
 * device in a write tier) and no sustained write measured; never for
 * catalog data. */
static bool check_burst(const struct advisor_plan_device *d, struct msg *m)
{
	const struct profile_device *p = d->p;
	bool write_tier = d->tier == ADVISOR_WARM || d->tier == ADVISOR_COLD;
	struct msg names = { .len = 0 };
	size_t n;

	if (p->probe.mode == PROFILE_MODE_CATALOG || known(p->sustained.mbps))
		return false;
	n = add_burst_results(p, &names);
	if (!n && !(p->probe.mode == PROFILE_MODE_QUICK && write_tier))
		return false;
	msg_add(m, "%s: ", p->id);
	if (n)
		msg_add(m, "%s measured in a short burst", names.s);
	else
		msg_add(m, "quick probe in the %s tier", advisor_tier_name(d->tier));
	msg_add(m, ", no sustained write: write figures may fall once the cache"
		" fills; measure with `tierwise probe --full`");
	return true;
}

/* The tests read mostly from unwritten blocks; appends names, returns how many. */
static size_t add_unwritten_tests(const struct profile_device *p, struct msg *m)
{
	size_t n = 0;

	for (int t = 0; t < PROFILE_IO_COUNT; t++) {
		if (!p->io[t].present || !profile_unwritten(p, p->io[t].unwritten))
			continue;
		msg_add(m, "%s%s", n ? ", " : "", profile_io_test_name(t));
		n++;
	}
	if (p->lat_target.present && profile_unwritten(p, p->lat_target.unwritten)) {
		msg_add(m, "%sqd_sweep", n ? ", " : "");
		n++;
	}
	return n;
}

/* Read figures taken from never-written blocks (dropped before scoring,
 * model_drop_unwritten): say which, and how to measure them for real. */
static bool check_unwritten(const struct advisor_plan_device *d, struct msg *m)
{
	struct msg names = { .len = 0 };
	size_t n = add_unwritten_tests(d->p, &names);

	if (!n)
		return false;
	if (d->has_data) {	/* --destructive is refused there: only the scratch file helps */
		msg_add(m, "%s: %s read mostly never-written blocks, which can skip the media:"
			" scored as missing. The disk holds data, so a destructive probe is"
			" refused: for real figures probe a scratch file on its filesystem"
			" (`tierwise probe MOUNTPOINT`)", d->p->id, names.s);
		return true;
	}
	msg_add(m, "%s: %s read mostly never-written blocks, which can skip the media"
		" (a blank disk): scored as missing. For real figures probe it with"
		" `tierwise probe %s --destructive` (it writes the disk first; only on"
		" a disk whose data you do not need), or probe a scratch file on a"
		" filesystem of it that holds data", d->p->id, names.s,
		d->p->path ? d->p->path : d->p->id);
	return true;
}

/* ---- what the warnings keep a device off ------------------------------ */

/* Is the device hot under load (the part of check_heat that throttles)? */
static bool hot_under_load(const struct profile_device *p)
{
	const struct profile_thermal *t = &p->thermal;

	return known(t->load_c) && (t->load_c >= HEAT_LOAD_C ||
		(known(t->warning_c) && t->load_c >= t->warning_c - HEAT_WARNING_MARGIN_C));
}

unsigned advisor_objections(const struct advisor_plan *plan, size_t d, int t)
{
	const struct advisor_plan_device *pd = &plan->devs[d];
	const struct advisor_plan_tier *tier = &plan->tiers[t];
	struct msg m = { .len = 0 };
	unsigned o = 0;

	double wr, rd;

	if (tier->writes && write_trap(pd->p, &wr, &rd) == TRAP_SURE)
		o |= ADVISOR_OBJ_WRITE_TRAP;
	if (tier->writes && (hot_under_load(pd->p) || check_throttling(pd, &m)))
		o |= ADVISOR_OBJ_HEAT;
	if (!tier->refetchable && check_health(pd, &m))
		o |= ADVISOR_OBJ_HEALTH;
	if ((t == ADVISOR_HOT || t == ADVISOR_WARM) &&
	    (pd->p->rotational || pd->p->media == PROFILE_MEDIA_HDD))
		o |= ADVISOR_OBJ_HDD;
	if (t == ADVISOR_HOT && pd->p->transport == PROFILE_TR_USB)
		o |= ADVISOR_OBJ_USB;
	return o;
}

const char *advisor_objection_text(unsigned bit)
{
	switch (bit) {
	case ADVISOR_OBJ_WRITE_TRAP: return "its OEM write trap (writes far slower than it reads)";
	case ADVISOR_OBJ_HEAT: return "its heat under load (it throttles)";
	case ADVISOR_OBJ_HEALTH: return "its health (worn or failing) for data with no other copy";
	case ADVISOR_OBJ_HDD: return "being a hard disk in a latency or loading tier";
	case ADVISOR_OBJ_USB: return "its USB bridge's latency";
	default: return "a warning";
	}
}

/* Score kept in a tier that writes for write figures the plan cannot trust
 * in full (a burst only, a cache cliff): those devices rank after the ones
 * measured past their cache, all else equal. */
static const double UNTRUSTED_WRITE_KEEP = 0.9;

double advisor_objection_cost(const struct advisor_plan *plan, size_t d, int t)
{
	const struct advisor_plan_device *pd = &plan->devs[d];
	struct advisor_plan_device as = *pd;
	struct msg m = { .len = 0 };

	if (!plan->tiers[t].writes)
		return 1.0;
	as.tier = t;	/* check_burst judges a quick probe by its tier */
	if (check_cache_cliff(pd, &m) || check_burst(&as, &m))
		return UNTRUSTED_WRITE_KEEP;
	return 1.0;
}

/* ---- the table and the driver --------------------------------------- */

struct warn_check {
	const char *kind;
	bool (*check)(const struct advisor_plan_device *d, struct msg *m);
	bool drive_wide;	/* a fact of the physical drive (its SMART log,
				 * heat, link): said once for its namespaces */
};

/* In the order warnings of one device are listed. */
static const struct warn_check warn_checks[] = {
	{ "write-trap", check_write_trap, false },
	{ "cache-cliff", check_cache_cliff, false },
	{ "heat", check_heat, true },
	{ "throttling", check_throttling, true },
	{ "hdd-tail-latency", check_hdd_tail, false },
	{ "health", check_health, true },
	{ "usb", check_usb, false },
	{ "fabric", check_fabric, false },
	{ "zoned", check_zoned, false },
	{ "burst", check_burst, false },
	{ "unwritten", check_unwritten, false },
	{ "link", check_link, true },
};

/*
 * A warning of kind already given for another namespace of device i's drive:
 * it names i too ("; nvme0n2 is a namespace of the same drive") and true;
 * false when there is none.  *rc: 0 or -ENOMEM.
 */
static bool said_for_drive(struct advisor_plan *plan, size_t i, const char *kind, int *rc)
{
	*rc = 0;
	for (size_t w = 0; w < plan->n_warnings; w++) {
		struct advisor_warning *x = &plan->warnings[w];
		char *msg;

		if (x->dev < 0 || strcmp(x->kind, kind) ||
		    !advisor_one_drive(plan->devs[x->dev].p, plan->devs[i].p))
			continue;
		if (asprintf(&msg, "%s; %s is a namespace of the same drive", x->message,
			     plan->devs[i].p->id) < 0) {
			*rc = -ENOMEM;
			return true;
		}
		free(x->message);
		x->message = msg;
		return true;
	}
	return false;
}

/* Run every checker on device i.  Returns 0 or -ENOMEM. */
static int warn_device(struct advisor_plan *plan, size_t i)
{
	const struct advisor_plan_device *d = &plan->devs[i];

	if (!d->p)
		return 0;
	for (size_t k = 0; k < ARRAY_SIZE(warn_checks); k++) {
		struct msg m = { .len = 0 };
		int rc;

		if (!warn_checks[k].check(d, &m))
			continue;
		if (warn_checks[k].drive_wide && said_for_drive(plan, i, warn_checks[k].kind, &rc)) {
			if (rc)
				return rc;
			continue;
		}
		rc = advisor_warn(plan, (ptrdiff_t)i, warn_checks[k].kind, "%s", m.s);
		if (rc)
			return rc;
	}
	return 0;
}

/* The plan's index of the device with this id, -1 when it is not in it. */
static ptrdiff_t dev_of(const struct advisor_plan *plan, const char *id)
{
	for (size_t i = 0; i < plan->n_devs; i++)
		if (plan->devs[i].p && plan->devs[i].p->id && !strcmp(plan->devs[i].p->id, id))
			return (ptrdiff_t)i;
	return -1;
}

/* One group of devices found sharing a bottleneck: who, the figures, and
 * the tier that puts two of them in one array. */
static int warn_shared(struct advisor_plan *plan, const struct profile_shared *g)
{
	struct msg m = { .len = 0 };
	ptrdiff_t first = -1;
	int same_tier = -1;

	for (size_t k = 0; k < g->n_ids; k++) {
		ptrdiff_t d = dev_of(plan, g->ids[k]);

		if (d < 0)
			continue;
		for (size_t j = 0; j < k && same_tier < 0; j++) {
			ptrdiff_t e = dev_of(plan, g->ids[j]);

			if (e >= 0 && plan->devs[d].tier >= 0 &&
			    plan->devs[d].tier == plan->devs[e].tier)
				same_tier = plan->devs[d].tier;
		}
		first = first < 0 ? d : first;
	}
	if (first < 0)
		return 0;
	for (size_t k = 0; k < g->n_ids; k++)
		msg_add(&m, "%s%s", k ? (k + 1 == g->n_ids ? " and " : ", ") : "", g->ids[k]);
	msg_add(&m, " share a bottleneck (a link, switch, HBA or controller)");
	if (known(g->together_mbps) && known(g->solo_sum_mbps))
		msg_add(&m, ": read together they reach %s MB/s, %.0f %% of the %s MB/s"
			" they read alone", grp(g->together_mbps).s,
			100.0 * g->together_mbps / g->solo_sum_mbps, grp(g->solo_sum_mbps).s);
	if (same_tier >= 0)
		msg_add(&m, "; the %s tier uses them together, so it delivers what"
			" the shared link carries, not the sum", advisor_tier_name(same_tier));
	msg_add(&m, "; for arrays, prefer devices on separate links (root ports,"
		" HBAs), or move one to another slot");
	return advisor_warn(plan, first, "shared-link", "%s", m.s);
}

/* Buying: is device i the first copy bought of its catalog model?  The
 * stock not bought, and further copies of one bought, get no warning of
 * their own: a shopping list warns of what it buys, once a model. */
static bool first_bought(const struct advisor_plan *plan, size_t i)
{
	if (plan->devs[i].tier < 0)
		return false;
	for (size_t j = 0; plan->origin && j < i; j++)
		if (plan->devs[j].tier >= 0 && plan->origin[j] == plan->origin[i])
			return false;
	return true;
}

int advisor_warnings_make(struct advisor_plan *plan)
{
	if (!plan || (plan->n_devs && !plan->devs))
		return -EINVAL;
	for (size_t i = 0; i < plan->n_devs; i++) {
		int rc = plan->buying && !first_bought(plan, i) ? 0 : warn_device(plan, i);

		if (rc)
			return rc;
	}
	for (size_t g = 0; g < plan->n_links; g++) {
		int rc = warn_shared(plan, plan->links[g]);

		if (rc)
			return rc;
	}
	return 0;
}
