/* The recording oracle (answers through another oracle, records every answer in a score
 * table) and the replaying oracle (answers from a table alone, no engine). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_queue.h"
#include "score_table.h"

/* ---- recording ---- */

typedef struct recorder {
    uz_oracle base; /* first */
    uz_oracle *inner;
    uz_score_table *table;
    uz_result error; /* recording failed (memory): the next run says so */
} recorder;

/* A query in flight through the recorder: its own callback, restored on completion. */
typedef struct recorded_query {
    recorder *rec;
    void (*done)(uz_query *q, void *user);
    void *user;
} recorded_query;

static void recorded_done(uz_query *q, void *user)
{
    recorded_query *rq = user;
    recorder *rec = rq->rec;
    q->done = rq->done;
    q->user = rq->user;
    free(rq);
    if (q->status == UZ_OK) {
        char key[UZ_FEN_MAX];
        uz_position_key_text(&q->pos, key);
        uz_oracle_identity id = uz_oracle_identity_of(rec->inner);
        if ((uz__score_table_set_identity(rec->table, &id) != UZ_OK ||
             uz__score_table_add(rec->table, key, q->pos.chess960 != 0, q->moves, q->n_moves, q->scores) != UZ_OK) &&
            rec->error == UZ_OK)
            rec->error = UZ_ERR_NOMEM;
    }
    q->done(q, q->user);
}

static void record_submit(uz_oracle *o, uz_query *q)
{
    recorder *rec = (recorder *)(void *)o;
    recorded_query *rq = malloc(sizeof *rq);
    if (!rq) { /* answered unrecorded; run reports the failure */
        rec->error = UZ_ERR_NOMEM;
        uz_oracle_submit(rec->inner, q);
        return;
    }
    *rq = (recorded_query){rec, q->done, q->user};
    q->done = recorded_done;
    q->user = rq;
    uz_oracle_submit(rec->inner, q);
}

static uz_result record_run(uz_oracle *o, uz_diag *diag)
{
    recorder *rec = (recorder *)(void *)o;
    uz_result r = uz_oracle_run(rec->inner, diag);
    if (r == UZ_OK && rec->error != UZ_OK) {
        r = rec->error;
        uz_diag_set(diag, r, 0, 0, "out of memory recording scores");
    }
    rec->error = UZ_OK;
    return r;
}

static void record_identity(const uz_oracle *o, uz_oracle_identity *out)
{
    *out = uz_oracle_identity_of(((const recorder *)(const void *)o)->inner);
}

static void record_destroy(uz_oracle *o) { free(o); }

static const uz_oracle_ops record_ops = {record_submit, record_run, record_identity, record_destroy};

uz_result uz_oracle_record_create(uz_oracle **out, uz_oracle *inner, uz_score_table *table)
{
    *out = NULL;
    if (!inner || !table)
        return UZ_ERR_ARG;
    recorder *rec = calloc(1, sizeof *rec);
    if (!rec)
        return UZ_ERR_NOMEM;
    *rec = (recorder){{&record_ops}, inner, table, UZ_OK};
    *out = &rec->base;
    return UZ_OK;
}

/* ---- replaying ---- */

typedef struct replayer {
    uz_oracle base; /* first */
    const uz_score_table *table;
    uz__query_queue queue;
} replayer;

static void replay_submit(uz_oracle *o, uz_query *q) { uz__query_queue_push(&((replayer *)(void *)o)->queue, q); }

static uz_result replay_answer(void *self, uz_query *q, char *msg, size_t cap)
{
    const replayer *rp = self;
    char key[UZ_FEN_MAX];
    uz_position_key_text(&q->pos, key);
    const uz__score_entry *e = uz__score_table_find(rp->table, key, q->pos.chess960 != 0);
    if (!e) {
        snprintf(msg, cap, "no recorded scores for position %s%s", key, q->pos.chess960 ? " (Chess960)" : "");
        return UZ_ERR_MISMATCH;
    }
    if (e->n != q->n_moves || memcmp(e->moves, q->moves, (size_t)e->n * sizeof *e->moves) != 0) {
        snprintf(msg, cap, "recorded moves of position %s are not its legal moves", key);
        return UZ_ERR_MISMATCH;
    }
    memcpy(q->scores, e->scores, (size_t)e->n * sizeof *e->scores);
    return UZ_OK;
}

static uz_result replay_run(uz_oracle *o, uz_diag *diag)
{
    replayer *rp = (replayer *)(void *)o;
    return uz__query_queue_run(&rp->queue, replay_answer, rp, diag);
}

static void replay_identity(const uz_oracle *o, uz_oracle_identity *out)
{
    const uz_score_table *t = ((const replayer *)(const void *)o)->table;
    *out = (uz_oracle_identity){t->engine_name, t->fingerprint, t->settings_text ? t->settings_text : ""};
}

static void replay_destroy(uz_oracle *o)
{
    replayer *rp = (replayer *)(void *)o;
    uz__query_queue_free(&rp->queue);
    free(rp);
}

static const uz_oracle_ops replay_ops = {replay_submit, replay_run, replay_identity, replay_destroy};

uz_result uz_oracle_replay_create(uz_oracle **out, const uz_score_table *table)
{
    *out = NULL;
    if (!table)
        return UZ_ERR_ARG;
    replayer *rp = calloc(1, sizeof *rp);
    if (!rp)
        return UZ_ERR_NOMEM;
    rp->base.ops = &replay_ops;
    rp->table = table;
    *out = &rp->base;
    return UZ_OK;
}
