#!/usr/bin/env bash
# The destructive-mode guard and the safety of generated text, on loop
# devices this test makes (1 GiB sparse files in /dev/shm):
#
# A. For a device carrying each of: a GPT (with partitions) and an MBR
#    partition table, ext4, XFS, an md member (signature only, and a member of
#    a running array = held), an LVM PV (signature only, and with an active LV =
#    held), a mount, and a holder (dm-linear; and a holder simulated by a bind
#    mount over sysfs, so that the holder paths are tested where the kernel has
#    no device mapper):
#     a. `tierwise probe DEV --destructive --yes` is refused, exit non-zero,
#        the reason named; the device is unchanged (checksums of the first and
#        last MiB, blkid -p, wipefs -n, allocated blocks);
#     b. the script of a plan that proposes to format DEV (a profile written
#        by hand, --no-inventory: a stale plan) refuses it without and with
#        --apply (exit 1, nothing run); --force-device DEV (path or name) is
#        the only way past a plain signature (the forced --apply reaches the
#        mkfs shim, nothing more), and a mounted or held device is refused
#        even when forced.
#    mkfs.*, mdadm, mount, umount, udevadm and systemctl are shims first in
#    PATH for every tierwise and script run: they log the call and fail, so a
#    wrongly allowed run is caught without damage.
# B. Hostile strings (spaces, ' and ", $(), backticks, newlines) in mount
#    points, device node names, inventory labels/serials/mount points/UUIDs
#    and catalog ids/models: the script quotes them (bash -n passes, a dry run
#    and a shimmed --apply execute nothing: marker files never appear, and the
#    mkfs shim gets the path as one intact argument); fstab escapes them
#    (findmnt reads the path back whole, findmnt --verify finds no parse
#    error) or the renderer refuses the plan (exit 1, nothing printed).
#
# Needs root (loop devices).  Cases whose kernel driver or tool is missing
# (md, device mapper, LVM, parted) are skipped with a SKIP-CASE line.
set -u
tw=$1
src=${TW_SRCDIR:?}
pol=$src/policies
example=$src/examples/ai-server-18-devices.json
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: needs root to create loop devices"; exit 77; fi
for t in losetup blockdev blkid wipefs lsblk findmnt sfdisk mkfs.ext4 mkfs.xfs md5sum jq unshare mknod stat; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
"$tw" plan --help >/dev/null 2>&1 || { echo "SKIP: this tierwise has no plan command"; exit 77; }

tmp=$(mktemp -d /var/tmp/tw-guard.XXXXXX)
shm=$(mktemp -d /dev/shm/tw-guard.XXXXXX)
tag=twguard$$
loops=() mounts=() mds=() dms=() vgs=() pvs=()
. "$(dirname "$0")/lib.sh"
LVMCFG='devices { use_devicesfile=0 } activation { udev_sync=0 udev_rules=0 }'
cleanup() {	# in reverse order of stacking; udev may defer a loop detach, so wait
	local x
	for x in ${mounts[@]+"${mounts[@]}"}; do
		for _ in $(seq 30); do umount "$x" 2>/dev/null && break; sleep 0.1; done
	done
	for x in ${vgs[@]+"${vgs[@]}"}; do
		vgchange --config "$LVMCFG" -an "$x" >/dev/null 2>&1
		vgremove --config "$LVMCFG" -ff -y "$x" >/dev/null 2>&1
	done
	for x in ${pvs[@]+"${pvs[@]}"}; do pvremove --config "$LVMCFG" -ff -y "$x" >/dev/null 2>&1; done
	for x in ${dms[@]+"${dms[@]}"}; do
		for _ in $(seq 20); do dmsetup remove "$x" 2>/dev/null && break; sleep 0.1; done
	done
	for x in ${mds[@]+"${mds[@]}"}; do [ -e "$x" ] && mdadm --stop "$x" >/dev/null 2>&1; done
	detach_loops ${loops[@]+"${loops[@]}"}
	rm -rf "$tmp" "$shm"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
fail=0 nfail=0 ran=0 skipped=()
bad() { echo "FAIL: $*"; fail=1; nfail=$((nfail + 1)); }
skip_case() { echo "SKIP-CASE: $*"; skipped+=("${1%%:*}"); }

# ---- shims: every tool that could change a device or the system logs and fails
mkdir "$tmp/bin"
for t in mkfs mkfs.ext4 mkfs.ext3 mkfs.ext2 mkfs.xfs mkfs.btrfs mkfs.vfat mdadm mount umount \
	udevadm systemctl; do
	printf '#!/bin/sh\n{ printf %%s "%s"; printf " [%%s]" "$@"; echo; } >>"%s"\nexit 1\n' \
		"$t" "$tmp/calls" >"$tmp/bin/$t"
	chmod +x "$tmp/bin/$t"
done
shimmed() { PATH="$tmp/bin:$PATH" "$@"; }
no_calls() { [ ! -e "$tmp/calls" ] || { bad "$1: called $(cat "$tmp/calls")"; rm -f "$tmp/calls"; }; }
etc_sum() { cat /etc/fstab /etc/udev/rules.d/60-tierwise.rules /etc/mdadm/mdadm.conf /etc/mdadm.conf 2>/dev/null | md5sum; }
etc_before=$(etc_sum)

# new_loop NAME [losetup options] — a 1 GiB sparse file in /dev/shm on a loop
# device (non-rotational, like an SSD); sets LOOP
new_loop() {
	local f=$shm/$1.img
	truncate -s 1G "$f"
	LOOP=$(losetup --find --show "${@:2}" "$f") || { echo "SKIP: losetup failed"; exit 77; }
	loops+=("$LOOP")
}
settle() { udevadm settle 2>/dev/null; sync; }

# state DEV — what must not change: signatures, allocation, first and last MiB
state() {
	local mib=$(($(blockdev --getsize64 "$1") >> 20)) back
	blkid -p -o export "$1" 2>&1
	wipefs -n "$1" 2>&1
	back=$(losetup -nO BACK-FILE "$1" 2>/dev/null) && [ -n "$back" ] && stat -c %b "$back"
	dd if="$1" bs=1M count=1 status=none iflag=direct | md5sum
	dd if="$1" bs=1M skip=$((mib - 1)) count=1 status=none iflag=direct | md5sum
}
# stable_state DEV FILE — the state once it has stopped changing (an md array
# marks its superblock clean a moment after it was last written)
stable_state() {
	state "$1" >"$2"
	for _ in 1 2 3 4 5; do
		sleep 0.3
		state "$1" >"$2.again"
		cmp -s "$2" "$2.again" && return 0
		mv "$2.again" "$2"
	done
}
unchanged() {	# DESCRIPTION DEV BEFORE-FILE
	state "$2" >"$tmp/after"
	cmp -s "$3" "$tmp/after" || bad "$1: $2 changed: $(diff "$3" "$tmp/after")"
}

# profile ID PATH SIZE — a one-device profile (the figures of the example's
# first device) naming PATH: a plan for it proposes to format PATH
profile() {
	jq --arg id "$1" --arg path "$2" --argjson size "$3" '{schema, host, created, tool,
		devices: [.devices[0] | .id = $id | .path = $path | .transport = "loop" |
			.capacity_bytes = $size |
			.probe = {mode: "quick", target: "raw-readonly", seconds: null}]}' "$example"
}
plan() { "$tw" plan "$@" --policies "$pol"; }

# script_for DEV FILE — the --no-inventory plan script for DEV, checked by bash -n
script_for() {
	profile "${1#/dev/}" "$1" "$(blockdev --getsize64 "$1")" >"$tmp/p.json"
	plan "$tmp/p.json" --no-inventory --format script >"$2" 2>"$tmp/err" ||
		bad "script for $1: exit $?: $(cat "$tmp/err")"
	bash -n "$2" || bad "script for $1: bash -n"
	grep -qF "check_device '$1'" "$2" || bad "script for $1: does not check $1"
}

# run_script WANT-EXIT DESCRIPTION SCRIPT ARGS... — shimmed; output in $tmp/out, $tmp/err
run_script() {
	local want=$1 what=$2 rc
	shift 2
	shimmed bash "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$want" = nonzero ]; then
		[ "$rc" -ne 0 ] || bad "$what: exit 0: $(cat "$tmp/out")"
	elif [ "$rc" -ne "$want" ]; then
		bad "$what: exit $rc, wanted $want: $(cat "$tmp/out" "$tmp/err")"
	fi
}

# guard NAME DEV PROBE-REASON SCRIPT-REASON plain|in-use — parts a and b above
guard() {
	local name=$1 dev=$2 why=$3 swhy=$4 kind=$5 s=$tmp/$1.sh rc nfail0=$nfail
	ran=$((ran + 1))
	settle
	stable_state "$dev" "$tmp/before"
	# a. the probe
	shimmed "$tw" probe "$dev" --destructive --yes --quiet --seconds 1 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -ne 0 ] || bad "$name: destructive probe of $dev exited 0"
	grep -qF "refusing destructive tests on ${dev#/dev/}:" "$tmp/err" && grep -qF -- "$why" "$tmp/err" ||
		bad "$name: probe refusal does not name '$why': $(cat "$tmp/err")"
	no_calls "$name: probe"
	unchanged "$name: probe" "$dev" "$tmp/before"
	# b. the script: refused without and with --apply
	script_for "$dev" "$s"
	for args in "" --apply; do
		run_script 1 "$name: script $args" "$s" $args
		grep -qF "refusing $dev: $swhy" "$tmp/err" ||
			bad "$name: script $args: no refusal '$swhy': $(cat "$tmp/out" "$tmp/err")"
		grep -q '^running:' "$tmp/out" && bad "$name: script $args ran: $(grep '^running:' "$tmp/out")"
		grep -q '^would run:' "$tmp/out" && bad "$name: script $args went past the checks"
		no_calls "$name: script $args"
	done
	# forcing another device changes nothing
	run_script 1 "$name: script forcing another device" "$s" --apply --force-device /dev/null
	no_calls "$name: script forcing another device"
	if [ "$kind" = plain ]; then
		run_script 0 "$name: forced dry run" "$s" --force-device "${dev#/dev/}"
		grep -q "^note: $dev is not blank" "$tmp/out" || bad "$name: forced dry run: no note: $(cat "$tmp/out")"
		grep -q "^would run: mkfs\.[a-z0-9]* -[fF] $dev\$" "$tmp/out" ||
			bad "$name: forced dry run: no mkfs -f/-F: $(cat "$tmp/out")"
		no_calls "$name: forced dry run"
		# forced --apply gets past the checks: the mkfs shim is the first call, and fails
		run_script nonzero "$name: forced --apply (mkfs shim)" "$s" --apply --force-device "$dev"
		grep -q "^mkfs\.[a-z0-9]* \[-[fF]\] \[$dev\]\$" "$tmp/calls" 2>/dev/null ||
			bad "$name: forced --apply: mkfs not reached: $(cat "$tmp/calls" "$tmp/out" "$tmp/err" 2>/dev/null)"
		[ "$(cat "$tmp/calls" 2>/dev/null | wc -l)" = 1 ] ||
			bad "$name: forced --apply: calls $(cat "$tmp/calls" 2>/dev/null)"
		rm -f "$tmp/calls"
	else
		for args in "" --apply; do
			run_script 1 "$name: forced script $args" "$s" $args --force-device "$dev"
			grep -qF "refusing $dev: $swhy" "$tmp/err" && grep -qF "even with --force-device" "$tmp/err" ||
				bad "$name: forced script $args: not refused: $(cat "$tmp/out" "$tmp/err")"
			grep -q '^would run:\|^running:' "$tmp/out" && bad "$name: forced script $args went past the checks"
			no_calls "$name: forced script $args"
		done
	fi
	unchanged "$name: scripts" "$dev" "$tmp/before"
	[ "$nfail" -ne "$nfail0" ] || echo "ok: $name: refused ($why)"
}
export -f guard state stable_state unchanged profile plan script_for run_script shimmed no_calls bad settle
export tw pol example tmp

have_md() {
	command -v mdadm >/dev/null || return 1
	[ -e /proc/mdstat ] || modprobe md_mod 2>/dev/null
	[ -e /proc/mdstat ]
}
have_dm() {
	command -v dmsetup >/dev/null || return 1
	dmsetup version >/dev/null 2>&1 || { modprobe dm_mod 2>/dev/null; dmsetup version >/dev/null 2>&1; }
}
# holders DEV — the names holding DEV
holders() { ls "/sys/class/block/${1#/dev/}/holders/" 2>/dev/null; }

# =========================== A. the guard ===================================

# A control: the script lets a blank device through (the refusals are not
# unconditional) and only shows the commands
new_loop blank
s=$tmp/blank.sh
script_for "$LOOP" "$s"
stable_state "$LOOP" "$tmp/before"
run_script 0 "blank: dry run" "$s"
grep -q "^ok: $LOOP is blank" "$tmp/out" && grep -q "^would run: mkfs\.[a-z0-9]* $LOOP\$" "$tmp/out" ||
	bad "blank: dry run: $(cat "$tmp/out")"
no_calls "blank: dry run"
unchanged "blank: dry run" "$LOOP" "$tmp/before"
blank=$LOOP

# partition tables: GPT with a partition (partition scanning on), MBR
new_loop gpt -P
printf 'label: gpt\n,256M\n' | sfdisk -q "$LOOP" >/dev/null 2>&1 || bad "sfdisk gpt failed"
settle
# where the kernel did not rescan, add the partition device by hand
[ -e "/sys/class/block/${LOOP#/dev/}/${LOOP#/dev/}p1" ] || partx -a "$LOOP" 2>/dev/null
guard gpt "$LOOP" "gpt partition table" "not blank: blkid -p: PTTYPE=gpt" plain
if [ -e "/sys/class/block/${LOOP#/dev/}/${LOOP#/dev/}p1" ]; then	# the partition is named too
	shimmed "$tw" probe "$LOOP" --destructive --yes --quiet >/dev/null 2>"$tmp/err"
	grep -qF "has 1 partition" "$tmp/err" || bad "gpt: the partition is not named: $(cat "$tmp/err")"
else
	echo "note: gpt: no partition device appeared (partition scanning unavailable)"
fi
new_loop mbr
if command -v parted >/dev/null; then
	parted -s "$LOOP" mklabel msdos mkpart primary 1MiB 257MiB || bad "parted msdos failed"
else
	echo "note: parted not installed: the MBR is written with sfdisk"
	printf 'label: dos\n,256M\n' | sfdisk -q "$LOOP" >/dev/null 2>&1 || bad "sfdisk dos failed"
fi
guard mbr "$LOOP" "dos partition table" "not blank: blkid -p: PTTYPE=dos" plain

# filesystems
new_loop ext4
mkfs.ext4 -q -F "$LOOP"
guard ext4 "$LOOP" "ext4 signature" "not blank: blkid -p: TYPE=ext4" plain
new_loop xfs
mkfs.xfs -q -f "$LOOP"
guard xfs "$LOOP" "xfs signature" "not blank: blkid -p: TYPE=xfs" plain

# md: a running RAID1 of two loops (its members are held), then stopped
# (signature only).  Without the md driver, a hand-written 0.90 superblock
# gives the signature (blkid -p reads it as linux_raid_member).
if have_md; then
	new_loop md-a; mda=$LOOP
	new_loop md-b; mdb=$LOOP
	md=/dev/md/$tag
	mds+=("$md")
	if mdadm --create "$md" --run --assume-clean --level=1 --raid-devices=2 --metadata=1.2 \
		"$mda" "$mdb" >"$tmp/mdadm.log" 2>&1; then
		settle
		h=$(holders "$mda")
		[ -n "$h" ] || bad "md: $mda has no holder while the array runs"
		guard md-running "$mda" "held by md" "held by md" in-use
		mdadm --stop "$md" >/dev/null 2>&1 || bad "mdadm --stop failed"
		settle
		# udev may assemble it again (incremental assembly, under another
		# name): stop whatever array holds our member, and only that
		for h in $(holders "$mda"); do mdadm --stop "/dev/$h" >/dev/null 2>&1; done
		settle
		[ -z "$(holders "$mda")" ] || bad "md: $mda still held after --stop: $(holders "$mda")"
		guard md-signature "$mdb" "linux_raid_member signature" "not blank: blkid -p: TYPE=linux_raid_member" plain
	else
		bad "mdadm --create failed: $(cat "$tmp/mdadm.log")"
	fi
else
	skip_case "md-running: no md driver in this kernel (no /proc/mdstat) or mdadm missing"
	new_loop md-sig
	python3 - "$LOOP" <<'PY' || bad "writing an md 0.90 superblock failed"
import os, struct, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
size = os.lseek(fd, 0, os.SEEK_END)
# the 0.90 superblock: the last 64 KiB-aligned 64 KiB of the device
sb = struct.pack('<16I', 0xa92b4efc, 0, 90, 0, 0, 0x7477, 0, 1, (size >> 10) - 64, 2, 2, 0, 0, 1, 2, 3)
os.pwrite(fd, sb, (size & ~0xffff) - 0x10000)
os.fsync(fd)
os.close(fd)
PY
	echo "note: md-signature: a hand-written md 0.90 superblock (no md driver to create an array)"
	guard md-signature "$LOOP" "linux_raid_member signature" "not blank: blkid -p: TYPE=linux_raid_member" plain
fi

# LVM: a PV (signature only), then a VG with an active LV (the PV is held)
if command -v pvcreate >/dev/null; then
	new_loop pv
	pvs+=("$LOOP")
	if pvcreate --config "$LVMCFG" -y "$LOOP" >"$tmp/lvm.log" 2>&1; then
		guard lvm-pv "$LOOP" "LVM2_member signature" "not blank: blkid -p: TYPE=LVM2_member" plain
		if have_dm; then
			vgs+=("$tag")
			if vgcreate --config "$LVMCFG" "$tag" "$LOOP" >"$tmp/lvm.log" 2>&1 &&
				lvcreate --config "$LVMCFG" -y -n lv -L 64M "$tag" >>"$tmp/lvm.log" 2>&1; then
				settle
				[ -n "$(holders "$LOOP")" ] || bad "lvm: $LOOP has no holder with an active LV"
				guard lvm-active-lv "$LOOP" "held by dm-" "held by dm-" in-use
			else
				bad "vgcreate/lvcreate failed: $(cat "$tmp/lvm.log")"
			fi
		else
			skip_case "lvm-active-lv: no device mapper in this kernel"
		fi
	else
		bad "pvcreate failed: $(cat "$tmp/lvm.log")"
	fi
else
	skip_case "lvm-pv, lvm-active-lv: lvm2 (pvcreate) not installed"
fi

# a mounted filesystem (written in full now, so that the mount writes nothing
# in the background)
new_loop mounted
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"
mkdir "$tmp/mnt"
if mount "$LOOP" "$tmp/mnt"; then
	mounts+=("$tmp/mnt")
	guard mounted "$LOOP" "mounted at $tmp/mnt" "mounted at $tmp/mnt" in-use
	umount "$tmp/mnt" && mounts=()
else
	bad "mounting an ext4 loop device failed"
fi

# a holder: dm-linear over a blank loop device
if have_dm; then
	new_loop dm
	dms+=("$tag-lin")
	if dmsetup create "$tag-lin" --table "0 $(blockdev --getsz "$LOOP") linear $LOOP 0" 2>"$tmp/err"; then
		settle
		guard dm-linear "$LOOP" "held by dm-" "held by dm-" in-use
	else
		bad "dmsetup create failed: $(cat "$tmp/err")"
	fi
else
	skip_case "dm-linear: no device mapper in this kernel (dmsetup version fails)"
fi

# a holder simulated in a private mount namespace: an entry bind-mounted over
# the blank device's holders directory in sysfs.  tierwise and the script read
# the holders there, as they would those of md or dm.
new_loop sim-held
mkdir "$tmp/fake-holders"
: >"$tmp/fake-holders/dm-99"
hdir=$(readlink -f "/sys/class/block/${LOOP#/dev/}")/holders
if unshare -m --propagation private true 2>/dev/null; then
	unshare -m --propagation private bash -c '
		mount --bind "$1" "$2" || { echo "SKIP-CASE: simulated holder: bind mount over sysfs failed"; exit 77; }
		fail=0 nfail=0
		guard simulated-holder "$3" "held by dm-99" "held by dm-99" in-use
		exit "$fail"' bash "$tmp/fake-holders" "$hdir" "$LOOP"
	case $? in
	0) ;;
	77) skipped+=(simulated-holder) ;;
	*) fail=1 ;;
	esac
	ran=$((ran + 1))
else
	skip_case "simulated-holder: unshare -m not permitted"
fi

# a passing exclusive claim (as seen right after a destructive probe closed a
# disk) delays a destructive open; a lasting one refuses it.
# hold_excl DEV SECONDS — claim DEV with O_EXCL in the background; sets HOLD
hold_excl() {
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL); print("held", flush=True); time.sleep(float(sys.argv[2]))' \
		"$1" "$2" >"$tmp/held" & HOLD=$!
	for _ in $(seq 50); do [ -s "$tmp/held" ] && break; sleep 0.02; done
}
if command -v python3 >/dev/null; then
	new_loop excl
	hold_excl "$LOOP" 0.5
	"$tw" probe "$LOOP" --destructive --yes --tests rand_read_qd1 --seconds 0.2 --ramp 0 \
		--quiet -o "$tmp/excl.json" >/dev/null 2>"$tmp/err"
	rc=$?
	wait "$HOLD"
	[ "$rc" -eq 0 ] && jq -e '.devices[0].results.rand_read_qd1.iops > 0' "$tmp/excl.json" >/dev/null &&
		echo "ok: transient O_EXCL holder: waited for, probed" ||
		bad "transient O_EXCL holder: rc $rc: $(cat "$tmp/err")"
	hold_excl "$LOOP" 4
	"$tw" probe "$LOOP" --destructive --yes --tests rand_read_qd1 --seconds 0.2 --ramp 0 \
		--quiet -o "$tmp/excl.json" >/dev/null 2>"$tmp/err"
	rc=$?
	kill "$HOLD" 2>/dev/null; wait "$HOLD" 2>/dev/null
	[ "$rc" -ne 0 ] && grep -q "exclusively for writing: Device or resource busy" "$tmp/err" &&
		echo "ok: lasting O_EXCL holder: refused (busy)" ||
		bad "lasting O_EXCL holder: rc $rc: $(cat "$tmp/err")"
	ran=$((ran + 1))
else
	skip_case "O_EXCL holder: no python3"
fi

# ====================== B. generated text is safe ===========================
# The markers are relative: every script runs with $tmp as its working directory.
hostile="x y'q\"\$(touch pwned1)\`touch pwned2\`"	# no newline, no slash
serial_ok="x y'q\$(touch pwned1)\`touch pwned2\`"	# no " either: udev can quote it
nl=$'\n'
cd "$tmp" || exit 1
pwned() { [ ! -e "$tmp/pwned1" ] && [ ! -e "$tmp/pwned2" ] || bad "$1: a string was executed"; }
# refused DESCRIPTION ARGS... — plan ARGS exits 1 and prints nothing
refused() {
	local what=$1 rc
	shift
	plan "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] || bad "$what: exit $rc, wanted 1 (refused): $(head -c 600 "$tmp/out")"
	[ ! -s "$tmp/out" ] || bad "$what: printed although refused"
}
# parses DESCRIPTION FSTAB — findmnt --verify finds no parse error in FSTAB
parses() {
	findmnt --verify --tab-file "$2" >"$tmp/verify" 2>&1
	grep -Eq '^(0 parse errors|Success)' "$tmp/verify" || bad "$1: findmnt --verify: $(cat "$tmp/verify")"
}

# B1. an inventory with hostile labels, serials and an existing mount point:
# two disks with filesystems (kept, so their fstab lines are active)
ino() {	# SERIAL MOUNTPOINT UUID FSTYPE — the inventory; profile devices twa, twb
	jq -n --arg s "$1" --arg m "$2" --arg u "$3" --arg f "$4" --arg l "$hostile$nl" '
		def dev($n; $mp): {name: $n, path: ("/dev/" + $n), serial: ($s + " " + $n), fstype: $f,
			uuid: $u, label: $l, pttype: null, mountpoints: $mp, swap: false, holders: [],
			partitions: [], root: false};
		{schema: "tierwise.inventory/1",
		 devices: [dev("twa"; [$m]), dev("twb"; [])]}'
}
jq '{schema, host, created, tool, devices: [
	(.devices[0] | .id = "twa" | .path = "/dev/twa" | .serial = null),
	(.devices[1] | .id = "twb" | .path = "/dev/twb" | .serial = null)]}' "$example" >"$tmp/two.json"
uuid=0a1b2c3d-0000-4000-8000-00000000abcd
mp="$tmp/mnt/$hostile"
ino "$serial_ok" "$mp" "$uuid" ext4 >"$tmp/inv.json"
evil="$tmp/a b/$hostile"
pl=(--inventory "$tmp/inv.json" --mount "hot=$evil/h" --mount "warm=$evil/w" --mount "cold=$evil/c")
plan "$tmp/two.json" "${pl[@]}" --format fstab >"$tmp/evil.fstab" 2>"$tmp/err" ||
	bad "hostile inventory: fstab: exit $?: $(cat "$tmp/err")"
grep -v '^#' "$tmp/evil.fstab" | awk 'NF != 6 { print; bad = 1 } END { exit bad }' >"$tmp/odd" ||
	bad "hostile fstab: a line without 6 fields: $(cat "$tmp/odd")"
grep -q '\\040' "$tmp/evil.fstab" || bad "hostile fstab: no \\040 escape: $(cat "$tmp/evil.fstab")"
# twa keeps its existing (hostile) mount point; twb gets a planned one
awk '!/^#/ { print $2 }' "$tmp/evil.fstab" >"$tmp/points"
[ "$(wc -l <"$tmp/points")" = 2 ] || bad "hostile fstab: not 2 active lines: $(cat "$tmp/evil.fstab")"
parses "hostile fstab" "$tmp/evil.fstab"
# findmnt unescapes the targets: the kept mount point whole, and a planned one
findmnt --tab-file "$tmp/evil.fstab" -l -n -o TARGET >"$tmp/targets" 2>&1 || bad "hostile fstab: findmnt cannot read it"
grep -qxF "$mp" "$tmp/targets" || bad "hostile fstab: the kept mount point is not read back whole: $(cat "$tmp/targets")"
grep -vxF "$mp" "$tmp/targets" | grep -Eqx "$(printf '%s' "$evil" | sed 's/[][\\.*^$()|+?{}]/\\&/g')/[hwc](-[0-9])?" ||
	bad "hostile fstab: the planned mount point is not read back whole: $(cat "$tmp/targets")"
plan "$tmp/two.json" "${pl[@]}" --format udev >"$tmp/evil.udev" 2>"$tmp/err" ||
	bad "hostile inventory: udev: exit $?: $(cat "$tmp/err")"
grep -qF "ENV{ID_SERIAL_SHORT}==\"x_y'q" "$tmp/evil.udev" || bad "hostile udev: serial not matched: $(cat "$tmp/evil.udev")"
plan "$tmp/two.json" "${pl[@]}" --format script >"$tmp/evil.sh" 2>"$tmp/err" ||
	bad "hostile inventory: script: exit $?: $(cat "$tmp/err")"
bash -n "$tmp/evil.sh" || bad "hostile inventory: script: bash -n"
run_script 0 "hostile inventory: dry run" "$tmp/evil.sh"
pwned "hostile inventory: dry run"
no_calls "hostile inventory: dry run"
[ ! -e "$tmp/a b" ] && [ ! -e "$tmp/mnt/x y'q" ] || bad "hostile inventory: the dry run made a directory"
for f in json md text; do
	plan "$tmp/two.json" "${pl[@]}" --format "$f" >"$tmp/out.$f" 2>"$tmp/err" ||
		bad "hostile inventory: --format $f: exit $?: $(cat "$tmp/err")"
done
jq -e . "$tmp/out.json" >/dev/null || bad "hostile inventory: --format json is not JSON"
pwned "hostile inventory"
# what cannot be written: a serial with ", a mount point with a newline, a
# UUID or filesystem type that is not plain
ino "q\"uote" "$mp" "$uuid" ext4 >"$tmp/inv-q.json"
refused "serial with \": udev" "$tmp/two.json" --inventory "$tmp/inv-q.json" --format udev
plan "$tmp/two.json" --inventory "$tmp/inv-q.json" --format script >"$tmp/q.sh" 2>"$tmp/err" ||
	bad "serial with \": script: exit $?: $(cat "$tmp/err")"
grep -q "^# skipped: its name or serial cannot be quoted in a udev rule" "$tmp/q.sh" ||
	bad "serial with \": the script does not skip the rule"
ino "$hostile" "$tmp/mnt/a${nl}b" "$uuid" ext4 >"$tmp/inv-nl.json"
refused "mount point with a newline: fstab" "$tmp/two.json" --inventory "$tmp/inv-nl.json" --format fstab
refused "mount point with a newline: script" "$tmp/two.json" --inventory "$tmp/inv-nl.json" --format script
refused "--mount with a newline: script" "$tmp/two.json" --inventory "$tmp/inv.json" --mount "warm=/srv/a${nl}b" --format script
ino "$hostile" "$mp" "\$(touch $tmp/pwned1)" ext4 >"$tmp/inv-u.json"
refused "hostile UUID: fstab" "$tmp/two.json" --inventory "$tmp/inv-u.json" --format fstab
refused "hostile UUID: script" "$tmp/two.json" --inventory "$tmp/inv-u.json" --format script
ino "$hostile" "$mp" "$uuid" "ext4 \$(x)" >"$tmp/inv-f.json"
refused "hostile fstype: fstab" "$tmp/two.json" --inventory "$tmp/inv-f.json" --format fstab
pwned "refusals"

# B2. a catalog profile whose ids and models are hostile (newline included)
jq --arg e "$hostile$nl z" '{schema, host, created, tool, devices: [
	(.devices[0] | .id = $e | .model = $e | .serial = $e),
	(.devices[1] | .id = ("b " + $e) | .model = $e)]}' "$example" >"$tmp/cat.json"
"$tw" validate "$tmp/cat.json" >/dev/null 2>&1 || bad "hostile catalog profile does not validate"
plan "$tmp/cat.json" --no-inventory --format script >"$tmp/cat.sh" 2>"$tmp/err" ||
	bad "hostile catalog: script: exit $?: $(cat "$tmp/err")"
bash -n "$tmp/cat.sh" || bad "hostile catalog: script: bash -n"
sed '/^set -euo pipefail$/,$d' "$tmp/cat.sh" | grep -v '^#' | grep -q . &&
	bad "hostile catalog: a newline in an id ends a comment of the script's header"
run_script 0 "hostile catalog: dry run" "$tmp/cat.sh"
out=$(cat "$tmp/out")
[[ $out == *"skip: $hostile$nl z is not a device of this machine"* ]] ||
	bad "hostile catalog: the skip line does not name the id whole: $(cat "$tmp/out")"
plan "$tmp/cat.json" --no-inventory --format fstab >"$tmp/cat.fstab" 2>"$tmp/err" ||
	bad "hostile catalog: fstab: exit $?: $(cat "$tmp/err")"
grep -v '^#' "$tmp/cat.fstab" | grep -q . && bad "hostile catalog: fstab: a line that is not a comment: $(cat "$tmp/cat.fstab")"
parses "hostile catalog" "$tmp/cat.fstab"
refused "hostile catalog id (\"): udev" "$tmp/cat.json" --no-inventory --format udev
plan "$tmp/cat.json" --no-inventory --format json >"$tmp/out.json" 2>/dev/null || bad "hostile catalog: json"
jq -e --arg e "$hostile$nl z" '[.. | strings] | index($e) != null' "$tmp/out.json" >/dev/null ||
	bad "hostile catalog: --format json does not carry the id intact"
pwned "hostile catalog"

# B3. a hostile device node: a block node named with every hostile character
# (newline included) for the blank loop device; the mkfs shim must get its
# path as one intact argument
mkdir "$tmp/dev"
node="$tmp/dev/$hostile$nl end"
mknod "$node" b "$(($(stat -c 0x%t "$blank")))" "$(($(stat -c 0x%T "$blank")))" || bad "mknod failed"
profile blank "$node" "$(blockdev --getsize64 "$blank")" >"$tmp/node.json"
plan "$tmp/node.json" --no-inventory --format script >"$tmp/node.sh" 2>"$tmp/err" ||
	bad "hostile node: script: exit $?: $(cat "$tmp/err")"
bash -n "$tmp/node.sh" || bad "hostile node: script: bash -n"
stable_state "$blank" "$tmp/before"
# the fstab comment offers `blkid … SOURCE` to copy: pasted, it runs nothing else
plan "$tmp/node.json" --no-inventory --format fstab >"$tmp/node.fstab" 2>"$tmp/err" ||
	bad "hostile node: fstab: exit $?: $(cat "$tmp/err")"
parses "hostile node" "$tmp/node.fstab"
sed -n 's/^# new .*: once made, replace <new-uuid> with `\(blkid .*\)`$/\1/p' "$tmp/node.fstab" >"$tmp/paste"
[ "$(wc -l <"$tmp/paste")" = 1 ] || bad "hostile node: fstab: no blkid command to copy: $(cat "$tmp/node.fstab")"
bash "$tmp/paste" >/dev/null 2>&1
pwned "hostile node: the fstab comment's command, pasted"
run_script 0 "hostile node: dry run" "$tmp/node.sh"
grep -qF "would run: mkfs.ext4 $(printf %q "$node")" "$tmp/out" ||
	bad "hostile node: dry run does not show mkfs of the node, quoted: $(cat "$tmp/out" "$tmp/err")"
no_calls "hostile node: dry run"
run_script nonzero "hostile node: --apply (mkfs shim)" "$tmp/node.sh" --apply
printf 'mkfs.ext4 [%s]\n' "$node" | cmp -s - "$tmp/calls" ||
	bad "hostile node: mkfs did not get the path as one argument: $(cat "$tmp/calls" "$tmp/err" 2>/dev/null)"
rm -f "$tmp/calls"
pwned "hostile node"
unchanged "hostile node" "$blank" "$tmp/before"
rm -f "$node"

[ "$(etc_sum)" = "$etc_before" ] || bad "/etc/fstab, the udev rules or mdadm.conf changed!"
echo "guard: $ran device cases run; skipped: ${skipped[*]:-none}"
[ "$fail" -eq 0 ] && echo "guard: all checks passed"
exit "$fail"
