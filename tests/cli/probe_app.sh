#!/bin/bash
# probe_app.sh — the probe's app test on real devices of its own: a loop
#   device over a file of random data (read-only, then --destructive) and a
#   zram device (--destructive).  Asserts the application figures are there,
#   positive and consistent: the read-ahead is the device's own, the plan's
#   window 4096 KiB, the pread chain's mean read and the MADV_RANDOM
#   faults' mean fault near their p50 (one unit),
#   each fault read 4 KiB from the device at least (the
#   loop device's stat counts them), fsync_write only where the probe may
#   write (a read-only probe notes why not), the inner zone only on a
#   rotational device; the profiles validate and the text shows the line.
# Root only.
tw=$1
fail=0
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (zram, loop devices)"; exit 77; }
for t in jq losetup; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
[ -w /sys/class/zram-control/hot_add ] || { echo "SKIP: no zram-control (modprobe zram)"; exit 77; }
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d -p /var/tmp)	# on a disk, not tmpfs: the loop device reads it
zram="" loop=""
cleanup() {
	[ -n "$loop" ] && detach_loops "$loop"
	if [ -n "$zram" ]; then	# udev may still hold it for a moment
		for _ in $(seq 50); do
			echo "$zram" 2>/dev/null >/sys/class/zram-control/hot_remove && break
			sleep 0.1
		done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

head -c 256M /dev/urandom >"$tmp/disk.img"
loop=$(losetup -f --show --direct-io=on "$tmp/disk.img") || { echo "SKIP: no loop device"; exit 77; }
zram=$(cat /sys/class/zram-control/hot_add) || { echo "SKIP: zram hot_add failed"; exit 77; }
echo 256M >"/sys/block/zram$zram/disksize" || { echo "FAIL: zram disksize"; exit 1; }
head -c 256M /dev/urandom | dd of="/dev/zram$zram" bs=1M oflag=direct status=none
lname=${loop#/dev/}
ra=$(cat "/sys/block/$lname/queue/read_ahead_kb")
rot=$(cat "/sys/block/$lname/queue/rotational")

# the figures every target has: the loads, the faults
app_reads='.devices[0].results | .buffered_read.mbps > 0 and .buffered_read_plan.mbps > 0
	and .buffered_read_plan.read_ahead_kb == 4096 and .mmap_read.mbps > 0
	and .direct_read.mbps > 0
	and .mmap_fault.iops > 0 and .mmap_fault.lat_us.p99 > 0
	and .pread_chain.iops > 0 and .pread_chain.lat_us.p50 > 0
	and .pread_chain.lat_us.p99 >= .pread_chain.lat_us.p50
	and .mmap_fault_random.iops > 0 and .mmap_fault_random.lat_us.p50 > 0
	and .mmap_fault_random.lat_us.p99 >= .mmap_fault_random.lat_us.p50'
# a pread chain's reads take their time one after another: the mean read
# (1 / iops) is near its p50, in µs both (not a unit apart)
chain_units='.devices[0].results.pread_chain | 1e6 / .iops / .lat_us.p50 | . > 0.5 and . < 20'
rand_units='.devices[0].results.mmap_fault_random | 1e6 / .iops / .lat_us.p50 | . > 0.5 and . < 20'

check "loop, read-only" 0 "$tw" probe "$lname" --tests seq_read,app --quiet -o "$tmp/ro.json"
cp "$tmp/ro.json" "$tmp/out"
jq_true "loop: the reads' figures" "$app_reads" '.devices[0].results'
jq_true "loop: the device's read-ahead" ".devices[0].results.buffered_read.read_ahead_kb == $ra" \
	'.devices[0].results.buffered_read'
jq_true "loop: the pread chain's mean read near its p50" "$chain_units" '.devices[0].results.pread_chain'
jq_true "loop: the MADV_RANDOM faults' mean near their p50" "$rand_units" \
	'.devices[0].results.mmap_fault_random'
jq_true "loop: 4 KiB a fault at least, from its stat" '.devices[0].results.mmap_fault.kib_per_fault >= 4' \
	'.devices[0].results.mmap_fault'
jq_true "loop: read-only, no fsync_write" '.devices[0].results.fsync_write == null' '.devices[0].results'
jq_true "loop: read-only, noted" '[.devices[0].notes[] | select(. == "app: fsync_write skipped: read-only target")] | length == 1' \
	'.devices[0].notes'
if [ "$rot" = 1 ]; then
	jq_true "loop (rotational): the inner zone" '.devices[0].results.seq_read_inner.mbps > 0' '.devices[0].results'
else
	jq_true "loop (not rotational): no inner zone" '.devices[0].results.seq_read_inner == null' '.devices[0].results'
fi
check "loop: validate" 0 "$tw" validate "$tmp/ro.json"

check "loop, text" 0 "$tw" probe "$lname" --tests app
expect "loop: the text's app line" "$tmp/out" "  app: buffered read "
line "loop: the text's pread chain and faults" \
	"^    pread chain [0-9,]+ /s, p50 [0-9.,]+ µs; mmap faults under MADV_RANDOM [0-9,]+ /s, p50 [0-9.,]+ µs$"
line "loop: the text's read-around faults" "^    mmap faults with read-around [0-9,]+ /s, p99 [0-9.,]+ µs, "

check "zram, --destructive" 0 "$tw" probe "zram$zram" --destructive --yes --tests seq_read,seq_write,rand_read_qd1,app \
	--quiet -o "$tmp/rw.json"
cp "$tmp/rw.json" "$tmp/out"
jq_true "zram: the reads' figures" "$app_reads" '.devices[0].results'
jq_true "zram: the pread chain's mean read near its p50" "$chain_units" '.devices[0].results.pread_chain'
jq_true "zram: the MADV_RANDOM faults' mean near their p50" "$rand_units" \
	'.devices[0].results.mmap_fault_random'
# a pread chain more than twice the engine's QD1 reads is noted (zram takes
# no request without blocking: io_uring hands each to a worker), and only then
jq_true "zram: the pread chain against the engine's QD1 noted when twice as fast, only then" \
	'.devices[0] | (.results.pread_chain.iops > 2 * .results.rand_read_qd1.iops) ==
	 ([.notes[] | select(startswith("app: pread_chain: ") and contains("rand_read_qd1"))] | length == 1)' \
	'[.devices[0].results.pread_chain.iops, .devices[0].results.rand_read_qd1.iops, .devices[0].notes]'
jq_true "zram: fsync_write" '.devices[0].results.fsync_write.mbps > 0' '.devices[0].results'
jq_true "zram: no inner zone" '.devices[0].results.seq_read_inner == null' '.devices[0].results'
jq_true "zram: no app failure" '[.devices[0].notes[] | select(startswith("app:") and (startswith("app: pread_chain: ") | not))] | length == 0' \
	'.devices[0].notes'
check "zram: validate" 0 "$tw" validate "$tmp/rw.json"

exit $fail
