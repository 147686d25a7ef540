/* ucizip compress / decompress / info / verify / extract: PGN to .ucz archives and back. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_inputs.h"
#include "cli_resume.h"
#include "cli_samples.h"
#include "cli_tags.h"
#include "cli_util.h"
#include "ucizip/blockcode.h"

#define SUFFIX ".ucz"

/* ---- compress ---- */

static const char compress_usage[] =
    "usage: ucizip compress [IN...|-] [-o OUT.ucz|-] [options]\n"
    "Inputs are PGN files, plain or compressed with zstd, gzip, bzip2 or xz (recognised\n"
    "by their content), '-' for stdin, or directories with -r. Each input gives its own\n"
    "archive (games.pgn.zst -> games.pgn.ucz) unless -o or -c collects them into one.\n"
    "  -o, --output FILE   one archive with the games of every input, in input order\n"
    "  -c, --stdout        write the archive to stdout (as -o -)\n"
    "  --output-dir DIR    put each archive in DIR\n"
    "  -r, --recursive     read the .pgn[.zst|.gz|.bz2|.xz] files under directories\n"
    "  -f, --force         overwrite outputs that exist\n"
    "  -k, --keep          keep the inputs (the default)\n"
    "  --rm                remove each input once its archive is written and checked\n"
    "  --keep-going        go on past unreadable or damaged inputs (each reported; the\n"
    "                      exit status is then 1); with --canonical also skip bad games\n"
    "                      (they are NOT in the archive); without it they are kept as text\n"
    "  --canonical         store the games in PGN export format instead of their exact\n"
    "                      bytes (layout not kept; a game that cannot be read stops the run)\n"
    "  --max-games N       only the first N games (of each output)\n"
    "  --progress          progress on stderr even when it is not a terminal\n"
    "  -q, --quiet         no progress and no summary\n"
    "  -v, --verbose       a summary line for every output and for the run\n"
    "  --fit-k             fit the rank model (k, floor, rank, decay; chosen unless --model\n"
    "                      says exp) to the input in a first pass\n"
    "                      and store it in the header; inputs must be files; the scores of\n"
    "                      the first pass are kept in memory (about 0.5 KB per position)\n"
    "  --resume            continue an interrupted run of the same command from its last\n"
    "                      complete block (an interrupt keeps the temporary archive and\n"
    "                      its state next to it; a run without --resume removes them)\n"
    "  -d, -t, -l          as 'decompress', 'verify', 'info' (zstd's letters)\n"
    "  -j N                as --workers N\n" CLI_ENGINE_HELP
        CLI_MODEL_HELP;

#define BATCH UZ_ARCHIVE_BLOCK_GAMES

typedef struct compress_totals {
    long games, moves;
    uint64_t move_bytes;
} compress_totals;

/* Decoder limits (doc/format.md): what a block may claim before it is refused. */
#define CLI_DECODE_LIMITS_HELP \
    "  --max-block-moves N moves one block may hold (default 1048576; each costs memory and a search)\n" \
    "  --max-block-mb N    MiB of uncompressed structure one block may hold (default 128)\n"
static uz_decode_limits decode_limits;

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
    if (quiet)
        cli_progress_quiet(&prog);
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
        cli_progress_update(&prog, n_games, (long)samples.n_items, cli_source_bytes(src));
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

/* Everything the compress command was told. */
typedef struct compress_opts {
    const char *out_path; /* one archive for every input (-o; "-" is stdout) */
    const char *out_dir;  /* --output-dir */
    bool force, keep_going, progress, quiet, verbose, fit, recursive, rm, resume, canonical;
    long max_games;
    cli_engine_opts eo;
    cli_model_opts mo;
} compress_opts;

/* What a whole run did, for the summary. */
typedef struct run_totals {
    long games, moves, skipped_games, unreadable, written, outputs;
    uint64_t move_bytes;
} run_totals;

/* Reads an archive back (headers and every block with its checksums; no engine): the
 * check --rm makes before it removes an input. */
static int check_archive(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("%s: cannot open for checking", path);
        return -1;
    }
    uz_archive_reader *reader = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    uz_diag diag = {0};
    int status = -1;
    if (uz_archive_reader_open(&reader, f, path) != UZ_OK)
        goto out;
    uz_result r;
    while ((r = uz_archive_read_header(reader, &header, &diag)) == UZ_OK) {
        while ((r = uz_archive_read_block(reader, &block, &diag)) == UZ_OK)
            ;
        if (r != UZ_DONE)
            break;
    }
    if (r == UZ_DONE)
        status = 0;
    else
        cli_report(path, &diag);
out:
    uz_archive_block_free(&block);
    uz_archive_reader_close(reader);
    fclose(f);
    return status;
}

static void remove_inputs(const char *const *paths, size_t n, bool quiet)
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

/* Sum of the sizes of the inputs that are regular files; 0 if any is not (a pipe). */
static long long inputs_size(const char *const *paths, size_t n)
{
    long long total = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (strcmp(paths[i], "-") == 0 || stat(paths[i], &st) != 0 || !S_ISREG(st.st_mode))
            return 0;
        total += (long long)st.st_size;
    }
    return total;
}

/* Everything the bytes of an archive depend on, as a key for --resume: the inputs
 * (names, sizes, modification times), the options that select games, the header. */
static uint64_t run_key(const compress_opts *o, const char *const *paths, size_t n, const uz_archive_header *h,
                        const cli_model_opts *mo)
{
    char text[256];
    uint64_t key = cli_resume_key(0, "compress");
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        key = cli_resume_key(key, paths[i]);
        if (stat(paths[i], &st) == 0) {
            snprintf(text, sizeof text, "%lld %lld.%09ld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                     st.st_mtim.tv_nsec);
            key = cli_resume_key(key, text);
        }
    }
    snprintf(text, sizeof text, "%ld %d %d %d %d", o->max_games, o->keep_going, o->fit, o->canonical, BATCH);
    key = cli_resume_key(key, text);
    key = cli_resume_key(key, h->fingerprint);
    key = cli_resume_key(key, h->settings_summary);
    cli_model_text(&mo->params, text, sizeof text);
    key = cli_resume_key(key, text);
    return cli_resume_key(key, cli_coder_name(mo->coder));
}

/* Writes the first `blocks` blocks of the interrupted run's archive old_tmp through w:
 * the same bytes, as packing is deterministic, and the writer's index is rebuilt. */
static int resume_copy(const char *old_tmp, uz_archive_writer *w, uint64_t blocks)
{
    FILE *f = fopen(old_tmp, "rb");
    if (!f) {
        cli_error("%s: %s", old_tmp, strerror(errno));
        return -1;
    }
    uz_archive_reader *reader = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    uz_diag diag = {0};
    int status = -1;
    if (uz_archive_reader_open(&reader, f, old_tmp) != UZ_OK ||
        uz_archive_read_header(reader, &header, &diag) != UZ_OK)
        goto out;
    for (uint64_t i = 0; i < blocks; i++)
        if (uz_archive_read_block(reader, &block, &diag) != UZ_OK ||
            uz_archive_write_block(w, block.n_games, block.n_moves, block.text_digest, &block.structure,
                                   block.moves.data, block.moves.size, &diag) != UZ_OK)
            goto out;
    status = 0;
out:
    if (status)
        cli_report(old_tmp, &diag);
    uz_archive_block_free(&block);
    uz_archive_reader_close(reader);
    fclose(f);
    return status;
}

/* Whether the interrupted run's archive began with a member that codes Chess960 games. */
static bool old_member_960(const char *old_tmp)
{
    FILE *f = fopen(old_tmp, "rb");
    uz_archive_reader *reader = NULL;
    uz_archive_header header;
    uz_diag diag = {0};
    bool yes = f && uz_archive_reader_open(&reader, f, old_tmp) == UZ_OK &&
               uz_archive_read_header(reader, &header, &diag) == UZ_OK && header.chess960_fingerprint[0];
    uz_archive_reader_close(reader);
    if (f)
        fclose(f);
    return yes;
}

/* Codes the games of paths[0..n), in order, into one archive at out_path (NULL or "-":
 * stdout). Returns an exit status. */
static int compress_to(uz_pool *pool, uz_pool **pool960, bool *tried960, uz_encoder *enc, uz_game *games,
                       const compress_opts *o, const char *const *paths, size_t n, const char *out_path,
                       run_totals *all)
{
    cli_model_opts mo = o->mo;
    uz_model model;
    cli_game_source src;
    cli_output out = {0};
    cli_progress prog;
    compress_totals t = {0};
    uz_archive_writer *writer = NULL;
    int status = CLI_EXIT_FAIL;
    const char *display = out_path && strcmp(out_path, "-") != 0 ? out_path : "<stdout>";
    char *old_tmp = NULL;
    uz_diag mdiag = {0};
    if (uz_model_open(&model, &mo.params, &mdiag) != UZ_OK) {
        cli_error("%s", mdiag.message);
        return CLI_EXIT_USAGE;
    }
    if (cli_source_open_list(&src, paths, n, o->keep_going) != 0)
        return CLI_EXIT_FAIL;
    src.max_games = o->max_games;
    src.exact = !o->canonical;
    src.keep_verbatim = true;
    if (o->fit) {
        /* The fit pass needs the Chess960 engine up front, if the engine has one. */
        if (!*tried960 && cli_pool960_open(&o->eo, pool, pool960) != 0)
            goto close_source;
        *tried960 = true;
        if (fit_model(pool, *pool960, &src, games, &mo, o->progress, o->quiet) != 0)
            goto close_source;
        cli_source_close(&src);
        if (cli_source_open_list(&src, paths, n, o->keep_going) != 0)
            return CLI_EXIT_FAIL;
        src.max_games = o->max_games;
        src.exact = !o->canonical;
        src.keep_verbatim = true;
        if (uz_model_open(&model, &mo.params, &mdiag) != UZ_OK) {
            cli_error("%s", mdiag.message);
            goto close_source;
        }
    }
    /* A member's header says whether it codes Chess960 games (key 12). The Chess960
     * engine starts at the first such game; a member begun without it is then finished
     * and a new one begun (and the run is no longer resumable). */
    uz_archive_header header;
    uz_header_fill(&header, pool, &model.params, mo.coder, BATCH);
    if (*pool960)
        snprintf(header.chess960_fingerprint, sizeof header.chess960_fingerprint, "%s", uz_pool_fingerprint(*pool960));
    bool member960 = *pool960 != NULL, resumable = true;
    cli_resume_state rs = {.key = run_key(o, paths, n, &header, &mo)};
    bool to_file = out_path && strcmp(out_path, "-") != 0;
    old_tmp = o->resume && to_file ? cli_resume_find(out_path, rs.key, &rs) : NULL;
    if (o->resume && to_file && !old_tmp && !o->quiet)
        fprintf(stderr, "ucizip: %s: no interrupted run of this command to resume; starting from the beginning\n",
                display);
    if (cli_output_open_keeping(&out, out_path, o->force, old_tmp) != 0)
        goto close_source;
    if (n == 1)
        cli_output_keep_attrs(&out, paths[0]);
    uz_diag diag = {0};
    cli_progress_init(&prog, o->progress);
    if (o->quiet)
        cli_progress_quiet(&prog);
    prog.total_bytes = inputs_size(paths, n);
    if (old_tmp) {
        /* The interrupted run's header (with or without the Chess960 engine), then its
         * complete blocks; then read past the games they hold. */
        if (old_member_960(old_tmp)) {
            if (!*tried960 && cli_pool960_open(&o->eo, pool, pool960) != 0)
                goto abort_output;
            *tried960 = true;
            if (*pool960)
                snprintf(header.chess960_fingerprint, sizeof header.chess960_fingerprint, "%s",
                         uz_pool_fingerprint(*pool960));
            member960 = *pool960 != NULL;
        }
        if (uz_archive_writer_open(&writer, out.f, &header, &diag) != UZ_OK) {
            cli_report(display, &diag);
            goto abort_output;
        }
        if (resume_copy(old_tmp, writer, rs.blocks) != 0)
            goto abort_output;
        while (src.games < rs.games_read) {
            long want = rs.games_read - src.games;
            long got = cli_source_read(&src, games, want < BATCH ? (size_t)want : BATCH);
            if (got <= 0) {
                cli_error("%s: the input no longer has the games the interrupted run read", display);
                goto abort_output;
            }
        }
        t.games = rs.games;
        t.moves = rs.moves;
        t.move_bytes = rs.move_bytes;
        unlink(old_tmp);
        cli_resume_remove(old_tmp);
        if (!o->quiet)
            fprintf(stderr, "ucizip: %s: resumed after %llu blocks (%ld games)\n", display,
                    (unsigned long long)rs.blocks, rs.games);
    }
    for (;;) {
        long got = cli_source_read(&src, games, BATCH);
        if (got < 0)
            goto abort_output;
        if (got == 0)
            break;
        if (cli_has_chess960(games, got)) {
            if (!*tried960 && cli_pool960_open(&o->eo, pool, pool960) != 0)
                goto abort_output;
            *tried960 = true;
            if (!*pool960 && cli_chess960_as_text(games, got) != 0)
                goto abort_output;
            if (*pool960 && !member960) {
                snprintf(header.chess960_fingerprint, sizeof header.chess960_fingerprint, "%s",
                         uz_pool_fingerprint(*pool960));
                member960 = true;
                if (writer) { /* blocks written without it: finish that member */
                    uz_result fr = uz_archive_writer_finish(writer, &diag);
                    writer = NULL;
                    if (fr != UZ_OK) {
                        cli_report(display, &diag);
                        goto abort_output;
                    }
                    resumable = false; /* a resume copies the blocks of one member */
                    cli_resume_remove(out.tmp_path);
                    cli_output_set_resumable(&out, false);
                }
            }
        }
        /* The member starts with its first block, when its header is known. */
        if (!writer && uz_archive_writer_open(&writer, out.f, &header, &diag) != UZ_OK) {
            cli_report(display, &diag);
            goto abort_output;
        }
        if (compress_block(pool, *pool960, &model, enc, writer, games, (size_t)got, &t) != 0)
            goto abort_output;
        if (out.tmp_path && resumable) {
            /* The block is in the file: record it so that an interrupt can be resumed. */
            rs.blocks++;
            rs.games_read = src.games;
            rs.games = t.games;
            rs.moves = t.moves;
            rs.move_bytes = t.move_bytes;
            if (fflush(out.f) != 0 || cli_resume_save(out.tmp_path, &rs) != 0)
                goto abort_output;
            cli_output_set_resumable(&out, true);
        }
        prog.bits_per_move = t.moves ? 8.0 * (double)t.move_bytes / (double)t.moves : 0.0;
        cli_progress_update(&prog, all->games + t.games, all->moves + t.moves, cli_source_bytes(&src));
    }
    cli_progress_done(&prog);
    if (!writer && uz_archive_writer_open(&writer, out.f, &header, &diag) != UZ_OK) { /* no game at all */
        cli_report(display, &diag);
        goto abort_output;
    }
    uz_result r = uz_archive_writer_finish(writer, &diag);
    writer = NULL;
    if (r != UZ_OK) {
        cli_report(display, &diag);
        goto abort_output;
    }
    off_t archive_bytes = out.f == stdout ? -1 : ftello(out.f);
    cli_resume_remove(out.tmp_path);
    if (cli_output_commit(&out) != 0)
        goto close_source;
    status = CLI_EXIT_OK;
    all->written++;
    all->games += t.games;
    all->moves += t.moves;
    all->move_bytes += t.move_bytes;
    all->skipped_games += src.skipped;
    all->unreadable += src.skipped_inputs;
    if (!o->quiet && (o->verbose || !o->out_dir)) {
        double bpm = t.moves ? 8.0 * (double)t.move_bytes / (double)t.moves : 0.0;
        fprintf(stderr, "%s: %ld games, %ld moves -> %s: %lld bytes (moves %.3f bits/move)\n",
                n == 1 ? src.name : "inputs", t.games, t.moves, display, (long long)archive_bytes, bpm);
    }
    goto close_source;
abort_output:
    cli_progress_done(&prog);
    uz_archive_writer_abort(writer);
    cli_resume_remove(out.tmp_path);
    cli_output_abort(&out);
close_source:
    free(old_tmp);
    if (cli_source_close(&src) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL; /* games were skipped: the archive is written, the input kept */
    else if (status == CLI_EXIT_OK && o->rm && out_path && strcmp(out_path, "-") != 0) {
        if (check_archive(out_path) == 0)
            remove_inputs(paths, n, o->quiet);
        else
            status = CLI_EXIT_FAIL;
    }
    return status;
}

/* zstd's -d, -t and -l in a compress command line: runs decompress, verify or info on
 * the same arguments less that letter. Returns -1 when none was given. */
static int zstd_letters(int argc, char **argv)
{
    int (*run)(int, char **) = NULL;
    char **args = calloc((size_t)argc + 1, sizeof *args);
    char **owned = calloc((size_t)argc + 1, sizeof *owned);
    int n = 0, n_owned = 0, status = -1;
    if (!args || !owned)
        goto out;
    bool skip_next = false, literal = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (i == 0 || skip_next || literal || a[0] != '-' || a[1] == 0) {
            skip_next = false;
            args[n++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            literal = true;
            args[n++] = argv[i];
            continue;
        }
        if (a[1] == '-') {
            if (strcmp(a, "--decompress") == 0 || strcmp(a, "--uncompress") == 0)
                run = cmd_decompress;
            else if (strcmp(a, "--test") == 0)
                run = cmd_verify;
            else if (strcmp(a, "--list") == 0)
                run = cmd_info;
            else {
                /* long options that take a separate argument */
                static const char *const with_arg[] = {"--output", "--output-dir", "--max-games", "--workers",
                                                       "--engine", "--depth", "--nodes", "--mode", "--hash",
                                                       "--k", "--floor", "--coder", "--model", "--rank",
                                                       "--decay", "--cache", NULL};
                for (const char *const *w = with_arg; *w; w++)
                    if (strcmp(a, *w) == 0)
                        skip_next = true;
                args[n++] = argv[i];
            }
            continue;
        }
        char *kept = malloc(strlen(a) + 1);
        if (!kept)
            goto out;
        owned[n_owned++] = kept;
        size_t k = 0;
        kept[k++] = '-';
        for (const char *p = a + 1; *p; p++) {
            if (*p == 'd')
                run = cmd_decompress;
            else if (*p == 't')
                run = cmd_verify;
            else if (*p == 'l')
                run = cmd_info;
            else {
                kept[k++] = *p;
                if (*p == 'o' || *p == 'j') { /* the rest is the argument */
                    if (p[1] == 0)
                        skip_next = true;
                    else
                        for (p++; *p; p++)
                            kept[k++] = *p;
                    break;
                }
            }
        }
        kept[k] = 0;
        if (k > 1)
            args[n++] = kept;
    }
    if (run) {
        optind = 1;
        status = run(n, args);
    }
out:
    for (int i = 0; i < n_owned; i++)
        free(owned[i]);
    free(owned);
    free(args);
    return status;
}

enum { OPT_OUTPUT_DIR = 2000, OPT_RM, OPT_KEEP_GOING, OPT_MAX_GAMES, OPT_PROGRESS, OPT_FIT, OPT_RESUME, OPT_CANONICAL };

int cmd_compress(int argc, char **argv)
{
    int redirected = zstd_letters(argc, argv);
    if (redirected >= 0)
        return redirected;
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},
        {"stdout", no_argument, NULL, 'c'},
        {"output-dir", required_argument, NULL, OPT_OUTPUT_DIR},
        {"recursive", no_argument, NULL, 'r'},
        {"force", no_argument, NULL, 'f'},
        {"keep", no_argument, NULL, 'k'},
        {"rm", no_argument, NULL, OPT_RM},
        {"keep-going", no_argument, NULL, OPT_KEEP_GOING},
        {"max-games", required_argument, NULL, OPT_MAX_GAMES},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {"fit-k", no_argument, NULL, OPT_FIT},
        {"resume", no_argument, NULL, OPT_RESUME},
        {"canonical", no_argument, NULL, OPT_CANONICAL},
        CLI_ENGINE_OPTIONS,
        CLI_MODEL_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    compress_opts o = {0};
    cli_engine_opts_init(&o.eo);
    cli_model_opts_init(&o.mo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:cj:rfkqvh", options, NULL)) != -1) {
        if (c == 'j')
            c = OPT_WORKERS;
        int h = cli_shared_opt(&o.eo, &o.mo, c, optarg);
        if (h < 0)
            return CLI_EXIT_USAGE;
        if (h)
            continue;
        switch (c) {
        case 'o': o.out_path = optarg; break;
        case 'c': o.out_path = "-"; break;
        case OPT_OUTPUT_DIR: o.out_dir = optarg; break;
        case 'r': o.recursive = true; break;
        case 'f': o.force = true; break;
        case 'k': break; /* inputs are kept unless --rm */
        case OPT_RM: o.rm = true; break;
        case OPT_KEEP_GOING: o.keep_going = true; break;
        case OPT_MAX_GAMES:
            if (cli_parse_long("--max-games", optarg, 1, 1L << 40, &o.max_games))
                return CLI_EXIT_USAGE;
            break;
        case OPT_PROGRESS: o.progress = true; break;
        case 'q': o.quiet = true; break;
        case 'v': o.verbose = true; break;
        case OPT_FIT: o.fit = true; break;
        case OPT_RESUME: o.resume = true; break;
        case OPT_CANONICAL: o.canonical = true; break;
        case 'h': fputs(compress_usage, stdout); return CLI_EXIT_OK;
        default: fputs(compress_usage, stderr); return CLI_EXIT_USAGE;
        }
    }
    if (o.out_path && o.out_dir) {
        cli_error("-o and --output-dir exclude each other");
        return CLI_EXIT_USAGE;
    }
    if (o.out_dir && cli_make_dir(o.out_dir) != 0)
        return CLI_EXIT_FAIL;
    cli_paths inputs = {0};
    int refused = cli_paths_expand(&inputs, argv + optind, argc - optind, o.recursive, cli_pgn_names);
    if (refused < 0) {
        cli_error("out of memory");
        cli_paths_free(&inputs);
        return CLI_EXIT_FAIL;
    }
    int status = CLI_EXIT_USAGE;
    const char *const *paths = (const char *const *)inputs.items;
    size_t n_stdin = 0;
    for (size_t i = 0; i < inputs.n; i++)
        n_stdin += strcmp(paths[i], "-") == 0;
    if (n_stdin > 1) {
        cli_error("stdin ('-') can be read only once");
        goto free_inputs;
    }
    if (o.fit && n_stdin) {
        cli_error("--fit-k reads the input twice: give a file, not stdin");
        goto free_inputs;
    }
    if (inputs.n == 0) {
        cli_error("no input file%s", refused ? " left" : "");
        status = refused ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
        goto free_inputs;
    }
    /* One archive for everything: -o, -c, or stdin as the only input. */
    bool single = o.out_path || (inputs.n == 1 && n_stdin == 1 && !o.out_dir);
    const char *single_out = o.out_path ? o.out_path : "-";
    if (single) {
        for (size_t i = 0; i < inputs.n; i++)
            if (cli_same_file(single_out, paths[i])) {
                cli_error("%s: the output would replace an input; refused even with -f", single_out);
                goto free_inputs;
            }
        if (strcmp(single_out, "-") == 0 && isatty(STDOUT_FILENO)) {
            cli_error("refusing to write an archive to a terminal; use -o FILE");
            goto free_inputs;
        }
    } else if (n_stdin) {
        cli_error("stdin ('-') has no name to derive an output name from: use -o FILE or -c");
        goto free_inputs;
    }
    if (o.fit && o.mo.params.kind == UZ_MODEL_PLAYER)
        o.mo.params.kind = UZ_MODEL_RANK; /* the player model's weights are trained offline */
    if (o.fit)
        o.eo.cache_entries = 1 << 21; /* the second pass takes the scores of the first from here */

    status = CLI_EXIT_FAIL;
    double start = cli_now();
    uz_pool *pool = NULL, *pool960 = NULL;
    bool tried960 = false;
    uz_encoder *enc = NULL;
    run_totals all = {0};
    uz_game *games = calloc(BATCH, sizeof *games);
    if (!games || uz_encoder_create(&enc, o.mo.coder) != UZ_OK) {
        cli_error("out of memory");
        goto free_arrays;
    }
    for (int i = 0; i < BATCH; i++)
        uz_game_init(&games[i]);
    if (cli_pool_open(&o.eo, &pool) != 0)
        goto free_arrays;
    if (single) {
        status = compress_to(pool, &pool960, &tried960, enc, games, &o, paths, inputs.n, single_out, &all);
        all.outputs = 1;
    } else {
        status = CLI_EXIT_OK;
        for (size_t i = 0; i < inputs.n; i++) {
            char *out = cli_output_name(paths[i], cli_compressed_suffixes, SUFFIX, o.out_dir);
            int r;
            if (!out) {
                cli_error("out of memory");
                r = CLI_EXIT_FAIL;
            } else if (cli_same_file(out, paths[i])) {
                cli_error("%s: the output would replace its input", out);
                r = CLI_EXIT_FAIL;
            } else {
                r = compress_to(pool, &pool960, &tried960, enc, games, &o, &paths[i], 1, out, &all);
            }
            free(out);
            all.outputs++;
            if (r != CLI_EXIT_OK) {
                status = CLI_EXIT_FAIL; /* go on with the other inputs, as zstd does */
            }
        }
    }
    if (refused)
        status = CLI_EXIT_FAIL;
    if (!o.quiet && pool) {
        uz_pool_stats ps;
        uz_pool_get_stats(pool, &ps);
        uint64_t asked = ps.queries - ps.trivial, lookups, stored_hits, rejected;
        cli_cache_stats(&lookups, &stored_hits, &rejected);
        char skipped[192] = "";
        if (all.skipped_games || all.unreadable || refused)
            snprintf(skipped, sizeof skipped, "; skipped: %ld bad games, %ld unreadable or damaged inputs, %d refused "
                     "arguments", all.skipped_games, all.unreadable, refused);
        char stored[160] = "";
        if (o.eo.cache_path)
            snprintf(stored, sizeof stored, " (persistent cache: %llu hits, %llu damaged or foreign entries searched "
                     "again)", (unsigned long long)stored_hits, (unsigned long long)rejected);
        fprintf(stderr,
                "total: %ld games, %ld moves, %.3f bits/move; %ld of %ld outputs written%s; %.1f s; cache hits "
                "%.1f%% of %llu positions%s; %llu engine restarts\n",
                all.games, all.moves, all.moves ? 8.0 * (double)all.move_bytes / (double)all.moves : 0.0, all.written,
                all.outputs, skipped, cli_now() - start,
                asked ? 100.0 * (double)(ps.cache_hits + ps.coalesced + ps.store_hits) / (double)asked : 0.0,
                (unsigned long long)asked, stored, (unsigned long long)ps.restarts);
    }
    uz_pool_destroy(pool960);
    uz_pool_destroy(pool);
free_arrays:
    for (int i = 0; games && i < BATCH; i++)
        uz_game_clear(&games[i]);
    free(games);
    uz_encoder_destroy(enc);
free_inputs:
    cli_paths_free(&inputs);
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

/* Writes a decoded game: its exact bytes, or its export-format text. */
static uz_result write_game_out(FILE *out, const uz_game *game, bool canonical)
{
    if (canonical)
        return uz_pgn_write_game(out, game);
    return game->raw_len && fwrite(game->raw, 1, game->raw_len, out) != game->raw_len ? UZ_ERR_IO : UZ_OK;
}

/* Decodes every member of in, writing the games to out (NULL: check only): their exact
 * bytes, or the export format with canonical. */
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

/* The engine options that decoding accepts: the search settings come from the archive. */
#define DECODE_ENGINE_HELP                                                                    \
    "  --engine PATH|NAME  the UCI engine (default: the installed profile of the archive's\n" \
    "                      engine, named on stderr); it must give the same fingerprint\n"    \
    "                      as the one that made the archive\n"                               \
    "  -j, --workers N     engine processes (default: number of cores)\n" CLI_CACHE_HELP     \
    CLI_DECODE_LIMITS_HELP

static const char decompress_usage[] =
    "usage: ucizip decompress [IN.ucz...|-] [-o OUT.pgn|-] [options]\n"
    "Each archive gives its own PGN file (games.pgn.ucz -> games.pgn) unless -o or -c\n"
    "collects them into one.\n"
    "  -o, --output FILE   one PGN file with the games of every archive, in order\n"
    "  -c, --stdout        write the PGN to stdout (as -o -)\n"
    "  --output-dir DIR    put each PGN file in DIR\n"
    "  -r, --recursive     read the .ucz files under directories\n"
    "  -f, --force         overwrite outputs that exist\n"
    "  -k, --keep          keep the archives (the default)\n"
    "  --rm                remove each archive once its PGN file is written\n"
    "  --progress          progress on stderr even when it is not a terminal\n"
    "  -q, --quiet         no progress\n"
    "  -v, --verbose       a line for every archive\n"
    "  --canonical         write the games in PGN export format, not the input's exact bytes\n" DECODE_ENGINE_HELP;

enum { OPT_D_OUTPUT_DIR = 3000, OPT_D_RM, OPT_D_PROGRESS, OPT_D_GAME, OPT_D_CANONICAL, OPT_D_TAG, OPT_D_MAX_MOVES,
       OPT_D_MAX_MB };

/* --max-block-moves and --max-block-mb into decode_limits: 0 when taken, -1 on a bad value. */
static int decode_limit_opt(int c, const char *arg)
{
    long v;
    if (cli_parse_long(c == OPT_D_MAX_MOVES ? "--max-block-moves" : "--max-block-mb", arg, 1, 1L << 40, &v))
        return -1;
    if (c == OPT_D_MAX_MOVES)
        decode_limits.block_nodes = (uint64_t)v;
    else
        decode_limits.block_struct_bytes = (uint64_t)v << 20;
    return 0;
}

/* Options of verify and extract (extract also takes -o, --game, --tag and --canonical). */
static int parse_decode_args(int argc, char **argv, const char *usage, const char **out_path, bool *force,
                             bool *progress, bool *canonical, cli_engine_opts *eo, long *game, uz_tag_filter *filter)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
        {"progress", no_argument, NULL, OPT_D_PROGRESS}, {"game", required_argument, NULL, OPT_D_GAME},
        {"canonical", no_argument, NULL, OPT_D_CANONICAL}, {"tag", required_argument, NULL, OPT_D_TAG},
        {"max-block-moves", required_argument, NULL, OPT_D_MAX_MOVES},
        {"max-block-mb", required_argument, NULL, OPT_D_MAX_MB},
        {"help", no_argument, NULL, 'h'},         {"engine", required_argument, NULL, OPT_ENGINE},
        {"workers", required_argument, NULL, OPT_WORKERS}, {"cache", required_argument, NULL, OPT_CACHE},
        {NULL, 0, NULL, 0},
    };
    cli_engine_opts_init(eo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, out_path ? "o:fj:h" : "j:h", options, NULL)) != -1) {
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
        case OPT_D_GAME:
            if (!game || cli_parse_long("--game", optarg, 1, 1L << 40, game))
                goto usage;
            break;
        case OPT_D_CANONICAL:
            if (!canonical)
                goto usage;
            *canonical = true;
            break;
        case OPT_D_TAG:
            if (!filter)
                goto usage;
            if (cli_tag_option(filter, optarg) != 0)
                return CLI_EXIT_USAGE;
            break;
        case OPT_D_MAX_MOVES:
        case OPT_D_MAX_MB:
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

/* Decodes the archives paths[0..n) into one PGN output. Returns an exit status. */
static int decompress_to(const char *const *paths, size_t n, const char *out_path, bool force, bool progress,
                         bool canonical, const cli_engine_opts *eo, bool rm, bool verbose)
{
    cli_output out;
    if (cli_output_open(&out, out_path, force) != 0)
        return CLI_EXIT_FAIL;
    if (n == 1)
        cli_output_keep_attrs(&out, paths[0]);
    long total = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name;
        FILE *in = cli_open_input(paths[i], &name);
        long games = 0;
        if (!in || decode_all(in, name, out.f, canonical, eo, progress, &games) != 0) {
            cli_close_input(in);
            cli_output_abort(&out);
            return CLI_EXIT_FAIL;
        }
        cli_close_input(in);
        total += games;
        if (verbose)
            fprintf(stderr, "%s: %ld games\n", name, games);
    }
    if (cli_output_commit(&out) != 0)
        return CLI_EXIT_FAIL;
    if (rm && out_path && strcmp(out_path, "-") != 0)
        remove_inputs(paths, n, !verbose);
    return CLI_EXIT_OK;
}

int cmd_decompress(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'}, {"stdout", no_argument, NULL, 'c'},
        {"output-dir", required_argument, NULL, OPT_D_OUTPUT_DIR}, {"recursive", no_argument, NULL, 'r'},
        {"force", no_argument, NULL, 'f'},        {"keep", no_argument, NULL, 'k'},
        {"rm", no_argument, NULL, OPT_D_RM},      {"progress", no_argument, NULL, OPT_D_PROGRESS},
        {"quiet", no_argument, NULL, 'q'},        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},         {"engine", required_argument, NULL, OPT_ENGINE},
        {"workers", required_argument, NULL, OPT_WORKERS}, {"cache", required_argument, NULL, OPT_CACHE},
        {"canonical", no_argument, NULL, OPT_D_CANONICAL},
        {"max-block-moves", required_argument, NULL, OPT_D_MAX_MOVES},
        {"max-block-mb", required_argument, NULL, OPT_D_MAX_MB},
        {NULL, 0, NULL, 0},
    };
    const char *out_path = NULL, *out_dir = NULL;
    bool force = false, progress = false, quiet = false, verbose = false, recursive = false, rm = false,
         canonical = false;
    cli_engine_opts eo;
    cli_engine_opts_init(&eo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:cj:rfkqvh", options, NULL)) != -1) {
        if (c == 'j')
            c = OPT_WORKERS;
        switch (c) {
        case OPT_ENGINE:
        case OPT_WORKERS:
        case OPT_CACHE:
            if (cli_engine_opt(&eo, c, optarg) < 0)
                return CLI_EXIT_USAGE;
            break;
        case 'o': out_path = optarg; break;
        case 'c': out_path = "-"; break;
        case OPT_D_OUTPUT_DIR: out_dir = optarg; break;
        case 'r': recursive = true; break;
        case 'f': force = true; break;
        case 'k': break;
        case OPT_D_RM: rm = true; break;
        case OPT_D_PROGRESS: progress = true; break;
        case 'q': quiet = true; break;
        case 'v': verbose = true; break;
        case OPT_D_CANONICAL: canonical = true; break;
        case OPT_D_MAX_MOVES:
        case OPT_D_MAX_MB:
            if (decode_limit_opt(c, optarg) != 0)
                return CLI_EXIT_USAGE;
            break;
        case 'h': fputs(decompress_usage, stdout); return CLI_EXIT_OK;
        default: fputs(decompress_usage, stderr); return CLI_EXIT_USAGE;
        }
    }
    if (quiet)
        progress = false;
    if (out_path && out_dir) {
        cli_error("-o and --output-dir exclude each other");
        return CLI_EXIT_USAGE;
    }
    if (out_dir && cli_make_dir(out_dir) != 0)
        return CLI_EXIT_FAIL;
    static const char *const ucz_names[] = {SUFFIX, NULL};
    cli_paths inputs = {0};
    int refused = cli_paths_expand(&inputs, argv + optind, argc - optind, recursive, ucz_names);
    if (refused < 0) {
        cli_error("out of memory");
        cli_paths_free(&inputs);
        return CLI_EXIT_FAIL;
    }
    const char *const *paths = (const char *const *)inputs.items;
    int status = CLI_EXIT_USAGE;
    size_t n_stdin = 0;
    for (size_t i = 0; i < inputs.n; i++)
        n_stdin += strcmp(paths[i], "-") == 0;
    if (inputs.n == 0) {
        cli_error("no input file%s", refused ? " left" : "");
        status = refused ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
    } else if (n_stdin > 1) {
        cli_error("stdin ('-') can be read only once");
    } else if (out_path || (inputs.n == 1 && n_stdin && !out_dir)) {
        const char *o = out_path ? out_path : "-";
        bool clash = false;
        for (size_t i = 0; i < inputs.n; i++)
            clash |= cli_same_file(o, paths[i]);
        if (clash)
            cli_error("%s: the output would replace an input; refused even with -f", o);
        else
            status = decompress_to(paths, inputs.n, o, force, progress, canonical, &eo, rm, verbose);
    } else if (n_stdin) {
        cli_error("stdin ('-') has no name to derive an output name from: use -o FILE or -c");
    } else {
        status = CLI_EXIT_OK;
        for (size_t i = 0; i < inputs.n; i++) {
            size_t len = strlen(paths[i]);
            if (len <= strlen(SUFFIX) || strcmp(paths[i] + len - strlen(SUFFIX), SUFFIX) != 0) {
                cli_error("%s: name does not end in %s; use -o FILE or -c", paths[i], SUFFIX);
                status = CLI_EXIT_FAIL;
                continue;
            }
            char *out = cli_output_name(paths[i], ucz_names, "", out_dir);
            int r = out ? decompress_to(&paths[i], 1, out, force, progress, canonical, &eo, rm, verbose) : CLI_EXIT_FAIL;
            free(out);
            if (r != CLI_EXIT_OK)
                status = CLI_EXIT_FAIL;
        }
    }
    if (refused && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
    cli_paths_free(&inputs);
    return status;
}

static const char verify_usage[] =
    "usage: ucizip verify ARCHIVE... [options]\n"
    "Decodes every game of each archive ('-': stdin) and checks it against its stored\n"
    "checksum.\n"
    "  --progress          progress on stderr even when it is not a terminal\n" DECODE_ENGINE_HELP;

int cmd_verify(int argc, char **argv)
{
    bool force = false, progress = false;
    cli_engine_opts eo;
    int a = parse_decode_args(argc, argv, verify_usage, NULL, &force, &progress, NULL, &eo, NULL, NULL);
    if (a)
        return a < 0 ? CLI_EXIT_OK : a;
    if (argc - optind < 1) {
        fputs(verify_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    int status = CLI_EXIT_OK;
    for (int i = optind; i < argc; i++) {
        const char *name;
        FILE *in = cli_open_input(argv[i], &name);
        long games = 0;
        if (!in || decode_all(in, name, NULL, false, &eo, progress, &games) != 0) {
            status = CLI_EXIT_FAIL;
        } else {
            printf("%s: OK, %ld games verified\n", name, games);
        }
        cli_close_input(in);
    }
    return status;
}

static const char extract_usage[] =
    "usage: ucizip extract ARCHIVE|- (--game N | --tag COND...) [-o OUT|-] [options]\n"
    "Decodes game N (1-based) alone, without decoding the games before it; or every game\n"
    "whose tags meet the --tag conditions (see 'ucizip list --help'), decoding only those:\n"
    "the others' tags are read, their moves never.\n"
    "  --game N            the game to print\n"
    "  --tag COND          a tag condition (several combine; an archive file, not stdin)\n"
    "  --canonical         the game in PGN export format, not its exact bytes\n"
    "  -o, --output FILE   where to write it (default: stdout)\n"
    "  -f, --force         overwrite OUT if it exists\n"
    "  --progress          accepted for symmetry with verify (one game shows none)\n" DECODE_ENGINE_HELP;

/* A seekable copy of stdin (extract and info read archives from the end). */
static FILE *open_seekable(const char *path, const char **name)
{
    if (strcmp(path, "-") != 0) {
        *name = path;
        FILE *f = fopen(path, "rb");
        if (!f)
            cli_error("%s: %s", path, strerror(errno));
        return f;
    }
    *name = "<stdin>";
    if (fseeko(stdin, 0, SEEK_CUR) == 0)
        return stdin;
    FILE *tmp = tmpfile();
    if (!tmp) {
        cli_error("cannot create a temporary file for stdin: %s", strerror(errno));
        return NULL;
    }
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, stdin)) > 0)
        if (fwrite(buf, 1, got, tmp) != got)
            break;
    if (ferror(stdin) || ferror(tmp) || fseeko(tmp, 0, SEEK_SET) != 0) {
        cli_error("<stdin>: cannot copy to a temporary file");
        fclose(tmp);
        return NULL;
    }
    return tmp;
}

static void close_seekable(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
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
    bool force = false, progress = false, canonical = false;
    long game_no = 0;
    cli_engine_opts eo;
    uz_tag_filter filter = {0};
    int a = parse_decode_args(argc, argv, extract_usage, &out_path, &force, &progress, &canonical, &eo, &game_no,
                              &filter);
    if (a) {
        uz_tag_filter_free(&filter);
        return a < 0 ? CLI_EXIT_OK : a;
    }
    if (argc - optind != 1 || (game_no < 1) == (filter.n == 0)) {
        uz_tag_filter_free(&filter);
        fputs(extract_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    if (filter.n) {
        int status = extract_matching(argv[optind], &filter, &eo, out_path, force, canonical);
        uz_tag_filter_free(&filter);
        return status;
    }
    const char *name;
    FILE *in = open_seekable(argv[optind], &name);
    if (!in)
        return CLI_EXIT_FAIL;
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
    close_seekable(in);
    return status;
}

/* ---- info ---- */

static const char info_usage[] =
    "usage: ucizip info ARCHIVE...|- [--json]\n"
    "Headers, engine, settings, games, sizes and bits/move of each archive (no engine run).\n"
    "  --json              one JSON object per archive\n";

static int info_one(const char *path, bool json);


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
    if (argc - optind < 1) {
        fputs(info_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    int status = CLI_EXIT_OK;
    for (int i = optind; i < argc; i++)
        if (info_one(argv[i], json) != CLI_EXIT_OK)
            status = CLI_EXIT_FAIL;
    return status;
}

static int info_one(const char *path, bool json)
{
    const char *name;
    FILE *in = cli_open_input(path, &name);
    if (!in)
        return CLI_EXIT_FAIL;
    /* One sequential pass: headers and block sizes, no engine. */
    int status = CLI_EXIT_FAIL;
    uz_archive_reader *reader = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    uz_diag diag = {0};
    uint64_t games = 0, moves = 0, move_bytes = 0, struct_bytes = 0, members = 0;
    if (uz_archive_reader_open(&reader, in, name) != UZ_OK)
        goto out;
    if (json) {
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
            cli_json_string(header.settings_summary);
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
            cli_put_escaped(stdout, header.settings_summary);
            printf(" (fingerprint ");
            cli_put_escaped(stdout, header.fingerprint);
            printf(")\n  model: %s, coder: %s\n"
                   "  games: %llu, moves: %llu\n  move streams: %llu bytes (%.3f bits/move), "
                   "tags/comments/structure: %llu bytes\n",
                   mtext, cli_coder_name((uz_coder_kind)header.coder), (unsigned long long)m_games,
                   (unsigned long long)m_moves, (unsigned long long)m_move_bytes, bpm, (unsigned long long)m_struct);
            if (header.chess960_fingerprint[0]) {
                printf("  Chess960 games: engine-coded with UCI_Chess960 (fingerprint ");
                cli_put_escaped(stdout, header.chess960_fingerprint);
                printf(")\n");
            }
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
    cli_close_input(in);
    return status;
}
