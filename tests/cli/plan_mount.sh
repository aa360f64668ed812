#!/usr/bin/env bash
# tierwise plan --format fstab / udev / script, on loop devices this test
# makes (A blank, B ext4, C xfs; sparse files in /dev/shm, so the loops are
# non-rotational like SSDs):
#  1. fstab from a plan with the inventory: UUID= lines for B and C (reused),
#     "# after mkfs:" lines for new filesystems, and findmnt --verify finds no
#     parse error and no error but unreachable (nonexistent) mount points;
#  2. udev rules: one rule per loop device, scheduler none, read-ahead only
#     in the warm tier;
#  3. the script passes bash -n; run without --apply it changes nothing
#     (blkid, wipefs, allocated blocks and checksums of the first 64 MiB and
#     last MiB of every device before == after) and formats neither B nor C;
#  4. with --apply, on a plan made as if every disk were new (--no-inventory),
#     it refuses B, which carries ext4, with exit 1 before changing anything:
#     mkfs, mdadm, mount, udevadm and systemctl are shims that log any call;
#  5. a mount point with a space and $(touch …) is written as \040 in fstab,
#     parsed back by findmnt to the same path, and never executed by the
#     script; one with a newline is refused.
# Needs root (loop devices); skipped with the reason otherwise.
set -u
tw=$1
export COLUMNS=1000	# whole sentences to match; the wrap at 80 is checked by golden.sh
pol=${TW_SRCDIR:?}/policies
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: needs root to create loop devices"; exit 77; fi
for t in losetup blockdev mkfs.ext4 mkfs.xfs findmnt blkid wipefs lsblk md5sum; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
"$tw" plan --help >/dev/null 2>&1 || { echo "SKIP: this tierwise has no plan command"; exit 77; }
tmp=$(mktemp -d /var/tmp/tw-plan-mount.XXXXXX)
shm=$(mktemp -d /dev/shm/tw-plan-mount.XXXXXX)
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

# ---- the devices and their profile
for x in a b c; do truncate -s 300G "$shm/$x.img"; done
mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1 "$shm/b.img"
mkfs.xfs -q -f "$shm/c.img"
for x in a b c; do
	l=$(losetup --find --show "$shm/$x.img") || { echo "SKIP: losetup failed"; exit 77; }
	loops+=("$l")
done
A=${loops[0]} B=${loops[1]} C=${loops[2]}
uuidB=$(blkid -p -s UUID -o value "$B") uuidC=$(blkid -p -s UUID -o value "$C")
[ -n "$uuidB" ] && [ -n "$uuidC" ] || { echo "SKIP: blkid -p sees no UUID on the test filesystems"; exit 77; }
"$tw" probe "$A" "$B" "$C" --tests seq_read,rand_read_qd1 --seconds 1 --ramp 0.2 --quiet \
	-o "$tmp/prof.json" >/dev/null 2>"$tmp/err" || { echo "SKIP: probe failed: $(cat "$tmp/err")"; exit 77; }
"$tw" list --format json >"$tmp/inv.json" || bad "tierwise list -o failed"

# state DEV — what must not change: signatures, allocation, head and tail checksums
state() {
	local mib=$(($(blockdev --getsize64 "$1") >> 20))
	blkid -p -o export "$1"
	wipefs -n "$1"
	stat -c %b "$(losetup -nO BACK-FILE "$1")"
	dd if="$1" bs=1M count=64 status=none | md5sum
	dd if="$1" bs=1M skip=$((mib - 1)) count=1 status=none | md5sum
}
snapshot() { for l in "$A" "$B" "$C"; do state "$l"; done >"$tmp/$1"; }
unchanged() {	# description, snapshot taken before
	snapshot after
	cmp -s "$tmp/$2" "$tmp/after" || bad "$1: a device changed: $(diff "$tmp/$2" "$tmp/after")"
}
plan() { "$tw" plan "$tmp/prof.json" --policies "$pol" "$@"; }

# ---- 1. fstab with the inventory: B and C reused by UUID
plan --inventory <("$tw" list --format json) --format fstab >"$tmp/fstab" 2>"$tmp/err" ||
	bad "fstab: exit $?: $(cat "$tmp/err")"
grep -q "^UUID=$uuidB /[^ ]* ext4 noatime,nofail,x-systemd.device-timeout=10s 0 2\$" "$tmp/fstab" ||
	bad "fstab: no active line for B (ext4, $uuidB): $(cat "$tmp/fstab")"
grep -q "^UUID=$uuidC /[^ ]* xfs noatime,nofail,x-systemd.device-timeout=10s 0 0\$" "$tmp/fstab" ||
	bad "fstab: no active line for C (xfs, $uuidC)"
grep -q '^# after mkfs: UUID=<new-uuid> /' "$tmp/fstab" || bad "fstab: no line for A's new filesystem"
grep -v '^#' "$tmp/fstab" | grep -v -e "^UUID=$uuidB " -e "^UUID=$uuidC " | grep -q . &&
	bad "fstab: an active line for something that is not an existing filesystem"
grep -v '^#' "$tmp/fstab" | grep -q discard && bad "fstab: discard"
verify() {	# description, fstab file: parses; only unreachable mount points
	findmnt --verify --tab-file "$2" >"$tmp/verify" 2>&1
	grep -q '^0 parse errors' "$tmp/verify" || grep -q '^Success' "$tmp/verify" ||
		bad "$1: findmnt --verify: $(cat "$tmp/verify")"
	grep '\[E\]' "$tmp/verify" | grep -v -e unreachable -e 'No such file' | grep -q . &&
		bad "$1: findmnt --verify errors: $(cat "$tmp/verify")"
}
verify "fstab" "$tmp/fstab"
# with mount points that exist on this machine: not a single error
mkdir -p "$tmp/mnt/hot" "$tmp/mnt/warm" "$tmp/mnt/cold"
for x in -2 -3 -4; do mkdir -p "$tmp/mnt/hot$x" "$tmp/mnt/warm$x" "$tmp/mnt/cold$x"; done
plan --inventory "$tmp/inv.json" --format fstab --mount hot="$tmp/mnt/hot" \
	--mount warm="$tmp/mnt/warm" --mount cold="$tmp/mnt/cold" >"$tmp/fstab-here" 2>"$tmp/err" ||
	bad "fstab (existing points): exit $?: $(cat "$tmp/err")"
grep -q '^UUID=' "$tmp/fstab-here" || bad "fstab (existing points): no active line"
findmnt --verify --tab-file "$tmp/fstab-here" >"$tmp/verify" 2>&1
grep -q '\[E\]' "$tmp/verify" && bad "fstab (existing points): findmnt --verify errors: $(cat "$tmp/verify")"
grep -Eq '^(0 parse errors, 0 errors|Success)' "$tmp/verify" ||
	bad "fstab (existing points): findmnt --verify: $(cat "$tmp/verify")"

# ---- 2. udev rules
plan --inventory "$tmp/inv.json" --format udev >"$tmp/udev" 2>"$tmp/err" || bad "udev: exit $?: $(cat "$tmp/err")"
for l in "$A" "$B" "$C"; do
	grep -q "^ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"${l#/dev/}\", ATTR{queue/scheduler}=\"none\"" \
		"$tmp/udev" || bad "udev: no scheduler rule for $l: $(cat "$tmp/udev")"
done
awk '/^# loop[0-9]+ \(/ { warm = /\(warm tier/; next }
     /^ACTION/ && warm != (index($0, "ATTR{queue/read_ahead_kb}=\"4096\"") > 0) { print; bad = 1 }
     END { exit bad }' "$tmp/udev" >"$tmp/out" || bad "udev: read-ahead outside the warm tier or missing in it: $(cat "$tmp/out")"

# ---- 3. the script, without --apply: nothing changes; shims log every call
mkdir "$tmp/bin"
for t in mkfs.ext4 mkfs.xfs mdadm mount udevadm systemctl; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$t" "$tmp/calls" >"$tmp/bin/$t"
	chmod +x "$tmp/bin/$t"
done
shimmed() { PATH="$tmp/bin:$PATH" "$@"; }
plan --inventory "$tmp/inv.json" --format script >"$tmp/s.sh" 2>"$tmp/err" || bad "script: exit $?: $(cat "$tmp/err")"
head -1 "$tmp/s.sh" | grep -qx '#!/bin/bash' || bad "script: no #!/bin/bash"
grep -qx 'set -euo pipefail' "$tmp/s.sh" || bad "script: no set -euo pipefail"
bash -n "$tmp/s.sh" || bad "script: bash -n"
grep -q -e "make_fs '[a-z0-9]*' '$B'" -e "make_fs '[a-z0-9]*' '$C'" -e "check_device '$B'" "$tmp/s.sh" &&
	bad "script: formats a reused filesystem"
snapshot before
shimmed bash "$tmp/s.sh" >"$tmp/out" 2>"$tmp/err" || bad "script dry run: exit $?: $(cat "$tmp/err")"
grep -q "^would run: mkfs\.[a-z0-9]* $A\$" "$tmp/out" || grep -q '^would run: mdadm --create' "$tmp/out" ||
	bad "dry run: no mkfs shown for A: $(cat "$tmp/out")"
grep -q '^running:' "$tmp/out" && bad "dry run: ran something: $(grep '^running:' "$tmp/out")"
[ ! -e "$tmp/calls" ] || bad "dry run called: $(cat "$tmp/calls")"
unchanged "dry run" before

# ---- 4. --apply on a stale plan: B gained ext4 after a plan made without the inventory
plan --no-inventory --format script >"$tmp/new.sh" 2>"$tmp/err" || bad "--no-inventory script: exit $?: $(cat "$tmp/err")"
bash -n "$tmp/new.sh" || bad "--no-inventory script: bash -n"
grep -q "check_device '$B'" "$tmp/new.sh" || bad "--no-inventory script: B is not checked"
shimmed bash "$tmp/new.sh" --apply >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || bad "--apply on ext4: exit $rc, wanted 1: $(cat "$tmp/out" "$tmp/err")"
grep -q -e "refusing $B: not blank: .*TYPE=ext4" -e "refusing $C: not blank: .*TYPE=xfs" "$tmp/err" ||
	bad "--apply refusal message: $(cat "$tmp/err")"
grep -q '^running:' "$tmp/out" && bad "--apply refused but ran: $(grep '^running:' "$tmp/out")"
[ ! -e "$tmp/calls" ] || bad "--apply refused but called: $(cat "$tmp/calls")"
unchanged "--apply refused" before
# --force-device lets the (dry) run go on, with mkfs forced over the signature
shimmed bash "$tmp/new.sh" --force-device "$B" --force-device "${C#/dev/}" >"$tmp/out" 2>"$tmp/err" ||
	bad "forced dry run: exit $?: $(cat "$tmp/err")"
for l in "$B" "$C"; do
	grep -q "^note: $l is not blank" "$tmp/out" || bad "forced dry run: no note on $l: $(cat "$tmp/out")"
	grep -q "^would run: mkfs\.[a-z0-9]* -[fF] $l\$" "$tmp/out" ||
		grep -q "^would run: mdadm --create .* --run .*$l" "$tmp/out" ||
		grep -q "^would run: pvcreate -ff -y $l\$" "$tmp/out" ||
		bad "forced dry run: $l not formatted with -f/-F: $(cat "$tmp/out")"
done
bash "$tmp/new.sh" --bogus >/dev/null 2>&1
[ $? -eq 2 ] || bad "unknown script argument: not exit 2"
[ ! -e "$tmp/calls" ] || bad "forced dry run called: $(cat "$tmp/calls")"
unchanged "forced dry run" before

# ---- 4b. the disk the plan was made for: a plan whose inventory gives A a
# serial (a loop device has none) stops at A's check, --apply or not: after a
# reboot a kernel name can be another disk's
an=${A#/dev/}
jq --arg n "$an" '(.devices[] | select(.name == $n) | .serial) = "TW-PLANNED-1"' "$tmp/inv.json" >"$tmp/inv-serial.json"
plan --inventory "$tmp/inv-serial.json" --format script >"$tmp/serial.sh" 2>"$tmp/err" ||
	bad "serial script: exit $?: $(cat "$tmp/err")"
grep -q "^check_device '$A' 'TW-PLANNED-1'\$" "$tmp/serial.sh" || bad "serial script: A not checked by its serial"
for mode in "" --apply; do
	shimmed bash "$tmp/serial.sh" $mode >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] || bad "serial script ${mode:-dry run}: exit $rc, wanted 1: $(cat "$tmp/out" "$tmp/err")"
	grep -qF "refusing $A: the plan was made for the disk with serial 'TW-PLANNED-1', and $A is now a disk whose serial cannot be read (kernel names can change between boots: make the plan again)" "$tmp/err" ||
		bad "serial script ${mode:-dry run}: refusal message: $(cat "$tmp/err")"
	grep -q '^running:' "$tmp/out" && bad "serial script ${mode:-dry run}: ran: $(grep '^running:' "$tmp/out")"
done
[ ! -e "$tmp/calls" ] || bad "serial script called: $(cat "$tmp/calls")"
unchanged "serial script" before

# ---- 5. hostile mount points
evil="$tmp/a b/\$(touch $tmp/pwned)"
plan --inventory "$tmp/inv.json" --mount "hot=$evil/h" --mount "warm=$evil/w" --mount "cold=$evil/c" \
	--format fstab >"$tmp/evil.fstab" 2>"$tmp/err" || bad "evil fstab: exit $?: $(cat "$tmp/err")"
grep -q '\\040b/\$(touch\\040' "$tmp/evil.fstab" || bad "evil fstab: no \\040 escapes: $(cat "$tmp/evil.fstab")"
grep -v '^#' "$tmp/evil.fstab" | grep -q ' b/' && bad "evil fstab: a raw space in a field"
# findmnt unescapes the targets: each is one of the planned paths, whole
findmnt --tab-file "$tmp/evil.fstab" -l -n -o TARGET >"$tmp/targets" 2>&1 || bad "evil fstab: findmnt cannot read it"
[ "$(wc -l <"$tmp/targets")" -eq 2 ] || bad "evil fstab: not the 2 reused filesystems: $(cat "$tmp/targets")"
grep -v -F -e "$evil/h" -e "$evil/w" -e "$evil/c" "$tmp/targets" | grep -q . &&
	bad "evil fstab: findmnt reads back other paths: $(cat "$tmp/targets")"
verify "evil fstab" "$tmp/evil.fstab"
plan --inventory "$tmp/inv.json" --mount "hot=$evil/h" --mount "warm=$evil/w" --mount "cold=$evil/c" \
	--format script >"$tmp/evil.sh" 2>"$tmp/err" || bad "evil script: exit $?: $(cat "$tmp/err")"
bash -n "$tmp/evil.sh" || bad "evil script: bash -n"
shimmed bash "$tmp/evil.sh" >"$tmp/out" 2>"$tmp/err" || bad "evil script dry run: exit $?: $(cat "$tmp/err")"
[ ! -e "$tmp/pwned" ] || bad "the script executed a mount point"
[ ! -e "$tmp/a b" ] || bad "the dry run created a mount point"
[ ! -e "$tmp/calls" ] || bad "evil dry run called: $(cat "$tmp/calls")"
# needs each disk can meet, so that warm has a device (and a line) of its own
plan --inventory "$tmp/inv.json" --need vector-db=100G,logs-metadata=0,model-loading=100G,checkpoints=0,archive=100G \
	--mount "warm=/srv/a"$'\n'"b" --format fstab >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -ne 0 ] || bad "a newline in a mount point: fstab exit 0: $(cat "$tmp/out")"
[ ! -s "$tmp/out" ] || bad "a newline in a mount point: partial fstab printed"
unchanged "hostile mount points" before

[ "$fail" -eq 0 ] && echo "plan_mount: all checks passed"
exit "$fail"
