#!/usr/bin/env bash
# tierwise validate: the example is valid; corrupted copies name file, line,
# column and key on stderr with exit code 1; usage errors exit 2.
set -u
tw=$1
src=${TW_SRCDIR:?}
ex=$src/examples/ai-server-18-devices.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

check "example is valid" 0 "$tw" validate "$ex"
[ -s "$tmp/err" ] && { echo "FAIL: valid file printed to stderr"; fail=1; }

# Corruption 1: the 12th device's transport becomes "pcie".
line=$(grep -n '"transport"' "$ex" | sed -n 12p | cut -d: -f1)
col=$(sed -n "${line}p" "$ex" | awk '{ print index($0, "\"nvme\"") }')
sed "${line}s/\"nvme\"/\"pcie\"/" "$ex" >"$tmp/bad1.json"
check "unknown transport" 1 "$tw" validate "$tmp/bad1.json"
expect "unknown transport" "$tmp/err" "$tmp/bad1.json:$line:$col: devices[11].transport: unknown value \"pcie\""

# Corruption 2: a negative QD1 IOPS figure on the first device.
line=$(grep -n '"iops": 22120' "$ex" | head -1 | cut -d: -f1)
col=$(sed -n "${line}p" "$ex" | awk '{ print index($0, "22120") }')
sed "${line}s/22120/-22120/" "$ex" >"$tmp/bad2.json"
check "negative iops" 1 "$tw" validate "$tmp/bad2.json"
expect "negative iops" "$tmp/err" "$tmp/bad2.json:$line:$col: devices[0].results.rand_read_qd1.iops: must be greater than 0"

# Corruption 2b: figures no device has (1e308 IOPS, 10^15 MB/s): each named,
# exit 1, and plan refuses the file as validate does.
sed "${line}s/22120/1e308/" "$ex" >"$tmp/absurd.json"
check "1e308 IOPS" 1 "$tw" validate "$tmp/absurd.json"
expect "1e308 IOPS" "$tmp/err" "$tmp/absurd.json:$line:$col: devices[0].results.rand_read_qd1.iops: 1e+308 IOPS is more than any device does (at most 1e+08): not a measurement"
mline=$(grep -n '"mbps": ' "$ex" | head -1 | cut -d: -f1)
mval=$(sed -n "${mline}p" "$ex" | sed 's/.*"mbps": \([0-9.]*\).*/\1/')
mcol=$(sed -n "${mline}p" "$ex" | awk -v v="$mval" '{ print index($0, v) }')
sed "${mline}s/\"mbps\": $mval/\"mbps\": 1e15/" "$ex" >"$tmp/absurd2.json"
check "10^15 MB/s, plan" 1 "$tw" plan "$tmp/absurd2.json"
expect "10^15 MB/s, plan" "$tmp/err" "$tmp/absurd2.json:$mline:$mcol: devices[0].results.seq_read.mbps: 1e+15 MB/s is more than any device does"
[ -s "$tmp/out" ] && grep -q "000,000,000" "$tmp/out" && { echo "FAIL: plan printed the absurd figure"; fail=1; }

# Corruption 2c: a catalog figure past its interface (SATA 600 MB/s; an
# NVMe drive's PCIe link as it trained), and a QD1 read under 1 µs behind a
# link: named with the bound and why, exit 1.  A measured profile is what
# the device did: QEMU's NVMe drives report a 2.5 GT/s x1 link (250 MB/s)
# and read 350 MB/s, and that is accepted.
jq '.devices |= [.[0] | .transport = "sata" | .results.seq_read.mbps = 900.5]' "$ex" >"$tmp/sata.json"
sline=$(grep -n '900.5' "$tmp/sata.json" | cut -d: -f1)
scol=$(sed -n "${sline}p" "$tmp/sata.json" | awk '{ print index($0, "900.5") }')
check "SATA at 900 MB/s" 1 "$tw" validate "$tmp/sata.json"
expect "SATA at 900 MB/s" "$tmp/err" "$tmp/sata.json:$sline:$scol: devices[0].results.seq_read.mbps: 900 MB/s is more than sata (600 MB/s, what SATA 6 Gb/s carries): not a measurement of it"
jq '.devices |= [.[0] | .link = {pcie_address: "0000:01:00.0", speed_gts: 8, width: 4, max_speed_gts: 8, max_width: 4, numa_node: 0}]' \
	"$ex" >"$tmp/gen3.json"
check "PCIe 3.0 x4 at 6,193 MB/s" 1 "$tw" plan "$tmp/gen3.json"
expect "PCIe 3.0 x4 at 6,193 MB/s" "$tmp/err" "devices[0].results.seq_read.mbps: 6193 MB/s is more than nvme (3938 MB/s, what a PCIe 3.0 x4 link carries): not a measurement of it"
# the bound is the most the link trains to: a drive rated past its link as
# it trained (degraded, x2 of x4) is the plan's warning, not a refusal
jq '.devices[0].link = {pcie_address: "0000:01:00.0", speed_gts: 16, width: 2, max_speed_gts: 16, max_width: 4, numa_node: 0}' \
	"$ex" >"$tmp/degraded.json"
check "rated past its degraded link: accepted" 0 "$tw" validate "$tmp/degraded.json"
jq '.devices[0].probe.mode = "quick" | .devices[0].probe.target = "raw-readonly" | .devices[0].probe.seconds = 1' \
	"$tmp/gen3.json" >"$tmp/gen3-measured.json"
check "measured past its reported link: accepted" 0 "$tw" validate "$tmp/gen3-measured.json"
jq '.devices[0].results.rand_read_qd1.lat_us.p50 = 0.5' "$ex" >"$tmp/fastlat.json"
check "a 0.5 µs NVMe read" 1 "$tw" validate "$tmp/fastlat.json"
expect "a 0.5 µs NVMe read" "$tmp/err" "devices[0].results.rand_read_qd1.lat_us.p50: 0.5 µs is less than any nvme device answers a 4 KiB read in (at least 1 µs behind its link): not a measurement"

# Corruption 3: not JSON at all (truncated): jansson's position, exit 1.
head -c 300 "$ex" >"$tmp/bad3.json"
check "truncated" 1 "$tw" validate "$tmp/bad3.json"
expect "truncated" "$tmp/err" "$tmp/bad3.json:"
expect "truncated" "$tmp/err" "not valid JSON"

# Several files: one bad one fails the run, each problem on its own line.
check "mixed files" 1 "$tw" validate "$ex" "$tmp/bad1.json" "$tmp/bad2.json"
[ "$(wc -l <"$tmp/err")" -eq 2 ] || { echo "FAIL: expected 2 lines"; cat "$tmp/err"; fail=1; }

# Policies (*.yaml) are validated too: the shipped ones pass, a broken one names line:column.
check "shipped policies" 0 "$tw" validate "$src"/policies/*.yaml
printf 'name: x\ntier: lukewarm\nmetrics:\n  - path: seq_read.mbps\n    better: higher\n    good: 100\n    poor: 10\n' >"$tmp/bad.yaml"
check "bad policy" 1 "$tw" validate "$tmp/bad.yaml"
expect "bad policy" "$tmp/err" "$tmp/bad.yaml:2:7: tier:"
# refetchable and redundancy: wrong values name line:column, key and the allowed values.
printf 'name: x\ntier: warm\nmetrics:\n  - {path: seq_read.mbps, better: higher, good: 100, poor: 10}\nrefetchable: yes\nredundancy: mirror\n' >"$tmp/bad-red.yaml"
check "bad redundancy" 1 "$tw" validate "$tmp/bad-red.yaml"
expect "bad refetchable" "$tmp/err" "$tmp/bad-red.yaml:5:14: refetchable: must be true or false, not a string (\"yes\")"
expect "bad redundancy" "$tmp/err" "$tmp/bad-red.yaml:6:13: redundancy: unknown redundancy \"mirror\" (expected none, preferred or required)"
[ "$(wc -l <"$tmp/err")" -eq 2 ] || { echo "FAIL: bad redundancy: expected 2 lines"; cat "$tmp/err"; fail=1; }
printf 'name: x\ntier: warm\nmetrics:\n  - {path: seq_read.mbps, better: higher, good: 100, poor: 10}\nrefetchable: true\nredundancy: required\n' >"$tmp/red.yaml"
check "refetchable and required" 0 "$tw" validate "$tmp/red.yaml"

check "missing file" 1 "$tw" validate "$tmp/nope.json"
expect "missing file" "$tmp/err" "$tmp/nope.json: cannot read: No such file or directory"
check "no file" 2 "$tw" validate
expect "no file" "$tmp/err" "Try 'tierwise validate --help'"
check "help" 0 "$tw" validate --help

# a policy's size without a unit is refused as on the command line
sed 's/^need_bytes:.*/need_bytes: 500/' "$src/policies/archive.yaml" >"$tmp/archive.yaml"
line=$(grep -n '^need_bytes:' "$tmp/archive.yaml" | cut -d: -f1)
check "policy: need_bytes without a unit" 1 "$tw" validate "$tmp/archive.yaml"
expect "policy: need_bytes without a unit" "$tmp/err" \
	"$tmp/archive.yaml:$line:13: need_bytes: a size needs a unit, not a bare number (500)"
sed 's/^need_bytes:.*/need_bytes: 500B/' "$src/policies/archive.yaml" >"$tmp/archive.yaml"
check "policy: need_bytes in bytes, said so" 0 "$tw" validate "$tmp/archive.yaml"

[ "$fail" -eq 0 ] && echo "validate: all checks passed"
exit "$fail"
