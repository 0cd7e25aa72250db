#!/usr/bin/env python3
"""Peak resident memory of sinew commands that touch no backend.

    footprint.py SINEW LIMIT_MB ARGS... [-- ARGS...]...

Runs `SINEW ARGS` for each group of arguments (groups separated by "--") and fails when one exits
non-zero or its peak resident set (getrusage of the finished child, as /usr/bin/time -v reports it)
is above LIMIT_MB. A command that loaded the CUDA libraries (cuBLAS alone is ~220 MB) fails.
"""
import os
import sys


def peak_mb(argv):
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.execv(argv[0], argv)
    _, status, usage = os.wait4(pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024.0  # ru_maxrss is in KiB on Linux


def main():
    sinew, limit = sys.argv[1], float(sys.argv[2])
    groups, current = [], []
    for a in sys.argv[3:]:
        if a == "--":
            groups.append(current)
            current = []
        else:
            current.append(a)
    groups.append(current)
    failed = False
    for args in groups:
        rc, mb = peak_mb([sinew] + args)
        print("sinew %s: exit %d, peak resident %.1f MB (limit %g MB)" % (" ".join(args), rc, mb, limit))
        failed = failed or rc != 0 or mb > limit
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
