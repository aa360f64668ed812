# Shared helpers of the CLI tests (sourced).  The caller sets $tmp (a scratch
# directory it removes) and fail=0, or calls cli_test_start; helpers set
# fail=1 and print FAIL lines.

# cli_test_start TW — the start the tests of the published example share:
# tw=TW (the binary), src=$TW_SRCDIR, ex (the published example), pol (its
# policies), a scratch directory $tmp removed on exit, fail=0.  Without jq
# the test is skipped (exit 77).
cli_test_start() {
	tw=$1
	src=${TW_SRCDIR:?}
	ex=$src/examples/ai-server-18-devices.json
	pol=$src/policies
	command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	fail=0
}

# bad DESCRIPTION... — a check written out in the test failed: say so.
bad() { echo "FAIL: $*"; fail=1; }

# check DESCRIPTION EXPECTED_EXIT COMMAND... — run, keep stdout/stderr in $tmp.
check() {
	local what=$1 want=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL: $what: exit $rc, wanted $want"; cat "$tmp/err"; fail=1
	fi
}

# expect DESCRIPTION FILE STRING — FILE must contain the fixed STRING.
expect() {
	if ! grep -qF -- "$3" "$2"; then
		echo "FAIL: $1: $(basename "$2") lacks '$3':"; cat "$2"; fail=1
	fi
}

# line DESCRIPTION REGEX — some line of $tmp/out matches the extended REGEX.
line() {
	if ! grep -qE -- "$2" "$tmp/out"; then
		echo "FAIL: $1: no line matches '$2':"; cat "$tmp/out"; fail=1
	fi
}

# noline DESCRIPTION REGEX — no line of $tmp/out matches.
noline() {
	if grep -qE -- "$2" "$tmp/out"; then
		echo "FAIL: $1: a line matches '$2':"; grep -E -- "$2" "$tmp/out"; fail=1
	fi
}

# jq_true DESCRIPTION FILTER [CONTEXT] — jq FILTER on $tmp/out must print
# true; on failure prints CONTEXT (a jq filter, default: the whole output).
jq_true() {
	if [ "$(jq -r "$2" "$tmp/out" 2>&1)" != true ]; then
		echo "FAIL: $1: jq '$2' is not true"
		jq -c "${3:-.}" "$tmp/out" 2>/dev/null | head -c 2000; echo
		fail=1
	fi
}

# detach_loops LOOP... — detach the loop devices and wait (up to 5 s each)
# until they are gone: udev may still hold one, and the detach is deferred.
detach_loops() {
	local l
	for l in "$@"; do losetup -d "$l" 2>/dev/null; done
	for l in "$@"; do
		for _ in $(seq 50); do
			[ -e "/sys/block/${l#/dev/}/loop/backing_file" ] || break
			sleep 0.1
		done
	done
}
