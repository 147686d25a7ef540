/* Scores every codable position of a batch of games with an oracle, keeping a bounded
 * number of queries in flight so that every engine worker stays busy. */
#include <stdlib.h>
#include <string.h>

#include "gamecode/gamecode.h"

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
    uz_oracle *oracle;
    uz_walk *const *walks;
    size_t n_walks;
    size_t walk, step;      /* next step to consider */
    uz_result error;
};

/* Finds the next step that needs scores, or NULL. */
static uz_step *next_step(scoring_job *job, uz_walk **walk_out, size_t *index_out)
{
    while (job->walk < job->n_walks) {
        uz_walk *w = job->walks[job->walk];
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
    q->n_moves = step->n_legal;
    memcpy(q->moves, uz_walk_legal(w, i), (size_t)step->n_legal * sizeof *q->moves);
    q->done = on_scored;
    q->user = slot;
    uz_oracle_submit(slot->job->oracle, q);
}

/* Scores the positions of the resolved walks. */
static uz_result score_resolved(uz_oracle *oracle, uz_walk *const *walks, size_t n_walks, uz_diag *diag)
{
    scoring_slot *slots = calloc(SLOTS, sizeof *slots);
    if (!slots) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    scoring_job job = {.oracle = oracle, .walks = walks, .n_walks = n_walks};
    for (int s = 0; s < SLOTS; s++) {
        slots[s].job = &job;
        submit_next(&slots[s]);
    }
    uz_result r = uz_oracle_run(oracle, diag);
    if (r == UZ_OK && job.error != UZ_OK) {
        r = job.error;
        uz_diag_set(diag, r, 0, 0, "%s while scoring positions", uz_result_str(r));
    }
    free(slots);
    return r;
}

uz_result uz_score_walks(uz_oracle *oracle, uz_walk *walks, size_t n_walks, uz_diag *diag)
{
    uz_walk **list = malloc((n_walks ? n_walks : 1) * sizeof *list);
    if (!list) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    for (size_t g = 0; g < n_walks; g++)
        list[g] = &walks[g];
    uz_result r = uz_score_walk_list(oracle, list, n_walks, diag);
    free(list);
    return r;
}

uz_result uz_score_walk_list(uz_oracle *oracle, uz_walk *const *walks, size_t n_walks, uz_diag *diag)
{
    for (size_t g = 0; g < n_walks; g++) {
        uz_walk *w = walks[g];
        while (w->resolved < w->n_steps) {
            uz_result r = uz_walk_resolve_next(w);
            if (r != UZ_OK) {
                uz_diag_set(diag, r, 0, 0, "%s", r == UZ_ERR_NOMEM ? "out of memory" : "illegal move in game tree");
                return r;
            }
        }
    }
    return oracle ? score_resolved(oracle, walks, n_walks, diag) : UZ_OK;
}
