#!/bin/sh
# Instructions per ply of `ucizip compress` with a warm score cache (the engine out of the
# picture), counted by callgrind (repeatable on a busy machine, unlike wall time), and
# where they go: the player model, the board, the coders.
# Usage: scripts/callgrind_ply.sh [PGN [CACHE [UCIZIP [TOP [ENGINE [OPTIONS]]]]]]
#   PGN     a game file (default: the first 118 games of
#           ../shared/corpus/cat1_lichess_rated_blitz_rapid.pgn)
#   CACHE   the LMDB score cache to fill and reuse (default: /tmp/ucizip-callgrind.lmdb)
#   UCIZIP  the program to measure (default: build/ucizip)
#   TOP     functions listed (default 25)
#   ENGINE  a built-in oracle (builtin, builtin-2): it searches in the measured run, which
#           then counts the oracle too (CACHE unused); the default is Stockfish from CACHE
#   OPTIONS more compress options for both runs, one word each (e.g. "--book off")
# The first run fills the cache (Stockfish at the default settings) unless it is warm
# already; the measured run is the second, with one worker, so that one process does it all.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/callgrind_ply.XXXXXX")
trap 'rm -rf "$work"' EXIT
pgn=${1:-}
if [ -z "$pgn" ]; then
    pgn=$work/lichess118.pgn
    awk '/^\[Event /{n++} n<=118' "$root/../shared/corpus/cat1_lichess_rated_blitz_rapid.pgn" > "$pgn"
fi
cache=${2:-/tmp/ucizip-callgrind.lmdb}
ucizip=${3:-$root/build/ucizip}
top=${4:-25}
engine=${5:-}
options=${6:-}
if [ -n "$engine" ]; then
    set -- --engine "$engine"
else
    set -- --cache "$cache"
fi
# shellcheck disable=SC2086 # one word each
set -- "$@" $options

"$ucizip" compress "$pgn" -o "$work/fill.ucz" "$@" -q
valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
    "$ucizip" compress "$pgn" -o "$work/measured.ucz" "$@" --workers 1 -v 2> "$work/log"
cmp -s "$work/fill.ucz" "$work/measured.ucz" || { echo "the two runs gave different archives" >&2; exit 1; }
# "total: 118 games, 8608 moves, ..." gives the plies coded
plies=$(sed -n 's/^total: [0-9]* games, \([0-9]*\) moves.*/\1/p' "$work/log")
[ -n "$plies" ] && [ "$plies" -gt 0 ] || { cat "$work/log" >&2; exit 1; }
callgrind_annotate --inclusive=yes "$work/cg.out" > "$work/incl.txt"
callgrind_annotate "$work/cg.out" > "$work/self.txt"
total=$(sed -n 's/^\([0-9,]*\) *(100.0%) *PROGRAM TOTALS.*/\1/p' "$work/incl.txt" | tr -d ,)
echo "file: $pgn"
echo "plies: $plies  instructions: $total  per ply: $((total / plies))"
# One function's inclusive instructions per ply (0 if it does not appear).
per_ply() {
    n=$(grep -E "^ *[0-9,]+ .*[ :]$1( |$)" "$work/incl.txt" | head -1 | awk '{print $1}' | tr -d ,)
    echo $(( ${n:-0} / plies ))
}
echo "inclusive per ply:"
# uz_step_frequencies is the player model's whole per-ply work (older builds reach it
# through uz_pm_features and uz_pm_scores, newer through uz_pm_move_scores)
for f in uz_step_frequencies uz_pm_features uz_pm_scores uz_pm_move_scores uz_pm_frequencies \
         uz_generate_legal uz_make_move uz_attackers_to uz_builtin_score_moves; do
    printf '  %-26s %8s\n' "$f" "$(per_ply "$f")"
done
echo "self, top $top (instructions, share, function):"
sed -n '/^ *Ir /,$p' "$work/self.txt" | grep -E '^ *[0-9,]+ +\(' | head -n "$top" |
    awk -v p="$plies" '{n=$1; gsub(",","",n); $1=""; printf "  %9d/ply %s\n", n/p, $0}'
