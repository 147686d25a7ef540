/* One engine worker: its process, the UCI handshake, failures, restarts and the
 * dispatch of the lines it prints. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

void uz__worker_send(worker *w, const char *text) { uz__proc_write(&w->proc, text, strlen(text)); }

bool uz__worker_busy(wstate st) { return st == W_CLEARING || st == W_SEARCHING; }

/* Something went wrong with w's engine. Retryable failures (crash, hang) requeue the
 * query until max_retries; others (malformed answers) fail it at once. In every case
 * the process is killed and, unless we are giving up, started afresh. */
void uz__worker_fail(worker *w, uz_result code, bool retryable, const char *fmt, ...)
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
    bool timed_out = code == UZ_ERR_TIMEOUT && uz__worker_busy(w->state);
    if (timed_out)
        pool->timeouts++;
    if (timed_out && ++pool->timeout_streak >= UZ__TIMEOUT_STREAK_MAX && !pool->gave_up) {
        pool->gave_up = true;
        retryable = false;
        snprintf(w->err, sizeof w->err,
                 "engine '%.80s' stopped answering: %d searches in a row got no answer within %d ms; giving up",
                 pool->s.path, pool->timeout_streak, pool->s.timeout_ms);
    } else if (timed_out && pool->timeouts >= UZ__TIMEOUTS_MAX && !pool->gave_up) {
        pool->gave_up = true;
        retryable = false;
        snprintf(w->err, sizeof w->err,
                 "engine '%.80s' keeps hanging: %d searches got no answer within %d ms, with answers between them; "
                 "giving up",
                 pool->s.path, pool->timeouts, pool->s.timeout_ms);
    } else if (timed_out && pool->timeouts == 1 && pool->on_warning) {
        char warning[300];
        snprintf(warning, sizeof warning,
                 "warning: engine '%.80s' gave no answer within %d ms: the search was killed and is tried again "
                 "(after %d such searches the engine is given up)",
                 pool->s.path, pool->s.timeout_ms, UZ__TIMEOUTS_MAX);
        pool->on_warning(pool->warning_user, warning);
    }
    if (w->q) {
        uz_query *q = w->q, *wt;
        w->q = NULL;
        QPRIV(q)->attempts++;
        if (retryable && QPRIV(q)->attempts <= pool->s.max_retries && !pool->creating) {
            /* Identical waiters go back too; they will join the retry. */
            while ((wt = w->waiters)) {
                w->waiters = QPRIV(wt)->next;
                uz__queue_push(&pool->queue_head, &pool->queue_tail, wt, true);
            }
            uz__queue_push(&pool->queue_head, &pool->queue_tail, q, true);
        } else {
            char full[256];
            if (retryable && QPRIV(q)->attempts > 1)
                snprintf(full, sizeof full, "%.200s (after %d attempts)", w->err, QPRIV(q)->attempts);
            else
                uz_copy_str(full, sizeof full, w->err);
            uz__pool_complete(pool, q, code, full);
            while ((wt = w->waiters)) {
                w->waiters = QPRIV(wt)->next;
                uz__pool_complete(pool, wt, code, full);
            }
        }
    }
    uv_timer_stop(&w->timer);
    w->dying = false;
    w->state = W_CLOSING;
    w->restart = !pool->shutting_down && !pool->creating && !pool->gave_up && w->fail_streak <= pool->s.max_retries;
    uz__proc_close(&w->proc);
    if (pool->gave_up)
        uz__pool_fail_queue(pool, UZ_ERR_TIMEOUT, w->err);
}

static void on_timeout(uv_timer_t *t)
{
    worker *w = t->data;
    uz_pool *pool = w->pool;
    if (w->dying)
        uz__worker_fail(w, UZ_ERR_ENGINE, true, "closed its output");
    else if (w->state == W_HANDSHAKE || w->state == W_OPTIONS)
        uz__worker_fail(w, UZ_ERR_TIMEOUT, true,
                    "no UCI handshake within %d ms (is it a UCI engine?)",
                    pool->s.handshake_timeout_ms);
    else if (uz__worker_busy(w->state))
        uz__worker_fail(w, UZ_ERR_TIMEOUT, true, "no answer within %d ms, killed",
                    pool->s.timeout_ms);
}

/* From the current time: the loop's clock is stale after the pool sat idle between runs
 * (while another oracle ran, as a routing oracle runs its engines in turn), and a timer
 * armed from it would expire at once. */
void uz__worker_arm(worker *w, int ms)
{
    uv_update_time(w->timer.loop);
    uv_timer_start(&w->timer, on_timeout, (uint64_t)(ms > 0 ? ms : 1), 0);
}

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
            uz__worker_fail(w, UZ_ERR_ENGINE, true, "killed by signal %d%s", p->term_signal, phase);
        else
            uz__worker_fail(w, UZ_ERR_ENGINE, true, "exited with status %d%s%s", (int)p->exit_status,
                        phase, *phase ? " (not a UCI engine?)" : "");
        break;
    }
    case UZ__EV_EOF:
    case UZ__EV_WRITE_ERROR:
        /* Usually the process is exiting: give its exit status a moment to arrive
         * so the message can say how it ended. */
        if (!w->dying && w->state != W_CLOSING) {
            w->dying = true;
            uz__worker_arm(w, 500);
        }
        break;
    case UZ__EV_LONG_LINE:
        uz__worker_fail(w, UZ_ERR_ENGINE, false, "printed a line longer than %u bytes", UZ__LINE_MAX);
        break;
    case UZ__EV_CLOSED:
        w->proc_open = false;
        if (w->state != W_CLOSING && w->state != W_OFF)
            w->state = W_CLOSING; /* closed from under us: treat like a failure */
        if (w->restart && !pool->shutting_down && uz__pool_exe_unchanged(pool, w->err, sizeof w->err, &w->err_code)) {
            w->restart = false;
            pool->stats.restarts++;
            uz__worker_start(w);
        } else {
            w->state = pool->shutting_down ? W_OFF : W_DEAD;
            if (!pool->shutting_down && uz__pool_all_dead(pool))
                uz__pool_fail_queue(pool, w->err_code ? w->err_code : UZ_ERR_ENGINE, w->err);
        }
        break;
    }
}

/* ---------- handshake ---------- */

engine_option *uz__worker_find_opt(const worker *w, const char *name)
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
    engine_option *o = uz__worker_find_opt(w, name);
    if (!o) {
        if (required)
            uz__worker_fail(w, UZ_ERR_UNSUPPORTED, false, "'%s' has no option '%s'", w->name, name);
        return !required;
    }
    if (o->has_range) {
        long v = strtol(value, NULL, 10);
        if (v < o->min || v > o->max) {
            uz__worker_fail(w, UZ_ERR_ARG, false, "option %s = %s is outside the engine's range %ld..%ld",
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
        engine_option *o = uz__worker_find_opt(w, s->clear + 7);
        if (!o || strcmp(o->type, "button") != 0) {
            uz__worker_fail(w, UZ_ERR_UNSUPPORTED, false, "'%s' has no button option '%s' to clear it",
                        w->name, s->clear + 7);
            return;
        }
    }
    engine_option *mpv = uz__worker_find_opt(w, "MultiPV");
    w->engine_multipv_max = mpv ? (mpv->has_range ? (int)mpv->max : 1) : 0;
    if (s->mode == UZ_MODE_MULTIPV && w->engine_multipv_max < 2) {
        uz__worker_fail(w, UZ_ERR_UNSUPPORTED, false,
                    "'%s' has no usable MultiPV option; use mode searchmoves", w->name);
        return;
    }
    strcat(cmds, "isready\n");
    uz__worker_send(w, cmds);
    w->state = W_OPTIONS;
    uz__worker_arm(w, s->handshake_timeout_ms);
}

/* ---------- queries ---------- */

static void on_proc_line(uz__proc *p, char *line, size_t len)
{
    worker *w = p->owner;
    const char *rest;
    if (w->state == W_CLOSING || w->state == W_OFF || w->state == W_DEAD)
        return;
    if (uz__line_is_garbage(line, len)) {
        if (w->state != W_IDLE)
            uz__worker_fail(w, UZ_ERR_ENGINE, false, "printed garbage (control characters)");
        return;
    }
    switch (w->state) {
    case W_HANDSHAKE:
        if (strcmp(line, "uci") == 0) {
            uz__worker_fail(w, UZ_ERR_ENGINE, false, "echoes its input: not a UCI engine");
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
            uz__pool_pump(w->pool);
        }
        break;
    case W_CLEARING:
        if (uz__line_starts(line, "readyok", NULL)) {
            uz__query_on_ready(w);
        }
        break;
    case W_SEARCHING:
        if (uz__line_starts(line, "info", NULL))
            uz__query_on_info(w, line);
        else if (uz__line_starts(line, "bestmove", &rest))
            uz__query_on_bestmove(w, rest);
        break;
    default:
        break;
    }
}

void uz__worker_start(worker *w)
{
    uz_pool *pool = w->pool;
    w->state = W_HANDSHAKE;
    w->name[0] = '\0';
    w->n_opts = 0;
    w->proc_open = true;
    int rc = uz__proc_spawn(&w->proc, &pool->loop, pool->s.path, on_proc_line, on_proc_event, w);
    if (rc != 0) {
        uz__worker_fail(w, UZ_ERR_ENGINE, true, "cannot start: %s", uv_strerror(rc));
        return;
    }
    uz__worker_send(w, "uci\n");
    uz__worker_arm(w, pool->s.handshake_timeout_ms);
}
