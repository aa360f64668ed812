#!/bin/bash
# slow_device.sh — slow devices complete every test, they are not "stalled":
# a loop device capped by the block layer's throttling (blk-throttle through
# a cgroup: v1 blkio.throttle.*, or v2 io.max), as QEMU's throttling caps
# the lab's disks:
#   20 MB/s    read-only: seq_read drains 32 x 1 MiB in 1.7 s (the old 1 s
#              drain grace called that a stall), rand_read_qd1,
#              rand_read_qd32, the sweep (to QD128 or where it says it stopped)
#   150 IOPS   --destructive, every default test (the fill, seq_write,
#              seq_read, rand_read_qd1, rand_read_qd32, the sweep:
#              0.85 s to drain, mixed_70_30)
#   20 MB/s    --destructive, every default test
# And side by side: four loop devices capped at 10 MB/s, --jobs 4 on this
# machine's CPUs: slow disks need little CPU, so more of them run at once than
# there are CPUs (the "probing ... side by side, N running" lines), and every
# figure is there.
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
more=()
cleanup() {
	[ -n "$loop" ] && detach_loops "$loop"
	[ ${#more[@]} -gt 0 ] && detach_loops "${more[@]}"
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

# limit RBPS WBPS RIOPS WIOPS — cap the loop device (0 = no limit).
limit() {
	local mm
	mm=$(cat "/sys/block/${loop#/dev/}/dev")
	if [ "$cg_kind" = v1 ]; then
		echo "$mm $1" >"$cg/blkio.throttle.read_bps_device"
		echo "$mm $2" >"$cg/blkio.throttle.write_bps_device"
		echo "$mm $3" >"$cg/blkio.throttle.read_iops_device"
		echo "$mm $4" >"$cg/blkio.throttle.write_iops_device"
	else
		local r=$1 w=$2 i=$3 o=$4
		[ "$r" = 0 ] && r=max; [ "$w" = 0 ] && w=max
		[ "$i" = 0 ] && i=max; [ "$o" = 0 ] && o=max
		echo "$mm rbps=$r wbps=$w riops=$i wiops=$o" >"$cg/io.max"
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

# 64 MiB of data, so that read-only reads come from written blocks.
head -c 64M /dev/urandom >"$tmp/disk.img"
loop=$(losetup -f --show "$tmp/disk.img") || { echo "SKIP: no loop device"; exit 77; }
# the sweep from QD 1 in powers of two, to QD 128 or to where a note says it
# stopped and why (saturated, or the p99 past the target)
sweep='(.devices[0].results.qd_sweep | map(.qd)) as $q | $q[0] == 1
	and $q == [1,2,4,8,16,32,64,128][:($q | length)]
	and (($q | last) == 128 or ([.devices[0].notes[] | test("^qd_sweep: stopped at QD \($q | last): (its p99 .* past the .* target|IOPS grew less than 5 % for two steps)")] | any))'

# probe NAME ARGS... — tierwise probe of the loop device in the cgroup into
# $tmp/NAME.json: exit 0, no test stalled or failed, the sweep as it should end
probe() {
	local name=$1 rc; shift
	throttled probe "$loop" --quiet -o "$tmp/$name.json" "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] || { echo "FAIL: $name: exit $rc, wanted 0"; cat "$tmp/err"; fail=1; }
	no_stall "$name" "$tmp/$name.json"
	jq -e "$sweep" "$tmp/$name.json" >/dev/null ||
		{ echo "FAIL: $name: sweep $(jq -c '[.devices[0].results.qd_sweep[]?.qd]' "$tmp/$name.json")"; fail=1; }
}
# within NAME FILTER LOW HIGH — the figure is in (LOW, HIGH)
within() {
	jq -e --argjson lo "$3" --argjson hi "$4" "$2 | . > \$lo and . < \$hi" "$tmp/$1.json" >/dev/null ||
		{ echo "FAIL: $1: $2 = $(jq "$2" "$tmp/$1.json"), wanted $3..$4"; fail=1; }
}
# show NAME — the figures, one line
show() {
	echo "$1: $(jq -r '.devices[0].results | [
		"seq_read \(.seq_read.mbps // "-") MB/s", "seq_write \(.seq_write.mbps // "-") MB/s",
		"rand_read_qd1 \(.rand_read_qd1.iops // "-")", "rand_read_qd32 \(.rand_read_qd32.iops // "-")",
		"mixed_70_30 \(.mixed_70_30.iops // "-") IOPS"] | join(", ")' "$tmp/$1.json")"
}

limit 20000000 20000000 0 0
probe bps-ro --tests seq_read,rand_read_qd1,rand_read_qd32,qd_sweep
within bps-ro .devices[0].results.seq_read.mbps 14 24
show bps-ro

# destructive: a blank device (no signature) the probe may write
dd if=/dev/zero of="$loop" bs=1M count=1 conv=notrunc oflag=direct status=none
limit 0 0 150 150
probe iops-wr --destructive --yes
within iops-wr .devices[0].results.rand_read_qd32.iops 120 180
within iops-wr .devices[0].results.mixed_70_30.iops 120 330
# reads under writes on a 150-IOPS disk: at their cap long before a p99's
# 10,000, and a note says on how few samples the p99 rests
jq -e '.devices[0] | (.results.read_under_write.ios | . > 0 and . < 10000) and
	([.notes[] | test("^read_under_write: stopped at its 4.0 s cap after [0-9]+ reads: its p99 rests on [0-9]+ samples above it \\(100 wanted\\)$")] | any)' \
	"$tmp/iops-wr.json" >/dev/null ||
	{ echo "FAIL: iops-wr: read_under_write's cap note: $(jq -c '.devices[0] | [.results.read_under_write.ios, .notes]' "$tmp/iops-wr.json")"; fail=1; }
# the buffered write's fsync: a 150-IOPS cap counts each 4 KiB page of the
# writeback apart (0.6 MB/s), so the app test keeps to its 1 MiB pilot and
# says so, and the whole profile ends in seconds (74 s when the region was
# sized by seq_write's 1 MiB writes, 55 s of it in one fsync)
jq -e '.devices[0] | (.results.fsync_write.mbps | . > 0.2 and . < 5) and
	([.notes[] | test("^app: fsync_write: the figure is its 1 MiB pilot.s \\(written and fsynced in [0-9.]+ s\\)")] | any)' \
	"$tmp/iops-wr.json" >/dev/null ||
	{ echo "FAIL: iops-wr: fsync_write: $(jq -c '.devices[0] | [.results.fsync_write, [.notes[] | select(startswith("app:"))]]' "$tmp/iops-wr.json")"; fail=1; }
within iops-wr .devices[0].probe.seconds 5 35
show iops-wr

limit 20000000 20000000 0 0
probe bps-wr --destructive --yes
within bps-wr .devices[0].results.seq_write.mbps 14 24
within bps-wr .devices[0].results.seq_read.mbps 14 24
show bps-wr

# side by side beyond one job per CPU: four capped devices, little CPU each
cpus=$(nproc)
want=$((cpus + 1))
if [ "$want" -le 4 ]; then
	for i in 1 2 3; do
		head -c 64M /dev/urandom >"$tmp/more$i.img"
		more+=("$(losetup -f --show "$tmp/more$i.img")") || break
	done
	first=$loop
	for l in "$first" "${more[@]}"; do loop=$l; limit 10000000 10000000 0 0; done
	loop=$first
	throttled probe "$loop" "${more[@]}" --jobs 4 --tests seq_read --seconds 4 --no-links \
		-o "$tmp/side.json" >/dev/null 2>"$tmp/side.err"
	rc=$?
	[ "$rc" -eq 0 ] || { echo "FAIL: side by side: exit $rc"; cat "$tmp/side.err"; fail=1; }
	peak=$(sed -n 's/.* side by side, \([0-9]*\) running$/\1/p' "$tmp/side.err" | sort -n | tail -n 1)
	echo "side by side: at most ${peak:-0} of 4 running at once on $cpus CPUs"
	grep 'side by side' "$tmp/side.err"
	[ "${peak:-0}" -ge "$want" ] ||
		{ echo "FAIL: side by side: at most ${peak:-0} running, wanted $want or more"; fail=1; }
	jq -e '[.devices[] | .results.seq_read.mbps > 6] == [true, true, true, true]' \
		"$tmp/side.json" >/dev/null || { echo "FAIL: side by side: a figure missing"; fail=1; }
else
	echo "note: $cpus CPUs: four devices run one per CPU; the check beyond that is skipped"
fi

[ "$fail" -eq 0 ] && echo "PASS"
exit "$fail"
