/* The block codec: blocks of games to archive blocks and back with an oracle, what
 * compress and decompress do for each block. */
#ifndef UCIZIP_BLOCK_CODEC_H
#define UCIZIP_BLOCK_CODEC_H

#include "archive/archive.h"
#include "block/game_struct.h"
#include "gamecode/gamecode.h"
#include "gamecode/member.h"

/* How many of the n games (at least 1) to put in one block so that it stays within the
 * block limits of limits.h; compress calls it and codes that many. */
size_t uz_block_fit(const uz_game *games, size_t n);

/* Codes n games (scores all their positions with the oracle, which answers their Chess960
 * positions too: the oracle of a uz_oracle_set, gamecode/oracle_set.h): appends their structure to structure and their move streams to
 * moves; *n_moves receives the moves in their trees, *text_digest the XXH64 of the games'
 * exact bytes (game->raw; a game without them is given its export-format text). A game
 * whose layout cannot be modelled closely enough is turned into a verbatim game here (its
 * bytes kept, its moves not coded). UZ_ERR_LIMIT (diag names the game) for a game past a
 * limit of limits.h; the structure written is parsed back before it is returned.
 * comment_revision: the member header's key 17 (0: absent). uz_block_records_new and
 * uz_block_encode_records in one. */
uz_result uz_block_encode(uz_oracle *oracle, const uz_model *model, uz_encoder *enc, uz_game *games, size_t n,
                          unsigned struct_version, unsigned comment_revision, uz_buf *structure, uz_buf *moves, uint64_t *n_moves,
                          uint64_t *text_digest, uz_diag *diag);

/* The two halves of uz_block_encode, for a caller that chooses a member's layout from
 * the records of its first blocks before it codes them: the records of the n games of a
 * block (uz_block_out_games_new, block/game_struct.h: each game replayed once, by its
 * walk; free them with uz_block_out_games_free), and their coding. struct_version (NULL:
 * not asked) is raised to UZ_STRUCT_VERSION when one of the games has what only that
 * layout codes (engine comments for the engine codes, a tag holding its final position,
 * found from its walk), else left as it is: 1 for a member's first games (the same blocks
 * without header key 13). */
uz_result uz_block_records_new(uz_block_out_game **recs, uz_game *games, size_t n, unsigned *struct_version,
                               uz_diag *diag);
uz_result uz_block_encode_records(uz_oracle *oracle, const uz_model *model, uz_encoder *enc, uz_block_out_game *recs,
                                  size_t n, unsigned struct_version, unsigned comment_revision, uz_buf *structure, uz_buf *moves,
                                  uint64_t *n_moves, uint64_t *text_digest, uz_diag *diag);

/* Decodes games [first, first + count) of block (Chess960 games with the set's Chess960
 * engine, started on first need and checked against the header's
 * chess960_fingerprint; UZ_ERR_CORRUPT for such a game in a member without one) into
 * games[0 .. count) (initialised by the caller; the block's other games are only parsed),
 * rebuilds each one's exact bytes (game->raw) and checks them against the stored checksum
 * (and the block's digest when the whole block is decoded). game_base (the number of games
 * before the block) numbers games in messages.
 * Returns UZ_OK, UZ_ERR_CORRUPT (with the game and the reason), or an engine error. */
/* Whether the block's structure stream holds exactly the block's n_games games (and its
 * moves stream their moves), without decoding a move: UZ_OK, or UZ_ERR_CORRUPT (said). */
uz_result uz_block_check_games(const uz_decode_limits *limits, const uz_archive_block *block, uz_diag *diag);
uz_result uz_block_decode(uz_member_decoder *md, const uz_archive_block *block, size_t first, size_t count,
                          uz_game *games, uint64_t game_base, uz_diag *diag);

#endif
