#!/usr/bin/env bash
# The Ansible collection (ansible/) against real SSH: three sshd instances
# this test starts on 127.0.0.2, .3 and .4 (port 2222, their own config, host
# key and authorized key), and a fourth inventory host on 127.0.0.5 whose
# sshd is not running.  Each host probes its own scratch directory (two short
# tests) and installs tierwise under its own prefix (the binary and a
# directory of one policy).
#  1. site.yml: every reachable host's profile is fetched (node4's probe is
#     partial, exit 4: one of its targets is missing; reported, not fatal) and its plan
#     rendered (text, json, fstab, script) next to it; the down host fails
#     alone (unreachable) while the others finish; `tierwise fleet` and
#     `tierwise export` read the result;
#  2. a second run of the install role changes nothing;
#  3. --check (with tierwise_apply=true) changes nothing: no file on the
#     controller or under the hosts' directories is created or modified;
#  4. the install role with the .deb `cpack -G DEB` makes (when no tierwise
#     package is installed; removed afterwards): installed, then unchanged.
# Needs root (sshd, root logins), ansible-core and openssh-server.
set -u
tw=$(readlink -f "$1")
src=${TW_SRCDIR:?}
port=${TW_ANSIBLE_PORT:-2222}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (sshd and root logins over SSH)"; exit 77; }
for c in ansible-playbook ansible-galaxy ssh ssh-keygen jq; do
	command -v $c >/dev/null || { echo "SKIP: $c is not installed (ansible-core, openssh-client, jq)"; exit 77; }
done
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || { echo "SKIP: sshd is not installed (openssh-server)"; exit 77; }

tmp=$(mktemp -d /var/tmp/tw-ansible.XXXXXX)	# scratch files need a disk, not tmpfs
pids=()
made_run_sshd=
[ -d /run/sshd ] || made_run_sshd=1
cleanup() {
	local p
	for p in "$tmp"/cp/*; do	# ansible's ssh masters (ControlPersist) end now
		[ -S "$p" ] && ssh -S "$p" -O exit placeholder >/dev/null 2>&1
	done
	for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null; done
	for p in ${pids[@]+"${pids[@]}"}; do wait "$p" 2>/dev/null; done
	[ -n "$made_run_sshd" ] && rmdir /run/sshd 2>/dev/null
	[ -n "${TW_KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"	# TW_KEEP=1: for a post-mortem
}
trap cleanup EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
same() { [ "$2" = "$3" ] || bad "$1: got '$2', wanted '$3'"; }

# --- three sshd instances ----------------------------------------------------
mkdir -p "$tmp/ssh" "$tmp/home" /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$tmp/ssh/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/ssh/id"
cp "$tmp/ssh/id.pub" "$tmp/ssh/authorized_keys"
for n in 2 3 4; do
	cat >"$tmp/ssh/sshd_$n.conf" <<CONF
ListenAddress 127.0.0.$n:$port
HostKey $tmp/ssh/host_key
PidFile $tmp/ssh/sshd_$n.pid
AuthorizedKeysFile $tmp/ssh/authorized_keys
UsePAM no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
Subsystem sftp /usr/lib/openssh/sftp-server
# root's own ~/.bashrc is not the managed host's: on the CI image it runs
# pyenv init, which costs ~1 s of CPU on every SSH command Ansible sends
SetEnv HOME=$tmp/home
CONF
	"$sshd" -D -e -f "$tmp/ssh/sshd_$n.conf" 2>"$tmp/ssh/sshd_$n.log" &
	pids+=($!)
done
sshopts=(-i "$tmp/ssh/id" -p "$port" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null
	 -o BatchMode=yes -o ConnectTimeout=5 -o LogLevel=ERROR)
for n in 2 3 4; do
	for _ in $(seq 50); do
		ssh "${sshopts[@]}" root@127.0.0.$n true 2>/dev/null && break
		sleep 0.2
	done
	ssh "${sshopts[@]}" root@127.0.0.$n true ||
		{ echo "FAIL: sshd on 127.0.0.$n:$port: $(tail -3 "$tmp/ssh/sshd_$n.log")"; exit 1; }
done

# --- the collection, installed from the source tree --------------------------
export ANSIBLE_HOME=$tmp/ansible-home ANSIBLE_SSH_CONTROL_PATH_DIR=$tmp/cp
export ANSIBLE_GALAXY_CACHE_DIR=$tmp/galaxy-cache
export ANSIBLE_COLLECTIONS_PATH=$tmp/collections ANSIBLE_LOCAL_TEMP=$tmp/ansible-local
export ANSIBLE_REMOTE_TMP=$tmp/ansible-remote ANSIBLE_HOST_KEY_CHECKING=False
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=False ANSIBLE_FORCE_COLOR=0
export ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_DISPLAY_SKIPPED_HOSTS=False
export ANSIBLE_TIMEOUT=10 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 ANSIBLE_PIPELINING=True

ansible-galaxy collection install -p "$tmp/collections" "$src/ansible" >"$tmp/galaxy.log" 2>&1 ||
	{ echo "FAIL: ansible-galaxy collection install: $(tail -5 "$tmp/galaxy.log")"; exit 1; }

# The install role copies the policies' directory file by file, a module run
# per file on every host in every run: a directory of one policy checks it.
mkdir -p "$tmp/policies"
cp "$src/policies/vector-db.yaml" "$tmp/policies/"

fleet=$tmp/fleet
cat >"$tmp/inventory.yml" <<INV
all:
  vars:
    ansible_user: root
    ansible_port: $port
    ansible_ssh_private_key_file: $tmp/ssh/id
    ansible_ssh_common_args: -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o ConnectTimeout=5
    tierwise_install_method: files
    tierwise_binary: $tw
    tierwise_policies_src: $tmp/policies
    tierwise_controller_bin: $tw
    tierwise_fetch_dir: $fleet
    tierwise_tests: seq_read,rand_read_qd1
    tierwise_probe_args: [--seconds, "0.3", --ramp, "0", --size, 64Mi]
  hosts:
INV
for n in 2 3 4 5; do
	h=$tmp/host$n
	mkdir -p "$h/scratch"
	extra=
	[ $n = 4 ] && extra=", $h/missing"	# node4: one target fails, the probe is partial (exit 4)
	cat >>"$tmp/inventory.yml" <<INV
    node$n:
      ansible_host: 127.0.0.$n
      tierwise_targets: [$h/scratch$extra]
      tierwise_prefix: $h/prefix
      tierwise_remote_dir: $h/var
INV
done

# play LOG ARGS... — ansible-playbook, its output into LOG; its exit code
play() {
	local log=$1; shift
	timeout 600 ansible-playbook -i "$tmp/inventory.yml" tierwise.fleet.site "$@" >"$log" 2>"$log.err"
}
# stat LOG HOST KEY — a host's count in the PLAY RECAP (ok, changed, unreachable, failed)
stat() {
	sed -n '/^PLAY RECAP/,$p' "$1" | awk -v h="$2" -v k="$3" '$1 == h {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] } }'
}

# --- 1. the whole site, one host down ---------------------------------------
play "$tmp/run1.log"
rc=$?
same "run 1: exit (a host unreachable)" $rc 4
same "run 1: node5 unreachable" "$(stat "$tmp/run1.log" node5 unreachable)" 1
for n in 2 3 4; do
	same "run 1: node$n failures" "$(stat "$tmp/run1.log" node$n failed)" 0
	same "run 1: node$n unreachable" "$(stat "$tmp/run1.log" node$n unreachable)" 0
	[ -s "$fleet/node$n.json" ] || bad "node$n: no profile fetched"
	same "node$n: the profile measured its own directory" \
		"$(jq -r '.devices[0].id' "$fleet/node$n.json" 2>/dev/null)" "scratch:$tmp/host$n/scratch"
	same "node$n: tests" "$(jq -r '.devices[0].results | keys | join(",")' "$fleet/node$n.json" 2>/dev/null)" \
		"rand_read_qd1,seq_read"
	for s in .plan.txt .plan.json .fstab .plan.sh; do
		[ -s "$fleet/node$n$s" ] || bad "node$n: no $s rendered"
	done
	same "node$n: plan schema" "$(jq -r .schema "$fleet/node$n.plan.json" 2>/dev/null)" tierwise.plan/1
	[ -x "$tmp/host$n/prefix/bin/tierwise" ] || bad "node$n: tierwise not installed"
	[ -s "$tmp/host$n/prefix/share/tierwise/policies/vector-db.yaml" ] || bad "node$n: no policies"
done
[ -e "$fleet/node5.json" ] && bad "node5 (down) has a profile"
grep -q 'tierwise probe on node4 was partial (exit 4)' "$tmp/run1.log" ||
	bad "node4: the partial probe (exit 4) is not reported"
grep -q 'was partial' <(grep -v node4 "$tmp/run1.log") && bad "a host other than node4 reported as partial"
grep -q 'plan-applied' <(ls "$tmp"/host*/var 2>/dev/null) && bad "a plan was applied without tierwise_apply"
"$tw" fleet "$fleet" --format json >"$tmp/fleet.json" || bad "tierwise fleet on the fetched profiles failed"
same "fleet: hosts with plans" "$(jq -c '[.summary.hosts, .summary.plans]' "$tmp/fleet.json")" "[3,3]"
# one machine probed three times: the same host name, so the files name them
same "fleet: host names" "$(jq -r '[.hosts[].host] | join(" ")' "$tmp/fleet.json")" "node2 node3 node4"
"$tw" export --format prometheus "$fleet" -o "$tmp/fleet.prom" || bad "tierwise export of the fleet failed"
same "export: one series per host" \
	"$(grep '^tierwise_device_info{' "$tmp/fleet.prom" | sed 's/,.*//' | sort -u | tr '\n' ' ')" \
	'tierwise_device_info{host="node2" tierwise_device_info{host="node3" tierwise_device_info{host="node4" '
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmp/fleet.prom" >"$tmp/lint" 2>&1 ||
		bad "promtool check metrics on the fleet: $(head -3 "$tmp/lint")"
fi
[ $fail = 0 ] || { echo "--- run 1:"; grep -E '^(fatal|failed)|ERROR' "$tmp/run1.log" | head -10;
	tail -5 "$tmp/run1.log.err"; }

# --- 2. the install role again: nothing changes --------------------------------
play "$tmp/run2.log" --tags install --limit node2,node3,node4
same "run 2 (install): exit" $? 0
for n in 2 3 4; do
	same "run 2: node$n changed" "$(stat "$tmp/run2.log" node$n changed)" 0
	[ "$(stat "$tmp/run2.log" node$n ok)" -gt 0 ] 2>/dev/null || bad "run 2: node$n: no task ran"
done

# --- 3. --check changes nothing (even with tierwise_apply) ------------------------
snapshot() { find "$fleet" "$tmp"/host* -type f -printf '%p %s %T@\n' | sort; }
snapshot >"$tmp/before"
play "$tmp/run3.log" --check -e tierwise_apply=true --limit node2,node3,node4
same "run 3 (--check): exit" $? 0
snapshot >"$tmp/after"
diff "$tmp/before" "$tmp/after" >"$tmp/check.diff" || bad "--check changed files: $(head -5 "$tmp/check.diff")"
ls "$tmp"/host*/var | grep -q plan || true
for n in 2 3 4; do
	[ -e "$tmp/host$n/var/plan.sh" ] && bad "node$n: --check copied the plan's script"
done

# --- 4. the install role with the Debian package (as tests/cli/package.sh:
#        only when no tierwise package is installed; removed afterwards) -------
build=$(dirname "$(dirname "$tw")")
if ! command -v cpack >/dev/null || [ ! -f "$build/CPackConfig.cmake" ]; then
	echo "note: no cpack or no CPackConfig.cmake in $build: the deb install was not tried"
elif dpkg-query -W -f='${Status}' tierwise 2>/dev/null | grep -q 'ok installed'; then
	echo "note: a tierwise package is installed already: left alone, the deb install not tried"
else
	exec 9>/tmp/tierwise-package-test.lock	# one package test at a time on this machine
	command -v flock >/dev/null && flock 9
	if ! cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/cpack" >"$tmp/cpack.log" 2>&1; then
		bad "cpack -G DEB: $(tail -3 "$tmp/cpack.log")"
	else
		deb=$(ls "$tmp/cpack"/tierwise_*.deb | head -n 1)
		debvars=(--tags install --limit node2 -e tierwise_install_method=deb
			 -e "tierwise_deb=$deb" -e "tierwise_pkg_cache=$tmp/host2/cache")
		play "$tmp/run4.log" "${debvars[@]}"
		same "run 4 (deb): exit" $? 0
		[ "$(stat "$tmp/run4.log" node2 changed)" -gt 0 ] 2>/dev/null ||
			bad "run 4 (deb): nothing changed: $(grep -A3 -E '^(fatal|failed)' "$tmp/run4.log" | head -5)"
		/usr/bin/tierwise --version >/dev/null 2>&1 || bad "run 4 (deb): /usr/bin/tierwise does not run"
		play "$tmp/run5.log" "${debvars[@]}"
		same "run 5 (deb again): exit" $? 0
		same "run 5 (deb again): changed" "$(stat "$tmp/run5.log" node2 changed)" 0
		dpkg -r tierwise >/dev/null 2>&1 || bad "dpkg -r tierwise failed"
	fi
	exec 9>&-
fi
exit $fail
