/* Helpers shared by board.c, movegen.c and san.c; not part of the public API. */
#ifndef UCIZIP_CHESS_INTERNAL_H
#define UCIZIP_CHESS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "chess/board.h"

#define UZ__BB(sq) ((uint64_t)1 << (sq))

#if defined(__GNUC__)
static inline int uz__lsb(uint64_t b)
{
    return __builtin_ctzll(b);
}

static inline int uz__popcount(uint64_t b)
{
    return __builtin_popcountll(b);
}

/* The highest set square of b; b must not be empty. */
static inline int uz__msb(uint64_t b)
{
    return 63 - __builtin_clzll(b);
}
#else
static inline int uz__lsb(uint64_t b)
{
    int n = 0;
    while (!(b & 1)) {
        b >>= 1;
        n++;
    }
    return n;
}

static inline int uz__popcount(uint64_t b)
{
    int n = 0;
    for (; b; b &= b - 1)
        n++;
    return n;
}

static inline int uz__msb(uint64_t b)
{
    int n = 63;
    while (!(b >> n))
        n--;
    return n;
}
#endif

/* Returns the lowest set square of *b and clears it; *b must not be empty. */
static inline int uz__pop_lsb(uint64_t *b)
{
    int sq = uz__lsb(*b);
    *b &= *b - 1;
    return sq;
}

/* Attack sets. The leapers take a set of squares and return the union of their
 * attacks; the sliders take one square and the occupancy that blocks them. */
uint64_t uz__knight_attacks(uint64_t squares);
uint64_t uz__king_attacks(uint64_t squares);
uint64_t uz__pawn_attacks(int color, uint64_t squares);
uint64_t uz__rook_attacks(int sq, uint64_t occupied);
uint64_t uz__bishop_attacks(int sq, uint64_t occupied);

/* Pieces of both colours that attack sq when the board occupancy is occupied
 * (the piece bitboards themselves are taken from pos as they are). */
uint64_t uz__attackers_to(const uz_position *pos, int sq, uint64_t occupied);

/* True if the side to move's pawn on from may legally capture en passant on
 * pos->ep_square (which must be set), i.e. its own king is not left attacked. */
bool uz__ep_capture_legal(const uz_position *pos, int from);

/* Legal moves in generation order (not canonical); used where order does not
 * matter (perft, legality checks, SAN matching). Returns the count. */
int uz__generate_unsorted(const uz_position *pos, uz_move *moves);

#endif
