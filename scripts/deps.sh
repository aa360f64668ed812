#!/usr/bin/env bash
# Install the Debian packages tierwise needs to build, test and benchmark.
# As root: installs what is missing with apt-get.  Otherwise: says what to install.
set -euo pipefail

PKGS=(gcc make cmake pkg-config
      liburing-dev libnvme-dev libjson-c-dev libyaml-dev libjansson-dev
      libblkid-dev libatasmart-dev libcmocka-dev
      util-linux e2fsprogs xfsprogs jq python3 python3-jsonschema fio
      groff-base man-db dpkg-dev                           # tests/cli/package.sh: man page, .deb
      mdadm lvm2 dmsetup fdisk procps valgrind             # tests/cli/guard.sh, hostile.sh, memcheck.sh
      clang libclang-rt-14-dev                             # scripts/fuzz --smoke (libFuzzer)
      chromium                                             # tests/cli/report.sh renders the HTML report
      qemu-system-x86 busybox-static cpio kmod xz-utils    # the QEMU NVMe/SATA guest test
      python3-yaml)                                        # scripts/lab (the server lab), tests/cli/lab*.sh

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "tierwise needs these Debian packages: ${missing[*]}" >&2
	echo "Install them with: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "Installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
