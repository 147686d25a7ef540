/* Clock code (comment revision 4): the clocks of main-line comments ("[%clk 0:02:59.9]")
 * coded after the moves, one range-coded stream per block, so that the think time each
 * clock says is predicted from the game itself: the number of legal moves, a capture, a
 * recapture or a check, the move number, the time left, besides the side's rhythm and
 * the opponent's last spend. The writer codes them before the comment coder sees the
 * comments, which then hold the placeholder "[%clk]" where the clock was; the reader
 * rebuilds them once the game's moves are decoded, game after game in block order.
 * doc/format.md, "Clock code", is the spec. */
#ifndef UCIZIP_CLOCK_CODE_H
#define UCIZIP_CLOCK_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "block/bit_code.h"
#include "common/buf.h"
#include "common/common.h"
#include "pgn/game_walk.h"

typedef struct uz_clock_coder uz_clock_coder;

/* What a coder coded (or decoded): for reports, not part of the format. Costs are ideal
 * code lengths in 1/65536 bit. */
typedef struct uz_clock_counts {
    uint64_t comments;    /* main-line comments seen */
    uint64_t clocks;      /* of them coded as clocks */
    uint64_t cost_clocks; /* the clocks' values */
    uint64_t cost_flags;  /* whether each comment is a clock */
} uz_clock_counts;

/* A writer codes into a buffer of its own; a reader decodes data[0..size) (borrowed; size
 * 0: the block codes no clock, and every game decodes to what it holds), which holds
 * n_clocks clocks. */
uz_result uz_clock_writer_create(uz_clock_coder **out);
uz_result uz_clock_reader_create(uz_clock_coder **out, const uint8_t *data, size_t size, uint64_t n_clocks);
void uz_clock_coder_destroy(uz_clock_coder *c);

/* Writer: the clocks of the main-line comments of the walk's game (resolved, its moves
 * known). (*texts)[k], k over the game's main-line comments in order (*n_texts of them, or
 * *texts NULL for none yet), is NULL where the comment is as the game holds it, else
 * what it is now (malloc'd: the engine comment code's residual); each coded clock's entry
 * becomes the comment with the placeholder in its place (the array made when NULL).
 * Games without a tree (verbatim, text only) code nothing. */
uz_result uz_clock_encode_game(uz_clock_coder *c, const uz_walk *walk, char ***texts, size_t *n_texts);

/* Reader: the walk's game (its moves decoded, its comments as the structure stream gave
 * them) gets its main-line clocks back in place. UZ_ERR_CORRUPT on a bad stream. */
uz_result uz_clock_decode_game(uz_clock_coder *c, const uz_walk *walk);

/* Writer: appends the coded bytes to out (nothing when no clock was coded).
 * Reader: UZ_OK when the stream was consumed exactly and held its number of clocks, else
 * UZ_ERR_CORRUPT. */
uz_result uz_clock_coder_finish(uz_clock_coder *c, uz_buf *out);

uz_clock_counts uz_clock_coder_counts(const uz_clock_coder *c);

/* The models whose initial state is trained (block/clock_prior4.inc; *count of them, in
 * its indices' order): for tools/clock_bits.c, which writes that table. */
uz_bit_model *uz_clock_prior_models(uz_clock_coder *c, size_t *count);

#endif
