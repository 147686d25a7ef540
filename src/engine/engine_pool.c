/* Engine pool: N engine workers on one event loop, a query queue, per-request
 * timeouts, restart-and-retry, a bounded result cache and the fingerprint. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

enum { KIND_NORMAL = 0, KIND_SYNC, KIND_PROBE_SM, KIND_PROBE_FP, KIND_RECHECK };

typedef enum wstate {
    W_OFF,       /* no process */
    W_HANDSHAKE, /* "uci" sent, waiting for uciok */
    W_OPTIONS,   /* options + "isready" sent, waiting for readyok */
    W_IDLE,
    W_CLEARING,  /* clear + "isready" sent, waiting for readyok */
    W_SEARCHING, /* "go" sent, waiting for bestmove */
    W_CLOSING,   /* process being killed / quit, waiting for its handles */
    W_DEAD,      /* gave up on this worker */
} wstate;

#define MAX_ENGINE_OPTIONS 96

typedef struct engine_option {
    char name[UZ_ENGINE_OPTION_NAME_MAX];
    char type[16];
    long min, max;
    bool has_range;
} engine_option;

/* One exact score of a move at one depth. */
typedef struct scored {
    int depth;
    bool mate;
    long score;
} scored;

/* Enough to step back from a partial last iteration (engines report at most the
 * current depth and the one before it). */
#define SCORES_KEPT 4

typedef struct worker {
    uz_pool *pool;
    int index;
    uz__proc proc;
    bool proc_open;          /* spawned (or spawn attempted) and not yet fully closed */
    wstate state;
    uv_timer_t timer;        /* per-request timeout */
    uz_query *q;             /* query in progress */
    uz_query *waiters;       /* identical queries answered together with q */
    int step, n_steps, chunk, lo, hi;
    char uci[UZ_MAX_MOVES][UZ_UCI_MAX];
    /* Per searched move: its exact scores at the deepest few depths reported (sorted
     * by depth), and the depth and kind of its deepest line. */
    scored kept[UZ_MAX_MOVES][SCORES_KEPT];
    unsigned char n_kept[UZ_MAX_MOVES];
    int top_depth[UZ_MAX_MOVES];     /* -2: no score line for the move yet */
    bool top_bound[UZ_MAX_MOVES];
    int max_depth;
    long last_time;
    long last_nodes;         /* "nodes" of the last info line, -1 if none */
    uint64_t sent_at;        /* uv_hrtime when the clear or the "go" was sent */
    int fail_streak;         /* consecutive failed starts */
    bool restart;            /* spawn again once closed */
    bool dying;              /* output closed: waiting briefly for the exit status */
    char name[UZ_ENGINE_NAME_MAX];
    engine_option opts[MAX_ENGINE_OPTIONS];
    int n_opts;
    int engine_multipv_max;  /* 0 = no MultiPV option */
    uz_result err_code;
    char err[320];
} worker;

typedef struct cache_blob {
    int n;
    int32_t *scores;
    uz_move *moves;
    char fen[];
} cache_blob;

typedef struct cache_slot {
    uint64_t hash;
    uint64_t stamp;
    cache_blob *blob;
} cache_slot;

#define CACHE_WAYS 4

struct uz_pool {
    uv_loop_t loop;
    bool loop_open;
    uz_engine_settings s;
    worker *workers;
    int n_workers;
    uz_query *queue_head, *queue_tail;
    uz_query *done_head, *done_tail;
    long outstanding;        /* submitted, callback not yet called */
    bool creating;           /* failures during create are final */
    bool shutting_down;
    uz_result run_error;
    char run_msg[256];
    char name[UZ_ENGINE_NAME_MAX];
    char fingerprint[17];
    char settings_text[4096];
    int max_multipv;         /* effective: min(settings, engine) */
    bool searchmoves_ok;
    cache_slot *cache;
    size_t cache_buckets;    /* power of two; CACHE_WAYS slots each */
    uint64_t cache_clock;
    uint64_t searched;       /* positions answered by an engine (for rechecks) */
    uz_pool_stats stats;
};

/* A position searched again on another worker: the scores must match the first. */
typedef struct recheck {
    uz_query q; /* first: the pool completes &q */
    int32_t expect[UZ_MAX_MOVES];
} recheck;

/* ---------- small helpers ---------- */

static double now_ms(void) { return (double)uv_hrtime() / 1e6; }

static void queue_push(uz_query **head, uz_query **tail, uz_query *q, bool front)
{
    if (front) {
        q->priv.next = *head;
        *head = q;
        if (!*tail)
            *tail = q;
    } else {
        q->priv.next = NULL;
        if (*tail)
            (*tail)->priv.next = q;
        else
            *head = q;
        *tail = q;
    }
}

static uz_query *queue_pop(uz_query **head, uz_query **tail)
{
    uz_query *q = *head;
    if (q) {
        *head = q->priv.next;
        if (!*head)
            *tail = NULL;
        q->priv.next = NULL;
    }
    return q;
}

/* Marks q answered; its callback runs from uz_pool_run. Keeps the first error. */
static void complete(uz_pool *pool, uz_query *q, uz_result status, const char *msg)
{
    q->status = status;
    if (status != UZ_OK && pool->run_error == UZ_OK) {
        pool->run_error = status;
        uz_copy_str(pool->run_msg, sizeof pool->run_msg, msg ? msg : uz_result_str(status));
    }
    queue_push(&pool->done_head, &pool->done_tail, q, false);
}

/* ---------- cache ---------- */

static uint64_t fen_hash(const char *fen) { return uz__fnv1a(UZ__FNV_OFFSET, fen, strlen(fen)); }

static cache_slot *cache_find(uz_pool *pool, const uz_query *q, uint64_t h)
{
    cache_slot *b = &pool->cache[(h & (pool->cache_buckets - 1)) * CACHE_WAYS];
    for (int i = 0; i < CACHE_WAYS; i++) {
        cache_blob *e = b[i].blob;
        if (e && b[i].hash == h && e->n == q->n_moves && strcmp(e->fen, q->priv.fen) == 0 &&
            memcmp(e->moves, q->moves, sizeof(uz_move) * (size_t)e->n) == 0)
            return &b[i];
    }
    return NULL;
}

static bool cache_lookup(uz_pool *pool, uz_query *q)
{
    if (!pool->cache || q->priv.no_cache)
        return false;
    cache_slot *slot = cache_find(pool, q, fen_hash(q->priv.fen));
    if (!slot)
        return false;
    slot->stamp = ++pool->cache_clock;
    memcpy(q->scores, slot->blob->scores, sizeof(int32_t) * (size_t)q->n_moves);
    return true;
}

static void cache_store(uz_pool *pool, const uz_query *q)
{
    if (!pool->cache || q->priv.no_cache)
        return;
    uint64_t h = fen_hash(q->priv.fen);
    if (cache_find(pool, q, h))
        return;
    cache_slot *b = &pool->cache[(h & (pool->cache_buckets - 1)) * CACHE_WAYS];
    cache_slot *victim = &b[0];
    for (int i = 0; i < CACHE_WAYS; i++) {
        if (!b[i].blob) {
            victim = &b[i];
            break;
        }
        if (b[i].stamp < victim->stamp)
            victim = &b[i];
    }
    size_t fl = strlen(q->priv.fen) + 1, n = (size_t)q->n_moves;
    /* One block: header, fen, then scores and moves at aligned offsets. */
    size_t off_scores = (sizeof(cache_blob) + fl + 3) & ~(size_t)3;
    cache_blob *e = malloc(off_scores + n * sizeof(int32_t) + n * sizeof(uz_move));
    if (!e)
        return; /* the cache is an optimisation: skip on memory shortage */
    e->n = q->n_moves;
    memcpy(e->fen, q->priv.fen, fl);
    e->scores = (int32_t *)((char *)e + off_scores);
    e->moves = (uz_move *)(e->scores + n);
    memcpy(e->scores, q->scores, n * sizeof(int32_t));
    memcpy(e->moves, q->moves, n * sizeof(uz_move));
    free(victim->blob);
    victim->blob = e;
    victim->hash = h;
    victim->stamp = ++pool->cache_clock;
}

/* The persistent store: only for real queries, once the fingerprint is known. */
static bool store_usable(const uz_pool *pool, const uz_query *q)
{
    return pool->s.store && pool->fingerprint[0] && !q->priv.no_cache &&
           (q->priv.kind == KIND_NORMAL || q->priv.kind == KIND_SYNC);
}

/* The memory cache, then the store; counts the hit. */
static bool lookup_scores(uz_pool *pool, uz_query *q)
{
    if (q->priv.kind == KIND_PROBE_SM)
        return false;
    if (cache_lookup(pool, q)) {
        pool->stats.cache_hits++;
        return true;
    }
    const uz_score_store *st = pool->s.store;
    if (store_usable(pool, q) && st->lookup(st->user, pool->fingerprint, q->priv.fen, q->moves, q->n_moves, q->scores)) {
        pool->stats.store_hits++;
        cache_store(pool, q);
        return true;
    }
    return false;
}

static void save_scores(uz_pool *pool, const uz_query *q)
{
    if (q->priv.kind == KIND_PROBE_SM)
        return;
    cache_store(pool, q);
    const uz_score_store *st = pool->s.store;
    if (store_usable(pool, q))
        st->save(st->user, pool->fingerprint, q->priv.fen, q->moves, q->n_moves, q->scores);
}

static void cache_free(uz_pool *pool)
{
    if (!pool->cache)
        return;
    for (size_t i = 0; i < pool->cache_buckets * CACHE_WAYS; i++)
        free(pool->cache[i].blob);
    free(pool->cache);
    pool->cache = NULL;
}

/* ---------- worker lifecycle ---------- */

static void worker_start(worker *w);
static void pump(uz_pool *pool);
static void step_begin(worker *w);
static void finish_query(worker *w);
static void maybe_recheck(uz_pool *pool, const uz_query *q);
static void submit(uz_pool *pool, uz_query *q, int kind);

static void send_text(worker *w, const char *text) { uz__proc_write(&w->proc, text, strlen(text)); }

static bool worker_busy_state(wstate st) { return st == W_CLEARING || st == W_SEARCHING; }

/* Fails every queued query: no worker is left to answer them. */
static void fail_queue(uz_pool *pool, uz_result code, const char *msg)
{
    uz_query *q;
    while ((q = queue_pop(&pool->queue_head, &pool->queue_tail)))
        complete(pool, q, code, msg);
}

static bool all_dead(const uz_pool *pool)
{
    for (int i = 0; i < pool->n_workers; i++)
        if (pool->workers[i].state != W_DEAD)
            return false;
    return true;
}

/* Something went wrong with w's engine. Retryable failures (crash, hang) requeue the
 * query until max_retries; others (malformed answers) fail it at once. In every case
 * the process is killed and, unless we are giving up, started afresh. */
static void worker_fail(worker *w, uz_result code, bool retryable, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void worker_fail(worker *w, uz_result code, bool retryable, const char *fmt, ...)
{
    uz_pool *pool = w->pool;
    if (w->state == W_CLOSING || w->state == W_OFF || w->state == W_DEAD)
        return;
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *tail = w->proc_open ? uz__proc_stderr(&w->proc) : "";
    snprintf(w->err, sizeof w->err, "engine '%.80s': %.150s%s%.60s", pool->s.path, msg,
             *tail ? "; stderr: " : "", tail);
    w->err_code = code;

    bool starting = w->state == W_HANDSHAKE || w->state == W_OPTIONS;
    if (starting)
        w->fail_streak++;
    if (w->q) {
        uz_query *q = w->q, *wt;
        w->q = NULL;
        q->priv.attempts++;
        if (retryable && q->priv.attempts <= pool->s.max_retries && !pool->creating) {
            /* Identical waiters go back too; they will join the retry. */
            while ((wt = w->waiters)) {
                w->waiters = wt->priv.next;
                queue_push(&pool->queue_head, &pool->queue_tail, wt, true);
            }
            queue_push(&pool->queue_head, &pool->queue_tail, q, true);
        } else {
            char full[256];
            if (retryable && q->priv.attempts > 1)
                snprintf(full, sizeof full, "%.200s (after %d attempts)", w->err, q->priv.attempts);
            else
                uz_copy_str(full, sizeof full, w->err);
            complete(pool, q, code, full);
            while ((wt = w->waiters)) {
                w->waiters = wt->priv.next;
                complete(pool, wt, code, full);
            }
        }
    }
    uv_timer_stop(&w->timer);
    w->dying = false;
    w->state = W_CLOSING;
    w->restart = !pool->shutting_down && !pool->creating && w->fail_streak <= pool->s.max_retries;
    uz__proc_close(&w->proc);
}

static void on_timeout(uv_timer_t *t)
{
    worker *w = t->data;
    uz_pool *pool = w->pool;
    if (w->dying)
        worker_fail(w, UZ_ERR_ENGINE, true, "closed its output");
    else if (w->state == W_HANDSHAKE || w->state == W_OPTIONS)
        worker_fail(w, UZ_ERR_TIMEOUT, true,
                    "no UCI handshake within %d ms (is it a UCI engine?)",
                    pool->s.handshake_timeout_ms);
    else if (worker_busy_state(w->state))
        worker_fail(w, UZ_ERR_TIMEOUT, true, "no answer within %d ms, killed",
                    pool->s.timeout_ms);
}

static void arm(worker *w, int ms) { uv_timer_start(&w->timer, on_timeout, (uint64_t)(ms > 0 ? ms : 1), 0); }

static void on_proc_event(uz__proc *p, uz__proc_event ev)
{
    worker *w = p->owner;
    uz_pool *pool = w->pool;
    switch (ev) {
    case UZ__EV_EXIT: {
        const char *phase = (w->state == W_HANDSHAKE || w->state == W_OPTIONS)
                                ? " during the UCI handshake"
                                : "";
        if (p->term_signal)
            worker_fail(w, UZ_ERR_ENGINE, true, "killed by signal %d%s", p->term_signal, phase);
        else
            worker_fail(w, UZ_ERR_ENGINE, true, "exited with status %d%s%s", (int)p->exit_status,
                        phase, *phase ? " (not a UCI engine?)" : "");
        break;
    }
    case UZ__EV_EOF:
    case UZ__EV_WRITE_ERROR:
        /* Usually the process is exiting: give its exit status a moment to arrive
         * so the message can say how it ended. */
        if (!w->dying && w->state != W_CLOSING) {
            w->dying = true;
            arm(w, 500);
        }
        break;
    case UZ__EV_LONG_LINE:
        worker_fail(w, UZ_ERR_ENGINE, false, "printed a line longer than %u bytes", UZ__LINE_MAX);
        break;
    case UZ__EV_CLOSED:
        w->proc_open = false;
        if (w->state != W_CLOSING && w->state != W_OFF)
            w->state = W_CLOSING; /* closed from under us: treat like a failure */
        if (w->restart && !pool->shutting_down) {
            w->restart = false;
            pool->stats.restarts++;
            worker_start(w);
        } else {
            w->state = pool->shutting_down ? W_OFF : W_DEAD;
            if (!pool->shutting_down && all_dead(pool))
                fail_queue(pool, w->err_code ? w->err_code : UZ_ERR_ENGINE, w->err);
        }
        break;
    }
}

/* ---------- handshake ---------- */

static engine_option *find_opt(const worker *w, const char *name)
{
    for (int i = 0; i < w->n_opts; i++)
        if (strcmp(w->opts[i].name, name) == 0)
            return (engine_option *)&w->opts[i];
    return NULL;
}

/* "option name NAME type T [default X] [min A] [max B] ..." */
static void parse_option_line(worker *w, const char *rest)
{
    const char *name;
    if (!uz__line_starts(rest, "name", &name) || w->n_opts >= MAX_ENGINE_OPTIONS)
        return;
    const char *type = strstr(name, " type ");
    if (!type)
        return;
    engine_option *o = &w->opts[w->n_opts];
    memset(o, 0, sizeof *o);
    size_t n = (size_t)(type - name);
    while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '\t'))
        n--;
    if (n == 0 || n >= sizeof o->name)
        return;
    memcpy(o->name, name, n);
    o->name[n] = '\0';
    sscanf(type + 6, "%15s", o->type);
    const char *mn = strstr(type, " min "), *mx = strstr(type, " max ");
    if (strcmp(o->type, "spin") == 0 && mn && mx) {
        o->min = strtol(mn + 5, NULL, 10);
        o->max = strtol(mx + 5, NULL, 10);
        o->has_range = true;
    }
    w->n_opts++;
}

/* Appends "setoption" for name=value after checking the engine has it. */
static bool add_setoption(worker *w, char *buf, size_t cap, const char *name, const char *value,
                          bool required)
{
    engine_option *o = find_opt(w, name);
    if (!o) {
        if (required)
            worker_fail(w, UZ_ERR_UNSUPPORTED, false, "'%s' has no option '%s'", w->name, name);
        return !required;
    }
    if (o->has_range) {
        long v = strtol(value, NULL, 10);
        if (v < o->min || v > o->max) {
            worker_fail(w, UZ_ERR_ARG, false, "option %s = %s is outside the engine's range %ld..%ld",
                        name, value, o->min, o->max);
            return false;
        }
    }
    size_t used = strlen(buf);
    snprintf(buf + used, cap - used, "setoption name %s value %s\n", name, value);
    return true;
}

static void on_uciok(worker *w)
{
    uz_pool *pool = w->pool;
    const uz_engine_settings *s = &pool->s;
    char cmds[8192] = "";
    char num[32];
    if (s->threads > 0) {
        snprintf(num, sizeof num, "%d", s->threads);
        if (!add_setoption(w, cmds, sizeof cmds, "Threads", num, false))
            return;
    }
    if (s->hash_mb > 0) {
        snprintf(num, sizeof num, "%d", s->hash_mb);
        if (!add_setoption(w, cmds, sizeof cmds, "Hash", num, false))
            return;
    }
    for (int i = 0; i < s->n_options; i++)
        if (!add_setoption(w, cmds, sizeof cmds, s->options[i].name, s->options[i].value, true))
            return;
    if (strncmp(s->clear, "option:", 7) == 0) {
        engine_option *o = find_opt(w, s->clear + 7);
        if (!o || strcmp(o->type, "button") != 0) {
            worker_fail(w, UZ_ERR_UNSUPPORTED, false, "'%s' has no button option '%s' to clear it",
                        w->name, s->clear + 7);
            return;
        }
    }
    engine_option *mpv = find_opt(w, "MultiPV");
    w->engine_multipv_max = mpv ? (mpv->has_range ? (int)mpv->max : 1) : 0;
    if (s->mode == UZ_MODE_MULTIPV && w->engine_multipv_max < 2) {
        worker_fail(w, UZ_ERR_UNSUPPORTED, false,
                    "'%s' has no usable MultiPV option; use mode searchmoves", w->name);
        return;
    }
    strcat(cmds, "isready\n");
    send_text(w, cmds);
    w->state = W_OPTIONS;
    arm(w, s->handshake_timeout_ms);
}

/* ---------- queries ---------- */

static int find_move(const worker *w, const char *uci)
{
    for (int i = w->lo; i < w->hi; i++)
        if (strcmp(w->uci[i], uci) == 0)
            return i;
    return -1;
}

static void worker_begin(worker *w, uz_query *q)
{
    uz_pool *pool = w->pool;
    w->q = q;
    w->waiters = NULL;
    q->priv.worker = w->index;
    for (int i = 0; i < q->n_moves; i++)
        uz_move_to_uci(q->moves[i], w->uci[i]);
    if (q->priv.kind == KIND_PROBE_SM) {
        w->n_steps = 1;
    } else if (pool->s.mode == UZ_MODE_SEARCHMOVES || pool->s.mode == UZ_MODE_PERMOVE) {
        w->n_steps = q->n_moves;
    } else {
        /* More moves than MultiPV allows: split the canonical list into chunks,
         * each searched with "searchmoves" (needs an engine that honours it). */
        w->chunk = pool->max_multipv;
        w->n_steps = (q->n_moves + w->chunk - 1) / w->chunk;
        if (w->n_steps > 1 && !pool->searchmoves_ok) {
            w->q = NULL;
            char msg[200];
            snprintf(msg, sizeof msg,
                     "engine '%.80s': position has %d legal moves, more than its MultiPV maximum %d, "
                     "and it ignores searchmoves",
                     pool->s.path, q->n_moves, w->chunk);
            complete(pool, q, UZ_ERR_UNSUPPORTED, msg);
            return;
        }
    }
    w->step = 0;
    if (q->priv.kind == KIND_RECHECK)
        pool->stats.rechecks++;
    else
        pool->stats.engine_queries++;
    step_begin(w);
}

static void reset_scores(worker *w)
{
    for (int i = w->lo; i < w->hi; i++) {
        w->n_kept[i] = 0;
        w->top_depth[i] = -2;
        w->top_bound[i] = false;
    }
    w->max_depth = -1;
    w->last_time = -1;
    w->last_nodes = -1;
}

/* permove: the score of a move that ends the game, which the engine is not asked
 * about (it has nothing to search). Returns false if the game goes on after it. */
static bool terminal_score(const uz_query *q, int i, int32_t *score)
{
    uz_position child = q->pos;
    uz_undo undo;
    uz_make_move(&child, q->moves[i], &undo);
    uz_status st = uz_position_status(&child);
    if (st == UZ_STATUS_PLAYING)
        return false;
    /* Checkmate: the opponent is mated now ("mate 0" from its side, negated). */
    *score = st == UZ_STATUS_CHECKMATE ? -uz_engine_score_from_uci(true, 0) : 0;
    return true;
}

static void step_begin(worker *w)
{
    uz_pool *pool = w->pool;
    uz_query *q = w->q;
    bool multipv = pool->s.mode == UZ_MODE_MULTIPV && q->priv.kind != KIND_PROBE_SM;
    bool permove = pool->s.mode == UZ_MODE_PERMOVE && q->priv.kind != KIND_PROBE_SM;
    if (q->priv.kind == KIND_PROBE_SM) {
        w->lo = 0;
        while (w->lo < q->n_moves - 1 && strcmp(w->uci[w->lo], "a2a3") != 0)
            w->lo++;
        w->hi = w->lo + 1;
    } else if (multipv) {
        w->lo = w->step * w->chunk;
        w->hi = w->lo + w->chunk < q->n_moves ? w->lo + w->chunk : q->n_moves;
    } else {
        /* permove: moves that end the game need no search. */
        while (permove && w->step < w->n_steps && terminal_score(q, w->step, &q->scores[w->step]))
            w->step++;
        if (w->step == w->n_steps) {
            finish_query(w);
            return;
        }
        w->lo = w->step;
        w->hi = w->step + 1;
    }
    reset_scores(w);

    char cmds[256] = "";
    /* Clear once per search: per position (multipv: per chunk; permove: per move, so that
     * every move's score depends on that move alone). Legacy searchmoves clears once. */
    if (multipv || permove || w->step == 0) {
        snprintf(cmds, sizeof cmds, "setoption name MultiPV value %d\n", multipv ? w->hi - w->lo : 1);
        if (strncmp(pool->s.clear, "option:", 7) == 0) {
            size_t used = strlen(cmds);
            snprintf(cmds + used, sizeof cmds - used, "setoption name %s\n", pool->s.clear + 7);
        } else {
            strcat(cmds, "ucinewgame\n");
        }
    }
    strcat(cmds, "isready\n");
    send_text(w, cmds);
    w->sent_at = uv_hrtime();
    w->state = W_CLEARING;
    arm(w, pool->s.timeout_ms);
}

/* The "go nodes" of the current search for a limit of `nodes` per move (protocol 1
 * archives: per search). */
static long long node_limit(const worker *w, long nodes)
{
    return w->pool->s.protocol == 1 ? nodes : (long long)nodes * (w->hi - w->lo);
}

static void send_go(worker *w)
{
    uz_pool *pool = w->pool;
    const uz_query *q = w->q;
    char cmds[UZ_FEN_MAX + 64 + UZ_MAX_MOVES * UZ_UCI_MAX];
    bool permove = pool->s.mode == UZ_MODE_PERMOVE && q->priv.kind != KIND_PROBE_SM;
    int depth = q->priv.kind == KIND_PROBE_SM ? 1 : q->priv.depth;
    long nodes = q->priv.kind == KIND_PROBE_SM ? 0 : q->priv.nodes;
    int n;
    if (permove) {
        /* The position after the move, searched one ply less deep. */
        n = snprintf(cmds, sizeof cmds, "position fen %s moves %s\ngo", q->priv.fen, w->uci[w->lo]);
        depth = depth > 0 ? depth - 1 : 0;
    } else {
        n = snprintf(cmds, sizeof cmds, "position fen %s\ngo", q->priv.fen);
    }
    if (depth > 0)
        n += snprintf(cmds + n, sizeof cmds - (size_t)n, " depth %d", depth);
    /* The node limit is per move searched: a MultiPV search of k moves gets k times
     * the limit, so that every position gets the same effort per move (and depth 1,
     * one search per move, completes on positions with many moves). */
    if (nodes > 0)
        n += snprintf(cmds + n, sizeof cmds - (size_t)n, " nodes %lld", node_limit(w, nodes));
    if (!permove && w->hi - w->lo < q->n_moves) {
        n += snprintf(cmds + n, sizeof cmds - (size_t)n, " searchmoves");
        for (int i = w->lo; i < w->hi; i++)
            n += snprintf(cmds + n, sizeof cmds - (size_t)n, " %s", w->uci[i]);
    }
    snprintf(cmds + n, sizeof cmds - (size_t)n, "\n");
    send_text(w, cmds);
    w->sent_at = uv_hrtime();
    w->state = W_SEARCHING;
    if (q->priv.kind != KIND_RECHECK)
        pool->stats.engine_searches++;
    arm(w, pool->s.timeout_ms);
}

static void finish_query(worker *w)
{
    uz_pool *pool = w->pool;
    uz_query *q = w->q, *wt;
    w->q = NULL;
    uv_timer_stop(&w->timer);
    w->state = W_IDLE;
    save_scores(pool, q);
    complete(pool, q, UZ_OK, NULL);
    while ((wt = w->waiters)) {
        w->waiters = wt->priv.next;
        memcpy(wt->scores, q->scores, sizeof(int32_t) * (size_t)q->n_moves);
        complete(pool, wt, UZ_OK, NULL);
    }
    maybe_recheck(pool, q);
    pump(pool);
}

/* Records one score line of move idx at depth d: an exact score is kept for that
 * depth (a later line at the same depth replaces it), a bound removes it. */
static void record_score(worker *w, int idx, int d, const uz__info *in)
{
    scored *k = w->kept[idx];
    int n = w->n_kept[idx], i = 0;
    if (d >= w->top_depth[idx]) {
        w->top_depth[idx] = d;
        w->top_bound[idx] = in->bound;
    }
    while (i < n && k[i].depth < d)
        i++;
    bool same = i < n && k[i].depth == d;
    if (in->bound) {
        if (same) {
            memmove(&k[i], &k[i + 1], sizeof *k * (size_t)(n - i - 1));
            w->n_kept[idx]--;
        }
        return;
    }
    scored e = {d, in->score_mate, in->score};
    if (same) {
        k[i] = e;
        return;
    }
    if (n == SCORES_KEPT) {
        if (i == 0)
            return; /* shallower than everything kept */
        memmove(&k[0], &k[1], sizeof *k * (size_t)(i - 1));
        i--;
        n--;
    }
    memmove(&k[i + 1], &k[i], sizeof *k * (size_t)(n - i));
    k[i] = e;
    w->n_kept[idx] = (unsigned char)(n + 1);
}

static const scored *kept_at(const worker *w, int idx, int d)
{
    for (int j = 0; j < w->n_kept[idx]; j++)
        if (w->kept[idx][j].depth == d)
            return &w->kept[idx][j];
    return NULL;
}

/* The depth every searched move takes its score from: the deepest one at which every
 * move has an exact score. When the node limit stopped the search, the iteration under
 * way then is partial (some lines are bounds or the previous depth's scores relabelled)
 * and is skipped, so the result depends only on the node count, which is deterministic.
 * -1 if there is none. */
static int common_depth(const worker *w, bool stopped)
{
    for (int j = w->n_kept[w->lo] - 1; j >= 0; j--) {
        int d = w->kept[w->lo][j].depth;
        if (stopped && d >= w->max_depth)
            continue;
        bool all = true;
        for (int i = w->lo + 1; i < w->hi && all; i++)
            all = kept_at(w, i, d) != NULL;
        if (all)
            return d;
    }
    return -1;
}

static void on_info(worker *w, const char *line)
{
    uz_pool *pool = w->pool;
    uz__info in;
    if (!uz__parse_info(line, &in)) {
        worker_fail(w, UZ_ERR_ENGINE, false, "malformed info line '%.60s'", line);
        return;
    }
    if (in.time_ms >= 0)
        w->last_time = in.time_ms;
    if (in.nodes >= 0)
        w->last_nodes = in.nodes;
    if (!in.has_score)
        return;
    bool permove = pool->s.mode == UZ_MODE_PERMOVE && w->q->priv.kind != KIND_PROBE_SM;
    bool single = w->hi - w->lo == 1 && (pool->s.mode == UZ_MODE_SEARCHMOVES ||
                                         w->q->priv.kind == KIND_PROBE_SM);
    int idx;
    if (permove) {
        idx = w->lo; /* the pv is the opponent's reply */
    } else if (single) {
        idx = w->lo;
        if (in.pv_first[0] && strcmp(in.pv_first, w->uci[idx]) != 0) {
            if (w->q->priv.kind == KIND_PROBE_SM) {
                pool->searchmoves_ok = false;
                return;
            }
            worker_fail(w, UZ_ERR_ENGINE, false,
                        "ignored 'searchmoves %s' (its pv starts with %s)", w->uci[idx], in.pv_first);
            return;
        }
    } else {
        if (!in.pv_first[0])
            return; /* a score we cannot attribute to a move */
        idx = find_move(w, in.pv_first);
        if (idx < 0) {
            worker_fail(w, UZ_ERR_ENGINE, false, "named move '%s' that is not among those searched in %s",
                        in.pv_first, w->q->priv.fen);
            return;
        }
    }
    int d = in.depth >= 0 ? in.depth : 0;
    record_score(w, idx, d, &in);
    if (d > w->max_depth)
        w->max_depth = d;
}

/* Fills q->scores[lo..hi) from the finished search; false after worker_fail. */
static bool take_scores(worker *w)
{
    uz_pool *pool = w->pool;
    uz_query *q = w->q;
    bool permove = pool->s.mode == UZ_MODE_PERMOVE;
    long limit = q->priv.nodes;
    bool stopped = limit > 0 && w->last_nodes >= node_limit(w, limit);
    int d = -1; /* protocol 1 archives with a node limit: each move's deepest line, which must be exact */
    if (limit == 0 || pool->s.protocol != 1)
        d = common_depth(w, stopped);
    if (d < 0 && stopped) {
        worker_fail(w, UZ_ERR_ENGINE, false,
                    "node limit %ld a move is too small: no iteration completed for every move in %s", limit,
                    q->priv.fen);
        return false;
    }
    for (int i = w->lo; i < w->hi; i++) {
        if (w->top_depth[i] < -1) {
            worker_fail(w, UZ_ERR_ENGINE, false, "gave no score for move %s in %s", w->uci[i], q->priv.fen);
            return false;
        }
    }
    for (int i = w->lo; i < w->hi; i++) {
        /* Normally every move's score is from the last depth. Stockfish 15.1 sometimes
         * ends a depth-limited search with a bound at the last depth (a root move's stale
         * fail-low flag); the previous depth, complete and exact, is then used. */
        const scored *e = kept_at(w, i, d >= 0 ? d : w->top_depth[i]);
        if (!e) {
            worker_fail(w, UZ_ERR_ENGINE, false, "gave only a bound score for move %s in %s", w->uci[i],
                        q->priv.fen);
            return false;
        }
        /* But a search that ran to its depth reports every move at the last depth. */
        if (limit == 0 && w->top_depth[i] != w->max_depth) {
            worker_fail(w, UZ_ERR_ENGINE, false, "scored move %s at depth %d only, not %d, in %s", w->uci[i],
                        w->top_depth[i], w->max_depth, q->priv.fen);
            return false;
        }
        int32_t v = uz_engine_score_from_uci(e->mate, e->score);
        q->scores[i] = permove ? -v : v;
    }
    return true;
}

static void on_bestmove(worker *w, const char *rest)
{
    uz_pool *pool = w->pool;
    uz_query *q = w->q;
    char best[16] = "";
    sscanf(rest, "%15s", best);
    if (q->priv.kind == KIND_PROBE_SM) {
        if (strcmp(best, w->uci[w->lo]) != 0)
            pool->searchmoves_ok = false;
        q->scores[0] = 0;
        finish_query(w);
        return;
    }
    /* permove: the bestmove is the opponent's reply, not ours to check. */
    if (pool->s.mode != UZ_MODE_PERMOVE && find_move(w, best) < 0) {
        if (pool->s.mode == UZ_MODE_SEARCHMOVES && best[0] && strcmp(best, "(none)") != 0)
            worker_fail(w, UZ_ERR_ENGINE, false, "ignored 'searchmoves %s' (bestmove %s)", w->uci[w->lo], best);
        else
            worker_fail(w, UZ_ERR_ENGINE, false, "bestmove '%s' is not a searched legal move in %s", best,
                        q->priv.fen);
        return;
    }
    if (!take_scores(w))
        return;
    if (w->last_time > 0)
        pool->stats.search_ms += (double)w->last_time;
    pool->stats.go_ms += (double)(uv_hrtime() - w->sent_at) / 1e6;
    if (++w->step < w->n_steps) {
        if (pool->s.mode == UZ_MODE_SEARCHMOVES) {
            /* Same position, next move: no clear in between (once per position). */
            w->lo = w->step;
            w->hi = w->step + 1;
            reset_scores(w);
            send_go(w);
        } else {
            step_begin(w);
        }
        return;
    }
    finish_query(w);
}

static void on_proc_line(uz__proc *p, char *line, size_t len)
{
    worker *w = p->owner;
    const char *rest;
    if (w->state == W_CLOSING || w->state == W_OFF || w->state == W_DEAD)
        return;
    if (uz__line_is_garbage(line, len)) {
        if (w->state != W_IDLE)
            worker_fail(w, UZ_ERR_ENGINE, false, "printed garbage (control characters)");
        return;
    }
    switch (w->state) {
    case W_HANDSHAKE:
        if (strcmp(line, "uci") == 0) {
            worker_fail(w, UZ_ERR_ENGINE, false, "echoes its input: not a UCI engine");
        } else if (uz__line_starts(line, "id", &rest)) {
            const char *nm;
            if (uz__line_starts(rest, "name", &nm))
                uz_copy_str(w->name, sizeof w->name, nm);
        } else if (uz__line_starts(line, "option", &rest)) {
            parse_option_line(w, rest);
        } else if (uz__line_starts(line, "uciok", NULL)) {
            if (!w->name[0])
                uz_copy_str(w->name, sizeof w->name, w->pool->s.path);
            on_uciok(w);
        }
        break;
    case W_OPTIONS:
        if (uz__line_starts(line, "readyok", NULL)) {
            uv_timer_stop(&w->timer);
            w->state = W_IDLE;
            w->fail_streak = 0;
            pump(w->pool);
        }
        break;
    case W_CLEARING:
        if (uz__line_starts(line, "readyok", NULL)) {
            w->pool->stats.clear_ms += (double)(uv_hrtime() - w->sent_at) / 1e6;
            send_go(w);
        }
        break;
    case W_SEARCHING:
        if (uz__line_starts(line, "info", NULL))
            on_info(w, line);
        else if (uz__line_starts(line, "bestmove", &rest))
            on_bestmove(w, rest);
        break;
    default:
        break;
    }
}

static void worker_start(worker *w)
{
    uz_pool *pool = w->pool;
    w->state = W_HANDSHAKE;
    w->name[0] = '\0';
    w->n_opts = 0;
    w->proc_open = true;
    int rc = uz__proc_spawn(&w->proc, &pool->loop, pool->s.path, on_proc_line, on_proc_event, w);
    if (rc != 0) {
        worker_fail(w, UZ_ERR_ENGINE, true, "cannot start: %s", uv_strerror(rc));
        return;
    }
    send_text(w, "uci\n");
    arm(w, pool->s.handshake_timeout_ms);
}

/* Removes and returns the first queued query worker idx may search: one that does
 * not avoid it, or any when no other worker is left. */
static uz_query *queue_take_for(uz_pool *pool, int idx)
{
    bool others = false;
    for (int i = 0; i < pool->n_workers && !others; i++)
        others = i != idx && pool->workers[i].state != W_DEAD;
    uz_query *prev = NULL;
    for (uz_query *q = pool->queue_head; q; prev = q, q = q->priv.next) {
        if (others && q->priv.avoid == idx)
            continue;
        if (prev)
            prev->priv.next = q->priv.next;
        else
            pool->queue_head = q->priv.next;
        if (pool->queue_tail == q)
            pool->queue_tail = prev;
        q->priv.next = NULL;
        return q;
    }
    return NULL;
}

/* Hands queued queries to idle workers. */
static void pump(uz_pool *pool)
{
    if (pool->shutting_down)
        return;
    if (all_dead(pool)) {
        const worker *w = &pool->workers[0];
        fail_queue(pool, w->err_code ? w->err_code : UZ_ERR_ENGINE, w->err);
        return;
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
        if (lookup_scores(pool, q)) {
            complete(pool, q, UZ_OK, NULL);
            continue;
        }
        /* An identical position already being searched answers this one too. */
        worker *twin = NULL;
        for (int i = 0; i < pool->n_workers && pool->cache && !q->priv.no_cache && !twin; i++) {
            worker *o = &pool->workers[i];
            if (o->q && worker_busy_state(o->state) && !o->q->priv.no_cache &&
                o->q->priv.kind != KIND_PROBE_SM && o->q->n_moves == q->n_moves &&
                strcmp(o->q->priv.fen, q->priv.fen) == 0 &&
                memcmp(o->q->moves, q->moves, sizeof(uz_move) * (size_t)q->n_moves) == 0)
                twin = o;
        }
        if (twin) {
            pool->stats.coalesced++;
            q->priv.next = twin->waiters;
            twin->waiters = q;
            continue;
        }
        worker_begin(idle, q);
    }
}

/* ---------- public API ---------- */

static void normalise_fen(const uz_position *pos, char *fen)
{
    uz_position_to_fen(pos, fen);
    /* The fullmove number does not influence a search; fixing it makes equal
     * positions byte-identical for the engine and for the cache. */
    char *sp = strrchr(fen, ' ');
    if (sp)
        strcpy(sp + 1, "1");
}

static void submit(uz_pool *pool, uz_query *q, int kind)
{
    q->priv.next = NULL;
    q->priv.kind = kind;
    q->priv.attempts = 0;
    if (kind == KIND_NORMAL || kind == KIND_SYNC) {
        q->priv.depth = pool->s.depth;
        q->priv.nodes = pool->s.nodes;
        q->priv.no_cache = false;
        q->priv.avoid = -1;
        pool->stats.queries++;
    }
    q->priv.worker = -1;
    pool->outstanding++;
    if (q->n_moves < 1 || q->n_moves > UZ_MAX_MOVES) {
        complete(pool, q, UZ_ERR_ARG, "query without legal moves");
        return;
    }
    uz_move legal[UZ_MAX_MOVES];
    int n = uz_generate_legal(&q->pos, legal);
    if (n != q->n_moves || memcmp(legal, q->moves, sizeof(uz_move) * (size_t)n) != 0) {
        complete(pool, q, UZ_ERR_ARG, "query moves are not the position's legal moves in canonical order");
        return;
    }
    if (q->n_moves == 1 && kind != KIND_PROBE_SM) {
        q->scores[0] = 0;
        if (kind == KIND_NORMAL || kind == KIND_SYNC)
            pool->stats.trivial++;
        complete(pool, q, UZ_OK, NULL);
        return;
    }
    normalise_fen(&q->pos, q->priv.fen);
    if (lookup_scores(pool, q)) {
        complete(pool, q, UZ_OK, NULL);
        return;
    }
    queue_push(&pool->queue_head, &pool->queue_tail, q, false);
    pump(pool);
}

void uz_pool_submit(uz_pool *pool, uz_query *q)
{
    if (!pool || !q)
        return;
    submit(pool, q, KIND_NORMAL);
}

/* The first and every recheck_every-th position an engine answers is searched again by another
 * worker (cleared, no cache): an engine whose scores are not reproducible would make
 * archives that no decoder can read, so the run fails instead. */
static void maybe_recheck(uz_pool *pool, const uz_query *q)
{
    if ((q->priv.kind != KIND_NORMAL && q->priv.kind != KIND_SYNC) || pool->s.recheck_every <= 0 ||
        pool->shutting_down || pool->searched++ % (uint64_t)pool->s.recheck_every != 0)
        return;
    recheck *c = malloc(sizeof *c);
    if (!c)
        return; /* a check skipped, nothing wrong with the scores */
    c->q = *q;
    memcpy(c->expect, q->scores, sizeof(int32_t) * (size_t)q->n_moves);
    c->q.done = NULL;
    c->q.user = NULL;
    c->q.priv.no_cache = true;
    c->q.priv.avoid = q->priv.worker;
    c->q.priv.attempts = 0;
    submit(pool, &c->q, KIND_RECHECK);
}

/* First differing move of two score lists of q, -1 if none. */
static int scores_differ(const uz_query *q, const int32_t *a, const int32_t *b)
{
    for (int i = 0; i < q->n_moves; i++)
        if (a[i] != b[i])
            return i;
    return -1;
}

static void nondeterministic(const uz_pool *pool, const uz_query *q, int i, int32_t first, int32_t second,
                             char *msg, size_t cap)
{
    char uci[UZ_UCI_MAX];
    uz_move_to_uci(q->moves[i], uci);
    snprintf(msg, cap,
             "engine '%.60s' is not deterministic: %.90s searched twice scored %s %d, then %d",
             pool->s.path, q->priv.fen, uci, (int)first, (int)second);
}

static void recheck_done(uz_pool *pool, recheck *c)
{
    int i = c->q.status == UZ_OK ? scores_differ(&c->q, c->expect, c->q.scores) : -1;
    if (i >= 0 && pool->run_error == UZ_OK) {
        pool->run_error = UZ_ERR_ENGINE;
        nondeterministic(pool, &c->q, i, c->expect[i], c->q.scores[i], pool->run_msg, sizeof pool->run_msg);
    }
    free(c);
}

/* Drives the loop until nothing is outstanding. Callbacks run here, never nested
 * inside libuv callbacks, so they may submit freely. */
static void run_loop(uz_pool *pool)
{
    for (;;) {
        uz_query *q;
        while ((q = queue_pop(&pool->done_head, &pool->done_tail))) {
            pool->outstanding--;
            if (q->priv.kind == KIND_RECHECK)
                recheck_done(pool, (recheck *)q);
            else if (q->priv.kind == KIND_NORMAL && q->done)
                q->done(q, q->user);
        }
        if (pool->outstanding <= 0)
            break;
        pump(pool);
        if (pool->done_head)
            continue;
        if (uv_run(&pool->loop, UV_RUN_ONCE) == 0 && !pool->done_head) {
            /* Nothing left that could ever answer: fail rather than hang. */
            fail_queue(pool, UZ_ERR_ENGINE, "no engine left to answer");
            if (!pool->done_head)
                break;
        }
    }
}

uz_result uz_pool_run(uz_pool *pool, uz_diag *diag)
{
    if (!pool)
        return UZ_ERR_ARG;
    double t0 = now_ms();
    pool->run_error = UZ_OK;
    pool->run_msg[0] = '\0';
    run_loop(pool);
    pool->stats.wall_ms += now_ms() - t0;
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
    submit(pool, q, KIND_SYNC);
    uz_result rc = uz_pool_run(pool, diag);
    return rc != UZ_OK ? rc : q->status;
}

static void build_settings_text(uz_pool *pool, const worker *w0)
{
    const uz_engine_settings *s = &pool->s;
    char *t = pool->settings_text;
    size_t cap = sizeof pool->settings_text, n = 0;
    /* The lowest protocol whose scores these are (see UZ_ENGINE_PROTOCOL_VERSION), so
     * that archives made before version 2 keep their fingerprints. */
    int protocol = s->protocol == 1 || (s->nodes == 0 && s->mode != UZ_MODE_PERMOVE) ? 1 : UZ_ENGINE_PROTOCOL_VERSION;
    n += (size_t)snprintf(t + n, cap - n,
                          "protocol=%d\nengine=%s\nmode=%s\ndepth=%d\nnodes=%ld\nmax_multipv=%d\nclear=%s\n",
                          protocol, pool->name, uz_engine_mode_name(s->mode), s->depth,
                          s->nodes, pool->max_multipv, s->clear);
    /* Record only what was actually sent (an engine may lack Threads or Hash). */
    if (s->threads > 0 && find_opt(w0, "Threads") && n < cap)
        n += (size_t)snprintf(t + n, cap - n, "option.Threads=%d\n", s->threads);
    if (s->hash_mb > 0 && find_opt(w0, "Hash") && n < cap)
        n += (size_t)snprintf(t + n, cap - n, "option.Hash=%d\n", s->hash_mb);
    for (int i = 0; i < s->n_options && n < cap; i++)
        n += (size_t)snprintf(t + n, cap - n, "option.%s=%s\n", s->options[i].name, s->options[i].value);
}

/* True if the settings put the engine in Chess960 mode (option UCI_Chess960 true). */
static bool chess960_mode(const uz_engine_settings *s)
{
    for (int i = 0; i < s->n_options; i++)
        if (strcmp(s->options[i].name, "UCI_Chess960") == 0)
            return strcmp(s->options[i].value, "true") == 0;
    return false;
}

/* Scores the built-in probe set and hashes it with the settings text. An engine in
 * Chess960 mode gets the probe positions under Chess960 rules (castling written king
 * takes rook, as it expects). */
static uz_result compute_fingerprint(uz_pool *pool, uz_diag *diag)
{
    uz_result rc = UZ_OK;
    uint64_t h = uz__fnv1a(UZ__FNV_OFFSET, pool->settings_text, strlen(pool->settings_text));
    /* Each probe is searched twice, on two workers when there are two: an engine that
     * does not give the same scores twice is refused before it codes anything. */
    uz_query *q = malloc(2 * sizeof *q), *q2 = q + 1;
    if (!q) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    for (int i = 0; uz__probe_fens[i] && rc == UZ_OK; i++) {
        memset(q, 0, sizeof *q);
        rc = uz_position_from_fen_960(&q->pos, uz__probe_fens[i], chess960_mode(&pool->s), diag);
        if (rc != UZ_OK)
            break;
        q->n_moves = uz_generate_legal(&q->pos, q->moves);
        /* Cheap but still sensitive: the probe searches at most depth 6 / 20000 nodes. */
        q->priv.depth = pool->s.depth > 6 ? 6 : pool->s.depth;
        q->priv.nodes = pool->s.nodes > 20000 ? 20000 : pool->s.nodes;
        q->priv.no_cache = true;
        q->priv.avoid = -1;
        *q2 = *q;
        submit(pool, q, KIND_PROBE_FP);
        q2->priv.avoid = q->priv.worker;
        submit(pool, q2, KIND_PROBE_FP);
        rc = uz_pool_run(pool, diag);
        if (rc == UZ_OK)
            rc = q->status != UZ_OK ? q->status : q2->status;
        int differ = rc == UZ_OK ? scores_differ(q, q->scores, q2->scores) : -1;
        if (differ >= 0) {
            char msg[256];
            nondeterministic(pool, q, differ, q->scores[differ], q2->scores[differ], msg, sizeof msg);
            rc = UZ_ERR_ENGINE;
            uz_diag_set(diag, rc, 0, 0, "%s", msg);
        }
        for (int m = 0; m < q->n_moves && rc == UZ_OK; m++) {
            uint32_t v = (uint32_t)q->scores[m];
            unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                                   (unsigned char)(v >> 24)};
            h = uz__fnv1a(h, le, 4);
        }
    }
    free(q);
    snprintf(pool->fingerprint, sizeof pool->fingerprint, "%016" PRIx64, h);
    return rc;
}

static uz_result probe_searchmoves(uz_pool *pool, uz_diag *diag)
{
    uz_result rc;
    uz_query *q = calloc(1, sizeof *q);
    if (!q) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    uz_position_startpos(&q->pos);
    q->n_moves = uz_generate_legal(&q->pos, q->moves);
    q->priv.no_cache = true;
    q->priv.avoid = -1;
    pool->searchmoves_ok = true;
    submit(pool, q, KIND_PROBE_SM);
    rc = uz_pool_run(pool, diag);
    if (rc == UZ_OK)
        rc = q->status;
    free(q);
    return rc;
}

uz_result uz_pool_create(uz_pool **out, const uz_engine_settings *s, int workers, uz_diag *diag)
{
    uz_result rc = UZ_OK;
    uz_pool *pool = NULL;
    char resolved[UZ_ENGINE_PATH_MAX];
    if (out)
        *out = NULL;
    if (!out || !s || workers < 1 || workers > 256 || (s->depth < 1 && s->nodes <= 0) ||
        s->nodes < 0 ||
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
    int erc = uz__resolve_exe(s->path, resolved, sizeof resolved);
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
    /* A write to a dead engine must fail with EPIPE, not kill the process. */
    signal(SIGPIPE, SIG_IGN);

    pool = calloc(1, sizeof *pool);
    if (!pool)
        goto nomem;
    pool->s = *s;
    uz_copy_str(pool->s.path, sizeof pool->s.path, resolved);
    if (pool->s.max_retries < 0)
        pool->s.max_retries = 0;
    pool->workers = calloc((size_t)workers, sizeof *pool->workers);
    if (!pool->workers)
        goto nomem;
    if (s->cache_entries > 0) {
        size_t buckets = 1;
        while (buckets * CACHE_WAYS < (size_t)s->cache_entries)
            buckets *= 2;
        pool->cache = calloc(buckets * CACHE_WAYS, sizeof *pool->cache);
        if (!pool->cache)
            goto nomem;
        pool->cache_buckets = buckets;
    }
    if (uv_loop_init(&pool->loop) != 0) {
        rc = UZ_ERR_ENGINE;
        uz_diag_set(diag, rc, 0, 0, "cannot create an event loop");
        goto fail;
    }
    pool->loop_open = true;
    pool->n_workers = workers;
    pool->creating = true;
    for (int i = 0; i < workers; i++) {
        worker *w = &pool->workers[i];
        w->pool = pool;
        w->index = i;
        w->state = W_OFF;
        uv_timer_init(&pool->loop, &w->timer);
        w->timer.data = w;
    }
    for (int i = 0; i < workers; i++)
        worker_start(&pool->workers[i]);
    /* Wait until every worker is ready or one has failed. */
    for (;;) {
        int ready = 0, failed = -1;
        for (int i = 0; i < workers; i++) {
            wstate st = pool->workers[i].state;
            if (st == W_IDLE)
                ready++;
            else if ((st == W_CLOSING || st == W_DEAD) && failed < 0)
                failed = i;
        }
        if (failed >= 0) {
            rc = pool->workers[failed].err_code ? pool->workers[failed].err_code : UZ_ERR_ENGINE;
            uz_diag_set(diag, rc, 0, 0, "%s", pool->workers[failed].err);
            goto fail;
        }
        if (ready == workers)
            break;
        uv_run(&pool->loop, UV_RUN_ONCE);
    }
    worker *w0 = &pool->workers[0];
    uz_copy_str(pool->name, sizeof pool->name, w0->name);
    pool->max_multipv = w0->engine_multipv_max;
    if (s->max_multipv > 0 && (pool->max_multipv == 0 || s->max_multipv < pool->max_multipv))
        pool->max_multipv = s->max_multipv;
    if (pool->max_multipv < 1)
        pool->max_multipv = 1;
    pool->s.max_multipv = pool->max_multipv;

    rc = probe_searchmoves(pool, diag);
    if (rc != UZ_OK)
        goto fail;
    if (s->mode == UZ_MODE_SEARCHMOVES && !pool->searchmoves_ok) {
        rc = UZ_ERR_UNSUPPORTED;
        uz_diag_set(diag, rc, 0, 0,
                    "engine '%s' (%s) ignores 'go searchmoves'; mode searchmoves is not available, use multipv",
                    pool->s.path, pool->name);
        goto fail;
    }
    build_settings_text(pool, w0);
    rc = compute_fingerprint(pool, diag);
    if (rc != UZ_OK)
        goto fail;
    pool->creating = false;
    memset(&pool->stats, 0, sizeof pool->stats);
    *out = pool;
    return UZ_OK;
nomem:
    rc = UZ_ERR_NOMEM;
    uz_diag_set(diag, rc, 0, 0, "out of memory");
fail:
    uz_pool_destroy(pool);
    return rc;
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
            next = q->priv.next;
            if (q->priv.kind == KIND_RECHECK)
                free(q);
        }
    for (int i = 0; pool->workers && i < pool->n_workers; i++)
        if (pool->workers[i].q && pool->workers[i].q->priv.kind == KIND_RECHECK) {
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
    cache_free(pool);
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
