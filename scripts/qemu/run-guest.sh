#!/usr/bin/env bash
# run-guest.sh OUTDIR GUEST_SCRIPT RESULTDIR [QEMU_ARG...]
#
# Boots the guest that build-guest.sh left in OUTDIR with (unless
# TW_QEMU_DISKS=none) an emulated NVMe
# controller (/dev/nvme0n1, 256 MiB, serial TWQEMU0001) and an emulated SATA
# hard disk on AHCI (/dev/sda, 128 MiB, rotation_rate 7200), both backed by
# fresh sparse image files in a temporary folder that is removed afterwards.
# Inside, /init loads the modules, waits for both disks, runs GUEST_SCRIPT
# with /bin/sh (tierwise is on PATH; it should write its results under /out),
# prints every file under /out on the serial console and powers off.  This
# script decodes those files into RESULTDIR and checks their SHA-256.
#
# RESULTDIR receives:
#   console.log   the guest's serial console, as received
#   guest.rc      the exit status of GUEST_SCRIPT
#   dmesg.txt     the guest's kernel log (written by /init)
#   ...           every file GUEST_SCRIPT wrote under /out (sub-folders kept)
#
# Extra arguments go to qemu-system-x86_64 as they are.
#
# Environment:
#   NVME_PROPS      appended to `-device nvme,...`, e.g. smart_critical_warning=2
#   SATA_PROPS      appended to `-device ide-hd,...`
#   TW_QEMU_TIMEOUT seconds before QEMU is killed (default 90)
#   TW_QEMU_NVME_IO_TIMEOUT  the guest's nvme_core io_timeout in seconds
#                   (default 5: a command QEMU lost is aborted soon; README.md)
#   TW_QEMU_IMGDIR  where the disk images go (default: a temporary folder)
#   TW_QEMU_ACCEL   tcg, kvm or auto (default: kvm if it boots a kernel, else tcg)
#   TW_QEMU_DISKS   default (the NVMe and SATA disks above) or none (the
#                   caller gives its own with QEMU_ARGs: scripts/lab/run)
#   TW_QEMU_MACHINE, TW_QEMU_CPUS, TW_QEMU_MEM  -M, -smp and -m (pc, 1, 512)
#   TW_QEMU_APPEND  more words for the kernel command line (tw.root=SERIAL:
#                   build-guest.sh's /init switches to that virtio disk)
#   QEMU            the QEMU binary (default qemu-system-x86_64)
#
# Exit status: 0 the guest ran GUEST_SCRIPT and every file came back intact
# (whatever GUEST_SCRIPT itself returned: see guest.rc); 1 usage error;
# 2 QEMU failed, timed out, or the output was incomplete or corrupt.
set -euo pipefail

me=run-guest
die() { echo "$me: $*" >&2; exit 2; }

if [ $# -lt 3 ]; then
	echo "usage: $0 OUTDIR GUEST_SCRIPT RESULTDIR [QEMU_ARG...]" >&2
	exit 1
fi
outdir=$1 script=$2 resultdir=$3
shift 3
qemu=${QEMU:-qemu-system-x86_64}
timeout_s=${TW_QEMU_TIMEOUT:-90}

[ -f "$outdir/guest.env" ] || die "$outdir/guest.env missing: run build-guest.sh first"
KERNEL='' INITRD=''
# shellcheck source=/dev/null
. "$outdir/guest.env"
if [ ! -f "$KERNEL" ] || [ ! -f "$INITRD" ]; then
	die "kernel or initramfs missing in $outdir: run build-guest.sh"
fi
[ -f "$script" ] || die "$script: no such file"
command -v "$qemu" >/dev/null || die "$qemu not found (run scripts/deps.sh --test)"

mkdir -p "$resultdir"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tw-run-guest.XXXXXX")
qpid='' imgdir=''
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
	if [ -n "$qpid" ]; then kill "$qpid" 2>/dev/null; fi
	if [ -n "$imgdir" ]; then rm -rf "$imgdir"; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# Prints kvm when /dev/kvm is usable and really boots the kernel (up to the
# panic for want of a root file system), tcg otherwise.
pick_accel() {
	case ${TW_QEMU_ACCEL:-auto} in
	tcg | kvm) echo "$TW_QEMU_ACCEL"; return ;;
	esac
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo &&
		timeout -k 2 15 "$qemu" -accel kvm -M pc -m 256 -nodefaults -no-user-config \
			-display none -no-reboot -kernel "$KERNEL" -append 'panic=-1' \
			</dev/null >/dev/null 2>&1; then
		echo kvm
	else
		echo tcg
	fi
}

# The guest's disks: sparse files, so nothing is written on the host's disks
# but what the guest writes.
disks=()
case ${TW_QEMU_DISKS:-default} in
default)
	imgdir=$(mktemp -d "${TW_QEMU_IMGDIR:-$tmp}/tw-disks.XXXXXX")
	truncate -s 256M "$imgdir/nvme.img"
	truncate -s 128M "$imgdir/sata.img"
	# shellcheck disable=SC2054  # QEMU's option strings have commas
	disks=(-drive "file=$imgdir/nvme.img,if=none,id=nvm,format=raw"
		-device "nvme,id=nvme0,serial=TWQEMU0001,drive=nvm${NVME_PROPS:+,$NVME_PROPS}"
		-drive "file=$imgdir/sata.img,if=none,id=sata,format=raw"
		-device ahci,id=ahci
		-device "ide-hd,bus=ahci.0,drive=sata,rotation_rate=7200${SATA_PROPS:+,$SATA_PROPS}")
	;;
none) ;;
*) die "TW_QEMU_DISKS=$TW_QEMU_DISKS: default or none" ;;
esac

# GUEST_SCRIPT travels as /payload.sh in a second cpio archive appended to
# the initramfs (the kernel unpacks concatenated archives in order).
mkdir "$tmp/payload"
cp "$script" "$tmp/payload/payload.sh"
(cd "$tmp/payload" && echo payload.sh | cpio -o -H newc -R 0:0 --quiet) >"$tmp/payload.cpio"
cat "$INITRD" "$tmp/payload.cpio" >"$tmp/initrd"

accel=$(pick_accel)
console=$resultdir/console.log
rm -f "$console" "$resultdir/guest.rc"
start=$(date +%s.%N)
set +e
timeout -k 5 "$timeout_s" "$qemu" \
	-accel "$accel" -M "${TW_QEMU_MACHINE:-pc}" -smp "${TW_QEMU_CPUS:-1}" -m "${TW_QEMU_MEM:-512}" \
	-nodefaults -no-user-config -display none -no-reboot \
	-serial "file:$console" \
	-kernel "$KERNEL" -initrd "$tmp/initrd" \
	-append "console=ttyS0 quiet panic=-1 mitigations=off tw.nvme_io_timeout=${TW_QEMU_NVME_IO_TIMEOUT:-5}${TW_QEMU_APPEND:+ $TW_QEMU_APPEND}" \
	${disks[@]+"${disks[@]}"} "$@" </dev/null >"$tmp/qemu.out" 2>&1 &
qpid=$!
wait "$qpid"
qrc=$?
qpid=
set -e
secs=$(echo "$(date +%s.%N) $start" | awk '{printf "%.1f", $1 - $2}')
echo "$me: guest ran ${secs} s (accel $accel, qemu exit $qrc)" >&2
if [ -s "$tmp/qemu.out" ]; then
	sed "s/^/$me: qemu: /" "$tmp/qemu.out" >&2
fi
[ -f "$console" ] || die "no console output"
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	die "QEMU killed after ${timeout_s} s; see $console"
fi

# Decode the files between the markers.  awk writes each one's base64 to
# $tmp/f.N and a manifest line "N SHA256 SIZE NAME"; the guest's exit status
# goes to $tmp/rc.
tr -d '\r' <"$console" | awk -v dir="$tmp" '
	/^@@TWQEMU-FILE-BEGIN / {
		line = $0; sub(/@@$/, "", line); split(line, w, " ")
		name = line; sub(/^@@TWQEMU-FILE-BEGIN +[0-9a-f]+ +[0-9]+ /, "", name)
		n++; print n, w[2], w[3], name > (dir "/manifest")
		out = dir "/f." n; printf "" > out; inside = 1; next
	}
	/^@@TWQEMU-FILE-END@@$/ { close(out); inside = 0; next }
	/^@@TWQEMU-DONE [0-9]+@@$/ { rc = $2; sub(/@@$/, "", rc); print rc > (dir "/rc") }
	inside && /^[A-Za-z0-9+\/=]+$/ { print >> out }
'
[ -f "$tmp/rc" ] || die "the guest did not finish (no DONE marker); see $console"
cp "$tmp/rc" "$resultdir/guest.rc"
bad=0
if [ -f "$tmp/manifest" ]; then
	while read -r n sha size name; do
		case /$name/ in
		*/../* | *//*) echo "$me: refusing file name '$name'" >&2; bad=1; continue ;;
		esac
		mkdir -p "$resultdir/$(dirname "$name")"
		if ! base64 -d <"$tmp/f.$n" >"$resultdir/$name" 2>/dev/null ||
			[ "$(sha256sum <"$resultdir/$name" | cut -d' ' -f1)" != "$sha" ]; then
			echo "$me: $name came back corrupt (expected $size bytes, sha256 $sha)" >&2
			bad=1
		fi
	done <"$tmp/manifest"
fi
[ "$bad" -eq 0 ] || die "some files did not come back intact"
exit 0
