#!/usr/bin/env bash
# One message per file of the wrong kind: fio output given to any command
# that reads profiles, a profile or fio output or YAML given as --prices, a
# plan or an inventory or YAML given as a profile — each one line on stderr
# that names what the file is and what was expected, exit 1; a price list
# of many bad lines shows five and counts the rest.
set -u
tw=$1
src=${TW_SRCDIR:?}
ex=$src/examples/ai-server-18-devices.json
fio=$src/tests/fixtures/fio/recipe.json
yaml=$src/policies/archive.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$(dirname "$0")/lib.sh"

# lines DESCRIPTION N — stderr has exactly N lines
lines() {
	local n
	n=$(wc -l <"$tmp/err")
	if [ "$n" -ne "$2" ]; then
		echo "FAIL: $1: $n lines on stderr, wanted $2:"; head -20 "$tmp/err"; fail=1
	fi
}

fio_line="$fio: this is fio output: run \`tierwise import fio $fio\`"
for cmd in "score" "plan --no-inventory" "validate" "report -o $tmp/r.html" \
	   "explain scratch --policy vector-db" "fleet" "export --format prometheus"; do
	# shellcheck disable=SC2086
	check "$cmd on fio output" 1 "$tw" $cmd "$fio"
	lines "$cmd on fio output" 1
	expect "$cmd on fio output" "$tmp/err" "$fio_line"
done
check "compare with fio output" 1 "$tw" compare "$ex" "$fio"
lines "compare with fio output" 1
expect "compare with fio output" "$tmp/err" "$fio_line"

# a profile as --prices: was 1,184 lines
for cmd in score "plan --no-inventory"; do
	# shellcheck disable=SC2086
	check "$cmd: profile as --prices" 1 "$tw" $cmd "$ex" --prices "$ex"
	lines "$cmd: profile as --prices" 1
	expect "$cmd: profile as --prices" "$tmp/err" \
		"$ex: this is a tierwise profile (tierwise.profile/1), not a price list: --prices wants lines of NAME = PRICE"
done
check "fio output as --prices" 1 "$tw" score "$ex" --prices "$fio"
lines "fio output as --prices" 1
expect "fio output as --prices" "$tmp/err" "$fio: this is fio output, not a price list"
check "YAML as --prices" 1 "$tw" score "$ex" --prices "$yaml"
lines "YAML as --prices" 1
expect "YAML as --prices" "$tmp/err" "$yaml: this is YAML (a policy?), not a price list"
for i in $(seq 40); do echo "line $i has no price"; done >"$tmp/prices.txt"
check "forty bad price lines" 1 "$tw" score "$ex" --prices "$tmp/prices.txt"
lines "forty bad price lines" 6
expect "the rest counted" "$tmp/err" "$tmp/prices.txt: 35 more lines are not NAME = PRICE"

# a plan, an inventory, YAML as a profile
"$tw" plan "$ex" --no-inventory --format json >"$tmp/plan.json" 2>/dev/null
check "plan as a profile" 1 "$tw" score "$tmp/plan.json"
lines "plan as a profile" 1
expect "plan as a profile" "$tmp/err" "$tmp/plan.json: this is a tierwise plan (tierwise.plan/1, what \`tierwise plan --format json\` writes), not a profile"
"$tw" --sysroot "$src/tests/fixtures/server" list --format json >"$tmp/inv.json"
check "inventory as a profile" 1 "$tw" plan "$tmp/inv.json" --no-inventory
lines "inventory as a profile" 1
expect "inventory as a profile" "$tmp/err" "$tmp/inv.json: this is an inventory (tierwise.inventory/1"
cp "$yaml" "$tmp/policy.json"
for cmd in score "plan --no-inventory"; do
	# shellcheck disable=SC2086
	check "$cmd: YAML as a profile" 1 "$tw" $cmd "$tmp/policy.json"
	lines "$cmd: YAML as a profile" 1
	expect "$cmd: YAML as a profile" "$tmp/err" "$tmp/policy.json: this is YAML (a policy?), not JSON: expected a tierwise profile"
done
exit $fail
