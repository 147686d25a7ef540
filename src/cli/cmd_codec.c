/* ucizip compress / decompress / info / verify / extract: PGN to .ucz archives and back. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_samples.h"
#include "cli_tags.h"
#include "cli_util.h"
#include "ucizip/blockcode.h"

#define SUFFIX ".ucz"

/* ---- compress ---- */

static const char compress_usage[] =
    "usage: ucizip compress [IN.pgn|-] [-o OUT.ucz|-] [options]\n"
    "  -o, --output FILE   archive to write (default: IN.pgn.ucz; stdout for stdin)\n"
    "  -f, --force         overwrite OUT if it exists\n"
    "  --max-games N       only the first N games\n"
    "  -k, --keep-going    with --canonical: skip bad games (each reported; they are NOT in\n"
    "                      the archive); without it bad games are kept as text anyway\n"
    "  --canonical         store the games in PGN export format instead of their exact\n"
    "                      bytes (layout not kept; games that cannot be read stop the run)\n"
    "  --progress          progress on stderr even when it is not a terminal\n"
    "  -q, --quiet         no summary line\n"
    "  --fit-k             fit the rank model (k, floor, rank, decay; chosen unless --model\n"
    "                      says exp) to IN in a first pass and\n"
    "                      store it in the header; IN must be a file; the scores of the\n"
    "                      first pass are kept in memory (about 0.5 KB per position)\n" CLI_ENGINE_HELP
        CLI_MODEL_HELP;

#define BATCH UZ_ARCHIVE_BLOCK_GAMES

/* Decoder limits (doc/format.md): what a block may claim before it is refused. */
#define CLI_DECODE_LIMITS_HELP \
    "  --max-block-moves N moves one block may hold (default 1048576; each costs memory and a search)\n" \
    "  --max-block-mb N    MiB of uncompressed structure one block may hold (default 128)\n"
static uz_decode_limits decode_limits;


typedef struct compress_totals {
    long games, moves;
    uint64_t move_bytes;
} compress_totals;

static int compress_one_block(uz_pool *pool, uz_pool *pool960, const uz_model *model, uz_encoder *enc,
                              uz_archive_writer *w, uz_game *games, size_t n, compress_totals *t);

/* Scores, codes and writes n games: one block, or more where the block limits say so. */
static int compress_block(uz_pool *pool, uz_pool *pool960, const uz_model *model, uz_encoder *enc,
                          uz_archive_writer *w, uz_game *games, size_t n, compress_totals *t)
{
    while (n > 0) {
        size_t k = uz_block_fit(games, n);
        if (compress_one_block(pool, pool960, model, enc, w, games, k, t) != 0)
            return -1;
        games += k;
        n -= k;
    }
    return 0;
}

static int compress_one_block(uz_pool *pool, uz_pool *pool960, const uz_model *model, uz_encoder *enc,
                              uz_archive_writer *w, uz_game *games, size_t n, compress_totals *t)
{
    uz_buf structure = {0}, moves = {0};
    uz_diag diag = {0};
    uint64_t n_moves, digest;
    uz_result r = uz_block_encode(pool, pool960, model, enc, games, n, &structure, &moves, &n_moves, &digest, &diag);
    if (r == UZ_OK)
        r = uz_archive_write_block(w, n, n_moves, digest, &structure, moves.data, moves.size, &diag);
    if (r == UZ_OK) {
        t->games += (long)n;
        t->moves += (long)n_moves;
        t->move_bytes += moves.size;
    } else {
        cli_report(NULL, &diag);
    }
    uz_buf_free(&structure);
    uz_buf_free(&moves);
    return r == UZ_OK ? 0 : -1;
}

/* First pass of --fit-k: scores every game of src (the pool keeps the results for the
 * second pass) and fits the model parameters in mo to them. */
static int fit_model(uz_pool *pool, uz_pool *pool960, cli_game_source *src, uz_game *games, cli_model_opts *mo,
                     bool progress, bool quiet)
{
    cli_samples samples = {0};
    uz_walk *walks = calloc(BATCH, sizeof *walks);
    cli_progress prog;
    long n_games = 0;
    int status = -1;
    if (!walks) {
        cli_error("out of memory");
        return -1;
    }
    cli_progress_init(&prog, progress);
    for (;;) {
        long n = cli_source_read(src, games, BATCH);
        if (n < 0)
            goto out;
        if (n == 0)
            break;
        if (!pool960 && cli_chess960_as_text(games, n) != 0)
            goto out;
        long made = 0;
        uz_diag diag = {0};
        uz_result r = UZ_OK;
        for (; made < n && r == UZ_OK; made++)
            r = uz_walk_init(&walks[made], &games[made]);
        if (r == UZ_OK && (r = uz_score_walks_960(pool, pool960, walks, (size_t)n, &diag)) != UZ_OK)
            cli_report(NULL, &diag);
        for (long i = 0; i < made; i++) {
            if (r == UZ_OK && cli_samples_add_walk(&samples, &walks[i]) != 0)
                r = UZ_ERR_NOMEM;
            uz_walk_free(&walks[i]);
        }
        if (r == UZ_ERR_NOMEM)
            cli_error("out of memory while fitting");
        if (r != UZ_OK)
            goto out;
        n_games += n;
        cli_progress_update(&prog, n_games, (long)samples.n_items, (long long)ftello(src->f));
    }
    cli_progress_done(&prog);
    if (samples.n_items) {
        uz_fit_sample *list = cli_samples_list(&samples);
        uz_model_params best;
        double bits;
        if (!list || uz_model_fit(list, samples.n_items, &mo->params, !mo->floor_given, &best, &bits) != UZ_OK) {
            cli_error("fitting the model failed");
            free(list);
            goto out;
        }
        free(list);
        mo->params = best;
        if (!quiet) {
            char text[128];
            cli_model_text(&best, text, sizeof text);
            fprintf(stderr, "fitted on %zu positions with a choice: %s (%.3f bits each)\n", samples.n_items, text,
                    bits / (double)samples.n_items);
        }
    }
    status = 0;
out:
    free(walks);
    cli_samples_free(&samples);
    return status;
}

/* Default output name: IN + ".ucz"; stdout for stdin. */
static char *default_output(const char *in, const char *suffix_to_add, const char *suffix_to_strip)
{
    if (!in || strcmp(in, "-") == 0)
        return NULL;
    size_t n = strlen(in);
    char *out = malloc(n + 8);
    if (!out)
        return NULL;
    if (suffix_to_strip) {
        size_t k = strlen(suffix_to_strip);
        if (n <= k || strcmp(in + n - k, suffix_to_strip) != 0) {
            free(out);
            return NULL;
        }
        memcpy(out, in, n - k);
        out[n - k] = 0;
    } else {
        snprintf(out, n + 8, "%s%s", in, suffix_to_add);
    }
    return out;
}

int cmd_compress(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
        {"keep-going", no_argument, NULL, 'k'},   {"max-games", required_argument, NULL, 'm'},   {"progress", no_argument, NULL, 'p'},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        {"fit-k", no_argument, NULL, 'F'},        {"canonical", no_argument, NULL, 'C'},
        CLI_ENGINE_OPTIONS,                       CLI_MODEL_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    const char *out_path = NULL;
    bool force = false, keep_going = false, progress = false, quiet = false, fit = false, canonical = false;
    long max_games = 0;
    cli_engine_opts eo;
    cli_model_opts mo;
    cli_engine_opts_init(&eo);
    cli_model_opts_init(&mo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:fkqh", options, NULL)) != -1) {
        int h = cli_shared_opt(&eo, &mo, c, optarg);
        if (h < 0)
            return CLI_EXIT_USAGE;
        if (h)
            continue;
        switch (c) {
        case 'o': out_path = optarg; break;
        case 'f': force = true; break;
        case 'k': keep_going = true; break;
        case 'C': canonical = true; break;
        case 'm':
            if (cli_parse_long("--max-games", optarg, 1, 1L << 40, &max_games))
                return CLI_EXIT_USAGE;
            break;
        case 'p': progress = true; break;
        case 'q': quiet = true; break;
        case 'F': fit = true; break;
        case 'h': fputs(compress_usage, stdout); return CLI_EXIT_OK;
        default: fputs(compress_usage, stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind > 1) {
        fputs(compress_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *in_path = optind < argc ? argv[optind] : NULL;
    if (fit && (!in_path || strcmp(in_path, "-") == 0)) {
        cli_error("--fit-k reads the input twice: give a file, not stdin");
        return CLI_EXIT_USAGE;
    }
    if (fit && mo.params.kind == UZ_MODEL_PLAYER)
        mo.params.kind = UZ_MODEL_RANK; /* the player model's weights are trained offline */
    if (fit)
        eo.cache_entries = 1 << 21; /* the second pass takes the scores of the first from here */
    char *auto_out = out_path ? NULL : default_output(in_path, SUFFIX, NULL);
    if (auto_out)
        out_path = auto_out;
    if ((!out_path || strcmp(out_path, "-") == 0) && isatty(STDOUT_FILENO)) {
        cli_error("refusing to write an archive to a terminal; use -o FILE");
        free(auto_out);
        return CLI_EXIT_USAGE;
    }

    int status = CLI_EXIT_FAIL;
    uz_pool *pool = NULL, *pool960 = NULL;
    bool tried960 = false, member960 = false;
    uz_encoder *enc = NULL;
    uz_archive_writer *writer = NULL;
    uz_model model;
    cli_output out = {0};
    cli_game_source src;
    cli_progress prog;
    compress_totals t = {0};
    uz_game *games = calloc(BATCH, sizeof *games);
    if (!games || uz_encoder_create(&enc, mo.coder) != UZ_OK) {
        cli_error("out of memory");
        goto free_arrays;
    }
    for (int i = 0; i < BATCH; i++)
        uz_game_init(&games[i]);
    uz_diag mdiag = {0};
    if (uz_model_open(&model, &mo.params, &mdiag) != UZ_OK) {
        cli_error("%s", mdiag.message);
        goto free_arrays;
    }
    if (cli_source_open(&src, in_path, keep_going) != 0)
        goto free_arrays;
    src.max_games = max_games;
    src.exact = !canonical;
    src.keep_verbatim = true;
    if (cli_pool_open(&eo, &pool) != 0)
        goto close_source;
    if (fit) {
        /* The fit pass needs the Chess960 engine up front, if the engine has one. */
        if (cli_pool960_open(&eo, pool, &pool960) != 0)
            goto close_pool;
        tried960 = true;
        if (fit_model(pool, pool960, &src, games, &mo, progress, quiet) != 0)
            goto close_pool;
        cli_source_close(&src);
        if (cli_source_open(&src, in_path, keep_going) != 0)
            goto close_pool_only;
        src.max_games = max_games;
        src.exact = !canonical;
        src.keep_verbatim = true;
        if (uz_model_open(&model, &mo.params, &mdiag) != UZ_OK) {
            cli_error("%s", mdiag.message);
            goto close_pool;
        }
    }
    if (cli_output_open(&out, out_path, force) != 0)
        goto close_pool;
    uz_diag diag = {0};
    uz_result r;
    cli_progress_init(&prog, progress);
    /* A member's header says whether it codes Chess960 games (key 12), so it is written
     * with the first block; the Chess960 engine starts at the first such game, and a
     * member begun without it is finished and a new one begun. */
    for (;;) {
        long n = cli_source_read(&src, games, BATCH);
        if (n < 0)
            goto abort_output;
        if (n == 0 && writer)
            break;
        if (cli_has_chess960(games, n)) {
            if (!tried960 && cli_pool960_open(&eo, pool, &pool960) != 0)
                goto abort_output;
            tried960 = true;
            if (!pool960 && cli_chess960_as_text(games, n) != 0)
                goto abort_output;
            if (pool960 && writer && !member960) {
                r = uz_archive_writer_finish(writer, &diag);
                writer = NULL;
                if (r != UZ_OK) {
                    cli_report(out_path, &diag);
                    goto abort_output;
                }
            }
        }
        if (!writer) {
            uz_archive_header header;
            uz_header_fill(&header, pool, &model.params, mo.coder, BATCH);
            if (pool960)
                snprintf(header.chess960_fingerprint, sizeof header.chess960_fingerprint, "%s",
                         uz_pool_fingerprint(pool960));
            member960 = pool960 != NULL;
            if (uz_archive_writer_open(&writer, out.f, &header, &diag) != UZ_OK) {
                cli_report(out_path, &diag);
                goto abort_output;
            }
        }
        if (n == 0)
            break;
        if (compress_block(pool, pool960, &model, enc, writer, games, (size_t)n, &t) != 0)
            goto abort_output;
        cli_progress_update(&prog, t.games, t.moves, (long long)ftello(src.f));
    }
    cli_progress_done(&prog);
    r = uz_archive_writer_finish(writer, &diag);
    writer = NULL;
    if (r != UZ_OK) {
        cli_report(out_path, &diag);
        goto abort_output;
    }
    off_t archive_bytes = out.f == stdout ? -1 : ftello(out.f);
    if (cli_output_commit(&out) != 0)
        goto close_pool;
    status = CLI_EXIT_OK;
    if (!quiet) {
        double bpm = t.moves ? 8.0 * (double)t.move_bytes / (double)t.moves : 0.0;
        fprintf(stderr, "%s: %ld games, %ld moves -> %s: %lld bytes (moves %.3f bits/move)\n", src.name, t.games,
                t.moves, out_path ? out_path : "<stdout>", (long long)archive_bytes, bpm);
    }
    goto close_pool;
abort_output:
    uz_archive_writer_abort(writer);
    cli_output_abort(&out);
close_pool:
    uz_pool_destroy(pool960);
    uz_pool_destroy(pool);
close_source:
    if (cli_source_close(&src) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
    goto free_arrays;
close_pool_only:
    uz_pool_destroy(pool960);
    uz_pool_destroy(pool);
free_arrays:
    for (int i = 0; games && i < BATCH; i++)
        uz_game_clear(&games[i]);
    free(games);
    uz_encoder_destroy(enc);
    free(auto_out);
    return status;
}

/* ---- decoding (decompress, verify, extract) ---- */

static void on_decode_progress(void *user, uint64_t games, uint64_t moves, uint64_t bytes)
{
    cli_progress_update(user, (long)games, (long)moves, (long long)bytes);
}

/* The engine to decode with: the one --engine names (*base filled, returns base), or
 * NULL when none was given, for the installed profile matching each archive member.
 * Sets *failed on a bad --engine (reported). */
static const uz_engine_settings *decode_engine(const cli_engine_opts *eo, uz_engine_settings *base, bool *failed)
{
    *failed = false;
    if (!eo->engine)
        return NULL;
    *failed = cli_engine_settings(eo, base) != 0;
    return base;
}

/* Says which installed profile was chosen for the archive when no --engine was given. */
static void report_chosen_engine(const cli_engine_opts *eo, const uz_member_decoder *md)
{
    const uz_engine_settings *s = uz_pool_settings(md->pool);
    if (!eo->engine && s)
        fprintf(stderr, "ucizip: engine: profile '%s' (%s, %s), the installed profile matching the archive\n",
                s->profile, uz_pool_engine_name(md->pool), s->path);
}

/* Decodes every member of in, writing PGN to out (NULL: check only). */
static int decode_all(FILE *in, const char *name, FILE *out, bool canonical, const cli_engine_opts *eo, bool progress,
                      long *games_out)
{
    uz_engine_settings base_settings;
    bool bad_engine;
    const uz_engine_settings *base = decode_engine(eo, &base_settings, &bad_engine);
    if (bad_engine)
        return -1;
    cli_progress prog;
    cli_progress_init(&prog, progress);
    uz_diag diag = {0};
    uint64_t games = 0;
    int workers = eo->workers > 0 ? (int)eo->workers : cli_default_workers();
    uz_member_decoder md = {.limits = decode_limits};
    uz_result r = uz_archive_decode(in, name, out, canonical, &md, base, workers, on_decode_progress, &prog, &games,
                                    &diag);
    report_chosen_engine(eo, &md);
    uz_member_decoder_close(&md);
    cli_progress_done(&prog);
    if (r != UZ_OK) {
        cli_report(name, &diag);
        return -1;
    }
    *games_out = (long)games;
    return 0;
}

static const char decompress_usage[] =
    "usage: ucizip decompress [IN.ucz|-] [-o OUT.pgn|-] [options]\n"
    "  -o, --output FILE   PGN to write (default: IN without .ucz; stdout for stdin)\n"
    "  -f, --force         overwrite OUT if it exists\n"
    "  --progress          progress on stderr even when it is not a terminal\n"
    "  --canonical         write the games in PGN export format, not the input's exact bytes\n" CLI_DECODE_LIMITS_HELP
        CLI_ENGINE_HELP
    "Without --engine, the installed profile of the archive's engine is used (and named).\n"
    "The engine must give the same fingerprint as the one that made the archive.\n";

static int parse_decode_args(int argc, char **argv, const char *usage, const char **out_path, bool *force,
                             bool *progress, bool *canonical, cli_engine_opts *eo, long *game, uz_tag_filter *filter)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
        {"canonical", no_argument, NULL, 'C'},
        {"progress", no_argument, NULL, 'p'},     {"game", required_argument, NULL, 'g'},
        {"tag", required_argument, NULL, 't'},
        {"max-block-moves", required_argument, NULL, 'M'}, {"max-block-mb", required_argument, NULL, 'B'},
        {"help", no_argument, NULL, 'h'},         CLI_ENGINE_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    cli_engine_opts_init(eo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:fh", options, NULL)) != -1) {
        int h = cli_engine_opt(eo, c, optarg);
        if (h < 0)
            return CLI_EXIT_USAGE;
        if (h) {
            if (c == OPT_DEPTH || c == OPT_NODES || c == OPT_MODE || c == OPT_HASH) {
                cli_error("the search settings come from the archive; only --engine and --workers apply here");
                return CLI_EXIT_USAGE;
            }
            continue;
        }
        switch (c) {
        case 'o':
            if (!out_path)
                goto usage;
            *out_path = optarg;
            break;
        case 'f': *force = true; break;
        case 'p': *progress = true; break;
        case 'C':
            if (!canonical)
                goto usage;
            *canonical = true;
            break;
        case 'M':
        case 'B': {
            long v;
            if (cli_parse_long(c == 'M' ? "--max-block-moves" : "--max-block-mb", optarg, 1, 1L << 40, &v))
                goto usage;
            if (c == 'M')
                decode_limits.block_nodes = (uint64_t)v;
            else
                decode_limits.block_struct_bytes = (uint64_t)v << 20;
            break;
        }
        case 'g':
            if (!game || cli_parse_long("--game", optarg, 1, 1L << 40, game))
                goto usage;
            break;
        case 't':
            if (!filter)
                goto usage;
            if (cli_tag_option(filter, optarg) != 0)
                return CLI_EXIT_USAGE;
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

int cmd_decompress(int argc, char **argv)
{
    const char *out_path = NULL;
    bool force = false, progress = false;
    cli_engine_opts eo;
    bool canonical = false;
    int a = parse_decode_args(argc, argv, decompress_usage, &out_path, &force, &progress, &canonical, &eo, NULL, NULL);
    if (a)
        return a < 0 ? CLI_EXIT_OK : a;
    if (argc - optind > 1) {
        fputs(decompress_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *in_path = optind < argc ? argv[optind] : NULL;
    char *auto_out = NULL;
    if (!out_path && in_path && strcmp(in_path, "-") != 0) {
        auto_out = default_output(in_path, NULL, SUFFIX);
        if (!auto_out) {
            cli_error("%s: name does not end in %s; use -o FILE", in_path, SUFFIX);
            return CLI_EXIT_USAGE;
        }
        out_path = auto_out;
    }
    const char *name;
    FILE *in = cli_open_input(in_path, &name);
    int status = CLI_EXIT_FAIL;
    cli_output out;
    long games = 0;
    if (!in)
        goto done;
    if (cli_output_open(&out, out_path, force) != 0)
        goto close_in;
    if (decode_all(in, name, out.f, canonical, &eo, progress, &games) != 0) {
        cli_output_abort(&out);
        goto close_in;
    }
    if (cli_output_commit(&out) == 0)
        status = CLI_EXIT_OK;
close_in:
    cli_close_input(in);
done:
    free(auto_out);
    return status;
}

static const char verify_usage[] =
    "usage: ucizip verify ARCHIVE [options]\n"
    "Decodes every game and checks it against its stored checksum.\n" CLI_DECODE_LIMITS_HELP CLI_ENGINE_HELP;

int cmd_verify(int argc, char **argv)
{
    bool force = false, progress = false;
    cli_engine_opts eo;
    int a = parse_decode_args(argc, argv, verify_usage, NULL, &force, &progress, NULL, &eo, NULL, NULL);
    if (a)
        return a < 0 ? CLI_EXIT_OK : a;
    if (argc - optind != 1) {
        fputs(verify_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name;
    FILE *in = cli_open_input(argv[optind], &name);
    if (!in)
        return CLI_EXIT_FAIL;
    long games = 0;
    int r = decode_all(in, name, NULL, false, &eo, progress, &games);
    cli_close_input(in);
    if (r != 0)
        return CLI_EXIT_FAIL;
    printf("%s: OK, %ld games verified\n", name, games);
    return CLI_EXIT_OK;
}

static const char extract_usage[] =
    "usage: ucizip extract ARCHIVE (--game N | --tag COND...) [-o OUT|-] [options]\n"
    "Decodes game N (1-based) alone, without decoding the games before it; or every game\n"
    "whose tags meet the --tag conditions (see 'ucizip list --help'), decoding only those:\n"
    "the others' tags are read, their moves never. A game is written as its exact bytes,\n"
    "or in export format with --canonical.\n" CLI_DECODE_LIMITS_HELP CLI_ENGINE_HELP;

/* Writes a decoded game: its exact bytes, or its export-format text. */
static uz_result write_game_out(FILE *out, const uz_game *game, bool canonical)
{
    if (canonical)
        return uz_pgn_write_game(out, game);
    return game->raw_len && fwrite(game->raw, 1, game->raw_len, out) != game->raw_len ? UZ_ERR_IO : UZ_OK;
}

typedef struct extract_state {
    const cli_engine_opts *eo;
    uz_engine_settings base_settings;
    const uz_engine_settings *base; /* NULL: the installed profile of the archive's engine */
    bool have_base, canonical;
    uz_member_decoder md;
    FILE *out;
    long written;
} extract_state;

/* Decodes one game that the tag filter selected and writes it. */
static int extract_one(void *user, const cli_tag_game *g)
{
    extract_state *st = user;
    uz_diag diag = {0};
    /* The engine is looked up at the first match only: no match, no engine. */
    if (!st->have_base) {
        bool bad_engine;
        st->base = decode_engine(st->eo, &st->base_settings, &bad_engine);
        if (bad_engine)
            return -1;
    }
    st->have_base = true;
    uz_game game;
    uz_game_init(&game);
    int workers = st->eo->workers > 0 ? (int)st->eo->workers : 1;
    int rc = 0;
    if (uz_member_decoder_open(&st->md, g->header, st->base, workers, &diag) != UZ_OK ||
        uz_block_decode(&st->md, g->block, g->index, 1, &game, g->number - 1 - g->index, &diag) != UZ_OK) {
        cli_report(g->file, &diag);
        rc = -1;
    } else if (write_game_out(st->out, &game, st->canonical) != UZ_OK) {
        cli_error("write error");
        rc = -1;
    } else {
        st->written++;
    }
    uz_game_clear(&game);
    return rc;
}

static int extract_matching(const char *name, const uz_tag_filter *filter, const cli_engine_opts *eo,
                            const char *out_path, bool force, bool canonical)
{
    if (!cli_is_archive(name)) {
        cli_error("%s: not a ucizip archive", name);
        return CLI_EXIT_FAIL;
    }
    extract_state st = {.eo = eo, .canonical = canonical, .md = {.limits = decode_limits}};
    cli_output out;
    if (cli_output_open(&out, out_path, force) != 0)
        return CLI_EXIT_FAIL;
    st.out = out.f;
    uint64_t number = 0;
    int rc = cli_each_game(name, filter, false, &number, extract_one, &st);
    uz_member_decoder_close(&st.md);
    if (rc != 0) {
        cli_output_abort(&out);
        return CLI_EXIT_FAIL;
    }
    if (cli_output_commit(&out) != 0)
        return CLI_EXIT_FAIL;
    if (st.written == 0)
        cli_error("%s: no game matches", name);
    return st.written ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

int cmd_extract(int argc, char **argv)
{
    const char *out_path = NULL;
    bool force = false, progress = false;
    long game_no = 0;
    cli_engine_opts eo;
    bool canonical = false;
    uz_tag_filter filter = {0};
    int a = parse_decode_args(argc, argv, extract_usage, &out_path, &force, &progress, &canonical, &eo, &game_no, &filter);
    if (a) {
        uz_tag_filter_free(&filter);
        return a < 0 ? CLI_EXIT_OK : a;
    }
    if (argc - optind != 1 || (game_no < 1) == (filter.n == 0)) {
        uz_tag_filter_free(&filter);
        fputs(extract_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[optind];
    if (filter.n) {
        int status = extract_matching(name, &filter, &eo, out_path, force, canonical);
        uz_tag_filter_free(&filter);
        return status;
    }
    FILE *in = fopen(name, "rb");
    if (!in) {
        cli_error("%s: cannot open", name);
        return CLI_EXIT_FAIL;
    }
    int status = CLI_EXIT_FAIL;
    uz_archive_header header;
    uz_archive_block block = {0};
    uz_member_decoder md = {.limits = decode_limits};
    uz_engine_settings base_settings;
    uz_game game;
    uz_game_init(&game);
    cli_output out;
    size_t index = 0;
    uz_diag diag = {0};
    int workers = eo.workers > 0 ? (int)eo.workers : 1;
    bool bad_engine;
    const uz_engine_settings *base = decode_engine(&eo, &base_settings, &bad_engine);
    if (bad_engine)
        goto out;
    if (uz_archive_seek_game(in, name, (uint64_t)game_no, &header, &block, &index, &diag) != UZ_OK ||
        uz_member_decoder_open(&md, &header, base, workers, &diag) != UZ_OK ||
        uz_block_decode(&md, &block, index, 1, &game, (uint64_t)game_no - 1 - index, &diag) != UZ_OK) {
        cli_report(name, &diag);
        goto out;
    }
    report_chosen_engine(&eo, &md);
    if (cli_output_open(&out, out_path, force) != 0)
        goto out;
    if (write_game_out(out.f, &game, canonical) != UZ_OK) {
        cli_error("write error");
        cli_output_abort(&out);
        goto out;
    }
    if (cli_output_commit(&out) == 0)
        status = CLI_EXIT_OK;
out:
    uz_game_clear(&game);
    uz_member_decoder_close(&md);
    uz_archive_block_free(&block);
    fclose(in);
    return status;
}

/* ---- info ---- */

static const char info_usage[] = "usage: ucizip info ARCHIVE [--json]\n";

int cmd_info(int argc, char **argv)
{
    static const struct option options[] = {
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    bool json = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (c == 'j')
            json = true;
        else if (c == 'h') {
            fputs(info_usage, stdout);
            return CLI_EXIT_OK;
        } else {
            fputs(info_usage, stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        fputs(info_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[optind];
    FILE *in = fopen(name, "rb");
    if (!in) {
        cli_error("%s: cannot open", name);
        return CLI_EXIT_FAIL;
    }
    /* One sequential pass: headers and block sizes, no engine. */
    int status = CLI_EXIT_FAIL;
    uz_archive_reader *reader = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    uz_diag diag = {0};
    uint64_t games = 0, moves = 0, move_bytes = 0, struct_bytes = 0, members = 0;
    if (uz_archive_reader_open(&reader, in, name) != UZ_OK)
        goto out;
    if (json)
{
        printf("{\"file\":");
        cli_json_string(name);
        printf(",\"members\":[");
    }
    for (;;) {
        uz_result r = uz_archive_read_header(reader, &header, &diag);
        if (r == UZ_DONE)
            break;
        if (r != UZ_OK) {
            if (json)
                printf("]}\n");
            cli_report(name, &diag);
            goto out;
        }
        uint64_t m_games = 0, m_moves = 0, m_move_bytes = 0, m_struct = 0, start = uz_archive_reader_offset(reader);
        while ((r = uz_archive_read_block(reader, &block, &diag)) == UZ_OK) {
            m_games += block.n_games;
            m_moves += block.n_moves;
            m_move_bytes += block.moves.size;
            m_struct += block.struct_stored;
        }
        if (r != UZ_DONE) {
            if (json)
                printf("]}\n");
            cli_report(name, &diag);
            goto out;
        }
        uz_model_params mp;
        char mtext[128] = "unknown model";
        bool model_ok = uz_header_model(&header, &mp) == UZ_OK;
        if (model_ok)
            cli_model_text(&mp, mtext, sizeof mtext);
        double bpm = m_moves ? 8.0 * (double)m_move_bytes / (double)m_moves : 0.0;
        if (json) {
            printf("%s{\"engine\":", members ? "," : "");
            cli_json_string(header.engine_name);
            printf(",\"settings\":");
            cli_json_string(header.settings_text);
            printf(",\"fingerprint\":");
            cli_json_string(header.fingerprint);
            printf(",\"chess960_fingerprint\":");
            if (header.chess960_fingerprint[0])
                cli_json_string(header.chess960_fingerprint);
            else
                fputs("null", stdout);
            printf(",\"depth\":%u,\"mode\":\"%s\",\"hash_mb\":%u,\"model\":", header.depth,
                   uz_engine_mode_name((uz_engine_mode)header.mode), header.hash_mb);
            if (model_ok)
                cli_model_json(&mp);
            else
                printf("null");
            printf(",\"coder\":\"%s\",\"games\":%llu,\"moves\":%llu,\"move_bytes\":%llu,\"structure_bytes\":%llu,"
                   "\"bytes\":%llu,\"bits_per_move\":%.4f}",
                   cli_coder_name((uz_coder_kind)header.coder), (unsigned long long)m_games,
                   (unsigned long long)m_moves, (unsigned long long)m_move_bytes, (unsigned long long)m_struct,
                   (unsigned long long)(uz_archive_reader_offset(reader) - start + 16), bpm);
        } else {
            /* Header strings come from the archive: escaped, never sent raw to a terminal. */
            printf("member %llu: ", (unsigned long long)members + 1);
            cli_put_escaped(stdout, header.created_by);
            printf("\n  engine: ");
            cli_put_escaped(stdout, header.settings_text);
            printf(" (fingerprint ");
            cli_put_escaped(stdout, header.fingerprint);
            printf(")\n  model: %s, coder: %s\n"
                   "  games: %llu, moves: %llu\n  move streams: %llu bytes (%.3f bits/move), "
                   "tags/comments/structure: %llu bytes\n",
                   mtext,
                   cli_coder_name((uz_coder_kind)header.coder), (unsigned long long)m_games,
                   (unsigned long long)m_moves, (unsigned long long)m_move_bytes, bpm, (unsigned long long)m_struct);
            if (header.chess960_fingerprint[0])
                printf("  Chess960 games: engine-coded with UCI_Chess960 (fingerprint %s)\n",
                       header.chess960_fingerprint);
        }
        members++;
        games += m_games;
        moves += m_moves;
        move_bytes += m_move_bytes;
        struct_bytes += m_struct;
    }
    uint64_t total = uz_archive_reader_offset(reader);
    double bpm_all = moves ? 8.0 * (double)total / (double)moves : 0.0;
    if (json)
        printf("],\"games\":%llu,\"moves\":%llu,\"bytes\":%llu,\"move_bytes\":%llu,\"structure_bytes\":%llu,"
               "\"bits_per_move\":%.4f,\"total_bits_per_move\":%.4f}\n",
               (unsigned long long)games, (unsigned long long)moves, (unsigned long long)total,
               (unsigned long long)move_bytes, (unsigned long long)struct_bytes,
               moves ? 8.0 * (double)move_bytes / (double)moves : 0.0, bpm_all);
    else
        printf("%s: %llu bytes, %llu member%s, %llu games, %llu moves (%.3f bits/move all included)\n", name,
               (unsigned long long)total, (unsigned long long)members, members == 1 ? "" : "s",
               (unsigned long long)games, (unsigned long long)moves, bpm_all);
    status = CLI_EXIT_OK;
out:
    uz_archive_block_free(&block);
    uz_archive_reader_close(reader);
    fclose(in);
    return status;
}
