#!/usr/bin/env bash
# One way to say things: ids of the same device in two profiles
# qualified by the profile, compare's caveats for different probe settings and
# "same device", a catalog plan's script that does nothing, units and
# magnitudes in the renderers, columns that stay in line, the empty profile,
# unknown --prices names, the example named by its real device count.
set -u
export COLUMNS=1000	# whole sentences to match; the wrap at 80 is checked by golden.sh
. "$(dirname "$0")/lib.sh"
cli_test_start "$1"

# ---- the example is named by its device count ----
[ "$(jq '.devices | length' "$ex")" = 18 ] ||
	bad "$ex does not hold 18 devices"
[ -e "$src/examples/ai-server-20-devices.json" ] &&
	bad "the old example name is still there"

# ---- 1. the same device from two profiles ----
jq '.host = "hostA" | .devices |= map(select(.id == "pm9a1-1t" or .id == "ironwolf12t"))' \
	"$ex" >"$tmp/a.json"
jq '.host = "hostB" | .devices |= map(select(.id == "pm9a1-1t"))' "$ex" >"$tmp/b.json"
jq '.host = "hostA" | .devices |= map(select(.id == "pm9a1-1t"))' "$ex" >"$tmp/a2.json"
check "score, two hosts" 0 "$tw" score "$tmp/a.json" "$tmp/b.json" --policy vector-db --policies "$pol"
line "score: hostA's pm9a1-1t qualified" '^ +[0-9]+  hostA:pm9a1-1t  '
line "score: hostB's pm9a1-1t qualified" '^ +[0-9]+  hostB:pm9a1-1t  '
line "score: an id that does not collide stays bare" '^ +[0-9]+  ironwolf12t  '
noline "score: no bare pm9a1-1t" '^ +[0-9]+  pm9a1-1t '
# the columns stay in line: SCORE starts at the same column in every row
awk '/^ +[0-9]+  / && !/excluded/ { print index($0, "79.") }' "$tmp/out" | sort -u >"$tmp/cols"
[ "$(wc -l <"$tmp/cols")" = 1 ] || { bad "score columns out of line:"; cat "$tmp/out"; }
check "score --json, two hosts" 0 "$tw" score "$tmp/a.json" "$tmp/b.json" --policy vector-db \
	--policies "$pol" --format json
jq_true "score --json: qualified ids" \
	'[.. | objects | select(has("id")) | .id] | (index("hostA:pm9a1-1t") != null and index("hostB:pm9a1-1t") != null)'
check "explain, two hosts" 0 "$tw" explain hostB:pm9a1-1t "$tmp/a.json" "$tmp/b.json" \
	--policy vector-db --policies "$pol"
line "explain: hostB vs hostA" '^hostB:pm9a1-1t vs hostA:pm9a1-1t for vector-db'
noline "explain: not pm9a1-1t beats pm9a1-1t" 'pm9a1-1t (beats|trails|ties with) pm9a1-1t'
check "score, one host twice: the file names" 0 "$tw" score "$tmp/a.json" "$tmp/a2.json" \
	--policy vector-db --policies "$pol"
line "score: file name a" '  a:pm9a1-1t  '
line "score: file name a2" '  a2:pm9a1-1t  '
check "score, one file twice" 0 "$tw" score "$tmp/b.json" "$tmp/b.json" --policy vector-db --policies "$pol"
line "score: profile1" '  profile1:pm9a1-1t  '
line "score: profile2" '  profile2:pm9a1-1t  '
# a plan is for one server: two hosts are refused, with where to go
check "plan, two hosts" 2 "$tw" plan "$tmp/a.json" "$tmp/b.json" --no-inventory --policies "$pol"
expect "plan, two hosts: both named" "$tmp/err" "(host hostA) and $tmp/b.json (host hostB) are profiles of two hosts"
expect "plan, two hosts: fleet named" "$tmp/err" "tierwise fleet $tmp/a.json $tmp/b.json"
[ "$(wc -l <"$tmp/err")" = 1 ] || { bad "plan, two hosts: not one line:"; cat "$tmp/err"; }
# one host twice (a re-probe): its device once, the later figures
check "plan, one host twice" 0 "$tw" plan "$tmp/a.json" "$tmp/a2.json" --no-inventory --policies "$pol" --format json
jq_true "plan, re-probe: pm9a1-1t once, from a2" '[.tiers[].devices[]] | (index("a2:pm9a1-1t") != null and index("a:pm9a1-1t") == null)'
expect "plan, re-probe: said" "$tmp/err" "1 device probed again in a later profile of the same host"

check "report, two hosts" 0 "$tw" report "$tmp/a.json" "$tmp/b.json" -o "$tmp/r.html" --policies "$pol"
expect "report: hostA's device" "$tmp/r.html" "hostA:pm9a1-1t"
expect "report: hostB's device" "$tmp/r.html" "hostB:pm9a1-1t"
# compare pairs BEFORE and AFTER by the ids of the files: not qualified
check "compare, two hosts" 0 "$tw" compare "$tmp/b.json" "$tmp/a2.json" --policies "$pol" --format json
jq_true "compare: paired by the bare id" '[.pairs[] | .before] == ["pm9a1-1t"]'

# ---- 2. compare says when the probe settings differ; the same device ----
one() { jq --arg id "$1" '.host = "h" | .devices |= map(select(.id == $id))' "$ex"; }
one pm9a1-1t | jq '.devices[0].probe = {mode: "quick", target: "raw-readonly", seconds: 20,
	engine: "io_uring"}' >"$tmp/uring.json"
one pm9a1-1t | jq '.devices[0].probe = {mode: "quick", target: "raw-readonly", seconds: 20,
	engine: "psync", test_seconds: 2} | .devices[0].results.rand_read_qd32.qd = 16' >"$tmp/psync.json"
check "validate: engine and test_seconds" 0 "$tw" validate "$tmp/psync.json"
check "compare engines: text" 0 "$tw" compare "$tmp/uring.json" "$tmp/psync.json" --policies "$pol"
line "compare: same device" '^pm9a1-1t \(same device\)$'
noline "compare: not a swap" 'pm9a1-1t → pm9a1-1t'
line "compare: engine caveat" '^  caveat: different probe setting: engine: io_uring → psync'
line "compare: seconds caveat" "^  caveat: different probe setting: seconds per test: the mode's → 2 s"
line "compare: queue depth caveat" '^  caveat: different probe setting: rand_read_qd32 queue depth: 32 → 16'
check "compare engines: md" 0 "$tw" compare "$tmp/uring.json" "$tmp/psync.json" --policies "$pol" --format md
line "compare md: engine caveat" '^- \*\*Caveat:\*\* different probe setting: engine: io_uring → psync'
line "compare md: same device" '^The same device\.'
check "compare engines: json" 0 "$tw" compare "$tmp/uring.json" "$tmp/psync.json" --policies "$pol" --format json
jq_true "compare json: same_device" '.pairs[0].same_device'
jq_true "compare json: caveats" '[.pairs[0].caveats[] | [.setting, .before, .after]] ==
	[["engine", "io_uring", "psync"], ["seconds per test", "the mode'"'"'s", "2 s"],
	 ["rand_read_qd32 queue depth", "32", "16"]]'
check "compare alike: json" 0 "$tw" compare "$tmp/uring.json" "$tmp/uring.json" --policies "$pol" --format json
jq_true "compare alike: no caveat" '.pairs[0].caveats == [] and .pairs[0].same_device'
check "compare a swap: json" 0 "$tw" compare "$tmp/uring.json" <(one ironwolf12t) --policies "$pol" --format json
jq_true "compare a swap: not the same device" '.pairs[0].same_device == false'

# ---- 3. a catalog plan's script does nothing ----
check "catalog plan: script" 0 "$tw" plan "$ex" --no-inventory --format script --policies "$pol"
cp "$tmp/out" "$tmp/cat.sh"
bash -n "$tmp/cat.sh" || bad "catalog script: bash -n"
noline "catalog script: no udev rules" '^write_file |^run udevadm'
noline "catalog script: no fstrim" '^run systemctl'
noline "catalog script: no mkfs" '^(make_fs|mount_new|fstab_new|fstab_append|check_device) '
line "catalog script: says so" '^# ---- nothing to do'
for a in "" --apply; do
	check "catalog script ${a:-dry run}" 0 bash "$tmp/cat.sh" $a
	cat "$tmp/err" >>"$tmp/out"
	line "catalog script ${a:-dry run}: nothing to do" '^nothing to do: no device of this plan'
	line "catalog script ${a:-dry run}: skips" '^skip: .* \(catalog entry\)$'
	noline "catalog script ${a:-dry run}: runs nothing" '^(running|would run):'
	# what the plan would do on the real devices, not only "skip"
	line "catalog script ${a:-dry run}: the hot tier's steps" \
		'^  on the real devices, --apply would: mkfs.ext4 on the device of optane905p; mkdir -p /srv/vector-db; add its /etc/fstab line'
	line "catalog script ${a:-dry run}: the warm tier's volume" \
		'^  on the real devices, --apply would: create a linear LVM volume tw-models/models over pm9a1-1t 980pro-2t 980-1t; mkfs.xfs on /dev/tw-models/models;'
done

# ---- 4/5. the probe table: µs, a legend for STEADY, QD in the sweep, the
# engine noted once with no worker count that reads as --threads ----
mkdir "$tmp/scr"
probe=(probe "$tmp/scr" --size 64Mi --engine psync --threads 1 --seconds 0.2 --ramp 0
	--tests seq_read,rand_read_qd1,qd_sweep)
check "probe: psync, --threads 1" 0 "$tw" "${probe[@]}" --quiet -o "$tmp/p.json"
line "probe: µs in the header" '^  TEST +IOPS +MB/s +p50 µs +p99 µs +SEC STEADY$'
noline "probe: no 'us'" ' us\b'
line "probe: STEADY explained" '^  \(SEC: seconds measured; STEADY: whether'
line "probe: sweep rows name QD" '^  qd_sweep QD=128 '
line "probe: latency target in µs" '^  latency target p99 ≤ 1000 µs: '
[ "$(grep -c 'note: engine:' "$tmp/out")" = 1 ] ||
	{ bad "probe: the engine noted $(grep -c 'note: engine:' "$tmp/out") times"; cat "$tmp/out"; }
noline "probe: no psync thread count" 'psync \([0-9]+ threads\)'
# columns: p50 ends in the same column in the header and the rows
# (bytes = columns once µ is u; the end of field n found by scanning)
sed 's/µ/u/g' "$tmp/out" | awk '
	function fend(n,  i, pos, rest) {
		pos = 0; rest = $0
		for (i = 1; i <= n; i++) {
			match(rest, /[^ ]+/); pos += RSTART + RLENGTH - 1
			rest = substr(rest, RSTART + RLENGTH)
		}
		return pos
	}
	/^  TEST / { print fend(5) } /^  (seq_read|rand_read_qd1) / { print fend(4) }' |
	sort -u >"$tmp/cols"
[ "$(wc -l <"$tmp/cols")" = 1 ] || { bad "probe: p50 column out of line:"; cat "$tmp/out"; }
jq -e '.devices[0].probe.engine == "psync" and .devices[0].probe.test_seconds == 0.2' "$tmp/p.json" \
	>/dev/null || bad "probe: engine and test_seconds not in the profile"
if command -v script >/dev/null; then	# progress only on a terminal
	TW="$tw" script -qec "\"\$TW\" ${probe[*]}" /dev/null >"$tmp/out" 2>&1
	tr '\r' '\n' <"$tmp/out" >"$tmp/prog"; mv "$tmp/prog" "$tmp/out"
	line "progress: the sweep's depth" 'qd_sweep QD=8 '
fi

# ---- 4. units: binary list, decimal plan, each said; minutes under an hour; °C ----
check "list: units" 0 "$tw" --sysroot "$src/tests/fixtures/server" list
line "list: the SIZE legend" '^\(SIZE in binary units, as lsblk: G = GiB = 2\^30 bytes'
line "list: °C" '^nvme0n1 .* 30°C '
noline "list: no bare C" ' [0-9]+C '
check "plan: units" 0 "$tw" plan "$ex" --no-inventory --policies "$pol"
line "plan: the decimal legend" '^\(sizes in decimal units: GB = 10\^9, TB = 10\^12 bytes\)$'
line "plan: a 500 GB checkpoint in minutes" '^  a 500 GB checkpoint \(write \+ fsync\): 4.4 min \(1,902 MB/s\), restore 2.6 min'
line "plan: a 10 TB backup still in hours" '^  a 10 TB backup: 19 h \(144 MB/s\) on tw-archive '
noline "plan: no hour fraction" ' 0\.[0-9]+ h '
check "plan --format md: units" 0 "$tw" plan "$ex" --no-inventory --policies "$pol" --format md
line "plan md: the decimal legend" 'Sizes in decimal units: GB = 10\^9, TB = 10\^12 bytes'
check "score: minutes" 0 "$tw" score "$ex" --policy checkpoints --policies "$pol"
line "score: a checkpoint in minutes" '^ +1  pm9a1-1t +[0-9.]+ +[0-9.]+  1.7 min '

# ---- 5. an empty profile: nothing to plan; --prices names that price nothing ----
jq '.devices = []' "$ex" >"$tmp/empty.json"
check "plan: an empty profile" 1 "$tw" plan "$tmp/empty.json" --no-inventory --policies "$pol"
expect "plan: an empty profile, named" "$tmp/err" "tierwise plan: $tmp/empty.json: no device in the profile: nothing to plan"
[ -s "$tmp/out" ] && { bad "plan: an empty profile printed a plan:"; cat "$tmp/out"; }
jq '.devices |= .[0:3]' "$ex" >"$tmp/three.json"
printf 'pm9a1-1t = 90\nSamsung PM9A1 512GB = 80\n# a comment\noptan = 300\n' >"$tmp/prices"
check "score --prices: an unknown name" 0 "$tw" score "$tmp/three.json" --prices "$tmp/prices" \
	--policies "$pol" --policy archive --format json
expect "prices: the unknown name, its line" "$tmp/err" \
	"$tmp/prices:4: --prices: \"optan\" is neither a device id nor a model of the profiles"
expect "prices: the known ids" "$tmp/err" 'ids: "pm9a1-1t", "pm9a1-512-a", "pm9a1-512-b"'
expect "prices: the known models" "$tmp/err" 'models: "Samsung PM9A1 1TB", "Samsung PM9A1 512GB"'
[ "$(grep -c 'warning' "$tmp/err")" = 1 ] || { bad "prices: known names warned about:"; cat "$tmp/err"; }
# two hosts: the price list names the ids of the files, not the qualified ones
printf 'pm9a1-1t = 90\n' >"$tmp/prices1"
check "score --prices, two hosts" 0 "$tw" score "$tmp/a.json" "$tmp/b.json" \
	--prices "$tmp/prices1" --policies "$pol" --format json
[ -s "$tmp/err" ] && { bad "prices by bare id warned:"; cat "$tmp/err"; }

# ---- 6. every output that scores says where its policies came from ----
check "score: policies named" 0 "$tw" score "$ex" --policies "$pol" --policy archive
expect "score: policies named" "$tmp/out" "Policies: $pol (--policies)"
check "explain: policies named" 0 "$tw" explain pm9a1-1t "$ex" --policies "$pol" --policy archive --format md
expect "explain: policies named" "$tmp/out" "Policies: $pol (--policies)"
check "plan md: policies named" 0 "$tw" plan "$ex" --no-inventory --policies "$pol" --format md
expect "plan md: policies named" "$tmp/out" "Policies: $pol (--policies)"
(cd "$tmp" && "$tw" score "$ex" --policy archive >"$tmp/out" 2>"$tmp/err")
grep -qE '^Policies: .*\((installed|built-in|\$TW_SRCDIR/policies)|^Policies: built-in' "$tmp/out" ||
	{ bad "score without --policies: no source named:"; tail -2 "$tmp/out"; }

# ---- 7. score: policies hot → warm → cold → boot, not by name ----
check "score: tier order" 0 "$tw" score "$ex" --policies "$pol"
order=$(grep -oE '^[a-z-]+ \((hot|warm|cold|boot)\)' "$tmp/out" | sed -E 's/.*\((.*)\)/\1/' | uniq | tr '\n' ' ')
[ "$order" = "hot warm cold boot " ] || bad "score: tiers in the order '$order'"

# ---- 8. the fstab hint on a catalog names no device that is not there ----
check "fstab: a catalog" 0 "$tw" plan "$ex" --no-inventory --policies "$pol" --format fstab
grep -q 'blkid -s UUID -o value optane905p' "$tmp/out" &&
	{ bad "fstab: blkid on a catalog id:"; grep blkid "$tmp/out"; }
expect "fstab: a catalog, said so" "$tmp/out" "# new ext4 on optane905p: a catalog entry, not a device of this machine"

[ "$fail" -eq 0 ] && echo "wording: all checks passed"
exit "$fail"
