#!/usr/bin/env bash
# Regenerates src/block/record_prior5.inc, the initial state of structure version 5's record
# models (doc/format.md, "Coded records"), from games that no figure is measured on: the
# training part of every corpus file (games whose hash is not 0 mod 5, cut as
# scripts/stream_report.py cuts them) and the first games of each file of ../shared/training,
# each compressed with the builtin oracle in structure version 5 and its records decoded by
# ucizip-record-bits --write-prior (tools/record_bits.c). What a structure version 5 writer
# codes does not depend on the table (only what each decision costs), so the table in the
# tree does not change the one made. Frozen once archives use it: a new table is a new
# structure version. The frozen table is the one this script made at 70c5eac (the tags then
# in tag version 4): run from a later tree, whose writer codes the training games' tags in tag
# version 5, it makes a table that differs in a few of the last models' states (the same one
# each run); to remake the frozen table byte for byte, run it at 70c5eac.
# With --cross, no table: the states trained on half of the corpus's training part (hash mod 5
# in {1, 2}) and the ../shared/training games, and what the records of each file's other half
# (3, 4) cost from them, for each count the table may give (how --prior-n was chosen without
# the held-out games).
# Needs build/ucizip and build/tools/ucizip-{record-bits,features} (ninja -C build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${UZ_BUILDDIR:-build}
corpus=${UZ_CORPUS:-../shared/corpus}
training=${UZ_TRAINING:-../shared/training}
games=${UZ_PRIOR_GAMES:-3000} # from each training file
export UZ_ENGINES_DIR=${UZ_ENGINES_DIR:-$PWD/engines}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# corpus_part NAME KEEP: each corpus file's games whose hash h makes the Python expression KEEP
# true, compressed into $tmp/FILE.NAME.ucz (files left empty are skipped); their names in $archives.
corpus_part() {
    archives=()
    for path in "$corpus"/*.pgn; do
        local base out
        base=$(basename "$path" .pgn)
        out=$tmp/$base.$1
        /usr/bin/python3 - "$path" "$out.pgn" "$build" "$2" <<'PY'
import sys
sys.path.insert(0, "scripts")
import stream_report
keep = eval("lambda h: " + sys.argv[4])
text, _ = stream_report.held_out_text(sys.argv[1], sys.argv[3] + "/ucizip", sys.argv[3] + "/tools/ucizip-features",
                                      keep=keep)
open(sys.argv[2], "wb").write(text or b"")
PY
        [ -s "$out.pgn" ] || continue
        "$build/ucizip" compress "$out.pgn" -o "$out.ucz" -q -f --engine builtin 2>/dev/null
        archives+=("$out.ucz")
    done
}

# The first $games games of each ../shared/training file, compressed; their names in $training_archives.
training_archives=()
for path in "$training"/*.pgn.zst; do
    name=$(basename "$path" .pgn.zst)
    { zstd -dc "$path" 2>/dev/null || true; } | awk -v n="$games" '/^\[Event /{k++} k > n {exit} {print}' >"$tmp/$name.pgn"
    "$build/ucizip" compress "$tmp/$name.pgn" -o "$tmp/$name.ucz" -q -f --engine builtin 2>/dev/null
    training_archives+=("$tmp/$name.ucz")
done

if [ "${1:-}" = --cross ]; then
    corpus_part a "h % 5 in (1, 2)"
    train=("${archives[@]}")
    corpus_part b "h % 5 in (3, 4)"
    "$build/tools/ucizip-record-bits" --cross "${train[@]}" "${training_archives[@]}" -- "${archives[@]}" |
        sed "s|$tmp/||"
    exit
fi
corpus_part train "h % 5 != 0"
"$build/tools/ucizip-record-bits" --write-prior src/block/record_prior5.inc "${archives[@]}" "${training_archives[@]}"
