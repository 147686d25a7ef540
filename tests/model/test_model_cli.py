#!/usr/bin/env python3
"""End-to-end tests of the player model with the real Stockfish: archives written with
the rank model (the default before the player model) and with the first player weights
still decode; the player model
round-trips real corpus games (variations included) and names itself in the header; stats
shows it beside the reference; a damaged weights file is refused with file:line."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

UCIZIP, FEATURES = sys.argv[1], sys.argv[2]
SRC = os.environ["UZ_SRC_ROOT"]
sys.path.insert(0, os.path.join(SRC, "tests", "cli"))
from harness import check, corpus, summary  # noqa: E402
from harness import run_cmd as run  # noqa: E402

DATA = os.path.join(SRC, "tests", "data", "model")


def first_games(path, n, out):
    text = open(path, "rb").read().replace(b"\r\n", b"\n")
    parts = text.split(b"\n[Event ")
    open(out, "wb").write(parts[0] + b"".join(b"\n[Event " + p for p in parts[1:n]) + b"\n")


def main():
    tmp = tempfile.mkdtemp(prefix="ucizip-model-")
    fast = ["--workers", "2"]

    # Archives of every model and weight set ever the default decode after any change or
    # retraining to the same games, and their header names what wrote them: the rank
    # model (before the player model), player weights v1, v2 (the first with a hidden layer),
    # v2 in structure version 4 with tag version 2 and opening book 1, v14 (fitted at scale),
    # v14 with tag version 3 (ECO and Opening derived from the moves), v15 (v14 and the
    # policy over the board) in structure version 4 with tag version 4, and in structure
    # version 5 with tag version 5 (Lichess's Site as an identifier).
    expected = open(os.path.join(DATA, "fixture_rank.pgn"), "rb").read()
    for fixture, model in (("fixture_rank_model.ucz", "model: rank"), ("fixture_player_v1.ucz", "player v1"),
                           ("fixture_player_v2.ucz", "player v2 "),
                           ("fixture_player_v2_struct4.ucz", "player v2 "),
                           ("fixture_player_v14.ucz", "player v14 "),
                           ("fixture_player_v14_tag3.ucz", "player v14 "),
                           ("fixture_player_v15_struct4.ucz", "player v15 "),
                           ("fixture_player_v15.ucz", "player v15 ")):
        path, out = os.path.join(DATA, fixture), os.path.join(tmp, fixture + ".pgn")
        run([UCIZIP, "decompress", path, "-o", out] + fast)
        check(open(out, "rb").read() == expected, "%s decodes to its expected games" % fixture)
        info = run([UCIZIP, "info", path]).stdout.decode()
        check(model in info, "%s names '%s': %s" % (fixture, model, info))

    # A UCI engine's new archive gets its weight set by depth (src/model/player_model.h:
    # v15 at depth 1, the default, v2 deeper); both decode to their source.
    src = os.path.join(DATA, "fixture_rank.pgn")
    for opts, want in (([], "player v15 "), (["--depth", "2"], "player v2 ")):
        arc, back = os.path.join(tmp, "depth%s.ucz" % "".join(opts)), os.path.join(tmp, "depth.back")
        run([UCIZIP, "compress", src, "-o", arc, "-q", "-f"] + opts + fast)
        info = run([UCIZIP, "info", arc]).stdout.decode()
        check(want in info, "compress %s: the archive names '%s': %s" % (" ".join(opts), want, info))
        run([UCIZIP, "decompress", arc, "-o", back, "-f"] + fast)
        check(open(back, "rb").read() == expected, "compress %s: the archive decodes to its source" % " ".join(opts))

    # round trips with the default (player) model on real games of each category
    names = ["cat1_lichess_rated_blitz_rapid.pgn", "cat2_tata_steel_2022_masters.pgn",
             "cat3_sirius_cutechess_selfplay.pgn", "cat1_uscf_otb_club_annotated.pgn"]
    for name in names:
        path = corpus(name)
        src = os.path.join(tmp, name)
        first_games(path, 3, src)
        arc, back = src + ".ucz", src + ".back"
        run([UCIZIP, "compress", src, "-o", arc, "-q"] + fast)
        info = run([UCIZIP, "info", arc]).stdout.decode()
        check("model: player v" in info, "%s: header names the player model: %s" % (name, info))
        run([UCIZIP, "decompress", arc, "-o", back] + fast)
        canon = run([UCIZIP, "pgn", src]).stdout
        check(open(back, "rb").read() == open(src, "rb").read(), "%s: player-model round trip" % name)
        if name.startswith("cat1_uscf"):  # annotated: variations are coded with the model too
            check(b"(" in canon, "the annotated games have variations")

    # stats: the chosen model in 'range', the rank model beside it as 'reference'
    st = run([UCIZIP, "stats", src, "--json"] + fast).stdout.decode()
    check('"reference"' in st and '"kind":"player"' in st, "stats shows both models: " + st)
    ex = run([UCIZIP, "explain", src, "--game", "1"] + fast).stdout.decode()
    check("features of the played move" in ex, "explain lists the feature contributions")

    # a damaged weights file is refused, naming the file and line
    good = max(glob.glob(os.path.join(SRC, "data", "player_model", "weights-v*.txt")),
               key=lambda p: int(p.rsplit("-v", 1)[1][:-4]))
    bad = os.path.join(tmp, "weights.txt")
    lines = open(good).read().split("\n")
    i = next(k for k, l in enumerate(lines) if l.startswith("RANK0 "))
    lines[i] = "RANK0 %d" % (int(lines[i].split()[1]) + 1)
    open(bad, "w").write("\n".join(lines))
    p = run([FEATURES, src, "--hashes", "--weights", bad], ok=False)
    err = p.stderr.decode()
    check(p.returncode == 1 and "hash mismatch" in err and err.startswith(bad + ":"), "damaged weights refused: " + err)
    check(run([FEATURES, src, "--hashes", "--weights", good]).returncode == 0, "the shipped weights load")

    shutil.rmtree(tmp)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
