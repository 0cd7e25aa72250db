#!/usr/bin/env python3
"""Runs every reference scene with two sinew programs and compares their run.csv bit for bit.

    python3 scripts/compare_runs.py BEFORE AFTER [--steps N] [--backends serial,tbb] [--scenes DIR]

BEFORE and AFTER are paths to `sinew` programs (e.g. a build of the commit before a refactor and
one of the commit after). Each scene of DIR (default scenes/) runs N steps (default 20) on each
backend with both programs; the two run.csv files must hold the same text in every column but the
wall times (names ending in "_ms"). Columns only one of them has are listed, not compared. Prints
one line per scene and backend and exits 1 when any pair differs or a run fails.
"""
import argparse
import csv
import glob
import io
import os
import subprocess
import sys
import tempfile


def run(sinew, scene, backend, steps, out):
    r = subprocess.run([sinew, "run", scene, "--backend", backend, "--steps", str(steps), "--every", "1000000000",
                        "--quiet", "--overwrite", "--out", out], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("exit %d: %s" % (r.returncode, r.stderr.strip().splitlines()[-1] if r.stderr else ""))
    with open(os.path.join(out, "run.csv"), newline="") as f:
        return list(csv.reader(io.StringIO(f.read())))


def compare(a, b):
    """Rows compared on the columns both have, wall times aside: (equal, compared, only_a, only_b)."""
    ha, hb = a[0], b[0]
    shared = [c for c in ha if c in hb and not c.endswith("_ms")]
    ia, ib = [ha.index(c) for c in shared], [hb.index(c) for c in shared]
    equal = len(a) == len(b) and all([ra[i] for i in ia] == [rb[j] for j in ib] for ra, rb in zip(a[1:], b[1:]))
    return equal, len(shared), [c for c in ha if c not in hb], [c for c in hb if c not in ha]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--backends", default="serial,tbb")
    p.add_argument("--scenes", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenes"))
    args = p.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="sinew_compare_") as tmp:
        for scene in sorted(glob.glob(os.path.join(args.scenes, "*.json"))):
            name = os.path.splitext(os.path.basename(scene))[0]
            for backend in args.backends.split(","):
                try:
                    a = run(args.before, scene, backend, args.steps, os.path.join(tmp, "a", name, backend))
                    b = run(args.after, scene, backend, args.steps, os.path.join(tmp, "b", name, backend))
                except RuntimeError as e:
                    print("%-30s %-7s FAILED to run: %s" % (name, backend, e))
                    failed += 1
                    continue
                equal, columns, only_a, only_b = compare(a, b)
                extra = ""
                if only_a or only_b:
                    extra = " (only before: %s; only after: %s)" % (",".join(only_a) or "-", ",".join(only_b) or "-")
                print("%-30s %-7s %s: %d steps, %d columns%s" % (name, backend, "same bits" if equal else "DIFFERENT",
                                                                 len(a) - 1, columns, extra))
                failed += not equal
    print("%s" % ("every run.csv the same" if failed == 0 else "%d differ or failed" % failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
