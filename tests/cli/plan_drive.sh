#!/usr/bin/env bash
# tierwise plan with namespaces of one drive: the fixture
# tests/fixtures/profiles/namespaces.json holds two U.2 drives of one model,
# each split into two like namespaces (one drive_id each), an Optane and an
# HDD.  No md array and no LVM volume ever spans two namespaces of one drive
# (without drive_id the four make one array); namespaces of one drive in one
# tier get a tier note naming the drive, in two tiers a plan note.
set -u
tw=$1
export COLUMNS=1000	# whole sentences to match; the wrap at 80 is checked by golden.sh
src=${TW_SRCDIR:?}
fx=$src/tests/fixtures/profiles/namespaces.json
pol=$src/policies
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"
plan() { "$tw" plan --policies "$pol" --no-inventory "$@"; }
nq0='nqn.2014-08.org.nvmexpress:144d144dS438NA0M100001      SAMSUNG MZQLB960HAJR-00007'
# no array, no volume with two devices of one drive (the drive: the
# namespace id up to its controller, nvme0 or nvme1; the volume's md array
# stands for its members)
one_per_drive='[.tiers[] | (.raid.devices // []) as $r
	| $r, [(.volume.devices // [])[] | if startswith("md-") then $r[] else . end]
	| [.[] | select(test("^nvme")) | .[0:5]] | length == (unique | length)] | all'

# --- the control: without drive_id the four namespaces are one raid0
jq 'del(.devices[].drive_id)' "$fx" >"$tmp/nodrive.json"
check "no drive_id" 0 plan "$tmp/nodrive.json" --format json --need model-loading=1100G,checkpoints=0,archive=9T
jq_true "control: raid0 over all four" '(.tiers[1].raid.devices | length) == 4'

# --- warm needs all four: raid0 over one namespace of each drive, the others
# mounts of their own (outside the array and any volume), a note per drive
check "warm 1100G" 0 plan "$fx" --format json --need model-loading=1100G,checkpoints=0,archive=9T
jq_true "all four in warm" '.tiers[1].devices | sort == ["nvme0n1", "nvme0n2", "nvme1n1", "nvme1n2"]'
jq_true "raid0 of one namespace per drive" '.tiers[1].raid.level == "raid0"
	and (.tiers[1].raid.devices | map(.[0:5]) | sort) == ["nvme0", "nvme1"]'
jq_true "no array or volume spans one drive" "$one_per_drive"
jq_true "three mounts: the array and the two namespaces left" '(.tiers[1].mounts | length) == 3'
jq_true "a tier note per drive" \
	'[.tiers[1].notes[] | select(test("namespaces of one drive"))] | length == 2'
jq_true "the note names the NQN and what is shared" \
	"[.tiers[1].notes[] | select(startswith(\"nvme0n1 and nvme0n2 are namespaces of one drive (NQN $nq0)\") and test(\"share its flash, link and heat\"))] | length == 1"
jq_true "no plan note (one tier)" '[.notes[] | select(test("namespaces"))] == []'

# --- hot wants redundancy: the mirror pairs the two drives, never one drive
check "hot 700G" 0 plan "$fx" --format json --need vector-db=700G,model-loading=0,checkpoints=0,archive=9T
jq_true "hot raid1 across the two drives" '.tiers[0].raid.level == "raid1"
	and (.tiers[0].raid.devices | map(.[0:5]) | sort) == ["nvme0", "nvme1"]'
jq_true "no array or volume spans one drive (hot)" "$one_per_drive"

# --- one drive only, both namespaces in warm: no array, no volume, two mounts
jq '.devices |= [.[] | select(.id == "nvme0n1" or .id == "nvme0n2" or .id == "ironwolf12t")]' "$fx" >"$tmp/one.json"
check "one drive, one tier" 0 plan "$tmp/one.json" --format json \
	--need model-loading=700G,checkpoints=0,archive=9T,vector-db=0,logs-metadata=0
jq_true "both in warm" '.tiers[1].devices | sort == ["nvme0n1", "nvme0n2"]'
jq_true "no array, no volume" '.tiers[1].raid == null and .tiers[1].volume == null'
jq_true "two mounts" '[.tiers[1].mounts[].source] | sort == ["/dev/nvme0n1", "/dev/nvme0n2"]'
jq_true "the tier note" '[.tiers[1].notes[] | select(startswith("nvme0n1 and nvme0n2 are namespaces of one drive"))] | length == 1'

# --- one drive in two tiers: a plan note naming both tiers
check "one drive, two tiers" 0 plan "$tmp/one.json" --format json \
	--need vector-db=350G,logs-metadata=0,model-loading=350G,checkpoints=0,archive=9T
jq_true "one namespace hot, the other warm" \
	'[.tiers[0].devices, .tiers[1].devices] | map(length) == [1, 1] and (add | sort) == ["nvme0n1", "nvme0n2"]'
jq_true "plan note: both tiers, the drive, what is shared" \
	"[.notes[] | select(test(\"^nvme0n1 \\\\((hot|warm)\\\\) and nvme0n2 \\\\((hot|warm)\\\\) are namespaces of one drive \\\\(NQN $nq0\\\\): they share its flash, link and heat, so load on one tier slows the other\"))] | length == 1"
jq_true "no tier note (two tiers)" '[.tiers[].notes[] | select(test("namespaces"))] == []'
check "text" 0 plan "$tmp/one.json" --need vector-db=350G,logs-metadata=0,model-loading=350G,checkpoints=0,archive=9T
grep -q '^note: nvme0n1 (.*) and nvme0n2 (.*) are namespaces of one drive' "$tmp/out" ||
	{ echo "FAIL: text: no plan note on the shared drive"; fail=1; }

# --- two hot drives (nvme1 is hot in the fixture; nvme0 made so): one heat
# warning per drive, not per namespace, naming the second namespace
jq '.devices |= map(if (.id | startswith("nvme0")) then .thermal = {idle_c: 45, load_c: 78, warning_c: 80, critical_c: 85, throttle_events: null, source: "test"} else . end)' \
	"$fx" >"$tmp/hot.json"
check "hot drive" 0 plan "$tmp/hot.json" --format json --need model-loading=1100G,checkpoints=0,archive=9T
jq_true "one heat warning per drive, naming both namespaces" \
	'[.warnings[] | select(.kind == "heat")] | length == 2
	and (.[0].message | test("^nvme0n1: reaches 78 °C under load .*; nvme0n2 is a namespace of the same drive$"))
	and (.[1].message | test("^nvme1n1: reaches 83 °C under load.*; nvme1n2 is a namespace of the same drive$"))'

# --- host-managed zoned namespaces (the control's four, drive_id gone, each
# zoned): md and LVM take no zoned device, so no array, no volume; four
# mounts of their own, btrfs each, and a tier note per device (the
# optimiser needs three or four of them)
jq '.devices |= map(if (.id | startswith("nvme")) then .zoned = {model: "host-managed", zone_bytes: 67108864, zones: 14000} else . end)' \
	"$tmp/nodrive.json" >"$tmp/zoned.json"
check "zoned, no drive_id" 0 plan "$tmp/zoned.json" --format json --need model-loading=1100G,checkpoints=0,archive=9T
jq_true "zoned: three or four in warm" '.tiers[1].devices | length >= 3 and all(startswith("nvme"))'
jq_true "zoned: no array, no volume" '.tiers[1].raid == null and .tiers[1].volume == null'
jq_true "zoned: a btrfs mount of its own each" \
	'.tiers[1] | [.mounts[] | [.source, .fs]] == [.devices[] | ["/dev/" + ., "btrfs"]]'
jq_true "zoned: a tier note per device" \
	'(.tiers[1].devices | length) as $n
	| [.tiers[1].notes[] | select(test("^nvme[01]n[12] is host-managed zoned: a filesystem of its own \\(btrfs in zoned mode\\), in no md array or LVM volume"))] | length == $n'

# --- unlike logical block sizes (found in the lab: an NVMe/TCP disk of 4096-
# byte blocks beside 512-byte ones, vgcreate refused the plan's volume): two
# unlike devices of the published server in warm make a linear volume when
# the inventory gives them one block size, two mounts and a note when not
ex=$src/examples/ai-server-18-devices.json
jq '.devices |= [.[] | select(.id == "pm9a1-1t" or .id == "980pro-2t")]' "$ex" >"$tmp/two.json"
inv() {
	jq -n --argjson a "$1" --argjson b "$2" '{schema: "tierwise.inventory/1", devices: [
		{name: "pm9a1-1t", path: "/dev/pm9a1-1t", class: "disk", logical_block_size: $a},
		{name: "980pro-2t", path: "/dev/980pro-2t", class: "disk", logical_block_size: $b}]}'
}
inv 512 512 >"$tmp/inv-same.json"
inv 512 4096 >"$tmp/inv-unlike.json"
need=model-loading=2T,checkpoints=0,vector-db=0,logs-metadata=0,archive=0
check "one block size" 0 "$tw" plan "$tmp/two.json" --policies "$pol" --inventory "$tmp/inv-same.json" \
	--need "$need" --format json
jq_true "one block size: one volume of both" '(.tiers[1].volume.devices | sort) == ["980pro-2t", "pm9a1-1t"]'
check "unlike block sizes" 0 "$tw" plan "$tmp/two.json" --policies "$pol" --inventory "$tmp/inv-unlike.json" \
	--need "$need" --format json
jq_true "unlike block sizes: no volume, two mounts" \
	'.tiers[1].volume == null and ([.tiers[1].mounts[].source] | sort) == ["/dev/980pro-2t", "/dev/pm9a1-1t"]'
jq_true "unlike block sizes: the note" \
	'[.tiers[1].notes[] | select(. == "980pro-2t has 4096-byte logical blocks, pm9a1-1t 512-byte ones: LVM makes no volume group over unlike block sizes (vgcreate refuses them), so 980pro-2t is a mount of its own")] | length == 1'
exit $fail
