/* builtin-1: the quiescence search's move generator (captures and queen promotions). */
#include "v1_eval.h"

#define RANK_1 0xFFULL
#define RANK_2 0xFF00ULL
#define RANK_7 0xFF000000000000ULL
#define RANK_8 0xFF00000000000000ULL
#define FILE_A 0x0101010101010101ULL
#define FILE_H (FILE_A << 7)

/* The targets a slider on sq hits along its diagonals, or along its file and rank: a
 * line's attacks are computed only when the empty board's line holds a target. */
static inline uint64_t diagonal_targets(int sq, uint64_t occupied, uint64_t targets)
{
    uint64_t diagonal = uz__b1_lines[B_LINE_DIAGONAL][sq], anti = uz__b1_lines[B_LINE_ANTI_DIAGONAL][sq], hits = 0;
    if (diagonal & targets)
        hits = b1_line_attacks(sq, occupied, diagonal);
    if (anti & targets)
        hits |= b1_line_attacks(sq, occupied, anti);
    return hits & targets;
}

static inline uint64_t straight_targets(int sq, uint64_t occupied, uint64_t targets)
{
    uint64_t file = uz__b1_lines[B_LINE_FILE][sq], hits = 0;
    if (file & targets)
        hits = b1_line_attacks(sq, occupied, file);
    if ((RANK_1 << (sq & 56)) & targets)
        hits |= b1_rank_attacks(sq, occupied);
    return hits & targets;
}

/* The moves come out by from-square, then to-square, both ascending. Each piece type is
 * looked at set-wise first: only pieces that have a target get a to-set (kept by
 * from-square in to_sets[], marked in from_set), pawns that cannot capture or promote
 * and sliders whose empty-board lines hold no target are skipped without computing
 * their attacks; the moves are written in order at the end. */
int uz__b1_generate_captures(const uz_position *pos, uz_move *moves)
{
    int us = pos->side, them = us ^ 1, n = 0;
    uint64_t own = pos->by_color[us];
    uint64_t occupied = own | pos->by_color[them];
    uint64_t targets = pos->by_color[them] & ~pos->by_type[UZ_KING];
    uint64_t to_sets[64]; /* valid where from_set has the square */
    uint64_t from_set = 0;

    /* Pawns: those attacking a target or the ep square (the squares an enemy pawn on one
     * of them would attack), and those with a free square to promote on. */
    uint64_t pawns = pos->by_type[UZ_PAWN] & own;
    uint64_t pawn_targets = targets;
    if (pos->ep_square != UZ_SQ_NONE)
        pawn_targets |= 1ULL << pos->ep_square;
    uint64_t sides = ((pawn_targets >> 1) & ~FILE_H) | ((pawn_targets << 1) & ~FILE_A);
    uint64_t capturers = pawns & (us == UZ_WHITE ? sides >> 8 : sides << 8);
    uint64_t pushers = us == UZ_WHITE ? pawns & RANK_7 & ~(occupied >> 8) : pawns & RANK_2 & ~(occupied << 8);
    for (uint64_t b = capturers | pushers; b; b &= b - 1) {
        int from = b1_lsb(b);
        uint64_t to_set = uz__b1_pawn_attacks[us][from] & pawn_targets;
        if (pushers >> from & 1)
            to_set |= 1ULL << (us == UZ_WHITE ? from + 8 : from - 8);
        to_sets[from] = to_set;
    }
    from_set |= capturers | pushers;

    for (uint64_t b = pos->by_type[UZ_KNIGHT] & own; b; b &= b - 1) {
        int from = b1_lsb(b);
        uint64_t to_set = uz__b1_knight_attacks[from] & targets;
        to_sets[from] = to_set;
        from_set |= (uint64_t)(to_set != 0) << from;
    }
    for (uint64_t b = pos->by_type[UZ_BISHOP] & own; b; b &= b - 1) {
        int from = b1_lsb(b);
        uint64_t to_set = diagonal_targets(from, occupied, targets);
        to_sets[from] = to_set;
        from_set |= (uint64_t)(to_set != 0) << from;
    }
    for (uint64_t b = pos->by_type[UZ_ROOK] & own; b; b &= b - 1) {
        int from = b1_lsb(b);
        uint64_t to_set = straight_targets(from, occupied, targets);
        to_sets[from] = to_set;
        from_set |= (uint64_t)(to_set != 0) << from;
    }
    for (uint64_t b = pos->by_type[UZ_QUEEN] & own; b; b &= b - 1) {
        int from = b1_lsb(b);
        uint64_t to_set = diagonal_targets(from, occupied, targets) | straight_targets(from, occupied, targets);
        to_sets[from] = to_set;
        from_set |= (uint64_t)(to_set != 0) << from;
    }
    int king = pos->king_sq[us];
    uint64_t king_set = uz__b1_king_attacks[king] & targets;
    to_sets[king] = king_set;
    from_set |= (uint64_t)(king_set != 0) << king;

    uint64_t promoting = pawns & (us == UZ_WHITE ? RANK_7 : RANK_2);
    for (; from_set; from_set &= from_set - 1) {
        int from = b1_lsb(from_set);
        uz_move base = UZ_MOVE(from, 0, (promoting >> from & 1) ? UZ_QUEEN : 0);
        for (uint64_t to_set = to_sets[from]; to_set; to_set &= to_set - 1)
            moves[n++] = (uz_move)(base | b1_lsb(to_set) << 6);
    }
    return n;
}
