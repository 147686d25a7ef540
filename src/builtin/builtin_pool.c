/* The builtin's searchers on several threads as one oracle (builtin_pool.h).
 *
 * Submitted queries wait in one queue; every searcher thread takes the oldest one,
 * answers it, runs the query's work (oracle/oracle.h: the player model's frequencies)
 * and hands it back. The caller's thread, inside run, runs the callbacks of the answered
 * queries as they come back (their new submissions join the queue at once, so the
 * threads never wait for a whole batch to finish) and searches itself whenever nothing is
 * waiting for a callback. Every thread has its own searcher and a score depends on the
 * position alone, so the answers do not depend on the thread count; callbacks come in
 * the order the answers do, as with the engine pool, and every caller is written for
 * that. With one thread the caller's thread does it all, in submission order. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin_pool.h"

typedef struct searcher_thread {
    uz_builtin_pool *pool;
    uz_builtin *searcher;
    pthread_t thread;
    bool started;
} searcher_thread;

/* A first-in first-out list of queries (a ring that grows). */
typedef struct query_fifo {
    uz_query **items;
    size_t head, n, cap;
} query_fifo;

struct uz_builtin_pool {
    uz_oracle base;          /* first: the pool is its oracle */
    uz_oracle *identity;     /* the builtin's own oracle: the identity it reports */
    int version, depth, n_threads;
    searcher_thread *threads; /* [0] is the caller's (no thread started) */
    uint64_t positions;
    /* Under lock: */
    pthread_mutex_t lock;
    pthread_cond_t queued;   /* todo gained a query, or quit */
    pthread_cond_t answered; /* answers gained one */
    query_fifo todo;         /* submitted, not taken yet */
    query_fifo answers;      /* answered, callback not run yet */
    size_t searching;        /* taken by a searcher thread, not in answers yet */
    bool nomem;              /* a submit found no memory: the run fails */
    bool quit;
};

/* Grows f to hold want queries; false when out of memory. */
static bool fifo_reserve(query_fifo *f, size_t want)
{
    if (f->cap >= want)
        return true;
    size_t cap = f->cap ? f->cap : 64;
    while (cap < want)
        cap *= 2;
    uz_query **items = malloc(cap * sizeof *items);
    if (!items)
        return false;
    for (size_t i = 0; i < f->n; i++)
        items[i] = f->items[(f->head + i) % f->cap];
    free(f->items);
    f->items = items;
    f->head = 0;
    f->cap = cap;
    return true;
}

static bool fifo_push(query_fifo *f, uz_query *q)
{
    if (!fifo_reserve(f, f->n + 1))
        return false;
    f->items[(f->head + f->n++) % f->cap] = q;
    return true;
}

static uz_query *fifo_pop(query_fifo *f)
{
    if (f->n == 0)
        return NULL;
    uz_query *q = f->items[f->head];
    f->head = (f->head + 1) % f->cap;
    f->n--;
    return q;
}

/* Answers one query with searcher b, as the builtin's own oracle does, and runs its work
 * on this thread. */
static void answer(uz_builtin *b, uz_query *q)
{
    if (q->n_moves < 1 || q->n_moves > UZ_MAX_MOVES) {
        q->status = UZ_ERR_ARG;
        return;
    }
    uz_builtin_score_moves(b, &q->pos, q->moves, q->n_moves, q->scores);
    q->status = UZ_OK;
    uz_query_work(q);
}

static void *searcher_main(void *arg)
{
    searcher_thread *t = arg;
    uz_builtin_pool *p = t->pool;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        uz_query *q = NULL;
        while (!p->quit && !(q = fifo_pop(&p->todo)))
            pthread_cond_wait(&p->queued, &p->lock);
        if (!q)
            break; /* quit */
        p->searching++;
        pthread_mutex_unlock(&p->lock);
        answer(t->searcher, q);
        pthread_mutex_lock(&p->lock);
        p->searching--;
        fifo_push(&p->answers, q); /* cannot fail: answers has room for every query (pool_submit) */
        pthread_cond_signal(&p->answered);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void pool_submit(uz_oracle *o, uz_query *q)
{
    uz_builtin_pool *p = (uz_builtin_pool *)(void *)o;
    pthread_mutex_lock(&p->lock);
    /* Room in answers for every query in flight first, so that a searcher thread's push
     * there never needs memory. */
    size_t in_flight = p->todo.n + p->searching + p->answers.n + 1;
    if (fifo_reserve(&p->answers, in_flight) && fifo_push(&p->todo, q)) {
        if (p->n_threads > 1)
            pthread_cond_signal(&p->queued);
    } else {
        p->nomem = true;
    }
    pthread_mutex_unlock(&p->lock);
}

static uz_result pool_run(uz_oracle *o, uz_diag *diag)
{
    uz_builtin_pool *p = (uz_builtin_pool *)(void *)o;
    uz_result first = UZ_OK;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        uz_query *q = fifo_pop(&p->answers);
        if (!q && (q = fifo_pop(&p->todo))) { /* nothing to call back: search one here */
            pthread_mutex_unlock(&p->lock);
            answer(p->threads[0].searcher, q);
            pthread_mutex_lock(&p->lock);
        }
        if (!q) {
            if (p->searching == 0)
                break; /* every query answered and called back */
            pthread_cond_wait(&p->answered, &p->lock);
            continue;
        }
        pthread_mutex_unlock(&p->lock);
        p->positions += q->n_moves >= 2;
        if (q->status != UZ_OK && first == UZ_OK) {
            first = q->status;
            uz_diag_set(diag, first, 0, 0, "builtin: a query with %d moves (1 to %d allowed)", q->n_moves,
                        UZ_MAX_MOVES);
        }
        q->done(q, q->user); /* may submit more */
        pthread_mutex_lock(&p->lock);
    }
    bool nomem = p->nomem;
    p->nomem = false;
    pthread_mutex_unlock(&p->lock);
    if (nomem && first == UZ_OK) {
        first = UZ_ERR_NOMEM;
        uz_diag_set(diag, first, 0, 0, "out of memory queueing oracle queries");
    }
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
    pthread_cond_broadcast(&p->queued);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; p->threads && i < p->n_threads; i++) {
        if (p->threads[i].started)
            pthread_join(p->threads[i].thread, NULL);
        uz_builtin_destroy(p->threads[i].searcher);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->queued);
    pthread_cond_destroy(&p->answered);
    uz_oracle_destroy(p->identity);
    free(p->threads);
    free(p->todo.items);
    free(p->answers.items);
    free(p);
}

uz_result uz_builtin_pool_create(uz_builtin_pool **out, int version, int depth, int threads, uz_diag *diag)
{
    *out = NULL;
    if (version == 0)
        version = UZ_BUILTIN_DEFAULT;
    uz_result r = uz_builtin_check_version(version, diag);
    if (r != UZ_OK)
        return r;
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
    pthread_cond_init(&p->queued, NULL);
    pthread_cond_init(&p->answered, NULL);
    r = uz_builtin_oracle_create(&p->identity, version, depth, diag);
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
