#!/usr/bin/env bash
# tierwise probe in hostile environments (docs/reliability.md has the table):
#   faults     TIERWISE_FAULT injects EIO, short reads, EAGAIN, stalls: the
#              error is noted, the rest kept, exit 4, no hang
#   stale      a SIGKILLed run's scratch file is removed by the next run;
#              look-alikes (other names, live or locked owners) are not
#   signals    SIGINT/SIGTERM/SIGHUP at random moments leave no scratch file
#   enospc     (root) a full tmpfs: refused by the size check; filled by
#              another writer before the scratch file's space is reserved:
#              ENOSPC; after: measured on the reserved space; no file left
#   readonly   (root) a read-only filesystem: a clear error, no file
#   vanish     (root) the device fails mid-probe (its backing filesystem is
#              shut down): EIO noted, earlier results kept, exit 4
#   nobody     (root) as an unprivileged user: list works and says what it
#              could not read; probe of a raw device: permission denied;
#              as root of a user namespace: refused, and said so for root
#   nouring    (root) kernel.io_uring_disabled=2: psync, with a notice
# Root-only parts print "SKIP: ..." and the rest still runs; everything
# created (mounts, loop and dm devices, the sysctl) is undone on every exit.
set -u
tw=$1
for t in jq flock timeout; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
root=0
[ "$(id -u)" -eq 0 ] && root=1
tmp=$(mktemp -d /var/tmp/tw-hostile.XXXXXX)
chmod 755 "$tmp"
mounts=() loops=() pids=() sysctl_old=
cleanup() {
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	[ -n "$sysctl_old" ] && sysctl -qw kernel.io_uring_disabled="$sysctl_old"
	for l in "${loops[@]}"; do	# inner loop devices first: their files are on mounts
		[ -n "$(losetup -nO BACK-FILE "$l" 2>/dev/null | grep "^$tmp/")" ] && losetup -d "$l"
	done
	for m in "${mounts[@]}"; do
		# io_uring releases a dead process's files asynchronously: retry
		for _ in $(seq 50); do umount "$m" 2>/dev/null && break; sleep 0.1; done
	done
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fail=0
bad() { echo "FAIL: $*"; fail=1; }
skip() { echo "SKIP: $*"; }
quick=(--seconds 1 --ramp 0.1 --quiet)

# A directory for scratch files in $d: a fresh tmpfs as root (the machine's
# own disk does not decide the test), else a directory under /var/tmp.
# (Not in $(...): the mount must be recorded in this shell.)
new_dir() {	# new_dir NAME [tmpfs options]
	d=$tmp/$1
	mkdir -p "$d"
	if [ "$root" -eq 1 ]; then
		mount -t tmpfs -o "${2:-size=256M}" "tw-hostile" "$d" || return 1
		mounts+=("$d")
	fi
}
no_scratch() {	# no_scratch WHAT DIR: no .tierwise-scratch.* left in DIR
	local left
	left=$(find "$2" -maxdepth 1 -name '.tierwise-scratch.*' -printf '%f ' 2>/dev/null)
	[ -z "$left" ] || bad "$1: scratch file left: $left"
}
# notes_have WHAT FILE REGEX: a note of the first device matches
notes_have() {
	jq -e --arg re "$3" '.devices[0].notes | any(test($re))' "$2" >/dev/null ||
		bad "$1: no note matching /$3/: $(jq -c '.devices[0].notes' "$2" 2>/dev/null)"
}

# ---- faults: the test hook TIERWISE_FAULT ----------------------------------
faults() {
	local d rc t0 el
	new_dir faults || { bad "faults: no directory"; return; }
	# one EIO after 300 I/Os: that test fails, the others are kept
	TIERWISE_FAULT=eio:after=300:count=1 timeout 60 "$tw" probe "$d" --size 64Mi \
		--tests seq_read,rand_read_qd1,rand_read_qd32 "${quick[@]}" \
		-o "$tmp/eio.json" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 4 ] || bad "eio: exit $rc, wanted 4: $(cat "$tmp/err")"
	grep -q "TIERWISE_FAULT=eio" "$tmp/err" || bad "eio: no warning that faults are injected"
	notes_have eio "$tmp/eio.json" 'failed: read of [0-9]+ bytes at offset [0-9]+: Input/output error'
	notes_have eio "$tmp/eio.json" 'fault injection'
	jq -e '.devices[0].results | length == 2' "$tmp/eio.json" >/dev/null ||
		bad "eio: the two other tests are not kept: $(jq -c '.devices[0].results | keys' "$tmp/eio.json")"
	"$tw" validate "$tmp/eio.json" >/dev/null || bad "eio: the profile does not validate"
	no_scratch eio "$d"
	# short transfers and EAGAIN: failures with their own words
	TIERWISE_FAULT=short:after=100 timeout 60 "$tw" probe "$d" --size 64Mi \
		--tests rand_read_qd1 "${quick[@]}" -o "$tmp/short.json" >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 4 ] || bad "short: exit $rc, wanted 4"
	notes_have short "$tmp/short.json" 'short read at offset [0-9]+: 2048 of 4096 bytes'
	TIERWISE_FAULT=eagain:after=100 timeout 60 "$tw" probe "$d" --size 64Mi \
		--tests rand_read_qd1 "${quick[@]}" -o "$tmp/eagain.json" >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 4 ] || bad "eagain: exit $rc, wanted 4"
	notes_have eagain "$tmp/eagain.json" 'Resource temporarily unavailable'
	# a device that stops answering (30 s per completion, a dying disk
	# retrying): the first test ends 5 s (the stall floor: what was in flight
	# would drain in well under a second at the rate shown) after its time,
	# the others are skipped, no hang
	t0=$(date +%s%N)
	TIERWISE_FAULT=slow:after=200:delay=30000 timeout 60 "$tw" probe "$d" --size 64Mi \
		--tests seq_write,seq_read,rand_read_qd1,qd_sweep "${quick[@]}" \
		-o "$tmp/slow.json" >/dev/null 2>&1
	rc=$?
	el=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$rc" -eq 4 ] || bad "slow: exit $rc, wanted 4"
	[ "$el" -lt 12000 ] || bad "slow: took $el ms (1 s test + 5 s stall floor + setup expected)"
	notes_have slow "$tmp/slow.json" 'seq_write: failed: I/O still in flight .*none completed for 5\.[0-9] s .*the device stalled'
	notes_have slow "$tmp/slow.json" 'qd_sweep: skipped: the device stalled'
	no_scratch slow "$d"
	# slow but answering (30 ms): measured, on time, latency shows it
	TIERWISE_FAULT=slow:delay=30 timeout 60 "$tw" probe "$d" --size 64Mi \
		--tests rand_read_qd1 "${quick[@]}" -o "$tmp/slow30.json" >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 0 ] || bad "slow 30 ms: exit $rc, wanted 0"
	jq -e '.devices[0].results.rand_read_qd1.lat_us.p50 >= 29000' "$tmp/slow30.json" >/dev/null ||
		bad "slow 30 ms: p50 $(jq '.devices[0].results.rand_read_qd1.lat_us.p50' "$tmp/slow30.json")"
	# device= names another target: no fault here
	TIERWISE_FAULT=eio:device=nvme9n9 "$tw" probe "$d" --size 64Mi --tests rand_read_qd1 \
		"${quick[@]}" -o "$tmp/other.json" >/dev/null 2>&1 || bad "device=: exit $?, wanted 0"
	# a bad spec is refused before anything runs
	TIERWISE_FAULT=boom "$tw" probe "$d" --quiet >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || bad "bad spec: exit $rc, wanted 2"
	grep -q "unknown fault 'boom'" "$tmp/err" || bad "bad spec message: $(cat "$tmp/err")"
	no_scratch faults "$d"
	echo "ok: faults"
}

# ---- a SIGKILLed run's scratch file, and look-alikes -------------------------
wait_scratch() {	# wait_scratch DIR PID: until DIR/.tierwise-scratch.PID exists
	for _ in $(seq 200); do [ -e "$1/.tierwise-scratch.$2" ] && return 0; sleep 0.02; done
	return 1
}
dead_pid() { sh -c 'echo $$'; }	# a pid that just ended
stale() {
	local d pid dead lockpid rc locked other
	new_dir stale || { bad "stale: no directory"; return; }
	"$tw" probe "$d" --size 64Mi --tests rand_read_qd1 --seconds 30 --quiet >/dev/null 2>&1 &
	pid=$!
	pids=("$pid")
	wait_scratch "$d" "$pid" || bad "stale: no scratch file appeared"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	pids=()
	[ -e "$d/.tierwise-scratch.$pid" ] || bad "stale: SIGKILL left no file (test broken)"
	# look-alikes that must stay
	dead=$(dead_pid)
	touch "$d/.tierwise-scratch.${dead}x" "$d/.tierwise-scratch.0$dead" \
		"$d/tierwise-scratch.$dead" "$d/.tierwise-scratch.$$"	# our shell: alive
	ln -s "$tmp/victim" "$d/.tierwise-scratch.$((dead + 1))"
	touch "$tmp/victim"
	locked=$(dead_pid)
	touch "$d/.tierwise-scratch.$locked"
	# locked by a live process: a sleep holding the lock on its fd 9 (killing
	# it closes the file, so the filesystem can be unmounted)
	( exec 9<"$d/.tierwise-scratch.$locked" && flock -n 9 && exec sleep 60 ) &
	lockpid=$!
	pids=("$lockpid")
	sleep 0.2
	if [ "$root" -eq 1 ]; then
		other=$(dead_pid)
		touch "$d/.tierwise-scratch.$other"
		chown 65534 "$d/.tierwise-scratch.$other"	# not our uid
	fi
	"$tw" probe "$d" --size 64Mi --tests rand_read_qd1 "${quick[@]}" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] || bad "stale: next run exit $rc: $(cat "$tmp/err")"
	grep -q "removed 1 stale scratch file of a killed tierwise run: .tierwise-scratch.$pid" \
		"$tmp/err" || bad "stale: no notice: $(cat "$tmp/err")"
	[ -e "$d/.tierwise-scratch.$pid" ] && bad "stale: the killed run's file is still there"
	for f in ".tierwise-scratch.${dead}x" ".tierwise-scratch.0$dead" "tierwise-scratch.$dead" \
		".tierwise-scratch.$$" ".tierwise-scratch.$((dead + 1))" ".tierwise-scratch.$locked"; do
		[ -e "$d/$f" ] || [ -L "$d/$f" ] || bad "stale: removed the look-alike $f"
	done
	[ -e "$tmp/victim" ] || bad "stale: followed a symlink"
	[ "$root" -eq 1 ] && { [ -e "$d/.tierwise-scratch.$other" ] || bad "stale: removed another user's file"; }
	kill "$lockpid" 2>/dev/null
	wait "$lockpid" 2>/dev/null
	pids=()
	echo "ok: stale"
}

# ---- fatal signals at random moments --------------------------------------
signals() {
	local d sig pid rc ms
	new_dir signals size=1G || { bad "signals: no directory"; return; }
	for i in $(seq 8); do
		sig=$(shuf -n1 -e INT TERM HUP)
		ms=$(shuf -i 0-1500 -n1)	# anywhere: start-up, fill, tests
		# (1 GiB: a killed run's io_uring may hold its unlinked file a moment)
		# a background job of a script starts with SIGINT ignored: undo that,
		# as an interactive shell would
		env --default-signal=INT "$tw" probe "$d" --size 128M --tests rand_read_qd1,seq_read \
			--seconds 5 --quiet >/dev/null 2>"$tmp/err" &
		pid=$!
		sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
		kill -"$sig" "$pid"
		wait "$pid"
		rc=$?
		[ "$rc" -gt 128 ] || bad "SIG$sig after ~$ms ms: exit $rc, expected death by signal: $(cat "$tmp/err")"
		no_scratch "SIG$sig after ~$ms ms" "$d"
	done
	echo "ok: signals"
}

# ---- root only --------------------------------------------------------------
enospc() {
	local d pid rc sz
	new_dir full64 size=64M || { bad "enospc: cannot mount a tmpfs"; return; }
	"$tw" probe "$d" --size 256M --quiet >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 3 ] || bad "enospc (size check): exit $rc, wanted 3"
	grep -q "does not fit (No space left on device)" "$tmp/err" ||
		bad "enospc (size check): message: $(cat "$tmp/err")"
	no_scratch "enospc (size check)" "$d"
	# another writer fills the filesystem right after the scratch file was
	# created: before its space is reserved (fallocate), the reservation
	# fails with ENOSPC, a clear error; after it, the reserved space is the
	# probe's and the run measures as usual.  The probe is stopped for good
	# (state T) before its file's size is read, so that a reservation in
	# progress is not read as none.
	new_dir full512 size=512M || { bad "enospc: cannot mount a tmpfs"; return; }
	"$tw" probe "$d" --size 400M --tests rand_read_qd1 "${quick[@]}" -o "$tmp/enospc.json" \
		>/dev/null 2>"$tmp/err" &
	pid=$!
	pids=("$pid")
	until [ -e "$d/.tierwise-scratch.$pid" ] || ! kill -0 "$pid" 2>/dev/null; do :; done
	kill -STOP "$pid" 2>/dev/null
	for _ in $(seq 500); do
		[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" != R ] && break
		sleep 0.01
	done
	sz=$(stat -c %s "$d/.tierwise-scratch.$pid" 2>/dev/null || echo 0)
	dd if=/dev/zero of="$d/filler" bs=1M status=none 2>/dev/null	# until ENOSPC
	kill -CONT "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	pids=()
	if [ "$sz" -gt 0 ]; then	# reserved (the size check may trim the 400M)
		[ "$rc" -eq 0 ] || bad "enospc (after the reservation): exit $rc, wanted 0: $(cat "$tmp/err")"
		jq -e '.devices[0].results.rand_read_qd1.iops > 0' "$tmp/enospc.json" >/dev/null 2>&1 ||
			bad "enospc (after the reservation): no rand_read_qd1 figure"
		echo "ok: enospc (the filesystem filled after the reservation: measured on the reserved space)"
	else
		[ "$rc" -eq 3 ] || bad "enospc (before the reservation): exit $rc, wanted 3: $(cat "$tmp/err")"
		grep -Eq "(reserving [0-9]+ MiB for|filling) the scratch file: No space left on device" "$tmp/err" ||
			bad "enospc (before the reservation): message: $(cat "$tmp/err")"
		echo "ok: enospc (the filesystem filled before the reservation: refused)"
	fi
	no_scratch "enospc (another writer)" "$d"
	echo "ok: enospc"
}

readonly_fs() {
	local d rc
	new_dir ro size=256M,ro || { bad "readonly: cannot mount a read-only tmpfs"; return; }
	"$tw" probe "$d" --size 64Mi --quiet >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 3 ] || bad "readonly: exit $rc, wanted 3"
	grep -q "read-only filesystem.*Read-only file system" "$tmp/err" ||
		bad "readonly: message: $(cat "$tmp/err")"
	[ -z "$(ls -A "$d")" ] || bad "readonly: something left: $(ls -A "$d")"
	echo "ok: readonly"
}

# The device goes away under the probe: a loop device whose backing file
# lives on an ext4 filesystem (itself on a RAM-backed loop device) that is
# shut down mid-probe (FS_IOC_SHUTDOWN, as fstests do): from then on every
# read of the device fails with EIO, as on a pulled disk.  (A plain
# `losetup -d` of an open loop device is deferred by the kernel until the
# last close, so the probe would not notice.)
vanish() {
	local img outer inner mnt rc pid t0 el
	for t in losetup mkfs.ext4 xfs_io; do
		command -v "$t" >/dev/null || { skip "vanish: $t not installed"; return; }
	done
	img=$(mktemp /dev/shm/tw-hostile.XXXXXX)
	truncate -s 200M "$img"
	mkfs.ext4 -q -F "$img"
	outer=$(losetup --find --show "$img") || { rm -f "$img"; skip "vanish: losetup failed"; return; }
	loops+=("$outer")
	rm -f "$img"	# the loop device keeps it until detached
	mnt=$tmp/vanish
	mkdir -p "$mnt"
	mount "$outer" "$mnt" || { bad "vanish: cannot mount"; return; }
	mounts+=("$mnt")
	head -c $((128 << 20)) /dev/urandom >"$mnt/disk.img"
	inner=$(losetup --find --show --direct-io=on "$mnt/disk.img") || { bad "vanish: losetup"; return; }
	loops=("$inner" "${loops[@]}")	# detached before the outer one
	t0=$(date +%s%N)
	timeout 60 "$tw" probe "$inner" --tests seq_read,rand_read_qd1,rand_read_qd32 \
		--seconds 3 --ramp 0.1 --quiet -o "$tmp/vanish.json" >/dev/null 2>"$tmp/err" &
	pid=$!
	pids=("$pid")
	sleep 4.5	# seq_read is over (~3.2 s), rand_read_qd1 runs (to ~6.4 s)
	xfs_io -x -c shutdown "$mnt" || bad "vanish: shutdown failed"
	wait "$pid"
	rc=$?
	pids=()
	el=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$rc" -eq 4 ] || bad "vanish: exit $rc, wanted 4: $(cat "$tmp/err")"
	[ "$el" -lt 20000 ] || bad "vanish: took $el ms"
	jq -e '.devices[0].results.seq_read.mbps > 0' "$tmp/vanish.json" >/dev/null ||
		bad "vanish: seq_read, measured before, not kept: $(jq -c '.devices[0].results' "$tmp/vanish.json")"
	notes_have vanish "$tmp/vanish.json" 'rand_read_qd32: failed: read of 4096 bytes at offset [0-9]+: Input/output error'
	"$tw" validate "$tmp/vanish.json" >/dev/null || bad "vanish: the profile does not validate"
	echo "ok: vanish"
}

nobody() {
	local loop img as rc
	command -v setpriv >/dev/null || { skip "nobody: setpriv not installed"; return; }
	as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	"${as[@]}" true 2>/dev/null || { skip "nobody: setpriv cannot switch user"; return; }
	install -m 755 "$tw" "$tmp/tierwise"	# the build tree may be closed to others
	"${as[@]}" test -x "$tmp/tierwise" || { skip "nobody: cannot run $tmp/tierwise as nobody"; return; }
	img=$(mktemp /dev/shm/tw-hostile.XXXXXX)
	truncate -s 64M "$img"
	loop=$(losetup --find --show "$img") || { rm -f "$img"; skip "nobody: losetup failed"; return; }
	loops+=("$loop")
	rm -f "$img"
	"${as[@]}" "$tmp/tierwise" list --format json >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] || bad "nobody: list exit $rc: $(cat "$tmp/err")"
	jq -e --arg n "${loop#/dev/}" '.devices[] | select(.name == $n) |
		.signatures_probed == false and
		(.safe_destructive.reasons | any(test("signatures unknown .*Permission denied")))' \
		"$tmp/out" >/dev/null || bad "nobody: list does not say what it could not read"
	"${as[@]}" "$tmp/tierwise" probe "$loop" "${quick[@]}" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 3 ] || bad "nobody: probe exit $rc, wanted 3"
	grep -q "cannot open: Permission denied (raw devices need root" "$tmp/err" ||
		bad "nobody: probe message: $(cat "$tmp/err")"
	# Root in a user namespace (nobody outside, as in a container): refused
	# although euid is 0, and the message does not tell root to be root.
	if command -v unshare >/dev/null &&
	   "${as[@]}" unshare --user --map-root-user true 2>/dev/null; then
		"${as[@]}" unshare --user --map-root-user "$tmp/tierwise" probe "$loop" "${quick[@]}" \
			>/dev/null 2>"$tmp/err"
		rc=$?
		[ "$rc" -eq 3 ] || bad "userns root: probe exit $rc, wanted 3"
		grep -q "cannot open: Permission denied (the kernel refused the open although running as root" \
			"$tmp/err" && ! grep -q "need root" "$tmp/err" ||
			bad "userns root: probe message: $(cat "$tmp/err")"
	else
		skip "userns root: unshare --user not allowed here"
	fi
	"${as[@]}" "$tmp/tierwise" probe "$tmp" --size 64Mi "${quick[@]}" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 3 ] || bad "nobody: probe of an unwritable directory exit $rc, wanted 3"
	grep -q "cannot create a scratch file: Permission denied" "$tmp/err" ||
		bad "nobody: unwritable directory message: $(cat "$tmp/err")"
	echo "ok: nobody"
}

nouring() {
	local d rc old
	old=$(sysctl -n kernel.io_uring_disabled 2>/dev/null) ||
		{ skip "nouring: no kernel.io_uring_disabled (kernel < 6.6)"; return; }
	new_dir nouring || { bad "nouring: no directory"; return; }
	sysctl_old=$old
	sysctl -qw kernel.io_uring_disabled=2 2>/dev/null ||
		{ sysctl_old=; skip "nouring: cannot set kernel.io_uring_disabled"; return; }
	"$tw" probe "$d" --size 64Mi --tests rand_read_qd1 "${quick[@]}" \
		-o "$tmp/nouring.json" >/dev/null 2>"$tmp/err"
	rc=$?
	sysctl -qw kernel.io_uring_disabled="$old"	# as soon as possible: shared machine
	sysctl_old=
	[ "$rc" -eq 0 ] || bad "nouring: exit $rc: $(cat "$tmp/err")"
	notes_have nouring "$tmp/nouring.json" 'io_uring.*using psync'
	jq -e '.devices[0].results.rand_read_qd1.iops > 0' "$tmp/nouring.json" >/dev/null ||
		bad "nouring: no result"
	echo "ok: nouring"
}

faults
stale
signals
if [ "$root" -eq 1 ]; then
	enospc
	readonly_fs
	vanish
	nobody
	nouring
else
	skip "enospc, readonly, vanish, nobody, nouring: need root (tmpfs mounts, loop devices, setpriv, sysctl)"
fi
[ "$fail" -eq 0 ] && echo "hostile: all checks passed"
exit "$fail"
