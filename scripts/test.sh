#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the whole test suite with meson.
# Extra arguments go to `meson test` (e.g. --suite chess).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
builddir=${UZ_BUILDDIR:-build}
meson test -C "$builddir" --print-errorlogs --num-processes 2 "$@"
