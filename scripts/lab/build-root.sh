#!/usr/bin/env bash
# build-root.sh OUTDIR PREFIX KERNEL_DIR
#
# Builds the root filesystem of the server lab's guest (scripts/lab/run): an
# ext4 image made from this host's Debian binaries, so that the guest has
# what a server has: bash, coreutils, util-linux (blkid, findmnt, lsblk,
# wipefs, mount with UUID=), mdadm, lvm2, e2fsprogs, xfsprogs, grep, sed, awk, kmod,
# findutils, jq, the kernel modules of KERNEL_DIR (build-guest.sh's
# kernel-KVER), and tierwise in the `cmake --install` layout of PREFIX under
# /usr/local (bin/tierwise, share/tierwise/policies).  Every binary comes
# with the shared libraries `ldd` lists.  busybox fills in the rest
# (poweroff, hostname).  There is no udev and no systemd: udevadm and
# systemctl are stubs that log their arguments to /run/lab-stubs.log and
# succeed.  /lab/init (guest-init.sh) is the init that build-guest.sh's
# /init switches to (tw.root=TWLABROOT).
#
# The image is cached: OUTDIR/root-HASH.img, HASH covering the package
# versions, PREFIX's files, the modules and these scripts; OUTDIR/root.env
# names the newest (ROOT_IMG=).  Older root-*.img are removed.
#
# Exit status: 0 ready, 1 usage error, 2 a tool is missing or the build failed.
set -euo pipefail

me=build-root
die() { echo "$me: $*" >&2; exit 2; }
log() { echo "$me: $*" >&2; }

if [ $# -ne 3 ]; then
	echo "usage: $0 OUTDIR PREFIX KERNEL_DIR" >&2
	exit 1
fi
outdir=$1 prefix=$2 kdir=$3
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$prefix/bin/tierwise" ] || die "$prefix/bin/tierwise missing (cmake --install BUILD --prefix $prefix)"
[ -d "$prefix/share/tierwise/policies" ] || die "$prefix/share/tierwise/policies missing"
[ -d "$kdir/lib/modules" ] || die "$kdir/lib/modules missing (run scripts/qemu/build-guest.sh)"
for t in mke2fs ldd dpkg-query sha256sum; do
	command -v "$t" >/dev/null || die "$t not found (run scripts/deps.sh)"
done
busybox=$(readlink -f "$(command -v busybox)") || die "busybox not found (install busybox-static)"

# The Debian packages whose programs the guest gets.
PKGS="bash coreutils util-linux mount mdadm e2fsprogs xfsprogs btrfs-progs grep sed mawk kmod findutils jq gzip diffutils procps lvm2 dmsetup"
# Root image size: the binaries, libraries and modules take about 100 MB;
# the rest is room for what the guest writes: tierwise's scratch file on /
# (a quarter of the free space, at least 64 MiB).
ROOT_SIZE=512M

# shellcheck disable=SC2086  # one word per package
versions=$(dpkg-query -W $PKGS) || die "a package is missing: dpkg-query -W $PKGS"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
key=$( {
	echo "$versions"
	sha256sum "$here/build-root.sh" "$here/guest-init.sh" "$here/../record-sysroot.sh" "$busybox" \
		"$kdir/.complete"
	(cd "$prefix" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum)
} | sha256sum | cut -c1-16)
img=$outdir/root-$key.img
if [ -f "$img" ]; then
	echo "ROOT_IMG=$img" >"$outdir/root.env"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tw-build-root.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
r=$tmp/root
mkdir -p "$r"/usr/{bin,sbin,lib,lib64,local} "$r"/{etc,dev,proc,sys,tmp,run,out,mnt,srv,root,lab,var/tmp,home}
for d in bin sbin lib lib64; do ln -s "usr/$d" "$r/$d"; done

# Programs: everything the packages put in a bin or sbin folder (merged /usr:
# /bin/x and /usr/bin/x are one file).  Copied, links followed.
for p in $PKGS; do
	dpkg-query -L "$p"
done | sed -nE 's#^(/usr)?/(s?bin)/([^/]+)$#\2/\3#p' | sort -u >"$tmp/progs"
while read -r f; do
	[ -e "$r/usr/$f" ] && continue
	if [ -L "/usr/$f" ] && [ "$(dirname "$(readlink "/usr/$f")")" = . ]; then
		ln -s "$(readlink "/usr/$f")" "$r/usr/$f"	# lvm2's pvcreate -> lvm: one binary
	elif [ -f "/usr/$f" ]; then
		cp -L "/usr/$f" "$r/usr/$f"
	fi
done <"$tmp/progs"
ln -sf mawk "$r/usr/bin/awk"
ln -sf bash "$r/usr/bin/sh"

# Shared libraries of every program, the loader included.
find "$r/usr/bin" "$r/usr/sbin" -type f -exec sh -c 'for f; do ldd "$f" 2>/dev/null; done' _ {} + |
	awk '$2 == "=>" && $3 ~ /^\// { print $3; next } $1 ~ /^\// { print $1 }' | sort -u >"$tmp/libs"
while read -r l; do
	dst=$r/usr/${l#/usr/}
	mkdir -p "$(dirname "$dst")"
	cp -L "$l" "$dst"
done <"$tmp/libs"

# busybox for what the packages above do not have (poweroff, hostname, ...).
cp "$busybox" "$r/usr/bin/busybox"
for a in $("$busybox" --list); do
	[ -e "$r/usr/bin/$a" ] || [ -e "$r/usr/sbin/$a" ] || ln -s busybox "$r/usr/bin/$a"
done

# No udev, no systemd in the lab: stubs that log and succeed.
for s in udevadm systemctl; do
	cat >"$r/usr/bin/$s" <<STUB
#!/bin/bash
# The server lab has no $s: this stub logs its arguments and succeeds.
echo "$s \$*" >>/run/lab-stubs.log
exit 0
STUB
	chmod 0755 "$r/usr/bin/$s"
done

# tierwise, in its install layout.
cp -a "$prefix/." "$r/usr/local/"
ldd "$r/usr/local/bin/tierwise" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | while read -r l; do
	dst=$r/usr/${l#/usr/}
	[ -e "$dst" ] || { mkdir -p "$(dirname "$dst")"; cp -L "$l" "$dst"; }
done

# Kernel modules (md personalities and crypto are loaded on demand).
cp -a "$kdir/lib/modules" "$r/usr/lib/"

# /etc, as a fresh Debian server has it.
echo twlab >"$r/etc/hostname"
echo "root:x:0:0:root:/root:/bin/bash" >"$r/etc/passwd"
echo "root:x:0:" >"$r/etc/group"
printf '%s\n' '# /etc/fstab: static file system information.' \
	'LABEL=twlabroot / ext4 defaults 0 1' >"$r/etc/fstab"
mkdir -p "$r/etc/mdadm" "$r/etc/udev/rules.d"
printf '%s\n' 'HOMEHOST <system>' 'MAILADDR root' >"$r/etc/mdadm/mdadm.conf"
[ -f /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$r/etc/"
# LVM without udev: lvm makes its own device nodes and waits for nobody.
mkdir -p "$r/etc/lvm"
printf '%s\n' 'devices { obtain_device_list_from_udev = 0 }' \
	'activation { udev_sync = 0 udev_rules = 0 }' 'global { use_lvmpolld = 0 }' >"$r/etc/lvm/lvm.conf"
ln -s ../proc/self/mounts "$r/etc/mtab"
install -m 0755 "$here/guest-init.sh" "$r/lab/init"
# scripts/record-sysroot.sh: a scenario records the guest as a fixture with it.
install -m 0755 "$here/../record-sysroot.sh" "$r/lab/record-sysroot.sh"

mke2fs -q -t ext4 -L twlabroot -d "$r" "$tmp/root.img" "$ROOT_SIZE" >/dev/null ||
	die "mke2fs -d failed"
mv "$tmp/root.img" "$img"
for old in "$outdir"/root-*.img; do
	[ "$old" = "$img" ] || rm -f "$old"
done
echo "ROOT_IMG=$img" >"$outdir/root.env"
log "root filesystem $(basename "$img") ready ($(du -k "$img" | cut -f1) KiB used)"
