#!/usr/bin/env bash
# tierwise export --format prometheus and tierwise probe --textfile: the
# node_exporter textfile-collector format.
#  - five synthetic hosts with their plans: promtool check metrics passes;
#    the values are the profiles' (IOPS, bytes/s, latency in seconds), the
#    tier series are the plans' tiers; hostile label values are escaped;
#  - --textfile DIR writes DIR/tierwise.prom atomically (no temporary file
#    left, a failed run keeps the previous file); a DIR that is not a
#    directory is refused before anything runs (exit 2);
#  - probe --textfile on a scratch directory writes its measurements;
#  - Debian's prometheus-node-exporter on 127.0.0.1 reads the directory:
#    /metrics has the tierwise series and no textfile scrape error.
set -u
tw=$1
src=${TW_SRCDIR:?}
ex=$src/examples/ai-server-20-devices.json
for c in jq python3 curl; do
	command -v $c >/dev/null || { echo "SKIP: $c is not installed"; exit 77; }
done
tmp=$(mktemp -d)
nepid=
cleanup() {
	[ -n "$nepid" ] && kill "$nepid" 2>/dev/null && wait "$nepid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
missing=
bad() { echo "FAIL: $*"; fail=1; }
same() { [ "$2" = "$3" ] || bad "$1: got '$2', wanted '$3'"; }
promtool=$(command -v promtool || true)
check_metrics() {	# check_metrics LABEL FILE
	if [ -n "$promtool" ]; then
		"$promtool" check metrics <"$2" >"$tmp/lint" 2>&1 ||
			bad "$1: promtool check metrics: $(head -5 "$tmp/lint")"
	fi
}
# value FILE NAME LABELS — the value of the one series NAME{...LABELS...}
value() { grep "^$2{" "$1" | grep -F -- "$3" | awk '{print $NF}'; }

# --- export of a fleet with plans -----------------------------------------
f=$tmp/fleet
python3 "$src/tests/cli/fleet_synth.py" "$ex" "$f" --hosts 5 --jitter 4 --seed 3 || exit 1
for p in "$f"/host-*.json; do
	"$tw" plan "$p" --no-inventory --format json >"${p%.json}.plan.json" || bad "plan $p"
done
"$tw" export --format prometheus "$f" -o "$tmp/all.prom"
same "export: exit" $? 0
check_metrics "export" "$tmp/all.prom"
same "one HELP per family" "$(grep -c '^# HELP tierwise_io_iops ' "$tmp/all.prom")" 1
same "device_info series" "$(grep -c '^tierwise_device_info{' "$tmp/all.prom")" 90
same "host-001 optane QD1 IOPS" \
	"$(value "$tmp/all.prom" tierwise_io_iops 'host="host-001",device="optane905p",model="Intel Optane 905P 960GB",serial="SN001-optane905p",test="rand_read_qd1"')" \
	"$(jq -r '.devices[] | select(.id == "optane905p") | .results.rand_read_qd1.iops' "$f/host-001.json")"
want=$(jq -r '.devices[] | select(.id == "pm9a1-1t") | .results.seq_read.mbps * 1000000' "$f/host-003.json")
got=$(grep '^tierwise_io_throughput_bytes_per_second{host="host-003",device="pm9a1-1t"' "$tmp/all.prom" |
	grep 'test="seq_read"' | awk '{print $NF}')
python3 -c "import sys; sys.exit(abs($got - $want) > 1e-6 * $want)" 2>/dev/null ||
	bad "host-003 pm9a1-1t seq_read bytes/s: got '$got', wanted $want"
want=$(jq -r '.devices[] | select(.id == "optane905p") | .results.rand_read_qd1.lat_us.p99 / 1000000' "$f/host-000.json")
got=$(grep '^tierwise_io_latency_seconds{host="host-000",device="optane905p"' "$tmp/all.prom" |
	grep 'percentile="p99"' | awk '{print $NF}')
python3 -c "import sys; sys.exit(abs($got - $want) > 1e-9)" 2>/dev/null ||
	bad "host-000 optane p99 seconds: got '$got', wanted $want"
for h in 0 1 2 3 4; do
	same "host-00$h: hot series" \
		"$(grep '^tierwise_plan_tier_info{' "$tmp/all.prom" | grep "host=\"host-00$h\"" |
			grep 'tier="hot"' | sed 's/.*device="\([^"]*\)".*/\1/' | tr '\n' ' ')" \
		"$(jq -r '.tiers[] | select(.name == "hot") | .devices[]' "$f/host-00$h.plan.json" | tr '\n' ' ')"
done
same "tier series: one per device" "$(grep -c '^tierwise_plan_tier_info{' "$tmp/all.prom")" 90
"$tw" export "$f" --no-plan | grep -q '^tierwise_plan_tier_info' && bad "--no-plan: tier series"

# hostile label values: a quote, a backslash
jq '.host = "h\"1\\x" | .devices[0].model = "A \"quoted\" \\ model"' "$ex" >"$tmp/hostile.json"
"$tw" export "$tmp/hostile.json" -o "$tmp/hostile.prom" || bad "export of hostile labels failed"
check_metrics "hostile labels" "$tmp/hostile.prom"
grep -qF 'host="h\"1\\x",device="pm9a1-1t",model="A \"quoted\" \\ model"' "$tmp/hostile.prom" ||
	bad "hostile labels not escaped: $(grep -m1 pm9a1-1t "$tmp/hostile.prom")"

# --- --textfile: atomic, checked first ----------------------------------------
tf=$tmp/textfile
mkdir "$tf"
echo "previous" >"$tf/tierwise.prom"
"$tw" export "$f/host-000.json" --textfile "$tf" || bad "export --textfile failed"
same "textfile dir: only tierwise.prom" "$(ls -A "$tf")" tierwise.prom
grep -q '^tierwise_io_iops{host="host-000"' "$tf/tierwise.prom" || bad "textfile: no series"
cp "$tf/tierwise.prom" "$tmp/before"
printf '{"schema": "tierwise.profile/1"}\n' >"$tmp/broken.json"
"$tw" export "$tmp/broken.json" --textfile "$tf" 2>/dev/null
same "a bad profile: exit" $? 1
cmp -s "$tmp/before" "$tf/tierwise.prom" || bad "a failed export changed the textfile"
same "a failed export leaves no temporary file" "$(ls -A "$tf")" tierwise.prom
"$tw" export "$ex" --textfile "$tmp/before" 2>/dev/null
same "--textfile a file: exit" $? 2
"$tw" export "$ex" --textfile "$tmp/nowhere" 2>/dev/null
same "--textfile a missing directory: exit" $? 2
"$tw" export "$ex" --textfile "$tf" -o "$tmp/x.prom" 2>/dev/null
same "-o with --textfile: exit" $? 2
"$tw" export --format json "$ex" 2>/dev/null
same "--format json: exit" $? 2
"$tw" export "$ex" -o "$tmp" 2>/dev/null
same "-o a directory: exit" $? 2

# --- probe --textfile --------------------------------------------------------
pt=$tmp/probe-textfile
mkdir -p "$pt" "$tmp/scratch"
"$tw" probe --textfile "$pt/none" "$tmp/scratch" --quiet 2>/dev/null
same "probe --textfile a missing directory: exit" $? 2
"$tw" probe "$tmp/scratch" --tests seq_read,rand_read_qd1 --seconds 0.3 --ramp 0 --size 64Mi \
	--quiet --json "$pt/p.json" --textfile "$pt" >/dev/null 2>"$tmp/probe.err"
rc=$?
if [ $rc = 0 ] || [ $rc = 4 ]; then
	check_metrics "probe --textfile" "$pt/tierwise.prom"
	same "probe --textfile: QD1 IOPS" \
		"$(grep '^tierwise_io_iops{' "$pt/tierwise.prom" | grep 'test="rand_read_qd1"' | awk '{print $NF}' |
			python3 -c 'import sys; print(round(float(sys.stdin.read())))')" \
		"$(jq '.devices[0].results.rand_read_qd1.iops | round' "$pt/p.json")"
else
	echo "note: probe of a scratch directory in $tmp failed (rc $rc): $(tail -2 "$tmp/probe.err")"
	[ "$(id -u)" = 0 ] && bad "probe --textfile: rc $rc"
fi

# --- node_exporter reads the directory -----------------------------------------
ne=$(command -v prometheus-node-exporter || command -v node_exporter || true)
if [ -z "$ne" ]; then
	missing="prometheus-node-exporter is not installed"
else
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$ne" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$tf" >"$tmp/ne.log" 2>&1 &
	nepid=$!
	for _ in $(seq 50); do
		curl -sf "http://127.0.0.1:$port/metrics" -o "$tmp/metrics" && break
		sleep 0.2
	done
	[ -s "$tmp/metrics" ] || bad "node_exporter: no /metrics: $(tail -3 "$tmp/ne.log")"
	same "node_exporter: textfile scrape error" \
		"$(awk '$1 == "node_textfile_scrape_error" {print $2}' "$tmp/metrics")" 0
	same "node_exporter: tierwise_device_info series" \
		"$(grep -c '^tierwise_device_info{' "$tmp/metrics")" 18
	got=$(grep '^tierwise_io_iops{' "$tmp/metrics" | grep 'device="optane905p"' |
		grep 'test="rand_read_qd1"' | awk '{print $NF}')
	want=$(jq -r '.devices[] | select(.id == "optane905p") | .results.rand_read_qd1.iops' "$f/host-000.json")
	python3 -c "import sys; sys.exit(abs(float('$got') - $want) > 1e-6 * $want)" 2>/dev/null ||
		bad "node_exporter: optane QD1 IOPS '$got', wanted $want"
	grep -q '^tierwise_plan_tier_info{.*device="optane905p".*tier="hot"' "$tmp/metrics" ||
		bad "node_exporter: no hot tier series for optane905p"
	# a rewrite while node_exporter runs is seen whole
	"$tw" export "$f/host-001.json" --textfile "$tf" || bad "second export failed"
	curl -sf "http://127.0.0.1:$port/metrics" -o "$tmp/metrics2"
	grep -q "^tierwise_device_info{.*host=\"host-001\"" "$tmp/metrics2" || bad "node_exporter: rewrite not seen"
	grep -q "^tierwise_device_info{.*host=\"host-000\"" "$tmp/metrics2" && bad "node_exporter: old series after rewrite"
fi
[ -z "$promtool" ] && missing="${missing:+$missing; }promtool (Debian: prometheus) is not installed"
[ $fail = 0 ] && [ -n "$missing" ] && { echo "SKIP: $missing (the other checks passed)"; exit 77; }
exit $fail
