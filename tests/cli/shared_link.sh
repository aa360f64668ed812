#!/bin/bash
# shared_link.sh — the link pass finds exactly the devices that share a
# bottleneck.  Two loop devices (direct I/O) whose backing files sit on one
# ext4 on a loop device capped at 30 MB/s (blk-throttle in a cgroup: one
# "link"), and two loop devices capped at 30 MB/s each (links of their own;
# every cap also 3,000 read IOPS),
# probed side by side: the profile's links name the first two and no other,
# the plan warns shared-link.  Stands in for the lab's QEMU throttle group.
# Root only; SKIP without blk-throttle or mkfs.ext4.
tw=$1
src=${TW_SRCDIR:?}
fail=0
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop, dm, cgroups)"; exit 77; }
for t in jq losetup lsblk mkfs.ext4 mount umount; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d /var/tmp/tw-shared.XXXXXX)
loops=() shared=() cg="" mnt=""
cleanup() {
	[ -n "$cg" ] && { echo $$ >"$(dirname "$cg")/cgroup.procs" 2>/dev/null; rmdir "$cg" 2>/dev/null; }
	[ ${#shared[@]} -gt 0 ] && detach_loops "${shared[@]}"
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	[ ${#loops[@]} -gt 0 ] && detach_loops "${loops[@]}"
	rm -rf "$tmp"
}
trap cleanup EXIT
# and 3,000 read IOPS: the links, not this machine's two CPUs, bound the
# random reads.  At 30 MB/s alone a QD1 4 KiB reader runs up to 7,680 IOPS,
# which two QD1 readers side by side on two CPUs do not reach (6,100 each
# against 7,900 alone): the spot check would see the CPUs, not a link.
IOPS_CAP=3000
if [ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
	cg=/sys/fs/cgroup/blkio/tw-shared.$$
	cap() {
		echo "$1 $((30 * 1048576))" >"$cg/blkio.throttle.read_bps_device" &&
			echo "$1 $IOPS_CAP" >"$cg/blkio.throttle.read_iops_device"
	}
elif grep -qw io /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	cg=/sys/fs/cgroup/tw-shared.$$
	cap() { echo "$1 rbps=$((30 * 1048576)) riops=$IOPS_CAP" >"$cg/io.max"; }
else
	echo "SKIP: no blk-throttle"; exit 77
fi
mkdir "$cg" || { cg=""; echo "SKIP: cannot create the cgroup"; exit 77; }
for i in 0 1 2; do
	if [ "$i" = 0 ]; then truncate -s 320M "$tmp/d0.img"; else head -c 128M /dev/urandom >"$tmp/d$i.img"; fi
	l=$(losetup -f --show --direct-io=on "$tmp/d$i.img") || { echo "SKIP: no loop device"; exit 77; }
	loops+=("$l")
	cap "$(lsblk -dno MAJ:MIN "$l" | tr -d ' ')"
done
# the shared "link": two files on one filesystem on the capped loops[0]
mkfs.ext4 -q -F "${loops[0]}" || { echo "SKIP: mkfs.ext4 failed"; exit 77; }
mnt=$tmp/mnt
mkdir "$mnt" && mount "${loops[0]}" "$mnt" || { mnt=""; echo "SKIP: cannot mount"; exit 77; }
for h in 0 1; do
	head -c 128M /dev/urandom >"$mnt/s$h.img"
	l=$(losetup -f --show --direct-io=on "$mnt/s$h.img") || { echo "SKIP: no loop device"; exit 77; }
	shared+=("$l")
done
sync
da=${shared[0]#/dev/} db=${shared[1]#/dev/}
la=${loops[1]#/dev/} lb=${loops[2]#/dev/}
echo $$ >"$cg/cgroup.procs"

check "probe side by side" 0 "$tw" probe "$da" "$la" "$db" "$lb" --jobs 2 --tests seq_read \
	--seconds 1 --ramp 0.2 --quiet -o "$tmp/p.json"
cp "$tmp/p.json" "$tmp/out"
jq_true "solo reads at the cap" '[.devices[].results.seq_read.mbps | . > 20 and . < 40] | all' '[.devices[] | {id, mbps: .results.seq_read.mbps}]'
jq_true "one group: the two dm devices" "[.links[].devices | sort] == [[\"$da\", \"$db\"] | sort]" '.links'
jq_true "together below 80 % of the solo sum" '.links[0].together_mbps < 0.8 * .links[0].solo_sum_mbps' '.links'
jq_true "noted on the dm devices only" "[.devices[] | select(any(.notes[]; startswith(\"link: shares\"))) | .id] | sort == ([\"$da\", \"$db\"] | sort)" '[.devices[] | {id, notes}]'
check "validate" 0 "$tw" validate "$tmp/p.json"
# links of their own only: the first read, all at once, settles it
check "own links only" 0 "$tw" probe "$la" "$lb" --jobs 2 --tests seq_read \
	--seconds 1 --ramp 0.2 --quiet -o "$tmp/o.json"
cp "$tmp/o.json" "$tmp/out"
jq_true "no group" '(.links // []) == []' '.links'
jq_true "one read at once, noted on both" '[.devices[] | [.notes[] | select(startswith("link pass: the 2 devices read at once"))] | length == 1] | all' '[.devices[] | {id, notes}]'
check "--no-links" 0 "$tw" probe "$la" "$lb" --jobs 2 --no-links --tests seq_read \
	--seconds 1 --ramp 0.2 --quiet -o "$tmp/n.json"
cp "$tmp/n.json" "$tmp/out"
jq_true "no link pass" '.links == null'

# QD1 side by side (--qd1-side-by-side), guarded by the spot check: the two on one "link" halve
# each other's QD1 (the cap is shared), so each is measured again alone and
# keeps its solo figure; the two on links of their own pass the check
check "QD1 and QD32 side by side, shared" 0 "$tw" probe "$da" "$db" --jobs 2 --qd1-side-by-side \
	--tests rand_read_qd1,rand_read_qd32 --seconds 1 --ramp 0.2 --quiet -o "$tmp/q.json"
cp "$tmp/q.json" "$tmp/out"
jq_true "QD1 and QD32 measured again alone on both" '[.devices[] | [.notes[] | select(startswith("rand_read_qd1 and rand_read_qd32 measured again alone: side by side"))] | length == 1] | all' '[.devices[] | {id, notes}]'
check "QD1 and QD32 solo" 0 "$tw" probe "$da" --tests rand_read_qd1,rand_read_qd32 --seconds 1 --ramp 0.2 --quiet -o "$tmp/q1.json"
solo=$(jq '.devices[0].results.rand_read_qd1.iops' "$tmp/q1.json")
solo32=$(jq '.devices[0].results.rand_read_qd32.iops' "$tmp/q1.json")
cp "$tmp/q.json" "$tmp/out"
jq_true "the solo QD1 kept (within 20 % of a solo run, $solo IOPS)" "[.devices[].results.rand_read_qd1.iops | . > 0.8 * $solo and . < 1.2 * $solo] | all" '[.devices[].results.rand_read_qd1.iops]'
jq_true "the solo QD32 kept (within 20 % of a solo run, $solo32 IOPS)" "[.devices[].results.rand_read_qd32.iops | . > 0.8 * $solo32 and . < 1.2 * $solo32] | all" '[.devices[].results.rand_read_qd32.iops]'
check "QD1 side by side, own links" 0 "$tw" probe "$la" "$lb" --jobs 2 --qd1-side-by-side --tests rand_read_qd1 \
	--seconds 1 --ramp 0.2 --quiet -o "$tmp/q2.json"
cp "$tmp/q2.json" "$tmp/out"
jq_true "spot check passed, QD1 included" '[.devices[] | [.notes[] | select(startswith("spot check: measured side by side") and contains("rand_read_qd1"))] | length == 1] | all' '[.devices[] | {id, notes}]'

# the plan: a warning naming both devices and the figures
check "plan" 0 "$tw" plan "$tmp/p.json" --policies "$src/policies" --no-inventory --format json
jq_true "shared-link warning" "[.warnings[] | select(.kind == \"shared-link\") | .message | contains(\"$da\") and contains(\"$db\") and contains(\"together\")] == [true]" '.warnings'
exit $fail
