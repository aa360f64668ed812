#!/usr/bin/env bash
# lab_unlike.sh — one volume per tier in the server lab, on
# tests/lab/unlike-tier.yaml: two unlike blank disks that only together meet
# the warm tier's need.  Boot 1: a destructive probe of the new disks, the
# plan (an LVM volume tw-models, linear), its script with --apply, data
# written; boot 2: the volume activated and mounted again, the data intact.
# The scenario's script checks each step and writes "ok: boot N" to
# result.txt; this checks both boots said so and shows the plan's volume.
# $1: the tierwise binary.  exit 77 = skipped (see lib_lab.sh).
set -u
tw=$(readlink -f "$1")
srcdir=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/cli/lib_lab.sh
. "$srcdir/tests/cli/lib_lab.sh"
t0=$(now)
lab_run unlike-tier
fail=$((rc != 0))
for b in 1 2; do
	if ! grep -qx "ok: boot $b" "$results/boot-$b/result.txt" 2>/dev/null; then
		echo "FAIL: boot $b: $(cat "$results/boot-$b/result.txt" 2>/dev/null || echo 'no result')"
		fail=1
	fi
done
grep -E '^warm|volume ' "$results/boot-1/plan.txt" 2>/dev/null
cat "$results/boot-1/lvs-1.txt" "$results/boot-2/lvs-2.txt" 2>/dev/null
echo "lab: unlike-tier wall time $(since "$t0") s; results in $results"
[ "$fail" -eq 0 ] && echo "lab_unlike: all checks passed"
exit "$fail"
