#!/usr/bin/python3
"""Trains small learned evaluations on engine-labelled positions and measures them beside
builtin-1's hand-written evaluation: the frontier of doc/builtin_measurements.md ("A
learned evaluation at scale").

Usage: scripts/train_eval_net.py --boards B.bin --labels L.i16 [--evals E.i16]
                                 [--valid VB.bin,VL.i16,VE.i16] [--quiet]
                                 [--hidden 0,32,64,128] [--epochs 12] [--seconds 60]
                                 [--out-dir DIR] [--device cuda|cpu]

B.bin and E.i16 come from tools/positions.c (65-byte boards seen from the side to move,
builtin-1's static evaluation), L.i16 from scripts/eval_labels.py. Positions in check,
unlabelled ones and labels beyond +-2000 centipawns (mates, won games) are left out, and
with --quiet those where the side to move can win material at once (a search evaluates
only such quiet positions statically: its quiescence search plays the captures).
The validation part: the positions of --valid (three files as above, made from the
held-out games: `ucizip-positions --split held-out`), else a fixed 4.7 % of the positions
(by a hash of their index; children of one game position fall on both sides then).

Each network: 768 inputs (12 piece kinds x 64 squares, seen from the side to move) -> H
hidden units clipped to [0, 1] -> one output in centipawns; H = 0 is the linear model
(piece-square tables alone). Trained with Adam on the squared error of the win
probability, sigmoid(score / 300), for --epochs or --seconds, whichever ends first (the
learning rate drops tenfold at 60 % and again at 90 % of the way). Each is then quantised
to integers as the search would run it (first layer x QA = 127 in int16, output x QB = 64,
the sum in int32) and measured quantised. Printed per model, on the validation part: the
root mean square error of the win probability and the mean absolute error in centipawns
(labels clipped to +-1000), and the same for builtin-1's evaluation (scaled by the
least-squares factor that suits it best, so only its shape is judged). The weights are
written to DIR/eval-net-H.txt.
Needs numpy and PyTorch (Debian: python3-numpy, python3-torch; a GPU where there is one).
doc/builtin_measurements.md ("A learned evaluation at scale") has the figures and the
commands."""
import argparse
import os
import sys
import time

import numpy as np

SCALE = 300.0   # centipawns of the win-probability sigmoid
QA, QB = 127, 64
MAX_LABEL = 2000
UNLABELLED = -32768


def load(boards_path, labels_path, evals_path, quiet):
    boards = np.fromfile(boards_path, dtype=np.uint8).reshape(-1, 65)
    labels = np.fromfile(labels_path, dtype=np.int16)
    if len(labels) != len(boards):
        sys.exit("%s and %s: %d boards, %d labels" % (boards_path, labels_path, len(boards), len(labels)))
    left_out = 1 | (4 if quiet else 0)  # flags: in check, not quiet (tools/positions.c)
    keep = (labels != UNLABELLED) & (np.abs(labels.astype(np.int32)) <= MAX_LABEL) & (boards[:, 64] & left_out == 0)
    evals = np.fromfile(evals_path, dtype=np.int16)[keep] if evals_path else None
    boards, labels = boards[keep, :64], labels[keep].astype(np.float32)
    # Active features: piece kind k (1..12) on square s -> (k - 1) * 64 + s; 768 pads.
    sq = np.arange(64, dtype=np.int32)
    feats = np.where(boards > 0, (boards.astype(np.int32) - 1) * 64 + sq, 768)
    feats.sort(axis=1)
    return feats[:, :32], labels, evals  # at most 32 pieces; the pads sort last


def load_split(args):
    """(training features, labels), (validation features, labels, builtin-1's evaluations)."""
    feats, labels, evals = load(args.boards, args.labels, args.evals, args.quiet)
    if args.valid:
        return (feats, labels), load(*args.valid.split(","), args.quiet)
    index = np.arange(len(labels), dtype=np.uint64)
    valid = ((index * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(58)) < np.uint64(3)  # 3 / 64 = 4.7 %
    return (feats[~valid], labels[~valid]), (feats[valid], labels[valid], evals[valid] if evals is not None else None)


def win_prob(cp):
    return 1.0 / (1.0 + np.exp(-np.asarray(cp, dtype=np.float64) / SCALE))


def report(name, pred, labels):
    err = win_prob(pred) - win_prob(labels)
    mae = np.mean(np.abs(np.clip(pred, -1000, 1000) - np.clip(labels, -1000, 1000)))
    print("| %s | %.4f | %.1f |" % (name, np.sqrt(np.mean(err * err)), mae), flush=True)


def quantised_eval(w1, b1, w2, b2, feats):
    """The integer network, exactly as a C search would compute it (int16 weights, int32 sums)."""
    w1q = np.vstack([np.round(w1 * QA), np.zeros((1, w1.shape[1]))]).astype(np.int32)
    b1q = np.round(b1 * QA).astype(np.int32)
    w2q = np.round(w2 * QB).astype(np.int32)
    b2q = int(np.round(b2 * QA * QB))
    out = np.empty(len(feats), dtype=np.int64)
    for i in range(0, len(feats), 65536):
        acc = w1q[feats[i:i + 65536]].sum(axis=1) + b1q
        total = np.clip(acc, 0, QA) @ w2q + b2q
        out[i:i + 65536] = np.sign(total) * (np.abs(total) // (QA * QB))  # C's division: toward zero
    return out, (w1q[:-1], b1q, w2q, b2q)


def linear_eval(w, b, feats):
    wq = np.append(np.round(w), 0).astype(np.int64)
    return wq[feats].sum(axis=1) + int(np.round(b)), (wq[:-1], int(np.round(b)))


def train(torch, hidden, train_part, valid_feats, args):
    dev = torch.device(args.device)
    torch.manual_seed(hidden)
    x = torch.from_numpy(train_part[0].astype(np.int64)).to(dev)
    y = torch.from_numpy(train_part[1]).to(dev)
    width = hidden if hidden else 1
    emb = torch.nn.EmbeddingBag(769, width, mode="sum", padding_idx=768).to(dev)
    bias1 = torch.zeros(width, device=dev, requires_grad=True)
    with torch.no_grad():
        emb.weight.normal_(0, 0.1 if hidden else 1.0)
        emb.weight[768].zero_()
    params = [emb.weight, bias1]
    if hidden:
        w2 = torch.nn.Parameter(torch.randn(hidden, device=dev) * 10)
        b2 = torch.zeros(1, device=dev, requires_grad=True)
        params += [w2, b2]
    opt = torch.optim.Adam(params, lr=args.lr)
    n, batch = len(y), args.batch
    steps = args.epochs * ((n + batch - 1) // batch)
    t0, step, epoch, progress = time.monotonic(), 0, 0, 0.0
    while progress < 1:
        perm = torch.randperm(n, device=dev)
        for i in range(0, n, batch):
            idx = perm[i:i + batch]
            acc = emb(x[idx]) + bias1
            out = (torch.clamp(acc, 0, 1) @ w2 + b2) if hidden else acc[:, 0]
            loss = torch.mean((torch.sigmoid(out / SCALE) - torch.sigmoid(y[idx] / SCALE)) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % 50 == 0 or step == steps:
                if args.device == "cuda":
                    torch.cuda.synchronize()
                progress = max(step / steps, (time.monotonic() - t0) / args.seconds if args.seconds else 0)
                for g in opt.param_groups:
                    g["lr"] = args.lr * (1.0 if progress < 0.6 else 0.1 if progress < 0.9 else 0.01)
                if progress >= 1:
                    break
        epoch += 1
    print("  H=%d: %d epochs, %d steps, %.0f s, last batch loss %.5f" % (
        hidden, epoch, step, time.monotonic() - t0, loss.item()), file=sys.stderr, flush=True)
    w1 = emb.weight.detach().cpu().numpy()[:768].astype(np.float64)
    b1 = bias1.detach().cpu().numpy().astype(np.float64)
    if not hidden:
        return linear_eval(w1[:, 0], b1[0], valid_feats)
    return quantised_eval(w1, b1, w2.detach().cpu().numpy().astype(np.float64), float(b2.item()), valid_feats)


def save(path, hidden, q):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("# learned evaluation: 768 -> %d -> 1, QA %d, QB %d (scripts/train_eval_net.py)\n" % (hidden, QA, QB))
        if hidden:
            w1q, b1q, w2q, b2q = q
            f.write("b1 %s\nw2 %s\nb2 %d\n" % (" ".join(map(str, b1q)), " ".join(map(str, w2q)), b2q))
            for i, row in enumerate(w1q):
                f.write("w1 %d %s\n" % (i, " ".join(map(str, row))))
        else:
            wq, b = q
            f.write("b %d\n" % b)
            for i, v in enumerate(wq):
                f.write("w %d %d\n" % (i, v))
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", required=True)
    ap.add_argument("--labels", required=True)
    ap.add_argument("--evals")
    ap.add_argument("--valid", help="BOARDS,LABELS,EVALS of the validation positions")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--hidden", default="0,32,64,128")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seconds", type=float, default=0, help="stop a model after this long (checked every 50 steps)")
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--out-dir", default=".")
    ap.add_argument("--device", default="cuda")
    args = ap.parse_args()
    import torch
    if args.device == "cuda" and not torch.cuda.is_available():
        args.device = "cpu"
    train_part, (vfeats, vlabels, vevals) = load_split(args)
    print("%d training positions, %d validation positions, device %s" % (
        len(train_part[1]), len(vlabels), args.device), flush=True)
    print("| evaluation | RMSE of the win probability | mean abs. error, cp |\n|---|---|---|")
    if vevals is not None:
        e = vevals.astype(np.float64)
        k = float(np.dot(e, vlabels) / np.dot(e, e))
        report("builtin-1 (hand-written) x %.3f" % k, e * k, vlabels)
    for hidden in [int(h) for h in args.hidden.split(",")]:
        pred, q = train(torch, hidden, train_part, vfeats, args)
        report("linear (piece-square tables)" if hidden == 0 else "768-%d-1" % hidden, pred, vlabels)
        save(os.path.join(args.out_dir, "eval-net-%d.txt" % hidden), hidden, q)


if __name__ == "__main__":
    main()
