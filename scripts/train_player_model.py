#!/usr/bin/python3
"""Trains the player model (a conditional logit over the legal moves) on the training
part of ../shared/corpus and reports bits/move on the held-out part.

Pipeline (every step cached under --cache, outside the repository):
  1. engine scores: `ucizip stats FILE --dump CACHE/d1/NAME.dump -k` per corpus file
     (depth 1, multipv, engines/stockfish.profile: the default settings);
  2. features: `ucizip-features FILE --scores DUMP --out CACHE/feat/NAME` (the library's
     own uz_pm_features, so training and the codec see the same integers);
  3. this script: fit, write data/player_model/weights-vN.txt (and print its line for
     src/model/meson.build, which builds it in), then (with --evaluate) rerun step 2 with the new weights to get the exact integer
     bits of the coded path.

Split (fixed, by game): a game is held out when the FNV-1a 64 hash of its canonical PGN
text (`ucizip-features FILE --hashes`) is 0 mod 5; the rest is training. Games that are
also in ../shared/samples are kept out of the held-out figures.
Categories: cat1 files amateur, cat2 master, cat3 engine (cat4/cat5 are syntax and
Chess960 files, not used).

Usage: scripts/train_player_model.py [--cache /work/cache-model] [--ablate] [--evaluate]
       [--hidden H --iters N]   (a hidden layer of H tanh units beside the linear part)
Needs python3-numpy and python3-scipy (Debian).
"""
import argparse
import glob
import math
import os
import subprocess
import sys
import time

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pm_weights  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATS = {"cat1": "amateur", "cat2": "master", "cat3": "engine"}
EXTRA = len(CATS)  # the category index of the training games' parts (never held out)
POS_DTYPE = np.dtype([("hash", "<u8"), ("key", "<u8"), ("game", "<i4"), ("ply", "<i4"), ("n", "<i4"),
                      ("played", "<i4"), ("elo", "<i4"), ("move", "<i4"), ("rank_bits", "<f8"),
                      ("pm_bits", "<f8")])


def features_tool(build):
    return os.path.join(ROOT, build, "tools", "ucizip-features")


def sample_hashes(build, samples_dir):
    hs = set()
    for f in sorted(glob.glob(os.path.join(samples_dir, "*.pgn"))):
        out = subprocess.run([features_tool(build), f, "--hashes"], capture_output=True, text=True, check=True)
        hs.update(int(h, 16) for h in out.stdout.split())
    return hs


def load(cache, names, nf):
    """Positions and features of the given cached files, concatenated."""
    pos, feat, cat, fileid = [], [], [], []
    for i, name in enumerate(names):
        p = np.fromfile(os.path.join(cache, "feat", name + ".pos"), dtype=POS_DTYPE)
        x = np.fromfile(os.path.join(cache, "feat", name + ".feat"), dtype="<i2").reshape(-1, nf)
        assert x.shape[0] == p["n"].sum(), name
        pos.append(p)
        feat.append(x)
        cat.append(np.full(len(p), list(CATS).index(name[:4]) if name[:4] in CATS else EXTRA))
        fileid.append(np.full(len(p), i))
    return np.concatenate(pos), np.concatenate(feat), np.concatenate(cat), np.concatenate(fileid)


def log_softmax_within(s, starts, pos_of_move):
    """The log-softmax of the scores s within each position (starts: its first move's index)."""
    m = np.maximum.reduceat(s, starts)
    z = np.add.reduceat(np.exp(s - m[pos_of_move]), starts)
    return s - (m + np.log(z))[pos_of_move]


def softmax_nll(s, starts, pos_of_move, target):
    """The mean negative log-likelihood of the played moves (target: their indices in s)
    under a softmax of the scores s within each position, and its gradient in s."""
    logp = log_softmax_within(s, starts, pos_of_move)
    k = len(starts)
    g = np.exp(logp)
    g[target] -= 1.0
    return -logp[target].sum() / k, g / k


class Problem:
    """Softmax over each position's moves of X w (X: all moves stacked)."""

    def __init__(self, x, n, played, cols, l2=1e-4):
        self.x = x[:, cols].astype(np.float32)
        self.scale = self.x.std(axis=0, dtype=np.float64) + 1e-9
        self.x /= self.scale.astype(np.float32)
        self.starts = np.concatenate([[0], np.cumsum(n)[:-1]])
        self.n = n
        self.target = self.starts + played
        self.pos_of_move = np.repeat(np.arange(len(n)), n)
        self.l2 = l2

    def probs(self, w):
        s = (self.x @ w.astype(np.float32)).astype(np.float64)
        m = np.maximum.reduceat(s, self.starts)
        e = np.exp(s - m[self.pos_of_move])
        z = np.add.reduceat(e, self.starts)
        return e / z[self.pos_of_move], s, m, z

    def loss_grad(self, w):
        p, s, m, z = self.probs(w)
        nll = -(s[self.target] - m - np.log(z)).sum()
        g = (self.x.T @ p.astype(np.float32)).astype(np.float64) - self.x[self.target].sum(axis=0, dtype=np.float64)
        k = len(self.n)
        return nll / k + self.l2 * w @ w, g / k + 2 * self.l2 * w

    def fit(self, iters=200):
        w0 = np.zeros(self.x.shape[1])
        r = minimize(self.loss_grad, w0, jac=True, method="L-BFGS-B", options={"maxiter": iters})
        return r.x / self.scale  # weights on the raw integer features


def hidden_raw(u, scale):
    """Hidden weights on the raw integer features. A feature that is constant in the
    training positions (zero there: BIG_BLUNDER under builtin-2's root window) keeps its
    random start, which divided by its tiny scale would overflow the weights file: it
    gets 0, which changes nothing the training positions see."""
    raw = u / scale
    raw[:, scale < 1e-6] = 0
    return raw


class HiddenProblem(Problem):
    """The same softmax of x.w + v.tanh(U x + b): a hidden layer of H tanh units beside the
    linear part (features centred and standardised; b unpenalised). Started from the
    linear solution; returns the weights on the raw integer features."""

    def __init__(self, x, n, played, hidden, l2=1e-4, seed=1):
        super().__init__(x, n, played, list(range(x.shape[1])), l2)
        self.mu = (x.astype(np.float64).mean(axis=0) / self.scale).astype(np.float32)
        self.x -= self.mu  # centred: only the hidden part notices
        self.h = hidden
        self.rng = np.random.default_rng(seed)

    def split(self, th):
        d, h = self.x.shape[1], self.h
        return th[:d], th[d:d + h * d].reshape(h, d), th[d + h * d:d + h * d + h], th[d + h * d + h:]

    def scores(self, th):
        w, u, b, v = self.split(th)
        t = np.tanh(self.x @ u.T.astype(np.float32) + b.astype(np.float32))
        return (self.x @ w.astype(np.float32) + t @ v.astype(np.float32)).astype(np.float64), t

    def loss_grad(self, th):
        loss, g, _ = self.loss_grad_scores(th)
        return loss, g

    def loss_grad_scores(self, th, extra=None):
        """Loss and gradient of the hidden model whose scores gain extra (per move), and the
        gradient of the loss in each move's score."""
        w, u, b, v = self.split(th)
        s, t = self.scores(th)
        if extra is not None:
            s = s + extra
        nll, gs = softmax_nll(s, self.starts, self.pos_of_move, self.target)
        gs = gs.astype(np.float32)
        da = (gs[:, None] * v.astype(np.float32)[None, :]) * (1 - t * t)
        g = np.concatenate([self.x.T @ gs, (da.T @ self.x).ravel(), da.sum(axis=0, dtype=np.float64), t.T @ gs])
        pen = th.copy()
        d = self.x.shape[1]
        pen[d + self.h * d:d + self.h * d + self.h] = 0
        return nll + self.l2 * pen @ pen, g.astype(np.float64) + 2 * self.l2 * pen, gs

    def fit(self, iters=300):
        d, h = self.x.shape[1], self.h
        r = minimize(lambda w: Problem.loss_grad(self, w), np.zeros(d), jac=True, method="L-BFGS-B",
                     options={"maxiter": 200})
        w_lin = r.x  # the linear solution, standardised units
        th = np.concatenate([w_lin, self.rng.normal(0, 0.5 / np.sqrt(d), h * d), np.zeros(h),
                             self.rng.normal(0, 0.01, h)])
        r = minimize(self.loss_grad, th, jac=True, method="L-BFGS-B", options={"maxiter": iters})
        print("hidden layer fit: %s, %d iterations, loss %.5f" % (r.message, r.nit, r.fun))
        w, u, b, v = self.split(r.x)
        u_raw = hidden_raw(u, self.scale)
        return w / self.scale, u_raw, b - u @ self.mu, v


class SquareProblem(Problem):
    """The same softmax of x.w plus the square tables: each move adds one entry of the "to"
    table and one of the "from" table (idx: its two entries' indices in the table vector,
    see square_indices), penalised by l2_tables."""

    def __init__(self, x, n, played, idx, n_tables, l2=1e-4, l2_tables=3e-5):
        super().__init__(x, n, played, list(range(x.shape[1])), l2)
        self.idx, self.n_tables, self.l2_tables, self.d = idx, n_tables, l2_tables, self.x.shape[1]

    def loss_grad(self, th):
        w, tab = th[:self.d], th[self.d:]
        s = (self.x @ w.astype(np.float32)).astype(np.float64) + tab[self.idx[0]] + tab[self.idx[1]]
        nll, g = softmax_nll(s, self.starts, self.pos_of_move, self.target)
        gw = (self.x.T @ g.astype(np.float32)).astype(np.float64)
        gt = sum(np.bincount(i, weights=g, minlength=self.n_tables) for i in self.idx)
        return (nll + self.l2 * w @ w + self.l2_tables * tab @ tab,
                np.concatenate([gw + 2 * self.l2 * w, gt + 2 * self.l2_tables * tab]))

    def fit(self, iters=300):
        r = minimize(self.loss_grad, np.zeros(self.d + self.n_tables), jac=True, method="L-BFGS-B",
                     options={"maxiter": iters})
        print("square tables fit: %s, %d iterations, loss %.5f" % (r.message, r.nit, r.fun))
        return r.x[:self.d] / self.scale, r.x[self.d:]


class HiddenSquareProblem(HiddenProblem):
    """The hidden model plus the square tables, fitted together, started from the linear
    model with tables (SquareProblem)."""

    def __init__(self, x, n, played, hidden, idx, n_tables, l2_tables=3e-5):
        super().__init__(x, n, played, hidden)
        self.idx, self.n_tables, self.l2_tables = idx, n_tables, l2_tables
        d = self.x.shape[1]
        self.d, self.n_core = d, d + hidden * d + 2 * hidden

    def loss_grad(self, th):
        core, tab = th[:self.n_core], th[self.n_core:]
        loss, g, gs = self.loss_grad_scores(core, tab[self.idx[0]] + tab[self.idx[1]])
        gt = sum(np.bincount(i, weights=gs.astype(np.float64), minlength=self.n_tables) for i in self.idx)
        return loss + self.l2_tables * tab @ tab, np.concatenate([g, gt + 2 * self.l2_tables * tab])

    def fit(self, iters=300, linear_iters=200):
        d, h = self.x.shape[1], self.h
        r = minimize(lambda th: SquareProblem.loss_grad(self, th), np.zeros(d + self.n_tables), jac=True,
                     method="L-BFGS-B", options={"maxiter": linear_iters})
        print("linear part and square tables: %s, %d iterations, loss %.5f" % (r.message, r.nit, r.fun), flush=True)
        w_lin, tab = r.x[:d], r.x[d:]
        th = np.concatenate([w_lin, self.rng.normal(0, 0.5 / np.sqrt(d), h * d), np.zeros(h),
                             self.rng.normal(0, 0.01, h), tab])
        t0, it = time.time(), [0]

        def progress(_):
            it[0] += 1
            if it[0] % 10 == 0:
                print("  iteration %d (%.0f s)" % (it[0], time.time() - t0), flush=True)

        r = minimize(self.loss_grad, th, jac=True, method="L-BFGS-B", callback=progress, options={"maxiter": iters})
        print("hidden layer and square tables fit: %s, %d iterations, loss %.5f" % (r.message, r.nit, r.fun))
        w, u, b, v = self.split(r.x[:self.n_core])
        return w / self.scale, hidden_raw(u, self.scale), b - u @ self.mu, v, r.x[self.n_core:]


def square_indices(moves, ply, bounds):
    """Each move's entries in the square tables' vector (the to tables, then the from
    tables, each [bucket][type][square]), from ucizip-features' .moves words and the
    position's ply, as uz_pm_board_scores reads them."""
    buckets = len(bounds) + 1
    b = np.searchsorted(np.array(bounds), ply, side="right")
    row = (b * 6 + (moves >> 12).astype(np.int64) - 1) * 64
    return (row + (moves & 63), buckets * 384 + row + ((moves >> 6) & 63)), 2 * buckets * 384


def raw_scores(x, w, hidden=None, extra=None):
    """Per-move scores (natural log units) of the raw integer features, plus extra."""
    s = x.astype(np.float64) @ w
    if extra is not None:
        s += extra
    if hidden is not None:
        u, b, v = hidden
        s += np.tanh(x.astype(np.float64) @ u.T + b) @ v
    return s


def bits(x, n, played, w, eps, hidden=None, extra=None):
    """Float cost in bits per position of the logit with a uniform floor eps."""
    s = raw_scores(x, w, hidden, extra)
    starts = np.concatenate([[0], np.cumsum(n)[:-1]])
    pos_of = np.repeat(np.arange(len(n)), n)
    m = np.maximum.reduceat(s, starts)
    e = np.exp(s - m[pos_of])
    z = np.add.reduceat(e, starts)
    p = e[starts + played] / z
    return -np.log2((1 - eps) * p + eps / n)


def pick_floor(xt, nt, pt, w, hidden=None, extra=None):
    """The uniform floor of the fitted model, chosen on a slice of the training part."""
    best_eps, best = None, None
    k = min(len(nt), 100_000)
    km = int(np.cumsum(nt)[k - 1])
    for eps in (0.001, 0.002, 0.004, 0.008, 0.016):
        b = bits(xt[:km], nt[:k], pt[:k], w, eps, hidden, None if extra is None else extra[:km]).mean()
        if best is None or b < best:
            best_eps, best = eps, b
    return best_eps


def extra_parts(cache, k):
    """The names of the first k parts of training games (scripts/training_labels.sh)."""
    names = ["train_%02d" % i for i in range(k)]
    missing = [n for n in names if not os.path.exists(os.path.join(cache, "feat", n + ".pos"))]
    if missing:
        sys.exit("no features of %s in %s (scripts/training_labels.sh)" % (", ".join(missing), cache))
    return names


def split_masks(pos, cat, samples_hashes):
    """held: the corpus's held-out games (never fitted); evalm: those not also in the samples
    (the figures); the training games' parts are never held out."""
    corpus = cat != EXTRA
    held = corpus & ((pos["hash"] % np.uint64(5)) == 0)
    in_samples = np.isin(pos["hash"], np.array(sorted(samples_hashes), dtype=np.uint64))
    return held, held & ~in_samples


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default="/work/cache-model")
    ap.add_argument("--build", default="build")
    ap.add_argument("--samples", default=os.path.join(ROOT, "..", "shared", "samples"))
    ap.add_argument("--ablate", action="store_true", help="refit with each feature group off")
    ap.add_argument("--train-fraction", type=float, default=1.0, help="subsample the corpus's training positions")
    ap.add_argument("--extra-parts", type=int, default=0,
                    help="also fit on the first K parts of training games in CACHE/feat/train_NN "
                         "(scripts/training_games_sample.py, scripts/training_labels.sh), all of their positions")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--hidden", type=int, default=0,
                    help="tanh units of a hidden layer beside the linear part (0: the plain conditional logit)")
    ap.add_argument("--iters", type=int, default=300, help="L-BFGS iterations of the hidden layer fit")
    ap.add_argument("--linear-iters", type=int, default=200,
                    help="L-BFGS iterations of the linear part and square tables that start it (with --squares)")
    ap.add_argument("--scores-from", default="Stockfish 15.1, depth 1, multipv, engines/stockfish.profile",
                    help="the oracle whose scores the cache holds, as the weights file's comment names it")
    ap.add_argument("--squares", default="",
                    help="square tables with these rising ply bounds between their buckets, e.g. 16,60 "
                         "(needs the features' .moves files); empty: none")
    ap.add_argument("--version", type=int, default=0,
                    help="version of the new weight set (default: one above the newest in data/player_model); "
                         "older sets stay built in so that their archives still decode")
    args = ap.parse_args()

    feats = pm_weights.feature_names(os.path.join(ROOT, "src/model/player_model.h"))
    names = [n for n, _ in feats]
    groups = [g for _, g in feats]
    nf = len(names)
    files = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(args.cache, "feat", "cat[123]_*.pos")))
    files += extra_parts(args.cache, args.extra_parts)
    pos, x, cat, _ = load(args.cache, files, nf)
    held, evalm = split_masks(pos, cat, sample_hashes(args.build, args.samples))
    train = ~held
    print("files %d, positions %d (train %d, of them from training games %d; held-out %d, also in samples %d)"
          % (len(files), len(pos), train.sum(), (cat == EXTRA).sum(), evalm.sum(), (held & ~evalm).sum()))
    starts = np.concatenate([[0], np.cumsum(pos["n"])[:-1]])

    def rows(mask):
        idx = np.repeat(mask, pos["n"])
        return x[idx]

    rng = np.random.default_rng(1)
    tmask = train & ((cat == EXTRA) | (rng.random(len(pos)) < args.train_fraction))
    xt, nt, pt = rows(tmask), pos["n"][tmask], pos["played"][tmask]
    xe, ne, pe = rows(evalm), pos["n"][evalm], pos["played"][evalm]
    cate = cat[evalm]

    def fit_eval(cols):
        prob = Problem(xt, nt, pt, cols)
        w = np.zeros(nf)
        w[cols] = prob.fit()
        return w

    all_cols = list(range(nf))
    hidden = squares = extra_t = extra_e = None
    if args.squares:
        bounds = [int(v) for v in args.squares.split(",")]
        moves = np.concatenate([np.fromfile(os.path.join(args.cache, "feat", f + ".moves"), dtype="<u2")
                                for f in files])
        assert len(moves) == x.shape[0]
        idx, n_tables = square_indices(moves, np.repeat(pos["ply"], pos["n"]), bounds)
        mt, me = np.repeat(tmask, pos["n"]), np.repeat(evalm, pos["n"])
    if args.hidden and args.squares:
        w, u, b, v, tab = HiddenSquareProblem(xt, nt, pt, args.hidden, [i[mt] for i in idx], n_tables).fit(
            args.iters, args.linear_iters)
        hidden = (u, b, v)
    elif args.hidden:
        w, u, b, v = HiddenProblem(xt, nt, pt, args.hidden).fit(args.iters)
        hidden = (u, b, v)
    elif args.squares:
        w, tab = SquareProblem(xt, nt, pt, [i[mt] for i in idx], n_tables).fit()
    else:
        w = fit_eval(all_cols)
    if args.squares:
        extra_t, extra_e = tab[idx[0][mt]] + tab[idx[1][mt]], tab[idx[0][me]] + tab[idx[1][me]]
        q = np.round(tab / math.log(2) * 65536).astype(np.int64).reshape(2, len(bounds) + 1, 6, 64)
        squares = (bounds, q[0].tolist(), q[1].tolist())
    best_eps = pick_floor(xt, nt, pt, w, hidden, extra_t)
    eb = bits(xe, ne, pe, w, best_eps, hidden, extra_e)
    print("floor %.3f; held-out bits/move (float model):" % best_eps)
    print("| category | positions | rank model (default) | player model |")
    print("|---|---|---|---|")
    for c, cname in enumerate(CATS.values()):
        sel = cate == c
        print("| %s | %d | %.3f | %.3f |" % (cname, sel.sum(), pos["rank_bits"][evalm][sel].mean(), eb[sel].mean()))
    for nm, wv in zip(names, w):
        print("  %-16s %+9.4f bits/unit" % (nm, wv / math.log(2)))

    if args.ablate:
        print("\nablation (held-out bits/move, float model, refitted without the group):")
        print("| without | amateur | master | engine |")
        print("|---|---|---|---|")
        for g in "SKFCPXR":
            cols = [i for i in all_cols if groups[i] != g]
            wa = fit_eval(cols)
            ea = bits(xe, ne, pe, wa, best_eps)
            print("| %s | %s |" % (g, " | ".join("%.3f" % ea[cate == c].mean() for c in range(3))))

    if not args.no_write:
        q = [int(round(v / math.log(2) * 65536)) for v in w]
        floor_q16 = int(round(best_eps * 65536))
        existing = [pm_weights.parse(p)[0] for p in glob.glob(os.path.join(ROOT, "data/player_model/weights-v*.txt"))]
        version = args.version or max(existing, default=0) + 1
        units = None
        if hidden is not None:
            u, b, v = hidden
            units = [(int(round(b[j] * 2 ** 32)), int(round(v[j] / math.log(2) * 65536)),
                      [int(round(c * 2 ** 32)) for c in u[j]]) for j in range(len(b))]
        h = pm_weights.write(version, floor_q16, q, root=ROOT, units=units, squares=squares, comments=[
            "ucizip player model weights: conditional logit, Q16 log2 units per feature unit"
            + ("; %d tanh units (bias and weights Q32, output Q16 log2 units)." % args.hidden if args.hidden else "")
            + ("; square tables, ply buckets split at %s (Q16 log2 units)." % args.squares if args.squares else "."),
            "Trained by scripts/train_player_model.py on the training part of ../shared/corpus",
            "(cat1-3 files; a game is held out when FNV-1a 64 of its canonical PGN is 0 mod 5)"
            + (", and %d parts of training games of ../shared/training," % args.extra_parts if args.extra_parts else ","),
            "engine scores from %s." % args.scores_from,
            "%d training positions. See data/player_model/PROVENANCE." % int(tmask.sum())])
        print("wrote data/player_model/weights-v%d.txt, hash %016x; to build it in, add to player_weight_sets in "
              "src/model/meson.build:\n%s" % (version, h, pm_weights.pin_line(version, ROOT)))


if __name__ == "__main__":
    main()
