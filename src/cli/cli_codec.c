/* What compress, decompress, verify and extract share (cli_codec.h). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_codec.h"
#include "cli_util.h"

cli_decode_limits decode_limits;
bool decode_quiet;

/* Messages of the library (a game kept as text, an input skipped): one line each. */
void on_library_message(void *user, const char *input, const uz_diag *diag)
{
    (void)user;
    cli_report(input, diag);
}

void remove_inputs(const char *const *paths, size_t n, bool quiet)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(paths[i], "-") == 0)
            continue;
        if (unlink(paths[i]) != 0)
            cli_error("%s: cannot remove: %s", paths[i], strerror(errno));
        else if (!quiet)
            fprintf(stderr, "ucizip: removed %s\n", paths[i]);
    }
}

/* The size of an input that is a regular file (stdin redirected from one included; the
 * compressed size for a compressed one, as the library counts bytes read); 0 if not (a pipe). */
long long input_size(FILE *f, const char *path)
{
    struct stat st;
    int r = f ? fstat(fileno(f), &st) : stat(path, &st);
    return r == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : 0;
}

static void on_decode_progress(void *user, uint64_t games, uint64_t moves, uint64_t bytes)
{
    cli_progress_update(user, (long)games, (long)moves, (long long)bytes);
}

/* The library's options for decoding with eo (the search settings come from the
 * archive). */
void decode_options(const cli_engine_opts *eo, bool canonical, uz_options *u)
{
    uz_options_init(u);
    u->engine = eo->engine;
    u->workers = eo->workers > 0 ? (int)eo->workers : 0;
    u->cache_path = eo->cache_path;
    u->canonical = canonical;
    u->max_block_moves = decode_limits.block_moves;
    u->max_block_bytes = decode_limits.block_bytes;
    u->max_engine_memory_mb = decode_limits.engine_memory_mb;
    u->on_message = on_library_message;
}

/* Says which installed profile was chosen for the archive when no --engine was given
 * (decompress: with -v only, as zstd is silent unless asked). */
void report_profile(const uz_decompressor *d)
{
    const char *profile = uz_decompressor_engine_profile(d);
    if (profile)
        fprintf(stderr, "ucizip: engine: %s\n", profile);
}

/* Decodes every member of in, writing the games to out (NULL: check only; out_name its
 * display name): their exact bytes, or the export format with canonical. */
int decode_all(FILE *in, const char *name, FILE *out, const char *out_name, bool canonical,
                      const cli_engine_opts *eo, bool progress, bool name_profile, long *games_out)
{
    uz_options u;
    decode_options(eo, canonical, &u);
    cli_progress prog;
    cli_progress_init(&prog, progress);
    prog.total_bytes = input_size(in, name); /* the archive's size: an ETA while decoding */
    u.on_progress = on_decode_progress;
    u.user = &prog;
    uz_diag diag = {0};
    uint64_t games = 0;
    uz_decompressor *d = NULL;
    uz_result r = uz_decompressor_open(&d, &u, &diag);
    if (r == UZ_OK)
        r = uz_decompressor_decode(d, in, name, out, &games, &diag);
    if (d && name_profile)
        report_profile(d);
    uz_decompressor_close(d);
    cli_progress_done(&prog);
    if (r != UZ_OK) {
        /* A failed write (disk full) is the output's error, not the archive's. */
        if (out && ferror(out)) {
            cli_error("%s: %s", out_name, diag.message);
        } else {
            cli_report(name, &diag);
        }
        return -1;
    }
    *games_out = (long)games;
    return 0;
}

/* --max-block-moves, --max-block-mb and --memory into decode_limits: 0 when taken, -1 on
 * a bad value. */
int decode_limit_opt(int c, const char *arg)
{
    long v;
    const char *name = c == OPT_D_MAX_MOVES ? "--max-block-moves" : c == OPT_D_MAX_MB ? "--max-block-mb" : "--memory";
    if (cli_parse_long(name, arg, 1, 1L << 40, &v))
        return -1;
    if (c == OPT_D_MEMORY)
        decode_limits.engine_memory_mb = (uint64_t)v;
    else if (c == OPT_D_MAX_MOVES)
        decode_limits.block_moves = (uint64_t)v;
    else
        decode_limits.block_bytes = (uint64_t)v << 20;
    return 0;
}

/* Options of verify and extract (extract also takes -o, --game, --tag, --player, --fen and
 * --canonical). */
int parse_decode_args(int argc, char **argv, const char *usage, const char **out_path, bool *force,
                             bool *progress, bool *canonical, cli_engine_opts *eo, long *game, uz_game_filter *filter,
                             const char **fen)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
        {"progress", no_argument, NULL, OPT_D_PROGRESS}, {"game", required_argument, NULL, OPT_D_GAME},
        {"canonical", no_argument, NULL, OPT_D_CANONICAL}, CLI_SELECT_OPTIONS,
        {"fen", required_argument, NULL, OPT_D_FEN},
        {"max-block-moves", required_argument, NULL, OPT_D_MAX_MOVES},
        {"max-block-mb", required_argument, NULL, OPT_D_MAX_MB},
        {"memory", required_argument, NULL, OPT_D_MEMORY},
        {"help", no_argument, NULL, 'h'},         {"engine", required_argument, NULL, OPT_ENGINE},
        {"workers", required_argument, NULL, OPT_WORKERS}, {"cache", required_argument, NULL, OPT_CACHE},
        CLI_KEEP_QUIET_OPTIONS, {NULL, 0, NULL, 0},
    };
    cli_engine_opts_init(eo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, out_path ? "o:fj:kqh" : "j:kqh", options, NULL)) != -1) {
        if (c == 'j')
            c = OPT_WORKERS;
        if (c == OPT_ENGINE || c == OPT_WORKERS || c == OPT_CACHE) {
            if (cli_engine_opt(eo, c, optarg) < 0)
                return CLI_EXIT_USAGE;
            continue;
        }
        switch (c) {
        case 'o':
            if (!out_path)
                goto usage;
            *out_path = optarg;
            break;
        case 'f':
            if (!out_path)
                goto usage;
            *force = true;
            break;
        case OPT_D_PROGRESS: *progress = true; break;
        case 'k': break; /* the archive is kept */
        case 'q': decode_quiet = true; break;
        case OPT_D_GAME:
            if (!game || cli_parse_long("--game", optarg, 1, 1L << 40, game))
                goto usage;
            break;
        case OPT_D_CANONICAL:
            if (!canonical)
                goto usage;
            *canonical = true;
            break;
        case CLI_OPT_TAG:
        case CLI_OPT_PLAYER:
            if (!filter)
                goto usage;
            if (cli_select_opt(filter, c, optarg) < 0)
                return CLI_EXIT_USAGE;
            break;
        case OPT_D_FEN:
            if (!fen)
                goto usage;
            *fen = optarg;
            break;
        case OPT_D_MAX_MOVES:
        case OPT_D_MAX_MB:
        case OPT_D_MEMORY:
            if (decode_limit_opt(c, optarg) != 0)
                goto usage;
            break;
        case 'h': fputs(usage, stdout); return -1;
        default: goto usage;
        }
    }
    return 0;
usage:
    fputs(usage, stderr);
    return CLI_EXIT_USAGE;
}
