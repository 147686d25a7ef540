#!/usr/bin/python3
"""The builtin against Stockfish depth 1 (the default), side by side in one run: plies/s of
compress and decompress with one worker (-j1) and bits/move of the move streams, on the
held-out games (FNV-1a 64 of the canonical PGN 0 mod 5, as scripts/opening_counts_bench.py)
of one corpus file per category. Times are CPU seconds of ucizip and its engine processes
(user + sys, so other load on the machine counts less), wall seconds beside them.

Usage: scripts/bench_builtin_archive.py [--files cat1_X.pgn,cat2_Y.pgn,cat3_Z.pgn] [--max-games N]
                                        [--engines builtin,stockfish,builtin-2@2] [--ucizip A,B]
                                        [--repeat N] [--corpus DIR] [--features PROGRAM]
(ENGINE@D: that engine at depth D; without @, its default depth. --ucizip: the programs to
run each engine with, e.g. two builds, side by side; default build/ucizip. --repeat N: the
builtin's compress and decompress are timed N times each, interleaved with the other
oracles' runs, and the median is printed with the slowest and fastest run: a builtin run
lasts about a second, short enough for a busy or virtual machine to move it by a third;
the UCI engines' runs last minutes and are timed once. --corpus: where the files are,
default ../shared/corpus; --features: the ucizip-features that hashes the games, default
build/tools/ucizip-features.)
Default files: cat1 Lichess blitz/rapid, cat2 Kasparov, cat3 Sirius self-play (the issue
note's figures: --max-games 100, the first 100 held-out games of each).
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus")
UCIZIP = os.path.join(ROOT, "build", "ucizip")
FEATURES = os.path.join(ROOT, "build", "tools", "ucizip-features")
DEFAULT_FILES = "cat1_lichess_rated_blitz_rapid.pgn,cat2_kasparov_career_crlf.pgn,cat3_sirius_cutechess_selfplay.pgn"


def output(*args):
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def held_out(path, max_games, ucizip=UCIZIP, features=FEATURES):
    """The file's held-out games in canonical PGN."""
    hashes = [int(h, 16) for h in output(features, path, "--hashes").split()]
    text = output(ucizip, "pgn", path)
    games = ["[Event " + g if i else g for i, g in enumerate(text.split("\n[Event "))]
    assert len(games) == len(hashes), path
    kept = [g.rstrip("\n") + "\n\n" for g, h in zip(games, hashes) if h % 5 == 0]
    return kept[:max_games] if max_games else kept


def timed(*args):
    """(CPU seconds of the command and its children, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(args, check=True, capture_output=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", default=DEFAULT_FILES)
    ap.add_argument("--max-games", type=int, default=0)
    ap.add_argument("--engines", default="builtin,stockfish")
    ap.add_argument("--ucizip", default=UCIZIP)
    ap.add_argument("--repeat", type=int, default=1, help="times each builtin run is timed (median)")
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--features", default=FEATURES)
    args = ap.parse_args()
    programs = args.ucizip.split(",")
    tmp = tempfile.mkdtemp(prefix="ucizip-bench-builtin-")
    print("| file | games | plies | oracle | bits/move | compress plies/s (CPU; wall) | "
          "decompress plies/s (CPU; wall) |")
    print("|---|---|---|---|---|---|---|")
    for name in args.files.split(","):
        src = os.path.join(tmp, name)
        games = held_out(os.path.join(args.corpus, name), args.max_games, programs[0], args.features)
        with open(src, "w") as f:
            f.write("".join(games))
        runs = [(e, p) for e in args.engines.split(",") for p in programs]
        times = {run: ([], []) for run in runs}
        for rep in range(args.repeat):
            for engine, program in runs:
                if rep and not engine.startswith("builtin"):
                    continue
                arc, back = src + "." + engine + ".ucz", src + "." + engine + ".pgn"
                name_, _, depth = engine.partition("@")
                oracle = ["--engine", name_] + (["--depth", depth] if depth else [])
                times[engine, program][0].append(timed(program, "compress", src, "-o", arc, "-f", "-q", "-j", "1",
                                                       *oracle))
                times[engine, program][1].append(timed(program, "decompress", arc, "-o", back, "-f", "-j", "1"))
                if open(back, "rb").read() != open(src, "rb").read():
                    sys.exit("%s: the %s archive does not decode to its games" % (name, engine))
        for engine, program in runs:
            arc = src + "." + engine + ".ucz"
            info = json.loads(output(program, "info", arc, "--json"))
            info = info[0] if isinstance(info, list) else info  # (an array of archives)
            plies = sum(m["moves"] for m in info["members"])
            bits = 8.0 * sum(m["move_bytes"] for m in info["members"]) / plies
            label = engine + (" (%s)" % program if len(programs) > 1 else "")
            print("| %s | %d | %d | %s | %.3f | %s | %s |" % (
                name, len(games), plies, label, bits, rate(plies, times[engine, program][0]),
                rate(plies, times[engine, program][1])), flush=True)


def rate(plies, runs):
    """Plies/s of the median CPU time (and its run's wall time); with several runs, the
    range of the CPU figures after it."""
    cpu, wall = sorted(runs)[len(runs) // 2]
    text = "%.0f; %.0f" % (plies / cpu, plies / wall)
    if len(runs) > 1:
        text += " (%d runs: %.0f-%.0f)" % (len(runs), plies / max(runs)[0], plies / min(runs)[0])
    return text

if __name__ == "__main__":
    main()
