/* builtin-1: the quiescence search's move generator (captures and queen promotions). */
#include "builtin1.h"

int uz__b1_generate_captures(const uz_position *pos, uz_move *moves)
{
    int us = pos->side, them = us ^ 1, n = 0;
    uint64_t occupied = pos->by_color[0] | pos->by_color[1];
    uint64_t targets = pos->by_color[them] & ~pos->by_type[UZ_KING];
    uint64_t last_rank = us == UZ_WHITE ? 0xFF00000000000000ULL : 0xFFULL;
    for (uint64_t pieces = pos->by_color[us]; pieces; pieces &= pieces - 1) {
        int from = b1_lsb(pieces);
        int type = UZ_PIECE_TYPE(pos->squares[from]);
        uint64_t attacks = type == UZ_PAWN ? uz__b1_pawn_attacks[us][from] : b1_piece_attacks(type, from, occupied);
        uint64_t to_set = attacks & targets;
        if (type == UZ_PAWN) {
            if (pos->ep_square != UZ_SQ_NONE && (attacks >> pos->ep_square & 1))
                to_set |= 1ULL << pos->ep_square;
            int push = us == UZ_WHITE ? from + 8 : from - 8;
            if ((last_rank >> push & 1) && !(occupied >> push & 1))
                to_set |= 1ULL << push;
        }
        for (; to_set; to_set &= to_set - 1) {
            int to = b1_lsb(to_set);
            bool promotes = type == UZ_PAWN && (last_rank >> to & 1);
            moves[n++] = UZ_MOVE(from, to, promotes ? UZ_QUEEN : 0);
        }
    }
    return n;
}
