#!/usr/bin/env python3
"""Blocks swapped, duplicated or dropped in an archive whose index, footer and checksums are
rebuilt to match must still be caught: the member digest (xxh64 of the blocks' text
digests, doc/format.md) is the check. A block whose game count is raised or lowered (its
crc and the index rebuilt) makes extract --game refuse, not print another game. The same rebuild with the blocks in their order must
verify, which shows the rebuild itself is right. The archive is coded with the built-in
oracle (--engine builtin): the subject is the member's structure, not the engine.

usage: test_member_digest.py UCIZIP   (UZ_CORPUS_DIR: the shared corpus)"""
import os
import subprocess
import sys
import tempfile

from harness import check, summary
from ucz_bytes import header_end, index_v3, read_varint, varint

UCIZIP = sys.argv[1]


def split_member(data):
    """Header bytes, list of (block bytes, games, moves), and the index's digest."""
    pos = header_end(data)
    header, blocks = data[:pos], []
    while data[pos:pos + 1] == b"B":
        start, i = pos, pos + 1
        fields = []
        for _ in range(6):
            v, i = read_varint(data, i)
            fields.append(v)
        i += 8 + 4  # text digest, crc
        end = i + fields[4] + fields[5]
        blocks.append((data[start:end], fields[0], fields[1]))
        pos = end
    assert data[pos:pos + 1] == b"I"
    n, i = read_varint(data, pos + 1)
    for _ in range(3 * n):
        _, i = read_varint(data, i)
    return header, blocks, data[i:i + 8]


def rebuild(header, blocks, digest):
    """A member of these blocks with an index that matches them exactly."""
    out = bytearray(header)
    entries = []
    for b, g, m in blocks:
        entries.append((len(out), g, m))
        out += b
    out += index_v3(entries, digest, len(out))
    return bytes(out)


def with_games(block, games):
    """The block with its header's game count set to games (same varint length) and its
    crc recomputed: a count that lies, as the index rebuilt beside it will."""
    import zlib
    n, i = read_varint(block, 1)
    assert len(varint(games)) == i - 1
    fields_end = i
    for _ in range(5):
        _, fields_end = read_varint(block, fields_end)
    crc_at = fields_end + 8
    head = varint(games) + block[i:crc_at]
    rest = block[crc_at + 4:]
    crc = zlib.crc32(rest, zlib.crc32(head))
    return b"B" + head + crc.to_bytes(4, "little") + rest


def miscounted(tmp, header, blocks, digest):
    """extract --game N counts games by the earlier blocks' counts: one raised or lowered
    (crc and index rebuilt) must be refused, never another game printed as game N; the
    honest rebuild gives the same game as decompress."""
    first = blocks[0][1]
    honest = os.path.join(tmp, "honest.ucz")
    with open(honest, "wb") as f:
        f.write(rebuild(header, blocks, digest))
    whole = subprocess.run([UCIZIP, "decompress", "-c", honest], capture_output=True).stdout
    want = subprocess.run([UCIZIP, "extract", honest, "--game", str(first + 2), "-o", "-"], capture_output=True)
    check(want.returncode == 0 and want.stdout and want.stdout in whole, "extract from the honest rebuild")
    for delta in (1, -1):
        b0, g0, m0 = blocks[0]
        forged = [(with_games(b0, g0 + delta), g0 + delta, m0)] + blocks[1:]
        path = os.path.join(tmp, "count%+d.ucz" % delta)
        with open(path, "wb") as f:
            f.write(rebuild(header, forged, digest))
        for n in (first + 2, 2 * first):
            p = subprocess.run([UCIZIP, "extract", path, "--game", str(n), "-o", "-"], capture_output=True)
            err = p.stderr.decode(errors="replace")
            check(p.returncode == 1 and not p.stdout and "does not hold the" in err,
                  "block 1 counting %+d, extract --game %d: exit %d, %s, %d bytes out"
                  % (delta, n, p.returncode, err.strip(), len(p.stdout)))
            print("count %+d, game %d -> %s" % (delta, n, err.strip()))
        # A game in the first block is found without counting any block before it.
        p = subprocess.run([UCIZIP, "extract", path, "--game", "1", "-o", "-"], capture_output=True)
        check(p.returncode == 0 or b"block" in p.stderr, "game 1 of a miscounted archive: %r" % p.stderr)


def main():
    corpus = os.environ.get("UZ_CORPUS_DIR", "")
    src = os.path.join(corpus, "cat1_lichess_rated_blitz_rapid.pgn")
    if not os.path.exists(src):
        if os.environ.get("UZ_REQUIRE_CORPUS"):
            sys.exit("missing " + src)
        print("skipped: no corpus")
        return 77
    tmp = tempfile.mkdtemp(prefix="ucizip-digest-")
    arc = os.path.join(tmp, "three.ucz")
    p = subprocess.run([UCIZIP, "compress", "-q", src, "-o", arc, "--max-games", "129", "--block-games", "64",
                        "--engine", "builtin"],
                       capture_output=True)
    check(p.returncode == 0, "compress: " + p.stderr.decode())
    data = open(arc, "rb").read()
    header, blocks, digest = split_member(data)
    check(len(blocks) == 3, "three blocks of games (%d)" % len(blocks))
    cases = {
        "same order": (blocks, True),
        "swapped": ([blocks[1], blocks[0], blocks[2]], False),
        "duplicated": ([blocks[0], blocks[0], blocks[1], blocks[2]], False),
        "dropped": ([blocks[0], blocks[2]], False),
    }
    for name, (order, good) in cases.items():
        path = os.path.join(tmp, name.replace(" ", "_") + ".ucz")
        with open(path, "wb") as f:
            f.write(rebuild(header, order, digest))
        v = subprocess.run([UCIZIP, "verify", path], capture_output=True)
        if good:
            check(v.returncode == 0, "%s: the rebuilt archive verifies: %s" % (name, v.stderr.decode()))
        else:
            check(v.returncode != 0 and b"digest" in v.stderr, "%s: caught: %s" % (name, v.stderr.decode().strip()))
    miscounted(tmp, header, blocks, digest)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
