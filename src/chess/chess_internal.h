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

/* Attack sets of one square: the leapers' from constant tables (board.c), the sliders'
 * line by line, blocked by occupied. uz__pawn_table[color][sq]: the squares a pawn of
 * color on sq attacks; uz__diagonal_table[0 / 1][sq]: the whole diagonal (a1-h8
 * direction) / anti-diagonal through sq, sq included. */
extern const uint64_t uz__knight_table[64];
extern const uint64_t uz__king_table[64];
extern const uint64_t uz__pawn_table[2][64];
extern const uint64_t uz__diagonal_table[2][64];

static inline uint64_t uz__knight_from(int sq) { return uz__knight_table[sq]; }
static inline uint64_t uz__king_from(int sq) { return uz__king_table[sq]; }
static inline uint64_t uz__pawn_from(int color, int sq) { return uz__pawn_table[color][sq]; }

/* The whole file and rank through sq, and both lines of each kind (sq included). */
static inline uint64_t uz__file_through(int sq) { return 0x0101010101010101ULL << (sq & 7); }
static inline uint64_t uz__rank_through(int sq) { return 0xFFULL << (sq & 56); }

static inline uint64_t uz__straight_lines(int sq)
{
    return uz__file_through(sq) | uz__rank_through(sq);
}

static inline uint64_t uz__diagonal_lines(int sq)
{
    return uz__diagonal_table[0][sq] | uz__diagonal_table[1][sq];
}

/* The squares a slider on sq attacks along line (a whole line through sq), blocked by
 * occupied: above sq up to the first occupied square, below sq down to the last one. The
 * "| 1" gives the bit scan a square to find when nothing blocks below (it then yields
 * the whole ray). */
static inline uint64_t uz__line_attacks(uint64_t line, int sq, uint64_t occupied)
{
    const uint64_t bit = UZ__BB(sq);
    const uint64_t up = line & ~((bit << 1) - 1), down = line & (bit - 1);
    uint64_t first = up & occupied;
    first &= -first; /* 0 when nothing blocks: then (first - 1) | first keeps the whole ray */
    const int last = uz__msb((down & occupied) | 1);
    return (up & ((first - 1) | first)) | (down & (~0ULL << last));
}

static inline uint64_t uz__rook_attacks(int sq, uint64_t occupied)
{
    return uz__line_attacks(uz__file_through(sq), sq, occupied) | uz__line_attacks(uz__rank_through(sq), sq, occupied);
}

static inline uint64_t uz__bishop_attacks(int sq, uint64_t occupied)
{
    return uz__line_attacks(uz__diagonal_table[0][sq], sq, occupied) |
           uz__line_attacks(uz__diagonal_table[1][sq], sq, occupied);
}

/* Pieces of both colours that attack sq when the board occupancy is occupied
 * (the piece bitboards themselves are taken from pos as they are). */
uint64_t uz__attackers_to(const uz_position *pos, int sq, uint64_t occupied);

/* True if the side to move's pawn on from may legally capture en passant on
 * pos->ep_square (which must be set), i.e. its own king is not left attacked. */
bool uz__ep_capture_legal(const uz_position *pos, int from);

#endif
