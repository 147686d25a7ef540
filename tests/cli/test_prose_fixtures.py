#!/usr/bin/python3
"""Prose comments and structure-stream method 3 (doc/format.md, "Block": zstd over the
prose dictionary): tests/data/prose/fixture_method2.ucz, written by ucizip before method 3
existed (its block packed with method 2, raw LZMA2; its comment texts strings), still
decodes byte for byte, whole and game by game; the same games compressed now are packed
with method 3 and their comment texts end with a NUL (header key 19 = 2), decode byte for
byte too, their comments take at least a fifth fewer bytes, tools/edu_decode.py (written
from the format document) reads their tags, and a damaged block of method 3 is refused
with a one-line error, leaving no output. The games are the club file's held-out games,
which the dictionary never saw. Built-in oracle: the subject is the structure stream.

Usage: test_prose_fixtures.py UCIZIP EDU_DECODE"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run, summary, use  # noqa: E402

DATA = os.path.join(os.environ.get("UZ_TEST_DATA", "tests/data"), "prose")
PGN = os.path.join(DATA, "club_held_out.pgn")
FIXTURE = os.path.join(DATA, "fixture_method2.ucz")
N_GAMES = 5


def decodes_exactly(tmp, archive, tag):
    """The archive decodes to club_held_out.pgn, whole and each game alone."""
    with open(PGN, "rb") as f:
        want = f.read()
    out = os.path.join(tmp, tag.replace(" ", "_") + ".pgn")
    run("decompress", "-f", archive, "-o", out)
    with open(out, "rb") as f:
        check(f.read() == want, "%s decodes byte for byte" % tag)
    alone = [run("extract", archive, "--game", str(k)).stdout for k in range(1, N_GAMES + 1)]
    check(b"".join(alone) == want, "%s: the games extracted one by one are the file's bytes" % tag)
    run("verify", archive)


def block_of(edu_decode, archive):
    """(method, offset of the stored structure stream, its size) of the archive's one block,
    and the games tools/edu_decode.py reads."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(edu_decode)))
    import edu_decode as edu  # noqa: E402
    data = open(archive, "rb").read()
    header, blocks, games, _ = edu.read_member(data, 0)
    check(len(blocks) == 1, "one block")
    start, _, _, _, method, _, zsize = blocks[0]
    # The block: its tag, six varints, the digest (8 bytes) and crc (4), then the stream.
    r = edu.Reader(data, start + 1)
    for _ in range(6):
        r.varint()
    return (method, header.get("comment_text", 1)), r.pos + 12, zsize, games


def main():
    use(sys.argv[1])
    edu_decode = sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        decodes_exactly(tmp, FIXTURE, "method 2 fixture")
        now = os.path.join(tmp, "now.ucz")
        run("compress", "--engine", "builtin", "-f", PGN, "-o", now)
        decodes_exactly(tmp, now, "method 3 archive")
        old_method, _, _, _ = block_of(edu_decode, FIXTURE)
        method, offset, zsize, games = block_of(edu_decode, now)
        check(old_method == (2, 1) and method == (3, 2),
              "method and key 19: fixture %s, now %s" % (old_method, method))
        with open(PGN, encoding="utf-8") as f:
            events = re.findall(r'^\[Event "([^"]*)"\]', f.read(), re.M)
        check([dict(g["tags"]).get("Event") for g in games] == events, "edu_decode reads the games' tags")

        def comments(path):
            return json.loads(run("info", "--json", path).stdout)[0]["split"]["comments"]
        old, new = comments(FIXTURE), comments(now)
        print("comments: %d bytes (method 2), %d (method 3); archive %d, %d" %
              (old, new, os.path.getsize(FIXTURE), os.path.getsize(now)))
        check(new * 5 <= old * 4, "method 3 codes the comments at least a fifth smaller: %d against %d" % (new, old))

        # A byte of the stored stream damaged: refused, one line, no output left.
        data = bytearray(open(now, "rb").read())
        data[offset + zsize // 2] ^= 0x20
        bad, out = os.path.join(tmp, "bad.ucz"), os.path.join(tmp, "bad.pgn")
        open(bad, "wb").write(bytes(data))
        p = subprocess.run([sys.argv[1], "decompress", bad, "-o", out], capture_output=True)
        err = p.stderr.decode(errors="replace").strip()
        check(p.returncode != 0 and len(err.splitlines()) == 1 and "corrupt" in err.lower(),
              "damaged method 3 block refused in one line: %d %r" % (p.returncode, err))
        check(not os.path.exists(out), "no output left for a damaged archive")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
