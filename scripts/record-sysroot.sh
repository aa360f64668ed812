#!/usr/bin/env bash
# record-sysroot.sh — record this machine's block devices as a sysroot tree
# that `tierwise --sysroot DEST` (and the tests) can replay.
#
# Usage: scripts/record-sysroot.sh [--from SRC] [--dev-bytes N] [--no-dev]
#                                  [--force] DEST
#   --from SRC      read SRC/sys, SRC/proc, SRC/dev instead of the live
#                   machine (re-records a fixture; handy for testing this script)
#   --dev-bytes N   how much of each device to copy into DEST/dev (default
#                   2 MiB; libblkid skips RAID/LVM probers on regular files of
#                   1440 KiB or less, so keep it above that)
#   --no-dev        record sysfs/proc only (dev/ stays empty: "unknown")
#   --force         replace DEST if it exists
#
# What it READS (nothing else):
#   /sys/block/*                      the entries and their symlink targets
#   per device dir:  dev size removable ro queue/{rotational,
#                    logical_block_size,physical_block_size} serial disksize
#                    force_ro
#                    comp_algorithm md/{level,raid_disks} dm/{name,uuid}
#                    loop/backing_file, holders/* slaves/* (symlinks),
#                    partitions (subdirs with a `partition` file:
#                    partition dev size start ro holders/*)
#   device -> ...:   model serial firmware_rev transport vendor rev type
#                    name fwrev vpd_pg80 vpd_pg89 in the device's target
#                    directory (type: SCSI peripheral type, or mmc MMC/SD)
#   /proc/self/mountinfo, /proc/swaps
#   /dev/NAME, /dev/NAMEpN: the first --dev-bytes bytes, opened read-only
#
# What it WRITES: only files under DEST.  Block devices are opened read-only
# (dd if=...); nothing is ever written to a device, no ioctl is issued, and
# nothing in /sys or /proc is changed.  Loop devices with no backing file
# are skipped entirely (as lsblk hides them).
#
# Symlinks are copied as the kernel spells them (relative), and their targets
# are recreated, so `readlink -f` inside DEST stays inside DEST.  Note that
# git keeps no empty directories: an empty holders/ or slaves/ disappears
# once the tree is committed (the reader treats a missing one as empty).
# Recordings contain the machine's serial numbers and mount table; review
# them before committing.
set -euo pipefail

SRC=""
DEV_BYTES=$((2 * 1024 * 1024))
WITH_DEV=1
FORCE=0
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
    case $1 in
    --from) SRC=${2:?--from needs a directory}; shift 2 ;;
    --dev-bytes) DEV_BYTES=${2:?--dev-bytes needs a number}; shift 2 ;;
    --no-dev) WITH_DEV=0; shift ;;
    --force) FORCE=1; shift ;;
    -h | --help) usage 0 ;;
    -*) echo "record-sysroot: unknown option $1" >&2; usage 2 ;;
    *) break ;;
    esac
done
[[ $# -eq 1 ]] || usage 2
DEST=$1
[[ $DEV_BYTES =~ ^[0-9]+$ && $DEV_BYTES -gt 0 ]] || { echo "record-sysroot: bad --dev-bytes" >&2; exit 2; }

if [[ -n $SRC ]]; then
    SRC=$(realpath -e "$SRC")
fi
SYS=$(realpath -e "$SRC/sys")
[[ -d $SYS/block ]] || { echo "record-sysroot: $SYS/block not found" >&2; exit 1; }

if [[ -e $DEST ]]; then
    if [[ $FORCE -eq 1 ]]; then
        rm -rf -- "$DEST"
    elif [[ -n $(ls -A -- "$DEST") ]]; then
        echo "record-sysroot: $DEST exists and is not empty (use --force)" >&2
        exit 1
    fi
fi
mkdir -p "$DEST/sys/block" "$DEST/proc/self" "$DEST/dev"
DEST=$(realpath -e "$DEST")

warn() { echo "record-sysroot: $*" >&2; }

# sysrel PATH: PATH (under $SYS, symlinks resolved) relative to $SYS.
sysrel() {
    local p
    p=$(realpath -e "$1")
    [[ $p == "$SYS"/* ]] || { warn "$1 resolves outside sysfs ($p)"; return 1; }
    echo "${p#"$SYS"/}"
}

# copy_attr SRCDIR DSTDIR NAME...: copy the attribute files that exist and
# can be read (some sysfs attributes fail with EIO/EINVAL on some devices).
copy_attr() {
    local s=$1 d=$2 a
    shift 2
    for a in "$@"; do
        [[ -f $s/$a ]] || continue
        mkdir -p "$(dirname "$d/$a")"
        cat -- "$s/$a" >"$d/$a" 2>/dev/null || { rm -f "$d/$a"; warn "cannot read $s/$a"; }
    done
}

# copy_links SRCDIR DSTDIR SUBDIR: recreate SUBDIR (holders/slaves) and its
# symlinks, spelled exactly as the kernel spells them.
copy_links() {
    local s=$1/$3 d=$2/$3 l
    [[ -d $s ]] || return 0
    mkdir -p "$d"
    for l in "$s"/*; do
        [[ -L $l ]] || continue
        ln -sfn "$(readlink "$l")" "$d/$(basename "$l")"
    done
}

# capture NAME SIZE_SECTORS: the first DEV_BYTES of /dev/NAME -> DEST/dev/NAME
capture() {
    local name=$1 sectors=$2 src="$SRC/dev/$1"
    [[ $WITH_DEV -eq 1 ]] || return 0
    if [[ $sectors -eq 0 ]]; then
        return 0 # nothing to read (empty drive, inactive md, zram without disksize)
    fi
    if [[ ! -b $src && ! -f $src ]]; then
        warn "$src missing: dev/$name not recorded (reader will treat it as unknown)"
        return 0
    fi
    if ! dd if="$src" of="$DEST/dev/$name" bs=65536 count=$(((DEV_BYTES + 65535) / 65536)) \
        iflag=fullblock status=none 2>/dev/null; then
        warn "cannot read $src: dev/$name not recorded"
        rm -f "$DEST/dev/$name"
        return 0
    fi
    truncate -s "<$DEV_BYTES" "$DEST/dev/$name" # exact cut when N is not 64 KiB aligned
}

BLOCK_ATTRS=(dev size removable ro queue/rotational queue/logical_block_size
    queue/physical_block_size serial disksize comp_algorithm md/level
    md/raid_disks dm/name dm/uuid loop/backing_file force_ro)
DEVICE_ATTRS=(model serial firmware_rev transport vendor rev type name fwrev vpd_pg80 vpd_pg89)
PART_ATTRS=(partition dev size start ro)

recorded=0
for entry in "$SYS"/block/*; do
    [[ -L $entry ]] || continue
    name=$(basename "$entry")
    if [[ $name == loop* && ! -f $entry/loop/backing_file ]]; then
        continue # unbound loop device
    fi
    rel=$(sysrel "$entry") || continue
    s="$SYS/$rel"
    d="$DEST/sys/$rel"
    mkdir -p "$d"
    ln -sfn "$(readlink "$entry")" "$DEST/sys/block/$name"
    copy_attr "$s" "$d" "${BLOCK_ATTRS[@]}"
    copy_links "$s" "$d" holders
    copy_links "$s" "$d" slaves

    if [[ -L $s/device ]]; then
        ln -sfn "$(readlink "$s/device")" "$d/device"
        if drel=$(sysrel "$s/device"); then
            mkdir -p "$DEST/sys/$drel"
            copy_attr "$SYS/$drel" "$DEST/sys/$drel" "${DEVICE_ATTRS[@]}"
        fi
    fi

    for pfile in "$s"/*/partition; do
        [[ -f $pfile ]] || continue
        ps=$(dirname "$pfile")
        pname=$(basename "$ps")
        copy_attr "$ps" "$d/$pname" "${PART_ATTRS[@]}"
        copy_links "$ps" "$d/$pname" holders
        capture "$pname" "$(cat "$ps/size")"
    done
    capture "$name" "$(cat "$s/size")"
    recorded=$((recorded + 1))
done

cat -- "$SRC/proc/self/mountinfo" >"$DEST/proc/self/mountinfo"
cat -- "$SRC/proc/swaps" >"$DEST/proc/swaps"

# Every symlink must resolve inside DEST.
bad=0
while IFS= read -r -d '' l; do
    t=$(realpath -m "$l")
    if [[ $t != "$DEST"/* || ! -e $t ]]; then
        warn "dangling link: ${l#"$DEST"/} -> $(readlink "$l")"
        bad=1
    fi
done < <(find "$DEST/sys" -type l -print0)

echo "record-sysroot: recorded $recorded block devices into $DEST"
exit $bad
