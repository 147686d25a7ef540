/* Scores every codable position of a batch of games with an oracle, keeping a bounded
 * number of queries in flight so that every engine worker stays busy. */
#include <stdlib.h>
#include <string.h>

#include "gamecode/gamecode.h"

/* Queries in flight: enough to keep any reasonable number of workers fed, few enough
 * that their memory (~2 KB each) does not matter. */
#define SLOTS 256

typedef struct scoring_job scoring_job;

typedef struct scoring_slot {
    uz_query query;
    scoring_job *job;
    uz_walk *walk;
    size_t index;           /* the step's */
    /* The work's results (keep_scores), taken by on_scored: */
    int32_t *scores;
    uint16_t *freq;
    uint32_t freq_total;
    bool nomem;
} scoring_slot;

struct scoring_job {
    uz_oracle *oracle;
    const uz_model *model;  /* NULL: scores only */
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

/* The query's work (oracle/oracle.h), on whichever thread answered: a copy of the scores
 * for the step or, with a model, the step's coding frequencies instead. Reads the walk's
 * positions, moves and tags, which nothing writes while scoring (every walk is resolved
 * first; the callbacks only fill in the scores and frequencies of other steps). */
static void keep_scores(uz_query *q, void *user)
{
    scoring_slot *slot = user;
    size_t n = (size_t)q->n_moves;
    if (slot->job->model) {
        /* 16 bits each (a block's frequencies wait for its coding); were one wider, the
         * scores are kept and the coder computes them. */
        uint32_t freq[UZ_MAX_MOVES], widest = 0;
        slot->freq_total = uz_step_frequencies(slot->job->model, slot->walk, slot->index, q->moves, q->scores,
                                               q->n_moves, freq);
        for (size_t i = 0; i < n; i++)
            widest |= freq[i];
        if (widest <= UINT16_MAX) {
            if (!(slot->freq = malloc(n * sizeof *slot->freq))) {
                slot->nomem = true;
                return;
            }
            for (size_t i = 0; i < n; i++)
                slot->freq[i] = (uint16_t)freq[i];
            return;
        }
    }
    if (!(slot->scores = malloc(n * sizeof *slot->scores))) {
        slot->nomem = true;
        return;
    }
    memcpy(slot->scores, q->scores, n * sizeof *slot->scores);
}

static void on_scored(uz_query *q, void *user)
{
    scoring_slot *slot = user;
    scoring_job *job = slot->job;
    if (q->status != UZ_OK) {
        if (job->error == UZ_OK)
            job->error = q->status;
        return; /* stop feeding this slot; the pool reports the error */
    }
    uz_query_work(q);
    uz_step *step = &slot->walk->steps[slot->index];
    step->scores = slot->scores;
    step->freq = slot->freq;
    step->freq_total = slot->freq_total;
    slot->scores = NULL;
    slot->freq = NULL;
    if (slot->nomem) {
        job->error = UZ_ERR_NOMEM;
        return;
    }
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
    slot->walk = w;
    slot->index = i;
    slot->nomem = false;
    uz_query *q = &slot->query;
    q->pos = w->before[i];
    q->n_moves = step->n_legal;
    memcpy(q->moves, uz_walk_legal(w, i), (size_t)step->n_legal * sizeof *q->moves);
    q->done = on_scored;
    q->user = slot;
    q->work = keep_scores;
    q->work_user = slot;
    uz_oracle_submit(slot->job->oracle, q);
}

/* Scores the positions of the resolved walks. */
static uz_result score_resolved(uz_oracle *oracle, const uz_model *model, uz_walk *const *walks, size_t n_walks,
                                uz_diag *diag)
{
    scoring_slot *slots = calloc(SLOTS, sizeof *slots);
    if (!slots) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    scoring_job job = {.oracle = oracle, .model = model, .walks = walks, .n_walks = n_walks};
    for (int s = 0; s < SLOTS; s++) {
        slots[s].job = &job;
        submit_next(&slots[s]);
    }
    uz_result r = uz_oracle_run(oracle, diag);
    if (r == UZ_OK && job.error != UZ_OK) {
        r = job.error;
        uz_diag_set(diag, r, 0, 0, "%s while scoring positions", uz_result_str(r));
    }
    for (int s = 0; s < SLOTS; s++) { /* results of work whose done never came (a failed run) */
        free(slots[s].scores);
        free(slots[s].freq);
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
    uz_result r = uz_score_walk_list(oracle, NULL, list, n_walks, diag);
    free(list);
    return r;
}

uz_result uz_score_walk_list(uz_oracle *oracle, const uz_model *model, uz_walk *const *walks, size_t n_walks,
                             uz_diag *diag)
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
    return oracle ? score_resolved(oracle, model, walks, n_walks, diag) : UZ_OK;
}
