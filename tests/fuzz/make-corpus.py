#!/usr/bin/env python3
"""Rebuild the seed corpora in tests/fuzz/corpus/<target>/ from the
repository's examples, policies and fixtures (run from anywhere).

The corpora are small on purpose (< 1 MB in all): libFuzzer grows its own
corpus in the build tree; these are the starting points that every build
replays (fuzz.replay.*).  Files here are not edited by hand.
"""
import os
import shutil
import sys

SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(SRC, "tests", "fuzz", "corpus")
SEP = b"\x1e"   # fuzz_inventory.c splits its input at this byte


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(*rel):
    with open(os.path.join(SRC, *rel), "rb") as f:
        return f.read()


def profiles():
    put("profile", "ai-server-18-devices.json", read("examples", "ai-server-18-devices.json"))
    put("profile", "sweep-sustained.json", read("tests", "fixtures", "report", "sweep-sustained.json"))
    for name in ("health-hot.json", "health-worn.json"):
        put("profile", name, read("tests", "fuzz", "seeds", name))
    head = (b'{"schema": "tierwise.profile/1", "host": "h", "created": "2026-11-29T20:00:00Z",\n'
            b' "tool": {"name": "t", "version": "1"}, "devices": [\n')
    dev = (b'{"id": "a", "model": "m", "transport": "nvme", "media": "nand", "rotational": false,'
           b' "capacity_bytes": 100, "probe": {"mode": "quick", "target": "raw-readonly", "seconds": 1}')
    put("profile", "empty.json", head + b"]}")
    put("profile", "dup-id.json", head + dev + b"}, " + dev + b"}]}")
    put("profile", "bad-lat.json", head + dev + b', "results": {"rand_read_qd1": {"bs": 4096, "qd": 1,'
        b' "lat_us": {"p50": 40, "p99": 20}}}}]}')
    put("profile", "syntax.json", b'{"schema": ')


def policies():
    for f in sorted(os.listdir(os.path.join(SRC, "policies"))):
        put("policy", f, read("policies", f))
    fx = os.path.join(SRC, "tests", "fixtures", "policies")
    for root, _, files in sorted(os.walk(fx)):
        for f in sorted(files):
            if f.endswith(".yaml"):
                rel = os.path.relpath(os.path.join(root, f), fx).replace("/", "-")
                put("policy", "fixture-" + rel, read(os.path.join(root, f)))


def prices():
    put("prices", "two.prices", b"Seagate IronWolf 12TB = 18\nWD Red Pro 10TB\t20\n")
    put("prices", "comments.prices",
        b"# per decimal TB\n\noptane905p = 1250.5\nINTEL SSDPE21D960GA=1300\n  nvme0n1 = 0\n")
    put("prices", "bad.prices", b"no separator\nx = -1\n= 5\ny = 1e999\n")


def fixture(*rel):
    return read("tests", "fixtures", "server", "sys", "devices", *rel).replace(SEP, b" ")


def inventory():
    nv = ("pci0000:00", "0000:00:01.1", "0000:01:00.0", "nvme", "nvme0")
    sc = ("pci0000:00", "0000:00:17.0", "ata1", "host0", "target0:0:0", "0:0:0:0")
    mountinfo = read("tests", "fixtures", "server", "proc", "self", "mountinfo")
    swaps = read("tests", "fixtures", "server", "proc", "swaps")
    # In the order of attrs[] in fuzz_inventory.c.
    server = [
        fixture(*nv, "nvme0n1", "size"), fixture(*nv, "nvme0n1", "queue", "rotational"),
        fixture(*nv, "nvme0n1", "queue", "logical_block_size"),
        fixture(*nv, "nvme0n1", "queue", "physical_block_size"),
        fixture(*nv, "nvme0n1", "removable"), fixture(*nv, "nvme0n1", "ro"),
        fixture(*nv, "nvme0n1", "dev"), fixture(*nv, "model"), fixture(*nv, "serial"),
        fixture(*nv, "firmware_rev"), fixture(*nv, "hwmon0", "temp1_input"),
        fixture(*sc, "block", "sda", "size"), fixture(*sc, "block", "sda", "queue", "rotational"),
        fixture(*sc, "block", "sda", "dev"), fixture(*sc, "model"), fixture(*sc, "rev"),
        fixture(*sc, "vpd_pg80"), fixture(*sc, "vpd_pg89"),
        fixture(*sc, "hwmon", "hwmon4", "temp1_input"),
        b"1\n", b"2097152\n", b"8:1\n",
        b"1953021952\n", b"raid0\n", b"9:0\n",
        mountinfo.replace(SEP, b" ") + b"30 1 9:0 / / rw - xfs /dev/md0 rw\n",
        swaps.replace(SEP, b" "),
    ]
    put("inventory", "server", SEP.join(server))
    put("inventory", "bare", SEP.join([b"0\n", b"1\n", b"4096\n"]))
    put("inventory", "empty", b"")
    odd = list(server)
    odd[0] = b"18446744073709551615\n"       # sectors * 512 overflows
    odd[2] = b"-1\n"
    odd[16] = b"\x00\x80\xff\xff" + b" " * 8   # length past the page
    odd[25] = b"1 2 3:4 / /a\\040b rw - ext4 /dev/sda1 rw\nbad line\n"
    put("inventory", "odd", SEP.join(odd))


def nvme():
    n = os.path.join("tests", "fixtures", "nvme")
    for kind in ("hot", "worn"):
        put("nvme", kind, read(n, kind + "-id-ctrl.bin") + read(n, kind + "-smart.bin"))
    put("nvme", "short", read(n, "hot-smart.bin"))
    put("nvme", "tiny", b"\x00" * 16)


def fio():
    for name in ("plus.json", "old-2x.json", "noisy.json", "two.json"):
        put("fio", name, read("tests", "fixtures", "fio", name))
    put("fio", "tiny.json", b'{"fio version": "fio-3.33", "jobs": [{"jobname": "j",'
        b' "job options": {"rw": "randread", "filename": "/dev/sda"},'
        b' "read": {"iops": 10, "runtime": 1000, "bw_bytes": 40960,'
        b' "clat_ns": {"max": 10, "mean": 5, "bins": {"5": 9, "10": 1}}}}]}')


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    profiles()
    policies()
    prices()
    inventory()
    nvme()
    fio()
    total = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(OUT) for f in fs)
    print(f"{OUT}: {total} bytes")
    return 0 if total < 1 << 20 else 1


if __name__ == "__main__":
    sys.exit(main())
