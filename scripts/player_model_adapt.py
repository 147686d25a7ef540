#!/usr/bin/python3
"""Measures adaptation inside an archive block on the held-out part of the corpus, on top
of the player model's exact integer costs (the pm_bits that ucizip-features computes with
the built-in weights; rerun scripts/player_model_data.sh after a retraining).

(a) opening statistics: the moves played from the same position (Zobrist key) earlier in
    the same block (64 consecutive games of a file, as `ucizip compress` makes blocks)
    are mixed in, the escape mass spread by the model:
        p = (c_move + a * p_model) / (C + a),  C = moves seen from the position so far.
    Every game of the block feeds the counts (adaptation needs no training); costs are
    counted on the held-out games only.
(b) per-game calibration: a Bayesian mixture of the model at temperatures 1/T, each
    weighted by its likelihood of the game's moves so far (float model; shown as the
    gain over T = 1 with the same float model).

Usage: scripts/player_model_adapt.py [--cache /work/cache-model]
"""
import argparse
import glob
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pm_weights  # noqa: E402
from train_player_model import CATS, POS_DTYPE, ROOT, load, sample_hashes  # noqa: E402

BLOCK = 64


def opening_stats(pos, a, max_ply):
    """Adapted cost (bits) of every position, in file order (pos: one file's records)."""
    out = pos["pm_bits"].copy()
    counts = {}
    block = -1
    for i in range(len(pos)):
        r = pos[i]
        b = r["game"] // BLOCK
        if b != block:
            counts, block = {}, b
        if r["ply"] >= max_ply:
            continue
        k = int(r["key"])
        c = counts.get(k)
        mv = int(r["move"])
        if c:
            tot = sum(c.values())
            p = 2.0 ** -r["pm_bits"]
            out[i] = -math.log2((c.get(mv, 0) + a * p) / (tot + a))
        else:
            c = counts[k] = {}
        c[mv] = c.get(mv, 0) + 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default="/work/cache-model")
    ap.add_argument("--build", default="build")
    ap.add_argument("--samples", default=os.path.join(ROOT, "..", "shared", "samples"))
    args = ap.parse_args()
    nf = len(pm_weights.feature_names(os.path.join(ROOT, "src/model/player_model.h")))
    files = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(args.cache, "feat", "cat[123]_*.pos")))
    samples = np.array(sorted(sample_hashes(args.build, args.samples)), dtype=np.uint64)
    rows = []
    for a in (1, 2, 4, 8):
        for max_ply in (20, 40, 1000):
            tot = {c: [0.0, 0.0, 0] for c in CATS.values()}
            for name in files:
                pos = np.fromfile(os.path.join(args.cache, "feat", name + ".pos"), dtype=POS_DTYPE)
                held = ((pos["hash"] % np.uint64(5)) == 0) & ~np.isin(pos["hash"], samples)
                adapted = opening_stats(pos, a, max_ply)
                t = tot[CATS[name[:4]]]
                t[0] += pos["pm_bits"][held].sum()
                t[1] += adapted[held].sum()
                t[2] += held.sum()
            rows.append((a, max_ply, tot))
    print("(a) opening statistics, held-out bits/move: model alone -> with counts")
    print("| a | plies | amateur | master | engine |")
    print("|---|---|---|---|---|")
    for a, max_ply, tot in rows:
        print("| %d | <%d | %s |" % (a, max_ply, " | ".join("%.3f -> %.3f" % (t[0] / t[2], t[1] / t[2])
                                                          for t in tot.values())))

    # (b) per-game calibration with the float model
    pos, x, cat, fileid = load(args.cache, files, nf)
    held = ((pos["hash"] % np.uint64(5)) == 0) & ~np.isin(pos["hash"], samples)
    newest = max(glob.glob(os.path.join(ROOT, "data/player_model/weights-v*.txt")),
                 key=lambda p: pm_weights.parse(p)[0])
    w = np.array(pm_weights.parse(newest)[2], dtype=np.float64) / 65536.0 * math.log(2)
    idx = np.repeat(held, pos["n"])
    xs, n, played, game, c = x[idx], pos["n"][held], pos["played"][held], pos["game"][held], cat[held]
    fid = fileid[held]
    s = xs.astype(np.float64) @ w
    starts = np.concatenate([[0], np.cumsum(n)[:-1]])
    of = np.repeat(np.arange(len(n)), n)
    temps = (0.7, 0.85, 1.0, 1.2, 1.45)
    lp = []
    for T in temps:
        st = s * T
        m = np.maximum.reduceat(st, starts)
        z = np.add.reduceat(np.exp(st - m[of]), starts)
        lp.append(st[starts + played] - m - np.log(z))
    lp = np.array(lp)  # temps x positions, natural log of p(played)
    base = -lp[temps.index(1.0)] / math.log(2)
    mixed = np.empty_like(base)
    post = None
    prev = None
    for i in range(len(n)):
        key = (fid[i], game[i])
        if key != prev:
            post, prev = np.zeros(len(temps)), key
        wts = np.exp(post - post.max())
        wts /= wts.sum()
        mixed[i] = -math.log2((wts * np.exp(lp[:, i])).sum())
        post += lp[:, i]
    print("\n(b) per-game calibration (float model), held-out bits/move: T=1 -> mixture over T in %s" % (temps,))
    for k, cname in enumerate(CATS.values()):
        sel = c == k
        print("  %-8s %.3f -> %.3f" % (cname, base[sel].mean(), mixed[sel].mean()))


if __name__ == "__main__":
    main()
