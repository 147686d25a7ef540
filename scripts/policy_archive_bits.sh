#!/usr/bin/env bash
# Bits per move of whole archives (book, opening counts and player model, as `compress`
# writes them by default) on the held-out games of the corpus's cat1-3 files, for one or
# more programs side by side: what the policy over the board gains in the codec, beside
# the model-alone figures of scripts/policy_beta.py.
# Usage: scripts/policy_archive_bits.sh WORK ENGINE UCIZIP[,UCIZIP...]
#   WORK    scratch folder (held-out PGNs and a score cache shared by the programs, so
#           that Stockfish scores each position once)
#   ENGINE  stockfish or builtin
# Held-out: the games whose canonical hash is 0 mod 5 (tools/game_split.h), whole games
# (`ucizip-book-fit --truncate 100000 --split held-out`). Prints per category and program
# the moves and the move streams' bits a move (`ucizip info --json`: move_bytes x 8 / moves).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 3 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
work=$1 engine=$2 programs=$(echo "$3" | tr , ' ')
export UZ_ENGINES_DIR=${UZ_ENGINES_DIR:-$PWD/engines}
mkdir -p "$work/pgn"
for f in ../shared/corpus/cat[123]_*.pgn; do
    b=$(basename "$f" .pgn)
    [ -s "$work/pgn/$b.pgn" ] || build/tools/ucizip-book-fit --truncate 100000 --split held-out "$f" > "$work/pgn/$b.pgn"
done
n=0
for program in $programs; do
    n=$((n + 1))
    for cat in cat1 cat2 cat3; do
        moves=0 bytes=0
        for pgn in "$work/pgn/$cat"_*.pgn; do
            arc=$work/p$n-$(basename "$pgn" .pgn).ucz
            if [ "$engine" = builtin ]; then
                "$program" compress "$pgn" -o "$arc" -q -f --engine builtin --workers 1
            else
                "$program" compress "$pgn" -o "$arc" -q -f --cache "$work/scores.lmdb" --workers 1
            fi
            read -r m b < <("$program" info --json "$arc" |
                /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; print(d["moves"], d["move_bytes"])')
            moves=$((moves + m)) bytes=$((bytes + b))
        done
        /usr/bin/python3 -c "import sys; m, b = int(sys.argv[3]), int(sys.argv[4]); print('%s %s: %d moves, %.4f bits/move' % (sys.argv[1], sys.argv[2], m, 8 * b / m))" \
            "$program" "$cat" "$moves" "$bytes"
    done
done
