/* ucizip pgn: rewrite PGN in export format, or print main lines in UCI notation. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_util.h"
#include "pgn/pgn.h"

static const char pgn_usage[] =
    "usage: ucizip pgn [IN.pgn|-] [-o OUT|-] [--uci] [--keep-going] [-f]\n"
    "  -o, --output FILE   write here instead of stdout\n"
    "  --uci               print each game's main line in UCI notation, one game per line;\n"
    "                      a game from a set-up position as 'fen FEN moves M...' (what\n"
    "                      follows UCI's 'position' command)\n"
    "  --keep-going        skip games with errors (each reported) instead of stopping\n"
    "  -f, --force         overwrite OUT if it exists\n" CLI_KEEP_QUIET_HELP;

static int write_uci_line(FILE *out, const uz_game *game)
{
    char text[UZ_UCI_MAX];
    if (game->has_fen) { /* the moves mean nothing without the position they start from */
        char fen[UZ_FEN_MAX];
        uz_position_to_fen(&game->start, fen);
        if (fprintf(out, game->main.n_nodes ? "fen %s moves " : "fen %s", fen) < 0)
            return -1;
    }
    for (size_t i = 0; i < game->main.n_nodes; i++) {
        uz_move_to_uci(game->main.nodes[i].move, text);
        if (fprintf(out, i ? " %s" : "%s", text) < 0)
            return -1;
    }
    return fputc('\n', out) == EOF ? -1 : 0;
}

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
    uz_game game;
    uz_game_init(&game);
    if (cli_source_open(&src, optind < argc ? argv[optind] : NULL, keep_going) != 0)
        return CLI_EXIT_FAIL;
    src.keep_verbatim = !uci;
    if (cli_output_open(&out, out_path, force) != 0)
        goto close_source;
    long n;
    while ((n = cli_source_read(&src, &game, 1)) == 1) {
        int w = uci ? write_uci_line(out.f, &game) : (uz_pgn_write_game(out.f, &game) == UZ_OK ? 0 : -1);
        if (w != 0) {
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
    uz_game_clear(&game);
    return status;
}
