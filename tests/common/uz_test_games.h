/* Games of a PGN file read for a test, their exact bytes kept (tests that link the PGN
 * reader). */
#ifndef UZ_TEST_GAMES_H
#define UZ_TEST_GAMES_H

#include "uz_test.h"
#include "pgn/pgn.h"

/* Appends games [first, first + count) of path (count 0: to the end) to games[*n..cap);
 * a game that does not read fails a check and ends the reading. */
static inline void uz_test_read_games(const char *path, size_t first, size_t count, uz_game *games, size_t cap,
                                      size_t *n)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "open %s", path);
    if (!f)
        return;
    uz_pgn_reader *r = uz_pgn_reader_open(f, path);
    uz_pgn_reader_keep_raw(r, true);
    for (size_t i = 0; (count == 0 || i < first + count) && *n < cap; i++) {
        uz_game *g = &games[*n];
        uz_game_init(g);
        uz_diag d = {0};
        uz_result res = uz_pgn_read_game(r, g, &d);
        if (res != UZ_OK) {
            CHECK(res == UZ_DONE && count == 0, "%s: game %zu: %s", path, i + 1, d.message);
            uz_game_clear(g);
            break;
        }
        if (i >= first)
            (*n)++;
        else
            uz_game_clear(g);
    }
    uz_pgn_reader_close(r);
    fclose(f);
}

#endif
