/* ucizip decompress and verify: archives back to PGN, and their check. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_codec.h"
#include "cli_inputs.h"
#include "cli_util.h"

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
