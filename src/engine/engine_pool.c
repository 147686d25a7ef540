/* Engine pool: creation (settings checks, workers started and handshaken, probes and
 * fingerprint), destruction and the read-only accessors. The queue is pool_dispatch.c,
 * a worker engine_worker.c, a query's steps query_steps.c, the cache pool_cache.c. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "engine/engine_store.h"

/* Settings a pool refuses before starting anything; resolves the executable. */
static uz_result check_settings(const uz_engine_settings *s, int workers, char *resolved, uz_diag *diag)
{
    if (!s || workers < 1 || workers > 256 || (s->depth < 1 && s->nodes <= 0) || s->nodes < 0 ||
        (s->mode != UZ_MODE_MULTIPV && s->mode != UZ_MODE_SEARCHMOVES && s->mode != UZ_MODE_PERMOVE)) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "invalid engine settings (depth %d, nodes %ld, %d workers)",
                    s ? s->depth : 0, s ? s->nodes : 0L, workers);
        return UZ_ERR_ARG;
    }
    if (s->threads > 1) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0,
                    "Threads %d refused: with more than one thread the engine's scores depend on timing "
                    "and an archive could not be decoded; use Threads 1",
                    s->threads);
        return UZ_ERR_ARG;
    }
    if (s->mode == UZ_MODE_PERMOVE && s->depth == 1) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0,
                    "mode permove searches the position after each move at depth D-1: it needs depth 2 or "
                    "more");
        return UZ_ERR_ARG;
    }
    int erc = uz__resolve_exe(s->path, resolved, UZ_ENGINE_PATH_MAX);
    if (erc != 0) {
        uz_diag_set(diag, UZ_ERR_ENGINE, 0, 0, "engine '%s' %s", s->path,
                    erc == EACCES ? "is not executable" : "not found");
        return UZ_ERR_ENGINE;
    }
    if (s->mode != UZ_MODE_SEARCHMOVES && !(s->modes & (1u << s->mode))) {
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "engine '%s' (profile '%s') does not support mode %s",
                    s->path, s->profile, uz_engine_mode_name(s->mode));
        return UZ_ERR_UNSUPPORTED;
    }
    return UZ_OK;
}

/* ---- the pool as an oracle ---- */

static uz_pool *pool_of(const uz_oracle *o) { return (uz_pool *)(void *)o; } /* oracle is the first member */
static void oracle_submit(uz_oracle *o, uz_query *q) { uz_pool_submit(pool_of(o), q); }
static uz_result oracle_run(uz_oracle *o, uz_diag *diag) { return uz_pool_run(pool_of(o), diag); }
static void oracle_identity(const uz_oracle *o, uz_oracle_identity *out)
{
    const uz_pool *pool = pool_of(o);
    *out = (uz_oracle_identity){pool->name, pool->fingerprint, pool->settings_text};
}
static const uz_oracle_ops pool_oracle_ops = {oracle_submit, oracle_run, oracle_identity, NULL};

uz_oracle *uz_pool_oracle(uz_pool *pool) { return pool ? &pool->oracle : NULL; }

/* Memory, the event loop and the workers' timers; no process yet. */
static uz_result pool_alloc(uz_pool **out, const uz_engine_settings *s, const char *resolved, int workers,
                            uz_diag *diag)
{
    /* One worker cannot check that another process scores alike: a second process,
     * started with the first recheck, searches the rechecks (the checker). */
    bool with_checker = workers == 1 && s->recheck_every > 0;
    if (with_checker)
        workers = 2;
    uz_pool *pool = calloc(1, sizeof *pool);
    *out = pool;
    if (!pool || !(pool->workers = calloc((size_t)workers, sizeof *pool->workers)))
        goto nomem;
    pool->oracle.ops = &pool_oracle_ops;
    pool->s = *s;
    uz_copy_str(pool->s.path, sizeof pool->s.path, resolved);
    if (pool->s.max_retries < 0)
        pool->s.max_retries = 0;
    if (uz__cache_init(pool, s->cache_entries) != UZ_OK)
        goto nomem;
    if (uv_loop_init(&pool->loop) != 0) {
        uz_diag_set(diag, UZ_ERR_ENGINE, 0, 0, "cannot create an event loop");
        return UZ_ERR_ENGINE;
    }
    pool->loop_open = true;
    pool->n_workers = workers;
    for (int i = 0; i < workers; i++) {
        worker *w = &pool->workers[i];
        w->pool = pool;
        w->index = i;
        w->state = W_OFF;
        uv_timer_init(&pool->loop, &w->timer);
        w->timer.data = w;
    }
    pool->workers[workers - 1].checker = with_checker;
    return UZ_OK;
nomem:
    uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
    return UZ_ERR_NOMEM;
}

bool uz__pool_exe_unchanged(const uz_pool *pool, char *why, size_t cap, uz_result *code)
{
    uz_diag check = {0};
    if (!pool->s.exe_sha256[0] || uz_engine_check_sha256(pool->s.path, pool->s.exe_sha256, &check) == UZ_OK)
        return true;
    uz_copy_str(why, cap, check.message);
    *code = check.code;
    return false;
}

/* Starts every worker and waits until all are ready or one has failed. */
static uz_result start_workers(uz_pool *pool, uz_diag *diag)
{
    char why[512];
    uz_result code;
    if (!uz__pool_exe_unchanged(pool, why, sizeof why, &code)) {
        uz_diag_set(diag, code, 0, 0, "%s", why);
        return code;
    }
    int n = pool->n_workers - (pool->workers[pool->n_workers - 1].checker ? 1 : 0);
    for (int i = 0; i < n; i++)
        uz__worker_start(&pool->workers[i]);
    for (;;) {
        int ready = 0, failed = -1;
        for (int i = 0; i < n; i++) {
            wstate st = pool->workers[i].state;
            if (st == W_IDLE)
                ready++;
            else if ((st == W_CLOSING || st == W_DEAD) && failed < 0)
                failed = i;
        }
        if (failed >= 0) {
            uz_result rc = pool->workers[failed].err_code ? pool->workers[failed].err_code : UZ_ERR_ENGINE;
            uz_diag_set(diag, rc, 0, 0, "%s", pool->workers[failed].err);
            return rc;
        }
        if (ready == n)
            return UZ_OK;
        uv_run(&pool->loop, UV_RUN_ONCE);
    }
}

/* What the first worker's handshake told: the engine's name and MultiPV maximum. */
static void take_engine_identity(uz_pool *pool)
{
    const worker *w0 = &pool->workers[0];
    uz_copy_str(pool->name, sizeof pool->name, w0->name);
    pool->max_multipv = w0->engine_multipv_max;
    if (pool->s.max_multipv > 0 && (pool->max_multipv == 0 || pool->s.max_multipv < pool->max_multipv))
        pool->max_multipv = pool->s.max_multipv;
    if (pool->max_multipv < 1)
        pool->max_multipv = 1;
    pool->s.max_multipv = pool->max_multipv;
}

uz_result uz_pool_create(uz_pool **out, const uz_engine_settings *s, int workers, uz_diag *diag)
{
    uz_pool *pool = NULL;
    char resolved[UZ_ENGINE_PATH_MAX];
    if (!out) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "invalid engine settings (no pool to create)");
        return UZ_ERR_ARG;
    }
    *out = NULL;
    uz_result rc = check_settings(s, workers, resolved, diag);
    if (rc != UZ_OK)
        return rc;
    /* A write to a dead engine must fail with EPIPE, not kill the process. */
    signal(SIGPIPE, SIG_IGN);
    rc = pool_alloc(&pool, s, resolved, workers, diag);
    if (rc == UZ_OK) {
        pool->creating = true;
        rc = start_workers(pool, diag);
    }
    if (rc == UZ_OK) {
        take_engine_identity(pool);
        rc = uz__pool_probe_searchmoves(pool, diag);
    }
    if (rc == UZ_OK && s->mode == UZ_MODE_SEARCHMOVES && !pool->searchmoves_ok) {
        rc = UZ_ERR_UNSUPPORTED;
        uz_diag_set(diag, rc, 0, 0,
                    "engine '%s' (%s) ignores 'go searchmoves'; mode searchmoves is not available, use multipv",
                    pool->s.path, pool->name);
    }
    if (rc == UZ_OK) {
        uz__pool_build_settings_text(pool, &pool->workers[0]);
        rc = uz__pool_compute_fingerprint(pool, diag);
    }
    if (rc != UZ_OK) {
        uz_pool_destroy(pool);
        return rc;
    }
    pool->creating = false;
    memset(&pool->stats, 0, sizeof pool->stats);
    *out = pool;
    return UZ_OK;
}

void uz_pool_on_warning(uz_pool *pool, void (*fn)(void *user, const char *message), void *user)
{
    pool->on_warning = fn;
    pool->warning_user = user;
}

void uz_pool_destroy(uz_pool *pool)
{
    if (!pool)
        return;
    pool->shutting_down = true;
    /* Rechecks are the pool's own queries: free those not answered yet. */
    uz_query *lists[2] = {pool->queue_head, pool->done_head};
    for (int l = 0; l < 2; l++)
        for (uz_query *q = lists[l], *next; q; q = next) {
            next = QPRIV(q)->next;
            if (QPRIV(q)->kind == KIND_RECHECK)
                free(q);
        }
    for (int i = 0; pool->workers && i < pool->n_workers; i++)
        if (pool->workers[i].q && QPRIV(pool->workers[i].q)->kind == KIND_RECHECK) {
            free(pool->workers[i].q);
            pool->workers[i].q = NULL;
        }
    pool->queue_head = pool->queue_tail = pool->done_head = pool->done_tail = NULL;
    if (pool->loop_open) {
        for (int i = 0; i < pool->n_workers; i++) {
            worker *w = &pool->workers[i];
            uv_timer_stop(&w->timer);
            if (w->proc_open) {
                if (w->state == W_CLOSING)
                    uz__proc_close(&w->proc);
                else
                    uz__proc_quit(&w->proc, pool->s.quit_grace_ms);
                w->state = W_CLOSING;
            }
            uv_close((uv_handle_t *)&w->timer, NULL);
        }
        /* Runs until every process has exited and every handle is closed. */
        uv_run(&pool->loop, UV_RUN_DEFAULT);
        uv_loop_close(&pool->loop);
    }
    uz__cache_free(pool);
    free(pool->workers);
    free(pool);
}

const char *uz_pool_engine_name(const uz_pool *pool) { return pool ? pool->name : ""; }
const char *uz_pool_fingerprint(const uz_pool *pool) { return pool ? pool->fingerprint : ""; }
const char *uz_pool_settings_text(const uz_pool *pool) { return pool ? pool->settings_text : ""; }
const uz_engine_settings *uz_pool_settings(const uz_pool *pool) { return pool ? &pool->s : NULL; }
bool uz_pool_searchmoves_ok(const uz_pool *pool) { return pool && pool->searchmoves_ok; }

void uz_pool_describe(const uz_pool *pool, char *out, size_t cap)
{
    if (!out || cap == 0)
        return;
    out[0] = '\0';
    if (!pool)
        return;
    const uz_engine_settings *s = &pool->s;
    size_t n = 0;
#define ADD(...)                                                                                   \
    do {                                                                                           \
        if (n < cap)                                                                               \
            n += (size_t)snprintf(out + n, cap - n, __VA_ARGS__);                                  \
    } while (0)
    ADD("%s", pool->name);
    if (s->depth > 0)
        ADD("; depth %d", s->depth);
    if (s->nodes > 0)
        ADD("; nodes %ld", s->nodes);
    ADD("; %s", uz_engine_mode_name(s->mode));
    if (s->hash_mb > 0)
        ADD("; Hash %d", s->hash_mb);
    if (s->threads > 0)
        ADD("; Threads %d", s->threads);
    for (int i = 0; i < s->n_options; i++)
        ADD("; %s %s", s->options[i].name, s->options[i].value);
    ADD("; MultiPV max %d", pool->max_multipv);
#undef ADD
}

void uz_pool_get_stats(const uz_pool *pool, uz_pool_stats *out)
{
    if (!out)
        return;
    if (pool)
        *out = pool->stats;
    else
        memset(out, 0, sizeof *out);
}
