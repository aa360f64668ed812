#!/usr/bin/env bash
# tierwise list on this machine's real devices: a zram device and two loop
# devices the test creates (one blank, one with ext4) and removes on exit.
# Needs root; skipped (exit 77) with the reason otherwise.
set -u
tw=$1
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: needs root to create loop and zram devices"; exit 77; fi
for t in jq losetup mkfs.ext4; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
tmp=$(mktemp -d)
loops=()
zram_set=0
cleanup() {
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	if [ "$zram_set" -eq 1 ]; then	# busy for a moment right after a probe closed it
		for _ in $(seq 50); do echo 1 2>/dev/null >/sys/block/zram0/reset && break; sleep 0.1; done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
ok() { if ! jq -e "$2" "$tmp/list.json" >/dev/null; then echo "FAIL: $1 ($2)"; fail=1; fi; }

truncate -s 64M "$tmp/blank.img"
truncate -s 96M "$tmp/ext4.img"
mkfs.ext4 -q -F -U 3a1c7d42-0b8e-4c1e-9d2f-5e6a7b8c9d01 -L twtest "$tmp/ext4.img"
blank=$(losetup --find --show "$tmp/blank.img") && loops+=("$blank") || { echo "SKIP: losetup failed"; exit 77; }
ext=$(losetup --find --show "$tmp/ext4.img") && loops+=("$ext")
blank=${blank#/dev/}; ext=${ext#/dev/}

if [ -e /sys/block/zram0 ] || modprobe zram 2>/dev/null; then
	if [ "$(cat /sys/block/zram0/disksize)" = "0" ] && ! grep -q '^/dev/zram0 ' /proc/swaps; then
		echo 32M >/sys/block/zram0/disksize && zram_set=1
	fi
fi

"$tw" list --json >"$tmp/list.json" || { echo "FAIL: list --json exit $?"; exit 1; }
"$tw" list >"$tmp/list.txt" || { echo "FAIL: list exit $?"; exit 1; }

d() { echo ".devices[] | select(.name == \"$1\")"; }
ok "blank loop listed" "$(d "$blank") | .transport == \"loop\" and .capacity_bytes == 67108864"
ok "blank loop backing file" "$(d "$blank") | .backing_file == \"$tmp/blank.img\""
ok "blank loop safe for destructive" "$(d "$blank") | .safe_destructive.ok == true and .safe_readonly.ok == true and .signatures_probed == true"
ok "ext4 loop: signature found" "$(d "$ext") | .fstype == \"ext4\" and .uuid == \"3a1c7d42-0b8e-4c1e-9d2f-5e6a7b8c9d01\" and .label == \"twtest\""
ok "ext4 loop unsafe, with reason" "$(d "$ext") | .safe_destructive.ok == false and (.safe_destructive.reasons | any(test(\"ext4 signature\")))"
# In a chroot (of a directory, not a mount) nothing is mounted at its "/":
# there is no root disk to find.
chroot=1
awk '$5 == "/" { found = 1 } END { exit !found }' /proc/self/mountinfo && chroot=0
if [ "$chroot" -eq 1 ]; then
	echo "note: nothing is mounted at / (a chroot?): the root disk checks were skipped"
else
	ok "root disk found" '[.devices[] | select(.root)] | length >= 1'
fi
ok "root disk unsafe for destructive" '[.devices[] | select(.root) | .safe_destructive.ok] | all(. == false)'
ok "root disk reason" '[.devices[] | select(.root) | .safe_destructive.reasons | any(test("root filesystem"))] | all'
if [ -e /sys/block/vda ] && [ "$chroot" -eq 0 ]; then
	ok "vda is virtio and mounted at /" "$(d vda) | .transport == \"virtio\" and (.mountpoints | index(\"/\")) != null and .root"
fi
if [ "$zram_set" -eq 1 ]; then
	ok "zram0" "$(d zram0) | .transport == \"zram\" and .media == \"ram\" and .capacity_bytes == 33554432 and .safe_destructive.ok"
else
	echo "note: zram0 not set up by this test (absent or in use); its checks were skipped"
fi
grep -q "^$blank .*loop .*64M .*safe  *safe" "$tmp/list.txt" || { echo "FAIL: text row for $blank"; grep "$blank" "$tmp/list.txt"; fail=1; }
[ "$fail" -eq 0 ] && echo "live_list: all checks passed"
exit "$fail"
