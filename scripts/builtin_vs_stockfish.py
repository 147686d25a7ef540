#!/usr/bin/env python3
"""Agreement of the builtin's scores with Stockfish's at depth 1, on positions written by
`ucizip-bench-builtin --fens FILE` ("FEN<TAB>uci:score ..." per line): how often the two
best moves are the same (ties in the builtin's best score count as a match if any tied
move is Stockfish's best), and the mean Spearman rank correlation of the two score lists
per position. Stockfish is asked as the codec asks it (ucinewgame, MultiPV = all moves,
go depth 1).

Usage: scripts/builtin_vs_stockfish.py FENS.txt [--engine /usr/games/stockfish] [--depth 1]
                                        [--cache FILE.json]
(--cache keeps Stockfish's scores by FEN, to compare several builtin versions on the same
positions without asking Stockfish again.)
"""
import argparse
import json
import os
import subprocess


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5 if va > 0 and vb > 0 else None


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Hash value 1")
        self.send("setoption name Threads value 1")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def scores(self, fen, n, depth):
        self.send("ucinewgame")
        self.send("setoption name MultiPV value %d" % n)
        self.send("isready")
        self.wait("readyok")
        self.send("position fen " + fen)
        self.send("go depth %d" % depth)
        out = {}
        for line in self.wait("bestmove"):
            t = line.split()
            if t[:1] != ["info"] or "pv" not in t or "score" not in t or "depth" not in t:
                continue
            if int(t[t.index("depth") + 1]) != depth:
                continue
            s = t.index("score")
            kind, val = t[s + 1], int(t[s + 2])
            score = val if kind == "cp" else (100000 - val if val > 0 else -100000 - val)
            out[t[t.index("pv") + 1]] = score
        return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fens")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--cache")
    args = ap.parse_args()
    cache = {}
    if args.cache and os.path.exists(args.cache):
        cache = json.load(open(args.cache))
    eng = None
    n_pos = same_best = 0
    rhos = []
    for line in open(args.fens):
        fen, moves = line.rstrip("\n").split("\t")
        ours = {m: int(s) for m, s in (x.rsplit(":", 1) for x in moves.split())}
        if fen not in cache:
            eng = eng or Engine(args.engine)
            cache[fen] = eng.scores(fen, len(ours), args.depth)
        theirs = cache[fen]
        if set(theirs) != set(ours):
            continue  # Stockfish left a move out (should not happen): not comparable
        n_pos += 1
        top = max(ours.values())
        sf_best = max(theirs, key=lambda m: theirs[m])
        same_best += ours[sf_best] == top
        keys = sorted(ours)
        rho = spearman([ours[k] for k in keys], [theirs[k] for k in keys])
        if rho is not None:
            rhos.append(rho)
    print("positions %d: best move = Stockfish depth-%d best in %.1f%%, mean Spearman rho %.3f"
          % (n_pos, args.depth, 100.0 * same_best / max(n_pos, 1), sum(rhos) / max(len(rhos), 1)))
    if eng:
        eng.send("quit")
    if args.cache:
        json.dump(cache, open(args.cache, "w"))


if __name__ == "__main__":
    main()
