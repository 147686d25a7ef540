/* The player model: a conditional logit over the legal moves of a position. Each move
 * gets integer features (its engine score's gap to the best, its rank, what kind of move
 * it is, its safety, continuity with the mover's last move, phase, context and the
 * players' ratings from the tags); its score is a weighted sum of them and
 * p_i is proportional to 2^(score_i). Everything the features use is known to the decoder
 * before it decodes the move. The coded path is integer-only and bit-identical on every
 * machine; the weights are data (data/player_model/), trained by
 * scripts/train_player_model.py, identified by a version and a hash. */
#ifndef UCIZIP_PLAYER_MODEL_H
#define UCIZIP_PLAYER_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/board.h"
#include "common/common.h"

/* The features, in the order of the weights file. Groups (for ablations and explain):
 * S score, K kind, F safety, C continuity, P phase, X context, R ratings. */
#define UZ_PM_FEATURES(X)                                                                  \
    X(GAP_LIN, 'S')     /* min(gap, 400), centipawns */                                   \
    X(GAP_SQRT, 'S')    /* floor(sqrt(100 * gap)), gap capped at 2200 */                  \
    X(GAP_LOG, 'S')     /* floor(16 * log2(1 + gap)) */                                   \
    X(BLUNDER, 'S')     /* gap >= 200 */                                                  \
    X(BIG_BLUNDER, 'S') /* gap >= 500 */                                                  \
    X(GAP_ZERO, 'S')    /* gap == 0 */                                                    \
    X(RANK0, 'S')       /* the engine's first choice (ties by lower index) */             \
    X(RANK1, 'S')                                                                         \
    X(RANK2, 'S')                                                                         \
    X(RANK_CAP, 'S')    /* min(rank, 12) */                                               \
    X(MATES, 'S')       /* the move's score is a mate for the mover */                    \
    X(CAPTURE, 'K')                                                                       \
    X(CAPTURED_VALUE, 'K') /* 1 3 3 5 9 */                                                \
    X(RECAPTURE, 'K')   /* captures on the square where the opponent just captured */     \
    X(TAKES_MOVER, 'K') /* captures the piece that just moved */                          \
    X(CHECK, 'K')                                                                         \
    X(PROMO_QUEEN, 'K')                                                                   \
    X(UNDERPROMO, 'K')                                                                    \
    X(CASTLE, 'K')                                                                        \
    X(EN_PASSANT, 'K')                                                                    \
    X(KNIGHT, 'K')                                                                        \
    X(BISHOP, 'K')                                                                        \
    X(ROOK, 'K')                                                                          \
    X(QUEEN, 'K')                                                                         \
    X(KING, 'K')                                                                          \
    X(PUSH1, 'K')                                                                         \
    X(PUSH2, 'K')                                                                         \
    X(FORWARD, 'K')     /* ranks moved toward the opponent (negative: back) */            \
    X(RETREAT, 'K')                                                                       \
    X(CENTER, 'K')      /* gain in centrality (3 - distance to the centre, 0..3) */       \
    X(KING_CLOSER, 'K') /* ranks/files closer to the enemy king (Chebyshev distance) */   \
    X(FROM_ATTACKED, 'F') /* the moving piece is attacked where it stands */              \
    X(FROM_HANGING, 'F')  /* ... and not defended */                                      \
    X(TO_ATTACKED, 'F')   /* the destination is attacked by the opponent */               \
    X(TO_DEFENDED, 'F')   /* the destination is defended by another own piece */          \
    X(TO_HANGING, 'F')    /* attacked and not defended, and not a capture of >= value */  \
    X(TO_PAWN_ATTACKED, 'F') /* a non-pawn going where an enemy pawn attacks */           \
    X(THREAT, 'F')      /* the moved piece then attacks an enemy piece worth more, or an   \
                           undefended one (kings aside) */                                \
    X(SAME_PIECE, 'C')  /* moves the piece the mover moved last */                        \
    X(UNDO, 'C')        /* moves it back where it came from */                            \
    X(REPEAT, 'C')      /* the position after it occurred earlier in the game */          \
    X(DEVELOP, 'P')     /* a knight or bishop leaving its back rank, first 24 plies */    \
    X(EARLY_QUEEN, 'P') /* a queen move in the first 16 plies */                          \
    X(EARLY_KING, 'P')  /* a king move (not castling) with queens on the board */         \
    X(ENDGAME_PAWN, 'P') /* a pawn move with little material left */                      \
    X(GAP_ENDGAME, 'P') /* GAP_SQRT x little material */                                  \
    X(GAP_PLY, 'P')     /* GAP_SQRT x min(ply, 120) / 40 */                               \
    X(GAP_WINNING, 'X') /* GAP_SQRT x (best score >= 200) */                              \
    X(GAP_LOSING, 'X')  /* GAP_SQRT x (best score <= -200) */                             \
    X(GAP_MOVES, 'X')   /* GAP_SQRT x floor(log2(number of legal moves)) */               \
    X(GAP_ELO, 'R')     /* GAP_SQRT x (mover's rating - 2000) / 200 */                    \
    X(GAP_ELO_DIFF, 'R') /* GAP_SQRT x (opponent's - mover's rating) / 200 */             \
    X(GAP_NO_ELO, 'R')  /* GAP_SQRT x (no rating) */                                      \
    X(GAP_FAST, 'R')    /* GAP_SQRT x (base time under 10 minutes) */                     \
    X(GAP_SLOW, 'R')    /* GAP_SQRT x (no time control tag, or 60 minutes or more) */     \
    X(RANK0_ELO, 'R')   /* RANK0 x (mover's rating - 2000) / 200 */                       \
    X(BLUNDER_ELO, 'R') /* BLUNDER x (mover's rating - 2000) / 200 */

#define UZ_PM_ENUM(name, group) UZ_PM_##name,
enum uz_pm_feature { UZ_PM_FEATURES(UZ_PM_ENUM) UZ_PM_N_FEATURES };
#undef UZ_PM_ENUM

/* Name ("GAP_LIN", ...) and group letter of feature f; NULL / 0 out of range. */
const char *uz_pm_feature_name(int f);
char uz_pm_feature_group(int f);

/* What the model knows about the game before a position: from the tags and the moves
 * already played on the way to it. */
typedef struct uz_pm_game {
    int elo[2];      /* WhiteElo, BlackElo; 0 if missing or not a number */
    int base_time;   /* TimeControl base in seconds; 0 if missing or not understood */
} uz_pm_game;

#define UZ_PM_HISTORY 12
typedef struct uz_pm_history {
    uz_move last;            /* the opponent's last move, UZ_MOVE_NONE if none */
    bool last_captured;      /* ... which captured */
    uz_move own_last;        /* the mover's own last move (two plies back), or none */
    int n_keys;              /* keys of earlier positions, most recent first */
    uint64_t keys[UZ_PM_HISTORY];
} uz_pm_history;

/* Reads the ratings and the time control from tag values (either may be NULL). */
void uz_pm_game_from_tags(uz_pm_game *g, const char *white_elo, const char *black_elo, const char *time_control);

/* Features of every legal move: x[i * UZ_PM_N_FEATURES + f]. scores are the engine's
 * (mover's view, as the move_model.h convention), moves the legal moves in canonical order.
 * n in 1..UZ_MAX_MOVES. */
void uz_pm_features(const uz_position *pos, const uz_move *moves, const int32_t *scores, int n,
                    const uz_pm_game *game, const uz_pm_history *hist, int32_t *x);

#define UZ_PM_MAX_HIDDEN 16

/* Square tables, a weight set's optional last part: a move's score also gains
 * square_to[b][t][to] + square_from[b][t][from], where t is the moving piece's type (pawn
 * 0 .. king 5), from and to its squares seen from the mover (ranks mirrored for Black:
 * a1 is the mover's queen-side corner; castling is the king's move as the move list has
 * it), and b the position's ply bucket: how many of square_bound[] are <= its ply
 * 2 (fullmove - 1) + side. What players like to do with which piece where, at each
 * stage of a game: the part of their choice a shallow search's scores do not show. */
#define UZ_PM_MAX_SQUARE_BUCKETS 6
#define UZ_PM_PIECE_TYPES 6

/* Board units, a weight set's optional part after the square tables: a small network that
 * reads the whole board with the move, what the other parts (the move's own features, its
 * squares) cannot see. Squares and pieces are seen from the mover (ranks mirrored for
 * Black; piece code c = type 0..5 for the mover's pieces, 6 + type for the opponent's).
 * Unit j's pre-activation, Q16, is
 *   board_bias[j] + sum over occupied squares q of board_piece[c(q)][q][j]
 *                 + board_to[t][to][j] + board_from[t][from][j]
 * (t, from, to as the square tables read them), and the move's score gains
 * (sum over j of board_out[j] * tanh_q16(pre-activation j)) / 65536 (Q16 log2 units, one
 * C division) with the hidden layer's tanh. The board part is summed once per position. */
#define UZ_PM_MAX_BOARD_UNITS 16
#define UZ_PM_MAX_POLICY_BETA 262144 /* 4.0 in Q16 */
#define UZ_PM_PIECE_CODES 12

/* A loaded weight set. weight[f] is in Q16 log2 units per feature unit. A set may add a
 * hidden layer: unit j's activation is tanh((hidden_bias[j] + sum_f hidden_weight[j][f]
 * x_f) / 2^32) (features clamped to 16 bits; tanh from a fixed table, see uz_pm_scores),
 * and the move's score gains hidden_out[j] (Q16 log2 units) times it. */
typedef struct uz_player_model {
    uint32_t version;
    uint64_t hash;          /* FNV-1a 64 of the canonical lines (floor, features, hidden layer) */
    int32_t weight[UZ_PM_N_FEATURES];
    uint32_t floor_q16;     /* uniform share x 65536 */
    int32_t n_hidden;       /* 0: the plain conditional logit (weight set 1) */
    int64_t hidden_bias[UZ_PM_MAX_HIDDEN];                     /* Q32 */
    int32_t hidden_out[UZ_PM_MAX_HIDDEN];                      /* Q16 log2 units */
    int64_t hidden_weight[UZ_PM_MAX_HIDDEN][UZ_PM_N_FEATURES]; /* Q32 per feature unit */
    int32_t n_square_buckets;                                  /* 0: no square tables */
    int32_t square_bound[UZ_PM_MAX_SQUARE_BUCKETS - 1];       /* rising plies */
    int32_t square_to[UZ_PM_MAX_SQUARE_BUCKETS][UZ_PM_PIECE_TYPES][64];   /* Q16 log2 units */
    int32_t square_from[UZ_PM_MAX_SQUARE_BUCKETS][UZ_PM_PIECE_TYPES][64]; /* Q16 log2 units */
    int32_t n_board_units;                                     /* 0: none */
    int32_t board_bias[UZ_PM_MAX_BOARD_UNITS];                 /* Q16 */
    int32_t board_out[UZ_PM_MAX_BOARD_UNITS];                  /* Q16 log2 units */
    int32_t board_piece[UZ_PM_PIECE_CODES][64][UZ_PM_MAX_BOARD_UNITS]; /* Q16 */
    int32_t board_to[UZ_PM_PIECE_TYPES][64][UZ_PM_MAX_BOARD_UNITS];    /* Q16 */
    int32_t board_from[UZ_PM_PIECE_TYPES][64][UZ_PM_MAX_BOARD_UNITS];  /* Q16 */
    uint32_t policy_version;   /* 0: none; else the policy over the board (model/policy.h) */
    uint64_t policy_hash;      /* its data file's FNV-1a 64 */
    int32_t policy_beta;       /* Q16: a move's score gains policy_beta x its logit / 65536 */
} uz_player_model;

/* Parses a weights file's text:
 *   # comments
 *   ucizip-player-model VERSION
 *   floor Q16
 *   NAME VALUE            one line per feature, in the order above
 *   hidden H              optional: a hidden layer of H (1..UZ_PM_MAX_HIDDEN) units, then
 *   unit K BIAS OUT W...  one line per unit, K = 0..H-1, one W per feature in the order above
 *   squares B BOUND...    optional: square tables of B (1..UZ_PM_MAX_SQUARE_BUCKETS) ply
 *                         buckets, B - 1 rising bounds, then
 *   to K T V...           for K = 0..B-1 and T = P N B R Q K: 64 values, a1 b1 .. h8
 *   from K T V...         the same for the from squares, after every "to" line
 *   board U               optional: U (1..UZ_PM_MAX_BOARD_UNITS) board units, then per
 *                         unit J = 0..U-1, in this order:
 *   bunit J BIAS OUT        its bias (Q16) and output weight (Q16 log2 units)
 *   bpiece J C V...         for C = P N B R Q K p n b r q k (upper case: the mover's): 64
 *                           values, a1 .. h8 seen from the mover
 *   bto J T V...            for T = P N B R Q K: 64 values, the move's to square
 *   bfrom J T V...          the same for the from square
 *   policy V HEX BETA     optional: the policy over the board of version V, whose data
 *                         file has FNV-1a 64 HEX (one built in: refused otherwise); each
 *                         move's score gains BETA (Q16, 0..262144) x its logit / 65536
 *   hash HEX              FNV-1a 64 of the lines from "floor" on as written (each with its \n)
 * Refuses (UZ_ERR_CORRUPT, diag with the line) anything else: a missing or unknown
 * feature, a value out of range, a wrong hash. */
uz_result uz_player_model_parse(uz_player_model *m, const char *text, size_t len, uz_diag *diag);

/* The weight sets built into the program: every data/player_model/weights-vN.txt,
 * compiled at build time (scripts/pm_weights.py, each file pinned by its hash in
 * src/model/meson.build) into player_weights.c as their texts and the values parsed from
 * them (a test checks that they agree). Older sets stay so that archives made before a
 * retraining still decode; the newest is the one new archives use. */
extern const uz_player_model uz_pm_builtin_sets[];
extern const char *const uz_pm_builtin_texts[];
extern const int uz_pm_builtin_count;

/* The weight set new archives use, by oracle: sets are trained on one oracle's scores, so
 * a newer set is not better for another oracle. UCI engines: chosen apart at depth 1 (the
 * profiles' default) and for deeper or node-limited searches (uz_lib_oracle_weights):
 * version 15 at depth 1 (version 14 plus the policy over the board, beta fitted on the
 * corpus's training part: scripts/policy_beta.py); version 14 before it (v2 plus square
 * tables and board units, fitted on 469,066 positions of Stockfish 15.1's depth-1 scores,
 * training games included), v2 before that; version 2
 * deeper (trained on the corpus's depth-1 scores; not measured against v14 there); the built-in oracle, by its version: builtin-1 version 16
 * (version 9 plus the policy over the board), version 9 before it (trained on builtin-1's
 * depth-1 scores: version 5, with a hidden layer and square tables, plus board units
 * fitted with Stockfish's distribution as a teacher; versions 3, 5 and 7 before it), builtin-2 version 10 (the same on builtin-2's, over version 6; versions 4, 6
 * and 8 before it). From depth 2 on, the sets of the same recipe fitted to each
 * version's depth-2 scores: builtin-1 version 11, builtin-2 version 12 (9 and 10 before).
 * builtin-3: version 13 (the same recipe on its depth-1 scores); from depth 2 on builtin-2's
 * version 12, which reads its depth-2 scores better than 13 does (doc/builtin_measurements.md).
 * An archive names its set, so changing these changes new archives only. */
#define UZ_PM_DEFAULT_VERSION_ENGINE 15
#define UZ_PM_DEFAULT_VERSION_ENGINE_DEEP 2
#define UZ_PM_DEFAULT_VERSION_BUILTIN1 16
#define UZ_PM_DEFAULT_VERSION_BUILTIN2 10
#define UZ_PM_DEFAULT_VERSION_BUILTIN1_DEEP 11
#define UZ_PM_DEFAULT_VERSION_BUILTIN2_DEEP 12
#define UZ_PM_DEFAULT_VERSION_BUILTIN3 13
#define UZ_PM_DEFAULT_VERSION_BUILTIN3_DEEP 12

/* The newest built-in set. */
const uz_player_model *uz_pm_builtin_latest(void);
/* The newest built-in set of this version, or NULL. */
const uz_player_model *uz_pm_builtin_version(uint32_t version);
/* The built-in set with this version and hash, or NULL. */
const uz_player_model *uz_pm_builtin_find(uint32_t version, uint64_t hash);

/* Per-move scores (Q16 log2 units) from features; mask (optional) zeroes features whose
 * mask entry is false (ablations). The square tables' and the board units' parts are not
 * in features: a move's whole score is this plus uz_pm_board_scores. */
void uz_pm_scores(const uz_player_model *m, const int32_t *x, int n, const bool *mask, int64_t *s);

/* Adds the parts of each move's score that read the board, the square tables, the
 * board units and the policy over the board, to s (nothing for a set without them). */
void uz_pm_board_scores(const uz_player_model *m, const uz_position *pos, const uz_move *moves, int n,
                         int64_t *s);

/* The scores uz_pm_scores (no mask) plus uz_pm_board_scores give for the features
 * uz_pm_features gives, the same bits, computed without the feature matrix: a move's non-zero features only, and the
 * weights of the features that are a position constant times another feature folded
 * into that one's once per position. What the coder calls for every position. */
void uz_pm_move_scores(const uz_player_model *m, const uz_position *pos, const uz_move *moves,
                       const int32_t *scores, int n, const uz_pm_game *game, const uz_pm_history *hist,
                       int64_t *s);

/* Frequencies (sum UZ_MODEL_TOTAL, each >= 1) from per-move scores. Integer-only; the
 * exact bits are archive format. Returns the total, or 0 for invalid arguments. */
uint32_t uz_pm_frequencies(const uz_player_model *m, const int64_t *s, int n, uint32_t *freq);

#endif
