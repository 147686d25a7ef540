/* Coded comments (structure version 1): clocks ("[%clk 0:03:00]") and cutechess engine
 * comments ("+0.10/8 0.30s", "book") are range-coded with adaptive binary models into
 * the structure stream's comment-code section; what is left of such a comment (the text
 * around the clock, with the placeholder "[%clk]" where it was; the text after an engine
 * comment's time) stays in the comments section. Every comment codes its kind first;
 * plain text comments code nothing else. A comment is coded only when the decoder's
 * print rules give back its exact bytes. doc/format.md, "Coded comments", is the spec. */
#ifndef UCIZIP_COMMENT_CODE_H
#define UCIZIP_COMMENT_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "block/bit_code.h"
#include "common/buf.h"
#include "common/common.h"
#include "pgn/pgn.h"

/* Whose comment: a comment after a move belongs to the side that made it (in a variation
 * too); comments before a line's first move and after the game to a third slot. */
enum { UZ_CC_WHITE = 0, UZ_CC_BLACK = 1, UZ_CC_OTHER = 2 };

typedef struct uz_comment_coder uz_comment_coder;

/* Counts of what a coder has coded (or decoded) so far. */
typedef struct uz_comment_counts {
    uint64_t comments; /* all comments, text ones included */
    uint64_t clocks;
    uint64_t engine;   /* engine comments, "book" included */
    /* What the coded bits cost, in 1/65536 bit (ideal code lengths), by kind: for
     * reports of where the bytes go, not part of the format. */
    uint64_t cost_clocks, cost_engine, cost_text;
} uz_comment_counts;

/* The models' revision of a block: the member header's comment_revision (key 17) when it
 * has one (from 1 to UZ_COMMENT_REVISION, archive/archive.h), else its structure version's: 2 from
 * structure version 3, else 1. Revision 3 is revision 2 with clocks coded by a model of think time. */
static inline unsigned uz_comment_revision(unsigned struct_version, unsigned key)
{
    return key ? key : struct_version >= 3 ? 2 : 1;
}

/* Whether a main-line comment of game starts like an engine comment ("+0.10/8 0.30s")
 * that a coder would try to code: for the choice of a member's structure version (structure version 3 codes
 * them with the models of revision 2; clocks code the same in every revision). */
bool uz_comment_engine_wanted(const uz_game *game);

/* Whether a main-line comment of game holds a clock ("[%clk 0:03:00]"): for the choice of
 * a member's comment revision (header key 17: revision 3 codes clocks smaller). */
bool uz_comment_clock_wanted(const uz_game *game);

/* A writer codes into a buffer of its own; a reader decodes data[0..size) (borrowed). */
uz_result uz_comment_writer_create(uz_comment_coder **out, unsigned revision);
uz_result uz_comment_reader_create(uz_comment_coder **out, unsigned revision, const uint8_t *data, size_t size);
void uz_comment_coder_destroy(uz_comment_coder *c);

/* Starts a game: the per-game state is reset and its TimeControl tag read. */
void uz_comment_coder_begin_game(uz_comment_coder *c, const uz_game *game);

/* index: the comment's place among the comments of its move (or list).
 * Writer: codes the comment's kind and fields; *residual (len bytes, owned by the coder,
 * valid until the next call) is the text for the comments section. */
uz_result uz_comment_encode(uz_comment_coder *c, int slot, size_t index, const char *text, const char **residual,
                            size_t *len);

/* Reader: decodes the next kind and fields; given the residual read from the comments
 * section, *text is the comment (owned by the coder, valid until the next call), or NULL
 * when the comment is plain text (the residual itself). UZ_ERR_CORRUPT on a bad stream. */
uz_result uz_comment_decode(uz_comment_coder *c, int slot, size_t index, const char *residual, size_t len,
                            const char **text, size_t *text_len);

/* Writer: appends the coded bytes to out (nothing when no comment was coded).
 * Reader: UZ_OK when the stream was consumed exactly, else UZ_ERR_CORRUPT. */
uz_result uz_comment_coder_finish(uz_comment_coder *c, uz_buf *out);

uz_comment_counts uz_comment_coder_counts(const uz_comment_coder *c);

/* Revision 3's clock models as they are now (*count of them, in the order of
 * block/clock_prior.inc's indices): for tools/clock_bits.c, which trains that table from
 * models set back to p = 1/2, n = 0. */
uz_bit_model *uz_comment_clock_models(uz_comment_coder *c, size_t *count);

#endif
