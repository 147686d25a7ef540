#!/usr/bin/python3
"""A weight set with the policy over the board: an existing set plus the line "policy V
HASH BETA" (src/model/player_model.h), beta fitted on the training part of the corpus's
cat1-3 files only, then the new set's exact integer bits measured on the held-out part.

    scripts/policy_beta.py --base 14 --version 15 --dumps /work/cache-v14/d1 --work DIR [--write]

1. `ucizip-features FILE --scores DUMPS/NAME.dump --weights BASE --policy V --out
   DIR/NAME` for every cat1-3 file of ../shared/corpus: the base set's score of every
   move (.score) and the policy's logit (.policy), from the library's own code.
2. beta: the one value of 0.00, 0.01, ... 1.00 that minimises the training part's mean
   bits of the played move with p ~ 2^((score + beta x logit) / 65536) and the base's
   floor (a game is held out when the FNV-1a 64 of its canonical PGN is 0 mod 5,
   tools/game_split.h; the held-out games are never looked at here). Printed per
   category too, for information: one beta is what the model uses.
3. with --write: data/player_model/weights-vVERSION.txt, the base's lines and the policy
   line (beta in Q16), and its line for src/model/meson.build; then step 1 again with
   the new file, and the exact coded bits (ucizip-features' pm_bits) of base and new set
   on the held-out part per category, games also in ../shared/samples left out.
The dumps are `ucizip stats FILE --dump` files of the oracle the base set was fitted to
(Stockfish depth 1 for v14: scripts/player_model_data.sh; builtin-1 depth 1 for v9).
Needs python3-numpy (Debian)."""
import argparse
import glob
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pm_weights  # noqa: E402
import train_player_model as tpm  # noqa: E402
from fnv1a import fnv1a64  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def features(build, weights, dumps, work, policy, tag):
    """Runs ucizip-features on every cat1-3 corpus file; returns {category: [prefix...]}."""
    out = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "..", "shared", "corpus", "cat[123]_*.pgn"))):
        name = os.path.basename(path)[:-4]
        prefix = os.path.join(work, tag, name)
        os.makedirs(os.path.dirname(prefix), exist_ok=True)
        subprocess.run([os.path.join(build, "tools", "ucizip-features"), path, "--scores",
                        os.path.join(dumps, name + ".dump"), "--weights", weights, "--policy", str(policy),
                        "--out", prefix], check=True, capture_output=True)
        out.setdefault(name[:4], []).append(prefix)
    return out


def load(prefixes):
    pos = np.concatenate([np.fromfile(p + ".pos", dtype=tpm.POS_DTYPE) for p in prefixes])
    score = np.concatenate([np.fromfile(p + ".score", dtype="<i8") for p in prefixes]).astype(np.float64)
    logit = np.concatenate([np.fromfile(p + ".policy", dtype="<i4") for p in prefixes]).astype(np.float64)
    return pos, score, logit


def played_bits(pos, score, logit, beta, floor):
    """Bits of each position's played move, p ~ 2^((score + beta logit) / 65536), floor mixed in."""
    n = pos["n"].astype(np.int64)
    start = np.concatenate([[0], np.cumsum(n)[:-1]])
    z = (score + beta * logit) / 65536.0
    zmax = np.maximum.reduceat(z, start)
    pos_of = np.repeat(np.arange(len(pos)), n)
    e = np.exp2(z - zmax[pos_of])
    p = e / np.add.reduceat(e, start)[pos_of]
    p = (1 - floor) * p + floor / n[pos_of]
    return -np.log2(p[start + pos["played"]])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=int, required=True, help="the weight set the policy is added to")
    ap.add_argument("--version", type=int, required=True, help="the new set's version")
    ap.add_argument("--dumps", required=True, help="the oracle's score dumps of the corpus files")
    ap.add_argument("--work", required=True, help="where ucizip-features' outputs go (outside the repository)")
    ap.add_argument("--policy", type=int, default=1)
    ap.add_argument("--oracle", default="Stockfish 15.1 at depth 1", help="named in the new file's comments")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    base_path = os.path.join(ROOT, "data", "player_model", "weights-v%d.txt" % args.base)
    units, squares, board = [], {}, {}
    _, floor_q16, ws = pm_weights.parse(base_path, units, squares, board)
    floor = floor_q16 / 65536.0
    cats = features(args.build, base_path, args.dumps, args.work, args.policy, "v%d" % args.base)
    betas = np.round(np.arange(0, 1.001, 0.01), 2)
    total = np.zeros(len(betas))
    count = 0
    for cat, prefixes in sorted(cats.items()):
        pos, score, logit = load(prefixes)
        train = pos["hash"] % np.uint64(5) != 0
        bits = np.array([played_bits(pos, score, logit, b, floor)[train].sum() for b in betas])
        total += bits
        count += int(train.sum())
        print("%s: training part %d positions, best beta %.2f (%.4f bits, %.4f without the policy)" % (
            tpm.CATS[cat], train.sum(), betas[np.argmin(bits)], bits.min() / train.sum(), bits[0] / train.sum()))
    beta = betas[int(np.argmin(total))]
    beta_q16 = int(round(beta * 65536))
    print("one beta for all: %.2f (Q16 %d): %.4f bits on the training part, %.4f without" % (
        beta, beta_q16, total.min() / count, total[0] / count))
    if not args.write:
        return
    policy_file = os.path.join(ROOT, "data", "policy", "v%d.bin" % args.policy)
    policy_hash = fnv1a64(open(policy_file, "rb").read())
    comments = [
        "ucizip player model weights: weight set %d (data/player_model/weights-v%d.txt) and the policy over" % (
            args.base, args.base),
        "the board of version %d (data/policy/v%d.bin): each move's score gains beta x the policy's logit." % (
            args.policy, args.policy),
        "beta %.2f fitted by scripts/policy_beta.py on the training part of ../shared/corpus's cat1-3 files" % beta,
        "(a game is held out when FNV-1a 64 of its canonical PGN is 0 mod 5), scores from %s." % args.oracle,
        "See data/player_model/PROVENANCE.",
    ]
    sq = (squares["bounds"], squares["to"], squares["from"]) if squares else None
    h = pm_weights.write(args.version, floor_q16, ws, comments, ROOT, units or None, sq, board or None,
                         (args.policy, policy_hash, beta_q16))
    print("wrote data/player_model/weights-v%d.txt (weights hash %016x); its line for src/model/meson.build:" % (
        args.version, h))
    print(pm_weights.pin_line(args.version, ROOT))
    new_path = os.path.join(ROOT, "data", "player_model", "weights-v%d.txt" % args.version)
    new = features(args.build, new_path, args.dumps, args.work, args.policy, "v%d" % args.version)
    samples = tpm.sample_hashes(args.build, os.path.join(ROOT, "..", "shared", "samples"))
    sample_hashes = np.array(sorted(samples), dtype=np.uint64)
    print("| held-out, bits per coded position | positions | v%d | v%d | gain |" % (args.base, args.version))
    print("|---|---|---|---|---|")
    for cat in sorted(cats):
        old_pos = load(cats[cat])[0]
        new_pos = load(new[cat])[0]
        held = (old_pos["hash"] % np.uint64(5) == 0) & ~np.isin(old_pos["hash"], sample_hashes)
        a, b = old_pos["pm_bits"][held].mean(), new_pos["pm_bits"][held].mean()
        print("| %s | %d | %.4f | %.4f | %+.4f |" % (tpm.CATS[cat], held.sum(), a, b, b - a))


if __name__ == "__main__":
    main()
