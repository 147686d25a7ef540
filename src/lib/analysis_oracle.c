/* The oracle of an analysis session (an oracle set: an engine with its Chess960 instance,
 * or the builtin), what `ucizip engine` shows of it, and the engine store's import and export. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis_internal.h"
#include "chess/board.h"
#include "engine/engine_store.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

bool uz_engine_is_builtin(const char *engine)
{
    int version;
    return uz_oracle_spec_builtin(engine, &version);
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

uz_result uz_analysis_oracle_open(uz_analysis_oracle *oracle, const uz_options *o, uz_diag *diag)
{
    memset(oracle, 0, sizeof *oracle);
    double t0 = now_ms();
    uz_oracle_spec spec;
    uz_oracle_spec_from_options(o, &spec);
    uz_result r = uz_oracle_spec_check(&spec, diag);
    if (r != UZ_OK)
        return r;
    if (spec.kind == UZ_ORACLE_BUILTIN) {
        r = uz_oracle_set_open_builtin(&oracle->set, spec.builtin_version, spec.depth, spec.workers, diag);
    } else {
        uz_engine_settings s;
        if ((r = uz_lib_engine_settings(&spec, o->on_message, o->user, &s, diag)) != UZ_OK)
            return r;
        if (o->cache_path && !(oracle->cache_path = strdup(o->cache_path))) {
            uz_lib_cache_release(o->cache_path);
            uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
            return UZ_ERR_NOMEM;
        }
        if ((r = uz_oracle_set_open_engine(&oracle->set, &s, spec.workers, diag)) == UZ_OK)
            uz_oracle_set_on_message(oracle->set, o->on_message, o->user); /* (an engine without Chess960) */
    }
    oracle->startup_ms = now_ms() - t0;
    if (r != UZ_OK)
        uz_analysis_oracle_close(oracle);
    return r;
}

void uz_analysis_oracle_close(uz_analysis_oracle *oracle)
{
    uz_oracle_set_close(oracle->set);
    uz_lib_cache_release(oracle->cache_path);
    free(oracle->cache_path);
    memset(oracle, 0, sizeof *oracle);
}

uz_result uz_analysis_oracle_prepare(uz_analysis_oracle *oracle, uz_game *const *games, size_t n, uz_diag *diag)
{
    uz_result r = UZ_OK;
    for (size_t i = 0; i < n && r == UZ_OK; i++)
        r = uz_oracle_set_prepare_games(oracle->set, games[i], 1, diag);
    return r;
}

uz_result uz_analysis_oracle_score(uz_analysis_oracle *oracle, uz_walk *walks, size_t n, uz_diag *diag)
{
    return uz_score_walks(uz_oracle_set_oracle(oracle->set), walks, n, diag);
}

/* The identity of the session's oracle: the engine's, or the builtin's. */
static uz_oracle_identity identity(const uz_analysis *a)
{
    uz_oracle_identity none = {"", "", ""};
    return a->oracle.set ? uz_oracle_identity_of(uz_oracle_set_oracle(a->oracle.set)) : none;
}

const char *uz_analysis_engine_name(const uz_analysis *a)
{
    return identity(a).engine_name;
}

const char *uz_analysis_fingerprint(const uz_analysis *a)
{
    return identity(a).fingerprint;
}

void uz_analysis_describe(const uz_analysis *a, char *out, size_t cap)
{
    const uz_builtin_pool *builtin = uz_oracle_set_builtin(a->oracle.set);
    const uz_pool *pool = uz_oracle_set_pool(a->oracle.set);
    if (builtin)
        uz_builtin_pool_describe(builtin, out, cap);
    else if (pool)
        uz_pool_describe(pool, out, cap);
    else if (cap)
        out[0] = 0;
}

static void query_done(uz_query *q, void *user)
{
    (void)q, (void)user;
}

uz_result uz_analysis_score_fen(uz_analysis *a, const char *fen, uz_diag *diag)
{
    if (!a->oracle.set) {
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
        uz_pool *pool = uz_oracle_set_pool(a->oracle.set);
        if (pool) { /* the engine as the user gave it, whatever the position */
            r = uz_pool_query(pool, q, diag);
        } else {
            uz_oracle *o = uz_oracle_set_oracle(a->oracle.set);
            q->done = query_done;
            uz_oracle_submit(o, q);
            r = uz_oracle_run(o, diag);
        }
    }
    free(q);
    return r;
}

void uz_analysis_engine_info(const uz_analysis *a, uz_engine_info *info)
{
    memset(info, 0, sizeof *info);
    const uz_builtin_pool *builtin = uz_oracle_set_builtin(a->oracle.set);
    const uz_pool *pool = uz_oracle_set_pool(a->oracle.set);
    info->startup_ms = a->oracle.startup_ms;
    info->name = uz_analysis_engine_name(a);
    info->fingerprint = uz_analysis_fingerprint(a);
    info->path = info->profile = info->settings_text = "";
    info->mode = uz_engine_mode_name(UZ_MODE_MULTIPV);
    if (builtin) {
        info->builtin = true;
        info->builtin_version = uz_builtin_pool_version(builtin);
        info->settings_text = identity(a).settings_text;
        info->depth = uz_builtin_pool_depth(builtin);
        info->threads = uz_builtin_pool_threads(builtin);
    } else if (pool) {
        const uz_engine_settings *s = uz_pool_settings(pool);
        uz_pool_stats st;
        uz_pool_get_stats(pool, &st);
        info->path = s->path;
        info->profile = s->profile;
        info->settings_text = uz_pool_settings_text(pool);
        info->mode = uz_engine_mode_name(s->mode);
        info->depth = s->depth;
        info->nodes = s->nodes;
        info->hash_mb = s->hash_mb;
        info->threads = s->threads;
        info->max_multipv = s->max_multipv;
        info->searchmoves_supported = uz_pool_searchmoves_ok(pool);
        info->search_ms = st.search_ms;
    }
}

/* ---- the engine store ---- */

uz_result uz_engine_store_location(char *out, size_t cap, uz_diag *diag)
{
    return uz_engine_store_dir(out, cap, diag);
}

uz_result uz_engine_store_export(const char *dir, int *copied, uz_diag *diag)
{
    char store[UZ_ENGINE_PATH_MAX];
    uz_result r = uz_engine_store_dir(store, sizeof store, diag);
    return r == UZ_OK ? uz_engine_store_copy(store, dir, copied, diag) : r;
}

typedef struct import_report {
    void (*on_engine)(void *user, const uz_imported_engine *e);
    void *user;
} import_report;

static void report_import(void *user, const uz_engine_store_entry *e, const char *outcome)
{
    const import_report *ir = user;
    uz_imported_engine out = {e->fingerprint, e->engine_name, e->sha256, outcome};
    if (ir->on_engine)
        ir->on_engine(ir->user, &out);
}

uz_result uz_engine_store_import(const char *dir, void (*on_engine)(void *user, const uz_imported_engine *e),
                                 void *user, int *added, int *refused, uz_diag *diag)
{
    char store[UZ_ENGINE_PATH_MAX];
    import_report ir = {on_engine, user};
    *added = *refused = 0;
    uz_result r = uz_engine_store_dir(store, sizeof store, diag);
    return r == UZ_OK ? uz_engine_store_import_from(dir, store, report_import, &ir, added, refused, diag) : r;
}
