/* The tierwise.profile/1 field tables: the single declaration of the schema. */
#include "profile_fields.h"

#include "profile.h"
#include "tw_util.h"

#define TABLE(name, arr) const struct pf_table name = { arr, ARRAY_SIZE(arr) }

const char *const pf_transport_names[] = { "nvme", "sata", "sas", "usb",
	"virtio", "md", "dm", "loop", "zram", "file", "mmc", "other", NULL };
const char *const pf_media_names[] = { "nand", "3dxpoint", "hdd", "ram",
	"optical", "removable", "unknown", NULL };
const char *const pf_zoned_names[] = { "none", "host-aware", "host-managed", NULL };
const char *const pf_mode_names[] = { "quick", "full", "catalog", NULL };
const char *const pf_target_names[] = { "raw-readonly", "scratch-file",
	"raw-destructive", "catalog", NULL };
const char *const pf_io_names[] = { "seq_read", "seq_write", "rand_read_qd1",
	"rand_read_qd32", "mixed_70_30", NULL };
const char *const pf_lat_names[] = { "mean", "p50", "p90", "p99", "p999",
	"max", NULL };

#define D(f) offsetof(struct profile_device, f)
static const struct pf_field tool_f[] = {
	{ "name", PF_STR, offsetof(struct profile, tool_name), PF_REQUIRED, 0, 0 },
	{ "version", PF_STR, offsetof(struct profile, tool_version), PF_REQUIRED, 0, 0 },
};
TABLE(pf_tool, tool_f);

/* schema, tool and devices are handled by the reader itself (see profile.c) */
static const struct pf_field top_f[] = {
	{ "host", PF_STR, offsetof(struct profile, host), PF_REQUIRED, 0, 0 },
	{ "created", PF_STR, offsetof(struct profile, created), PF_REQUIRED, 0, 0 },
	{ "tool", PF_OBJ, 0, PF_REQUIRED, 0, &pf_tool },
};
TABLE(pf_top, top_f);

static const struct pf_field probe_f[] = {
	{ "mode", PF_ENUM, offsetof(struct profile_probe, mode), PF_REQUIRED, pf_mode_names, 0 },
	{ "target", PF_ENUM, offsetof(struct profile_probe, target), PF_REQUIRED, pf_target_names, 0 },
	{ "seconds", PF_NONNEG, offsetof(struct profile_probe, seconds), PF_NULLOUT, 0, 0 },
	{ "engine", PF_STR, offsetof(struct profile_probe, engine), 0, 0, 0 },
	{ "test_seconds", PF_POS, offsetof(struct profile_probe, test_seconds), 0, 0, 0 },
};
TABLE(pf_probe, probe_f);

const char *const pf_throttle_names[] = { "tmt1", "tmt2", "drop", NULL };
const char *const pf_crit_names[] = { "spare", "temperature", "reliability",
	"read-only", "volatile-backup", "pmr-read-only", NULL };

static const struct pf_field throttle_f[] = {
	{ "t", PF_NONNEG, offsetof(struct profile_throttle, t), PF_REQUIRED, 0, 0 },
	{ "temp_c", PF_TEMP, offsetof(struct profile_throttle, temp_c), PF_NULLOUT, 0, 0 },
	{ "kind", PF_ENUM, offsetof(struct profile_throttle, kind), PF_REQUIRED, pf_throttle_names, 0 },
};
TABLE(pf_throttle, throttle_f);

#define H(f) offsetof(struct profile_health, f)
static const struct pf_field health_f[] = {
	{ "source", PF_STR, H(source), PF_NULLOUT, 0, 0 },
	{ "critical_warning", PF_COUNT, H(critical_warning), PF_NULLOUT, 0, 0 },
	{ "percentage_used", PF_COUNT, H(percentage_used), PF_NULLOUT, 0, 0 },
	{ "available_spare", PF_COUNT, H(available_spare), PF_NULLOUT, 0, 0 },
	{ "available_spare_threshold", PF_COUNT, H(available_spare_threshold), PF_NULLOUT, 0, 0 },
	{ "media_errors", PF_COUNT, H(media_errors), PF_NULLOUT, 0, 0 },
	{ "power_on_hours", PF_COUNT, H(power_on_hours), PF_NULLOUT, 0, 0 },
	{ "warning_temp_minutes", PF_COUNT, H(warning_temp_minutes), PF_NULLOUT, 0, 0 },
	{ "critical_temp_minutes", PF_COUNT, H(critical_temp_minutes), PF_NULLOUT, 0, 0 },
	{ "tmt1_transitions", PF_COUNT, H(tmt1_transitions), PF_NULLOUT, 0, 0 },
	{ "tmt2_transitions", PF_COUNT, H(tmt2_transitions), PF_NULLOUT, 0, 0 },
	{ "tmt1_seconds", PF_COUNT, H(tmt1_seconds), PF_NULLOUT, 0, 0 },
	{ "tmt2_seconds", PF_COUNT, H(tmt2_seconds), PF_NULLOUT, 0, 0 },
	{ "smart_ok", PF_OPTBOOL, H(smart_ok), PF_NULLOUT, 0, 0 },
};
TABLE(pf_health, health_f);

static const struct pf_field thermal_f[] = {
	{ "idle_c", PF_TEMP, offsetof(struct profile_thermal, idle_c), PF_NULLOUT, 0, 0 },
	{ "load_c", PF_TEMP, offsetof(struct profile_thermal, load_c), PF_NULLOUT, 0, 0 },
	{ "rise_c", PF_TEMP, offsetof(struct profile_thermal, rise_c), PF_NULLOUT, 0, 0 },
	{ "warning_c", PF_TEMP, offsetof(struct profile_thermal, warning_c), PF_NULLOUT, 0, 0 },
	{ "critical_c", PF_TEMP, offsetof(struct profile_thermal, critical_c), PF_NULLOUT, 0, 0 },
	{ "throttle_events", PF_COUNT, offsetof(struct profile_thermal, throttle_events), PF_NULLOUT, 0, 0 },
	{ "source", PF_STR, offsetof(struct profile_thermal, source), PF_NULLOUT, 0, 0 },
};
TABLE(pf_thermal, thermal_f);

#define L(f) offsetof(struct profile_link, f)
static const struct pf_field link_f[] = {
	{ "pcie_address", PF_STR, L(pcie_address), PF_NULLOUT, 0, 0 },
	{ "speed_gts", PF_POS, L(speed_gts), PF_NULLOUT, 0, 0 },
	{ "width", PF_POSINT, L(width), PF_NULLOUT, 0, 0 },
	{ "max_speed_gts", PF_POS, L(max_speed_gts), PF_NULLOUT, 0, 0 },
	{ "max_width", PF_POSINT, L(max_width), PF_NULLOUT, 0, 0 },
	{ "numa_node", PF_COUNT, L(numa_node), PF_NULLOUT, 0, 0 },
};
TABLE(pf_link, link_f);

#define MP(f) offsetof(struct profile_multipath, f)
static const struct pf_field multipath_f[] = {
	{ "subsysnqn", PF_STR, MP(subsysnqn), PF_NULLOUT, 0, 0 },
	{ "iopolicy", PF_STR, MP(iopolicy), PF_NULLOUT, 0, 0 },
};
TABLE(pf_multipath, multipath_f);

#define PA(f) offsetof(struct profile_path, f)
static const struct pf_field path_f[] = {
	{ "name", PF_STR, PA(name), PF_REQUIRED, 0, 0 },
	{ "controller", PF_STR, PA(controller), PF_REQUIRED, 0, 0 },
	{ "transport", PF_STR, PA(transport), PF_NULLOUT, 0, 0 },
	{ "address", PF_STR, PA(address), PF_NULLOUT, 0, 0 },
	{ "pci_function", PF_STR, PA(pci_function), PF_NULLOUT, 0, 0 },
	{ "numa_node", PF_COUNT, PA(numa_node), PF_NULLOUT, 0, 0 },
	{ "ana_state", PF_STR, PA(ana_state), PF_NULLOUT, 0, 0 },
};
TABLE(pf_path, path_f);

#define FB(f) offsetof(struct profile_fabric, f)
static const struct pf_field fabric_f[] = {
	{ "transport", PF_STR, FB(transport), PF_REQUIRED, 0, 0 },
	{ "address", PF_STR, FB(address), PF_NULLOUT, 0, 0 },
};
TABLE(pf_fabric, fabric_f);

#define ZN(f) offsetof(struct profile_zoned, f)
static const struct pf_field zoned_f[] = {
	{ "model", PF_ENUM, ZN(model), PF_REQUIRED, pf_zoned_names, 0 },
	{ "zone_bytes", PF_POSINT, ZN(zone_bytes), PF_NULLOUT, 0, 0 },
	{ "zones", PF_POSINT, ZN(zones), PF_NULLOUT, 0, 0 },
};
TABLE(pf_zoned, zoned_f);

/* results, thermal, health, link, multipath, fabric, zoned, notes: arrays and maps handled by reader and writer */
static const struct pf_field device_f[] = {
	{ "id", PF_STR, D(id), PF_REQUIRED, 0, 0 },
	{ "path", PF_STR, D(path), PF_NULLOUT, 0, 0 },
	{ "model", PF_STR, D(model), PF_REQUIRED, 0, 0 },
	{ "serial", PF_STR, D(serial), PF_NULLOUT, 0, 0 },
	{ "firmware", PF_STR, D(firmware), PF_NULLOUT, 0, 0 },
	{ "drive_id", PF_STR, D(drive_id), 0, 0, 0 },
	{ "transport", PF_ENUM, D(transport), PF_REQUIRED, pf_transport_names, 0 },
	{ "media", PF_ENUM, D(media), PF_REQUIRED, pf_media_names, 0 },
	{ "rotational", PF_BOOL, D(rotational), PF_REQUIRED, 0, 0 },
	{ "capacity_bytes", PF_I64, D(capacity_bytes), PF_REQUIRED, 0, 0 },
	{ "price_per_tb", PF_NONNEG, D(price_per_tb), PF_NULLOUT, 0, 0 },
	{ "probe", PF_OBJ, D(probe), PF_REQUIRED, 0, &pf_probe },
};
TABLE(pf_device, device_f);

#define IO(f) offsetof(struct profile_io, f)
static const struct pf_field io_f[] = {
	{ "bs", PF_POSINT, IO(bs), PF_REQUIRED, 0, 0 },
	{ "qd", PF_POSINT, IO(qd), PF_REQUIRED, 0, 0 },
	{ "mbps", PF_MBPS, IO(mbps), 0, 0, 0 },
	{ "iops", PF_IOPS, IO(iops), 0, 0, 0 },
	{ "read_iops", PF_IOPS, IO(read_iops), 0, 0, 0 },
	{ "write_iops", PF_IOPS, IO(write_iops), 0, 0, 0 },
	{ "lat_us", PF_LAT, IO(lat), 0, 0, 0 },
	{ "seconds", PF_POS, IO(seconds), 0, 0, 0 },
	{ "ios", PF_I64, IO(ios), 0, 0, 0 },
	{ "steady", PF_OPTBOOL, IO(steady), 0, 0, 0 },
	{ "spread_pct", PF_NONNEG, IO(spread_pct), 0, 0, 0 },
	{ "threads", PF_POSINT, IO(threads), 0, 0, 0 },
	{ "label", PF_STR, IO(label), 0, 0, 0 },
	{ "unwritten", PF_FRAC, IO(unwritten), 0, 0, 0 },
};
TABLE(pf_io, io_f);

static const struct pf_field lat_target_f[] = {
	{ "p99_us", PF_US, offsetof(struct profile_lat_target, p99_us), PF_REQUIRED, 0, 0 },
	{ "qd", PF_POSINT, offsetof(struct profile_lat_target, qd), PF_NULLOUT, 0, 0 },
	{ "iops", PF_IOPS, offsetof(struct profile_lat_target, iops), PF_NULLOUT, 0, 0 },
	{ "unwritten", PF_FRAC, offsetof(struct profile_lat_target, unwritten), 0, 0, 0 },
};
TABLE(pf_lat_target, lat_target_f);

#define SU(f) offsetof(struct profile_sustained, f)
static const struct pf_field sustained_f[] = {
	{ "mbps", PF_MBPS, SU(mbps), 0, 0, 0 },
	{ "initial_mbps", PF_MBPS, SU(initial_mbps), 0, 0, 0 },
	{ "cliff_after_gb", PF_NONNEG, SU(cliff_after_gb), PF_NULLOUT, 0, 0 },
	{ "seconds", PF_POS, SU(seconds), 0, 0, 0 },
};
TABLE(pf_sustained, sustained_f);

static const struct pf_field point_f[] = {
	{ "t", PF_NONNEG, offsetof(struct profile_point, t), PF_REQUIRED, 0, 0 },
	{ "mbps", PF_NONNEG, offsetof(struct profile_point, mbps), PF_REQUIRED, 0, 0 },
	{ "temp_c", PF_TEMP, offsetof(struct profile_point, temp_c), PF_NULLOUT, 0, 0 },
};
TABLE(pf_point, point_f);

static const struct pf_field sweep_f[] = {
	{ "qd", PF_POSINT, offsetof(struct profile_sweep, qd), PF_REQUIRED, 0, 0 },
	{ "iops", PF_IOPS, offsetof(struct profile_sweep, iops), 0, 0, 0 },
	{ "lat_us", PF_LAT, offsetof(struct profile_sweep, lat), 0, 0, 0 },
};
TABLE(pf_sweep, sweep_f);

#define UW(f) offsetof(struct profile_under_write, f)
static const struct pf_field under_write_f[] = {
	{ "bs", PF_POSINT, UW(bs), PF_REQUIRED, 0, 0 },
	{ "qd", PF_POSINT, UW(qd), PF_REQUIRED, 0, 0 },
	{ "iops", PF_IOPS, UW(iops), 0, 0, 0 },
	{ "lat_us", PF_LAT, UW(lat), 0, 0, 0 },
	{ "idle_p99_us", PF_US, UW(idle_p99_us), 0, 0, 0 },
	{ "p99_ratio", PF_POS, UW(p99_ratio), 0, 0, 0 },
	{ "write_bs", PF_POSINT, UW(write_bs), 0, 0, 0 },
	{ "write_rate_mibps", PF_POS, UW(write_rate_mibps), 0, 0, 0 },
	{ "write_mibps", PF_NONNEG, UW(write_mibps), 0, 0, 0 },
	{ "trim_mibps", PF_NONNEG, UW(trim_mibps), PF_NULLOUT, 0, 0 },
	{ "seconds", PF_POS, UW(seconds), 0, 0, 0 },
	{ "ios", PF_I64, UW(ios), 0, 0, 0 },
	{ "unwritten", PF_FRAC, UW(unwritten), 0, 0, 0 },
	{ "boot_bs", PF_POSINT, UW(boot_bs), 0, 0, 0 },
	{ "boot_qd", PF_POSINT, UW(boot_qd), 0, 0, 0 },
	{ "boot_iops", PF_IOPS, UW(boot_iops), 0, 0, 0 },
	{ "boot_lat_us", PF_LAT, UW(boot_lat), 0, 0, 0 },
};
TABLE(pf_under_write, under_write_f);

/* results' application objects (profile_fields.h: struct pf_app_result) */
#define AP(f) offsetof(struct profile_app, f)
static const struct pf_field app_buffered_f[] = {
	{ "mbps", PF_MBPS, AP(buffered_mbps), PF_REQUIRED, 0, 0 },
	{ "read_ahead_kb", PF_COUNT, AP(read_ahead_kb), 0, 0, 0 },
};
TABLE(pf_app_buffered, app_buffered_f);

static const struct pf_field app_buffered_plan_f[] = {
	{ "mbps", PF_MBPS, AP(buffered_plan_mbps), PF_REQUIRED, 0, 0 },
	{ "read_ahead_kb", PF_COUNT, AP(plan_read_ahead_kb), 0, 0, 0 },
};
TABLE(pf_app_buffered_plan, app_buffered_plan_f);

static const struct pf_field app_mmap_f[] = {
	{ "mbps", PF_MBPS, AP(mmap_mbps), PF_REQUIRED, 0, 0 },
};
TABLE(pf_app_mmap, app_mmap_f);

static const struct pf_field app_direct_f[] = {
	{ "mbps", PF_MBPS, AP(direct_mbps), PF_REQUIRED, 0, 0 },
};
TABLE(pf_app_direct, app_direct_f);

static const struct pf_field app_fault_lat_f[] = {
	{ "p99", PF_US, AP(fault_p99_us), 0, 0, 0 },
};
TABLE(pf_app_fault_lat, app_fault_lat_f);

static const struct pf_field app_fault_f[] = {
	{ "iops", PF_IOPS, AP(fault_iops), PF_REQUIRED, 0, 0 },
	{ "lat_us", PF_OBJ, 0, 0, 0, &pf_app_fault_lat },
	{ "kib_per_fault", PF_POS, AP(fault_kib), 0, 0, 0 },
};
TABLE(pf_app_fault, app_fault_f);

static const struct pf_field app_chain_lat_f[] = {
	{ "p50", PF_US, AP(chain_p50_us), 0, 0, 0 },
	{ "p99", PF_US, AP(chain_p99_us), 0, 0, 0 },
};
TABLE(pf_app_chain_lat, app_chain_lat_f);

static const struct pf_field app_chain_f[] = {
	{ "iops", PF_IOPS, AP(chain_iops), PF_REQUIRED, 0, 0 },
	{ "lat_us", PF_OBJ, 0, 0, 0, &pf_app_chain_lat },
};
TABLE(pf_app_chain, app_chain_f);

static const struct pf_field app_fault_rand_lat_f[] = {
	{ "p50", PF_US, AP(fault_rand_p50_us), 0, 0, 0 },
	{ "p99", PF_US, AP(fault_rand_p99_us), 0, 0, 0 },
};
TABLE(pf_app_fault_rand_lat, app_fault_rand_lat_f);

static const struct pf_field app_fault_rand_f[] = {
	{ "iops", PF_IOPS, AP(fault_rand_iops), PF_REQUIRED, 0, 0 },
	{ "lat_us", PF_OBJ, 0, 0, 0, &pf_app_fault_rand_lat },
};
TABLE(pf_app_fault_rand, app_fault_rand_f);

static const struct pf_field app_fsync_f[] = {
	{ "mbps", PF_MBPS, AP(fsync_mbps), PF_REQUIRED, 0, 0 },
};
TABLE(pf_app_fsync, app_fsync_f);

static const struct pf_field app_inner_f[] = {
	{ "mbps", PF_MBPS, AP(inner_mbps), PF_REQUIRED, 0, 0 },
};
TABLE(pf_app_inner, app_inner_f);

const struct pf_app_result pf_app_results[] = {
	{ "buffered_read", &pf_app_buffered, AP(buffered_mbps) },
	{ "buffered_read_plan", &pf_app_buffered_plan, AP(buffered_plan_mbps) },
	{ "mmap_read", &pf_app_mmap, AP(mmap_mbps) },
	{ "direct_read", &pf_app_direct, AP(direct_mbps) },
	{ "mmap_fault", &pf_app_fault, AP(fault_iops) },
	{ "pread_chain", &pf_app_chain, AP(chain_iops) },
	{ "mmap_fault_random", &pf_app_fault_rand, AP(fault_rand_iops) },
	{ "fsync_write", &pf_app_fsync, AP(fsync_mbps) },
	{ "seq_read_inner", &pf_app_inner, AP(inner_mbps) },
};
const size_t pf_app_result_count = ARRAY_SIZE(pf_app_results);

static const struct pf_field iorate_f[] = {
	{ "pct", PF_POS, offsetof(struct profile_iorate, pct), PF_REQUIRED, 0, 0 },
	{ "offered_iops", PF_IOPS, offsetof(struct profile_iorate, offered_iops), PF_REQUIRED, 0, 0 },
	{ "iops", PF_IOPS, offsetof(struct profile_iorate, iops), 0, 0, 0 },
	{ "lat_us", PF_LAT, offsetof(struct profile_iorate, lat), 0, 0, 0 },
};
TABLE(pf_iorate, iorate_f);
