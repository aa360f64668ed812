#!/usr/bin/env bash
# Install the Debian 12 packages tierwise needs.
#
#   scripts/deps.sh          what building and running need (scripts/run)
#   scripts/deps.sh --test   that and what the tests and benches need (scripts/test)
#   scripts/deps.sh --list [--test]   print the packages, one a line
#
# As root: installs what is missing with apt-get.  Otherwise: says what to
# install and exits 1.  The tool itself runs no other program; its runtime
# libraries come with their -dev packages.
set -euo pipefail

BUILD=(gcc libc6-dev make cmake pkg-config
       liburing-dev libnvme-dev libyaml-dev libjansson-dev libblkid-dev libmount-dev libatasmart-dev
       libjson-c-dev libssl-dev    # libnvme.pc requires json-c and openssl; libnvme-dev does not depend on them
       libglpk-dev)                # advisor/optimize.c: the plan's integer programme

TEST=(libcmocka-dev                                         # tests/unit
      util-linux e2fsprogs xfsprogs jq python3 python3-jsonschema time
      fio                                                   # bench/: side by side with fio
      groff-base man-db dpkg-dev file                       # tests/cli/package.sh: man page, .deb (dpkg-shlibdeps)
      mdadm lvm2 dmsetup fdisk procps valgrind              # tests/cli/guard.sh, hostile.sh, memcheck.sh
      clang libclang-rt-14-dev                              # the Release clang build, scripts/fuzz --smoke (libFuzzer)
      chromium                                              # tests/cli/report.sh renders the HTML report
      qemu-system-x86 busybox-static cpio kmod xz-utils     # the QEMU NVMe/SATA guest test
      ansible-core openssh-server openssh-client            # tests/cli/fleet_ansible.sh
      prometheus-node-exporter prometheus curl              # tests/cli/export.sh: node_exporter, promtool
      python3-yaml btrfs-progs)                             # scripts/lab (the server lab: btrfs on a zoned disk), tests/cli/lab*.sh

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

pkgs=("${BUILD[@]}") list=0 what="build and run"
for a in "$@"; do
	case $a in
	--test) pkgs+=("${TEST[@]}"); what="build, run and test" ;;
	--list) list=1 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "scripts/deps.sh: unknown argument '$a'" >&2; usage >&2; exit 2 ;;
	esac
done
if [ $list = 1 ]; then
	printf '%s\n' "${pkgs[@]}"
	exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "tierwise needs these Debian packages to $what: ${missing[*]}" >&2
	echo "Install them with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
	exit 1
fi
echo "Installing (to $what): ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
