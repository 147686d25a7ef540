#!/usr/bin/env bash
# The frozen arithmetic under other compilers and flags. An archive's moves decode only if
# the decoder computes the same scores and frequencies as the encoder, whatever compiled
# it; so the tests that pin them run here in builds other than the suite's (gcc -O3):
#   test_builtin_golden   the built-in oracles' score hashes at depths 1 and 2
#   test_builtin_network  builtin-3's incremental network against its from-scratch sums
#   player_model, move_model, pm_identity   golden frequencies, fast path = reference
#   opening_book          golden frequencies with the opening book mixed in
#   policy                the policy over the board: its logits = the reference's, golden hash
#   builtin_noengine      the committed builtin fixture archives decoded, no engine in reach
# -march=native takes the vector paths this machine has (builtin-3's AVX2 clone, wider
# auto-vectorisation); -O0 takes none.
# Usage: scripts/test_compilers.sh [CONFIG...]   CONFIG: "CC FLAGS", e.g. "clang -O2"
# (default: the four below). Build directories: build-cc-<config>. Needs the packages
# scripts/setup.sh installs (clang among them).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${UZ_ENGINES_DIR:-}" ] || export UZ_ENGINES_DIR="$PWD/engines"

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=("gcc -O0" "gcc -O2 -march=native" "clang -O2" "clang -O3 -march=native")
targets=(ucizip tools/ucizip-features tests/builtin/test_builtin_golden tests/builtin/test_builtin_network
         tests/model/test_player_model tests/model/test_move_model tests/model/test_pm_identity
         tests/model/test_opening_book)
tests=(test_builtin_golden test_builtin_network player_model move_model pm_identity opening_book policy builtin_noengine)

status=0
for config in "${configs[@]}"; do
    read -r cc flags <<< "$config"
    dir=build-cc-$(echo "$cc$flags" | tr -c 'A-Za-z0-9\n' '_' | tr -s _)
    # buildtype=plain: the optimisation flags are exactly these, none added by meson.
    if [ ! -f "$dir/build.ninja" ]; then
        CC=$cc meson setup "$dir" -Dbuildtype=plain -Dc_args="$flags" > /dev/null
    fi
    ninja -C "$dir" "${targets[@]}" > /dev/null
    echo "== $cc $flags"
    if ! meson test -C "$dir" --no-rebuild --num-processes 2 --print-errorlogs "${tests[@]}"; then
        echo "FAILED: the golden tests under $cc $flags" >&2
        status=1
    fi
done
exit "$status"
