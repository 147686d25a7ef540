#!/usr/bin/python3
"""Does the builtin oracle's view of a position help the default player model when it is
added to Stockfish's depth-1 scores (a hybrid)? A measurement only: it writes no weights.

Inputs: two caches made by scripts/player_model_data.sh for the same corpus files
(categories 1-3), one per oracle:
  scripts/player_model_data.sh /work/cache-hybrid-sf                       (Stockfish 15.1,
      depth 1, multipv, engines/stockfish.profile: the default)
  scripts/player_model_data.sh /work/cache-builtin --engine builtin        (builtin-1, depth 1)
Both hold one row of the 57 player-model features per legal move in canonical move order,
so the rows line up; the script checks that the positions (game hash, Zobrist key, ply,
moves, move played) and every feature that does not depend on the scores are identical.

Models, each a conditional logit fitted as scripts/train_player_model.py fits one (L-BFGS,
1e-4 L2 on standardised features, floor picked on a training slice; --hidden H adds its
tanh layer), on the training split, scored on the held-out split (FNV-1a 64 of the
canonical PGN 0 mod 5, games of ../shared/samples left out), float model, bits per
position, per category:
  sf           the 57 features from Stockfish's scores (the default's recipe)
  builtin      the 57 features from the builtin's scores (weight set v3's recipe)
  hybrid       sf + the builtin's score features (gap shapes, blunder flags, rank, mate:
               group S) + agreement: BOTH_BEST (the move is first for both oracles),
               the position's Stockfish and builtin GAP_SQRT times AGREE (the two
               oracles' first moves are the same move)
  hybrid-full  hybrid + the builtin's gap interactions (phase, context, ratings)

Usage: scripts/hybrid_frontier.py [--sf-cache DIR] [--builtin-cache DIR]
       [--models sf,builtin,hybrid,hybrid-full] [--train-fraction F] [--hidden H --iters N]
       [--default-pos DIR] [--weights-of MODELS]
Needs python3-numpy and python3-scipy (Debian): run it with /usr/bin/python3.
"""
import argparse
import glob
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pm_weights  # noqa: E402
from train_player_model import CATS, POS_DTYPE, ROOT, HiddenProblem, Problem, bits, load, pick_floor, sample_hashes  # noqa: E402

POS_FIELDS = ("hash", "key", "game", "ply", "n", "played", "move")
AGREEMENT = ["BOTH_BEST", "GAP_SQRT_AGREE", "B_GAP_SQRT_AGREE"]


def score_columns(feats):
    """Indices of the features computed from the engine's scores: group S and the gap
    interactions of the other groups."""
    return [i for i, (n, g) in enumerate(feats)
            if g == "S" or n.startswith("GAP_") or n in ("RANK0_ELO", "BLUNDER_ELO")]


def check_aligned(pos_sf, pos_b, x_sf, x_b, score_cols):
    for f in POS_FIELDS:
        if not np.array_equal(pos_sf[f], pos_b[f]):
            sys.exit("hybrid_frontier: the two caches differ in the positions' %s: remake one" % f)
    other = [i for i in range(x_sf.shape[1]) if i not in score_cols]
    for i in other:  # one column at a time: no full-size temporary
        if not np.array_equal(x_sf[:, i], x_b[:, i]):
            sys.exit("hybrid_frontier: feature %d differs between the caches though no score enters it" % i)


def agreement(x_sf, x_b, n, idx):
    """The agreement columns (int16, one row per move)."""
    both = (x_sf[:, idx["RANK0"]] * x_b[:, idx["RANK0"]]).astype(np.int16)
    starts = np.concatenate([[0], np.cumsum(n)[:-1]])
    agree = np.repeat(np.add.reduceat(both.astype(np.int32), starts) > 0, n).astype(np.int16)
    return np.stack([both, x_sf[:, idx["GAP_SQRT"]] * agree, x_b[:, idx["GAP_SQRT"]] * agree], axis=1)


def model_columns(model, feats, score_cols):
    """[(source, column index, name)] of a model; sources: sf, b (builtin), agree."""
    nf = len(feats)
    sf_all = [("sf", i, feats[i][0]) for i in range(nf)]
    b_s = [("b", i, "B_" + feats[i][0]) for i in range(nf) if feats[i][1] == "S"]
    b_score = [("b", i, "B_" + feats[i][0]) for i in score_cols]
    agree = [("agree", i, nm) for i, nm in enumerate(AGREEMENT)]
    return {"sf": sf_all,
            "builtin": [("b", i, feats[i][0]) for i in range(nf)],
            "hybrid": sf_all + b_s + agree,
            "hybrid-full": sf_all + b_score + agree}[model]


def matrix(cols, sources, rows):
    """The model's int16 feature rows of the moves selected by rows."""
    parts = []
    for src in ("sf", "b", "agree"):
        idx = [i for s, i, _ in cols if s == src]
        if idx:
            parts.append(sources[src][rows][:, idx])
    return np.concatenate(parts, axis=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sf-cache", default="/work/cache-hybrid-sf")
    ap.add_argument("--builtin-cache", default="/work/cache-builtin")
    ap.add_argument("--build", default="build")
    ap.add_argument("--samples", default=os.path.join(ROOT, "..", "shared", "samples"))
    ap.add_argument("--models", default="sf,builtin,hybrid,hybrid-full")
    ap.add_argument("--train-fraction", type=float, default=1.0, help="subsample training positions")
    ap.add_argument("--hidden", type=int, default=0, help="tanh units of a hidden layer (0: linear)")
    ap.add_argument("--iters", type=int, default=300, help="L-BFGS iterations of the hidden layer fit")
    ap.add_argument("--default-pos", default="",
                    help="a directory of `ucizip-features --weights data/player_model/weights-v2.txt` outputs on "
                         "the Stockfish scores (.pos files): adds the default's exact integer bits as a row")
    ap.add_argument("--weights-of", default="", help="print the fitted weights of these models (comma list)")
    args = ap.parse_args()

    feats = pm_weights.feature_names(os.path.join(ROOT, "src/model/player_model.h"))
    nf = len(feats)
    idx = {n: i for i, (n, _) in enumerate(feats)}
    score_cols = score_columns(feats)
    files = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(args.sf_cache, "feat", "cat[123]_*.pos")))
    pos, x_sf, cat, _ = load(args.sf_cache, files, nf)
    pos_b, x_b, _, _ = load(args.builtin_cache, files, nf)
    check_aligned(pos, pos_b, x_sf, x_b, score_cols)
    n = pos["n"]
    sources = {"sf": x_sf, "b": x_b, "agree": agreement(x_sf, x_b, n, idx)}

    held = (pos["hash"] % np.uint64(5)) == 0
    in_samples = np.isin(pos["hash"], np.array(sorted(sample_hashes(args.build, args.samples)), dtype=np.uint64))
    rng = np.random.default_rng(1)  # the training script's subsample
    tmask = ~held & (rng.random(len(pos)) < args.train_fraction)
    emask = held & ~in_samples
    nt, pt, ne, pe = n[tmask], pos["played"][tmask], n[emask], pos["played"][emask]
    cate = cat[emask]
    first_agree = np.add.reduceat(sources["agree"][:, 0].astype(np.int32), np.concatenate([[0], np.cumsum(n)[:-1]]))
    print("files %d, positions %d: training %d (fraction %.2f), held-out %d; oracles' first moves agree "
          "in %.1f%% of the positions" % (len(files), len(pos), tmask.sum(), args.train_fraction, emask.sum(),
                                         100.0 * (first_agree > 0).mean()))
    rows_t, rows_e = np.repeat(tmask, n), np.repeat(emask, n)

    results = []
    for model in args.models.split(","):
        t0 = time.process_time()
        cols = model_columns(model, feats, score_cols)
        xt = matrix(cols, sources, rows_t)
        hidden = None
        if args.hidden:
            w, u, b, v = HiddenProblem(xt, nt, pt, args.hidden).fit(args.iters)
            hidden = (u, b, v)
        else:
            w = Problem(xt, nt, pt, list(range(len(cols)))).fit()
        eps = pick_floor(xt, nt, pt, w, hidden)
        del xt
        eb = bits(matrix(cols, sources, rows_e), ne, pe, w, eps, hidden)
        per_cat = [eb[cate == c].mean() for c in range(len(CATS))]
        results.append((model, len(cols), eps, per_cat))
        print("%-12s %3d features, floor %.3f: %s  (%.0f s CPU)" % (
            model, len(cols), eps, " ".join("%.3f" % b for b in per_cat), time.process_time() - t0), flush=True)
        if model in args.weights_of.split(","):
            for (_, _, nm), wv in zip(cols, w):
                print("  %-18s %+9.4f bits/unit" % (nm, wv / np.log(2)))

    print("\nheld-out bits per position (float model%s, training fraction %.2f):"
          % (", %d hidden units" % args.hidden if args.hidden else ", linear", args.train_fraction))
    print("| model | features | floor | " + " | ".join("%s (%d)" % (c, (cate == i).sum())
                                                     for i, c in enumerate(CATS.values())) + " |")
    print("|---|---|---|" + "---|" * len(CATS))
    rank = pos["rank_bits"][emask]
    print("| rank model (Stockfish scores, default) | - | - | "
          + " | ".join("%.3f" % rank[cate == c].mean() for c in range(len(CATS))) + " |")
    if args.default_pos:
        d = np.concatenate([np.fromfile(os.path.join(args.default_pos, f + ".pos"), dtype=POS_DTYPE) for f in files])
        if not np.array_equal(d["key"], pos["key"]):
            sys.exit("hybrid_frontier: %s holds other positions than the caches" % args.default_pos)
        d = d["pm_bits"][emask]
        print("| the default (weight set v2, 8 hidden units; integer, coded path) | 57 | - | "
              + " | ".join("%.3f" % d[cate == c].mean() for c in range(len(CATS))) + " |")
    for model, k, eps, per_cat in results:
        print("| %s | %d | %.3f | %s |" % (model, k, eps, " | ".join("%.3f" % b for b in per_cat)))


if __name__ == "__main__":
    main()
