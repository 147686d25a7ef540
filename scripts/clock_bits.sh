#!/usr/bin/env bash
# Bits a clocked ply of the coded comments' clocks (doc/format.md, "Coded comments" and
# "Clock code") on the corpus's chess.com files (0.1 s clocks), by revision of the comment
# models, on the split given (default held-out: the figures that count; the initial states of
# revisions 3 and 4 are trained on the training part); then the same games' clocks cut to
# whole seconds (Lichess's kind): their floor under revisions 3 and 4. With --write-prior,
# regenerates src/block/clock_prior4.inc (revision 4's; revision 3's clock_prior.inc is frozen)
# from the training part instead. Needs build/tools/ucizip-clock-bits (ninja -C build).
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${UZ_BUILDDIR:-build}/tools/ucizip-clock-bits
corpus=${UZ_CORPUS:-../shared/corpus}
files=("$corpus/cat1_chesscom_live_clk.pgn" "$corpus/cat2_carlsen_chesscom_clk.pgn"
       "$corpus/cat5_chess960_chesscom_humans_clk.pgn")
if [ "${1:-}" = --write-prior ]; then
    exec "$tool" --split train --revision 4 --write-prior src/block/clock_prior4.inc "${files[@]}"
fi
split=${1:-held-out}
total() { awk -F'\t' '{print} {split($2, c, " "); split($3, b, " "); n += c[1]; s += b[1]}
                      END {printf "all\t%d clocks\t%.0f bits\t%.3f bits a clock\n", n, s, n ? s / n : 0}'; }
for rev in 1 3 4; do
    echo "revision $rev (0.1 s clocks, $split):"
    "$tool" --split "$split" --revision "$rev" "${files[@]}" | total
done
for rev in 3 4; do
    echo "revision $rev, the same clocks in whole seconds ($split):"
    "$tool" --split "$split" --revision "$rev" --whole "${files[@]}" | total
done
