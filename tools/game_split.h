/* The corpus split every research tool and script shares: a game's hash is FNV-1a 64 of
 * its canonical PGN text (uz_pgn_game_to_string); the games whose hash is 0 mod 5 are
 * held out (never trained or tuned on), the others are the training part. The Python
 * side (scripts/bench_builtin_archive.py held_out) reads the same hashes through
 * `ucizip-features --hashes`. */
#ifndef UZ_TOOLS_GAME_SPLIT_H
#define UZ_TOOLS_GAME_SPLIT_H

#include <stdbool.h>
#include <stdint.h>
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

#endif
