/* The move model's context of a walk's step: the step's position, legal moves and scores,
 * the game's tags and the moves on the way to the position (following variations back to
 * the main line), what the model knows before the step's move. */
#include "gamecode/gamecode.h"

void uz_walk_pm_game(const uz_walk *w, uz_pm_game *g)
{
    uz_pm_game_from_tags(g, uz_game_tag(w->game, "WhiteElo"), uz_game_tag(w->game, "BlackElo"),
                         uz_game_tag(w->game, "TimeControl"));
}

void uz_walk_pm_history(const uz_walk *w, size_t s, uz_pm_history *h)
{
    h->last = h->own_last = UZ_MOVE_NONE;
    h->last_captured = false;
    h->n_keys = 0;
    int moves = 0;
    size_t cur = s;
    while (w->steps[cur].base != UZ_STEP_START && h->n_keys < UZ_PM_HISTORY) {
        const uz_step *st = &w->steps[cur];
        size_t b = st->base;
        cur = b;
        if (st->from_before)
            continue; /* same position as step b: its history is ours */
        /* the move of step b, played from before[b], led here */
        const uz_position *p = &w->before[b];
        uz_move m = w->steps[b].node->move;
        if (moves == 0) {
            h->last = m;
            if (m != UZ_MOVE_NULL && m != UZ_MOVE_NONE) {
                int from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m);
                h->last_captured = p->squares[to] != 0 ||
                                   (UZ_PIECE_TYPE(p->squares[from]) == UZ_PAWN && to == p->ep_square);
            }
        } else if (moves == 1) {
            h->own_last = m;
        }
        moves++;
        h->keys[h->n_keys++] = p->key;
    }
}

void uz_walk_model_context(const uz_walk *w, size_t s, const uz_move *legal, const int32_t *scores, int n,
                           uz_model_context *ctx)
{
    ctx->pos = &w->before[s];
    ctx->moves = legal;
    ctx->scores = scores;
    ctx->n = n;
    uz_walk_pm_game(w, &ctx->game);
    uz_walk_pm_history(w, s, &ctx->history);
}

uint32_t uz_step_frequencies(const uz_model *m, const uz_walk *w, size_t s, const uz_move *legal,
                             const int32_t *scores, int n, uint32_t *freq)
{
    uz_model_context ctx;
    uz_walk_model_context(w, s, legal, scores, n, &ctx);
    return uz_model_frequencies(m, &ctx, freq);
}
