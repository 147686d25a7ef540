/* The oracle of an analysis session (an engine pool with its Chess960 instance, or the
 * builtin), what `ucizip engine` shows of it, and the engine store's import and export. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis_internal.h"
#include "chess/board.h"
#include "engine/engine_store.h"
#include "gamecode/blockcode.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

bool uz_engine_is_builtin(const char *engine)
{
    int version;
    return uz_builtin_spec(engine, &version);
}

void uz_format_k(uint32_t k_milli, char *out, size_t cap)
{
    uz_lib_format_k(k_milli, out, cap);
}

uz_result uz_options_model_text(const uz_options *o, bool for_fit, char *out, size_t cap, const char **coder,
                                uz_diag *diag)
{
    uz_model_params p;
    uz_coder_kind kind;
    uz_result r = uz_lib_model(o, &p, &kind, diag);
    if (r != UZ_OK)
        return r;
    if (for_fit)
        p = uz_lib_model_fit_start(&p);
    uz_lib_model_text(&p, out, cap);
    if (coder)
        *coder = uz_lib_coder_name(kind);
    return UZ_OK;
}

static uz_result open_builtin(uz_analysis_oracle *oracle, const uz_options *o, int version, uz_diag *diag)
{
    if (o->nodes > 0 || o->mode || o->hash_mb > 0) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "engine builtin takes depth only (no nodes, mode or hash)");
        return UZ_ERR_ARG;
    }
    return uz_builtin_pool_create(&oracle->builtin, version, o->depth > 0 ? o->depth : 0, oracle->workers, diag);
}

uz_result uz_analysis_oracle_open(uz_analysis_oracle *oracle, const uz_options *o, uz_diag *diag)
{
    memset(oracle, 0, sizeof *oracle);
    oracle->workers = uz_lib_workers(o);
    oracle->on_message = o->on_message;
    oracle->user = o->user;
    double t0 = now_ms();
    int version;
    uz_result r;
    if (uz_builtin_spec(o->engine, &version)) {
        r = open_builtin(oracle, o, version, diag);
    } else {
        uz_engine_settings s;
        if ((r = uz_lib_engine_settings(o, &s, diag)) != UZ_OK)
            return r;
        if (o->cache_path && !(oracle->cache_path = strdup(o->cache_path))) {
            uz_lib_cache_release(o->cache_path);
            uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
            return UZ_ERR_NOMEM;
        }
        r = uz_pool_create(&oracle->pool, &s, oracle->workers, diag);
        if (r == UZ_OK)
            r = uz_pools_route(&oracle->route, oracle->pool, NULL, diag);
    }
    oracle->startup_ms = now_ms() - t0;
    if (r != UZ_OK)
        uz_analysis_oracle_close(oracle);
    return r;
}

void uz_analysis_oracle_close(uz_analysis_oracle *oracle)
{
    uz_oracle_destroy(oracle->route);
    uz_pool_destroy(oracle->pool960);
    uz_pool_destroy(oracle->pool);
    uz_builtin_pool_destroy(oracle->builtin);
    uz_lib_cache_release(oracle->cache_path);
    free(oracle->cache_path);
    memset(oracle, 0, sizeof *oracle);
}

/* Starts the engine in Chess960 mode beside the pool; an engine without that option
 * leaves pool960 NULL, which is said once. */
static uz_result open_pool960(uz_analysis_oracle *oracle, uz_diag *diag)
{
    uz_result r = uz_pool_create_chess960(&oracle->pool960, oracle->pool, oracle->workers, diag);
    if (r == UZ_OK)
        return uz_pools_route(&oracle->route, oracle->pool, oracle->pool960, diag);
    oracle->pool960 = NULL;
    if (r != UZ_ERR_UNSUPPORTED && r != UZ_ERR_ARG)
        return r;
    memset(diag, 0, sizeof *diag);
    if (oracle->on_message) {
        uz_diag note = {0};
        uz_diag_set(&note, UZ_ERR_UNSUPPORTED, 0, 0,
                    "%s has no option UCI_Chess960: Chess960 games kept as text, moves not coded",
                    uz_pool_engine_name(oracle->pool));
        oracle->on_message(oracle->user, NULL, &note);
    }
    return UZ_OK;
}

uz_result uz_analysis_oracle_prepare(uz_analysis_oracle *oracle, uz_game *const *games, size_t n, uz_diag *diag)
{
    bool any = false;
    for (size_t i = 0; i < n && !any; i++)
        any = uz_lib_has_chess960(games[i], 1);
    if (oracle->builtin || !any)
        return UZ_OK;
    if (!oracle->tried960) {
        uz_result r = open_pool960(oracle, diag);
        if (r != UZ_OK)
            return r;
    }
    oracle->tried960 = true;
    for (size_t i = 0; !oracle->pool960 && i < n; i++) /* nothing to score them with */
        if (uz_lib_chess960_as_text(games[i], 1, NULL) != UZ_OK) {
            uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
            return UZ_ERR_NOMEM;
        }
    return UZ_OK;
}

uz_result uz_analysis_oracle_score(uz_analysis_oracle *oracle, uz_walk *walks, size_t n, uz_diag *diag)
{
    uz_oracle *o = oracle->builtin ? uz_builtin_pool_oracle(oracle->builtin) : oracle->route;
    return uz_score_walks(o, walks, n, diag);
}

const char *uz_analysis_engine_name(const uz_analysis *a)
{
    const uz_analysis_oracle *o = &a->oracle;
    return o->builtin ? uz_oracle_identity_of(uz_builtin_pool_oracle(o->builtin)).engine_name
           : o->pool  ? uz_pool_engine_name(o->pool)
                      : "";
}

const char *uz_analysis_fingerprint(const uz_analysis *a)
{
    const uz_analysis_oracle *o = &a->oracle;
    return o->builtin ? uz_oracle_identity_of(uz_builtin_pool_oracle(o->builtin)).fingerprint
           : o->pool  ? uz_pool_fingerprint(o->pool)
                      : "";
}

void uz_analysis_describe(const uz_analysis *a, char *out, size_t cap)
{
    if (a->oracle.builtin)
        uz_builtin_pool_describe(a->oracle.builtin, out, cap);
    else if (a->oracle.pool)
        uz_pool_describe(a->oracle.pool, out, cap);
    else if (cap)
        out[0] = 0;
}

static void query_done(uz_query *q, void *user)
{
    (void)q, (void)user;
}

uz_result uz_analysis_score_fen(uz_analysis *a, const char *fen, uz_diag *diag)
{
    if (!a->oracle.builtin && !a->oracle.pool) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "analysis without an oracle");
        return UZ_ERR_ARG;
    }
    uz_query *q = calloc(1, sizeof *q);
    if (!q) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    uz_result r = uz_position_from_fen(&q->pos, fen, diag);
    if (r == UZ_OK) {
        q->n_moves = uz_generate_legal(&q->pos, q->moves);
        if (a->oracle.builtin) {
            uz_oracle *o = uz_builtin_pool_oracle(a->oracle.builtin);
            q->done = query_done;
            uz_oracle_submit(o, q);
            r = uz_oracle_run(o, diag);
        } else {
            r = uz_pool_query(a->oracle.pool, q, diag);
        }
    }
    free(q);
    return r;
}

void uz_analysis_engine_info(const uz_analysis *a, uz_engine_info *info)
{
    memset(info, 0, sizeof *info);
    const uz_analysis_oracle *o = &a->oracle;
    info->startup_ms = o->startup_ms;
    info->name = uz_analysis_engine_name(a);
    info->fingerprint = uz_analysis_fingerprint(a);
    info->path = info->profile = info->settings_text = "";
    info->mode = uz_engine_mode_name(UZ_MODE_MULTIPV);
    if (o->builtin) {
        uz_oracle_identity id = uz_oracle_identity_of(uz_builtin_pool_oracle(o->builtin));
        info->builtin = true;
        info->builtin_version = uz_builtin_pool_version(o->builtin);
        info->settings_text = id.settings_text;
        info->depth = uz_builtin_pool_depth(o->builtin);
        info->threads = uz_builtin_pool_threads(o->builtin);
    } else if (o->pool) {
        const uz_engine_settings *s = uz_pool_settings(o->pool);
        uz_pool_stats st;
        uz_pool_get_stats(o->pool, &st);
        info->path = s->path;
        info->profile = s->profile;
        info->settings_text = uz_pool_settings_text(o->pool);
        info->mode = uz_engine_mode_name(s->mode);
        info->depth = s->depth;
        info->nodes = s->nodes;
        info->hash_mb = s->hash_mb;
        info->threads = s->threads;
        info->max_multipv = s->max_multipv;
        info->searchmoves_supported = uz_pool_searchmoves_ok(o->pool);
        info->search_ms = st.search_ms;
    }
}

/* ---- the engine store ---- */

uz_result uz_engine_store_location(char *out, size_t cap, uz_diag *diag)
{
    return uz_engine_store_dir(out, cap, diag);
}

static uz_result store_copy(const char *dir, bool out, int *copied, uz_diag *diag)
{
    char store[UZ_ENGINE_PATH_MAX];
    uz_result r = uz_engine_store_dir(store, sizeof store, diag);
    if (r != UZ_OK)
        return r;
    return out ? uz_engine_store_copy(store, dir, copied, diag) : uz_engine_store_copy(dir, store, copied, diag);
}

uz_result uz_engine_store_export(const char *dir, int *copied, uz_diag *diag)
{
    return store_copy(dir, true, copied, diag);
}

uz_result uz_engine_store_import(const char *dir, int *copied, uz_diag *diag)
{
    return store_copy(dir, false, copied, diag);
}
