/* Move streams: the played moves coded against the model's frequencies for the engine's
 * scores, and decoded back position by position. */
#include <stdlib.h>
#include <string.h>

#include "gamecode/gamecode.h"
#include "gamecode/opening.h"

uz_result uz_encode_walk(const uz_model *model, const uz_opening *opening, uz_encoder *enc, const uz_walk *w)
{
    uint32_t freq[UZ_MAX_MOVES];
    for (size_t i = 0; i < w->n_steps; i++) {
        const uz_step *step = &w->steps[i];
        if (step->n_legal < 2)
            continue;
        if ((!step->scores && !step->freq) || step->played < 0)
            return UZ_ERR_ARG;
        uint32_t total;
        if (step->freq) { /* computed by the scorer */
            total = step->freq_total;
            for (int k = 0; k < step->n_legal; k++)
                freq[k] = step->freq[k];
        } else {
            total = uz_step_frequencies(model, w, i, uz_walk_legal(w, i), step->scores, step->n_legal, freq);
        }
        if (total == 0)
            return UZ_ERR_ARG;
        uz_opening_mix(opening, w, i, freq, step->n_legal, total);
        uz_result r = uz_encoder_put(enc, freq, step->n_legal, total, step->played);
        if (r != UZ_OK)
            return r;
    }
    return UZ_OK;
}

/* ---- decoding: one state machine per game, advanced from the oracle's callbacks ----
 * With opening counts, game k may decode a counted step at main-line ply p only once
 * games 0..k-1 have decoded their ply p (or ended): its engine query runs as soon as
 * the position is known, and the answer waits (the game is parked) until then. */

typedef struct decode_job decode_job;

typedef struct game_decoder {
    decode_job *job;
    uz_walk *walk;      /* the game's record's (block/game_struct.h), kept for what comes after the moves */
    uz_decoder dec;
    uz_query query;
    uint32_t freq[UZ_MAX_MOVES]; /* the model's frequencies for the query's answer (its work) */
    uint32_t freq_total;
    uz_result *status;
    bool active;
    bool prefix;        /* only the counted plies are wanted (a game before the ones asked for) */
    bool parked;        /* scored, waiting for the games before it to pass park_ply */
    long park_ply;
    size_t main_done;   /* main-line moves known so far (SIZE_MAX once the game is over) */
} game_decoder;

struct decode_job {
    uz_oracle *oracle;
    const uz_model *model;
    uz_opening *opening;
    game_decoder *games;
    size_t n, n_parked;
    bool waking, wake_again;
    uz_result fatal;
};

static void wake(decode_job *job);

static void finish_game(game_decoder *g, uz_result r, bool check_end)
{
    if (r == UZ_OK && check_end)
        r = uz_decoder_finish(&g->dec);
    *g->status = r;
    g->active = false;
    g->main_done = SIZE_MAX;
    wake(g->job);
}

/* A main-line step's move became known: the games parked behind it may go on. */
static void main_move_known(game_decoder *g, size_t s)
{
    const uz_step *st = &g->walk->steps[s];
    if (!st->main_line)
        return;
    g->main_done = (size_t)(st->node - g->walk->game->main.nodes) + 1;
    if (g->job->opening && g->main_done <= uz_opening_plies(g->job->opening))
        wake(g->job);
}

/* Resolves steps until one needs the engine (query submitted) or the game ends. */
static void advance(game_decoder *g)
{
    uz_walk *w = g->walk;
    while (w->resolved < w->n_steps) {
        size_t s = w->resolved;
        /* A game before the ones asked for stops after its last counted ply. */
        if (g->prefix && g->main_done != SIZE_MAX && g->main_done >= uz_opening_plies(g->job->opening)) {
            finish_game(g, UZ_OK, false);
            return;
        }
        uz_result r = uz_walk_resolve_next(w);
        if (r != UZ_OK) {
            if (r == UZ_ERR_NOMEM && g->job->fatal == UZ_OK)
                g->job->fatal = r;
            finish_game(g, r == UZ_ERR_NOMEM ? r : UZ_ERR_CORRUPT, true);
            return;
        }
        uz_step *step = &w->steps[s];
        int n = step->n_legal;
        if (step->node->move == UZ_MOVE_NULL) {
            main_move_known(g, s);
            continue;
        }
        if (n == 0) { /* a move stored after mate or stalemate */
            finish_game(g, UZ_ERR_CORRUPT, true);
            return;
        }
        if (n == 1) {
            uz_walk_set_played(w, s, 0);
            main_move_known(g, s);
            continue;
        }
        g->query.pos = w->before[s];
        g->query.n_moves = n;
        memcpy(g->query.moves, uz_walk_legal(w, s), (size_t)n * sizeof *g->query.moves);
        uz_oracle_submit(g->job->oracle, &g->query);
        return;
    }
    finish_game(g, UZ_OK, true);
}

/* The query's work (oracle/oracle.h), on whichever thread answered: the model's
 * frequencies for the step just scored. Reads the game's own walk, which only this
 * game's callbacks write, and none runs while its query is out. */
static void step_frequencies(uz_query *q, void *user)
{
    game_decoder *g = user;
    g->freq_total = uz_step_frequencies(g->job->model, g->walk, g->walk->resolved - 1, q->moves, q->scores,
                                        q->n_moves, g->freq);
}

/* Decodes the move of the step just scored (the query's answer, its frequencies made by
 * its work) and goes on. */
static void decode_step(game_decoder *g)
{
    uz_query *q = &g->query;
    size_t s = g->walk->resolved - 1;
    uint32_t *freq = g->freq;
    uint32_t total = g->freq_total;
    uz_opening_mix(g->job->opening, g->walk, s, freq, q->n_moves, total);
    int symbol;
    if (total == 0 || uz_decoder_get(&g->dec, freq, q->n_moves, total, &symbol) != UZ_OK || symbol < 0 || symbol >= q->n_moves) {
        finish_game(g, UZ_ERR_CORRUPT, true);
        return;
    }
    uz_walk_set_played(g->walk, s, symbol); /* q->moves are the step's legal moves */
    if (uz_opening_add(g->job->opening, g->walk, s) != UZ_OK) {
        if (g->job->fatal == UZ_OK)
            g->job->fatal = UZ_ERR_NOMEM;
        finish_game(g, UZ_ERR_NOMEM, false);
        return;
    }
    main_move_known(g, s);
    advance(g);
}

/* Decodes, in game order, every parked game whose predecessors have all passed its ply
 * (their lowest main-line progress is above it). Re-entrant calls (a decode that makes
 * progress calls it again) only ask the running one for another pass. */
static void wake(decode_job *job)
{
    if (job->n_parked == 0)
        return;
    if (job->waking) {
        job->wake_again = true;
        return;
    }
    job->waking = true;
    do {
        job->wake_again = false;
        size_t low = SIZE_MAX; /* min main_done of the games before k */
        for (size_t k = 0; k < job->n && job->n_parked; k++) {
            game_decoder *g = &job->games[k];
            if (g->parked && low > (size_t)g->park_ply) {
                g->parked = false;
                job->n_parked--;
                decode_step(g);
            }
            if (g->main_done < low)
                low = g->main_done;
        }
    } while (job->wake_again);
    job->waking = false;
}

static void on_position_scored(uz_query *q, void *user)
{
    game_decoder *g = user;
    if (q->status != UZ_OK) {
        if (g->job->fatal == UZ_OK)
            g->job->fatal = q->status;
        finish_game(g, q->status, true);
        return;
    }
    uz_query_work(q);
    long ply = uz_opening_ply(g->job->opening, g->walk, g->walk->resolved - 1);
    if (ply >= 0) {
        g->parked = true;
        g->park_ply = ply;
        g->job->n_parked++;
        wake(g->job);
        return;
    }
    decode_step(g);
}

uz_result uz_decode_games(const uz_move_coder *mc, uz_opening *opening, size_t n_prefix, uz_coded_game *games,
                          size_t n, uz_result *status, uz_diag *diag)
{
    decode_job job = {.oracle = mc->oracle, .model = mc->model, .opening = opening};
    game_decoder *gd = calloc(n ? n : 1, sizeof *gd);
    if (!gd) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    job.games = gd;
    for (size_t i = 0; i < n; i++)
        gd[i].main_done = 0; /* not started: holds back the games after it */
    uz_result r = UZ_OK;
    for (size_t i = 0; i < n; i++) {
        game_decoder *g = &gd[i];
        g->job = &job;
        g->prefix = opening && i < n_prefix;
        g->status = &status[i];
        g->query.done = on_position_scored;
        g->query.user = g;
        g->query.work = step_frequencies;
        g->query.work_user = g;
        status[i] = UZ_ERR_CORRUPT;
        g->walk = games[i].walk;
        uz_walk_free(g->walk);
        if (uz_walk_init(g->walk, games[i].game) != UZ_OK) {
            r = UZ_ERR_NOMEM;
            uz_diag_set(diag, r, 0, 0, "out of memory");
            goto out;
        }
        job.n = i + 1;
        if (uz_decoder_init(&g->dec, mc->coder, games[i].moves, games[i].moves_len) != UZ_OK) {
            g->main_done = SIZE_MAX; /* status stays corrupt */
            continue;
        }
        g->active = true;
        advance(g);
    }
    r = uz_oracle_run(mc->oracle, diag);
    if (r == UZ_OK && job.fatal != UZ_OK) {
        r = job.fatal;
        uz_diag_set(diag, r, 0, 0, "%s while decoding", uz_result_str(r));
    }
out:
    free(gd);
    return r;
}
