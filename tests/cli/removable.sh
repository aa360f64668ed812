#!/usr/bin/env bash
# Devices that are no fixed disk, on the recorded desktop (DVD writer, USB
# stick, empty card reader, USB disk) and board (eMMC boot areas, SD card,
# SPI NOR mtdblock):
#  - `probe --destructive` on each is refused, naming what it is;
#  - `tierwise probe` with no target and the default job (`tierwise`) do not
#    probe them, nor a filesystem mounted from one, but do try every fixed disk;
#  - the plan leaves them out with a `removable` / `read-only` warning unless
#    --include-removable (all, or the ones named) lets them in, also from the
#    profile's media alone (--no-inventory); a USB disk gets a `usb` warning
#    that says what was and was not read;
#  - scripts/record-sysroot.sh records the attributes the classes come from.
#  - as root, a loop device attached read-only is class read-only: refused
#    for destructive tests, measured when named.
# Nothing here opens a real device for writing.
set -u
tw=$1
src=${TW_SRCDIR:?}
fx=$src/tests/fixtures
pol=$src/policies
ex=$src/examples/ai-server-18-devices.json
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

# --- 1. destructive refused, with the reason ---
refused() {	# FIXTURE DEVICE REASON
	check "$1 $2 --destructive refused" 3 "$tw" --sysroot "$fx/$1" probe --destructive --yes \
		--quiet --seconds 0.1 "$2"
	expect "$1 $2 refusal names what it is" "$tmp/err" "refusing destructive tests on $2: not a fixed disk: $3"
}
refused desktop sr0 "optical drive (SCSI type 5, sr major 11)"
refused desktop sdc "removable media (removable = 1, USB"
# the empty card reader is refused before that: size 0 (no medium)
check "desktop sde --destructive refused" 3 "$tw" --sysroot "$fx/desktop" probe --destructive --yes \
	--quiet --seconds 0.1 sde
expect "desktop sde refusal" "$tmp/err" "sde: size is 0 (no medium, or not set up)"
refused board mmcblk1 "SD card (mmc type SD)"
refused board mtdblock0 "MTD flash"
refused board mmcblk0boot0 "eMMC boot area"
# the USB disk is a candidate: the inventory allows destructive tests on it
check "desktop list --json" 0 "$tw" --sysroot "$fx/desktop" list --format json
jq_true "sdd (USB disk) is a disk, safe for destructive" \
	'[.devices[] | select(.name == "sdd") | .class == "disk" and .safe_destructive.ok] == [true]'
jq_true "classes" '[.devices[] | {(.name): .class}] | add == {"nvme0n1": "disk", "sda": "disk",
	"sdb": "disk", "sdc": "removable", "sdd": "disk", "sde": "removable", "sr0": "optical"}'
jq_true "media" '[.devices[] | {(.name): .media}] | add | .sr0 == "optical" and .sdc == "removable"
	and .sdd == "hdd" and .sdb == "hdd"'

# --- 2. no target: fixed disks only ---
# A copy of the desktop whose mounts are made-up directories that do not exist
# here, so that no scratch file can be created on this machine: one on the
# fixed SATA SSD, one on the stick.
cp -a "$fx/desktop" "$tmp/desk"
cat >"$tmp/desk/proc/self/mountinfo" <<EOF
62 28 8:1 / $tmp/nonexistent-home rw,relatime shared:33 - ext4 /dev/sda1 rw
612 410 8:33 / $tmp/nonexistent-stick rw,nosuid,nodev,relatime shared:330 - vfat /dev/sdc1 rw
EOF
# ... and an LVM volume on the stick (dm-0 over sdc1): no fixed disk either.
dm=$tmp/desk/sys/devices/virtual/block/dm-0
mkdir -p "$dm/queue" "$dm/dm" "$dm/slaves"
printf '253:0\n' >"$dm/dev"; printf '61337600\n' >"$dm/size"
printf '0\n' >"$dm/ro"; printf '0\n' >"$dm/removable"; printf '1\n' >"$dm/queue/rotational"
printf '512\n' >"$dm/queue/logical_block_size"; printf '512\n' >"$dm/queue/physical_block_size"
printf 'vg_stick-data\n' >"$dm/dm/name"
ln -s ../../../../pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/host6/target6:0:0/6:0:0:0/block/sdc/sdc1 \
	"$dm/slaves/sdc1"
ln -s ../devices/virtual/block/dm-0 "$tmp/desk/sys/block/dm-0"
check "list with dm-0 on the stick" 0 "$tw" --sysroot "$tmp/desk" list --format json
jq_true "dm-0 takes the stick's class" '[.devices[] | select(.name == "dm-0") | .class == "removable"
	and (.class_reason | startswith("built on sdc: removable media")) and
	(.safe_destructive.reasons | any(startswith("not a fixed disk: built on sdc")))] == [true]'
tried() {	# FILE DEVICE: the probe opened DEVICE, or tried to
	grep -qE "^probing $2 |/dev/$2: cannot open" "$1"
}
no_target_checks() {	# WHAT FILE
	local d
	for d in nvme0n1 sda sdb sdd; do
		tried "$2" "$d" || { echo "FAIL: $1: fixed disk $d not tried"; cat "$2"; fail=1; }
	done
	for d in sr0 sdc sde dm-0; do
		if tried "$2" "$d"; then echo "FAIL: $1: $d was probed"; cat "$2"; fail=1; fi
		expect "$1: says why $d is skipped" "$2" "not probing $d: "
	done
	expect "$1: scratch file on the fixed disk's filesystem" "$2" "$tmp/nonexistent-home"
	if grep -q "nonexistent-stick" "$2"; then
		echo "FAIL: $1: a scratch file on the stick's filesystem"; cat "$2"; fail=1
	fi
}
"$tw" --sysroot "$tmp/desk" probe --tests rand_read_qd1 --seconds 0.1 --ramp 0 \
	-o "$tmp/p.json" >"$tmp/out" 2>"$tmp/err"
no_target_checks "probe, no target" "$tmp/err"
# The default job measures for about 30 s each device it can open: run it only
# where none of the desktop's fixed disks exists (it then measures nothing).
real=""
for d in nvme0n1 sda sdb sdd; do [ -e "/dev/$d" ] && real="$real $d"; done
if [ -z "$real" ]; then
	"$tw" --sysroot "$tmp/desk" >"$tmp/out" 2>"$tmp/err"
	no_target_checks "default job" "$tmp/err"
	expect "default job: the inventory first" "$tmp/out" "Not tier candidates"
else
	echo "note: default job not run: this machine has$real"
fi

# --- 3. the plan ---
# Profile devices for the desktop, figures borrowed from the published ones.
jq '.devices |= [
	(.[] | select(.id == "pm9a1-1t") | .id = "nvme0n1" | .path = "/dev/nvme0n1"),
	(.[] | select(.id == "ironwolf12t") | .id = "sdb" | .path = "/dev/sdb"
		| .capacity_bytes = 1000204886016),
	(.[] | select(.id == "redpro10t") | .id = "sdd" | .path = "/dev/sdd" | .transport = "usb"
		| .thermal = null | .health = null),
	(.[] | select(.id == "mznln128") | .id = "sr0" | .path = "/dev/sr0" | .media = "optical"),
	(.[] | select(.id == "biwin1t") | .id = "sdc" | .path = "/dev/sdc" | .media = "removable"
		| .transport = "usb")]' "$ex" >"$tmp/desk.json"
"$tw" validate "$tmp/desk.json" >/dev/null || { echo "FAIL: the test profile does not validate"; fail=1; }
plan() { "$tw" --sysroot "$fx/desktop" plan "$tmp/desk.json" --policies "$pol" --format json "$@"; }
in_tiers='[.tiers[].devices[]] + [.tiers[] | .shared_with // empty]'
check "plan" 0 plan
jq_true "sr0 and sdc in no tier" "[$in_tiers | .[] | select(. == \"sr0\" or . == \"sdc\")] == []"
jq_true "sr0 left out: removable warning says what it is" '[.warnings[] | select(.device == "sr0"
	and .kind == "removable") | .message | test("^sr0: optical drive \\(SCSI type 5") and
	test("left out of the plan") and test("--include-removable=sr0")] == [true]'
jq_true "sdc left out, no usb warning" '[.warnings[] | select(.device == "sdc") | .kind] == ["removable"]'
jq_true "usb warning for sdd, what was not read" '[.warnings[] | select(.device == "sdd" and .kind == "usb")
	| .message | test("USB bridge") and test("QD1 p99 [0-9,]+ µs") and test("temperature not read")
	and test("SMART / health log not read")] == [true]'
jq_true "no usb warning for the others" '[.warnings[] | select(.kind == "usb") | .device] == ["sdd"]'
jq_true "the fixed disks are planned" "[$in_tiers] | flatten | (index(\"nvme0n1\") != null and index(\"sdb\") != null)"
check "plan, text" 0 "$tw" --sysroot "$fx/desktop" plan "$tmp/desk.json" --policies "$pol"
expect "text: what each left-out device is" "$tmp/out" "Not in the plan (2): sr0 (optical), sdc (removable)"
check "plan --include-removable=sdc" 0 plan --include-removable=sdc
jq_true "sdc named: in, with a warning" '[.warnings[] | select(.device == "sdc" and .kind == "removable")
	| .message | test("only because --include-removable names it")] == [true]'
jq_true "sdc named: holds a tier" "[$in_tiers | .[] | select(. == \"sdc\")] | length > 0"
jq_true "sr0 still left out" '[.warnings[] | select(.device == "sr0" and .kind == "removable")
	| .message | test("left out")] == [true]'
jq_true "sdc named: usb warning too" '[.warnings[] | select(.kind == "usb") | .device] | sort == ["sdc", "sdd"]'
check "plan --include-removable" 0 plan --include-removable
jq_true "all named" '[.warnings[] | select(.kind == "removable") | .message
	| test("only because --include-removable")] == [true, true]'
jq_true "sdc or sr0 now in a tier" "[$in_tiers | .[] | select(. == \"sr0\" or . == \"sdc\")] | length > 0"
# without inventory, the media in the profile decide
check "plan --no-inventory" 0 "$tw" plan "$tmp/desk.json" --policies "$pol" --no-inventory --format json
jq_true "no inventory: sr0 and sdc left out by media" '[.warnings[] | select(.kind == "removable")
	| .device] | sort == ["sdc", "sr0"]'
jq_true "no inventory: sr0 in no tier" "[$in_tiers | .[] | select(. == \"sr0\" or . == \"sdc\")] == []"
check "plan --include-removable=" 2 plan --include-removable=
check "plan --include-removable=sdz" 2 plan --include-removable=sdc,sdz
expect "names the unknown device" "$tmp/err" "--include-removable: no device 'sdz' in the profiles"
check "plan --include-removable=/dev/sdc" 0 plan --include-removable=/dev/sdc
# the warnings fit the plan schema
if python3 -c 'import jsonschema' 2>/dev/null; then
	plan >"$tmp/plan.json"
	python3 - "$src/docs/tierwise.plan-1.schema.json" "$tmp/plan.json" <<'PY' || { echo "FAIL: plan JSON fails its schema"; fail=1; }
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
fi

# --- 4. the board: the SD card, boot areas and the SPI flash stay out ---
jq '.devices |= [
	(.[] | select(.id == "980-1t") | .id = "nvme0n1" | .path = "/dev/nvme0n1"),
	(.[] | select(.id == "pm9a1-512-a") | .id = "mmcblk1" | .path = "/dev/mmcblk1"
		| .transport = "mmc" | .media = "removable"),
	(.[] | select(.id == "pm9a1-512-b") | .id = "mtdblock0" | .path = "/dev/mtdblock0"
		| .transport = "other" | .media = "unknown")]' "$ex" >"$tmp/board.json"
check "board plan --include-removable" 0 "$tw" --sysroot "$fx/board" plan "$tmp/board.json" \
	--policies "$pol" --format json --include-removable
jq_true "mtdblock0: read-only kind, never planned" '[.warnings[] | select(.device == "mtdblock0")
	| .kind == "read-only" and (.message | test("MTD flash") and test("cannot hold a tier"))] == [true]'
jq_true "mtdblock0 in no tier" "[$in_tiers | .[] | select(. == \"mtdblock0\")] == []"
jq_true "the SD card is named in" '[.warnings[] | select(.device == "mmcblk1") | .message
	| test("SD card") and test("only because")] == [true]'

# --- 5. scripts/record-sysroot.sh keeps what the classes are read from ---
for f in desktop board; do
	if ! bash "$src/scripts/record-sysroot.sh" --from "$fx/$f" "$tmp/rec-$f" >/dev/null 2>&1; then
		echo "FAIL: record-sysroot.sh --from $f"; fail=1; continue
	fi
	cls='[.devices[] | {name, class, class_reason, media, transport}]'
	if [ "$("$tw" --sysroot "$fx/$f" list --format json | jq -c "$cls")" != \
	     "$("$tw" --sysroot "$tmp/rec-$f" list --format json | jq -c "$cls")" ]; then
		echo "FAIL: a re-recorded $f classes its devices differently"; fail=1
	fi
done

# --- 6. a real read-only device: a loop device attached with -r (root) ---
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	head -c $((8 << 20)) /dev/urandom >"$tmp/ro.img"
	if ro=$(losetup --find --show --read-only "$tmp/ro.img" 2>/dev/null); then
		n=${ro#/dev/}
		check "list, read-only loop" 0 "$tw" list --format json
		jq_true "$n is class read-only" "[.devices[] | select(.name == \"$n\") | .class == \"read-only\"
			and .class_reason == \"read-only device (ro = 1)\" and (.safe_destructive.ok | not)
			and .safe_readonly.ok] == [true]"
		check "destructive on the read-only loop refused" 3 "$tw" probe --destructive --yes \
			--quiet --seconds 0.1 "$ro"
		expect "read-only refusal" "$tmp/err" "refusing destructive tests on $n: device is read-only"
		check "named read-only probe of it" 0 "$tw" probe "$ro" --tests rand_read_qd1 \
			--seconds 0.2 --ramp 0 --quiet -o "$tmp/ro.json"
		[ "$(jq -r '.devices[0].results.rand_read_qd1.iops > 0' "$tmp/ro.json")" = true ] ||
			{ echo "FAIL: no measurement of the named read-only loop"; fail=1; }
		detach_loops "$ro"
	else
		echo "note: losetup --read-only failed: real read-only device not tried"
	fi
else
	echo "note: not root: real read-only device not tried"
fi

[ "$fail" -eq 0 ] && echo "removable: all checks passed"
exit "$fail"
