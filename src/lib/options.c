/* uz_options: defaults, checks, and what they mean for the engine, the model and the
 * coder. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib_internal.h"
#include "archive/archive.h"
#include "cache/score_cache.h"
#include "gamecode/builtin_member.h"
#include "model/opening_book.h"
#include "model/player_model.h"

void uz_options_init(uz_options *o)
{
    memset(o, 0, sizeof *o);
    o->version = UZ_OPTIONS_VERSION;
    o->k_milli = o->floor_milli = o->rank_milli = o->decay_milli = -1;
    o->opening_milli = o->opening_plies = -1;
    o->bad_games = UZ_POLICY_KEEP_AS_TEXT;
    o->variants = UZ_POLICY_KEEP_AS_TEXT;
    o->damaged_inputs = UZ_POLICY_STOP;
}

uz_result uz_lib_check_options(const uz_options *o, uz_diag *diag)
{
    if (!o || o->version != UZ_OPTIONS_VERSION) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "options of version %u; this library knows version %d (uz_options_init)",
                    o ? o->version : 0, UZ_OPTIONS_VERSION);
        return UZ_ERR_ARG;
    }
    if (o->depth < 0 || o->depth > 100 || o->nodes < 0 || o->hash_mb < 0 || o->workers < 0 || o->workers > 256) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "options: depth 1-100, workers 1-256, nodes and hash >= 0");
        return UZ_ERR_ARG;
    }
    if (o->block_games > UZ_ARCHIVE_MAX_BLOCK_GAMES) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "options: block_games 1-%u (0: the default)", UZ_ARCHIVE_MAX_BLOCK_GAMES);
        return UZ_ERR_ARG;
    }
    uz_engine_mode mode;
    if (o->mode && !uz_engine_mode_parse(o->mode, &mode)) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "mode: expected multipv or permove, got '%s'", o->mode);
        return UZ_ERR_ARG;
    }
    if ((unsigned)o->bad_games > UZ_POLICY_STOP || (unsigned)o->damaged_inputs > UZ_POLICY_STOP ||
        o->variants == UZ_POLICY_SKIP || (unsigned)o->variants > UZ_POLICY_STOP ||
        o->damaged_inputs == UZ_POLICY_KEEP_AS_TEXT) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0,
                    "policies: bad games keep/skip/stop, variants keep/stop, damaged inputs skip/stop");
        return UZ_ERR_ARG;
    }
    return UZ_OK;
}

/* ---- persistent score caches ----
 * LMDB allows one open environment per file and process, so the caches are shared by
 * every object of the process that names the same path, and closed with the last. */

typedef struct cache_entry {
    char *path;
    uz_score_cache *cache;
    int users;
    struct cache_entry *next;
} cache_entry;

static pthread_mutex_t caches_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry *caches;

static cache_entry *find_cache(const char *path)
{
    for (cache_entry *e = caches; e; e = e->next)
        if (strcmp(e->path, path) == 0)
            return e;
    return NULL;
}

static uz_result cache_acquire(const char *path, const uz_score_store **store, uz_message_fn warn, void *user,
                               uz_diag *diag)
{
    *store = NULL;
    pthread_mutex_lock(&caches_lock);
    cache_entry *e = find_cache(path);
    uz_result r = UZ_OK;
    if (!e) {
        e = calloc(1, sizeof *e);
        if (!e || !(e->path = strdup(path))) {
            free(e);
            uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
            r = UZ_ERR_NOMEM;
        } else if ((r = uz_score_cache_open(&e->cache, path, diag)) != UZ_OK) {
            free(e->path);
            free(e);
            if (r == UZ_ERR_CORRUPT) {
                /* Damaged, unreadable or read-only: a cache is an optimisation. */
                if (warn)
                    warn(user, NULL, diag);
                memset(diag, 0, sizeof *diag);
                pthread_mutex_unlock(&caches_lock);
                return UZ_OK;
            }
        } else {
            e->next = caches;
            caches = e;
        }
    }
    if (r == UZ_OK) {
        e->users++;
        *store = uz_score_cache_store(e->cache);
    }
    pthread_mutex_unlock(&caches_lock);
    return r;
}

void uz_lib_cache_release(const char *path)
{
    if (!path)
        return;
    pthread_mutex_lock(&caches_lock);
    for (cache_entry **p = &caches; *p; p = &(*p)->next) {
        cache_entry *e = *p;
        if (strcmp(e->path, path) != 0)
            continue;
        if (--e->users == 0) {
            *p = e->next;
            uz_score_cache_close(e->cache);
            free(e->path);
            free(e);
        }
        break;
    }
    pthread_mutex_unlock(&caches_lock);
}

void uz_lib_cache_stats(const char *path, uint64_t *lookups, uint64_t *hits, uint64_t *rejected)
{
    uz_score_cache_stats st = {0};
    pthread_mutex_lock(&caches_lock);
    cache_entry *e = path ? find_cache(path) : NULL;
    if (e)
        uz_score_cache_get_stats(e->cache, &st);
    pthread_mutex_unlock(&caches_lock);
    *lookups = st.lookups;
    *hits = st.hits;
    *rejected = st.rejected;
}

uz_result uz_lib_cache_acquire(const char *path, const uz_score_store **store, uz_message_fn warn, void *user,
                               uz_diag *diag)
{
    return cache_acquire(path, store, warn, user, diag);
}

uz_result uz_lib_engine_settings(const uz_oracle_spec *spec, uz_message_fn warn, void *user, uz_engine_settings *s,
                                 uz_diag *diag)
{
    const char *dirs[8];
    uz_engine_default_dirs(dirs, 8);
    /* The default engine is the stockfish profile, never a stockfish found in PATH run
     * with other settings (another fingerprint) when the profile is missing. */
    uz_result r = spec->engine ? uz_engine_settings_from_spec(s, spec->engine, dirs, diag)
                               : uz_engine_profile_load(s, "stockfish", dirs, diag);
    if (r != UZ_OK)
        return r;
    if (spec->depth > 0)
        s->depth = spec->depth;
    if (spec->nodes > 0)
        s->nodes = (long)spec->nodes;
    if (spec->hash_mb > 0)
        s->hash_mb = spec->hash_mb;
    if (spec->mode)
        uz_engine_mode_parse(spec->mode, &s->mode);
    if (spec->cache_path)
        return cache_acquire(spec->cache_path, &s->store, warn, user, diag);
    return UZ_OK;
}

/* ---- model and coder ---- */

uz_model_params uz_lib_model_fit_start(const uz_model_params *params)
{
    uz_model_params p = *params;
    if (p.kind == UZ_MODEL_PLAYER)
        p.kind = UZ_MODEL_RANK;
    return p;
}

void uz_lib_oracle_weights(const uz_oracle_spec *spec, uz_model_params *params)
{
    if (spec->kind == UZ_ORACLE_BUILTIN) {
        uz_builtin_model_params(params, spec->builtin_version, spec->depth);
        return;
    }
    if (params->kind != UZ_MODEL_PLAYER || params->player_version != 0 || params->player_hash_lo != 0 ||
        params->player_hash_hi != 0)
        return;
    const bool deep = spec->depth >= 2 || spec->nodes > 0;
    const uz_player_model *pm =
        uz_pm_builtin_version(deep ? UZ_PM_DEFAULT_VERSION_ENGINE_DEEP : UZ_PM_DEFAULT_VERSION_ENGINE);
    if (pm) {
        params->player_version = pm->version;
        params->player_hash_lo = (uint32_t)pm->hash;
        params->player_hash_hi = (uint32_t)(pm->hash >> 32);
    }
}

uz_result uz_lib_model(const uz_options *o, uz_model_params *p, uz_coder_kind *coder, uz_diag *diag)
{
    uz_oracle_spec spec;
    uz_oracle_spec_from_options(o, &spec);
    *p = uz_model_default_params(); /* the rank model's parameters, the reference */
    p->kind = UZ_MODEL_PLAYER;
    bool rank_given = o->k_milli >= 0 || o->floor_milli >= 0 || o->rank_milli >= 0 || o->decay_milli >= 0;
    if (!o->model)
        p->kind = rank_given ? UZ_MODEL_RANK : UZ_MODEL_PLAYER; /* k, floor, ... choose the rank model */
    else if (strcmp(o->model, "player") == 0)
        p->kind = UZ_MODEL_PLAYER;
    else if (strcmp(o->model, "rank") == 0)
        p->kind = UZ_MODEL_RANK;
    else if (strcmp(o->model, "exp") == 0)
        p->kind = UZ_MODEL_EXP;
    else {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "model: expected player, rank or exp, got '%s'", o->model);
        return UZ_ERR_ARG;
    }
    if (o->k_milli >= 0) {
        if ((uint32_t)o->k_milli < UZ_MODEL_K_MILLI_MIN) {
            uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "k: must be at least 1");
            return UZ_ERR_ARG;
        }
        p->k_milli = (uint32_t)o->k_milli;
    }
    if (o->floor_milli > 1000 || o->rank_milli > 1000 || o->decay_milli == 0 || o->decay_milli >= 1000) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "floor and rank: 0 to 1; decay: above 0 and below 1");
        return UZ_ERR_ARG;
    }
    /* thousandths to 1/65536 units, rounded */
    if (o->floor_milli >= 0)
        p->floor_q16 = (uint32_t)(((uint64_t)o->floor_milli * UZ_MODEL_FLOOR_ONE + 500) / 1000);
    if (o->rank_milli >= 0)
        p->rank_q16 = (uint32_t)(((uint64_t)o->rank_milli * 65536 + 500) / 1000);
    if (o->decay_milli > 0)
        p->decay_q16 = (uint32_t)(((uint64_t)o->decay_milli * 65536 + 500) / 1000);
    p->opening_alpha16 = UZ_OPENING_DEFAULT_ALPHA16;
    p->opening_plies = UZ_OPENING_DEFAULT_PLIES;
    if (o->opening_milli > 4096000 || o->opening_plies == 0 || o->opening_plies > 1024) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "opening counts: a from 0.0625 to 4096 (0: none), plies 1 to 1024");
        return UZ_ERR_ARG;
    }
    if (o->opening_milli >= 0) /* thousandths to sixteenths, rounded; 0 turns the counts off */
        p->opening_alpha16 = (uint32_t)(((uint64_t)o->opening_milli * 16 + 500) / 1000);
    if (o->opening_plies > 0)
        p->opening_plies = (uint32_t)o->opening_plies;
    if (o->opening_milli == 0)
        p->opening_alpha16 = p->opening_plies = 0;
    else if (p->opening_alpha16 == 0) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "opening counts: a from 0.0625 to 4096 (0: none)");
        return UZ_ERR_ARG;
    }
    if (o->book < -1 || (o->book > 0 && !uz_book_builtin((uint32_t)o->book))) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "book: this program has opening book versions 1 to %u, or off",
                    UZ_BOOK_LATEST);
        return UZ_ERR_ARG;
    }
    p->book_version = o->book < 0 ? 0 : o->book == 0 ? UZ_BOOK_LATEST : (uint32_t)o->book;
    p->book_hash_lo = p->book_hash_hi = 0; /* uz_model_open records the book's hash */
    uz_lib_oracle_weights(&spec, p);
    if (!o->coder || strcmp(o->coder, "range") == 0)
        *coder = UZ_CODER_RANGE;
    else if (strcmp(o->coder, "huffman") == 0)
        *coder = UZ_CODER_HUFFMAN;
    else {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "coder: expected range or huffman, got '%s'", o->coder);
        return UZ_ERR_ARG;
    }
    return UZ_OK;
}

const char *uz_lib_coder_name(uz_coder_kind kind)
{
    return kind == UZ_CODER_HUFFMAN ? "huffman" : kind == UZ_CODER_RANGE ? "range" : "?";
}

void uz_lib_format_k(uint32_t k_milli, char *out, size_t cap)
{
    snprintf(out, cap, "%u.%03u", k_milli / 1000, k_milli % 1000);
    char *end = out + strlen(out) - 1;
    while (*end == '0')
        *end-- = 0;
    if (*end == '.')
        *end = 0;
}

void uz_lib_model_text(const uz_model_params *p, char *out, size_t cap)
{
    char k[32];
    uz_lib_format_k(p->k_milli, k, sizeof k);
    int n;
    if (p->kind == UZ_MODEL_PLAYER)
        n = snprintf(out, cap, "player v%u weights %08x%08x", p->player_version, p->player_hash_hi, p->player_hash_lo);
    else if (p->kind == UZ_MODEL_RANK)
        n = snprintf(out, cap, "rank k=%s floor=%.4f rank=%.4f decay=%.4f", k, p->floor_q16 / 65536.0,
                     p->rank_q16 / 65536.0, p->decay_q16 / 65536.0);
    else
        n = snprintf(out, cap, "exp k=%s floor=%.4f", k, p->floor_q16 / 65536.0);
    if (p->book_version && n >= 0 && (size_t)n < cap)
        n += snprintf(out + n, cap - (size_t)n, "; opening book v%u %08x%08x", p->book_version, p->book_hash_hi,
                      p->book_hash_lo);
    if (p->opening_plies && n >= 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, "; opening counts a=%g over %u plies", p->opening_alpha16 / 16.0,
                 p->opening_plies);
}

void uz_lib_model_describe(const uz_model_params *p, uz_lib_model_desc *d)
{
    uz_lib_model_text(p, d->text, sizeof d->text);
    uz_lib_format_k(p->k_milli, d->k, sizeof d->k);
    snprintf(d->weights, sizeof d->weights, "%08x%08x", (unsigned)p->player_hash_hi, (unsigned)p->player_hash_lo);
    d->info = (uz_model_info){
        .kind = p->kind == UZ_MODEL_PLAYER ? "player" : p->kind == UZ_MODEL_RANK ? "rank" : "exp",
        .text = d->text,
        .k = d->k,
        .floor_q16 = p->floor_q16,
        .rank_q16 = p->rank_q16,
        .decay_q16 = p->decay_q16,
        .player_version = p->player_version,
        .player_weights = d->weights,
    };
}

const char *uz_version(void)
{
    return UZ_VERSION_STRING;
}
