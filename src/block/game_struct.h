/* The structure stream of a block (doc/format.md): its games' tags, start positions,
 * results, comments, NAGs and the shape of their trees, without the moves (those go to
 * the move streams). The layout numbers are the member header's struct_version
 * (UZ_STRUCT_VERSION, archive/archive.h). */
#ifndef UCIZIP_GAME_STRUCT_H
#define UCIZIP_GAME_STRUCT_H

#include <stddef.h>
#include <stdint.h>

#include "archive/archive.h"
#include "common/buf.h"
#include "common/limits.h"
#include "pgn/pgn.h"

/* Appends the structure of a block's n games to b, in the layout `version` (0 or
 * UZ_STRUCT_VERSION; readers take the same number) (UZ_ERR_LIMIT, nothing usable written,
 * if a game passes a limit of limits.h that the reader enforces): for each its move-stream
 * length (moves_lens[i]), the crc32 of its exact bytes (crcs[i]), tags, start position, result
 * and the annotated tree shape; tag values column by column, comments in their own
 * section, the text records of the games that have a tree (in game order) in the last
 * section (doc/format.md). Verbatim and text-only games keep their bytes as such. */
uz_result uz_block_struct_write(uz_buf *b, unsigned version, const uz_game *games, size_t n, const size_t *moves_lens,
                                const uint32_t *crcs, const uz_buf *text_records);
/* Reads the structure of a block of n games into games[0..n) (initialised by the
 * caller, cleared first); text_recs[i] / text_rec_lens[i] receive each game's text record
 * (NULL for verbatim and text-only games, whose raw bytes are set). Moves are left as UZ_MOVE_NONE except null moves, for the
 * move decoder to fill. Returns UZ_OK, UZ_ERR_CORRUPT or UZ_ERR_NOMEM; on error every
 * game is left empty. */
uz_result uz_block_struct_read(const uint8_t *data, size_t size, unsigned version, uz_game *games, size_t n, size_t *moves_lens,
                               uint32_t *crcs, const uint8_t **text_recs, size_t *text_rec_lens, uz_diag *diag);
/* The same within a decoder's limits (NULL: the defaults of limits.h): a block with more
 * moves than limits->block_nodes gives UZ_ERR_LIMIT before they are allocated. */
uz_result uz_block_struct_read_limited(const uint8_t *data, size_t size, unsigned version, uz_game *games, size_t n, size_t *moves_lens,
                                       uint32_t *crcs, const uint8_t **text_recs, size_t *text_rec_lens,
                                       const uz_decode_limits *limits, uz_diag *diag);

/* Layout 2: each game's coded engine comments (doc/format.md "Engine comment code"),
 * games[0..n) as uz_block_struct_read gave them: code[i] / code_lens[i] (length 0: none;
 * always for layouts 0 and 1). UZ_ERR_CORRUPT when the section does not hold exactly one
 * size and its bytes per game. The comments are decoded with uz_engine_code_decode once
 * the game's moves are known. */
uz_result uz_block_struct_engine_code(const uint8_t *data, size_t size, unsigned version, const uz_game *games, size_t n,
                                      const uint8_t **code, size_t *code_lens);

/* The coded comments of a block of n games (structure layout 1; zeros for layout 0):
 * the comment-code section's size and what it holds. Decodes the structure stream. */
typedef struct uz_struct_comment_info {
    uint64_t code_bytes, comments, clocks, engine;
    uint64_t cost_clocks, cost_engine, cost_text; /* coded bits by kind, in 1/65536 bit */
} uz_struct_comment_info;
uz_result uz_block_struct_comment_info(const uint8_t *data, size_t size, unsigned version, size_t n,
                                       uz_struct_comment_info *info, uz_diag *diag);

#endif
