/* Games that reach a position (extract --fen): a cheap test on what an archive's structure
 * stream tells before the moves are decoded, and the test itself on the decoded main line.
 * A position matches on its pieces and the side to move; castling rights, the en-passant
 * square and the move counters are not compared (pgn-extract's positional match does the
 * same with the board). */
#ifndef UCIZIP_CLI_POSITION_H
#define UCIZIP_CLI_POSITION_H

#include <stdbool.h>

#include "chess/board.h"
#include "pgn/pgn.h"

/* False when game (its start position and main-line length; moves not needed) cannot
 * reach target: a side has more pieces or pawns in target than at the start, more
 * pieces are gone than there are plies to capture them, or a pawn stands on its home
 * rank in target where none stood at the start (pawns never move back). */
bool cli_game_may_reach(const uz_game *game, const uz_position *target);

/* True when the decoded game's main line passes through target (its start included). */
bool cli_game_reaches(const uz_game *game, const uz_position *target);

#endif
