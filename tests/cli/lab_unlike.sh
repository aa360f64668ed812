#!/usr/bin/env bash
# lab_unlike.sh — one volume per tier in the server lab, on
# tests/lab/unlike-tier.yaml: two unlike blank disks that only together meet
# the warm tier's need.  Boot 1: a destructive probe of the new disks, the
# plan (an LVM volume tw-models, linear), its script with --apply, data
# written; boot 2, with the cold tier's disk (HDD0) taken out: the volume
# activated and mounted again, the data intact, and `tierwise verify` on the
# plan.  The scenario's script checks each step and writes "ok: boot N" to
# result.txt; this checks both boots said so, shows the plan's volume and
# verify's output, and judges verify as far as TCG emulation allows (its
# figures are the emulator's, so an estimate may be outside the tolerance):
# exit 4 when every workload run is within, 5 when one is outside (the
# cold tier is not mounted, so never 0); every mounted tier verified, each
# workload with a figure in the plan run with positive measured figures;
# HDD0's tier reported not mounted, its workloads skipped, nothing written
# into its directory (and verify --tier of it alone exits 3); no scratch
# file left: every mount point lists the same files after verify, and
# uses no more space (16 MiB of slack against scratch files of 64 MiB and
# more).  Label lab-long: about 7 minutes a try (verify 2 of them), 15
# when lab_run tries twice.
# $1: the tierwise binary.  exit 77 = skipped (see lib_lab.sh).
set -u
tw=$(readlink -f "$1")
srcdir=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/cli/lib_lab.sh
. "$srcdir/tests/cli/lib_lab.sh"
t0=$(now)
lab_run unlike-tier
cat "$results/times.txt" 2>/dev/null
fail=$((rc != 0))
for b in 1 2; do
	if ! grep -qx "ok: boot $b" "$results/boot-$b/result.txt" 2>/dev/null; then
		echo "FAIL: boot $b: $(cat "$results/boot-$b/result.txt" 2>/dev/null || echo 'no result')"
		fail=1
	fi
done
grep -E '^warm|volume ' "$results/boot-1/plan.txt" 2>/dev/null
cat "$results/boot-1/lvs-1.txt" "$results/boot-2/lvs-2.txt" 2>/dev/null

# ok DESCRIPTION FILE JQ-FILTER: the filter is true on FILE.
ok() {
	if [ "$(jq -r "$3" "$2" 2>&1)" != true ]; then
		echo "FAIL: $1 (jq '$3' on ${2#"$results"/})"
		fail=1
	fi
}
b2=$results/boot-2
v=$b2/verify.json
if [ ! -s "$v" ]; then
	echo "FAIL: boot 2: no verify.json"; cat "$b2/verify.err" 2>/dev/null; exit 1
fi
echo "verify (boot 2, $(cat "$b2/verify-seconds.txt" 2>/dev/null) s for its three runs):"
cat "$b2/verify.txt" "$b2/verify-cold.txt"
echo "verify --format json (exit $(cat "$b2/verify.rc")): estimate, measured, ratio per workload:"
jq -r '.tiers[] | .tier as $t | .workloads[] |
	"  \($t) \(.policy)/\(.workload) \(.pattern): \(.compared.figure // "-") " +
	"estimate \(.compared.estimate // "-") measured \(.compared.measured // "-") " +
	"ratio \(.ratio // "-") \(.status)\(if .why then " (\(.why))" else "" end)"' "$v"
[ -s "$b2/verify.err" ] && { echo "verify's stderr:"; cat "$b2/verify.err"; }

hdd=$(jq -r '.devices[] | select(.serial == "HDD0") | .name' "$results/boot-1/list.json")
# shellcheck disable=SC2016  # jq's variables
hddtier=$(jq -r --arg d "$hdd" '.tiers[] | select(.devices | index($d) != null) | .name' \
	"$results/boot-1/plan.json")
[ -n "$hddtier" ] || { echo "FAIL: HDD0 is in no tier of the plan"; fail=1; }
vrc=$(cat "$b2/verify.rc")
outside=$(jq '.counts.outside' "$v")
if { [ "$outside" -gt 0 ] && [ "$vrc" != 5 ]; } || { [ "$outside" -eq 0 ] && [ "$vrc" != 4 ]; }; then
	echo "FAIL: verify exited $vrc with $outside outside (wanted 5 when one is outside, 4 when none: a tier is not mounted)"
	fail=1
fi
case $(cat "$b2/verify-text.rc") in
4 | 5) ;;
*) echo "FAIL: verify (text) exited $(cat "$b2/verify-text.rc"), wanted 4 or 5"; fail=1 ;;
esac
ok "verify's JSON is tierwise.verify/1 with every tier of the plan that has estimates" "$v" \
	'.schema == "tierwise.verify/1" and (.tiers | length) >= 2'
# shellcheck disable=SC2016  # jq's variables
ok "$hddtier (HDD0, taken out) is not mounted, not written, every workload skipped" "$v" \
	"[.tiers[] | select(.tier == \"$hddtier\")] | length == 1 and all(.[]; .mounted == false
	 and (.why | test(\"not mounted\")) and all(.workloads[]; .status == \"skipped\" and .measured == null))"
ok "one tier not mounted" "$v" '.counts.unmounted == 1 and .counts.failed == 0'
ok "every mounted tier verified: at least one workload run" "$v" \
	'[.tiers[] | select(.mounted)] | length >= 1 and all(.[];
	 any(.workloads[]; .status == "within" or .status == "outside"))'
ok "every workload of a mounted tier with its figure in the plan run, measured figures positive" "$v" \
	'all(.tiers[] | select(.mounted) | .workloads[];
	 if .compared.estimate == null and .status == "skipped" then true
	 else (.status == "within" or .status == "outside") and .compared.measured > 0 and .ratio > 0
	  and .measured.seconds > 0 and .measured.bytes > 0 and .measured.scratch_bytes > 0
	  and .within == (.status == "within") end)'
ok "within and outside counted as listed" "$v" \
	'.counts.within == ([.tiers[].workloads[] | select(.status == "within")] | length)
	 and .counts.outside == ([.tiers[].workloads[] | select(.status == "outside")] | length)'
if [ "$(cat "$b2/verify-cold.rc")" != 3 ] || ! grep -q 'not mounted, not written' "$b2/verify-cold.txt"; then
	echo "FAIL: verify --tier $hddtier exited $(cat "$b2/verify-cold.rc") (wanted 3, not mounted)"; fail=1
fi

# No scratch file left, nothing written into the missing disk's directory.
hddpoint=$(jq -r --arg t "$hddtier" '.tiers[] | select(.name == $t) | .mounts[0].point' "$results/boot-1/plan.json")
mounted=$(jq -r '.tiers[] | select(.mounted) | .mount' "$v")
while IFS=$'\t' read -r m used list; do
	used2='' list2=''
	IFS=$'\t' read -r _ used2 list2 < <(awk -F'\t' -v m="$m" '$1 == m' "$b2/mounts-after.tsv")
	if [ "$list" != "$list2" ]; then
		echo "FAIL: $m lists '$list' before verify, '$list2' after"; fail=1
	fi
	if grep -qx "$m" <<<"$mounted" && [ "$((${used2:-0} - used))" -gt $((16 << 20)) ]; then
		echo "FAIL: $m uses $used bytes before verify, ${used2:-?} after (a scratch file left?)"; fail=1
	fi
	if [ "$m" = "$hddpoint" ] && [ -n "$list" ]; then
		echo "FAIL: HDD0's mount point $m on the root filesystem is not empty: $list"; fail=1
	fi
done <"$b2/mounts-before.tsv"
[ -s "$b2/mounts-before.tsv" ] || { echo "FAIL: no mounts-before.tsv"; fail=1; }
echo "lab: unlike-tier wall time $(since "$t0") s; results in $results"
[ "$fail" -eq 0 ] && echo "lab_unlike: all checks passed"
exit "$fail"
