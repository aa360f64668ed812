#!/usr/bin/env bash
# tierwise import fio: fio output recorded here (fio 3.33, json and json+,
# tests/fixtures/fio/*.fio) and hand-made variants of older field sets
# (make-variants.py) become profiles whose figures are fio's own (IOPS, MB/s,
# p99 checked against the fio JSON with jq); the published recipe's jobs map
# to its tests; jobs that map to nothing are named on stderr and kept as
# notes; score and plan take the result; bad input names FILE:LINE:COLUMN
# and the key.
set -u
tw=$1
src=${TW_SRCDIR:?}
fx=$src/tests/fixtures/fio
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

# eq DESCRIPTION GOT WANT — two numbers equal to 1e-6 (relative)
eq() {
	if ! awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
		m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= 1e-6 * (m > 1 ? m : 1)) }'; then
		echo "FAIL: $1: got '$2', wanted '$3'"; fail=1
	fi
}

# fio JOB DIR FILTER — a figure of fio's JSON: jobs[] named JOB, .DIR FILTER
fio() {
	jq -r --arg j "$2" "[.jobs[] | select(.jobname == \$j)][0].$3" "$1"
}

# ---- the published recipe (seq 1M QD32, rand 4K QD1/QD32, 70/30, sustained)
check "recipe imports" 0 "$tw" import fio "$fx/recipe.json"
[ -s "$tmp/err" ] && { echo "FAIL: recipe: stderr not empty:"; cat "$tmp/err"; fail=1; }
cp "$tmp/out" "$tmp/recipe.json"
jq_true "one device, named after the file" '[.devices[].id] == ["scratch"]'
jq_true "created is fio's timestamp" '.created == "2026-12-02T14:19:34Z"'
jq_true "fio version and engine kept" '.devices[0].probe.engine == "fio-3.33 libaio"'
jq_true "every test of the recipe" '.devices[0].results | keys ==
	["mixed_70_30", "rand_read_qd1", "rand_read_qd32", "seq_read", "seq_write", "sustained_write"]'
jq_true "qd and bs" '.devices[0].results | .seq_read.qd == 32 and .seq_read.bs == 1048576
	and .rand_read_qd1.qd == 1 and .rand_read_qd32.qd == 32 and .mixed_70_30.bs == 4096'
jq_true "job options in the notes" '[.devices[0].notes[] | select(startswith("rand_read_qd1: fio job \"rand_read_qd1\": ") and contains("ioengine=libaio") and contains("iodepth=1"))] | length == 1'
r=$tmp/recipe.json
eq "QD1 iops = fio's" "$(jq .devices[0].results.rand_read_qd1.iops "$r")" \
	"$(fio "$fx/recipe.json" rand_read_qd1 read.iops)"
eq "QD1 p99 = fio's clat p99 (ns -> us)" "$(jq .devices[0].results.rand_read_qd1.lat_us.p99 "$r")" \
	"$(fio "$fx/recipe.json" rand_read_qd1 'read.clat_ns.percentile["99.000000"] / 1000')"
eq "QD1 p50" "$(jq .devices[0].results.rand_read_qd1.lat_us.p50 "$r")" \
	"$(fio "$fx/recipe.json" rand_read_qd1 'read.clat_ns.percentile["50.000000"] / 1000')"
eq "QD32 iops" "$(jq .devices[0].results.rand_read_qd32.iops "$r")" \
	"$(fio "$fx/recipe.json" rand_read_qd32 read.iops)"
eq "seq read MB/s = bw_bytes / 1e6" "$(jq .devices[0].results.seq_read.mbps "$r")" \
	"$(fio "$fx/recipe.json" seq_read 'read.bw_bytes / 1e6')"
eq "seq write MB/s" "$(jq .devices[0].results.seq_write.mbps "$r")" \
	"$(fio "$fx/recipe.json" seq_write 'write.bw_bytes / 1e6')"
eq "mixed total iops = read + write" "$(jq .devices[0].results.mixed_70_30.iops "$r")" \
	"$(jq '[.jobs[] | select(.jobname == "mixed_70_30")][0] | .read.iops + .write.iops' "$fx/recipe.json")"
eq "mixed write share" "$(jq .devices[0].results.mixed_70_30.write_iops "$r")" \
	"$(fio "$fx/recipe.json" mixed_70_30 write.iops)"
eq "sustained = the longer write job" "$(jq .devices[0].results.sustained_write.mbps "$r")" \
	"$(fio "$fx/recipe.json" sustained_write 'write.bw_bytes / 1e6')"
eq "seq read max = clat max" "$(jq .devices[0].results.seq_read.lat_us.max "$r")" \
	"$(fio "$fx/recipe.json" seq_read 'read.clat_ns.max / 1000')"
# fio's p99.99 (14.88 ms) passes its max (14.87 ms): p999 is clamped to max
jq_true "percentiles never above max" '[.devices[0].results[] | .lat_us? // empty |
	select(.p999 > .max or .p99 > .max)] | length == 0'

check "the import validates" 0 "$tw" validate "$r"
check "score takes it" 0 "$tw" score "$r"
line "score ranks the imported device" '^ +1 +scratch '
check "import with a capacity" 0 "$tw" import fio "$fx/recipe.json" --capacity scratch=960G -o "$tmp/cap.json"
check "plan takes it" 0 env COLUMNS=1000 "$tw" plan "$tmp/cap.json" --no-inventory
line "plan places it" '^hot .*usable 768 GB'
check "-o writes nothing to stdout" 0 "$tw" import fio "$fx/recipe.json" -o "$tmp/o.json"
[ -s "$tmp/out" ] && { echo "FAIL: -o also printed"; fail=1; }
cmp -s "$tmp/o.json" "$r" || { echo "FAIL: -o differs from stdout"; fail=1; }

# ---- a sweep: randread 4k at QD1, 4, 16, 8x4 jobs; a random-write job maps to nothing
check "sweep imports" 0 "$tw" import fio "$fx/sweep.json"
jq_true "sweep points by iodepth x numjobs" '[.devices[0].results.qd_sweep[].qd] == [1, 4, 16, 32]'
jq_true "QD32 from 8 x 4 jobs (threads 4)" '.devices[0].results.rand_read_qd32 | .qd == 32 and .threads == 4'
eq "sweep QD16 iops" "$(jq '.devices[0].results.qd_sweep[2].iops' "$tmp/out")" \
	"$(fio "$fx/sweep.json" qd16 read.iops)"
jq_true "the unmapped job is a note" '[.devices[0].notes[] | select(startswith("not imported: fio job \"randwrite\""))] | length == 1'
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: sweep: want 1 line on stderr:"; cat "$tmp/err"; fail=1; }
expect "the unmapped job on stderr" "$tmp/err" "sweep.json: job \"randwrite\" (rw=randwrite bs=4096 iodepth=1 numjobs=1) maps to no test: random writes"

# ---- two devices; numjobs=2 reported apart (two entries summed)
check "two devices" 0 "$tw" import fio "$fx/two.json"
jq_true "one device per filename" '[.devices[].id] == ["a", "b"]'
eq "numjobs entries summed" "$(jq '.devices[1].results.rand_read_qd32.iops' "$tmp/out")" \
	"$(jq '[.jobs[] | select(.jobname == "b_qd32") | .read.iops] | add' "$fx/two.json")"
jq_true "their percentiles left out, said why" '.devices[1].results.rand_read_qd32.lat_us.p99 == null and
	([.devices[1].notes[] | select(contains("cannot be combined"))] | length == 1)'

# ---- json+ and field sets of other fio versions give the same figures
check "json+" 0 "$tw" import fio "$fx/plus.json"
cp "$tmp/out" "$tmp/plus.json"
check "json+ bins alone" 0 "$tw" import fio "$fx/bins-only.json"
for k in p50 p90 p99 p999; do
	eq "bins $k" "$(jq ".devices[0].results.rand_read_qd1.lat_us.$k" "$tmp/out")" \
		"$(jq ".devices[0].results.rand_read_qd1.lat_us.$k" "$tmp/plus.json")"
done
check "fio 2.x field set" 0 "$tw" import fio "$fx/old-2x.json"
jq_true "2.x: fio version kept" '.devices[0].probe.engine == "fio-2.2.10 libaio"'
eq "2.x: p99 in usec" "$(jq .devices[0].results.rand_read_qd1.lat_us.p99 "$tmp/out")" \
	"$(fio "$fx/old-2x.json" rand_read_qd1 'read.clat.percentile["99.000000"]')"
eq "2.x: MB/s from bw KiB/s" "$(jq .devices[0].results.seq_read.mbps "$tmp/out")" \
	"$(fio "$fx/old-2x.json" seq_read 'read.bw * 1024 / 1e6')"
check "lat_percentiles" 0 "$tw" import fio "$fx/lat-pct.json"
eq "p99 from lat_ns" "$(jq .devices[0].results.rand_read_qd1.lat_us.p99 "$tmp/out")" \
	"$(fio "$fx/lat-pct.json" rand_read_qd1 'read.lat_ns.percentile["99.000000"] / 1000')"
check "warnings before the JSON" 0 "$tw" import fio "$fx/noisy.json"
jq -S "del(.devices[].notes, .host)" "$tmp/out" >"$tmp/a"; jq -S "del(.devices[].notes, .host)" "$r" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { echo "FAIL: noisy: figures differ from recipe.json's"; fail=1; }

# ---- every fixture at once: one profile, valid, and valid JSON Schema
check "all fixtures at once" 0 "$tw" import fio "$fx"/recipe.json "$fx"/sweep.json "$fx"/two.json \
	"$fx"/plus.json "$fx"/old-2x.json -o "$tmp/all.json"
cp "$tmp/all.json" "$tmp/out"
jq_true "devices of every file" '[.devices[].id] == ["scratch", "a", "b"]'
jq_true "the first file's test wins" '.devices[0].results.rand_read_qd1.iops == '"$(fio "$fx/recipe.json" rand_read_qd1 read.iops)"
check "all validates" 0 "$tw" validate "$tmp/all.json"
if python3 -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
	python3 - "$src/docs/tierwise.profile-1.schema.json" "$tmp/all.json" "$r" <<'PY' || fail=1
import json, sys
from jsonschema import Draft202012Validator, FormatChecker
v = Draft202012Validator(json.load(open(sys.argv[1])), format_checker=FormatChecker())
bad = [f"{f}: {e.message}" for f in sys.argv[2:] for e in v.iter_errors(json.load(open(f)))]
for b in bad:
    print("FAIL: JSON Schema:", b)
sys.exit(1 if bad else 0)
PY
else
	echo "note: python3-jsonschema not installed: JSON Schema not checked"
fi

# ---- bad input: FILE:LINE:COLUMN: key, exit 1
jq '.jobs[2].read.iops = "fast"' "$fx/recipe.json" >"$tmp/bad.json"
ln=$(grep -n '"iops": "fast"' "$tmp/bad.json" | cut -d: -f1)
col=$(sed -n "${ln}p" "$tmp/bad.json" | awk '{ print index($0, "\"fast\"") }')
check "iops a string" 1 "$tw" import fio "$tmp/bad.json"
expect "names the key" "$tmp/err" "$tmp/bad.json:$ln:$col: jobs[2].read.iops: must be a number >= 0"
[ -s "$tmp/out" ] && { echo "FAIL: bad input wrote a profile"; fail=1; }
jq '.jobs[1]."job options".iodepth = "deep"' "$fx/recipe.json" >"$tmp/bad2.json"
check "iodepth no number" 1 "$tw" import fio "$tmp/bad2.json"
expect "names the option" "$tmp/err" 'jobs[1].job options.iodepth: must be a whole number from 0 to 65536, not "deep"'
jq '.jobs[2].read.iops = 1e12' "$fx/recipe.json" >"$tmp/bad3.json"
check "1e12 IOPS" 1 "$tw" import fio "$tmp/bad3.json"
expect "1e12 IOPS named" "$tmp/err" "jobs[2].read: 1e+12 IOPS (iops, all jobs) is more than any device does (at most 1e+08): not a measurement"
head -c 500 "$fx/recipe.json" >"$tmp/trunc.json"
check "truncated" 1 "$tw" import fio "$tmp/trunc.json"
expect "truncated" "$tmp/err" "$tmp/trunc.json:23:17: not valid JSON"
check "a profile is no fio output" 1 "$tw" import fio "$src/examples/ai-server-18-devices.json"
expect "says what it is" "$tmp/err" "ai-server-18-devices.json: this is a tierwise profile (tierwise.profile/1), not fio output"
jq '.jobs |= map(select(.jobname == "mixed_70_30") | ."job options".rwmixread = "50")' \
	"$fx/recipe.json" >"$tmp/none.json"
check "nothing maps" 1 "$tw" import fio "$tmp/none.json"
expect "nothing maps" "$tmp/err" "none of the 1 fio jobs maps to a test"
check "no format" 2 "$tw" import csv x
check "no file" 2 "$tw" import fio
check "unknown device in --capacity" 2 "$tw" import fio "$fx/recipe.json" --capacity nosuch=1T
expect "lists the devices" "$tmp/err" 'no device "nosuch"; the devices are: scratch'
exit $fail
