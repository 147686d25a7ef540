#!/usr/bin/env bash
# The lighter driver: the same split / code / concatenate / verify as
# scripts/slurm-compress.sh, with GNU parallel running the shards on this machine or,
# with parallel's own --sshlogin options in PARALLEL_OPTS, on several.
#
#   scripts/parallel-compress.sh IN OUT --shards K [--jobs N] [-- ucizip compress options]
#
# --jobs N: shards coded at once (default: the number of cores), one engine each.
# Names and options are passed to the programs as arguments, never as shell text
# (parallel -q quotes every word of the command), so any file name works.
set -euo pipefail
die() { echo "parallel-compress: $*" >&2; exit 2; }
[ $# -ge 2 ] || die "usage: $0 IN OUT --shards K [--jobs N] [-- ucizip compress options]"
in=$1 out=$2
shift 2
shards=0 jobs=$(nproc)
opts=()
while [ $# -gt 0 ]; do
    case "$1" in
    --shards) shards=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --) shift; opts+=("$@"); break ;;
    *) opts+=("$1"); shift ;;
    esac
done
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards K: a whole number >= 1"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs N: a whole number >= 1"
command -v parallel >/dev/null || die "GNU parallel not found (apt-get install parallel)"
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=shards.sh
. "$here/scripts/shards.sh"
ucizip=${UCIZIP:-$here/build/ucizip}
if [ "$ucizip" = "$here/build/ucizip" ]; then
    export UZ_ENGINES_DIR=${UZ_ENGINES_DIR:-$here/engines} # the build tree's program: this tree's profiles
fi
[ -x "$ucizip" ] || ucizip=$(command -v ucizip) || die "ucizip not found (set UCIZIP)"
# Absolute paths: a name that starts with '-' is then never taken for an option.
in=$(realpath -- "$in") || die "cannot read the input"
out=$(realpath -m -- "$out")
[ -e "$out" ] && die "the output already exists: $out"
work=$(mktemp -d -- "${out}.work.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
mkdir -p -- "$work/in" "$work/out"
"$ucizip" split "$in" --shards "$shards" --output-dir "$work/in" -f -q
shard_names=()
for ((k = 1; k <= shards; k++)); do uz_shard_name "$k" "$shards" name && shard_names+=("$name"); done
# --halt now,fail=1: the first failing shard stops the others; its output is shown.
parallel -q --halt now,fail=1 -j "$jobs" --tag "$ucizip" compress "$work/in/{}.pgn" -o "$work/out/{}.ucz" \
    -f -q -j 1 "${opts[@]+"${opts[@]}"}" ::: "${shard_names[@]}" ||
    die "a shard failed (see above); no archive written"
uz_cat_shards "$work/out" ucz "$shards" > "$work/merged.ucz"
verify=()
for ((i = 0; i < ${#opts[@]}; i++)); do
    [ "${opts[$i]}" = "--engine" ] && [ $((i + 1)) -lt ${#opts[@]} ] && verify+=(--engine "${opts[$((i + 1))]}")
done
"$ucizip" verify "$work/merged.ucz" -j "$jobs" "${verify[@]+"${verify[@]}"}" >&2
mv -- "$work/merged.ucz" "$out"
echo "parallel-compress: $out: $shards shards merged and verified" >&2
