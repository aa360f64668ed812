#!/usr/bin/env bash
# Docs that cannot drift.  For every command, each long option of
# its getopt table (cli/cmd_*.c) appears in its --help, in its section of
# the man page docs/tierwise.1 (the default job's: DESCRIPTION and OPTIONS)
# and in its list of the bash completion scripts/completion/tierwise.bash;
# options kept only for old scripts (those that call cli_deprecated) appear
# in none of them.  And no removed spelling (`list --json`, `score --json`,
# `probe --json FILE`, `--json FILE`) is left in --help, the man page, the
# completion, README.md or docs/.  docs/architecture.md has a section for
# every top-level folder and names no folder or file that does not exist.
set -u
tw=$1
src=${TW_SRCDIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
man=$src/docs/tierwise.1
comp=$src/scripts/completion/tierwise.bash
bad() { echo "FAIL: $*"; fail=1; }

# The man page as plain words: \- is -, font escapes go.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(aq/'"'"'/g' "$man" >"$tmp/man"
# man_section CMD: the lines of the man page that document CMD: its
# section (the default job's: DESCRIPTION), and OPTIONS, which documents the
# output options (-o/--output, --format) and --help of every command once.
man_section() {
	if [ "$1" = default ]; then
		sed -n '/^\.SH DESCRIPTION/,/^\.SH OPTIONS/p' "$tmp/man"
	else
		sed -n "/^\.SS $1\$/,/^\.S[SH] /p" "$tmp/man"
	fi
}
# completion_words CMD: the options the completion offers after CMD.
completion_words() {
	local c=$1
	[ "$c" = default ] && c=''
	bash -c '. "$1"; _tierwise_options "$2"' _ "$comp" "$c" | tr -s ' \t\n' '\n'
}

for f in "$src"/cli/cmd_*.c; do
	c=${f##*/cmd_}; c=${c%.c}
	if [ "$c" = default ]; then
		"$tw" --quiet --help >"$tmp/help" 2>&1	# the default job's own help
	else
		"$tw" "$c" --help >"$tmp/help" 2>&1
	fi
	man_section "$c" >"$tmp/sec"
	[ -s "$tmp/sec" ] || bad "$c: no section in the man page"
	old_sec=$(cat "$tmp/sec")
	sed -n '/^\.SH OPTIONS/,/^\.SH COMMANDS/p' "$tmp/man" >>"$tmp/sec"
	completion_words "$c" >"$tmp/comp"
	old=$(grep -oE 'cli_deprecated\([^,]*, "--[a-z0-9-]+' "$f" | sed 's/.*"--//')
	for o in $(grep -oE '\{ "[a-z0-9-]+", (no|required|optional)_argument' "$f" | cut -d'"' -f2); do
		n=$((n + 1))
		if [[ " $old " == *" $o "* ]]; then
			grep -qE -- "--$o([^a-z0-9-]|\$)" "$tmp/help" && bad "$c --help still shows the old --$o"
			grep -qE -- "--$o([^a-z0-9-]|\$)" <<<"$old_sec" && bad "man page ($c) still shows the old --$o"
			grep -qx -- "--$o" "$tmp/comp" && bad "completion of $c still offers the old --$o"
			continue
		fi
		# --help is every command's (the main help says so); -o is --output
		if [ "$o" = output ]; then
			grep -qE -- '(^|[ [])(-o|--output)[ ,=]' "$tmp/help" || bad "$c --help lacks -o/--output"
		elif [ "$o" != help ]; then
			grep -qE -- "--$o([^a-z0-9-]|\$)" "$tmp/help" || bad "$c --help lacks --$o"
		fi
		grep -qE -- "--$o([^a-z0-9-]|\$)" "$tmp/sec" || bad "man page ($c) lacks --$o"
		grep -qx -- "--$o" "$tmp/comp" || bad "completion of $c lacks --$o"
	done
	# an option listed twice in --help (two lines starting with it)
	dup=$(grep -oE '^  (-[a-zA-Z], )?--[a-z0-9-]+' "$tmp/help" | sed 's/.*--/--/' | sort | uniq -d)
	[ -z "$dup" ] || bad "$c --help lists $dup twice"
done
[ "$n" -gt 60 ] || bad "only $n options found in cli/cmd_*.c (the parser of the tables broke?)"

# Removed spellings, anywhere a reader meets them: --json (now --format json,
# or -o FILE for probe and the default job) as an option anywhere.
removed='(^|[^a-z0-9_-])--json([^a-z0-9_-]|$)'
{
	for c in $("$tw" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
		"$tw" "$c" --help 2>&1 | sed "s|^|$c --help: |"
	done
	"$tw" --help | sed 's|^|--help: |'
	"$tw" --quiet --help | sed 's|^|default --help: |'
	sed 's|^|tierwise.1: |' "$tmp/man"
	sed 's|^|completion: |' "$comp"
	for d in "$src"/README.md "$src"/docs/*.md; do sed "s|^|${d#$src/}: |" "$d"; done
} >"$tmp/all"
if grep -nE -- "$removed" "$tmp/all"; then
	bad "removed spellings are still shown (above)"
fi
# docs/architecture.md covers the tree as it is: a section (`## \`DIR/\``)
# for every top-level folder (hidden ones and build trees aside), no section
# for a folder that does not exist, and every path it names in backticks
# (`probe/probe.h`, `scripts/lab/run`, `tests/fixtures/`) exists.
arch=$src/docs/architecture.md
if [ -f "$arch" ]; then
	sed -n 's/^## `\([^`]*\)\/`.*/\1/p' "$arch" | sort >"$tmp/arch_dirs"
	for d in "$src"/*/; do
		d=${d%/}; d=${d##*/}
		case $d in build | build-*) continue ;; esac	# build trees
		[ -e "$src/$d/CMakeCache.txt" ] && continue
		echo "$d"
	done | sort >"$tmp/tree_dirs"
	for d in $(comm -13 "$tmp/arch_dirs" "$tmp/tree_dirs"); do
		bad "docs/architecture.md has no section for $d/"
	done
	for d in $(comm -23 "$tmp/arch_dirs" "$tmp/tree_dirs"); do
		bad "docs/architecture.md has a section for $d/, which does not exist"
	done
	# paths: a backticked word whose first part is a folder name (no dot in
	# it but a leading one, so `tierwise.profile/1` is no path)
	for p in $(grep -oE '`\.?[a-z][a-z0-9_-]*/[A-Za-z0-9_./*-]*`' "$arch" | tr -d '`' | sort -u); do
		case $p in *'*'*) continue ;; esac	# a pattern: cmd_*.c
		[ -e "$src/$p" ] || bad "docs/architecture.md names $p, which does not exist"
	done
	[ -s "$tmp/arch_dirs" ] || bad "docs/architecture.md: no folder sections found (the parser broke?)"
else
	bad "docs/architecture.md is missing"
fi

# The hint of a plan with nothing to plan gives today's spelling.
jq '.devices = []' "$src/examples/ai-server-18-devices.json" >"$tmp/nodev.json"
"$tw" plan "$tmp/nodev.json" >/dev/null 2>"$tmp/err"
grep -qF 'tierwise probe -o FILE' "$tmp/err" || bad "plan of a profile without devices: $(cat "$tmp/err")"
[ $fail -eq 0 ] && echo "docs_drift: $n options checked, all passed"
exit $fail
