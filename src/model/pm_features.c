/* The player model's move features (their definitions are in player_model.h). Work that
 * depends on the position alone (material, ratings, the normalised scores and their
 * ranking, the enemy king's lines) is done once per position, the attackers of a
 * from-square once per square, not per move, and a move's features come out as the list
 * of its non-zero ones. Integer arithmetic with truncating division only: training reads
 * these very features (ucizip-features). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "model/move_model.h"
#include "codec/fixed.h"
#include "pm_internal.h"

static const int piece_value[7] = {0, 1, 3, 3, 5, 9, 0};

/* GAP_ENDGAME ... GAP_SLOW are GAP_SQRT times a 0/1 condition of the position (GAP_MOVES
 * times log2 of the number of moves); RANK0_ELO and BLUNDER_ELO are RANK0 and BLUNDER
 * times the mover's rating offset. Factors: see uz__pm_position_init. */
const uint8_t uz__pm_product_feature[UZ__PM_N_PRODUCTS] = {
    UZ_PM_GAP_ENDGAME, UZ_PM_GAP_WINNING, UZ_PM_GAP_LOSING, UZ_PM_GAP_MOVES, UZ_PM_GAP_NO_ELO,
    UZ_PM_GAP_FAST,    UZ_PM_GAP_SLOW,    UZ_PM_RANK0_ELO,  UZ_PM_BLUNDER_ELO};
const uint8_t uz__pm_product_base[UZ__PM_N_PRODUCTS] = {
    UZ_PM_GAP_SQRT, UZ_PM_GAP_SQRT, UZ_PM_GAP_SQRT, UZ_PM_GAP_SQRT, UZ_PM_GAP_SQRT,
    UZ_PM_GAP_SQRT, UZ_PM_GAP_SQRT, UZ_PM_RANK0,    UZ_PM_BLUNDER};

static int popcount(uint64_t b)
{
    int c = 0;
    for (; b; b &= b - 1)
        c++;
    return c;
}

/* floor(sqrt(x)) for 0 <= x < 2^18 (100 x a gap, which is at most 2200), by bisection. */
static int isqrt_small(int x)
{
    assert(x >= 0 && x < 1 << 18);
    int lo = 0, hi = 1 << 9;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (mid * mid <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* GAP_SQRT and GAP_LOG of every gap (0..UZ_MODEL_MAX_DIFF), computed once per process
 * from their definitions (thread-safe): two loads instead of a root and a logarithm. */
static struct gap_functions {
    int16_t sqrt, log;
} gap_table[UZ_MODEL_MAX_DIFF + 1];
static pthread_once_t gap_table_once = PTHREAD_ONCE_INIT;
static atomic_bool gap_table_ready; /* spares the positions after the first pthread_once */

static void gap_table_init(void)
{
    for (int gap = 0; gap <= UZ_MODEL_MAX_DIFF; gap++) {
        gap_table[gap].sqrt = (int16_t)isqrt_small(100 * gap);
        gap_table[gap].log = (int16_t)uz__log2_fixed((uint64_t)gap + 1, 4);
    }
    atomic_store_explicit(&gap_table_ready, true, memory_order_release);
}

static int centrality(int sq) /* 0 on the rim .. 3 in the four centre squares */
{
    int f = UZ_SQ_FILE(sq), r = UZ_SQ_RANK(sq);
    int df = f < 4 ? f : 7 - f, dr = r < 4 ? r : 7 - r;
    return df < dr ? df : dr;
}

static int king_distance(int a, int b)
{
    int df = UZ_SQ_FILE(a) - UZ_SQ_FILE(b), dr = UZ_SQ_RANK(a) - UZ_SQ_RANK(b);
    df = df < 0 ? -df : df;
    dr = dr < 0 ? -dr : dr;
    return df > dr ? df : dr;
}

static int clamp_elo(int elo)
{
    return elo < 600 ? 600 : elo > 3400 ? 3400 : elo;
}

/* rank[i] = the number of moves j with v[j] > v[i], or v[j] == v[i] and j < i (the
 * place of i in a stable sort by falling score), capped at RANK_KNOWN: the features read
 * the rank only up to RANK_CAP's cap (12). Only the best RANK_KNOWN moves are kept in
 * order (insertion into a short list: a move below its last entry costs one compare),
 * the others all get RANK_KNOWN. */
#define RANK_KNOWN 12
static void rank_moves(const int32_t *v, int n, int16_t *rank)
{
    int16_t best[RANK_KNOWN]; /* indices of the best moves so far, best first */
    int kept = 0;
    for (int i = 0; i < n; i++) {
        rank[i] = RANK_KNOWN;
        if (kept == RANK_KNOWN && v[best[RANK_KNOWN - 1]] >= v[i])
            continue; /* not among the best: an equal score keeps its earlier place */
        int k = kept < RANK_KNOWN ? kept++ : RANK_KNOWN - 1;
        while (k > 0 && v[best[k - 1]] < v[i]) {
            best[k] = best[k - 1];
            k--;
        }
        best[k] = (int16_t)i;
    }
    for (int k = 0; k < kept; k++)
        rank[best[k]] = (int16_t)k;
}

void uz__pm_position_init(uz__pm_position *c, const uz_position *pos, const uz_move *moves, const int32_t *scores,
                          int n, const uz_pm_game *game, const uz_pm_history *hist)
{
    if (!atomic_load_explicit(&gap_table_ready, memory_order_acquire))
        pthread_once(&gap_table_once, gap_table_init);
    c->pos = pos;
    c->moves = moves;
    c->hist = hist;
    c->n = n;
    c->us = pos->side;
    c->them = c->us ^ 1;
    c->occ = pos->by_color[0] | pos->by_color[1];
    c->ply = 2 * ((int)pos->fullmove - 1) + c->us;
    c->gap_ply = c->ply < 120 ? c->ply : 120;
    int material = 0; /* pieces other than pawns and kings, both sides */
    for (int t = UZ_KNIGHT; t <= UZ_QUEEN; t++)
        material += piece_value[t] * popcount(pos->by_type[t]);
    c->endgame = material <= 24;
    c->queens = pos->by_type[UZ_QUEEN] != 0;
    int log_moves = 0;
    while ((2 << log_moves) <= n)
        log_moves++;

    c->best = -UZ_MODEL_MATE_BASE;
    for (int i = 0; i < n; i++) {
        c->v[i] = uz_model_normalize_score(scores[i]);
        if (c->v[i] > c->best)
            c->best = c->v[i];
    }
    rank_moves(c->v, n, c->rank);
    c->elo_us = game->elo[c->us] ? clamp_elo(game->elo[c->us]) : 0;
    c->elo_them = game->elo[c->them] ? clamp_elo(game->elo[c->them]) : 0;
    c->elo_rel = c->elo_us ? (c->elo_us - 2000) : 0;
    c->last_to = hist->last != UZ_MOVE_NONE && hist->last != UZ_MOVE_NULL ? UZ_MOVE_TO(hist->last) : -1;
    c->own_known = hist->own_last != UZ_MOVE_NONE && hist->own_last != UZ_MOVE_NULL;
    c->n_keys = hist->n_keys < UZ_PM_HISTORY ? hist->n_keys : UZ_PM_HISTORY;
    c->from_sq = -1;
    const int ksq = pos->king_sq[c->them];
    c->king_sq = ksq;
    c->king_pawn = uz_piece_attacks(UZ_PAWN, c->them, ksq, 0);
    c->king_knight = uz_piece_attacks(UZ_KNIGHT, c->them, ksq, 0);
    c->king_king = uz_piece_attacks(UZ_KING, c->them, ksq, 0);
    c->king_rook = uz_piece_attacks(UZ_ROOK, c->them, ksq, c->occ);
    c->king_bishop = uz_piece_attacks(UZ_BISHOP, c->them, ksq, c->occ);
    c->king_rook_lines = uz_slider_lines(UZ_ROOK, ksq);
    c->king_bishop_lines = uz_slider_lines(UZ_BISHOP, ksq);

    /* in the order of uz__pm_product_feature */
    const int32_t factor[UZ__PM_N_PRODUCTS] = {
        c->endgame,
        c->best >= 200,
        c->best <= -200,
        log_moves,
        c->elo_us ? 0 : 1,
        game->base_time > 0 && game->base_time < 600,
        game->base_time == 0 || game->base_time >= 3600,
        c->elo_rel / 200,
        c->elo_rel / 200,
    };
    memcpy(c->product_factor, factor, sizeof factor);
}

static int lowest_square(uint64_t b) /* b not empty */
{
#if defined(__GNUC__)
    return __builtin_ctzll(b);
#else
    int sq = 0;
    while (!((b >> sq) & 1))
        sq++;
    return sq;
#endif
}

/* Whether a piece of color defends square sq in p (occupancy occ): the test
 * uz_attackers_to(p, sq, occ) & p->by_color[color] != 0, with the leapers first and a
 * slider's attacks worked out only when one of color's stands on a line through sq. */
static bool defended(const uz_position *p, int sq, uint64_t occ, int color)
{
    const uint64_t own = p->by_color[color];
    const uint64_t queens = p->by_type[UZ_QUEEN] & own;
    if ((uz_piece_attacks(UZ_PAWN, color ^ 1, sq, 0) & p->by_type[UZ_PAWN] & own) ||
        (uz_piece_attacks(UZ_KNIGHT, color, sq, 0) & p->by_type[UZ_KNIGHT] & own) ||
        (uz_piece_attacks(UZ_KING, color, sq, 0) & p->by_type[UZ_KING] & own))
        return true;
    const uint64_t rooks = (p->by_type[UZ_ROOK] & own) | queens, bishops = (p->by_type[UZ_BISHOP] & own) | queens;
    return ((uz_slider_lines(UZ_ROOK, sq) & rooks) && (uz_piece_attacks(UZ_ROOK, color, sq, occ) & rooks)) ||
           ((uz_slider_lines(UZ_BISHOP, sq) & bishops) && (uz_piece_attacks(UZ_BISHOP, color, sq, occ) & bishops));
}

/* THREAT: the moved piece, from its new square in the position after the move, attacks
 * an enemy piece (kings aside) worth more than itself, or one no enemy piece defends. */
static bool threatens(const uz_position *after, int moved, int us, int to)
{
    const int them = us ^ 1;
    const uint64_t occ2 = after->by_color[0] | after->by_color[1];
    uint64_t hit = uz_piece_attacks(moved, us, to, occ2) & after->by_color[them] & ~after->by_type[UZ_KING];
    uint64_t worth_more = 0;
    for (int t = moved + 1; t < UZ_KING; t++)
        if (piece_value[t] > piece_value[moved])
            worth_more |= after->by_type[t];
    if (hit & worth_more)
        return true;
    for (; hit; hit &= hit - 1)
        if (!defended(after, lowest_square(hit), occ2, them))
            return true;
    return false;
}

/* CHECK: the side that moved attacks the enemy king in the position after the move (as
 * uz_in_check(after)). The king's slider lines are those of the position unless a square
 * on them changed occupancy. */
static bool gives_check(const uz__pm_position *c, const uz_position *after)
{
    const uint64_t occ2 = after->by_color[0] | after->by_color[1], changed = occ2 ^ c->occ;
    const uint64_t rook_att = changed & c->king_rook_lines ? uz_piece_attacks(UZ_ROOK, c->them, c->king_sq, occ2)
                                                           : c->king_rook;
    const uint64_t bishop_att = changed & c->king_bishop_lines
                                    ? uz_piece_attacks(UZ_BISHOP, c->them, c->king_sq, occ2)
                                    : c->king_bishop;
    const uint64_t *t = after->by_type;
    return ((c->king_pawn & t[UZ_PAWN]) | (c->king_knight & t[UZ_KNIGHT]) | (c->king_king & t[UZ_KING]) |
            (rook_att & (t[UZ_ROOK] | t[UZ_QUEEN])) | (bishop_att & (t[UZ_BISHOP] | t[UZ_QUEEN]))) &
           after->by_color[c->us];
}

/* Appends feature f with value x to out if x is not 0. */
#define PUT(f, x)                                                                          \
    do {                                                                                   \
        int32_t x_ = (int32_t)(x);                                                         \
        if (x_) {                                                                          \
            out->feature[out->n] = (uint8_t)(f);                                           \
            out->value[out->n++] = x_;                                                     \
        }                                                                                  \
    } while (0)

/* The features that come from the engine's scores: the gap to the best and the rank. */
static void score_features(const uz__pm_position *c, int i, uz__pm_sparse *out)
{
    const int gap = c->best - c->v[i], rank = c->rank[i];
    assert(gap >= 0 && gap <= UZ_MODEL_MAX_DIFF); /* normalised scores are within +-MATE_BASE */
    const int gsq = gap_table[gap].sqrt;
    PUT(UZ_PM_GAP_LIN, gap < 400 ? gap : 400);
    PUT(UZ_PM_GAP_SQRT, gsq);
    PUT(UZ_PM_GAP_LOG, gap_table[gap].log);
    PUT(UZ_PM_BLUNDER, gap >= 200);
    PUT(UZ_PM_BIG_BLUNDER, gap >= 500);
    PUT(UZ_PM_GAP_ZERO, gap == 0);
    PUT(UZ_PM_RANK0, rank == 0);
    PUT(UZ_PM_RANK1, rank == 1);
    PUT(UZ_PM_RANK2, rank == 2);
    PUT(UZ_PM_RANK_CAP, rank); /* rank_moves caps it at 12 */
    PUT(UZ_PM_MATES, c->v[i] > UZ_MODEL_CP_CLAMP);
    PUT(UZ_PM_GAP_PLY, gsq * c->gap_ply / 40);
    PUT(UZ_PM_GAP_ELO, gsq * c->elo_rel / 200);
    PUT(UZ_PM_GAP_ELO_DIFF, c->elo_us && c->elo_them ? gsq * (c->elo_them - c->elo_us) / 200 : 0);
}

void uz__pm_move_features(uz__pm_position *c, int i, uz__pm_sparse *out)
{
    const uz_position *pos = c->pos;
    const uz_pm_history *hist = c->hist;
    const int us = c->us, them = c->them;
    const uz_move m = c->moves[i];
    const int from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m), promo = UZ_MOVE_PROMO(m);
    const int type = UZ_PIECE_TYPE(pos->squares[from]);
    const bool ep = type == UZ_PAWN && to == pos->ep_square && pos->squares[to] == 0;
    const int captured = ep ? UZ_PAWN : UZ_PIECE_TYPE(pos->squares[to]);
    const bool castle = type == UZ_KING && (to - from == 2 || from - to == 2);
    out->n = 0;
    score_features(c, i, out);

    PUT(UZ_PM_CAPTURE, captured != 0);
    PUT(UZ_PM_CAPTURED_VALUE, piece_value[captured]);
    PUT(UZ_PM_RECAPTURE, captured && hist->last_captured && to == c->last_to);
    PUT(UZ_PM_TAKES_MOVER, captured && to == c->last_to);
    PUT(UZ_PM_PROMO_QUEEN, promo == UZ_QUEEN);
    PUT(UZ_PM_UNDERPROMO, promo != 0 && promo != UZ_QUEEN);
    PUT(UZ_PM_CASTLE, castle);
    PUT(UZ_PM_EN_PASSANT, ep);
    PUT(UZ_PM_KNIGHT, type == UZ_KNIGHT);
    PUT(UZ_PM_BISHOP, type == UZ_BISHOP);
    PUT(UZ_PM_ROOK, type == UZ_ROOK);
    PUT(UZ_PM_QUEEN, type == UZ_QUEEN);
    PUT(UZ_PM_KING, type == UZ_KING && !castle);
    const int forward = us == UZ_WHITE ? UZ_SQ_RANK(to) - UZ_SQ_RANK(from) : UZ_SQ_RANK(from) - UZ_SQ_RANK(to);
    PUT(UZ_PM_PUSH1, type == UZ_PAWN && !captured && forward == 1);
    PUT(UZ_PM_PUSH2, type == UZ_PAWN && forward == 2);
    PUT(UZ_PM_FORWARD, forward);
    PUT(UZ_PM_RETREAT, forward < 0);
    PUT(UZ_PM_CENTER, centrality(to) - centrality(from));
    PUT(UZ_PM_KING_CLOSER, king_distance(from, pos->king_sq[them]) - king_distance(to, pos->king_sq[them]));

    /* Safety on the board as it is (from) and with the piece moved (to). */
    const uint64_t from_bb = (uint64_t)1 << from, to_bb = (uint64_t)1 << to;
    if (c->from_sq != from) {
        c->from_sq = from;
        c->from_attackers = uz_attackers_to(pos, from, c->occ);
    }
    const uint64_t at_from = c->from_attackers;
    const bool from_att = (at_from & pos->by_color[them]) != 0;
    PUT(UZ_PM_FROM_ATTACKED, from_att);
    PUT(UZ_PM_FROM_HANGING, from_att && !(at_from & pos->by_color[us]));
    const uint64_t occ_after = (c->occ & ~from_bb) | to_bb;
    const uint64_t at_to = uz_attackers_to(pos, to, occ_after);
    const uint64_t enemy_at_to = at_to & pos->by_color[them] & ~to_bb;
    const bool to_att = enemy_at_to != 0;
    const bool to_def = (at_to & pos->by_color[us] & ~from_bb) != 0;
    PUT(UZ_PM_TO_ATTACKED, to_att);
    PUT(UZ_PM_TO_DEFENDED, to_def);
    PUT(UZ_PM_TO_HANGING, to_att && !to_def && type != UZ_KING && piece_value[captured] < piece_value[type]);
    PUT(UZ_PM_TO_PAWN_ATTACKED, type != UZ_PAWN && (enemy_at_to & pos->by_type[UZ_PAWN]) != 0);

    const int own_to = UZ_MOVE_TO(hist->own_last), own_from = UZ_MOVE_FROM(hist->own_last);
    PUT(UZ_PM_SAME_PIECE, c->own_known && from == own_to);
    PUT(UZ_PM_UNDO, c->own_known && from == own_to && to == own_from);

    uz_position after = *pos;
    uz_undo undo;
    uz_make_move(&after, m, &undo);
    PUT(UZ_PM_CHECK, gives_check(c, &after));
    PUT(UZ_PM_THREAT, type != UZ_KING && threatens(&after, promo ? promo : type, us, to));
    bool repeat = false;
    for (int k = 0; k < c->n_keys; k++)
        repeat |= hist->keys[k] == after.key;
    PUT(UZ_PM_REPEAT, repeat);

    const int home = us == UZ_WHITE ? 0 : 7;
    PUT(UZ_PM_DEVELOP, c->ply < 24 && (type == UZ_KNIGHT || type == UZ_BISHOP) && UZ_SQ_RANK(from) == home);
    PUT(UZ_PM_EARLY_QUEEN, c->ply < 16 && type == UZ_QUEEN);
    PUT(UZ_PM_EARLY_KING, type == UZ_KING && !castle && c->queens);
    PUT(UZ_PM_ENDGAME_PAWN, c->endgame && type == UZ_PAWN);
}

void uz_pm_features(const uz_position *pos, const uz_move *moves, const int32_t *scores, int n,
                    const uz_pm_game *game, const uz_pm_history *hist, int32_t *x)
{
    uz__pm_position c;
    uz__pm_sparse s;
    uz__pm_position_init(&c, pos, moves, scores, n, game, hist);
    for (int i = 0; i < n; i++) {
        int32_t *f = x + (size_t)i * UZ_PM_N_FEATURES;
        memset(f, 0, UZ_PM_N_FEATURES * sizeof *f);
        uz__pm_move_features(&c, i, &s);
        for (int k = 0; k < s.n; k++)
            f[s.feature[k]] = s.value[k];
        for (int p = 0; p < UZ__PM_N_PRODUCTS; p++)
            f[uz__pm_product_feature[p]] = c.product_factor[p] * f[uz__pm_product_base[p]];
    }
}
