/* The builtin's searchers on several threads as one oracle (builtin_oracle.h).
 *
 * A run answers the queries in rounds: the queries queued when a round starts are shared
 * among the searchers (each thread takes the next unanswered one), and once all are
 * answered their callbacks run on the caller's thread in submission order; what the
 * callbacks submit makes the next round. A query's work (engine/oracle.h), such as the
 * player model's frequencies, runs on the thread that searched it, so that the model's
 * share of a ply is spread over the threads too. Every thread has its own searcher, and a score
 * depends on the position alone, so the answers do not depend on the thread count. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "gamecode/builtin_oracle.h"

typedef struct searcher_thread {
    uz_builtin_pool *pool;
    uz_builtin *searcher;
    pthread_t thread;
    bool started;
} searcher_thread;

typedef struct query_list {
    uz_query **items;
    size_t n, cap;
} query_list;

struct uz_builtin_pool {
    uz_oracle base;          /* first: the pool is its oracle */
    uz_oracle *identity;     /* the builtin's own oracle: the identity it reports */
    int version, depth, n_threads;
    searcher_thread *threads; /* [0] is the caller's (no thread started) */
    query_list queued;       /* submitted, waiting for the next round */
    bool nomem;              /* a submit found no memory: the run fails */
    query_list round;        /* the round being answered */
    atomic_size_t next;      /* index of the round's next query to take */
    /* Under lock: */
    size_t busy;             /* threads still answering the round */
    unsigned generation;     /* rounds started, so a thread sees a new one */
    bool quit;
    pthread_mutex_t lock;
    pthread_cond_t start, finished;
    uint64_t positions;
};

bool uz_builtin_spec(const char *spec, int *version)
{
    if (!spec || strncmp(spec, "builtin", 7) != 0)
        return false;
    if (spec[7] == 0) {
        *version = UZ_BUILTIN_DEFAULT;
        return true;
    }
    if (spec[7] != '-' || spec[8] < '1' || spec[8] > '9')
        return false;
    long v = 0;
    for (const char *p = spec + 8; *p; p++) {
        if (*p < '0' || *p > '9' || v > 100000)
            return false;
        v = v * 10 + (*p - '0');
    }
    *version = (int)v;
    return true;
}

/* Answers one query with searcher b, as the builtin's own oracle does. */
static void answer(uz_builtin *b, uz_query *q)
{
    if (q->n_moves < 1 || q->n_moves > UZ_MAX_MOVES) {
        q->status = UZ_ERR_ARG;
        return;
    }
    uz_builtin_score_moves(b, &q->pos, q->moves, q->n_moves, q->scores);
    q->status = UZ_OK;
    uz_query_work(q); /* on this thread, beside the other searches */
}

static void answer_round(uz_builtin_pool *p, uz_builtin *b)
{
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->round.n)
            return;
        answer(b, p->round.items[i]);
    }
}

static void *searcher_main(void *arg)
{
    searcher_thread *t = arg;
    uz_builtin_pool *p = t->pool;
    unsigned seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen)
            pthread_cond_wait(&p->start, &p->lock);
        if (p->quit)
            break;
        seen = p->generation;
        pthread_mutex_unlock(&p->lock);
        answer_round(p, t->searcher);
        pthread_mutex_lock(&p->lock);
        if (--p->busy == 0)
            pthread_cond_signal(&p->finished);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void pool_submit(uz_oracle *o, uz_query *q)
{
    uz_builtin_pool *p = (uz_builtin_pool *)(void *)o;
    query_list *l = &p->queued;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        uz_query **items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            p->nomem = true;
            return;
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = q;
}

/* Answers the round's queries, on every thread when there is more than one query. */
static void run_round(uz_builtin_pool *p)
{
    atomic_store(&p->next, 0);
    if (p->n_threads == 1 || p->round.n == 1) {
        answer_round(p, p->threads[0].searcher);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->busy = (size_t)p->n_threads - 1;
    p->generation++;
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->lock);
    answer_round(p, p->threads[0].searcher);
    pthread_mutex_lock(&p->lock);
    while (p->busy > 0)
        pthread_cond_wait(&p->finished, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

static uz_result pool_run(uz_oracle *o, uz_diag *diag)
{
    uz_builtin_pool *p = (uz_builtin_pool *)(void *)o;
    uz_result first = UZ_OK;
    while (p->queued.n > 0) {
        query_list round = p->queued; /* the emptied round's array takes the next submissions */
        p->queued = p->round;
        p->queued.n = 0;
        p->round = round;
        run_round(p);
        for (size_t i = 0; i < p->round.n; i++) {
            uz_query *q = p->round.items[i];
            p->positions += q->n_moves >= 2;
            if (q->status != UZ_OK && first == UZ_OK) {
                first = q->status;
                uz_diag_set(diag, first, 0, 0, "builtin: a query with %d moves (1 to %d allowed)", q->n_moves,
                            UZ_MAX_MOVES);
            }
            q->done(q, q->user);
        }
        p->round.n = 0;
    }
    if (p->nomem && first == UZ_OK) {
        first = UZ_ERR_NOMEM;
        uz_diag_set(diag, first, 0, 0, "out of memory queueing oracle queries");
    }
    p->nomem = false;
    return first;
}

static void pool_identity(const uz_oracle *o, uz_oracle_identity *out)
{
    const uz_builtin_pool *p = (const uz_builtin_pool *)(const void *)o;
    *out = uz_oracle_identity_of(p->identity);
}

static void pool_destroy_op(uz_oracle *o) { uz_builtin_pool_destroy((uz_builtin_pool *)(void *)o); }

static const uz_oracle_ops pool_ops = {pool_submit, pool_run, pool_identity, pool_destroy_op};

void uz_builtin_pool_destroy(uz_builtin_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; p->threads && i < p->n_threads; i++) {
        if (p->threads[i].started)
            pthread_join(p->threads[i].thread, NULL);
        uz_builtin_destroy(p->threads[i].searcher);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->start);
    pthread_cond_destroy(&p->finished);
    uz_oracle_destroy(p->identity);
    free(p->threads);
    free(p->queued.items);
    free(p->round.items);
    free(p);
}

uz_result uz_builtin_pool_create(uz_builtin_pool **out, int version, int depth, int threads, uz_diag *diag)
{
    *out = NULL;
    if (version < 1 || version > UZ_BUILTIN_LATEST) {
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "builtin-%d: this ucizip has builtin-1 to builtin-%d", version,
                    UZ_BUILTIN_LATEST);
        return UZ_ERR_UNSUPPORTED;
    }
    if (depth == 0)
        depth = uz_builtin_default_depth(version);
    if (threads < 1)
        threads = 1;
    uz_builtin_pool *p = calloc(1, sizeof *p);
    if (!p || !(p->threads = calloc((size_t)threads, sizeof *p->threads))) {
        free(p);
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    p->base.ops = &pool_ops;
    p->version = version;
    p->depth = depth;
    p->n_threads = threads;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->start, NULL);
    pthread_cond_init(&p->finished, NULL);
    uz_result r = uz_builtin_oracle_create(&p->identity, version, depth, diag);
    for (int i = 0; r == UZ_OK && i < threads; i++) {
        searcher_thread *t = &p->threads[i];
        t->pool = p;
        if ((r = uz_builtin_create(&t->searcher, version, depth, diag)) != UZ_OK)
            break;
        if (i > 0 && pthread_create(&t->thread, NULL, searcher_main, t) != 0) {
            r = UZ_ERR_NOMEM;
            uz_diag_set(diag, r, 0, 0, "cannot start a search thread");
            break;
        }
        t->started = i > 0;
    }
    if (r != UZ_OK) {
        uz_builtin_pool_destroy(p);
        return r;
    }
    *out = p;
    return UZ_OK;
}

uz_oracle *uz_builtin_pool_oracle(uz_builtin_pool *p) { return &p->base; }
int uz_builtin_pool_version(const uz_builtin_pool *p) { return p->version; }
int uz_builtin_pool_depth(const uz_builtin_pool *p) { return p->depth; }
int uz_builtin_pool_threads(const uz_builtin_pool *p) { return p->n_threads; }
uint64_t uz_builtin_pool_positions(const uz_builtin_pool *p) { return p->positions; }

void uz_builtin_pool_describe(const uz_builtin_pool *p, char *out, size_t cap)
{
    snprintf(out, cap, "%s; depth %d", uz_oracle_identity_of(p->identity).engine_name, p->depth);
}
