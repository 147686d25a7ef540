/* Blocks of games to archive blocks and back, with the engine: what compress and
 * decompress do for each block, and the check that a member's engine is the right one. */
#ifndef UCIZIP_BLOCKCODE_H
#define UCIZIP_BLOCKCODE_H

#include "archive/archive.h"
#include "block/game_struct.h"
#include "gamecode/gamecode.h"
#include "gamecode/oracle_set.h"

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

/* Fills the fields of a header that do not name the oracle: format version, model,
 * coder, block size, structure layout (the rest zero). */
void uz_header_fill_coding(uz_archive_header *h, const uz_model_params *model, uz_coder_kind coder,
                           uint32_t block_games);
/* For a header that leaves the settings to the engine profile (settings_from_profile):
 * keys 3-7 and (unless the header stores one) the summary from the installed profile it
 * refers to, for display (the summary says so). Unchanged if there is no such profile,
 * or the header stores its settings. A builtin member's summary: its builtin and depth. */
void uz_header_profile_settings(uz_archive_header *h);
/* Fills a header from the pool's engine and the model and coder settings. */
void uz_header_fill(uz_archive_header *h, uz_pool *pool, const uz_model_params *model, uz_coder_kind coder,
                    uint32_t block_games);

/* Whether the member of header h was coded with the builtin (its engine name is
 * "ucizip builtin-V"; gamecode/builtin_member.h reads the rest). */
bool uz_header_is_builtin(const uz_archive_header *h);

/* The model parameters a header stores; UZ_ERR_UNSUPPORTED for an unknown model kind or
 * the wrong number of parameters. */
uz_result uz_header_model(const uz_archive_header *h, uz_model_params *params);

/* What decoding a member needs: the oracle set (kept across members with the same
 * engine and settings, or the same builtin), the model and the coder. */
typedef struct uz_member_decoder {
    /* The member's engine with its Chess960 instance (started at the first Chess960 game
     * and checked against header key 12), or its builtin (whose searchers score the
     * Chess960 games too: no engine, no profile). */
    uz_oracle_set *oracles;
    uz_model model;
    uz_coder_kind coder;
    char settings[sizeof ((uz_archive_header *)0)->engine_settings_text];
    char fingerprint[sizeof ((uz_archive_header *)0)->fingerprint];
    uz_decode_limits limits; /* zero: the defaults of limits.h */
    /* Set by the caller (recorded scores, fuzzing, tests): every game's scores, Chess960
     * ones too, come from this oracle (borrowed), no engine is started and no
     * fingerprint is checked. NULL: the oracle set. */
    uz_oracle *oracle;
    /* Set by the caller: the persistent score store for a member whose engine is the
     * installed profile of the header's (no base given); NULL for none. */
    const uz_score_store *store;
} uz_member_decoder;

/* Prepares md for a member with header h. A builtin member (uz_header_is_builtin) gets
 * the builtin of the version and depth it records (checked by uz_header_builtin; base is
 * not used). Otherwise base gives the engine to run (path, timeouts), or is NULL for the
 * installed profile matching the header's engine (see uz_engine_profile_for_archive; the
 * profile field of uz_pool_settings(uz_oracle_set_pool(md->oracles)) names it); the
 * header's settings replace its search settings. Starts an engine (unless md already has
 * one for the same settings) and checks its fingerprint against the header's before
 * anything is decoded: UZ_ERR_MISMATCH names the engine and settings the archive needs. */
uz_result uz_member_decoder_open(uz_member_decoder *md, const uz_archive_header *h, const uz_engine_settings *base,
                                 int workers, uz_diag *diag);
void uz_member_decoder_close(uz_member_decoder *md);

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
