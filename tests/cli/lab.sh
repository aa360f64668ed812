#!/usr/bin/env bash
# lab.sh — the whole path of a new user, end to end, in the server lab
# (scripts/lab/run, docs/lab.md) on tests/lab/ai-server.yaml: nine emulated
# disks of unlike kinds (Optane-like, two like NAND, a write trap, an SLC
# cliff, a hot one, two HDD-like, one holding data).
#   boot 1: `tierwise`; a destructive probe of the blank disks only, a
#           read-only one of the disk with data; the plan, its script dry,
#           then with --apply;
#   boot 2: the disks in the reverse order (their kernel names change);
#           mdadm --assemble --scan, mount -a; the archive's data checked;
#           boot 1's script run again, dry.
# Checks: every step exited 0; no `nan` in any text output; the plan puts
# the Optane-like disk in hot and the HDD-like ones in cold and warns about
# the write trap, the cliff and the heat; the disk with data is in no mkfs or
# mdadm command and its files are unchanged after each boot (the runner's
# checksums); after boot 2 every mount of the plan is mounted with its
# filesystem and every md array of the plan is assembled under its name, a
# kernel name changed, the mirrored archive's file is intact, and boot 1's
# script refuses the reordered disks by serial (exit 1, nothing run).
# Prints the run's wall time.
#
# $1: the tierwise binary (its build folder is installed into the guest).
# The guest is cached in BUILD/lab-cache, the results of the last run are
# kept in BUILD/lab-results/ai-server.
# exit 77 = skipped: not root, or QEMU (with TCG) or python3-yaml missing.
set -u
tw=$(readlink -f "$1")
srcdir=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=tests/cli/lib_lab.sh
. "$srcdir/tests/cli/lib_lab.sh"
t0=$(now)
lab_run ai-server
cat "$results/times.txt" 2>/dev/null
fail=$((rc != 0))
b1=$results/boot-1 b2=$results/boot-2

# ok DESCRIPTION FILE JQ-FILTER: the filter is true on FILE.
ok() {
	if [ "$(jq -r "$3" "$2" 2>&1)" != true ]; then
		echo "FAIL: $1 (jq '$3' on ${2#"$results"/})"
		fail=1
	fi
}
# rc_ok STEP: boot-1/STEP.rc (or boot-2) is 0; else shows the step's output.
rc_ok() {
	local f=$1/$2.rc
	if [ "$(cat "$f" 2>/dev/null)" != 0 ]; then
		echo "FAIL: ${f#"$results"/} is '$(cat "$f" 2>/dev/null || echo missing)'"
		for o in "$1/$2".txt "$1/$2".err; do [ -s "$o" ] && tail -n 15 "$o"; done
		fail=1
	fi
}

[ -d "$b1" ] || { echo "FAIL: no results of boot 1"; exit 1; }
for s in tierwise probe-new probe-data score plan plan-dry apply; do rc_ok "$b1" "$s"; done
if [ "$(cat "$b1/guest.rc" 2>/dev/null)" != 0 ]; then
	echo "FAIL: boot 1: the scenario's script exited $(cat "$b1/guest.rc" 2>/dev/null)"; fail=1
fi

# What a new user sees: the plan at the end, no `nan`, no missing policies.
if ! grep -q '^tierwise plan: ' "$b1/tierwise.txt"; then
	echo "FAIL: \`tierwise\` printed no plan"; tail -n 5 "$b1/tierwise.err"; fail=1
fi
for f in tierwise.txt tierwise.err probe-new.txt probe-data.txt score.txt plan.txt; do
	if grep -Ein '(^|[^a-z])(-?nan|inf)([^a-z]|$)' "$b1/$f" >"$results/nan.txt"; then
		echo "FAIL: $f prints nan/inf:"; head -n 5 "$results/nan.txt"; fail=1
	fi
done
if grep -qs 'cannot read the directory' "$b1/tierwise.txt" "$b1/tierwise.err"; then
	echo "FAIL: \`tierwise\` found no policies"; fail=1
fi

# Serial -> device id (the profile's id is the device name).
id() { jq -r --arg s "$1" '.devices[] | select(.serial == $s) | .name' "$b1/list.json"; }
path() { jq -r --arg s "$1" '.devices[] | select(.serial == $s) | .path' "$b1/list.json"; }
plan=$b1/plan.json
tier_has() {	# DESCRIPTION TIER SERIAL
	ok "$1" "$plan" "[.tiers[] | select(.name == \"$2\") | .devices[]] | index(\"$(id "$3")\") != null"
}
tier_has "the Optane-like disk (OPT0) is in hot" hot OPT0
tier_has "HDD0 is in cold" cold HDD0
tier_has "HDD1 is in cold" cold HDD1
warned() {	# DESCRIPTION KIND SERIAL [REGEX]
	ok "$1" "$plan" "any(.warnings[]; .kind == \"$2\" and .device == \"$(id "$3")\" and (.message | test(\"${4:-.}\")))"
}
warned "a write-trap warning for TRAP0" write-trap TRAP0
warned "a cache-cliff warning for CLIFF0" cache-cliff CLIFF0
warned "a health warning naming the temperature for HOT0" health HOT0 temperature

# The script checked each disk it formats by its serial (kernel names can
# change between boots): the Optane-like NVMe disk and a SATA hard disk
# (SCSI VPD page 0x80) among them.
for s in OPT0 HDD0; do
	grep -qx "ok: $(path "$s") is the disk with serial $s" "$b1/apply.txt" ||
		{ echo "FAIL: plan.sh --apply did not check $s by its serial"; fail=1; }
done

# The disk with data: in no command that writes, intact after each boot.
data=$(path DATA0)
if [ -z "$data" ]; then
	echo "FAIL: DATA0 not in boot 1's list.json"; fail=1
elif grep -E "^[^#]*(make_fs|mkfs|mdadm --create|check_device)[^#]*'$data'" "$b1/plan.sh" ||
	grep -E "^running: .*(mkfs|mdadm).*$data( |$)" "$b1/apply.txt"; then
	echo "FAIL: the disk with data ($data) is in a mkfs or mdadm command"; fail=1
fi
for b in "$b1" "$b2"; do
	if ! grep -q '^DATA0: [0-9]* files intact$' "$b/data-check.txt" 2>/dev/null; then
		echo "FAIL: ${b#"$results"/}: DATA0: $(cat "$b/data-check.txt" 2>/dev/null || echo 'not checked')"; fail=1
	fi
done

# Boot 2: arrays assembled under their names, every mount of the plan mounted.
[ -d "$b2" ] || { echo "FAIL: no results of boot 2"; exit 1; }
if [ "$(cat "$b2/guest.rc" 2>/dev/null)" != 0 ]; then
	echo "FAIL: boot 2: the scenario's script exited $(cat "$b2/guest.rc" 2>/dev/null)"; fail=1
fi
rc_ok "$b2" mount
n_mounts=0
while read -r point fs; do
	n_mounts=$((n_mounts + 1))
	if ! awk -v p="$point" -v f="$fs" '$1 == p && $3 == f { found = 1 } END { exit !found }' \
		"$b2/findmnt.txt"; then
		echo "FAIL: boot 2: $point is not mounted as $fs: $(grep -F "$point" "$b2/findmnt.txt")"; fail=1
	fi
done < <(jq -r '.tiers[].mounts[] | select(.directory | not) | "\(.point) \(.fs)"' "$plan")
[ "$n_mounts" -gt 0 ] || { echo "FAIL: the plan has no mount to make"; fail=1; }
n_arrays=0
while read -r name; do
	n_arrays=$((n_arrays + 1))
	if ! grep -q "^/dev/md/$name /dev/md" "$b2/md-links.txt"; then
		echo "FAIL: boot 2: the array $name is not assembled as /dev/md/$name:"
		cat "$b2/assemble.txt" "$b2/mdstat.txt"; fail=1
	fi
done < <(jq -r '.tiers[].raid | select(. != null) | .name' "$plan")
if [ "$n_arrays" -eq 0 ]; then
	echo "FAIL: the plan has no md array (HDD0 and HDD1 are alike: the archive mirror); their figures:"
	jq -r '.devices[] | select(.serial | test("^HDD")) | "  \(.serial): " +
		([.results | to_entries[] | select(.key == "seq_read" or .key == "rand_read_qd1") |
		  "\(.key) \(if .key == "seq_read" then "\(.value.mbps) MB/s" else "\(.value.iops) IOPS" end) over \(.value.ios) I/Os, band \(.value.spread_pct // "-") %"] | join(", "))' \
		"$b1/new.json"
	fail=1
fi

# Boot 2 attached the disks in the reverse order (reverse_before_boot): the
# kernel names changed, the mirrored archive kept its data, and boot 1's
# script refuses a disk whose name now belongs to another, before changing
# anything (its dry run: nothing is run without --apply either way).
path2() { jq -r --arg s "$1" '.devices[] | select(.serial == $s) | .path' "$b2/list.json"; }
moved=0
for s in OPT0 HDD0 HDD1; do
	[ -n "$(path2 "$s")" ] && [ "$(path2 "$s")" != "$(path "$s")" ] && moved=$((moved + 1))
done
[ "$moved" -gt 0 ] || { echo "FAIL: boot 2: no kernel name changed (OPT0, HDD0, HDD1): the reorder proves nothing"; fail=1; }
if [ "$(cat "$b2/archive-sha.rc" 2>/dev/null)" != 0 ]; then
	echo "FAIL: boot 2: the mirrored archive's data: $(cat "$b2/archive-sha.txt" 2>/dev/null || echo 'not checked')"; fail=1
fi
if [ "$(cat "$b2/replan-dry.rc" 2>/dev/null)" != 1 ]; then
	echo "FAIL: boot 2: boot 1's script exited $(cat "$b2/replan-dry.rc" 2>/dev/null) on the reordered disks, not 1"
	tail -n 5 "$b2/replan-dry.txt" 2>/dev/null; fail=1
elif ! grep -Eq "refusing /dev/[a-z0-9]+: the plan was made for the disk with serial '[A-Z0-9]+', and /dev/[a-z0-9]+ is now the one with serial '[A-Z0-9]+' \(kernel names can change between boots: make the plan again\)" \
	"$b2/replan-dry.txt"; then
	echo "FAIL: boot 2: boot 1's script did not refuse by serial:"; tail -n 5 "$b2/replan-dry.txt"; fail=1
elif grep -q '^running:' "$b2/replan-dry.txt"; then
	echo "FAIL: boot 2: boot 1's script ran something"; fail=1
fi

echo "lab: $n_mounts mounts, $n_arrays md array(s), $moved kernel name(s) changed; wall time $(since "$t0") s; results in $results"
[ "$fail" -eq 0 ] && echo "lab: all checks passed"
exit "$fail"
