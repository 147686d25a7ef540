#!/bin/sh
# How often compress makes a game's moves on a board: uz_make_move calls by caller per ply
# (a caller at 1.00 a ply replays every game once), counted by callgrind on
# `ucizip compress --engine builtin -j1`, and the instructions per ply. The builtin's
# search and the player model's move features make moves of their own (every legal move,
# not the game's): they are listed apart.
# Usage: scripts/callgrind_replays.sh PGN [UCIZIP]   (UCIZIP default: build/ucizip)
set -eu
pgn=$1
ucizip=${2:-build/ucizip}
work=$(mktemp -d "${TMPDIR:-/tmp}/callgrind_replays.XXXXXX")
trap 'rm -rf "$work"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
    "$ucizip" compress --engine builtin -j1 -v -c "$pgn" > /dev/null 2> "$work/log"
# "total: 118 games, 8608 moves, ..." gives the games and plies coded
games=$(sed -n 's/^total: \([0-9]*\) games, .*/\1/p' "$work/log")
plies=$(sed -n 's/^total: [0-9]* games, \([0-9]*\) moves.*/\1/p' "$work/log")
[ -n "$plies" ] && [ "$plies" -gt 0 ] || { cat "$work/log" >&2; exit 1; }
callgrind_annotate --tree=caller "$work/cg.out" > "$work/callers.txt"
total=$(sed -n 's/^\([0-9,]*\) *(100.0%) *PROGRAM TOTALS.*/\1/p' "$work/callers.txt" | tr -d ,)
echo "file: $pgn"
echo "games: $games  plies: $plies  instructions: $total  per ply: $((total / plies))"
echo "uz_make_move calls per ply, by caller:"
# The callers are the '<' lines of the block that ends with uz_make_move's '*' line.
awk '/^ *$/ { n = 0; next }
     { block[n++] = $0 }
     /\* .*board\.c:uz_make_move \[/ { for (i = 0; i < n - 1; i++) print block[i]; exit }' "$work/callers.txt" |
    sed -n 's/.*< [^ ]*:\([A-Za-z_0-9]*\)[^(]*(\([0-9,]*\)x).*/\1 \2/p' | tr -d , |
    awk -v p="$plies" '{ kind = $1 ~ /^(uz__b|qsearch|search|uz__pm_|uz__b1_)/ ? "  (search, model)" : ""
                         printf "  %-28s %9d  %5.2f%s\n", $1, $2, $2 / p, kind }'
