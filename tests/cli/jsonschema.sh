#!/usr/bin/env bash
# jsonschema.sh — examples/*.json validate against docs/tierwise.profile-1.schema.json,
# and deliberately broken copies are rejected (so this test can fail).
#
# $1: the tierwise binary (unused).  TW_SRCDIR: the repository root.
# Needs python3's jsonschema module >= 4 (Debian: python3-jsonschema); exit 77 = skipped.
set -euo pipefail

srcdir=${TW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
python=${PYTHON:-python3}

if ! command -v "$python" >/dev/null 2>&1; then
	echo "SKIP: $python not found"
	exit 77
fi
if ! "$python" -c 'import jsonschema' >/dev/null 2>&1; then
	echo "SKIP: python3-jsonschema not installed"
	exit 77
fi
if ! "$python" -c 'from jsonschema import Draft202012Validator' >/dev/null 2>&1; then
	echo "SKIP: python3-jsonschema too old (no draft 2020-12 support; need >= 4.0)"
	exit 77
fi

exec "$python" - "$srcdir" <<'EOF'
import copy
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator, FormatChecker

srcdir = sys.argv[1]
schema_path = os.path.join(srcdir, "docs", "tierwise.profile-1.schema.json")
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def reject_constant(name):
    raise ValueError("not JSON: " + name)


def load(path):
    with open(path, encoding="utf-8") as f:
        # JSON has no NaN/Infinity; Python's json would accept them.
        return json.load(f, parse_constant=reject_constant)


schema = load(schema_path)
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema, format_checker=FormatChecker())

LAT_ORDER = ("p50", "p90", "p99", "p999", "max")


def extra_problems(doc):
    """The reader's rules that JSON Schema cannot express."""
    problems = []
    if not isinstance(doc, dict) or not isinstance(doc.get("devices"), list):
        return problems
    seen = set()
    for i, dev in enumerate(doc["devices"]):
        if not isinstance(dev, dict):
            continue
        dev_id = dev.get("id")
        if isinstance(dev_id, str):
            if dev_id in seen:
                problems.append(f"devices[{i}].id: duplicate id {dev_id!r}")
            seen.add(dev_id)
        results = dev.get("results") or {}
        if not isinstance(results, dict):
            continue
        lats = []
        for name in ("seq_read", "seq_write", "rand_read_qd1",
                     "rand_read_qd32", "mixed_70_30"):
            r = results.get(name)
            if isinstance(r, dict):
                lats.append((f"devices[{i}].results.{name}.lat_us", r.get("lat_us")))
        for j, pt in enumerate(results.get("qd_sweep") or []):
            if isinstance(pt, dict):
                lats.append((f"devices[{i}].results.qd_sweep[{j}].lat_us", pt.get("lat_us")))
        for where, lat in lats:
            if not isinstance(lat, dict):
                continue
            vals = [(k, lat[k]) for k in LAT_ORDER
                    if isinstance(lat.get(k), (int, float))]
            for (ka, a), (kb, b) in zip(vals, vals[1:]):
                if a > b:
                    problems.append(f"{where}: {ka} {a} > {kb} {b}")
    return problems


def problems(doc):
    out = [f"{'.'.join(str(p) for p in e.absolute_path) or '<root>'}: {e.message}"
           for e in validator.iter_errors(doc)]
    return out + extra_problems(doc)


# 1. Every committed example is valid.
examples = sorted(glob.glob(os.path.join(srcdir, "examples", "*.json")))
if not examples:
    fail("no examples/*.json found")
for path in examples + sorted(glob.glob(os.path.join(srcdir, "tests", "fixtures", "profiles", "*.json"))):
    try:
        doc = load(path)
    except ValueError as e:
        fail(f"{path}: not JSON: {e}")
        continue
    found = problems(doc)
    for p in found:
        fail(f"{path}: {p}")
    if not found:
        print(f"ok: {os.path.relpath(path, srcdir)} valid")

# 2. A document using every field (and null wherever null is allowed) is valid.
full = {
    "schema": "tierwise.profile/1", "host": "h", "created": "2026-11-29T09:30:00.25+01:00",
    "tool": {"name": "tierwise", "version": "0.1.0"},
    "devices": [
        {"id": "nvme0n1", "path": "/dev/nvme0n1", "model": "M", "serial": "S",
         "firmware": "F", "transport": "nvme", "media": "nand", "rotational": False,
         "capacity_bytes": 1024209543168, "price_per_tb": 55.5,
         "probe": {"mode": "full", "target": "raw-readonly", "seconds": 612.5},
         "results": {
             "seq_read": {"bs": 1048576, "qd": 32, "mbps": 6193.2, "iops": 5906.3,
                          "lat_us": {"mean": 5400, "p50": 5300, "p90": 5900,
                                     "p99": 7000, "p999": 9000, "max": 12000}},
             "seq_write": {"bs": 1048576, "qd": 32, "mbps": None, "iops": None, "lat_us": None},
             "rand_read_qd1": {"bs": 4096, "qd": 1, "iops": 22120, "lat_us": {"p50": 42, "p99": None}},
             "rand_read_qd32": None,
             "mixed_70_30": {"bs": 4096, "qd": 32, "iops": 562594,
                             "read_iops": 393816, "write_iops": 168778, "lat_us": {}},
             "sustained_write": {"mbps": 1500, "initial_mbps": 5000, "cliff_after_gb": 0,
                                 "seconds": 120,
                                 "series": [{"t": 0, "mbps": 0, "temp_c": None},
                                            {"t": 1.5, "mbps": 4980.5, "temp_c": 41}]},
             "qd_sweep": [{"qd": 1, "iops": 22120, "lat_us": {"p50": 42}},
                          {"qd": 64, "iops": None, "lat_us": None}]},
         "thermal": {"idle_c": -50, "load_c": 200, "warning_c": 80, "critical_c": 85,
                     "throttle_events": 0, "source": "nvme smart-log"},
         "notes": ["n"]},
        {"id": "sda", "path": None, "model": "", "serial": None, "firmware": None,
         "transport": "sata", "media": "hdd", "rotational": True, "capacity_bytes": 0,
         "price_per_tb": None, "probe": {"mode": "quick", "target": "scratch-file"},
         "results": None, "thermal": None, "notes": None},
        {"id": "x", "model": "m", "transport": "other", "media": "unknown",
         "rotational": False, "capacity_bytes": 1, "probe": {"mode": "catalog", "target": "catalog"},
         "results": {"sustained_write": None, "qd_sweep": None}, "thermal": {}},
    ],
}
found = problems(full)
for p in found:
    fail(f"full-coverage document: {p}")
if not found:
    print("ok: full-coverage document valid")

# 3. Broken copies are rejected.
base = full
if examples:
    ex = [p for p in examples if p.endswith("ai-server-18-devices.json")]
    if ex:
        base = load(ex[0])


def dev0(d):
    return d["devices"][0]


def set_path(d, keys, value):
    for k in keys[:-1]:
        d = d[k]
    d[keys[-1]] = value


def del_path(d, keys):
    for k in keys[:-1]:
        d = d[k]
    del d[keys[-1]]


R = ["devices", 0, "results"]
broken = [
    ("negative iops", lambda d: set_path(d, R + ["rand_read_qd32", "iops"], -1)),
    ("zero iops (not a measurement)", lambda d: set_path(d, R + ["rand_read_qd1", "iops"], 0)),
    ("zero mbps", lambda d: set_path(d, R + ["seq_read", "mbps"], 0)),
    ("string mbps", lambda d: set_path(d, R + ["seq_read", "mbps"], "6193")),
    ("unknown transport", lambda d: set_path(d, ["devices", 0, "transport"], "scsi")),
    ("unknown media", lambda d: set_path(d, ["devices", 0, "media"], "tape")),
    ("missing id", lambda d: del_path(d, ["devices", 0, "id"])),
    ("empty id", lambda d: set_path(d, ["devices", 0, "id"], "")),
    ("null id", lambda d: set_path(d, ["devices", 0, "id"], None)),
    ("duplicate id", lambda d: d["devices"].append(copy.deepcopy(dev0(d)))),
    ("missing probe", lambda d: del_path(d, ["devices", 0, "probe"])),
    ("unknown probe mode", lambda d: set_path(d, ["devices", 0, "probe", "mode"], "slow")),
    ("unknown key in device", lambda d: set_path(d, ["devices", 0, "colour"], "red")),
    ("unknown key at top level", lambda d: set_path(d, ["comment"], "x")),
    ("unknown key in results", lambda d: set_path(d, R + ["rand_write_qd1"], None)),
    ("unknown key in lat_us", lambda d: set_path(d, R + ["rand_read_qd1", "lat_us", "p95"], 50)),
    ("wrong schema", lambda d: set_path(d, ["schema"], "tierwise.profile/2")),
    ("missing created", lambda d: del_path(d, ["created"])),
    ("created not RFC 3339", lambda d: set_path(d, ["created"], "29/11/2026")),
    ("missing bs", lambda d: del_path(d, R + ["seq_read", "bs"])),
    ("qd 0", lambda d: set_path(d, R + ["seq_read", "qd"], 0)),
    ("fractional bs", lambda d: set_path(d, R + ["seq_read", "bs"], 4096.5)),
    ("negative capacity", lambda d: set_path(d, ["devices", 0, "capacity_bytes"], -1)),
    ("rotational as string", lambda d: set_path(d, ["devices", 0, "rotational"], "false")),
    ("thermal out of range", lambda d: set_path(d, ["devices", 0, "thermal", "load_c"], 250)),
    ("negative throttle_events", lambda d: set_path(d, ["devices", 0, "thermal", "throttle_events"], -1)),
    ("note not a string", lambda d: set_path(d, ["devices", 0, "notes"], [1])),
    ("lat percentiles decrease", lambda d: set_path(d, R + ["rand_read_qd1", "lat_us"], {"p50": 50, "p99": 40})),
    ("sustained series point without t", lambda d: set_path(d, R + ["sustained_write", "series"], [{"mbps": 1}])),
    ("qd_sweep point with qd 0", lambda d: set_path(d, R + ["qd_sweep"], [{"qd": 0, "iops": 1}])),
]
for name, mutate in broken:
    doc = copy.deepcopy(base)
    try:
        mutate(doc)
    except (KeyError, IndexError, TypeError) as e:
        fail(f"broken copy {name!r}: cannot build it ({e!r})")
        continue
    if problems(doc):
        print(f"ok: rejected: {name}")
    else:
        fail(f"broken copy accepted: {name}")

if failures:
    print(f"{failures} failure(s)")
    sys.exit(1)
print("PASS")
EOF
