#!/usr/bin/env bash
# Installs what ucizip needs on Debian 12 (as root, or with sudo available) and builds it
# in ./build. Safe to run again: installs only what is missing, reconfigures as needed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential meson ninja-build pkg-config libuv1-dev libzstd-dev liblzma-dev zstd
          libxxhash-dev stockfish ethereal-chess pgn-extract python3 clang libclang-rt-14-dev xz-utils
          python3-numpy python3-scipy python3-pip python3-wheel zlib1g-dev libbz2-dev liblmdb-dev libjansson-dev slurm-wlm munge parallel bash-completion)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Build directory and extra meson options may come from the environment
# (UZ_BUILDDIR, UZ_MESON_ARGS) or, for the options, the arguments.
builddir=${UZ_BUILDDIR:-build}
read -r -a extra <<< "${UZ_MESON_ARGS:-}"
if [ -f "$builddir/build.ninja" ]; then
    meson setup --reconfigure "$builddir" "${extra[@]}" "$@" >/dev/null
else
    meson setup "$builddir" "${extra[@]}" "$@" >/dev/null
fi
ninja -C "$builddir" >/dev/null
echo "built $builddir/ucizip"
# The program names no path of this tree: it finds the engine profiles through UZ_ENGINES_DIR
# (or, once installed, in PREFIX/share/ucizip/engines).
[ -n "${UZ_ENGINES_DIR:-}" ] || echo "to run it from here: export UZ_ENGINES_DIR=$PWD/engines (or: meson devenv -C $builddir)"
