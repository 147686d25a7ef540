#!/usr/bin/env bash
# Sets everything up and runs the main job on the bundled sample: compress the sample
# PGN to an archive, show what is in it, decompress it and check that the file came back
# byte for byte (and that pgn-extract, an independent reader, reads the same games).
set -euo pipefail
cd "$(dirname "$0")/.."
# The build tree's program finds this tree's engine profiles only through UZ_ENGINES_DIR.
export UZ_ENGINES_DIR=${UZ_ENGINES_DIR:-$PWD/engines}
bash scripts/setup.sh
sample=tests/data/sample.pgn
out=${TMPDIR:-/tmp}/ucizip-demo
mkdir -p "$out"
build/ucizip stats "$sample"
build/ucizip compress -f "$sample" -o "$out/sample.ucz"
build/ucizip info "$out/sample.ucz"
build/ucizip decompress -f "$out/sample.ucz" -o "$out/sample.pgn"
cmp "$sample" "$out/sample.pgn"
pe=$(command -v pgn-extract || echo /usr/games/pgn-extract)
cmp <("$pe" -s -w100000 "$sample") <("$pe" -s -w100000 "$out/sample.pgn")
echo "round trip OK (byte for byte): $(wc -c < "$sample") bytes of PGN -> $(wc -c < "$out/sample.ucz") bytes ($out/sample.ucz);" \
     "xz -9: $(xz -9 -c "$sample" | wc -c) bytes, zstd -19: $(zstd -19 -q -c "$sample" | wc -c) bytes"
