#!/bin/sh
# Instructions per ply of compress and decompress with a built-in oracle and one worker,
# counted by callgrind (repeatable on a busy or virtual machine, unlike CPU time), for one
# or more programs side by side; each archive decoded back to its games and the programs'
# archives compared (a speed-up must not change them).
# Usage: scripts/callgrind_builtin.sh ENGINE PROGRAM[,PROGRAM...] PGN...
#   ENGINE   builtin (builtin-1) or builtin-2
#   PROGRAM  ucizip builds to compare (e.g. the build before a change and after it)
#   PGN      game files (e.g. held-out games: see scripts/bench_builtin_archive.py)
set -eu
[ $# -ge 3 ] || { sed -n '2,9p' "$0" >&2; exit 2; }
engine=$1
programs=$(echo "$2" | tr , ' ')
shift 2
work=$(mktemp -d "${TMPDIR:-/tmp}/callgrind_builtin.XXXXXX")
trap 'rm -rf "$work"' EXIT
count() { # instructions of a command: callgrind's total
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" 2> "$work/log" ||
        { cat "$work/log" >&2; exit 1; }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/log"
}
for pgn in "$@"; do
    first=
    k=0
    for program in $programs; do
        k=$((k + 1))
        arc=$work/$k.ucz
        c=$(count "$program" compress "$pgn" -o "$arc" --engine "$engine" --workers 1 -f -q)
        d=$(count "$program" decompress "$arc" -o "$work/back.pgn" --workers 1 -f)
        cmp -s "$work/back.pgn" "$pgn" || { echo "$pgn: $program's archive does not decode to its games" >&2; exit 1; }
        plies=$("$program" info "$arc" --json | python3 -c 'import json,sys
d=json.load(sys.stdin); d=d[0] if isinstance(d,list) else d
print(sum(m["moves"] for m in d["members"]))')
        echo "$(basename "$pgn") $engine $program: $plies plies; compress $c ($((c / plies)) a ply), decompress $d ($((d / plies)) a ply)"
        if [ -z "$first" ]; then
            first=$arc.first
            cp "$arc" "$first"
        elif ! cmp -s "$arc" "$first"; then
            echo "$(basename "$pgn"): the programs' archives differ" >&2
            exit 1
        fi
    done
done
