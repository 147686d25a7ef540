#!/usr/bin/python3
"""Fits an opening book's weight table (src/model/opening_book.h: a x 16 by cell of count,
ply, rating and time control; 0: the book is not mixed there) on the training part of
../shared/corpus, from the per-position costs `ucizip-book-fit` writes (the codec's own
integer frequencies, the book mixed in at each weight of its grid), and reports what a
table gives on any other outputs of the tool.

    scripts/opening_book_fit.py --fit TRAIN.cost... [--min-positions 50] > TABLE
    scripts/opening_book_fit.py --table TABLE --report NAME=FILE.cost...

A cell takes the weight that minimises the bits of its own training positions, or no
book when none saves anything; a cell with fewer than --min-positions positions takes the
choice of its (count, ply) group, pooled over ratings and time controls, and a group that
small that of its count bucket. The book's cells are its own: the corpus games are not in
the training games the book is made of, so no count needs taking out. Needs only the
standard library."""
import argparse
import collections
import sys

# ucizip-book-fit's grid of a16 (tools/book_fit.c)
GRID = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 1024, 2048, 4096, 16384, 65536]
COUNT_B, PLY_B, ELO_B, TC_B = 8, 5, 5, 4


def read_costs(paths):
    """Per position: (cell, base bits, [bits at each grid weight]) with cell -1 when the book
    does not hold the position."""
    for path in paths:
        with open(path) as f:
            for line in f:
                v = line.split()
                cell = int(v[3])
                yield cell, float(v[5]), [float(x) for x in v[6:]] if cell >= 0 else None


def best_choice(base, sums):
    """The a16 (0: no book) with the fewest bits."""
    k = min(range(len(GRID)), key=lambda i: sums[i])
    return GRID[k] if sums[k] < base else 0


def fit(paths, min_positions):
    n = collections.Counter()
    base = collections.defaultdict(float)
    sums = collections.defaultdict(lambda: [0.0] * len(GRID))
    for cell, b, bits in read_costs(paths):
        if cell < 0:
            continue
        c, rest = divmod(cell, PLY_B * ELO_B * TC_B)
        p = rest // (ELO_B * TC_B)
        for key in (("cell", cell), ("group", c, p), ("count", c)):
            n[key] += 1
            base[key] += b
            s = sums[key]
            for i, x in enumerate(bits):
                s[i] += x
    table = []
    for cell in range(COUNT_B * PLY_B * ELO_B * TC_B):
        c, rest = divmod(cell, PLY_B * ELO_B * TC_B)
        p = rest // (ELO_B * TC_B)
        for key in (("cell", cell), ("group", c, p), ("count", c)):
            if n[key] >= min_positions:
                table.append(best_choice(base[key], sums[key]))
                break
        else:
            table.append(0)
    return table


def write_table(table):
    lines = []
    per = ELO_B * TC_B
    for c in range(COUNT_B):
        for p in range(PLY_B):
            i = (c * PLY_B + p) * per
            lines.append("alpha16 %d %d %s" % (c, p, " ".join(str(v) for v in table[i:i + per])))
    return "\n".join(lines) + "\n"


def read_table(path):
    table = [0] * (COUNT_B * PLY_B * ELO_B * TC_B)
    for line in open(path):
        v = line.split()
        if v and v[0] == "alpha16":
            c, p = int(v[1]), int(v[2])
            i = (c * PLY_B + p) * ELO_B * TC_B
            table[i:i + ELO_B * TC_B] = [int(x) for x in v[3:]]
    return table


def report(table, name, paths):
    n = hits = 0
    base = mixed = 0.0
    for cell, b, bits in read_costs(paths):
        n += 1
        base += b
        if cell >= 0:
            hits += 1
            a = table[cell]
            mixed += bits[GRID.index(a)] if a else b
        else:
            mixed += b
    print("%-12s positions %7d in the book %6.1f%%  bits/position %.4f -> %.4f (%+.4f)"
          % (name, n, 100.0 * hits / max(n, 1), base / max(n, 1), mixed / max(n, 1), (mixed - base) / max(n, 1)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fit", nargs="+")
    ap.add_argument("--min-positions", type=int, default=50)
    ap.add_argument("--table")
    ap.add_argument("--report", nargs="+", default=[])
    args = ap.parse_args()
    if args.fit:
        sys.stdout.write(write_table(fit(args.fit, args.min_positions)))
    elif args.table:
        table = read_table(args.table)
        for spec in args.report:
            name, paths = spec.split("=", 1)
            report(table, name, paths.split(","))
    else:
        ap.error("--fit or --table")


if __name__ == "__main__":
    main()
