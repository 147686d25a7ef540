#!/usr/bin/python3
"""A policy over the board, measured offline: a network that reads the board and scores
every legal move, trained to predict the move a human played, then mixed into the
player model's scores as one more term, p ~ 2^(s/65536 + beta * log2 p_policy), with
beta fitted on the corpus's training part. Floating point, numpy only: this measures
what such a policy would gain before any integer version is built into the codec.

    ucizip-features GAMES.pgn --boards-only --out TRAIN/NAME      (the training games)
    ucizip-features CORPUS.pgn --scores DUMP --weights SET --out EVAL/NAME
    scripts/policy_experiment.py --train TRAIN/human-otb ... --eval EVAL [--hidden 128]
        [--positions N] [--epochs E] [--save NET.npz | --load NET.npz]

The network: the board as 768 one-hot inputs (12 piece kinds x 64 squares, seen from the
mover), a hidden layer of ReLU units, and each move (its piece, from and to square) an
output vector and a bias: logit = hidden . V[move] + c[move]. Prints the training loss as
it goes, then for every category of the corpus (cat1 amateur, cat2 master, cat3 engine):
bits per position of the player model alone, of the policy alone and of the two mixed,
on the training part (where beta is fitted) and on the held-out part (FNV-1a 64 of the
game 0 mod 5, tools/game_split.h).
Needs python3-numpy and python3-scipy (Debian)."""
import argparse
import glob
import os
import sys
import time

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_player_model as tpm  # noqa: E402

N_MOVE_KEYS = 7 << 12  # piece type (1..6) << 12 | from << 6 | to


class Positions:
    """Boards, moves and the played move of cached positions (ucizip-features' files)."""

    def __init__(self, prefixes, keep=None, seed=1):
        # memory-mapped: the training games' 30 million positions take 5.5 GB on disk
        pos, boards, moves = [], [], []
        for p in prefixes:
            pos.append(np.memmap(p + ".pos", dtype=tpm.POS_DTYPE, mode="r"))
            boards.append(np.memmap(p + ".board", dtype=np.uint8, mode="r").reshape(-1, 64))
            moves.append(np.memmap(p + ".moves", dtype="<u2", mode="r"))
        one = len(prefixes) == 1
        self.pos = pos[0] if one else np.concatenate(pos)
        self.board = boards[0] if one else np.concatenate(boards)
        self.moves = moves[0] if one else np.concatenate(moves)
        self.n = np.asarray(self.pos["n"], dtype=np.int64)
        self.start = np.concatenate([[0], np.cumsum(self.n)[:-1]])
        self.played = np.asarray(self.pos["played"], dtype=np.int64)
        self.idx = np.arange(len(self.pos))
        if keep is not None and keep < len(self.idx):
            self.idx = np.sort(np.random.default_rng(seed).choice(self.idx, keep, replace=False))

    def batch(self, sel):
        """The positions sel: sparse board inputs, their moves, each move's position and the
        played moves' indices into the moves."""
        b = self.board[sel]
        r, c = np.nonzero(b)
        x = sp.csr_matrix((np.ones(len(r), np.float32), (r, (b[r, c].astype(np.int64) - 1) * 64 + c)),
                          shape=(len(sel), 768))
        n = self.n[sel]
        offs = np.concatenate([[0], np.cumsum(n)])
        pos_of = np.repeat(np.arange(len(sel)), n)
        mv = self.moves[np.repeat(self.start[sel] - offs[:-1], n) + np.arange(offs[-1])].astype(np.int64)
        return x, mv, pos_of, offs, offs[:-1] + self.played[sel]


class Net:
    def __init__(self, hidden, seed=2):
        rng = np.random.default_rng(seed)
        self.w1 = (rng.standard_normal((768, hidden)) * 0.1).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.v = (rng.standard_normal((N_MOVE_KEYS, hidden)) * 0.01).astype(np.float32)
        self.c = np.zeros(N_MOVE_KEYS, np.float32)
        self.params = ["w1", "b1", "v", "c"]

    def logits(self, x, mv, pos_of):
        a = x @ self.w1 + self.b1
        h = np.maximum(a, 0)
        hm = h[pos_of]
        vm = self.v[mv]
        return a, h, hm, vm, np.einsum("ij,ij->i", hm, vm) + self.c[mv]

    def log_softmax(self, z, offs):
        zmax = np.maximum.reduceat(z, offs[:-1])
        pos_of = np.repeat(np.arange(len(offs) - 1), np.diff(offs))
        e = np.exp(z - zmax[pos_of])
        s = np.add.reduceat(e, offs[:-1])
        return z - zmax[pos_of] - np.log(s)[pos_of], e / s[pos_of]

    def step(self, data, sel, opt, lr):
        x, mv, pos_of, offs, target = data.batch(sel)
        a, h, hm, vm, z = self.logits(x, mv, pos_of)
        logp, p = self.log_softmax(z, offs)
        loss = -logp[target].mean()
        g = p
        g[target] -= 1
        g /= len(sel)
        grads = {}
        grads["c"] = np.bincount(mv, g, minlength=N_MOVE_KEYS).astype(np.float32)
        scatter = sp.csr_matrix((np.ones(len(mv), np.float32), (mv, np.arange(len(mv)))),
                                shape=(N_MOVE_KEYS, len(mv)))
        grads["v"] = np.asarray(scatter @ (g[:, None] * hm), dtype=np.float32)
        gh = np.add.reduceat(g[:, None] * vm, offs[:-1], axis=0)
        ga = gh * (a > 0)
        grads["w1"] = np.asarray(x.T @ ga, dtype=np.float32)
        grads["b1"] = ga.sum(axis=0)
        opt.update(self, grads, lr)
        return loss / np.log(2)

    def save(self, path):
        np.savez(path, **{k: getattr(self, k) for k in self.params})

    def load(self, path):
        d = np.load(path)
        for k in self.params:
            setattr(self, k, d[k])


class Adam:
    def __init__(self, net):
        self.m = {k: np.zeros_like(getattr(net, k)) for k in net.params}
        self.s = {k: np.zeros_like(getattr(net, k)) for k in net.params}
        self.t = 0

    def update(self, net, grads, lr, b1=0.9, b2=0.999):
        self.t += 1
        for k, g in grads.items():
            self.m[k] *= b1
            self.m[k] += (1 - b1) * g
            self.s[k] *= b2
            self.s[k] += (1 - b2) * g * g
            mh = self.m[k] / (1 - b1 ** self.t)
            sh = self.s[k] / (1 - b2 ** self.t)
            getattr(net, k)[...] -= lr * mh / (np.sqrt(sh) + 1e-8)


def policy_log2p(net, data, chunk=4096):
    """log2 of the policy's probability of every move of data's positions (in data's move order)."""
    out = np.empty(len(data.moves), np.float64)
    for i in range(0, len(data.pos), chunk):
        sel = np.arange(i, min(i + chunk, len(data.pos)))
        x, mv, pos_of, offs, _ = data.batch(sel)
        z = net.logits(x, mv, pos_of)[-1].astype(np.float64)
        logp, _ = net.log_softmax(z, offs)
        out[data.start[sel[0]]:data.start[sel[0]] + offs[-1]] = logp / np.log(2)
    return out


def mixed_bits(s2, lp, data, beta, floor):
    """Bits of the played moves with p ~ 2^(s2 + beta * lp), the floor mixed in as the codec does."""
    z = s2 + beta * lp
    offs = np.concatenate([data.start, [len(z)]])
    zmax = np.maximum.reduceat(z, offs[:-1])
    pos_of = np.repeat(np.arange(len(data.pos)), data.n)
    e = np.exp2(z - zmax[pos_of])
    p = e / np.add.reduceat(e, offs[:-1])[pos_of]
    p = (1 - floor) * p + floor / data.n[pos_of]
    return -np.log2(p[data.start + data.played])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="*", default=[])
    ap.add_argument("--eval", required=True)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--positions", type=int, default=4_000_000)
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--floor", type=float, default=0.01)
    ap.add_argument("--save")
    ap.add_argument("--load")
    args = ap.parse_args()
    net = Net(args.hidden)
    if args.load:
        net.load(args.load)
    else:
        data = Positions(args.train, keep=args.positions)
        print("training positions: %d of %d" % (len(data.idx), len(data.pos)), flush=True)
        opt = Adam(net)
        rng = np.random.default_rng(3)
        steps = int(args.epochs * len(data.idx) / args.batch)
        t0, run = time.time(), []
        for s in range(steps):
            if s % (len(data.idx) // args.batch) == 0:
                order = rng.permutation(data.idx)
            k = s % (len(data.idx) // args.batch)
            lr = args.lr * min(1.0, 2.0 * (1 - s / steps))  # decays linearly over the last half
            run.append(net.step(data, order[k * args.batch:(k + 1) * args.batch], opt, lr))
            if (s + 1) % 500 == 0:
                print("step %d/%d: %.4f bits (%.0f s)" % (s + 1, steps, np.mean(run), time.time() - t0), flush=True)
                run = []
                if args.save:
                    net.save(args.save)
        if args.save:
            net.save(args.save)
    # Evaluation on the corpus: the model's scores from ucizip-features (.score, 1/65536 bit units).
    print("| category | part | positions | player model | policy alone | mixed (beta) |")
    print("|---|---|---|---|---|---|")
    for cat, name in tpm.CATS.items():
        prefixes = sorted(p[:-4] for p in glob.glob(os.path.join(args.eval, cat + "_*.pos")))
        data = Positions(prefixes)
        s2 = np.concatenate([np.fromfile(p + ".score", dtype="<i8") for p in prefixes]) / 65536.0
        lp = policy_log2p(net, data)
        held = data.pos["hash"] % np.uint64(5) == 0
        betas = np.arange(0, 1.51, 0.05)
        train_bits = [mixed_bits(s2, lp, data, b, args.floor)[~held].mean() for b in betas]
        beta = betas[int(np.argmin(train_bits))]
        for part, sel in (("training", ~held), ("held-out", held)):
            base = mixed_bits(s2, lp, data, 0.0, args.floor)[sel].mean()
            pol = -lp[data.start + data.played][sel].mean()
            mix = mixed_bits(s2, lp, data, beta, args.floor)[sel].mean()
            print("| %s | %s | %d | %.3f | %.3f | %.3f (%.2f) |" % (name, part, sel.sum(), base, pol, mix, beta),
                  flush=True)


if __name__ == "__main__":
    main()
