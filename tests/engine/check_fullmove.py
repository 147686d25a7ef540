#!/usr/bin/env python3
"""Checks, with raw UCI and no bridge in between, that Stockfish's depth-limited
MultiPV scores do not depend on the FEN's fullmove number (the bridge normalises it
to 1 and leaves it out of the cache key). Usage: check_fullmove.py [ENGINE [DEPTH [N]]]."""
import os
import subprocess
import sys

engine = sys.argv[1] if len(sys.argv) > 1 else "/usr/games/stockfish"
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 8
count = int(sys.argv[3]) if len(sys.argv) > 3 else 12
data = os.environ.get("UZ_TEST_DATA", "tests/data")
with open(os.path.join(data, "engine", "positions.epd")) as f:
    fens = [l.strip() for l in f if l.strip() and not l.startswith("#")]
fens = fens[:: max(1, len(fens) // count)][:count]

p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(cmd):
    p.stdin.write(cmd + "\n")
    p.stdin.flush()


def wait_for(prefix):
    lines = []
    for line in p.stdout:
        lines.append(line.rstrip("\r\n"))
        if line.startswith(prefix):
            return lines
    sys.exit("engine ended unexpectedly")


def scores(fen):
    send("ucinewgame")
    send("isready")
    wait_for("readyok")
    send("position fen " + fen)
    send("go depth %d" % depth)
    result = {}
    for line in wait_for("bestmove"):
        t = line.split()
        if t[:1] == ["info"] and "multipv" in t and "pv" in t and int(t[t.index("depth") + 1]) == depth:
            s = t.index("score")
            result[t[t.index("pv") + 1]] = " ".join(t[s + 1:s + 3])
    return result


send("uci")
wait_for("uciok")
send("setoption name Threads value 1")
send("setoption name Hash value 16")
send("setoption name MultiPV value 500")
bad = 0
for fen in fens:
    head = fen.rsplit(" ", 1)[0]
    runs = [scores("%s %d" % (head, n)) for n in (1, 40, 117)]
    if not runs[0] or any(r != runs[0] for r in runs[1:]):
        bad += 1
        print("differs:", fen)
send("quit")
p.wait()
print("%d positions, fullmove 1 / 40 / 117 at depth %d: %d differing" % (len(fens), depth, bad))
sys.exit(1 if bad else 0)
