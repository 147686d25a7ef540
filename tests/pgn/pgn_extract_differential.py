#!/usr/bin/env python3
"""Differential test of the PGN reader against pgn-extract, on everything it reads: tags,
moves, comments, NAGs, variations and results of every corpus game. pgn-extract reads the
original file and reads what `ucizip pgn` (our reader, then our export-format writer)
makes of it; both readings, printed by pgn-extract itself, must be the same. A tag value,
comment or annotation our reader lost, altered or reordered shows as a difference. The
known exceptions (pgn-extract's own gaps) are listed with their reason in
tests/data/pgn/pgn_extract_differential_exceptions.txt.

usage: pgn_extract_differential.py UCIZIP [PGN_EXTRACT]"""
import difflib
import os
import shutil
import subprocess
import sys


def main():
    uz = sys.argv[1]
    pe = sys.argv[2] if len(sys.argv) > 2 else (shutil.which("pgn-extract") or "/usr/games/pgn-extract")
    corpus = os.environ.get("UZ_CORPUS_DIR", "../shared/corpus")
    data = os.environ.get("UZ_TEST_DATA", "tests/data")
    if not os.path.isdir(corpus):
        if os.environ.get("UZ_REQUIRE_CORPUS"):
            sys.exit("missing corpus " + corpus)
        print("skipped: no corpus")
        return 77
    if not os.path.exists(pe):
        print("skipped: pgn-extract not installed")
        return 77
    known = {}
    for line in open(os.path.join(data, "pgn", "pgn_extract_differential_exceptions.txt")):
        if line.strip() and not line.startswith("#"):
            f, n, why = line.rstrip("\n").split("\t")
            known[f] = (int(n), why)
    passed = failed = 0
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".pgn"):
            continue
        path = os.path.join(corpus, name)
        ours = subprocess.run([uz, "pgn", path], capture_output=True).stdout
        a = subprocess.run([pe, "-s", "-w100000", path], capture_output=True).stdout.decode("latin-1").splitlines()
        b = subprocess.run([pe, "-s", "-w100000"], input=ours, capture_output=True).stdout.decode("latin-1").splitlines()
        diff = [l for l in difflib.unified_diff(a, b, lineterm="", n=0)
                if l[:1] in "+-" and not l.startswith(("+++", "---"))]
        expected = known.get(name, (0, ""))[0]
        if len(diff) == expected:
            passed += 1
            print(f"ok   {name}: {len(a)} lines" + (f" ({expected} known: {known[name][1]})" if expected else ""))
        else:
            failed += 1
            print(f"FAIL {name}: {len(diff)} differing lines (expected {expected}):", *diff[:10], sep="\n  ")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
