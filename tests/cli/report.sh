#!/usr/bin/env bash
# tierwise report: one self-contained HTML file.  On the published
# measurements (18 devices): no script, nothing fetched, one bar chart per key
# metric with exactly one bar per device and the right values, the table
# coloured by tier, the plan with the Optane in the hot tier, from the
# advisor and from a tierwise.plan/1 file; every string escaped; a profile
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
has "plan: search estimate" "$r" '<strong>0.12 s</strong> on optane905p'
has "plan: 18 GB model" "$r" 'an 18 GB model: <strong>2.9 s</strong> on pm9a1-1t'
has "plan: cache-cliff warning" "$r" '<tr data-kind="cache-cliff" data-device="shiji256">'
has "plan: mount" "$r" '<code>/srv/vector-db</code>'
grep -qE 'id="(sweep|sustained)"' "$r" && bad "report: sweep/sustained sections without data"

# --- the plan from a tierwise.plan/1 file -----------------------------------
"$tw" plan "$ex" --policies "$pol" --no-inventory --format json >"$tmp/plan.json" ||
	bad "plan --format json failed"
check "report --plan" 0 "$tw" report "$ex" --plan "$tmp/plan.json" -o "$tmp/p.html"
bars_ok "report --plan" "$tmp/p.html"
hot_optane "report --plan" "$tmp/p.html"
has "--plan: names its source" "$tmp/p.html" "From $tmp/plan.json."
has "--plan: estimate" "$tmp/p.html" '<strong>0.12 s</strong> on optane905p'
has "--plan: warning" "$tmp/p.html" '<tr data-kind="write-trap" data-device="pc601-a">'
has "--plan: mount" "$tmp/p.html" '<code>/srv/models</code>'
same "--plan: same warnings as the advisor" "$(count "$tmp/p.html" '<tr data-kind=')" \
	"$(count "$r" '<tr data-kind=')"
jq '.tiers[0].devices = ["no-such-disk"]' "$tmp/plan.json" >"$tmp/other.json"
check "--plan of other devices" 0 "$tw" report "$ex" --plan "$tmp/other.json" -o "$tmp/o.html"
expect "--plan of other devices: said" "$tmp/err" "device no-such-disk is in the plan but not in the profiles"
echo '{"schema": "tierwise.score/1"}' >"$tmp/wrong.json"
check "--plan wrong schema" 1 "$tw" report "$ex" --plan "$tmp/wrong.json" -o "$tmp/x.html"
expect "--plan wrong schema" "$tmp/err" "not a tierwise.plan/1 document"
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

# --- issue 21: the iorate curve, latency against delivered IOPS -------------
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
