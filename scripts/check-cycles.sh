#!/usr/bin/env bash
# check-cycles.sh — objects of a build that call each other.
#
# Usage: scripts/check-cycles.sh BUILD_DIR
#
# Reads every static library (*.a) under BUILD_DIR with nm: the global
# symbols each object defines and the ones it leaves undefined; and the
# objects of each executable (CMakeFiles/NAME.dir/ of a target with no
# libNAME.a), whose symbols count only within that executable.  Object A
# calls object B when A leaves undefined a symbol B defines.  Prints each
# pair of objects that call each other ("lib:a.c.o <-> lib:b.c.o"), then
# each longer loop, one group of objects a line ("loop: x y z": every object
# of the group reaches every other through calls).  Exits 0 when there is
# none, 1 when there is some, 2 on a usage error or when no library is found.
set -euo pipefail

if [[ $# -ne 1 || ! -d $1 ]]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi

mapfile -t libs < <(find "$1" -name '*.a' -type f | sort)
if [[ ${#libs[@]} -eq 0 ]]; then
	echo "$0: no static library under $1" >&2
	exit 2
fi

# One line per symbol: "D lib:obj sym" (defined, global) or "U lib:obj sym";
# an executable's: "XD exe:obj sym exe", "XU exe:obj sym exe".
syms() {
	local lib name dir
	local -a objs
	declare -A is_lib=()
	for lib in "${libs[@]}"; do
		name=$(basename "$lib" .a)
		name=${name#lib}
		is_lib[$name]=1
		nm -A --defined-only --extern-only "$lib" 2>/dev/null |
			awk -v L="$name" '{ n = split($1, p, ":"); print "D", L ":" p[n - 1], $NF }'
		nm -A --undefined-only "$lib" 2>/dev/null |
			awk -v L="$name" '{ n = split($1, p, ":"); print "U", L ":" p[n - 1], $NF }'
	done
	while IFS= read -r dir; do
		name=$(basename "$dir" .dir)
		[[ -n ${is_lib[$name]:-} ]] && continue
		mapfile -t objs < <(find "$dir" -name '*.o' -type f | sort)
		[[ ${#objs[@]} -eq 0 ]] && continue
		# "PATH: VALUE TYPE SYM" (-A; undefined: no VALUE)
		nm -A --defined-only --extern-only "${objs[@]}" 2>/dev/null |
			awk -v D="$dir/" -v X="$name" '{ o = $1; sub(/:[^:/]*$/, "", o); sub(D, "", o)
				print "XD", X ":" o, $NF, X }'
		nm -A --undefined-only "${objs[@]}" 2>/dev/null |
			awk -v D="$dir/" -v X="$name" '{ o = $1; sub(/:[^:/]*$/, "", o); sub(D, "", o)
				print "XU", X ":" o, $NF, X }'
	done < <(find "$1" -type d -path '*/CMakeFiles/*.dir' | sort)
}

syms "$1" | awk '
	$1 == "D" { def[$3] = $2; next }
	$1 == "XD" { def[$4 SUBSEP $3] = $2; next }
	$1 == "U" { und[++nu] = $2 " " $3; next }
	{ und[++nu] = $2 " " $4 SUBSEP $3 }
	END {
		for (i = 1; i <= nu; i++) {
			split(und[i], f, " ")
			if (!(f[2] in def) || def[f[2]] == f[1])
				continue
			e = f[1] SUBSEP def[f[2]]
			if (!(e in edge)) {
				edge[e] = 1
				out[f[1]] = out[f[1]] " " def[f[2]]
				node[f[1]] = 1; node[def[f[2]]] = 1
			}
		}
		# pairs that call each other
		bad = 0
		for (e in edge) {
			split(e, ab, SUBSEP)
			if (ab[1] < ab[2] && ((ab[2] SUBSEP ab[1]) in edge)) {
				print ab[1] " <-> " ab[2]
				bad = 1
			}
		}
		# longer loops: reachability per node, then groups of mutual reach
		for (a in node) {
			delete seen
			ns = 0
			stack[++ns] = a
			while (ns > 0) {
				x = stack[ns--]
				m = split(out[x], nb, " ")
				for (k = 1; k <= m; k++)
					if (!(nb[k] in seen)) {
						seen[nb[k]] = 1
						stack[++ns] = nb[k]
					}
			}
			for (b in seen)
				reach[a SUBSEP b] = 1
		}
		for (a in node) {
			if (a in grouped)
				continue
			grp = a; size = 1
			for (b in node)
				if (b != a && ((a SUBSEP b) in reach) && ((b SUBSEP a) in reach)) {
					grp = grp " " b
					grouped[b] = 1
					size++
				}
			grouped[a] = 1
			if (size > 2) {
				print "loop: " grp
				bad = 1
			}
		}
		exit bad
	}'
