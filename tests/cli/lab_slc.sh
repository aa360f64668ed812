#!/usr/bin/env bash
# lab_slc.sh — the sustained write on a disk with an SLC-like cache, in the
# server lab, on tests/lab/slc-cache.yaml: QEMU's burst bucket
# (burst_write_mbps × burst_seconds MB, draining at write_mbps) on a blank
# 4 GiB disk.  `tierwise probe --full --tests sustained_write` must find
# the cliff, put the cache (cliff_after_gb) within ±15 % of what the bucket
# took, the rate after it within ±15 % of write_mbps, and stop within 15 s
# of the bucket filling, saying so in a note — not at the 120 s cap.  What
# the bucket took, and when it filled, is replayed on the seconds the guest
# wrote (the series), whatever rate the guest reached and however it
# wandered (below).
# $1: the tierwise binary.  exit 77 = skipped (see lib_lab.sh).
set -u
tw=$(readlink -f "$1")
srcdir=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/cli/lib_lab.sh
. "$srcdir/tests/cli/lib_lab.sh"
t0=$(now)
lab_run slc-cache
fail=$((rc != 0))
b1=$results/boot-1
p=$b1/probe.json
if [ "$(cat "$b1/probe.rc" 2>/dev/null)" != 0 ]; then
	echo "FAIL: tierwise probe exited $(cat "$b1/probe.rc" 2>/dev/null || echo '?')"
	tail -n 15 "$b1/probe.txt" 2>/dev/null
	fail=1
fi
cat "$b1/probe.txt" 2>/dev/null
jq -c '.devices[0].results.sustained_write | del(.series)' "$p" 2>/dev/null
jq -c '[.devices[0].results.sustained_write.series[]?.mbps | floor]' "$p" 2>/dev/null
# the bucket's rates from the scenario
read -r burst base bsecs < <(/usr/bin/python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))["devices"][0]
print(d["burst_write_mbps"], d["write_mbps"], d["burst_seconds"])' "$srcdir/tests/lab/slc-cache.yaml")
# the bucket on the series: it is full from the second on which the rate
# fell to write_mbps for good (every second from it on within 15 % of
# it; the throttle holds the rate there); what the guest wrote before
# that second is the cache the probe must find, and what it wrote above
# write_mbps must be the bucket's size (±15 %: else the scenario did not
# run as designed).  None when the rate never fell.
check=$(jq -r --argjson burst "$burst" --argjson base "$base" --argjson bsecs "$bsecs" '
	.devices[0].results.sustained_write as $s
	| [$s.series[]?.mbps] as $v
	| ([range(1; $v | length) as $k | select([$v[$k:][] | select(. > 1.15 * $base)] | length == 0)
	    | $k] | first // null) as $k
	| if $k == null then empty else
	  ($v[:$k] | add) as $mb
	  | [($s.cliff_after_gb // 0), $mb / 1000, ($s.mbps // 0), ($s.seconds // 1e9), $k,
	     $mb / $k, ($mb - $base * $k), $burst * $bsecs] | @tsv end' "$p" 2>/dev/null)
if [ -z "$check" ]; then
	echo "FAIL: no sustained_write in $p, or its rate never fell to $base MB/s for good"
	fail=1
else
	read -r got want after secs fill reached above cap <<<"$check"
	echo "cache: $got GB (the guest wrote $want GB at $reached MB/s before the bucket was full, $above MB of it above $base MB/s: the bucket holds $cap MB); after it $after MB/s; $secs s (the bucket full at $fill s)"
	awk -v a="$above" -v c="$cap" 'BEGIN { exit !(a >= 0.85 * c && a <= 1.15 * c) }' ||
		{ echo "FAIL: the guest wrote $above MB above $base MB/s before the rate fell, not the bucket's $cap MB ±15 %: the scenario did not run as designed"; fail=1; }
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(g >= 0.85 * w && g <= 1.15 * w) }' ||
		{ echo "FAIL: the cache ($got GB) is not within ±15 % of $want GB"; fail=1; }
	awk -v a="$after" -v b="$base" 'BEGIN { exit !(a >= 0.85 * b && a <= 1.15 * b) }' ||
		{ echo "FAIL: the rate after the cliff ($after MB/s) is not within ±15 % of $base"; fail=1; }
	awk -v s="$secs" -v f="$fill" 'BEGIN { exit !(s <= f + 15) }' ||
		{ echo "FAIL: the write ran $secs s, more than the cache's $fill s + 15"; fail=1; }
fi
grep -q 'note: sustained_write: stopped [0-9]* s after the cache cliff at .* the rate after it held at' \
	"$b1/probe.txt" 2>/dev/null ||
	{ echo "FAIL: no note that the write stopped after the cliff, the rate held"; fail=1; }
echo "lab: slc-cache wall time $(since "$t0") s (the probe $(cat "$b1/probe.seconds" 2>/dev/null) s); results in $results"
[ "$fail" -eq 0 ] && echo "lab_slc: all checks passed"
exit "$fail"
