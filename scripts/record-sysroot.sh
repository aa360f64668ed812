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
#   per device dir:  dev size removable ro hidden queue/{rotational,
#                    logical_block_size,physical_block_size,zoned,
#                    chunk_sectors,nr_zones,max_open_zones,
#                    max_active_zones} serial disksize force_ro
#                    comp_algorithm md/{level,raid_disks} dm/{name,uuid}
#                    loop/backing_file, holders/* slaves/* (symlinks),
#                    partitions (subdirs with a `partition` file:
#                    partition dev size start ro holders/*),
#                    multipath/* (symlinks to an NVMe head's hidden paths)
#   device -> ...:   model serial firmware_rev transport vendor rev type
#                    name fwrev vpd_pg80 vpd_pg89 subsysnqn iopolicy address
#                    state numa_node cntlid in the device's target directory
#                    (type: SCSI peripheral type, or mmc MMC/SD; an NVMe
#                    subsystem's nvme* links to its controllers), and its
#                    hwmon*/ and hwmon/hwmon*/ {name,temp1_input,temp1_max,
#                    temp1_crit}
#   NVMe paths:      per hidden path nvmeXcYnZ (through multipath/*, or
#                    under each controller of the subsystem): ana_state and
#                    its device link; per controller nvmeY: the attributes
#                    above, its hwmon, its device link (the PCI function)
#                    and /sys/class/nvme/nvmeY (the symlink)
#   PCI functions:   in the path of each device and controller: numa_node
#                    local_cpulist current_link_{speed,width} irq, msi_irqs/N
#                    and /proc/irq/N/{effective,smp}_affinity_list
#                    max_link_{speed,width}
#   /proc/self/mountinfo, /proc/swaps
#   /dev/NAME, /dev/NAMEpN: the first --dev-bytes bytes, opened read-only
#                    (not for hidden path devices: they have no /dev node)
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
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
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
    local s=$1 d=$2 a t
    shift 2
    for a in "$@"; do
        [[ -f $s/$a ]] || continue
        t=$d/$a
        [[ -d ${t%/*} ]] || mkdir -p "${t%/*}"
        cat -- "$s/$a" >"$t" 2>/dev/null || { rm -f "$t"; warn "cannot read $s/$a"; }
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

BLOCK_ATTRS=(dev size removable ro hidden queue/rotational queue/logical_block_size
    queue/physical_block_size queue/zoned queue/chunk_sectors queue/nr_zones
    queue/max_open_zones queue/max_active_zones serial disksize comp_algorithm
    md/level md/raid_disks dm/name dm/uuid loop/backing_file force_ro)
DEVICE_ATTRS=(model serial firmware_rev transport vendor rev type name fwrev vpd_pg80 vpd_pg89
    subsysnqn iopolicy address state numa_node cntlid)
PART_ATTRS=(partition dev size start ro)
HWMON_ATTRS=(name temp1_input temp1_max temp1_crit)
PCI_ATTRS=(numa_node local_cpulist current_link_speed current_link_width max_link_speed
    max_link_width irq)
IRQ_ATTRS=(effective_affinity_list smp_affinity_list)

# copy_link REL: the symlink $SYS/REL recreated as the kernel spells it, and
# the directory it points to.  Prints the target relative to $SYS.
copy_link() {
    local t
    t=$(sysrel "$SYS/$1") || return 1
    mkdir -p "$(dirname "$DEST/sys/$1")" "$DEST/sys/$t"
    ln -sfn "$(readlink "$SYS/$1")" "$DEST/sys/$1"
    echo "$t"
}

# record_pci REL: the PCI attributes of every PCI function in REL (a path
# relative to $SYS: devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/...).
declare -A PCI_DONE=()
record_pci() {
    local at="" c
    local IFS=/
    for c in $1; do
        at=${at:+$at/}$c
        [[ $c =~ ^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]$ && -z ${PCI_DONE[$at]:-} ]] || continue
        PCI_DONE[$at]=1
        copy_attr "$SYS/$at" "$DEST/sys/$at" "${PCI_ATTRS[@]}"
        record_irqs "$at"
    done
}

# record_irqs REL: PCI function REL's MSI vectors (msi_irqs/N) and where
# each one's interrupts go (/proc/irq/N/*affinity_list); the legacy irq's too.
record_irqs() {
    local f n
    for f in "$SYS/$1"/msi_irqs/[0-9]*; do
        [[ -f $f ]] || continue
        n=$(basename "$f")
        mkdir -p "$DEST/sys/$1/msi_irqs"
        cat -- "$f" >"$DEST/sys/$1/msi_irqs/$n"
        mkdir -p "$DEST/proc/irq/$n"
        copy_attr "$SRC/proc/irq/$n" "$DEST/proc/irq/$n" "${IRQ_ATTRS[@]}"
    done
    n=$(cat -- "$SYS/$1/irq" 2>/dev/null) || return 0
    [[ $n =~ ^[1-9][0-9]*$ && -d $SRC/proc/irq/$n ]] || return 0
    mkdir -p "$DEST/proc/irq/$n"
    copy_attr "$SRC/proc/irq/$n" "$DEST/proc/irq/$n" "${IRQ_ATTRS[@]}"
}

# record_hwmon REL: the temperature sensors of directory REL: hwmonN/
# (NVMe controllers) and hwmon/hwmonN/ (drivetemp).
record_hwmon() {
    local h r
    for h in "$SYS/$1"/hwmon[0-9]* "$SYS/$1"/hwmon/hwmon[0-9]*; do
        [[ -d $h ]] || continue
        r=$(sysrel "$h") || continue
        copy_attr "$SYS/$r" "$DEST/sys/$r" "${HWMON_ATTRS[@]}"
    done
}

# record_target REL: a device link's target directory REL: its attributes,
# its sensors and the PCI functions above it.
record_target() {
    mkdir -p "$DEST/sys/$1"
    copy_attr "$SYS/$1" "$DEST/sys/$1" "${DEVICE_ATTRS[@]}"
    record_hwmon "$1"
    record_pci "$1"
}

declare -A CTRL_DONE=()
# record_ctrl REL: an NVMe controller (nvmeY): its target attributes, its
# device link (the PCI function, off fabrics), /sys/class/nvme/nvmeY, and
# the hidden path devices under it (nvmeXcYnZ).
record_ctrl() {
    local c=$1 name p
    [[ -z ${CTRL_DONE[$c]:-} ]] || return 0
    CTRL_DONE[$c]=1
    name=$(basename "$c")
    record_target "$c"
    [[ -L $SYS/$c/device ]] && copy_link "$c/device" >/dev/null
    [[ -L $SYS/class/nvme/$name ]] && copy_link "class/nvme/$name" >/dev/null
    for p in "$SYS/$c"/nvme*c*n*; do
        [[ -d $p ]] || continue
        mkdir -p "$DEST/sys/$c/$(basename "$p")"
        copy_attr "$p" "$DEST/sys/$c/$(basename "$p")" ana_state
        [[ -L $p/device ]] && copy_link "$c/$(basename "$p")/device" >/dev/null
    done
    return 0
}

# record_nvme REL: the NVMe parts of block device REL: a multipath head's
# multipath/ links and the paths' controllers, or a subsystem's controller
# links (heads without multipath/), or a namespace's own controller.
record_nvme() {
    local s=$1 t l c
    [[ -L $SYS/$s/device ]] || return 0
    t=$(sysrel "$SYS/$s/device") || return 0
    for l in "$SYS/$s"/multipath/*; do
        [[ -L $l ]] || continue
        c=$(copy_link "$s/multipath/$(basename "$l")") || continue
        record_ctrl "$(dirname "$c")"
    done
    if [[ $t == */nvme-subsystem/* ]]; then
        for l in "$SYS/$t"/nvme[0-9]*; do
            [[ -L $l ]] || continue
            c=$(copy_link "$t/$(basename "$l")") || continue
            record_ctrl "$c"
        done
    elif [[ -f $SYS/$t/transport ]]; then
        record_ctrl "$t"
    fi
}

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
            record_target "$drel"
        fi
    fi
    record_pci "$rel"
    [[ $name == nvme* ]] && record_nvme "$rel"
    if [[ $(cat "$s/hidden" 2>/dev/null) == 1 ]]; then
        recorded=$((recorded + 1))
        continue # a hidden NVMe path: no /dev node, nothing to capture
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

# Every symlink must resolve inside DEST.  (A pipe, not < <(...): a guest
# without udev has no /dev/fd.)
dangling() {
    local l t
    while IFS= read -r -d '' l; do
        t=$(realpath -m "$l")
        if [[ $t != "$DEST"/* || ! -e $t ]]; then
            warn "dangling link: ${l#"$DEST"/} -> $(readlink "$l")"
            echo "$l"
        fi
    done
}
bad=0
[[ -z $(find "$DEST/sys" -type l -print0 | dangling) ]] || bad=1

echo "record-sysroot: recorded $recorded block devices into $DEST"
exit $bad
