# Shard names and order, shared by scripts/parallel-compress.sh and scripts/slurm-compress.sh
# (sourced). Shards are numbered from 1 and named as `ucizip split` names them: the number
# with at least four digits (0001 ... 9999, 10000, ...). Their order is always numeric,
# never a glob's: in byte order 10000 would come between 1000 and 1001.

# The name of shard K, without directory or extension.
uz_shard_name() { printf '%04d' "$1"; }

# Writes DIR/NAME.EXT of shards 1 to K, in shard order, to standard output.
uz_cat_shards() {
    local dir=$1 ext=$2 count=$3 k
    for ((k = 1; k <= count; k++)); do
        cat -- "$dir/$(uz_shard_name "$k").$ext" || return 1
    done
}
