#!/usr/bin/env bash
# tierwise verify on a loop device with ext4 that this test makes and mounts
# (root; SKIP otherwise), from the hand-written plan in tests/fixtures/verify:
#  1. a first run measures the warm tier's five workloads (stream buffered,
#     stream mmap, write, chain, beam): each measured figure positive, cold
#     where it reads;
#  2. a plan whose estimates are the median of three such runs is verified
#     within ±50 % (exit 0; the machine is shared: see there), and with a
#     tolerance of 1000 % exit 0;
#     a samples workload (DLIO) reads its scratch file in whole samples;
#  3. estimates 100× too fast: exit 5, every "within" false, ratios below 0.3
#     (100×: a buffered load on the disk here swings 20× between runs);
#  4. a mount point that is not mounted (an empty directory, a missing one):
#     reported "not mounted, not written", exit 3, nothing created in it; a
#     "directory" mount verified on the filesystem that holds it, and
#     reported when the directory is gone;
#  5. no scratch file is left: the mount holds only lost+found and its used
#     blocks are back where they were after every run, and after kill -9 of
#     a verify in the middle of its run (the O_TMPFILE vanishes);
#  6. the Prometheus textfile passes promtool and has a sample per workload;
#  7. bad input: a missing plan, a wrong-type estimate field, a plan without
#     the workloads' fields (exit 1, file and key named); bad options (exit 2);
#  8. a read-only filesystem is reported and not written (exit 3).
set -u
tw=$1
fix=${TW_SRCDIR:?}/tests/fixtures/verify/plan.json
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: needs root to create and mount a loop device"; exit 77; fi
for t in losetup mkfs.ext4 mount umount jq df; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
tmp=$(mktemp -d /var/tmp/tw-verify.XXXXXX)
shm=$(mktemp -d /dev/shm/tw-verify.XXXXXX)
mnt=$tmp/mnt
loop=
pid=
. "$(dirname "$0")/lib.sh"
cleanup() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$loop" ] && detach_loops "$loop"
	rm -rf "$tmp" "$shm"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
fail=0

# A 2 GiB image in memory, allocated whole: its speed depends on no disk
# cache of the host (a loop over /var/tmp measured 2x apart from one run to
# the next), and a quarter of its free space (450 MiB) holds a good part of a
# second of each workload.  Not mounted with discard: a discard punches the
# freed blocks out of the image, and a checkpoint written into them waits on
# the host to allocate memory again (12 saves measured 750 to 2,400 MB/s
# with discard, 2,100 to 4,000 without).
fallocate -l 2G "$shm/img" || { echo "SKIP: cannot allocate 2 GiB in /dev/shm"; exit 77; }
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard "$shm/img" || { echo "SKIP: mkfs.ext4 failed"; exit 77; }
loop=$(losetup --find --show "$shm/img") || { echo "SKIP: losetup failed"; exit 77; }
mkdir -p "$mnt" "$tmp/unmounted"
mount "$loop" "$mnt" || { echo "SKIP: cannot mount ext4 on $loop"; exit 77; }
used0=$(df --output=used -B1 "$mnt" | tail -1)

# plan FILTER — the fixture with the warm tier mounted at $mnt, then FILTER.
plan() {
	jq --arg m "$mnt" --arg u "$tmp/unmounted" "
		.tiers[1].mount.point = \$m | .tiers[1].mounts[0].point = \$m |
		.tiers[0].mount.point = \$u | .tiers[0].mounts[0].point = \$u | $1" "$fix"
}
# clean WHEN — no scratch file left on the mount, its used space back.
clean() {
	local left used
	left=$(ls -A "$mnt" | grep -v '^lost+found$')
	[ -z "$left" ] || bad "$1: left on the mount: $left"
	sync
	used=$(df --output=used -B1 "$mnt" | tail -1)
	# ext4's own metadata may move by a few blocks; a scratch file is >= 64 MiB
	[ $((used - used0)) -lt $((4 << 20)) ] || bad "$1: $(((used - used0) >> 20)) MiB more used than before"
}
warm=".tiers[] | select(.tier == \"warm\") | .workloads"

# ---- 1. a first measurement
plan . >"$tmp/plan.json"
"$tw" verify "$tmp/plan.json" --tier warm --seconds 1 --format json >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 5 ] || bad "first run: exit $rc, wanted 0 or 5: $(cat "$tmp/err")"
jq_true "first run: five workloads, each measured" "[$warm[] | .status] | length == 5 and all(. == \"within\" or . == \"outside\")" "$warm"
jq_true "first run: measured figures positive" "all($warm[]; .compared.measured > 0 and .ratio > 0)" "$warm"
jq_true "first run: the reads start cold" "all($warm[] | select(.pattern != \"write\"); .measured.cold)" "$warm"
jq_true "first run: the warm tier on the loop device" "[.tiers[] | select(.tier == \"warm\") | .mounted, .device] == [true, \"${loop#/dev/}\"]"
jq_true "first run: the scratch file in a quarter of the free space" "all($warm[]; .measured.scratch_bytes >= 67108864 and .measured.scratch_bytes <= $(df --output=avail -B1 "$mnt" | tail -1) / 4)" "$warm"
jq_true "first run: within is a ratio within ±30 % of 1" "all($warm[]; .within == ((if .ratio > 1 then .ratio - 1 else 1 - .ratio end) <= 0.3))" "$warm"
jq_true "first run: the ratio is the speed against the estimate" "all($warm[]; (if .pattern == \"chain\" then .compared.estimate / .compared.measured else .compared.measured / .compared.estimate end) / .ratio - 1 | . < 1e-4 and . > -1e-4)" "$warm"
clean "first run"

# ---- 2. estimates from what this machine measured: within ±50 %
# near FIGURES — the plan with the warm tier's estimates set to FIGURES (a
# JSON array of the five compared figures, in the plan's order).
near() {
	jq --argjson m "$1" '
	(.tiers[1].estimates["model-loading"][0].mbps) = $m[0] |
	(.tiers[1].estimates["model-loading"][1].mbps) = $m[1] |
	(.tiers[1].estimates.checkpoints[0].mbps) = $m[2] |
	(.tiers[1].estimates["vector-db"][0].p50_ms) = $m[3] * 10000 |
	(.tiers[1].estimates["vector-db"][1].qps) = $m[4]' "$tmp/plan.json" >"$tmp/near.json"
}
for i in 1 2 3; do
	"$tw" verify "$tmp/plan.json" --tier warm --seconds 1 --format json >"$tmp/m$i.json" 2>/dev/null
done
# median — the median of the last three runs' compared figures (m*.json)
median() {
	jq -sc "[.[] | [$warm[] | .compared.measured]] | transpose | map(sort | .[1])" \
		$(ls -v "$tmp"/m*.json | tail -3)
}
near "$(median)"
# The machine is shared (builds beside the test start and stop; a chain of
# 4 KiB reads on a loop device over memory is CPU-bound): a run whose five
# figures are all within ±50 % of the medians passes at once; else each
# workload must be within in one of five tries, each against the median of
# the last three runs (the load drifts).  Not the run before: the estimate
# sizes the scratch file, and a checkpoint written with fsync here is
# faster when it is small, so estimates taken from the run before swing
# from try to try (a saved rate of 0.3x, then 2.9x, then 0.4x the estimate
# in a CI run).
ok=0 seen=
for try in 1 2 3 4 5; do
	"$tw" verify "$tmp/near.json" --tier warm --seconds 1 --tolerance 50 --format json \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && { ok=1; break; }
	[ "$rc" -eq 5 ] || { bad "estimates as measured: exit $rc: $(cat "$tmp/err")"; break; }
	echo "try $try: exit $rc: $(jq -c "[$warm[] | [.workload, .ratio, .measured.scratch_bytes]]" "$tmp/out")"
	seen="$seen $(jq -r "$warm[] | select(.within) | .workload" "$tmp/out" | tr '\n' ' ')"
	cp "$tmp/out" "$tmp/m$((try + 3)).json"
	near "$(median)"
done
if [ "$ok" -eq 0 ]; then
	for w in buffered-load mmap-load save chain-lookup beam-search; do
		[[ " $seen " == *" $w "* ]] || bad "estimates as measured: $w outside ±50 % in five tries"
	done
else
	jq_true "as measured: every workload within" "all($warm[]; .within == true and .ratio >= 0.5 and .ratio <= 1.5)" "$warm"
fi
jq_true "as measured: tolerance said" ".tolerance_pct == 50"
check "a wide tolerance: exit 0" 0 "$tw" verify "$tmp/near.json" --tier warm --seconds 1 --tolerance 1000
line "a wide tolerance: the count" "^5 within, 0 outside, 0 not run, 0 failed; 0 tiers not mounted$"
clean "as measured"

# ---- 2b. training samples (DLIO): whole 24 MiB samples, shuffled, 4 readers;
# at 10 MB/s 1 s asks 10 MB, so the file is its 64 MiB floor: 2 whole
# samples, each read whole, and the 16 MiB tail that holds none not read
# (a sequential read of the file would read 64 MiB)
plan '.tiers[1].estimates = {"training-data": [.tiers[1].estimates["model-loading"][0] |
	.policy = "training-data" | .workload = "unet3d" | .pattern = "samples" | .via = null | .streams = 4 |
	.sample_size_bytes = 25165824 | .batch = 7 | .compute_s = 0.323 | .utilization = 0.9 |
	.mbps = 10]}' >"$tmp/samples.json"
"$tw" verify "$tmp/samples.json" --tier warm --seconds 1 --format json >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 5 ] || bad "samples: exit $rc, wanted 0 or 5: $(cat "$tmp/err")"
jq_true "samples: one workload, two whole samples read cold" "[$warm[]] | length == 1 and
	(.[0] | .pattern == \"samples\" and .measured.scratch_bytes == 67108864 and
	 .measured.bytes == 50331648 and .measured.cold and .compared.measured > 0)" "$warm"
clean "samples"

# ---- 3. estimates 100× too fast (the figures of one run swing up to 20×
# between runs here: a buffered load measured 4.7× then 0.2× its estimate
# in a fresh clone's suite; 10× left a workload within reach)
jq '(.tiers[1].estimates["model-loading"][].mbps) *= 100 | (.tiers[1].estimates.checkpoints[0].mbps) *= 100 |
	(.tiers[1].estimates["vector-db"][0].p50_ms) /= 100 | (.tiers[1].estimates["vector-db"][1].qps) *= 100' \
	"$tmp/near.json" >"$tmp/fast.json"
check "100x too fast" 5 "$tw" verify "$tmp/fast.json" --tier warm --seconds 0.5 --format json
jq_true "100x too fast: no workload within" "all($warm[]; .within == false and .ratio < 0.3)" "$warm"
check "100x too fast, text" 5 "$tw" verify "$tmp/fast.json" --tier warm --seconds 0.5
line "100x too fast, text: OUTSIDE" "^  model-loading +buffered-load .* OUTSIDE"
line "100x too fast, text: the count" "^0 within, 5 outside"
clean "100x too fast"

# ---- 4. mount points that are not mounted
plan '.tiers[1].mount.point = $u | .tiers[1].mounts[0].point = $u |
	.tiers[0].mounts[0].point = "/nonexistent/tw-verify"' >"$tmp/unmounted.json"
check "not mounted" 3 "$tw" verify "$tmp/unmounted.json"
line "not mounted: said" "^warm  $tmp/unmounted  not mounted, not written"
line "not mounted: a missing directory said" "^hot  /nonexistent/tw-verify  not mounted, not written"
[ -z "$(ls -A "$tmp/unmounted")" ] || bad "not mounted: something was created in it: $(ls -A "$tmp/unmounted")"
check "not mounted, json" 3 "$tw" verify "$tmp/unmounted.json" --format json
jq_true "not mounted: json" "[.tiers[] | .mounted] == [false, false] and all(.tiers[].workloads[]; .status == \"skipped\" and .measured == null)"
# a "directory" mount (a directory on an existing filesystem): there when the
# directory is; the filesystem that holds it is measured
mkdir "$mnt/models"
plan '.tiers[1].mounts[0] += {point: ($m + "/models"), directory: true} |
	.tiers[1].estimates = {checkpoints: .tiers[1].estimates.checkpoints}' >"$tmp/dir.json"
check "a directory mount" 0 "$tw" verify "$tmp/dir.json" --tier warm --seconds 0.5 --tolerance 1000 --format json
jq_true "a directory mount: on the loop device" "[.tiers[0] | .mounted, .device, .fs, .workloads[0].status] == [true, \"${loop#/dev/}\", \"ext4\", \"within\"]"
[ -z "$(ls -A "$mnt/models")" ] || bad "a directory mount: left in it: $(ls -A "$mnt/models")"
rmdir "$mnt/models"
check "a directory mount, gone" 3 "$tw" verify "$tmp/dir.json" --tier warm --seconds 0.5
line "a directory mount, gone: said" "^warm  $mnt/models  not mounted, not written"
# a mounted tier beside one that is not: partial
check "one tier mounted, one not" 4 "$tw" verify "$tmp/near.json" --seconds 0.5 --tolerance 1000

# ---- 5. kill -9 in the middle of a run: the scratch file vanishes with the process
"$tw" verify "$tmp/plan.json" --tier warm --seconds 10 >/dev/null 2>&1 &
pid=$!
grew=0
for _ in $(seq 100); do	# until its scratch file holds 32 MiB
	[ $(($(df --output=used -B1 "$mnt" | tail -1) - used0)) -gt $((32 << 20)) ] && { grew=1; break; }
	sleep 0.1
done
[ "$grew" -eq 1 ] || bad "kill -9: the running verify wrote no scratch file in 10 s"
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=
clean "after kill -9"

# ---- 6. the Prometheus textfile
check "prom" 5 "$tw" verify "$tmp/fast.json" --seconds 0.5 --format prom -o "$tmp/verify.prom"
cp "$tmp/verify.prom" "$tmp/out"
line "prom: ratio per workload" "^tierwise_verify_ratio\{host=\"[^\"]*\",tier=\"warm\",policy=\"model-loading\",workload=\"buffered-load\",pattern=\"stream\"\} 0\.[0-9]"
line "prom: within 0" "^tierwise_verify_within\{host=\"[^\"]*\",tier=\"warm\",policy=\"vector-db\",workload=\"beam-search\",pattern=\"beam\"\} 0$"
line "prom: the unmounted tier" "^tierwise_verify_tier_mounted\{host=\"[^\"]*\",tier=\"hot\"\} 0$"
line "prom: HELP and TYPE" "^# TYPE tierwise_verify_measured_bytes_per_second gauge$"
[ "$(grep -c '^tierwise_verify_within{' "$tmp/out")" -eq 5 ] || bad "prom: not one within sample per warm workload"
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmp/verify.prom" >"$tmp/err" 2>&1 || bad "promtool: $(cat "$tmp/err")"
fi
clean "prom"

# ---- 7. bad input
check "a missing plan" 1 "$tw" verify "$tmp/nothing.json"
expect "a missing plan: named" "$tmp/err" "$tmp/nothing.json: No such file or directory"
plan '.tiers[1].estimates["model-loading"][0].mbps = "fast"' >"$tmp/bad.json"
check "a wrong-type field" 1 "$tw" verify "$tmp/bad.json"
expect "a wrong-type field: file and key" "$tmp/err" "$tmp/bad.json: warm.estimates.model-loading[0].mbps: expected a number"
plan '.tiers[1].estimates["vector-db"][1].beam_width = -4' >"$tmp/bad.json"
check "a negative beam width" 1 "$tw" verify "$tmp/bad.json"
expect "a negative beam width: key" "$tmp/err" "warm.estimates.vector-db[1].beam_width: expected a whole number"
plan 'del(.tiers[1].estimates.checkpoints[0].pattern)' >"$tmp/bad.json"
check "no pattern" 1 "$tw" verify "$tmp/bad.json"
expect "no pattern: key" "$tmp/err" "$tmp/bad.json: warm.estimates.checkpoints[0].pattern: missing"
plan '.tiers[1].estimates.checkpoints[0].pattern = "scan"' >"$tmp/bad.json"
check "an unknown pattern" 1 "$tw" verify "$tmp/bad.json"
expect "an unknown pattern: key" "$tmp/err" "warm.estimates.checkpoints[0].pattern: expected stream"
echo '{"schema": "tierwise.profile/1"}' >"$tmp/bad.json"
check "a profile for a plan" 1 "$tw" verify "$tmp/bad.json"
check "an unknown option" 2 "$tw" verify "$tmp/plan.json" --tolerence 10
expect "an unknown option: the nearest" "$tmp/err" "did you mean '--tolerance'"
check "a bad tolerance" 2 "$tw" verify "$tmp/plan.json" --tolerance 10%
check "a bad tier" 2 "$tw" verify "$tmp/plan.json" --tier lukewarm
check "a bad format" 2 "$tw" verify "$tmp/plan.json" --format yaml
check "seconds out of range" 2 "$tw" verify "$tmp/plan.json" --seconds 0
check "no plan" 2 "$tw" verify
clean "bad input"

# ---- 8. a read-only filesystem
mount -o remount,ro "$mnt" || bad "cannot remount read-only"
check "read-only" 3 "$tw" verify "$tmp/plan.json" --tier warm
line "read-only: said" "^warm  $mnt  \(${loop#/dev/}, ext4\)  read-only filesystem: not written"

exit $fail
