#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the whole test suite with meson.
# Extra arguments go to `meson test` (e.g. --suite chess). Ends with a one-line summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
builddir=${UZ_BUILDDIR:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# One test a core and one more, at least 3 and at most 8 (UZ_TEST_JOBS overrides): the
# engine tests start engines of their own, and a test's memory under the sanitizers is a few
# hundred MB. The one more: some tests wait (for an engine's timeout, a Slurm daemon, a
# killed run), and one a core left a 2-core machine a tenth idle over the suite.
jobs=${UZ_TEST_JOBS:-$(( $(nproc) + 1 ))}
(( jobs < 3 )) && jobs=3
(( jobs > 8 )) && jobs=8
meson test -C "$builddir" --print-errorlogs --num-processes "$jobs" "$@" 2>&1 | tee "$log" || status=$?
count() { awk -v k="$1" '$1 == k {print $2}' "$log" | tail -n 1; }
ok=$(count "Ok:"); fail=$(count "Fail:"); timeout=$(count "Timeout:"); skipped=$(count "Skipped:")
echo "${ok:-0} passed, $(( ${fail:-0} + ${timeout:-0} )) failed, ${skipped:-0} skipped"
exit "$status"
