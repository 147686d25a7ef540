#!/usr/bin/python3
"""Held-out bits per coded position of weight sets: the integer costs of the coded path
(`ucizip-features --weights SET`, the codec's own arithmetic) of every held-out game of the
corpus's cat1-3 files (the split of scripts/train_player_model.py; games also in
../shared/samples left out), by category, from the score dumps in CACHE/d1.

Usage: scripts/pm_heldout_bits.py CACHE WEIGHTS.txt... [--build build]
Needs python3-numpy (Debian).
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_player_model as tpm  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cache")
    ap.add_argument("weights", nargs="+")
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    corpus = os.path.join(ROOT, "..", "shared", "corpus")
    names = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(args.cache, "d1", "cat[123]_*.done")))
    samples = np.array(sorted(tpm.sample_hashes(args.build, os.path.join(ROOT, "..", "shared", "samples"))),
                       dtype=np.uint64)
    print("| weight set | %s |" % " | ".join(tpm.CATS.values()))
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for w in args.weights:
            sums = np.zeros(3)
            counts = np.zeros(3)
            for name in names:
                out = os.path.join(tmp, name)
                subprocess.run([tpm.features_tool(args.build), os.path.join(corpus, name + ".pgn"), "--scores",
                                os.path.join(args.cache, "d1", name + ".dump"), "--out", out, "--weights", w],
                               check=True, capture_output=True)
                p = np.fromfile(out + ".pos", dtype=tpm.POS_DTYPE)
                sel = (p["hash"] % np.uint64(5) == 0) & ~np.isin(p["hash"], samples)
                c = list(tpm.CATS).index(name[:4])
                sums[c] += p["pm_bits"][sel].sum()
                counts[c] += sel.sum()
            print("| %s | %s |" % (os.path.basename(w), " | ".join("%.3f" % (s / n) for s, n in zip(sums, counts))),
                  flush=True)
    print("held-out positions: %s" % " / ".join("%d" % n for n in counts))


if __name__ == "__main__":
    main()
