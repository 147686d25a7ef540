/* Internal: version 1 of the built-in search (frozen; doc/builtin.md, "builtin-1").
 * Search in builtin1_search.c, evaluation in builtin1_eval.c, capture generation in
 * builtin1_moves.c. Nothing here may change once released: a change is a new version. */
#ifndef UCIZIP_BUILTIN1_H
#define UCIZIP_BUILTIN1_H

#include <stdint.h>

#include "chess/board.h"

#define B1_MIN_DEPTH 1
#define B1_MAX_DEPTH 3
#define B1_DEFAULT_DEPTH 1
/* FNV-1a 64 of the constants (uz__b1_hash_constants from UZ__FNV_START), in hex. */
#define B1_FINGERPRINT "afb4ec3c92ee51dd"

/* Internal score scale: centipawns; mate found at ply p scores B1_MATE - p. */
#define B1_MATE 30000
#define B1_INF 31000
#define B1_MATE_BOUND (B1_MATE - 256) /* |score| >= this is a mate score */
#define B1_EVAL_MAX 20000             /* the evaluation is clamped to +-this */
#define B1_MAX_PLY 32                 /* no node deeper than this is expanded */

static inline int b1_lsb(uint64_t b) { return __builtin_ctzll(b); }
static inline int b1_popcount(uint64_t b) { return __builtin_popcountll(b); }

/* Piece-square values with material included, white's view ([type][square]; black
 * reads square ^ 56), middlegame and endgame (builtin1_tables.c). */
extern const int16_t uz__b1_pst_mg[7][64];
extern const int16_t uz__b1_pst_eg[7][64];

typedef struct b1_searcher b1_searcher;

b1_searcher *uz__b1_create(int depth);
void uz__b1_destroy(b1_searcher *s);
void uz__b1_score_moves(b1_searcher *s, const uz_position *pos, const uz_move *moves, int n, int32_t *scores);
uint64_t uz__b1_last_nodes(const b1_searcher *s);

/* The static evaluation of pos from the side to move's view, in +-B1_EVAL_MAX. */
int uz__b1_evaluate(const uz_position *pos);

/* Pseudo-legal captures (en passant included) and queen promotions (captures or not)
 * of the side to move, into moves (capacity UZ_MAX_MOVES); returns the count. The
 * caller tests legality after making the move. */
int uz__b1_generate_captures(const uz_position *pos, uz_move *moves);

/* FNV-1a 64 of text, continuing from hash (start: UZ__FNV_START). */
#define UZ__FNV_START 0xcbf29ce484222325ULL
uint64_t uz__b1_fnv(uint64_t hash, const char *text);
/* Feeds every constant of version 1's evaluation (tables and parameters, as decimal
 * text) into hash; uz__b1_hash_constants adds the search's rules and limits: the input
 * of the version's fingerprint. */
uint64_t uz__b1_hash_eval(uint64_t hash);
uint64_t uz__b1_hash_constants(uint64_t hash);

#endif
