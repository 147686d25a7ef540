#!/usr/bin/python3
"""Where an archive's bytes go, file by file: for every corpus file, the bytes a game of
each stream of `ucizip info --json` (moves; tags; per-game structure: records, text
records, section sizes; clocks; engine comments; other comments and the text of verbatim
games; overhead: headers, block headers, index), the archive's size and its bytes a game
beside those of `xz -9` and `zstd -19` of the same text, and the archive as a percentage
of each; a last row sums the files.

The oracle is the builtin (`--engine builtin`, depth 1) by default, for speed: a whole
corpus run takes minutes, and every stream but the moves is the same with any oracle
(the moves cost a little more than with Stockfish). `--engine stockfish` (or any
--engine value of ucizip) measures with that engine.

--part held-out (the default) measures the held-out games of each file (FNV-1a 64 of the
game's canonical PGN 0 mod 5, tools/game_split.h), cut from the file with their exact
bytes; --part all the whole files. A file whose games cannot be cut at `[Event ` lines
(their count differs from the hashes') is measured on the held-out games' canonical PGN
(marked `*`).

Usage: scripts/stream_report.py [--engine E] [--part held-out|all] [--files A.pgn,B.pgn]
                                [--corpus DIR] [--ucizip PROGRAM] [--features PROGRAM]
                                [--json OUT.json]
Prints a Markdown table (doc/benchmarks.md keeps one)."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus")
UCIZIP = os.path.join(ROOT, "build", "ucizip")
FEATURES = os.path.join(ROOT, "build", "tools", "ucizip-features")
STREAMS = ("moves", "tags", "structure", "clocks", "engine_comments", "comments", "overhead")
HEADS = ("moves", "tags", "struct.", "clocks", "engine c.", "comments", "overhead")


def held_out_text(path, ucizip, features, keep=lambda h: h % 5 == 0):
    """The held-out games of path (or those whose hash keep() takes, e.g. the training part's):
    their exact bytes when the file cuts into games at `[Event ` lines, else their canonical
    PGN; and whether they are exact."""
    hashes = [int(h, 16) for h in subprocess.run([features, path, "--hashes"], capture_output=True, text=True,
                                                 check=True).stdout.split()]
    data = open(path, "rb").read()
    starts = [m.start() for m in re.finditer(rb"(?m)^\[Event ", data)]
    if len(starts) == len(hashes) and starts:
        bounds = [0] + starts[1:] + [len(data)]
        return b"".join(data[bounds[i]:bounds[i + 1]] for i, h in enumerate(hashes) if keep(h)), True
    # Export format: a game is its tag block (if any) and its movetext, each ended by a blank line.
    text = subprocess.run([ucizip, "pgn", path], capture_output=True, check=True).stdout
    games, tags = [], b""
    for chunk in text.split(b"\n\n"):
        if chunk.startswith(b"["):
            tags = chunk + b"\n\n"
        elif chunk.strip():
            games.append(tags + chunk)
            tags = b""
    if len(games) != len(hashes):
        return None, False
    return b"".join(g.rstrip(b"\n") + b"\n\n" for g, h in zip(games, hashes) if keep(h)), False


def packed_size(cmd, data):
    return len(subprocess.run(cmd, input=data, capture_output=True, check=True).stdout)


def measure(name, data, args, tmp):
    src, arc = os.path.join(tmp, name), os.path.join(tmp, name + ".ucz")
    with open(src, "wb") as f:
        f.write(data)
    subprocess.run([args.ucizip, "compress", src, "-o", arc, "-q", "-f", "--engine", args.engine], check=True,
                   capture_output=True)
    info = json.loads(subprocess.run([args.ucizip, "info", arc, "--json"], capture_output=True, check=True).stdout)[0]
    back = subprocess.run([args.ucizip, "decompress", arc, "-o", "-"], capture_output=True, check=True).stdout
    if back != data:
        sys.exit("%s: the archive does not decode to its input" % name)
    return {"file": name, "games": info["games"], "bytes": info["bytes"], "input": len(data),
            "split": info["split"], "xz": packed_size(["xz", "-9", "-c"], data),
            "zstd": packed_size(["zstd", "-19", "-c", "-q"], data)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="builtin")
    ap.add_argument("--part", choices=("held-out", "all"), default="held-out")
    ap.add_argument("--files", default="")
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--ucizip", default=UCIZIP)
    ap.add_argument("--features", default=FEATURES)
    ap.add_argument("--json")
    args = ap.parse_args()
    names = args.files.split(",") if args.files else sorted(f for f in os.listdir(args.corpus) if f.endswith(".pgn"))
    rows = []
    with tempfile.TemporaryDirectory(prefix="ucizip-streams-") as tmp:
        for name in names:
            path = os.path.join(args.corpus, name)
            exact = True
            if args.part == "all":
                data = open(path, "rb").read()
            else:
                data, exact = held_out_text(path, args.ucizip, args.features)
                if not data:
                    print("%s: no held-out game" % name, file=sys.stderr)
                    continue
            row = measure(name, data, args, tmp)
            row["exact"] = exact
            rows.append(row)
            print("%s: %d games, %d bytes" % (name, row["games"], row["bytes"]), file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    print("Bytes a game of each stream (`ucizip info --json`), %s, oracle %s; the archive, `xz -9` and `zstd -19`"
          " a game; the archive as %% of each." % ("held-out games" if args.part == "held-out" else "whole files",
                                                  args.engine))
    print()
    print("| file | games | " + " | ".join(HEADS) + " | archive | a game | xz -9 | zstd -19 | % of xz | % of zstd |")
    print("|---|---:|" + "---:|" * len(HEADS) + "---:|---:|---:|---:|---:|---:|")
    total = {"file": "all files", "exact": True, "games": 0, "bytes": 0, "xz": 0, "zstd": 0,
             "split": {s: 0 for s in STREAMS}}
    for r in rows:
        for k in ("games", "bytes", "xz", "zstd"):
            total[k] += r[k]
        for s in STREAMS:
            total["split"][s] += r["split"][s]
    for r in rows + ([total] if len(rows) > 1 else []):
        g = max(r["games"], 1)
        cells = ["%.1f" % (r["split"][s] / g) for s in STREAMS]
        print("| %s%s | %d | %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f |" % (
            r["file"].removesuffix(".pgn"), "" if r["exact"] else " *", r["games"], " | ".join(cells), r["bytes"],
            r["bytes"] / g, r["xz"] / g, r["zstd"] / g, 100.0 * r["bytes"] / r["xz"], 100.0 * r["bytes"] / r["zstd"]))


if __name__ == "__main__":
    main()
