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
#include "ucizip/input.h"

static const char split_usage[] =
    "usage: ucizip split IN --output-dir DIR (--shards K | --at B1,B2,...) [options]\n"
    "Writes DIR/0001.pgn ... one PGN file per shard, with the input's exact bytes (the shards\n"
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
        char *end;
        errno = 0;
        unsigned long long x = strtoull(p, &end, 10);
        if (errno || end == p || (*end && *end != ',') || (k && x < v[k - 1])) {
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

int cmd_split(int argc, char **argv)
{
    static const struct option options[] = {
        {"shards", required_argument, NULL, OPT_SHARDS}, {"at", required_argument, NULL, OPT_AT},
        {"output-dir", required_argument, NULL, OPT_DIR}, {"force", no_argument, NULL, 'f'},
        {"keep-going", no_argument, NULL, OPT_KG},      {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},               {NULL, 0, NULL, 0},
    };
    long shards = 0;
    unsigned long long *cuts = NULL;
    size_t n_cuts = 0;
    const char *dir = NULL;
    bool force = false, keep_going = false, quiet = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "fqh", options, NULL)) != -1) {
        switch (c) {
        case OPT_SHARDS:
            if (cli_parse_long("--shards", optarg, 1, 100000, &shards))
                return CLI_EXIT_USAGE;
            break;
        case OPT_AT:
            free(cuts);
            cuts = NULL;
            if (parse_offsets(optarg, &cuts, &n_cuts) != 0) {
                cli_error("--at: expected increasing byte offsets separated by commas, got '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_DIR: dir = optarg; break;
        case 'f': force = true; break;
        case OPT_KG: keep_going = true; break;
        case 'q': quiet = true; break;
        case 'h': fputs(split_usage, stdout); return CLI_EXIT_OK;
        default: fputs(split_usage, stderr); free(cuts); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != 1 || !dir || (shards > 0) == (cuts != NULL)) {
        fputs(split_usage, stderr);
        free(cuts);
        return CLI_EXIT_USAGE;
    }
    if (cuts)
        shards = (long)n_cuts + 1;
    if (cli_make_dir(dir) != 0) {
        free(cuts);
        return CLI_EXIT_FAIL;
    }
    int status = CLI_EXIT_FAIL;
    cli_game_source src;
    uz_game game;
    uz_game_init(&game);
    if (cli_source_open(&src, argv[optind], keep_going) != 0) {
        free(cuts);
        return CLI_EXIT_FAIL;
    }
    src.keep_verbatim = true;
    src.exact = true; /* shards hold the input's exact bytes: their concatenation is the input */
    long long raw_size = 0;
    struct stat st;
    if (!cuts) {
        if (strcmp(argv[optind], "-") != 0 && stat(argv[optind], &st) == 0 && S_ISREG(st.st_mode))
            raw_size = (long long)st.st_size;
        if (raw_size <= 0 && shards > 1) {
            cli_error("--shards needs a file of known size; use --at for stdin");
            goto out;
        }
    }
    long shard = 0, in_shard = 0, total = 0;
    cli_output out = {0};
    char path[4096];
    for (;;) {
        long n = cli_source_read(&src, &game, 1);
        if (n < 0)
            goto abort;
        long target = shard;
        if (n == 1) {
            if (cuts) {
                unsigned long long at = uz_pgn_reader_last_offset(src.reader);
                while (target < (long)n_cuts && at >= cuts[target])
                    target++;
            } else {
                /* Where this game starts, in the file's own bytes: exact for a plain
                 * file, scaled by the compression ratio so far for a compressed one. */
                double pos = (double)uz_pgn_reader_last_offset(src.reader);
                uint64_t out_bytes = uz_input_offset(src.input);
                if (uz_input_get_kind(src.input) != UZ_INPUT_PLAIN && out_bytes > 0)
                    pos *= (double)uz_input_raw_offset(src.input) / (double)out_bytes;
                long want = (long)(pos * (double)shards / (double)raw_size);
                if (want > target)
                    target = want < shards - 1 ? want : shards - 1;
            }
        } else {
            target = shards; /* close the last one and write the remaining empty shards */
        }
        while (!out.f || shard < target) {
            if (out.f) {
                if (cli_output_commit(&out) != 0)
                    goto out;
                if (!quiet)
                    fprintf(stderr, "%s: %ld games\n", path, in_shard);
                shard++;
                in_shard = 0;
                if (shard >= shards)
                    break;
            }
            snprintf(path, sizeof path, "%s/%04ld.pgn", dir, shard + 1);
            if (cli_output_open(&out, path, force) != 0)
                goto out;
        }
        if (n == 0)
            break;
        if (game.raw_len && fwrite(game.raw, 1, game.raw_len, out.f) != game.raw_len) {
            cli_error("%s: write error", path);
            goto abort;
        }
        in_shard += !game.text_only;
        total += !game.text_only;
    }
    if (!quiet)
        fprintf(stderr, "%s: %ld games in %ld shards under %s\n", src.name, total, shards, dir);
    status = CLI_EXIT_OK;
    goto out;
abort:
    cli_output_abort(&out);
out:
    if (cli_source_close(&src) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
    uz_game_clear(&game);
    free(cuts);
    return status;
}
