#!/bin/bash
# Steps 1 and 2 of the player model's training data (see scripts/train_player_model.py):
# depth-1 engine scores of every main-line position of the corpus files of categories
# 1-3 (`ucizip stats --dump`, default settings), then the model's features of every legal
# move (`ucizip-features`). Cached in CACHE (default /work/cache-model): a file whose
# outputs exist is not redone. Usage: scripts/player_model_data.sh [CACHE] [EXTRA STATS OPTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
# The build tree's program finds this tree's engine profiles only through UZ_ENGINES_DIR.
export UZ_ENGINES_DIR=${UZ_ENGINES_DIR:-$PWD/engines}
cache=${1:-/work/cache-model}
shift || true
mkdir -p "$cache/d1" "$cache/feat"
for f in ../shared/corpus/cat[123]_*.pgn; do
    b=$(basename "$f" .pgn)
    if [ ! -e "$cache/d1/$b.done" ]; then
        build/ucizip stats "$f" --json --keep-going --dump "$cache/d1/$b.dump" "$@" > "$cache/d1/$b.json"
        touch "$cache/d1/$b.done"
    fi
    if [ ! -e "$cache/feat/$b.pos" ] || [ "$cache/feat/$b.pos" -ot build/tools/ucizip-features ]; then
        build/tools/ucizip-features "$f" --scores "$cache/d1/$b.dump" --out "$cache/feat/$b"
    fi
done
