/* The corpus split every research tool and script shares, and a reader of a split's games.
 * A game's hash is FNV-1a 64 of
 * its canonical PGN text (uz_pgn_game_to_string); the games whose hash is 0 mod 5 are
 * held out (never trained or tuned on), the others are the training part. The Python
 * side (scripts/bench_builtin_archive.py held_out) reads the same hashes through
 * `ucizip-features --hashes`. */
#ifndef UZ_TOOLS_GAME_SPLIT_H
#define UZ_TOOLS_GAME_SPLIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pgn/pgn.h"

/* The game's hash; 0 if its text cannot be made (no memory). */
static inline uint64_t uz_tool_game_hash(const uz_game *g)
{
    char *text;
    size_t len;
    uint64_t h = 0xcbf29ce484222325ull;
    if (uz_pgn_game_to_string(g, &text, &len) != UZ_OK)
        return 0;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
    free(text);
    return h;
}

static inline bool uz_tool_held_out(uint64_t game_hash)
{
    return game_hash % 5 == 0;
}

enum { UZ_TOOL_SPLIT_TRAIN, UZ_TOOL_SPLIT_HELD_OUT, UZ_TOOL_SPLIT_ALL };

/* Called with each game; returning false stops the reading (an error). */
typedef bool uz_tool_game_fn(const uz_game *game, void *ctx);

/* Calls fn with every game of path in the split (UZ_TOOL_SPLIT_*) that has a main line to
 * replay: games the reader refuses, verbatim games and text-only ones are skipped, as
 * `ucizip stats -k` skips them. False when the file cannot be read or fn said stop; tool
 * names the program in the error message. */
static inline bool uz_tool_read_games(const char *tool, const char *path, int split, uz_tool_game_fn *fn, void *ctx)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s: cannot open\n", tool, path);
        return false;
    }
    uz_pgn_reader *rd = uz_pgn_reader_open(f, path);
    uz_game game;
    uz_game_init(&game);
    uz_diag diag = {0};
    bool ok = rd != NULL;
    for (uz_result r; ok && (r = uz_pgn_read_game(rd, &game, &diag)) != UZ_DONE;) {
        if (r != UZ_OK || game.verbatim || game.text_only)
            continue;
        if (split != UZ_TOOL_SPLIT_ALL &&
            uz_tool_held_out(uz_tool_game_hash(&game)) != (split == UZ_TOOL_SPLIT_HELD_OUT))
            continue;
        ok = fn(&game, ctx);
    }
    uz_game_clear(&game);
    uz_pgn_reader_close(rd);
    fclose(f);
    return ok;
}

#endif
