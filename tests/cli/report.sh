#!/usr/bin/env bash
# tierwise report: one self-contained HTML file.  On the published
# measurements (18 devices): no script, nothing fetched, one bar chart per key
# metric with exactly one bar per device and the right values, the table
# coloured by tier, the plan with the Optane in the hot tier, from the
# advisor and from a tierwise.plan/1 file; the cost per tier and per usable
# TB and a buy plan's shopping list equal the plan JSON's, bought devices are
# "to buy"; a plan that is not one or not of these profiles fails with one
# line; every string escaped; a profile
# with a queue-depth sweep and sustained-write series (tests/fixtures/report)
# gets its knee and cache-cliff markers; bad input and usage exit codes.
# With chromium installed: the rendered DOM has the same counts, the page
# logs no console error (the detector is first shown to catch one), and a
# screenshot is kept in $TW_ARTIFACT_DIR/report.png (default: next to the
# binary, in the build tree).
set -u
tw=$1
src=${TW_SRCDIR:?}
ex=$src/examples/ai-server-18-devices.json
fx=$src/tests/fixtures/report/sweep-sustained.json
pol=$src/policies
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"
metrics="seq_read.mbps seq_write.mbps sustained_write.mbps rand_read_qd1.iops
	rand_read_qd1.lat_us.p99 rand_read_qd32.iops mixed_70_30.iops"

bad() { echo "FAIL: $*"; fail=1; }

# has DESCRIPTION FILE STRING — like expect, without printing a whole page
has() { grep -qF -- "$3" "$2" || bad "$1: $(basename "$2") lacks '$3'"; }

# same DESCRIPTION GOT WANT
same() { [ "$2" = "$3" ] || bad "$1: got '$2', wanted '$3'"; }

# count FILE FIXED-STRING — occurrences (not lines)
count() { grep -oF -- "$2" "$1" | wc -l; }

# chart FILE METRIC — the <svg> element of one bar chart, one tag per line
chart() {
	tr '\n' ' ' <"$1" | sed 's/</\n</g' |
		awk -v m="data-metric=\"$2\"" 'index($0, "<svg") && index($0, m) {on = 1}
			on {print} on && index($0, "</svg") {exit}'
}

# tier FILE NAME — the plan's card of one tier
tier() {
	tr '\n' ' ' <"$1" | sed 's/</\n</g' |
		awk -v t="data-tier=\"$2\"" 'index($0, t) {on = 1; next}
			on && index($0, "data-tier=") {exit} on {print}'
}

# bars_ok LABEL FILE — each metric: one chart, one bar per device of $ex
bars_ok() {
	local m ids got
	ids=$(jq -r '.devices[].id' "$ex" | sort | tr '\n' ' ')
	for m in $metrics; do
		same "$1: charts of $m" "$(count "$2" "data-metric=\"$m\"")" 1
		chart "$2" "$m" >"$tmp/chart"
		same "$1: $m bars" "$(grep -c '^<rect class="bar' "$tmp/chart")" 18
		got=$(sed -n 's/^<rect class="bar[^"]*" data-device="\([^"]*\)".*/\1/p' "$tmp/chart" |
			sort | tr '\n' ' ')
		same "$1: $m: one bar per device" "$got" "$ids"
	done
}

# hot_optane LABEL FILE — the plan names optane905p in the hot tier (only)
hot_optane() {
	tier "$2" hot >"$tmp/hot"
	same "$1: hot tier devices" "$(sed -n 's/^<li data-device="\([^"]*\)".*/\1/p' "$tmp/hot")" \
		optane905p
	tier "$2" warm >"$tmp/warm"
	grep -q '^<li data-device="pm9a1-1t"' "$tmp/warm" || bad "$1: pm9a1-1t not in warm"
}

# bar_value FILE METRIC DEVICE — data-value of that bar
bar_value() {
	chart "$1" "$2" | sed -n "s/^<rect class=\"bar[^\"]*\" data-device=\"$3\" data-value=\"\([^\"]*\)\".*/\1/p"
}

# --- the published server, the plan from the advisor -----------------------
check "report" 0 "$tw" report "$ex" --policies "$pol" -o "$tmp/r.html"
r=$tmp/r.html
[ -s "$r" ] || bad "report: empty file"
grep -qi '<script' "$r" && bad "report: has a <script"
sed -E 's/xmlns(:[a-z]+)?="[^"]*"//g' "$r" | grep -qiE 'https?://' && bad "report: refers to http(s)://"
grep -qiE '<link|<img|<iframe|<object|@import| src=' "$r" && bad "report: loads a resource"
grep -oE 'url\([^)]*\)' "$r" | grep -vq '^url(#' && bad "report: url() outside the document"
has "report: print styles" "$r" "@media print"
bars_ok "report" "$r"
same "QD1 IOPS: Optane's value" "$(bar_value "$r" rand_read_qd1.iops optane905p)" 83989
same "QD1 IOPS: Optane first" \
	"$(chart "$r" rand_read_qd1.iops | grep -m1 '^<rect class="bar' | grep -c optane905p)" 1
same "QD32 IOPS: PM9A1 first" \
	"$(chart "$r" rand_read_qd32.iops | grep -m1 '^<rect class="bar' | grep -c pm9a1-1t)" 1
same "seq read of the PM9A1" "$(bar_value "$r" seq_read.mbps pm9a1-1t)" 6193
same "p99: 4 measured" "$(chart "$r" rand_read_qd1.lat_us.p99 | grep -c '^<rect class="bar tier-')" 4
same "p99: 14 empty slots" "$(chart "$r" rand_read_qd1.lat_us.p99 | grep -c '^<rect class="bar empty"')" 14
same "p99: empty slots labelled" \
	"$(chart "$r" rand_read_qd1.lat_us.p99 | grep -c '^<text class="empty-label"')" 14
same "p99 of the IronWolf" "$(bar_value "$r" rand_read_qd1.lat_us.p99 ironwolf12t)" 16318
chart "$r" seq_read.mbps | grep -q 'data-scale="log"' || bad "seq_read: 6193/256 > 20 but not log"
chart "$r" seq_read.mbps | grep -q '(log scale)' || bad "seq_read: axis does not say log scale"
same "optane bar coloured hot" \
	"$(chart "$r" rand_read_qd1.iops | grep -c '^<rect class="bar tier-hot" data-device="optane905p"')" 1
same "table rows" "$(count "$r" '<tr class="tier-')" 18
has "table: Optane row hot" "$r" '<tr class="tier-hot" data-device="optane905p">'
has "table: PM9A1 row warm" "$r" '<tr class="tier-warm" data-device="pm9a1-1t">'
has "table: IronWolf row cold" "$r" '<tr class="tier-cold" data-device="ironwolf12t">'
has "table: ShiJi row none" "$r" '<tr class="tier-none" data-device="shiji256">'
has "table: Optane p50" "$r" '<td class="num">83,989</td><td class="num">11</td><td class="num">22</td>'
has "table: 970 EVO Plus temperatures" "$r" '<td class="num">52 / 83</td>'
hot_optane "report" "$r"
has "plan: search estimate, with its rate and tail" "$r" \
	'<strong>0.12 s</strong>, 8.4 queries/s, p99 0.12 s a query on optane905p'
has "plan: the beam in queries/s" "$r" '<strong>0.55 ms</strong>, 14,529 queries/s on optane905p'
has "plan: a load at its rate" "$r" '<strong>7.0 s</strong> at 2,574 MB/s on tw-models'
# the estimate as the plan has it (render_estimate(): 2.9 s, 12 s, 0.45 s)
"$tw" plan "$ex" --policies "$pol" --no-inventory --format json >"$tmp/plan.json" ||
	bad "plan --format json failed"
est=$(jq -c '[.tiers[1].estimates[] | select(.workload == "load-direct")][0]' \
	"$tmp/plan.json")
v=$(echo "$est" | jq .value | awk '{ if ($1 >= 10) f = "%.0f"; else if ($1 >= 1) f = "%.1f"; else f = "%.2f"
	printf f, $1 }')
has "plan: 18 GB model, as the plan has it" "$r" \
	"$(echo "$est" | jq -r .label): <strong>$v s</strong> at $(echo "$est" | jq -r '.mbps | round | tostring | if length > 3 then .[:-3] + "," + .[-3:] else . end') MB/s on $(echo "$est" | jq -r .device)"
has "plan: cache-cliff warning" "$r" '<tr data-kind="cache-cliff" data-device="shiji256">'
has "plan: mount" "$r" '<code>/srv/vector-db</code>'
grep -qE 'id="(sweep|sustained)"' "$r" && bad "report: sweep/sustained sections without data"

# --- the plan from a tierwise.plan/1 file -----------------------------------
check "report --plan" 0 "$tw" report "$ex" --plan "$tmp/plan.json" -o "$tmp/p.html"
bars_ok "report --plan" "$tmp/p.html"
hot_optane "report --plan" "$tmp/p.html"
has "--plan: names its source" "$tmp/p.html" "From $tmp/plan.json."
has "--plan: estimate, from the plan file's workload figures" "$tmp/p.html" \
	'<strong>0.12 s</strong>, 8.4 queries/s, p99 0.12 s a query on optane905p'
has "--plan: warning" "$tmp/p.html" '<tr data-kind="write-trap" data-device="pc601-a">'
has "--plan: mount" "$tmp/p.html" '<code>/srv/models</code>'
# the need's parts, defaults marked, from the plan file and from the plan made
for f in "$tmp/p.html" "$r"; do
	has "the hot need's parts" "$f" \
		'need 700 GB = vector-db 500 GB (default) + logs-metadata 200 GB (default) · usable'
	has "the cold need's one part" "$f" 'need 10.0 TB (archive, default) · usable'
done
same "--plan: same warnings as the advisor" "$(count "$tmp/p.html" '<tr data-kind=')" \
	"$(count "$r" '<tr data-kind=')"
grep -q 'class="cost' "$tmp/p.html" && bad "--plan without prices: talks cost"
grep -q '<h3>To buy</h3>' "$tmp/p.html" && bad "--plan, no buy plan: a shopping list"

# one_error DESCRIPTION — the failed command said one line, naming the plan file
one_error() {
	same "$1: one line on stderr" "$(wc -l <"$tmp/err")" 1
	grep -qF -- "$2" "$tmp/err" || bad "$1: the message does not name $2: $(cat "$tmp/err")"
	[ -e "$tmp/o.html" ] && bad "$1: a report was written"
	rm -f "$tmp/o.html"
}
jq '.tiers[0].needs = [{"policy": "vector-db", "bytes": -5, "default": true}]' "$tmp/plan.json" >"$tmp/other.json"
check "--plan with a bad need" 1 "$tw" report "$ex" --plan "$tmp/other.json" -o "$tmp/o.html"
one_error "--plan with a bad need" "hot.needs[0]: expected {policy, bytes >= 0, default}"
jq '.tiers[0].devices = ["no-such-disk"]' "$tmp/plan.json" >"$tmp/other.json"
check "--plan of other devices" 1 "$tw" report "$ex" --plan "$tmp/other.json" -o "$tmp/o.html"
one_error "--plan of other devices" "$tmp/other.json"
expect "--plan of other devices: said" "$tmp/err" \
	"the plan does not match the profiles: 1 device it names is not in them (no-such-disk)"
check "--plan of another machine" 1 "$tw" report "$fx" --plan "$tmp/plan.json" -o "$tmp/o.html"
one_error "--plan of another machine" "$tmp/plan.json"
expect "--plan of another machine: how many" "$tmp/err" "18 devices it names are not in them"
check "--plan given a profile" 1 "$tw" report "$ex" --plan "$ex" -o "$tmp/o.html"
one_error "--plan given a profile" "$ex"
expect "--plan given a profile: said" "$tmp/err" '"schema" is "tierwise.profile/1": a profile'
echo '{"schema": "tierwise.score/1"}' >"$tmp/wrong.json"
check "--plan wrong schema" 1 "$tw" report "$ex" --plan "$tmp/wrong.json" -o "$tmp/x.html"
expect "--plan wrong schema" "$tmp/err" "not a tierwise.plan/1 document"

# --- money: cost per tier and per usable TB; a buy plan's list ----------------
# commas N — 1752 → 1,752 (the report's thousands)
commas() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
# cents JSON FILTER — the figure to the cent, as the report's data-* attributes
cents() { printf '%.2f' "$(jq -r "$2" "$1")"; }
# attr FILE ELEMENT-PREFIX NAME — an attribute of the first element so opening
attr() { grep -oF -- "$2" "$1" >/dev/null || { echo "(none)"; return; }
	tr '\n' ' ' <"$1" | sed 's/</\n</g' | grep -m1 -F -- "$2" |
		sed -n "s/.* $3=\"\([^\"]*\)\".*/\1/p"; }
printf '%s\n' 'Intel Optane 905P 960GB = 1000' 'Samsung PM9A1 1TB = 90' 'Samsung 980 PRO 2TB = 85' \
	'Samsung 980 1TB = 70' 'Seagate IronWolf 12TB = 20' 'WD Red Pro 10TB = 22' >"$tmp/prices"
"$tw" plan "$ex" --policies "$pol" --no-inventory --prices "$tmp/prices" --format json \
	>"$tmp/priced.json" || bad "plan --prices failed"
check "priced plan" 0 "$tw" report "$ex" --plan "$tmp/priced.json" -o "$tmp/m.html"
m=$tmp/m.html
same "priced: only the line saying what was written" "$(cat "$tmp/err")" \
	"tierwise report: wrote $m: 18 devices of 1 profile, with the plan"
same "priced: one cost table" "$(count "$m" '<table class="small costs">')" 1
k=0
for t in hot warm cold; do
	same "$t cost = the plan's" "$(attr "$m" "<tr data-of=\"$t\"" data-cost)" \
		"$(cents "$tmp/priced.json" ".tiers[$k].cost")"
	same "$t per usable TB = the plan's" "$(attr "$m" "<tr data-of=\"$t\"" data-per-tb)" \
		"$(cents "$tmp/priced.json" ".tiers[$k].cost_per_usable_tb")"
	c=$(commas "$(jq '.tiers['$k'].cost | round' "$tmp/priced.json")")
	per=$(commas "$(jq '.tiers['$k'].cost_per_usable_tb | round' "$tmp/priced.json")")
	tier "$m" $t | grep -qF "<span class=\"cost\">cost $c ($per per usable TB)" ||
		bad "$t card: no 'cost $c ($per per usable TB)'"
	k=$((k + 1))
done
has "priced: the hot tier's figures (plan.sh's)" "$m" \
	'<td>hot</td><td class="num">1</td><td class="num">768 GB</td><td class="num">960</td><td class="num">1,250</td>'
same "priced: the total = the plan's" "$(attr "$m" '<tr data-of="all"' data-cost)" \
	"$(cents "$tmp/priced.json" .cost_total)"
usable_tb=$(jq '[.tiers[] | select(.devices | length > 0) | .usable_bytes] | add / 1e12' "$tmp/priced.json")
same "priced: the total per usable TB" "$(attr "$m" '<tr data-of="all"' data-per-tb)" \
	"$(cents "$tmp/priced.json" ".cost_total / $usable_tb")"
has "priced: the total in the summary" "$m" '<strong class="cost-total">Cost: 1,752 in all</strong>'
grep -q '<h3>To buy</h3>' "$m" && bad "priced, no buy plan: a shopping list"
head -1 "$tmp/prices" >"$tmp/prices1"
"$tw" plan "$ex" --policies "$pol" --no-inventory --prices "$tmp/prices1" --format json \
	>"$tmp/priced1.json" || bad "plan --prices (one) failed"
check "the Optane priced alone" 0 "$tw" report "$ex" --plan "$tmp/priced1.json" -o "$tmp/m1.html"
same "priced alone: hot known" "$(attr "$tmp/m1.html" '<tr data-of="hot"' data-cost)" \
	"$(cents "$tmp/priced1.json" '.tiers[0].cost')"
same "priced alone: warm unknown" "$(attr "$tmp/m1.html" '<tr data-of="warm"' data-cost)" ""
has "priced alone: warm card says so" "$tmp/m1.html" " · cost unknown: a device has no price per TB"
has "priced alone: the total unknown" "$tmp/m1.html" "Cost unknown: a device in a tier has no price per TB"
same "priced alone: no total" "$(attr "$tmp/m1.html" '<tr data-of="all"' data-cost)" ""
# prices in the profiles, the plan from the advisor in-process
jq '.devices |= map(if .id == "optane905p" then .price_per_tb = 1000 else . end)' "$ex" >"$tmp/pp.json"
check "price_per_tb in the profile" 0 "$tw" report "$tmp/pp.json" --policies "$pol" -o "$tmp/pp.html"
has "advisor: the hot tier's cost" "$tmp/pp.html" '<span class="cost">cost 960 (1,250 per usable TB)</span>'
same "advisor: hot cost" "$(attr "$tmp/pp.html" '<tr data-of="hot"' data-cost)" \
	"$(cents "$tmp/priced.json" '.tiers[0].cost')"

# the buy plan: the profile is the catalog, its devices copies ("optane905p-1")
printf '%s\n' 'Biwin NVMe 1TB = 60' 'Lexar NM6A1 512GB = 65' >>"$tmp/prices"
"$tw" plan "$ex" --policies "$pol" --prices "$tmp/prices" --buy --format json >"$tmp/buy.json" ||
	bad "plan --buy failed"
b=$tmp/b.html
check "buy plan" 0 "$tw" report "$ex" --plan "$tmp/buy.json" -o "$b"
same "buy plan: only the line saying what was written" "$(cat "$tmp/err")" \
	"tierwise report: wrote $b: 18 devices of 1 profile, with the plan"
grep -q 'not in the profiles' "$b" && bad "buy plan: a bought device 'not in the profiles'"
n_bought=$(jq '[.tiers[].devices[]] | length' "$tmp/buy.json")
[ "$n_bought" -ge 5 ] || bad "buy plan: only $n_bought devices bought"
same "buy plan: every bought device to buy" "$(count "$b" '<span class="to-buy">to buy</span>')" "$n_bought"
same "buy plan: the hot copies (a mirror), their catalog entry" \
	"$(tier "$b" hot | sed -n 's/^<li data-device="\([^"]*\)" data-buy="\([^"]*\)".*/\1 \2/p')" \
	"optane905p-1 optane905p
optane905p-2 optane905p"
has "buy plan: the copy's model" "$b" \
	'<strong>optane905p-1</strong> Intel Optane 905P 960GB <span class="to-buy">to buy</span>'
same "buy plan: one list" "$(count "$b" '<table class="small buy">')" 1
same "buy plan: a row per line" "$(count "$b" '<tr data-buy=')" "$(jq '.buy | length' "$tmp/buy.json")"
jq -r '.buy[] | "\(.id) \(.tier) \(.count)"' "$tmp/buy.json" >"$tmp/want-buy"
tr '\n' ' ' <"$b" | sed 's/</\n</g' | sed -n \
	's/^<tr data-buy="\([^"]*\)" data-of="\([^"]*\)" data-count="\([^"]*\)".*/\1 \2 \3/p' >"$tmp/got-buy"
same "buy plan: rows = the plan's lines, in order" "$(cat "$tmp/got-buy")" "$(cat "$tmp/want-buy")"
k=0
while read -r id t n; do
	same "buy $id: unit price" "$(attr "$b" "<tr data-buy=\"$id\" data-of=\"$t\"" data-price)" \
		"$(cents "$tmp/buy.json" ".buy[$k].price")"
	same "buy $id: total" "$(attr "$b" "<tr data-buy=\"$id\" data-of=\"$t\"" data-cost)" \
		"$(cents "$tmp/buy.json" ".buy[$k].cost")"
	k=$((k + 1))
done <"$tmp/want-buy"
has "buy plan: the Optane line" "$b" '<td>Intel Optane 905P 960GB</td><td><code>optane905p</code></td><td>hot</td><td class="num">2</td><td class="num">960</td><td class="num">1,920</td>'
same "buy plan: the sum's count" "$(attr "$b" '<tr class="sum"' data-count)" \
	"$(jq '[.buy[].count] | add' "$tmp/buy.json")"
same "buy plan: the sum" "$(attr "$b" '<tr class="sum"' data-cost)" \
	"$(cents "$tmp/buy.json" '[.buy[].cost] | add')"
same "buy plan: the sum = the plan's total" "$(attr "$b" '<tr class="sum"' data-cost)" \
	"$(cents "$tmp/buy.json" .cost_total)"
has "buy plan: the sum shown" "$b" \
	"<td class=\"num\">$(commas "$(jq '.cost_total | round' "$tmp/buy.json")")</td></tr></tfoot>"
has "buy plan: table row of the catalog's Optane" "$b" '<tr class="tier-hot" data-device="optane905p">'
has "buy plan: 3 PM9A1 to buy" "$b" \
	"<span class=\"to-buy\" data-count=\"$(jq '[.buy[] | select(.id == "pm9a1-1t") | .count] | add' "$tmp/buy.json")\">"
same "buy plan: the Optane bar coloured hot" \
	"$(chart "$b" rand_read_qd1.iops | grep -c '^<rect class="bar tier-hot" data-device="optane905p"')" 1
"$tw" plan "$ex" --policies "$pol" --prices "$tmp/prices" --buy --budget 1200 --format json \
	>"$tmp/buy1200.json" || bad "plan --buy --budget failed"
check "buy plan, budget 1,200" 0 "$tw" report "$ex" --plan "$tmp/buy1200.json" -o "$tmp/b2.html"
has "budget shown" "$tmp/b2.html" '<p class="budget" data-budget="1200.00">Budget 1,200.</p>'
same "budget: the sum" "$(attr "$tmp/b2.html" '<tr class="sum"' data-cost)" \
	"$(cents "$tmp/buy1200.json" '[.buy[].cost] | add')"
# a buy plan against a catalog without one of its models: one error, exit 1
jq '.devices |= map(select(.id != "optane905p"))' "$ex" >"$tmp/no-optane.json"
check "buy plan, another catalog" 1 "$tw" report "$tmp/no-optane.json" --plan "$tmp/buy.json" -o "$tmp/o.html"
one_error "buy plan, another catalog" "$tmp/buy.json"
expect "buy plan, another catalog: names the model" "$tmp/err" \
	"1 device it names is not in them (optane905p)"
echo '{"schema": "tierwise.plan/1", "tiers": [' >"$tmp/broken.json"
check "--plan not JSON" 1 "$tw" report "$ex" --plan "$tmp/broken.json" -o "$tmp/x.html"
jq '.tiers[1].devices = "pm9a1-1t"' "$tmp/plan.json" >"$tmp/type.json"
check "--plan wrong type" 1 "$tw" report "$ex" --plan "$tmp/type.json" -o "$tmp/x.html"
expect "--plan wrong type" "$tmp/err" "warm.devices: expected an array of strings"
check "--plan missing" 1 "$tw" report "$ex" --plan "$tmp/none.json" -o "$tmp/x.html"
[ -e "$tmp/x.html" ] && bad "a failed report left $tmp/x.html"

# --- no plan, stdout, exit codes ------------------------------------------
check "--no-plan -o -" 0 "$tw" report "$ex" --no-plan -o -
same "-o -: HTML on stdout" "$(head -c 15 "$tmp/out")" "<!DOCTYPE html>"
grep -q 'id="plan"' "$tmp/out" && bad "--no-plan: has a plan section"
same "--no-plan: rows uncoloured" "$(count "$tmp/out" '<tr class="tier-none"')" 18
check "no -o" 2 "$tw" report "$ex"
check "--plan and --no-plan" 2 "$tw" report "$ex" --plan "$tmp/plan.json" --no-plan -o -
check "no profile" 2 "$tw" report -o -
check "unknown option" 2 "$tw" report "$ex" --bogus -o -
check "--help" 0 "$tw" report --help
expect "--help example" "$tmp/out" "Example: tierwise report"
check "invalid profile" 1 "$tw" report "$tmp/wrong.json" --no-plan -o "$tmp/x.html"
check "unwritable output" 3 "$tw" report "$ex" --no-plan -o "$tmp/no/such/dir/r.html"

# --- every string escaped ---------------------------------------------------
jq --arg m "<script>alert('x')</script> & \"q\"" --arg id "biwin<1t>&\"x'" \
	'.devices |= map(if .id == "pm9a1-1t" then .model = $m
		elif .id == "biwin1t" then .id = $id else . end)' "$ex" >"$tmp/esc.json"
check "escaping" 0 "$tw" report "$tmp/esc.json" --policies "$pol" -o "$tmp/e.html"
grep -qi '<script' "$tmp/e.html" && bad "escaping: a model became a <script>"
has "escaping: model" "$tmp/e.html" "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
same "escaping: id in attributes" "$(count "$tmp/e.html" 'data-device="biwin&lt;1t&gt;&amp;&quot;x&#39;"')" 8

# --- the iorate curve, latency against delivered IOPS -----------------------
jq '(.devices[] | select(.id == "nvme0n1") | .results.iorate) = [
	{"pct": 10, "offered_iops": 10000, "iops": 9990, "lat_us": {"p50": 50, "p99": 80}},
	{"pct": 50, "offered_iops": 50000, "iops": 49900, "lat_us": {"p50": 60, "p99": 120}},
	{"pct": 100, "offered_iops": 100000, "iops": 90000, "lat_us": {"p50": 900, "p99": 4000}},
	{"pct": 110, "offered_iops": 110000, "iops": 91000, "lat_us": {"p50": 30000, "p99": 90000}}]' \
	"$fx" >"$tmp/iorate.json"
check "iorate: validates" 0 "$tw" validate "$tmp/iorate.json"
check "iorate: report" 0 "$tw" report "$tmp/iorate.json" --policies "$pol" -o "$tmp/i.html"
i=$tmp/i.html
same "iorate: one chart" "$(count "$i" '<svg class="chart iorate"')" 1
same "iorate: p99 and p50 lines" "$(count "$i" '<polyline class="iorate s0')" 2
same "iorate: a point per step" "$(count "$i" 'data-pct=')" 4
has "iorate: the 110 % point at its delivered IOPS" "$i" '91,000 IOPS delivered, p99 90,000 µs'
has "iorate: in the contents" "$i" '<a href="#iorate">Latency against load</a>'
has "iorate: the table" "$i" '<td>110 %</td><td>110,000</td><td>91,000</td>'
grep -q 'id="iorate"' "$tmp/s.html" 2>/dev/null && bad "iorate section without data"

# --- a profile with a sweep and sustained-write series ----------------------
check "fixture validates" 0 "$tw" validate "$fx"
check "report of the fixture" 0 "$tw" report "$fx" --policies "$pol" -o "$tmp/s.html"
s=$tmp/s.html
same "one sweep chart" "$(count "$s" '<svg class="chart sweep"')" 1
same "sweep: log axes" "$(count "$s" '<g class="axis x log">')$(count "$s" '<g class="axis y log">')" 11
same "sweep: lines" "$(count "$s" '<polyline class="sweep')" 3
same "knees" "$(count "$s" '<circle class="knee"')" 2
has "knee where p99 doubles" "$s" \
	'<circle class="knee" data-device="nvme0n1" data-qd="32" data-basis="p99 doubles"'
has "knee at the latency target" "$s" \
	'<circle class="knee" data-device="nvme1n1" data-qd="8" data-basis="latency target"'
grep -q '<circle class="knee" data-device="sda"' "$s" && bad "sda has a knee it does not have"
has "knee table: no knee" "$s" "no knee: IOPS still grows with depth"
same "sustained charts" "$(count "$s" '<svg class="chart sustained"')" 2
has "cliff from cliff_after_gb (40 GB at 2,000 MB/s)" "$s" \
	'<line class="cliff" data-t="20" data-basis="cliff_after_gb"'
has "cliff from the 70 % rule" "$s" \
	'<line class="cliff" data-t="30" data-basis="below 70 % of the initial rate"'
has "throttle: drop" "$s" '<line class="throttle" data-kind="drop" data-t="50"'
has "throttle: tmt1" "$s" '<line class="throttle" data-kind="tmt1" data-t="54"'
same "temperature on a second axis" "$(count "$s" '<g class="axis y right">')" 1
has "warning temperature" "$s" "warning 75 °C"
chart "$s" seq_read.mbps | grep -q 'data-scale="linear"' || bad "seq_read 7000/540 < 20 but not linear"

# --- rendered by chromium -----------------------------------------------------
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	echo "note: chromium is not installed: the rendering checks were skipped"
	exit $fail
fi
# chromium LOG ARGS... — headless, its own profile, console messages on stderr
chromium() {
	local log=$1; shift
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$tmp/chrome" --enable-logging=stderr --v=0 "$@" 2>"$log"
}
# page_errors LOG PAGE — console messages and errors about the page
page_errors() {
	grep -E ':CONSOLE[:(]|Uncaught|ERROR:.*file://' "$1" | grep -vE 'dbus|gpu|viz|vaapi' || true
}
printf '<!DOCTYPE html><p>x</p><script>deliberately_undefined()</script>\n' >"$tmp/err.html"
chromium "$tmp/err.log" --dump-dom "file://$tmp/err.html" >/dev/null ||
	bad "chromium failed on a test page: $(tail -3 "$tmp/err.log")"
[ -n "$(page_errors "$tmp/err.log")" ] ||
	bad "the console-error check misses a deliberate error: $(tail -5 "$tmp/err.log")"

for page in r s e; do
	chromium "$tmp/$page.log" --dump-dom "file://$tmp/$page.html" >"$tmp/$page.dom" ||
		bad "chromium --dump-dom $page.html failed: $(tail -3 "$tmp/$page.log")"
	errs=$(page_errors "$tmp/$page.log")
	[ -z "$errs" ] || bad "console errors on $page.html: $errs"
	grep -qi '<script' "$tmp/$page.dom" && bad "$page.html: the DOM has a <script"
done
bars_ok "rendered" "$tmp/r.dom"
hot_optane "rendered" "$tmp/r.dom"
same "rendered: table rows" "$(count "$tmp/r.dom" '<tr class="tier-')" 18
same "rendered: empty p99 slots" \
	"$(chart "$tmp/r.dom" rand_read_qd1.lat_us.p99 | grep -c '^<rect class="bar empty"')" 14
same "rendered: knees" "$(count "$tmp/s.dom" '<circle class="knee"')" 2
same "rendered: cliffs" "$(count "$tmp/s.dom" '<line class="cliff"')" 2
has "rendered: escaped model stays text" "$tmp/e.dom" "&lt;script&gt;alert('x')&lt;/script&gt;"

art=${TW_ARTIFACT_DIR:-$(dirname "$tw")}	# the build tree
mkdir -p "$art"
rm -f "$art/report.png"
chromium "$tmp/shot.log" --screenshot="$art/report.png" --window-size=1400,4000 \
	--hide-scrollbars "file://$r" >/dev/null || bad "chromium --screenshot failed"
if [ -s "$art/report.png" ]; then
	same "screenshot: PNG signature" "$(od -An -tx1 -N8 "$art/report.png" | tr -d ' \n')" \
		89504e470d0a1a0a
	same "screenshot: 1400×4000" "$(od -An -tu1 -j16 -N8 "$art/report.png" | tr -s ' ' | sed 's/^ //')" \
		"0 0 5 120 0 0 15 160"
	[ "$(stat -c %s "$art/report.png")" -gt 20000 ] || bad "screenshot: under 20 kB (blank?)"
	echo "screenshot: $art/report.png"
else
	bad "no screenshot in $art/report.png"
fi
exit $fail
