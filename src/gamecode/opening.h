/* Opening counts: the moves played from the same position at the same main-line ply by
 * the earlier games of a block, mixed into the model's frequencies (doc/format.md,
 * "Opening counts"). Game k at ply p sees games 0..k-1 at ply p only, so the encoder and
 * the decoder (which advances a block's games in lockstep by ply) agree whatever order
 * they work in. */
#ifndef UCIZIP_OPENING_H
#define UCIZIP_OPENING_H

#include "gamecode/gamecode.h"

/* Parameter limits (header key 14): alpha in 1/16 units, the plies counted. */
#define UZ_OPENING_ALPHA16_MAX 65536u
#define UZ_OPENING_PLIES_MAX 1024u
/* A count stops there (a block holds at most 65536 games anyway). */
#define UZ_OPENING_COUNT_MAX 65536u

typedef struct uz_opening uz_opening; /* (struct uz_opening of gamecode.h) */

/* A table for the counts of params (alpha16, plies both > 0), empty; NULL when out of
 * memory. */
uz_opening *uz_opening_new(uint32_t alpha16, uint32_t plies);
void uz_opening_free(uz_opening *o);
/* Empties the table (a new block). */
void uz_opening_reset(uz_opening *o);
uint32_t uz_opening_plies(const uz_opening *o);

/* The main-line ply (node index) of step s, or -1 if s is not a counted step: a main-line
 * move of a standard-chess game at a ply below the limit, from a position with two or
 * more legal moves. */
long uz_opening_ply(const uz_opening *o, const uz_walk *w, size_t s);

/* Mixes the counts of step s (resolved; counted or not: unchanged if not, or if no
 * earlier game played from its position at that ply) into freq[0..n), whose sum is
 * total (at most UZ_MODEL_TOTAL). The sum stays total, every frequency >= 1. o may be
 * NULL (no counts). */
void uz_opening_mix(const uz_opening *o, const uz_walk *w, size_t s, uint32_t *freq, int n, uint32_t total);

/* Counts the played move of step s (no-op for a step that is not counted). UZ_OK or
 * UZ_ERR_NOMEM. */
uz_result uz_opening_add(uz_opening *o, const uz_walk *w, size_t s);

/* Counts every counted step of w (a game coded or decoded entirely). */
uz_result uz_opening_add_walk(uz_opening *o, const uz_walk *w);

#endif
