/* builtin-2: the search. builtin-1's fixed-depth negamax alpha-beta search with a
 * quiescence search, made cheaper where the player model cannot tell:
 *   - a root window: root moves are searched captures first, each with alpha a margin
 *     below the best score so far; a move that fails low is reported at the floor
 *     (best - margin - 1), so every score is max(exact score, floor of the best);
 *   - one full evaluation per quiescence line: the first quiescence node evaluates fully
 *     and keeps the positional part (full minus material and squares); deeper nodes add
 *     it to their own material and piece-square sums, which the search keeps move by move;
 *   - a lazy cut at the first quiescence node when material alone is beyond beta.
 * The evaluation, capture generator and attack tables are builtin-1's (frozen). The
 * result depends only on the position: per-position state is a table generation tag and
 * a few killer slots, never a table wipe. doc/builtin.md is the specification. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin1.h"
#include "builtin2.h"
#include "engine/engine.h"

#define TT_BITS 16
#define TT_SIZE (1u << TT_BITS)
#define DELTA_MARGIN 200
#define LAZY_MARGIN 300
/* Root moves more than this below the best one are reported at the floor. */
#define ROOT_MARGIN 400
/* Nodes one root move's search may visit, by depth; past it every node is a leaf. */
static const int32_t node_budget[B2_MAX_DEPTH + 1] = {0, 2000, 16000, 128000};
/* Values for delta pruning and MVV-LVA ordering, by piece type. */
static const int16_t see_value[7] = {0, 100, 300, 300, 500, 900, 0};

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct tt_entry {
    uint64_t key;
    uint16_t move;
    int16_t score; /* mate scores relative to the entry's node */
    int8_t depth;
    uint8_t bound;
    uint16_t generation; /* the entry belongs to the current position only if equal */
} tt_entry;

struct b2_searcher {
    int depth;
    int32_t budget;
    int32_t nodes;        /* of the current root move */
    uint64_t total_nodes; /* of the current position */
    uint16_t generation;
    uz_move killers[B1_MAX_PLY][2];
    tt_entry *tt;
};

b2_searcher *uz__b2_create(int depth)
{
    b2_searcher *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->tt = calloc(TT_SIZE, sizeof *s->tt);
    if (!s->tt) {
        free(s);
        return NULL;
    }
    s->depth = depth;
    s->budget = node_budget[depth];
    return s;
}

void uz__b2_destroy(b2_searcher *s)
{
    if (s) {
        free(s->tt);
        free(s);
    }
}

uint64_t uz__b2_last_nodes(const b2_searcher *s) { return s->total_nodes; }

/* Whether a piece of colour by attacks sq: b1_attackers_to's answer, cheapest tests first
 * and the sliders' rays computed only when a slider stands on an empty board's line. */
static bool attacked_by(const uz_position *pos, int sq, int by)
{
    uint64_t them = pos->by_color[by];
    if ((uz__b1_pawn_attacks[by ^ 1][sq] & pos->by_type[UZ_PAWN] & them) ||
        (uz__b1_knight_attacks[sq] & pos->by_type[UZ_KNIGHT] & them) ||
        (uz__b1_king_attacks[sq] & pos->by_type[UZ_KING] & them))
        return true;
    uint64_t occupied = pos->by_color[0] | pos->by_color[1], queens = pos->by_type[UZ_QUEEN] & them;
    uint64_t rooks = (pos->by_type[UZ_ROOK] & them) | queens, bishops = (pos->by_type[UZ_BISHOP] & them) | queens;
    uint64_t lines = uz__b1_rays[B1_N][sq] | uz__b1_rays[B1_E][sq] | uz__b1_rays[B1_S][sq] | uz__b1_rays[B1_W][sq];
    uint64_t diagonals =
        uz__b1_rays[B1_NE][sq] | uz__b1_rays[B1_SE][sq] | uz__b1_rays[B1_SW][sq] | uz__b1_rays[B1_NW][sq];
    return ((lines & rooks) && (b1_rook_attacks(sq, occupied) & rooks)) ||
           ((diagonals & bishops) && (b1_bishop_attacks(sq, occupied) & bishops));
}

static bool king_attacked(const uz_position *pos, int color) { return attacked_by(pos, pos->king_sq[color], color ^ 1); }

static int victim_type(const uz_position *pos, uz_move m)
{
    int to = UZ_MOVE_TO(m);
    if (pos->squares[to])
        return UZ_PIECE_TYPE(pos->squares[to]);
    int piece = pos->squares[UZ_MOVE_FROM(m)];
    /* en passant: a pawn moving diagonally to an empty square */
    if (UZ_PIECE_TYPE(piece) == UZ_PAWN && UZ_SQ_FILE(to) != UZ_SQ_FILE(UZ_MOVE_FROM(m)))
        return UZ_PAWN;
    return UZ_NO_PIECE;
}

/* MVV-LVA: most valuable victim first, then least valuable attacker; promotions count
 * their new piece as won. 0 for a quiet move. */
static int capture_order(const uz_position *pos, uz_move m)
{
    int victim = victim_type(pos, m);
    int promo = UZ_MOVE_PROMO(m);
    if (!victim && !promo)
        return 0;
    int attacker = UZ_PIECE_TYPE(pos->squares[UZ_MOVE_FROM(m)]);
    return 64 * (victim + (promo ? promo - 1 : 0)) + 8 - attacker;
}

/* Moves the highest-keyed move of moves[from..n) to from (the first of equal keys, so
 * the canonical order breaks ties). */
static void pick_best(uz_move *moves, int *keys, int from, int n)
{
    int best = from;
    for (int i = from + 1; i < n; i++)
        if (keys[i] > keys[best])
            best = i;
    uz_move m = moves[best];
    int k = keys[best];
    for (int i = best; i > from; i--) {
        moves[i] = moves[i - 1];
        keys[i] = keys[i - 1];
    }
    moves[from] = m;
    keys[from] = k;
}

static int score_to_tt(int score, int ply)
{
    return score >= B1_MATE_BOUND ? score + ply : score <= -B1_MATE_BOUND ? score - ply : score;
}

static int score_from_tt(int score, int ply)
{
    return score >= B1_MATE_BOUND ? score - ply : score <= -B1_MATE_BOUND ? score + ply : score;
}


/* The quiescence search's own make/unmake: pieces, side, king squares, halfmove clock
 * and ep square only. Nothing below a quiescence node reads the key, the castling rights
 * (no castling happens: captures only, or evasions while in check) or the fullmove
 * number, so they are left as they were. The ep square is set after a double step
 * whenever an enemy pawn attacks it, even if that capture would be illegal; the board's
 * stricter rule gives the same moves, since every use of it (uz_generate_legal, and the
 * capture generator whose moves are tested after they are made) rejects illegal ones. */
typedef struct qs_undo {
    uint8_t captured;    /* the captured piece, 0 if none */
    uint8_t captured_sq; /* where it stood (differs from the target for en passant) */
    uint8_t ep_square;
    uint16_t halfmove;
} qs_undo;

static void qs_put(uz_position *pos, int sq, int piece)
{
    uint64_t bit = 1ULL << sq;
    pos->squares[sq] = (uint8_t)piece;
    pos->by_color[UZ_PIECE_COLOR(piece)] |= bit;
    pos->by_type[UZ_PIECE_TYPE(piece)] |= bit;
}

static int qs_remove(uz_position *pos, int sq)
{
    int piece = pos->squares[sq];
    uint64_t bit = 1ULL << sq;
    pos->squares[sq] = 0;
    pos->by_color[UZ_PIECE_COLOR(piece)] &= ~bit;
    pos->by_type[UZ_PIECE_TYPE(piece)] &= ~bit;
    return piece;
}

static void qs_make(uz_position *pos, uz_move m, qs_undo *u)
{
    int us = pos->side, from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m), promo = UZ_MOVE_PROMO(m);
    int piece = pos->squares[from], type = UZ_PIECE_TYPE(piece);
    u->ep_square = pos->ep_square;
    u->halfmove = pos->halfmove;
    u->captured_sq = (uint8_t)to;
    if (type == UZ_PAWN && to == pos->ep_square)
        u->captured_sq = (uint8_t)(us == UZ_WHITE ? to - 8 : to + 8);
    u->captured = pos->squares[u->captured_sq] ? (uint8_t)qs_remove(pos, u->captured_sq) : 0;
    qs_remove(pos, from);
    qs_put(pos, to, promo ? UZ_PIECE(us, promo) : piece);
    if (type == UZ_KING)
        pos->king_sq[us] = (uint8_t)to;
    pos->halfmove = (type == UZ_PAWN || u->captured) ? 0 : (uint16_t)(pos->halfmove + 1);
    pos->ep_square = UZ_SQ_NONE;
    if (type == UZ_PAWN && (to - from == 16 || from - to == 16)) {
        int ep = (from + to) / 2;
        if (uz__b1_pawn_attacks[us][ep] & pos->by_type[UZ_PAWN] & pos->by_color[us ^ 1])
            pos->ep_square = (uint8_t)ep;
    }
    pos->side = (uint8_t)(us ^ 1);
}

static void qs_unmake(uz_position *pos, uz_move m, const qs_undo *u)
{
    int us = pos->side ^ 1, from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m);
    int piece = qs_remove(pos, to);
    if (UZ_MOVE_PROMO(m))
        piece = UZ_PIECE(us, UZ_PAWN);
    qs_put(pos, from, piece);
    if (UZ_PIECE_TYPE(piece) == UZ_KING)
        pos->king_sq[us] = (uint8_t)from;
    if (u->captured)
        qs_put(pos, u->captured_sq, u->captured);
    pos->ep_square = u->ep_square;
    pos->halfmove = u->halfmove;
    pos->side = (uint8_t)us;
}

/* Whether capture m in the quiescence search looks losing: a more valuable piece takes
 * a defended one (the defence is any enemy attack on the square; no exchange is played
 * out). Promotions and en passant never look losing. */
static bool looks_losing(const uz_position *pos, uz_move m)
{
    int to = UZ_MOVE_TO(m);
    int victim = pos->squares[to];
    if (!victim || UZ_MOVE_PROMO(m))
        return false;
    int attacker = UZ_PIECE_TYPE(pos->squares[UZ_MOVE_FROM(m)]);
    if (see_value[attacker] <= see_value[UZ_PIECE_TYPE(victim)])
        return false;
    return attacked_by(pos, to, pos->side ^ 1);
}

static int search(b2_searcher *s, uz_position *pos, const b1_material *mat, int depth, int alpha, int beta, int ply);

/* Material and squares plus a positional part carried from an earlier node, clamped as
 * the evaluation is. */
static int estimate(int material, int positional)
{
    int v = material + positional;
    return v > B1_EVAL_MAX ? B1_EVAL_MAX : v < -B1_EVAL_MAX ? -B1_EVAL_MAX : v;
}

/* Quiescence. At its first two plies (qdepth 0 and 1) a side in check plays every legal
 * move (mate is found here); otherwise the side to move stands pat, then tries captures
 * and queen promotions, MVV-LVA first, skipping captures that cannot lift the score to
 * alpha (delta pruning) or look losing. Deeper, checks are not detected. The stand-pat
 * score is the full evaluation at qdepth 0 (unless material alone is LAZY_MARGIN above
 * beta: then that is returned) and, deeper, the node's material and squares plus the
 * positional part (full minus material) of the line's qdepth-0 node, side to move's view
 * (positional). */
static int qsearch(b2_searcher *s, uz_position *pos, const b1_material *mat, int alpha, int beta, int ply, int qdepth,
                   int positional)
{
    s->nodes++;
    int material = uz__b1_evaluate_material(pos, mat);
    if (ply >= B1_MAX_PLY || s->nodes > s->budget)
        return qdepth > 0 ? estimate(material, positional) : uz__b1_evaluate(pos, mat);
    uz_move moves[UZ_MAX_MOVES];
    int keys[UZ_MAX_MOVES];
    int us = pos->side;
    bool in_check = qdepth <= 1 && king_attacked(pos, us);
    int best, stand = 0, n;
    if (in_check) {
        n = uz_generate_legal(pos, moves);
        if (n == 0)
            return -(B1_MATE - ply);
        if (pos->halfmove >= 100)
            return 0;
        if (qdepth == 0)
            positional = uz__b1_evaluate(pos, mat) - material;
        best = -B1_INF;
    } else {
        if (pos->halfmove >= 100)
            return 0;
        if (qdepth == 0) {
            if (material - LAZY_MARGIN >= beta)
                return material;
            stand = uz__b1_evaluate(pos, mat);
            positional = stand - material;
        } else {
            stand = estimate(material, positional);
        }
        best = stand;
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
        n = uz__b1_generate_captures(pos, moves);
    }
    for (int i = 0; i < n; i++)
        keys[i] = capture_order(pos, moves[i]);
    for (int i = 0; i < n; i++) {
        pick_best(moves, keys, i, n);
        uz_move m = moves[i];
        if (!in_check && !UZ_MOVE_PROMO(m) &&
            (stand + see_value[victim_type(pos, m)] + DELTA_MARGIN <= alpha || looks_losing(pos, m)))
            continue;
        b1_material after;
        uz__b1_material_after(pos, m, mat, &after);
        qs_undo undo;
        qs_make(pos, m, &undo);
        if (!in_check && king_attacked(pos, us)) {
            qs_unmake(pos, m, &undo);
            continue;
        }
        int v = -qsearch(s, pos, &after, -beta, -alpha, ply + 1, qdepth + 1, -positional);
        qs_unmake(pos, m, &undo);
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (v >= beta)
                    break;
            }
        }
    }
    return best;
}

/* Orders moves for the full-width search: the table's move, captures by MVV-LVA, the
 * two killer moves of this ply, then the quiet moves in canonical order. */
static void order_moves(const b2_searcher *s, const uz_position *pos, const uz_move *moves, int n, uz_move tt_move,
                        int ply, int *keys)
{
    for (int i = 0; i < n; i++) {
        uz_move m = moves[i];
        int capture = capture_order(pos, m);
        keys[i] = m == tt_move ? 1 << 20
                : capture      ? (1 << 16) + capture
                : m == s->killers[ply][0] ? 2
                : m == s->killers[ply][1] ? 1
                                          : 0;
    }
}

static int search(b2_searcher *s, uz_position *pos, const b1_material *mat, int depth, int alpha, int beta, int ply)
{
    if (depth <= 0)
        return qsearch(s, pos, mat, alpha, beta, ply, 0, 0);
    s->nodes++;
    if (ply >= B1_MAX_PLY || s->nodes > s->budget)
        return uz__b1_evaluate(pos, mat);
    tt_entry *e = &s->tt[pos->key & (TT_SIZE - 1)];
    uz_move tt_move = UZ_MOVE_NONE;
    if (e->key == pos->key && e->generation == s->generation) {
        tt_move = e->move;
        int v = score_from_tt(e->score, ply);
        if (e->depth >= depth && (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && v >= beta) ||
                                  (e->bound == BOUND_UPPER && v <= alpha)))
            return v;
    }
    uz_move moves[UZ_MAX_MOVES];
    int keys[UZ_MAX_MOVES];
    int n = uz_generate_legal(pos, moves);
    if (n == 0)
        return uz_in_check(pos) ? -(B1_MATE - ply) : 0;
    if (pos->halfmove >= 100)
        return 0;
    order_moves(s, pos, moves, n, tt_move, ply, keys);
    int alpha_in = alpha, best = -B1_INF;
    uz_move best_move = UZ_MOVE_NONE;
    for (int i = 0; i < n; i++) {
        pick_best(moves, keys, i, n);
        uz_move m = moves[i];
        b1_material after;
        uz__b1_material_after(pos, m, mat, &after);
        uz_undo undo;
        uz_make_move(pos, m, &undo);
        int v = -search(s, pos, &after, depth - 1, -beta, -alpha, ply + 1);
        uz_unmake_move(pos, m, &undo);
        if (v > best) {
            best = v;
            best_move = m;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) {
                    if (!capture_order(pos, m) && s->killers[ply][0] != m) { /* a quiet move */
                        s->killers[ply][1] = s->killers[ply][0];
                        s->killers[ply][0] = m;
                    }
                    break;
                }
            }
        }
    }
    e->key = pos->key;
    e->move = best_move;
    e->score = (int16_t)score_to_tt(best, ply);
    e->depth = (int8_t)depth;
    e->bound = best >= beta ? BOUND_LOWER : best > alpha_in ? BOUND_EXACT : BOUND_UPPER;
    e->generation = s->generation;
    return best;
}

/* Our internal score (mate at ply p = B1_MATE - p) in the engine convention of
 * engine/engine.h (mate in n moves = UZ_SCORE_MATE - n). */
static int32_t to_engine_score(int v)
{
    if (v >= B1_MATE_BOUND)
        return UZ_SCORE_MATE - (B1_MATE - v + 1) / 2;
    if (v <= -B1_MATE_BOUND)
        return -UZ_SCORE_MATE + (B1_MATE + v) / 2;
    return v > UZ_SCORE_CP_MAX ? UZ_SCORE_CP_MAX : v < -UZ_SCORE_CP_MAX ? -UZ_SCORE_CP_MAX : v;
}

/* The root window's floor for a best score so far: ROOT_MARGIN + 1 below it (a mate
 * counts as B1_EVAL_MAX), -B1_INF before any move. Never decreases as best grows, so a
 * move that failed low under an earlier floor is below the final one too. */
static int root_floor(int best)
{
    if (best <= -B1_INF)
        return -B1_INF;
    return (best > B1_EVAL_MAX ? B1_EVAL_MAX : best) - ROOT_MARGIN - 1;
}

void uz__b2_score_moves(b2_searcher *s, const uz_position *root, const uz_move *moves, int n, int32_t *scores)
{
    /* A new generation hides every entry of earlier positions; when the tag wraps, the
     * table is cleared once (every 65,535 positions), so a tag match always means "written
     * for this position". */
    if (++s->generation == 0) {
        memset(s->tt, 0, TT_SIZE * sizeof *s->tt);
        s->generation = 1;
    }
    memset(s->killers, 0, sizeof s->killers);
    s->total_nodes = 0;
    uz_position pos = *root;
    b1_material mat;
    uz__b1_material_init(&pos, &mat);
    /* Search order: captures and promotions by MVV-LVA, then the rest, canonical order
     * among equal keys (a stable insertion sort of the move indices). */
    int order[UZ_MAX_MOVES], keys[UZ_MAX_MOVES], raw[UZ_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        int key = capture_order(&pos, moves[i]), j = i;
        for (; j > 0 && keys[j - 1] < key; j--) {
            keys[j] = keys[j - 1];
            order[j] = order[j - 1];
        }
        keys[j] = key;
        order[j] = i;
    }
    int best = -B1_INF;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        b1_material after;
        uz__b1_material_after(&pos, moves[i], &mat, &after);
        uz_undo undo;
        s->nodes = 0;
        uz_make_move(&pos, moves[i], &undo);
        raw[i] = -search(s, &pos, &after, s->depth - 1, -B1_INF, -root_floor(best), 1);
        uz_unmake_move(&pos, moves[i], &undo);
        if (raw[i] > best)
            best = raw[i];
        s->total_nodes += (uint64_t)s->nodes;
    }
    int floor = root_floor(best);
    for (int i = 0; i < n; i++)
        scores[i] = to_engine_score(raw[i] > floor ? raw[i] : floor);
}

uint64_t uz__b2_hash_constants(uint64_t hash)
{
    char text[512];
    snprintf(text, sizeof text,
             "builtin-2 search rules 1: root window (captures first, floor best-margin-1), negamax alpha-beta, qsearch "
             "captures+queen promotions, in-check evasions at qdepth 0-1, losing captures skipped, full eval at qdepth 0 "
             "only, positional part carried; tt %u; delta %d; lazy %d; root margin %d; max ply %d; budget %d %d %d; "
             "mate %d\n",
             TT_SIZE, DELTA_MARGIN, LAZY_MARGIN, ROOT_MARGIN, B1_MAX_PLY, node_budget[1], node_budget[2],
             node_budget[3], B1_MATE);
    hash = uz__b1_fnv(hash, text);
    for (int t = 0; t < 7; t++) {
        snprintf(text, sizeof text, " %d", see_value[t]);
        hash = uz__b1_fnv(hash, text);
    }
    return uz__b1_hash_eval(hash);
}
