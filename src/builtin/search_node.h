/* Internal: the search every version runs (doc/builtin.md, "Shared code"): the score
 * scale, the searcher's state and transposition table, the attack test, move ordering
 * (MVV-LVA, killers, selection), the quiescence search's make/unmake and capture skipping
 * (delta pruning, losing captures), the full-width search node and the conversion to the
 * engine's score convention. builtin-1 (v1_search.c) and builtin-2 (v2_search.c, which
 * builtin-3 runs too) each add their own quiescence search and root. Frozen with every
 * version: a change here that moves one score moves it in all three (test_builtin_golden
 * fails), so a later version that wants other behaviour keeps its own copy.
 *
 * Why a header of inline functions: the node is called once per node with the version's
 * search() as child; inlined into each version's search(), that call becomes a direct
 * one and the helpers below compile into the search's own code. Out of line (a .c file)
 * the same code costs more instructions per ply (doc/builtin_measurements.md, "The shared
 * search as inline functions"). The parts called once per position or per searcher are
 * search_node.c. */
#ifndef UCIZIP_BUILTIN_SEARCH_NODE_H
#define UCIZIP_BUILTIN_SEARCH_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include "oracle/oracle.h"
#include "v1_eval.h"

/* Internal score scale: centipawns; mate found at ply p scores B_MATE - p. */
#define B_MATE 30000
#define B_INF 31000
#define B_MATE_BOUND (B_MATE - 256) /* |score| >= this is a mate score */
#define B_MAX_PLY 32                /* no node deeper than this is expanded */
#define B_MAX_DEPTH 3               /* the deepest search any version allows */

#define B_TT_SIZE (1u << 16) /* table entries (a power of two: indexed by key bits) */
#define B_DELTA_MARGIN 200   /* quiescence delta pruning */
#define B_LAZY_MARGIN 300    /* quiescence lazy cut */
/* Nodes one root move's search may visit, by depth; past it every node is a leaf. */
static const int32_t b_node_budget[B_MAX_DEPTH + 1] = {0, 2000, 16000, 128000};
/* Values for delta pruning and the losing-capture test, by piece type. */
static const int16_t b_see_value[7] = {0, 100, 300, 300, 500, 900, 0};

enum { B_BOUND_UPPER = 1, B_BOUND_LOWER = 2, B_BOUND_EXACT = 3 };

typedef struct b_tt_entry {
    uint64_t key;
    uint16_t move;
    int16_t score; /* mate scores relative to the entry's node */
    int8_t depth;
    uint8_t bound;
    uint16_t generation; /* the entry belongs to the current position only if equal */
} b_tt_entry;

/* A searcher of any version (also declared in each version's header): the version is
 * the search run on it. */
typedef struct b_search b_search;
struct b_search {
    int depth;
    int32_t budget;
    int32_t nodes;        /* of the current root move */
    uint64_t total_nodes; /* of the current position */
    uint16_t generation;
    uz_move killers[B_MAX_PLY][2];
    b_tt_entry *tt;
    b1_pawn_cache *pawn_cache; /* the evaluation's (never cleared: a cache only) */
    /* builtin-2 and later: the full evaluation of the version being run, and builtin-3's
     * network state (NULL for the other versions). */
    int (*evaluate)(b_search *s, const uz_position *pos, const b1_material *mat);
    struct b3_network_state *network;
};

/* A searcher for depth (1 to B_MAX_DEPTH), NULL when out of memory. */
b_search *uz__b_search_create(int depth);
void uz__b_search_destroy(b_search *s); /* NULL: no-op */
/* Starts a position: a new table generation (hiding every earlier entry), no killers,
 * node count 0. */
void uz__b_search_begin_position(b_search *s);
/* Feeds a version's search rules (text), the delta values and builtin-1's evaluation
 * constants into hash: the input of the version's fingerprint. */
uint64_t uz__b_hash_search(uint64_t hash, const char *rules);

/* Whether a piece of colour by attacks sq: the cheap leaper tests first, the sliders' rays
 * computed only when a slider stands on one of the empty board's lines through sq. */
static inline bool b_attacked_by(const uz_position *pos, int sq, int by)
{
    uint64_t them = pos->by_color[by];
    if ((uz__b1_pawn_attacks[by ^ 1][sq] & pos->by_type[UZ_PAWN] & them) ||
        (uz__b1_knight_attacks[sq] & pos->by_type[UZ_KNIGHT] & them) ||
        (uz__b1_king_attacks[sq] & pos->by_type[UZ_KING] & them))
        return true;
    uint64_t occupied = pos->by_color[0] | pos->by_color[1], queens = pos->by_type[UZ_QUEEN] & them;
    uint64_t rooks = (pos->by_type[UZ_ROOK] & them) | queens, bishops = (pos->by_type[UZ_BISHOP] & them) | queens;
    uint64_t lines =
        uz__b1_rays[B_RAY_N][sq] | uz__b1_rays[B_RAY_E][sq] | uz__b1_rays[B_RAY_S][sq] | uz__b1_rays[B_RAY_W][sq];
    uint64_t diagonals =
        uz__b1_rays[B_RAY_NE][sq] | uz__b1_rays[B_RAY_SE][sq] | uz__b1_rays[B_RAY_SW][sq] | uz__b1_rays[B_RAY_NW][sq];
    return ((lines & rooks) && (b1_rook_attacks(sq, occupied) & rooks)) ||
           ((diagonals & bishops) && (b1_bishop_attacks(sq, occupied) & bishops));
}

static inline bool b_king_attacked(const uz_position *pos, int color)
{
    return b_attacked_by(pos, pos->king_sq[color], color ^ 1);
}

static inline int b_victim_type(const uz_position *pos, uz_move m)
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
static inline int b_capture_order(const uz_position *pos, uz_move m)
{
    int victim = b_victim_type(pos, m);
    int promo = UZ_MOVE_PROMO(m);
    if (!victim && !promo)
        return 0;
    int attacker = UZ_PIECE_TYPE(pos->squares[UZ_MOVE_FROM(m)]);
    return 64 * (victim + (promo ? promo - 1 : 0)) + 8 - attacker;
}

/* b_capture_order of a move of the capture generator (a capture, en passant or a queen
 * promotion: never a quiet move), in straight-line code. */
static inline int b_capture_key(const uz_position *pos, uz_move m)
{
    int from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m), promo = UZ_MOVE_PROMO(m);
    int attacker = UZ_PIECE_TYPE(pos->squares[from]), victim = UZ_PIECE_TYPE(pos->squares[to]);
    if (!victim && attacker == UZ_PAWN && UZ_SQ_FILE(to) != UZ_SQ_FILE(from)) /* en passant */
        victim = UZ_PAWN;
    return 64 * (victim + (promo ? promo - 1 : 0)) + 8 - attacker;
}

static inline int b_score_to_tt(int score, int ply)
{
    return score >= B_MATE_BOUND ? score + ply : score <= -B_MATE_BOUND ? score - ply : score;
}

static inline int b_score_from_tt(int score, int ply)
{
    return score >= B_MATE_BOUND ? score - ply : score <= -B_MATE_BOUND ? score + ply : score;
}

/* The quiescence search's own make/unmake: pieces, side, king squares, halfmove clock
 * and ep square only. Nothing below a quiescence node reads the key, the castling rights
 * (no castling happens: captures only, or evasions while in check) or the fullmove
 * number, so they are left as they were. The ep square is set after a double step
 * whenever an enemy pawn attacks it, even if that capture would be illegal; the board's
 * stricter rule gives the same moves, since every use of it (uz_generate_legal, and the
 * capture generator whose moves are tested after they are made) rejects illegal ones. */
typedef struct b_qs_undo {
    uint8_t captured;    /* the captured piece, 0 if none */
    uint8_t captured_sq; /* where it stood (differs from the target for en passant) */
    uint8_t ep_square;
    uint16_t halfmove;
} b_qs_undo;

/* Flips piece on sq in the bitboards (puts it on an empty square or takes it off). */
static inline void b_qs_flip(uz_position *pos, int sq, int piece)
{
    uint64_t bit = 1ULL << sq;
    pos->by_color[UZ_PIECE_COLOR(piece)] ^= bit;
    pos->by_type[UZ_PIECE_TYPE(piece)] ^= bit;
}

/* Makes m: the captured piece comes off first, so the target square is empty when the
 * moving piece lands there, and every bitboard change is a flip. */
static inline void b_qs_make(uz_position *pos, uz_move m, b_qs_undo *u)
{
    int us = pos->side, from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m), promo = UZ_MOVE_PROMO(m);
    int piece = pos->squares[from], type = UZ_PIECE_TYPE(piece);
    int moved = promo ? UZ_PIECE(us, promo) : piece;
    u->ep_square = pos->ep_square;
    u->halfmove = pos->halfmove;
    u->captured_sq = (uint8_t)to;
    if (type == UZ_PAWN && to == pos->ep_square)
        u->captured_sq = (uint8_t)(us == UZ_WHITE ? to - 8 : to + 8);
    u->captured = pos->squares[u->captured_sq];
    if (u->captured) {
        b_qs_flip(pos, u->captured_sq, u->captured);
        pos->squares[u->captured_sq] = 0;
    }
    pos->squares[from] = 0;
    pos->squares[to] = (uint8_t)moved;
    pos->by_color[UZ_PIECE_COLOR(piece)] ^= (1ULL << from) | (1ULL << to);
    pos->by_type[type] ^= 1ULL << from;
    pos->by_type[UZ_PIECE_TYPE(moved)] ^= 1ULL << to;
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

static inline void b_qs_unmake(uz_position *pos, uz_move m, const b_qs_undo *u)
{
    int us = pos->side ^ 1, from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m);
    int moved = pos->squares[to];
    int piece = UZ_MOVE_PROMO(m) ? UZ_PIECE(us, UZ_PAWN) : moved;
    pos->squares[to] = 0;
    pos->squares[from] = (uint8_t)piece;
    pos->by_color[UZ_PIECE_COLOR(piece)] ^= (1ULL << from) | (1ULL << to);
    pos->by_type[UZ_PIECE_TYPE(moved)] ^= 1ULL << to;
    pos->by_type[UZ_PIECE_TYPE(piece)] ^= 1ULL << from;
    if (UZ_PIECE_TYPE(piece) == UZ_KING)
        pos->king_sq[us] = (uint8_t)from;
    if (u->captured) {
        pos->squares[u->captured_sq] = u->captured;
        b_qs_flip(pos, u->captured_sq, u->captured);
    }
    pos->ep_square = u->ep_square;
    pos->halfmove = u->halfmove;
    pos->side = (uint8_t)us;
}

/* The make/unmake of a full-width node (the root included). When its children are
 * quiescence nodes (the node's depth is 1), which read nothing the quiescence make
 * leaves stale (see above), it plays every move but castling with that make; otherwise,
 * and for castling, with the board's own. */
typedef struct b_undo {
    bool quiescence;
    b_qs_undo qs;
    uz_undo full;
} b_undo;

static inline void b_make(bool quiescence_children, uz_position *pos, uz_move m, b_undo *u)
{
    int from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m), piece = pos->squares[from], target = pos->squares[to];
    bool castles = UZ_PIECE_TYPE(piece) == UZ_KING &&
                   (to - from == 2 || from - to == 2 || (target && UZ_PIECE_COLOR(target) == UZ_PIECE_COLOR(piece)));
    u->quiescence = quiescence_children && !castles;
    if (u->quiescence)
        b_qs_make(pos, m, &u->qs);
    else
        uz_make_move(pos, m, &u->full);
}

static inline void b_unmake(uz_position *pos, uz_move m, const b_undo *u)
{
    if (u->quiescence)
        b_qs_unmake(pos, m, &u->qs);
    else
        uz_unmake_move(pos, m, &u->full);
}

/* Whether the quiescence search skips capture m (no promotion; key: its b_capture_order
 * key, 64 * victim + 8 - attacker, which spares reading the board again): delta pruning,
 * when the victim cannot lift stand to alpha, or it looks losing: a more valuable piece
 * takes a defended one (the defence is any enemy attack on the square; no exchange is
 * played out). En passant never looks losing: a pawn takes a pawn. */
static inline bool b_skips_capture(const uz_position *pos, uz_move m, int key, int stand, int alpha)
{
    int victim = key >> 6, attacker = 8 - (key & 63);
    if (stand + b_see_value[victim] + B_DELTA_MARGIN <= alpha)
        return true;
    return b_see_value[attacker] > b_see_value[victim] && b_attacked_by(pos, UZ_MOVE_TO(m), pos->side ^ 1);
}

/* Orders moves for the full-width search: the table's move, captures by MVV-LVA, the
 * two killer moves of this ply, then the quiet moves; ties in the canonical order. Each
 * key holds the move's class (2047 the table's move, 1024 + b_capture_order a capture
 * (below 1,024), 2 and 1 the killers, 0 a quiet move) above its canonical key reversed,
 * so that no two moves have the same key and the highest key is the move to search next
 * whatever order the moves are in: the generator's order needs no canonical sort. */
static inline void b_order_moves(const b_search *s, const uz_position *pos, const uz_move *moves, int n,
                                 uz_move tt_move, int ply, uint32_t *keys)
{
    for (int i = 0; i < n; i++) {
        uz_move m = moves[i];
        int capture = b_capture_order(pos, m);
        uint32_t order = m == tt_move ? 2047
                       : capture      ? 1024 + (uint32_t)capture
                       : m == s->killers[ply][0] ? 2
                       : m == s->killers[ply][1] ? 1
                                                 : 0;
        keys[i] = order << 15 | (0x7FFF - uz__canonical_key(m));
    }
}

/* Swaps the highest-keyed move of moves[from..n) (keys are distinct) to from. */
static inline void b_pick_best(uz_move *moves, uint32_t *keys, int from, int n)
{
    int best = from;
    for (int i = from + 1; i < n; i++)
        if (keys[i] > keys[best])
            best = i;
    uz_move m = moves[best];
    uint32_t k = keys[best];
    moves[best] = moves[from], keys[best] = keys[from];
    moves[from] = m, keys[from] = k;
}

/* Sorts moves[from..n) by key, highest first (an insertion sort): once the picks reach
 * the quiet moves, every move left is searched unless one cuts off, and a sort costs
 * half the selections it replaces. */
static inline void b_sort_rest(uz_move *moves, uint32_t *keys, int from, int n)
{
    for (int i = from + 1; i < n; i++) {
        uz_move m = moves[i];
        uint32_t k = keys[i];
        int j = i;
        for (; j > from && keys[j - 1] < k; j--) {
            moves[j] = moves[j - 1];
            keys[j] = keys[j - 1];
        }
        moves[j] = m;
        keys[j] = k;
    }
}

/* Puts moves[i] (key: its ordering key) into the sorted moves[0..i), keys descending,
 * after those with an equal key. Called for i = 0 to n - 1, it sorts the moves by key,
 * ties in the order they came in: the quiescence search, with its few moves, sorts them
 * all up front. */
static inline void b_insert_move(uz_move *moves, int *keys, int i, int key)
{
    uz_move m = moves[i];
    int j = i;
    for (; j > 0 && keys[j - 1] < key; j--) {
        moves[j] = moves[j - 1];
        keys[j] = keys[j - 1];
    }
    moves[j] = m;
    keys[j] = key;
}

/* A version's search(), called for each child of a full-width node. */
typedef int b_search_fn(b_search *s, uz_position *pos, const b1_material *mat, int depth, int alpha, int beta,
                        int ply);

/* One node of the full-width search at depth >= 1 (the version's search() handles depth
 * <= 0 with its quiescence search): fail-soft negamax alpha-beta with the table and the
 * killers, children searched by child. Each version calls it from its search() with
 * itself as child; inlined there, the call through child becomes a direct call. */
static inline int b_search_node(b_search *s, uz_position *pos, const b1_material *mat, int depth, int alpha,
                                int beta, int ply, b_search_fn *child)
{
    s->nodes++;
    if (ply >= B_MAX_PLY || s->nodes > s->budget)
        return uz__b1_evaluate_cached(pos, mat, s->pawn_cache);
    b_tt_entry *e = &s->tt[pos->key & (B_TT_SIZE - 1)];
    uz_move tt_move = UZ_MOVE_NONE;
    if (e->key == pos->key && e->generation == s->generation) {
        tt_move = e->move;
        int v = b_score_from_tt(e->score, ply);
        if (e->depth >= depth && (e->bound == B_BOUND_EXACT || (e->bound == B_BOUND_LOWER && v >= beta) ||
                                  (e->bound == B_BOUND_UPPER && v <= alpha)))
            return v;
    }
    uz_move moves[UZ_MAX_MOVES];
    uint32_t keys[UZ_MAX_MOVES];
    int n = uz__generate_unsorted(pos, moves);
    if (n == 0)
        return uz_in_check(pos) ? -(B_MATE - ply) : 0;
    if (pos->halfmove >= 100)
        return 0;
    b_order_moves(s, pos, moves, n, tt_move, ply, keys);
    int alpha_in = alpha, best = -B_INF;
    uz_move best_move = UZ_MOVE_NONE;
    bool sorted = false;
    for (int i = 0; i < n; i++) {
        if (!sorted) {
            b_pick_best(moves, keys, i, n);
            if (keys[i] >> 15 == 0) { /* a quiet move: so are the rest */
                b_sort_rest(moves, keys, i + 1, n);
                sorted = true;
            }
        }
        uz_move m = moves[i];
        b1_material after;
        b1_material_after(pos, m, mat, &after);
        b_undo undo;
        b_make(depth == 1, pos, m, &undo);
        int v = -child(s, pos, &after, depth - 1, -beta, -alpha, ply + 1);
        b_unmake(pos, m, &undo);
        if (v > best) {
            best = v;
            best_move = m;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) {
                    if (!b_capture_order(pos, m) && s->killers[ply][0] != m) { /* a quiet move */
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
    e->score = (int16_t)b_score_to_tt(best, ply);
    e->depth = (int8_t)depth;
    e->bound = best >= beta ? B_BOUND_LOWER : best > alpha_in ? B_BOUND_EXACT : B_BOUND_UPPER;
    e->generation = s->generation;
    return best;
}

/* Our internal score (mate at ply p = B_MATE - p) in the engine convention of
 * oracle/oracle.h (mate in n moves = UZ_SCORE_MATE - n). */
static inline int32_t b_to_engine_score(int v)
{
    if (v >= B_MATE_BOUND)
        return UZ_SCORE_MATE - (B_MATE - v + 1) / 2;
    if (v <= -B_MATE_BOUND)
        return -UZ_SCORE_MATE + (B_MATE + v) / 2;
    return v > UZ_SCORE_CP_MAX ? UZ_SCORE_CP_MAX : v < -UZ_SCORE_CP_MAX ? -UZ_SCORE_CP_MAX : v;
}

#endif
