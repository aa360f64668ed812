#!/usr/bin/env bash
# tierwise score / explain on the published measurements: the JSON contract,
# the Optane-vs-PM9A1 comparison, Markdown output, and a broken policy
# directory reported as FILE:LINE:COLUMN with a non-zero exit.
set -u
. "$(dirname "$0")/lib.sh"
cli_test_start "$1"

check "score --json" 0 "$tw" score "$ex" --policies "$pol" --format json
jq_true "schema" '.schema == "tierwise.score/1"'
jq_true "seven policies (boot among them)" '(.policies | length) == 7'
jq_true "policy keys" '[.policies[] | (.name | type) == "string" and (.tier | type) == "string"
	and (.ranking | type) == "array"] | all'
jq_true "ranking keys" '[.policies[].ranking[] | (.id | type) == "string"
	and (.eligible | type) == "boolean" and (.contributions | type) == "object"
	and (.missing | type) == "array" and (.estimates | type) == "array"
	and ((.score | type) == "number" or .score == null)] | all'
# a 10 TB backup on a 1 TB drive does not fit: said instead of a time
jq_true "archive: no time where it does not fit" \
	'[.policies[] | select(.name == "archive") | .ranking[] | select(.id == "pm9a1-1t")
	  | .estimates[0] | .fits == false and .value == null and .capacity_bytes < 1.1e12] == [true]'
jq_true "archive: the HDD's backup over its surface, said" \
	'[.policies[] | select(.name == "archive") | .ranking[] | select(.id == "ironwolf12t")
	  | .estimates[0] | .fits and (.how | test("inner zone not measured"))] == [true]'
jq_true "vector-db: Optane first" \
	'.policies[] | select(.name == "vector-db") | .ranking[0].id == "optane905p"'
jq_true "model-loading: PM9A1 1 TB first" \
	'.policies[] | select(.name == "model-loading") | .ranking[0].id == "pm9a1-1t"'
jq_true "archive: no prices noted" \
	'.policies[] | select(.name == "archive") | .no_price and (.note | test("no price per TB"))'
jq_true "mznln128 never first" '[.policies[].ranking[0].id != "mznln128"] | all'

printf 'Seagate IronWolf 12TB = 18\nWD Red Pro 10TB\t20\n' >"$tmp/prices"
check "score --prices" 0 "$tw" score "$ex" --policies "$pol" --prices "$tmp/prices" \
	--policy archive --format json
jq_true "prices: one policy" '(.policies | length) == 1'
jq_true "prices: an HDD first" '.policies[0].ranking[0].id | test("ironwolf12t|redpro10t")'
jq_true "prices: price measured" \
	'.policies[0].ranking[0].contributions.price_per_tb.value == 18 or
	 .policies[0].ranking[0].contributions.price_per_tb.value == 20'

check "score text" 0 "$tw" score "$ex" --policies "$pol" --policy vector-db
expect "score text" "$tmp/out" "optane905p"

check "explain" 0 "$tw" explain optane905p --policy vector-db --vs pm9a1-1t "$ex" \
	--policies "$pol"
expect "explain ratio" "$tmp/out" "3.8× faster"
expect "explain Optane search" "$tmp/out" "0.12 s"
expect "explain PM9A1 search" "$tmp/out" "0.45 s"
expect "explain sequential read" "$tmp/out" "2.4× slower"

grep -q "^Money" "$tmp/out" && bad "explain without prices talks money"
# idle and under-write p99 side by side; catalog data has none
expect "explain: no read under write" "$tmp/out" \
	"Under writes: not measured on optane905p (read_under_write needs a writable target"
jq '(.devices[] | select(.id == "optane905p") | .results.read_under_write) = {"bs": 4096, "qd": 1, "lat_us": {"p99": 24}} |
    (.devices[] | select(.id == "pm9a1-1t") | .results.read_under_write) = {"bs": 4096, "qd": 1, "lat_us": {"p99": 2100}, "idle_p99_us": 50}' \
	"$ex" >"$tmp/uw.json"
check "explain under writes" 0 "$tw" explain optane905p --policy vector-db --vs pm9a1-1t "$tmp/uw.json" \
	--policies "$pol"
expect "explain under writes" "$tmp/out" \
	"Under writes: p99 22 µs → 24 µs under writes on optane905p (1.09× slower); p99 50 µs → 2.1 ms under writes on pm9a1-1t (42.0× slower)."
grep -qE '^  random 4 KiB read, QD1, under writes, p99 latency \(µs, lower is better\) +24 µs +2,100 µs +87.5× faster +optane905p +3$' "$tmp/out" ||
	{ bad "explain: the p99 under writes is scored:"; cat "$tmp/out"; }
# with prices: money beside the ratios, in the policy's own terms
printf 'Intel Optane 905P 960GB = 1000\nSamsung PM9A1 1TB = 90\n' >"$tmp/prices"
check "explain with prices" 0 "$tw" explain optane905p --policy vector-db --vs pm9a1-1t "$ex" \
	--policies "$pol" --prices "$tmp/prices"
grep -qE '^  price per TB \(lower is better\) +1,000 per TB +90 per TB +11.1× more expensive +pm9a1-1t' "$tmp/out" ||
	{ bad "explain: price row:"; cat "$tmp/out"; }
expect "money: per TB" "$tmp/out" "Money: optane905p costs 1,000 per TB, pm9a1-1t 90 (11.1× more expensive); a whole optane905p 960, a whole pm9a1-1t 92."
expect "money: what the difference buys" "$tmp/out" \
	"a 10,000-read vector search over mmap in 0.12 s instead of 0.45 s (3.8× faster, 0.33 s less each)."
# the beam search is faster on the NAND at depth 32: said, not hidden
expect "money: the beam on the NAND" "$tmp/out" \
	"Per TB, the 910 more for optane905p buys: a DiskANN-style search (beam 4, 40 reads, 8 at once) in 0.55 ms instead of 0.37 ms (1.5× slower"
# what a query costs: the price over five years of full use, per billion
# queries at the workload's queries/s (960 / (14,529/s × 5 y) × 10⁹ = 0.42)
grep -qE '^  a DiskANN-style search \(beam 4, 40 reads, 8 at once\): price per billion queries \(per 10⁹ queries, lower is better\) +0.42 per 10⁹ queries +0.03 per 10⁹ queries +15.4× higher +pm9a1-1t' "$tmp/out" ||
	{ bad "explain: the beam's price per billion queries:"; cat "$tmp/out"; }
expect "one measurement behind the Optane's wins" "$tmp/out" "— 1 measurement (rand_read_qd1)."
check "explain, cheaper first" 0 "$tw" explain pm9a1-1t --policy model-loading --vs optane905p "$ex" \
	--policies "$pol" --prices "$tmp/prices"
expect "money: what the saving gives" "$tmp/out" "Per TB, pm9a1-1t saves 910 and gives: an 18 GB model through mmap (safetensors, llama.cpp) in 3.1 s instead of 7.1 s (2.3× faster"

check "explain --format md" 0 "$tw" explain optane905p --policy vector-db "$ex" \
	--policies "$pol" --format md
expect "md header" "$tmp/out" "| figure | optane905p |"
expect "md rule" "$tmp/out" "| --- |"

# A broken policy directory: one value made invalid.
mkdir "$tmp/pol"
cp "$pol"/*.yaml "$tmp/pol/"
sed -i 's/^tier: hot$/tier: lukewarm/' "$tmp/pol/vector-db.yaml"
line=$(grep -n '^tier: lukewarm' "$tmp/pol/vector-db.yaml" | cut -d: -f1)
check "bad policy dir" 1 "$tw" score "$ex" --policies "$tmp/pol"
expect "bad policy dir" "$tmp/err" "$tmp/pol/vector-db.yaml:$line:7: tier: unknown tier"

check "bad profile" 1 "$tw" score "$tmp/prices" --policies "$pol"
[ -s "$tmp/err" ] || bad "bad profile: nothing on stderr"
check "unknown policy" 1 "$tw" score "$ex" --policies "$pol" --policy nope
check "unknown device" 1 "$tw" explain nope --policy vector-db "$ex" --policies "$pol"
check "no profile" 2 "$tw" score
check "bad format" 2 "$tw" explain optane905p --policy vector-db "$ex" --format html
exit $fail
