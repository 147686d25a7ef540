/* ucizip pgn: rewrite PGN in export format, or print main lines in UCI notation. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_util.h"

static const char pgn_usage[] =
    "usage: ucizip pgn [IN.pgn|-] [-o OUT|-] [--uci] [--keep-going] [-f]\n"
    "  -o, --output FILE   write here instead of stdout\n"
    "  --uci               print each game's main line in UCI notation, one game per line;\n"
    "                      a game from a set-up position as 'fen FEN moves M...' (what\n"
    "                      follows UCI's 'position' command)\n"
    "  --keep-going        skip games with errors (each reported) instead of stopping\n"
    "  -f, --force         overwrite OUT if it exists\n" CLI_KEEP_QUIET_HELP;

int cmd_pgn(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'}, {"uci", no_argument, NULL, 'u'},
        {"keep-going", no_argument, NULL, 'K'},   CLI_KEEP_QUIET_OPTIONS, {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    const char *out_path = NULL;
    bool uci = false, keep_going = false, force = false;
    int c;
    while ((c = getopt_long(argc, argv, "o:kqfh", options, NULL)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case 'u': uci = true; break;
        case 'K': keep_going = true; break;
        case 'k': /* zstd's -k and -q: this command removes no input and has no progress */
        case 'q': break;
        case 'f': force = true; break;
        case 'h': fputs(pgn_usage, stdout); return CLI_EXIT_OK;
        default: fputs(pgn_usage, stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind > 1) {
        fputs(pgn_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    int status = CLI_EXIT_FAIL;
    cli_output out;
    cli_game_source src;
    uz_game *game = NULL;
    uz_diag diag = {0};
    if (uz_game_new(&game, &diag) != UZ_OK) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    if (cli_source_open(&src, optind < argc ? argv[optind] : NULL, keep_going) != 0) {
        uz_game_free(game);
        return CLI_EXIT_FAIL;
    }
    src.keep_verbatim = !uci;
    if (cli_output_open(&out, out_path, force) != 0)
        goto close_source;
    int n;
    while ((n = cli_source_next(&src, game)) == 1) {
        uz_result w = uci ? uz_game_write_uci(out.f, game) : uz_game_write_pgn(out.f, game);
        if (w != UZ_OK) {
            cli_error("%s: write error", out_path ? out_path : "<stdout>");
            n = -1;
            break;
        }
    }
    if (n < 0)
        cli_output_abort(&out);
    else if (cli_output_commit(&out) == 0)
        status = CLI_EXIT_OK;
close_source:
    if (cli_source_close(&src) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
    uz_game_free(game);
    return status;
}
