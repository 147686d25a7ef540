#!/bin/bash
# The installed library used as a user would: `meson install` into a staging directory,
# then a ten-line C program (uz_roundtrip.c) built against the installed header with
# pkg-config, linked shared and static, compressing and decompressing a real PGN file
# with the real engine and with the builtin search: the bytes must come back as they were.
#   test_installed.sh BUILD_DIR PGN_FILE
set -euo pipefail
build=$1 pgn=$2
here=$(cd "$(dirname "$0")" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
meson install -C "$build" --destdir "$stage" --no-rebuild --quiet >/dev/null
pc=$(find "$stage" -name ucizip.pc | head -1)
[ -n "$pc" ] || { echo "FAIL: no ucizip.pc installed"; exit 1; }
header=$(find "$stage" -path '*/include/ucizip.h' | head -1)
[ -n "$header" ] || { echo "FAIL: include/ucizip.h not installed"; exit 1; }
# Only the one public header is installed.
extra=$(find "$stage" -path '*/include/*' -name '*.h' ! -path "$header" | head -3)
[ -z "$extra" ] || { echo "FAIL: internal headers installed: $extra"; exit 1; }
export PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(dirname "$(dirname "$pc")")
cflags=$(pkg-config --cflags ucizip)
cc -std=c17 -Wall -Wextra -Werror $cflags -o "$stage/rt_shared" "$here/uz_roundtrip.c" $(pkg-config --libs ucizip)
cc -std=c17 -Wall -Wextra -Werror $cflags -o "$stage/rt_static" "$here/uz_roundtrip.c" "$libdir/libucizip.a" \
    $(pkg-config --static --libs ucizip | sed 's/-lucizip//')
# The shared library exports exactly the functions the installed header declares.
declared=$(grep -o 'uz_[a-z0-9_]*(' "$header" | tr -d '(' | sort -u)
exported=$(nm -D --defined-only "$libdir/libucizip.so" | awk '{print $3}' | sort -u)
if [ "$declared" != "$exported" ]; then
    echo "FAIL: exports differ from the header's declarations:"
    diff <(echo "$declared") <(echo "$exported") | head -10
    exit 1
fi
for kind in shared static; do
    LD_LIBRARY_PATH=$libdir "$stage/rt_$kind" "$pgn" "$stage/out_$kind.ucz" > "$stage/back_$kind.pgn"
    cmp "$pgn" "$stage/back_$kind.pgn" || { echo "FAIL: $kind: the bytes did not come back"; exit 1; }
    echo "$kind: $(stat -c %s "$pgn") bytes of PGN -> $(stat -c %s "$stage/out_$kind.ucz") bytes of archive -> the same bytes"
    # The search built into the library: no engine process, the same bytes back.
    LD_LIBRARY_PATH=$libdir "$stage/rt_$kind" "$pgn" "$stage/builtin_$kind.ucz" builtin > "$stage/bback_$kind.pgn"
    cmp "$pgn" "$stage/bback_$kind.pgn" || { echo "FAIL: $kind, builtin: the bytes did not come back"; exit 1; }
    grep -q "ucizip builtin-" "$stage/builtin_$kind.ucz" || { echo "FAIL: $kind: the archive does not name the builtin"; exit 1; }
done
if ldd "$stage/rt_static" | grep -q libucizip; then echo "FAIL: the static program needs libucizip.so"; exit 1; fi
echo "installed library: OK"
