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
#include "cli_position.h"
#include "cli_resume.h"
#include "../lib/fit_samples.h"
#include "cli_tags.h"
#include "cli_util.h"
#include "block/byte_split.h"
#include "block/game_struct.h"
#include "gamecode/blockcode.h"

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

/* Decoder limits (doc/format.md): what a block may claim before it is refused. */
#define CLI_DECODE_LIMITS_HELP \
    "  --max-block-moves N moves one block may hold (default 1048576; each costs memory and a search)\n" \
    "  --max-block-mb N    MiB of uncompressed structure one block may hold (default 128)\n" \
    "  --memory MB         Hash an archive may give each engine (default 256); checked\n" \
    "                      before any engine starts\n"
static uz_decode_limits decode_limits;
/* verify's -q: no line for each archive verified (zstd -tq). */
static bool decode_quiet;

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

/* Messages of the library (a game kept as text, an input skipped): one line each. */
static void on_library_message(void *user, const char *input, const uz_diag *diag)
{
    (void)user;
    cli_report(input, diag);
}

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

/* The size of an input that is a regular file (stdin redirected from one included; the
 * compressed size for a compressed one, as the library counts bytes read); 0 if not (a pipe). */
static long long input_size(FILE *f, const char *path)
{
    struct stat st;
    int r = f ? fstat(fileno(f), &st) : stat(path, &st);
    return r == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : 0;
}

static int decode_all(FILE *in, const char *name, FILE *out, const char *out_name, bool canonical,
                      const cli_engine_opts *eo, bool progress, bool name_profile, long *games_out);

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
             o->block_games ? (int)o->block_games : UZ_ARCHIVE_BLOCK_GAMES);
    key = cli_resume_key(key, text);
    key = cli_resume_key(key, engine_identity);
    uz_lib_model_text(&o->mo.params, text, sizeof text);
    key = cli_resume_key(key, text);
    return cli_resume_key(key, uz_lib_coder_name(o->mo.coder));
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
    FILE *f = fopen(old_tmp, "rb");
    if (!f) {
        cli_error("%s: %s", old_tmp, strerror(errno));
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
            fprintf(stderr, "ucizip: %s; starting over\n", diag.message);
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
            if (cli_parse_long("--block-games", optarg, 1, UZ_ARCHIVE_MAX_BLOCK_GAMES, &o->block_games))
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
    if (o.fit && o.mo.params.kind == UZ_MODEL_PLAYER)
        o.mo.params.kind = UZ_MODEL_RANK; /* the player model's weights are trained offline */

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
    if (!eo->engine || cli_engine_is_builtin(eo->engine)) /* a builtin member names its builtin */
        return NULL;
    *failed = cli_engine_settings(eo, base) != 0;
    return base;
}

/* Writes a decoded game: its exact bytes, or its export-format text. */
static uz_result write_game_out(FILE *out, const uz_game *game, bool canonical)
{
    if (canonical)
        return uz_pgn_write_game(out, game);
    return game->raw_len && fwrite(game->raw, 1, game->raw_len, out) != game->raw_len ? UZ_ERR_IO : UZ_OK;
}

/* The library's options for decoding with eo (the search settings come from the
 * archive). */
static void decode_options(const cli_engine_opts *eo, bool canonical, uz_options *u)
{
    uz_options_init(u);
    u->engine = eo->engine;
    u->workers = eo->workers > 0 ? (int)eo->workers : 0;
    u->cache_path = eo->cache_path;
    u->canonical = canonical;
    u->max_block_moves = decode_limits.block_nodes;
    u->max_block_bytes = decode_limits.block_struct_bytes;
    u->max_engine_memory_mb = decode_limits.engine_memory_mb;
    u->on_message = on_library_message;
}

/* Says which installed profile was chosen for the archive when no --engine was given
 * (decompress: with -v only, as zstd is silent unless asked). */
static void report_profile(const uz_decompressor *d)
{
    const char *profile = uz_decompressor_engine_profile(d);
    if (profile)
        fprintf(stderr, "ucizip: engine: %s\n", profile);
}

/* Decodes every member of in, writing the games to out (NULL: check only; out_name its
 * display name): their exact bytes, or the export format with canonical. */
static int decode_all(FILE *in, const char *name, FILE *out, const char *out_name, bool canonical,
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

/* The engine options that decoding accepts: the search settings come from the archive. */
#define DECODE_ENGINE_HELP                                                                    \
    "  --engine PATH|NAME  the UCI engine (default: the installed profile of the archive's\n" \
    "                      engine, named on stderr); it must give the same fingerprint\n"    \
    "                      as the one that made the archive (a builtin archive always\n"    \
    "                      decodes with the builtin it names, no engine needed)\n"           \
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

enum { OPT_D_OUTPUT_DIR = 3000, OPT_D_RM, OPT_D_PROGRESS, OPT_D_GAME, OPT_D_CANONICAL, OPT_D_FEN, OPT_D_MAX_MOVES,
       OPT_D_MAX_MB, OPT_D_MEMORY };

/* --max-block-moves, --max-block-mb and --memory into decode_limits: 0 when taken, -1 on
 * a bad value. */
static int decode_limit_opt(int c, const char *arg)
{
    long v;
    const char *name = c == OPT_D_MAX_MOVES ? "--max-block-moves" : c == OPT_D_MAX_MB ? "--max-block-mb" : "--memory";
    if (cli_parse_long(name, arg, 1, 1L << 40, &v))
        return -1;
    if (c == OPT_D_MEMORY)
        decode_limits.engine_memory_mb = (uint64_t)v;
    else if (c == OPT_D_MAX_MOVES)
        decode_limits.block_nodes = (uint64_t)v;
    else
        decode_limits.block_struct_bytes = (uint64_t)v << 20;
    return 0;
}

/* Options of verify and extract (extract also takes -o, --game, --tag, --player, --fen and
 * --canonical). */
static int parse_decode_args(int argc, char **argv, const char *usage, const char **out_path, bool *force,
                             bool *progress, bool *canonical, cli_engine_opts *eo, long *game, uz_tag_filter *filter,
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

/* Decodes the archives paths[0..n) into one PGN output. Returns an exit status. */
static int decompress_to(const char *const *paths, size_t n, const char *out_path, bool force, bool progress,
                         bool canonical, const cli_engine_opts *eo, bool rm, bool verbose)
{
    cli_output out;
    const char *out_name = out_path && strcmp(out_path, "-") != 0 ? out_path : "<stdout>";
    if (cli_output_open(&out, out_path, force) != 0)
        return CLI_EXIT_FAIL;
    if (n == 1)
        cli_output_keep_attrs(&out, paths[0]);
    long total = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name;
        FILE *in = cli_open_input(paths[i], &name);
        long games = 0;
        if (!in || decode_all(in, name, out.f, out_name, canonical, eo, progress, verbose, &games) != 0) {
            cli_close_input(in);
            cli_output_abort(&out);
            return CLI_EXIT_FAIL;
        }
        cli_close_input(in);
        total += games;
        if (verbose)
            fprintf(stderr, "%s: %ld games\n", name, games);
    }
    bool written_file = out.tmp_path != NULL; /* not stdout, a device or a FIFO */
    if (cli_output_commit(&out) != 0)
        return CLI_EXIT_FAIL;
    if (rm && !written_file && out_path && strcmp(out_path, "-") != 0)
        cli_error("%s: not a regular file: the archives are kept (--rm)", out_name);
    if (rm && written_file)
        remove_inputs(paths, n, !verbose);
    return CLI_EXIT_OK;
}

/* Decodes each archive of paths[0..n) into its own PGN file (in out_dir when not NULL),
 * once every output is named and known to be distinct. Returns an exit status. */
static int decompress_each(const char *const *paths, size_t n, const char *out_dir, bool force, bool progress,
                           bool canonical, const cli_engine_opts *eo, bool rm, bool verbose)
{
    static const char *const ucz_names[] = {SUFFIX, NULL};
    int status = CLI_EXIT_OK;
    char **outs = calloc(n, sizeof *outs);
    for (size_t i = 0; outs && i < n; i++) {
        size_t len = strlen(paths[i]);
        if (len <= strlen(SUFFIX) || strcmp(paths[i] + len - strlen(SUFFIX), SUFFIX) != 0) {
            cli_error("%s: name does not end in %s; use -o FILE or -c", paths[i], SUFFIX);
            status = CLI_EXIT_FAIL;
        } else if (!(outs[i] = cli_output_name(paths[i], ucz_names, "", out_dir))) {
            status = -1;
        }
    }
    if (!outs || status < 0) {
        cli_error("out of memory");
        status = CLI_EXIT_FAIL;
    } else if (cli_outputs_distinct(paths, outs, n) != 0) {
        status = CLI_EXIT_FAIL;
    } else {
        for (size_t i = 0; i < n; i++)
            if (outs[i] && decompress_to(&paths[i], 1, outs[i], force, progress, canonical, eo, rm, verbose) != 0)
                status = CLI_EXIT_FAIL;
    }
    for (size_t i = 0; outs && i < n; i++)
        free(outs[i]);
    free(outs);
    return status;
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
        {"memory", required_argument, NULL, OPT_D_MEMORY},
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
        case OPT_D_MEMORY:
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
    } else if (cli_stdin_console(paths, inputs.n)) {
        status = CLI_EXIT_FAIL;
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
        status = decompress_each(paths, inputs.n, out_dir, force, progress, canonical, &eo, rm, verbose);
    }
    if (refused && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
    cli_paths_free(&inputs);
    return status;
}

static const char verify_usage[] =
    "usage: ucizip verify ARCHIVE... [options]\n"
    "Decodes every game of each archive ('-': stdin) and checks it against its stored\n"
    "checksum. Scores are never read from a --cache here: every position is searched.\n"
    "  --progress          progress on stderr even when it is not a terminal\n"
    "  -q, --quiet         no line for each archive verified (only errors)\n"
    "  -k, --keep          as zstd's (the archives are kept)\n" DECODE_ENGINE_HELP;

int cmd_verify(int argc, char **argv)
{
    bool force = false, progress = false;
    cli_engine_opts eo;
    int a = parse_decode_args(argc, argv, verify_usage, NULL, &force, &progress, NULL, &eo, NULL, NULL, NULL);
    if (a)
        return a < 0 ? CLI_EXIT_OK : a;
    if (argc - optind < 1) {
        fputs(verify_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    if (cli_stdin_console((const char *const *)argv + optind, (size_t)(argc - optind)))
        return CLI_EXIT_FAIL;
    eo.cache_path = NULL; /* a check that read the cache's scores would trust the cache */
    int status = CLI_EXIT_OK;
    for (int i = optind; i < argc; i++) {
        const char *name;
        FILE *in = cli_open_input(argv[i], &name);
        long games = 0;
        if (!in || decode_all(in, name, NULL, NULL, false, &eo, progress, !decode_quiet, &games) != 0) {
            status = CLI_EXIT_FAIL;
        } else if (!decode_quiet) {
            printf("%s: OK, %ld games verified\n", name, games);
        }
        cli_close_input(in);
    }
    return status;
}

static const char extract_usage[] =
    "usage: ucizip extract ARCHIVE|- (--game N | --tag COND... | --player NAME | --fen FEN) [-o OUT|-]\n"
    "                      [options]\n"
    "Decodes game N (1-based) alone, without decoding the games before it; or every game\n"
    "that meets the --tag, --player and --fen conditions, decoding only those: the others'\n"
    "tags are read, their moves never (an archive file, not stdin).\n"
    "  --game N            the game to print\n" CLI_SELECT_HELP
    "  --fen FEN           only games whose main line reaches the position (its pieces and\n"
    "                      side to move); a game that cannot reach it (its material, its\n"
    "                      length) is not decoded\n"
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
    const uz_tag_filter *filter;
    const uz_position *target; /* --fen: the position a game must reach, or NULL */
    FILE *out;
    long written;
} extract_state;

/* Decodes one game that the tag filter selected and writes it. */
static int extract_one(void *user, const cli_tag_game *g)
{
    extract_state *st = user;
    uz_diag diag = {0};
    if (st->target && !cli_game_may_reach(g->game, st->target))
        return 0; /* its material or its length rule the position out: not decoded */
    /* The engine is looked up at the first match only: no match, no engine. */
    if (!st->have_base) {
        bool bad_engine;
        st->base = decode_engine(st->eo, &st->base_settings, &bad_engine);
        if (bad_engine || (!st->base && cli_cache_store(st->eo, &st->md.store) != 0))
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
    } else if (g->filter_after && !uz_tag_filter_match(st->filter, &game)) {
        /* a condition on a tag derived from the moves, known now that they are decoded */
    } else if (st->target && !cli_game_reaches(&game, st->target)) {
        /* does not pass through the position */
    } else if (write_game_out(st->out, &game, st->canonical) != UZ_OK) {
        cli_error("write error");
        rc = -1;
    } else {
        st->written++;
    }
    uz_game_clear(&game);
    return rc;
}

static int extract_matching(const char *name, const uz_tag_filter *filter, const uz_position *target,
                            const cli_engine_opts *eo, const char *out_path, bool force, bool canonical)
{
    if (!cli_is_archive(name)) {
        cli_error("%s: not a ucizip archive", name);
        return CLI_EXIT_FAIL;
    }
    extract_state st = {
        .eo = eo, .canonical = canonical, .md = {.limits = decode_limits}, .filter = filter, .target = target};
    cli_output out;
    if (cli_output_open(&out, out_path, force) != 0)
        return CLI_EXIT_FAIL;
    st.out = out.f;
    uint64_t number = 0;
    int rc = cli_each_game(name, filter->n ? filter : NULL, false, true, &number, extract_one, &st);
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
    const char *fen = NULL;
    int a = parse_decode_args(argc, argv, extract_usage, &out_path, &force, &progress, &canonical, &eo, &game_no,
                              &filter, &fen);
    if (a) {
        uz_tag_filter_free(&filter);
        return a < 0 ? CLI_EXIT_OK : a;
    }
    bool select = filter.n || fen;
    if (argc - optind != 1 || (game_no < 1) == !select) {
        uz_tag_filter_free(&filter);
        fputs(extract_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    if (select) {
        uz_position target;
        uz_diag fen_diag = {0};
        int status = CLI_EXIT_USAGE;
        if (fen && uz_position_from_fen(&target, fen, &fen_diag) != UZ_OK)
            cli_error("--fen '%s': column %ld: %s", fen, fen_diag.column, fen_diag.message);
        else
            status = extract_matching(argv[optind], &filter, fen ? &target : NULL, &eo, out_path, force, canonical);
        uz_tag_filter_free(&filter);
        return status;
    }
    const char *name;
    FILE *in = open_seekable(argv[optind], &name);
    if (!in)
        return CLI_EXIT_FAIL;
    int status = CLI_EXIT_FAIL;
    uz_options u;
    decode_options(&eo, canonical, &u);
    if (eo.workers <= 0)
        u.workers = 1; /* one position at a time: a second engine would only wait */
    uz_decompressor *d = NULL;
    uz_diag diag = {0};
    const char *text;
    size_t len;
    cli_output out;
    if (uz_decompressor_open(&d, &u, &diag) != UZ_OK ||
        uz_decompressor_game(d, in, name, (uint64_t)game_no, &text, &len, &diag) != UZ_OK) {
        cli_report(name, &diag);
        goto out;
    }
    if (!decode_quiet)
        report_profile(d);
    if (cli_output_open(&out, out_path, force) != 0)
        goto out;
    if (len && fwrite(text, 1, len, out.f) != len) {
        cli_error("write error");
        cli_output_abort(&out);
        goto out;
    }
    if (cli_output_commit(&out) == 0)
        status = CLI_EXIT_OK;
out:
    uz_decompressor_close(d);
    close_seekable(in);
    return status;
}

/* ---- info ---- */

static const char info_usage[] =
    "usage: ucizip info ARCHIVE...|- [--json]\n"
    "Headers, engine, settings, games, sizes and bits/move of each archive (no engine run).\n"
    "  --json              a JSON array of one object per archive (doc/json.md)\n" CLI_KEEP_QUIET_HELP;

static int info_one(const char *path, json_t *json);


/* Where the bytes go (uz_byte_split), for `info`. */
static void add_split(uz_byte_split *to, const uz_byte_split *s)
{
    to->moves += s->moves;
    to->tags += s->tags;
    to->clocks += s->clocks;
    to->engine_comments += s->engine_comments;
    to->comments += s->comments;
    to->structure += s->structure;
    to->overhead += s->overhead;
}

static json_t *split_json(const uz_byte_split *s)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "moves", (json_int_t)s->moves, "tags", (json_int_t)s->tags,
                     "clocks", (json_int_t)s->clocks, "engine_comments", (json_int_t)s->engine_comments, "comments",
                     (json_int_t)s->comments, "structure", (json_int_t)s->structure, "overhead",
                     (json_int_t)s->overhead);
}

static void print_split_text(const char *indent, const uz_byte_split *s)
{
    printf("%sbytes: moves %llu, tags %llu, clocks %llu, engine comments %llu, other comments %llu, structure %llu, "
           "overhead %llu\n",
           indent, (unsigned long long)s->moves, (unsigned long long)s->tags, (unsigned long long)s->clocks,
           (unsigned long long)s->engine_comments, (unsigned long long)s->comments, (unsigned long long)s->structure,
           (unsigned long long)s->overhead);
}

int cmd_info(int argc, char **argv)
{
    static const struct option options[] = {
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, CLI_KEEP_QUIET_OPTIONS,
        {NULL, 0, NULL, 0}};
    bool json = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hkq", options, NULL)) != -1) {
        if (c == 'j')
            json = true;
        else if (c == 'k' || c == 'q')
            continue; /* zstd's -k and -q: nothing to keep or silence */
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
    json_t *archives = json ? json_array() : NULL; /* one shape for one archive or several */
    for (int i = optind; i < argc; i++)
        if (info_one(argv[i], archives) != CLI_EXIT_OK)
            status = CLI_EXIT_FAIL;
    if (json && cli_json_print(stdout, archives) != 0)
        status = CLI_EXIT_FAIL;
    return status;
}

typedef struct info_counts {
    uint64_t games, moves, move_bytes, struct_bytes, bytes;
} info_counts;

/* One member's object of info --json (model NULL: not known to this version). */
static json_t *member_json(const uz_archive_header *h, const uz_model_params *model, const info_counts *n,
                           const uz_byte_split *split)
{
    json_t *m = json_object();
    if (!m)
        return NULL;
    cli_json_set_text(m, "engine", h->engine_name);
    cli_json_set_text(m, "settings", h->settings_summary);
    cli_json_set_text(m, "fingerprint", h->fingerprint);
    cli_json_set_text(m, "chess960_fingerprint", h->chess960_fingerprint[0] ? h->chess960_fingerprint : NULL);
    /* (settings left to the engine profile: those of the installed profile) */
    json_object_set_new(m, "settings_from_profile", json_boolean(h->settings_from_profile));
    json_object_set_new(m, "depth", json_integer(h->depth));
    json_object_set_new(m, "mode", json_string(uz_engine_mode_name((uz_engine_mode)h->mode)));
    json_object_set_new(m, "hash_mb", json_integer(h->hash_mb));
    json_object_set_new(m, "model", model ? cli_model_json(model) : json_null());
    json_object_set_new(m, "coder", json_string(uz_lib_coder_name((uz_coder_kind)h->coder)));
    json_object_set_new(m, "games", json_integer((json_int_t)n->games));
    json_object_set_new(m, "moves", json_integer((json_int_t)n->moves));
    json_object_set_new(m, "move_bytes", json_integer((json_int_t)n->move_bytes));
    json_object_set_new(m, "structure_bytes", json_integer((json_int_t)n->struct_bytes));
    json_object_set_new(m, "bytes", json_integer((json_int_t)n->bytes));
    json_object_set_new(m, "bits_per_move",
                        cli_json_fixed(n->moves ? 8.0 * (double)n->move_bytes / (double)n->moves : 0.0, 4));
    json_object_set_new(m, "split", split_json(split));
    return m;
}

/* The whole file's counts in its object of info --json. */
static void set_totals_json(json_t *doc, const info_counts *n, const uz_byte_split *split)
{
    json_object_set_new(doc, "games", json_integer((json_int_t)n->games));
    json_object_set_new(doc, "moves", json_integer((json_int_t)n->moves));
    json_object_set_new(doc, "bytes", json_integer((json_int_t)n->bytes));
    json_object_set_new(doc, "move_bytes", json_integer((json_int_t)n->move_bytes));
    json_object_set_new(doc, "structure_bytes", json_integer((json_int_t)n->struct_bytes));
    double per_move = n->moves ? 8.0 / (double)n->moves : 0.0; /* bits per move of a byte */
    json_object_set_new(doc, "bits_per_move", cli_json_fixed(per_move * (double)n->move_bytes, 4));
    json_object_set_new(doc, "total_bits_per_move", cli_json_fixed(per_move * (double)n->bytes, 4));
    json_object_set_new(doc, "split", split_json(split));
}

/* Prints the archive's header, sizes and bits per move, or with json appends its object
 * to that array. */
static int info_one(const char *path, json_t *json)
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
    uz_struct_comment_info cinfo = {0}; /* the coded comments of all members */
    json_t *doc = NULL, *members_json = NULL;
    if (uz_archive_reader_open(&reader, in, name) != UZ_OK)
        goto out;
    if (json) {
        doc = json_object();
        members_json = json_array();
        cli_json_set_text(doc, "file", name);
        json_object_set(doc, "members", members_json);
    }
    uz_byte_split split_all;
    uz_byte_split_init(&split_all);
    for (;;) {
        uint64_t member_start = uz_archive_reader_offset(reader);
        uz_result r = uz_archive_read_header(reader, &header, &diag);
        if (r == UZ_DONE)
            break;
        if (r != UZ_OK) {
            cli_report(name, &diag);
            goto out;
        }
        uz_header_profile_settings(&header); /* (the settings of the profile it refers to) */
        uint64_t m_games = 0, m_moves = 0, m_move_bytes = 0, m_struct = 0;
        uz_byte_split split;
        uz_byte_split_init(&split);
        while ((r = uz_archive_read_block(reader, &block, &diag)) == UZ_OK) {
            m_games += block.n_games;
            m_moves += block.tree_moves;
            m_move_bytes += block.moves.size;
            m_struct += block.struct_stored;
            if ((r = uz_byte_split_add_block(&split, &block)) != UZ_OK) {
                uz_diag_set(&diag, r, 0, 0, "out of memory");
                break;
            }
            uz_struct_comment_info bi;
            if (!json && block.struct_version >= 1 &&
                uz_block_struct_comment_info(block.structure.data, block.structure.size, block.struct_version,
                                             block.n_games, &bi, &diag) == UZ_OK) {
                cinfo.code_bytes += bi.code_bytes;
                cinfo.comments += bi.comments;
                cinfo.clocks += bi.clocks;
                cinfo.engine += bi.engine;
            }
        }
        if (r != UZ_DONE) {
            cli_report(name, &diag);
            goto out;
        }
        uint64_t m_bytes = uz_archive_reader_offset(reader) - member_start;
        uz_byte_split_finish(&split, m_bytes);
        add_split(&split_all, &split);
        uz_model_params mp;
        char mtext[128] = "unknown model";
        bool model_ok = uz_header_model(&header, &mp) == UZ_OK;
        if (model_ok)
            uz_lib_model_text(&mp, mtext, sizeof mtext);
        double bpm = m_moves ? 8.0 * (double)m_move_bytes / (double)m_moves : 0.0;
        if (json) {
            info_counts counts = {m_games, m_moves, m_move_bytes, m_struct, m_bytes};
            json_array_append_new(members_json, member_json(&header, model_ok ? &mp : NULL, &counts, &split));
        } else {
            /* Header strings come from the archive: escaped, never sent raw to a terminal. */
            printf("member %llu: format version %u", (unsigned long long)members + 1, header.version);
            if (header.created_by[0]) {
                printf(", ");
                cli_put_escaped(stdout, header.created_by);
            }
            printf("\n  engine: ");
            cli_put_escaped(stdout, header.settings_summary);
            printf(" (fingerprint ");
            cli_put_escaped(stdout, header.fingerprint);
            printf(")\n  model: %s, coder: %s\n"
                   "  games: %llu, moves: %llu\n  move streams: %llu bytes (%.3f bits/move), "
                   "tags/comments/structure: %llu bytes\n",
                   mtext, uz_lib_coder_name((uz_coder_kind)header.coder), (unsigned long long)m_games,
                   (unsigned long long)m_moves, (unsigned long long)m_move_bytes, bpm, (unsigned long long)m_struct);
            print_split_text("  ", &split);
            if (header.chess960_fingerprint[0]) {
                printf(uz_header_is_builtin(&header) ? "  Chess960 games: coded with the builtin (fingerprint "
                                                     : "  Chess960 games: engine-coded with UCI_Chess960 (fingerprint ");
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
    if (json) {
        info_counts counts = {games, moves, move_bytes, struct_bytes, total};
        set_totals_json(doc, &counts, &split_all);
        json_array_append(json, doc);
    } else {
        if (cinfo.comments)
            printf("coded comments: %llu bytes for %llu clocks and %llu engine comments (%llu comments in all)\n",
                   (unsigned long long)cinfo.code_bytes, (unsigned long long)cinfo.clocks,
                   (unsigned long long)cinfo.engine, (unsigned long long)cinfo.comments);
        printf("%s: %llu bytes, %llu member%s, %llu games, %llu moves (%.3f bits/move all included)\n", name,
               (unsigned long long)total, (unsigned long long)members, members == 1 ? "" : "s",
               (unsigned long long)games, (unsigned long long)moves, bpm_all);
        if (members > 1)
            print_split_text("", &split_all);
    }
    status = CLI_EXIT_OK;
out:
    json_decref(members_json);
    json_decref(doc);
    uz_archive_block_free(&block);
    uz_archive_reader_close(reader);
    cli_close_input(in);
    return status;
}
