#!/usr/bin/env bash
# tierwise explain makes a fair case: figures in words
# with their unit and which way is better, ratios that never round to 0 and
# say the direction, the figures a buyer asks about on both sides (QD32,
# where NAND beats Optane), who wins each row and a two-sided summary, the
# same device named twice said in one line; text, md, json and -o alike.
set -u
. "$(dirname "$0")/lib.sh"
cli_test_start "$1"
# A ratio below 1 ("0.00×", "0.45×") or one without its direction in words.
no_bad_ratio() {
	noline "$1: a ratio below 1" '(^|[^0-9.,])0\.[0-9]+×'
	noline "$1: a ratio without its direction" '[0-9]×( *$| *\||\)|,)'
}

# ---- optane905p against an HDD: 742× faster, not 0.00× ----
check "optane vs ironwolf" 0 "$tw" explain optane905p --policy vector-db --vs ironwolf12t "$ex" \
	--policies "$pol"
line "p99 in words, with unit and direction" \
	'^  random 4 KiB read, QD1, p99 latency \(µs, lower is better\) +22 µs +16,318 µs +742× faster +optane905p +3$'
line "median latency in words" \
	'^  random 4 KiB read, QD1, median latency \(µs, lower is better\) +11 µs +- +- +- +2$'
line "QD1 IOPS" '^  random 4 KiB read, QD1, IOPS \(higher is better\) +83,989 IOPS +169 IOPS +497× faster +optane905p'
line "the search estimate, in queries/s" \
	'^  a 10,000-read vector search over mmap: queries/s \(higher is better\) +8.4 queries/s +0.02 queries/s +497× higher +optane905p'
line "its p99 needs a p99 on both sides" \
	'^  a 10,000-read vector search over mmap: p99 a query \(seconds, lower is better\) +0.12 s +- +- +-$'
line "the HDD's strength: capacity" '^  capacity \(higher is better\) +960 GB +12.0 TB +12.5× smaller +ironwolf12t'
expect "where the HDD wins" "$tmp/out" "Where ironwolf12t wins: capacity (12.5× larger) — 1 measurement (capacity_bytes)."
expect "where optane wins" "$tmp/out" \
	"Where optane905p wins: QD1 p99 latency (742× faster), QD1 IOPS (497× faster),"
expect "not compared, said" "$tmp/out" \
	"Not compared (not measured on one side or both): QD1 median latency, p99 latency under writes,"
no_bad_ratio "optane vs ironwolf"
noline "no raw keys in the table" '^  rand_read_qd1\.'

# ---- optane905p against NAND: QD32 shown, and NAND wins it ----
check "optane vs pm9a1-1t" 0 "$tw" explain optane905p --policy vector-db --vs pm9a1-1t "$ex" \
	--policies "$pol"
line "QD32 IOPS, NAND wins" \
	'^  random 4 KiB read, QD32, IOPS \(higher is better\) +581,158 IOPS +859,871 IOPS +1.5× slower +pm9a1-1t *$'
line "QD32 latency shown even when unknown" '^  random 4 KiB read, QD32, p99 latency \(µs, lower is better\) +- +- +- +-'
line "sequential read, NAND wins" '^  sequential 1 MiB read, QD32 \(MB/s, higher is better\) +2,556 MB/s +6,193 MB/s +2.4× slower +pm9a1-1t'
line "sequential write" '^  sequential 1 MiB write, QD32 \(MB/s, higher is better\) +2,282 MB/s +5,009 MB/s +2.2× slower +pm9a1-1t'
line "mixed 70/30, scored" '^  random 4 KiB 70/30 read/write mix, QD32, IOPS \(higher is better\) +527,987 IOPS +562,594 IOPS +1.07× slower +pm9a1-1t +1$'
line "the header names the sides" '^  figure +optane905p +pm9a1-1t +optane905p is +wins +weight$'
line "the scores" '^  score \(0-100, higher is better\) +98.9 \(conf 0.75\) +79.4 \(conf 0.75\)$'
expect "where optane wins" "$tmp/out" \
	"Where optane905p wins: QD1 p99 latency (2.2× faster), QD1 median latency (3.8× faster), QD1 IOPS (3.8× faster), a 10,000-read vector search over mmap: queries/s (3.8× higher), a 10,000-read vector search over mmap: p99 a query (3.8× faster) — 1 measurement (rand_read_qd1)."
expect "where NAND wins: QD32 first among its figures" "$tmp/out" \
	"Where pm9a1-1t wins: mixed 70/30 IOPS (1.07× faster), QD32 IOPS (1.5× faster), sequential read (2.4× faster), sequential write (2.2× faster), sustained write (2.2× faster), capacity (1.07× larger), a DiskANN-style search (beam 4, 40 reads, 8 at once): queries/s (1.5× higher) — 6 measurements (mixed_70_30, rand_read_qd32, seq_read, seq_write, sustained_write, capacity_bytes)."
expect "the verdict, in words" "$tmp/out" \
	"For vector-db (hot), optane905p beats pm9a1-1t mostly on QD1 IOPS (weight 3): 83,989 IOPS against 22,120 IOPS (3.8× faster)."
no_bad_ratio "optane vs pm9a1-1t"
noline "no ties between different figures" 'ties with'
grep -q "^Money" "$tmp/out" && bad "no prices, yet money"
grep -q "price" "$tmp/out" && bad "no prices, yet price rows"

# ---- with prices: per TB and per IOPS, both ways ----
printf 'Intel Optane 905P 960GB = 1000\nSamsung PM9A1 1TB = 90\n' >"$tmp/prices"
check "with prices" 0 "$tw" explain optane905p --policy vector-db --vs pm9a1-1t "$ex" \
	--policies "$pol" --prices "$tmp/prices"
line "price per TB" '^  price per TB \(lower is better\) +1,000 per TB +90 per TB +11.1× more expensive +pm9a1-1t *$'
line "price per QD1 IOPS" \
	'^  device price / random 4 KiB read IOPS, QD1 \(lower is better\) +0.0114 per IOPS +0.00416 per IOPS +2.7× more expensive +pm9a1-1t'
line "price per QD32 IOPS" \
	'^  device price / random 4 KiB read IOPS, QD32 \(lower is better\) +0.00165 per IOPS +0.000107 per IOPS +15.4× more expensive +pm9a1-1t'
expect "money, direction in words" "$tmp/out" "Money: optane905p costs 1,000 per TB, pm9a1-1t 90 (11.1× more expensive);"
expect "NAND's price strengths" "$tmp/out" "price per TB (11.1× cheaper), price per QD1 IOPS (2.7× cheaper), price per QD32 IOPS (15.4× cheaper), a DiskANN-style search"
no_bad_ratio "with prices"

# ---- a temperature: the difference, not a ratio ----
check "checkpoints" 0 "$tw" explain pm9a1-1t --policy checkpoints --vs 980pro-2t "$ex" --policies "$pol"
line "temperature as a difference" '^  temperature under load \(°C, lower is better\) +49 °C +37 °C +12 °C hotter +980pro-2t +1$'
expect "the cooler drive's strength" "$tmp/out" "temperature under load (12 °C cooler)"

# ---- Markdown: the same table and summary ----
check "md" 0 "$tw" explain optane905p --policy vector-db --vs pm9a1-1t "$ex" --policies "$pol" --format md
expect "md heading" "$tmp/out" "### optane905p vs pm9a1-1t for vector-db (hot)"
expect "md header" "$tmp/out" "| figure | optane905p | pm9a1-1t | optane905p is | wins | weight |"
expect "md QD32 row" "$tmp/out" \
	"| random 4 KiB read, QD32, IOPS (higher is better) | 581,158 IOPS | 859,871 IOPS | 1.5× slower | pm9a1-1t |  |"
expect "md summary" "$tmp/out" "- **Where pm9a1-1t wins:** mixed 70/30 IOPS (1.07× faster), QD32 IOPS (1.5× faster)"
no_bad_ratio "md"

# ---- JSON: real types, the same facts ----
check "json" 0 "$tw" explain optane905p --policy vector-db --vs pm9a1-1t "$ex" --policies "$pol" \
	--prices "$tmp/prices" --format json
jq_true "schema and sides" '.schema == "tierwise.explain/1" and .same_device == false and
	.a.id == "optane905p" and .b.id == "pm9a1-1t" and (.a.score | type) == "number" and
	.verdict == "beats" and .decisive == "rand_read_qd1.iops"'
jq_true "row types" '[.rows[] | (.metric | type) == "string" and (.label | type) == "string"
	and ((.a | type) == "number" or .a == null) and ((.b | type) == "number" or .b == null)
	and ((.ratio | type) == "number" or .ratio == null)
	and ((.factor | type) == "number" or .factor == null)
	and (.winner == "a" or .winner == "b" or .winner == "tie" or .winner == null)
	and (.better == "higher" or .better == "lower")] | all'
jq_true "factors never below 1" '[.rows[] | select(.factor != null) | .factor >= 1] | all'
jq_true "the QD32 row: NAND wins" '.rows[] | select(.metric == "rand_read_qd32.iops") |
	.a == 581158 and .b == 859871 and .winner == "b" and .winner_id == "pm9a1-1t" and
	.a_is == "slower" and .ratio_text == "1.5× slower" and .kind == "context"'
jq_true "the p99 row in words" '.rows[] | select(.metric == "rand_read_qd1.lat_us.p99") |
	.label == "random 4 KiB read, QD1, p99 latency (µs, lower is better)" and .better == "lower"
	and .weight == 3 and .kind == "policy" and .winner == "a"'
jq_true "price per IOPS" '.rows[] | select(.metric == "price_per_iops.qd1") |
	(.a * 1e4 | round) == 114 and .unit == "per IOPS" and .winner == "b"'
jq_true "two-sided wins" '(.wins.a | index("rand_read_qd1.iops")) != null and
	(.wins.b | index("rand_read_qd32.iops")) != null and (.wins.b | index("seq_read.mbps")) != null
	and (.wins.unknown | index("rand_read_qd32.lat_us.p99")) != null'
jq_true "every figure a buyer asks about" '[.rows[].metric] as $m | ["rand_read_qd1.lat_us.p50",
	"rand_read_qd1.lat_us.p99", "rand_read_qd1.iops", "rand_read_qd32.lat_us.p50",
	"rand_read_qd32.lat_us.p99", "rand_read_qd32.iops", "seq_read.mbps", "seq_write.mbps",
	"mixed_70_30.iops", "price_per_tb", "price_per_iops.qd1", "price_per_iops.qd32"] |
	map(. as $k | $m | index($k) != null) | all'

# ---- the same device twice: one line, exit 0, in every format ----
same="optane905p is the same device on both sides: nothing to compare for vector-db (name another with --vs, e.g. pm9a1-1t)."
check "same device" 0 "$tw" explain optane905p --policy vector-db --vs optane905p "$ex" --policies "$pol"
[ "$(cat "$tmp/out")" = "$same" ] || { bad "same device: not the one line:"; cat "$tmp/out"; }
check "same device, md" 0 "$tw" explain optane905p --policy vector-db --vs optane905p "$ex" \
	--policies "$pol" --format md
[ "$(cat "$tmp/out")" = "$same" ] || { bad "same device, md:"; cat "$tmp/out"; }
check "same device, json" 0 "$tw" explain optane905p --policy vector-db --vs optane905p "$ex" \
	--policies "$pol" --format json
jq_true "same device, json" '.same_device == true and .rows == [] and .verdict == null and
	.message == "'"$same"'"'
grep -q "ties" "$tmp/out" && bad "same device: ties"

# ---- one device measured twice (one serial in two entries): said ----
jq '(.devices[] | select(.id == "pm9a1-1t" or .id == "pm9a1-1t-b") | .serial) = "S1" |
    .devices += [(.devices[] | select(.id == "pm9a1-1t") | .id = "pm9a1-1t-b" | .serial = "S1")]' \
	"$ex" >"$tmp/twice.json"
check "same serial" 0 "$tw" explain pm9a1-1t --policy vector-db --vs pm9a1-1t-b "$tmp/twice.json" \
	--policies "$pol"
expect "same serial" "$tmp/out" "pm9a1-1t and pm9a1-1t-b carry the same serial number: one device measured twice"
check "same serial, json" 0 "$tw" explain pm9a1-1t --policy vector-db --vs pm9a1-1t-b "$tmp/twice.json" \
	--policies "$pol" --format json
jq_true "same serial, json" '.same_serial == true and .same_device == false'

# ---- -o FILE: the same output as standard output, for every format ----
for f in text md json; do
	check "-o, $f" 0 "$tw" explain optane905p --policy vector-db --vs pm9a1-1t "$ex" \
		--policies "$pol" --format $f -o "$tmp/o.$f"
	"$tw" explain optane905p --policy vector-db --vs pm9a1-1t "$ex" --policies "$pol" \
		--format $f >"$tmp/stdout.$f"
	cmp -s "$tmp/o.$f" "$tmp/stdout.$f" || bad "-o $f differs from stdout"
done
expect "-o md has QD32" "$tmp/o.md" "QD32, IOPS"

# ---- every policy, every device pair of the example: no ratio below 1 ----
for p in vector-db logs-metadata model-loading checkpoints archive boot; do
	for id in optane905p pm9a1-1t ironwolf12t 980pro-2t; do
		for f in text md; do
			"$tw" explain "$id" --policy "$p" "$ex" --policies "$pol" --prices "$tmp/prices" \
				--format $f >"$tmp/out" 2>"$tmp/err" ||
				{ bad "explain $id --policy $p --format $f"; cat "$tmp/err"; }
			no_bad_ratio "$id $p $f"
			noline "$id $p $f: nan" '\b(nan|inf)\b'
		done
	done
done

check "usage: --help names json" 0 "$tw" explain --help
expect "usage" "$tmp/out" "--format text|md|json"
expect "usage: same device" "$tmp/out" "same device"
exit $fail
