/* Internal: version 3 of the built-in search (frozen; doc/builtin.md, "builtin-3").
 * builtin-2's search (v2_search.c) with another full evaluation: the average of
 * builtin-1's hand-written evaluation (scaled by 25/32) and a small learned network,
 * 768 inputs -> B3_HIDDEN units clipped to [0, 127] -> 1 output (v3_eval.c, which holds
 * its root too). The network's integer weights are data
 * (data/eval_net/builtin3-768x512.txt, compiled into v3_network.c at build time by
 * scripts/eval_net_c.py); their FNV-1a 64 is frozen below and is part of the fingerprint.
 * Its scores never change once released: a change is a new version. */
#ifndef UCIZIP_BUILTIN_V3_EVAL_H
#define UCIZIP_BUILTIN_V3_EVAL_H

#include <stdint.h>

#include "chess/board.h"
#include "v1_eval.h"

#define B3_MIN_DEPTH 1
#define B3_MAX_DEPTH 3
#define B3_DEFAULT_DEPTH 1
/* FNV-1a 64 of the constants (uz__b3_hash_constants from UZ__FNV_START), in hex. */
#define B3_FINGERPRINT "741ba338e1addcf6"

/* The network: inputs are (piece kind, square) pairs seen from the side to move (kind 0-5
 * its pawn to king, 6-11 the opponent's; the square mirrored top to bottom when black is
 * to move), row kind * 64 + square of uz__b3_w1. */
#define B3_INPUTS 768
#define B3_HIDDEN 512
#define B3_QA 127 /* a hidden unit's activation is its sum clipped to [0, B3_QA] */
#define B3_QB 64  /* the output is sum / (B3_QA * B3_QB) centipawns */
/* FNV-1a 64 of the bytes of data/eval_net/builtin3-768x512.txt: the build checks it. */
#define B3_NETWORK_FNV 0x4cc5d5487db470d6ULL

extern const int16_t uz__b3_w1[B3_INPUTS][B3_HIDDEN];
extern const int16_t uz__b3_b1[B3_HIDDEN];
extern const int16_t uz__b3_w2[B3_HIDDEN];
extern const int32_t uz__b3_b2;

typedef struct b_search b_search;

/* builtin-3's scratch in a searcher: created with it, NULL when out of memory. */
struct b3_network_state *uz__b3_network_create(void);
void uz__b3_network_destroy(struct b3_network_state *n);

void uz__b3_score_moves(b_search *s, const uz_position *pos, const uz_move *moves, int n, int32_t *scores);
/* The network's output for pos, side to move's view, in +-B_EVAL_MAX, computed from
 * scratch: the reference the incremental evaluation is tested against. */
int uz__b3_network_evaluate(const uz_position *pos);
/* The incremental evaluation: n keeps a reference position's sums (the root's, set at
 * the start of each uz__b3_score_moves), and pos's output is computed from them. */
void uz__b3_network_set_reference(struct b3_network_state *n, const uz_position *reference);
int uz__b3_network_from_reference(struct b3_network_state *n, const uz_position *pos);
/* The input of the version's fingerprint: builtin-2's (its search rules and builtin-1's
 * evaluation constants), then the evaluation's rule and the network's hash. */
uint64_t uz__b3_hash_constants(uint64_t hash);

#endif
