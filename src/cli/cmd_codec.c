/* ucizip compress / decompress / info / verify / extract: PGN to .ucz archives and back. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_util.h"
#include "ucizip/archive.h"
#include "ucizip/gamecode.h"

#define SUFFIX ".ucz"

/* ---- shared pieces ---- */

/* crc32 of the game's canonical PGN: what decompress prints for it. */
static uz_result canonical_crc(const uz_game *game, uint32_t *crc)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (!mem)
        return UZ_ERR_NOMEM;
    uz_result r = uz_pgn_write_game(mem, game);
    if (fclose(mem) != 0 && r == UZ_OK)
        r = UZ_ERR_NOMEM;
    if (r == UZ_OK)
        *crc = uz_crc32(0, text, size);
    free(text);
    return r;
}

static void copy_string(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

static size_t count_moves(const uz_line *line)
{
    size_t n = line->n_nodes;
    for (size_t i = 0; i < line->n_nodes; i++)
        for (size_t v = 0; v < line->nodes[i].n_variations; v++)
            n += count_moves(&line->nodes[i].variations[v]);
    return n;
}

/* ---- compress ---- */

static const char compress_usage[] =
    "usage: ucizip compress [IN.pgn|-] [-o OUT.ucz|-] [options]\n"
    "  -o, --output FILE   archive to write (default: IN.pgn.ucz; stdout for stdin)\n"
    "  -f, --force         overwrite OUT if it exists\n"
    "  -k, --keep-going    skip bad games (each reported; they are NOT in the archive)\n"
    "  --progress          progress on stderr even when it is not a terminal\n"
    "  -q, --quiet         no summary line\n" CLI_ENGINE_HELP CLI_MODEL_HELP;

#define BATCH UZ_ARCHIVE_BLOCK_GAMES

typedef struct compress_totals {
    long games, moves;
    uint64_t move_bytes, struct_bytes;
} compress_totals;

/* Scores, codes and writes one block of n games. */
static int compress_block(uz_pool *pool, const uz_model *model, uz_encoder *enc, uz_archive_writer *w, uz_game *games,
                          uz_walk *walks, size_t n, compress_totals *t)
{
    uz_buf structure = {0}, moves = {0};
    uz_diag diag = {0};
    int status = -1;
    size_t made = 0;
    for (; made < n; made++)
        if (uz_walk_init(&walks[made], &games[made]) != UZ_OK) {
            cli_error("out of memory");
            goto out;
        }
    if (uz_score_walks(pool, walks, n, &diag) != UZ_OK) {
        cli_report(NULL, &diag);
        goto out;
    }
    uint64_t n_moves = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *data;
        size_t size;
        uint32_t crc;
        uz_encoder_reset(enc);
        if (uz_encode_walk(model, enc, &walks[i]) != UZ_OK || uz_encoder_finish(enc, &data, &size) != UZ_OK ||
            canonical_crc(&games[i], &crc) != UZ_OK || uz_buf_append(&moves, data, size) != UZ_OK ||
            uz_game_struct_write(&structure, &games[i], size, crc) != UZ_OK) {
            cli_error("out of memory while coding game %ld", t->games + (long)i + 1);
            goto out;
        }
        n_moves += count_moves(&games[i].main);
    }
    if (uz_archive_write_block(w, n, n_moves, &structure, moves.data, moves.size, &diag) != UZ_OK) {
        cli_report(NULL, &diag);
        goto out;
    }
    t->games += (long)n;
    t->moves += (long)n_moves;
    t->move_bytes += moves.size;
    t->struct_bytes += structure.size;
    status = 0;
out:
    for (size_t i = 0; i < made; i++)
        uz_walk_free(&walks[i]);
    uz_buf_free(&structure);
    uz_buf_free(&moves);
    return status;
}

static void fill_header(uz_archive_header *h, uz_pool *pool, const cli_model_opts *mo)
{
    const uz_engine_settings *s = uz_pool_settings(pool);
    memset(h, 0, sizeof *h);
    h->version = UZ_ARCHIVE_VERSION;
    copy_string(h->engine_name, sizeof h->engine_name, uz_pool_engine_name(pool));
    copy_string(h->fingerprint, sizeof h->fingerprint, uz_pool_fingerprint(pool));
    h->depth = (uint32_t)s->depth;
    h->nodes = (uint64_t)s->nodes;
    h->mode = (uint32_t)s->mode;
    h->hash_mb = (uint32_t)s->hash_mb;
    h->threads = (uint32_t)s->threads;
    copy_string(h->engine_settings, sizeof h->engine_settings, uz_pool_settings_text(pool));
    h->model_kind = mo->params.kind;
    h->model_k_milli = mo->params.k_milli;
    h->model_floor = mo->params.floor_q16;
    h->coder = mo->coder;
    h->block_games = BATCH;
    uz_pool_describe(pool, h->settings_text, sizeof h->settings_text);
    copy_string(h->created_by, sizeof h->created_by, "ucizip " UZ_VERSION_STRING);
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
        {"keep-going", no_argument, NULL, 'k'},   {"progress", no_argument, NULL, 'p'},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        CLI_ENGINE_OPTIONS,                       CLI_MODEL_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    const char *out_path = NULL;
    bool force = false, keep_going = false, progress = false, quiet = false;
    cli_engine_opts eo;
    cli_model_opts mo;
    cli_engine_opts_init(&eo);
    cli_model_opts_init(&mo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:fkqh", options, NULL)) != -1) {
        int h = cli_engine_opt(&eo, c, optarg);
        if (!h)
            h = cli_model_opt(&mo, c, optarg);
        if (h < 0)
            return CLI_EXIT_USAGE;
        if (h)
            continue;
        switch (c) {
        case 'o': out_path = optarg; break;
        case 'f': force = true; break;
        case 'k': keep_going = true; break;
        case 'p': progress = true; break;
        case 'q': quiet = true; break;
        case 'h': fputs(compress_usage, stdout); return CLI_EXIT_OK;
        default: fputs(compress_usage, stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind > 1) {
        fputs(compress_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *in_path = optind < argc ? argv[optind] : NULL;
    char *auto_out = out_path ? NULL : default_output(in_path, SUFFIX, NULL);
    if (auto_out)
        out_path = auto_out;
    if ((!out_path || strcmp(out_path, "-") == 0) && isatty(STDOUT_FILENO)) {
        cli_error("refusing to write an archive to a terminal; use -o FILE");
        free(auto_out);
        return CLI_EXIT_USAGE;
    }

    int status = CLI_EXIT_FAIL;
    uz_pool *pool = NULL;
    uz_encoder *enc = NULL;
    uz_archive_writer *writer = NULL;
    uz_model model;
    cli_output out = {0};
    cli_game_source src;
    cli_progress prog;
    compress_totals t = {0};
    uz_game *games = calloc(BATCH, sizeof *games);
    uz_walk *walks = calloc(BATCH, sizeof *walks);
    if (!games || !walks || uz_encoder_create(&enc, mo.coder) != UZ_OK) {
        cli_error("out of memory");
        goto free_arrays;
    }
    for (int i = 0; i < BATCH; i++)
        uz_game_init(&games[i]);
    if (uz_model_init(&model, &mo.params) != UZ_OK) {
        cli_error("invalid model parameters");
        goto free_arrays;
    }
    if (cli_source_open(&src, in_path, keep_going) != 0)
        goto free_arrays;
    if (cli_pool_open(&eo, &pool) != 0)
        goto close_source;
    if (cli_output_open(&out, out_path, force) != 0)
        goto close_pool;
    uz_archive_header header;
    fill_header(&header, pool, &mo);
    uz_diag diag = {0};
    if (uz_archive_writer_open(&writer, out.f, &header, &diag) != UZ_OK) {
        cli_report(out_path, &diag);
        goto abort_output;
    }
    cli_progress_init(&prog, progress);
    for (;;) {
        long n = cli_source_read(&src, games, BATCH);
        if (n < 0)
            goto abort_output;
        if (n == 0)
            break;
        if (compress_block(pool, &model, enc, writer, games, walks, (size_t)n, &t) != 0)
            goto abort_output;
        cli_progress_update(&prog, t.games, t.moves, (long long)ftello(src.f));
    }
    cli_progress_done(&prog);
    uint64_t archive_bytes = uz_archive_writer_bytes(writer) + 64; /* + index and footer, roughly */
    uz_result r = uz_archive_writer_finish(writer, &diag);
    writer = NULL;
    if (r != UZ_OK) {
        cli_report(out_path, &diag);
        goto abort_output;
    }
    if (cli_output_commit(&out) != 0)
        goto close_pool;
    status = CLI_EXIT_OK;
    if (!quiet) {
        double bpm = t.moves ? 8.0 * (double)t.move_bytes / (double)t.moves : 0.0;
        fprintf(stderr, "%s: %ld games, %ld moves -> %s: ~%llu bytes (moves %.3f bits/move)\n", src.name, t.games,
                t.moves, out_path ? out_path : "<stdout>", (unsigned long long)archive_bytes, bpm);
    }
    goto close_pool;
abort_output:
    uz_archive_writer_abort(writer);
    cli_output_abort(&out);
close_pool:
    uz_pool_destroy(pool);
close_source:
    if (cli_source_close(&src) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
free_arrays:
    for (int i = 0; games && i < BATCH; i++)
        uz_game_clear(&games[i]);
    free(games);
    free(walks);
    uz_encoder_destroy(enc);
    free(auto_out);
    return status;
}

/* ---- decoding (decompress, verify, extract) ---- */

/* The engine and model an archive member needs, started once and kept while the next
 * members need the same. */
typedef struct member_codec {
    uz_pool *pool;
    uz_model model;
    uz_coder_kind coder;
    char settings[sizeof ((uz_archive_header *)0)->engine_settings];
} member_codec;

static void member_codec_close(member_codec *mc)
{
    uz_pool_destroy(mc->pool);
    memset(mc, 0, sizeof *mc);
}

/* Prepares mc for header h: refuses a mismatching engine before anything is decoded. */
static int member_codec_open(member_codec *mc, const uz_archive_header *h, const cli_engine_opts *eo, const char *name)
{
    if (h->coder != UZ_CODER_HUFFMAN && h->coder != UZ_CODER_RANGE) {
        cli_error("%s: unknown coder %u in the header", name, h->coder);
        return -1;
    }
    uz_model_params params = {.kind = (uz_model_kind)h->model_kind, .k_milli = h->model_k_milli,
                              .floor_q16 = h->model_floor};
    if (uz_model_init(&mc->model, &params) != UZ_OK) {
        cli_error("%s: unknown model %u or bad parameters in the header", name, h->model_kind);
        return -1;
    }
    mc->coder = (uz_coder_kind)h->coder;
    if (mc->pool && strcmp(mc->settings, h->engine_settings) == 0 &&
        strcmp(uz_pool_fingerprint(mc->pool), h->fingerprint) == 0)
        return 0;
    uz_pool_destroy(mc->pool);
    mc->pool = NULL;
    uz_engine_settings s;
    if (cli_engine_settings(eo, &s) != 0)
        return -1;
    uz_diag diag = {0};
    if (uz_engine_settings_apply_text(&s, h->engine_settings, &diag) != UZ_OK) {
        cli_error("%s: the archive's engine settings are not understood: %s", name, diag.message);
        return -1;
    }
    int workers = eo->workers > 0 ? (int)eo->workers : cli_default_workers();
    if (uz_pool_create(&mc->pool, &s, workers, &diag) != UZ_OK) {
        cli_report(NULL, &diag);
        cli_error("%s needs the engine %s (%s)", name, h->engine_name, h->settings_text);
        return -1;
    }
    if (strcmp(uz_pool_fingerprint(mc->pool), h->fingerprint) != 0) {
        cli_error("%s: wrong engine: the archive was made with %s (%s; fingerprint %s), but %s gives fingerprint %s "
                  "with these settings; decode with that engine (--engine PATH|NAME)",
                  name, h->engine_name, h->settings_text, h->fingerprint, uz_pool_engine_name(mc->pool),
                  uz_pool_fingerprint(mc->pool));
        uz_pool_destroy(mc->pool);
        mc->pool = NULL;
        return -1;
    }
    copy_string(mc->settings, sizeof mc->settings, h->engine_settings);
    return 0;
}

/* Decodes games [first, first+count) of a block (others are only parsed) and writes them
 * to out (NULL: verify only). game_base is the number of games before this block. */
static int decode_block(member_codec *mc, const uz_archive_block *block, size_t first, size_t count, FILE *out,
                        const char *name, uint64_t game_base)
{
    size_t n = block->n_games;
    int status = -1;
    uz_game *games = calloc(n, sizeof *games);
    const uint8_t **streams = calloc(n, sizeof *streams);
    size_t *sizes = calloc(n, sizeof *sizes);
    uint32_t *crcs = calloc(n, sizeof *crcs);
    uz_result *results = calloc(n, sizeof *results);
    if (!games || !streams || !sizes || !crcs || !results) {
        cli_error("out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        uz_game_init(&games[i]);
    uz_cursor cur = {block->structure.data, block->structure.data + block->structure.size};
    size_t offset = 0;
    uz_diag diag = {0};
    for (size_t i = 0; i < n; i++) {
        if (uz_game_struct_read(&cur, &games[i], &sizes[i], &crcs[i], &diag) != UZ_OK ||
            sizes[i] > block->moves.size - offset) {
            cli_error("%s: corrupt archive: game %llu: malformed structure (block at byte %llu)", name,
                      (unsigned long long)(game_base + i + 1), (unsigned long long)block->offset);
            goto out;
        }
        streams[i] = block->moves.data + offset;
        offset += sizes[i];
    }
    if (cur.p != cur.end || offset != block->moves.size) {
        cli_error("%s: corrupt archive: block at byte %llu has trailing data", name, (unsigned long long)block->offset);
        goto out;
    }
    if (uz_decode_games(mc->pool, &mc->model, mc->coder, games + first, streams + first, sizes + first, count,
                        results + first, &diag) != UZ_OK) {
        cli_report(NULL, &diag);
        goto out;
    }
    for (size_t i = first; i < first + count; i++) {
        uint32_t crc = 0;
        if (results[i] == UZ_OK && canonical_crc(&games[i], &crc) != UZ_OK) {
            cli_error("out of memory");
            goto out;
        }
        if (results[i] != UZ_OK || crc != crcs[i]) {
            cli_error("%s: corrupt archive: game %llu does not decode to what was stored (%s)", name,
                      (unsigned long long)(game_base + i + 1),
                      results[i] != UZ_OK ? "its move stream is damaged" : "checksum mismatch");
            goto out;
        }
        if (out && uz_pgn_write_game(out, &games[i]) != UZ_OK) {
            cli_error("write error");
            goto out;
        }
    }
    status = 0;
out:
    for (size_t i = 0; games && i < n; i++)
        uz_game_clear(&games[i]);
    free(games);
    free(streams);
    free(sizes);
    free(crcs);
    free(results);
    return status;
}

/* Decodes every member of in, writing PGN to out (NULL: check only). */
static int decode_all(FILE *in, const char *name, FILE *out, const cli_engine_opts *eo, bool progress, long *games_out)
{
    uz_archive_reader *reader = NULL;
    member_codec mc = {0};
    uz_archive_block block = {0};
    uz_archive_header header;
    cli_progress prog;
    uint64_t games = 0, moves = 0;
    int status = -1;
    uz_diag diag = {0};
    if (uz_archive_reader_open(&reader, in, name) != UZ_OK) {
        cli_error("out of memory");
        return -1;
    }
    cli_progress_init(&prog, progress);
    for (;;) {
        uz_result r = uz_archive_read_header(reader, &header, &diag);
        if (r == UZ_DONE)
            break;
        if (r != UZ_OK) {
            cli_report(name, &diag);
            goto out;
        }
        if (member_codec_open(&mc, &header, eo, name) != 0)
            goto out;
        for (;;) {
            r = uz_archive_read_block(reader, &block, &diag);
            if (r == UZ_DONE)
                break;
            if (r != UZ_OK) {
                cli_report(name, &diag);
                goto out;
            }
            if (decode_block(&mc, &block, 0, block.n_games, out, name, games) != 0)
                goto out;
            games += block.n_games;
            moves += block.n_moves;
            cli_progress_update(&prog, (long)games, (long)moves, (long long)uz_archive_reader_offset(reader));
        }
    }
    cli_progress_done(&prog);
    *games_out = (long)games;
    status = 0;
out:
    uz_archive_block_free(&block);
    member_codec_close(&mc);
    uz_archive_reader_close(reader);
    return status;
}

static const char decompress_usage[] =
    "usage: ucizip decompress [IN.ucz|-] [-o OUT.pgn|-] [options]\n"
    "  -o, --output FILE   PGN to write (default: IN without .ucz; stdout for stdin)\n"
    "  -f, --force         overwrite OUT if it exists\n"
    "  --progress          progress on stderr even when it is not a terminal\n" CLI_ENGINE_HELP
    "The engine must give the same fingerprint as the one that made the archive.\n";

static int parse_decode_args(int argc, char **argv, const char *usage, const char **out_path, bool *force,
                             bool *progress, cli_engine_opts *eo, long *game)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
        {"progress", no_argument, NULL, 'p'},     {"game", required_argument, NULL, 'g'},
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
        case 'g':
            if (!game || cli_parse_long("--game", optarg, 1, 1L << 40, game))
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

int cmd_decompress(int argc, char **argv)
{
    const char *out_path = NULL;
    bool force = false, progress = false;
    cli_engine_opts eo;
    int a = parse_decode_args(argc, argv, decompress_usage, &out_path, &force, &progress, &eo, NULL);
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
    if (decode_all(in, name, out.f, &eo, progress, &games) != 0) {
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
    "Decodes every game and checks it against its stored checksum.\n" CLI_ENGINE_HELP;

int cmd_verify(int argc, char **argv)
{
    bool force = false, progress = false;
    cli_engine_opts eo;
    int a = parse_decode_args(argc, argv, verify_usage, NULL, &force, &progress, &eo, NULL);
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
    int r = decode_all(in, name, NULL, &eo, progress, &games);
    cli_close_input(in);
    if (r != 0)
        return CLI_EXIT_FAIL;
    printf("%s: OK, %ld games verified\n", name, games);
    return CLI_EXIT_OK;
}

static const char extract_usage[] =
    "usage: ucizip extract ARCHIVE --game N [-o OUT|-] [options]\n"
    "Decodes game N (1-based) alone, without decoding the games before it.\n" CLI_ENGINE_HELP;

int cmd_extract(int argc, char **argv)
{
    const char *out_path = NULL;
    bool force = false, progress = false;
    long game = 0;
    cli_engine_opts eo;
    int a = parse_decode_args(argc, argv, extract_usage, &out_path, &force, &progress, &eo, &game);
    if (a)
        return a < 0 ? CLI_EXIT_OK : a;
    if (argc - optind != 1 || game < 1) {
        fputs(extract_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[optind];
    FILE *in = fopen(name, "rb");
    if (!in) {
        cli_error("%s: cannot open", name);
        return CLI_EXIT_FAIL;
    }
    int status = CLI_EXIT_FAIL;
    uz_archive_header header;
    uz_archive_block block = {0};
    member_codec mc = {0};
    cli_output out;
    size_t index = 0;
    uz_diag diag = {0};
    if (uz_archive_seek_game(in, name, (uint64_t)game, &header, &block, &index, &diag) != UZ_OK) {
        cli_report(name, &diag);
        goto out;
    }
    if (member_codec_open(&mc, &header, &eo, name) != 0)
        goto out;
    if (cli_output_open(&out, out_path, force) != 0)
        goto out;
    if (decode_block(&mc, &block, index, 1, out.f, name, (uint64_t)game - 1 - index) != 0) {
        cli_output_abort(&out);
        goto out;
    }
    if (cli_output_commit(&out) == 0)
        status = CLI_EXIT_OK;
out:
    member_codec_close(&mc);
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
        char kbuf[32];
        cli_format_k(header.model_k_milli, kbuf, sizeof kbuf);
        double bpm = m_moves ? 8.0 * (double)m_move_bytes / (double)m_moves : 0.0;
        if (json) {
            printf("%s{\"engine\":", members ? "," : "");
            cli_json_string(header.engine_name);
            printf(",\"settings\":");
            cli_json_string(header.settings_text);
            printf(",\"fingerprint\":\"%s\",\"depth\":%u,\"mode\":\"%s\","
                   "\"hash_mb\":%u,\"model\":{\"kind\":%u,\"k\":%s,\"floor\":%.5f},\"coder\":\"%s\",\"games\":%llu,"
                   "\"moves\":%llu,\"move_bytes\":%llu,\"structure_bytes\":%llu,\"bytes\":%llu,\"bits_per_move\":%.4f}",
                   header.fingerprint, header.depth,
                   uz_engine_mode_name((uz_engine_mode)header.mode), header.hash_mb, header.model_kind, kbuf,
                   header.model_floor / 65536.0, cli_coder_name((uz_coder_kind)header.coder),
                   (unsigned long long)m_games, (unsigned long long)m_moves, (unsigned long long)m_move_bytes,
                   (unsigned long long)m_struct,
                   (unsigned long long)(uz_archive_reader_offset(reader) - start + 16), bpm);
        } else {
            printf("member %llu: %s\n  engine: %s (fingerprint %s)\n  model: k=%s floor=%.4f, coder: %s\n"
                   "  games: %llu, moves: %llu\n  move streams: %llu bytes (%.3f bits/move), "
                   "tags/comments/structure: %llu bytes\n",
                   (unsigned long long)members + 1, header.created_by, header.settings_text, header.fingerprint, kbuf,
                   header.model_floor / 65536.0, cli_coder_name((uz_coder_kind)header.coder),
                   (unsigned long long)m_games, (unsigned long long)m_moves, (unsigned long long)m_move_bytes, bpm,
                   (unsigned long long)m_struct);
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
