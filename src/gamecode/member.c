/* A member's header (what it records of the oracle, the model and the coder) and the
 * opening of a member's decoder: its model, its coder and its oracle set, checked
 * against the header. */
#include <stdio.h>
#include <string.h>

#include "gamecode/member.h"
#include "gamecode/archive_engine.h"
#include "gamecode/builtin_member.h"

void uz_header_fill_coding(uz_archive_header *h, const uz_model_params *model, uz_coder_kind coder,
                           uint32_t block_games)
{
    memset(h, 0, sizeof *h);
    h->version = UZ_ARCHIVE_VERSION;
    h->model_kind = model->kind;
    _Static_assert(UZ_ARCHIVE_MAX_MODEL_PARAMS >= UZ_MODEL_MAX_STORED, "every kind's parameters fit a header");
    h->n_model_params = (uint32_t)uz_model_params_store(model, h->model_params);
    h->opening_alpha16 = model->opening_plies ? model->opening_alpha16 : 0;
    h->opening_plies = model->opening_plies;
    h->book_version = model->book_version;
    h->book_hash_lo = model->book_hash_lo;
    h->book_hash_hi = model->book_hash_hi;
    h->coder = coder;
    h->block_games = block_games;
    h->struct_version = UZ_STRUCT_VERSION;
    h->tag_version = UZ_TAG_VERSION;
    uz_copy_str(h->created_by, sizeof h->created_by, "ucizip " UZ_VERSION_STRING);
}

void uz_header_fill(uz_archive_header *h, uz_pool *pool, const uz_model_params *model, uz_coder_kind coder,
                    uint32_t block_games)
{
    const uz_engine_settings *s = uz_pool_settings(pool);
    uz_header_fill_coding(h, model, coder, block_games);
    uz_copy_str(h->engine_name, sizeof h->engine_name, uz_pool_engine_name(pool));
    uz_copy_str(h->fingerprint, sizeof h->fingerprint, uz_pool_fingerprint(pool));
    h->depth = (uint32_t)s->depth;
    h->nodes = (uint64_t)s->nodes;
    h->mode = (uint32_t)s->mode;
    h->hash_mb = (uint32_t)s->hash_mb;
    h->threads = (uint32_t)s->threads;
    uz_copy_str(h->engine_settings_text, sizeof h->engine_settings_text, uz_pool_settings_text(pool));
    /* The settings are the defaults of the profile a decoder finds for this engine (as
     * uz_member_decoder_open looks it up): the header need not store them. */
    uz_engine_settings defaults;
    const char *dirs[8];
    uz_diag ignored = {0};
    uz_engine_default_dirs(dirs, 8);
    h->settings_from_profile = uz_engine_profile_for_archive(&defaults, h->engine_name, "", dirs, &ignored) == UZ_OK &&
                               uz_pool_has_settings_of(pool, &defaults);
    uz_pool_describe(pool, h->settings_summary, sizeof h->settings_summary);
}

uz_result uz_header_model(const uz_archive_header *h, uz_model_params *params)
{
    uz_result r = uz_model_params_load(params, (uz_model_kind)h->model_kind, h->model_params, h->n_model_params);
    if (r != UZ_OK)
        return r;
    params->opening_alpha16 = h->opening_alpha16;
    params->opening_plies = h->opening_plies;
    params->book_version = h->book_version;
    params->book_hash_lo = h->book_hash_lo;
    params->book_hash_hi = h->book_hash_hi;
    return UZ_OK;
}

/* The installed profile a header without settings refers to (as uz_header_fill finds it). */
static uz_result header_profile(const uz_archive_header *h, uz_engine_settings *s, uz_diag *diag)
{
    const char *dirs[8];
    uz_engine_default_dirs(dirs, 8);
    return uz_engine_profile_for_archive(s, h->engine_name, "", dirs, diag);
}

void uz_header_profile_settings(uz_archive_header *h)
{
    /* Never the installed profile's current values: a profile's defaults may have changed
     * since (Hash 1 became 4); only what was recorded when the archive was made, by the
     * engine store, for this fingerprint. */
    uz_engine_settings s;
    uz_diag ignored = {0};
    if (uz_header_is_builtin(h)) { /* the reader's summary would list engine options it has not */
        snprintf(h->settings_summary, sizeof h->settings_summary, "%s; depth %u (built in, needs no engine)",
                 h->engine_name, h->depth);
        return;
    }
    if (!h->settings_from_profile)
        return;
    char placeholder[sizeof h->settings_summary];
    snprintf(placeholder, sizeof placeholder, "%s" UZ_PROFILE_SUMMARY_SUFFIX, h->engine_name);
    bool stored_summary = strcmp(h->settings_summary, placeholder) != 0; /* (key 64) */
    if (uz_archive_engine_from_store(h, &s, &ignored) != UZ_OK) {
        if (!stored_summary)
            snprintf(h->settings_summary, sizeof h->settings_summary,
                     "%s; settings not recorded (its profile's defaults when the archive was made)",
                     h->engine_name);
        return;
    }
    h->depth = (uint32_t)s.depth;
    h->nodes = (uint64_t)s.nodes;
    h->mode = (uint32_t)s.mode;
    h->hash_mb = (uint32_t)s.hash_mb;
    h->threads = (uint32_t)s.threads;
    if (stored_summary)
        return;
    int n = snprintf(h->settings_summary, sizeof h->settings_summary, "%s; depth %d", h->engine_name, s.depth);
    if (s.nodes > 0 && n >= 0 && (size_t)n < sizeof h->settings_summary)
        n += snprintf(h->settings_summary + n, sizeof h->settings_summary - (size_t)n, "; nodes %ld", s.nodes);
    if (n >= 0 && (size_t)n < sizeof h->settings_summary)
        snprintf(h->settings_summary + n, sizeof h->settings_summary - (size_t)n,
                 "; %s; Hash %d; Threads %d (as the engine store recorded them)",
                 uz_engine_mode_name(s.mode), s.hash_mb, s.threads);
}

/* Opens md->oracles with the engine of s and checks its fingerprint against the header's;
 * summary names the archive's settings in messages. */
static uz_result open_checked_pool(uz_member_decoder *md, const uz_engine_settings *s, const uz_archive_header *h,
                                   const char *summary, int workers, uz_diag *diag)
{
    uz_result r;
    if ((r = uz_oracle_set_open_engine(&md->oracles, s, workers, diag)) != UZ_OK) {
        char why[sizeof diag->message];
        uz_copy_str(why, sizeof why, diag->message);
        /* An engine that cannot even run with the archive's settings is the wrong engine. */
        if (r == UZ_ERR_ARG || r == UZ_ERR_UNSUPPORTED)
            r = UZ_ERR_MISMATCH;
        uz_diag_set(diag, r, 0, 0, "%s%s; the archive needs %s (fingerprint %s)",
                    r == UZ_ERR_MISMATCH ? "wrong engine: " : "", why, summary, h->fingerprint);
        return r;
    }
    const uz_pool *pool = uz_oracle_set_pool(md->oracles);
    if (strcmp(uz_pool_fingerprint(pool), h->fingerprint) != 0) {
        uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0,
                    "wrong engine: the archive was made with %s (fingerprint %s), but %s (%s) gives fingerprint %s "
                    "with those settings; nothing was decoded",
                    summary, h->fingerprint, uz_pool_engine_name(pool), s->path, uz_pool_fingerprint(pool));
        uz_oracle_set_close(md->oracles);
        md->oracles = NULL;
        return UZ_ERR_MISMATCH;
    }
    return UZ_OK;
}

/* No engine named and the installed one does not fit (why): the engine store's copy for
 * the header's fingerprint, else a refusal that says what is needed. */
static uz_result open_stored_engine(uz_member_decoder *md, const uz_archive_header *h, const char *summary,
                                    int workers, uz_diag *diag)
{
    char why[sizeof diag->message];
    uz_copy_str(why, sizeof why, diag->message);
    uz_engine_settings s;
    uz_result r = uz_archive_engine_from_store(h, &s, diag);
    /* Only the binary comes from the store when the header records its settings. */
    if (r == UZ_OK && !h->settings_from_profile)
        r = uz_engine_settings_apply_text(&s, h->engine_settings_text, diag);
    if (r == UZ_OK) {
        s.store = md->store;
        r = uz_oracle_set_open_engine(&md->oracles, &s, workers, diag);
    }
    if (r == UZ_ERR_ARG) {
        /* The archive's settings themselves are refused (Threads 2): the first reason. */
        uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0, "%s", why);
        return UZ_ERR_MISMATCH;
    }
    const char *got = r == UZ_OK ? uz_pool_fingerprint(uz_oracle_set_pool(md->oracles)) : "";
    if (r == UZ_OK && strcmp(got, h->fingerprint) != 0) {
        uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0, "its copy gives fingerprint %s", got);
        uz_oracle_set_close(md->oracles);
        md->oracles = NULL;
        r = UZ_ERR_MISMATCH;
    }
    if (r != UZ_OK)
        uz_archive_engine_refusal(h, summary, why, diag->message, diag);
    return r == UZ_OK ? UZ_OK : UZ_ERR_MISMATCH;
}

/* The builtin of a builtin member's header, kept from an earlier member when it is the same. */
static uz_result open_builtin(uz_member_decoder *md, const uz_archive_header *h, int workers, uz_diag *diag)
{
    int version, depth;
    uz_result r = uz_header_builtin(h, &version, &depth, diag);
    if (r != UZ_OK)
        return r;
    const uz_builtin_pool *kept = uz_oracle_set_builtin(md->oracles);
    if (kept && uz_builtin_pool_version(kept) == version && uz_builtin_pool_depth(kept) == depth)
        return UZ_OK;
    uz_oracle_set_close(md->oracles);
    md->oracles = NULL;
    return uz_oracle_set_open_builtin(&md->oracles, version, depth, workers, diag);
}

/* The engine of a member's header h, kept from an earlier member with the same settings
 * (base and workers: as uz_member_decoder_open). */
static uz_result open_engine(uz_member_decoder *md, const uz_archive_header *h, const uz_engine_settings *base,
                             int workers, uz_diag *diag)
{
    if (uz_oracle_set_pool(md->oracles) && strcmp(md->settings, h->engine_settings_text) == 0 &&
        strcmp(md->fingerprint, h->fingerprint) == 0)
        return UZ_OK;
    uz_oracle_set_close(md->oracles);
    md->oracles = NULL;
    uz_engine_settings s;
    uz_result r = UZ_OK;
    /* Messages name the settings: a header without them, by its profile's. */
    static _Thread_local uz_archive_header named;
    named = *h;
    uz_header_profile_settings(&named);
    if (base) {
        s = *base;
        uz_engine_settings p;
        uz_diag ignored = {0};
        /* A bare executable named for a header without settings: the settings of the
         * archive's profile (what the header refers to), run on that executable. */
        if (h->settings_from_profile && !base->profile[0] && header_profile(h, &p, &ignored) == UZ_OK) {
            s.depth = p.depth;
            s.nodes = p.nodes;
            s.mode = p.mode;
            s.hash_mb = p.hash_mb;
            s.threads = p.threads;
            s.n_options = p.n_options;
            memcpy(s.options, p.options, sizeof s.options);
            s.max_multipv = p.max_multipv;
            uz_copy_str(s.clear, sizeof s.clear, p.clear);
            s.modes = p.modes;
        }
    } else {
        /* No engine named: the installed profile of the archive's engine. */
        const char *dirs[8];
        uz_engine_default_dirs(dirs, 8);
        /* (the profile's mode when the header stores no settings: as uz_header_fill looks it up) */
        r = uz_engine_profile_for_archive(&s, h->engine_name, h->settings_from_profile ? "" : h->engine_settings_text,
                                          dirs, diag);
        s.store = md->store;
    }
    /* Without a settings text the profile's (or the named engine's) defaults are the
     * settings, and the fingerprint checks that they are the archive's. */
    if (r == UZ_OK && !h->settings_from_profile)
        r = uz_engine_settings_apply_text(&s, h->engine_settings_text, diag);
    uint64_t memory_mb = uz_decode_limits_or_default(&md->limits).engine_memory_mb;
    if (r == UZ_OK && s.hash_mb > 0 && (uint64_t)s.hash_mb > memory_mb) {
        /* Before any engine starts: the settings come from the archive. */
        uz_diag_set(diag, UZ_ERR_LIMIT, 0, 0,
                    "the archive asks for Hash %d MB per engine, over the decoder's limit of %llu MB; raise the "
                    "limit (--memory %d) if you trust it",
                    s.hash_mb, (unsigned long long)memory_mb, s.hash_mb);
        r = UZ_ERR_LIMIT;
    }
    if (r == UZ_OK)
        r = open_checked_pool(md, &s, h, named.settings_summary, workers, diag);
    /* The installed engine is missing or no longer the archive's (an upgrade): the store's. */
    if (r != UZ_OK && !base && r != UZ_ERR_NOMEM && r != UZ_ERR_SYNTAX && r != UZ_ERR_UNSUPPORTED &&
        r != UZ_ERR_LIMIT)
        r = open_stored_engine(md, h, named.settings_summary, workers, diag);
    if (r != UZ_OK)
        return r;
    uz_copy_str(md->settings, sizeof md->settings, h->engine_settings_text);
    uz_copy_str(md->fingerprint, sizeof md->fingerprint, h->fingerprint);
    return UZ_OK;
}

uz_result uz_member_decoder_open(uz_member_decoder *md, const uz_archive_header *h, const uz_engine_settings *base,
                                 int workers, uz_diag *diag)
{
    if (h->coder != UZ_CODER_HUFFMAN && h->coder != UZ_CODER_RANGE) {
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "unknown coder %u in the archive header", h->coder);
        return UZ_ERR_UNSUPPORTED;
    }
    uz_model_params params;
    if (uz_header_model(h, &params) != UZ_OK || uz_model_init(&md->model, &params) != UZ_OK) {
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "unknown model %u or bad model parameters in the archive header",
                    h->model_kind);
        return UZ_ERR_UNSUPPORTED;
    }
    uz_result mr = uz_model_open(&md->model, &params, diag); /* the player model's weights */
    if (mr != UZ_OK)
        return mr;
    md->coder = (uz_coder_kind)h->coder;
    if (md->oracle)
        return UZ_OK;
    uz_result r = uz_header_is_builtin(h) ? open_builtin(md, h, workers, diag) : open_engine(md, h, base, workers, diag);
    return r == UZ_OK ? uz_oracle_set_expect_chess960(md->oracles, h->chess960_fingerprint, diag) : r;
}

void uz_member_decoder_close(uz_member_decoder *md)
{
    if (!md)
        return;
    uz_oracle_set_close(md->oracles);
    memset(md, 0, sizeof *md);
}
