#!/usr/bin/env bash
# lab_scenario.sh — scripts/lab/scenario.py, the server lab's scenario
# reader, without booting anything: the shipped scenarios are valid; bad
# ones are refused with FILE:LINE:COLUMN: KEY: reason and exit 1, nothing
# written; a good one becomes the QEMU arguments the format promises
# (throttle-group objects for a device's limits and for a shared group,
# bps-write-max for a burst, rotation_rate, smart_critical_warning, serials),
# and a disk detached before a boot is missing from that boot's arguments on.
# $1: the tierwise binary (unused).  TW_SRCDIR: the repository root.
set -u
srcdir=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! "$py" -c 'import yaml' 2>/dev/null; then
	echo "SKIP: python3-yaml not installed (scripts/deps.sh installs it)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
sc="$py $srcdir/scripts/lab/scenario.py"

for f in "$srcdir"/tests/lab/*.yaml; do
	if ! $sc "$f" 2>"$tmp/err"; then
		echo "FAIL: $(basename "$f") is refused:"; cat "$tmp/err"; fail=1
	fi
done

# bad NAME EXPECTED-MESSAGE: the YAML on stdin is refused with exit 1, the
# message on stderr (file:line:column: key: reason), and no output written.
bad() {
	local f=$tmp/$1.yaml rc
	cat >"$f"
	rm -rf "$tmp/work"
	$sc "$f" "$tmp/work" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 1 ]; then
		echo "FAIL: $1: exit $rc, wanted 1"; cat "$tmp/err"; fail=1
	elif [ "$(cat "$tmp/err")" != "$f:$2" ]; then
		echo "FAIL: $1: wanted '$f:$2', got:"; cat "$tmp/err"; fail=1
	fi
	if [ -e "$tmp/work" ]; then echo "FAIL: $1: output written"; fail=1; fi
}
ok_head='name: t
devices:'
bad bus "4:20: devices[1].bus: 'scsi' is not one of nvme, sata, virtio" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M}
  - {name: B, bus: scsi, size: 64M}
EOF
bad unknown-key "3:37: devices[0].readmbps: unknown key (known: name, bus, size, content, read_mbps, write_mbps, read_iops, write_iops, burst_write_mbps, burst_seconds, group, rotation_rate, critical_warning, paths, drive, zoned, fabric, detach_before_boot)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, readmbps: 20}
EOF
bad size "3:32: devices[0].size: '12X' is not a size (e.g. 512M, 1G)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 12X}
EOF
bad group "3:44: devices[0].group: 'link9' is not under groups:" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, group: link9}
EOF
bad burst "3:55: devices[0].write_mbps: must be set with burst_write_mbps (the rate after the burst)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, burst_write_mbps: 100, burst_seconds: 5}
EOF
bad burst-seconds "3:71: devices[0].burst_seconds: missing (with burst_write_mbps)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, write_mbps: 10, burst_write_mbps: 100}
EOF
bad rotation "3:52: devices[0].rotation_rate: only for bus: sata" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, rotation_rate: 7200}
EOF
bad warning "3:55: devices[0].critical_warning: only for bus: nvme" <<EOF
$ok_head
  - {name: A, bus: sata, size: 64M, critical_warning: 2}
EOF
bad duplicate "4:5: devices[1].name: 'a' is the name of devices[0] too" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M}
  - {name: a, bus: nvme, size: 64M}
EOF
bad root "3:5: devices[0].name: TWLABROOT is the lab's root disk" <<EOF
$ok_head
  - {name: TWLABROOT, bus: virtio, size: 64M}
EOF
bad iops "3:48: devices[0].read_iops: 'fast' is not a whole number" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, read_iops: fast}
EOF
bad content "3:46: devices[0].content: 'zeros' is not one of blank, random, ext4-data" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, content: zeros}
EOF
bad cpus "2:17: machine.cpus: 0 is out of range (1..16)" <<EOF
name: t
machine: {cpus: 0}
devices: [{name: A, bus: nvme, size: 64M}]
EOF
bad no-devices "2:10: devices: expected a list of at least one device" <<EOF
name: t
devices: []
EOF
bad top "3:1: boot: unknown key (known: name, machine, boots, devices, groups, script, reverse_before_boot)" <<EOF
name: t
devices: [{name: A, bus: nvme, size: 64M}]
boot: 2
EOF
bad yaml "4:1: not valid YAML: could not find expected ':'" <<EOF
name: t
devices: [{name: A, bus: nvme, size: 64M}]
oops
EOF
bad group-mbps "3:10: groups.link0: mbps missing (the limit the group shares)" <<EOF
name: t
groups:
  link0: {}
devices: [{name: A, bus: nvme, size: 64M}]
EOF
# The enterprise NVMe shapes: paths, drive, zoned, fabric.
bad paths-sata "3:44: devices[0].paths: only for bus: nvme" <<EOF
$ok_head
  - {name: A, bus: sata, size: 64M, paths: 2}
EOF
bad paths-range "3:44: devices[0].paths: 3 is out of range (1..2)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, paths: 3}
EOF
bad paths-type "3:44: devices[0].paths: 'two' is not a whole number" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, paths: two}
EOF
bad drive-virtio "3:46: devices[0].drive: only for bus: nvme" <<EOF
$ok_head
  - {name: A, bus: virtio, size: 64M, drive: D0}
EOF
bad drive-name "3:44: devices[0].drive: 'D 0' is not a serial (letters, digits, _ . -, at most 20)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, drive: D 0}
EOF
bad drive-is-device "4:44: devices[1].drive: 'a' is the name of devices[0]" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M}
  - {name: B, bus: nvme, size: 64M, drive: a}
EOF
bad drive-paths "3:54: devices[0].drive: not with paths: 2 (a drive's namespaces are on one controller)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, paths: 2, drive: D0}
EOF
bad drive-warning "4:44: devices[1].critical_warning: differs from another namespace of drive 'D0' (one controller)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, drive: D0}
  - {name: B, bus: nvme, size: 64M, drive: D0, critical_warning: 2}
EOF
bad zoned-sata "3:44: devices[0].zoned: only for bus: nvme" <<EOF
$ok_head
  - {name: A, bus: sata, size: 64M, zoned: {zone_size: 16M}}
EOF
bad zoned-key "3:45: devices[0].zoned.zone_sz: unknown key (known: zone_size)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, zoned: {zone_sz: 16M}}
EOF
bad zoned-scalar "3:44: devices[0].zoned: expected a mapping" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, zoned: yes}
EOF
bad zone-size "3:56: devices[0].zoned.zone_size: 24M is not a power of two (the kernel refuses other zone sizes)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 96M, zoned: {zone_size: 24M}}
EOF
bad zone-whole "3:56: devices[0].zoned.zone_size: 64M does not divide size 96M into whole zones" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 96M, zoned: {zone_size: 64M}}
EOF
bad zoned-data "3:64: devices[0].zoned: not with content: ext4-data (ext4 cannot be made on a zoned namespace)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, content: ext4-data, zoned: {zone_size: 16M}}
EOF
bad fabric-loop "3:45: devices[0].fabric: 'loop' cannot be: the guest kernel (Debian linux-image-amd64) is built without CONFIG_NVME_TARGET_LOOP; use tcp (nvmet-tcp on 127.0.0.1)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, fabric: loop}
EOF
bad fabric-rdma "3:45: devices[0].fabric: 'rdma' is not one of tcp" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, fabric: rdma}
EOF
bad fabric-sata "3:45: devices[0].fabric: only for bus: nvme" <<EOF
$ok_head
  - {name: A, bus: sata, size: 64M, fabric: tcp}
EOF
bad fabric-rate "3:61: devices[0].read_mbps: not with fabric: (the disk is a file in the guest, exported by nvmet)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, fabric: tcp, read_mbps: 50}
EOF
bad fabric-content "3:46: devices[0].content: only blank with fabric:" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, content: random, fabric: tcp}
EOF
bad fabric-size "3:32: devices[0].size: at most 128M with fabric: (a file on the guest's root disk)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 1G, fabric: tcp}
EOF
bad detach-one-boot "3:57: devices[0].detach_before_boot: needs boots: 2 or more (the disk is taken out between two boots)" <<EOF
$ok_head
  - {name: A, bus: nvme, size: 64M, detach_before_boot: 2}
EOF
bad detach-first "4:57: devices[0].detach_before_boot: 1 is out of range (2..2)" <<EOF
boots: 2
$ok_head
  - {name: A, bus: nvme, size: 64M, detach_before_boot: 1}
EOF
bad detach-namespace "4:68: devices[0].detach_before_boot: not with drive: (a namespace of a controller that stays)" <<EOF
boots: 2
$ok_head
  - {name: A, bus: nvme, size: 64M, drive: D0, detach_before_boot: 2}
EOF
bad detach-fabric "4:57: devices[0].detach_before_boot: not with fabric: (the disk is a file in the guest, exported by nvmet)" <<EOF
boots: 2
$ok_head
  - {name: A, bus: nvme, size: 64M, detach_before_boot: 2, fabric: tcp}
EOF
bad reverse-one-boot "3:22: reverse_before_boot: needs boots: 2 or more (the disks are attached in another order between two boots)" <<EOF
$ok_head
reverse_before_boot: 2
EOF
bad reverse-first "4:22: reverse_before_boot: 1 is out of range (2..2)" <<EOF
boots: 2
$ok_head
reverse_before_boot: 1
EOF
# reverse_before_boot: boot 1 attaches in the scenario's order, boot 2 in
# the reverse (S1 on port 0: the kernel names trade places)
cat >"$tmp/rev.yaml" <<'EOF'
name: rev
boots: 2
reverse_before_boot: 2
devices:
  - {name: S0, bus: sata, size: 64M}
  - {name: S1, bus: sata, size: 64M}
EOF
if ! $sc "$tmp/rev.yaml" "$tmp/rw" 2>"$tmp/err"; then
	echo "FAIL: rev.yaml refused:"; cat "$tmp/err"; fail=1
else
	grep -q '^ide-hd,bus=ahci0.0,drive=d0r,serial=S0$' "$tmp/rw/qemu-boot-1.args" ||
		{ echo "FAIL: reverse, boot 1: S0 not on port 0"; cat "$tmp/rw/qemu-boot-1.args"; fail=1; }
	grep -q '^ide-hd,bus=ahci0.0,drive=d1r,serial=S1$' "$tmp/rw/qemu-boot-2.args" ||
		{ echo "FAIL: reverse, boot 2: S1 not on port 0"; cat "$tmp/rw/qemu-boot-2.args"; fail=1; }
fi
if $sc "$tmp/none.yaml" 2>"$tmp/err"; then
	echo "FAIL: a missing file is accepted"; fail=1
elif ! grep -qF "$tmp/none.yaml: No such file or directory" "$tmp/err"; then
	echo "FAIL: a missing file: $(cat "$tmp/err")"; fail=1
fi

# A good scenario and the QEMU arguments it becomes.
cat >"$tmp/good.yaml" <<'EOF'
name: good
machine: {cpus: 2, memory: 1G}
boots: 3
groups:
  link0: {mbps: 40}
devices:
  - {name: N0, bus: nvme, size: 64M, read_mbps: 20, write_iops: 150, critical_warning: 2}
  - {name: S0, bus: sata, size: 1G, content: random, rotation_rate: 7200, group: link0,
     detach_before_boot: 3}
  - {name: V0, bus: virtio, size: 32M, content: ext4-data, write_mbps: 30,
     burst_write_mbps: 120, burst_seconds: 4, group: link0}
  - {name: M0, bus: nvme, size: 64M, paths: 2, critical_warning: 1}
  - {name: NSA, bus: nvme, size: 32M, drive: DRV0}
  - {name: Z0, bus: nvme, size: 128M, zoned: {zone_size: 64M}}
  - {name: NSB, bus: nvme, size: 32M, drive: DRV0, read_mbps: 10}
  - {name: F0, bus: nvme, size: 64M, fabric: tcp}
script: |
  echo "$TW_BOOT" >/out/boot
EOF
if ! $sc "$tmp/good.yaml" "$tmp/w" 2>"$tmp/err"; then
	echo "FAIL: good.yaml refused:"; cat "$tmp/err"; fail=1
else
	args=$(tr '\n' ' ' <"$tmp/w/qemu.args")
	for want in \
		"-object throttle-group,id=grp0,x-bps-total=40000000 " \
		"-object throttle-group,id=d0tg,x-bps-read=20000000,x-iops-write=150 " \
		"-device nvme,serial=N0,drive=d0t,smart_critical_warning=2 " \
		"-blockdev driver=throttle,node-name=d1g,throttle-group=grp0,file=d1r " \
		"-device ahci,id=ahci0 -device ide-hd,bus=ahci0.0,drive=d1g,serial=S0,rotation_rate=7200 " \
		"x-bps-write=30000000,x-bps-write-max=120000000,x-bps-write-max-length=4 " \
		"-blockdev driver=throttle,node-name=d2g,throttle-group=grp0,file=d2t " \
		"-object iothread,id=d2io -device virtio-blk-pci,drive=d2g,serial=V0,iothread=d2io " \
		"filename=$tmp/w/disks/V0.img" \
		"-device nvme-subsys,id=d3s,nqn=M0 -device nvme,id=d3c0,serial=M0,subsys=d3s,smart_critical_warning=1 -device nvme,id=d3c1,serial=M0,subsys=d3s,smart_critical_warning=1 -device nvme-ns,drive=d3r,bus=d3c0,nsid=1,shared=on " \
		"-device nvme,id=d4c,serial=DRV0 -device nvme-ns,drive=d4r,bus=d4c,nsid=1 " \
		"-device nvme,id=d5c,serial=Z0 -device nvme-ns,drive=d5r,bus=d5c,nsid=1,zoned=on,zoned.zone_size=64M " \
		"-device nvme-ns,drive=d6t,bus=d4c,nsid=2 "; do
		case $args in
		*"$want"*) ;;
		*) echo "FAIL: qemu.args lacks '$want': $args"; fail=1 ;;
		esac
	done
	case $args in
	*F0*) echo "FAIL: the fabrics disk F0 has QEMU arguments: $args"; fail=1 ;;
	esac
	if [ "$(grep -c '^nvme,' "$tmp/w/qemu.args")" != 5 ]; then
		echo "FAIL: not 5 NVMe controllers (M0 two, DRV0 one, Z0 one): $args"; fail=1
	fi
	want_env=$'LAB_NAME=good\nLAB_CPUS=2\nLAB_MEM=1024\nLAB_BOOTS=3\nLAB_NDISKS=7\nLAB_NFABRICS=1\nLAB_NDISKS_BY_BOOT=\'7 7 6\''
	if [ "$(cat "$tmp/w/scenario.env")" != "$want_env" ]; then
		echo "FAIL: scenario.env: $(cat "$tmp/w/scenario.env")"; fail=1
	fi
	# S0 is taken out before boot 3: in the arguments of boots 1 and 2 only
	for b in 1 2 3; do
		if [ ! -f "$tmp/w/qemu-boot-$b.args" ]; then
			echo "FAIL: no qemu-boot-$b.args"; fail=1
		elif [ "$b" -lt 3 ] && ! cmp -s "$tmp/w/qemu-boot-$b.args" "$tmp/w/qemu.args"; then
			echo "FAIL: qemu-boot-$b.args differs from qemu.args"; fail=1
		fi
	done
	args3=$(tr '\n' ' ' <"$tmp/w/qemu-boot-3.args" 2>/dev/null)
	case $args3 in
	*S0* | *ahci* | *d1f* | *"file=d1"*) echo "FAIL: boot 3 still has S0: $args3"; fail=1 ;;
	*"serial=N0,drive=d0t"*"serial=V0"*) ;;
	*) echo "FAIL: boot 3 lacks N0 or V0: $args3"; fail=1 ;;
	esac
	want_disks=$'N0\tnvme\t67108864\tblank\tN0\t-\nS0\tsata\t1073741824\trandom\tS0\t-\nV0\tvirtio\t33554432\text4-data\tV0\t-'
	want_disks+=$'\nM0\tnvme\t67108864\tblank\tM0\t-\nNSA\tnvme\t33554432\tblank\tDRV0\t-'
	want_disks+=$'\nZ0\tnvme\t134217728\tblank\tZ0\t-\nNSB\tnvme\t33554432\tblank\tDRV0\t-'
	want_disks+=$'\nF0\tnvme\t67108864\tblank\tF0\ttcp'
	if [ "$(cat "$tmp/w/disks.tsv")" != "$want_disks" ]; then
		echo "FAIL: disks.tsv: $(cat "$tmp/w/disks.tsv")"; fail=1
	fi
	# shellcheck disable=SC2016  # the script's text, not expanded
	if [ "$(cat "$tmp/w/script.sh")" != 'echo "$TW_BOOT" >/out/boot' ]; then
		echo "FAIL: script.sh: $(cat "$tmp/w/script.sh")"; fail=1
	fi
fi
[ "$fail" -eq 0 ] && echo "lab_scenario: all checks passed"
exit "$fail"
