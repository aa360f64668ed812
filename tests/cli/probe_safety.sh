#!/usr/bin/env bash
# tierwise probe, for real, on devices and files this test creates:
#  - a read-only probe of a blank loop device gives a valid profile with values;
#  - --destructive is refused on a loop device carrying ext4 (reasons named),
#    and without --yes when there is no terminal to type the name on;
#  - a scratch-file probe in a directory leaves no file behind, and neither
#    does SIGINT or SIGTERM in the middle of it.
# Needs root (loop devices); skipped with the reason otherwise.
set -u
tw=$1
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: needs root to create loop devices"; exit 77; fi
for t in jq losetup mkfs.ext4; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
tmp=$(mktemp -d /var/tmp/tw-probe-test.XXXXXX)
loops=()
cleanup() {
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

head -c $((128 << 20)) /dev/urandom >"$tmp/blank.img"
truncate -s 64M "$tmp/ext4.img"
mkfs.ext4 -q -F "$tmp/ext4.img"
blank=$(losetup --find --show --direct-io=on "$tmp/blank.img") || { echo "SKIP: losetup failed"; exit 77; }
loops+=("$blank")
ext=$(losetup --find --show "$tmp/ext4.img") && loops+=("$ext")

# 1. read-only probe of the blank loop device, fixed short tests
"$tw" probe "$blank" --tests seq_read,rand_read_qd1,rand_read_qd32 --seconds 1 --ramp 0.2 \
	--quiet -o "$tmp/p.json" >"$tmp/out" 2>"$tmp/err" || bad "read-only probe exit $?: $(cat "$tmp/err")"
"$tw" validate "$tmp/p.json" || bad "probe output does not validate"
schema_ok() {	# the JSON Schema agrees with the C reader on what the probe writes
	python3 -c 'import jsonschema' 2>/dev/null || { echo "note: python3-jsonschema missing, schema check skipped"; return 0; }
	python3 - "$TW_SRCDIR/docs/tierwise.profile-1.schema.json" "$1" <<'PY' || bad "$1 fails the JSON Schema"
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
}
schema_ok "$tmp/p.json"
name=${blank#/dev/}
jq -e --arg n "$name" '.devices[0] | .id == $n and .transport == "loop" and
	.probe.target == "raw-readonly" and .capacity_bytes == 134217728 and
	.results.rand_read_qd1.iops > 0 and .results.rand_read_qd1.qd == 1 and
	.results.rand_read_qd1.lat_us.p50 <= .results.rand_read_qd1.lat_us.p99 and
	.results.rand_read_qd1.lat_us.p99 <= .results.rand_read_qd1.lat_us.max and
	.results.seq_read.bs == 1048576 and .results.seq_read.mbps > 0 and
	(.results.seq_read.mbps * 1e6 / 1048576 - .results.seq_read.iops | fabs) < 0.01 and
	.results.rand_read_qd32.threads == 1 and
	.results.rand_read_qd1.label == "burst, fresh" and
	(.results | has("seq_write") | not)' "$tmp/p.json" >/dev/null ||
	bad "profile values: $(jq -c '.devices[0].results' "$tmp/p.json")"
jq -e '.devices[0].notes | any(test("zeros")) | not' "$tmp/p.json" >/dev/null ||
	bad "zero-read warning on a device full of random data"
cmp -s <(head -c 1048576 "$tmp/blank.img" | md5sum) <(head -c 1048576 "$blank" | md5sum) ||
	bad "read-only probe changed the device"

# 2. destructive refused on a device with a filesystem, with the reason
"$tw" probe "$ext" --destructive --yes --quiet --seconds 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -ne 0 ] || bad "destructive probe of an ext4 device exited 0"
grep -q "refusing destructive tests on ${ext#/dev/}: ext4 signature" "$tmp/err" ||
	bad "refusal message: $(cat "$tmp/err")"
blkid -p "$ext" | grep -q 'TYPE="ext4"' || bad "the ext4 signature is gone!"

# 3. destructive without --yes and without a terminal: refused, nothing written
sum=$(md5sum <"$blank")
setsid "$tw" probe "$blank" --destructive --quiet --seconds 1 </dev/null >"$tmp/out" 2>"$tmp/err"
[ $? -ne 0 ] || bad "destructive without --yes and no tty exited 0"
grep -q "needs --yes" "$tmp/err" || bad "no --yes message: $(cat "$tmp/err")"
[ "$(md5sum <"$blank")" = "$sum" ] || bad "device changed although not confirmed"

# 4. scratch-file probe in a directory: results, then no file left.  The
# directory is an ext4 filesystem on a RAM-backed loop device, so that the
# machine's own (shared, sometimes stalling) disk does not decide the test.
mkdir "$tmp/dir"
shm=$(mktemp /dev/shm/tw-probe-test.XXXXXX)
truncate -s 256M "$shm"
mkfs.ext4 -q -F "$shm"
fsdev=$(losetup --find --show --direct-io=on "$shm") && loops+=("$fsdev")
rm -f "$shm"	# the loop device keeps it until detached
mount "$fsdev" "$tmp/dir" || { echo "SKIP: cannot mount a test filesystem"; exit 77; }
# io_uring tears a dead process's rings down asynchronously, holding its files
# for a moment: retry the unmount.
umount_dir() {
	for _ in $(seq 50); do umount "$tmp/dir" 2>/dev/null && return 0; sleep 0.1; done
	echo "FAIL: could not unmount $tmp/dir"; return 1
}
trap 'umount_dir; cleanup' EXIT
rmdir "$tmp/dir/lost+found"
"$tw" probe "$tmp/dir" --size 64Mi --tests seq_write,rand_read_qd1,mixed_70_30 --seconds 1 \
	--ramp 0.2 --quiet -o "$tmp/s.json" >"$tmp/out" 2>"$tmp/err" || bad "scratch probe exit $?: $(cat "$tmp/err")"
jq -e '.devices[0] | .transport == "file" and .probe.target == "scratch-file" and
	.results.seq_write.mbps > 0 and .results.mixed_70_30.read_iops > 0 and
	.results.mixed_70_30.write_iops > 0' "$tmp/s.json" >/dev/null || bad "scratch profile: $(cat "$tmp/s.json")"
[ -z "$(ls -A "$tmp/dir")" ] || bad "scratch file left after a normal run: $(ls -A "$tmp/dir")"
schema_ok "$tmp/s.json"

# 5. SIGINT and SIGTERM in the middle: no scratch file left
for sig in INT TERM HUP; do
	"$tw" probe "$tmp/dir" --size 64Mi --tests rand_read_qd1 --seconds 20 --quiet \
		>/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		ls "$tmp/dir"/.tierwise-scratch.* >/dev/null 2>&1 && break
		sleep 0.05
	done
	ls "$tmp/dir"/.tierwise-scratch.* >/dev/null 2>&1 || bad "SIG$sig: no scratch file appeared"
	sleep 0.5
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -gt 128 ] || bad "SIG$sig: exit $rc, expected death by signal"
	[ -z "$(ls -A "$tmp/dir")" ] || bad "SIG$sig left: $(ls -A "$tmp/dir")"
done

[ "$fail" -eq 0 ] && echo "probe_safety: all checks passed"
exit "$fail"
