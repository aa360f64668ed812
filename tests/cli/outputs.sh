#!/usr/bin/env bash
# Outputs never destroy anything:
#  - every output option (probe --json, report -o, the default job's --json)
#    pointed at a loop device holding ext4 is refused with exit 2, and the
#    filesystem signature is intact afterwards (blkid -p); at a directory too;
#  - a failing, refused or unconfirmed probe leaves an existing good profile
#    byte for byte as it was; so does SIGINT in the middle of a probe; a
#    partial probe (exit 4) does write;
#  - a write that fails (ENOSPC on a full tmpfs) leaves the previous file and
#    no temporary file;
#  - sizes need a unit; an unmet need is a warning of kind `need`;
#  - one filesystem is one scratch target (a bind mount is not a second one);
#  - `probe` without --json says the profile was not saved.
# Needs root (loop devices, mounts); skipped with the reason otherwise.
set -u
tw=$1
export COLUMNS=1000	# whole sentences to match; the wrap at 80 is checked by golden.sh
. "$TW_SRCDIR/tests/cli/lib.sh"
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: needs root to create loop devices and mounts"; exit 77; fi
for t in jq losetup mkfs.ext4 blkid script; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
tmp=$(mktemp -d /var/tmp/tw-outputs-test.XXXXXX)
loops=() mounts=()
cleanup() {
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
	detach_loops "${loops[@]}"
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
example=$TW_SRCDIR/examples/ai-server-18-devices.json
quick=(--tests rand_read_qd1 --seconds 0.5 --ramp 0.1 --size 64Mi --quiet)

truncate -s 64M "$tmp/ext4.img"
mkfs.ext4 -q -F "$tmp/ext4.img"
ext=$(losetup --find --show "$tmp/ext4.img") || { echo "SKIP: losetup failed"; exit 77; }
loops+=("$ext")
truncate -s 64M "$tmp/blank.img"
blank=$(losetup --find --show "$tmp/blank.img") && loops+=("$blank")
mkdir -p "$tmp/scratch" "$tmp/dir"

intact() {	# $1 = what was tried
	if [ "$(blkid -p -o value -s TYPE "$ext")" != ext4 ]; then
		echo "FAIL: $1: the ext4 signature on $ext is gone"; fail=1
	fi
}

# 1. output options pointed at a disk with data, and at a directory
check "probe -o DEVICE" 2 "$tw" probe -o "$ext" "$tmp/scratch" "${quick[@]}"
expect "probe -o DEVICE" "$tmp/err" "is a block device"
expect "probe -o DEVICE hint" "$tmp/err" "give it as a target"
intact "probe -o $ext"
check "report -o DEVICE" 2 "$tw" report "$example" --no-plan -o "$ext"
expect "report -o DEVICE" "$tmp/err" "-o $ext: is a block device"
intact "report -o $ext"
check "default job -o DEVICE" 2 "$tw" -o "$ext" --quiet
expect "default job -o DEVICE" "$tmp/err" "is a block device"
intact "tierwise -o $ext"
check "probe -o DIR" 2 "$tw" probe -o "$tmp/dir" "$tmp/scratch" "${quick[@]}"
expect "probe -o DIR" "$tmp/err" "is a directory"
check "report -o DIR" 2 "$tw" report "$example" --no-plan -o "$tmp/dir"
expect "report -o DIR" "$tmp/err" "is a directory"
check "report -o CHARDEV" 2 "$tw" report "$example" --no-plan -o /dev/null
expect "report -o CHARDEV" "$tmp/err" "is a character device"
[ -z "$(ls -A "$tmp/dir")" ] || { echo "FAIL: something was written in $tmp/dir"; fail=1; }

# 2. a good profile survives runs that measure nothing
"$tw" probe "$tmp/scratch" "${quick[@]}" -o "$tmp/keep.json" >/dev/null 2>&1 ||
	{ echo "FAIL: the first probe failed"; fail=1; }
cp "$tmp/keep.json" "$tmp/keep.orig"
unchanged() {
	cmp -s "$tmp/keep.json" "$tmp/keep.orig" || { echo "FAIL: $1 changed keep.json"; fail=1; }
	ls -A "$tmp" | grep -q '^\.keep\.' && { echo "FAIL: $1 left a temporary file"; fail=1; }
}
check "probe of a missing device" 3 "$tw" probe /dev/nonexist -o "$tmp/keep.json"
expect "probe of a missing device" "$tmp/err" "was not written"
unchanged "a probe of /dev/nonexist"
check "a refused --destructive" 3 "$tw" probe --destructive --yes "$ext" -o "$tmp/keep.json" "${quick[@]}"
unchanged "a refused --destructive"
intact "a refused --destructive"
echo no | script -qec "'$tw' probe --destructive '$blank' -o '$tmp/keep.json' ${quick[*]}" /dev/null \
	>"$tmp/out" 2>&1
expect "unconfirmed --destructive" "$tmp/out" "Not confirmed"
unchanged "answering no at the confirmation"
"$tw" probe "$tmp/scratch" --tests seq_read --seconds 5 --ramp 0 --size 64Mi --quiet \
	-o "$tmp/keep.json" >/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || { echo "FAIL: SIGINT: exit $rc, wanted 130"; fail=1; }
unchanged "SIGINT in the middle of a probe"
# what was measured before the interrupt is kept beside it
[ "$(jq '.devices | length' "$tmp/keep.partial.json" 2>/dev/null)" = 1 ] ||
	{ echo "FAIL: SIGINT: no keep.partial.json with the device measured so far"; fail=1; }
ls -A "$tmp/scratch" | grep -q . && { echo "FAIL: SIGINT left a scratch file"; fail=1; }

# 3. a partial run writes what it measured (exit 4)
check "a partial probe" 4 "$tw" probe "$tmp/scratch" /dev/nonexist "${quick[@]}" -o "$tmp/part.json"
[ "$(jq '.devices | length' "$tmp/part.json")" = 1 ] ||
	{ echo "FAIL: the partial profile does not hold the measured device"; fail=1; }

# 4. a write that fails on a full filesystem leaves the previous file
mkdir -p "$tmp/small"
if mount -t tmpfs -o size=32k tmpfs "$tmp/small"; then
	mounts+=("$tmp/small")
	echo "previous report" >"$tmp/small/r.html"
	check "report onto a full filesystem" 3 "$tw" report "$example" --no-plan -o "$tmp/small/r.html"
	expect "report onto a full filesystem" "$tmp/err" "No space left on device"
	[ "$(cat "$tmp/small/r.html")" = "previous report" ] ||
		{ echo "FAIL: the failed report replaced the previous file"; fail=1; }
	[ "$(ls -A "$tmp/small")" = r.html ] || { echo "FAIL: a temporary file was left: $(ls -A "$tmp/small")"; fail=1; }
else
	echo "note: tmpfs mount failed; the ENOSPC case is not tested"
fi

# 5. sizes need a unit; unmet needs are warnings
check "--need without a unit" 2 "$tw" plan "$example" --no-inventory --need archive=20
expect "--need without a unit" "$tmp/err" "512Gi"
check "--size without a unit" 2 "$tw" probe "$tmp/scratch" --size 4096
expect "--size without a unit" "$tmp/err" "not a size with a unit"
check "--need 0" 0 "$tw" plan "$example" --no-inventory --need vector-db=0 --format json
check "unmet need, json" 0 "$tw" plan "$example" --no-inventory --need archive=1000T --format json
jq_true "unmet need is a warning" '[.warnings[] | select(.kind == "need" and .device == null)] | length == 1'
for f in text md; do
	check "unmet need, $f" 0 "$tw" plan "$example" --no-inventory --need archive=1000T --format $f
	expect "unmet need, $f" "$tmp/out" "the plan does not meet this need"
done

# 6. one filesystem, one scratch target
mkdir -p "$tmp/bind"
if mount --bind "$tmp/scratch" "$tmp/bind"; then
	mounts+=("$tmp/bind")
	check "scratch on a bind mount" 0 "$tw" probe "$tmp/scratch" "$tmp/bind" "${quick[@]}" -o "$tmp/b.json"
	[ "$(jq '.devices | length' "$tmp/b.json")" = 1 ] ||
		{ echo "FAIL: a bind mount was probed as a second target"; fail=1; }
	expect "scratch on a bind mount" "$tmp/err" "the same filesystem as"
fi

# 7. probe without --json says so
check "probe without --json" 0 "$tw" probe "$tmp/scratch" "${quick[@]}"
expect "probe without --json" "$tmp/err" "not saved: add -o FILE"

# 7b. the old spellings work for one release and say so
check "list --json (deprecated)" 0 "$tw" --sysroot "$TW_SRCDIR/tests/fixtures/server" list --json
jq_true "list --json still writes the inventory" '.schema == "tierwise.inventory/1"'
expect "list --json (deprecated)" "$tmp/err" "--json is deprecated: use --format json"
check "score --json (deprecated)" 0 "$tw" score "$example" --json
jq_true "score --json still writes tierwise.score/1" '.schema == "tierwise.score/1"'
expect "score --json (deprecated)" "$tmp/err" "--json is deprecated: use --format json"
check "probe --json FILE (deprecated)" 0 "$tw" probe "$tmp/scratch" "${quick[@]}" --json "$tmp/old.json"
[ "$(jq '.devices | length' "$tmp/old.json")" = 1 ] || { echo "FAIL: probe --json FILE wrote no profile"; fail=1; }
expect "probe --json FILE (deprecated)" "$tmp/err" "--json FILE is deprecated: use -o FILE"
check "probe --format json" 0 "$tw" probe "$tmp/scratch" "${quick[@]}" --format json
jq_true "probe --format json: the profile on stdout" '.schema == "tierwise.profile/1" and (.devices | length) == 1'

check "explain --format json" 0 "$tw" explain optane905p --policy vector-db "$example" --format json
jq_true "explain --format json: tierwise.explain/1" \
	'.schema == "tierwise.explain/1" and .a.id == "optane905p" and (.rows | length) > 3 and (.rows[0].ratio | type) == "number"'
check "explain --format jsn" 2 "$tw" explain optane905p --policy vector-db "$example" --format jsn
expect "explain --format jsn" "$tmp/err" "did you mean 'json'?"

# 8. a full disk under `> file` is an error with its reason, for every command and format
full() {	# DESCRIPTION COMMAND...
	local what=$1; shift
	"$@" >/dev/full 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -eq 0 ] || ! grep -q "No space left on device" "$tmp/err"; then
		echo "FAIL: $what > /dev/full: exit $rc: $(cat "$tmp/err")"; fail=1
	fi
}
fx=$TW_SRCDIR/tests/fixtures/server
full "list" "$tw" --sysroot "$fx" list
full "list --json" "$tw" --sysroot "$fx" list --format json
full "score" "$tw" score "$example"
full "score --json" "$tw" score "$example" --format json
for f in text json md fstab udev script; do
	full "plan --format $f" "$tw" plan "$example" --no-inventory --format $f
done
full "explain" "$tw" explain optane905p --policy vector-db "$example"
for f in text md json; do
	full "compare --format $f" "$tw" compare "$example" "$example" --format $f
done
full "report -o -" "$tw" report "$example" --no-plan -o -
full "probe -o -" "$tw" probe "$tmp/scratch" "${quick[@]}" -o -
for f in text json md html; do
	full "fleet --format $f" "$tw" fleet "$example" --format $f
done
full "export --format prometheus" "$tw" export --format prometheus "$example"

exit $fail
