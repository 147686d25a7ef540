#!/usr/bin/env bash
# Where the per-game structure of the corpus files goes (tools/record_bits.c): each file
# compressed whole and its held-out games alone (cut as scripts/stream_report.py cuts them),
# with the builtin oracle, and the structure streams of the archives taken apart.
# Usage: scripts/record_bits.sh [FILE.pgn...] (default: the Lichess and master files).
# Needs build/ucizip and build/tools/ucizip-{record-bits,features} (ninja -C build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${UZ_BUILDDIR:-build}
corpus=${UZ_CORPUS:-../shared/corpus}
export UZ_ENGINES_DIR=${UZ_ENGINES_DIR:-$PWD/engines}
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(cat1_lichess_rated_blitz_rapid.pgn cat1_lichess_casual_humans_vs_ai_level5.pgn
                                 cat1_lichess_marathon_2025.pgn cat2_carlsen_lichess_accounts.pgn
                                 cat2_kasparov_career_crlf.pgn cat2_capablanca_crlf.pgn cat2_london_1851_crlf.pgn
                                 cat2_tata_steel_2022_masters.pgn)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
archives=()
for f in "${files[@]}"; do
    name=$(basename "$f" .pgn)
    path=$corpus/$(basename "$f")
    cp "$path" "$tmp/$name.whole.pgn"
    /usr/bin/python3 - "$path" "$tmp/$name.held-out.pgn" "$build" <<'PY'
import sys
sys.path.insert(0, "scripts")
import stream_report
text, _ = stream_report.held_out_text(sys.argv[1], sys.argv[3] + "/ucizip", sys.argv[3] + "/tools/ucizip-features")
open(sys.argv[2], "wb").write(text or b"")
PY
    for part in whole held-out; do
        "$build/ucizip" compress "$tmp/$name.$part.pgn" -o "$tmp/$name.$part.ucz" -q -f --engine builtin
        archives+=("$tmp/$name.$part.ucz")
    done
done
"$build/tools/ucizip-record-bits" "${archives[@]}" | sed "s|$tmp/||"
