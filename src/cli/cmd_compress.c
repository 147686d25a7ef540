/* ucizip compress: PGN to .ucz archives. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_codec.h"
#include "cli_inputs.h"
#include "cli_resume.h"
#include "cli_util.h"

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
    "  --block-games N     at most N games in a block (1-65536, default 1024): tags and\n"
    "                      comments compress better in larger blocks; a block is what\n"
    "                      --resume redoes and what extracting one game decompresses\n"
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
    "  -d, -t, -l          as 'decompress', 'verify'; -l: zstd's one-line-per-archive table\n"
    "  -j N                as --workers N\n" CLI_ENGINE_HELP
        CLI_MODEL_HELP;


/* Everything the compress command was told. */
typedef struct compress_opts {
    const char *out_path; /* one archive for every input (-o; "-" is stdout) */
    const char *out_dir;  /* --output-dir */
    bool force, keep_going, progress, quiet, verbose, fit, recursive, rm, resume, canonical;
    long max_games, block_games;
    cli_engine_opts eo;
    cli_model_opts mo;
} compress_opts;

/* What a whole run did, for the summary. */
typedef struct run_totals {
    long games, moves, skipped_games, unreadable, written, outputs;
    uint64_t move_bytes;
} run_totals;


/* The library's options for the command's. */
static void library_options(const compress_opts *o, uz_options *u)
{
    uz_options_init(u);
    cli_engine_lib_options(&o->eo, u);
    cli_model_lib_options(&o->mo, u);
    u->canonical = o->canonical;
    /* Exact bytes keep any game that cannot be replayed as text; the export format
     * cannot, so such a game stops the run, or is skipped with --keep-going. */
    u->bad_games = !o->canonical ? UZ_POLICY_KEEP_AS_TEXT : o->keep_going ? UZ_POLICY_SKIP : UZ_POLICY_STOP;
    u->damaged_inputs = o->keep_going ? UZ_POLICY_SKIP : UZ_POLICY_STOP;
    u->max_games = o->max_games > 0 ? (uint64_t)o->max_games : 0;
    u->block_games = (uint32_t)o->block_games;
    u->on_message = on_library_message;
}


/* Reads an archive back (headers and every block with its checksums; no engine): the
 * check --rm makes before it removes an input. */
static int check_archive(const char *path)
{
    FILE *f = fopen(path, "rb");
    uz_diag diag = {0};
    if (!f) {
        cli_error("%s: cannot open for checking", path);
        return -1;
    }
    uz_result r = uz_archive_check(f, path, &diag);
    fclose(f);
    if (r != UZ_OK)
        cli_report(path, &diag);
    return r == UZ_OK ? 0 : -1;
}

/* When scores came from the persistent cache, the check before --rm decodes the archive
 * with the engine alone: a cache that lies would otherwise vouch for itself. */
static int check_without_cache(const char *path, const compress_opts *o, uint64_t store_hits)
{
    if (!o->eo.cache_path || store_hits == 0)
        return 0;
    cli_engine_opts eo = o->eo;
    eo.cache_path = NULL;
    FILE *f = fopen(path, "rb");
    long games = 0;
    int r = f ? decode_all(f, path, NULL, NULL, false, &eo, false, false, &games) : -1;
    if (f)
        fclose(f);
    if (r != 0)
        cli_error("%s: does not decode without the score cache; inputs kept", path);
    return r;
}

/* Sum of the sizes of the inputs that are regular files; 0 if any is not (a pipe). */
static long long inputs_size(const char *const *paths, size_t n)
{
    long long total = 0;
    for (size_t i = 0; i < n; i++) {
        bool is_stdin = strcmp(paths[i], "-") == 0;
        long long size = input_size(is_stdin ? stdin : NULL, paths[i]);
        if (size <= 0)
            return 0;
        total += size;
    }
    return total;
}

/* Everything the bytes of an archive depend on, as a key for --resume: the inputs
 * (names, sizes, modification times), the options that select games, the engine, the
 * model and the coder. */
static uint64_t run_key(const compress_opts *o, const char *const *paths, size_t n, const char *engine_identity)
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
    snprintf(text, sizeof text, "%ld %d %d %d %d", o->max_games, o->keep_going, o->fit, o->canonical,
             o->block_games ? (int)o->block_games : UZ_BLOCK_GAMES_DEFAULT);
    key = cli_resume_key(key, text);
    key = cli_resume_key(key, engine_identity);
    uz_options u;
    uz_options_init(&u);
    cli_model_lib_options(&o->mo, &u);
    const char *coder = "range";
    uz_diag diag = {0};
    if (uz_options_model_text(&u, o->fit, text, sizeof text, &coder, &diag) != UZ_OK)
        text[0] = 0; /* (the options were checked when they were parsed) */
    key = cli_resume_key(key, text);
    return cli_resume_key(key, coder);
}

/* One output being written: where progress and resume state go after each block. */
typedef struct output_run {
    uz_compressor *c;
    cli_output *out;
    cli_progress *prog;
    cli_resume_state rs;
    cli_file_hash *archive_hash; /* of the temporary archive so far, for rs */
    long games_before, moves_before; /* of the earlier outputs of the run */
    int failed;
} output_run;

/* After every block: record it for --resume (once it is in the file), show progress. */
static void on_block(void *user, const uz_compress_stats *s)
{
    output_run *run = user;
    if (run->out->tmp_path && !run->failed) {
        if (s->resumable) {
            run->rs.blocks = s->blocks;
            run->rs.games_read = (long)s->games_read;
            run->rs.games = (long)s->games;
            run->rs.moves = (long)s->moves;
            run->rs.move_bytes = s->move_bytes;
            off_t end = fflush(run->out->f) == 0 ? ftello(run->out->f) : -1;
            run->rs.archive_bytes = (uint64_t)end;
            if (end < 0 ||
                cli_resume_hash_file(&run->archive_hash, run->out->tmp_path, (uint64_t)end, &run->rs.archive_hash) ||
                cli_resume_save(run->out->tmp_path, &run->rs) != 0)
                run->failed = 1; /* said; the run goes on, not resumable */
            else
                cli_output_set_resumable(run->out, true);
        } else {
            cli_resume_remove(run->out->tmp_path);
            cli_output_set_resumable(run->out, false);
        }
    }
    run->prog->bits_per_move = s->moves ? 8.0 * (double)s->move_bytes / (double)s->moves : 0.0;
    cli_progress_update(run->prog, run->games_before + (long)s->games, run->moves_before + (long)s->moves,
                        (long long)s->bytes_in);
}

/* Continues the interrupted run old_tmp: its complete blocks are copied into run's
 * output, whose own resume state is written before the old run's files are removed (an
 * interrupt in between leaves one or the other to resume from). */
static int resume_from(uz_compressor *c, output_run *run, const char *old_tmp, const char *display, bool quiet)
{
    const cli_resume_state *rs = &run->rs;
    /* Only the bytes its state hashed: a block written after the state (or cut short by
     * the interrupt) is dropped, so the library can check that the blocks the state
     * counts are all there is. */
    FILE *f = fopen(old_tmp, "r+b");
    if (!f || ftruncate(fileno(f), (off_t)rs->archive_bytes) != 0) {
        cli_error("%s: %s", old_tmp, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    uz_compress_stats at = {.blocks = rs->blocks, .games_read = (uint64_t)rs->games_read,
                            .games = (uint64_t)rs->games, .moves = (uint64_t)rs->moves, .move_bytes = rs->move_bytes};
    uz_diag diag = {0};
    uz_result r = uz_compressor_resume(c, f, old_tmp, &at, &diag);
    fclose(f);
    if (r == UZ_ERR_MISMATCH) {
        /* Left by another ucizip or other settings: its blocks cannot be reused. */
        if (!quiet)
            fprintf(stderr, "ucizip: %s: not resuming from %s; starting over\n", display, diag.message);
        unlink(old_tmp);
        cli_resume_remove(old_tmp);
        return 0;
    }
    if (r != UZ_OK) {
        cli_report(old_tmp, &diag);
        return -1;
    }
    if (fflush(run->out->f) != 0 || cli_resume_save(run->out->tmp_path, rs) != 0)
        return -1;
    cli_output_set_resumable(run->out, true);
    unlink(old_tmp);
    cli_resume_remove(old_tmp);
    if (!quiet)
        fprintf(stderr, "ucizip: %s: resumed after %llu blocks (%ld games)\n", display,
                (unsigned long long)rs->blocks, rs->games);
    return 0;
}

/* The first pass of --fit-k over paths. */
static int fit_model(uz_compressor *c, const char *const *paths, size_t n, bool quiet)
{
    uz_diag diag = {0};
    double bits = 0;
    uint64_t positions = 0;
    if (uz_compressor_fit_model(c, paths, n, &positions, &bits, &diag) != UZ_OK) {
        cli_report(NULL, &diag);
        return -1;
    }
    if (!quiet)
        fprintf(stderr, "fitted on %llu positions with a choice: %s (%.3f bits each)\n", (unsigned long long)positions,
                uz_compressor_model_text(c), bits);
    return 0;
}

/* Codes the games of paths[0..n), in order, into one archive at out_path (NULL or "-":
 * stdout). Returns an exit status. */
static int compress_to(uz_compressor *c, const compress_opts *o, const char *const *paths, size_t n,
                       const char *out_path, run_totals *all)
{
    const char *display = out_path && strcmp(out_path, "-") != 0 ? out_path : "<stdout>";
    bool to_file = out_path && strcmp(out_path, "-") != 0;
    cli_output out = {0};
    cli_progress prog;
    output_run run = {.c = c, .out = &out, .prog = &prog, .games_before = all->games, .moves_before = all->moves};
    run.rs.key = run_key(o, paths, n, uz_compressor_engine_identity(c));
    uint64_t inputs_hash = 0;
    if (to_file && cli_resume_hash_inputs(paths, n, &inputs_hash) != 0)
        inputs_hash = 0; /* an unreadable input fails below, where it is read */
    bool intact = false;
    char *old_tmp = o->resume && to_file ? cli_resume_find(out_path, run.rs.key, &run.rs, &intact) : NULL;
    const char *why = old_tmp ? cli_resume_mismatch(&run.rs, intact, inputs_hash, old_tmp) : NULL;
    if (why) {
        cli_error("%s: not resuming from %s: %s; starting over", display, old_tmp, why);
        unlink(old_tmp);
        cli_resume_remove(old_tmp);
        free(old_tmp);
        old_tmp = NULL;
    }
    run.rs.inputs_hash = inputs_hash;
    if (o->resume && to_file && !old_tmp && !o->quiet)
        fprintf(stderr, "ucizip: %s: no interrupted run of this command to resume; starting from the beginning\n",
                display);
    if (cli_output_open_keeping(&out, out_path, o->force, old_tmp) != 0) {
        free(old_tmp);
        return CLI_EXIT_FAIL;
    }
    if (n == 1)
        cli_output_keep_attrs(&out, paths[0]);
    /* Only an archive in a file can be read back before --rm removes the inputs: not one
     * written into a device or FIFO. */
    bool checkable = out.tmp_path != NULL;
    cli_progress_init(&prog, o->progress);
    if (o->quiet)
        cli_progress_quiet(&prog);
    prog.total_bytes = inputs_size(paths, n);
    uz_compressor_on_block(c, on_block, &run);
    uz_diag diag = {0};
    int status = CLI_EXIT_FAIL;
    uz_result r = uz_compressor_begin(c, out.f, &diag);
    if (r != UZ_OK)
        cli_report(display, &diag);
    else if ((o->fit && fit_model(c, paths, n, o->quiet) != 0) ||
             (old_tmp && resume_from(c, &run, old_tmp, display, o->quiet) != 0))
        r = UZ_ERR_ARG;
    for (size_t i = 0; r == UZ_OK && i < n; i++)
        if ((r = uz_compressor_add_file(c, paths[i], &diag)) != UZ_OK) {
            /* A failed write (disk full) is the output's error, not the input's. */
            cli_report(ferror(out.f) ? display : strcmp(paths[i], "-") != 0 ? paths[i] : "<stdin>", &diag);
            if (o->canonical && !o->keep_going && diag.game > 0)
                cli_error("stopped at the first bad game; use --keep-going to skip bad games");
            else if (r == UZ_ERR_CORRUPT && !o->keep_going)
                cli_error("stopped; use --keep-going to keep the games read before the damage");
            else if (r == UZ_ERR_LIMIT && !o->keep_going)
                cli_error("stopped; use --keep-going to skip that game and keep the others");
        }
    if (r == UZ_OK && (r = uz_compressor_finish(c, &diag)) != UZ_OK)
        cli_report(display, &diag);
    cli_progress_done(&prog);
    uz_compressor_on_block(c, NULL, NULL);
    cli_resume_hash_free(run.archive_hash);
    uz_compress_stats st;
    uz_compressor_stats(c, &st);
    cli_resume_remove(out.tmp_path);
    if (r != UZ_OK) {
        cli_output_abort(&out);
        free(old_tmp);
        return CLI_EXIT_FAIL;
    }
    off_t archive_bytes = ftello(out.f); /* -1 for a pipe: its size is then not shown */
    free(old_tmp);
    if (cli_output_commit(&out) != 0)
        return CLI_EXIT_FAIL;
    status = CLI_EXIT_OK;
    all->written++;
    all->games += (long)st.games;
    all->moves += (long)st.moves;
    all->move_bytes += st.move_bytes;
    all->skipped_games += (long)st.games_skipped;
    all->unreadable += (long)st.inputs_skipped;
    const char *name = n == 1 ? (strcmp(paths[0], "-") != 0 ? paths[0] : "<stdin>") : "inputs";
    if (st.games_as_text)
        cli_error("%s: %llu game%s that could not be replayed (unsupported variants, bad moves or syntax) kept as "
                  "text, moves not coded", name, (unsigned long long)st.games_as_text,
                  st.games_as_text == 1 ? "" : "s");
    if (st.games_skipped) {
        cli_error("%s: %llu game%s skipped because of errors", name, (unsigned long long)st.games_skipped,
                  st.games_skipped == 1 ? "" : "s");
        status = CLI_EXIT_FAIL; /* the archive is written, the input kept */
    }
    if (st.inputs_skipped) {
        cli_error("%llu input%s could not be read completely", (unsigned long long)st.inputs_skipped,
                  st.inputs_skipped == 1 ? "" : "s");
        status = CLI_EXIT_FAIL;
    }
    if (!o->quiet && (o->verbose || !o->out_dir)) {
        double bpm = st.moves ? 8.0 * (double)st.move_bytes / (double)st.moves : 0.0;
        char size[48] = "";
        if (archive_bytes >= 0)
            snprintf(size, sizeof size, ": %lld bytes", (long long)archive_bytes);
        fprintf(stderr, "%s: %llu games, %llu moves -> %s%s (moves %.3f bits/move)\n", name,
                (unsigned long long)st.games, (unsigned long long)st.moves, display, size, bpm);
    }
    if (status == CLI_EXIT_OK && o->rm && to_file && !checkable && !o->quiet)
        cli_error("%s: not a regular file: the inputs are kept (--rm)", display);
    if (status == CLI_EXIT_OK && o->rm && to_file && checkable) {
        if (check_archive(out_path) == 0 && check_without_cache(out_path, o, st.store_hits) == 0)
            remove_inputs(paths, n, o->quiet);
        else
            status = CLI_EXIT_FAIL;
    }
    return status;
}

/* Each input's archive name (in out_dir when not NULL), named before anything is started
 * or written: NULL (after a message) when two inputs would give one archive, whatever
 * the flags, or when out of memory. */
static char **archive_names(const char *const *paths, size_t n, const char *out_dir)
{
    char **outs = calloc(n, sizeof *outs);
    bool ok = outs != NULL;
    for (size_t i = 0; ok && i < n; i++)
        ok = (outs[i] = cli_output_name(paths[i], cli_compressed_suffixes, SUFFIX, out_dir)) != NULL;
    if (!ok)
        cli_error("out of memory");
    else if (cli_outputs_distinct(paths, outs, n) != 0)
        ok = false;
    if (!ok) {
        for (size_t i = 0; outs && i < n; i++)
            free(outs[i]);
        free(outs);
        outs = NULL;
    }
    return outs;
}

/* Removes from inputs the files that cannot be read (missing, no permission), each
 * reported; returns how many. */
static long drop_unreadable(cli_paths *inputs)
{
    size_t kept = 0;
    for (size_t i = 0; i < inputs->n; i++) {
        if (strcmp(inputs->items[i], "-") == 0 || access(inputs->items[i], R_OK) == 0) {
            inputs->items[kept++] = inputs->items[i];
            continue;
        }
        cli_error("%s: %s", inputs->items[i], strerror(errno));
        free(inputs->items[i]);
    }
    long dropped = (long)(inputs->n - kept);
    inputs->n = kept;
    return dropped;
}

/* zstd's -d, -t and -l in a compress command line: runs decompress, verify or the -l table on
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
                run = cmd_archive_table;
            else {
                /* long options that take a separate argument */
                static const char *const with_arg[] = {"--output", "--output-dir", "--max-games", "--block-games", "--workers",
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
                run = cmd_archive_table;
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

enum {
    OPT_OUTPUT_DIR = 2000,
    OPT_RM,
    OPT_KEEP_GOING,
    OPT_MAX_GAMES,
    OPT_BLOCK_GAMES,
    OPT_PROGRESS,
    OPT_FIT,
    OPT_RESUME,
    OPT_CANONICAL
};

/* The run's summary line (stderr). */
static void print_run_summary(const uz_compressor *c, const compress_opts *o, const run_totals *all, int refused,
                              double seconds)
{
    uz_compress_stats st;
    uz_compressor_stats(c, &st);
    char skipped[192] = "";
    if (all->skipped_games || all->unreadable || refused)
        snprintf(skipped, sizeof skipped, "; skipped: %ld bad games, %ld unreadable or damaged inputs, %d refused "
                 "arguments", all->skipped_games, all->unreadable, refused);
    char stored[160] = "";
    if (o->eo.cache_path)
        snprintf(stored, sizeof stored, " (persistent cache: %llu hits, %llu damaged or foreign entries searched "
                 "again)", (unsigned long long)st.store_hits, (unsigned long long)st.store_rejected);
    fprintf(stderr,
            "total: %ld games, %ld moves, %.3f bits/move; %ld of %ld outputs written%s; %.1f s; cache hits "
            "%.1f%% of %llu positions%s; %llu engine restarts\n",
            all->games, all->moves, all->moves ? 8.0 * (double)all->move_bytes / (double)all->moves : 0.0,
            all->written, all->outputs, skipped, seconds,
            st.positions ? 100.0 * (double)st.positions_reused / (double)st.positions : 0.0,
            (unsigned long long)st.positions, stored, (unsigned long long)st.engine_restarts);
}

/* Reads compress's options into o. Returns -1 to go on, else the exit status. */
static int parse_compress_args(int argc, char **argv, compress_opts *o)
{
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
        {"block-games", required_argument, NULL, OPT_BLOCK_GAMES},
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
    memset(o, 0, sizeof *o);
    cli_engine_opts_init(&o->eo);
    cli_model_opts_init(&o->mo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:cj:rfkqvh", options, NULL)) != -1) {
        if (c == 'j')
            c = OPT_WORKERS;
        int h = cli_shared_opt(&o->eo, &o->mo, c, optarg);
        if (h < 0)
            return CLI_EXIT_USAGE;
        if (h)
            continue;
        switch (c) {
        case 'o': o->out_path = optarg; break;
        case 'c': o->out_path = "-"; break;
        case OPT_OUTPUT_DIR: o->out_dir = optarg; break;
        case 'r': o->recursive = true; break;
        case 'f': o->force = true; break;
        case 'k': break; /* inputs are kept unless --rm */
        case OPT_RM: o->rm = true; break;
        case OPT_KEEP_GOING: o->keep_going = true; break;
        case OPT_MAX_GAMES:
            if (cli_parse_long("--max-games", optarg, 1, 1L << 40, &o->max_games))
                return CLI_EXIT_USAGE;
            break;
        case OPT_BLOCK_GAMES:
            if (cli_parse_long("--block-games", optarg, 1, UZ_BLOCK_GAMES_MAX, &o->block_games))
                return CLI_EXIT_USAGE;
            break;
        case OPT_PROGRESS: o->progress = true; break;
        case 'q': o->quiet = true; break;
        case 'v': o->verbose = true; break;
        case OPT_FIT: o->fit = true; break;
        case OPT_RESUME: o->resume = true; break;
        case OPT_CANONICAL: o->canonical = true; break;
        case 'h': fputs(compress_usage, stdout); return CLI_EXIT_OK;
        default: fputs(compress_usage, stderr); return CLI_EXIT_USAGE;
        }
    }
    return -1;
}

int cmd_compress(int argc, char **argv)
{
    int redirected = zstd_letters(argc, argv);
    if (redirected >= 0)
        return redirected;
    compress_opts o;
    int parsed = parse_compress_args(argc, argv, &o);
    if (parsed >= 0)
        return parsed;
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
    char **outs = NULL; /* each input's archive, when each has its own */
    const char *const *paths = (const char *const *)inputs.items;
    size_t n_stdin = 0;
    for (size_t i = 0; i < inputs.n; i++)
        n_stdin += strcmp(paths[i], "-") == 0;
    if (n_stdin > 1) {
        cli_error("stdin ('-') can be read only once");
        goto free_inputs;
    }
    if (cli_stdin_closed_in(paths, inputs.n)) {
        status = CLI_EXIT_FAIL;
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
    /* Inputs that cannot be read are left out before any engine starts; one archive for
     * everything is not written without them unless --keep-going. */
    long unreadable = drop_unreadable(&inputs);
    if (unreadable && (o.out_path || inputs.n == 0) && !o.keep_going) {
        cli_error(inputs.n ? "nothing written: an input cannot be read (--keep-going leaves it out)"
                           : "no input file left");
        status = CLI_EXIT_FAIL;
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
    status = CLI_EXIT_FAIL;
    if (!single && !(outs = archive_names(paths, inputs.n, o.out_dir)))
        goto free_inputs;

    double start = cli_now();
    run_totals all = {.unreadable = unreadable, .outputs = single ? 0 : unreadable};
    uz_options uo;
    library_options(&o, &uo);
    uz_compressor *comp = NULL;
    uz_diag diag = {0};
    if (uz_compressor_open(&comp, &uo, &diag) != UZ_OK) {
        cli_report(NULL, &diag);
        goto free_inputs;
    }
    if (single) {
        status = compress_to(comp, &o, paths, inputs.n, single_out, &all);
        all.outputs = 1;
    } else {
        status = unreadable ? CLI_EXIT_FAIL : CLI_EXIT_OK;
        for (size_t i = 0; i < inputs.n; i++) {
            int r;
            if (cli_same_file(outs[i], paths[i])) {
                cli_error("%s: the output would replace its input", outs[i]);
                r = CLI_EXIT_FAIL;
            } else {
                r = compress_to(comp, &o, &paths[i], 1, outs[i], &all);
            }
            all.outputs++;
            if (r != CLI_EXIT_OK)
                status = CLI_EXIT_FAIL; /* go on with the other inputs, as zstd does */
        }
    }
    if (refused || unreadable)
        status = CLI_EXIT_FAIL;
    if (!o.quiet)
        print_run_summary(comp, &o, &all, refused, cli_now() - start);
    uz_compressor_close(comp);
free_inputs:
    for (size_t i = 0; outs && i < inputs.n; i++)
        free(outs[i]);
    free(outs);
    cli_paths_free(&inputs);
    return status;
}
