#!/usr/bin/python3
"""A built-in oracle on every core: wall-clock plies/s of compress and decompress at
-j 1, 2, 4, ... N on one input, the speed-up over -j1 and the CPU seconds, each archive
decoded back to the input's bytes (cmp). Meant for a many-core machine with nothing
else running; on a busy one the wall clock measures the other load.

Usage: scripts/bench_builtin_scaling.py PGN... [--engine builtin-2] [--jobs 1,2,4,8,16]
                                        [--ucizip build/ucizip]
The PGN files are joined (in the order given) into one input."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from bench_builtin_archive import timed  # (CPU seconds, wall seconds) of a command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--engine", default="builtin-2")
    ap.add_argument("--jobs", default="1,2,4,8,16")
    ap.add_argument("--ucizip", default=os.path.join(ROOT, "build", "ucizip"))
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="ucizip-scaling-")
    src = os.path.join(tmp, "input.pgn")
    with open(src, "wb") as out:
        for path in args.pgn:
            out.write(open(path, "rb").read())
    arc, back = src + ".ucz", src + ".back"
    print("| workers | compress plies/s (wall) | speed-up | CPU s | decompress plies/s (wall) | speed-up | CPU s |")
    print("|---|---|---|---|---|---|---|")
    base = None
    for jobs in args.jobs.split(","):
        c_cpu, c_wall = timed(args.ucizip, "compress", src, "-o", arc, "-f", "-q", "-j", jobs, "--engine", args.engine)
        d_cpu, d_wall = timed(args.ucizip, "decompress", arc, "-o", back, "-f", "-j", jobs)
        if open(back, "rb").read() != open(src, "rb").read():
            sys.exit("-j %s: the archive does not decode to the input" % jobs)
        info = json.loads(subprocess.run([args.ucizip, "info", arc, "--json"], capture_output=True, text=True,
                                         check=True).stdout)
        info = info[0] if isinstance(info, list) else info
        plies = sum(m["moves"] for m in info["members"])
        if base is None:
            base = (c_wall, d_wall)
            print("input: %d bytes, %d plies, %d members" % (os.path.getsize(src), plies, len(info["members"])),
                  file=sys.stderr)
        print("| %s | %.0f | %.2f | %.1f | %.0f | %.2f | %.1f |" % (
            jobs, plies / c_wall, base[0] / c_wall, c_cpu, plies / d_wall, base[1] / d_wall, d_cpu), flush=True)


if __name__ == "__main__":
    main()
