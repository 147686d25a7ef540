/* Move-probability model: engine scores of the legal moves -> integer symbol frequencies.
 * The coded path is integer-only and bit-identical on every machine; the analysis
 * helpers at the end (costs, fitting) use doubles and never feed the coder. */
#ifndef UCIZIP_MODEL_H
#define UCIZIP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ucizip/common.h"

/* Engine scores are int32 centipawns from the mover's point of view. Mate in N
 * (N >= 1) is UZ_SCORE_MATE - N; being mated in N (N >= 0) is -UZ_SCORE_MATE + N.
 * Any |score| > UZ_SCORE_MATE_BOUND is a mate score. */
#ifndef UZ_SCORE_MATE
#define UZ_SCORE_MATE 100000
#endif
#define UZ_SCORE_MATE_BOUND 50000

/* Most symbols (legal moves) one position may have. */
#define UZ_MODEL_MAX_MOVES 256
/* Every frequency vector sums to this (fits the range coder's 16-bit precision). */
#define UZ_MODEL_TOTAL 65536u

/* Score normalisation: centipawns are clamped to +-UZ_MODEL_CP_CLAMP; mate in N maps
 * to +-(UZ_MODEL_MATE_BASE - min(N, UZ_MODEL_MATE_CAP)), beyond every cp value. */
#define UZ_MODEL_CP_CLAMP 1000
#define UZ_MODEL_MATE_BASE 1100
#define UZ_MODEL_MATE_CAP 50
/* Largest distance v_max - v_i between two normalised scores. */
#define UZ_MODEL_MAX_DIFF (2 * UZ_MODEL_MATE_BASE)

/* Limits and defaults of the parameters (see uz_model_params). */
#define UZ_MODEL_K_MILLI_MIN 1000u          /* k = 1: uniform */
#define UZ_MODEL_K_MILLI_MAX 1000000000u
#define UZ_MODEL_FLOOR_ONE 65536u           /* floor_q16 of epsilon = 1 */
#define UZ_MODEL_DEFAULT_K_MILLI 80000u     /* k = 80 per pawn */
#define UZ_MODEL_DEFAULT_FLOOR_Q16 3277u    /* epsilon ~ 0.05 */

typedef enum uz_model_kind {
    UZ_MODEL_EXP = 1 /* p_i proportional to k^(v_i - v_max), v in pawns, plus a uniform floor */
} uz_model_kind;

typedef struct uz_model_params {
    uz_model_kind kind;
    uint32_t k_milli;   /* k x 1000, in [UZ_MODEL_K_MILLI_MIN, UZ_MODEL_K_MILLI_MAX] */
    uint32_t floor_q16; /* uniform floor epsilon x 65536, in [0, UZ_MODEL_FLOOR_ONE] */
} uz_model_params;

/* A ready model: parameters plus the precomputed weight table. A plain value; the
 * fields are read-only for callers. weight[d] = k^(-d/100) in Q31 (weight[0] = 2^31),
 * non-increasing in d, 0 once below 2^-31. */
typedef struct uz_model {
    uz_model_params params;
    uint32_t weight[UZ_MODEL_MAX_DIFF + 1];
} uz_model;

/* The default parameters (UZ_MODEL_EXP, UZ_MODEL_DEFAULT_K_MILLI, UZ_MODEL_DEFAULT_FLOOR_Q16). */
uz_model_params uz_model_default_params(void);

/* Fills m from params. Returns UZ_OK, or UZ_ERR_ARG for NULL pointers, an unknown kind or
 * a parameter out of range (m is then left unusable). Takes ~0.1 ms; m owns no memory. */
uz_result uz_model_init(uz_model *m, const uz_model_params *params);

/* The model's view of one score: clamped centipawns or a mate score mapped beyond them,
 * always in [-UZ_MODEL_MATE_BASE, UZ_MODEL_MATE_BASE]. */
int32_t uz_model_normalize_score(int32_t score);

/* Frequencies of the n legal moves (n in 1..UZ_MODEL_MAX_MOVES) from their scores:
 * freq[i] >= 1, sum = UZ_MODEL_TOTAL, non-decreasing in the score. freq has n entries
 * (caller-owned). Returns the total (UZ_MODEL_TOTAL), or 0 for invalid arguments.
 * Integer-only; the exact bits are part of the archive format. */
uint32_t uz_model_frequencies(const uz_model *m, const int32_t *scores, int n, uint32_t *freq);

/* Rank (1 = the model's first choice) of move `played` among n moves: moves are ordered by
 * frequency, then (for frequencies tied at the floor) by normalised score, then by lower
 * index. Returns 1..n, or 0 for invalid arguments. */
int uz_model_rank(const uz_model *m, const int32_t *scores, int n, int played);

/* ---- Analysis helpers (doubles; never used on the coded path) ---- */

/* Ideal cost -log2(freq / total) in bits of a symbol; computed from the integer log2, so
 * it is the same on every machine. Returns -1 if freq == 0 or freq > total. */
double uz_cost_bits(uint32_t freq, uint32_t total);

/* One position for fitting: the scores of its n legal moves and the index of the move played.
 * scores is borrowed (not owned). */
typedef struct uz_fit_sample {
    const int32_t *scores;
    int n;
    int played;
} uz_fit_sample;

/* Sum of the ideal costs (bits) of the played moves of count samples under m, using the
 * exact integer frequencies. Returns -1 if a sample is invalid. */
double uz_model_total_cost(const uz_model *m, const uz_fit_sample *samples, size_t count);

/* Finds the parameters minimising uz_model_total_cost: a golden-section search over k in
 * [1.5, 200] on a log scale and, if fit_floor, alternately over epsilon in
 * [2^-16, 0.5] on a log scale (otherwise start->floor_q16 is kept). start gives the kind
 * and the initial epsilon. On UZ_OK *best holds the result and *best_bits (optional) its
 * total cost. Returns UZ_ERR_ARG for NULL pointers, no samples or an invalid sample. */
uz_result uz_model_fit(const uz_fit_sample *samples, size_t count, const uz_model_params *start,
                       bool fit_floor, uz_model_params *best, double *best_bits);

#endif
