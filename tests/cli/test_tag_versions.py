#!/usr/bin/python3
"""Coded tags by version (doc/format.md, "Coded tags", header key 16): the committed
archives written before tag version 2 existed (tests/data/tags: Lichess games in structure version 1
and chess.com games in structure version 3, coded tags of version 1, no key 16) and before tag
version 3 existed (the same games written by the code of aabc2b9: key 16 = 2, structure version 4)
and before tag version 4 existed (written by the code of 93d4254: key 16 = 3, structure version 4)
and before tag version 5 existed (written by the code of b4b52cf: key 16 = 4, structure version 4)
still decode byte for byte and verify; the same games compressed now get key 16 = 5, decode byte
for byte, take the version 2 models (names in Termination, the number of Link, rating changes
from the ratings), the version 3 ones (ECO from the opening table, chess.com's ECOUrl with
the game's moves) and the version 5 one (Lichess's Site as an identifier), and fewer tag bytes
than in each version before (version 4: the codes range-coded, read here by edu_decode too;
version 5 on the Lichess games, whose Site ends in an identifier), also in a block with more tags than bytes of tag
codes and values (the London 1851 corpus file); a header claiming a tag version from a
newer ucizip is refused with a clear message; the priors of tag version 2 are the frozen table
(data/tag_priors/v2.tsv, by its hash), which the build compiles in (scripts/tag_priors.py c)
only with its frozen hash: a changed table does not build; the same for tag version 3's opening
table (data/openings, scripts/opening_table.py).

usage: test_tag_versions.py UCIZIP EDU_DECODE"""
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run, summary, use  # noqa: E402

DATA = os.path.join(os.environ.get("UZ_TEST_DATA", ""), "tags")
ROOT = os.environ.get("UZ_SRC_ROOT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PRIORS_FNV1A64 = 0xf560acaa91d78bfe  # of data/tag_priors/v2.tsv: every archive of tag version 2 depends on it
OPENINGS_FNV1A64 = 0xf2591eb943871c26  # of data/openings/a.tsv ... e.tsv one after the other: tag version 3's


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def priors():
    """The frozen table; its C form is made only from it (the build's step, with the pin)."""
    tsv = os.path.join(ROOT, "data", "tag_priors", "v2.tsv")
    text = open(tsv, "rb").read()
    h = fnv1a64(text)
    check(h == PRIORS_FNV1A64, f"{tsv} changed (hash {h:016x}): a new table is a new tag version")
    with tempfile.TemporaryDirectory() as tmp:
        def to_c(path):
            return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "tag_priors.py"), "c", path,
                                   os.path.join(tmp, "tag_prior.c"), "--pin", f"{PRIORS_FNV1A64:016x}"],
                                  capture_output=True, text=True)
        made = to_c(tsv)
        check(made.returncode == 0 and b"uz__tag_prior" in open(os.path.join(tmp, "tag_prior.c"), "rb").read(),
              f"the frozen table compiles into C: {made.stderr}")
        changed = os.path.join(tmp, "v2.tsv")
        first = text.index(b"\t") + 1
        open(changed, "wb").write(text[:first] + b"x" + text[first:])
        made = to_c(changed)
        check(made.returncode != 0 and "a changed table is a new tag version" in made.stderr,
              f"a changed table fails the build: {made.stderr}")


def opening_table():
    """Tag version 3's frozen opening table; its C form is made only from it, with the pin."""
    paths = [os.path.join(ROOT, "data", "openings", f"{c}.tsv") for c in "abcde"]
    h = 0xcbf29ce484222325
    for p in paths:
        for b in open(p, "rb").read():
            h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    check(h == OPENINGS_FNV1A64, f"data/openings changed (hash {h:016x}): a new table is a new tag version")
    with tempfile.TemporaryDirectory() as tmp:
        def to_c(files):
            return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "opening_table.py"), "c",
                                   os.path.join(tmp, "opening_table.c"), "--pin", f"{OPENINGS_FNV1A64:016x}"] + files,
                                  capture_output=True, text=True)
        made = to_c(paths)
        check(made.returncode == 0 and b"uz__opening_rows" in open(os.path.join(tmp, "opening_table.c"), "rb").read(),
              f"the frozen opening table compiles into C: {made.stderr}")
        made = to_c(paths[::-1])
        check(made.returncode != 0 and "a changed table is a new tag version" in made.stderr,
              f"the opening table in another order fails the build: {made.stderr}")


def edu_module(path):
    spec = importlib.util.spec_from_file_location("edu_decode", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def header_of(edu, path):
    return edu.read_header(edu.Reader(open(path, "rb").read()))


def tag_bytes(path):
    return json.loads(run("info", "--json", path).stdout)[0]["split"]["tags"]


def models(edu, path):
    """The names of the models each tag name got in the archive's blocks."""
    seen = set()
    real = edu.read_coded_tags

    def spy(code, values, names, games, uses, version=1, tag_version=1):
        start = code.pos
        out = real(code, values, names, games, uses, version, tag_version)
        r = edu.Reader(code.data, start, code.end)
        for k in range(len(names)):
            if not r.left():
                break
            m = r.varint()
            r.varint() if m in edu.WITH_PARAM else None
            r.varint() if m == edu.PAIRDIFF else None
            seen.add((names[k], m))
        return out

    edu.read_coded_tags = spy
    try:
        edu.read_member(open(path, "rb").read(), 0)
    finally:
        edu.read_coded_tags = real
    return seen


TAG = re.compile(rb'\[([A-Za-z0-9_]+) "([^"]*)"\]')


def pgn_tags(text):
    """Every tag of a PGN text as (name, value), in order."""
    return [m.groups() for line in text.splitlines() for m in [TAG.fullmatch(line.strip())] if m]


def edu_tags(archive):
    """The tags tools/edu_decode.py reads from an archive as (name, value); value None for a
    value derived from the moves (it prints `[Name (from the moves)]`)."""
    out = subprocess.run([sys.executable, sys.argv[2], archive], capture_output=True)
    check(out.returncode == 0, f"edu_decode {archive}: {out.stderr[-300:]!r}")
    return [m.groups() for m in re.finditer(rb'\[([A-Za-z0-9_]+) (?:"([^"]*)"|\(from the moves\))\]', out.stdout)]


def main():
    use(sys.argv[1])
    edu = edu_module(sys.argv[2])
    priors()
    opening_table()
    with tempfile.TemporaryDirectory() as tmp:
        for name, struct_version, wanted in (
                ("lichess", 1, [("WhiteRatingDiff", edu.PAIRDIFF), ("ECO", edu.ECO), ("Site", edu.TOKEN)]),
                ("chesscom", 3, [("Termination", edu.TEMPLATE), ("ECO", edu.ECO), ("ECOUrl", edu.MOVETAIL)])):
            pgn = os.path.join(DATA, f"tags_v1_{name}.pgn")
            want = open(pgn, "rb").read()
            sizes = []
            for version, old_struct in ((1, struct_version), (2, 4), (3, 4), (4, 4)):
                old = os.path.join(DATA, f"tags_v{version}_{name}.ucz")
                h = header_of(edu, old)
                check(h["tag_version"] == version and h["struct_version"] == old_struct,
                      f"{old}: tag version {h['tag_version']}, structure version {h['struct_version']}")
                check(run("decompress", old, "-o", "-").stdout == want, f"{old} does not decode to {pgn}")
                run("verify", old)
                sizes.append(tag_bytes(old))
            new = os.path.join(tmp, f"{name}.ucz")
            run("compress", "--engine", "builtin", pgn, "-o", new)
            check(header_of(edu, new)["tag_version"] == 5, f"{new}: not tag version 5")
            check(run("decompress", new, "-o", "-").stdout == want, f"{new} does not decode to {pgn}")
            for archive in (new, os.path.join(DATA, f"tags_v3_{name}.ucz"), os.path.join(DATA, f"tags_v4_{name}.ucz")):
                # the independent reader agrees
                got, expected = edu_tags(archive), pgn_tags(want)
                check(len(got) == len(expected) and all(g[0] == e[0] and g[1] in (None, e[1]) for g, e in zip(got, expected))
                      and sum(g[1] is not None for g in got) > len(got) // 2,
                      f"edu_decode: {archive}'s tags are not those of {pgn}")
            got = models(edu, new)
            for model in wanted:
                check(model in got, f"{new}: {model[0]} does not take model {model[1]}")
            after = tag_bytes(new)
            check(sizes[1] < sizes[0] and sizes[2] < sizes[1] and sizes[3] < sizes[2] and
                  (after < sizes[3] if name == "lichess" else  # (chess.com's values hold no identifier:
                   # its tags' share of a structure stream that also changed its records, structure
                   # version 5, is no measure; the archive must not grow)
                   os.path.getsize(new) <= os.path.getsize(os.path.join(DATA, f"tags_v4_{name}.ucz"))),
                  f"{name}: tags {sizes[0]} bytes in version 1, {sizes[1]} in version 2, {sizes[2]} in version 3, "
                  f"{sizes[3]} in version 4, {after} in version 5")
            print(f"{name}: tag bytes {sizes[0]} in version 1, {sizes[1]} in version 2, {sizes[2]} in version 3, "
                  f"{sizes[3]} in version 4, {after} in version 5")
        # A block whose range-coded codes are so cheap that its tags outnumber the bytes of its
        # values and tag_code sections (the London 1851 games: `1851.??.??`, `""` ratings, the
        # same event): the reader's budget of tags allows them in tag version 4.
        london = os.path.join(os.environ.get("UZ_CORPUS_DIR", ""), "cat2_london_1851_crlf.pgn")
        check(os.path.exists(london), f"{london}: missing (UZ_CORPUS_DIR)")
        if os.path.exists(london):
            packed = os.path.join(tmp, "london.ucz")
            run("compress", "--engine", "builtin", london, "-o", packed)
            check(run("decompress", packed, "-o", "-").stdout == open(london, "rb").read(),
                  f"{packed} does not decode to {london}")
        # A member header claiming tag version 6: key 16's field (the body's last: key 16,
        # a one-byte string, the varint 5) changed, the header's crc made anew.
        data = bytearray(open(os.path.join(tmp, "lichess.ucz"), "rb").read())
        hlen = data[10]  # magic, version (u16), then the body's length: one varint byte here
        crc_at = 11 + hlen
        check(hlen < 128 and data[crc_at - 3:crc_at] == bytes([16, 1, 5]), "key 16 does not end the header body")
        if hlen < 128 and data[crc_at - 3:crc_at] == bytes([16, 1, 5]):
            data[crc_at - 1] = 6
            data[crc_at:crc_at + 4] = zlib.crc32(bytes(data[11:crc_at])).to_bytes(4, "little")
            bad = os.path.join(tmp, "newer.ucz")
            open(bad, "wb").write(bytes(data))
            p = run("decompress", bad, "-o", "-", ok=False)
            check(p.returncode != 0 and b"tag coding from a newer ucizip" in p.stderr,
                  f"a newer tag version: {p.returncode} {p.stderr!r}")
    sys.exit(summary())


if __name__ == "__main__":
    main()
