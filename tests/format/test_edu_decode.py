#!/usr/bin/env python3
"""tools/edu_decode.py (a decoder written from doc/format.md alone) against the library:
on archives of small real corpus files (comments, variations, NAGs, null moves, FENs,
Chess960, verbatim games, text after the last game), compressed with the real engine, it
must find the same games, tags (all of them, in order), results and plies as
`ucizip list --json`; and on the archive vectors of doc/format.md (versions 2 and 3) the
tags those vectors' structure streams hold.

usage: test_edu_decode.py UCIZIP EDU_DECODE FORMAT_MD"""
import json
import os
import re
import subprocess
import sys
import tempfile

FILES = ["cat4_handwritten_edge_cases.pgn", "cat4_handwritten_semicolon_comments.pgn",
         "cat4_python_chess_utf8_bom.pgn", "cat4_python_chess_testdata_misc.pgn",
         "cat5_chess960_cutechess_python_chess.pgn", "cat4_sirius_kbn_endgame_fen_no_blank_lines.pgn",
         # coded tags (doc/format.md, "Coded tags"): Lichess and chess.com exports
         "cat1_lichess_marathon_2025.pgn", "cat1_chesscom_live_clk.pgn"]
# ... and every kind of value the tag models must leave as text (tests/data/pgn/layout; tag
# version 2's models at their edges);
# TCEC comments make a structure version 2 archive (the engine-comment code's framing is checked)
DATA_FILES = ["tag_near_misses.pgn", "tag_v2_near_misses.pgn", "tcec_near_miss.pgn"]

failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", msg)


def edu(edu_decode, path):
    out = subprocess.run([sys.executable, edu_decode, path, "--json"], capture_output=True, text=True)
    check(out.returncode == 0, f"edu_decode {path}: {out.stderr.strip()}")
    return json.loads(out.stdout) if out.returncode == 0 else []


def main():
    ucizip, edu_decode, format_md = sys.argv[1:4]
    corpus = os.environ.get("UZ_CORPUS_DIR", "../shared/corpus")
    with tempfile.TemporaryDirectory() as tmp:
        games_seen = 0
        data_dir = os.path.join(os.path.dirname(os.path.abspath(format_md)), "..", "tests", "data", "pgn", "layout")
        for name in FILES + DATA_FILES:
            src = os.path.join(data_dir if name in DATA_FILES else corpus, name)
            if not os.path.exists(src):
                if os.environ.get("UZ_REQUIRE_CORPUS"):
                    check(False, f"missing {src}")
                continue
            archive = os.path.join(tmp, name + ".ucz")
            r = subprocess.run([ucizip, "compress", src, "-o", archive, "-q", "-f", "--workers", "2"],
                               capture_output=True, text=True)
            check(r.returncode == 0, f"compress {name}: {r.stderr.strip()}")
            if r.returncode:
                continue
            mine = edu(edu_decode, archive)
            lib = json.loads(subprocess.run([ucizip, "list", archive, "--json"], capture_output=True,
                                            check=True).stdout.decode("utf-8", "replace"))
            check(len(mine) == len(lib), f"{name}: {len(mine)} games, the library lists {len(lib)}")
            if name == "tcec_near_miss.pgn":
                check(any(g.get("engine_code_bytes") for g in mine), f"{name}: no engine code seen")
            for a, b in zip(mine, lib):
                where = f"{name} game {b['game']}"
                check(a["game"] == b["game"], f"{where}: numbered {a['game']}")
                plies = -1 if b["plies"] is None else b["plies"]  # (null: a verbatim game's, not counted)
                check(a["plies"] == plies, f"{where}: {a['plies']} plies, the library {b['plies']}")
                if a["kind"] != "game":
                    continue  # a verbatim game's tags come from parsing its text
                tags = dict(reversed(a["tags"]))  # the first of equal names, as uz_game_tag
                for key, tag in (("white", "White"), ("black", "Black"), ("white_elo", "WhiteElo"),
                                 ("black_elo", "BlackElo"), ("date", "Date"), ("event", "Event")):
                    want = tags.get(tag)
                    if key.endswith("_elo"):  # a number, or null for "?", "" and the like
                        want = int(want) if want and re.fullmatch(r"[0-9]{1,9}", want) else None
                    check(want == b[key], f"{where}: {tag} {want!r}, the library {b[key]!r}")
                check(a["result"] == b["result"], f"{where}: result {a['result']}, the library {b['result']}")
                check([list(t) for t in a["tags"]] == b["tags"], f"{where}: tags {a['tags']}, the library {b['tags']}")
                games_seen += 1
        print(f"{games_seen} games compared")

        # The archive vectors of the specification.
        text = open(format_md, encoding="utf-8").read()
        vectors = re.findall(r"```uz-vector archive\n(.*?)```", text, re.S)
        check(len(vectors) >= 2, "doc/format.md has fewer than two archive vectors")
        for i, v in enumerate(vectors):
            fields = dict(line.split(": ", 1) for line in v.strip().split("\n"))
            path = os.path.join(tmp, f"vector{i}.ucz")
            with open(path, "wb") as f:
                f.write(bytes.fromhex(fields["hex"]))
            games = edu(edu_decode, path)
            if fields.get("blocks") == "0":
                check(games == [], f"archive vector {i}: no game")
                continue
            check(len(games) == 1 and games[0]["move_stream_bytes"] == len(fields["move_stream"].split()),
                  f"archive vector {i}: one game with its move stream")
            structure = bytes.fromhex(fields["structure"])
            for name, value in games[0]["tags"] if games else []:
                check(name.encode() in structure and value.encode() in structure,
                      f"archive vector {i}: tag {name} {value!r} not in its structure stream")
    print("ok" if not failures else f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
