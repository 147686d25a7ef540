#!/usr/bin/python3
"""Opening counts on the held-out games of ../shared/corpus: bits/move of the range coder
(exact integer frequencies, `ucizip stats`) per category with and without the counts, for
several a and N. A category's held-out games (FNV-1a 64 of the canonical PGN 0 mod 5, not
in ../shared/samples) are counted together, in blocks of 1024 games, as one archive of
them would be.

Usage: scripts/opening_counts_bench.py [--cache /work/bench/corpus.lmdb]
                                       [--alphas 1,1.5,2,3] [--plies 16,24,30,40]
"""
import argparse
import glob
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus")
CATS = {"cat1": "amateur", "cat2": "master", "cat3": "engine"}


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def held_out(path, samples):
    ucizip, feats = os.path.join(ROOT, "build", "ucizip"), os.path.join(ROOT, "build", "tools", "ucizip-features")
    hashes = [int(h, 16) for h in run(feats, path, "--hashes").split()]
    text = run(ucizip, "pgn", path)
    games = ["[Event " + g if i else g for i, g in enumerate(text.split("\n[Event "))]
    assert len(games) == len(hashes), path
    return [g.rstrip("\n") + "\n\n" for g, h in zip(games, hashes) if h % 5 == 0 and h not in samples]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default="/work/bench/corpus.lmdb")
    ap.add_argument("--alphas", default="1,1.5,2,3")
    ap.add_argument("--plies", default="16,24,30,40")
    args = ap.parse_args()
    feats = os.path.join(ROOT, "build", "tools", "ucizip-features")
    samples = set()
    for p in glob.glob(os.path.join(ROOT, "..", "shared", "samples", "*.pgn")):
        samples.update(int(h, 16) for h in run(feats, p, "--hashes").split())
    tmp = tempfile.mkdtemp(prefix="ucizip-opening-")
    files = {}
    for cat in CATS:
        games = []
        for f in sorted(glob.glob(os.path.join(CORPUS, cat + "_*.pgn"))):
            games += held_out(f, samples)
        files[cat] = os.path.join(tmp, cat + ".pgn")
        with open(files[cat], "w") as fh:
            fh.write("".join(games))
        print("%s: %d held-out games" % (CATS[cat], len(games)), flush=True)
    settings = ["off"] + ["%s,%s" % (a, n) for a in args.alphas.split(",") for n in args.plies.split(",")]
    print("| counts (a,N) | " + " | ".join(CATS.values()) + " |")
    print("|---|" + "---|" * len(CATS))
    for s in settings:
        row = []
        for cat in CATS:
            out = json.loads(run(os.path.join(ROOT, "build", "ucizip"), "stats", files[cat], "--json", "--opening", s,
                                 "--cache", args.cache, "--workers", "2"))
            row.append("%.4f" % out["bits_per_move"]["range"])
        print("| %s | %s |" % (s, " | ".join(row)), flush=True)


if __name__ == "__main__":
    main()
