#!/usr/bin/env bash
# Golden outputs: `tierwise --sysroot FIXTURE list` (text and --json) for every
# recorded machine in tests/fixtures/, and `tierwise plan` of the published
# server and a catalog (tests/expected/plan/), must match byte for byte.
# TW_UPDATE_GOLDEN=1 rewrites the expected files (review the diff!).
set -u
tw=$1
unset COLUMNS	# plan text wraps at 80 when not a terminal: the goldens are at 80
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
# A dual-port drive behind a multipath head warns of its
# non-optimized path, whatever else the golden file says.
if ! "$tw" --sysroot "$src/tests/fixtures/enterprise" list 2>&1 |
	grep -qx 'warning: nvme0n1: path nvme0c1n1 via nvme1 (pcie 0001:5e:00.0, NUMA node 1) is non-optimized: .*'; then
	echo "FAIL: enterprise: no warning for the non-optimized path nvme0c1n1"; fail=1
fi
# A PCIe link per path: the second port trained x1 of its x2.
for fx in enterprise enterprise-6.1; do
	if ! "$tw" --sysroot "$src/tests/fixtures/$fx" list 2>&1 |
		grep -qx '  nvme0n1 path nvme0c1n1 via nvme1: Gen4 x1 of Gen4 x2 (degraded) at 0001:5e:00.0: .*'; then
		echo "FAIL: $fx: the degraded link of path nvme0c1n1 is not listed"; fail=1
	fi
done

# NVMe over Fabrics.  list: the transport as nvme-tcp, the
# network-attached section; a plan that puts a fabrics device in hot says
# its latency is the network's, one in warm gets no such warning.
fab=$src/tests/fixtures/fabrics
if ! "$tw" --sysroot "$fab" list 2>&1 | grep -qE '^nvme2n1 +nvme-tcp '; then
	echo "FAIL: fabrics: nvme2n1's transport is not shown as nvme-tcp"; fail=1
fi
if ! command -v jq >/dev/null; then
	echo "note: jq is not installed: the fabrics JSON and plan checks are skipped"
else
	if ! "$tw" --sysroot "$fab" list --format json | jq -e '[.devices[] | select(.fabric != null)
		| [.name, .fabric.transport, .fabric.address, .numa_node, .pcie, .local_cpulist]] ==
		[["nvme2n1", "tcp", "traddr=192.168.1.20,trsvcid=4420", null, null, null],
		 ["nvme3n1", "rdma", "traddr=10.0.20.5,trsvcid=4420", null, null, null]]' >/dev/null; then
		echo "FAIL: fabrics: list JSON lacks the fabric blocks, or gives them a NUMA node or link"; fail=1
	fi
	if ! "$tw" plan --policies "$src/policies" --no-inventory "$src/tests/fixtures/profiles/fabrics.json" \
		--format json >"$tmp/fab.json" 2>"$tmp/err"; then
		echo "FAIL: plan of tests/fixtures/profiles/fabrics.json: exit $?"; cat "$tmp/err"; fail=1
	elif ! jq -e '.tiers[0].devices == ["nvme2n1"] and ([.tiers[1].devices[] | select(. == "nvme3n1")] | length) == 1
		and ([.warnings[] | select(.kind == "fabric") | .device] == ["nvme2n1"])
		and ([.warnings[] | select(.kind == "fabric") | .message | test("^nvme2n1: network-attached \\(NVMe over Fabrics, nvme-tcp at traddr=192\\.168\\.1\\.20,trsvcid=4420\\) in the hot tier: its latency is the network.s and varies with it")] == [true])' \
		"$tmp/fab.json" >/dev/null; then
		echo "FAIL: fabrics plan: no fabric warning for nvme2n1 in hot (or one for nvme3n1 in warm)"
		jq -c '[.tiers[] | {name, devices}], [.warnings[] | select(.kind == "fabric")]' "$tmp/fab.json"; fail=1
	fi
fi

# Zoned devices.  list: the zoned section and JSON blocks (null
# for conventional devices); a plan of tests/fixtures/profiles/zoned.json
# never puts ext4 or XFS on the host-managed nvme1n2 (btrfs, with the
# reason) and warns of the host-aware sda, once.
zfx=$src/tests/fixtures/zoned
if ! "$tw" --sysroot "$zfx" list 2>&1 | grep -qx '  nvme1n2: host-managed, zones of 64 MiB, 61440 zones: writes must be zone-sequential: no random or mixed write test, no ext4/XFS'; then
	echo "FAIL: zoned: list does not show nvme1n2 as host-managed with its zones"; fail=1
fi
if command -v jq >/dev/null; then
	if ! "$tw" --sysroot "$zfx" list --format json | jq -e '[.devices[] | [.name, .zoned]] ==
		[["nvme0n1", null], ["nvme1n1", null],
		 ["nvme1n2", {model: "host-managed", zone_bytes: 67108864, zones: 61440}],
		 ["sda", {model: "host-aware", zone_bytes: 268435456, zones: 29809}]]' >/dev/null; then
		echo "FAIL: zoned: list JSON lacks the zoned blocks (or gives one to a conventional device)"; fail=1
	fi
	if ! "$tw" plan --policies "$src/policies" --no-inventory "$src/tests/fixtures/profiles/zoned.json" \
		--format json >"$tmp/zoned.json" 2>"$tmp/err"; then
		echo "FAIL: plan of tests/fixtures/profiles/zoned.json: exit $?"; cat "$tmp/err"; fail=1
	elif ! jq -e '([.tiers[] | select(.devices | index("nvme1n2")) | .mounts[]] | length) >= 1
		and ([.tiers[] | select(.devices | index("nvme1n2")) | .mounts[] | .fs] | all(. != "ext4" and . != "xfs"))
		and ([.tiers[].mounts[] | select(.source == "/dev/nvme1n2") | [.fs, (.why | test("^btrfs: a host-managed zoned device takes only zone-sequential writes, so ext4 and XFS cannot be made on it"))]] == [["btrfs", true]])
		and ([.warnings[] | select(.kind == "zoned") | .device] == ["sda"])
		and ([.warnings[] | select(.kind == "zoned") | .message | test("^sda: host-aware zoned device \\(zones of 256 MiB\\) in the cold tier: random writes collapse")] == [true])' \
		"$tmp/zoned.json" >/dev/null; then
		echo "FAIL: zoned plan: ext4/XFS on the host-managed nvme1n2, no btrfs reason, or no single host-aware warning for sda"
		jq -c '[.tiers[] | {name, devices, mounts: [.mounts[] | {source, fs}]}], [.warnings[] | select(.kind == "zoned")]' "$tmp/zoned.json"; fail=1
	fi
fi

[ "$n" -ge 6 ] || { echo "FAIL: expected at least 3 fixtures (6 outputs), found $n outputs"; fail=1; }

# Plans: the published server as is, with needs it cannot meet,
# and a datacenter catalog built for the purpose, text and md; the search's
# node count (GLPK's path, not the plan) is masked.
ex=$src/examples/ai-server-18-devices.json dc=$src/tests/fixtures/catalogs/datacenter.json
printf '%s\n' 'Intel Optane 905P 960GB = 1000' 'Samsung PM9A1 1TB = 90' 'Samsung 980 PRO 2TB = 85' \
	'Samsung 980 1TB = 70' 'Seagate IronWolf 12TB = 20' 'WD Red Pro 10TB = 22' 'Biwin NVMe 1TB = 60' \
	'SK hynix PC601 512GB = 40' >"$tmp/prices"
plan_case() {	# NAME ARGS...
	local name=$1 want; shift
	want=$src/tests/expected/plan/$name
	if ! "$tw" plan --policies "$src/policies" --no-inventory "$@" >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL: plan $name: exit $?"; cat "$tmp/err"; fail=1; return
	fi
	sed -i -E 's/, [0-9]+ nodes searched\)/, N nodes searched)/; s/\(proven optimum, [0-9]+ nodes/(proven optimum, N nodes/; s/^    [0-9]+ nodes searched\)/    N nodes searched)/' "$tmp/out"
	sed -i "s|^Policies: $src/|Policies: SRC/|" "$tmp/out"	# where the checkout is
	case $name in *.txt)	# text is wrapped to 80 columns when not a terminal
		w=$(grep -v '^Policies: ' "$tmp/out" | LC_ALL=C.UTF-8 wc -L)
		[ "$w" -le 80 ] || { echo "FAIL: plan $name: a line of $w columns"; fail=1; }
	esac
	if [ "${TW_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$tmp/out" "$want"; echo "updated $want"
	elif ! diff -u "$want" "$tmp/out"; then
		echo "FAIL: plan $name differs from $want"; fail=1
	fi
	n=$((n + 1))
}
plan_case published.txt "$ex"
plan_case published.md "$ex" --format md
plan_case archive-20T.txt "$ex" --need archive=20T --prices "$tmp/prices"
plan_case vector-db-2T.txt "$ex" --need vector-db=2T
plan_case datacenter.txt "$dc" --need model-loading=3T
plan_case datacenter-warm-12T.txt "$dc" --need model-loading=12T,checkpoints=0,archive=0
plan_case buy-1400.txt "$ex" --prices "$tmp/prices" --buy --budget 1400 --max-each 4
[ "$fail" -eq 0 ] && echo "golden: $n outputs match"
exit "$fail"
