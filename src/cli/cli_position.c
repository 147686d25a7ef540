/* Games that reach a position: the cheap test before decoding and the walk after. */
#include <string.h>

#include "cli_position.h"

static bool same_board(const uz_position *a, const uz_position *b)
{
    return a->side == b->side && memcmp(a->squares, b->squares, sizeof a->squares) == 0;
}

bool cli_game_may_reach(const uz_game *game, const uz_position *target)
{
    const uz_position *s = &game->start;
    if (game->verbatim || game->text_only)
        return false; /* kept as text: no moves to follow */
    int gone = 0;
    for (int c = 0; c < 2; c++) {
        uint64_t pawns_t = target->by_color[c] & target->by_type[UZ_PAWN];
        uint64_t pawns_s = s->by_color[c] & s->by_type[UZ_PAWN];
        int n_t = __builtin_popcountll(target->by_color[c]), n_s = __builtin_popcountll(s->by_color[c]);
        if (n_t > n_s || __builtin_popcountll(pawns_t) > __builtin_popcountll(pawns_s))
            return false;
        gone += n_s - n_t;
        uint64_t home = c == UZ_WHITE ? 0xff00ULL : 0xff000000000000ULL; /* rank 2 / rank 7 */
        if (pawns_t & home & ~pawns_s)
            return false;
    }
    return (size_t)gone <= game->main.n_nodes;
}

bool cli_game_reaches(const uz_game *game, const uz_position *target)
{
    uz_position pos = game->start;
    uz_undo undo;
    for (size_t i = 0;; i++) {
        if (same_board(&pos, target))
            return true;
        if (i == game->main.n_nodes)
            return false;
        uz_make_move(&pos, game->main.nodes[i].move, &undo);
    }
}
