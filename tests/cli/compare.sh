#!/usr/bin/env bash
# tierwise compare on the published measurements: the IronWolf 12 TB → WD
# Red Pro 10 TB swap (golden text, md and JSON, plus the figures asserted one
# by one), an NVMe → HDD swap that now fails `rotational`, pairing by serial
# and id with devices only before / only after, prices, and bad input.
# TW_UPDATE_GOLDEN=1 rewrites tests/expected/compare/ (review the diff!).
set -u
tw=$1
src=${TW_SRCDIR:?}
ex=$src/examples/ai-server-18-devices.json
pol=$src/policies
gold=$src/tests/expected/compare
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"
jq_true() {	# description, jq filter that must print true
	if [ "$(jq -r "$2" "$tmp/out" 2>&1)" != true ]; then
		echo "FAIL: $1: jq '$2' is not true"; fail=1
	fi
}
# one-device profile: one ID of the example into FILE
one() { jq --arg id "$1" '.devices |= map(select(.id == $id))' "$ex" >"$2"; }

one ironwolf12t "$tmp/ironwolf.json"
one redpro10t "$tmp/redpro.json"
one pm9a1-1t "$tmp/pm9a1.json"

# ---- the swap: goldens ----
for fmt in text md json; do
	check "swap --format $fmt" 0 "$tw" compare "$tmp/ironwolf.json" "$tmp/redpro.json" \
		--policies "$pol" --format "$fmt"
	want=$gold/ironwolf12t-redpro10t.$fmt
	if [ "${TW_UPDATE_GOLDEN:-0}" = 1 ]; then
		mkdir -p "$gold" && cp "$tmp/out" "$want" && echo "updated $want"
	elif ! diff -u "$want" "$tmp/out"; then
		echo "FAIL: swap $fmt differs from $want"; fail=1
	fi
done

# ---- the swap: the published figures ----
check "swap text" 0 "$tw" compare "$tmp/ironwolf.json" "$tmp/redpro.json" --policies "$pol"
line "header" '^ironwolf12t → redpro10t \(a swap\)$'
line "seq write −23 %" '^  sequential write +241 → 186 MB/s +−23 % +worse$'
line "sustained write +9 %" '^  sustained write +236 → 257 MB/s +\+9 % +better$'
line "mixed +12 %" '^  mixed 70/30 +618 → 690 IOPS +\+12 % +better$'
line "QD1 p99 16.3 → 25.2 ms" '^  QD1 p99 latency +16\.3 → 25\.2 ms +\+54 % +worse$'
line "idle +10 °C" '^  idle temperature +24 → 34 °C +\+10 °C +worse$'
line "capacity" '^  capacity +12\.0 → 10\.0 TB +−17 % +worse$'
line "seq read within 1 %" '^  sequential read .* −0\.4 % +same$'
line "archive worse" '^  archive +cold +92\.7 → 91\.3 +worse$'
line "vector-db excluded" '^  vector-db +hot .* same +excluded before and after \(rotational\)$'
if grep -q "p50" "$tmp/out"; then
	echo "FAIL: p50 is unknown on both sides and must be skipped"; fail=1
fi

check "swap json" 0 "$tw" compare "$tmp/ironwolf.json" "$tmp/redpro.json" --policies "$pol" \
	--format json
m() { echo ".pairs[0].metrics[] | select(.path == \"$1\")"; }
p() { echo ".pairs[0].policies[] | select(.name == \"$1\")"; }
jq_true "schema" '.schema == "tierwise.compare/1"'
jq_true "one pair, a swap" '(.pairs | length) == 1 and .pairs[0].before == "ironwolf12t"
	and .pairs[0].after == "redpro10t" and .pairs[0].paired_by == "swap"
	and .only_before == [] and .only_after == []'
jq_true "metric keys" '[.pairs[0].metrics[] | (.path | type) == "string"
	and (.unit | type) == "string" and has("before") and has("after")
	and has("change_pct") and has("better")] | all'
jq_true "seq write −22.8 %" "$(m seq_write.mbps) | .change_pct == -22.8 and .better == false"
jq_true "sustained +8.9 %" "$(m sustained_write.mbps) | .change_pct == 8.9 and .better == true"
jq_true "p99 µs" "$(m rand_read_qd1.lat_us.p99) | .before == 16318 and .after == 25210
	and .unit == \"µs\" and .better == false"
jq_true "idle +10 °C" "$(m thermal.idle_c) | .delta == 10 and .change_pct == null
	and .better == false"
jq_true "seq read same" "$(m seq_read.mbps) | .better == null"
jq_true "no p50 (unknown on both)" "[$(m rand_read_qd1.lat_us.p50)] == []"
jq_true "seven policies" '(.pairs[0].policies | length) == 7'
jq_true "archive worse" "$(p archive) | .verdict == \"worse\" and .tier == \"cold\"
	and .before > .after and .eligible_before and .eligible_after"
jq_true "vector-db excluded both" "$(p vector-db) | (.eligible_before or .eligible_after)
	== false and .now_fails == [] and .verdict == \"same\""

# ---- prices: the archive weighs them ----
printf 'Seagate IronWolf 12TB = 18\nWD Red Pro 10TB = 20\n' >"$tmp/prices"
check "prices" 0 "$tw" compare "$tmp/ironwolf.json" "$tmp/redpro.json" --policies "$pol" \
	--prices "$tmp/prices"
line "price +11 %" '^  price per TB +18 → 20 per TB +\+11 % +worse$'
line "archive still worse" '^  archive +cold .* worse$'

# ---- NVMe → HDD: eligibility changes, a figure known on one side ----
check "pm9a1 → ironwolf" 0 "$tw" compare "$tmp/pm9a1.json" "$tmp/ironwolf.json" \
	--policies "$pol"
line "now fails rotational" '^  vector-db +hot .* worse +now fails rotational: '
line "p50 only before" '^  QD1 p50 latency +42 → - µs +-$'
line "µs and ms" '^  QD1 p99 latency +49 µs → 16\.3 ms '
check "ironwolf → pm9a1 json" 0 "$tw" compare "$tmp/ironwolf.json" "$tmp/pm9a1.json" \
	--policies "$pol" --format json
jq_true "now passes rotational" "$(p vector-db) | .now_passes == [\"rotational\"]
	and .verdict == \"better\" and .eligible_after and (.eligible_before | not)"
jq_true "p50 after only" "$(m rand_read_qd1.lat_us.p50) | .before == null and .after == 42
	and .change_pct == null and .better == null"

# ---- firmware change in slots: serial, then id; the unpaired listed ----
jq '.devices |= (map(select(.id == "optane905p" or .id == "pm9a1-1t" or .id == "ironwolf12t"))
	| map(if .id == "pm9a1-1t" then .serial = "S1" | .firmware = "A" else . end))' \
	"$ex" >"$tmp/slots1.json"
jq '.devices |= (map(select(.id == "pm9a1-1t" or .id == "ironwolf12t" or .id == "redpro10t"))
	| map(if .id == "pm9a1-1t" then .serial = "S1" | .firmware = "B" | .id = "nvme1"
	      | .results.seq_read.mbps = 6500 else . end))' "$ex" >"$tmp/slots2.json"
check "slots json" 0 "$tw" compare "$tmp/slots1.json" "$tmp/slots2.json" --policies "$pol" \
	--format json
jq_true "pairs by serial then id" '[.pairs[] | [.before, .after, .paired_by]] ==
	[["pm9a1-1t", "nvme1", "serial"], ["ironwolf12t", "ironwolf12t", "id"]]'
jq_true "only before / after" '.only_before == ["optane905p"] and .only_after == ["redpro10t"]'
jq_true "firmware change: seq read +5 %" \
	"$(m seq_read.mbps) | .change_pct == 5 and .better == true"
check "slots text" 0 "$tw" compare "$tmp/slots1.json" "$tmp/slots2.json" --policies "$pol"
line "serial pair" '^pm9a1-1t → nvme1 \(paired by serial\)$'
line "firmware shown" '^  before: Samsung PM9A1 1TB, firmware A, serial S1$'
line "only before" '^only before: optane905p \(Intel Optane 905P 960GB\)$'
line "only after" '^only after: redpro10t \(WD Red Pro 10TB\)$'
check "slots md" 0 "$tw" compare "$tmp/slots1.json" "$tmp/slots2.json" --policies "$pol" \
	--format md
line "md only after" '^\*\*Only after:\*\* `redpro10t` \(WD Red Pro 10TB\)$'

# ---- bad input ----
jq '.devices[0].capacity_bytes = "big"' "$tmp/ironwolf.json" >"$tmp/bad.json"
pos=$(grep -n '"capacity_bytes"' "$tmp/bad.json" | cut -d: -f1)
check "invalid profile" 1 "$tw" compare "$tmp/bad.json" "$tmp/redpro.json" --policies "$pol"
expect "invalid profile" "$tmp/err" "$tmp/bad.json:$pos:"
expect "invalid profile key" "$tmp/err" "devices[0].capacity_bytes:"
printf '{"schema": \n' >"$tmp/trunc.json"
check "not JSON" 1 "$tw" compare "$tmp/ironwolf.json" "$tmp/trunc.json" --policies "$pol"
line_err() { grep -qE -- "$2" "$tmp/err" || { echo "FAIL: $1: stderr:"; cat "$tmp/err"; fail=1; }; }
line_err "not JSON: FILE:LINE:COLUMN" "^$tmp/trunc.json:[0-9]+:[0-9]+: "
check "missing file" 1 "$tw" compare "$tmp/nope.json" "$tmp/redpro.json" --policies "$pol"
expect "missing file" "$tmp/err" "$tmp/nope.json: cannot read"
check "bad policy dir" 1 "$tw" compare "$tmp/ironwolf.json" "$tmp/redpro.json" \
	--policies "$tmp/nope"

# ---- usage ----
check "help" 0 "$tw" compare --help
expect "help" "$tmp/out" "Usage: tierwise compare BEFORE.json AFTER.json"
expect "help example" "$tmp/out" "Example: tierwise compare"
check "one profile" 2 "$tw" compare "$tmp/ironwolf.json"
expect "one profile" "$tmp/err" "Try 'tierwise compare --help'"
check "three profiles" 2 "$tw" compare "$tmp/ironwolf.json" "$tmp/redpro.json" "$tmp/pm9a1.json"
check "bad format" 2 "$tw" compare "$tmp/ironwolf.json" "$tmp/redpro.json" --format html
expect "bad format" "$tmp/err" "Try 'tierwise compare --help'"
check "unknown option" 2 "$tw" compare --frobnicate "$tmp/ironwolf.json" "$tmp/redpro.json"
[ "$fail" -eq 0 ] && echo "compare: all checks pass"
exit "$fail"
