/* Move streams: the played moves coded against the model's frequencies for the engine's
 * scores, and decoded back position by position. */
#include <stdlib.h>
#include <string.h>

#include "gamecode/gamecode.h"

uz_result uz_encode_walk(const uz_model *model, uz_encoder *enc, const uz_walk *w)
{
    uint32_t freq[UZ_MAX_MOVES];
    for (size_t i = 0; i < w->n_steps; i++) {
        const uz_step *step = &w->steps[i];
        if (step->n_legal < 2)
            continue;
        if (!step->scores || step->played < 0)
            return UZ_ERR_ARG;
        uint32_t total = uz_step_frequencies(model, w, i, uz_walk_legal(w, i), step->scores, step->n_legal, freq);
        if (total == 0)
            return UZ_ERR_ARG;
        uz_result r = uz_encoder_put(enc, freq, step->n_legal, total, step->played);
        if (r != UZ_OK)
            return r;
    }
    return UZ_OK;
}

/* ---- decoding: one state machine per game, advanced from the oracle's callbacks ---- */

typedef struct decode_job decode_job;

typedef struct game_decoder {
    decode_job *job;
    uz_walk walk;
    uz_decoder dec;
    uz_query query;
    uz_result *status;
    bool active;
} game_decoder;

struct decode_job {
    uz_oracle *oracle;
    const uz_model *model;
    uz_result fatal;
};

static void finish_game(game_decoder *g, uz_result r)
{
    if (r == UZ_OK)
        r = uz_decoder_finish(&g->dec);
    *g->status = r;
    g->active = false;
}

/* Resolves steps until one needs the engine (query submitted) or the game ends. */
static void advance(game_decoder *g)
{
    uz_walk *w = &g->walk;
    while (w->resolved < w->n_steps) {
        size_t s = w->resolved;
        uz_result r = uz_walk_resolve_next(w);
        if (r != UZ_OK) {
            if (r == UZ_ERR_NOMEM && g->job->fatal == UZ_OK)
                g->job->fatal = r;
            finish_game(g, r == UZ_ERR_NOMEM ? r : UZ_ERR_CORRUPT);
            return;
        }
        uz_step *step = &w->steps[s];
        int n = step->n_legal;
        if (step->node->move == UZ_MOVE_NULL)
            continue;
        if (n == 0) { /* a move stored after mate or stalemate */
            finish_game(g, UZ_ERR_CORRUPT);
            return;
        }
        if (n == 1) {
            step->node->move = uz_walk_legal(w, s)[0];
            step->played = 0;
            continue;
        }
        g->query.pos = w->before[s];
        g->query.n_moves = n;
        memcpy(g->query.moves, uz_walk_legal(w, s), (size_t)n * sizeof *g->query.moves);
        uz_oracle_submit(g->job->oracle, &g->query);
        return;
    }
    finish_game(g, UZ_OK);
}

static void on_position_scored(uz_query *q, void *user)
{
    game_decoder *g = user;
    if (q->status != UZ_OK) {
        if (g->job->fatal == UZ_OK)
            g->job->fatal = q->status;
        finish_game(g, q->status);
        return;
    }
    uint32_t freq[UZ_MAX_MOVES];
    uint32_t total = uz_step_frequencies(g->job->model, &g->walk, g->walk.resolved - 1, q->moves, q->scores,
                                         q->n_moves, freq);
    int symbol;
    if (total == 0 || uz_decoder_get(&g->dec, freq, q->n_moves, total, &symbol) != UZ_OK || symbol < 0 || symbol >= q->n_moves) {
        finish_game(g, UZ_ERR_CORRUPT);
        return;
    }
    uz_step *step = &g->walk.steps[g->walk.resolved - 1];
    step->node->move = q->moves[symbol];
    step->played = (int16_t)symbol;
    advance(g);
}

uz_result uz_decode_games(uz_oracle *oracle, const uz_model *model, uz_coder_kind coder, uz_game *games,
                          const uint8_t *const *streams, const size_t *sizes, size_t n, uz_result *status,
                          uz_diag *diag)
{
    decode_job job = {.oracle = oracle, .model = model};
    game_decoder *gd = calloc(n ? n : 1, sizeof *gd);
    if (!gd) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    uz_result r = UZ_OK;
    for (size_t i = 0; i < n; i++) {
        game_decoder *g = &gd[i];
        g->job = &job;
        g->status = &status[i];
        g->query.done = on_position_scored;
        g->query.user = g;
        status[i] = UZ_ERR_CORRUPT;
        if (uz_walk_init(&g->walk, &games[i]) != UZ_OK) {
            r = UZ_ERR_NOMEM;
            uz_diag_set(diag, r, 0, 0, "out of memory");
            goto out;
        }
        if (uz_decoder_init(&g->dec, coder, streams[i], sizes[i]) != UZ_OK)
            continue; /* status stays corrupt */
        g->active = true;
        advance(g);
    }
    r = uz_oracle_run(oracle, diag);
    if (r == UZ_OK && job.fatal != UZ_OK) {
        r = job.fatal;
        uz_diag_set(diag, r, 0, 0, "%s while decoding", uz_result_str(r));
    }
out:
    for (size_t i = 0; i < n; i++)
        uz_walk_free(&gd[i].walk);
    free(gd);
    return r;
}
