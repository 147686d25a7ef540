/* The built-in search as an oracle (oracle/oracle.h): queries wait in a FIFO until run
 * answers them, in submission order, so a callback never runs from inside submit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

typedef struct builtin_oracle {
    uz_oracle base; /* first */
    uz_builtin *search;
    uz_query *head, *tail; /* pending queries, linked through their priv bytes */
    char name[32];
    char fingerprint[17];
    char settings[48];
} builtin_oracle;

static uz_query **next_of(uz_query *q) { return (uz_query **)(void *)q->priv; }

static void builtin_submit(uz_oracle *o, uz_query *q)
{
    builtin_oracle *b = (builtin_oracle *)(void *)o;
    *next_of(q) = NULL;
    if (b->tail)
        *next_of(b->tail) = q;
    else
        b->head = q;
    b->tail = q;
}

static uz_result builtin_run(uz_oracle *o, uz_diag *diag)
{
    builtin_oracle *b = (builtin_oracle *)(void *)o;
    uz_result first = UZ_OK;
    while (b->head) {
        uz_query *q = b->head;
        b->head = *next_of(q);
        if (!b->head)
            b->tail = NULL;
        if (q->n_moves < 1 || q->n_moves > UZ_MAX_MOVES) {
            q->status = UZ_ERR_ARG;
            if (first == UZ_OK)
                uz_diag_set(diag, first = UZ_ERR_ARG, 0, 0, "builtin oracle: a query with %d moves", q->n_moves);
        } else {
            uz_builtin_score_moves(b->search, &q->pos, q->moves, q->n_moves, q->scores);
            q->status = UZ_OK;
        }
        q->done(q, q->user);
    }
    return first;
}

static void builtin_identity(const uz_oracle *o, uz_oracle_identity *out)
{
    const builtin_oracle *b = (const builtin_oracle *)(const void *)o;
    *out = (uz_oracle_identity){b->name, b->fingerprint, b->settings};
}

static void builtin_destroy(uz_oracle *o)
{
    builtin_oracle *b = (builtin_oracle *)(void *)o;
    uz_builtin_destroy(b->search);
    free(b);
}

static const uz_oracle_ops builtin_ops = {builtin_submit, builtin_run, builtin_identity, builtin_destroy};

uz_result uz_builtin_oracle_create(uz_oracle **out, int version, int depth, uz_diag *diag)
{
    *out = NULL;
    builtin_oracle *b = calloc(1, sizeof *b);
    if (!b) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory for the builtin oracle");
        return UZ_ERR_NOMEM;
    }
    uz_result r = uz_builtin_create(&b->search, version, depth, diag);
    if (r != UZ_OK) {
        free(b);
        return r;
    }
    b->base.ops = &builtin_ops;
    snprintf(b->name, sizeof b->name, "ucizip builtin-%d", version);
    uz_copy_str(b->fingerprint, sizeof b->fingerprint, uz_builtin_fingerprint(version));
    snprintf(b->settings, sizeof b->settings, "builtin = %d\ndepth = %d\n", version, depth);
    *out = &b->base;
    return UZ_OK;
}
