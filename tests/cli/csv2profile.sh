#!/usr/bin/env bash
# csv2profile.sh — regenerating examples/ai-server-18-devices.json from the
# published CSV gives exactly the committed file.
#
# $1: the tierwise binary (unused).  TW_SRCDIR: the repository root.
# exit 77 = skipped (no python3, or no ../shared/reference CSV next to the repo).
set -euo pipefail

srcdir=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
python=${PYTHON:-python3}
csv=$srcdir/../shared/reference/ai-server-20-devices.csv
expected=$srcdir/examples/ai-server-18-devices.json

if [ ! -f "$csv" ]; then
	echo "SKIP: $csv not found"
	exit 77
fi
if ! command -v "$python" >/dev/null 2>&1; then
	echo "SKIP: $python not found"
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$python" "$srcdir/scripts/csv2profile.py" "$csv" -o "$tmp/out.json"
if ! diff -u "$expected" "$tmp/out.json"; then
	echo "FAIL: csv2profile output differs from $expected (regenerate with:"
	echo "  scripts/csv2profile.py ../shared/reference/ai-server-20-devices.csv -o examples/ai-server-18-devices.json)"
	exit 1
fi

# Same output on stdout as with -o.
"$python" "$srcdir/scripts/csv2profile.py" "$csv" >"$tmp/stdout.json"
cmp -s "$tmp/out.json" "$tmp/stdout.json" || { echo "FAIL: stdout and -o output differ"; exit 1; }

# Slot suffixes stay in the ids: the models are the plain names a price list
# or a fleet groups by ("SK hynix PC601 512GB" thrice, not "(1)" "(2)" "(3)").
if grep -Eq '"model": ".*\([0-9]+\)"' "$tmp/out.json"; then
	echo "FAIL: a model keeps its slot suffix: $(grep -E '"model": ".*\([0-9]+\)"' "$tmp/out.json" | head -1)"
	exit 1
fi
[ "$(grep -c '"model": "SK hynix PC601 512GB"' "$tmp/out.json")" = 3 ] ||
	{ echo "FAIL: the three PC601 slots do not share their model name"; exit 1; }

# Bad input is refused, not converted.
header=$(grep -v '^#' "$csv" | head -n 1)
good='x,Some SSD,nand,nvme,100,3000,2000,1500,10000,80,90,300000,200000,30,50'
bad_cases=(
	'x,Some SSD,nand,nvme,100,0,2000,1500,10000,80,90,300000,200000,30,50|0 measurement'
	'x,Some SSD,nand,nvme,100,-5,2000,1500,10000,80,90,300000,200000,30,50|negative measurement'
	'x,Some SSD,nand,scsi,100,3000,2000,1500,10000,80,90,300000,200000,30,50|unknown transport'
	'x,Some SSD,tape,nvme,100,3000,2000,1500,10000,80,90,300000,200000,30,50|unknown media'
	',Some SSD,nand,nvme,100,3000,2000,1500,10000,80,90,300000,200000,30,50|empty id'
	'x,Some SSD,nand,nvme,100,3000,2000,1500,10000,95,90,300000,200000,30,50|p50 > p99'
	'x,Some SSD,nand,nvme,100,3000,2000,1500,10000,80,90,300000,200000,30|missing field'
)
printf '%s\n%s\n' "$header" "$good" >"$tmp/good.csv"
"$python" "$srcdir/scripts/csv2profile.py" "$tmp/good.csv" >/dev/null ||
	{ echo "FAIL: csv2profile refused a good row"; exit 1; }
printf '%s\n%s\n%s\n' "$header" "$good" "$good" >"$tmp/dup.csv"
if "$python" "$srcdir/scripts/csv2profile.py" "$tmp/dup.csv" >/dev/null 2>&1; then
	echo "FAIL: csv2profile accepted a duplicate id"
	exit 1
fi
for case in "${bad_cases[@]}"; do
	row=${case%|*} what=${case##*|}
	printf '%s\n%s\n' "$header" "$row" >"$tmp/bad.csv"
	if "$python" "$srcdir/scripts/csv2profile.py" "$tmp/bad.csv" >/dev/null 2>&1; then
		echo "FAIL: csv2profile accepted bad input: $what"
		exit 1
	fi
done

echo "PASS"
