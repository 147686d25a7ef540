#!/usr/bin/env python3
"""Tag bytes a game (`ucizip info --json`, split "tags") of every corpus file, for one or
two ucizip programs side by side (e.g. before and after a change of the tag coding).
Compresses with the built-in oracle: the tags' share does not depend on the oracle.

usage: scripts/tag_bytes_table.py CORPUS_DIR UCIZIP [UCIZIP2]
  prints a Markdown table: file, games, tag bytes a game for each program (and the change)"""
import json
import os
import subprocess
import sys
import tempfile


def tag_bytes(ucizip, pgn, out):
    subprocess.run([ucizip, "compress", "-q", "-f", "--engine", "builtin", pgn, "-o", out], check=True)
    info = json.loads(subprocess.run([ucizip, "info", "--json", out], check=True, capture_output=True).stdout)[0]
    return info["games"], info["split"]["tags"]


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    corpus, programs = argv[1], argv[2:]
    head = "| file | games | " + " | ".join(f"tags B/game ({os.path.basename(os.path.dirname(os.path.dirname(p))) or p})"
                                             for p in programs)
    print(head + (" | change |" if len(programs) == 2 else " |"))
    print("|---|---:|" + "---:|" * (len(programs) + (len(programs) == 2)))
    totals = [0] * len(programs)
    all_games = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(corpus)):
            if not name.endswith(".pgn"):
                continue
            row = []
            for i, p in enumerate(programs):
                games, tags = tag_bytes(p, os.path.join(corpus, name), os.path.join(tmp, f"{i}.ucz"))
                row.append(tags / max(games, 1))
                totals[i] += tags
            all_games += games
            cells = " | ".join(f"{v:.1f}" for v in row)
            change = f" | {100 * (row[1] - row[0]) / row[0]:+.1f} %" if len(row) == 2 and row[0] else (" | -" if len(row) == 2 else "")
            print(f"| {name} | {games} | {cells}{change} |")
    print(f"| all | {all_games} | " + " | ".join(f"{t / all_games:.1f}" for t in totals) +
          (f" | {100 * (totals[1] - totals[0]) / totals[0]:+.1f} % |" if len(totals) == 2 else " |"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
