/* The move model, the one interface every coder and report asks: a position's legal moves
 * with their engine scores and what the game says before the move (the context) ->
 * integer symbol frequencies. Its kinds are its implementations: exp and rank (the scores
 * only, move_model.c) and the learned player model (player_model.h). The coded path is
 * integer-only and bit-identical on every machine; the analysis helpers at the end (costs,
 * fitting) use doubles and never feed the coder. */
#ifndef UCIZIP_MOVE_MODEL_H
#define UCIZIP_MOVE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/board.h"
#include "common/common.h"
#include "model/player_model.h"
#include "oracle/oracle.h"

/* Scores are the oracles' (oracle/oracle.h): int32 centipawns from the mover's point of
 * view, mate in N (N >= 1) UZ_SCORE_MATE - N, being mated in N (N >= 0) -UZ_SCORE_MATE + N.
 * Any |score| > UZ_SCORE_MATE_BOUND is a mate score. */
#define UZ_SCORE_MATE_BOUND UZ_SCORE_CP_MAX /* beyond every centipawn score */

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
/* Defaults fitted on development games at depth 1 (see the README): */
#define UZ_MODEL_DEFAULT_K_MILLI 20000u     /* k = 20 per pawn */
#define UZ_MODEL_DEFAULT_FLOOR_Q16 1966u    /* epsilon ~ 0.03 */
#define UZ_MODEL_DEFAULT_RANK_Q16 34734u    /* beta ~ 0.53 */
#define UZ_MODEL_DEFAULT_DECAY_Q16 39322u   /* rho ~ 0.6 */

typedef enum uz_model_kind {
    UZ_MODEL_EXP = 1,  /* p_i proportional to k^(v_i - v_max), v in pawns, plus a uniform floor */
    UZ_MODEL_RANK = 2, /* UZ_MODEL_EXP mixed with a distribution over the engine's ranking:
                          p_i = eps/n + (1 - eps) * (beta * rho^rank_i / sum_j rho^j
                                                     + (1 - beta) * exp_i) */
    UZ_MODEL_PLAYER = 3, /* the learned player model (player_model.h): features of each move
                            (not only its score) and trained weights, identified by their
                            version and hash (attached by uz_model_open) */
} uz_model_kind;

typedef struct uz_model_params {
    uz_model_kind kind;
    uint32_t k_milli;   /* k x 1000, in [UZ_MODEL_K_MILLI_MIN, UZ_MODEL_K_MILLI_MAX] */
    uint32_t floor_q16; /* uniform floor epsilon x 65536, in [0, UZ_MODEL_FLOOR_ONE] */
    uint32_t rank_q16;  /* UZ_MODEL_RANK: beta x 65536, the ranking's share, in [0, 65536] */
    uint32_t decay_q16; /* UZ_MODEL_RANK: rho x 65536, in [1, 65535]: each rank down is rho
                           times as likely as the one above */
    uint32_t player_version; /* UZ_MODEL_PLAYER: the weights' version and their 64-bit hash */
    uint32_t player_hash_lo, player_hash_hi;
    /* Opening counts (any kind; header key 14, gamecode/opening.h): the moves played from
     * the same position at the same main-line ply by the block's earlier games, mixed in
     * with weight alpha16 / 16 for the model, over the first opening_plies plies. 0: none. */
    uint32_t opening_alpha16, opening_plies;
    /* The opening book (any kind; header key 15, model/opening_book.h): its version and
     * 64-bit hash; version 0: none. A version with hash 0 takes that version's built-in
     * book (a new archive; uz_model_open then records its hash). */
    uint32_t book_version, book_hash_lo, book_hash_hi;
} uz_model_params;

/* The opening counts of new archives (measured on the corpus's held-out games, README). */
#define UZ_OPENING_DEFAULT_ALPHA16 24u
#define UZ_OPENING_DEFAULT_PLIES 32u

/* How many parameters (after the kind) a model kind stores in an archive header:
 * k_milli, floor_q16 for UZ_MODEL_EXP; and rank_q16, decay_q16 for UZ_MODEL_RANK;
 * player_version, player_hash_lo, player_hash_hi for UZ_MODEL_PLAYER.
 * 0 for an unknown kind. */
int uz_model_param_count(uz_model_kind kind);

/* Most parameters a kind stores. */
#define UZ_MODEL_MAX_STORED 4

/* The parameters p->kind stores in an archive header, in the order above, into values
 * (room for UZ_MODEL_MAX_STORED). Returns how many: uz_model_param_count(p->kind). */
int uz_model_params_store(const uz_model_params *p, uint32_t *values);

/* The inverse: *p of kind from the n values a header stores, every other field 0 (the
 * opening counts are the header's own fields). Returns UZ_OK, or UZ_ERR_UNSUPPORTED when
 * n is not uz_model_param_count(kind) (*p then holds the kind alone). */
uz_result uz_model_params_load(uz_model_params *p, uz_model_kind kind, const uint32_t *values, uint32_t n);

/* A ready model: parameters plus the precomputed weight table. A plain value; the
 * fields are read-only for callers. weight[d] = k^(-d/100) in Q31 (weight[0] = 2^31),
 * non-increasing in d, 0 once below 2^-31. */
typedef struct uz_model {
    uz_model_params params;
    const uz_player_model *player; /* UZ_MODEL_PLAYER: the weights (set by uz_model_open) */
    const struct uz_book *book;    /* the opening book (set by uz_model_open), or NULL */
    uint32_t weight[UZ_MODEL_MAX_DIFF + 1];
    uint32_t rank_weight[UZ_MODEL_MAX_MOVES];    /* rho^j in Q31 (UZ_MODEL_RANK) */
    uint64_t rank_sum[UZ_MODEL_MAX_MOVES + 1];   /* rank_sum[n] = sum of rank_weight[0..n) */
} uz_model;

/* The default parameters: UZ_MODEL_RANK with the UZ_MODEL_DEFAULT_* values. */
uz_model_params uz_model_default_params(void);

/* Fills m from params. Returns UZ_OK, or UZ_ERR_ARG for NULL pointers, an unknown kind or
 * a parameter out of range (m is then left unusable). Takes ~0.1 ms; m owns no memory.
 * For UZ_MODEL_PLAYER the tables are those of the default rank model (the reference the
 * reports compare with) and m->player is NULL: uz_model_open attaches the weights. */
uz_result uz_model_init(uz_model *m, const uz_model_params *params);

/* uz_model_init, then for UZ_MODEL_PLAYER the built-in weights: params with version and
 * hash 0 take them (a new archive; m->params then records their identity), otherwise they
 * must be the ones params name (UZ_ERR_MISMATCH, with both identities in diag); and the
 * opening book params name, likewise (hash 0: the built-in book of that version). What a
 * coder opens; ready for uz_model_frequencies of every kind. */
uz_result uz_model_open(uz_model *m, const uz_model_params *params, uz_diag *diag);

/* What the model may know when it prices a position's moves: everything the decoder
 * knows before it decodes the move. The exp and rank kinds read scores and n only. */
typedef struct uz_model_context {
    const uz_position *pos;  /* the position before the move */
    const uz_move *moves;    /* its legal moves in canonical order */
    const int32_t *scores;   /* their engine scores (mover's view, the convention above) */
    int n;                   /* how many moves */
    uz_pm_game game;         /* the ratings and time control of the game's tags */
    uz_pm_history history;   /* the moves and positions on the way to pos */
} uz_model_context;

/* Frequencies of the ctx->n legal moves (1..UZ_MODEL_MAX_MOVES) under m (opened with
 * uz_model_open for UZ_MODEL_PLAYER): freq[i] >= 1, sum = UZ_MODEL_TOTAL. freq has n
 * entries (caller-owned). With an opening book (m->book), the book's counts of ctx->pos
 * are mixed into the kind's frequencies (uz_model_mix_counts, the weight from the book's
 * table). Returns the total (UZ_MODEL_TOTAL), or 0 for invalid arguments (a player model
 * without its weights among them). Integer-only; the exact bits are part of the archive
 * format. */
uint32_t uz_model_frequencies(const uz_model *m, const uz_model_context *ctx, uint32_t *freq);

/* Most a position's counts may add up to in uz_model_mix_counts (keeps it in 64 bits). */
#define UZ_MODEL_MIX_TOTAL_MAX (1u << 24)

/* Mixes counts c[0..n) (their sum at most UZ_MODEL_MIX_TOTAL_MAX) into freq[0..n), whose
 * sum is total (at most UZ_MODEL_TOTAL): p_i = (c_i + a f_i / total) / (C + a), a =
 * alpha16 / 16, in integers (doc/format.md, "Opening counts"). The sum stays total, every
 * frequency >= 1; unchanged when every count is 0 or alpha16 is 0. The opening book and
 * the archive's opening counts both mix this way. */
void uz_model_mix_counts(const uint32_t *c, uint32_t alpha16, uint32_t *freq, int n, uint32_t total);

/* The model's view of one score: clamped centipawns or a mate score mapped beyond them,
 * always in [-UZ_MODEL_MATE_BASE, UZ_MODEL_MATE_BASE]. */
int32_t uz_model_normalize_score(int32_t score);

/* The implementation of the kinds that need only the scores (UZ_MODEL_EXP and
 * UZ_MODEL_RANK; 0 for UZ_MODEL_PLAYER), for callers that have nothing else (fitting,
 * sweeps, reference costs): uz_model_frequencies with a context of scores and n, the same
 * bits. Non-decreasing in the score. */
uint32_t uz_model_score_frequencies(const uz_model *m, const int32_t *scores, int n, uint32_t *freq);

/* Rank (1 = the model's first choice) of move `played` among n moves under an exp or rank
 * model: moves are ordered by frequency, then (for frequencies tied at the floor) by
 * normalised score, then by lower index. Returns 1..n, or 0 for invalid arguments. */
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

/* Sum of the ideal costs (bits) of the played moves of count samples under m (exp or
 * rank), using the
 * exact integer frequencies. Returns -1 if a sample is invalid. */
double uz_model_total_cost(const uz_model *m, const uz_fit_sample *samples, size_t count);

/* Finds the parameters minimising uz_model_total_cost: a golden-section search over k in
 * [1.5, 1000] on a log scale and, if fit_floor, alternately over epsilon in
 * [2^-16, 0.5] on a log scale (otherwise start->floor_q16 is kept); for UZ_MODEL_RANK
 * also over beta in [0, 0.95] and rho in [0.05, 0.98]. start gives the kind and the
 * initial values. On UZ_OK *best holds the result and *best_bits (optional) its
 * total cost. Returns UZ_ERR_ARG for NULL pointers, no samples or an invalid sample. */
uz_result uz_model_fit(const uz_fit_sample *samples, size_t count, const uz_model_params *start,
                       bool fit_floor, uz_model_params *best, double *best_bits);

#endif
