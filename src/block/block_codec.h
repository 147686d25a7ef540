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

/* What codes a member's blocks, the same for each block. */
typedef struct uz_block_coder {
    /* The oracle (which answers Chess960 positions too), the model and the move streams'
     * coder. Decoding with moves.oracle NULL: the oracle of `oracles`. */
    uz_move_coder moves;
    /* Decoding: the member's oracle set, which starts its Chess960 engine at a Chess960
     * game's need (gamecode/oracle_set.h); NULL when moves.oracle answers everything. */
    uz_oracle_set *oracles;
    unsigned struct_version;   /* encoding: the member's structure version (header key 13) */
    unsigned comment_revision; /* encoding: the member header's key 17 (0: absent) */
    unsigned engine_revision;  /* encoding: the member header's key 18 (0: absent, revision 1) */
    unsigned comment_text;     /* encoding: the member header's key 19 (0: absent, strings) */
    uz_decode_limits limits;   /* decoding; zero: the defaults of limits.h */
} uz_block_coder;

/* The block coder of a member's decoder: its oracle (or its oracle set), model, coder and
 * limits (a block's structure version and other versions are the block's own). */
uz_block_coder uz_block_coder_of_member(uz_member_decoder *md);

/* Codes n games into out (empty; archive/archive.h) with bc's oracle, model, encoder,
 * structure version and comment revision: their structure stream (and its packing, when writing it
 * made one), their move streams, their moves and the digest of their exact bytes
 * (game->raw; a game without them is given its export-format text), ready for
 * uz_archive_write_block. A game whose layout cannot be modelled closely enough is turned
 * into a verbatim game here (its bytes kept, its moves not coded). UZ_ERR_LIMIT (diag names the game) for a game past a
 * limit of limits.h; the structure written is parsed back before it is returned.
 * uz_block_records_new and uz_block_encode_records in one. */
uz_result uz_block_encode(const uz_block_coder *bc, uz_game *games, size_t n, uz_block_bytes *out, uz_diag *diag);

/* The two halves of uz_block_encode, for a caller that chooses a member's structure version from
 * the records of its first blocks before it codes them: the records of the n games of a
 * block (uz_block_out_games_new, block/game_struct.h: each game replayed once, by its
 * walk; free them with uz_block_out_games_free), and their coding. struct_version (NULL:
 * not asked) is raised to UZ_STRUCT_VERSION when one of the games has what only that
 * structure version codes (engine comments for the engine codes, a tag holding its final position,
 * found from its walk), else left as it is: 1 for a member's first games (the same blocks
 * without header key 13). */
uz_result uz_block_records_new(uz_block_out_game **recs, uz_game *games, size_t n, unsigned *struct_version,
                               uz_diag *diag);
uz_result uz_block_encode_records(const uz_block_coder *bc, uz_block_out_game *recs, size_t n, uz_block_bytes *out,
                                  uz_diag *diag);

/* Whether the block's structure stream holds exactly the block's n_games games (and its
 * moves stream their moves), without decoding a move: UZ_OK, or UZ_ERR_CORRUPT (said). */
uz_result uz_block_check_games(const uz_decode_limits *limits, const uz_archive_block *block, uz_diag *diag);

/* Decodes games [first, first + count) of block with bc (Chess960 games with the set's
 * Chess960 engine, started on first need and checked against the header's
 * chess960_fingerprint; UZ_ERR_CORRUPT for such a game in a member without one) into
 * games[0 .. count) (initialised by the caller; the block's other games are only parsed),
 * rebuilds each one's exact bytes (game->raw) and checks them against the stored checksum
 * (and the block's digest when the whole block is decoded). game_base (the number of games
 * before the block) numbers games in messages.
 * Returns UZ_OK, UZ_ERR_CORRUPT (with the game and the reason), or an engine error. */
uz_result uz_block_decode(const uz_block_coder *bc, const uz_archive_block *block, size_t first, size_t count,
                          uz_game *games, uint64_t game_base, uz_diag *diag);

#endif
