#!/usr/bin/env python3
"""Compression benchmark: bits/move of every method (and of the model fitted to the file),
time per ply and archive size against xz -9 and zstd -19, for each file x depth x mode.

usage: scripts/bench_codec.py [--ucizip build/ucizip] [--depths 1,4,8] [--modes multipv,permove]
                              [--files F ...] [--max-games N] [--workers N] [--json OUT]

Defaults: the three files of ../shared/samples and two small corpus files. Prints a
Markdown table; --json also writes the raw rows.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
DEFAULT_FILES = [os.path.join(SHARED, "samples", f) for f in ("amateur.pgn", "master.pgn", "engine.pgn")] + [
    os.path.join(SHARED, "corpus", f) for f in ("cat1_lichess_marathon_2025.pgn", "cat2_tata_steel_2022_masters.pgn")
]


def run(cmd, **kw):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, **kw)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr.decode(errors="replace")))
    return p.stdout, time.monotonic() - t0


def external_size(tool, data):
    out, _ = run(tool, input=data)
    return len(out)


# The build tree's program finds this tree's engine profiles only through UZ_ENGINES_DIR.
os.environ.setdefault("UZ_ENGINES_DIR", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                     "engines"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ucizip", default=os.path.join(ROOT, "build", "ucizip"))
    ap.add_argument("--depths", default="1,4,8")
    ap.add_argument("--modes", default="multipv,permove")
    ap.add_argument("--files", nargs="*", default=DEFAULT_FILES)
    ap.add_argument("--max-games", type=int, default=0)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--coder", default="range")
    ap.add_argument("--no-archive", action="store_true",
                    help="skip the compress run (halves the time); time per ply then comes from stats")
    ap.add_argument("--json")
    args = ap.parse_args()

    rows = []
    common = []
    if args.max_games:
        common += ["--max-games", str(args.max_games)]
    if args.workers:
        common += ["--workers", str(args.workers)]
    tmp = tempfile.mkdtemp(prefix="ucizip-bench-")
    for path in args.files:
        name = os.path.basename(path).replace(".pgn", "")
        # The exact games benchmarked, in export format, as the reference for xz/zstd.
        pgn, _ = run([args.ucizip, "pgn", path])
        if args.max_games:
            games = pgn.split(b"\n\n[")
            pgn = b"\n\n[".join(games[: args.max_games]) + b"\n"
        raw = open(path, "rb").read() if not args.max_games else pgn
        xz = external_size(["xz", "-9", "-c"], raw)
        zstd = external_size(["zstd", "-19", "-c", "-q"], raw)
        for depth in args.depths.split(","):
            for mode in args.modes.split(","):
                settings = ["--depth", depth, "--mode", mode] + common
                out, seconds = run([args.ucizip, "stats", path, "--json", "--fit-k"] + settings)
                st = json.loads(out)
                size = 0
                if not args.no_archive:
                    archive = os.path.join(tmp, name + ".ucz")
                    _, seconds = run([args.ucizip, "compress", "-q", "-f", path, "-o", archive, "--coder",
                                      args.coder] + settings)
                    size = os.path.getsize(archive)
                row = {
                    "file": name, "depth": int(depth), "mode": mode, "games": st["games"], "plies": st["plies"],
                    "bpm": st["bits_per_move"], "top1": st["top1"], "fit": st["fit"],
                    "ms_per_ply": 1000.0 * seconds / max(1, st["plies"]),
                    "archive": size, "pgn": len(raw), "xz": xz, "zstd": zstd,
                }
                rows.append(row)
                print("%s depth %s %s: %.3f range, %.3f huffman, %d bytes (%.1f s)" % (
                    name, depth, mode, row["bpm"]["range"], row["bpm"]["huffman"], size, seconds), file=sys.stderr)

    print("| file | depth | mode | plies | fromto | index | huffman | range | fitted range | "
          "top-1 | ms/ply | .ucz bytes | xz -9 | zstd -19 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        b = r["bpm"]
        print("| %s | %d | %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f%% | %.1f | %s | %d | %d |" % (
            r["file"], r["depth"], r["mode"], r["plies"], b["fromto"], b["index"], b["huffman"], b["range"],
            r["fit"]["bits_per_move"], 100 * r["top1"], r["ms_per_ply"], r["archive"] or "-", r["xz"], r["zstd"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
