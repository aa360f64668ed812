#!/usr/bin/env bash
# scripts/record-sysroot.sh records what `tierwise list` reads, so a
# recording replays as the machine itself lists.  Re-recorded with --from,
# every fixture of tests/fixtures/ (a multipath head with multipath/ and in
# Linux 6.1's layout with hidden paths in sys/block, fabrics, zoned, ...)
# must list byte for byte as the fixture does, text and JSON: serial,
# firmware, paths, ANA states, each path's link, transport, zoned model and
# zone size, temperatures.  The recorder reads only: the source tree is
# unchanged, every link of the recording resolves inside it, and hidden path
# devices get no dev/ file.
set -u
tw=$1
src=${TW_SRCDIR:?}
rec=$src/scripts/record-sysroot.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

# desktop: its empty card reader (size 0) has a dev/ file the recorder does
# not copy (nothing to read), so its signatures read as unknown there.
for fx in "$src"/tests/fixtures/*/; do
	name=$(basename "$fx")
	[ -d "$fx/sys/block" ] && [ "$name" != desktop ] || continue
	before=$(cd "$fx" && find . -printf '%p %l %s %T@\n' | sort | md5sum)
	if ! bash "$rec" --from "$fx" "$tmp/$name" >/dev/null 2>"$tmp/$name.err"; then
		echo "FAIL: record-sysroot.sh --from $name: exit $?"; cat "$tmp/$name.err"; fail=1; continue
	fi
	after=$(cd "$fx" && find . -printf '%p %l %s %T@\n' | sort | md5sum)
	[ "$before" = "$after" ] || { echo "FAIL: recording $name changed the source tree"; fail=1; }
	for fmt in text json; do
		"$tw" --sysroot "$fx" list --format "$fmt" >"$tmp/want" 2>&1
		"$tw" --sysroot "$tmp/$name" list --format "$fmt" >"$tmp/got" 2>&1
		if ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
			echo "FAIL: $name re-recorded lists differently ($fmt):"; head -40 "$tmp/diff"; fail=1
		fi
	done
	n=$((n + 1))
done
[ "$n" -ge 9 ] || { echo "FAIL: only $n fixtures re-recorded"; fail=1; }

# The multipath, fabrics and zoned shapes, by name: what the recording holds.
e=$tmp/enterprise e61=$tmp/enterprise-6.1
for f in sys/devices/virtual/nvme-subsystem/nvme-subsys0/{serial,firmware_rev,subsysnqn,iopolicy} \
	sys/devices/pci0001:5d/0001:5d:00.0/0001:5e:00.0/{current_link_width,max_link_width,numa_node} \
	sys/devices/pci0001:5d/0001:5d:00.0/0001:5e:00.0/nvme/nvme1/{transport,address,state,numa_node} \
	sys/devices/pci0001:5d/0001:5d:00.0/0001:5e:00.0/nvme/nvme1/nvme0c1n1/ana_state \
	sys/devices/pci0001:5d/0001:5d:00.0/0001:5e:00.0/nvme/nvme1/hwmon1/temp1_input; do
	[ -f "$e/$f" ] || { echo "FAIL: enterprise recording lacks $f"; fail=1; }
done
for l in sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1/multipath/nvme0c1n1 \
	sys/class/nvme/nvme1 sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme1; do
	[ -L "$e/$l" ] || { echo "FAIL: enterprise recording lacks the link $l"; fail=1; }
done
[ "$(cat "$e61/sys/block/nvme0c1n1/hidden" 2>/dev/null)" = 1 ] ||
	{ echo "FAIL: enterprise-6.1 recording: the hidden path has no hidden 1"; fail=1; }
[ ! -e "$e61/dev/nvme0c1n1" ] || { echo "FAIL: a dev/ file for a hidden path device"; fail=1; }
for f in queue/zoned queue/chunk_sectors queue/nr_zones; do
	[ -f "$tmp/zoned/sys/block/nvme1n2/$f" ] || { echo "FAIL: zoned recording lacks nvme1n2/$f"; fail=1; }
done
[ "$(cat "$tmp/fabrics/sys/class/nvme/nvme2/transport" 2>/dev/null)" = tcp ] ||
	{ echo "FAIL: fabrics recording: nvme2's transport is not tcp"; fail=1; }

# Read-only: the script opens devices with dd if= only, never writes to one.
if grep -nE 'dd[^|]* of="?\$SRC|>[[:space:]]*"?\$(SYS|SRC)|nvme (reset|disconnect)|echo [^>]*> */sys' "$rec"; then
	echo "FAIL: record-sysroot.sh writes outside DEST"; fail=1
fi

[ "$fail" -eq 0 ] && echo "record_sysroot: $n fixtures re-recorded, each lists as the original"
exit "$fail"
