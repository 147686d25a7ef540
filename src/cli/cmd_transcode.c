/* "ucizip transcode": an archive's moves re-coded with another oracle (the builtin, or a
 * UCI engine), everything else kept. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_inputs.h"
#include "cli_util.h"

static const char transcode_usage[] =
    "usage: ucizip transcode IN.ucz -o OUT.ucz --engine E [options]\n"
    "Re-codes the moves of every game with another oracle, keeping the games' text, the\n"
    "model, the coder and the block size: OUT decompresses to the same bytes as IN. IN is\n"
    "decoded with the oracle it names (its engine's installed profile, or the builtin).\n"
    "OUT gets IN's mode and modification time.\n"
    "  -o, --output FILE   the new archive (required; '-' for stdout; never IN itself)\n"
    "  -f, --force         overwrite OUT if it exists\n"
    "  --engine E          the new oracle: builtin (builtin-N), or a UCI engine profile,\n"
    "                      .profile file or executable\n"
    "  --depth N           its search depth (default: the profile's, the builtin's)\n"
    "  --nodes N, --mode M, --hash MB   a UCI engine's search settings, as for compress\n"
    "  -j, --workers N     engine processes or builtin threads, on both sides (default:\n"
    "                      number of cores)\n" CLI_CACHE_HELP CLI_KEEP_QUIET_HELP;

static int parse_transcode_args(int argc, char **argv, cli_engine_opts *eo, const char **out_path, bool *force,
                                bool *quiet)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},         CLI_ENGINE_OPTIONS,
        CLI_KEEP_QUIET_OPTIONS,                   {NULL, 0, NULL, 0},
    };
    cli_engine_opts_init(eo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:fj:hkq", options, NULL)) != -1) {
        if (c == 'j')
            c = OPT_WORKERS;
        int h = cli_engine_opt(eo, c, optarg);
        if (h < 0)
            return CLI_EXIT_USAGE;
        if (h)
            continue;
        switch (c) {
        case 'o': *out_path = optarg; break;
        case 'f': *force = true; break;
        case 'k': break; /* the input is always kept */
        case 'q': *quiet = true; break;
        case 'h': fputs(transcode_usage, stdout); return CLI_EXIT_OK;
        default: fputs(transcode_usage, stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != 1 || !*out_path || !eo->engine) {
        cli_error("transcode: one input archive, -o OUT and --engine E are needed");
        fputs(transcode_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

int cmd_transcode(int argc, char **argv)
{
    cli_engine_opts eo;
    const char *out_path = NULL;
    bool force = false, quiet = false;
    int parsed = parse_transcode_args(argc, argv, &eo, &out_path, &force, &quiet);
    if (parsed >= 0)
        return parsed;
    if (cli_same_file(out_path, argv[optind])) {
        cli_error("%s: the output would replace the input; refused even with -f", out_path);
        return CLI_EXIT_FAIL;
    }
    const char *name;
    FILE *in = cli_open_input(argv[optind], &name);
    if (!in)
        return CLI_EXIT_FAIL;
    cli_output out;
    if (cli_output_open(&out, out_path, force) != 0) {
        cli_close_input(in);
        return CLI_EXIT_FAIL;
    }
    cli_output_keep_attrs(&out, argv[optind]); /* a 0600 archive stays 0600 */
    uz_options u;
    uz_options_init(&u);
    cli_engine_lib_options(&eo, &u);
    uz_diag diag = {0};
    uint64_t games = 0;
    double t0 = cli_now();
    uz_result r = uz_transcode(in, name, out.f, &u, &games, &diag);
    cli_close_input(in);
    if (r != UZ_OK) {
        cli_report(name, &diag);
        cli_output_abort(&out);
        return CLI_EXIT_FAIL;
    }
    if (cli_output_commit(&out) != 0)
        return CLI_EXIT_FAIL;
    if (!quiet)
        fprintf(stderr, "ucizip: %s: %llu games transcoded with %s in %.1f s\n", name,
                (unsigned long long)games, eo.engine, cli_now() - t0);
    return CLI_EXIT_OK;
}
