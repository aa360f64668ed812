#!/bin/bash
# probe_jobs.sh — `tierwise probe --jobs 2` on two zram devices of its own:
# both are measured, in the order named; rand_read_qd1 runs alone (noted),
# and the spot check against a short solo run is noted on each device
# (agreed, or measured again alone); --jobs 1 is one after another, with
# none of these notes; bad --jobs values are usage errors.  Root only.
tw=$1
fail=0
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (zram devices)"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
[ -w /sys/class/zram-control/hot_add ] || { echo "SKIP: no zram-control"; exit 77; }
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
zs=()
cleanup() {
	for z in "${zs[@]}"; do echo "$z" >/sys/class/zram-control/hot_remove 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
for _ in 1 2; do
	z=$(cat /sys/class/zram-control/hot_add) || { echo "SKIP: zram hot_add failed"; exit 77; }
	zs+=("$z")
	echo 64M >"/sys/block/zram$z/disksize"
	# incompressible data, so that the reads are not of never-written pages
	head -c 64M /dev/urandom | dd of="/dev/zram$z" bs=1M oflag=direct status=none
done
a=zram${zs[0]} b=zram${zs[1]}
quick=(--seconds 0.5 --ramp 0.1 --quiet --tests seq_read,rand_read_qd1,rand_read_qd32)

check "--jobs 2" 0 "$tw" probe "$b" "$a" --jobs 2 "${quick[@]}" -o "$tmp/j2.json"
cp "$tmp/j2.json" "$tmp/out"
jq_true "both, in the order named" "[.devices[].id] == [\"$b\", \"$a\"]" '[.devices[].id]'
jq_true "figures measured" '[.devices[].results | .seq_read.mbps > 0 and .rand_read_qd1.iops > 0 and .rand_read_qd32.iops > 0] | all'
# QD1 alone: noted, unless the spot check had the whole device measured again alone
jq_true "QD1 alone, noted" '[.devices[] | ([.notes[] | select(startswith("rand_read_qd1 measured alone"))] | length == 1)
	or ([.notes[] | select(startswith("measured again alone"))] | length == 1)] | all' '[.devices[].notes]'
# the spot check: passed, or the random reads measured again alone, or the
# whole device (seq_read off)
jq_true "spot check noted on each" '[.devices[] | [.notes[] | select(startswith("spot check: measured side by side")
	or test("^rand_read_qd(1|32)( and rand_read_qd32)? measured again alone( \\(the confirming run.s figures\\))?: side by side") or startswith("measured again alone: side by side"))] | length == 1] | all' '[.devices[].notes]'
jq_true "no nan in the notes" '[.devices[].notes[] | test("nan|inf") | not] | all'
check "validate" 0 "$tw" validate "$tmp/j2.json"

# --qd1-side-by-side: QD1 runs side by side too; the spot check compares it
# with a solo run and either passes it (noted with its figures) or measures
# it again alone (QD1 only, or the whole device when seq_read is off too)
check "--qd1-side-by-side" 0 "$tw" probe "$a" "$b" --jobs 2 --qd1-side-by-side "${quick[@]}" -o "$tmp/q.json"
cp "$tmp/q.json" "$tmp/out"
jq_true "QD1 checked: passed or measured again" '[.devices[] | [.notes[] | select((startswith("spot check: measured side by side") and contains("rand_read_qd1"))
	or (test("^rand_read_qd1( and rand_read_qd32)? measured again alone( \\(the confirming run.s figures\\))?: side by side"))
	or (test("^rand_read_qd32 measured again alone( \\(the confirming run.s figures\\))?: side by side") and contains(", rand_read_qd1 "))
	or startswith("measured again alone: side by side"))] | length == 1] | all' '[.devices[].notes]'
jq_true "QD1 not run alone first" '[.devices[].notes[] | startswith("rand_read_qd1 measured alone") | not] | all' '[.devices[].notes]'

check "--jobs 1" 0 "$tw" probe "$a" "$b" --jobs 1 "${quick[@]}" -o "$tmp/j1.json"
cp "$tmp/j1.json" "$tmp/out"
jq_true "one after another: in order" "[.devices[].id] == [\"$a\", \"$b\"]"
jq_true "one after another: no side-by-side notes" '[.devices[].notes[] | test("side by side|measured alone") | not] | all' '[.devices[].notes]'

check "--jobs 0" 2 "$tw" probe "$a" --jobs 0
expect "--jobs range" "$tmp/err" "--jobs takes 1 to 64"
check "--jobs x" 2 "$tw" probe "$a" --jobs x
exit $fail
