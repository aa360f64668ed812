#!/bin/bash
# slow_device.sh — slow devices complete every test, they are not "stalled":
# a loop device capped by the block layer's throttling (blk-throttle through
# a cgroup: v1 blkio.throttle.*, or v2 io.max), as QEMU's throttling caps
# the lab's disks:
#   20 MB/s    seq_read drains 32 x 1 MiB in 1.7 s (the old 1 s drain grace
#              called that a stall), rand_read_qd32, the sweep to QD128
#   150 IOPS   rand_read_qd32 and the sweep to QD128 (0.85 s to drain)
#   20 MB/s    --destructive: the fill, seq_write and seq_read
# Root only (loop devices, cgroups); SKIP without blk-throttle.
tw=$1
fail=0
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop devices, cgroups)"; exit 77; }
for t in jq losetup; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
cg=""
loop=""
cleanup() {
	[ -n "$loop" ] && detach_loops "$loop"
	[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# A cgroup whose I/O to one device the block layer throttles: "v1" or "v2".
cg_kind=""
if [ -w /sys/fs/cgroup/blkio/cgroup.procs ] &&
	[ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
	cg_kind=v1 cg=/sys/fs/cgroup/blkio/tw-slow.$$
elif grep -qw io /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	# v2 with the io controller already on for the root's children (the
	# test does not change the machine's cgroup setup)
	cg_kind=v2 cg=/sys/fs/cgroup/tw-slow.$$
else
	cg=""
	echo "SKIP: no blk-throttle (cgroup v1 blkio.throttle or v2 io.max)"; exit 77
fi
mkdir "$cg" || { cg=""; echo "SKIP: cannot create the cgroup"; exit 77; }

# limit RBPS WBPS RIOPS — cap the loop device (0 = no limit).
limit() {
	local mm
	mm=$(cat "/sys/block/${loop#/dev/}/dev")
	if [ "$cg_kind" = v1 ]; then
		echo "$mm $1" >"$cg/blkio.throttle.read_bps_device"
		echo "$mm $2" >"$cg/blkio.throttle.write_bps_device"
		echo "$mm $3" >"$cg/blkio.throttle.read_iops_device"
	else
		local r=$1 w=$2 i=$3
		[ "$r" = 0 ] && r=max; [ "$w" = 0 ] && w=max; [ "$i" = 0 ] && i=max
		echo "$mm rbps=$r wbps=$w riops=$i" >"$cg/io.max"
	fi
}

# throttled ARGS... — tierwise in the throttled cgroup.
throttled() {
	bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$cg" "$tw" "$@"
}

# no_stall NAME JSON — no test failed or was skipped as stalled.
no_stall() {
	if jq -r '.devices[0].notes[]' "$2" | grep -E 'stalled|failed'; then
		echo "FAIL: $1: a test stalled or failed (notes above)"; fail=1
	fi
}

# 64 MiB of data, so that reads come from written blocks.
head -c 64M /dev/urandom >"$tmp/disk.img"
loop=$(losetup -f --show "$tmp/disk.img") || { echo "SKIP: no loop device"; exit 77; }
tests=seq_read,rand_read_qd32,qd_sweep

limit 20000000 20000000 0
throttled probe "$loop" --tests "$tests" --quiet --json "$tmp/bps.json" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: 20 MB/s: exit $rc, wanted 0"; cat "$tmp/err"; fail=1; }
no_stall "20 MB/s" "$tmp/bps.json"
jq -e '.devices[0].results.seq_read.mbps | . > 14 and . < 24' "$tmp/bps.json" >/dev/null ||
	{ echo "FAIL: 20 MB/s: seq_read $(jq '.devices[0].results.seq_read.mbps' "$tmp/bps.json") MB/s"; fail=1; }
jq -e '[.devices[0].results.qd_sweep[].qd] == [1,2,4,8,16,32,64,128]' "$tmp/bps.json" >/dev/null ||
	{ echo "FAIL: 20 MB/s: sweep $(jq -c '[.devices[0].results.qd_sweep[].qd]' "$tmp/bps.json")"; fail=1; }
echo "20 MB/s: seq_read $(jq '.devices[0].results.seq_read.mbps' "$tmp/bps.json") MB/s," \
	"rand_read_qd32 $(jq '.devices[0].results.rand_read_qd32.iops' "$tmp/bps.json") IOPS"

limit 0 0 150
throttled probe "$loop" --tests "$tests" --quiet --json "$tmp/iops.json" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: 150 IOPS: exit $rc, wanted 0"; cat "$tmp/err"; fail=1; }
no_stall "150 IOPS" "$tmp/iops.json"
jq -e '.devices[0].results.rand_read_qd32.iops | . > 120 and . < 180' "$tmp/iops.json" >/dev/null ||
	{ echo "FAIL: 150 IOPS: rand_read_qd32 $(jq '.devices[0].results.rand_read_qd32.iops' "$tmp/iops.json") IOPS"; fail=1; }
jq -e '[.devices[0].results.qd_sweep[].qd] == [1,2,4,8,16,32,64,128]' "$tmp/iops.json" >/dev/null ||
	{ echo "FAIL: 150 IOPS: sweep $(jq -c '[.devices[0].results.qd_sweep[].qd]' "$tmp/iops.json")"; fail=1; }
echo "150 IOPS: rand_read_qd32 $(jq '.devices[0].results.rand_read_qd32.iops' "$tmp/iops.json") IOPS," \
	"seq_read $(jq '.devices[0].results.seq_read.mbps' "$tmp/iops.json") MB/s"

# destructive: a blank device (no signature) the probe may write
dd if=/dev/zero of="$loop" bs=1M count=1 conv=notrunc oflag=direct status=none
limit 20000000 20000000 0
throttled probe "$loop" --destructive --yes --tests seq_write,seq_read --quiet \
	--json "$tmp/wr.json" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: 20 MB/s destructive: exit $rc, wanted 0"; cat "$tmp/err"; fail=1; }
no_stall "20 MB/s destructive" "$tmp/wr.json"
jq -e '.devices[0].results.seq_write.mbps | . > 14 and . < 24' "$tmp/wr.json" >/dev/null ||
	{ echo "FAIL: 20 MB/s destructive: seq_write $(jq '.devices[0].results.seq_write.mbps' "$tmp/wr.json") MB/s"; fail=1; }
echo "20 MB/s destructive: seq_write $(jq '.devices[0].results.seq_write.mbps' "$tmp/wr.json") MB/s," \
	"seq_read $(jq '.devices[0].results.seq_read.mbps' "$tmp/wr.json") MB/s"

[ "$fail" -eq 0 ] && echo "PASS"
exit "$fail"
