/* uz_game_filter and the uz_game tag accessors (ucizip_experimental.h): games selected by
 * their tags (pgn/tagfilter.h) and by a position their main line reaches. A position
 * matches on its pieces and the side to move; castling rights, the en-passant square and
 * the move counters are not compared (pgn-extract's positional match does the same with
 * the board). */
#include <stdlib.h>
#include <string.h>

#include "lib_internal.h"
#include "chess/board.h"
#include "pgn/tagfilter.h"

struct uz_game_filter {
    uz_tag_filter tags;
    bool has_position;
    uz_position position;
};

/* ---- a game's tags ---- */

uz_result uz_game_read_tags(uz_game *game, uz_diag *diag)
{
    if (uz_game_verbatim_tags(game) == UZ_OK)
        return UZ_OK;
    uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
    return UZ_ERR_NOMEM;
}

size_t uz_game_tag_count(const uz_game *game)
{
    return game->n_tags;
}

void uz_game_tag_at(const uz_game *game, size_t i, const char **name, const char **value)
{
    *name = game->tags[i].name;
    *value = uz_game_tag_derived(game, i) ? NULL : game->tags[i].value; /* not known before the moves */
}

const char *uz_game_tag_value(const uz_game *game, const char *name)
{
    for (size_t i = 0; i < game->n_tags; i++)
        if (strcmp(game->tags[i].name, name) == 0)
            return uz_game_tag_derived(game, i) ? NULL : game->tags[i].value;
    return NULL;
}

size_t uz_game_derived_tag(const uz_game *game)
{
    return game->n_derived ? game->derived[0].tag + 1 : 0;
}

bool uz_game_tag_derived(const uz_game *game, size_t i)
{
    for (size_t d = 0; d < game->n_derived; d++)
        if (game->derived[d].tag == i)
            return true;
    return false;
}

const char *uz_game_result_text(const uz_game *game)
{
    switch (game->result) {
    case UZ_RESULT_WHITE: return "1-0";
    case UZ_RESULT_BLACK: return "0-1";
    case UZ_RESULT_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

bool uz_game_is_text(const uz_game *game)
{
    return game->verbatim;
}

size_t uz_game_plies(const uz_game *game)
{
    return game->main.n_nodes;
}

/* ---- the filter ---- */

uz_result uz_game_filter_new(uz_game_filter **out, uz_diag *diag)
{
    *out = calloc(1, sizeof **out);
    if (*out)
        return UZ_OK;
    uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
    return UZ_ERR_NOMEM;
}

void uz_game_filter_free(uz_game_filter *f)
{
    if (!f)
        return;
    uz_tag_filter_free(&f->tags);
    free(f);
}

uz_result uz_game_filter_add_tag(uz_game_filter *f, const char *cond, uz_diag *diag)
{
    return uz_tag_filter_add(&f->tags, cond, diag);
}

uz_result uz_game_filter_add_player(uz_game_filter *f, const char *name, uz_diag *diag)
{
    return uz_tag_filter_add_player(&f->tags, name, diag);
}

uz_result uz_game_filter_set_position(uz_game_filter *f, const char *fen, uz_diag *diag)
{
    uz_result r = uz_position_from_fen(&f->position, fen, diag);
    f->has_position = r == UZ_OK;
    return r;
}

size_t uz_game_filter_conditions(const uz_game_filter *f)
{
    return f->tags.n;
}

bool uz_game_filter_has_position(const uz_game_filter *f)
{
    return f->has_position;
}

bool uz_game_filter_match(const uz_game_filter *f, const uz_game *game)
{
    return uz_tag_filter_match(&f->tags, game);
}

const char *uz_game_filter_derived(const uz_game_filter *f, const uz_game *game)
{
    for (size_t d = 0; f && d < game->n_derived; d++) {
        const char *name = game->tags[game->derived[d].tag].name;
        for (size_t c = 0; c < f->tags.n; c++)
            if (strcmp(f->tags.conds[c].name, name) == 0)
                return name;
    }
    return NULL;
}

/* False when game (its start position and main-line length; moves not needed) cannot
 * reach target: a side has more pieces or pawns in target than at the start, more
 * pieces are gone than there are plies to capture them, or a pawn stands on its home
 * rank in target where none stood at the start (pawns never move back). */
bool uz_game_filter_may_reach(const uz_game_filter *f, const uz_game *game)
{
    if (!f->has_position)
        return true;
    const uz_position *target = &f->position;
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

static bool same_board(const uz_position *a, const uz_position *b)
{
    return a->side == b->side && memcmp(a->squares, b->squares, sizeof a->squares) == 0;
}

bool uz_game_filter_reaches(const uz_game_filter *f, const uz_game *game)
{
    if (!f->has_position)
        return true;
    uz_position pos = game->start;
    uz_undo undo;
    for (size_t i = 0;; i++) {
        if (same_board(&pos, &f->position))
            return true;
        if (i == game->main.n_nodes)
            return false;
        uz_make_move(&pos, game->main.nodes[i].move, &undo);
    }
}
