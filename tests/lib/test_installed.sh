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
experimental=$(find "$stage" -path '*/include/ucizip_experimental.h' | head -1)
[ -n "$experimental" ] || { echo "FAIL: include/ucizip_experimental.h not installed"; exit 1; }
# Only the public header and the experimental one are installed.
extra=$(find "$stage" -path '*/include/*' -name '*.h' ! -path "$header" ! -path "$experimental" | head -3)
[ -z "$extra" ] || { echo "FAIL: internal headers installed: $extra"; exit 1; }
export PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(dirname "$(dirname "$pc")")
cflags=$(pkg-config --cflags ucizip)
cc -std=c17 -Wall -Wextra -Werror $cflags -o "$stage/rt_shared" "$here/uz_roundtrip.c" $(pkg-config --libs ucizip)
cc -std=c17 -Wall -Wextra -Werror $cflags -o "$stage/rt_static" "$here/uz_roundtrip.c" "$libdir/libucizip.a" \
    $(pkg-config --static --libs ucizip | sed 's/-lucizip//')
# The shared library exports exactly the functions the installed headers declare.
declared=$(cat "$header" "$experimental" | grep -o 'uz_[a-z0-9_]*(' | tr -d '(' | sort -u)
exported=$(nm -D --defined-only "$libdir/libucizip.so" | awk '{print $3}' | sort -u)
if [ "$declared" != "$exported" ]; then
    echo "FAIL: exports differ from the header's declarations:"
    diff <(echo "$declared") <(echo "$exported") | head -10
    exit 1
fi
# The experimental header declares nothing unless UZ_EXPERIMENTAL_API is defined.
printf '#include <ucizip_experimental.h>\nint main(void) { uz_tag_reader_close(0); return 0; }\n' > "$stage/no_x.c"
if cc -std=c17 -Werror=implicit-function-declaration $cflags -c -o "$stage/no_x.o" "$stage/no_x.c" 2>/dev/null; then
    echo "FAIL: ucizip_experimental.h declares its functions without UZ_EXPERIMENTAL_API"; exit 1
fi
cc -std=c17 -Wall -Wextra -Werror $cflags -o "$stage/tags" "$here/uz_tags.c" $(pkg-config --libs ucizip)
for kind in shared static; do
    LD_LIBRARY_PATH=$libdir "$stage/rt_$kind" "$pgn" "$stage/out_$kind.ucz" > "$stage/back_$kind.pgn"
    cmp "$pgn" "$stage/back_$kind.pgn" || { echo "FAIL: $kind: the bytes did not come back"; exit 1; }
    echo "$kind: $(stat -c %s "$pgn") bytes of PGN -> $(stat -c %s "$stage/out_$kind.ucz") bytes of archive -> the same bytes"
    # The search built into the library: no engine process, the same bytes back.
    LD_LIBRARY_PATH=$libdir "$stage/rt_$kind" "$pgn" "$stage/builtin_$kind.ucz" builtin > "$stage/bback_$kind.pgn"
    cmp "$pgn" "$stage/bback_$kind.pgn" || { echo "FAIL: $kind, builtin: the bytes did not come back"; exit 1; }
    grep -q "ucizip builtin-" "$stage/builtin_$kind.ucz" || { echo "FAIL: $kind: the archive does not name the builtin"; exit 1; }
done
# The tags of the archive just written, read through the experimental header (no engine).
tags=$(LD_LIBRARY_PATH=$libdir "$stage/tags" "$stage/out_shared.ucz")
want=$(grep '^\[White ' "$pgn" | sed 's/^\[White "\(.*\)"\]\r*$/\1/')
if [ "$(echo "$tags" | sed '$d')" != "$want" ] || ! echo "$tags" | tail -1 | grep -q "records, 0.1.0"; then
    echo "FAIL: the experimental tag reader:"; echo "$tags" | head -5; exit 1
fi
echo "experimental header: $(echo "$want" | wc -l) games' White tags read without an engine"
if ldd "$stage/rt_static" | grep -q libucizip; then echo "FAIL: the static program needs libucizip.so"; exit 1; fi
# Installed as a package would be: no path of the source or build tree compiled in (debug
# information aside, which names the build folder by nature), and no profile found there.
src=$(cd "$here/../.." && pwd)
absbuild=$(cd "$build" && pwd)
exe=$(find "$stage" -type f -name ucizip -perm -u+x | head -1)
[ -n "$exe" ] || { echo "FAIL: ucizip not installed"; exit 1; }
for f in "$exe" "$libdir/libucizip.so" "$libdir/libucizip.a"; do
    objcopy --strip-debug "$f" "$stage/stripped"
    leak=$(strings "$stage/stripped" | grep -F -e "$src" -e "$absbuild" | head -3 || true)
    [ -z "$leak" ] || { echo "FAIL: $f names the source or build tree: $leak"; exit 1; }
done
for f in LICENSE NOTICE.md; do
    [ -n "$(find "$stage" -path "*/doc/ucizip/$f")" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# Without UZ_ENGINES_DIR, run from inside the source tree, the installed program looks
# only in its own data directory (not installed here, under --destdir) and then at the
# profiles compiled into the library: never at the source tree's engines/.
out=$(cd "$src" && env -u UZ_ENGINES_DIR "$exe" engine --json --positions 1 2>&1) || {
    echo "FAIL: the installed program without a data directory: $out"; exit 1; }
case "$out" in *"$src"*) echo "FAIL: the output names the source tree: $out"; exit 1 ;; esac
case "$out" in *'built-in:stockfish.profile'*|*'"profile"'*) ;;
*) echo "FAIL: expected the compiled-in profile, got: $out"; exit 1 ;; esac
echo "no source or build path in the installed files; profiles only from the data directory or compiled in"
echo "installed library: OK"
