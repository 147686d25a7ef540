#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer (clang, ASan+UBSan) in build-fuzz and runs each
# for SECONDS (default 60), starting from its seed inputs. Exits non-zero if any target
# finds a failing input (crash, leak, timeout, out-of-memory), listing it; slow units are listed.
# libFuzzer's artifacts go to build-fuzz/artifacts/ (ignored by git), never the
# repository root; inputs it finds interesting stay in build-fuzz/corpus-NAME.
# The targets run as many at a time as there are cores (UZ_FUZZ_JOBS overrides), each
# printing its report when it ends, in the order below.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
if [ ! -f build-fuzz/build.ninja ]; then
    CC=clang meson setup build-fuzz -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
# Each target with the folder of its seed inputs.
specs=("fuzz_pgn tests/data/pgn/fuzz_seeds" "fuzz_archive tests/data/archive" "fuzz_fen tests/data/fen"
    "fuzz_settings tests/data/settings" "fuzz_builtin tests/data/builtin" "fuzz_cache tests/data/cache"
    "fuzz_resume tests/data/resume")
targets=("${specs[@]%% *}")
ninja -C build-fuzz "${targets[@]/#/tests/fuzz/}" >/dev/null
artifacts=build-fuzz/artifacts
mkdir -p "$artifacts"
status=0
run() {
    local name=$1; shift
    local work=build-fuzz/corpus-$name
    mkdir -p "$work" "$artifacts/$name"
    echo "fuzzing $name for ${seconds}s"
    local rc=0
    UBSAN_OPTIONS=halt_on_error=1 build-fuzz/tests/fuzz/$name -max_total_time="$seconds" -max_len=65536 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/$name/" "$work" "$@" \
        >"$artifacts/$name.log" 2>&1 || rc=$?
    grep -E "^(stat::number_of_executed_units|#[0-9]+ +DONE)|ERROR|SUMMARY" "$artifacts/$name.log" || true
    # Any one artifact is a finding (a glob per kind: each is checked on its own).
    local found slow
    found=$(find "$artifacts/$name" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
        -o -name 'oom-*' \) | sort)
    # A slow unit (over 10 s) is reported, not failed on: on a loaded machine it may be load.
    slow=$(find "$artifacts/$name" -maxdepth 1 -type f -name 'slow-unit-*' | sort)
    [ -n "$slow" ] && echo "$name: slow inputs (see whether they amplify work):" && echo "$slow"
    if [ -n "$found" ] || [ "$rc" -ne 0 ]; then
        echo "$name found a failing input (exit $rc; log $artifacts/$name.log):"
        [ -n "$found" ] && echo "$found"
        return 1
    fi
}
jobs=${UZ_FUZZ_JOBS:-$(nproc)}
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
for ((first = 0; first < ${#specs[@]}; first += jobs)); do
    pids=()
    for ((i = first; i < first + jobs && i < ${#specs[@]}; i++)); do
        # shellcheck disable=SC2086 # a spec is a target name and its seed folder
        run ${specs[i]} >"$reports/$i" 2>&1 &
        pids+=($!)
    done
    for ((i = first; i < first + ${#pids[@]}; i++)); do
        wait "${pids[i - first]}" || status=1
        cat "$reports/$i"
    done
done
exit $status
