#!/usr/bin/env python3
"""JSON a program can read, and games selected as pgn-extract users expect, on corpus
files:

- `list --json` of the mixed Latin-1 / UTF-8 file (its PGN and its archive) parses with
  json.loads, is ASCII, and every tag value decodes back to the input's bytes by the rule
  of doc/json.md; the same in `info --json` and `ratings --json`; `info --json` and
  `list --json` are arrays for one input and for several; Elo values are numbers; each
  game names its file;
- `pgn --uci` keeps a set-up game's start ("fen FEN moves ..."), its moves equal to
  pgn-extract -Wuci's;
- `--player`, alternatives (`A|B`) and `WhiteElo>x` select the games pgn-extract selects
  with -Tp, a tag file of alternatives and its Elo operator; an operator that is not
  understood and pgn-extract's pseudo-tag Player are refused (exit 2);
- `extract --fen` prints the games pgn-extract finds with a FEN criterion, and a position
  no game can reach is answered without starting the engine.

usage: test_select_json.py UCIZIP"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from harness import check, corpus, run, summary, use

UCIZIP = sys.argv[1]
use(UCIZIP)
PGN_EXTRACT = shutil.which("pgn-extract") or shutil.which("pgn-extract", path="/usr/games")
FAST = ["--workers", "2"]
# The archives are coded with the built-in oracle: the subject is JSON and selection.
BUILTIN = [*FAST, "--engine", "builtin"]


def display(raw):
    """doc/json.md's readable string of raw bytes: valid UTF-8 kept, other bytes Latin-1."""
    out, i = [], 0
    while i < len(raw):
        for n in (1, 2, 3, 4):
            try:
                ch = raw[i:i + n].decode("utf-8")
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                out.append(ch)
                i += n
                break
        else:
            out.append(chr(raw[i]))
            i += 1
    return "".join(out)


def raw_value(pair):
    return base64.b64decode(pair[2]) if len(pair) == 3 else pair[1].encode("utf-8")


def pgn_tag_values(path):
    """Every tag pair of the file, in order: (name, value bytes), escapes resolved."""
    data = open(path, "rb").read()
    return [(m.group(1).decode(), re.sub(rb'\\(["\\])', rb"\1", m.group(2)))
            for m in re.finditer(rb'^\[(\w+)\s+"((?:[^"\\\n]|\\.)*)"\]', data, re.M)]


def loads(p, what):
    check(p.returncode == 0, "%s: exit %d: %s" % (what, p.returncode, p.stderr[-300:]))
    try:
        check(all(b < 0x80 for b in p.stdout), "%s: ASCII output" % what)
        return json.loads(p.stdout.decode("utf-8"))
    except ValueError as e:
        check(False, "%s: not JSON: %s" % (what, e))
        return None


def check_json(tmp):
    latin = corpus("cat4_pgn_extract_odds_mixed_latin1_utf8.pgn")
    tata = corpus("cat2_tata_steel_2022_masters.pgn")
    games = loads(run("list", "--json", latin), "list --json of the Latin-1 file")
    if games is None:
        return
    pairs = [(n, v) for g in games for n, v in ((p[0], raw_value(p)) for p in g["tags"])]
    check(pairs == pgn_tag_values(latin), "every tag value decodes back to the input's bytes")
    odd = [p for g in games for p in g["tags"] if len(p) == 3]
    check(len(odd) >= 5, "the file's Latin-1 values carry their bytes (%d)" % len(odd))
    check(all(p[1] == display(base64.b64decode(p[2])) for p in odd), "Latin-1 bytes read as Latin-1 characters")
    check(any("Philidor" in p[1] and "\u00e7" in p[1] for p in odd), "a Latin-1 name reads right: %s" % odd[:1])
    for g in games:
        for key in ("white", "black", "event", "date"):
            tag = dict((p[0], p) for p in reversed(g["tags"])).get(key.capitalize())
            if tag:
                raw = base64.b64decode(g[key + "_base64"]) if key + "_base64" in g else g[key].encode()
                check(raw == raw_value(tag), "game %d: %s decodes to its tag's bytes" % (g["game"], key))
    check(all(g["file"] == latin for g in games) and [g["file_game"] for g in games] == list(range(1, 31)),
          "each game names its file and its number in it")
    # Its archive lists the same (moves are never needed for that)
    arc = os.path.join(tmp, "latin.ucz")
    run("compress", "-q", latin, "-o", arc, *BUILTIN)
    from_arc = loads(run("list", "--json", arc), "list --json of the archive")
    check(from_arc is not None and [dict(g, file=None) for g in from_arc] == [dict(g, file=None) for g in games],
          "the archive lists the same records")
    info = loads(run("info", "--json", arc), "info --json of one archive")
    check(isinstance(info, list) and len(info) == 1 and info[0]["file"] == arc and info[0]["games"] == 30,
          "info --json of one archive: an array of one")
    ratings = loads(run("ratings", "--json", latin), "ratings --json")
    names = {p["name"] for p in ratings["players"]} if ratings else set()
    check(any("\u00e7" in n for n in names) and all(isinstance(p["rating"], (int, float)) for p in ratings["players"]),
          "ratings --json: Latin-1 names, ratings as numbers")
    # Several inputs: one shape, the file in every record; Elo as numbers
    both = loads(run("list", "--json", latin, tata), "list --json of two files")
    check(both is not None and len(both) == 100 and {g["file"] for g in both} == {latin, tata}
          and both[30]["file_game"] == 1 and both[30]["game"] == 31, "list --json of two files: one array")
    elos = [g["white_elo"] for g in (both or [])[30:]]
    check(elos and all(isinstance(e, int) and e > 2500 for e in elos), "Elo values are numbers: %s" % elos[:3])
    check(all(g["white_elo"] is None for g in games), "'?' Elo values are null")
    two = loads(run("info", "--json", arc, arc), "info --json of two archives")
    check(isinstance(two, list) and len(two) == 2, "info --json of two archives: an array of two")


def extract_uci(path):
    """pgn-extract -Wuci's main lines: list of lists of UCI moves."""
    out = subprocess.run([PGN_EXTRACT, "-s", "-Wuci", "--noresults", "-C", "-N", "-V", "-w100000", path],
                         capture_output=True).stdout.decode("latin-1")
    games = []
    for block in out.replace("\r", "").split("\n\n"):
        block = block.strip()
        if block and not block.startswith("["):
            games.append([m.lower() for m in block.split()])
    return games


def check_uci():
    mates = corpus("cat4_pychess_mate_in_n_fen.pgn")
    lines = run("pgn", "--uci", mates).stdout.decode().splitlines()
    fens = [v.decode() for n, v in pgn_tag_values(mates) if n == "FEN"]
    check(len(lines) == len(fens) and all(l.startswith("fen ") for l in lines), "pgn --uci: every set-up game's start")
    for line, fen in zip(lines, fens):
        start = line[4:].split(" moves ")[0]
        check(start.split()[:4] == fen.split()[:4], "pgn --uci: the FEN of the game's tag: %s / %s" % (start, fen))
    if PGN_EXTRACT:
        theirs = extract_uci(mates)
        ours = [l.split(" moves ", 1)[1].split() if " moves " in l else [] for l in lines]
        check(ours == theirs, "pgn --uci moves = pgn-extract -Wuci's")
    plain = run("pgn", "--uci", corpus("cat2_tata_steel_2022_masters.pgn")).stdout.decode().splitlines()
    check(len(plain) == 70 and not any(l.startswith("fen") for l in plain), "games from the start position unchanged")


def key(game_text):
    """A game's identity: its White, Black and Round tags."""
    tags = dict(re.findall(r'^\[(White|Black|Round) "([^"]*)"\]', game_text, re.M))
    return (tags.get("White"), tags.get("Black"), tags.get("Round"))


def pgn_keys(text):
    return sorted(key(g) for g in re.split(r"\n(?=\[Event )", text) if "[White " in g)


def pgn_extract_select(path, args, tmp):
    out = os.path.join(tmp, "px.pgn")
    if os.path.exists(out):
        os.remove(out)
    subprocess.run([PGN_EXTRACT, "-s", *args, "-o" + out, path], capture_output=True, check=True)
    return pgn_keys(open(out, encoding="latin-1").read())


def list_keys(path, *args):
    p = run("list", "--json", path, *args)
    return sorted((g["white"], g["black"], dict((t[0], t[1]) for t in g["tags"]).get("Round"))
                  for g in json.loads(p.stdout))


def check_select(tmp):
    tata = corpus("cat2_tata_steel_2022_masters.pgn")
    london = corpus("cat2_london_1851_crlf.pgn")
    if PGN_EXTRACT:
        for path, name in ((tata, "Carlsen"), (tata, "Giri"), (london, "Anderssen")):
            want = pgn_extract_select(path, ["-Tp" + name, "--tagsubstr"], tmp)
            got = list_keys(path, "--player", name)
            check(got == want and len(got) >= 5, "--player %s: %d games, pgn-extract -Tp %d" % (name, len(got), len(want)))
        crit = os.path.join(tmp, "crit")
        with open(crit, "w") as f:
            f.write('White "Carlsen"\nWhite "Giri"\n')
        want = pgn_extract_select(tata, ["-t" + crit, "--tagsubstr"], tmp)
        got = list_keys(tata, "--tag", "White=Carlsen|White=Giri")
        check(got == want and len(got) >= 8, "'White=Carlsen|White=Giri': %d games, pgn-extract %d" % (len(got), len(want)))
        with open(crit, "w") as f:
            f.write('WhiteElo > "2760"\n')
        want = pgn_extract_select(tata, ["-t" + crit], tmp)
        got = list_keys(tata, "--tag", "WhiteElo>2760")
        check(got == want and 0 < len(got) < 70, "WhiteElo>2760: %d games, pgn-extract %d" % (len(got), len(want)))
    either = list_keys(tata, "--tag", "White=Carlsen|Black=Carlsen")
    check(either == list_keys(tata, "--player", "carlsen"), "--player = 'White=X|Black=X'")
    both = list_keys(tata, "--player", "Carlsen", "--player", "Giri")
    check(len(both) == 1, "two --player options: their games together (%d)" % len(both))
    for cond, words in (("WhiteElo>>2500", b"'>>' is not an operator"), ("WhiteElo=>2500", b"'=>'"),
                        ("Player=Carlsen", b"--player"), ("White~Carlsen", b"expected")):
        p = run("list", tata, "--tag", cond, ok=False)
        check(p.returncode == 2 and words in p.stderr and not p.stdout, "--tag %s refused: %s" % (cond, p.stderr))
    p = run("ratings", tata, "--player", "", ok=False)
    check(p.returncode == 2, "--player '' refused")


def check_fen(tmp):
    tata = corpus("cat2_tata_steel_2022_masters.pgn")
    arc = os.path.join(tmp, "tata.ucz")
    run("compress", "-q", tata, "-o", arc, *BUILTIN)
    positions = ["rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",  # 1.e4 c5
                 "rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3"]  # 1.d4 Nf6 2.c4 e6
    for fen in positions:
        p = run("extract", arc, "--fen", fen, *FAST)
        got = pgn_keys(p.stdout.decode("latin-1"))
        check(len(got) >= 3, "extract --fen %s: %d games" % (fen, len(got)))
        if PGN_EXTRACT:
            crit = os.path.join(tmp, "crit")
            with open(crit, "w") as f:
                f.write('FEN "%s"\n' % fen)
            want = pgn_extract_select(tata, ["-t" + crit], tmp)
            check(got == want, "extract --fen: %d games, pgn-extract %d" % (len(got), len(want)))
    p = run("extract", arc, "--fen", positions[0], "--player", "Carlsen", *FAST, ok=False)
    check(all("Carlsen" in "".join(k) for k in pgn_keys(p.stdout.decode("latin-1"))), "--fen with --player")
    # The odds games of the Latin-1 file all start a piece down: none can reach the initial
    # position, so none is decoded and no engine started (one that does not exist is never
    # looked for).
    odds = os.path.join(tmp, "latin.ucz")
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    p = run("extract", odds, "--fen", start, "--engine", "/nonexistent/engine", ok=False)
    check(p.returncode == 1 and b"no game matches" in p.stderr and b"nonexistent" not in p.stderr,
          "an unreachable position decodes nothing: %s" % p.stderr)
    p = run("extract", arc, "--fen", "not a fen", ok=False)
    check(p.returncode == 2 and b"--fen" in p.stderr, "a bad FEN is a usage error")


def main():
    if not PGN_EXTRACT:
        print("pgn-extract missing: the comparisons with it are left out")
    tmp = tempfile.mkdtemp(prefix="ucizip-select-")
    try:
        check_json(tmp)
        check_uci()
        check_select(tmp)
        check_fen(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
    sys.exit(summary())
