#!/usr/bin/env bash
# qemu_nvme.sh — tierwise inside a QEMU guest (software emulation) with an
# emulated NVMe controller (QEMU NVMe Ctrl, serial TWQEMU0001) and an emulated
# SATA hard disk on AHCI: `list --json` and a short read-only `probe`, in two
# boots: a plain one, and one where the controller reports the SMART
# temperature critical warning from power-on (smart_critical_warning=2); a
# third adds a zoned (ZNS) namespace on a second controller, probed with
# --destructive: zone-sequential writes after a zone reset.
# The guest and its disk images are built by scripts/qemu/; the host's own
# disks are never touched.
#
# $1: the tierwise binary.  TW_SRCDIR: the repository root.
# The guest is cached in $(dirname $1)/../qemu-cache and the last results
# (console logs included) are kept in $(dirname $1)/../qemu-results.
# exit 77 = skipped: only when qemu-system-x86_64 is missing or cannot run.
set -u
tw=$(readlink -f "$1")
srcdir=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
qemu=${QEMU:-qemu-system-x86_64}
builddir=$(cd "$(dirname "$tw")/.." && pwd)
cache=$builddir/qemu-cache
results=$builddir/qemu-results

if ! command -v "$qemu" >/dev/null 2>&1; then
	echo "SKIP: $qemu not installed (scripts/deps.sh --test installs it)"
	exit 77
fi
if ! "$qemu" -accel help 2>/dev/null | grep -qx tcg; then
	echo "SKIP: $qemu cannot run here (no TCG accelerator)"
	exit 77
fi
if ! "$qemu" -device help 2>/dev/null | grep -q '"nvme"'; then
	echo "SKIP: $qemu has no nvme device"
	exit 77
fi
command -v jq >/dev/null || { echo "FAIL: jq not installed"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
since() { echo "$(now) $1" | awk '{printf "%.1f", $1 - $2}'; }
t0=$(now)

if ! "$srcdir/scripts/qemu/build-guest.sh" "$cache" "$tw" 2>"$tmp/build.err"; then
	cat "$tmp/build.err"
	echo "FAIL: building the guest failed"
	exit 1
fi
t_build=$(since "$t0")

# What the guest runs (with /bin/sh; tierwise is on PATH, results go to /out).
cat >"$tmp/guest.sh" <<'EOF'
tierwise list --format json >/out/list.json 2>/out/list.err
echo $? >/out/list.rc
tierwise probe /dev/nvme0n1 /dev/sda --tests seq_read,rand_read_qd1 --seconds 1 \
	--ramp 0.2 --quiet -o /out/probe.json >/out/probe.out 2>&1
echo $? >/out/probe.rc
tierwise list >/out/list.txt 2>&1
{
	for h in /sys/class/hwmon/*; do
		echo "== $h -> $(readlink -f "$h/device")"
		for f in "$h"/name "$h"/temp*; do
			[ -f "$f" ] && echo "${f##*/}: $(cat "$f" 2>&1)"
		done
	done
} >/out/hwmon.txt 2>&1
{
	for f in model serial firmware_rev state cntlid transport; do
		echo "nvme0/$f: $(cat /sys/class/nvme/nvme0/$f 2>&1)"
	done
	for f in queue/rotational device/model device/vendor device/rev; do
		echo "sda/$f: $(cat /sys/block/sda/$f 2>&1)"
	done
	lsmod
} >/out/sysfs.txt 2>&1
# the zoned boot (issue 28): a host-managed ZNS namespace, probed with
# --destructive: zone-sequential seq_write, no mixed test
for d in /sys/block/nvme*; do
	[ "$(cat "$d/queue/zoned" 2>/dev/null)" = host-managed ] || continue
	tierwise probe --destructive --yes "/dev/${d##*/}" --tests seq_write,mixed_70_30 --quiet \
		-o /out/zoned.json >/out/zoned.out 2>&1
	echo $? >/out/zoned.rc
done
EOF

# boot NAME [VAR=VALUE...]: runs the guest with the given environment, and
# once more when it did not finish or when QEMU's NVMe emulation lost a
# command.  That is a flake of QEMU 7.2 under TCG on a busy host (a few
# percent of boots, more while the host writes heavily): the guest's driver
# times out (tw.nvme_io_timeout, 5 s), aborts and resets the controller, and
# the probe loses a test.  It is not tierwise's doing, so one retry.
t_plain='' t_warning=''
# Any controller: the zoned boot's ZNS namespace is on the second (nvme1).
lost_command() { grep -q 'nvme nvme[0-9]*: I/O [0-9]* .*timeout' "$results/$1/dmesg.txt" 2>/dev/null; }
boot() {
	local name=$1 start try envs=() qargs=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	qargs=("$@")
	rm -rf "${results:?}/$name" "$results/$name.try1"
	for try in 1 2; do
		# The first try's results stay in NAME.try1 for a look.
		if [ "$try" -eq 2 ] && [ -d "$results/$name" ]; then
			mv "$results/$name" "$results/$name.try1"
		fi
		start=$(now)
		if ! env TW_QEMU_TIMEOUT="${TW_QEMU_TIMEOUT:-60}" "${envs[@]}" \
			"$srcdir/scripts/qemu/run-guest.sh" "$cache" "$tmp/guest.sh" "$results/$name" \
			"${qargs[@]}" 2>"$tmp/$name.err"; then
			cat "$tmp/$name.err"
			if [ "$try" -eq 1 ]; then
				echo "NOTE: boot $name failed after $(since "$start") s; booting again"
				continue
			fi
			echo "FAIL: boot $name failed; console: $results/$name/console.log"
			exit 1
		fi
		printf -v "t_$name" '%s' "$(since "$start")"
		lost_command "$name" || return 0
		echo "NOTE: boot $name ($(since "$start") s): QEMU's NVMe emulation lost a command (nvme I/O timeout in $results/$name/dmesg.txt)"
		if [ "$try" -eq 1 ]; then echo "NOTE: booting $name again"; fi
	done
	return 0
}
boot plain
boot warning NVME_PROPS=smart_critical_warning=2
truncate -s 256M "$tmp/zns.img"
t_zoned=''
boot zoned TW_QEMU_TIMEOUT=120 -- -device nvme,id=nvmez,serial=TWZNS0001 \
	-drive "file=$tmp/zns.img,if=none,id=zns,format=raw" \
	-device nvme-ns,drive=zns,bus=nvmez,nsid=1,zoned=on,zoned.zone_size=64M,zoned.max_open=4

fail=0 thermal_fail=0
# ok BOOT FILE DESCRIPTION JQ-EXPRESSION
ok() {
	local f=$results/$1/$2
	if ! jq -e "$4" "$f" >/dev/null 2>&1; then
		echo "FAIL: $1: $3 ($2: $4)"
		fail=$((fail + 1))
	fi
}
# rc_ok BOOT WHAT: the command's exit status in the guest was 0.
rc_ok() {
	local rc
	rc=$(cat "$results/$1/$2.rc" 2>/dev/null || echo missing)
	if [ "$rc" != 0 ]; then
		echo "FAIL: $1: tierwise $2 exit status $rc"
		sed 's/^/  | /' "$results/$1/$2.out" "$results/$1/$2.err" 2>/dev/null
		fail=$((fail + 1))
	fi
}
L() { echo ".devices[] | select(.name == \"$1\")"; }
P() { echo ".devices[] | select(.id == \"$1\")"; }

for b in plain warning; do
	rc_ok $b list
	rc_ok $b probe
	ok $b list.json "nvme0n1 listed as the QEMU NVMe controller" \
		"$(L nvme0n1) | .transport == \"nvme\" and .model == \"QEMU NVMe Ctrl\" and .serial == \"TWQEMU0001\" and .controller == \"nvme0\""
	ok $b list.json "sda listed as a rotational SATA disk" \
		"$(L sda) | .transport == \"sata\" and .rotational == true"
	ok $b probe.json "a tierwise.profile/1" '.schema == "tierwise.profile/1"'
	ok $b probe.json "nvme0n1 probed with model and serial" \
		"$(P nvme0n1) | .model == \"QEMU NVMe Ctrl\" and .serial == \"TWQEMU0001\""
	ok $b probe.json "nvme0n1 rand_read_qd1 measured" "$(P nvme0n1) | .results.rand_read_qd1.iops > 0"
	ok $b probe.json "sda probed as an HDD" "$(P sda) | .rotational == true and .media == \"hdd\""
done
# The harness itself: the guest kernel saw the warning (nvme hwmon alarm).
if ! grep -qx 'temp1_alarm: 1' "$results/warning/hwmon.txt" 2>/dev/null; then
	echo "FAIL: warning: the guest's nvme hwmon shows no temp1_alarm: smart_critical_warning=2 not applied?"
	fail=$((fail + 1))
fi
base_fail=$fail

# ---- THERMAL checks: temperatures and SMART health of nvme0n1 --------------
# QEMU's controller reports a fixed composite temperature of 323 K (50 °C),
# WCTEMP 343 K (70 °C) and CCTEMP 373 K (100 °C).
for b in plain warning; do
	ok $b probe.json "thermal: idle 50 °C, warning 70 °C, critical 100 °C" \
		"$(P nvme0n1) | .thermal.idle_c == 50 and .thermal.warning_c == 70 and .thermal.critical_c == 100"
	ok $b probe.json "thermal.source names nvme" "$(P nvme0n1) | .thermal.source | contains(\"nvme\")"
	ok $b probe.json "health.source names smart" "$(P nvme0n1) | .health.source | contains(\"smart\")"
	ok $b probe.json "health.available_spare and percentage_used are numbers" \
		"$(P nvme0n1) | (.health.available_spare | type == \"number\") and (.health.percentage_used | type == \"number\")"
	ok $b list.json "list temperature_c 50" "$(L nvme0n1) | .temperature_c == 50"
done
ok plain probe.json "no critical warning" "$(P nvme0n1) | .health.critical_warning == 0"
ok warning probe.json "critical warning 2 (temperature)" \
	"$(P nvme0n1) | .health.critical_warning == 2 and (.health.critical_warnings | index(\"temperature\")) != null"
thermal_fail=$((fail - base_fail))
# ---- end of THERMAL checks --------------------------------------------------

# ---- ZONED: zone-sequential writes on a ZNS namespace ----------------------
# 256 MiB in zones of 64 MiB, 4 open at most: all four reset and written in
# order, 4 at once (a slot each), every write accepted; no mixed test.
rc_ok zoned zoned
Z='.devices[] | select(.serial == "TWZNS0001")'
ok zoned zoned.json "the ZNS namespace is host-managed" "$Z | .zoned.model == \"host-managed\""""
ok zoned zoned.json "seq_write: zone-sequential over the four zones, 4 at once" \
	"$Z | [.notes[] | select(. == \"seq_write: zone-sequential writes after a zone reset: 4 zones of 64 MiB from 0 MiB, each written to 64 MiB, 4 at once\")] | length == 1"
ok zoned zoned.json "seq_write measured at qd 4, within the 256 zone writes" \
	"$Z | .results.seq_write.mbps > 0 and .results.seq_write.qd == 4 and .results.seq_write.ios <= 256"
ok zoned zoned.json "mixed_70_30 skipped with the reason" \
	"$Z | .results.mixed_70_30 == null and ([.notes[] | select(startswith(\"mixed_70_30: skipped: host-managed zoned device: random writes fail\"))] | length == 1)"
if grep -q 'I/O Error\|Zone Invalid Write' "$results/zoned/dmesg.txt" 2>/dev/null; then
	echo "FAIL: zoned: the guest kernel logged I/O errors (dmesg.txt: writes out of zone order?)"
	fail=$((fail + 1))
fi

total=$(since "$t0")
echo "qemu_nvme: guest build ${t_build} s, plain boot ${t_plain} s, warning boot ${t_warning} s, zoned boot ${t_zoned} s, total ${total} s"
echo "qemu_nvme: $base_fail failed check(s) outside the thermal section, $thermal_fail in it; results in $results"
if awk -v t="$total" 'BEGIN { exit !(t > 180) }'; then
	echo "NOTE: took ${total} s, more than the 180 s budget"
fi
[ "$fail" -eq 0 ] || exit 1
exit 0
