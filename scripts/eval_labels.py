#!/usr/bin/python3
"""Labels positions with a UCI engine's search score, for training a learned evaluation
(scripts/train_eval_net.py). One persistent engine per worker, each position searched to a
fixed depth; the labels need not be deterministic (they are training data, not an oracle).

Usage: scripts/eval_labels.py FENS.txt --out LABELS.i16 [--engine /usr/games/stockfish]
                              [--depth 4] [--jobs N] [--seconds S]

FENS.txt: one FEN a line (tools/positions.c writes them). LABELS.i16: one int16 per FEN, in
the same order: the score from the side to move's view in centipawns, a mate as +-20000,
-32768 where the position was not labelled (--seconds ran out first: the positions are
labelled in blocks of 512, the blocks in a fixed shuffled order, so that a part labelled
is spread over every input file). A line per minute
on stderr says how far it got."""
import argparse
import array
import multiprocessing
import os
import random
import subprocess
import sys
import time

UNLABELLED = -32768
MATE = 20000
BLOCK = 512

_engine = None


def _start(path):
    global _engine
    _engine = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    _send("uci\nsetoption name Threads value 1\nsetoption name Hash value 16\nucinewgame\nisready")
    while _engine.stdout.readline().strip() != "readyok":
        pass


def _send(text):
    _engine.stdin.write(text + "\n")
    _engine.stdin.flush()


def _label_block(job):
    start, fens, depth = job
    out = array.array("h", [UNLABELLED]) * len(fens)
    for i, fen in enumerate(fens):
        _send("position fen %s\ngo depth %d" % (fen, depth))
        score = None
        for line in iter(_engine.stdout.readline, ""):
            if line.startswith("info ") and " score " in line:
                kind, value = line.split(" score ", 1)[1].split()[:2]
                score = int(value) if kind == "cp" else (MATE if int(value) > 0 else -MATE)
            elif line.startswith("bestmove"):
                break
        if score is not None:  # none: no legal move (the tools write no such position)
            out[i] = max(-MATE, min(MATE, score))
    return start, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fens")
    ap.add_argument("--out", required=True)
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long (0: label every position)")
    args = ap.parse_args()
    fens = open(args.fens).read().split("\n")
    if fens and fens[-1] == "":
        fens.pop()
    labels = array.array("h", [UNLABELLED]) * len(fens)
    starts = list(range(0, len(fens), BLOCK))
    random.Random(0).shuffle(starts)
    jobs = ((i, fens[i:i + BLOCK], args.depth) for i in starts)
    t0 = last = time.monotonic()
    done = 0
    with multiprocessing.Pool(args.jobs, initializer=_start, initargs=(args.engine,)) as pool:
        for start, out in pool.imap_unordered(_label_block, jobs):
            labels[start:start + len(out)] = out
            done += len(out)
            now = time.monotonic()
            if now - last >= 60:
                print("%d of %d positions, %.0f a second" % (done, len(fens), done / (now - t0)), file=sys.stderr)
                last = now
            if args.seconds and now - t0 >= args.seconds:
                pool.terminate()
                break
    spent = time.monotonic() - t0
    tmp = args.out + ".tmp"
    if sys.byteorder != "little":
        labels.byteswap()
    with open(tmp, "wb") as f:
        labels.tofile(f)
    os.replace(tmp, args.out)
    print("%s: %d of %d positions labelled at depth %d in %.0f s (%.0f a second, %d workers)" % (
        args.out, len(fens) - labels.count(UNLABELLED), len(fens), args.depth, spent, done / spent, args.jobs))


if __name__ == "__main__":
    main()
