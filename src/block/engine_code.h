/* Coded engine comments that depend on the position (structure version 2): TCEC-style
 * comments after a main-line move ("d=18, sd=44, pd=Ke5, mt=2084, tl=6853, ..., pv=Kc1
 * Kf5 ..., mb=+0+0+0+0+0,") keep their text with the values of the known fields taken
 * out; the values are range-coded per game, numbers against the side's previous ones,
 * the principal variation move by move against the game's moves and the previous
 * variations, the material balance and the fifty-move count from the position. The
 * decoder needs the game's main-line moves, so it runs after the moves are decoded (the
 * structure stream alone still gives tags and the other comments). doc/format.md,
 * "Engine comment code", is the spec. */
#ifndef UCIZIP_ENGINE_CODE_H
#define UCIZIP_ENGINE_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/common.h"
#include "pgn/game_walk.h"
#include "pgn/pgn.h"

/* What one coder coded (or decoded): for reports, not part of the format. Costs are
 * ideal code lengths in 1/65536 bit. */
#define UZ_ENGINE_KEYS 17 /* the keys whose values are coded (uz_engine_code_key) */
typedef struct uz_engine_code_counts {
    uint64_t comments;   /* main-line comments seen */
    uint64_t coded;      /* of them coded */
    uint64_t pv_moves;   /* moves of coded principal variations */
    uint64_t cost_pv, cost_fields, cost_flags;
    uint64_t cost_pv_stop, cost_pv_hit, cost_pv_rank; /* of cost_pv: stop bits, candidates' bits, ranks */
    uint64_t pv_ranked;  /* pv moves coded by their rank (no candidate was the move) */
    uint64_t cost_key[UZ_ENGINE_KEYS]; /* by key: its literal flag and its value (pv: with its moves) */
    uint64_t n_key[UZ_ENGINE_KEYS];    /* fields of the key coded (literal or not) */
} uz_engine_code_counts;

/* The name of key k (0 <= k < UZ_ENGINE_KEYS) as the comments spell it ("d", "sd", ...). */
const char *uz_engine_code_key(int k);

/* Revisions of the code (header key 18; doc/format.md, "Engine comment code"): 1 (the key
 * absent, 0) or 2 (UZ_ENGINE_REVISION: better predicted numbers). */
static inline unsigned uz_engine_revision(unsigned key) { return key ? key : 1; }

/* Writer: the main-line comments of the walk's game that can be coded, in revision
 * uz_engine_revision(revision), its positions taken
 * from the walk (resolved, its moves known). residuals gets one entry per
 * main-line node comment (in order): NULL where the comment stays as it is, else the
 * comment's residual (malloc'd; free each with free, and the array). The game's coded
 * bytes are appended to out: nothing when no comment is coded. counts (optional) adds up. */
uz_result uz_engine_code_encode(const uz_walk *walk, unsigned revision, uz_buf *out, char ***residuals,
                                size_t *n_residuals, uz_engine_code_counts *counts);

/* Whether a main-line comment of the game names a key of the code (a cheap look: the
 * writer decides per comment); a writer uses structure version 2 for a member only then. */
bool uz_engine_code_wanted(const uz_game *game);

/* Reader: the main-line comments of the walk's game are residuals; its positions are
 * taken from the walk (resolved, its moves known: the move decoder's, uz_decode_games);
 * revision as the writer's; data[0..size) its coded bytes (size 0: nothing to do). The coded comments are rebuilt in
 * place.
 * UZ_ERR_CORRUPT when the bytes do not decode or are not consumed exactly. */
uz_result uz_engine_code_decode(const uz_walk *walk, unsigned revision, const uint8_t *data, size_t size,
                                uz_engine_code_counts *counts);

#endif
