/* Internal: version 1 of the built-in search (frozen; doc/builtin.md, "builtin-1"). Its
 * quiescence search and root are v1_search.c; the full-width node, table, ordering and
 * attack test are shared with builtin-2 (search_node.h, search_node.c); the evaluation,
 * tables and capture generator are v1_eval.h's. Its scores never change once released:
 * a change is a new version. */
#ifndef UCIZIP_BUILTIN_V1_SEARCH_H
#define UCIZIP_BUILTIN_V1_SEARCH_H

#include <stdint.h>

#include "chess/board.h"

#define B1_MIN_DEPTH 1
#define B1_MAX_DEPTH 3
#define B1_DEFAULT_DEPTH 1
/* FNV-1a 64 of the constants (uz__b1_hash_constants from UZ__FNV_START), in hex. */
#define B1_FINGERPRINT "6f1b5db48e1dc5c7"

/* A searcher (search_node.h: its state, shared by every version). */
typedef struct b_search b_search;

void uz__b1_score_moves(b_search *s, const uz_position *pos, const uz_move *moves, int n, int32_t *scores);
/* The input of the version's fingerprint: its search rules and limits, then builtin-1's
 * evaluation constants (uz__b1_hash_eval). */
uint64_t uz__b1_hash_constants(uint64_t hash);

#endif
