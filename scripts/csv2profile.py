#!/usr/bin/env python3
"""csv2profile.py - convert a published per-device CSV into a tierwise.profile/1.

Usage: csv2profile.py [-o FILE] [--created RFC3339] [--host NAME] CSV

The CSV is the format of shared/reference/ai-server-20-devices.csv: leading
'#' lines are header comments (read and skipped), then one header row and one
row per device.  Empty fields mean "not published" and become absent keys,
never 0.  Nothing is derived or invented: only the published numbers appear.

Output is deterministic (fixed 'created', indent 2, keys in schema order) so
the committed example can be regenerated and diffed (tests/cli/csv2profile.sh).
Python 3 standard library only.
"""

import argparse
import csv
import decimal
import io
import json
import math
import re
import sys

SCHEMA = "tierwise.profile/1"
DEFAULT_CREATED = "2026-11-29T00:00:00Z"
DEFAULT_HOST = "ai-server (published)"
TOOL = {"name": "csv2profile", "version": "1"}

COLUMNS = [
    "id", "model", "media", "transport", "capacity_gb",
    "seq_read_mbps", "seq_write_mbps", "sustained_write_mbps",
    "rand_read_qd1_iops", "rand_read_qd1_p50_us", "rand_read_qd1_p99_us",
    "rand_read_qd32_iops", "mixed_70_30_iops", "idle_c", "load_c",
]

# A slot suffix the source adds to tell like devices apart ("SK hynix PC601
# 512GB (2)"): the id already does that, so the model keeps the plain name a
# price list or a fleet uses ("SK hynix PC601 512GB").
SLOT_SUFFIX = re.compile(r"\s*\(\d+\)\s*$")


def plain_model(name):
    """The model name without a trailing slot suffix such as " (1)"."""
    return SLOT_SUFFIX.sub("", name)


TRANSPORTS = ("nvme", "sata", "sas", "usb", "virtio", "md", "dm", "loop",
              "zram", "file", "mmc", "other")
MEDIA = ("nand", "3dxpoint", "hdd", "ram", "optical", "removable", "unknown")

# Method of the published figures (from the CSV's header comments).
SEQ_BS, SEQ_QD = 1048576, 32
RAND_BS = 4096
SUSTAINED_SECONDS = 120
NOTE_METHOD = "published measurements: fio direct=1 ioengine=libaio, room 13 C"
NOTES_BY_ID = {
    "mznln128": ["M.2 SATA part (526 MB/s interface ceiling)"],
}

RFC3339 = re.compile(
    r"[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]"
    r"([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?"
    r"([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])")
INT_RE = re.compile(r"[+-]?[0-9]+")


class CsvError(Exception):
    pass


def number(text, where):
    """A CSV field as int (if written as an integer) or float; None if empty."""
    text = text.strip()
    if text == "":
        return None
    if INT_RE.fullmatch(text):
        return int(text)
    try:
        value = float(text)
    except ValueError:
        raise CsvError(f"{where}: not a number: {text!r}") from None
    if not math.isfinite(value):
        raise CsvError(f"{where}: not a finite number: {text!r}")
    return value


def measurement(row, col, where):
    """A measured quantity: > 0 or absent (0 is not a measurement)."""
    value = number(row[col], f"{where}: {col}")
    if value is not None and value <= 0:
        raise CsvError(f"{where}: {col}: {row[col]!r} is not a measurement "
                       "(must be > 0; leave the field empty if unpublished)")
    return value


def celsius(row, col, where):
    value = number(row[col], f"{where}: {col}")
    if value is not None and not -50 <= value <= 200:
        raise CsvError(f"{where}: {col}: {value} outside [-50, 200]")
    return value


def capacity(row, where):
    """capacity_gb -> (capacity_bytes, note).

    The source gives "GB as the OS reports it": for SSDs that is GiB (953 for
    a 1,024,209,543,168-byte PM9A1), so x 2^30.  HDD capacities are nominal
    decimal GB, so x 10^9.
    """
    text = row["capacity_gb"].strip()
    try:
        gb = decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise CsvError(f"{where}: capacity_gb: not a number: {text!r}") from None
    if not gb.is_finite() or gb < 0:
        raise CsvError(f"{where}: capacity_gb: {text!r} must be >= 0")
    if row["media"] == "hdd":
        nbytes = int(gb * 10**9)
        note = (f"capacity: published as {text} GB nominal (decimal); "
                f"capacity_bytes = {text} x 10^9")
    else:
        nbytes = int(gb * 2**30)
        note = (f"capacity: published as {text} GB as the OS reports it, "
                f"which is GiB; capacity_bytes = {text} x 2^30 (exact byte "
                "count not published)")
    return nbytes, note


def io_test(bs, qd, **fields):
    """An I/O result, or None when nothing of it was published."""
    measured = {k: v for k, v in fields.items() if v is not None}
    if not measured:
        return None
    out = {"bs": bs, "qd": qd}
    for key in ("mbps", "iops", "read_iops", "write_iops", "lat_us"):
        if key in measured:
            out[key] = measured[key]
    return out


def lat(where, **fields):
    """A latency summary (schema key order), or None if empty."""
    out = {}
    for key in ("mean", "p50", "p90", "p99", "p999", "max"):
        if fields.get(key) is not None:
            out[key] = fields[key]
    values = list(out.values())
    if any(a > b for a, b in zip(values, values[1:])):
        raise CsvError(f"{where}: latency percentiles decrease: {out}")
    return out or None


def device(row, where):
    for col in ("id", "model", "media", "transport", "capacity_gb"):
        if row[col].strip() == "":
            raise CsvError(f"{where}: {col} is empty")
    if row["transport"] not in TRANSPORTS:
        raise CsvError(f"{where}: unknown transport {row['transport']!r}")
    if row["media"] not in MEDIA:
        raise CsvError(f"{where}: unknown media {row['media']!r}")

    def m(col):
        return measurement(row, col, where)

    nbytes, cap_note = capacity(row, where)

    results = {}
    tests = [
        ("seq_read", io_test(SEQ_BS, SEQ_QD, mbps=m("seq_read_mbps"))),
        ("seq_write", io_test(SEQ_BS, SEQ_QD, mbps=m("seq_write_mbps"))),
        ("rand_read_qd1", io_test(
            RAND_BS, 1, iops=m("rand_read_qd1_iops"),
            lat_us=lat(where, p50=m("rand_read_qd1_p50_us"),
                       p99=m("rand_read_qd1_p99_us")))),
        ("rand_read_qd32", io_test(RAND_BS, 32, iops=m("rand_read_qd32_iops"))),
        # Total IOPS only: the read/write split was not published.
        ("mixed_70_30", io_test(RAND_BS, 32, iops=m("mixed_70_30_iops"))),
    ]
    for name, result in tests:
        if result is not None:
            results[name] = result
    sustained = m("sustained_write_mbps")
    if sustained is not None:
        results["sustained_write"] = {
            "mbps": sustained,
            "initial_mbps": None,      # not published
            "cliff_after_gb": None,    # not published
            "seconds": SUSTAINED_SECONDS,
        }

    return {
        "id": row["id"],
        "path": None,
        "model": plain_model(row["model"]),
        "serial": None,
        "firmware": None,
        "transport": row["transport"],
        "media": row["media"],
        "rotational": row["media"] == "hdd",
        "capacity_bytes": nbytes,
        "price_per_tb": None,
        "probe": {"mode": "catalog", "target": "catalog", "seconds": None},
        "results": results,
        "thermal": {
            "idle_c": celsius(row, "idle_c", where),
            "load_c": celsius(row, "load_c", where),
            "warning_c": None,
            "critical_c": None,
            "throttle_events": None,
            "source": "published",
        },
        "notes": [NOTE_METHOD, cap_note] + NOTES_BY_ID.get(row["id"], []),
    }


def read_csv(text, name):
    """Split header comments from the table; returns (comments, devices)."""
    lines = text.splitlines(keepends=True)
    comments = []
    first = 0
    while first < len(lines) and (lines[first].startswith("#")
                                  or lines[first].strip() == ""):
        if lines[first].startswith("#"):
            comments.append(lines[first][1:].strip())
        first += 1
    reader = csv.DictReader(io.StringIO("".join(lines[first:])), strict=True)
    header = reader.fieldnames or []
    missing = [c for c in COLUMNS if c not in header]
    extra = [c for c in header if c not in COLUMNS]
    if missing or extra:
        raise CsvError(f"{name}: header: missing columns {missing}, "
                       f"unknown columns {extra}")
    devices = []
    seen = set()
    # Line numbers: header row is line first+1, data rows follow.
    for row in reader:
        where = f"{name}:{first + reader.line_num}"
        if None in row or any(v is None for v in row.values()):
            raise CsvError(f"{where}: wrong number of fields")
        if all(v.strip() == "" for v in row.values()):
            continue
        dev = device(row, where)
        if dev["id"] in seen:
            raise CsvError(f"{where}: duplicate id {dev['id']!r}")
        seen.add(dev["id"])
        devices.append(dev)
    return comments, devices


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Convert a published device CSV to a tierwise.profile/1.")
    ap.add_argument("csv", help="input CSV ('-' = stdin)")
    ap.add_argument("-o", "--output", metavar="FILE",
                    help="write here instead of stdout")
    ap.add_argument("--created", default=DEFAULT_CREATED,
                    help=f"RFC 3339 'created' timestamp (default {DEFAULT_CREATED})")
    ap.add_argument("--host", default=DEFAULT_HOST,
                    help=f"'host' value (default {DEFAULT_HOST!r})")
    args = ap.parse_args(argv)

    if not RFC3339.fullmatch(args.created):
        ap.error(f"--created: not an RFC 3339 date-time: {args.created!r}")
    try:
        if args.csv == "-":
            text, name = sys.stdin.read(), "<stdin>"
        else:
            with open(args.csv, encoding="utf-8", newline="") as f:
                text, name = f.read(), args.csv
        _comments, devices = read_csv(text, name)
    except OSError as e:
        print(f"csv2profile: {e}", file=sys.stderr)
        return 1
    except (CsvError, csv.Error) as e:
        print(f"csv2profile: {e}", file=sys.stderr)
        return 1

    profile = {
        "schema": SCHEMA,
        "host": args.host,
        "created": args.created,
        "tool": dict(TOOL),
        "devices": devices,
    }
    out = json.dumps(profile, indent=2, ensure_ascii=False,
                     allow_nan=False) + "\n"
    if args.output and args.output != "-":
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as f:
                f.write(out)
        except OSError as e:
            print(f"csv2profile: {e}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
