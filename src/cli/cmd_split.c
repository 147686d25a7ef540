/* ucizip split: cuts a PGN input (plain or compressed) into shards at game boundaries,
 * for coding on several machines (scripts/slurm-compress.sh). Every game goes to
 * exactly one shard, in order: the shards' games, concatenated, are the input's. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_inputs.h"
#include "cli_util.h"

static const char split_usage[] =
    "usage: ucizip split IN --output-dir DIR (--shards K | --at B1,B2,...) [options]\n"
    "Writes DIR/0001.pgn ... one PGN file per shard (numbered with the digits of K, at least\n"
    "four: 00001.pgn ... for 10,000 shards or more), with the input's exact bytes (the shards\n"
    "one after the other are the input); every game goes to\n"
    "exactly one shard, in input order; the games of a shard decode and compress as in\n"
    "the input. IN is plain or zstd/gzip/bzip2/xz-compressed.\n"
    "  --shards K          K shards of about equal input size (compressed bytes for a\n"
    "                      compressed input); some may be empty\n"
    "  --at B1,B2,...      cut at these byte offsets of the (decompressed) input: a game\n"
    "                      belongs to the shard whose range holds its first byte\n"
    "  --output-dir DIR    where the shards go (created if missing)\n"
    "  -f, --force         overwrite shard files that exist\n"
    "  --keep-going        skip bad games (each reported) instead of stopping\n"
    "  -q, --quiet         no summary\n";

enum { OPT_SHARDS = 4000, OPT_AT, OPT_DIR, OPT_KG };

static int parse_offsets(const char *text, unsigned long long **out, size_t *n)
{
    size_t cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == ',';
    unsigned long long *v = malloc(cap * sizeof *v);
    if (!v)
        return -1;
    size_t k = 0;
    const char *p = text;
    while (*p) {
        char *end = (char *)p;
        errno = 0;
        /* Digits only: strtoull would take "-5" as 2^64 - 5 and skip leading spaces. */
        unsigned long long x = *p >= '0' && *p <= '9' ? strtoull(p, &end, 10) : 0;
        if (*p < '0' || *p > '9' || errno || (*end && *end != ',') || (k && x < v[k - 1])) {
            free(v);
            return -1;
        }
        v[k++] = x;
        p = *end ? end + 1 : end;
    }
    *out = v;
    *n = k;
    return 0;
}

typedef struct split_opts {
    long shards;
    unsigned long long *cuts; /* --at offsets (malloc'd), or NULL for --shards */
    size_t n_cuts;
    const char *dir;
    bool force, keep_going, quiet;
} split_opts;

/* Parses the options into o; -1 to go on, else the exit status (o->cuts then freed). */
static int parse_split_args(int argc, char **argv, split_opts *o)
{
    static const struct option options[] = {
        {"shards", required_argument, NULL, OPT_SHARDS}, {"at", required_argument, NULL, OPT_AT},
        {"output-dir", required_argument, NULL, OPT_DIR}, {"force", no_argument, NULL, 'f'},
        {"keep-going", no_argument, NULL, OPT_KG},      CLI_KEEP_QUIET_OPTIONS,
        {"help", no_argument, NULL, 'h'},               {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "fkqh", options, NULL)) != -1) {
        switch (c) {
        case OPT_SHARDS:
            if (cli_parse_long("--shards", optarg, 1, 100000, &o->shards))
                return CLI_EXIT_USAGE;
            break;
        case OPT_AT:
            free(o->cuts);
            o->cuts = NULL;
            if (parse_offsets(optarg, &o->cuts, &o->n_cuts) != 0) {
                cli_error("--at: expected increasing byte offsets separated by commas, got '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_DIR: o->dir = optarg; break;
        case 'f': o->force = true; break;
        case OPT_KG: o->keep_going = true; break;
        case 'q': o->quiet = true; break;
        case 'k': break; /* the input is kept */
        case 'h': fputs(split_usage, stdout); return CLI_EXIT_OK;
        default: fputs(split_usage, stderr); free(o->cuts); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != 1 || !o->dir || (o->shards > 0) == (o->cuts != NULL)) {
        fputs(split_usage, stderr);
        free(o->cuts);
        return CLI_EXIT_USAGE;
    }
    if (o->cuts)
        o->shards = (long)o->n_cuts + 1;
    return -1;
}

/* The shard (not before current) of the game just read. */
static long shard_of_game(const cli_game_source *src, const split_opts *o, long current, long long raw_size)
{
    long target = current;
    if (o->cuts) {
        unsigned long long at = uz_pgn_source_game_offset(src->ps);
        while (target < (long)o->n_cuts && at >= o->cuts[target])
            target++;
    } else {
        /* Where this game starts, in the file's own bytes: exact for a plain
         * file, scaled by the compression ratio so far for a compressed one. */
        double pos = uz_pgn_source_game_position(src->ps);
        long want = (long)(pos * (double)o->shards / (double)raw_size);
        if (want > target)
            target = want < o->shards - 1 ? want : o->shards - 1;
    }
    return target;
}

/* The shard being written: its file and path, its 0-based number, its games so far. */
typedef struct shard_writer {
    cli_output out;
    char path[4096];
    long shard, in_shard;
} shard_writer;

/* Commits the shards before target (empty ones included) and opens target's, unless
 * target is o->shards (the end). 0 or -1 (reported). */
static int advance_to_shard(shard_writer *w, const split_opts *o, long target)
{
    while (!w->out.f || w->shard < target) {
        if (w->out.f) {
            if (cli_output_commit(&w->out) != 0)
                return -1;
            if (!o->quiet)
                fprintf(stderr, "%s: %ld games\n", w->path, w->in_shard);
            w->shard++;
            w->in_shard = 0;
            if (w->shard >= o->shards)
                break;
        }
        /* Numbers padded to the count's width (at least 4): byte order is shard order,
         * so a glob over the directory lists them in order however many there are. */
        int width = snprintf(NULL, 0, "%ld", o->shards);
        int path_len = snprintf(w->path, sizeof w->path, "%s/%0*ld.pgn", o->dir, width > 4 ? width : 4, w->shard + 1);
        if (path_len < 0 || (size_t)path_len >= sizeof w->path) {
            cli_error("%s: directory name too long", o->dir);
            return -1;
        }
        if (cli_output_open(&w->out, w->path, o->force) != 0)
            return -1;
    }
    return 0;
}

int cmd_split(int argc, char **argv)
{
    split_opts o = {0};
    int parsed = parse_split_args(argc, argv, &o);
    if (parsed >= 0)
        return parsed;
    if (cli_make_dir(o.dir) != 0) {
        free(o.cuts);
        return CLI_EXIT_FAIL;
    }
    int status = CLI_EXIT_FAIL;
    cli_game_source src;
    uz_game *game = NULL;
    uz_diag diag = {0};
    if (uz_game_new(&game, &diag) != UZ_OK) {
        cli_error("out of memory");
        free(o.cuts);
        return CLI_EXIT_FAIL;
    }
    if (cli_source_open(&src, argv[optind], o.keep_going) != 0) {
        uz_game_free(game);
        free(o.cuts);
        return CLI_EXIT_FAIL;
    }
    src.keep_verbatim = true;
    src.exact = true; /* shards hold the input's exact bytes: their concatenation is the input */
    long long raw_size = 0;
    struct stat st;
    if (!o.cuts) {
        if (strcmp(argv[optind], "-") != 0 && stat(argv[optind], &st) == 0 && S_ISREG(st.st_mode))
            raw_size = (long long)st.st_size;
        if (raw_size <= 0 && o.shards > 1) {
            cli_error("--shards needs a file of known size; use --at for stdin");
            goto out;
        }
    }
    long total = 0;
    shard_writer w = {0};
    for (;;) {
        int n = cli_source_next(&src, game);
        if (n < 0)
            goto abort;
        /* At the end: close the last shard and write the remaining empty ones. */
        long target = n == 1 ? shard_of_game(&src, &o, w.shard, raw_size) : o.shards;
        if (advance_to_shard(&w, &o, target) != 0)
            goto out;
        if (n == 0)
            break;
        size_t len;
        const char *bytes = uz_game_bytes(game, &len);
        if (len && fwrite(bytes, 1, len, w.out.f) != len) {
            cli_error("%s: write error", w.path);
            goto abort;
        }
        w.in_shard += uz_game_is_game(game);
        total += uz_game_is_game(game);
    }
    if (!o.quiet)
        fprintf(stderr, "%s: %ld games in %ld shards under %s\n", src.name, total, o.shards, o.dir);
    status = CLI_EXIT_OK;
    goto out;
abort:
    cli_output_abort(&w.out);
out:
    if (cli_source_close(&src) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
    uz_game_free(game);
    free(o.cuts);
    return status;
}
