#!/bin/bash
# blank_disk.sh — a blank (never-written) disk, on a loop device over a
# sparse file:
#   read-only: every read test notes its zero reads once (the sweep once,
#   not per depth), keeps its figures with "unwritten" ~1, score lists them
#   in "missing", the plan warns and says how to get real figures;
#   --destructive: the span is written with incompressible data before the
#   reads (the fill), so no read returns zeros and the figures are scored;
#   when seq_write ran first and wrote the span, it is not written again.
# Root only.
tw=$1
export COLUMNS=1000	# whole sentences to match; the wrap at 80 is checked by golden.sh
fail=0
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop devices)"; exit 77; }
for t in jq losetup gzip; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
loop=""
cleanup() {
	[ -n "$loop" ] && detach_loops "$loop"
	rm -rf "$tmp"
}
trap cleanup EXIT

truncate -s 128M "$tmp/blank.img"
loop=$(losetup -f --show "$tmp/blank.img") || { echo "SKIP: no loop device"; exit 77; }
id=${loop#/dev/}
quick=(--seconds 0.5 --ramp 0.1 --quiet)
reads=seq_read,rand_read_qd1,rand_read_qd32,qd_sweep

# ---- read-only
"$tw" probe "$loop" --tests "$reads" "${quick[@]}" -o "$tmp/ro.json" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: read-only: exit $rc"; cat "$tmp/err"; fail=1; }
check "validate" 0 "$tw" validate "$tmp/ro.json"
cp "$tmp/ro.json" "$tmp/out"
for t in seq_read rand_read_qd1 rand_read_qd32 qd_sweep; do
	n=$(jq --arg t "$t: " '[.devices[0].notes[] | select(startswith($t) and contains("returned only zeros"))] | length' "$tmp/ro.json")
	[ "$n" = 1 ] || { echo "FAIL: read-only: $n zero-read notes for $t, wanted 1"; fail=1; }
done
jq_true "read-only: four zero-read notes in all" '[.devices[0].notes[] | select(contains("returned only zeros"))] | length == 4' '.devices[0].notes'
jq_true "read-only: unwritten ~1" '.devices[0].results | [.seq_read.unwritten, .rand_read_qd1.unwritten, .rand_read_qd32.unwritten, .latency_target.unwritten] | all(. >= 0.99)' '.devices[0].results | map_values(.unwritten?)'
jq_true "read-only: the figures are kept" '.devices[0].results | (.seq_read.mbps > 0) and (.rand_read_qd1.iops > 0) and (.qd_sweep | length == 8)'
check "score" 0 "$tw" score "$tmp/ro.json" --format json
jq_true "score: vector-db misses the QD1 figures" \
	'.policies[] | select(.name == "vector-db") | .ranking[0].missing | index("rand_read_qd1.iops") != null and index("rand_read_qd1.lat_us.p99") != null'
jq_true "score: model-loading misses seq_read" \
	'.policies[] | select(.name == "model-loading") | .ranking[0].missing | index("seq_read.mbps") != null'
check "plan" 0 "$tw" plan "$tmp/ro.json" --no-inventory
expect "plan: the warning" "$tmp/out" "$id: seq_read, rand_read_qd1, rand_read_qd32, qd_sweep read mostly never-written blocks"
expect "plan: how to measure" "$tmp/out" "tierwise probe $loop --destructive"
[ "$(grep -c 'never-written' "$tmp/out")" = 1 ] ||
	{ echo "FAIL: plan: the warning is not once"; grep 'never-written' "$tmp/out"; fail=1; }

# ---- destructive: the fill
"$tw" probe "$loop" --destructive --yes --tests seq_read,rand_read_qd1,qd_sweep "${quick[@]}" \
	-o "$tmp/wr.json" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: destructive: exit $rc"; cat "$tmp/err"; fail=1; }
cp "$tmp/wr.json" "$tmp/out"
jq_true "destructive: the fill noted" '[.devices[0].notes[] | select(startswith("fill: wrote the whole span (0.12 GiB)"))] | length == 1' '.devices[0].notes'
jq_true "destructive: no zero reads" '.devices[0].results | [.seq_read.unwritten, .rand_read_qd1.unwritten, .latency_target.unwritten] == [0, 0, 0]' '.devices[0].results | map_values(.unwritten?)'
jq_true "destructive: no zero-read note" '[.devices[0].notes[] | select(contains("returned only zeros"))] | length == 0' '.devices[0].notes'
check "score (destructive)" 0 "$tw" score "$tmp/wr.json" --format json
jq_true "score (destructive): seq_read is scored" \
	'.policies[] | select(.name == "model-loading") | .ranking[0].missing | index("seq_read.mbps") == null'
# the span was written, with data no compressor can shrink
detach_loops "$loop"
loop=""
head -c 1M "$tmp/blank.img" | cmp -s - <(head -c 1M /dev/zero) &&
	{ echo "FAIL: destructive: the first MiB is still zeros"; fail=1; }
tail -c 1M "$tmp/blank.img" | cmp -s - <(head -c 1M /dev/zero) &&
	{ echo "FAIL: destructive: the last MiB is still zeros"; fail=1; }
sz=$(head -c 16M "$tmp/blank.img" | gzip -1 | wc -c)
[ "$sz" -gt $((16 * 1048576 * 99 / 100)) ] ||
	{ echo "FAIL: destructive: 16 MiB of the span gzip to $sz bytes (compressible)"; fail=1; }

# ---- destructive with seq_write first: it wrote the span, no fill after it
truncate -s 0 "$tmp/blank.img"
truncate -s 64M "$tmp/blank.img"
loop=$(losetup -f --show "$tmp/blank.img") || { echo "FAIL: loop device again"; exit 1; }
"$tw" probe "$loop" --destructive --yes --tests seq_write,seq_read,rand_read_qd1 "${quick[@]}" \
	-o "$tmp/sw.json" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: seq_write first: exit $rc"; cat "$tmp/err"; fail=1; }
cp "$tmp/sw.json" "$tmp/out"
jq_true "seq_write first: no fill, the note says why" '[.devices[0].notes[] | select(startswith("fill: "))] == ["fill: seq_write wrote the whole span (0.06 GiB) with incompressible data before the read tests (sequential 1 MiB writes from its start): no fill needed"]' '.devices[0].notes'
jq_true "seq_write first: no zero reads" '.devices[0].results | [.seq_read.unwritten, .rand_read_qd1.unwritten] == [0, 0]' '.devices[0].results | map_values(.unwritten?)'
detach_loops "$loop"
loop=""
tail -c 1M "$tmp/blank.img" | cmp -s - <(head -c 1M /dev/zero) &&
	{ echo "FAIL: seq_write first: the last MiB is still zeros"; fail=1; }

[ "$fail" -eq 0 ] && echo "PASS"
exit "$fail"
