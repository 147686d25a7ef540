#!/bin/sh
# How often compress (or, with -d, decompress) makes a game's moves on a board:
# uz_make_move calls by caller per ply (a caller at 1.00 a ply replays every game once),
# counted by callgrind on `ucizip compress --engine builtin -j1` (with -d: on
# `ucizip decompress -j1` of the archive that command makes, compressed outside callgrind),
# and the instructions per ply. The builtin's search and the player model's move features
# make moves of their own (every legal move, not the game's): they are listed apart.
# Usage: scripts/callgrind_replays.sh [-d] PGN [UCIZIP]   (UCIZIP default: build/ucizip)
set -eu
decompress=
[ "${1:-}" = -d ] && { decompress=1; shift; }
pgn=$1
ucizip=${2:-build/ucizip}
work=$(mktemp -d "${TMPDIR:-/tmp}/callgrind_replays.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -n "$decompress" ]; then
    "$ucizip" compress --engine builtin -j1 -v -c "$pgn" > "$work/a.ucz" 2> "$work/log"
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
        "$ucizip" decompress -j1 -c "$work/a.ucz" > "$work/a.pgn" 2> /dev/null
    cmp -s "$pgn" "$work/a.pgn" || { echo "decompress does not give $pgn back" >&2; exit 1; }
else
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
        "$ucizip" compress --engine builtin -j1 -v -c "$pgn" > /dev/null 2> "$work/log"
fi
# "total: 118 games, 8608 moves, ..." gives the games and plies coded
games=$(sed -n 's/^total: \([0-9]*\) games, .*/\1/p' "$work/log")
plies=$(sed -n 's/^total: [0-9]* games, \([0-9]*\) moves.*/\1/p' "$work/log")
[ -n "$plies" ] && [ "$plies" -gt 0 ] || { cat "$work/log" >&2; exit 1; }
total=$(callgrind_annotate "$work/cg.out" | sed -n 's/^\([0-9,]*\) *(100.0%) *PROGRAM TOTALS.*/\1/p' | tr -d ,)
echo "file: $pgn${decompress:+ (decompress)}"
echo "games: $games  plies: $plies  instructions: $total  per ply: $((total / plies))"
echo "uz_make_move calls per ply, by caller:"
# The calls recorded in the profile (fn= a caller, cfn= whom it calls, calls= how often;
# names are given once with their number, then by number alone).
python3 - "$work/cg.out" "$plies" <<'PY'
import re, sys
names, calls, fn, cfn = {}, {}, None, None
def name(v):
    m = re.match(r'\((\d+)\)(?: (.*))?', v)
    if not m:
        return v
    if m.group(2):
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), v)
for line in open(sys.argv[1]):
    if line.startswith('fn='):
        fn = name(line[3:].strip())
    elif line.startswith('cfn='):
        cfn = name(line[4:].strip())
    elif line.startswith('calls=') and cfn == 'uz_make_move':
        calls[fn] = calls.get(fn, 0) + int(line[6:].split()[0])
plies = int(sys.argv[2])
for f, n in sorted(calls.items(), key=lambda x: -x[1]):
    kind = '  (search, model)' if re.match(r"uz__b|qsearch|search|uz__pm_", f) else ''
    print('  %-28s %9d  %5.2f%s' % (f, n, n / plies, kind))
PY
