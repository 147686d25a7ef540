#!/bin/bash
# Compresses every corpus and sample file with each oracle at its default settings and
# keeps the archives, so that a change meant to keep behaviour (a refactor, a speed-up)
# can be checked byte for byte against the archives of the code before it.
# Usage: scripts/archive_identity.sh OUTDIR [BASEDIR] [ORACLES]
#   OUTDIR   where the archives go (ORACLE/FILE.ucz) and the list of their SHA-256
#   BASEDIR  an earlier OUTDIR: every archive must be byte-identical to the one there
#   ORACLES  space-separated (default "builtin-1 builtin-2 builtin-3 stockfish")
#   IDENTITY_INPUTS (environment) space-separated PGN files instead of every corpus and
#   sample file; IDENTITY_ROOT the source tree (default: this script's);
#   UCIZIP the program (default build/ucizip); UZ_WORKERS its workers (default 2)
# Each archive is also decoded and compared with its input. Stockfish runs without a
# cache (the scores come from the engine, as a user's first run gets them).
set -euo pipefail
root=${IDENTITY_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
out=${1:?usage: archive_identity.sh OUTDIR [BASEDIR] [ORACLES]}
base=${2:-}
oracles=${3:-builtin-1 builtin-2 builtin-3 stockfish}
ucizip=${UCIZIP:-$root/build/ucizip}
export UZ_ENGINES_DIR=${UZ_ENGINES_DIR:-$root/engines}
if [ -n "${IDENTITY_INPUTS:-}" ]; then
    read -r -a inputs <<< "$IDENTITY_INPUTS"
else
    inputs=("$root"/../shared/corpus/*.pgn "$root"/../shared/samples/*.pgn)
fi
failed=0
for oracle in $oracles; do
    mkdir -p "$out/$oracle"
    for f in "${inputs[@]}"; do
        b=$(basename "$f" .pgn)
        case $f in */samples/*) b=sample_$b ;; esac
        a=$out/$oracle/$b.ucz
        "$ucizip" compress "$f" -o "$a" -f -q --engine "$oracle" --workers "${UZ_WORKERS:-2}"
        if ! "$ucizip" decompress "$a" -c -q | cmp -s - "$f"; then
            echo "FAIL round trip: $oracle $b"; failed=1
        fi
        if [ -n "$base" ] && ! cmp -s "$a" "$base/$oracle/$b.ucz"; then
            echo "FAIL differs from $base: $oracle $b"; failed=1
        fi
    done
    echo "$oracle: ${#inputs[@]} files done"
done
(cd "$out" && sha256sum */*.ucz > SHA256SUMS)
[ -n "$base" ] && [ $failed = 0 ] && echo "all archives byte-identical to $base"
exit $failed
