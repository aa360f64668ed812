#!/bin/bash
# read_under_write.sh — QD1 reads under a background writer on real devices:
#   a zram device of its own (hot-added, removed after) and a loop device
#   (both take discards), and a scratch file (fallocate punch-hole): the
#   result sits beside rand_read_qd1 with the ratio of the p99s, the writer
#   delivers its set rate (20 MiB/s: 15 plain + 5 with trims), trims were
#   issued (on the scratch file only when this machine's disk takes that
#   rate in one of three tries: said when it does not); a read-only probe
#   skips it with a note and no result.
# Root only.
tw=$1
fail=0
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (zram, loop devices)"; exit 77; }
for t in jq losetup; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
[ -w /sys/class/zram-control/hot_add ] || { echo "SKIP: no zram-control (modprobe zram)"; exit 77; }
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
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

zram=$(cat /sys/class/zram-control/hot_add) || { echo "SKIP: zram hot_add failed"; exit 77; }
echo 128M >"/sys/block/zram$zram/disksize" || { echo "FAIL: zram disksize"; exit 1; }
truncate -s 128M "$tmp/disk.img"
loop=$(losetup -f --show "$tmp/disk.img") || { echo "SKIP: no loop device"; exit 77; }
mkdir "$tmp/dir"
quick=(--tests rand_read_qd1,read_under_write --seconds 2 --ramp 0.2 --quiet)

# the result of one target: beside the idle figure, the writer at its rate, trims issued
check_uw() {
	local what=$1
	check "$what: validate" 0 "$tw" validate "$tmp/$what.json"
	cp "$tmp/$what.json" "$tmp/out"
	jq_true "$what: present beside rand_read_qd1" \
		'.devices[0].results | (.read_under_write.bs == 4096) and (.read_under_write.qd == 1) and (.read_under_write.iops > 0) and (.read_under_write.idle_p99_us == .rand_read_qd1.lat_us.p99)' \
		'.devices[0].results'
	jq_true "$what: the ratio of the p99s" \
		'.devices[0].results.read_under_write | ((.p99_ratio - .lat_us.p99 / .idle_p99_us) | fabs) < 1e-6' \
		'.devices[0].results.read_under_write'
	jq_true "$what: the writer was set to 20 MiB/s of 128 KiB writes" \
		'.devices[0].results.read_under_write | (.write_rate_mibps == 20) and (.write_bs == 131072)' \
		'.devices[0].results.read_under_write'
	if [ "${2:-}" = slow-disk ]; then
		echo "NOTE: $what: this machine's disk did not take the writer's 20 MiB/s (trims 5) in 3 tries: the delivered rate and trims are judged on the zram and loop devices only"
	else
		jq_true "$what: the writer delivered 20 MiB/s (±15 %)" \
			'.devices[0].results.read_under_write | (.write_mibps > 17) and (.write_mibps < 23)' \
			'.devices[0].results.read_under_write'
		jq_true "$what: trims issued at about 5 MiB/s" \
			'.devices[0].results.read_under_write | (.trim_mibps > 3) and (.trim_mibps < 6)' \
			'.devices[0].results.read_under_write'
	fi
	jq_true "$what: the note beside the idle figure" \
		'[.devices[0].notes[] | select(startswith("read_under_write: QD1 reads while 128 KiB random writes ran at 20.0 MiB/s"))] | length == 1' \
		'.devices[0].notes'
	jq_true "$what: OCP BOOT-BENCH-1 reads under the same writes" \
		'.devices[0].results.read_under_write | (.boot_bs == 32768) and (.boot_qd == 32) and (.boot_iops > 0) and (.boot_lat_us.p99 > 0)' \
		'.devices[0].results.read_under_write'
	jq_true "$what: no trim-refused note" \
		'[.devices[0].notes[] | select(contains("trims were not issued"))] | length == 0' '.devices[0].notes'
}

# delivered — the writer's rate in a profile, when within 15 % of its 20 MiB/s,
# and its trims in the band check_uw asserts (3–6 of 5 MiB/s)
delivered() {
	jq -e '.devices[0].results.read_under_write | (.write_mibps > 17) and (.write_mibps < 23) and
		(.trim_mibps > 3) and (.trim_mibps < 6)' "$1" >/dev/null
}

for target in "zram:/dev/zram$zram" "loop:$loop" "scratch:$tmp/dir"; do
	what=${target%%:*} path=${target#*:}
	args=(--destructive --yes)
	[ "$what" = scratch ] && args=()
	for try in 1 2 3; do
		# the disk's own backlog (the builds' and earlier tests' dirty
		# pages) written out first, so that the writer does not queue
		# behind it
		[ "$what" = scratch ] && sync
		"$tw" probe "$path" "${args[@]}" "${quick[@]}" -o "$tmp/$what.json" >"$tmp/$what.txt" 2>"$tmp/err"
		rc=$?
		# The scratch file lies on the machine's own disk, which at times
		# stalls writes for a while (at the end of a CI run on
		# a virtual disk: 14.5 MiB/s delivered, 3 of 3 runs alone in the
		# band; 13.7 then 11.9 MiB/s in a fresh clone's run right after
		# cli.shared_link; once 17.1 MiB/s with its trims at 2.0 of
		# 5, once 17.7 with 2.7): two more tries there, each after a sync
		# and a pause, said; then the delivered rate and trims are not
		# judged on it (the writer's pacing is judged on the RAM-backed
		# devices, which get no second try).
		if [ "$rc" -ne 0 ] || [ "$what" != scratch ] || [ "$try" = 3 ] || delivered "$tmp/$what.json"; then
			break
		fi
		echo "NOTE: scratch: the writer delivered $(jq -r '.devices[0].results.read_under_write | "\(.write_mibps) MiB/s of 20, trims \(.trim_mibps) of 5"' "$tmp/$what.json") on this machine's disk: one more try"
		sleep 5
	done
	[ "$rc" -eq 0 ] || { echo "FAIL: $what: exit $rc"; cat "$tmp/err"; fail=1; continue; }
	slow=
	[ "$what" = scratch ] && ! delivered "$tmp/$what.json" && slow=slow-disk
	check_uw "$what" $slow
done

# quick mode (no --seconds): the reads stop once the p99 has 100 samples
# above it (10,000 reads, a few more in flight at the stop) or at the 4 s
# cap (zram: never); every result says how many I/Os it rests on
"$tw" probe "/dev/zram$zram" --destructive --yes --tests rand_read_qd1,read_under_write --quiet \
	-o "$tmp/out" >/dev/null 2>"$tmp/err" || { echo "FAIL: quick: exit $?"; cat "$tmp/err"; fail=1; }
jq_true "quick: reads under writes stop at 10,000" \
	'.devices[0].results.read_under_write | (.ios >= 10000) and (.ios <= 10004) and (.seconds < 3.9)' \
	'.devices[0].results.read_under_write'
jq_true "quick: rand_read_qd1 counts its I/Os" \
	'.devices[0].results.rand_read_qd1 | (.ios >= 10000) and (((.ios / .seconds - .iops) | fabs) < .iops * 1e-3)' \
	'.devices[0].results.rand_read_qd1'

# read-only: skipped with a note, no result
"$tw" probe "$loop" "${quick[@]}" -o "$tmp/ro.json" >/dev/null 2>"$tmp/err"
cp "$tmp/ro.json" "$tmp/out"
jq_true "read-only: skipped" \
	'(.devices[0].results.read_under_write == null) and ([.devices[0].notes[] | select(startswith("read_under_write: skipped: read-only target"))] | length == 1)' \
	'.devices[0]'
exit $fail
