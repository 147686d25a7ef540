/* The first games of a PGN file as the compressor reads them (raw text kept), for the block
 * tests that write and read them back. Needs ../common/uz_test.h included before it. */
#ifndef UZ_TEST_READ_GAMES_H
#define UZ_TEST_READ_GAMES_H

#include <stdio.h>

#include "pgn/pgn.h"

/* Reads at most max games of path into games[] (initialised here; the caller clears them);
 * returns how many. A game that cannot be read fails the test. */
static inline size_t read_games(const char *path, uz_game *games, size_t max)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return 0;
    uz_pgn_reader *rd = uz_pgn_reader_open(f, path);
    uz_pgn_reader_keep_raw(rd, true);
    size_t n = 0;
    while (n < max) {
        uz_diag d = {0};
        uz_game_init(&games[n]);
        uz_result r = uz_pgn_read_game(rd, &games[n], &d);
        if (r != UZ_OK) {
            uz_game_clear(&games[n]);
            CHECK(r == UZ_DONE, "%s: game %zu not read", path, n + 1);
            break;
        }
        n++;
    }
    uz_pgn_reader_close(rd);
    fclose(f);
    return n;
}

#endif
