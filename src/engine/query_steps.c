/* The steps of one query on a worker: clearing, "go" commands per position, chunk or
 * move, and the scores taken from the engine's info and bestmove lines. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static void step_begin(worker *w);
static void format_go(const worker *w, char *cmds, size_t size);
static void finish_query(worker *w);

/* A move's text (at most 7 bytes) as one number; UINT64_MAX for longer text, which
 * names no move. Each info line names a move to be found among some forty. */
static uint64_t uci_key(const char *uci)
{
    size_t n = strnlen(uci, 8);
    if (n == 8)
        return UINT64_MAX;
    uint64_t key = 0;
    memcpy(&key, uci, n);
    return key;
}

static int find_move(const worker *w, const char *uci)
{
    const uint64_t key = uci_key(uci);
    for (int i = w->lo; i < w->hi; i++)
        if (w->uci_key[i] == key)
            return i;
    return -1;
}

void uz__query_begin(worker *w, uz_query *q)
{
    uz_pool *pool = w->pool;
    w->q = q;
    w->waiters = NULL;
    QPRIV(q)->worker = w->index;
    for (int i = 0; i < q->n_moves; i++) {
        uz_move_to_uci(q->moves[i], w->uci[i]);
        w->uci_key[i] = uci_key(w->uci[i]);
    }
    if (QPRIV(q)->kind == KIND_PROBE_SM) {
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
            uz__pool_complete(pool, q, UZ_ERR_UNSUPPORTED, msg);
            return;
        }
    }
    w->step = 0;
    if (QPRIV(q)->kind == KIND_RECHECK)
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
    bool multipv = pool->s.mode == UZ_MODE_MULTIPV && QPRIV(q)->kind != KIND_PROBE_SM;
    bool permove = pool->s.mode == UZ_MODE_PERMOVE && QPRIV(q)->kind != KIND_PROBE_SM;
    if (QPRIV(q)->kind == KIND_PROBE_SM) {
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

    /* Clear, isready and the search go out in one write: the engine reads its commands
     * in order, so the search starts after the clear without a round trip for readyok
     * (the readyok is still awaited and checked before any answer is read). */
    char cmds[UZ_FEN_MAX + 320 + UZ_MAX_MOVES * UZ_UCI_MAX];
    cmds[0] = '\0';
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
    size_t used = strlen(cmds);
    format_go(w, cmds + used, sizeof cmds - used);
    uz__worker_send(w, cmds);
    w->sent_at = uv_hrtime();
    w->state = W_CLEARING;
    uz__worker_arm(w, pool->s.timeout_ms);
}

/* The "go nodes" of the current search for a limit of `nodes` per move (protocol 1
 * archives: per search). */
static long long node_limit(const worker *w, long nodes)
{
    return w->pool->s.protocol == 1 ? nodes : (long long)nodes * (w->hi - w->lo);
}

/* Writes the position and go commands of the current step into cmds. */
static void format_go(const worker *w, char *cmds, size_t size)
{
    uz_pool *pool = w->pool;
    const uz_query *q = w->q;
    bool permove = pool->s.mode == UZ_MODE_PERMOVE && QPRIV(q)->kind != KIND_PROBE_SM;
    int depth = QPRIV(q)->kind == KIND_PROBE_SM ? 1 : QPRIV(q)->depth;
    long nodes = QPRIV(q)->kind == KIND_PROBE_SM ? 0 : QPRIV(q)->nodes;
    int n;
    if (permove) {
        /* The position after the move, searched one ply less deep. */
        n = snprintf(cmds, size, "position fen %s moves %s\ngo", QPRIV(q)->fen, w->uci[w->lo]);
        depth = depth > 0 ? depth - 1 : 0;
    } else {
        n = snprintf(cmds, size, "position fen %s\ngo", QPRIV(q)->fen);
    }
    if (depth > 0)
        n += snprintf(cmds + n, size - (size_t)n, " depth %d", depth);
    /* The node limit is per move searched: a MultiPV search of k moves gets k times
     * the limit, so that every position gets the same effort per move (and depth 1,
     * one search per move, completes on positions with many moves). */
    if (nodes > 0)
        n += snprintf(cmds + n, size - (size_t)n, " nodes %lld", node_limit(w, nodes));
    if (!permove && w->hi - w->lo < q->n_moves) {
        n += snprintf(cmds + n, size - (size_t)n, " searchmoves");
        for (int i = w->lo; i < w->hi; i++)
            n += snprintf(cmds + n, size - (size_t)n, " %s", w->uci[i]);
    }
    snprintf(cmds + n, size - (size_t)n, "\n");
}

/* The engine answered the isready sent with the search: the search is under way. */
void uz__query_on_ready(worker *w)
{
    uz_pool *pool = w->pool;
    uint64_t now = uv_hrtime();
    pool->stats.clear_ms += (double)(now - w->sent_at) / 1e6;
    w->sent_at = now;
    w->state = W_SEARCHING;
    if (QPRIV(w->q)->kind != KIND_RECHECK)
        pool->stats.engine_searches++;
}

/* The next search of the same position, with no clear before it. */
void uz__query_send_go(worker *w)
{
    char cmds[UZ_FEN_MAX + 64 + UZ_MAX_MOVES * UZ_UCI_MAX];
    format_go(w, cmds, sizeof cmds);
    uz__worker_send(w, cmds);
    w->sent_at = uv_hrtime();
    w->state = W_SEARCHING;
    if (QPRIV(w->q)->kind != KIND_RECHECK)
        w->pool->stats.engine_searches++;
    uz__worker_arm(w, w->pool->s.timeout_ms);
}

static void finish_query(worker *w)
{
    uz_pool *pool = w->pool;
    uz_query *q = w->q, *wt;
    w->q = NULL;
    uv_timer_stop(&w->timer);
    w->state = W_IDLE;
    pool->timeout_streak = 0;
    uz__cache_save_scores(pool, q);
    uz__pool_complete(pool, q, UZ_OK, NULL);
    while ((wt = w->waiters)) {
        w->waiters = QPRIV(wt)->next;
        memcpy(wt->scores, q->scores, sizeof(int32_t) * (size_t)q->n_moves);
        uz__pool_complete(pool, wt, UZ_OK, NULL);
    }
    uz__pool_maybe_recheck(pool, q);
    uz__pool_pump(pool);
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

void uz__query_on_info(worker *w, const char *line)
{
    uz_pool *pool = w->pool;
    uz__info in;
    if (!uz__parse_info(line, &in)) {
        uz__worker_fail(w, UZ_ERR_ENGINE, false, "malformed info line '%.60s'", line);
        return;
    }
    if (in.time_ms >= 0)
        w->last_time = in.time_ms;
    if (in.nodes >= 0)
        w->last_nodes = in.nodes;
    if (!in.has_score)
        return;
    bool permove = pool->s.mode == UZ_MODE_PERMOVE && QPRIV(w->q)->kind != KIND_PROBE_SM;
    bool single = w->hi - w->lo == 1 && (pool->s.mode == UZ_MODE_SEARCHMOVES ||
                                         QPRIV(w->q)->kind == KIND_PROBE_SM);
    int idx;
    if (permove) {
        idx = w->lo; /* the pv is the opponent's reply */
    } else if (single) {
        idx = w->lo;
        if (in.pv_first[0] && strcmp(in.pv_first, w->uci[idx]) != 0) {
            if (QPRIV(w->q)->kind == KIND_PROBE_SM) {
                pool->searchmoves_ok = false;
                return;
            }
            uz__worker_fail(w, UZ_ERR_ENGINE, false,
                        "ignored 'searchmoves %s' (its pv starts with %s)", w->uci[idx], in.pv_first);
            return;
        }
    } else {
        if (!in.pv_first[0])
            return; /* a score we cannot attribute to a move */
        idx = find_move(w, in.pv_first);
        if (idx < 0) {
            uz__worker_fail(w, UZ_ERR_ENGINE, false, "named move '%s' that is not among those searched in %s",
                        in.pv_first, QPRIV(w->q)->fen);
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
    long limit = QPRIV(q)->nodes;
    bool stopped = limit > 0 && w->last_nodes >= node_limit(w, limit);
    int d = -1; /* protocol 1 archives with a node limit: each move's deepest line, which must be exact */
    if (limit == 0 || pool->s.protocol != 1)
        d = common_depth(w, stopped);
    if (d < 0 && stopped) {
        uz__worker_fail(w, UZ_ERR_ENGINE, false,
                    "node limit %ld a move is too small: no iteration completed for every move in %s", limit,
                    QPRIV(q)->fen);
        return false;
    }
    for (int i = w->lo; i < w->hi; i++) {
        if (w->top_depth[i] < -1) {
            uz__worker_fail(w, UZ_ERR_ENGINE, false, "gave no score for move %s in %s", w->uci[i], QPRIV(q)->fen);
            return false;
        }
    }
    for (int i = w->lo; i < w->hi; i++) {
        /* Normally every move's score is from the last depth. Stockfish 15.1 sometimes
         * ends a depth-limited search with a bound at the last depth (a root move's stale
         * fail-low flag); the previous depth, complete and exact, is then used. */
        const scored *e = kept_at(w, i, d >= 0 ? d : w->top_depth[i]);
        if (!e) {
            uz__worker_fail(w, UZ_ERR_ENGINE, false, "gave only a bound score for move %s in %s", w->uci[i],
                        QPRIV(q)->fen);
            return false;
        }
        /* But a search that ran to its depth reports every move at the last depth. */
        if (limit == 0 && w->top_depth[i] != w->max_depth) {
            uz__worker_fail(w, UZ_ERR_ENGINE, false, "scored move %s at depth %d only, not %d, in %s", w->uci[i],
                        w->top_depth[i], w->max_depth, QPRIV(q)->fen);
            return false;
        }
        int32_t v = uz_engine_score_from_uci(e->mate, e->score);
        q->scores[i] = permove ? -v : v;
    }
    return true;
}

void uz__query_on_bestmove(worker *w, const char *rest)
{
    uz_pool *pool = w->pool;
    uz_query *q = w->q;
    /* The first word after "bestmove" (rest starts at it), truncated to 15 bytes. */
    char best[16];
    size_t n = 0;
    while (n < sizeof best - 1 && rest[n] != '\0' && rest[n] != ' ' && rest[n] != '\t')
        n++;
    memcpy(best, rest, n);
    best[n] = '\0';
    if (QPRIV(q)->kind == KIND_PROBE_SM) {
        if (strcmp(best, w->uci[w->lo]) != 0)
            pool->searchmoves_ok = false;
        q->scores[0] = 0;
        finish_query(w);
        return;
    }
    /* permove: the bestmove is the opponent's reply, not ours to check. */
    if (pool->s.mode != UZ_MODE_PERMOVE && find_move(w, best) < 0) {
        if (pool->s.mode == UZ_MODE_SEARCHMOVES && best[0] && strcmp(best, "(none)") != 0)
            uz__worker_fail(w, UZ_ERR_ENGINE, false, "ignored 'searchmoves %s' (bestmove %s)", w->uci[w->lo], best);
        else
            uz__worker_fail(w, UZ_ERR_ENGINE, false, "bestmove '%s' is not a searched legal move in %s", best,
                        QPRIV(q)->fen);
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
            uz__query_send_go(w);
        } else {
            step_begin(w);
        }
        return;
    }
    finish_query(w);
}

