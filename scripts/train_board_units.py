#!/usr/bin/python3
"""Trains a weight set's board units (src/model/player_model.h): a small network that reads
the whole board with each move, added to the scores of an existing weight set, which stay
as they are. The new set is the old one plus a "board" section, under a new version.

Data: `ucizip-features FILE --scores DUMP --out CACHE/feat/NAME --weights BASE` for every
cat1-3 corpus file (scripts/player_model_data.sh makes the dumps), which writes each
position's board (.board, seen from the mover), its moves (.moves) and the base set's
score of every move (.score), all integers the codec computes.

Split: the held-out games (FNV-1a 64 of the canonical PGN 0 mod 5, as
scripts/train_player_model.py) are never read for training; of the training games, those
with (hash / 5) mod 4 == 0 are a validation part that picks the iteration (early stopping)
and the rest is fitted. Held-out bits/move are printed once, at the end.

Distillation (--teacher CACHE2): the same positions scored by a better oracle and set (for
the builtin's sets: Stockfish's depth-1 scores under its default set, whose integer scores
ucizip-features writes in CACHE2 the same way). The fit then minimises (1 - w) x the
played moves' log loss + w x the cross-entropy against the teacher's distribution over
every move of the position (w: --teacher-weight): one move played is one sample, the
teacher's distribution says how good every other move looked, a richer signal per position
for a network that would otherwise overfit the few hundred thousand played moves. Only the
training part is read with the teacher; the validation part and the held-out figures are
the played moves' bits alone, as without it.

Adjusting the base (--adjust): the base set's linear weights and square tables get a
correction fitted together with the units (the hidden layer stays as it is); the new set is
the base with the corrected weights and tables plus the units. Without it the base is
untouched. --init FIT.npz starts from a saved fit (its units, and its corrections if it
has them) instead of small random units: a fit continued.

Usage: scripts/train_board_units.py --base data/player_model/weights-v5.txt --cache CACHE
       [--units 16] [--iters 150] [--l2 3e-5] [--version N] [--scores-from TEXT] [--no-write]
       [--teacher CACHE2 [--teacher-weight 0.5] [--teacher-name TEXT]] [--adjust]
       [--init FIT.npz] [--save FIT.npz | --load FIT.npz]
(SIGINT stops the fit and goes on with the best iteration so far.)
Needs python3-numpy and python3-scipy (Debian).
"""
import argparse
import glob
import math
import os
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pm_weights  # noqa: E402
import train_player_model as tpm  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Positions:
    """The positions of a mask: board one-hots, move one-hots, base scores (natural log)."""

    def __init__(self, pos, board, base, moves, cat, mask, teacher=None, adjust=None):
        n = pos["n"].astype(np.int64)
        rows = np.repeat(mask, n)
        if adjust is not None:  # the features (standardised) and square-table entries of each move
            self.x = adjust.x[rows].astype(np.float32) / adjust.scale
            self.sq = [i[rows] for i in adjust.idx]
        self.n = n[mask]
        self.base = base[rows]
        self.teacher = teacher[rows] if teacher is not None else None
        self.played = pos["played"][mask].astype(np.int64)
        self.cat = cat[mask]
        self.starts = np.concatenate([[0], np.cumsum(self.n)[:-1]])
        self.pos_of = np.repeat(np.arange(len(self.n)), self.n)
        b = board[mask]
        r, c = np.nonzero(b)
        # piece code (0..11) x 64 + square, as the C arrays board_piece[code][square]
        self.board = sp.csr_matrix((np.ones(len(r), np.float32), (r, (b[r, c].astype(np.int64) - 1) * 64 + c)),
                                   shape=(len(self.n), 768))
        mv = moves[rows].astype(np.int64)
        t = (mv >> 12) - 1
        to, frm = t * 64 + (mv & 63), 384 + t * 64 + ((mv >> 6) & 63)
        m = len(mv)
        self.move = sp.csr_matrix((np.ones(2 * m, np.float32), (np.repeat(np.arange(m), 2), np.stack([to, frm], 1).ravel())),
                                  shape=(m, 768))


class BoardUnits:
    """theta = board weights [768 x U], move weights [768 x U] (to tables, then from),
    biases [U], outputs [U] (natural log units); pre-activations in tanh units."""

    def __init__(self, units, l2, teacher_weight=0.0):
        self.u, self.l2, self.tw = units, l2, teacher_weight
        self.sizes = [768 * units, 768 * units, units, units]

    def split(self, th):
        o = np.cumsum([0] + self.sizes)
        return (th[o[0]:o[1]].reshape(768, self.u), th[o[1]:o[2]].reshape(768, self.u), th[o[2]:o[3]], th[o[3]:o[4]])

    def forward(self, d, th):
        a, e, c, v = (x.astype(np.float32) for x in self.split(th))
        h = np.tanh((d.board @ a)[d.pos_of] + d.move @ e + c)
        return h, h @ v

    @staticmethod
    def probs(d, s):
        return softmax_within(s, d.starts, d.pos_of)

    def loss_grad(self, th, d, extra=None):
        """Loss and gradient in th, and the gradient in each move's score (the base's
        scores plus extra, if given, plus the units')."""
        v = self.split(th)[3].astype(np.float32)
        h, r = self.forward(d, th)
        s = d.base + r + (extra if extra is not None else 0)
        nll, g = tpm.softmax_nll(s, d.starts, d.pos_of, d.starts + d.played)
        if self.tw:  # distillation: cross-entropy against the teacher's distribution too
            ce, gt = soft_cross_entropy(s, d.starts, d.pos_of, d.teacher)
            nll, g = (1 - self.tw) * nll + self.tw * ce, (1 - self.tw) * g + self.tw * gt
        loss = nll + self.l2 * (th @ th)
        g = g.astype(np.float32)
        dpre = (g[:, None] * v) * (1 - h * h)
        grad = np.concatenate([(d.board.T @ np.add.reduceat(dpre, d.starts, axis=0)).ravel(),
                               (d.move.T @ dpre).ravel(), dpre.sum(0), h.T @ g])
        return loss, grad.astype(np.float64) + 2 * self.l2 * th, g

    def fit_loss_grad(self, th, d):
        return self.loss_grad(th, d)[:2]

    def scores(self, d, th):
        return d.base + (self.forward(d, th)[1] if th is not None else 0)

    def bits(self, d, th, eps):
        s = self.scores(d, th)
        p = self.probs(d, s)[d.starts + d.played]
        return -np.log2((1 - eps) * p + eps / d.n)


class BaseAdjustment:
    """The base set's raw features (x, int16 per move), their spread (scale) and each
    move's two square-table entries (idx; n_tables entries, as square_indices)."""

    def __init__(self, x, ply, moves, bounds):
        self.x = x
        self.scale = (x.std(axis=0, dtype=np.float64) + 1e-9).astype(np.float32)
        self.idx, self.n_tables = tpm.square_indices(moves, ply, bounds)


class AdjustedBoardUnits(BoardUnits):
    """The units plus corrections to the base's linear weights (in standardised feature
    units, L2 penalty l2_linear) and to its square tables (L2 l2_tables), appended to
    theta. The hidden layer is not touched."""

    def __init__(self, units, l2, teacher_weight, n_features, n_tables, l2_linear=1e-4, l2_tables=3e-5):
        super().__init__(units, l2, teacher_weight)
        self.n_units = sum(self.sizes)
        self.nf, self.nt, self.l2_linear, self.l2_tables = n_features, n_tables, l2_linear, l2_tables

    def corrections(self, th):
        return th[self.n_units:self.n_units + self.nf], th[self.n_units + self.nf:]

    def extra(self, d, th):
        dw, dt = self.corrections(th)
        return (d.x @ dw.astype(np.float32)).astype(np.float64) + dt[d.sq[0]] + dt[d.sq[1]]

    def fit_loss_grad(self, th, d):
        dw, dt = self.corrections(th)
        loss, grad, g = self.loss_grad(th[:self.n_units], d, self.extra(d, th))
        gw = (d.x.T @ g).astype(np.float64)
        gt = sum(np.bincount(i, weights=g.astype(np.float64), minlength=self.nt) for i in d.sq)
        return (loss + self.l2_linear * dw @ dw + self.l2_tables * dt @ dt,
                np.concatenate([grad, gw + 2 * self.l2_linear * dw, gt + 2 * self.l2_tables * dt]))

    def scores(self, d, th):
        if th is None:
            return d.base
        return d.base + self.forward(d, th[:self.n_units])[1] + self.extra(d, th)


def softmax_within(s, starts, pos_of):
    return np.exp(tpm.log_softmax_within(s, starts, pos_of))


def soft_cross_entropy(s, starts, pos_of, t):
    """The mean cross-entropy of the softmax of s within each position against the
    distribution t (sums to 1 in each position), and its gradient in s."""
    logp = tpm.log_softmax_within(s, starts, pos_of)
    return -(t * logp).sum() / len(starts), (np.exp(logp) - t) / len(starts)


def quantise(model, th):
    """The weights file's board section: Q16 pre-activations, outputs Q16 log2 units."""
    a, e, c, v = model.split(th)
    q = lambda x: np.round(x * 65536).astype(np.int64)  # noqa: E731
    qa, qe = q(a).reshape(12, 64, -1), q(e).reshape(2, 6, 64, -1)
    return {"bias": q(c).tolist(), "out": np.round(v / math.log(2) * 65536).astype(np.int64).tolist(),
            "piece": [[qa[k, :, j].tolist() for k in range(12)] for j in range(model.u)],
            "to": [[qe[0, t, :, j].tolist() for t in range(6)] for j in range(model.u)],
            "from": [[qe[1, t, :, j].tolist() for t in range(6)] for j in range(model.u)]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, help="the weight set the units are added to")
    ap.add_argument("--cache", required=True, help="ucizip-features outputs made with --weights BASE")
    ap.add_argument("--build", default="build")
    ap.add_argument("--samples", default=os.path.join(ROOT, "..", "shared", "samples"))
    ap.add_argument("--units", type=int, default=16)
    ap.add_argument("--iters", type=int, default=150)
    ap.add_argument("--l2", type=float, default=3e-5)
    ap.add_argument("--version", type=int, default=0)
    ap.add_argument("--scores-from", default="", help="the oracle whose scores the cache holds (for the comments)")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--save", default="", help="keep the chosen fit in this .npz file")
    ap.add_argument("--load", default="", help="no fit: the one saved by --save (same --units)")
    ap.add_argument("--teacher", default="", help="a cache of the same positions scored by a better set (distillation)")
    ap.add_argument("--teacher-name", default="", help="the teacher, in words (for the comments)")
    ap.add_argument("--teacher-weight", type=float, default=0.5, help="the teacher's share of the training loss")
    ap.add_argument("--adjust", action="store_true",
                    help="also fit corrections to the base's linear weights and square tables")
    ap.add_argument("--init", default="", help="start from this saved fit (a fit continued)")
    ap.add_argument("--squares", default="",
                    help="with --adjust, for a base set without square tables: tables with these ply bounds "
                         "(as train_player_model.py --squares), started at zero and fitted with the units")
    ap.add_argument("--extra-parts", type=int, default=0,
                    help="also fit on the first K parts of training games in CACHE/feat/train_NN "
                         "(scripts/training_labels.sh; never held out, never in the validation part)")
    args = ap.parse_args()

    units, squares, board = [], {}, {}
    base_version, floor_q16, base_w = pm_weights.parse(args.base, units, squares, board)
    assert not board, "the base set has board units already"
    if args.squares:  # tables the base set lacks: zero to start with, so the base's scores are unchanged
        assert args.adjust and not squares, "--squares: with --adjust, for a base set without square tables"
        bounds = [int(v) for v in args.squares.split(",")]
        zero = [[[0] * 64 for _ in range(6)] for _ in range(len(bounds) + 1)]
        squares.update(bounds=bounds, to=zero, **{"from": zero})
    eps = floor_q16 / 65536
    names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(args.cache, "feat", "cat[123]_*.pos")))
    names += tpm.extra_parts(args.cache, args.extra_parts)
    pos, brd, base, moves, cat, teach, feat = [], [], [], [], [], [], []
    nf = len(pm_weights.feature_names(os.path.join(ROOT, "src/model/player_model.h")))
    for name in names:
        prefix = os.path.join(args.cache, "feat", name)
        p = np.fromfile(prefix + ".pos", dtype=tpm.POS_DTYPE)
        pos.append(p)
        brd.append(np.fromfile(prefix + ".board", dtype=np.uint8).reshape(-1, 64))
        base.append(np.fromfile(prefix + ".score", dtype="<i8"))
        moves.append(np.fromfile(prefix + ".moves", dtype="<u2"))
        if args.adjust:
            feat.append(np.fromfile(prefix + ".feat", dtype="<i2").reshape(-1, nf))
        if args.teacher:
            tprefix = os.path.join(args.teacher, "feat", name)
            assert np.array_equal(np.fromfile(tprefix + ".moves", dtype="<u2"), moves[-1]), name
            teach.append(np.fromfile(tprefix + ".score", dtype="<i8"))
        cat.append(np.full(len(p), list(tpm.CATS).index(name[:4]) if name[:4] in tpm.CATS else tpm.EXTRA))
    pos, brd, moves, cat = np.concatenate(pos), np.concatenate(brd), np.concatenate(moves), np.concatenate(cat)
    base = np.concatenate(base).astype(np.float64) * (math.log(2) / 65536)
    assert len(base) == pos["n"].sum() == len(moves) and len(brd) == len(pos)
    adjust = None
    if args.adjust:
        assert squares, "--adjust needs a base set with square tables"
        adjust = BaseAdjustment(np.concatenate(feat), np.repeat(pos["ply"], pos["n"]), moves, squares["bounds"])
        del feat
    teacher = None
    if args.teacher:
        n = pos["n"].astype(np.int64)
        starts = np.concatenate([[0], np.cumsum(n)[:-1]])
        teacher = softmax_within(np.concatenate(teach).astype(np.float64) * (math.log(2) / 65536), starts,
                                np.repeat(np.arange(len(n)), n))

    held, evalm = tpm.split_masks(pos, cat, tpm.sample_hashes(args.build, args.samples))
    valm = ~held & (cat != tpm.EXTRA) & (((pos["hash"] // np.uint64(5)) % np.uint64(4)) == 0)
    trainm = ~held & ~valm
    print("positions %d: fitted %d (from training games %d), validation %d, held-out %d"
          % (len(pos), trainm.sum(), (trainm & (cat == tpm.EXTRA)).sum(), valm.sum(), evalm.sum()), flush=True)
    dv = Positions(pos, brd, base, moves, cat, valm, adjust=adjust)

    tw = args.teacher_weight if args.teacher else 0.0
    model = (AdjustedBoardUnits(args.units, args.l2, tw, nf, adjust.n_tables) if adjust
             else BoardUnits(args.units, args.l2, tw))
    rng = np.random.default_rng(2)
    th0 = np.concatenate([rng.normal(0, 0.05, 1536 * args.units), np.zeros(args.units), rng.normal(0, 0.05, args.units)])
    if adjust:
        th0 = np.concatenate([th0, np.zeros(nf + adjust.n_tables)])
    if args.init:  # a saved fit's units (and its corrections, if it has them) as the start
        init = np.load(args.init)["theta"]
        th0[:len(init)] = init
    b0 = model.bits(dv, None, eps).mean()
    print("validation bits/move of the base set: %.4f" % b0, flush=True)
    best, it, t0 = [b0, None, 0], [0], time.time()

    def check(th):
        it[0] += 1
        if it[0] % 10 == 0:
            b = model.bits(dv, th, eps).mean()
            print("iteration %d (%.0f s): validation %.4f" % (it[0], time.time() - t0, b), flush=True)
            if b < best[0]:
                best[:] = [b, th.copy(), it[0]]
                if args.save:  # kept as it improves: a fit killed on a deadline still has it (--load)
                    np.savez(args.save, theta=th, iteration=it[0])

    if args.load:  # a fit saved by --save: only the held-out figures and the weights file
        saved = np.load(args.load)
        th, best[2] = saved["theta"], int(saved["iteration"])
        print("validation %.4f with the fit of %s" % (model.bits(dv, th, eps).mean(), args.load))
    else:
        dt = Positions(pos, brd, base, moves, cat, trainm, teacher, adjust)
        try:
            r = minimize(model.fit_loss_grad, th0, args=(dt,), jac=True, method="L-BFGS-B", callback=check,
                         options={"maxiter": args.iters})
            print(r.message, end="; ")
        except KeyboardInterrupt:  # SIGINT: stop here and keep the best iteration so far
            print("interrupted at iteration %d" % it[0], end="; ")
        print("best validation at iteration %d" % best[2])
        th = best[1]
        if th is None:
            sys.exit("no iteration improved on the base set")
        if args.save:
            np.savez(args.save, theta=th, iteration=best[2])
        del dt

    de = Positions(pos, brd, base, moves, cat, evalm, adjust=adjust)
    before, after = model.bits(de, None, eps), model.bits(de, th, eps)
    print("held-out bits/move (float model), base set -> with board units:")
    for c, cname in enumerate(tpm.CATS.values()):
        sel = de.cat == c
        print("| %s | %d | %.3f | %.3f |" % (cname, sel.sum(), before[sel].mean(), after[sel].mean()))

    if not args.no_write:
        existing = [pm_weights.parse(p)[0] for p in glob.glob(os.path.join(ROOT, "data/player_model/weights-v*.txt"))]
        version = args.version or max(existing) + 1
        head = [line[2:].rstrip("\n") for line in open(args.base) if line.startswith("# ")]
        comments = head + ["Board units (%d, Q16 pre-activations, outputs Q16 log2 units) added to weight set v%d by"
                           % (args.units, base_version),
                           "scripts/train_board_units.py (%d fitted positions%s; iteration %d, the best on the"
                           % (trainm.sum(), ", %d parts of training games among them" % args.extra_parts
                              if args.extra_parts else "", best[2]),
                           "validation part of the training games%s). See data/player_model/PROVENANCE."
                           % ("; scores from " + args.scores_from if args.scores_from else "")]
        if adjust:
            dw, dtab = model.corrections(th)
            base_w = [w + int(round(d / math.log(2) * 65536)) for w, d in zip(base_w, dw / adjust.scale)]
            q = np.round(dtab / math.log(2) * 65536).astype(np.int64).reshape(2, len(squares["bounds"]) + 1, 6, 64)
            for k, kind in enumerate(("to", "from")):
                squares[kind] = (np.array(squares[kind]) + q[k]).tolist()
            comments.append("The linear weights of v%d corrected and square tables (ply buckets split at %s) %s in the same fit."
                            % (base_version, ",".join(map(str, squares["bounds"])),
                               "fitted from zero" if args.squares else "corrected"))
        if args.teacher:
            comments.append("Fitted to the played moves (weight %.2f) and to a teacher's distribution over the moves"
                            % (1 - args.teacher_weight))
            comments.append("(weight %.2f): %s." % (args.teacher_weight, args.teacher_name or args.teacher))
        h = pm_weights.write(version, floor_q16, base_w, comments=comments, root=ROOT, units=units or None,
                             squares=(squares["bounds"], squares["to"], squares["from"]) if squares else None,
                             board=quantise(model, th[:sum(model.sizes)]))
        print("wrote data/player_model/weights-v%d.txt, hash %016x; to build it in, add to player_weight_sets in "
              "src/model/meson.build:\n%s" % (version, h, pm_weights.pin_line(version, ROOT)))


if __name__ == "__main__":
    main()
