/* Scores every codable position of a batch of games with the engine pool, keeping a
 * bounded number of queries in flight so that every worker stays busy. */
#include <stdlib.h>
#include <string.h>

#include "ucizip/gamecode.h"

/* Queries in flight: enough to keep any reasonable number of workers fed, few enough
 * that their memory (~2 KB each) does not matter. */
#define SLOTS 64

typedef struct scoring_job scoring_job;

typedef struct scoring_slot {
    uz_query query;
    scoring_job *job;
    uz_step *step;
} scoring_slot;

struct scoring_job {
    uz_pool *pool;
    uz_walk *walks;
    size_t n_walks;
    size_t walk, step;      /* next step to consider */
    uz_result error;
};

/* Finds the next step that needs scores, or NULL. */
static uz_step *next_step(scoring_job *job, uz_walk **walk_out, size_t *index_out)
{
    while (job->walk < job->n_walks) {
        uz_walk *w = &job->walks[job->walk];
        while (job->step < w->n_steps) {
            size_t i = job->step++;
            if (w->steps[i].n_legal >= 2) {
                *walk_out = w;
                *index_out = i;
                return &w->steps[i];
            }
        }
        job->walk++;
        job->step = 0;
    }
    return NULL;
}

static void submit_next(scoring_slot *slot);

static void on_scored(uz_query *q, void *user)
{
    scoring_slot *slot = user;
    scoring_job *job = slot->job;
    if (q->status != UZ_OK) {
        if (job->error == UZ_OK)
            job->error = q->status;
        return; /* stop feeding this slot; the pool reports the error */
    }
    int32_t *scores = malloc((size_t)q->n_moves * sizeof *scores);
    if (!scores) {
        job->error = UZ_ERR_NOMEM;
        return;
    }
    memcpy(scores, q->scores, (size_t)q->n_moves * sizeof *scores);
    slot->step->scores = scores;
    if (job->error == UZ_OK)
        submit_next(slot);
}

static void submit_next(scoring_slot *slot)
{
    uz_walk *w;
    size_t i;
    uz_step *step = next_step(slot->job, &w, &i);
    if (!step)
        return;
    slot->step = step;
    uz_query *q = &slot->query;
    q->pos = w->before[i];
    q->n_moves = uz_generate_legal(&q->pos, q->moves);
    q->done = on_scored;
    q->user = slot;
    uz_pool_submit(slot->job->pool, q);
}

uz_result uz_score_walks(uz_pool *pool, uz_walk *walks, size_t n_walks, uz_diag *diag)
{
    uz_move legal[UZ_MAX_MOVES];
    int n;
    for (size_t g = 0; g < n_walks; g++) {
        uz_walk *w = &walks[g];
        while (w->resolved < w->n_steps) {
            uz_result r = uz_walk_resolve_next(w, legal, &n);
            if (r != UZ_OK) {
                uz_diag_set(diag, r, 0, 0, "illegal move in game tree");
                return r;
            }
        }
    }
    if (!pool)
        return UZ_OK;
    scoring_slot *slots = calloc(SLOTS, sizeof *slots);
    if (!slots) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    scoring_job job = {.pool = pool, .walks = walks, .n_walks = n_walks};
    for (int s = 0; s < SLOTS; s++) {
        slots[s].job = &job;
        submit_next(&slots[s]);
    }
    uz_result r = uz_pool_run(pool, diag);
    if (r == UZ_OK && job.error != UZ_OK) {
        r = job.error;
        uz_diag_set(diag, r, 0, 0, "%s while scoring positions", uz_result_str(r));
    }
    free(slots);
    return r;
}

uz_result uz_score_walks_960(uz_pool *pool, uz_pool *pool960, uz_walk *walks, size_t n_walks, uz_diag *diag)
{
    size_t n960 = 0;
    for (size_t i = 0; i < n_walks; i++)
        n960 += walks[i].game->start.chess960 != 0;
    if (n960 == 0 || !pool)
        return uz_score_walks(pool, walks, n_walks, diag);
    if (!pool960) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "Chess960 games need an engine with UCI_Chess960");
        return UZ_ERR_ARG;
    }
    /* Each group scored on its engine through shallow copies of its walks, copied back. */
    uz_walk *sorted = malloc(n_walks * sizeof *sorted);
    if (!sorted) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    size_t k = 0;
    for (int chess960 = 0; chess960 < 2; chess960++)
        for (size_t i = 0; i < n_walks; i++)
            if ((walks[i].game->start.chess960 != 0) == chess960)
                sorted[k++] = walks[i];
    size_t n_standard = n_walks - n960;
    uz_result r = uz_score_walks(pool, sorted, n_standard, diag);
    if (r == UZ_OK)
        r = uz_score_walks(pool960, sorted + n_standard, n960, diag);
    k = 0;
    for (int chess960 = 0; chess960 < 2; chess960++)
        for (size_t i = 0; i < n_walks; i++)
            if ((walks[i].game->start.chess960 != 0) == chess960)
                walks[i] = sorted[k++];
    free(sorted);
    return r;
}
