#!/usr/bin/python3
"""Archives decode forever: the committed builtin archives of tests/data/struct_versions, each
written by the ucizip of its day in one structure version (header key 13, doc/format.md
"Structure stream"), decode to their source PGN byte for byte, pass verify, and give every
game's exact bytes when each game is extracted alone (`extract --game N`, the records read
without decoding the other games' moves). The sources mix Lichess games, FEN starts,
Chess960, comments, NAGs, variations, clocks, verbatim games and text after the last game;
records_struct3 starts with a cutechess game (engine comments: structure version 3);
records_struct4 is the same games written by the code of b4b52cf (structure version 4: coded
records, their models starting at p = 1/2); records_struct5 the same games in structure version 5
(the models' trained start, src/block/record_prior5.inc: a changed table fails here). And 300
games alike, which structure version 5 codes in fewer bytes than games (each a fraction of a bit
like the one before), round-trip: the decoder bounds their records by the block's game count, not
by 5 bytes a game as before.

Usage: test_struct_fixtures.py UCIZIP"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run, summary, use  # noqa: E402
from ucz_bytes import read_varint  # noqa: E402

DATA = os.path.join(os.environ.get("UZ_TEST_DATA", ""), "struct_versions")
# (archive, its source, the structure version its header names)
FIXTURES = (("records_struct1.ucz", "records_struct1.pgn", 1),
            ("records_struct3.ucz", "records_struct3.pgn", 3),
            ("records_struct4.ucz", "records_struct3.pgn", 4),
            ("records_struct5.ucz", "records_struct3.pgn", 5))


def header_struct_version(data):
    """Header key 13 of an archive's first member (version 3: absent means 1)."""
    hlen, p = read_varint(data, 10)
    end, version = p + hlen, 1
    while p < end:
        key, p = read_varint(data, p)
        n, p = read_varint(data, p)
        if key == 13:
            version = read_varint(data, p)[0]
        p += n
    return version


def main():
    use(sys.argv[1])
    for name, source, version in FIXTURES:
        arc, src = os.path.join(DATA, name), os.path.join(DATA, source)
        want = open(src, "rb").read()
        check(header_struct_version(open(arc, "rb").read()) == version,
              "%s is not a structure version %d archive" % (name, version))
        check(run("decompress", arc, "-o", "-").stdout == want, "%s does not decode to %s" % (name, source))
        check(run("verify", arc).returncode == 0, "%s does not verify" % name)
        n = json.loads(run("info", arc, "--json").stdout)[0]["games"]
        alone = b"".join(run("extract", arc, "--game", str(i)).stdout for i in range(1, n + 1))
        check(alone == want, "%s: its %d games extracted one by one are not %s" % (name, n, source))
    with tempfile.TemporaryDirectory() as tmp:
        src, arc = os.path.join(tmp, "alike.pgn"), os.path.join(tmp, "alike.ucz")
        want = b"1. e4 e5 *\n\n" * 300
        with open(src, "wb") as f:
            f.write(want)
        run("compress", src, "-o", arc, "--engine", "builtin", "-q", "-f")
        data = open(arc, "rb").read()
        check(header_struct_version(data) == 5, "the alike games are not in structure version 5")
        check(run("decompress", arc, "-o", "-", ok=False).stdout == want, "300 games alike do not round-trip")
        check(run("verify", arc, ok=False).returncode == 0, "300 games alike do not verify")
        check(run("extract", arc, "--game", "300", ok=False).stdout == want[:12], "game 300 of 300 alike")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
