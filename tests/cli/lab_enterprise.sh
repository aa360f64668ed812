#!/usr/bin/env bash
# lab_enterprise.sh — enterprise NVMe shapes end to end in the server lab,
# on tests/lab/enterprise.yaml: a dual-port drive (DUAL0), a
# drive split in two namespaces (SPLITA, SPLITB: serial SPLIT0), a ZNS
# namespace (ZNS0), a fabrics disk (FAB0, nvmet over TCP on 127.0.0.1) and a
# plain NVMe disk (PLAIN0).  Boot 1: `tierwise list`, the guest recorded by
# scripts/record-sysroot.sh (listed from the recording: the same text and
# JSON), a quick destructive
# probe of every disk, the plan, its script applied; boot 2: `mount -a`.
# Checks: list, probe, plan and apply exit 0; `list --format json` shows
# DUAL0 as a multipath head with 2 paths and its serial, the two
# namespaces with one drive_id (and no other disk with it), ZNS0 zoned
# host-managed, FAB0 with fabric.transport tcp; the probe profiles every
# disk; the plan has no array across the two namespaces, no ext4/xfs on
# ZNS0, and FAB0 flagged network-attached; the plan of ZNS0 and FAB0 alone
# puts ZNS0 on btrfs/f2fs and FAB0 in hot with a fabric warning; after boot
# 2 every mount of the plan is mounted with its filesystem.  Prints the
# wall time.
# $1: the tierwise binary.  exit 77 = skipped (see lib_lab.sh).
set -u
tw=$(readlink -f "$1")
srcdir=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/cli/lib_lab.sh
. "$srcdir/tests/cli/lib_lab.sh"
t0=$(now)
lab_run enterprise
cat "$results/times.txt" 2>/dev/null
fail=$((rc != 0))
b1=$results/boot-1 b2=$results/boot-2
[ -d "$b1" ] || { echo "FAIL: no results of boot 1"; exit 1; }

# ok DESCRIPTION FILE JQ-FILTER: the filter is true on FILE.
ok() {
	if [ "$(jq -r "$3" "$2" 2>&1)" != true ]; then
		echo "FAIL: $1 (jq '$3' on ${2#"$results"/})"
		fail=1
	fi
}
for s in list probe plan apply; do
	if [ "$(cat "$b1/$s.rc" 2>/dev/null)" != 0 ]; then
		echo "FAIL: boot 1: $s exited '$(cat "$b1/$s.rc" 2>/dev/null || echo missing)'"
		for o in "$b1/$s".txt "$b1/$s".err; do [ -s "$o" ] && tail -n 15 "$o"; done
		fail=1
	fi
done
cat "$b1/list.txt" 2>/dev/null

# The guest recorded by scripts/record-sysroot.sh lists from the recording
# as it lists itself (tests/fixtures/lab-enterprise is such a recording).
if [ "$(cat "$b1/record.rc" 2>/dev/null)" != 0 ]; then
	echo "FAIL: boot 1: record-sysroot.sh exited '$(cat "$b1/record.rc" 2>/dev/null || echo missing)'"
	tail -n 15 "$b1/record.txt" 2>/dev/null; fail=1
fi
for f in list.txt list.json; do
	if ! diff -u "$b1/$f" "$b1/${f/list/list-replay}"; then
		echo "FAIL: boot 1: the recording lists differently from the guest ($f)"; fail=1
	fi
done

l=$b1/list.json
dev() { jq -r --arg s "$1" '.devices[] | select(.serial == $s) | .name' "$l" | head -n 1; }
ok "no hidden multipath path device (nvmeXcYnZ) is listed" "$l" \
	'[.devices[].name | select(test("^nvme[0-9]+c[0-9]+n[0-9]+$"))] | length == 0'
ok "DUAL0 is one multipath head with 2 paths, its serial, subsystem NQN and drive_id" "$l" \
	'[.devices[] | select(.serial == "DUAL0")] | length == 1 and (.[0].multipath.paths | length) == 2
	 and (.[0].multipath.subsysnqn | test("DUAL0")) and .[0].drive_id != null'
# shellcheck disable=SC2016  # jq's variables
ok "SPLITA and SPLITB: two namespaces (serial SPLIT0) with one drive_id, no other disk's" "$l" \
	'[.devices[] | select(.serial == "SPLIT0")] as $ns | ($ns | length) == 2
	 and ($ns[0].drive_id != null) and $ns[0].drive_id == $ns[1].drive_id
	 and ([.devices[] | select(.drive_id == $ns[0].drive_id)] | length) == 2'
ok "ZNS0 is zoned host-managed with 64M zones" "$l" \
	'.devices[] | select(.serial == "ZNS0") | .zoned.model == "host-managed" and .zoned.zone_bytes == 67108864'
ok "FAB0 is network-attached: fabric.transport tcp at 127.0.0.1" "$l" \
	'.devices[] | select(.serial == "FAB0") | .fabric.transport == "tcp" and (.fabric.address | test("127.0.0.1"))'
ok "PLAIN0 is plain: no multipath, fabric or zoned block" "$l" \
	'.devices[] | select(.serial == "PLAIN0") | .multipath == null and .fabric == null and .zoned == null'

p=$b1/probe.json
ok "the probe profiles the six disks" "$p" \
	"[.devices[].id] | length == 6"
plan=$b1/plan.json
split=$(jq -r '[.devices[] | select(.serial == "SPLIT0") | .name] | join(" ")' "$l")
zns=$(dev ZNS0) fab=$(dev FAB0)
ok "no array or volume has both namespaces of SPLIT0 ($split)" "$plan" \
	"[.tiers[] | [(.raid.devices // [])[], (.volume.devices // [])[]] | select(index(\"${split% *}\") != null and index(\"${split#* }\") != null)] | length == 0"
ok "no ext4/xfs on the zoned namespace ($zns)" "$plan" \
	"[.tiers[] | select(.devices | index(\"$zns\") != null) | .mounts[].fs] | all(. != \"ext4\" and . != \"xfs\")"
echo "the zoned namespace $zns: tier $(jq -r --arg z "$zns" '[.tiers[] | select(.devices | index($z) != null) | .name] | first // "none"' "$plan")"
# the fabrics disk: flagged in the plan when it is in hot (a fabric
# warning), and in its profile (fabric block) wherever it goes
ok "the fabrics disk $fab's profile says nvme-tcp" "$p" \
	"[.devices[] | select(.id == \"$fab\") | .fabric.transport] == [\"tcp\"]"
if jq -e --arg f "$fab" '[.tiers[] | select(.name == "hot") | .devices[]] | index($f) != null' "$plan" >/dev/null; then
	ok "a fabric warning for $fab in hot" "$plan" \
		"any(.warnings[]; .kind == \"fabric\" and .device == \"$fab\")"
fi

# The plan of the zoned and the fabrics disk alone (the full plan may leave
# both out): ZNS0 placed with btrfs or f2fs, FAB0 in hot with the warning
# that its latency is the network's.
zf=$b1/plan-zf.json
[ "$(cat "$b1/plan-zf.rc" 2>/dev/null)" = 0 ] ||
	{ echo "FAIL: the plan of ZNS0 and FAB0 exited $(cat "$b1/plan-zf.rc" 2>/dev/null)"; cat "$b1/plan-zf.err"; fail=1; }
ok "ZNS0 ($zns) is placed with btrfs or f2fs in the plan of ZNS0 and FAB0" "$zf" \
	"[.tiers[] | select(.devices | index(\"$zns\") != null) | .mounts[].fs] as \$f | (\$f | length) > 0 and (\$f | all(. == \"btrfs\" or . == \"f2fs\"))"
ok "FAB0 ($fab) is in hot with a fabric warning in the plan of ZNS0 and FAB0" "$zf" \
	"([.tiers[] | select(.name == \"hot\") | .devices[]] | index(\"$fab\") != null) and any(.warnings[]; .kind == \"fabric\" and .device == \"$fab\")"

# Boot 2: every mount of the plan back after the reboot.
[ -d "$b2" ] || { echo "FAIL: no results of boot 2"; exit 1; }
if [ "$(cat "$b2/mount.rc" 2>/dev/null)" != 0 ]; then
	echo "FAIL: boot 2: mount -a exited $(cat "$b2/mount.rc" 2>/dev/null)"; cat "$b2/mount.txt"; fail=1
fi
n_mounts=0
while read -r point fs; do
	n_mounts=$((n_mounts + 1))
	if ! awk -v p="$point" -v f="$fs" '$1 == p && $3 == f { found = 1 } END { exit !found }' \
		"$b2/findmnt.txt"; then
		echo "FAIL: boot 2: $point is not mounted as $fs: $(grep -F "$point" "$b2/findmnt.txt")"; fail=1
	fi
done < <(jq -r '.tiers[].mounts[] | select(.directory | not) | "\(.point) \(.fs)"' "$plan")
[ "$n_mounts" -gt 0 ] || { echo "FAIL: the plan has no mount to make"; fail=1; }
echo "lab: enterprise: $n_mounts mounts back after the reboot; wall time $(since "$t0") s; results in $results"
[ "$fail" -eq 0 ] && echo "lab_enterprise: all checks passed"
exit "$fail"
