# Shard names and order, shared by scripts/parallel-compress.sh and scripts/slurm-compress.sh
# (sourced). Shards are numbered from 1 and named as `ucizip split` names them: the number
# padded to the digits of the count, at least four (0001 ... 9999 for up to 9,999 shards;
# 00001 ... 10001 for 10,001), so that byte order is shard order. The drivers still go
# in numeric order, never by a glob.

# The name of shard K of COUNT, without directory or extension: printed, or put in VAR.
#   uz_shard_name K COUNT [VAR]
uz_shard_name() {
    local width=${#2}
    [ "$width" -ge 4 ] || width=4
    if [ $# -ge 3 ]; then printf -v "$3" '%0*d' "$width" "$1"; else printf '%0*d' "$width" "$1"; fi
}

# Writes DIR/NAME.EXT of shards 1 to K, in shard order, to standard output; fails, writing
# nothing, when one is missing. (One cat for many files: 10,000 shards take no 10,000 forks.)
uz_cat_shards() {
    local dir=$1 ext=$2 count=$3 k name
    for ((k = 1; k <= count; k++)); do
        uz_shard_name "$k" "$count" name
        [ -f "$dir/$name.$ext" ] || { echo "missing shard: $dir/$name.$ext" >&2; return 1; }
    done
    for ((k = 1; k <= count; k++)); do
        uz_shard_name "$k" "$count" name
        printf '%s\0' "$dir/$name.$ext"
    done | xargs -0 cat --
}
