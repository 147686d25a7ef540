/* Legal move generation, canonical move order, legality and status tests, perft. */

/*
 * Moves are generated legal directly, not generated pseudo-legal and filtered by
 * making them: first the checkers and the pinned pieces are found by walking the eight
 * rays from the king; then
 *   - in double check only the king moves;
 *   - in single check the other pieces may only capture the checker or block;
 *   - a pinned piece may only move along the ray between its king and the pinner;
 *   - the king may not step onto an attacked square (the attack test removes the king
 *     from the occupancy, so it cannot hide from a slider on the line it leaves);
 *   - en passant, which removes two pieces from a line at once, is tested by playing
 *     it out on the occupancy (uz__ep_capture_legal).
 */
#include <assert.h>
#include <string.h>

#include "chess_internal.h"

typedef struct check_info {
    uint64_t checkers;     /* enemy pieces giving check */
    uint64_t evasion;      /* with one checker: its square and the squares between */
    uint64_t pinned;       /* own pieces pinned to the king */
    uint64_t pin_ray[64];  /* for a pinned piece: the squares it may go to */
} check_info;

static const int ray_dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static void find_checks_and_pins(const uz_position *pos, check_info *info)
{
    int us = pos->side, them = us ^ 1;
    int king = pos->king_sq[us];
    uint64_t own = pos->by_color[us], enemy = pos->by_color[them];

    info->pinned = 0;
    info->checkers = (uz__knight_from(king) & pos->by_type[UZ_KNIGHT] & enemy)
                   | (uz__pawn_from(us, king) & pos->by_type[UZ_PAWN] & enemy);
    info->evasion = info->checkers;

    for (int d = 0; d < 8; d++) {
        bool diagonal = d >= 4;
        uint64_t sliders = enemy & (pos->by_type[UZ_QUEEN] | pos->by_type[diagonal ? UZ_BISHOP : UZ_ROOK]);
        uint64_t ray = 0;
        int blocker = -1;
        int f = UZ_SQ_FILE(king) + ray_dirs[d][0];
        int r = UZ_SQ_RANK(king) + ray_dirs[d][1];
        for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += ray_dirs[d][0], r += ray_dirs[d][1]) {
            int sq = UZ_SQ(f, r);
            uint64_t bit = UZ__BB(sq);
            ray |= bit;
            if (own & bit) {
                if (blocker >= 0)
                    break; /* two own pieces: nothing pinned on this ray */
                blocker = sq;
            } else if (enemy & bit) {
                if (sliders & bit) {
                    if (blocker < 0) {
                        info->checkers |= bit;
                        info->evasion |= ray;
                    } else {
                        info->pinned |= UZ__BB(blocker);
                        info->pin_ray[blocker] = ray;
                    }
                }
                break;
            }
        }
    }
}

static int add_pawn_moves(uz_move *moves, int n, int from, int to)
{
    if (UZ_SQ_RANK(to) == 0 || UZ_SQ_RANK(to) == 7) {
        for (int promo = UZ_KNIGHT; promo <= UZ_QUEEN; promo++)
            moves[n++] = UZ_MOVE(from, to, promo);
    } else {
        moves[n++] = UZ_MOVE(from, to, 0);
    }
    return n;
}

/* Squares from a to b, both included, on one rank. */
static uint64_t rank_span(int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    uint64_t span = 0;
    for (int sq = lo; sq <= hi; sq++)
        span |= UZ__BB(sq);
    return span;
}

/* Chess960 castling (the side to move is not in check): the king goes to the g- or
 * c-file and the rook to the f- or d-file; every square either crosses or lands on must
 * be empty but for the two of them, the king may not cross or land on an attacked
 * square, and the king must not stand in check once the rook has moved (a rook that
 * shielded it along the back rank). The move is written king takes rook. */
static int add_castling960(const uz_position *pos, uz_move *moves, int n)
{
    int us = pos->side;
    int king = pos->king_sq[us];
    uint64_t occupied = pos->by_color[UZ_WHITE] | pos->by_color[UZ_BLACK];
    uint64_t enemy = pos->by_color[us ^ 1];
    for (unsigned b = us == UZ_WHITE ? 0 : 2, end = b + 2; b < end; b++) {
        if (!(pos->castling & (1u << b)))
            continue;
        int rook = pos->castle_rook[b];
        int back = UZ_SQ_RANK(king) * 8;
        bool king_side = rook > king;
        int king_to = back + (king_side ? 6 : 2), rook_to = back + (king_side ? 5 : 3);
        uint64_t others = occupied & ~UZ__BB(king) & ~UZ__BB(rook);
        if ((rank_span(king, king_to) | rank_span(rook, rook_to)) & others)
            continue;
        bool attacked = false;
        for (uint64_t path = rank_span(king, king_to); path && !attacked;)
            attacked = (uz__attackers_to(pos, uz__pop_lsb(&path), occupied) & enemy) != 0;
        uint64_t after = others | UZ__BB(king_to) | UZ__BB(rook_to);
        if (!attacked && !(uz__attackers_to(pos, king_to, after) & enemy & ~UZ__BB(rook_to)))
            moves[n++] = UZ_MOVE(king, rook, 0);
    }
    return n;
}

int uz__generate_unsorted(const uz_position *pos, uz_move *moves)
{
    int us = pos->side, them = us ^ 1;
    uint64_t own = pos->by_color[us], enemy = pos->by_color[them];
    uint64_t occupied = own | enemy;
    int king = pos->king_sq[us];
    int n = 0;
    check_info info;
    find_checks_and_pins(pos, &info);

    /* King steps, onto squares the enemy does not attack once the king has left. */
    uint64_t targets = uz__king_from(king) & ~own & ~pos->by_type[UZ_KING];
    uint64_t without_king = occupied ^ UZ__BB(king);
    while (targets) {
        int to = uz__pop_lsb(&targets);
        if (!(uz__attackers_to(pos, to, without_king) & enemy))
            moves[n++] = UZ_MOVE(king, to, 0);
    }
    int checks = uz__popcount(info.checkers);
    if (checks > 1)
        return n;

    /* Castling: rights imply king and rook on their squares (kept so by make and FEN). */
    if (!checks && pos->chess960) {
        n = add_castling960(pos, moves, n);
    } else if (!checks) {
        int back = us == UZ_WHITE ? 0 : 7;
        unsigned king_side = us == UZ_WHITE ? UZ_CASTLE_WK : UZ_CASTLE_BK;
        unsigned queen_side = us == UZ_WHITE ? UZ_CASTLE_WQ : UZ_CASTLE_BQ;
        if ((pos->castling & king_side) && !pos->squares[UZ_SQ(5, back)] && !pos->squares[UZ_SQ(6, back)]
            && !(uz__attackers_to(pos, UZ_SQ(5, back), occupied) & enemy)
            && !(uz__attackers_to(pos, UZ_SQ(6, back), occupied) & enemy))
            moves[n++] = UZ_MOVE(king, UZ_SQ(6, back), 0);
        if ((pos->castling & queen_side) && !pos->squares[UZ_SQ(3, back)] && !pos->squares[UZ_SQ(2, back)]
            && !pos->squares[UZ_SQ(1, back)] && !(uz__attackers_to(pos, UZ_SQ(3, back), occupied) & enemy)
            && !(uz__attackers_to(pos, UZ_SQ(2, back), occupied) & enemy))
            moves[n++] = UZ_MOVE(king, UZ_SQ(2, back), 0);
    }

    /* Other pieces: never onto an own piece or the enemy king; in check, only
     * capturing the checker or blocking. */
    uint64_t allowed = ~own & ~pos->by_type[UZ_KING];
    if (checks)
        allowed &= info.evasion;
    int forward = us == UZ_WHITE ? 8 : -8;
    int start_rank = us == UZ_WHITE ? 1 : 6;

    uint64_t pieces = own & ~pos->by_type[UZ_KING];
    while (pieces) {
        int from = uz__pop_lsb(&pieces);
        uint64_t from_bb = UZ__BB(from);
        uint64_t mask = allowed;
        if (info.pinned & from_bb)
            mask &= info.pin_ray[from];

        switch (UZ_PIECE_TYPE(pos->squares[from])) {
        case UZ_PAWN: {
            int to = from + forward;
            if (!(occupied & UZ__BB(to))) {
                if (mask & UZ__BB(to))
                    n = add_pawn_moves(moves, n, from, to);
                int to2 = to + forward;
                if (UZ_SQ_RANK(from) == start_rank && !(occupied & UZ__BB(to2)) && (mask & UZ__BB(to2)))
                    moves[n++] = UZ_MOVE(from, to2, 0);
            }
            uint64_t attacks = uz__pawn_from(us, from);
            targets = attacks & enemy & mask;
            while (targets)
                n = add_pawn_moves(moves, n, from, uz__pop_lsb(&targets));
            if (pos->ep_square != UZ_SQ_NONE && (attacks & UZ__BB(pos->ep_square))
                && uz__ep_capture_legal(pos, from))
                moves[n++] = UZ_MOVE(from, pos->ep_square, 0);
            continue;
        }
        case UZ_KNIGHT: targets = uz__knight_from(from); break;
        case UZ_BISHOP: targets = uz__bishop_attacks(from, occupied); break;
        case UZ_ROOK: targets = uz__rook_attacks(from, occupied); break;
        case UZ_QUEEN: targets = uz__rook_attacks(from, occupied) | uz__bishop_attacks(from, occupied); break;
        default: assert(0); targets = 0; break;
        }
        targets &= mask;
        while (targets)
            moves[n++] = UZ_MOVE(from, uz__pop_lsb(&targets), 0);
    }
    assert(n <= UZ_MAX_MOVES);
    return n;
}

int uz_generate_legal(const uz_position *pos, uz_move *moves)
{
    int n = uz__generate_unsorted(pos, moves);
    /* Insertion sort of the keys with their moves below them (a key is 15 bits, a move
     * 16: one integer compare a step, no key computed twice); lists are short. */
    uint32_t keyed[UZ_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        uint32_t v = uz__canonical_key(moves[i]) << 16 | moves[i];
        int j = i;
        for (; j > 0 && keyed[j - 1] > v; j--)
            keyed[j] = keyed[j - 1];
        keyed[j] = v;
    }
    for (int i = 0; i < n; i++)
        moves[i] = (uz_move)keyed[i];
    return n;
}

bool uz_is_legal(const uz_position *pos, uz_move move)
{
    if (move == UZ_MOVE_NONE || move == UZ_MOVE_NULL)
        return false;
    uz_move moves[UZ_MAX_MOVES];
    int n = uz__generate_unsorted(pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == move)
            return true;
    return false;
}

uz_status uz_position_status(const uz_position *pos)
{
    uz_move moves[UZ_MAX_MOVES];
    if (uz__generate_unsorted(pos, moves) > 0)
        return UZ_STATUS_PLAYING;
    return uz_in_check(pos) ? UZ_STATUS_CHECKMATE : UZ_STATUS_STALEMATE;
}

uint64_t uz_perft(uz_position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    uz_move moves[UZ_MAX_MOVES];
    int n = uz__generate_unsorted(pos, moves);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        uz_undo undo;
        uz_make_move(pos, moves[i], &undo);
        nodes += uz_perft(pos, depth - 1);
        uz_unmake_move(pos, moves[i], &undo);
    }
    return nodes;
}
