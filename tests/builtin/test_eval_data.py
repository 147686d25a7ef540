#!/usr/bin/env python3
"""The learned evaluation's training data, judged by Stockfish: ucizip-positions on real
master games writes each game position with every legal move's child (Stockfish's `go
perft 1` lists the same moves, and the position after each is one we wrote, by
Stockfish's own FEN), boards that agree with the FENs, the in-check flag as Stockfish's
checkers say, one evaluation per position, and only the chosen part of the corpus;
scripts/eval_labels.py labels positions with the real engine. builtin-3's network, as
the C code computes it, agrees with this test's own arithmetic on its weights file
(data/eval_net/) on those boards."""
import array
import os
import subprocess
import sys
import tempfile

POSITIONS = sys.argv[1]
SRC = os.environ["UZ_SRC_ROOT"]
sys.path.insert(0, os.path.join(SRC, "tests", "cli"))
from harness import check, corpus, summary  # noqa: E402
from harness import run_cmd as run  # noqa: E402

STOCKFISH = "/usr/games/stockfish"
PIECES = "PNBRQK"


class Engine:
    def __init__(self):
        self.p = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.ask("uci", "uciok")

    def ask(self, text, last):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()
        lines = []
        for line in iter(self.p.stdout.readline, ""):
            lines.append(line.rstrip("\n"))
            if line.startswith(last):
                return lines
        raise RuntimeError("Stockfish ended")

    def moves(self, fen):
        lines = self.ask("position fen %s\ngo perft 1" % fen, "Nodes searched")
        return [line.split(":")[0] for line in lines if ":" in line and not line.startswith("Nodes")]

    def show(self, fen, move=None):
        """(FEN, in check) of fen, or of the position after move, as Stockfish writes them."""
        lines = self.ask("position fen %s%s\nd" % (fen, " moves " + move if move else ""), "Checkers")
        return [line[5:] for line in lines if line.startswith("Fen: ")][0], lines[-1].strip() != "Checkers:"


def read_array(kind, path):
    """A file of little-endian int16 ("h") or int32 ("i") values."""
    a = array.array(kind)
    a.frombytes(open(path, "rb").read())
    if sys.byteorder != "little":
        a.byteswap()
    return a


def board_of(fen):
    """The 64 squares seen from the side to move, as tools/positions.c writes them."""
    rows, side = fen.split()[0].split("/"), fen.split()[1]
    squares = [0] * 64
    for r, row in enumerate(rows):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
                continue
            sq = (7 - r) * 8 + f
            white = c.isupper()
            kind = PIECES.index(c.upper()) + 1 + (0 if white == (side == "w") else 6)
            squares[sq ^ (56 if side == "b" else 0)] = kind
            f += 1
    return squares


def network_outputs(weights, boards):
    """The 768-H-1 network of a weights file on 65-byte boards, as doc/builtin.md specifies
    it: hidden sums clipped to [0, 127], output / (127 * 64) toward zero, +-20000."""
    sys.path.insert(0, os.path.join(SRC, "scripts"))
    from eval_net_c import read_weights
    w1, b1, w2, b2 = read_weights(open(weights).read(), 512)
    outputs = []
    for board in boards:
        sums = list(b1)
        for sq in range(64):
            if board[sq]:
                row = w1[(board[sq] - 1) * 64 + sq]
                sums = [a + b for a, b in zip(sums, row)]
        out = b2 + sum(min(max(a, 0), 127) * w for a, w in zip(sums, w2))
        v = abs(out) // (127 * 64) * (1 if out >= 0 else -1)
        outputs.append(max(-20000, min(20000, v)))
    return outputs


def main():
    tmp = tempfile.mkdtemp(prefix="ucizip-eval-data-")
    games = corpus("cat2_tata_steel_2022_masters.pgn")
    out = {k: os.path.join(tmp, "train." + k) for k in ("txt", "bin", "i16", "grp")}
    out["net"] = os.path.join(tmp, "train.net")
    run([POSITIONS, "--children", "--every", "40", "--fens", out["txt"], "--boards", out["bin"], "--evals",
         out["i16"], "--network", out["net"], "--groups", out["grp"], games])
    fens = open(out["txt"]).read().split("\n")[:-1]
    raw = open(out["bin"], "rb").read()
    boards = [raw[i:i + 65] for i in range(0, len(raw), 65)]
    evals = read_array("h", out["i16"])
    check(len(fens) == len(boards) == len(evals) and len(fens) > 500, "one board and evaluation per FEN")
    check(len(set(fens)) == len(fens), "every position written once")
    check(all(list(boards[i][:64]) == board_of(fens[i]) for i in range(len(fens))), "boards agree with the FENs")
    network = read_array("h", out["net"])
    ours = network_outputs(os.path.join(SRC, "data", "eval_net", "builtin3-768x512.txt"), boards[:300])
    check(len(network) == len(fens) and list(network[:300]) == ours,
          "builtin-3's network as this test computes it: %s against %s" % (list(network[:8]), ours[:8]))
    check(len(set(ours)) > 100, "the network's outputs vary")

    sf = Engine()
    groups, g = [], read_array("i", out["grp"])
    i = 0
    while i < len(g):
        groups.append((g[i + 1], list(g[i + 2:i + 2 + g[i]])))
        i += 2 + g[i]
    check(len(groups) > 20, "game positions grouped with their children")
    fields = lambda fen: fen.split()[:3]  # noqa: E731  (board, side, castling)
    for parent, children in groups[:25]:
        moves = sf.moves(fens[parent])
        check(len(moves) == len(children), "%s: %d children, Stockfish %d moves" % (fens[parent], len(children),
                                                                                      len(moves)))
        ours = sorted(fields(fens[c]) for c in children)
        theirs = sorted(fields(sf.show(fens[parent], m)[0]) for m in moves)
        check(ours == theirs, "%s: the children are the positions after Stockfish's moves" % fens[parent])
    in_check = [i for i in range(0, len(fens), 7)]
    check(all(bool(boards[i][64] & 1) == sf.show(fens[i])[1] for i in in_check), "in-check flags as Stockfish's")
    check(any(b[64] & 1 for b in boards), "some positions in check")
    check(any(b[64] & 4 for b in boards) and not all(b[64] & 4 for b in boards), "quiet flags both ways")

    # The split: the training and held-out parts' game positions add up to every game's.
    counts = {}
    for split in ("train", "held-out", "all"):
        p = run([POSITIONS, "--split", split, "--fens", os.path.join(tmp, split + ".txt"), games])
        counts[split] = int(p.stderr.decode().split(": ")[1].split()[0])
    check(counts["train"] > 0 and counts["held-out"] > 0 and counts["train"] + counts["held-out"] == counts["all"],
          "training and held-out parts split the games: %s" % counts)

    # Labels from the real engine: every position labelled, in range, the side to move's view.
    some = os.path.join(tmp, "some.txt")
    open(some, "w").write("\n".join(fens[:40]) + "\n")
    labels = os.path.join(tmp, "some.i16")
    run([sys.executable, os.path.join(SRC, "scripts", "eval_labels.py"), some, "--out", labels, "--engine", STOCKFISH,
         "--depth", "2", "--jobs", "2"])
    lab = read_array("h", labels)
    check(len(lab) == 40 and all(abs(v) <= 20000 for v in lab), "labels: %s" % lab)
    # A side to move a queen up is ahead: the label is from its view.
    up = os.path.join(tmp, "up.txt")
    open(up, "w").write("4k3/8/8/8/8/8/8/3QK3 w - - 0 1\n4k3/8/8/8/8/8/8/3QK3 b - - 0 1\n")
    run([sys.executable, os.path.join(SRC, "scripts", "eval_labels.py"), up, "--out", labels, "--engine", STOCKFISH,
         "--depth", "2", "--jobs", "1"])
    lab = read_array("h", labels)
    check(lab[0] > 500 and lab[1] < -500, "labels from the side to move's view: %s" % lab)
    sys.exit(summary())


if __name__ == "__main__":
    main()
