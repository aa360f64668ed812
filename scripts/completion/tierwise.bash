# bash completion for tierwise(1).  Installed as
# share/bash-completion/completions/tierwise; plain bash is enough (no
# bash-completion helpers).  Keep the option lists in step with the getopt
# tables of cli/cmd_*.c: tests/cli/package.sh checks that every option there
# is offered here.

_tierwise_commands='list probe validate score explain plan report compare fleet export import verify help'
_tierwise_tests='seq_read seq_write rand_read_qd1 rand_read_qd32 mixed_70_30 qd_sweep sustained_write read_under_write iorate app'

# The long options of command $1 (the global ones when $1 is empty).
_tierwise_options()
{
	case $1 in
	'') echo '--sysroot --help --version --output -o --format --full --quiet --destructive --yes' ;;
	list) echo '--format --output -o --sysroot --help' ;;
	probe) echo '--output -o --format --tests --full --seconds --ramp --sustained-seconds
		--latency-target --threads --engine --size --destructive --yes --quiet --textfile --jobs --no-links --qd1-side-by-side
		--help' ;;
	validate) echo '--help' ;;
	score) echo '--policy --policies --prices --format --output -o --help' ;;
	explain) echo '--policy --vs --format --output -o --policies --prices --help' ;;
	plan) echo '--policies --need --inventory --no-inventory --mount --fill --prices
		--format --output -o --include-removable --time-limit --buy --budget --max-each --margin --strict --help' ;;
	report) echo '--output -o --plan --no-plan --policies --help' ;;
	compare) echo '--policies --prices --format --output -o --help' ;;
	fleet) echo '--format --output -o --help' ;;
	export) echo '--format --output -o --textfile --no-plan --help' ;;
	import) echo '--output -o --host --capacity --help' ;;
	verify) echo '--format --tolerance --tier --seconds --output -o --help' ;;
	esac
}

# Add the words of $1 that start with $cur to COMPREPLY.
_tierwise_words()
{
	local IFS=$' \t\n'
	COMPREPLY+=($(compgen -W "$1" -- "$cur"))
}

# Add the files matching any of the globs $@ (every file when none) and
# directories.
_tierwise_files()
{
	local IFS=$'\n' g
	compopt -o filenames 2>/dev/null
	[ $# -gt 0 ] || set -- '*'
	for g in "$@"; do
		COMPREPLY+=($(compgen -f -X "!$g" -- "$cur"))
	done
	COMPREPLY+=($(compgen -d -- "$cur"))
}

_tierwise_dirs()
{
	local IFS=$'\n'
	compopt -o filenames 2>/dev/null
	COMPREPLY+=($(compgen -d -- "$cur"))
}

# Whole block devices, as names (nvme0n1) or paths (/dev/nvme0n1), and
# directories (a scratch file there).
_tierwise_targets()
{
	local d names=
	for d in /sys/block/*; do
		[ -e "$d" ] && names+=" ${d##*/}"
	done
	case $cur in
	/dev/*) _tierwise_words "$(printf '/dev/%s ' $names)" ;;
	*) _tierwise_words "$names"; _tierwise_dirs ;;
	esac
}

# --tests: a comma-separated list; complete its last item.
_tierwise_test_list()
{
	local IFS=$' \t\n' done_=${cur%"${cur##*,}"} last=${cur##*,} t
	for t in $_tierwise_tests all default; do
		[[ $t == "$last"* ]] && COMPREPLY+=("$done_$t")
	done
	compopt -o nospace 2>/dev/null
}

# Policy names from --policies DIR, ./policies, $TW_SRCDIR/policies or the
# installed ones, as tierwise itself looks for them.
_tierwise_policies()
{
	local dir= d f names= i
	for ((i = 1; i < COMP_CWORD; i++)); do
		[ "${COMP_WORDS[i]}" = --policies ] && dir=${COMP_WORDS[i + 1]}
	done
	if [ -z "$dir" ]; then
		for d in policies ${TW_SRCDIR:+"$TW_SRCDIR/policies"} /usr/share/tierwise/policies \
			/usr/local/share/tierwise/policies; do
			[ -d "$d" ] && { dir=$d; break; }
		done
	fi
	for f in "$dir"/*.yaml; do
		[ -f "$f" ] && { f=${f##*/}; names+=" ${f%.yaml}"; }
	done
	_tierwise_words "$names"
}

# Complete the value of option $1 of command $2.  Returns 1 when $1 takes none.
_tierwise_value()
{
	case $1 in
	--sysroot|--policies|--textfile) _tierwise_dirs ;;
	--prices) _tierwise_files ;;
	-o|--output)
		case $2 in
		fleet) _tierwise_files '*.html' '*.json' '*.md' '*.txt' ;;
		export|verify) _tierwise_files '*.prom' '*.json' ;;
		import) _tierwise_files '*.json' ;;
		*) _tierwise_files '*.html' ;;
		esac ;;
	--inventory|--plan) _tierwise_files '*.json' ;;
	--tests) _tierwise_test_list ;;
	--engine) _tierwise_words 'io_uring psync null' ;;
	--policy) _tierwise_policies ;;
	--mount) _tierwise_words 'hot= warm= cold='; compopt -o nospace 2>/dev/null ;;
	--format)
		case $2 in
		plan) _tierwise_words 'text json md fstab udev script' ;;
		compare|explain) _tierwise_words 'text md json' ;;
		fleet) _tierwise_words 'text json md html' ;;
		export) _tierwise_words 'prometheus' ;;
		verify) _tierwise_words 'text json prom' ;;
		*) _tierwise_words 'text md' ;;
		esac ;;
	--host|--capacity|--tolerance) ;;
	--tier) _tierwise_words 'hot warm cold' ;;
	--seconds|--ramp|--sustained-seconds|--latency-target|--threads|--size|--need|--fill|--vs|--time-limit|--budget|--max-each|--margin) ;;
	*) return 1 ;;
	esac
	return 0
}

_tierwise()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} cmd= i
	COMPREPLY=()
	# --opt=value: bash splits it at '='.
	if [ "$cur" = = ]; then
		cur=
	elif [ "$prev" = = ] && [ "$COMP_CWORD" -ge 2 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--sysroot) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	_tierwise_value "$prev" "$cmd" && return 0
	if [[ $cur == -* ]]; then
		_tierwise_words "$(_tierwise_options "$cmd")"
		return 0
	fi
	case $cmd in
	'') _tierwise_words "$_tierwise_commands" ;;
	probe) _tierwise_targets ;;
	validate) _tierwise_files '*.json' '*.yaml' '*.yml' ;;
	import)	# the format first, then fio's output files
		if [ "$COMP_CWORD" -le $((i + 1)) ]; then _tierwise_words 'fio'; else _tierwise_files '*.json'; fi ;;
	list) ;;
	*) _tierwise_files '*.json' ;;
	esac
	return 0
}
complete -F _tierwise tierwise
