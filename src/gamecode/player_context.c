/* The player model's side of move coding: its weights chosen from an archive's header,
 * and what it knows before a step's move: the game's tags and the moves on
 * the way to the step's position (following variations back to the main line). */
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

uz_result uz_model_open(uz_model *m, const uz_model_params *params, uz_diag *diag)
{
    uz_result r = uz_model_init(m, params);
    if (r != UZ_OK) {
        uz_diag_set(diag, r, 0, 0, "invalid model parameters");
        return r;
    }
    if (params->kind != UZ_MODEL_PLAYER)
        return UZ_OK;
    const uz_player_model *pm = uz_pm_builtin_version(UZ_PM_DEFAULT_VERSION_ENGINE);
    uint64_t want = (uint64_t)params->player_hash_hi << 32 | params->player_hash_lo;
    if (params->player_version == 0 && want == 0) {
        /* a new archive of a UCI engine (the builtin's name their set before): the
         * engines' default weights */
        m->params.player_version = pm->version;
        m->params.player_hash_lo = (uint32_t)pm->hash;
        m->params.player_hash_hi = (uint32_t)(pm->hash >> 32);
    } else if (!(pm = uz_pm_builtin_find(params->player_version, want))) {
        pm = uz_pm_builtin_latest();
        uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0,
                    "the archive needs player model version %u with weights %016llx, which this program does not "
                    "have (its newest: version %u, weights %016llx)",
                    params->player_version, (unsigned long long)want, pm->version, (unsigned long long)pm->hash);
        return UZ_ERR_MISMATCH;
    }
    m->player = pm;
    return UZ_OK;
}

uint32_t uz_step_frequencies(const uz_model *m, const uz_walk *w, size_t s, const uz_move *legal,
                             const int32_t *scores, int n, uint32_t *freq)
{
    if (m->params.kind != UZ_MODEL_PLAYER)
        return uz_model_frequencies(m, scores, n, freq);
    if (!m->player || n < 1 || n > UZ_MAX_MOVES)
        return 0;
    int64_t sc[UZ_MAX_MOVES];
    uz_pm_game g;
    uz_pm_history h;
    uz_walk_pm_game(w, &g);
    uz_walk_pm_history(w, s, &h);
    uz_pm_move_scores(m->player, &w->before[s], legal, scores, n, &g, &h, sc);
    return uz_pm_frequencies(m->player, sc, n, freq);
}
