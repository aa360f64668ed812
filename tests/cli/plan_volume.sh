#!/usr/bin/env bash
# tierwise plan: one LVM volume per tier for unlike devices, on two
# loop devices of different sizes in the warm tier: the plan (one volume,
# linear, one mount), fstab, udev (read-ahead on the volume, not its members)
# and the script: bash -n, a dry run that changes nothing (pvcreate,
# vgcreate, lvcreate, mkfs, mdadm, mount, udevadm, systemctl are shims that
# log any call) and prints pvcreate/vgcreate/lvcreate/mkfs, and a refusal
# before anything runs once one device carries a signature.
# Needs root (loop devices); skipped with the reason otherwise.
set -u
tw=$1
export COLUMNS=1000	# whole sentences to match; the wrap at 80 is checked by golden.sh
src=${TW_SRCDIR:?}
ex=$src/examples/ai-server-18-devices.json
pol=$src/policies
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: needs root to create loop devices"; exit 77; fi
for t in losetup jq blkid wipefs lsblk mkfs.ext4 md5sum; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
tmp=$(mktemp -d /var/tmp/tw-plan-volume.XXXXXX)
shm=$(mktemp -d /dev/shm/tw-plan-volume.XXXXXX)
loops=()
. "$(dirname "$0")/lib.sh"
cleanup() {
	detach_loops ${loops[@]+"${loops[@]}"}
	rm -rf "$tmp" "$shm"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
fail=0
bad() { echo "FAIL: $*"; fail=1; }

truncate -s 3G "$shm/a.img"
truncate -s 5G "$shm/b.img"
for x in a b; do
	l=$(losetup --find --show "$shm/$x.img") || { echo "SKIP: losetup failed"; exit 77; }
	loops+=("$l")
done
A=${loops[0]} B=${loops[1]}
# the PM9A1 1 TB and the 980 PRO 2 TB of the published server, as A and B
jq --arg a "$A" --arg b "$B" '.devices |= [.[] | select(.id == "pm9a1-1t" or .id == "980pro-2t")
	| if .id == "pm9a1-1t" then .path = $a else .path = $b end]' "$ex" >"$tmp/prof.json"
plan() {
	"$tw" plan "$tmp/prof.json" --policies "$pol" --no-inventory \
		--need model-loading=2T,checkpoints=0,vector-db=0,logs-metadata=0,archive=0 "$@"
}
state() { for l in "$A" "$B"; do blkid -p -o export "$l"; wipefs -n "$l"; dd if="$l" bs=1M count=4 status=none | md5sum; done; }

# ---- the plan: both in warm, one linear volume, one mount
plan --format json >"$tmp/plan.json" 2>"$tmp/err" || bad "plan: exit $?: $(cat "$tmp/err")"
jq -e '.tiers[1].volume.vg == "tw-models" and .tiers[1].volume.lv == "models"
	and .tiers[1].volume.layout == "linear" and (.tiers[1].volume.devices | sort) == ["980pro-2t", "pm9a1-1t"]' \
	"$tmp/plan.json" >/dev/null || bad "no linear volume tw-models/models of both: $(jq -c '.tiers[1].volume' "$tmp/plan.json")"
jq -e '(.tiers[1].mounts | length) == 1 and .tiers[1].mounts[0].source == "/dev/tw-models/models"
	and .tiers[1].mounts[0].point == "/srv/models" and .tiers[1].mounts[0].fs == "xfs"' \
	"$tmp/plan.json" >/dev/null || bad "not one mount of the volume: $(jq -c '.tiers[1].mounts' "$tmp/plan.json")"
jq -e '.tiers[1].volume.why | test("differ in size")' "$tmp/plan.json" >/dev/null || bad "linear: no reason"

# ---- fstab and udev
plan --format fstab >"$tmp/fstab" || bad "fstab: exit $?"
grep -qF '# after mkfs: UUID=<new-uuid> /srv/models xfs noatime,nofail,x-systemd.device-timeout=10s 0 0' "$tmp/fstab" ||
	bad "fstab: no line for the volume: $(cat "$tmp/fstab")"
grep -qF 'blkid -s UUID -o value /dev/tw-models/models' "$tmp/fstab" || bad "fstab: no blkid hint for the volume"
plan --format udev >"$tmp/udev" || bad "udev: exit $?"
grep -qF 'KERNEL=="dm-*", ENV{DM_VG_NAME}=="tw-models", ENV{DM_LV_NAME}=="models", ATTR{queue/read_ahead_kb}="4096"' "$tmp/udev" ||
	bad "udev: no read-ahead rule for the volume: $(cat "$tmp/udev")"
[ "$(grep -v '^#' "$tmp/udev" | grep -c read_ahead_kb)" = 1 ] || bad "udev: read-ahead on a member too: $(cat "$tmp/udev")"

# ---- the script: dry run changes nothing and says what it would run
mkdir "$tmp/bin"
for t in pvcreate vgcreate lvcreate mkfs.ext4 mkfs.xfs mdadm mount udevadm systemctl; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$t" "$tmp/calls" >"$tmp/bin/$t"
	chmod +x "$tmp/bin/$t"
done
shimmed() { PATH="$tmp/bin:$PATH" "$@"; }
plan --format script >"$tmp/s.sh" 2>"$tmp/err" || bad "script: exit $?: $(cat "$tmp/err")"
bash -n "$tmp/s.sh" || bad "script: bash -n"
state >"$tmp/before"
shimmed bash "$tmp/s.sh" >"$tmp/out" 2>"$tmp/err" || bad "dry run: exit $?: $(cat "$tmp/err")"
for want in "would run: pvcreate $A" "would run: pvcreate $B" "would run: vgcreate tw-models $A $B" \
	"would run: lvcreate --yes --name models --extents 100%FREE tw-models" \
	"would run: mkfs.xfs /dev/tw-models/models"; do
	grep -qxF "$want" "$tmp/out" || bad "dry run: no '$want': $(cat "$tmp/out")"
done
grep -q '^running:' "$tmp/out" && bad "dry run ran: $(grep '^running:' "$tmp/out")"
[ ! -e "$tmp/calls" ] || bad "dry run called: $(cat "$tmp/calls")"
state >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || bad "dry run changed a device"

# ---- a signature on B: refused before anything runs, even with --apply
mkfs.ext4 -q -F "$B"
state >"$tmp/before"
shimmed bash "$tmp/s.sh" --apply >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || bad "--apply on ext4: exit $rc, wanted 1: $(cat "$tmp/out" "$tmp/err")"
grep -q "refusing $B: not blank: .*TYPE=ext4" "$tmp/err" || bad "refusal message: $(cat "$tmp/err")"
grep -q -e '^running:' -e '^would run:' "$tmp/out" && bad "refused but ran: $(cat "$tmp/out")"
[ ! -e "$tmp/calls" ] || bad "refused but called: $(cat "$tmp/calls")"
state >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || bad "refused run changed a device"
[ "$fail" = 0 ] && echo "ok: one LVM volume per tier: plan, fstab, udev, script dry run, refusal"
exit $fail
