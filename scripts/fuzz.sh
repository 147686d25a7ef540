#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer (clang, ASan+UBSan) in build-fuzz and runs each
# for SECONDS (default 60), starting from its seed inputs. Exits non-zero on a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
if [ ! -f build-fuzz/build.ninja ]; then
    CC=clang meson setup build-fuzz -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C build-fuzz tests/fuzz/fuzz_pgn tests/fuzz/fuzz_archive >/dev/null
corpus=../shared/corpus
run() {
    local name=$1; shift
    local work=build-fuzz/corpus-$name
    mkdir -p "$work"
    echo "fuzzing $name for ${seconds}s"
    UBSAN_OPTIONS=halt_on_error=1 build-fuzz/tests/fuzz/$name -max_total_time="$seconds" -max_len=65536 \
        -rss_limit_mb=2048 -print_final_stats=1 "$work" "$@" 2>&1 | grep -E "^(stat::number_of_executed_units|#[0-9]+ +DONE)|ERROR|SUMMARY" || true
    # libFuzzer exits non-zero and leaves crash-* files when it finds a bug.
    if ls crash-* leak-* timeout-* >/dev/null 2>&1; then
        echo "fuzz_$name found a failing input:"; ls crash-* leak-* timeout-* 2>/dev/null
        exit 1
    fi
}
run fuzz_pgn tests/data/pgn/fuzz_seeds
run fuzz_archive tests/data/archive
