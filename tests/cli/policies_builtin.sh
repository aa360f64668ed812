#!/bin/bash
# policies_builtin.sh — the default policies are built into the binary:
#   - the binary copied alone to an empty directory, run from /, plans and
#     scores end to end, and says the same as with the policy directory;
#   - a policy directory found next to it (../share/tierwise/policies)
#     overrides the built-in ones; --policies DIR wins over both.
tw=$1
fail=0
src=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
example=$src/examples/ai-server-18-devices.json
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/alone" "$tmp/inst/bin"
cp "$tw" "$tmp/alone/tierwise"
cp "$tw" "$tmp/inst/bin/tierwise"
# alone ARGS... — the lone binary from /, without TW_SRCDIR
alone() { (cd / && env -u TW_SRCDIR "$tmp/alone/tierwise" "$@"); }

for fmt in text json script; do
	(cd / && env -u TW_SRCDIR "$tmp/alone/tierwise" plan "$example" --no-inventory \
		--format "$fmt") >"$tmp/alone.$fmt" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] || { echo "FAIL: plan --format $fmt alone: exit $rc"; cat "$tmp/err"; fail=1; }
	"$tw" plan "$example" --no-inventory --format "$fmt" --policies "$src/policies" \
		>"$tmp/dir.$fmt" 2>/dev/null
	if [ "$fmt" = json ]; then	# the solver's own run time differs from run to run
		jq -e '.policies_from | startswith("built-in")' "$tmp/alone.json" >/dev/null ||
			{ echo "FAIL: plan --format json alone: policies_from is not built-in"; fail=1; }
		jq -e --arg d "$src/policies (--policies)" '.policies_from == $d' "$tmp/dir.json" >/dev/null ||
			{ echo "FAIL: plan --format json --policies: policies_from does not name it"; fail=1; }
		for f in alone dir; do
			jq 'del(.seconds, .policies_from)' "$tmp/$f.json" >"$tmp/$f.j" && mv "$tmp/$f.j" "$tmp/$f.json"
		done
	fi
	if [ "$fmt" = text ]; then	# each says where its policies came from
		expect "plan alone: the built-in policies named" "$tmp/alone.text" "Policies: built-in"
		expect "plan --policies: the directory named" "$tmp/dir.text" "Policies: $src/policies (--policies)"
		for f in alone dir; do
			grep -v '^Policies: ' "$tmp/$f.text" >"$tmp/$f.t" && mv "$tmp/$f.t" "$tmp/$f.text"
		done
	fi
	cmp -s "$tmp/alone.$fmt" "$tmp/dir.$fmt" ||
		{ echo "FAIL: plan --format $fmt: the built-in policies plan differently"; \
		  diff "$tmp/dir.$fmt" "$tmp/alone.$fmt" | head -20; fail=1; }
done
expect "plan alone" "$tmp/alone.text" "hot "
check "score alone" 0 alone score "$example" --format json
jq_true "score alone: the seven policies" '[.policies[].name] | sort == ["archive","boot","checkpoints","logs-metadata","model-loading","training-data","vector-db"]' '[.policies[].name]'
check "score alone, one policy" 0 alone score "$example" --policy vector-db

# an installed directory overrides the built-in policies
mkdir -p "$tmp/inst/share/tierwise/policies"
cp "$src"/policies/*.yaml "$tmp/inst/share/tierwise/policies/"
sed -i 's/^name: vector-db$/name: vector-db-local/' "$tmp/inst/share/tierwise/policies/vector-db.yaml"
grep -q '^name: vector-db-local$' "$tmp/inst/share/tierwise/policies/vector-db.yaml" ||
	{ echo "FAIL: the test could not rename the policy"; fail=1; }
(cd / && env -u TW_SRCDIR "$tmp/inst/bin/tierwise" score "$example" --format json) >"$tmp/out" 2>"$tmp/err" ||
	{ echo "FAIL: score with the installed directory"; cat "$tmp/err"; fail=1; }
jq_true "installed directory overrides" '[.policies[].name] | index("vector-db-local") != null and index("vector-db") == null' '[.policies[].name]'
# --policies wins over both
(cd / && env -u TW_SRCDIR "$tmp/inst/bin/tierwise" score "$example" --format json \
	--policies "$src/policies") >"$tmp/out" 2>"$tmp/err" ||
	{ echo "FAIL: score --policies"; cat "$tmp/err"; fail=1; }
jq_true "--policies wins" '[.policies[].name] | index("vector-db") != null and index("vector-db-local") == null' '[.policies[].name]'
# a broken --policies directory is still an error, not a fall-back
(cd / && env -u TW_SRCDIR "$tmp/alone/tierwise" score "$example" --policies "$tmp/none") \
	>/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || { echo "FAIL: --policies of a missing directory: exit $rc, wanted 1"; fail=1; }
expect "--policies of a missing directory" "$tmp/err" "$tmp/none"

[ "$fail" -eq 0 ] && echo "PASS"
exit "$fail"
