#!/bin/bash
# /lab/init: the init of the server lab's root filesystem (scripts/lab/).
# build-guest.sh's /init mounted this filesystem (the virtio disk with serial
# TWLABROOT), copied the scenario's script to /lab/payload.sh and switched
# here.  This init waits for the scenario's disks (tw.disks=N on the kernel
# command line: N disks besides the root one), exports and connects its
# fabrics disks (tw.fabrics=), runs the script with bash as
# root in /tmp with TW_BOOT=tw.boot, prints every file under /out on the
# console in the format of scripts/qemu/ (run-guest.sh decodes it), unmounts
# everything, stops the md arrays and powers off.  / persists across boots;
# /tmp, /run and /out are fresh each boot.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin
exec </dev/console >/dev/console 2>&1
mkdir -p /dev/pts /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t tmpfs -o size=256m tmpfs /out
# The kernel's module loader (md personalities, xfs, crypto on demand): the
# initramfs pointed it at its own /bin/modprobe.
echo /usr/sbin/modprobe >/proc/sys/kernel/modprobe
hostname -F /etc/hostname
boot=1 disks=0 fabrics=''
# shellcheck disable=SC2013  # the words of the command line
for a in $(cat /proc/cmdline); do
	case $a in
	tw.boot=*) boot=${a#*=} ;;
	tw.disks=*) disks=${a#*=} ;;
	tw.fabrics=*) fabrics=${a#*=} ;;
	esac
done
# Whole disks besides the root: NVMe namespaces, SCSI/SATA and virtio disks.
count_disks() {
	local n=0 d
	for d in /sys/block/nvme*n* /sys/block/sd* /sys/block/vd*; do
		[ -e "$d" ] && n=$((n + 1))
	done
	echo $((n - 1))
}
i=0
while [ "$(count_disks)" -lt "$disks" ]; do
	i=$((i + 1))
	if [ $i -gt 600 ]; then
		echo "lab-init: $(count_disks) of $disks disks after 60 s"
		break
	fi
	sleep 0.1
done
# Fabrics disks (tw.fabrics=NAME:BYTES,...): the file /lab/fabric/NAME.img
# (made at the first boot, kept on /) exported by nvmet over TCP on
# 127.0.0.1 (Debian's kernel has no nvme-loop target) as subsystem
# nqn.2026-12.lab.tierwise:NAME with serial NAME, and connected to here.
NVMET=/sys/kernel/config/nvmet
NQN=nqn.2026-12.lab.tierwise
export_fabrics() {
	local spec name img s port=$NVMET/ports/1 n=0
	modprobe nvmet_tcp && modprobe nvme_tcp || return 1
	mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config || return 1
	ip link set lo up || return 1
	mkdir -p /lab/fabric "$port" || return 1
	echo tcp >"$port/addr_trtype" && echo ipv4 >"$port/addr_adrfam" &&
		echo 127.0.0.1 >"$port/addr_traddr" && echo 4420 >"$port/addr_trsvcid" || return 1
	for spec in ${fabrics//,/ }; do
		name=${spec%%:*} img=/lab/fabric/${spec%%:*}.img s=$NVMET/subsystems/$NQN:${spec%%:*}
		[ -f "$img" ] || truncate -s "${spec#*:}" "$img" || return 1
		mkdir -p "$s/namespaces/1" && echo 1 >"$s/attr_allow_any_host" &&
			echo "$name" >"$s/attr_serial" && echo "$img" >"$s/namespaces/1/device_path" &&
			echo 1 >"$s/namespaces/1/enable" && ln -s "$s" "$port/subsystems/" || return 1
		echo "transport=tcp,traddr=127.0.0.1,trsvcid=4420,nqn=$NQN:$name" >/dev/nvme-fabrics ||
			return 1
		n=$((n + 1))
	done
	i=0
	while [ "$(count_disks)" -lt $((disks + n)) ] && [ $i -lt 300 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	[ "$(count_disks)" -ge $((disks + n)) ]
}
# Disconnects the fabrics disks and closes their files (/ goes read-only).
unexport_fabrics() {
	local c s
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/transport" 2>/dev/null)" = tcp ] && echo 1 >"$c/delete_controller"
	done
	for s in "$NVMET"/subsystems/"$NQN":*; do
		[ -e "$s/namespaces/1/enable" ] && echo 0 >"$s/namespaces/1/enable"
	done
	return 0
}
if [ -n "$fabrics" ] && ! export_fabrics; then
	echo "lab-init: exporting the fabrics disks ($fabrics) failed"
fi
echo "@@TWQEMU-PAYLOAD $(cut -d' ' -f1 /proc/uptime)@@"
rc=127
if [ -f /lab/payload.sh ]; then
	(cd /tmp && TW_BOOT=$boot HOME=/root bash /lab/payload.sh </dev/null)
	rc=$?
fi
echo "@@TWQEMU-PAYLOAD-EXIT $rc $(cut -d' ' -f1 /proc/uptime)@@"
cd /
# Shut down as a server would: unmount what the script mounted, stop the
# arrays, / read-only, so that the next boot finds the disks clean.
{
	findmnt -rn -o TARGET | sort -r | while read -r m; do
		case $m in
		/ | /proc* | /sys* | /dev* | /run | /tmp | /out) ;;
		*) umount "$m" || echo "lab-init: umount $m failed" ;;
		esac
	done
	if [ -e /proc/mdstat ] && grep -q '^md' /proc/mdstat; then mdadm --stop --scan; fi
	[ -n "$fabrics" ] && unexport_fabrics
	sync
	mount -o remount,ro / || echo "lab-init: / stays read-write"
} >/out/lab-shutdown.log 2>&1
[ -f /run/lab-stubs.log ] && cp /run/lab-stubs.log /out/
dmesg >/out/dmesg.txt 2>&1
echo 1 >/proc/sys/kernel/printk	# keep kernel messages out of the dump
cd /out || exit 1
find . -type f | sed 's|^\./||' | sort | while read -r f; do
	echo "@@TWQEMU-FILE-BEGIN $(sha256sum <"$f" | cut -d' ' -f1) $(wc -c <"$f") $f@@"
	base64 "$f"
	echo "@@TWQEMU-FILE-END@@"
done
echo "@@TWQEMU-DONE $rc@@"
sync
busybox poweroff -f
