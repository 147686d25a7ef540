/* The pool's queue: submission, hand-out to idle workers, completion and callbacks,
 * determinism rechecks and the run loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

void uz__queue_push(uz_query **head, uz_query **tail, uz_query *q, bool front)
{
    if (front) {
        QPRIV(q)->next = *head;
        *head = q;
        if (!*tail)
            *tail = q;
    } else {
        QPRIV(q)->next = NULL;
        if (*tail)
            QPRIV((*tail))->next = q;
        else
            *head = q;
        *tail = q;
    }
}

uz_query *uz__queue_pop(uz_query **head, uz_query **tail)
{
    uz_query *q = *head;
    if (q) {
        *head = QPRIV(q)->next;
        if (!*head)
            *tail = NULL;
        QPRIV(q)->next = NULL;
    }
    return q;
}

/* Marks q answered; its callback runs from uz_pool_run. Keeps the first error. */
void uz__pool_complete(uz_pool *pool, uz_query *q, uz_result status, const char *msg)
{
    q->status = status;
    if (status != UZ_OK && pool->run_error == UZ_OK) {
        pool->run_error = status;
        uz_copy_str(pool->run_msg, sizeof pool->run_msg, msg ? msg : uz_result_str(status));
    }
    uz__queue_push(&pool->done_head, &pool->done_tail, q, false);
}

/* ---------- cache ---------- */

/* Fails every queued query: no worker is left to answer them. */
void uz__pool_fail_queue(uz_pool *pool, uz_result code, const char *msg)
{
    uz_query *q;
    while ((q = uz__queue_pop(&pool->queue_head, &pool->queue_tail)))
        uz__pool_complete(pool, q, code, msg);
}

bool uz__pool_all_dead(const uz_pool *pool)
{
    for (int i = 0; i < pool->n_workers; i++)
        if (pool->workers[i].state != W_DEAD && !pool->workers[i].checker)
            return false;
    return true;
}


/* Whether a worker other than idx is left to search q (the checker only for rechecks). */
static bool other_worker(const uz_pool *pool, int idx, const uz_query *q)
{
    for (int i = 0; i < pool->n_workers; i++)
        if (i != idx && pool->workers[i].state != W_DEAD &&
            (!pool->workers[i].checker || QPRIV(q)->kind == KIND_RECHECK))
            return true;
    return false;
}

/* Removes and returns the first queued query worker idx may search: one that does
 * not avoid it, or any when no other worker is left; only rechecks for the checker. */
static uz_query *queue_take_for(uz_pool *pool, int idx)
{
    uz_query *prev = NULL;
    for (uz_query *q = pool->queue_head; q; prev = q, q = QPRIV(q)->next) {
        if ((pool->workers[idx].checker && QPRIV(q)->kind != KIND_RECHECK) ||
            (QPRIV(q)->avoid == idx && other_worker(pool, idx, q)))
            continue;
        if (prev)
            QPRIV(prev)->next = QPRIV(q)->next;
        else
            pool->queue_head = QPRIV(q)->next;
        if (pool->queue_tail == q)
            pool->queue_tail = prev;
        QPRIV(q)->next = NULL;
        return q;
    }
    return NULL;
}

/* Hands queued queries to idle workers. */
void uz__pool_pump(uz_pool *pool)
{
    if (pool->shutting_down)
        return;
    if (pool->gave_up) {
        char msg[200];
        snprintf(msg, sizeof msg, "engine '%.80s' stopped answering; giving up", pool->s.path);
        uz__pool_fail_queue(pool, UZ_ERR_TIMEOUT, msg);
        return;
    }
    if (uz__pool_all_dead(pool)) {
        const worker *w = &pool->workers[0];
        uz__pool_fail_queue(pool, w->err_code ? w->err_code : UZ_ERR_ENGINE, w->err);
        return;
    }
    worker *checker = &pool->workers[pool->n_workers - 1];
    if (checker->checker && checker->state == W_OFF && !pool->creating)
        for (uz_query *q = pool->queue_head; q; q = QPRIV(q)->next)
            if (QPRIV(q)->kind == KIND_RECHECK) {
                uz__worker_start(checker);
                break;
            }
    while (pool->queue_head) {
        worker *idle = NULL;
        uz_query *q = NULL;
        for (int i = 0; i < pool->n_workers && !idle; i++)
            if (pool->workers[i].state == W_IDLE && !pool->workers[i].dying &&
                (q = queue_take_for(pool, i)))
                idle = &pool->workers[i];
        if (!idle)
            return;
        if (uz__cache_lookup_scores(pool, q)) {
            uz__pool_complete(pool, q, UZ_OK, NULL);
            continue;
        }
        /* An identical position already being searched answers this one too. */
        worker *twin = NULL;
        for (int i = 0; i < pool->n_workers && pool->cache && !QPRIV(q)->no_cache && !twin; i++) {
            worker *o = &pool->workers[i];
            if (o->q && uz__worker_busy(o->state) && !QPRIV(o->q)->no_cache &&
                QPRIV(o->q)->kind != KIND_PROBE_SM && o->q->n_moves == q->n_moves &&
                strcmp(QPRIV(o->q)->fen, QPRIV(q)->fen) == 0 &&
                memcmp(o->q->moves, q->moves, sizeof(uz_move) * (size_t)q->n_moves) == 0)
                twin = o;
        }
        if (twin) {
            pool->stats.coalesced++;
            QPRIV(q)->next = twin->waiters;
            twin->waiters = q;
            continue;
        }
        uz__query_begin(idle, q);
    }
}

/* ---------- public API ---------- */

void uz__pool_submit_kind(uz_pool *pool, uz_query *q, int kind)
{
    QPRIV(q)->next = NULL;
    QPRIV(q)->kind = kind;
    QPRIV(q)->attempts = 0;
    if (kind == KIND_NORMAL || kind == KIND_SYNC) {
        QPRIV(q)->depth = pool->s.depth;
        QPRIV(q)->nodes = pool->s.nodes;
        QPRIV(q)->no_cache = false;
        QPRIV(q)->avoid = -1;
        pool->stats.queries++;
    }
    QPRIV(q)->worker = -1;
    pool->outstanding++;
    if (q->n_moves < 1 || q->n_moves > UZ_MAX_MOVES) {
        uz__pool_complete(pool, q, UZ_ERR_ARG, "query without legal moves");
        return;
    }
    if (q->n_moves == 1 && kind != KIND_PROBE_SM) {
        q->scores[0] = 0;
        if (kind == KIND_NORMAL || kind == KIND_SYNC)
            pool->stats.trivial++;
        uz__pool_complete(pool, q, UZ_OK, NULL);
        return;
    }
    /* The key text is also what the engine is sent: equal positions reached at other move
     * numbers are byte-identical for the engine and for the caches. */
    uz_position_key_text(&q->pos, QPRIV(q)->fen);
    if (uz__cache_lookup_scores(pool, q)) {
        uz__pool_complete(pool, q, UZ_OK, NULL);
        return;
    }
    uz__queue_push(&pool->queue_head, &pool->queue_tail, q, false);
    uz__pool_pump(pool);
}

void uz_pool_submit(uz_pool *pool, uz_query *q)
{
    if (!pool || !q)
        return;
    uz__pool_submit_kind(pool, q, KIND_NORMAL);
}

/* The first and every recheck_every-th position an engine answers is searched again by another
 * worker (cleared, no cache): an engine whose scores are not reproducible would make
 * archives that no decoder can read, so the run fails instead. */
void uz__pool_maybe_recheck(uz_pool *pool, const uz_query *q)
{
    if ((QPRIV(q)->kind != KIND_NORMAL && QPRIV(q)->kind != KIND_SYNC) || pool->s.recheck_every <= 0 ||
        pool->shutting_down || pool->searched++ % (uint64_t)pool->s.recheck_every != 0)
        return;
    recheck *c = malloc(sizeof *c);
    if (!c)
        return; /* a check skipped, nothing wrong with the scores */
    c->q = *q;
    memcpy(c->expect, q->scores, sizeof(int32_t) * (size_t)q->n_moves);
    c->of_store = false;
    c->q.done = NULL;
    c->q.user = NULL;
    QPRIV(&c->q)->no_cache = true;
    QPRIV(&c->q)->avoid = QPRIV(q)->worker;
    QPRIV(&c->q)->attempts = 0;
    uz__pool_submit_kind(pool, &c->q, KIND_RECHECK);
}

/* A store hit searched by any worker (no cache) and compared in recheck_done. Queued
 * without pumping: this runs inside the pump's own lookup. */
void uz__pool_audit_store_hit(uz_pool *pool, const uz_query *q)
{
    recheck *c = malloc(sizeof *c);
    if (!c)
        return; /* an audit skipped */
    c->q = *q;
    memcpy(c->expect, q->scores, sizeof(int32_t) * (size_t)q->n_moves);
    c->of_store = true;
    c->q.done = NULL;
    c->q.user = NULL;
    QPRIV(&c->q)->next = NULL;
    QPRIV(&c->q)->kind = KIND_RECHECK;
    QPRIV(&c->q)->no_cache = true;
    QPRIV(&c->q)->avoid = -1;
    QPRIV(&c->q)->attempts = 0;
    QPRIV(&c->q)->worker = -1;
    pool->outstanding++;
    pool->stats.store_audits++;
    uz__queue_push(&pool->queue_head, &pool->queue_tail, &c->q, false);
}

/* First differing move of two score lists of q, -1 if none. */
int uz__scores_differ(const uz_query *q, const int32_t *a, const int32_t *b)
{
    for (int i = 0; i < q->n_moves; i++)
        if (a[i] != b[i])
            return i;
    return -1;
}

void uz__nondeterministic(const uz_pool *pool, const uz_query *q, int i, int32_t first, int32_t second,
                             char *msg, size_t cap)
{
    char uci[UZ_UCI_MAX];
    uz_move_to_uci(q->moves[i], uci);
    snprintf(msg, cap,
             "engine '%.60s' is not deterministic: %.90s searched twice scored %s %d, then %d",
             pool->s.path, QPRIV(q)->fen, uci, (int)first, (int)second);
}

static void recheck_done(uz_pool *pool, recheck *c)
{
    int i = c->q.status == UZ_OK ? uz__scores_differ(&c->q, c->expect, c->q.scores) : -1;
    if (i >= 0 && c->of_store) {
        pool->stats.store_disagreements++;
        pool->store_distrusted = true;
    } else if (i >= 0 && pool->run_error == UZ_OK) {
        pool->run_error = UZ_ERR_ENGINE;
        uz__nondeterministic(pool, &c->q, i, c->expect[i], c->q.scores[i], pool->run_msg, sizeof pool->run_msg);
    }
    free(c);
}

/* Drives the loop until nothing is outstanding. Callbacks run here, never nested
 * inside libuv callbacks, so they may submit freely. */
static void run_loop(uz_pool *pool)
{
    for (;;) {
        uz_query *q;
        while ((q = uz__queue_pop(&pool->done_head, &pool->done_tail))) {
            pool->outstanding--;
            if (QPRIV(q)->kind == KIND_RECHECK)
                recheck_done(pool, (recheck *)q);
            else if (QPRIV(q)->kind == KIND_NORMAL && q->done)
                q->done(q, q->user);
        }
        if (pool->outstanding <= 0)
            break;
        uz__pool_pump(pool);
        if (pool->done_head)
            continue;
        if (uv_run(&pool->loop, UV_RUN_ONCE) == 0 && !pool->done_head) {
            /* Nothing left that could ever answer: fail rather than hang. */
            uz__pool_fail_queue(pool, UZ_ERR_ENGINE, "no engine left to answer");
            if (!pool->done_head)
                break;
        }
    }
}

uz_result uz_pool_run(uz_pool *pool, uz_diag *diag)
{
    if (!pool)
        return UZ_ERR_ARG;
    double t0 = uz__now_ms();
    pool->run_error = UZ_OK;
    pool->run_msg[0] = '\0';
    run_loop(pool);
    pool->stats.wall_ms += uz__now_ms() - t0;
    uz_result rc = pool->run_error;
    if (rc != UZ_OK)
        uz_diag_set(diag, rc, 0, 0, "%s", pool->run_msg);
    pool->run_error = UZ_OK;
    return rc;
}

uz_result uz_pool_query(uz_pool *pool, uz_query *q, uz_diag *diag)
{
    if (!pool || !q)
        return UZ_ERR_ARG;
    uz__pool_submit_kind(pool, q, KIND_SYNC);
    uz_result rc = uz_pool_run(pool, diag);
    return rc != UZ_OK ? rc : q->status;
}
