#!/usr/bin/env python3
"""End-to-end tests of the ucizip program: every subcommand on real corpus games with the
real Stockfish (depth 1 to keep it quick), error messages with file:line:column, safe
output files, pipes, and refusal of a mismatching engine."""
import json
import os
import re
import subprocess
import sys
import tempfile

import ucz_bytes
from harness import check, corpus, run, summary, use
from ucz_bytes import varint

UCIZIP = sys.argv[1]
use(UCIZIP)
SRC = os.environ["UZ_SRC_ROOT"]
SAMPLE = os.path.join(SRC, "tests", "data", "sample.pgn")


def main():
    tmp = tempfile.mkdtemp(prefix="ucizip-cli-")
    fast = ["--depth", "1", "--workers", "2"]

    # --help, --version, unknown command
    check(run("--version").stdout.startswith(b"ucizip "), "--version")
    check(b"compress" in run("--help").stdout, "--help lists commands")
    p = run("frobnicate", ok=False)
    check(p.returncode == 2 and b"unknown command" in p.stderr, "unknown command is a usage error")

    # pgn: normaliser and UCI main lines
    club = corpus("cat1_uscf_otb_club_annotated.pgn")
    uci = run("pgn", "--uci", club).stdout.decode().splitlines()
    check(len(uci) == 45, "pgn --uci prints one line per game (%d)" % len(uci))
    check(uci[0].split()[0][:4].isalnum() and len(uci[0].split()[0]) in (4, 5), "UCI move text")
    norm = run("pgn", club).stdout
    check(run("pgn", "-", input=norm).stdout == norm, "export format is a fixed point")

    # stats without the engine: counts and the two engine-free methods
    st = json.loads(run("stats", "--no-engine", "--json", club).stdout)
    check(st["games"] == 45 and st["plies"] > 1000, "stats counts games and plies")
    check(st["bits"]["fromto"] == 12 * st["plies"], "fromto is 12 bits/move")
    check(0 < st["bits_per_move"]["index"] < 8, "index bits/move")
    check("huffman" not in st["bits"], "--no-engine runs no engine method")

    # stats with the engine, k sweep and fit
    st = json.loads(run("stats", "--json", "--k-sweep", "2,8,80", "--fit-k", *fast, SAMPLE).stdout)
    for key in ("fromto", "index", "huffman", "range"):
        check(key in st["bits"] and key in st["bits_per_move"], "stats has %s" % key)
    check(st["bits_per_move"]["huffman"] < st["bits_per_move"]["index"], "engine coding beats the index")
    check(0 < st["top1"] <= st["top2"] <= st["top3"] <= 1, "top-k fractions")
    check([x["k"] for x in st["k_sweep"]] == [2, 8, 80], "k sweep values")
    check(st["fit"]["bits_per_move"] <= min(x["bits_per_move"] for x in st["k_sweep"]) + 1e-6, "fit is no worse than the sweep")
    text = run("stats", *fast, "--k-sweep", "4", SAMPLE).stdout.decode()
    check("huffman" in text and "k=4" in text, "stats table")

    # explain
    ex = run("explain", SAMPLE, "--game", "2", *fast).stdout.decode()
    check("rank" in ex and "bits/move" in ex and "p=" in ex, "explain shows moves, probabilities and bits")

    # a bad game: file:line:column, stop or skip
    bad = os.path.join(tmp, "bad.pgn")
    with open(bad, "w") as f:
        f.write('[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event "b"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n'
                '[Event "c"]\n\n1. d4 d5 *\n')
    p = run("pgn", bad, ok=False)
    err = p.stderr.decode()
    check(p.returncode == 1 and (bad + ":7:13:") in err and "game 2" in err, "error with file:line:col: " + err)
    p = run("pgn", "--keep-going", bad, ok=False)
    check(p.returncode == 1 and p.stdout.count(b"[Event") == 2 and b"1 game skipped" in p.stderr, "-k skips and counts")
    out = os.path.join(tmp, "bad.ucz")
    p = run("compress", bad, "-o", out, "--canonical", *fast, ok=False)
    check(p.returncode == 1 and not os.path.exists(out), "--canonical: no archive is left after an error")
    check(not [f for f in os.listdir(tmp) if f.endswith(".tmp")], "no temporary file is left")
    # by default a game that cannot be replayed is kept as text: nothing is lost
    p = run("compress", bad, "-o", out, *fast)
    check(b"bad.pgn:7:13: game 2" in p.stderr and b"kept as text" in p.stderr, "bad game kept as text: " + p.stderr.decode())
    check(run("decompress", out, "-o", "-").stdout == open(bad, "rb").read(), "bad game comes back byte for byte")

    # compress / decompress / info / verify / extract
    arc = os.path.join(tmp, "sample.ucz")
    run("compress", SAMPLE, "-o", arc, *fast)
    again = os.path.join(tmp, "again.ucz")
    run("compress", SAMPLE, "-o", again, "--depth", "1", "--workers", "1")
    check(open(arc, "rb").read() == open(again, "rb").read(), "two runs (other worker count) give the same bytes")
    p = run("compress", SAMPLE, "-o", arc, *fast, ok=False)
    check(p.returncode != 0 and b"-f" in p.stderr, "no overwrite without -f")
    expected = open(SAMPLE, "rb").read()
    canonical = run("pgn", SAMPLE).stdout
    back = os.path.join(tmp, "back.pgn")
    run("decompress", arc, "-o", back)
    check(open(back, "rb").read() == expected, "decompress gives the input byte for byte")
    check(run("decompress", arc, "-o", "-", "--canonical").stdout == canonical, "decompress --canonical: export format")
    run("compress", "-f", SAMPLE, *fast)  # default name: SAMPLE.ucz
    default_arc = SAMPLE + ".ucz"
    check(os.path.exists(default_arc), "default output name")
    os.rename(default_arc, os.path.join(tmp, "moved.pgn.ucz"))
    run("decompress", os.path.join(tmp, "moved.pgn.ucz"))
    check(open(os.path.join(tmp, "moved.pgn"), "rb").read() == expected, "default decompress name")

    info = json.loads(run("info", "--json", arc).stdout)[0]
    check(info["games"] == 6 and info["moves"] > 400, "info counts")
    m = info["members"][0]
    check(m["engine"] == "Stockfish 15.1" and m["depth"] == 1 and m["mode"] == "multipv", "info engine settings")
    check(0 < info["bits_per_move"] < 5, "info bits/move")
    check(b"OK, 6 games" in run("verify", arc).stdout, "verify")
    games = canonical.split(b"\n\n[")
    third = run("extract", arc, "--game", "3", "--canonical").stdout
    check(third.strip() == (b"[" + games[2]).strip(), "extract game 3")
    third = run("extract", arc, "--game", "3").stdout
    check(third in expected and third.startswith(b"[Event"), "extract game 3: its exact bytes")
    p = run("extract", arc, "--game", "7", ok=False)
    check(p.returncode == 1 and b"no game 7" in p.stderr, "extract a missing game")

    # --fit-k: a first pass fits the model, which the header then carries
    fitted = os.path.join(tmp, "fitted.ucz")
    p = run("compress", SAMPLE, "-o", fitted, "--fit-k", *fast)
    check(b"fitted on" in p.stderr, "--fit-k reports the fit")
    mf = json.loads(run("info", "--json", fitted).stdout)[0]["members"][0]["model"]
    check(mf["kind"] == "rank" and (mf["k"], mf["floor"]) != (20, 0.03), "fitted parameters in the header: %s" % mf)
    check(run("decompress", fitted, "-o", "-").stdout == expected, "fitted archive decodes")
    p = run("compress", "-", "-o", os.path.join(tmp, "x.ucz"), "--fit-k", *fast, input=b"", ok=False)
    check(p.returncode == 2 and b"stdin" in p.stderr, "--fit-k needs a file")

    # Chess960 games are engine-coded (UCI_Chess960 on a second engine), among ordinary games
    c960 = corpus("cat5_chess960_cutechess_python_chess.pgn")
    mixed = os.path.join(tmp, "mixed.pgn")
    with open(mixed, "wb") as f:
        f.write(open(SAMPLE, "rb").read() + b"\n" + open(c960, "rb").read())
    marc = os.path.join(tmp, "mixed.ucz")
    p = run("compress", mixed, "-o", marc, *fast)
    check(b"kept as text" not in p.stderr, "Chess960 games coded: " + p.stderr.decode())
    mixed_back = run("decompress", marc, "-o", "-", "--canonical").stdout
    check(mixed_back == run("pgn", mixed).stdout, "Chess960 games come back (export format)")
    check(run("decompress", marc, "-o", "-").stdout == open(mixed, "rb").read(), "Chess960 games come back exactly")
    c960_text = mixed_back.split(b"fischerandom", 1)[-1]
    check(b" O-O " in c960_text and b" O-O-O " in c960_text, "both castling sides in the Chess960 games")
    mi = json.loads(run("info", "--json", marc).stdout)[0]
    check(mi["games"] == 10 and len(mi["members"]) == 1, "all games in one member")
    check(mi["members"][0]["chess960_fingerprint"] not in (None, mi["members"][0]["fingerprint"]),
          "the header names the Chess960 engine")
    sample_moves = json.loads(run("info", "--json", arc).stdout)[0]["moves"]
    check(mi["moves"] > sample_moves + 300, "Chess960 moves engine-coded (%d moves)" % mi["moves"])
    check(run("extract", marc, "--game", "8").stdout.count(b"fischerandom") == 1, "extract a Chess960 game")
    # Chess960 games after a first block of standard ones: a second member, with the engine
    late = os.path.join(tmp, "late.pgn")
    mates = corpus("cat4_pychess_mate_in_n_fen.pgn")
    with open(late, "wb") as f:
        f.write(open(mates, "rb").read() + b"\n" + open(c960, "rb").read())
    larc = os.path.join(tmp, "late.ucz")
    run("compress", late, "-o", larc, "--block-games", "64", *fast)
    li = json.loads(run("info", "--json", larc).stdout)[0]
    check(len(li["members"]) == 2 and li["members"][0]["chess960_fingerprint"] is None
          and li["members"][1]["chess960_fingerprint"], "a Chess960 member after a standard one")
    check(run("decompress", larc, "-o", "-").stdout == open(late, "rb").read(), "both members decode")
    # an engine without UCI_Chess960 keeps them as text
    fake_dir = os.path.join(tmp, "fake")
    os.mkdir(fake_dir)
    with open(os.path.join(fake_dir, "conf"), "w") as f:
        f.write("no_chess960 0\n")
    fake = os.path.join(SRC, "tests", "engine", "fake_uci.py")
    narc = os.path.join(tmp, "no960.ucz")
    p = subprocess.run([UCIZIP, "compress", c960, "-o", narc, "--engine", fake, *fast], capture_output=True,
                       env=dict(os.environ, FAKE_DIR=fake_dir))
    check(p.returncode == 0 and b"no option UCI_Chess960" in p.stderr, "engine without Chess960 reported")
    ni = json.loads(run("info", "--json", narc).stdout)[0]
    check(ni["games"] == 4 and ni["moves"] == 0, "its Chess960 games kept as text")
    p = subprocess.run([UCIZIP, "decompress", narc, "-o", "-", "--engine", fake], capture_output=True,
                       env=dict(os.environ, FAKE_DIR=fake_dir))
    check(p.stdout == open(c960, "rb").read(), "text games come back")
    chess960_decode_tests(tmp, marc, c960, fake, fake_dir)

    # list, --tag, ratings: from the tags alone; no engine can be started here
    no_engine = os.path.join(tmp, "no-engine")
    os.mkdir(no_engine)
    with open(os.path.join(no_engine, "stockfish.profile"), "w") as f:
        f.write("name = Stockfish\nexe = /nonexistent/stockfish\n")
    # (and an empty engine store: the store's copy would decode, test_engine_store.py)
    env = dict(os.environ, UZ_ENGINES_DIR=no_engine, PATH="/nonexistent", UZ_ENGINE_STORE=os.path.join(no_engine, "store"))

    def bare(*args):
        return subprocess.run([UCIZIP, *args], capture_output=True, env=env)

    p = bare("decompress", arc, "-o", "-")
    check(p.returncode == 1 and (b"nonexistent" in p.stderr or b"no installed engine profile" in p.stderr),
          "no engine can run in this environment")
    listed = bare("list", arc)
    check(listed.returncode == 0 and listed.stdout == run("list", SAMPLE).stdout, "list of the archive = of the PGN")
    rows = [line.split("\t") for line in listed.stdout.decode().splitlines()]
    plies = [len(line.split()) for line in run("pgn", "--uci", SAMPLE).stdout.decode().splitlines()]
    check([r[0] for r in rows] == [str(i) for i in range(1, 7)] and [int(r[8]) for r in rows] == plies,
          "list numbers and plies")
    check(rows[0][1] == "Capablanca, Jose Raul" and rows[0][2] == "-" and rows[0][5] == "0-1", "list fields")
    js = json.loads(bare("list", "--json", arc).stdout)
    check(len(js) == 6 and js[3]["white_elo"] == 1815 and js[3]["plies"] == plies[3], "list --json")
    sel = bare("list", arc, "--tag", "White=capablanca", "--tag", "Date<1920").stdout.decode().splitlines()
    check([r.split("\t")[0] for r in sel] == ["1"], "--tag: contains (any case) and a date bound")
    sel = bare("list", arc, "--tag", "BlackElo>=1819").stdout.decode().splitlines()
    check([r.split("\t")[0] for r in sel] == ["5", "6"], "--tag: numeric bound, games without the tag left out")
    p = bare("list", arc, "--tag", "White~x")
    check(p.returncode == 2 and b"column 6" in p.stderr and len(p.stderr.splitlines()) == 1, "bad --tag: " +
          p.stderr.decode())
    ratings = bare("ratings", "--json", arc)
    check(ratings.returncode == 0 and ratings.stdout == run("ratings", "--json", SAMPLE).stdout,
          "ratings of the archive = of the PGN, without the engine")
    rj = json.loads(ratings.stdout)
    capa = [x for x in rj["players"] if x["name"] == "Capablanca, Jose Raul"][0]
    check(rj["method"] == "Glicko-2" and rj["games"] == 6 and capa["games"] == 3 and capa["wins"] == 1
          and capa["draws"] == 1, "ratings counts")
    check(rj["players"] == sorted(rj["players"], key=lambda x: -x["rating"]), "ratings sorted")
    # chess.com's CurrentPosition is derived from the moves (structure version 3): list shows it as null
    # and refuses to filter on it, extract decodes the games to filter on it; decompress
    # gives the bytes back
    live = open(corpus("cat1_chesscom_live_clk.pgn"), "rb").read()
    three = b"[Event " + b"[Event ".join(live.split(b"[Event ")[1:4])
    cpgn, carc = os.path.join(tmp, "live3.pgn"), os.path.join(tmp, "live3.ucz")
    with open(cpgn, "wb") as f:
        f.write(three)
    run("compress", *fast, cpgn, "-o", carc)
    check(run("decompress", carc, "-o", "-").stdout == three, "chess.com games come back byte for byte")
    cj = json.loads(bare("list", "--json", carc).stdout)
    check(len(cj) == 3 and all(["CurrentPosition", None] in g["tags"] for g in cj), "a derived tag lists as null")
    p = bare("list", carc, "--tag", "CurrentPosition=8/")
    check(p.returncode == 1 and b"CurrentPosition is derived from the moves" in p.stderr and
          len(p.stderr.splitlines()) == 1, "a filter on a derived tag is refused: " + p.stderr.decode())
    fens = re.findall(rb'\[CurrentPosition "([^"]*)"\]', three)
    p = run("extract", carc, "--tag", "CurrentPosition==" + fens[1].decode())
    check(p.stdout.count(b"[Event ") == 1 and b'[CurrentPosition "%s"]' % fens[1] in p.stdout,
          "extract --tag decodes the games to filter on a derived tag")
    # Tag version 3 derives chess.com's ECOUrl from the moves and the opening table (its opening
    # name and moves): listed as null too, and extract --tag decodes the games to filter on it
    check(all(["ECOUrl", None] in g["tags"] for g in cj), "a derived ECOUrl lists as null")
    p = run("extract", carc, "--tag", "ECOUrl=Canal-Attack-3...Nc6")
    check(p.stdout.count(b"[Event ") == 1 and b"Sicilian-Defense-Canal-Attack-3...Nc6-4.O-O-e5-5.c3" in p.stdout,
          "extract --tag filters on a derived ECOUrl")
    # extract --tag decodes the matching games only (the engine is needed for those)
    sel = run("extract", arc, "--tag", "Black=Bfx", "--canonical").stdout
    games_b = [b"[" + g if not g.startswith(b"[") else g for g in canonical.split(b"\n\n[")]
    check(sel.strip() == b"\n\n".join(g.strip() for g in games_b[3:6]).strip(), "extract --tag")
    p = bare("extract", arc, "--tag", "Black=nobody")
    check(p.returncode == 1 and b"no game matches" in p.stderr, "extract --tag without a match starts no engine")

    # pipes, both ways
    piped = subprocess.run("%s compress - -o - --depth 1 < %s | %s decompress - -o -" % (UCIZIP, SAMPLE, UCIZIP),
                           shell=True, capture_output=True)
    check(piped.returncode == 0 and piped.stdout == expected, "stdin/stdout round trip")

    # concatenated archives
    arc2 = os.path.join(tmp, "club.ucz")
    run("compress", club, "-o", arc2, "--max-games", "3", "--coder", "huffman", *fast)
    cat = os.path.join(tmp, "cat.ucz")
    with open(cat, "wb") as f:
        f.write(open(arc, "rb").read() + open(arc2, "rb").read())
    both = run("decompress", cat, "-o", "-").stdout
    check(both.startswith(expected) and both.count(b"[Event ") == 9, "concatenated archives decode as one")
    check(json.loads(run("info", "--json", cat).stdout)[0]["games"] == 9, "info of concatenated archives")

    # the wrong engine is refused, and nothing is written
    wrong = os.path.join(tmp, "wrong.pgn")
    p = run("decompress", arc, "-o", wrong, "--engine", "ethereal", ok=False)
    err = p.stderr.decode()
    check(p.returncode == 1 and "Stockfish 15.1" in err and "depth 1" in err, "mismatch names the engine: " + err)
    check(not os.path.exists(wrong), "no output from a refused archive")
    p = run("decompress", arc, "-o", wrong, "--engine", "/nonexistent/engine", ok=False)
    check(p.returncode == 1 and b"/nonexistent/engine" in p.stderr and len(p.stderr.splitlines()) <= 2,
          "missing engine: short error naming it")

    # a damaged or truncated archive
    data = open(arc, "rb").read()
    for name, damaged in (("trunc", data[: len(data) // 2]), ("flip", data[:200] + bytes([data[200] ^ 4]) + data[201:]),
                          ("empty", b""), ("text", b"[Event \"x\"]\n")):
        path = os.path.join(tmp, name + ".ucz")
        with open(path, "wb") as f:
            f.write(damaged)
        p = run("decompress", path, "-o", os.path.join(tmp, name + ".pgn"), ok=False)
        check(p.returncode == 1 and b"corrupt" in p.stderr or b"not a ucizip" in p.stderr, name + ": " + p.stderr.decode())
        check(not os.path.exists(os.path.join(tmp, name + ".pgn")), name + ": no output")

    # an interrupted run leaves neither the output nor its temporary file
    import signal, time
    killed = os.path.join(tmp, "killed.ucz")
    proc = subprocess.Popen([UCIZIP, "compress", club, "-o", killed, "--depth", "6"], stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    proc.send_signal(signal.SIGTERM)
    proc.wait()
    check(proc.returncode != 0, "interrupted compress exits non-zero")
    check(not [f for f in os.listdir(tmp) if f.startswith("killed.ucz")], "nothing left after an interrupt")

    # coded comments (structure version 1): info counts the clocks and engine comments coded,
    # the near misses of coded_comments.pgn stay text, every byte comes back
    near = os.path.join(SRC, "tests", "data", "pgn", "layout", "coded_comments.pgn")
    # (the built-in oracle: the comments are the subject, and Stockfish took most of the time)
    for path, clocks, engine in ((near, 18, 14), (corpus("cat1_chesscom_live_clk.pgn"), 1309, 0)):
        cc = os.path.join(tmp, "cc.ucz")
        run("compress", "-f", path, "-o", cc, "--engine", "builtin")
        info = run("info", cc).stdout.decode()
        line = [l for l in info.splitlines() if l.startswith("coded comments: ")]
        check(line and ("bytes for %d clocks and %d engine comments" % (clocks, engine)) in line[0],
              "info counts coded comments: " + info)
        if line and engine == 0:
            code_bytes = int(line[0].split()[2])
            check(8 * code_bytes < 9 * clocks, "clocks cost under 9 bits each (%d bytes)" % code_bytes)
        check(run("decompress", cc, "-o", "-").stdout == open(path, "rb").read(), "coded comments come back exactly")

    # engine command
    eng = json.loads(run("engine", "--json", "--depth", "1").stdout)
    check(eng["name"] == "Stockfish 15.1" and len(eng["fingerprint"]) == 16 and eng["ms_per_position"] > 0, "engine --json")
    eng = json.loads(run("engine", "--json", "--depth", "1", "--engine", "ethereal").stdout)
    check(eng["name"].startswith("Ethereal"), "ethereal profile")

    engine_choice_tests(tmp)
    engine_safety_tests(tmp, arc, expected)

    return summary()


def chess960_decode_tests(tmp, marc, c960, fake, fake_dir):
    """Decoding checks the Chess960 engine against the member header's key 12: a wrong
    fingerprint, a Chess960 game in a member without key 12 and an engine without
    UCI_Chess960 are refused (exit 1) with what the archive needs."""
    data = open(marc, "rb").read()
    fields = ucz_bytes.header_fields(data)
    key12 = fields[12]
    forged = {"bad960": bytes([key12[0] ^ 1]) + key12[1:], "no960-key": None}
    wants = {"bad960": b"wrong engine: with UCI_Chess960 it gives fingerprint %s, the archive's Chess960 games "
                       b"need %s" % (key12.hex().encode(), forged["bad960"].hex().encode()),
             "no960-key": b"a Chess960 game in a member without a Chess960 engine"}
    for name, value in forged.items():
        changed = dict(fields)
        if value is None:
            del changed[12]
        else:
            changed[12] = value
        path = os.path.join(tmp, name + ".ucz")
        with open(path, "wb") as f:
            f.write(ucz_bytes.with_header(data, changed))
        p = run("decompress", path, "-o", os.path.join(tmp, name + ".pgn"), ok=False)
        check(p.returncode == 1 and wants[name] in p.stderr, "%s refused: %r" % (name, p.stderr))
    # made with the fake engine's Chess960 instance, decoded where it hides the option
    env = dict(os.environ, FAKE_DIR=fake_dir)
    with open(os.path.join(fake_dir, "conf"), "w") as f:
        f.write("none 0\n")
    farc = os.path.join(tmp, "fake960.ucz")
    p = subprocess.run([UCIZIP, "compress", c960, "-o", farc, "--engine", fake, "--depth", "1", "--workers", "1"],
                       capture_output=True, env=env)
    check(p.returncode == 0 and json.loads(run("info", "--json", farc).stdout)[0]["moves"] > 300,
          "the fake engine codes Chess960 games: %r" % p.stderr)
    with open(os.path.join(fake_dir, "conf"), "w") as f:
        f.write("no_chess960 0\n")
    p = subprocess.run([UCIZIP, "decompress", farc, "-o", "-", "--engine", fake], capture_output=True, env=env)
    check(p.returncode == 1 and b"the archive's Chess960 games need the engine with UCI_Chess960 (fingerprint" in p.stderr,
          "an engine without UCI_Chess960 refused for Chess960 games: %r" % p.stderr)


def craft_settings(src, dst, settings):
    """Copies archive src to dst with the engine settings text (header key 8, with keys
    3-7, which go with it) set to settings; the index is rebuilt for the new offsets."""
    data = open(src, "rb").read()
    fields = ucz_bytes.header_fields(data)
    fields.update({3: varint(1), 4: varint(0), 5: varint(0), 6: varint(1), 7: varint(1), 8: settings.encode()})
    with open(dst, "wb") as f:
        f.write(ucz_bytes.with_header(data, fields))


def engine_choice_tests(tmp):
    """An archive made with --engine ethereal decodes with a plain decompress, verify and
    extract: the installed Ethereal profile is found from the header and named."""
    arc = os.path.join(tmp, "ethereal.ucz")
    run("compress", SAMPLE, "-o", arc, "--engine", "ethereal", "--workers", "2")
    expected = open(SAMPLE, "rb").read()
    p = run("decompress", arc, "-o", "-")
    check(p.returncode == 0 and p.stdout == expected, "ethereal archive decodes without --engine")
    check(p.stderr == b"", "decompress is silent without -v: %r" % p.stderr)
    p = run("decompress", arc, "-o", "-", "-v")
    check(p.returncode == 0 and p.stdout == expected and p.stderr.count(b"profile 'ethereal'") == 1,
          "with -v the chosen profile is named once: %r" % p.stderr)
    p = run("verify", arc)
    check(b"OK" in p.stdout and b"profile 'ethereal'" in p.stderr, "verify picks the ethereal profile")
    p = run("extract", arc, "--game", "2")
    check(p.stdout.startswith(b"[Event ") and b"profile 'ethereal'" in p.stderr, "extract picks the ethereal profile")
    # A stated engine still wins, and a wrong one is still refused, with one message.
    p = run("decompress", arc, "-o", "-", "--engine", "stockfish", ok=False)
    check(p.returncode == 1 and p.stderr.count(b"wrong engine") == 1, "a named wrong engine: one message: %r" % p.stderr)


def engine_safety_tests(tmp, arc, expected):
    """What an archive or a planted file may make the program run: nothing of theirs."""
    marker = os.path.join(tmp, "engine-started")
    spy = os.path.join(tmp, "spy-engine")
    with open(spy, "w") as f:
        f.write("#!/bin/sh\ntouch '%s'\nexec /usr/games/stockfish\n" % marker)
    os.chmod(spy, 0o755)
    p = run("decompress", arc, "-o", "-", "--engine", spy)
    check(p.stdout == expected and os.path.exists(marker), "the spy engine works as an engine")
    os.unlink(marker)

    # An archive naming a log file option (or resource limits) is refused before any engine starts.
    # (the archive has the profile's settings: its header stores none, `engine` shows them)
    check(8 not in ucz_bytes.header_fields(open(arc, "rb").read()), "no settings text for the profile's defaults")
    text = json.loads(run("engine", "--json", "--depth", "1").stdout)["settings"]
    check("option.Hash=1" in text, "settings text of the profile")
    log = os.path.join(tmp, "dbg.log")
    for extra, what in (("option.Debug Log File=%s\n" % log, "Debug Log File"),
                        ("cache_entries=100000000\n", "cache_entries"), ("timeout_ms=100000000\n", "timeout_ms"),
                        ("option.Threads=2\n", "Threads 2")):
        bad = os.path.join(tmp, "bad.ucz")
        craft_settings(arc, bad, text + extra)
        for cmd in (["decompress", bad, "-o", os.path.join(tmp, "refused-out.pgn")], ["verify", bad],
                    ["extract", bad, "--game", "1", "-o", os.path.join(tmp, "refused1.pgn")]):
            for engine in ([], ["--engine", spy]):
                p = run(*cmd, *engine, ok=False)
                check(p.returncode == 1 and b"refused" in p.stderr, "%s %s: refused: %r" % (cmd[0], what, p.stderr))
                check(not os.path.exists(log), "%s %s: no log file written" % (cmd[0], what))
                check(not os.path.exists(marker), "%s %s: no engine started" % (cmd[0], what))
        check(not os.path.exists(os.path.join(tmp, "refused-out.pgn")), what + ": no output")

    # Threads 2 in a profile: refused with a reason, nothing written.
    prof = os.path.join(tmp, "threads2.profile")
    with open(prof, "w") as f:
        f.write("name = Stockfish\nexe = /usr/games/stockfish\noption.Threads = 2\noption.Hash = 1\n")
    out = os.path.join(tmp, "t2.ucz")
    p = run("compress", SAMPLE, "-o", out, "--engine", prof, ok=False)
    check(p.returncode == 1 and b"Threads 2 refused" in p.stderr and not os.path.exists(out),
          "Threads 2 is refused: %r" % p.stderr)

    # A nondeterministic engine: caught by the start-up probes, or by the rechecks later.
    fake = os.path.join(SRC, "tests", "engine", "fake_uci.py")
    fake_dir = os.path.join(tmp, "fake")
    os.makedirs(fake_dir, exist_ok=True)
    env = dict(os.environ, FAKE_DIR=fake_dir)
    for start, what in ((1, "at start-up"), (60, "while coding")):
        with open(os.path.join(fake_dir, "conf"), "w") as f:
            f.write("jitter_from %d\n" % start)
        if os.path.exists(os.path.join(fake_dir, "gos")):
            os.unlink(os.path.join(fake_dir, "gos"))
        out = os.path.join(tmp, "jitter.ucz")
        p = subprocess.run([UCIZIP, "compress", SAMPLE, "-o", out, "--engine", fake, "--workers", "2"],
                           capture_output=True, env=env)
        check(p.returncode == 1 and b"not deterministic" in p.stderr and not os.path.exists(out),
              "nondeterministic engine refused %s: %r" % (what, p.stderr))

    # Profiles planted beside a copy of the program are not used (nor ../share, ../../engines).
    import shutil
    base = os.path.join(tmp, "planted")
    bindir = os.path.join(base, "x", "bin")
    for d in (os.path.join(bindir, "engines"), os.path.join(base, "x", "share", "ucizip", "engines"),
              os.path.join(base, "engines")):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "stockfish.profile"), "w") as f:
            f.write("name = Stockfish\nexe = %s\noption.Hash = 1\n" % spy)
    copy = os.path.join(bindir, "ucizip")
    shutil.copy(UCIZIP, copy)
    env = {k: v for k, v in os.environ.items() if k != "UZ_ENGINES_DIR"}
    out = os.path.join(tmp, "planted.ucz")
    # Without UZ_ENGINES_DIR: the installed data directory, then the profiles compiled into
    # the library; neither a planted profile nor the source tree's (the program names no
    # path of the tree it was built in).
    p = subprocess.run([copy, "compress", SAMPLE, "-o", out, "--workers", "1"], capture_output=True, env=env)
    check(p.returncode == 0 and os.path.exists(out) and not os.path.exists(marker),
          "without UZ_ENGINES_DIR the compiled-in profile is used, no planted one: %r" % p.stderr)
    os.remove(out)
    env["UZ_ENGINES_DIR"] = os.environ["UZ_ENGINES_DIR"]
    p = subprocess.run([copy, "compress", SAMPLE, "-o", out, "--workers", "1"], capture_output=True, env=env)
    check(p.returncode == 0 and os.path.exists(out), "the copied program compresses: %r" % p.stderr)
    check(not os.path.exists(marker), "no planted profile was used")
    p = subprocess.run([copy, "verify", out], capture_output=True, env=env)
    check(p.returncode == 0 and not os.path.exists(marker), "nor when decoding")


if __name__ == "__main__":
    sys.exit(main())
