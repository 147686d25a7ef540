/* The opening book: the moves played from each position of the first plies of 399,509
 * human games (../shared/training/; data/opening_book/), mixed into the model's
 * frequencies as p = (c_move + a p_model) / (C + a), with the weight a read from a small
 * table by the position's total count, its ply, the mover's rating and the time control
 * (doc/format.md, "Opening book"). Every book ever shipped stays compiled in; an archive
 * names the one it used (version and hash, header key 15), as it names its weight set. */
#ifndef UCIZIP_OPENING_BOOK_H
#define UCIZIP_OPENING_BOOK_H

#include <stdint.h>

#include "chess/board.h"
#include "model/player_model.h"

/* The weight table's buckets (part of a book version's definition):
 * the position's total count C: < 4, < 16, < 64, < 256, < 1024, < 4096, < 16384, more;
 * its ply 2 (fullmove - 1) + side: < 8, < 16, < 24, < 32, more;
 * the mover's rating: unknown, < 1600, < 2000, < 2300, more;
 * the time control's base: unknown, < 300 s, < 1500 s, more. */
#define UZ_BOOK_COUNT_BUCKETS 8
#define UZ_BOOK_PLY_BUCKETS 5
#define UZ_BOOK_ELO_BUCKETS 5
#define UZ_BOOK_TC_BUCKETS 4
#define UZ_BOOK_CELLS (UZ_BOOK_COUNT_BUCKETS * UZ_BOOK_PLY_BUCKETS * UZ_BOOK_ELO_BUCKETS * UZ_BOOK_TC_BUCKETS)

/* The frozen FNV-1a 64 of each version's data file (the build checks it). */
#define UZ_BOOK1_FNV 0xbe7f83b08d30b619ULL
/* The book new archives use. */
#define UZ_BOOK_LATEST 1u

typedef struct uz_book {
    uint32_t version;
    uint64_t hash;            /* FNV-1a 64 of the data file */
    uint32_t n_positions;
    const uint32_t *alpha16;  /* [UZ_BOOK_CELLS]: a x 16 by cell (uz_book_cell); 0: the book is not mixed */
    const uint64_t *keys;     /* [n_positions], increasing: the positions' Zobrist keys */
    const uint32_t *first;    /* [n_positions + 1]: position i's moves are [first[i], first[i + 1]) */
    const uint16_t *moves;    /* the moves (uz_move) */
    const uint32_t *counts;   /* how many games played each; a position's total is below 2^24 */
} uz_book;

/* The compiled-in book of version, NULL if there is none. */
const uz_book *uz_book_builtin(uint32_t version);

/* The counts of pos's legal moves moves[0..n) into c[0..n); returns their total C (0 when
 * the book does not hold the position; Chess960 positions are never looked up). */
uint32_t uz_book_counts(const uz_book *b, const uz_position *pos, const uz_move *moves, int n, uint32_t *c);

/* The weight table's cell of a position with book total C (>= 1), for the game's
 * ratings and time control. */
int uz_book_cell(uint32_t total, const uz_position *pos, const uz_pm_game *game);

#endif
