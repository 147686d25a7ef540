#!/usr/bin/python3
"""The built-in oracle end to end (--engine builtin), with real corpus games and the real
Stockfish: byte-exact round trips judged by cmp and pgn-extract (Chess960 files too), the
same archive for -j1 and -j2, info and list of a builtin archive, transcoding Stockfish ->
builtin -> Stockfish (each equal to a direct compress), refusals of forged headers (an
unknown builtin version, a depth out of range, a wrong fingerprint), a Stockfish archive
still byte-identical to the committed fixture, and the committed builtin-1 and builtin-2
fixtures decoding to their source games, and the weight set a new archive gets at each depth;
search settings the builtin does not take refused with one message by compress and stats.

Usage: test_builtin.py UCIZIP"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, corpus, run, summary, use  # noqa: E402
from ucz_bytes import read_varint  # noqa: E402

SHORT = bool(os.environ.get("UZ_TEST_SHORT"))
GAMES = 6 if SHORT else 25  # games of each corpus file: a few blocks' worth of positions, a short test
DATA = os.path.join(os.environ.get("UZ_TEST_DATA", ""), "builtin")


def first_games(src, dst, k):
    """The bytes of src up to the start of its (k+1)-th game (a prefix of the file)."""
    data = open(src, "rb").read()
    count, i = 0, 0
    while True:
        j = data.find(b"\n[Event ", i)
        if j < 0:
            break
        count += 1
        if count >= k:
            data = data[: j + 1]
            break
        i = j + 1
    with open(dst, "wb") as f:
        f.write(data)
    return data


def pgn_extract_digest(path):
    """What pgn-extract (an independent PGN reader) reads from a file, or None without it."""
    tool = shutil.which("pgn-extract") or ("/usr/games/pgn-extract" if os.path.exists("/usr/games/pgn-extract") else None)
    if not tool:
        return None
    out = subprocess.run([tool, "-s", "-w100000", path], capture_output=True)
    return hashlib.sha256(out.stdout).hexdigest()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def roundtrips(tmp):
    """Corpus excerpts of every category, Chess960 ones included: compress -j1, -j2 and -j5
    with the builtin (one archive: the threads answer and call back in any order),
    decompress with no --engine at -j2 and -j5; bytes and pgn-extract agree."""
    names = ["cat1_lichess_rated_blitz_rapid.pgn", "cat2_tata_steel_2022_masters.pgn",
             "cat3_sirius_cutechess_selfplay.pgn", "cat1_uscf_otb_club_annotated.pgn",
             "cat5_chess960_chesscom_humans_clk.pgn", "cat5_chess960_cutechess_python_chess.pgn"]
    archives = {}
    for name in names:
        src = os.path.join(tmp, name)
        orig = first_games(corpus(name), src, GAMES)
        arcs = []
        for j in ("1", "2", "5"):
            arc = os.path.join(tmp, "%s.j%s.ucz" % (name, j))
            run("compress", src, "-o", arc, "-q", "-j", j, "--engine", "builtin")
            arcs.append(arc)
        for arc in arcs[1:]:
            check(read(arcs[0]) == read(arc), "%s: the builtin's -j1 and %s archives differ" % (name, arc))
        back = os.path.join(tmp, name + ".back")
        for j in ("2", "5"):
            run("decompress", arcs[1], "-o", back, "-f", "-j", j)
            check(read(back) == orig, "%s: builtin round trip (-j%s) is not byte-identical" % (name, j))
        want = pgn_extract_digest(src)
        check(want is None or pgn_extract_digest(back) == want, "%s: pgn-extract reads other games back" % name)
        info = run("info", arcs[0]).stdout.decode()
        check("ucizip builtin-1; depth 1" in info and "needs no engine" in info, "%s: info: %s" % (name, info))
        if name.startswith("cat5"):
            check("Chess960 games: coded with the builtin" in info, "%s: Chess960 games not coded: %s" % (name, info))
            check("kept as text" not in run("stats", src, "--engine", "builtin").stderr.decode(),
                  "%s: stats keeps Chess960 games as text with the builtin" % name)
        archives[name] = (src, arcs[0], orig)
    # list reads the tags of a builtin archive without any oracle
    src, arc, orig = archives["cat2_tata_steel_2022_masters.pgn"]
    lines = run("list", arc).stdout.decode().strip().split("\n")
    check(len(lines) >= GAMES - 1 and "Carlsen" in "".join(lines), "list of a builtin archive: %s" % lines[:3])
    one = run("extract", arc, "--game", "3", "-o", "-").stdout
    check(len(one) > 100 and one in orig, "extract --game 3 from a builtin archive")
    src960, arc960, orig960 = archives["cat5_chess960_cutechess_python_chess.pgn"]
    picked = run("extract", arc960, "--tag", "White=Maverick 1.5", "-o", "-").stdout
    parts = [b"[Event " + g for g in picked.split(b"[Event ")[1:]]
    check(len(parts) == 2 and all(g in orig960 and b"fischerandom" in g for g in parts),
          "extract --tag from a builtin archive of Chess960 games: %d games" % len(parts))
    return archives


def transcodes(tmp, archives):
    """Stockfish -> builtin -> Stockfish: each step equal to a direct compress, byte for byte."""
    src, builtin_arc, orig = archives["cat2_tata_steel_2022_masters.pgn"]
    sf = os.path.join(tmp, "tata.sf.ucz")
    run("compress", src, "-o", sf, "-q", "-j", "2")
    to_builtin, back_sf = os.path.join(tmp, "tata.sf2b.ucz"), os.path.join(tmp, "tata.b2sf.ucz")
    run("transcode", sf, "-o", to_builtin, "--engine", "builtin", "-j", "2")
    check(read(to_builtin) == read(builtin_arc), "transcode Stockfish -> builtin differs from compress --engine builtin")
    run("transcode", to_builtin, "-o", back_sf, "--engine", "stockfish", "-j", "2")
    check(read(back_sf) == read(sf), "transcode builtin -> Stockfish differs from the Stockfish archive")
    for arc in (to_builtin, back_sf):
        check(run("decompress", arc, "-o", "-").stdout == orig, "%s does not decode to the source games" % arc)
    # Chess960 games move to the builtin (and back) too
    src960, arc960, orig960 = archives["cat5_chess960_cutechess_python_chess.pgn"]
    sf960, t960 = os.path.join(tmp, "c960.sf.ucz"), os.path.join(tmp, "c960.sf2b.ucz")
    run("compress", src960, "-o", sf960, "-q", "-j", "2")
    run("transcode", sf960, "-o", t960, "--engine", "builtin")
    check(read(t960) == read(arc960), "Chess960: transcode to the builtin differs from a direct compress")
    # the output is never overwritten without -f, and a bad --engine leaves nothing
    p = run("transcode", sf, "-o", to_builtin, "--engine", "builtin", ok=False)
    check(p.returncode != 0 and b"exists" in p.stderr, "transcode overwrote its output without -f: %r" % p.stderr)
    bad = os.path.join(tmp, "none.ucz")
    p = run("transcode", sf, "-o", bad, "--engine", "builtin-7", ok=False)
    check(p.returncode != 0 and b"builtin-7" in p.stderr and not os.path.exists(bad),
          "transcode to an unknown builtin: %r" % p.stderr)


def forge(data, old, new):
    """The archive with a header text replaced (same length), its header crc recomputed."""
    hlen, i = read_varint(data, 10)
    body = data[i:i + hlen]
    assert len(old) == len(new) and body.count(old) == 1
    body = body.replace(old, new)
    return data[:i] + body + zlib.crc32(body).to_bytes(4, "little") + data[i + hlen + 4:]


def varint(v):
    out = bytearray()
    while True:
        out.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
        v >>= 7
        if not v:
            return bytes(out)


def book_refusals(tmp, archives):
    """An archive names its opening book (header key 15: version, hash); a decoder refuses
    a book it does not have, or another one under the same version (a changed or damaged
    book has another hash), with one line naming both, and writes nothing."""
    _, arc, _ = archives["cat2_tata_steel_2022_masters.pgn"]
    data = read(arc)
    info = run("info", arc).stdout.decode()
    check("opening book v1 " in info, "a new archive names book 1: %s" % info)
    book = [line for line in info.split(";") if "opening book v1" in line][0].split()[-1]
    lo, hi = int(book[8:], 16), int(book[:8], 16)
    value = varint(1) + varint(lo) + varint(hi)
    field = b"\x0f" + varint(len(value)) + value
    for forged_value, message in (
            (varint(1) + varint(lo ^ 1) + varint(hi), "opening book version 1 with hash %s" % ("%08x%08x" % (hi, lo ^ 1))),
            (varint(2) + varint(lo) + varint(hi), "opening book version 2 with hash %s" % book)):
        forged = forge(data, field, b"\x0f" + varint(len(forged_value)) + forged_value)
        path = os.path.join(tmp, "forged_book.ucz")
        with open(path, "wb") as f:
            f.write(forged)
        out = os.path.join(tmp, "forged_book.pgn")
        p = run("decompress", path, "-o", out, ok=False)
        err = p.stderr.decode()
        check(p.returncode == 1 and message in err and "which this program does not have" in err and
              err.count("\n") == 1 and not os.path.exists(out), "a forged book (%s): exit %d, %s" % (message, p.returncode, err))


def refusals(tmp, archives):
    """Headers that claim the builtin are untrusted input: each forgery is refused, naming why."""
    _, arc, _ = archives["cat2_tata_steel_2022_masters.pgn"]
    data = read(arc)
    cases = [
        ((b"ucizip builtin-1", b"ucizip builtin-9"), (b"builtin = 1\n", b"builtin = 9\n"),
         "made with builtin-9: this ucizip has no builtin-9"),
        ((b"depth = 1\n", b"depth = 9\n"), (b"\x03\x01\x01", b"\x03\x01\x09"), "builtin-1 at depth 9"),
        ((b"builtin = 1\n", b"builtin = 2\n"), None, "a header naming the builtin"),
    ]
    for first, second, message in cases:
        forged = forge(data, *first)
        if second:
            forged = forge(forged, *second)
        path = os.path.join(tmp, "forged.ucz")
        with open(path, "wb") as f:
            f.write(forged)
        for cmd in (["decompress", path, "-o", "-"], ["verify", path]):
            p = run(*cmd, ok=False)
            err = p.stderr.decode()
            check(p.returncode == 1 and message in err and err.count("\n") == 1 and not p.stdout,
                  "%s of a forged header (%s): exit %d, %s" % (cmd[0], message, p.returncode, err))
    # A wrong fingerprint (one byte of key 2 changed: its CRC then still holds).
    hlen, i = read_varint(data, 10)
    at = data.index(b"\x02\x08", i) + 2
    forged = bytearray(data)
    forged[at] ^= 1
    body = bytes(forged[i:i + hlen])
    forged[i + hlen:i + hlen + 4] = zlib.crc32(body).to_bytes(4, "little")
    path = os.path.join(tmp, "forged_fp.ucz")
    with open(path, "wb") as f:
        f.write(forged)
    p = run("decompress", path, "-o", "-", ok=False)
    check(p.returncode == 1 and b"wrong oracle" in p.stderr, "a wrong builtin fingerprint: %r" % p.stderr)


def stockfish_unchanged(tmp):
    """Stockfish archives keep their bytes: the committed fixture is what compressing its
    source with the default settings gives today (while weight set v15 is the newest):
    weight set v15 (v14 and the policy over the board), structure version 5, tag version 5,
    opening book 1, the structure stream packed with the prose dictionary (method 3).
    fixture_player_v15_struct4.ucz (structure version 4, tag version 4), fixture_player_v14_tag3.ucz (weight set v14), fixture_player_v14.ucz (tag version 2, method 2),
    fixture_player_v2_struct4.ucz (weight set v2) and fixture_player_v2.ucz (structure version
    1, no book) are the ones before it, and player_model_cli decodes them all."""
    model_dir = os.path.join(os.environ.get("UZ_TEST_DATA", ""), "model")
    src, fixture = os.path.join(model_dir, "fixture_rank.pgn"), os.path.join(model_dir, "fixture_player_v15.ucz")
    out = os.path.join(tmp, "fixture_again.ucz")
    run("compress", src, "-o", out, "-q", "-j", "2")
    if b"player v15 " in run("info", out).stdout:
        check(read(out) == read(fixture), "a Stockfish compress no longer gives the committed fixture's bytes")


def weights_by_depth(tmp):
    """A new archive gets the weight set fitted to its oracle's scores at its depth: v16
    (v9 and the policy over the board), v10 and v13 at depth 1, v11 and v12 (builtin-2's, for builtin-3 too) from depth 2 on; a transcode to depth 2 gives the archive a
    direct compress at depth 2 gives, and every archive decodes to its source."""
    src = os.path.join(DATA, "fixture_builtin1.pgn")
    for engine, want1, want2 in (("builtin", b"player v16 ", b"player v11 "),
                                 ("builtin-2", b"player v10 ", b"player v12 "),
                                 ("builtin-3", b"player v13 ", b"player v12 ")):
        arcs = {}
        for depth, want in ((1, want1), (2, want2)):
            arc = arcs[depth] = os.path.join(tmp, "%s_d%d.ucz" % (engine, depth))
            run("compress", src, "-o", arc, "-q", "-f", "--engine", engine, "--depth", str(depth))
            check(want in run("info", arc).stdout, "%s depth %d: the archive does not name %s" % (engine, depth, want))
            check(run("decompress", arc, "-o", "-").stdout == read(src), "%s depth %d: no round trip" % (engine, depth))
        moved = os.path.join(tmp, "%s_d1_to_d2.ucz" % engine)
        run("transcode", arcs[1], "-o", moved, "-f", "--engine", engine, "--depth", "2")
        check(read(moved) == read(arcs[2]), "%s: a transcode to depth 2 differs from a direct compress" % engine)


def fixture():
    """The committed builtin archives decode to their source games (every later ucizip
    must): builtin-1 with player weights v2 (before v3 existed), with v3 (its set until v5),
    with v5 (square tables), with v7 (board units) and with v9 (its set, board units fitted
    with a teacher), builtin-2 with v4, v6, v8 and v10; at depth 2, builtin-1 with v9 (its
    set there until v11) and v11, builtin-2 with v10 and v12; builtin-3 with v13 (depth 1)
    and v12 (depth 2); builtin-1 with v9 and opening book 1; builtin-1 with v16 (v9 and the
    policy over the board) and opening book 1."""
    src = os.path.join(DATA, "fixture_builtin1.pgn")
    for name, oracle, weights in (("fixture_builtin1.ucz", b"ucizip builtin-1", b"player v2"),
                                  ("fixture_builtin1_v3.ucz", b"ucizip builtin-1", b"player v3"),
                                  ("fixture_builtin1_v5.ucz", b"ucizip builtin-1", b"player v5"),
                                  ("fixture_builtin2.ucz", b"ucizip builtin-2", b"player v4"),
                                  ("fixture_builtin1_v7.ucz", b"ucizip builtin-1", b"player v7"),
                                  ("fixture_builtin2_v6.ucz", b"ucizip builtin-2", b"player v6"),
                                  ("fixture_builtin2_v8.ucz", b"ucizip builtin-2", b"player v8"),
                                  ("fixture_builtin1_v9.ucz", b"ucizip builtin-1", b"player v9 "),
                                  ("fixture_builtin2_v10.ucz", b"ucizip builtin-2", b"player v10 "),
                                  ("fixture_builtin1_d2_v9.ucz", b"ucizip builtin-1; depth 2", b"player v9 "),
                                  ("fixture_builtin2_d2_v10.ucz", b"ucizip builtin-2; depth 2", b"player v10 "),
                                  ("fixture_builtin1_d2_v11.ucz", b"ucizip builtin-1; depth 2", b"player v11 "),
                                  ("fixture_builtin2_d2_v12.ucz", b"ucizip builtin-2; depth 2", b"player v12 "),
                                  ("fixture_builtin3_v13.ucz", b"ucizip builtin-3", b"player v13 "),
                                  ("fixture_builtin3_d2_v12.ucz", b"ucizip builtin-3; depth 2", b"player v12 "),
                                  ("fixture_builtin1_v9_book1.ucz", b"ucizip builtin-1", b"opening book v1 "),
                                  ("fixture_builtin1_v16.ucz", b"ucizip builtin-1", b"player v16 ")):
        arc = os.path.join(DATA, name)
        if not os.path.exists(arc):
            check(False, "no fixture %s" % arc)
            continue
        check(run("decompress", arc, "-o", "-").stdout == read(src), "%s does not decode to its PGN" % name)
        info = run("info", arc).stdout
        check(oracle in info and weights in info, "%s does not name %s and its weights" % (name, oracle.decode()))


def search_settings_refused(tmp):
    """The builtin takes a depth only: compress and the analysis commands refuse a node
    limit, a mode or a Hash for it with one message (the options' oracle specification),
    writing nothing."""
    src = os.path.join(DATA, "fixture_builtin1.pgn")
    out = os.path.join(tmp, "refused.ucz")
    for setting in (["--nodes", "1000"], ["--mode", "permove"], ["--hash", "16"]):
        for cmd in (["compress", src, "-o", out, "-q"], ["stats", src, "-q"]):
            p = run(*cmd, "--engine", "builtin", *setting, ok=False)
            err = p.stderr.decode()
            check(p.returncode != 0 and "the builtin takes a depth only (no nodes, mode or hash)" in err and
                  err.count("\n") == 1 and not os.path.exists(out),
                  "%s --engine builtin %s: exit %d, %s" % (cmd[0], " ".join(setting), p.returncode, err))


def main():
    use(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="uz-builtin-")
    search_settings_refused(tmp)
    archives = roundtrips(tmp)
    book_refusals(tmp, archives)
    refusals(tmp, archives)
    if not SHORT:
        transcodes(tmp, archives)
        stockfish_unchanged(tmp)
    weights_by_depth(tmp)
    fixture()
    shutil.rmtree(tmp)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
