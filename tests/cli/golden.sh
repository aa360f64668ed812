#!/usr/bin/env bash
# Golden outputs: `tierwise --sysroot FIXTURE list` (text and --json) for every
# recorded machine in tests/fixtures/ must match tests/expected/ byte for byte.
# TW_UPDATE_GOLDEN=1 rewrites the expected files (review the diff!).
set -u
tw=$1
src=${TW_SRCDIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for fx in "$src"/tests/fixtures/*/; do
	name=$(basename "$fx")
	[ -d "$fx/sys/block" ] || continue
	for fmt in txt json; do
		args=(--sysroot "$fx" list)
		[ "$fmt" = json ] && args+=(--format json)
		want=$src/tests/expected/$name.list.$fmt
		if ! "$tw" "${args[@]}" >"$tmp/out" 2>"$tmp/err"; then
			echo "FAIL: $name $fmt: exit $?"; cat "$tmp/err"; fail=1; continue
		fi
		if [ "${TW_UPDATE_GOLDEN:-0}" = 1 ]; then
			cp "$tmp/out" "$want"; echo "updated $want"
		elif ! diff -u "$want" "$tmp/out"; then
			echo "FAIL: $name $fmt differs from $want"; fail=1
		fi
		n=$((n + 1))
	done
done
[ "$n" -ge 6 ] || { echo "FAIL: expected at least 3 fixtures (6 outputs), found $n outputs"; fail=1; }
[ "$fail" -eq 0 ] && echo "golden: $n outputs match"
exit "$fail"
