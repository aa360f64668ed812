#!/usr/bin/env bash
# lab_shared.sh — the link pass in the server lab, on
# tests/lab/shared-link.yaml: two emulated NVMe disks in one QEMU throttle
# group (one 60 MB/s link) and two with 60 MB/s each.  `tierwise probe` of
# the four must record exactly one shared group in the profile's links,
# LINK0 and LINK1, reaching less than 80 % of their solo sum together, and
# none with OWN0 or OWN1; the plan of that profile warns shared-link.
# $1: the tierwise binary.  exit 77 = skipped (see lib_lab.sh).
set -u
tw=$(readlink -f "$1")
srcdir=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/cli/lib_lab.sh
. "$srcdir/tests/cli/lib_lab.sh"
t0=$(now)
lab_run shared-link
fail=$((rc != 0))
b1=$results/boot-1
if [ "$(cat "$b1/alone.rc" 2>/dev/null)" != 0 ]; then
	echo "FAIL: tierwise probe exited $(cat "$b1/alone.rc" 2>/dev/null || echo '?')"
	tail -n 15 "$b1/alone.txt" 2>/dev/null
	fail=1
fi
id() { jq -r --arg s "$1" '.devices[] | select(.serial == $s) | .name' "$b1/list.json" 2>/dev/null; }
l0=$(id LINK0) l1=$(id LINK1) o0=$(id OWN0) o1=$(id OWN1)
echo "LINK0=$l0 LINK1=$l1 OWN0=$o0 OWN1=$o1"
jq -c '.links' "$b1/alone.json" 2>/dev/null
want=$(printf '%s\n' "$l0" "$l1" | sort | jq -R . | jq -sc .)
if ! jq -e --argjson want "$want" \
	'[.links[] | (.devices | sort)] == [$want] and
	 ([.links[] | .together_mbps < 0.8 * .solo_sum_mbps] | all)' "$b1/alone.json" >/dev/null 2>&1; then
	echo "FAIL: the profile's links are not exactly [$l0, $l1] below 80 % of their solo sum"
	fail=1
fi
if [ -s "$b1/alone.json" ]; then
	"$tw" plan "$b1/alone.json" --no-inventory --format json >"$results/plan.json" 2>/dev/null
	if ! jq -e '[.warnings[] | select(.kind == "shared-link")] | length == 1' "$results/plan.json" >/dev/null; then
		echo "FAIL: the plan has no shared-link warning"; fail=1
	fi
fi
cat "$b1/together-link.txt" "$b1/together-own.txt" 2>/dev/null
echo "lab: shared-link wall time $(since "$t0") s; results in $results"
[ "$fail" -eq 0 ] && echo "lab_shared: all checks passed"
exit "$fail"
