#!/bin/sh
# Engine bridge benchmark: ms per position by depth and mode on corpus positions,
# pool start-up time, and the bridge's overhead (our wall time / engine search time).
# Usage: scripts/bench_engine.sh [BUILD_DIR [N [DEPTHS [PROFILE]]]]
#   defaults: build-bench, 50 positions, depths "1 4 8 12" (permove skips depth 1), profile stockfish.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-bench}
n=${2:-50}
depths=${3:-1 4 8 12}
profile=${4:-stockfish}
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" --buildtype=release >/dev/null
ninja -C "$build" tests/engine/bench_engine >/dev/null
export UZ_TEST_DATA="$root/tests/data" UZ_ENGINES_DIR="$root/engines"
bench="$build/tests/engine/bench_engine"

printf '%-12s %5s %5s %10s %10s %10s %10s %10s %11s %11s\n' mode depth pos startup_ms ms/pos \
    search/pos go/pos clear/pos wall/search 'wall/(go+cl)'
for mode in multipv permove; do
    for d in $depths; do
        # permove searches each move at depth-1: depth 1 has no meaning there.
        if [ "$mode" = permove ] && [ "$d" -lt 2 ]; then continue; fi
        m=$n
        # permove at high depth costs one search per move: fewer positions.
        if [ "$mode" = permove ] && [ "$d" -ge 12 ] && [ "$m" -gt 20 ]; then m=20; fi
        line=$("$bench" "$mode" "$d" "$m" 1 "$profile") || { echo "$mode depth $d: failed"; continue; }
        get() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
        printf '%-12s %5s %5s %10s %10s %10s %10s %10s %11s %11s\n' "$mode" "$d" "$(get positions)" \
            "$(get startup_ms)" "$(get ms_per_pos)" "$(get search_ms_per_pos)" "$(get go_ms_per_pos)" \
            "$(get clear_ms_per_pos)" "$(get wall_over_search)" "$(get wall_over_go_clear)"
    done
done
