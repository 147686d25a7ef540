/* A game's exact text in the archive: the layout it was written with and the patch from
 * the tree rendered with that layout to the game's real bytes:
 *   record = eol:varint flags:varint wrap:varint tag_gap:varint end_eols:varint patch */
#ifndef UCIZIP_GAME_TEXT_H
#define UCIZIP_GAME_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "pgn/game_walk.h"
#include "pgn/pgn.h"

/* Text records (the layout and patch that give a game's exact bytes from its tree):
 * uz_game_text_encode appends the record of a game with raw bytes and a complete tree to
 * out, the game rendered from its walk (walk->game; resolved, its SAN filled:
 * uz_walk_fill_san); *prev / *have_prev carry the previous game's layout (games of one
 * file share it).
 * UZ_ERR_LIMIT: the game is better kept as text (nothing appended). uz_game_text_decode
 * rebuilds a decoded game's exact bytes into out (at most max_len), the game rendered from
 * its walk as well (the move decoder's, its SAN filled), UZ_ERR_CORRUPT when the record does
 * not fit the game. */
uz_result uz_game_text_encode(const uz_walk *walk, uz_pgn_layout *prev, bool *have_prev, uz_buf *out);
uz_result uz_game_text_decode(const uz_walk *walk, const uint8_t *rec, size_t rec_len, size_t max_len, uz_buf *out);

#endif
