/* The engine fingerprint: FNV-1a 64 hashing, the built-in probe positions, the settings
 * text, and the probes a new pool runs (searchmoves support, probe-set scores). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "common/hash.h"

/* Varied positions (opening, tactics-rich middlegame, endgame, a forced mate, a
 * high halfmove clock) so that another build or network changes some score.
 * Never change this list without bumping UZ_ENGINE_PROTOCOL_VERSION. */
const char *const uz__probe_fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 1",
    "8/8/4k3/8/2R5/4K3/8/8 b - - 90 1",
    NULL,
};

/* The canonical settings text of settings s on the pool's engine (its name and options),
 * with max_multipv the effective MultiPV cap. */
static void settings_text(const uz_pool *pool, const worker *w0, const uz_engine_settings *s, int max_multipv, char *t,
                          size_t cap)
{
    size_t n = 0;
    /* The lowest protocol whose scores these are (see UZ_ENGINE_PROTOCOL_VERSION), so
     * that archives made before version 2 keep their fingerprints. */
    int protocol = s->protocol == 1 || (s->nodes == 0 && s->mode != UZ_MODE_PERMOVE) ? 1 : UZ_ENGINE_PROTOCOL_VERSION;
    n += (size_t)snprintf(t + n, cap - n,
                          "protocol=%d\nengine=%s\nmode=%s\ndepth=%d\nnodes=%ld\nmax_multipv=%d\nclear=%s\n",
                          protocol, pool->name, uz_engine_mode_name(s->mode), s->depth,
                          s->nodes, max_multipv, s->clear);
    /* Record only what was actually sent (an engine may lack Threads or Hash). */
    if (s->threads > 0 && uz__worker_find_opt(w0, "Threads") && n < cap)
        n += (size_t)snprintf(t + n, cap - n, "option.Threads=%d\n", s->threads);
    if (s->hash_mb > 0 && uz__worker_find_opt(w0, "Hash") && n < cap)
        n += (size_t)snprintf(t + n, cap - n, "option.Hash=%d\n", s->hash_mb);
    for (int i = 0; i < s->n_options && n < cap; i++)
        n += (size_t)snprintf(t + n, cap - n, "option.%s=%s\n", s->options[i].name, s->options[i].value);
}

void uz__pool_build_settings_text(uz_pool *pool, const worker *w0)
{
    settings_text(pool, w0, &pool->s, pool->max_multipv, pool->settings_text, sizeof pool->settings_text);
}

bool uz_pool_has_settings_of(const uz_pool *pool, const uz_engine_settings *s)
{
    if (!pool || !s || pool->n_workers < 1)
        return false;
    const worker *w0 = &pool->workers[0];
    /* The MultiPV cap as uz_pool_create would make it effective with this engine. */
    int max_multipv = w0->engine_multipv_max;
    if (s->max_multipv > 0 && (max_multipv == 0 || s->max_multipv < max_multipv))
        max_multipv = s->max_multipv;
    if (max_multipv < 1)
        max_multipv = 1;
    char text[sizeof pool->settings_text];
    settings_text(pool, w0, s, max_multipv, text, sizeof text);
    return strcmp(text, pool->settings_text) == 0;
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
uz_result uz__pool_compute_fingerprint(uz_pool *pool, uz_diag *diag)
{
    uz_result rc = UZ_OK;
    uint64_t h = uz_fnv1a64(UZ_FNV1A64_OFFSET, pool->settings_text, strlen(pool->settings_text));
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
        QPRIV(q)->depth = pool->s.depth > 6 ? 6 : pool->s.depth;
        QPRIV(q)->nodes = pool->s.nodes > 20000 ? 20000 : pool->s.nodes;
        QPRIV(q)->no_cache = true;
        QPRIV(q)->avoid = -1;
        *q2 = *q;
        uz__pool_submit_kind(pool, q, KIND_PROBE_FP);
        QPRIV(q2)->avoid = QPRIV(q)->worker;
        uz__pool_submit_kind(pool, q2, KIND_PROBE_FP);
        rc = uz_pool_run(pool, diag);
        if (rc == UZ_OK)
            rc = q->status != UZ_OK ? q->status : q2->status;
        int differ = rc == UZ_OK ? uz__scores_differ(q, q->scores, q2->scores) : -1;
        if (differ >= 0) {
            char msg[256];
            uz__nondeterministic(pool, q, differ, q->scores[differ], q2->scores[differ], msg, sizeof msg);
            rc = UZ_ERR_ENGINE;
            uz_diag_set(diag, rc, 0, 0, "%s", msg);
        }
        for (int m = 0; m < q->n_moves && rc == UZ_OK; m++) {
            uint32_t v = (uint32_t)q->scores[m];
            unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                                   (unsigned char)(v >> 24)};
            h = uz_fnv1a64(h, le, 4);
        }
    }
    free(q);
    snprintf(pool->fingerprint, sizeof pool->fingerprint, "%016" PRIx64, h);
    return rc;
}

uz_result uz__pool_probe_searchmoves(uz_pool *pool, uz_diag *diag)
{
    uz_result rc;
    uz_query *q = calloc(1, sizeof *q);
    if (!q) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    uz_position_startpos(&q->pos);
    q->n_moves = uz_generate_legal(&q->pos, q->moves);
    QPRIV(q)->no_cache = true;
    QPRIV(q)->avoid = -1;
    pool->searchmoves_ok = true;
    uz__pool_submit_kind(pool, q, KIND_PROBE_SM);
    rc = uz_pool_run(pool, diag);
    if (rc == UZ_OK)
        rc = q->status;
    free(q);
    return rc;
}
