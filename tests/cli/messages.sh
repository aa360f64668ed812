#!/usr/bin/env bash
# The messages a newcomer meets, each one said right.
#  - a short option a command lacks is unknown ("validate -q", "validate -o"),
#    one that needs a value says so ("plan -o" at the end);
#  - an unknown command gets the nearest one ("plna": "plan");
#  - --need of an unknown policy names the nearest; --need boot is refused:
#    no plan places it;
#  - --budget takes 1,000 and $1000 (the same plan as 1000) and says what
#    it takes otherwise, with examples;
#  - a --prices error points to the help of the command that took it;
#  - a profile with no device is exit 1 for score and plan alike;
#  - validate and report say what they checked or wrote, one line.
set -u
tw=$1
src=${TW_SRCDIR:?}
ex=$src/examples/ai-server-18-devices.json
pol=$src/policies
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "$src/tests/cli/lib.sh"
# says DESCRIPTION WANT_RC FIRST_LINE COMMAND...: exit WANT_RC, and stderr's
# first line is exactly FIRST_LINE.
says() {
	local what=$1 rc=$2 want=$3; shift 3
	check "$what" "$rc" "$@"
	if [ "$(head -1 "$tmp/err")" != "$want" ]; then
		echo "FAIL: $what: said '$(head -1 "$tmp/err")', wanted '$want'"; fail=1
	fi
}

# --- options and commands ---
says "validate -q" 2 "tierwise validate: unknown option '-q'" "$tw" validate -q "$ex"
says "validate -o" 2 "tierwise validate: unknown option '-o'" "$tw" validate -o x "$ex"
says "plan -o at the end" 2 "tierwise plan: option '-o' needs a value" "$tw" plan "$ex" -o
says "probe -q takes no value: -x unknown" 2 "tierwise probe: unknown option '-x'" "$tw" probe -x
says "plna" 2 "tierwise: unknown command 'plna'; did you mean 'plan'?" "$tw" plna
says "help scroe" 2 "tierwise: help: unknown command 'scroe'; did you mean 'score'?" "$tw" help scroe
says "no near command" 2 "tierwise: unknown command 'xyzzyq'" "$tw" xyzzyq

# --- plan --need ---
says "--need vectordb" 1 'tierwise plan --need: no policy "vectordb" (did you mean "vector-db"?); the policies are: archive, boot, checkpoints, logs-metadata, model-loading, training-data, vector-db' \
	"$tw" plan --policies "$pol" --no-inventory "$ex" --need vectordb=500G
says "--need boot" 1 'tierwise plan: --need boot: the boot policy (tier boot) is ranked by `tierwise score` but placed by no plan (the OS disk stays where it is); a need goes to a hot, warm or cold policy' \
	"$tw" plan --policies "$pol" --no-inventory "$ex" --need boot=100G
[ -s "$tmp/out" ] && { echo "FAIL: --need boot: a plan was printed anyway"; fail=1; }

# --- plan --budget ---
printf '%s\n' 'Samsung PM9A1 1TB = 90' 'Samsung 980 PRO 2TB = 85' 'Seagate IronWolf 12TB = 20' \
	'WD Red Pro 10TB = 22' >"$tmp/prices"
buy() { "$tw" plan --policies "$pol" --no-inventory "$ex" --prices "$tmp/prices" --buy --max-each 4 \
	--format json --budget "$@"; }
check "--budget 1000" 0 buy 1000
jq -S 'del(.. | .seconds?)' "$tmp/out" >"$tmp/plain.json"
for b in 1,000 '$1000' '$1,000' '1000.00'; do
	check "--budget $b" 0 buy "$b"
	jq -S 'del(.. | .seconds?)' "$tmp/out" >"$tmp/b.json"
	cmp -s "$tmp/plain.json" "$tmp/b.json" || { echo "FAIL: --budget $b is not the plan of 1000"; fail=1; }
	jq_true "--budget $b: within 1000" '.cost_total <= 1000'
done
for b in 1k 10,00 1,0000 ,100 '$' -5; do
	says "--budget $b" 2 "tierwise plan: --budget $b: an amount of money in the prices' currency, e.g. 5000, 5,000 or \$5000" buy "$b"
done

# --- --prices: the help of the command that took it ---
says "plan --prices missing" 1 "tierwise: --prices $tmp/none: cannot read: No such file or directory (give a file of MODEL = PRICE lines, see \`tierwise plan --help\`)" \
	"$tw" plan --policies "$pol" --no-inventory "$ex" --prices "$tmp/none"
says "score --prices missing" 1 "tierwise: --prices $tmp/none: cannot read: No such file or directory (give a file of MODEL = PRICE lines, see \`tierwise score --help\`)" \
	"$tw" score --policies "$pol" "$ex" --prices "$tmp/none"

# --- a profile with no device: exit 1 for score and plan ---
jq '.devices = []' "$ex" >"$tmp/nodev.json"
says "score, no device" 1 "tierwise score: $tmp/nodev.json: no device in the profile: nothing to rank (probe some first: \`tierwise probe -o FILE\`)" \
	"$tw" score --policies "$pol" "$tmp/nodev.json"
says "plan, no device" 1 "tierwise plan: $tmp/nodev.json: no device in the profile: nothing to plan (probe some first: \`tierwise probe -o FILE\`)" \
	"$tw" plan --policies "$pol" --no-inventory "$tmp/nodev.json"

# --- validate and report say what they checked or wrote ---
check "validate" 0 "$tw" validate "$ex" "$pol/boot.yaml"
printf '%s\n' "$ex: valid: a tierwise.profile/1 of 18 devices" "$pol/boot.yaml: valid: the policy boot (tier boot)" >"$tmp/want"
diff -u "$tmp/want" "$tmp/out" || { echo "FAIL: validate's lines"; fail=1; }
[ -s "$tmp/err" ] && { echo "FAIL: validate of valid files wrote to stderr"; cat "$tmp/err"; fail=1; }
check "report" 0 "$tw" report --policies "$pol" "$ex" -o "$tmp/r.html"
[ "$(cat "$tmp/err")" = "tierwise report: wrote $tmp/r.html: 18 devices of 1 profile, with the plan" ] ||
	{ echo "FAIL: report's line: $(cat "$tmp/err")"; fail=1; }
check "report -o -" 0 "$tw" report --policies "$pol" --no-plan "$ex" -o -
[ -s "$tmp/err" ] && { echo "FAIL: report -o - said: $(cat "$tmp/err")"; fail=1; }
[ $fail -eq 0 ] && echo "messages: all passed"
exit $fail
