#!/usr/bin/python3
"""Coded clocks across revisions of the comment models (doc/format.md, "Coded comments" and
"Clock code"): tests/data/clocks/fixture_clocks_rev2.ucz, written by ucizip before header key
17 existed (structure version 3: three chess.com games with 0.1 s clocks and a cutechess game,
so the clocks in revision 2's models), and fixture_clocks_rev3.ucz, the same file written by
ucizip at aabc2b9 (structure version 4, key 17 = 3: clocks by think time in the structure
stream), still decode byte for byte, whole and game by game; revision 3's clocks take fewer
bytes than revision 2's. The same file compressed now (revision 4: main-line clocks coded
after the moves, whose games decode game by game only after the ones before them) decodes
byte for byte too, whole and game by game. Built-in oracle (--engine builtin): the subject is
the structure stream.

Usage: test_clock_fixtures.py UCIZIP"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run, summary, use  # noqa: E402

DATA = os.path.join(os.environ.get("UZ_TEST_DATA", "tests/data"), "clocks")
PGN = os.path.join(DATA, "clocks.pgn")
FIXTURE = os.path.join(DATA, "fixture_clocks_rev2.ucz")
FIXTURE3 = os.path.join(DATA, "fixture_clocks_rev3.ucz")
N_GAMES = 4


def decodes_exactly(tmp, archive, tag):
    """The archive decodes to clocks.pgn, whole and each game alone."""
    with open(PGN, "rb") as f:
        want = f.read()
    out = os.path.join(tmp, tag + ".pgn")
    run("decompress", "-f", archive, "-o", out)
    with open(out, "rb") as f:
        check(f.read() == want, "%s decodes to clocks.pgn byte for byte" % tag)
    games = [g if i == 0 else b"[Event " + g for i, g in enumerate(want.split(b"\n[Event "))]
    check(len(games) == N_GAMES, "clocks.pgn has %d games" % N_GAMES)
    alone = [run("extract", archive, "--game", str(k)).stdout for k in range(1, N_GAMES + 1)]
    for k, (got, game) in enumerate(zip(alone, games), 1):
        check(got.rstrip(b"\n") == game.rstrip(b"\n"), "%s: game %d extracted alone is the original" % (tag, k))
    check(b"".join(alone) == want, "%s: the games extracted one by one are the file's bytes" % tag)


def clock_bytes(archive):
    """What info says the archive's clocks take, in bytes."""
    return json.loads(run("info", "--json", archive).stdout)[0]["split"]["clocks"]


def main():
    use(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        decodes_exactly(tmp, FIXTURE, "revision 2 fixture")
        decodes_exactly(tmp, FIXTURE3, "revision 3 fixture")
        now = os.path.join(tmp, "now.ucz")
        run("compress", "--engine", "builtin", "-f", PGN, "-o", now)
        decodes_exactly(tmp, now, "revision 4 archive")
        old, rev3, new = clock_bytes(FIXTURE), clock_bytes(FIXTURE3), clock_bytes(now)
        print("clocks: %d bytes (revision 2), %d (revision 3), %d (revision 4)" % (old, rev3, new))
        check(rev3 < old, "revision 3 codes the clocks smaller: %d bytes against %d" % (rev3, old))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
