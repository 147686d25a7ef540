/* The synthetic oracle: deterministic made-up scores, so that the decoder's whole path
 * (walk, model, coders) runs without an engine on any input (fuzzing). */
#include <stdlib.h>

#include "oracle_queue.h"

typedef struct synthetic {
    uz_oracle base; /* first */
    uz__query_queue queue;
} synthetic;

static void synth_submit(uz_oracle *o, uz_query *q) { uz__query_queue_push(&((synthetic *)(void *)o)->queue, q); }

/* Scores from the position key and the move's index: varied, deterministic. */
static uz_result synth_answer(void *self, uz_query *q, char *msg, size_t cap)
{
    (void)self, (void)msg, (void)cap;
    for (int i = 0; i < q->n_moves; i++)
        q->scores[i] = (int32_t)((q->pos.key >> (i % 48)) % 401) - 200;
    return UZ_OK;
}

static uz_result synth_run(uz_oracle *o, uz_diag *diag)
{
    return uz__query_queue_run(&((synthetic *)(void *)o)->queue, synth_answer, NULL, diag);
}

static void synth_identity(const uz_oracle *o, uz_oracle_identity *out)
{
    (void)o;
    *out = (uz_oracle_identity){"synthetic", "", ""};
}

static void synth_destroy(uz_oracle *o)
{
    synthetic *s = (synthetic *)(void *)o;
    uz__query_queue_free(&s->queue);
    free(s);
}

static const uz_oracle_ops synth_ops = {synth_submit, synth_run, synth_identity, synth_destroy};

uz_result uz_oracle_synthetic_create(uz_oracle **out)
{
    synthetic *s = calloc(1, sizeof *s);
    *out = s ? &s->base : NULL;
    if (!s)
        return UZ_ERR_NOMEM;
    s->base.ops = &synth_ops;
    return UZ_OK;
}
