#!/usr/bin/python3
"""Writes a fixed, reproducible sample of the games of ../shared/training/*.pgn.zst in parts,
for labelling with Stockfish (scripts/training_labels.sh).

A game is taken when the FNV-1a 64 hash of its text (as the file holds it, tags and movetext,
no trailing blank line) is 0 mod --every; the taken games are dealt round-robin to --parts
files OUT/train_NN.pgn, the online and over-the-board files interleaved in proportion to
their sizes, so that any first k parts are a sample of the same mix as all of them.
None of these games is in ../shared/corpus (the README of ../shared/training says so), so
the corpus's held-out part stays unseen whatever is taken here.

Usage: scripts/training_games_sample.py OUT [--every 40] [--parts 16]
"""
import argparse
import sys
import os
import subprocess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fnv1a import fnv1a64  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRAINING = os.path.join(ROOT, "..", "shared", "training")


def games(path):
    """The games of a .pgn.zst file: the files separate games by one blank line before a tag line."""
    text = subprocess.run(["zstd", "-dc", path], capture_output=True, check=True).stdout
    cur = []
    prev_blank = True
    for line in text.split(b"\n"):
        if line.startswith(b"[") and prev_blank and any(not l.startswith(b"[") and l for l in cur):
            yield b"\n".join(cur).rstrip(b"\n")
            cur = []
        cur.append(line)
        prev_blank = not line.strip()
    if any(cur):
        yield b"\n".join(cur).rstrip(b"\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--every", type=int, default=40)
    ap.add_argument("--parts", type=int, default=16)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    taken = []
    for name in ("human-otb.pgn.zst", "human-online.pgn.zst"):
        sel = [g for g in games(os.path.join(TRAINING, name)) if fnv1a64(g) % args.every == 0]
        print("%s: %d games taken" % (name, len(sel)))
        taken.append(sel)
    # Interleave the two files in proportion: sort by each game's fractional position in its file.
    merged = sorted(((i / len(sel), k, g) for k, sel in enumerate(taken) for i, g in enumerate(sel)),
                    key=lambda t: (t[0], t[1]))
    outs = [open(os.path.join(args.out, "train_%02d.pgn" % p), "wb") for p in range(args.parts)]
    for i, (_, _, g) in enumerate(merged):
        outs[i % args.parts].write(g + b"\n\n")
    for f in outs:
        f.close()
    print("%d games in %d parts under %s" % (len(merged), args.parts, args.out))


if __name__ == "__main__":
    main()
