#!/bin/bash
# The data of the Stockfish weight set trained at scale (v14; data/player_model/PROVENANCE):
# Stockfish 15.1's depth-1 scores at the default settings (`ucizip stats --dump`, exactly as
# the codec asks them) and the player model's features (`ucizip-features`) of
#   - the parts CACHE/pgn/train_NN.pgn written by scripts/training_games_sample.py (games of
#     ../shared/training, none of them in the corpus), FIRST..LAST of them, and
#   - with --corpus, every cat1-3 file of ../shared/corpus first (scripts/player_model_data.sh:
#     its training part is fitted on, its held-out part measured).
# One engine process per copy of the script. Cached: a part whose outputs exist is not
# redone, so the script can be stopped and rerun; copies running at once (more cores, more
# machines sharing CACHE) take the parts no other copy holds (a lock directory per part).
# Usage: scripts/training_labels.sh CACHE FIRST LAST [--corpus]
set -euo pipefail
cd "$(dirname "$0")/.."
export UZ_ENGINES_DIR=${UZ_ENGINES_DIR:-$PWD/engines}
cache=$1 first=$2 last=$3
mkdir -p "$cache/d1" "$cache/feat"
if [ "${4:-}" = --corpus ]; then
    scripts/player_model_data.sh "$cache" --workers 1
fi
lock=
trap '[ -n "$lock" ] && rmdir "$lock"' EXIT
for i in $(seq -f %02g "$first" "$last"); do
    b=train_$i
    f=$cache/pgn/$b.pgn
    [ -e "$f" ] || { echo "training_labels.sh: no $f (run scripts/training_games_sample.py first)" >&2; exit 1; }
    if [ -e "$cache/feat/$b.pos" ] && [ "$cache/feat/$b.pos" -nt build/tools/ucizip-features ]; then
        continue
    fi
    mkdir "$cache/d1/$b.lock" 2>/dev/null || continue # another copy has it
    lock=$cache/d1/$b.lock
    if [ ! -e "$cache/d1/$b.done" ]; then
        build/ucizip stats "$f" --json --keep-going --workers 1 --dump "$cache/d1/$b.dump" > "$cache/d1/$b.json"
        touch "$cache/d1/$b.done"
    fi
    build/tools/ucizip-features "$f" --scores "$cache/d1/$b.dump" --out "$cache/feat/$b"
    rmdir "$lock"
    lock=
done
