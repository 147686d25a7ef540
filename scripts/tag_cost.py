#!/usr/bin/env python3
"""What each tag name costs in an archive: for every tag name of a PGN file, the tag bytes
(`ucizip info --json`, split "tags") of the file compressed whole less those of the file
compressed with that name's tags left out of every game, per game: the bytes the name adds
given all the others (the sum over names is not the total: names help code each other).
Compresses with the built-in oracle (the tags' share does not depend on it); --part
held-out measures the held-out games alone (tools/game_split.h, as scripts/stream_report.py).

usage: scripts/tag_cost.py UCIZIP FILE.pgn [--part all|held-out] [--top N]
  prints a Markdown table: tag name, games with it, bytes a game it adds, share of the tag bytes"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stream_report import FEATURES, held_out_text  # noqa: E402

TAG_LINE = re.compile(rb'^\[([A-Za-z0-9_]+)\s+"')


def tag_bytes(ucizip, text, tmp):
    pgn, out = os.path.join(tmp, "in.pgn"), os.path.join(tmp, "out.ucz")
    open(pgn, "wb").write(text)
    subprocess.run([ucizip, "compress", "-q", "-f", "--engine", "builtin", pgn, "-o", out], check=True)
    info = json.loads(subprocess.run([ucizip, "info", "--json", out], check=True, capture_output=True).stdout)[0]
    return info["games"], info["split"]["tags"]


def without(text, name):
    """The PGN text with every tag line of that name left out."""
    return b"".join(line for line in text.splitlines(keepends=True)
                    if not (TAG_LINE.match(line) and TAG_LINE.match(line).group(1) == name))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ucizip")
    ap.add_argument("pgn")
    ap.add_argument("--part", default="all", choices=["all", "held-out"])
    ap.add_argument("--features", default=FEATURES, help="ucizip-features (game hashes, for --part held-out)")
    ap.add_argument("--top", type=int, default=0, help="only the N most frequent names (0: all)")
    args = ap.parse_args(argv[1:])
    text = open(args.pgn, "rb").read() if args.part == "all" else held_out_text(args.pgn, args.ucizip, args.features)[0]
    if not text:
        sys.exit(f"{args.pgn}: no held-out game")
    counts = {}
    for line in text.splitlines():
        m = TAG_LINE.match(line)
        if m:
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    names = sorted(counts, key=lambda n: -counts[n])
    if args.top:
        names = names[:args.top]
    with tempfile.TemporaryDirectory() as tmp:
        games, whole = tag_bytes(args.ucizip, text, tmp)
        print(f"{os.path.basename(args.pgn)} ({args.part}): {games} games, tags {whole / max(games, 1):.1f} B/game")
        print("| tag | games with it | B/game it adds | share |")
        print("|---|---:|---:|---:|")
        for name in names:
            _, less = tag_bytes(args.ucizip, without(text, name), tmp)
            add = (whole - less) / max(games, 1)
            print(f"| {name.decode()} | {counts[name]} | {add:.2f} | {100 * (whole - less) / max(whole, 1):.0f} % |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
