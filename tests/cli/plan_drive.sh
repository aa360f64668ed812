#!/usr/bin/env bash
# tierwise plan with namespaces of one drive (issue 28): the fixture
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
exit $fail
