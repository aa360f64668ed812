#!/usr/bin/env bash
# Missing files and directories: every error names the path it tried, the
# option that named it, and what would fix it; the exit code is the
# documented one; nothing is measured or written first.  Run from an empty
# directory, as a user in another directory would.
set -u
tw=$1
src=${TW_SRCDIR:?}
ex=$src/examples/ai-server-20-devices.json
pol=$src/policies
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"
bad() { echo "FAIL: $*"; fail=1; }
mkdir "$tmp/empty"
cd "$tmp/empty" || exit 1
no=$tmp/nope

check "--policies missing" 1 "$tw" plan "$ex" --no-inventory --policies "$no"
expect "--policies missing" "$tmp/err" \
	"$no: cannot read the policy directory: No such file or directory (--policies DIR names a directory of policy .yaml files)"
check "--policies a file" 1 "$tw" score "$ex" --policies "$ex"
expect "--policies a file" "$tmp/err" "$ex: cannot read the policy directory: Not a directory (--policies DIR"

check "profile missing" 1 "$tw" score "$no.json" --policies "$pol"
expect "profile missing" "$tmp/err" \
	"$no.json: cannot read: No such file or directory (a PROFILE argument: a tierwise.profile/1 file"
check "report: profile missing" 1 "$tw" report "$no.json" --no-plan -o "$tmp/r.html"
expect "report: profile missing" "$tmp/err" "$no.json: cannot read: No such file or directory (a PROFILE argument"

check "--prices missing" 1 "$tw" score "$ex" --policies "$pol" --prices "$no.txt"
expect "--prices missing" "$tmp/err" \
	"tierwise: --prices $no.txt: cannot read: No such file or directory (give a file of MODEL = PRICE lines"

check "--inventory missing" 1 "$tw" plan "$ex" --policies "$pol" --inventory "$no.json"
expect "--inventory missing" "$tmp/err" \
	"tierwise plan: --inventory $no.json: cannot read: No such file or directory (write it with \`tierwise list --json > FILE\`, or plan with --no-inventory)"
check "--inventory a directory" 1 "$tw" plan "$ex" --policies "$pol" --inventory "$tmp"
expect "--inventory a directory" "$tmp/err" "tierwise plan: --inventory $tmp: cannot read: Is a directory"

check "--plan missing" 1 "$tw" report "$ex" --policies "$pol" --plan "$no.json" -o "$tmp/r.html"
expect "--plan missing" "$tmp/err" \
	"tierwise report: --plan $no.json: cannot read: No such file or directory (write it with \`tierwise plan PROFILE... --format json > PLAN.json\`, or give --no-plan)"
[ -e "$tmp/r.html" ] && bad "--plan missing: a report was written"

check "-o in a missing directory" 3 "$tw" report "$ex" --policies "$pol" -o "$no/r.html"
expect "-o in a missing directory" "$tmp/err" \
	"tierwise report: -o $no/r.html: cannot create: No such file or directory (the directory $no does not exist: create it, or give -o another path)"
check "-o under a file" 3 "$tw" report "$ex" --policies "$pol" -o "$ex/r.html"
expect "-o under a file" "$tmp/err" "tierwise report: -o $ex/r.html: cannot create: Not a directory"

check "list --sysroot missing" 3 "$tw" list --sysroot "$no"
expect "list --sysroot missing" "$tmp/err" \
	"tierwise list: --sysroot $no: cannot read: No such file or directory (give a directory holding a machine's sys/, proc/ and dev/"
check "global --sysroot missing" 3 "$tw" --sysroot "$no" probe
expect "global --sysroot missing" "$tmp/err" "tierwise: --sysroot $no: cannot read: No such file or directory"
check "--sysroot a file" 3 "$tw" --sysroot "$ex" list
expect "--sysroot a file" "$tmp/err" "tierwise: --sysroot $ex: cannot read: Not a directory"

check "probe target missing" 3 "$tw" probe "$no/dir" --seconds 1 --quiet
expect "probe target missing" "$tmp/err" \
	"tierwise probe: $no/dir: cannot probe: No such file or directory (a TARGET is a directory on a mounted filesystem, or a whole block device that \`tierwise list\` shows"
check "probe device unknown" 3 "$tw" --sysroot "$src/tests/fixtures/server" probe nosuchdisk --quiet
expect "probe device unknown" "$tmp/err" \
	"tierwise probe: nosuchdisk: not a whole block device in the inventory (\`tierwise list\` shows them"

# --json into a missing directory: refused before anything is measured.
mkdir "$tmp/scratch"
check "probe -o missing directory" 3 "$tw" probe "$tmp/scratch" -o "$no/p.json" --seconds 1
expect "probe -o missing directory" "$tmp/err" \
	"tierwise probe: -o $no/p.json: cannot create: No such file or directory (the directory $no does not exist: create it, or give -o another path)"
grep -q "scratch file" "$tmp/err" && bad "probe --json missing directory: it probed first: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && bad "probe --json missing directory: printed results: $(cat "$tmp/out")"

[ "$fail" -eq 0 ] && echo "paths: all checks passed"
exit "$fail"
