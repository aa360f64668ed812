#!/bin/bash
# no_nan.sh — no text output says "nan" or "inf": an unknown figure prints
# "-" or words.  Every command and format on the example profile, on a
# profile with missing values everywhere (tests/fixtures/profiles/
# missing-values.json: devices with no figures, nulls, a blank disk whose
# reads are scored as missing, a sweep without IOPS, two like devices
# with no read figure: an array of unknown speed), on the report fixture,
# and the probe's own text (a scratch file, the null engine).
tw=$1
fail=0
src=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
export TW_SRCDIR=$src

# run NAME ARGS... — tierwise ARGS; stdout and stderr into $tmp/NAME.out
n=0
run() {
	local name=$1; shift
	"$tw" "$@" >"$tmp/$name.out" 2>&1
	n=$((n + 1))
}

profiles=("$src/examples/ai-server-18-devices.json"
	"$src/tests/fixtures/profiles/missing-values.json"
	"$src/tests/fixtures/report/sweep-sustained.json")
for i in "${!profiles[@]}"; do
	p=${profiles[$i]}
	ids=$(jq -r '.devices[].id' "$p")
	run "validate$i" validate "$p"
	run "score$i" score "$p"
	run "score-json$i" score "$p" --format json
	for fmt in text json md fstab udev script; do
		run "plan-$fmt$i" plan "$p" --no-inventory --format "$fmt"
	done
	run "compare$i" compare "$p" "$p"
	run "compare-md$i" compare "$p" "$p" --format md
	run "report$i" report "$p" -o "$tmp/report$i.html"
	cp "$tmp/report$i.html" "$tmp/report$i.html.out" 2>/dev/null
	run "report-np$i" report "$p" --no-plan -o "$tmp/report-np$i.html"
	cp "$tmp/report-np$i.html" "$tmp/report-np$i.html.out" 2>/dev/null
	for pol in vector-db logs-metadata model-loading checkpoints archive; do
		for id in $ids; do
			other=$(echo "$ids" | grep -vx "$id" | head -1)
			run "explain-$pol-$id$i" explain "$id" --policy "$pol" --vs "$other" "$p"
			run "explain-md-$pol-$id$i" explain "$id" --policy "$pol" "$p" --format md
		done
	done
done
# the example against the profile with missing values: figures on one side only
run compare-mixed compare "${profiles[0]}" "${profiles[1]}"
# the probe's text (the null engine: no device needed)
run probe probe "$tmp" --size 64Mi --engine null --tests seq_read,rand_read_qd1,qd_sweep \
	--seconds 0.2 --ramp 0 --quiet
grep -q "rand_read_qd1" "$tmp/probe.out" || { echo "FAIL: probe: no table"; cat "$tmp/probe.out"; fail=1; }

for f in "$tmp"/*.out; do
	if grep -iwnE -- '-?(nan|inf)' "$f" >"$tmp/hits"; then
		echo "FAIL: $(basename "$f" .out) prints nan/inf:"; head -5 "$tmp/hits"; fail=1
	fi
done
echo "$n outputs checked"
[ "$fail" -eq 0 ] && echo "PASS"
exit "$fail"
