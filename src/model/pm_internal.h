/* Internal to src/model: what the features of a position's moves share (computed once
 * per position), and one move's features as a list of its non-zero ones. The dense
 * feature rows (uz_pm_features) and the scores (uz_pm_move_scores) are both made from
 * these, so there is one definition of every feature. */
#ifndef UCIZIP_PM_INTERNAL_H
#define UCIZIP_PM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/player_model.h"

/* Features that are a constant of the position times another feature of the same move,
 * the base (GAP_ENDGAME = GAP_SQRT x endgame, RANK0_ELO = RANK0 x rating / 200, ...).
 * A move's list holds only the other features; a product is factor x the base's value,
 * which lets the scores fold the product's weights into the base's once per position. */
#define UZ__PM_N_PRODUCTS 9
extern const uint8_t uz__pm_product_feature[UZ__PM_N_PRODUCTS];
extern const uint8_t uz__pm_product_base[UZ__PM_N_PRODUCTS];

/* Every base is below 512 in magnitude (GAP_SQRT is the square root of 100 x a gap of
 * at most 2200; RANK0 and BLUNDER are 0 or 1) and every factor within +-8 (log2 of at
 * most 324 moves; a rating offset of at most 1400 / 200), so a product stays within
 * +-4096 and the hidden layer's clamp of its inputs to 16 bits never changes one:
 * folding a product's weights into its base's gives the same sums. */
#define UZ__PM_MAX_FACTOR 8

typedef struct uz__pm_position {
    const uz_position *pos;
    const uz_move *moves;
    const uz_pm_history *hist;
    int n;
    int us, them;
    int ply;
    uint64_t occ;
    bool endgame; /* little material left */
    bool queens;  /* a queen on the board */
    int gap_ply;  /* min(ply, 120) */
    int elo_us, elo_them, elo_rel;
    int last_to;  /* the square of the opponent's last move, -1 if none */
    bool own_known;
    int n_keys;   /* history keys to compare (at most UZ_PM_HISTORY) */
    int32_t best; /* the best normalised score */
    int32_t product_factor[UZ__PM_N_PRODUCTS];
    int32_t v[UZ_MAX_MOVES];    /* the normalised scores */
    int16_t rank[UZ_MAX_MOVES]; /* the engine's rank of each move (ties by lower index), capped at 12 */
    int from_sq;                /* the square whose attackers from_attackers holds, -1: none yet */
    uint64_t from_attackers;
    /* The enemy king's square and what attacks it (for CHECK): the squares from which a
     * pawn of ours, a knight, a king, a rook or a bishop would attack it, sliders through
     * the board as it is, and the lines a slider could use on an empty board. */
    int king_sq;
    uint64_t king_pawn, king_knight, king_king, king_rook, king_bishop, king_rook_lines, king_bishop_lines;
} uz__pm_position;

/* One move's features other than the products: feature[k] has value[k] != 0, k < n. */
typedef struct uz__pm_sparse {
    int n;
    uint8_t feature[UZ_PM_N_FEATURES];
    int32_t value[UZ_PM_N_FEATURES];
} uz__pm_sparse;

/* Prepares c for the features of moves (the arguments are those of uz_pm_features;
 * c keeps pointers to pos, moves and hist, which must outlive it). */
void uz__pm_position_init(uz__pm_position *c, const uz_position *pos, const uz_move *moves, const int32_t *scores,
                          int n, const uz_pm_game *game, const uz_pm_history *hist);

/* The features of move i (0..n-1), products aside. Moves with the same from-square in a
 * row share work (the canonical order has them together). */
void uz__pm_move_features(uz__pm_position *c, int i, uz__pm_sparse *out);

#endif
