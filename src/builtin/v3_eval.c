/* builtin-3: the evaluation and the root. The full evaluation is
 *     (builtin-1's evaluation * 25 / 32 + network) / 2     (C division, toward zero)
 * where the network is 768 -> 512 -> 1 (v3_eval.h): each hidden unit sums its bias and
 * the rows of the (piece kind, square) pairs on the board, seen from the side to move,
 * and is clipped to [0, 127]; the output is (b2 + sum of clipped unit * w2) / (127 * 64),
 * clamped to +-B_EVAL_MAX. Every sum is exact (scripts/eval_net_c.py checks the bounds
 * on the weights: a hidden sum of the bias and up to 64 rows fits int16, the output int32),
 * so neither the order of the additions nor the width of the SIMD lanes the compiler
 * picks can change a result.
 *
 * That is what makes the incremental evaluation safe: the searcher keeps the root's sums
 * for both views and evaluates a position by correcting them on the squares where it
 * differs from the root (2 to 4 at depth 1), instead of summing 30-odd rows. The search
 * is builtin-2's (v2_search.c). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_node.h"
#include "v2_search.h"
#include "v3_eval.h"

_Static_assert(B3_MAX_DEPTH <= B_MAX_DEPTH, "b_node_budget covers builtin-3's depths");

_Static_assert(B3_MAX_DEPTH <= B2_MAX_DEPTH, "builtin-3 runs builtin-2's search");

/* x86-64: a copy for AVX2 machines beside the baseline one, picked at load time. Both
 * compute the same exact sums, so the choice never changes a result. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define MULTI_TARGET __attribute__((target_clones("avx2", "default")))
#else
#define MULTI_TARGET
#endif

struct b3_network_state {
    uint8_t squares[64];                  /* the reference position: the root's board */
    int16_t accumulator[2][B3_HIDDEN];    /* its hidden sums, white to move's view and black's */
    bool ready[2];                        /* whether accumulator[view] is computed (on first use:
                                             at depth 1 every position evaluated has the
                                             root's opponent to move) */
};

static inline const int16_t *network_row(int piece, int sq, int view)
{
    int kind = UZ_PIECE_TYPE(piece) - 1 + (UZ_PIECE_COLOR(piece) != view ? 6 : 0);
    return uz__b3_w1[kind * 64 + (sq ^ (view ? 56 : 0))];
}

static inline void add_row(int16_t *restrict sums, const int16_t *restrict row, int count)
{
    for (int j = 0; j < count; j++)
        sums[j] = (int16_t)(sums[j] + row[j]);
}

static inline void subtract_row(int16_t *restrict sums, const int16_t *restrict row, int count)
{
    for (int j = 0; j < count; j++)
        sums[j] = (int16_t)(sums[j] - row[j]);
}

MULTI_TARGET static void sums_from_scratch(const uint8_t *squares, int view, int16_t *sums)
{
    memcpy(sums, uz__b3_b1, sizeof uz__b3_b1);
    for (int sq = 0; sq < 64; sq++)
        if (squares[sq])
            add_row(sums, network_row(squares[sq], sq, view), B3_HIDDEN);
}

/* The network's output in centipawns, clamped, from its output sum (bias included). */
static int output_of(int32_t out)
{
    int v = out / (B3_QA * B3_QB);
    return v > B_EVAL_MAX ? B_EVAL_MAX : v < -B_EVAL_MAX ? -B_EVAL_MAX : v;
}

/* The dot product of a block of clipped hidden sums with their output weights: int16
 * products summed in int32 (a multiply-add instruction). */
static inline int32_t clipped_dot(const int16_t *sums, const int16_t *w2, int count)
{
    int32_t out = 0;
    for (int j = 0; j < count; j++) {
        int16_t unit = sums[j] < 0 ? 0 : sums[j] > B3_QA ? B3_QA : sums[j];
        out += unit * w2[j];
    }
    return out;
}

int uz__b3_network_evaluate(const uz_position *pos)
{
    int16_t sums[B3_HIDDEN];
    sums_from_scratch(pos->squares, pos->side, sums);
    return output_of(uz__b3_b2 + clipped_dot(sums, uz__b3_w2, B3_HIDDEN));
}

/* Hidden units are corrected and used a block at a time, so the block stays in registers
 * and every array is read once. */
#define BLOCK 64
_Static_assert(B3_HIDDEN % BLOCK == 0, "whole blocks");

MULTI_TARGET int uz__b3_network_from_reference(struct b3_network_state *n, const uz_position *pos)
{
    int view = pos->side;
    if (!n->ready[view]) {
        sums_from_scratch(n->squares, view, n->accumulator[view]);
        n->ready[view] = true;
    }
    /* The rows to take off (the reference's pieces where the board differs) and to put on. */
    const int16_t *off[64], *on[64];
    int n_off = 0, n_on = 0;
    for (int word = 0; word < 8; word++) {
        uint64_t was, is;
        memcpy(&was, n->squares + 8 * word, 8);
        memcpy(&is, pos->squares + 8 * word, 8);
        if (was == is)
            continue;
        for (int sq = 8 * word; sq < 8 * word + 8; sq++) {
            int before = n->squares[sq], after = pos->squares[sq];
            if (before == after)
                continue;
            if (before)
                off[n_off++] = network_row(before, sq, view);
            if (after)
                on[n_on++] = network_row(after, sq, view);
        }
    }
    int32_t out = uz__b3_b2;
    for (int j0 = 0; j0 < B3_HIDDEN; j0 += BLOCK) {
        int16_t block[BLOCK];
        memcpy(block, n->accumulator[view] + j0, sizeof block);
        for (int k = 0; k < n_off; k++)
            subtract_row(block, off[k] + j0, BLOCK);
        for (int k = 0; k < n_on; k++)
            add_row(block, on[k] + j0, BLOCK);
        out += clipped_dot(block, uz__b3_w2 + j0, BLOCK);
    }
    return output_of(out);
}

struct b3_network_state *uz__b3_network_create(void)
{
    return calloc(1, sizeof(struct b3_network_state));
}

void uz__b3_network_destroy(struct b3_network_state *n)
{
    free(n);
}

static int evaluate(b_search *s, const uz_position *pos, const b1_material *mat)
{
    int hand_written = uz__b1_evaluate_cached(pos, mat, s->pawn_cache);
    return (hand_written * 25 / 32 + uz__b3_network_from_reference(s->network, pos)) / 2;
}

void uz__b3_network_set_reference(struct b3_network_state *n, const uz_position *reference)
{
    memcpy(n->squares, reference->squares, sizeof n->squares);
    n->ready[0] = n->ready[1] = false;
}

void uz__b3_score_moves(b_search *s, const uz_position *root, const uz_move *moves, int n, int32_t *scores)
{
    uz__b3_network_set_reference(s->network, root);
    uz__b2_search_root(s, evaluate, root, moves, n, scores);
}

uint64_t uz__b3_hash_constants(uint64_t hash)
{
    hash = uz__b2_hash_constants(hash);
    char text[256];
    snprintf(text, sizeof text,
             "builtin-3 evaluation 1: (builtin-1 * 25 / 32 + network) / 2; network %d-%d-1, qa %d, qb %d, weights fnv "
             "%016llx\n",
             B3_INPUTS, B3_HIDDEN, B3_QA, B3_QB, (unsigned long long)B3_NETWORK_FNV);
    return uz__b1_fnv(hash, text);
}
