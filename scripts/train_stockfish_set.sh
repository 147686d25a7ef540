#!/bin/bash
# The Stockfish weight set trained at scale (v14; data/player_model/PROVENANCE), every step:
#   1. a fixed sample of ../shared/training's games in parts (scripts/training_games_sample.py);
#   2. Stockfish 15.1's depth-1 scores and the features of the corpus's cat1-3 files and of
#      parts 0..PARTS-1 (scripts/training_labels.sh; JOBS copies at once, one engine each);
#   3. the features again with weight set 2's integer scores of every move (the base);
#   4. the fit (scripts/train_board_units.py --adjust): weight set 2's linear weights
#      corrected, square tables fitted from zero and 16 board units, together, on the
#      corpus's training part and the parts; the iteration kept is the best on the
#      validation part (corpus training games); SIGINT stops the fit and keeps the best
#      so far. Writes data/player_model/weights-vVERSION.txt (built in once its
#      pin line, printed, is in src/model/meson.build).
# Steps 1-3 are cached under CACHE (a rerun redoes nothing done), the fit is not.
# Usage: scripts/train_stockfish_set.sh [CACHE] [PARTS] [JOBS] [ITERS] [VERSION]
# (defaults: /work/cache-v14 5 2 400 14); on a larger machine, more PARTS and JOBS.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${1:-/work/cache-v14} parts=${2:-5} jobs=${3:-2} iters=${4:-400} version=${5:-14}
py=/usr/bin/python3 # Debian's, with numpy and scipy
[ -e "$cache/pgn/train_00.pgn" ] || $py scripts/training_games_sample.py "$cache/pgn" --every 40 --parts 16
scripts/training_labels.sh "$cache" 0 $((parts - 1)) --corpus &
for j in $(seq 2 "$jobs"); do scripts/training_labels.sh "$cache" 0 $((parts - 1)) & done
wait
mkdir -p "$cache/base/feat"
for f in ../shared/corpus/cat[123]_*.pgn $(seq -f "$cache/pgn/train_%02g.pgn" 0 $((parts - 1))); do
    b=$(basename "$f" .pgn)
    [ -e "$cache/base/feat/$b.pos" ] && [ "$cache/base/feat/$b.pos" -nt build/tools/ucizip-features ] && continue
    build/tools/ucizip-features "$f" --scores "$cache/d1/$b.dump" --out "$cache/base/feat/$b" \
        --weights data/player_model/weights-v2.txt
done
$py scripts/train_board_units.py --base data/player_model/weights-v2.txt --cache "$cache/base" \
    --extra-parts "$parts" --adjust --squares 10,20,40,80 --units 16 --iters "$iters" \
    --save "$cache/fit-v$version.npz" --version "$version" \
    --scores-from "Stockfish 15.1, depth 1, multipv, engines/stockfish.profile (the default settings)"
