/* The structure stream of a block (doc/format.md): its games' tags, start positions,
 * results, comments, NAGs and the shape of their trees, without the moves (those go to
 * the move streams). The structure version numbers are the member header's struct_version
 * (UZ_STRUCT_VERSION, archive/archive.h). */
#ifndef UCIZIP_GAME_STRUCT_H
#define UCIZIP_GAME_STRUCT_H

#include <stddef.h>
#include <stdint.h>

#include "archive/archive.h"
#include "common/buf.h"
#include "common/limits.h"
#include "pgn/game_walk.h"
#include "pgn/pgn.h"

/* One game on its way into a block (the writer's side of uz_block_game below): the game,
 * its walk, which replays it once for every coder that needs its positions (the move
 * coder, the text record's renderings, engine comments, the final-position tag), and
 * what the block's streams hold of it. */
typedef struct uz_block_out_game {
    uz_game *game;          /* the caller's (borrowed); may become verbatim in uz_block_out_games_new */
    uz_walk walk;           /* of game, resolved, its SAN filled (owned; empty for verbatim and
                               text-only games); the move coder adds its scores */
    uint32_t crc;           /* CRC-32 of the game's exact bytes */
    size_t moves_len;       /* its move stream's length (set by whoever codes the moves) */
    uz_buf text_rec;        /* its text record (uz_game_text_encode); empty for verbatim and
                               text-only games (owned) */
} uz_block_out_game;

/* Makes the records of games[0..n) (*out, n of them; NULL on error): each game's walk,
 * resolved with its SAN, its text record and its checksum. A game without exact bytes
 * (one built in memory) is given its export-format text as such; a game whose layout
 * cannot be modelled closely enough becomes a verbatim game (its bytes kept, its moves
 * not coded: its walk is empty). current_struct_version (NULL: not asked), for the choice of a
 * member's structure version: set to true when a game has what only the current structure version codes
 * (engine comments for either engine code, a tag holding its final position, found from
 * its walk), looked at before the game may become verbatim; games are looked at only
 * while it is false. Returns UZ_OK, UZ_ERR_NOMEM or UZ_ERR_ILLEGAL (a move of a tree not
 * legal: never for games from the reader). */
uz_result uz_block_out_games_new(uz_block_out_game **out, uz_game *games, size_t n, bool *current_struct_version);
/* Frees the records (not their games); NULL is a no-op. */
void uz_block_out_games_free(uz_block_out_game *games, size_t n);

/* Appends the structure of a block's n games to b, in the structure version `version` (0 or
 * UZ_STRUCT_VERSION; readers take the same number), its coded tags (structure versions 1-3) in the
 * tag coding `tag_version` (1 or UZ_TAG_VERSION: header key 16) (UZ_ERR_LIMIT, nothing usable written,
 * if a game passes a limit of limits.h that the reader enforces): for each its move-stream
 * length, the crc32 of its exact bytes, tags, start position, result and the annotated
 * tree shape; tag values column by column, comments in their own section, the text
 * records of the games that have a tree (in game order) in the last section
 * (doc/format.md). Verbatim and text-only games keep their bytes as such. From structure version 1
 * the comments are coded with the models of comment_revision, the member header's key 17
 * (0: absent, the structure version's; block/comment_code.h); the comments section's texts
 * are framed by comment_text, the header's key 19 (UZ_COMMENT_TEXT_*; 0: absent, strings);
 * readers take the same numbers.
 * From structure version 2 the engine comments are coded in the newest engine code
 * revision (UZ_ENGINE_REVISION, header key 18). */
uz_result uz_block_struct_write(uz_buf *b, unsigned version, unsigned tag_version, unsigned comment_revision,
                                unsigned comment_text, const uz_block_out_game *games, size_t n);
/* The same, its engine comments in engine_revision (header key 18; 0: absent, revision 1),
 * written to a block's bytes: the stream appended to out->structure and, when
 * the writer packed it already (to choose its tag coding) and out->structure was empty,
 * its packing in out->packed and out->method, which uz_archive_write_block then writes
 * as it is; out->packed stays empty otherwise. */
uz_result uz_block_struct_write_block(uz_block_bytes *out, unsigned version, unsigned tag_version,
                                      unsigned comment_revision, unsigned comment_text, unsigned engine_revision,
                                      const uz_block_out_game *games, size_t n);
/* One game of a block as its structure stream gives it, and what decoding the game
 * further needs. The record owns the game; the byte ranges point into the block's
 * streams (borrowed: valid while the block is). */
typedef struct uz_block_game {
    /* Tags, start position, result, comments and tree; the moves are UZ_MOVE_NONE (null
     * moves excepted) until the move decoder fills them. Verbatim and text-only games
     * have their raw bytes instead. */
    uz_game game;
    uint32_t crc;                /* CRC-32 of the game's exact bytes, its bits of crc_mask */
    uint32_t crc_mask;           /* the bits of the CRC-32 the record keeps: all of them in structure versions 0-3;
                                    structure version 4 keeps the low check bits of a game with a tree, none of a
                                    verbatim or text-only record (the block's text digest checks them) */
    const uint8_t *moves;        /* its move stream, moves_len bytes (the structure gives the length;
                                    whoever holds the block's move streams sets where) */
    size_t moves_len;
    const uint8_t *text_rec;     /* its text record (uz_game_text_decode); NULL for verbatim and text-only games */
    size_t text_rec_len;
    const uint8_t *engine_code;  /* structure version 2: its coded engine comments (uz_engine_code_decode); length 0: none */
    size_t engine_code_len;
    uz_walk walk;                /* of game, built by the move decoder as it decodes (owned; empty
                                    before): the positions of what is decoded after the moves */
} uz_block_game;

/* n records, each game initialised (uz_game_init); NULL when out of memory. */
uz_block_game *uz_block_games_new(size_t n);
/* Clears the n records' games and walks and frees the array. NULL is a no-op. */
void uz_block_games_free(uz_block_game *games, size_t n);

/* Reads the structure of a block of n games into games[0..n) (their games cleared first):
 * each record's game, crc, moves_len and text record. limits (NULL: the defaults of
 * limits.h): a block with more moves than limits->block_nodes gives UZ_ERR_LIMIT before
 * they are allocated. Returns UZ_OK, UZ_ERR_CORRUPT, UZ_ERR_LIMIT or UZ_ERR_NOMEM (diag
 * says which); on error every game is left empty. */
uz_result uz_block_struct_read(const uint8_t *data, size_t size, unsigned version, unsigned tag_version,
                               unsigned comment_revision, unsigned comment_text, uz_block_game *games, size_t n,
                               const uz_decode_limits *limits, uz_diag *diag);

/* For the training of structure version 5's initial model state (tools/record_bits.c): reads the
 * structure of a block of n games (structure version 4 or later) as uz_block_struct_read does, and
 * every decision of its records is also learnt by training's models, its cost with them added
 * to training's cost (block/record_code.h: uz_record_train). */
struct uz_record_training;
uz_result uz_block_struct_read_models(const uint8_t *data, size_t size, unsigned version, unsigned tag_version,
                                      unsigned comment_revision, unsigned comment_text, size_t n,
                                      struct uz_record_training *training, uz_diag *diag);

/* Structure version 2: sets each record's engine_code (doc/format.md "Engine comment code"), games
 * as uz_block_struct_read gave them (length 0: none; always for structure versions 0 and 1).
 * UZ_ERR_CORRUPT when the section does not hold exactly one size and its bytes per game.
 * The comments are decoded with uz_engine_code_decode once the game's moves are known. */
uz_result uz_block_struct_engine_code(const uint8_t *data, size_t size, unsigned version, uz_block_game *games, size_t n);

/* Comment revision 4: the block's clock code (block/clock_code.h), *code[0..*len) in the
 * structure stream, and the number of clocks it holds (0 and length 0: none; always before
 * revision 4). UZ_ERR_CORRUPT when the comment-code section does not start with them. Its
 * clocks are decoded once the games' moves are known, game after game from the block's first. */
uz_result uz_block_struct_clock_code(const uint8_t *data, size_t size, unsigned version, unsigned comment_revision,
                                     const uint8_t **code, size_t *len, uint64_t *n_clocks);

/* The coded comments of a block of n games (structure version 1; zeros for structure version 0):
 * the comment-code section's size and what it holds. Decodes the structure stream. */
typedef struct uz_struct_comment_info {
    uint64_t code_bytes, comments, clocks, engine;
    uint64_t cost_clocks, cost_engine, cost_text; /* coded bits by kind, in 1/65536 bit */
} uz_struct_comment_info;
uz_result uz_block_struct_comment_info(const uint8_t *data, size_t size, unsigned version, unsigned tag_version,
                                       unsigned comment_revision, unsigned comment_text, size_t n,
                                       uz_struct_comment_info *info,
                                       uz_diag *diag);

#endif
