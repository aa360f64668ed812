#!/usr/bin/env bash
# Shared helpers of the benchmarks: targets, fio and tierwise runs, metrics.
# Performance is measured here, side by side in one run, never in tests.

TW=${TW:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/cli/tierwise}
ZRAM_SIZE=${ZRAM_SIZE:-2G}
ZRAM_SET=0

need() { for t in "$@"; do command -v "$t" >/dev/null || { echo "$t is needed" >&2; exit 1; }; done; }

# Give /dev/zram0 a size and incompressible contents (reads must not hit
# zero pages, which zram answers without decompressing).
zram_setup() {
	[ -e /sys/block/zram0 ] || modprobe zram || return 1
	if [ "$(cat /sys/block/zram0/disksize)" = 0 ]; then
		echo "$ZRAM_SIZE" >/sys/block/zram0/disksize || return 1
		ZRAM_SET=1
	fi
	fio --name=fill --filename=/dev/zram0 --direct=1 --rw=write --bs=1M --iodepth=16 \
		--ioengine=io_uring --size=100% --output=/dev/null >/dev/null
}

# a reset right after a probe closed the device may find it busy for a
# moment (seen here, holder not established), so try for up to 5 s.
zram_teardown() {
	[ "$ZRAM_SET" = 1 ] || return 0
	for _ in $(seq 50); do echo 1 2>/dev/null >/sys/block/zram0/reset && break; sleep 0.1; done
	ZRAM_SET=0
}

# fio's buffers in 2 MiB huge pages (--iomem=mmaphuge), as the probe asks
# for transparent huge pages for its large buffers: on a virtio disk, 1 MiB
# I/Os into scattered 4 KiB pages ran at a fifth of the rate.  Reserves
# HUGEPAGES pages (64 = 128 MiB) when fewer are free; hugepages_restore
# gives them back.  FIO_IOMEM=malloc measures fio's default instead.
HUGEPAGES=${HUGEPAGES:-64}
HUGE_WAS=
hugepages_setup() {
	local free
	[ "${FIO_IOMEM:-mmaphuge}" = mmaphuge ] || return 0
	free=$(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo)
	[ "${free:-0}" -ge "$HUGEPAGES" ] && return 0
	HUGE_WAS=$(cat /proc/sys/vm/nr_hugepages)
	echo $((HUGE_WAS + HUGEPAGES - free)) >/proc/sys/vm/nr_hugepages
	free=$(awk '/^HugePages_Free/ { print $2 }' /proc/meminfo)
	[ "$free" -ge "$HUGEPAGES" ] || { echo "cannot reserve $HUGEPAGES huge pages" >&2; return 1; }
}
hugepages_restore() { [ -n "$HUGE_WAS" ] && echo "$HUGE_WAS" >/proc/sys/vm/nr_hugepages; HUGE_WAS=; }

# test name -> "rw bs iodepth"
fio_shape() {
	case $1 in
	seq_read) echo "read 1M 32" ;;
	seq_write) echo "write 1M 32" ;;
	rand_read_qd1) echo "randread 4k 1" ;;
	rand_read_qd32) echo "randread 4k 32" ;;
	mixed_70_30) echo "randrw 4k 32" ;;
	esac
}

# fio_run TEST FILENAME SIZE SECONDS OUT.json [JOBS] — fio with io_uring, fixed
# buffers in huge pages (see hugepages_setup) and registered files, the same shape, span and time as the probe.
# JOBS (default 1): fio's numjobs sharing the test's total depth, as the
# probe's rings do when one keeps a core busy (its result's `threads`).
# --scramble_buffers=0: fio's default scrambling cut its zram write rate to a
# third here (292 vs 852 MB/s, cause not established); its buffers stay
# random, so both sides write incompressible data.
# FIO_CPUS (a CPU list, "1" or "0-3,8"): fio runs there (--cpus_allowed),
# as the probe runs its QD1 reads on the CPUs that take the device's
# interrupts (its note "QD1 reads run on CPU …").
fio_run() {
	local rw bs qd jobs=${6:-1} cpus=()
	read -r rw bs qd <<<"$(fio_shape "$1")"
	qd=$(((qd + jobs / 2) / jobs)); [ "$qd" -ge 1 ] || qd=1
	[ -n "${FIO_CPUS:-}" ] && cpus=(--cpus_allowed="$FIO_CPUS")
	fio --name=tw --filename="$2" --size="$3" --direct=1 --ioengine=io_uring \
		--iomem="${FIO_IOMEM:-mmaphuge}" --fixedbufs --registerfiles --rw="$rw" --rwmixread=70 --bs="$bs" \
		--iodepth="$qd" --numjobs="$jobs" --time_based --runtime="$4" --ramp_time=0.5 \
		--scramble_buffers=0 "${cpus[@]}" \
		--norandommap --randrepeat=0 --group_reporting --lat_percentiles=1 --output-format=json \
		--output="$5" >/dev/null
}

# fio_lay_out FILE SIZE — write a file once with random data, as the probe
# fills its scratch file before any test.
fio_lay_out() {
	fio --name=lay --filename="$1" --size="$2" --rw=write --bs=1M --direct=1 --iodepth=1 \
		--ioengine=psync --end_fsync=1 --output=/dev/null >/dev/null
}

# tw_old_build [COMMIT [DIR]] — "today's probe" beside the new one: COMMIT
# (default 0106152, the commit before the issue-27 work) checked out as a git
# worktree in DIR (default /tmp/tw-old) and built there once; prints the
# binary.  The same by hand:
#   git worktree add /tmp/tw-old 0106152 &&
#   cmake -S /tmp/tw-old -B /tmp/tw-old/build -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
#   cmake --build /tmp/tw-old/build -j2
tw_old_build() {
	local c=${1:-0106152} d=${2:-/tmp/tw-old}
	if [ ! -x "$d/build/cli/tierwise" ]; then
		{ [ -d "$d" ] || git -C "$(dirname "${BASH_SOURCE[0]}")/.." worktree add --detach "$d" "$c"; } >&2 &&
			cmake -S "$d" -B "$d/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
			cmake --build "$d/build" -j"$(nproc)" >/dev/null || return 1
	fi
	echo "$d/build/cli/tierwise"
}

# tw_run TEST TARGET SECONDS OUT.json [extra args] — one ring, like fio numjobs=1
tw_run() {
	local t=$1 target=$2 secs=$3 out=$4; shift 4
	"$TW" probe "$target" --tests "$t" --seconds "$secs" --ramp 0.5 --threads 1 --quiet \
		-o "$out" "$@" \
		>/dev/null
}

# metric TEST fio|tw FILE -> "iops mbps p50_us" (p50 only for QD1).  The
# probe times an I/O from submission to completion: fio's total latency
# (lat = slat + clat), so fio runs with --lat_percentiles=1.
metric() {
	local t=$1 kind=$2 f=$3
	if [ "$kind" = fio ]; then
		jq -r '.jobs[0] | [(.read.iops + .write.iops), ((.read.bw_bytes + .write.bw_bytes) / 1e6),
			((.read.lat_ns.percentile["50.000000"] // 0) / 1000)] | @tsv' "$f"
	else
		jq -r --arg t "$t" '.devices[0].results[$t] | [.iops, .mbps, (.lat_us.p50 // 0)] | @tsv' "$f"
	fi
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
