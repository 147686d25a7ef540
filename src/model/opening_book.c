/* The opening book's lookups: a binary search of the sorted keys, the position's moves
 * matched to the legal moves, and the weight table's cell. The data are generated from
 * data/opening_book/ at build time (scripts/opening_book_c.py). */
#include "model/opening_book.h"

extern const uz_book uz__book1;

const uz_book *uz_book_builtin(uint32_t version)
{
    return version == 1 ? &uz__book1 : NULL;
}

uint32_t uz_book_counts(const uz_book *b, const uz_position *pos, const uz_move *moves, int n, uint32_t *c)
{
    for (int i = 0; i < n; i++)
        c[i] = 0;
    if (!b || pos->chess960 || b->n_positions == 0)
        return 0;
    uint32_t lo = 0, hi = b->n_positions;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (b->keys[mid] < pos->key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == b->n_positions || b->keys[lo] != pos->key)
        return 0;
    uint32_t total = 0;
    for (uint32_t j = b->first[lo]; j < b->first[lo + 1]; j++)
        for (int i = 0; i < n; i++)
            if (moves[i] == b->moves[j]) {
                c[i] = b->counts[j];
                total += c[i];
                break;
            }
    return total;
}

int uz_book_cell(uint32_t total, const uz_position *pos, const uz_pm_game *game)
{
    int ply = 2 * ((int)pos->fullmove - 1) + pos->side;
    int elo = game->elo[pos->side], base = game->base_time;
    int cb = 0;
    while (cb < UZ_BOOK_COUNT_BUCKETS - 1 && total >= 4u << 2 * cb)
        cb++; /* 4, 16, 64, ... 16384 */
    int pb = ply < 8 ? 0 : ply < 16 ? 1 : ply < 24 ? 2 : ply < 32 ? 3 : 4;
    int eb = elo <= 0 ? 0 : elo < 1600 ? 1 : elo < 2000 ? 2 : elo < 2300 ? 3 : 4;
    int tb = base <= 0 ? 0 : base < 300 ? 1 : base < 1500 ? 2 : 3;
    return ((cb * UZ_BOOK_PLY_BUCKETS + pb) * UZ_BOOK_ELO_BUCKETS + eb) * UZ_BOOK_TC_BUCKETS + tb;
}
