#!/usr/bin/python3
"""Engine comments across revisions of the engine code (doc/format.md, "Engine comment
code"): tests/data/engine_code/*_rev1.ucz, written by ucizip before header key 18 existed
(revision 1: two TCEC games and a TCEC double-FRC game; three cutechess games), and
engine_rev2.ucz, the same TCEC games written by ucizip at 93d4254 (revision 2, key 18 = 2),
still decode byte for byte, whole and game by game; the same files compressed now (revision 2)
decode byte for byte too, and the TCEC games' engine comments take fewer bytes than in
revision 1.
Built-in oracle (--engine builtin): the subject is the structure stream.

Usage: test_engine_fixtures.py UCIZIP"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run, summary, use  # noqa: E402

DATA = os.path.join(os.environ.get("UZ_TEST_DATA", "tests/data"), "engine_code")
FIXTURES = ("engine_rev1", "engine_rev2", "cutechess_rev1")


def decodes_exactly(tmp, archive, pgn, tag):
    """The archive decodes to pgn, whole and each game alone."""
    with open(pgn, "rb") as f:
        want = f.read()
    out = os.path.join(tmp, tag.replace(" ", "_") + ".pgn")
    run("decompress", "-f", archive, "-o", out)
    with open(out, "rb") as f:
        check(f.read() == want, "%s decodes to %s byte for byte" % (tag, os.path.basename(pgn)))
    games = [g if i == 0 else b"[Event " + g for i, g in enumerate(want.split(b"\n[Event "))]
    alone = [run("extract", archive, "--game", str(k)).stdout for k in range(1, len(games) + 1)]
    for k, (got, game) in enumerate(zip(alone, games), 1):
        check(got.rstrip(b"\n") == game.rstrip(b"\n"), "%s: game %d extracted alone is the original" % (tag, k))


def member(archive):
    """info --json's first member of the archive."""
    return json.loads(run("info", "--json", archive).stdout)[0]


def main():
    use(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        for name in FIXTURES:
            pgn, old = os.path.join(DATA, name + ".pgn"), os.path.join(DATA, name + ".ucz")
            decodes_exactly(tmp, old, pgn, "%s fixture" % name)
            now = os.path.join(tmp, name + "_now.ucz")
            run("compress", "--engine", "builtin", "-f", pgn, "-o", now)
            decodes_exactly(tmp, now, pgn, "%s compressed now" % name)
            before, after = member(old)["split"]["engine_comments"], member(now)["split"]["engine_comments"]
            print("%s: engine comments %d bytes (fixture), %d (now)" % (name, before, after))
            if name == "engine_rev1":
                check(after < before, "revision 2 codes the TCEC comments smaller: %d bytes against %d" % (after, before))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
