#!/usr/bin/env bash
# tierwise plan on the published measurements and on small made-up machines:
# the author's conclusions (hot Optane, warm PM9A1 1 TB, cold HDDs) and
# warnings, one disk, two identical drives (RAID), no HDD, an unmeetable
# need, a disk with an existing filesystem, and bad options.
set -u
export COLUMNS=1000	# whole sentences to match; the wrap at 80 is checked by golden.sh
. "$(dirname "$0")/lib.sh"
cli_test_start "$1"
plan() { "$tw" plan --policies "$pol" --no-inventory "$@"; }

# --- the published server ---
check "plan --format json" 0 plan "$ex" --format json
jq_true "schema" '.schema == "tierwise.plan/1"'
jq_true "three tiers in order" '[.tiers[].name] == ["hot", "warm", "cold"]'
jq_true "contract keys" '[.tiers[] | (.policies | type) == "array" and (.devices | type) == "array"
	and (.raid == null or (.raid | type) == "object") and (.estimates | type) == "array"
	and (.score | type) == "number" and (.mount == null or ((.mount.point | type) == "string"
	and (.mount.fs | type) == "string" and (.mount.options | type) == "string"))] | all'
jq_true "hot = the Optane alone" '.tiers[0].devices == ["optane905p"]'
jq_true "hot policies" '.tiers[0].policies | sort == ["logs-metadata", "vector-db"]'
jq_true "warm led by the PM9A1 1 TB" '.tiers[1].devices[0] == "pm9a1-1t"'
jq_true "warm: no HDD" '[.tiers[1].devices[] | test("ironwolf|redpro") | not] | all'
jq_true "cold = the HDDs" '.tiers[2].devices | sort == ["ironwolf12t", "redpro10t"]'
jq_true "proven optimum" '.exact == true'
jq_true "runner-up with a gap" '.runner_up.gap > 0 and (.runner_up.changes | length) > 0'
# warm is linear over three: a file lives on one member, the slowest (the
# 980's 6.7 s) assumed, the PM9A1's 2.9 s shown as the best member
jq_true "18 GB model on warm's linear volume: the slowest member's 6.7 s, 2.9 s on the PM9A1 at best" \
	'[.tiers[1].estimates[] | select(.workload == "load-direct")
	  | (.layout == "linear" and .device == "tw-models" and (.best.value * 10 | round) == 29
	     and .best.device == "pm9a1-1t" and .worst.device == "980-1t" and (.value * 10 | round) == 67)] == [true]'
want=$(jq '[.devices[] | select(.id == "pm9a1-1t" or .id == "980pro-2t" or .id == "980-1t")
	| 18000 / .results.seq_read.mbps] | max' "$ex")
jq_true "the linear estimate is the slowest member's ($want s)" \
	"([.tiers[1].estimates[] | select(.workload == \"load-direct\") | .value][0] - $want | fabs) < 1e-5"
jq_true "10,000-read search on the Optane: 0.12 s, from its QD1 reads" \
	'[.tiers[0].estimates[] | select(.workload == "chain-search") | (.value * 100 | round) == 12
	  and .basis[0] == "rand_read_qd1.iops" and .pattern == "chain" and .via == "mmap"
	  and .madvise == "random" and .reads_per_query == 10000 and .concurrency == 1] == [true]'
jq_true "every estimate: its policy, workload, pattern, parameters, figures, fits" \
	'[.tiers[].estimates[] | (.policy | type) == "string" and (.workload | type) == "string"
	  and (.pattern | IN("chain", "beam", "stream", "write", "restore", "samples"))
	  and has("via") and has("streams") and has("beam_width") and has("reads_per_query")
	  and has("concurrency") and has("size_bytes") and has("seconds") and has("p50_ms")
	  and has("p99_ms") and has("qps") and has("accelerators") and has("fits")] | all'
jq_true "the checkpoint's restore is its own entry" \
	'[.tiers[1].estimates[] | select(.workload == "save") | .pattern] == ["write", "restore"]'
jq_true "the beam: queries/s at its concurrency" \
	'[.tiers[0].estimates[] | select(.workload == "beam-search") | .qps > 1000 and .beam_width == 4
	  and .reads_per_query == 40 and .concurrency == 8] == [true]'
jq_true "unassigned are the other devices" '(.unassigned | length) == 12 and (.unassigned | index("optane905p")) == null'
jq_true "heat: both 970 EVO Plus" '[.warnings[] | select(.kind == "heat") | .device] | contains(["970evoplus-a", "970evoplus-b"])'
jq_true "heat names 83 °C" '[.warnings[] | select(.kind == "heat" and .device == "970evoplus-a") | .message | test("83")] == [true]'
jq_true "write trap: the PC601s" '[.warnings[] | select(.kind == "write-trap") | .device] | contains(["pc601-a", "pc601-b", "pc601-c"])'
jq_true "cache cliff: ShiJi" '[.warnings[] | select(.kind == "cache-cliff") | .device] == ["shiji256"]'
jq_true "no warning for the Optane" '[.warnings[] | select(.device == "optane905p")] == []'
check "plan text" 0 plan "$ex"
expect "text: hot" "$tmp/out" "optane905p     Intel Optane 905P 960GB"
expect "text: runner-up" "$tmp/out" "Runner-up: score"
expect "text: the 18 GB model" "$tmp/out" "an 18 GB model, O_DIRECT in 4 streams (fastsafetensors): 6.7 s (2,684 MB/s) on tw-models [assumes O_DIRECT, 4 streams] (linear volume: a file lives on one member, the slowest assumed; 2.9 s on pm9a1-1t, 6.7 s on 980-1t)"
check "plan md" 0 plan "$ex" --format md
expect "md: tier heading" "$tmp/out" "## hot — "

# --- an unmeetable need ---
check "archive=40T" 0 plan "$ex" --need archive=40T --format json
jq_true "need stated" '[.tiers[2].notes[] | test("archive needs 40.0 TB, [0-9.]+ TB available")] | any'
jq_true "HDDs still lead cold" '.tiers[2].devices[0:2] | sort == ["ironwolf12t", "redpro10t"]'
jq_true "hot and warm untouched" '.tiers[0].devices == ["optane905p"] and .tiers[1].devices[0] == "pm9a1-1t"'

# --- no HDD: the cold tier goes elsewhere and says so ---
jq '.devices |= map(select(.media != "hdd"))' "$ex" >"$tmp/nohdd.json"
check "no HDD" 0 plan "$tmp/nohdd.json" --format json
jq_true "cold still has a device" '(.tiers[2].devices | length) > 0'
jq_true "no-HDD note" '[.tiers[2].notes[] | test("no HDD")] | any'

# --- one disk: every tier still planned, directories on it ---
jq '.devices |= map(select(.id == "pm9a1-1t"))' "$ex" >"$tmp/one.json"
check "one disk" 0 plan "$tmp/one.json" --format json
jq_true "one tier owns it" '[.tiers[] | select(.devices == ["pm9a1-1t"])] | length == 1'
jq_true "the others share it" '[.tiers[] | select(.devices == []) | .shared_with] == ["pm9a1-1t", "pm9a1-1t"]'

# --- two identical NVMe drives in one tier: an md array ---
jq '.devices |= [.[] | select(.id == "optane905p" or .id == "970evoplus-a" or .id == "ironwolf12t")]
	+ [.[] | select(.id == "970evoplus-a") | .id = "970evoplus-twin"]' "$ex" >"$tmp/twins.json"
check "twins" 0 plan "$tmp/twins.json" --format json --need checkpoints=0,archive=9T,model-loading=700G
jq_true "both in warm" '.tiers[1].devices | sort == ["970evoplus-a", "970evoplus-twin"]'
jq_true "raid0 suggested" '.tiers[1].raid.level == "raid0" and (.tiers[1].raid.devices | length) == 2'
jq_true "array bandwidth ≈ the sum" '.tiers[1].raid.seq_read_mbps > 6800 and .tiers[1].raid.seq_read_mbps < 7000'
jq_true "trade-off stated" '.tiers[1].raid.tradeoff | test("no redundancy")'
jq_true "18 GB model on the array" \
	'[.tiers[1].estimates[] | select(.workload == "load-direct") | .device] == ["md-models"]'

# --- four like HDDs in cold: RAID6; two like NVMe in hot: RAID1 ---
jq '.devices |= [.[] | select(.id == "pm9a1-1t")] + [range(4) as $i | .[] | select(.id == "ironwolf12t") | .id = "iw\($i)"]
	+ [range(2) as $i | .[] | select(.id == "optane905p") | .id = "opt\($i)"]' "$ex" >"$tmp/arrays.json"
check "arrays" 0 plan "$tmp/arrays.json" --format json \
	--need archive=19T,vector-db=700G,logs-metadata=0,checkpoints=0,model-loading=500G
jq_true "cold raid6 of four" '.tiers[2].raid.level == "raid6" and (.tiers[2].raid.devices | length) == 4'
jq_true "raid6 capacity: two disks' worth" '.tiers[2].raid.capacity_bytes == 24000000000000'
jq_true "raid6 trade-off" '.tiers[2].raid.tradeoff | test("two disk losses")'
jq_true "hot raid1 of the two Optanes" '.tiers[0].raid.level == "raid1" and (.tiers[0].raid.devices | sort) == ["opt0", "opt1"]'
jq_true "raid1 reads from both (parallel readers)" '(.tiers[0].raid.seq_read_mbps | round) == 5112'
jq_true "one mount for the array" '[.tiers[2].mounts[] | select(.source | test("^/dev/md/"))] | length == 1'
jq_true "usable = the array, 80 %" '.tiers[2].usable_bytes == 19200000000000'
jq_true "runner-up is not a twin swap" '[.runner_up.changes[] | select(.device | test("^iw"))] | length != 2'
# the two Optanes under one PCIe switch, never read together: the array's
# basis says its read assumes the switch's uplink carries both
jq '(.devices[] | select(.id | test("^opt"))) |= (.link = {pcie_address: "0000:05:00.0", speed_gts: 8,
	width: 4, max_speed_gts: 8, max_width: 4, numa_node: 0, upstream: [("0000:04:0" + (.id | ltrimstr("opt")) + ".0"), "0000:03:00.0"]})' \
	"$tmp/arrays.json" >"$tmp/arrays-switch.json"
check "arrays under one switch" 0 plan "$tmp/arrays-switch.json" --format json \
	--need archive=19T,vector-db=700G,logs-metadata=0,checkpoints=0,model-loading=500G
jq_true "hot raid1: the unmeasured bridge in its basis" \
	'.tiers[0].raid.basis | test("opt[01] and opt[01] sit under one PCIe bridge \\(0000:03:00.0\\), not measured together: the sum assumes its uplink carries both")'

# --- like HDDs, not twins (hot and warm take the NVMe spares): the second
# HDD mirrors the archive; a size apart: a mirror at the smaller size ---
jq '.devices |= [.[] | select(.id == "pm9a1-1t" or .id == "970evoplus-a")] + [.[] | select(.id == "ironwolf12t")]
	+ [.[] | select(.id == "ironwolf12t") | .id = "iw-b" | .results.rand_read_qd1.iops *= 0.96]' \
	"$ex" >"$tmp/hddpair.json"
check "like HDDs" 0 plan "$tmp/hddpair.json" --format json \
	--need archive=5T,vector-db=0,logs-metadata=0,checkpoints=0,model-loading=0
jq_true "one meets the need, the other mirrors it" \
	'(.tiers[2].devices | sort) == ["ironwolf12t", "iw-b"] and .tiers[2].raid.level == "raid1"'
jq '(.devices[] | select(.id == "iw-b") | .capacity_bytes) *= 2' "$tmp/hddpair.json" >"$tmp/hddsize.json"
check "same model, twice the size" 0 plan "$tmp/hddsize.json" --format json \
	--need archive=5T,vector-db=0,logs-metadata=0,checkpoints=0,model-loading=0
jq_true "unlike sizes: raid1 at the smaller size, 12 TB unused, said" \
	'.tiers[2].raid.level == "raid1" and .tiers[2].raid.capacity_bytes == 12000000000000
	 and .tiers[2].usable_bytes == 9600000000000
	 and ([.tiers[2].notes[] | test("md raid1 over 2 unlike devices of one media class: md uses each at the smallest.s size \\(12.0 TB\\), so 12.0 TB of their 36.0 TB go unused")] | any)'
jq_true "the idle one joined: said, at no cost" \
	'.mirror_moves == 1 and ([.notes[] | test("^(iw-b|ironwolf12t), idle until then, joins (iw-b|ironwolf12t) in the cold tier as its mirror: the tier.s policies want redundancy$")] | any)'
jq '(.devices[] | select(.id == "iw-b") | .capacity_bytes) = 4000000000000' "$tmp/hddpair.json" >"$tmp/hddsmall.json"
check "a second HDD too small to mirror the need" 0 plan "$tmp/hddsmall.json" --format json \
	--need archive=5T,vector-db=0,logs-metadata=0,checkpoints=0,model-loading=0
jq_true "it stays idle: a mirror at 4 TB would not hold 5 TB" \
	'.tiers[2].devices == ["ironwolf12t"] and .tiers[2].raid == null and .mirror_moves == 0
	 and .unassigned == ["iw-b"]'

# --- a disk with an existing filesystem: reused, never reformatted ---
jq '.devices |= map(select(.id == "pm9a1-1t" or .id == "ironwolf12t") | if .id == "ironwolf12t" then .path = "/dev/sdz" else . end)' \
	"$ex" >"$tmp/data.json"
cat >"$tmp/inv.json" <<'JSON'
{"schema": "tierwise.inventory/1", "devices": [
 {"name": "sdz", "path": "/dev/sdz", "serial": null, "fstype": "xfs",
  "uuid": "0b7c1e6a-3f1e-4c55-9d0e-2b8a6c4d5e6f", "label": "backup", "pttype": null,
  "mountpoints": [], "holders": [], "partitions": [], "swap": false, "root": false}]}
JSON
check "existing fs" 0 "$tw" plan "$tmp/data.json" --policies "$pol" --inventory "$tmp/inv.json" --format json --need archive=9T
jq_true "reused, not reformatted" '[.tiers[2].mounts[] | select(.source == "/dev/sdz") | .reuse and .uuid == "0b7c1e6a-3f1e-4c55-9d0e-2b8a6c4d5e6f" and .fs == "xfs"] == [true]'
jq_true "data warning" '[.warnings[] | select(.kind == "data") | .device] == ["ironwolf12t"]'
sed 's/"fstype": "xfs"/"fstype": "LVM2_member"/' "$tmp/inv.json" >"$tmp/inv-lvm.json"
check "LVM member" 0 "$tw" plan "$tmp/data.json" --policies "$pol" --inventory "$tmp/inv-lvm.json" --format json
jq_true "LVM member left out" '(.unassigned | index("ironwolf12t")) != null and ([.tiers[].devices[]] | index("ironwolf12t")) == null'

# --- a RAM-backed device is never a tier ---
jq '.devices |= map(select(.id == "pm9a1-1t" or .id == "optane905p") | if .id == "optane905p" then .transport = "zram" | .media = "ram" else . end)' \
	"$ex" >"$tmp/zram.json"
check "zram" 0 plan "$tmp/zram.json" --format json
jq_true "zram left out" '.unassigned == ["optane905p"] and ([.warnings[] | select(.kind == "volatile") | .device] == ["optane905p"])'

# --- a model name with a terminal escape sequence: shown as '?', never sent raw ---
jq '.devices |= map(select(.id == "optane905p") | .model = "Evil\u001b[2J\u001b]0;pwned\u0007 Drive")' "$ex" >"$tmp/esc.json"
for fmt in text md; do
	check "escape in a model ($fmt)" 0 plan "$tmp/esc.json" --format "$fmt"
	if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/out"; then
		bad "$fmt output carries a control character"
	fi
	[ "$fmt" = md ] || expect "escape shown as ?" "$tmp/out" "Evil?[2J?]0;pwned? Drive"
done

# --- needs first: two 512 GB drives, only warm needs 800 GB ---
jq '.devices |= [.[] | select(.id == "pm9a1-512-a")] + [.[] | select(.id == "pm9a1-512-a") | .id = "pm9a1-512-twin"]' \
	"$ex" >"$tmp/two.json"
check "needs first" 0 plan "$tmp/two.json" --format json \
	--need vector-db=0,logs-metadata=0,model-loading=800G,checkpoints=0,archive=0
jq_true "both drives in warm, none in hot" '.tiers[1].devices | sort == ["pm9a1-512-a", "pm9a1-512-twin"]'
jq_true "warm: their raid0 (820 GB usable)" '.tiers[1].raid.level == "raid0" and .needs_met == 1 and .needs == 1'
jq_true "hot is a directory" '.tiers[0].devices == [] and .tiers[0].shared_with != null'
check "published warm" 0 plan "$ex" --format json
jq_true "published plan unchanged: warm" '.tiers[1].devices == ["pm9a1-1t", "980pro-2t", "980-1t"] and .needs_met == 3'
jq_true "exact: bound = score" '.exact and .bound == .score'

# --- scale: 200 jittered copies, no device cap; a time limit gives a bound ---
jq '.devices as $d | .devices = [range(200) as $i | $d[$i % ($d | length)] | .id = "\(.id)-\($i)"
	| .capacity_bytes = (.capacity_bytes * (0.9 + (($i * 37) % 21) / 100) | floor)
	| .results |= with_entries(.value |= (if type == "object" and .mbps != null then .mbps *= (0.9 + (($i * 53) % 21) / 100) else . end))]' \
	"$ex" >"$tmp/many.json"
check "200 devices" 0 plan "$tmp/many.json" --format json
jq_true "200 devices: proven" '.exact and (.tiers | map(.devices | length) | add) > 3 and .needs_met == 3'
check "time limit" 0 plan "$tmp/many.json" --format json --time-limit 0.001
jq_true "stopped: a bound, said in a note" '(.exact | not) and .bound >= .score and ([.notes[] | test("time limit.*score at most")] | any)'
check "bad time limit" 2 plan "$ex" --time-limit soon
check "zero time limit" 2 plan "$ex" --time-limit 0

# --- money: prices per TB give each tier its cost and the plan a total ---
printf '%s\n' 'Intel Optane 905P 960GB = 1000' 'Samsung PM9A1 1TB = 90' 'Samsung 980 PRO 2TB = 85' \
	'Samsung 980 1TB = 70' 'Seagate IronWolf 12TB = 20' 'WD Red Pro 10TB = 22' >"$tmp/prices"
check "plan with prices" 0 plan "$ex" --prices "$tmp/prices" --format json
cp "$tmp/out" "$tmp/priced.json"
optane_tb=$(jq '.devices[] | select(.id == "optane905p") | .capacity_bytes / 1e12' "$ex")
jq_true "hot cost = 1,000 × the Optane's TB" "(.tiers[0].cost - 1000 * $optane_tb | fabs) < 1e-6"
jq_true "hot per usable TB = 1,000 ÷ 80 %" '(.tiers[0].cost_per_usable_tb | round) == 1250'
jq_true "cold cost = 20 × 12 + 22 × 10" '(.tiers[2].cost | round) == 460'
jq_true "total = Σ tiers" '(.cost_total - ([.tiers[].cost] | add) | fabs) < 1e-6 and .cost_total > 1700'
check "plan text with prices" 0 plan "$ex" --prices "$tmp/prices"
expect "text: hot cost" "$tmp/out" "score 98.9; cost 960 (1,250 per usable TB)"
expect "text: total" "$tmp/out" "Cost: 1,752 in all"
check "plan md with prices" 0 plan "$ex" --prices "$tmp/prices" --format md
expect "md: total" "$tmp/out" "**Cost: 1,752 in all"
check "plan without prices" 0 plan "$ex" --format json
jq_true "no prices: costs null" '.cost_total == null and ([.tiers[].cost] | all(. == null))'
check "plan text without prices" 0 plan "$ex"
grep -q "Cost" "$tmp/out" && bad "text without prices talks cost"
head -1 "$tmp/prices" >"$tmp/prices1"
check "plan, the Optane priced alone" 0 plan "$ex" --prices "$tmp/prices1" --format json
jq_true "one tier known, the total not" '(.tiers[0].cost | round) == 960 and .tiers[1].cost == null and .cost_total == null'
check "plan text, the Optane priced alone" 0 plan "$ex" --prices "$tmp/prices1"
expect "text: unknown said" "$tmp/out" "cost unknown (3 devices without a price per TB)"

# --- what to buy: catalog models bought up to --max-each times ---
printf '%s\n' 'Biwin NVMe 1TB = 60' 'Lexar NM6A1 512GB = 65' >>"$tmp/prices"
check "buy, no budget" 0 plan "$ex" --prices "$tmp/prices" --buy --format json
cp "$tmp/out" "$tmp/buy.json"
jq_true "the Optane for the vector DB" '[.buy[] | select(.tier == "hot") | .id] == ["optane905p"]'
jq_true "buy lines add up" '(([.buy[].cost] | add) - .cost_total | fabs) < 1e-6 and ([.buy[] | (.count * .price - .cost | fabs) < 1e-6] | all)'
jq_true "needs met, proven" '.needs_met == 3 and .exact and .budget == null and .unassigned == []'
jq_true "within the margin of the best, said" '[.notes[] | test("cheapest plan within 5.0 points of the best score")] | any'
jq_true "what the Optane buys against the best NAND" \
	'[.tiers[0].notes[] | test("optane905p rather than pm9a1-1t.*vector search over mmap 0.119 s against 0.452 s")] | any'
jq_true "unpriced models not for sale" '[.notes[] | test("not for sale here.*pc601-a")] | any'
check "buy text" 0 plan "$ex" --prices "$tmp/prices" --buy
expect "text: a buy line (a mirror: the vector DB has no other copy)" "$tmp/out" \
	"  buy 2 × Intel Optane 905P 960GB (optane905p) at 960 = 1,920"
check "buy, budget 1,500" 0 plan "$ex" --prices "$tmp/prices" --buy --budget 1500 --format json
jq_true "a small budget gets a NAND mirror for hot" \
	'[.buy[] | select(.tier == "hot") | [.id, .count]] == [["pm9a1-1t", 2]] and .tiers[0].raid.level == "raid1"'
jq_true "within the budget, every need met" '.cost_total <= 1500 and .needs_met == 3 and .budget == 1500'
check "buy, budget 1,200" 0 plan "$ex" --prices "$tmp/prices" --buy --budget 1200 --format json
jq_true "1,200: mirrors cost more, what would meet all said" \
	'.cost_total <= 1200 and .needs_met == 2 and ([.notes[] | test("the budget of 1200 meets 2 of the needs; 3 can be met, from a budget of 1284")] | any)'
check "buy, budget 500" 0 plan "$ex" --prices "$tmp/prices" --buy --budget 500 --format json
jq_true "what is missing and what budget would do" \
	'.cost_total <= 500 and .needs_met < 3 and ([.notes[] | test("budget of 500 meets [0-9] of the needs; 3 can be met, from a budget of (at most )?[0-9]+")] | any)'
jq_true "what is missing: the tier note" '[.tiers[].notes[] | test("needs [0-9.]+ TB, [0-9.]+ (TB|GB) available")] | any'
check "buy, one of each" 0 plan "$ex" --prices "$tmp/prices" --buy --max-each 1 --format json
jq_true "max-each 1: counts of 1" '[.buy[].count] | all(. == 1)'
check "--budget without --buy" 2 plan "$ex" --budget 100
check "--max-each 0" 2 plan "$ex" --buy --max-each 0
check "--budget lots" 2 plan "$ex" --buy --budget lots

# --- one volume per tier: unlike devices in one LVM volume ---
check "published volumes" 0 plan "$ex" --format json
jq_true "warm: tw-models over its three devices" \
	'.tiers[1].volume.vg == "tw-models" and .tiers[1].volume.devices == ["pm9a1-1t", "980pro-2t", "980-1t"] and (.tiers[1].mounts | length) == 1 and .tiers[1].mounts[0].source == "/dev/tw-models/models"'
jq_true "linear: the sum" '.tiers[1].volume.capacity_bytes == 1023275958272 + 2000381018112 + 999653638144'
jq_true "hot, one device: no volume" '.tiers[0].volume == null'
jq_true "cold volume: its failure domain, said" '[.tiers[2].notes[] | test("failure domain: 2 devices in one linear volume: one failed device loses all of it; no redundancy, wanted by archive")] | any'
jq '.devices |= [.[] | select(.id == "pm9a1-1t" or .id == "980-1t") | if .id == "980-1t" then .results.seq_read.mbps = 6000 else . end]' \
	"$ex" >"$tmp/stripe.json"
check "alike unlike devices" 0 plan "$tmp/stripe.json" --format json \
	--need model-loading=1.5T,checkpoints=0,vector-db=0,logs-metadata=0,archive=0
jq_true "striped, two × the smallest" '.tiers[1].volume.layout == "striped" and .tiers[1].volume.capacity_bytes == 2 * 999653638144'
jq_true "striped: why" '.tiers[1].volume.why | test("alike in size and sequential read")'
jq_true "striped, no link: 18 GB O_DIRECT at 2 × 6,000 MB/s, 4 accelerators" \
	'[.tiers[1].estimates[] | select(.workload == "load-direct" or .workload == "unet3d") | .value] == [1.5, 4]'
# the two share a measured link that reads 7,000 MB/s together: the
# volume's reads get that, and the plan says so
jq '.links = [{devices: ["pm9a1-1t", "980-1t"], solo_sum_mbps: 12193, together_mbps: 7000}]' \
	"$tmp/stripe.json" >"$tmp/stripelink.json"
check "a striped volume over a shared link" 0 plan "$tmp/stripelink.json" --format json \
	--need model-loading=1.5T,checkpoints=0,vector-db=0,logs-metadata=0,archive=0
jq_true "capped: 18 GB at 7,000 MB/s (2.57 s), 2 accelerators, said" \
	'[.tiers[1].estimates[] | select(.workload == "load-direct" or .workload == "unet3d")
	  | [(.value * 100 | round), (.how | test("reads capped to 58 %: members of the volume share a link that read 7000 MB/s together"))]]
	 == [[257, true], [200, true]]'
jq_true "a checkpoint's write is not capped by a read link, its restore is" \
	'[.tiers[1].estimates[] | select(.workload == "save") | [.pattern, (.mbps | round)]] == [["write", 4720], ["restore", 6388]]'
# under one PCIe switch, not measured together: the sum is assumed, said
jq '.devices |= map(.link = {pcie_address: "0000:0\(if .id == "980-1t" then 3 else 4 end):00.0", speed_gts: 16,
	width: 4, max_speed_gts: 16, max_width: 4, numa_node: 0,
	upstream: ["0000:02:0\(if .id == "980-1t" then 1 else 2 end).0", "0000:01:00.0", "0000:00:01.0"]})' \
	"$tmp/stripe.json" >"$tmp/switch.json"
check "a striped volume under one switch" 0 plan "$tmp/switch.json" --format json \
	--need model-loading=1.5T,checkpoints=0,vector-db=0,logs-metadata=0,archive=0
jq_true "the shared, unmeasured bridge said; the estimate not capped" \
	'([.tiers[1].notes[] | test("^tw-models/models is striped over (pm9a1-1t|980-1t) and (pm9a1-1t|980-1t), which sit under one PCIe bridge \\(0000:01:00.0\\), not measured together")] | any)
	 and [.tiers[1].estimates[] | select(.workload == "load-direct") | .value] == [1.5]'
jq '.links = [{devices: ["pm9a1-1t", "980-1t"], solo_sum_mbps: 12193, together_mbps: 7000}]' \
	"$tmp/switch.json" >"$tmp/switchlink.json"
check "under one switch, measured" 0 plan "$tmp/switchlink.json" --format json \
	--need model-loading=1.5T,checkpoints=0,vector-db=0,logs-metadata=0,archive=0
jq_true "measured: the cap, no 'not measured' note" \
	'([.tiers[1].notes[] | test("not measured together")] | any | not)
	 and [.tiers[1].estimates[] | select(.workload == "load-direct") | (.value * 100 | round)] == [257]'
check "a striped volume over a shared link, text" 0 plan "$tmp/stripelink.json" \
	--need model-loading=1.5T,checkpoints=0,vector-db=0,logs-metadata=0,archive=0
expect "the cap said in the estimate" "$tmp/out" "reads capped to 58 %: members share a link that read 7000 MB/s together"
jq '.devices |= [.[] | select(.id == "pm9a1-512-a" or .id == "980-1t")] + [.[] | select(.id == "pm9a1-512-a") | .id = "pm9a1-512-twin"]' \
	"$ex" >"$tmp/arrvol.json"
check "array in a volume" 0 plan "$tmp/arrvol.json" --format json \
	--need model-loading=1.5T,checkpoints=0,vector-db=0,logs-metadata=0,archive=0
jq_true "the md array is one physical volume" '.tiers[1].raid.level == "raid0" and (.tiers[1].volume.devices | sort) == ["980-1t", "md-models"]'
check "array in a volume: script" 0 plan "$tmp/arrvol.json" --format script \
	--need model-loading=1.5T,checkpoints=0,vector-db=0,logs-metadata=0,archive=0
bash -n "$tmp/out" || bad "array in a volume: bash -n"

# --- every JSON plan above against docs/tierwise.plan-1.schema.json ---
if python3 -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
	for f in "$ex" "$tmp/nohdd.json" "$tmp/one.json" "$tmp/twins.json" "$tmp/zram.json" "$tmp/two.json" "$tmp/arrvol.json" "$tmp/stripe.json" priced buy; do
		case $f in
		priced|buy) cp "$tmp/$f.json" "$tmp/plan.json" ;;
		*) plan "$f" --format json >"$tmp/plan.json" ;;
		esac
		python3 - "$src/docs/tierwise.plan-1.schema.json" "$tmp/plan.json" <<'PY' || fail=1
import json, sys
from jsonschema import Draft202012Validator
v = Draft202012Validator(json.load(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
errs = list(v.iter_errors(doc))
for e in errs[:5]:
    print("FAIL: schema:", list(e.absolute_path), e.message[:200])
bad = dict(doc); bad["tiers"] = doc["tiers"][:2]
if v.is_valid(bad):
    print("FAIL: schema accepts a plan with two tiers"); sys.exit(1)
sys.exit(1 if errs else 0)
PY
	done
else
	echo "note: python3-jsonschema (draft 2020-12) missing: schema check skipped"
fi

# --- bad input ---
check "unknown policy in --need" 1 plan "$ex" --need nosuch=1T
expect "names the policy" "$tmp/err" "nosuch"
check "bad size" 2 plan "$ex" --need archive=lots
check "bad format" 2 plan "$ex" --format pdf
# --- needs unmet: said, listed in JSON, exit 6 with --strict ---
# Two NAND drives for three needs: the warm tier short, the archive a
# directory on the hot tier's drive (no device of its own).
jq '.devices |= map(select(.id == "pm9a1-512-a" or .id == "980-1t"))' "$ex" >"$tmp/two.json"
unmet=(--need vector-db=300G,archive=10T,model-loading=4T)
check "two drives, three needs" 0 plan "$tmp/two.json" "${unmet[@]}"
expect "the archive's directory said as an unmet need" "$tmp/out" \
	"cold tier: archive needs 10.0 TB and has no device of its own: a directory on 980-1t, which the hot tier holds (/srv/vector-db), shares its space; the plan does not meet this need"
expect "the warm tier short" "$tmp/out" "warm tier: checkpoints + model-loading needs 6.0 TB, only 409 GB usable"
check "two drives, --strict" 6 plan "$tmp/two.json" "${unmet[@]}" --strict
expect "--strict says why" "$tmp/err" "tierwise plan: 2 of 3 needs unmet (--strict; see the need warnings)"
line "--strict still prints the plan" "^cold  archive — need 10.0 TB \(archive\), usable 0 GB"
check "two drives, json, --strict" 6 plan "$tmp/two.json" "${unmet[@]}" --strict --format json
jq_true "JSON: needs - needs_met tiers unmet, each with its shortfall" \
	'.needs == 3 and .needs_met == 1 and (.unmet | length) == 2
	 and .unmet[0] == {"tier": "warm", "need_bytes": 6000000000000, "usable_bytes": .tiers[1].usable_bytes,
	                   "short_bytes": (6000000000000 - .tiers[1].usable_bytes), "shared": false}
	 and .unmet[1] == {"tier": "cold", "need_bytes": 10000000000000, "usable_bytes": 0,
	                   "short_bytes": 10000000000000, "shared": true}
	 and ([.warnings[] | select(.kind == "need")] | length) == 2'
# --- a tier's need shown as its parts, defaults marked (text and JSON) ---
check "vector-db=700G" 0 plan "$ex" --need vector-db=700G
line "hot: the need's parts, the default marked" \
	"^hot   logs-metadata, vector-db — need 900 GB = vector-db 700 GB \+ logs-metadata 200 GB \(default\), usable "
line "cold: one part, its default" "^cold  archive — need 10.0 TB \(archive, default\), usable "
check "vector-db=700G, json" 0 plan "$ex" --need vector-db=700G,training-data=0 --format json
jq_true "JSON: each tier's needs, the largest first, 0 last, default or given" \
	'.tiers[0].needs == [{"policy": "vector-db", "bytes": 700000000000, "default": false},
	                     {"policy": "logs-metadata", "bytes": 200000000000, "default": true}]
	 and .tiers[1].needs[-1] == {"policy": "training-data", "bytes": 0, "default": false}
	 and all(.tiers[]; .need_bytes == ([.needs[].bytes] | add))'

check "the published server, --strict: every need met" 0 plan "$ex" --strict --format json
jq_true "JSON: nothing unmet" '.unmet == [] and .needs_met == .needs'

check "bad tier" 2 plan "$ex" --mount tepid=/srv/x
check "no profile" 2 "$tw" plan
check "bad inventory" 1 "$tw" plan "$ex" --policies "$pol" --inventory "$ex"
expect "inventory schema named" "$tmp/err" "tierwise.inventory/1"
exit $fail
