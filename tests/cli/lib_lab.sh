# lib_lab.sh — sourced by the lab tests (lab*.sh but lab_scenario.sh): the
# checks that skip them, and one run of a scenario with one retry when
# QEMU's NVMe emulation lost a command.
# Needs: tw (the binary), srcdir; sets qemu, builddir; defines now, since,
# lab_run SCENARIO-NAME (sets results, rc).

qemu=${QEMU:-qemu-system-x86_64}
builddir=$(cd "$(dirname "$tw")/.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: not root (the lab fetches the guest kernel and builds its root filesystem as root)"
	exit 77
fi
if ! command -v "$qemu" >/dev/null 2>&1; then
	echo "SKIP: $qemu not installed (scripts/deps.sh installs it)"
	exit 77
fi
if ! "$qemu" -accel help 2>/dev/null | grep -qx tcg; then
	echo "SKIP: $qemu cannot run here (no TCG accelerator)"
	exit 77
fi
if ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
	echo "SKIP: python3-yaml not installed (scripts/deps.sh installs it)"
	exit 77
fi
command -v jq >/dev/null || { echo "FAIL: jq not installed"; exit 1; }
[ -f "$builddir/CMakeCache.txt" ] || { echo "FAIL: $builddir is not a build folder"; exit 1; }

now() { date +%s.%N; }
since() { echo "$(now) $1" | awk '{printf "%.1f", $1 - $2}'; }

# QEMU 7.2's NVMe emulation under TCG now and then loses a command
# (scripts/qemu/README.md): the guest's driver times out and resets, and
# the probe loses a test.  Not tierwise's doing: one more run then.
lost_command() { grep -qs 'nvme nvme[0-9]*: I/O [0-9]* .*timeout' "$results"/boot-*/dmesg.txt; }

# lab_run NAME: tests/lab/NAME.yaml into BUILD/lab-results/NAME ($results);
# $rc is scripts/lab/run's exit status (2: a boot failed, 3: data changed).
lab_run() {
	local name=$1 try start log
	results=$builddir/lab-results/$name
	log=$builddir/lab-results/$name.log
	mkdir -p "$builddir/lab-results"
	for try in 1 2; do
		start=$(now)
		TW_LAB_BUILD=$builddir "$srcdir/scripts/lab/run" "$srcdir/tests/lab/$name.yaml" \
			"$results" >"$log" 2>&1
		rc=$?
		echo "lab: $name run $try: exit $rc after $(since "$start") s"
		if [ "$rc" -eq 2 ] || { [ "$rc" -eq 0 ] && lost_command; }; then
			tail -n 20 "$log"
			if lost_command; then echo "NOTE: QEMU's NVMe emulation lost a command (nvme I/O timeout in dmesg)"; fi
			if [ "$try" -eq 1 ]; then
				# what the first try's boots said, before the second clears them
				{ cat "$log"; grep -H 'nvme.*timeout' "$results"/boot-*/dmesg.txt; } \
					>"$builddir/lab-results/$name.try1.log" 2>/dev/null
				echo "NOTE: running the lab once more (the first try: $builddir/lab-results/$name.try1.log)"
				continue
			fi
		fi
		break
	done
	if [ "$rc" -ne 0 ]; then
		tail -n 30 "$log"
		echo "FAIL: scripts/lab/run $name exited $rc (2: a boot failed, 3: the data disk's files changed)"
	fi
}
