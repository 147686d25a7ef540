#!/bin/bash
# Makes the opening book, data/opening_book/book-N.txt, from ../shared/training/ (the
# counts) and the training part of ../shared/corpus (the weight table), reproducibly:
#
#   scripts/opening_book.sh WORKDIR [OUT.txt]
#
# 1. ucizip-book-build counts the moves of the training games' first $PLIES plies by
#    position and prunes them ($MIN_POSITION, $MIN_MOVE, $MAX_MOVES);
# 2. the corpus's cat1-3 files are scored by Stockfish 15.1 at depth 1 (`ucizip stats
#    --dump`, the default settings, no book, no opening counts; WORKDIR keeps the dumps: a
#    second run reuses them);
# 3. ucizip-book-fit prices each position of their training games (tools/game_split.h;
#    never a held-out one) under the default weight set with the book mixed in at each
#    weight of its grid, and scripts/opening_book_fit.py chooses each cell's weight;
# 4. the book is the table and the counts, with a header saying how it was made.
#
# Needs a build (scripts/setup.sh) and Stockfish; about half an hour on two cores (the dumps:
# 371,162 positions). Any change to the result is a new book version.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:?usage: scripts/opening_book.sh WORKDIR [OUT.txt]}
out=${2:-data/opening_book/book-1.txt}
PLIES=${PLIES:-40} MIN_POSITION=${MIN_POSITION:-8} MIN_MOVE=${MIN_MOVE:-2} MAX_MOVES=${MAX_MOVES:-8}
WEIGHTS=${WEIGHTS:-2} # the weight set the table is fitted under (book 1: v2, the Stockfish default then)
export UZ_ENGINES_DIR=$PWD/engines
mkdir -p "$work"
training=(../shared/training/human-otb.pgn.zst ../shared/training/human-online.pgn.zst)

nice -n 10 build/tools/ucizip-book-build --plies "$PLIES" --min-position "$MIN_POSITION" --min-move "$MIN_MOVE" \
    --max-moves "$MAX_MOVES" "${training[@]}" > "$work/positions.txt" 2> "$work/positions.log"
cat "$work/positions.log"

costs=()
for c in 1 2 3; do
    for f in ../shared/corpus/cat${c}_*.pgn; do
        dump=$work/$(basename "$f" .pgn).stockfish.dump
        if [ ! -s "$dump" ]; then
            nice -n 10 build/ucizip stats "$f" --engine stockfish --book off --opening off --keep-going -q \
                --workers 1 --dump "$dump.tmp" > /dev/null
            mv "$dump.tmp" "$dump"
        fi
        build/tools/ucizip-book-fit "$f" --scores "$dump" --weights "$WEIGHTS" --book "$work/positions.txt" \
            --split train
    done > "$work/cat$c.cost"
    costs+=("$work/cat$c.cost")
done
scripts/opening_book_fit.py --fit "${costs[@]}" > "$work/table.txt"

{
    echo "# ucizip opening book: scripts/opening_book.sh (data/opening_book/PROVENANCE)"
    echo "# counts: ../shared/training/human-otb.pgn.zst, human-online.pgn.zst; first $PLIES plies;"
    echo "# positions played $MIN_POSITION times or more, moves played $MIN_MOVE times or more, at most $MAX_MOVES a position"
    echo "# weight table: training part of ../shared/corpus cat1-3, Stockfish 15.1 depth 1, weight set $WEIGHTS"
    echo "# alpha16 COUNT PLY then a x 16 by rating (unknown, <1600, <2000, <2300, more) x time control"
    echo "# (unknown, <300 s, <1500 s, more); then KEY MOVE:COUNT... by increasing Zobrist key"
    cat "$work/table.txt" "$work/positions.txt"
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out: $(wc -l < "$out") lines, $(wc -c < "$out") bytes, FNV-1a 64 $(python3 scripts/book_hash.py "$out")"
