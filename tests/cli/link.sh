#!/usr/bin/env bash
# PCIe links on the recorded machines: `tierwise list` shows each link and
# marks the degraded one (server nvme3n1 trained x2 of x4), `list --json`
# carries them, and a profile with that link (additive `link` key) makes
# `tierwise plan` warn (kind link) with the bandwidth lost and what to check.
set -u
tw=$1
src=${TW_SRCDIR:?}
fx=$src/tests/fixtures
ex=$src/examples/ai-server-18-devices.json
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

# --- list: text ---
check "list server" 0 "$tw" list --sysroot "$fx/server"
expect "degraded link in the table" "$tmp/out" "Gen3 x2 of Gen3 x4 (degraded)"
expect "full link in the table" "$tmp/out" "Gen4 x4"
expect "degraded section" "$tmp/out" "nvme3n1: Gen3 x2 of Gen3 x4 (degraded) at 0000:04:00.0: 1969 of 3938 MB/s; check the slot, the riser and the BIOS lane bifurcation"
if [ "$(grep -c '(degraded)' "$tmp/out")" -ne 2 ]; then	# the row and the section
	echo "FAIL: only nvme3n1 is degraded"; cat "$tmp/out"; fail=1
fi
for f in laptop desktop board vm; do
	check "list $f" 0 "$tw" list --sysroot "$fx/$f"
	if grep -q "degraded" "$tmp/out"; then echo "FAIL: $f has no degraded link"; fail=1; fi
done

# --- list --json ---
check "list server --json" 0 "$tw" list --sysroot "$fx/server" --format json
cp "$tmp/out" "$tmp/server.json"
jq_true "nvme3n1 link" '.devices[] | select(.name == "nvme3n1") | .pcie ==
	{"address": "0000:04:00.0", "speed_gts": 8.0, "width": 2, "max_speed_gts": 8.0,
	 "max_width": 4, "upstream": ["0000:00:01.4"], "numa_node": 0, "degraded": true}'
jq_true "nvme1n1 Gen4 x4" '.devices[] | select(.name == "nvme1n1") | .pcie.speed_gts == 16.0 and .pcie.width == 4 and .pcie.degraded == false'
jq_true "no link: SATA on the root complex, md, dm" '[.devices[] | select(.name | test("^(sd|md|dm)")) | .pcie == null] | all'
jq_true "NUMA node and local CPUs of the SATA disks' controller" '[.devices[] | select(.name | test("^sd")) | .numa_node == 0 and .local_cpulist == "0-31"] | all'
check "list vm --json" 0 "$tw" list --sysroot "$fx/vm" --format json
jq_true "virtio on conventional PCI: no link, local CPUs" '.devices[] | select(.name == "vda") | .pcie == null and .numa_node == null and .local_cpulist == "0-1"'
check "list board --json" 0 "$tw" list --sysroot "$fx/board" --format json
jq_true "board NVMe behind the platform's root port" '.devices[] | select(.name == "nvme0n1") | .pcie.upstream == ["0000:00:00.0"] and .pcie.numa_node == null'

# --- the profile carries the link; the plan warns ---
jq --slurpfile inv "$tmp/server.json" '
	($inv[0].devices[] | select(.name == "nvme3n1") | .pcie) as $p
	| (.devices[] | select(.id == "970evoplus-b") | .link) = {
		pcie_address: $p.address, speed_gts: $p.speed_gts, width: $p.width,
		max_speed_gts: $p.max_speed_gts, max_width: $p.max_width,
		numa_node: $p.numa_node, upstream: $p.upstream }
	| (.devices[] | select(.id == "970evoplus-a") | .link) = {
		pcie_address: "0000:03:00.0", speed_gts: 8, width: 4, max_speed_gts: 8,
		max_width: 4, numa_node: 0, upstream: ["0000:00:01.3"] }' "$ex" >"$tmp/prof.json"
check "validate the profile with links" 0 "$tw" validate "$tmp/prof.json"
check "plan" 0 "$tw" plan "$tmp/prof.json" --policies "$src/policies" --no-inventory --format json
jq_true "one link warning, for 970evoplus-b" '[.warnings[] | select(.kind == "link") | .device] == ["970evoplus-b"]' '.warnings'
jq_true "the link warning says what it costs and what to check" '.warnings[] | select(.kind == "link") | .message
	| contains("trained at Gen3 x2 of Gen3 x4: 1,969 of 3,938 MB/s, 1,969 MB/s (50 %) of bandwidth lost")
	  and contains("BIOS lane bifurcation") and contains("riser")' '.warnings'
check "plan without links" 0 "$tw" plan "$ex" --policies "$src/policies" --no-inventory --format json
jq_true "no link warning without link facts" '[.warnings[] | select(.kind == "link")] == []'

# --- shared links: the array of two twins that share one caps at what they read together ---
jq '.devices |= [.[] | select(.id == "optane905p" or .id == "970evoplus-a" or .id == "ironwolf12t")]
	+ [.[] | select(.id == "970evoplus-a") | .id = "970evoplus-twin"]
	| .links = [{devices: ["970evoplus-a", "970evoplus-twin"], solo_sum_mbps: 6902, together_mbps: 3600}]' \
	"$ex" >"$tmp/twins.json"
check "validate twins sharing" 0 "$tw" validate "$tmp/twins.json"
check "plan twins sharing" 0 "$tw" plan "$tmp/twins.json" --policies "$src/policies" --no-inventory \
	--format json --need checkpoints=0,archive=9T,model-loading=700G
jq_true "raid0 of the twins" '.tiers[1].raid.level == "raid0" and (.tiers[1].raid.devices | sort) == ["970evoplus-a", "970evoplus-twin"]' '.tiers[1]'
jq_true "array read capped at what they read together" '(.tiers[1].raid.seq_read_mbps | round) == 3600 and (.tiers[1].raid.basis | contains("read capped to 3600 MB/s"))' '.tiers[1].raid'
jq_true "shared-link warning names the tier" '[.warnings[] | select(.kind == "shared-link") | .message
	| contains("970evoplus-a and 970evoplus-twin share a bottleneck") and contains("3,600 MB/s, 52 % of the 6,902 MB/s")
	  and contains("the warm tier uses them together")] == [true]' '.warnings'

# --- arrays off shared links: three like drives, two on one link; hot takes
# one, warm's array the other two: not the pair that shares (the optimiser,
# by its twin order, would give warm exactly that pair) ---
jq '.devices |= [.[] | select(.id == "970evoplus-a") | .id = "970evoplus-c"]
	+ [.[] | select(.id == "970evoplus-a" or .id == "ironwolf12t")]
	+ [.[] | select(.id == "970evoplus-a") | .id = "970evoplus-twin"]
	| .links = [{devices: ["970evoplus-a", "970evoplus-twin"], solo_sum_mbps: 6902, together_mbps: 3600}]' \
	"$ex" >"$tmp/three.json"
check "plan three like, two sharing" 0 "$tw" plan "$tmp/three.json" --policies "$src/policies" \
	--no-inventory --format json --need vector-db=300G,logs-metadata=0,checkpoints=0,archive=9T,model-loading=700G
jq_true "warm's array avoids the shared pair" '(.tiers[1].raid.devices | sort) == ["970evoplus-c", "970evoplus-twin"]
	and (.tiers[1].raid.seq_read_mbps | round) == 6902 and .tiers[0].devices == ["970evoplus-a"]' '.tiers'
jq_true "the trade is explained" '[.notes[] | select(test("970evoplus-c takes the place of 970evoplus-a in the warm tier, at no cost"))] | length == 1' '.notes'
jq '.links = []' "$tmp/three.json" >"$tmp/three-nolink.json"
check "plan three like, no link" 0 "$tw" plan "$tmp/three-nolink.json" --policies "$src/policies" \
	--no-inventory --format json --need vector-db=300G,logs-metadata=0,checkpoints=0,archive=9T,model-loading=700G
jq_true "no link facts: no trade" '[.notes[] | select(test("takes the place"))] == []' '.notes'

# a bad link is named with its key
jq '(.devices[0].link) = {width: 0, upstream: "x"}' "$ex" >"$tmp/bad.json"
check "bad link refused" 1 "$tw" validate "$tmp/bad.json"
expect "width named" "$tmp/err" "devices[0].link.width"
expect "upstream named" "$tmp/err" "devices[0].link.upstream"
exit $fail
