/* Internal: version 2 of the built-in search (frozen; doc/builtin.md, "builtin-2"), the
 * search builtin-3 runs too. Its own quiescence search and root (v2_search.c) over
 * builtin-1's evaluation, capture generator and attack tables (v1_eval.h), which are
 * frozen with builtin-1 and so never change under it either, and the search every version
 * shares (search_node.h). Its scores never change once released: a change is a new
 * version. */
#ifndef UCIZIP_BUILTIN_V2_SEARCH_H
#define UCIZIP_BUILTIN_V2_SEARCH_H

#include <stdint.h>

#include "chess/board.h"
#include "v1_eval.h"

#define B2_MIN_DEPTH 1
#define B2_MAX_DEPTH 3
#define B2_DEFAULT_DEPTH 1
/* FNV-1a 64 of the constants (uz__b2_hash_constants from UZ__FNV_START), in hex. */
#define B2_FINGERPRINT "ac3d75e5d8a48ea2"

/* A searcher (search_node.h: its state, shared by every version). */
typedef struct b_search b_search;

void uz__b2_score_moves(b_search *s, const uz_position *pos, const uz_move *moves, int n, int32_t *scores);
/* The full evaluation a search calls at the first node of each quiescence line (pos with
 * its material sums mat), side to move's view, in +-B_EVAL_MAX. */
typedef int (*b_evaluate_fn)(b_search *s, const uz_position *pos, const b1_material *mat);
/* builtin-2's search with evaluate as its full evaluation: builtin-2 is it with
 * builtin-1's evaluation, builtin-3 with its own. */
void uz__b2_search_root(b_search *s, b_evaluate_fn evaluate, const uz_position *pos, const uz_move *moves, int n,
                        int32_t *scores);
/* The input of the version's fingerprint: its search rules and limits, then builtin-1's
 * evaluation constants. */
uint64_t uz__b2_hash_constants(uint64_t hash);

#endif
