# Shard names and order, shared by scripts/parallel-compress.sh and scripts/slurm-compress.sh
# (sourced). Shards are numbered from 1 and named as `ucizip split` names them: the number
# with at least four digits (0001 ... 9999, 10000, ...). Their order is always numeric,
# never a glob's: in byte order 10000 would come between 1000 and 1001.

# The name of shard K, without directory or extension: printed, or put in variable VAR.
#   uz_shard_name K [VAR]
uz_shard_name() {
    if [ $# -ge 2 ]; then printf -v "$2" '%04d' "$1"; else printf '%04d' "$1"; fi
}

# Writes DIR/NAME.EXT of shards 1 to K, in shard order, to standard output; fails, writing
# nothing, when one is missing. (One cat for many files: 10,000 shards take no 10,000 forks.)
uz_cat_shards() {
    local dir=$1 ext=$2 count=$3 k name
    for ((k = 1; k <= count; k++)); do
        uz_shard_name "$k" name
        [ -f "$dir/$name.$ext" ] || { echo "missing shard: $dir/$name.$ext" >&2; return 1; }
    done
    for ((k = 1; k <= count; k++)); do
        uz_shard_name "$k" name
        printf '%s\0' "$dir/$name.$ext"
    done | xargs -0 cat --
}
