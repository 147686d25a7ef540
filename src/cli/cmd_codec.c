/* ucizip compress / decompress / info / verify / extract: PGN to .ucz archives and back. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_samples.h"
#include "cli_util.h"
#include "ucizip/blockcode.h"

#define SUFFIX ".ucz"

/* ---- compress ---- */

static const char compress_usage[] =
    "usage: ucizip compress [IN.pgn|-] [-o OUT.ucz|-] [options]\n"
    "  -o, --output FILE   archive to write (default: IN.pgn.ucz; stdout for stdin)\n"
    "  -f, --force         overwrite OUT if it exists\n"
    "  --max-games N       only the first N games\n"
    "  -k, --keep-going    skip bad games (each reported; they are NOT in the archive)\n"
    "  --progress          progress on stderr even when it is not a terminal\n"
    "  -q, --quiet         no summary line\n"
    "  --fit-k             fit the rank model (k, floor, rank, decay; chosen unless --model\n"
    "                      says exp) to IN in a first pass and\n"
    "                      store it in the header; IN must be a file; the scores of the\n"
    "                      first pass are kept in memory (about 0.5 KB per position)\n" CLI_ENGINE_HELP
        CLI_MODEL_HELP;

#define BATCH UZ_ARCHIVE_BLOCK_GAMES

typedef struct compress_totals {
    long games, moves;
    uint64_t move_bytes;
} compress_totals;

/* Scores, codes and writes one block of n games. */
static int compress_block(uz_pool *pool, const uz_model *model, uz_encoder *enc, uz_archive_writer *w, uz_game *games,
                          size_t n, compress_totals *t)
{
    uz_buf structure = {0}, moves = {0};
    uz_diag diag = {0};
    uint64_t n_moves;
    uz_result r = uz_block_encode(pool, model, enc, games, n, &structure, &moves, &n_moves, &diag);
    if (r == UZ_OK)
        r = uz_archive_write_block(w, n, n_moves, &structure, moves.data, moves.size, &diag);
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
static int fit_model(uz_pool *pool, cli_game_source *src, uz_game *games, cli_model_opts *mo, bool progress,
                     bool quiet)
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
        long made = 0;
        uz_diag diag = {0};
        uz_result r = UZ_OK;
        for (; made < n && r == UZ_OK; made++)
            r = uz_walk_init(&walks[made], &games[made]);
        if (r == UZ_OK && (r = uz_score_walks(pool, walks, (size_t)n, &diag)) != UZ_OK)
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
        {"fit-k", no_argument, NULL, 'F'},
        CLI_ENGINE_OPTIONS,                       CLI_MODEL_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    const char *out_path = NULL;
    bool force = false, keep_going = false, progress = false, quiet = false, fit = false;
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
    uz_pool *pool = NULL;
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
    src.keep_verbatim = true;
    if (cli_pool_open(&eo, &pool) != 0)
        goto close_source;
    if (fit) {
        if (fit_model(pool, &src, games, &mo, progress, quiet) != 0)
            goto close_pool;
        cli_source_close(&src);
        if (cli_source_open(&src, in_path, keep_going) != 0)
            goto close_pool_only;
        src.max_games = max_games;
        src.keep_verbatim = true;
        if (uz_model_open(&model, &mo.params, &mdiag) != UZ_OK) {
            cli_error("%s", mdiag.message);
            goto close_pool;
        }
    }
    if (cli_output_open(&out, out_path, force) != 0)
        goto close_pool;
    uz_archive_header header;
    uz_header_fill(&header, pool, &model.params, mo.coder, BATCH);
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
        if (compress_block(pool, &model, enc, writer, games, (size_t)n, &t) != 0)
            goto abort_output;
        cli_progress_update(&prog, t.games, t.moves, (long long)ftello(src.f));
    }
    cli_progress_done(&prog);
    uz_result r = uz_archive_writer_finish(writer, &diag);
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
    uz_pool_destroy(pool);
close_source:
    if (cli_source_close(&src) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
    goto free_arrays;
close_pool_only:
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

/* Decodes every member of in, writing PGN to out (NULL: check only). */
static int decode_all(FILE *in, const char *name, FILE *out, const cli_engine_opts *eo, bool progress, long *games_out)
{
    uz_engine_settings base;
    if (cli_engine_settings(eo, &base) != 0)
        return -1;
    cli_progress prog;
    cli_progress_init(&prog, progress);
    uz_diag diag = {0};
    uint64_t games = 0;
    int workers = eo->workers > 0 ? (int)eo->workers : cli_default_workers();
    uz_member_decoder md = {0};
    uz_result r = uz_archive_decode(in, name, out, &md, &base, workers, on_decode_progress, &prog, &games, &diag);
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
    long game_no = 0;
    cli_engine_opts eo;
    int a = parse_decode_args(argc, argv, extract_usage, &out_path, &force, &progress, &eo, &game_no);
    if (a)
        return a < 0 ? CLI_EXIT_OK : a;
    if (argc - optind != 1 || game_no < 1) {
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
    uz_member_decoder md = {0};
    uz_engine_settings base;
    uz_game game;
    uz_game_init(&game);
    cli_output out;
    size_t index = 0;
    uz_diag diag = {0};
    int workers = eo.workers > 0 ? (int)eo.workers : 1;
    if (cli_engine_settings(&eo, &base) != 0)
        goto out;
    if (uz_archive_seek_game(in, name, (uint64_t)game_no, &header, &block, &index, &diag) != UZ_OK ||
        uz_member_decoder_open(&md, &header, &base, workers, &diag) != UZ_OK ||
        uz_block_decode(&md, &block, index, 1, &game, (uint64_t)game_no - 1 - index, &diag) != UZ_OK) {
        cli_report(name, &diag);
        goto out;
    }
    if (cli_output_open(&out, out_path, force) != 0)
        goto out;
    if (uz_pgn_write_game(out.f, &game) != UZ_OK) {
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
            printf("member %llu: %s\n  engine: %s (fingerprint %s)\n  model: %s, coder: %s\n"
                   "  games: %llu, moves: %llu\n  move streams: %llu bytes (%.3f bits/move), "
                   "tags/comments/structure: %llu bytes\n",
                   (unsigned long long)members + 1, header.created_by, header.settings_text, header.fingerprint, mtext,
                   cli_coder_name((uz_coder_kind)header.coder), (unsigned long long)m_games,
                   (unsigned long long)m_moves, (unsigned long long)m_move_bytes, bpm, (unsigned long long)m_struct);
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
