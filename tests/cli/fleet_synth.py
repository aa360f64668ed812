#!/usr/bin/env python3
"""Synthesise a fleet from one profile: N copies, each with its own host name
and serials, every figure jittered by up to ±J %, and optionally one device
of one host made P % slower on every performance figure.

    fleet_synth.py SRC OUTDIR --hosts N [--jitter PCT] [--seed S]
                   [--slow HOST_INDEX:DEVICE_ID:PCT]

Writes OUTDIR/host-NNN.json.  Used by tests/cli/fleet.sh and bench/fleet-time.
"""
import argparse
import copy
import json
import os
import random

PERF = {"mbps", "iops", "read_iops", "write_iops"}


def jitter(v, r, pct):
    return v * (1 + r.uniform(-pct, pct) / 100.0)


def scale_results(results, fn):
    for name, res in results.items():
        if not isinstance(res, dict):
            continue
        for k in list(res):
            if k in PERF and isinstance(res[k], (int, float)):
                res[k] = fn(res[k], "perf")
        lat = res.get("lat_us")
        if isinstance(lat, dict):
            for k in lat:
                if isinstance(lat[k], (int, float)):
                    lat[k] = fn(lat[k], "lat")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("outdir")
    ap.add_argument("--hosts", type=int, required=True)
    ap.add_argument("--jitter", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--slow", default=None)
    ap.add_argument("--devices", type=int, default=0,
                    help="pad each host to this many devices (copies of the first)")
    a = ap.parse_args()
    base = json.load(open(a.src))
    r = random.Random(a.seed)
    slow = None
    if a.slow:
        h, d, p = a.slow.split(":")
        slow = (int(h), d, float(p))
    os.makedirs(a.outdir, exist_ok=True)
    devs = base["devices"]
    while a.devices and len(devs) < a.devices:
        extra = copy.deepcopy(devs[len(devs) % len(base["devices"])])
        extra["id"] = "%s-x%d" % (extra["id"], len(devs))
        devs.append(extra)
    for i in range(a.hosts):
        p = copy.deepcopy(base)
        p["host"] = "host-%03d" % i
        for d in p["devices"]:
            d["serial"] = "SN%03d-%s" % (i, d["id"])
            scale_results(d.get("results", {}),
                          lambda v, kind: round(jitter(v, r, a.jitter), 2))
            if slow and slow[0] == i and slow[1] == d["id"]:
                f = 1 - slow[2] / 100.0
                scale_results(d.get("results", {}),
                              lambda v, kind: round(v * f if kind == "perf" else v / f, 2))
        with open(os.path.join(a.outdir, "host-%03d.json" % i), "w") as out:
            json.dump(p, out, indent=1)


if __name__ == "__main__":
    main()
