/* Opening names and ECO codes from the moves (tag version 3, doc/format.md "Coded tags"):
 * Lichess's table (data/openings, CC0) built into ucizip and keyed by the positions its
 * lines reach (their Zobrist keys, so that transpositions meet). A game's opening is the
 * row of the LAST position of its main line that is in the table, as Lichess names a
 * game's [ECO] and [Opening]. Frozen with tag version 3: archives depend on the rows. */
#ifndef UCIZIP_OPENING_NAMES_H
#define UCIZIP_OPENING_NAMES_H

#include <stddef.h>

#include "block/opening_names_internal.h"
#include "pgn/game_walk.h"

/* The opening of the walk's game (its main line resolved, its moves known: walk->has_final),
 * or NULL: no position after a main-line move is in the table, a null move on the main line,
 * a Chess960 game, or out of memory building the table (once per process, thread-safe).
 * *plies (optional): the main-line moves played to reach it. */
const uz__opening_row *uz_opening_of(const uz_walk *walk, size_t *plies);

/* The names of the rows of all the positions of the walk's main line that are in the table,
 * from the last position back, each name once (its first time): at most max into names, the
 * number written; 0 where uz_opening_of gives NULL. */
size_t uz_opening_names_of(const uz_walk *walk, const char **names, size_t max);

#endif
