#!/usr/bin/env bash
# Compresses one big PGN input on a Slurm cluster:
#   1. `ucizip split` cuts IN into K shards at game boundaries (IN may be .pgn.zst etc.);
#   2. one `sbatch --array` task per shard codes its shard into an archive member;
#   3. a merge job, dependent on every task (afterok), concatenates the members in
#      order into OUT (the format allows concatenation) and runs `ucizip verify` on it;
# then waits for the merge and reports failures per shard, with the shard's Slurm log.
#
#   scripts/slurm-compress.sh IN OUT --shards K [driver options] [-- ucizip compress options]
#
# Driver options:
#   --shards K          number of shards (array tasks)
#   --cpus N            CPUs (and engine workers) per task (default 1)
#   --work DIR          shared working directory (default OUT.work); removed on success
#                       unless --keep-work
#   --partition P       Slurm partition (default: the cluster's default)
#   --sbatch "ARGS"     more sbatch arguments for every job (e.g. "--time=2:00:00")
#   --keep-work         keep the shards, members and logs
#   --no-wait           submit and print the job ids, do not wait
# Everything after -- (or any option not listed above) goes to `ucizip compress` in every
# task, e.g. --depth 8 or --cache /local/scores.lmdb (LMDB wants a local file system).
# The ucizip program is $UCIZIP, else build/ucizip of this tree, else ucizip in PATH; it
# and the working directory must be visible from every node. Names and options reach the
# jobs' scripts only as shell-quoted values (printf %q), so any file name works.
set -euo pipefail

die() { echo "slurm-compress: $*" >&2; exit 2; }
[ $# -ge 2 ] || die "usage: $0 IN OUT --shards K [options] [-- ucizip compress options]"
in=$1 out=$2
shift 2
shards=0 cpus=1 work="" partition="" extra_sbatch="" keep_work=0 wait=1
ucizip_opts=()
while [ $# -gt 0 ]; do
    case "$1" in
    --shards) shards=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --partition) partition=$2; shift 2 ;;
    --sbatch) extra_sbatch=$2; shift 2 ;;
    --keep-work) keep_work=1; shift ;;
    --no-wait) wait=0; shift ;;
    --) shift; ucizip_opts+=("$@"); break ;;
    *) ucizip_opts+=("$1"); shift ;;
    esac
done
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards K: a whole number >= 1"
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || die "--cpus N: a whole number >= 1"
[ -r "$in" ] || die "$in: cannot read"
command -v sbatch >/dev/null || die "sbatch not found (is this a Slurm cluster? see scripts/slurm-local.sh)"

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=shards.sh
. "$here/scripts/shards.sh"
ucizip=${UCIZIP:-}
if [ -z "$ucizip" ]; then
    if [ -x "$here/build/ucizip" ]; then
        ucizip=$here/build/ucizip
        export UZ_ENGINES_DIR=${UZ_ENGINES_DIR:-$here/engines} # the build tree's program: this tree's profiles
    else
        ucizip=$(command -v ucizip || true)
    fi
fi
[ -n "$ucizip" ] && [ -x "$ucizip" ] || die "ucizip not found (set UCIZIP)"
ucizip=$(realpath -- "$ucizip")
in=$(realpath -- "$in")
out=$(realpath -m -- "$out")
[ -e "$out" ] && die "the output already exists: $out"
work=$(realpath -m -- "${work:-$out.work}")
mkdir -p -- "$work"/{in,out,logs,status}
rm -f -- "$work"/status/*

# Engine options decide what verify needs: pass --engine on to it.
verify_opts=()
for ((i = 0; i < ${#ucizip_opts[@]}; i++)); do
    if [ "${ucizip_opts[$i]}" = "--engine" ] && [ $((i + 1)) -lt ${#ucizip_opts[@]} ]; then
        verify_opts+=(--engine "${ucizip_opts[$((i + 1))]}")
    fi
done

"$ucizip" split "$in" --shards "$shards" --output-dir "$work/in" -f -q

# The jobs' scripts: values first, each quoted with printf %q; then fixed text (a quoted
# here-document: nothing in it is expanded now).
values() {
    printf '#!/usr/bin/env bash\n'
    printf 'ucizip=%q work=%q cpus=%q shards=%q out=%q\n' "$ucizip" "$work" "$cpus" "$shards" "$out"
    printf 'opts=('
    [ ${#ucizip_opts[@]} -eq 0 ] || printf ' %q' "${ucizip_opts[@]}"
    printf ')\nverify_opts=('
    [ ${#verify_opts[@]} -eq 0 ] || printf ' %q' "${verify_opts[@]}"
    printf ')\n'
    declare -f uz_shard_name uz_cat_shards
}
{
    values
    cat <<'EOF'
# One shard: array task i codes shard i+1.
n=$(uz_shard_name $((SLURM_ARRAY_TASK_ID + 1)) "$shards")
rc=0
"$ucizip" compress "$work/in/$n.pgn" -o "$work/out/$n.ucz" -f -q -j "$cpus" "${opts[@]+"${opts[@]}"}" || rc=$?
echo $rc > "$work/status/$n"
exit $rc
EOF
} > "$work/shard.sh"
{
    values
    cat <<'EOF'
# Concatenates the members in shard order and verifies the result before naming it.
rc=0
tmp=$out.merge.$$.tmp
uz_cat_shards "$work/out" ucz "$shards" > "$tmp" || rc=$?
[ $rc -eq 0 ] && { "$ucizip" verify "$tmp" -j "$cpus" "${verify_opts[@]+"${verify_opts[@]}"}" || rc=$?; }
[ $rc -eq 0 ] && { mv -- "$tmp" "$out" || rc=$?; }
[ $rc -eq 0 ] || rm -f -- "$tmp"
echo $rc > "$work/status/merge"
exit $rc
EOF
} > "$work/merge.sh"
chmod +x "$work/shard.sh" "$work/merge.sh"

sbatch_common=(--parsable -c "$cpus")
[ -n "$partition" ] && sbatch_common+=(-p "$partition")
read -r -a extra <<< "$extra_sbatch"
logs=${work//%/%%}/logs # sbatch expands % in file names: %% is a literal one
array_id=$(sbatch "${sbatch_common[@]}" "${extra[@]+"${extra[@]}"}" --array=0-$((shards - 1)) -J ucizip-shard \
    -o "$logs/shard-%a.log" "$work/shard.sh")
array_id=${array_id%%;*}
merge_id=$(sbatch "${sbatch_common[@]}" "${extra[@]+"${extra[@]}"}" --dependency=afterok:"$array_id" \
    --kill-on-invalid-dep=yes -J ucizip-merge -o "$logs/merge.log" "$work/merge.sh")
merge_id=${merge_id%%;*}
echo "slurm-compress: $shards shards: array job $array_id, merge job $merge_id (work: $work)" >&2
[ $wait -eq 1 ] || exit 0

in_queue() { [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; }

# Wait for the shards: each task leaves its exit status; a task killed by Slurm leaves
# none, which shows once the array has left the queue.
statuses() { # shards that have left their exit status
    local f count=0
    for f in "$work"/status/[0-9]*; do [ -e "$f" ] && count=$((count + 1)); done
    echo "$count"
}
while in_queue "$array_id"; do
    [ "$(statuses)" -ge "$shards" ] && break
    sleep 1
done
failed=0
for ((k = 1; k <= shards; k++)); do
    uz_shard_name "$k" n
    rc=$(cat "$work/status/$n" 2>/dev/null || echo "none (killed or never ran)")
    if [ "$rc" != 0 ]; then
        failed=$((failed + 1))
        log="$work/logs/shard-$((k - 1)).log"
        echo "slurm-compress: shard $k of $shards (array task ${array_id}_$((k - 1))) failed: exit status $rc; log $log:" >&2
        tail -n 5 "$log" 2>/dev/null | sed 's/^/    /' >&2 || true
    fi
done
if [ $failed -gt 0 ]; then
    scancel "$merge_id" 2>/dev/null || true
    echo "slurm-compress: $failed of $shards shards failed; no archive written (work kept in $work)" >&2
    exit 1
fi
while in_queue "$merge_id" && [ ! -f "$work/status/merge" ]; do sleep 1; done
for _ in $(seq 20); do [ -f "$work/status/merge" ] && break; sleep 0.5; done
rc=$(cat "$work/status/merge" 2>/dev/null || echo "none (killed or never ran)")
if [ "$rc" != 0 ]; then
    echo "slurm-compress: merge job $merge_id failed: exit status $rc; log $work/logs/merge.log:" >&2
    tail -n 5 "$work/logs/merge.log" 2>/dev/null | sed 's/^/    /' >&2 || true
    exit 1
fi
cat "$work/logs/merge.log" >&2
[ $keep_work -eq 1 ] || rm -rf -- "$work"
echo "slurm-compress: $out: $shards shards merged and verified" >&2
