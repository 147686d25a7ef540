/* A game's exact text in the archive: the layout it was written with and the patch from
 * the tree rendered with that layout to the game's real bytes (uz_game_text_encode and
 * uz_game_text_decode in archive.h). Internal to the archive:
 *   record = eol:varint flags:varint wrap:varint tag_gap:varint end_eols:varint patch */
#ifndef UZ_GAME_TEXT_H
#define UZ_GAME_TEXT_H

#include "archive/archive.h"

/* Checks a text record at c (advanced past it) without the game: for the structure reader. */
uz_result uz__game_text_skip(uz_cursor *c);

#endif
