#!/usr/bin/env bash
# A Kubernetes node (tests/fixtures/k8s-node: three xfs
# filesystems on three NVMe drives under ~490 mounts, hundreds of them bind
# mounts of those three: a local volume bound into 90 pods, another into 30,
# configmap subPaths, kubelet's own directory).
#  - `list` names each tree once (bind mounts of one device and root counted
#    once), the filesystem's own mount first;
#  - the default job (`probe` with no target) makes one scratch file per
#    filesystem, all three of them: no cap of 64 mount points, no bind mount
#    taken for a filesystem of its own.
set -u
tw=$1
src=${TW_SRCDIR:?}
fx=$src/tests/fixtures/k8s-node
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$src/tests/cli/lib.sh"

n=$(wc -l <"$fx/proc/self/mountinfo")
binds=$(grep -c ' 259:[0-9]* ' "$fx/proc/self/mountinfo")
if [ "$n" -lt 400 ] || [ "$binds" -lt 120 ]; then
	echo "FAIL: the fixture has $n mounts, $binds of them on the drives (wanted hundreds)"; fail=1
fi

# --- 1. list: each tree once ---
check "list --format json" 0 "$tw" --sysroot "$fx" list --format json
jq_true "one mount point per filesystem first, each once" '[.devices[] | {(.name): .mountpoints[0]}] | add ==
	{"nvme0n1": "/", "nvme1n1": "/var/lib/containerd", "nvme2n1": "/mnt/disks/ssd0"}' '[.devices[] | [.name, .mountpoints]]'
jq_true "the SSD's volume bound into 30 pods: counted once" \
	'[.devices[] | select(.name == "nvme2n1") | .mountpoints] == [["/mnt/disks/ssd0"]]' '[.devices[] | [.name, .mountpoints]]'
jq_true "the root disk: /, kubelet, the local volume once, four subPaths" \
	'[.devices[] | select(.name == "nvme0n1") | .mountpoints | length, ([.[] | select(endswith("local-pv-root"))] | length),
	  ([.[] | select(endswith("volume-subpaths/config/app/0"))] | length)] == [7, 1, 4]' '[.devices[] | [.name, .mountpoints]]'

# --- 2. the default job: one scratch file per filesystem, all three ---
# A copy whose mount points lie under $tmp and do not exist, so that no
# scratch file is made on this machine; the null engine reads nothing.
cp -a "$fx" "$tmp/node"
awk -v p="$tmp/nonexistent" '{ $5 = p $5; print }' "$fx/proc/self/mountinfo" \
	>"$tmp/node/proc/self/mountinfo"
"$tw" --sysroot "$tmp/node" probe --engine null --tests rand_read_qd1 --seconds 0.1 --ramp 0 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 3 ] && [ "$rc" -ne 4 ] && [ "$rc" -ne 0 ]; then
	echo "FAIL: probe with no target: exit $rc"; cat "$tmp/err"; fail=1
fi
sed -n 's/^creating a scratch file in //p' "$tmp/err" >"$tmp/points"
printf '%s\n' "$tmp/nonexistent/" "$tmp/nonexistent/var/lib/containerd" \
	"$tmp/nonexistent/mnt/disks/ssd0" >"$tmp/want"
if ! diff -u "$tmp/want" "$tmp/points"; then
	echo "FAIL: the default job's scratch files are not one on each of the three filesystems"
	cat "$tmp/err" | head -40; fail=1
fi
[ $fail -eq 0 ] && echo "k8s_node: all passed"
exit $fail
