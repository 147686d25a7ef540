/* Test tool: prints each game's main line as UCI moves, one game per line.
 * Usage: pgn_uci [FILE...] (stdin without arguments). Output lines:
 *   "<n>\t<uci moves separated by spaces>" for a game read, and
 *   "<n>\tERROR\t<result name>\t<message>" for a game refused (n = game number). */
#include <stdio.h>
#include <string.h>

#include "pgn/pgn.h"

static int dump(FILE *f, const char *name)
{
    uz_pgn_reader *r = uz_pgn_reader_open(f, name);
    if (!r) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    uz_game game;
    uz_diag diag;
    uz_game_init(&game);
    for (;;) {
        uz_result rc = uz_pgn_read_game(r, &game, &diag);
        if (rc == UZ_DONE)
            break;
        if (rc != UZ_OK) {
            printf("%ld\tERROR\t%s\t%s\n", diag.game, uz_result_str(rc), diag.message);
            continue;
        }
        printf("%ld\t", game.number);
        uz_position pos = game.start;
        for (size_t i = 0; i < game.main.n_nodes; i++) {
            char uci[UZ_UCI_MAX];
            uz_move_to_uci(game.main.nodes[i].move, uci);
            printf(i ? " %s" : "%s", uci);
            uz_undo undo;
            uz_make_move(&pos, game.main.nodes[i].move, &undo);
        }
        printf("\n");
    }
    uz_game_clear(&game);
    uz_pgn_reader_close(r);
    return 0;
}

int main(int argc, char **argv)
{
    int status = 0;
    if (argc < 2)
        return dump(stdin, "<stdin>");
    for (int i = 1; i < argc; i++) {
        FILE *f = strcmp(argv[i], "-") == 0 ? stdin : fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            status = 1;
            continue;
        }
        status |= dump(f, argv[i]);
        if (f != stdin)
            fclose(f);
    }
    return status;
}
