/* Coded tags (structure version 1): per tag name a model that turns most of its values
 * into one small number (a copy of another tag, the change of a rating or a date, an
 * index into the block's recent names) in the structure stream's tag_code section; a
 * value its model does not fit stays text in the values section. doc/format.md,
 * "Coded tags", is the specification. */
#ifndef UCIZIP_TAG_CODE_H
#define UCIZIP_TAG_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "block/game_struct.h"
#include "common/buf.h"
#include "common/limits.h"
#include "pgn/pgn.h"

/* Tag version 4: the most tags a byte of the tag_code section may hold (the block's budget of
 * tags, doc/format.md "Coded records": a range-coded code costs over 1/11,400 of a byte). */
#define UZ_TAG_CODES_PER_BYTE 16384

/* How a block's tags are coded: its distinct names and what its structure version allows. */
typedef struct uz_tag_coding {
    const char *const *names; /* the block's distinct names, n_names of them */
    size_t n_names;
    /* Writing: whether models may code the values (false: every value is text). */
    bool coded;
    /* Structure version 3 on: the model that derives a value from the moves is allowed (the FEN of
     * the main line's final position, chess.com's CurrentPosition). */
    bool from_moves;
    /* Header key 16: 1 the models 0-11, 2 also the models of names and numbers across
     * tags (12-14) and the recent lists started from the frozen priors (tag_prior.h), 3 also
     * the models of values derived from the moves (15-17: the opening, a text's moves). */
    unsigned tag_version;
    /* Reading: the block's budget of decoded tag bytes (uz_tag_names_budget), each value's length
     * taken from it; a value that passes it is corrupt (NULL: no budget). */
    uint64_t *bytes_left;
} uz_tag_coding;

/* What a tag counts against its block's budget of decoded tags, UZ_LIMIT_BLOCK_STRUCT: its name,
 * its value and 12 bytes, as uz_block_fit counts them, so that no block a writer makes passes
 * it. A reader holds every block to it: a name or a recent value is stored once however many
 * tags repeat it, and a few bytes must not make a decoder copy it a million times. */
static inline uint64_t uz_tag_bytes(size_t name_len, size_t value_len) { return 12 + (uint64_t)name_len + value_len; }

/* Reading: the budget left for a block's tag values once its tags' names are counted
 * (tag_names[i][0..n_tags[i]) index names); UZ_ERR_CORRUPT when the names alone pass it. */
uz_result uz_tag_names_budget(const char *const *names, size_t n_names, uint32_t *const *tag_names,
                              const size_t *n_tags, size_t n, uint64_t *left);

/* Writes the tags of a block's games (their records: a final position comes from the
 * game's walk): the tag_code section to code, the text values,
 * column by column in names order, to values. tag_names holds the name index (into
 * tc->names) of every tag of every game with a tree (verbatim and text-only games have
 * none), in game order. Without tc->coded, or when no model pays, every value is text and
 * the tag_code section is empty. */
uz_result uz_tag_code_write(uz_buf *code, uz_buf *values, const uz_tag_coding *tc, const uz_block_out_game *games,
                            size_t n, const uint32_t *tag_names);

/* Reads them back: tag_names[i][0..n_tags[i]) are game i's name indexes from its record;
 * each game's main line must already be read (PlyCount is its length). The two cursors
 * must be consumed exactly. UZ_ERR_CORRUPT on any inconsistency. A value derived from the
 * moves is left unknown (empty, or the text before its moves), its tag in game->derived. */
uz_result uz_tag_code_read(uz_cursor *code, uz_cursor *values, const uz_tag_coding *tc, uz_block_game *games, size_t n,
                           uint32_t *const *tag_names, const size_t *n_tags);

/* Whether a tag of the walk's game holds the FEN of its main line's final position, taken
 * from the walk (resolved; for the choice of a member's structure version: structure version 3 derives it from
 * the moves). */
bool uz_tag_code_final_wanted(const uz_walk *walk);

/* Once the moves of the walk's game are decoded (the walk resolved with them, its final
 * position known: the move decoder's, uz_decode_games): sets the values of the game's
 * derived tags (game->derived: a final position's FEN, the opening's ECO code or name, a
 * text's moves) from the walk, and empties the list. UZ_ERR_CORRUPT when the moves do not
 * give one (no final position, no opening, fewer moves). */
uz_result uz_tag_code_fill_derived(const uz_walk *walk);

#endif
