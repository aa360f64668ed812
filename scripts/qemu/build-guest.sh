#!/usr/bin/env bash
# build-guest.sh OUTDIR TIERWISE_BINARY
#
# Builds a tiny Linux guest for scripts/qemu/run-guest.sh: the uncompressed
# kernel (vmlinux, booted through its PVH entry) of Debian's generic amd64
# kernel package, and an uncompressed initramfs holding a static busybox, the
# storage modules (nvme, ahci, sd_mod and their dependencies, drivetemp),
# TIERWISE_BINARY as /bin/tierwise, every shared library `ldd` lists for it
# and the dynamic loader.  Nothing is installed on the host: the kernel
# package is fetched with `apt-get download` and unpacked with `dpkg-deb -x`.
# The server lab (scripts/lab/) boots the same kernel and initramfs with
# tw.root=SERIAL: /init then switches to the root filesystem on that virtio
# disk (virtio_blk, ext4; xfs and md are kept for it too).
#
# Everything is cached in OUTDIR:
#   kernel-KVER/              vmlinux + the few modules the guest needs
#   guest-KVER-HASH/          initramfs.cpio for one binary (HASH covers the
#                             binary, its libraries, busybox and this script)
#   guest.env                 KVER=, KERNEL=, INITRD= of the last build (read
#                             by run-guest.sh)
# A second run with the same kernel and binary does nothing.  Older guest-*
# folders are removed.  Works offline once the kernel is cached (or its .deb
# is in /var/cache/apt/archives, or TW_QEMU_KERNEL_DEB names it).
#
# Environment:
#   TW_QEMU_KERNEL      kernel package version to use, e.g. 6.1.0-57-amd64
#                       (default: what linux-image-amd64 depends on)
#   TW_QEMU_KERNEL_DEB  a linux-image-*.deb to use instead of downloading
#   BUSYBOX             a static busybox (default: `command -v busybox`)
#
# Exit status: 0 guest ready, 1 usage error, 2 a tool or package is missing
# or the build failed (the reason is on stderr).
set -euo pipefail

me=build-guest
die() { echo "$me: $*" >&2; exit 2; }
log() { echo "$me: $*" >&2; }

if [ $# -ne 2 ]; then
	echo "usage: $0 OUTDIR TIERWISE_BINARY" >&2
	exit 1
fi
outdir=$1
binary=$2
if [ ! -f "$binary" ] || [ ! -x "$binary" ]; then
	die "$binary: not an executable file"
fi
binary=$(readlink -f "$binary")
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

# Modules the guest loads, in this order (modprobe pulls in dependencies).
# The crypto ones are requested by the kernel at run time, not by modules.dep.
GUEST_MODULES="crc64_rocksoft_generic crct10dif_generic nvme ahci sd_mod drivetemp"
# Loaded too when the kernel command line has tw.root= (the server lab,
# scripts/lab/): its root disk (virtio) and filesystem.
LAB_MODULES="crc32c_generic virtio_pci virtio_blk ext4"
# Kept for the lab's root filesystem, where the kernel loads them on demand
# (mount -t xfs, mdadm): loading raid456 up front costs seconds under TCG.
# nvmet_tcp and nvme_tcp: the lab's fabrics disks (guest-init.sh); btrfs:
# the filesystem a plan makes on a zoned namespace.
LAB_ON_DEMAND_MODULES="xfs md_mod raid0 raid1 raid10 raid456 dm_mod nvmet_tcp nvme_tcp btrfs"

for t in dpkg-deb cpio depmod modprobe ldd xz sha256sum; do
	command -v "$t" >/dev/null || die "$t not found (run scripts/deps.sh --test)"
done
busybox=${BUSYBOX:-$(command -v busybox || true)}
[ -n "$busybox" ] || die "busybox not found (install busybox-static)"
busybox=$(readlink -f "$busybox")
if ldd "$busybox" >/dev/null 2>&1; then
	die "$busybox is dynamically linked; install busybox-static"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tw-build-guest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- which kernel -----------------------------------------------------------

# Prints the kernel version linux-image-amd64 depends on (6.1.0-57-amd64).
kernel_from_apt() {
	{ apt-cache depends linux-image-amd64 2>/dev/null || true; } |
		sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' | head -n 1
}

# Prints the newest kernel version already cached in OUTDIR.
kernel_from_cache() {
	local d best=
	for d in "$outdir"/kernel-*/.complete; do
		[ -e "$d" ] || continue
		d=${d%/.complete}
		best=${d##*/kernel-}
	done
	printf '%s\n' "$best"
}

kver=${TW_QEMU_KERNEL:-}
if [ -z "$kver" ] && [ -n "${TW_QEMU_KERNEL_DEB:-}" ]; then
	kver=$(dpkg-deb -f "$TW_QEMU_KERNEL_DEB" Package) || die "$TW_QEMU_KERNEL_DEB: not a .deb"
	kver=${kver#linux-image-}
fi
[ -n "$kver" ] || kver=$(kernel_from_apt)
if [ -z "$kver" ] && [ ! -e "$outdir/kernel-$(kernel_from_cache)/.complete" ] && [ "$(id -u)" -eq 0 ]; then
	log "linux-image-amd64 unknown to apt; running apt-get update"
	apt-get update -qq >&2 || true
	kver=$(kernel_from_apt)
fi
[ -n "$kver" ] || kver=$(kernel_from_cache)
[ -n "$kver" ] || die "cannot tell which kernel to use: apt-cache knows no linux-image-amd64 and nothing is cached (set TW_QEMU_KERNEL or TW_QEMU_KERNEL_DEB)"

# --- the kernel: vmlinux + modules, cached per version ----------------------

kdir=$outdir/kernel-$kver

# Finds the .deb of linux-image-KVER: the given one, apt's cache, or a download.
fetch_kernel_deb() {
	local deb
	if [ -n "${TW_QEMU_KERNEL_DEB:-}" ]; then
		printf '%s\n' "$TW_QEMU_KERNEL_DEB"
		return
	fi
	for deb in /var/cache/apt/archives/linux-image-"$kver"_*_amd64.deb; do
		[ -f "$deb" ] && { printf '%s\n' "$deb"; return; }
	done
	mkdir -p "$tmp/deb"
	# apt-get download as root hands the file to the _apt user
	chmod 0711 "$tmp"
	chmod 0777 "$tmp/deb"
	log "downloading linux-image-$kver"
	(cd "$tmp/deb" && apt-get download -q "linux-image-$kver" >&2) ||
		die "apt-get download linux-image-$kver failed (offline? set TW_QEMU_KERNEL_DEB)"
	for deb in "$tmp"/deb/linux-image-"$kver"_*.deb; do
		[ -f "$deb" ] && { printf '%s\n' "$deb"; return; }
	done
	die "apt-get download linux-image-$kver left no .deb"
}

# Cuts the xz stream out of bzImage $1 and writes the ELF vmlinux to $2.
extract_vmlinux() {
	local off offsets
	offsets=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$1" | cut -d: -f1) || return 1
	for off in $offsets; do
		tail -c +$((off + 1)) "$1" | xz -dc --single-stream >"$2" 2>/dev/null || true
		if [ "$(head -c 4 "$2" | od -An -c | tr -d ' ')" = '177ELF' ]; then
			return 0
		fi
	done
	return 1
}

build_kernel() {
	local deb root=$tmp/kroot stage=$tmp/kstage m path
	deb=$(fetch_kernel_deb)
	log "unpacking $(basename "$deb")"
	dpkg-deb -x "$deb" "$root"
	[ -d "$root/lib/modules/$kver" ] || die "$deb has no lib/modules/$kver"
	extract_vmlinux "$root/boot/vmlinuz-$kver" "$tmp/vmlinux" ||
		die "no xz-compressed vmlinux found in vmlinuz-$kver"
	depmod -b "$root" "$kver"

	mkdir -p "$stage/lib/modules/$kver"
	cp "$root/lib/modules/$kver"/modules.builtin* "$root/lib/modules/$kver/modules.order" \
		"$stage/lib/modules/$kver/"
	for m in $GUEST_MODULES $LAB_MODULES $LAB_ON_DEMAND_MODULES; do
		modprobe -d "$root" -S "$kver" --show-depends "$m" 2>/dev/null || true
	done | sed -n 's/^insmod \([^ ]*\).*/\1/p' | sort -u >"$tmp/modules"
	grep -q '/nvme\.ko' "$tmp/modules" || die "linux-image-$kver has no nvme module"
	grep -q '/ahci\.ko' "$tmp/modules" || die "linux-image-$kver has no ahci module"
	while read -r path; do
		m=${path#"$root"/}
		mkdir -p "$stage/$(dirname "$m")"
		case $m in
		*.ko.xz) xz -dc "$path" >"$stage/${m%.xz}" ;;
		*.ko.zst) zstd -qdc "$path" >"$stage/${m%.zst}" ;;
		*) cp "$path" "$stage/$m" ;;
		esac
	done <"$tmp/modules"
	depmod -b "$stage" "$kver"
	cp "$root/boot/config-$kver" "$stage/config"

	rm -rf "$kdir"
	mkdir -p "$kdir"
	mv "$tmp/vmlinux" "$kdir/vmlinux"
	mv "$stage/lib" "$kdir/lib"
	mv "$stage/config" "$kdir/config"
	rm -rf "$root"
	echo "$GUEST_MODULES $LAB_MODULES $LAB_ON_DEMAND_MODULES" >"$kdir/.complete"
}

built=0
# .complete names the modules kept: a kernel cached with fewer is rebuilt.
if [ ! -e "$kdir/.complete" ] || [ "$(cat "$kdir/.complete")" != "$GUEST_MODULES $LAB_MODULES $LAB_ON_DEMAND_MODULES" ]; then
	start=$(date +%s)
	build_kernel
	built=1
	log "kernel $kver ready in $(($(date +%s) - start)) s"
fi

# --- the initramfs, cached per binary ---------------------------------------

# Prints the files ldd resolves for the binary, the loader included.
shared_libs() {
	ldd "$binary" | awk '
		$2 == "=>" && $3 ~ /^\// { print $3; next }
		$1 ~ /^\// { print $1 }'
}
libs=$(shared_libs) || die "ldd $binary failed"
if ldd "$binary" | grep -q 'not found'; then
	die "ldd $binary: a library is not found"
fi

self=$(readlink -f "$0")
key=$( { sha256sum "$binary" "$busybox" "$self"; for l in $libs; do sha256sum "$(readlink -f "$l")"; done; } |
	awk '{print $1}' | sha256sum | cut -c1-16)
gdir=$outdir/guest-$kver-$key

write_init() {
	cat >"$1" <<'EOF'
#!/bin/sh
# /init of the tierwise test guest (written by scripts/qemu/build-guest.sh).
# Loads the storage modules, waits for /dev/nvme0n1 and /dev/sda, runs
# /payload.sh (appended by run-guest.sh), prints every file under /out
# base64-encoded between markers on the console, and powers off.
export PATH=/bin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mkdir -p /dev/pts /dev/shm /tmp /run /out
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
echo /bin/modprobe >/proc/sys/kernel/modprobe
echo "@@TWQEMU-BOOTED $(cut -d' ' -f1 /proc/uptime)@@"
# tw.nvme_io_timeout=N on the kernel command line: QEMU's NVMe emulation
# under TCG now and then loses a command; a short I/O timeout has the driver
# abort and reset instead of the guest hanging until the host kills it.
root=
for a in $(cat /proc/cmdline); do
	case $a in
	tw.nvme_io_timeout=*) modprobe nvme_core io_timeout="${a#*=}" ;;
	tw.root=*) root=${a#*=} ;;
	esac
done
for m in $(cat /etc/tw-modules); do
	modprobe "$m" 2>/dev/null || echo "tw-init: modprobe $m failed"
done
# tw.root=SERIAL (the server lab, scripts/lab/): the root filesystem is on
# the virtio disk with that serial; mount it, hand it /payload.sh as
# /lab/payload.sh and switch to its /lab/init, which runs the payload and
# prints /out as below.
if [ -n "$root" ]; then
	for m in $(cat /etc/tw-lab-modules); do
		modprobe "$m" 2>/dev/null || echo "tw-init: modprobe $m failed"
	done
	dev=
	i=0
	while [ -z "$dev" ] && [ $i -le 300 ]; do
		for s in /sys/block/vd*/serial; do
			[ -f "$s" ] && [ "$(cat "$s")" = "$root" ] && dev=${s%/serial} && dev=/dev/${dev##*/}
		done
		[ -n "$dev" ] || usleep 100000
		i=$((i + 1))
	done
	mkdir -p /newroot
	if [ -n "$dev" ] && mount -t ext4 "$dev" /newroot && [ -x /newroot/lab/init ]; then
		[ -f /payload.sh ] && cp /payload.sh /newroot/lab/payload.sh
		umount /tmp /run
		mount -o move /dev /newroot/dev
		mount -o move /proc /newroot/proc
		mount -o move /sys /newroot/sys
		exec switch_root /newroot /lab/init
	fi
	echo "tw-init: no root filesystem on the virtio disk with serial $root"
	echo "@@TWQEMU-DONE 127@@"
	poweroff -f
fi
i=0
while [ ! -b /dev/nvme0n1 ] || [ ! -b /dev/sda ]; do
	i=$((i + 1))
	if [ $i -gt 300 ]; then
		echo "tw-init: /dev/nvme0n1 or /dev/sda missing after 30 s"
		break
	fi
	usleep 100000
done
echo "@@TWQEMU-PAYLOAD $(cut -d' ' -f1 /proc/uptime)@@"
rc=127
if [ -f /payload.sh ]; then
	(cd /tmp && sh /payload.sh </dev/null)
	rc=$?
fi
echo "@@TWQEMU-PAYLOAD-EXIT $rc $(cut -d' ' -f1 /proc/uptime)@@"
dmesg >/out/dmesg.txt 2>&1
echo 1 >/proc/sys/kernel/printk	# keep kernel messages out of the dump
cd /out
find . -type f | sed 's|^\./||' | sort | while read -r f; do
	echo "@@TWQEMU-FILE-BEGIN $(sha256sum <"$f" | cut -d' ' -f1) $(wc -c <"$f") $f@@"
	base64 "$f"
	echo "@@TWQEMU-FILE-END@@"
done
echo "@@TWQEMU-DONE $rc@@"
sync
poweroff -f
EOF
	chmod 0755 "$1"
}

build_initramfs() {
	local s=$tmp/initramfs a l
	mkdir -p "$s"/{bin,dev,proc,sys,tmp,run,out,etc,lib,lib64}
	cp "$busybox" "$s/bin/busybox"
	for a in $("$busybox" --list); do
		[ "$a" = busybox ] || ln -sf busybox "$s/bin/$a"
	done
	ln -s bin "$s/sbin"
	mkdir -p "$s/usr"
	ln -s ../bin "$s/usr/bin"
	ln -s ../bin "$s/usr/sbin"
	cp "$binary" "$s/bin/tierwise"
	for l in $libs; do
		mkdir -p "$s/$(dirname "$l")"
		cp -L "$l" "$s/$l"
	done
	cp -a "$kdir/lib/modules" "$s/lib/"
	echo "$GUEST_MODULES" >"$s/etc/tw-modules"
	echo "$LAB_MODULES" >"$s/etc/tw-lab-modules"
	echo "root:x:0:0:root:/tmp:/bin/sh" >"$s/etc/passwd"
	echo "root:x:0:" >"$s/etc/group"
	write_init "$s/init"
	mkdir -p "$tmp/guest"
	(cd "$s" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$tmp/guest/initramfs.cpio"
	rm -rf "$gdir"
	mv "$tmp/guest" "$gdir"
}

if [ ! -f "$gdir/initramfs.cpio" ]; then
	build_initramfs
	built=1
	log "initramfs $(basename "$gdir") ready ($(du -k "$gdir/initramfs.cpio" | cut -f1) KiB)"
fi
for d in "$outdir"/guest-*; do
	[ "$d" = "$gdir" ] || rm -rf "$d"
done
printf 'KVER=%s\nKERNEL=%s\nINITRD=%s\n' "$kver" "$kdir/vmlinux" "$gdir/initramfs.cpio" >"$outdir/guest.env.tmp"
mv "$outdir/guest.env.tmp" "$outdir/guest.env"
# Let the host write back what was just built before a guest boots: heavy
# writeback on the host makes QEMU's NVMe emulation lose commands (README.md).
if [ "$built" -eq 1 ]; then
	rm -rf "$tmp"
	sync
fi
