#!/usr/bin/env python3
"""Blocks swapped, duplicated or dropped in an archive whose index, footer and checksums are
rebuilt to match must still be caught: the member digest (xxh64 of the blocks' text
digests, doc/format.md) is the check. The same rebuild with the blocks in their order must
verify, which shows the rebuild itself is right. The archive is coded with the built-in
oracle (--engine builtin): the subject is the member's structure, not the engine.

usage: test_member_digest.py UCIZIP   (UZ_CORPUS_DIR: the shared corpus)"""
import os
import subprocess
import sys
import tempfile

from harness import check, summary
from ucz_bytes import header_end, index_v3, read_varint

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
    return summary()


if __name__ == "__main__":
    sys.exit(main())
