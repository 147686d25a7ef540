#!/usr/bin/python3
"""The cost-compression frontier on held-out games: bits/move of the player model (the
`range` figure of `ucizip stats`) and of the rank model (`reference`), and wall time per
ply, for several engine settings. Held-out games are those of the training split's rule
(FNV-1a 64 of the canonical PGN text 0 mod 5, not in ../shared/samples), the first
--games of them from each category's files.

Usage: scripts/player_model_frontier.py [--games 8] [--depths 1,2,3,4,8] [--nodes 100,1000]
       [--modes multipv,permove]
A node limit is run with depth 64 (the limit decides, not the profile's depth).
The player model's weights were trained on depth-1 multipv scores; other settings use the
same weights (not refitted).
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus")
FILES = {
    "amateur": ["cat1_lichess_rated_blitz_rapid.pgn", "cat1_lichess_casual_humans_vs_ai_level5.pgn"],
    "master": ["cat2_kasparov_career_crlf.pgn", "cat2_carlsen_lichess_accounts.pgn"],
    "engine": ["cat3_sirius_cutechess_selfplay.pgn", "cat3_tcec_engine_games_full_comments.pgn"],
}


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def held_out_games(path, n, samples):
    ucizip, feats = os.path.join(ROOT, "build", "ucizip"), os.path.join(ROOT, "build", "tools", "ucizip-features")
    hashes = [int(h, 16) for h in run(feats, path, "--hashes").split()]
    text = run(ucizip, "pgn", path)
    games = ["[Event " + g if i else g for i, g in enumerate(text.split("\n[Event "))]
    assert len(games) == len(hashes), path
    return [g.rstrip("\n") + "\n\n" for g, h in zip(games, hashes) if h % 5 == 0 and h not in samples][:n]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=8, help="held-out games per file")
    ap.add_argument("--depths", default="1,2,3,4,8")
    ap.add_argument("--nodes", default="")
    ap.add_argument("--modes", default="multipv")
    ap.add_argument("--workers", default="2")
    args = ap.parse_args()
    feats = os.path.join(ROOT, "build", "tools", "ucizip-features")
    samples = set()
    for f in ("amateur", "master", "engine"):
        p = os.path.join(ROOT, "..", "shared", "samples", f + ".pgn")
        if os.path.exists(p):
            samples.update(int(h, 16) for h in run(feats, p, "--hashes").split())
    tmp = tempfile.mkdtemp(prefix="ucizip-frontier-")
    subsets = {}
    for cat, files in FILES.items():
        games = []
        for f in files:
            games += held_out_games(os.path.join(CORPUS, f), args.games, samples)
        subsets[cat] = os.path.join(tmp, cat + ".pgn")
        open(subsets[cat], "w").write("".join(games))
    settings = []
    for mode in args.modes.split(","):
        settings += [(mode, ["--depth", d], "depth " + d) for d in args.depths.split(",") if d]
        # a node limit alone would stop at the profile's depth 1 first: depth is lifted
        settings += [(mode, ["--depth", "64", "--nodes", n], "nodes " + n) for n in args.nodes.split(",") if n]
    print("| setting | mode | " + " | ".join("%s player / rank" % c for c in subsets) + " | ms/ply |")
    print("|---|---|" + "---|" * len(subsets) + "---|")
    for mode, opt, label in settings:
        cells, plies, secs = [], 0, 0.0
        for cat, path in subsets.items():
            t0 = time.time()
            cmd = [os.path.join(ROOT, "build", "ucizip"), "stats", path, "--json", "--mode", mode,
                   "--workers", args.workers, *opt]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:  # e.g. an engine time-out on a loaded machine: say so, go on
                cells.append("failed: " + p.stderr.strip().splitlines()[-1][:60])
                continue
            secs += time.time() - t0
            s = json.loads(p.stdout)
            plies += s["plies"]
            b = s["bits_per_move"]
            cells.append("%.3f / %.3f" % (b["range"], b["reference"]))
        print("| %s | %s | %s | %.2f |" % (label, mode, " | ".join(cells), 1000 * secs / max(plies, 1)), flush=True)


if __name__ == "__main__":
    main()
