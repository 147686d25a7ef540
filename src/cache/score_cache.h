/* A persistent cache of engine scores in LMDB, shared by runs and by processes (LMDB's
 * own locking: any number of readers, one writer at a time). Keyed by the engine
 * fingerprint and the position, so entries of other engines or settings are never
 * used. Every entry carries a checksum of its key and value: a damaged entry, or one
 * copied under another key, is ignored (the position is searched again and the entry
 * rewritten), never used. Writes are batched into one transaction per
 * UZ_SCORE_CACHE_BATCH entries (and at close); a cache is an optimisation, so a
 * failed write is counted, not fatal. */
#ifndef UCIZIP_SCORE_CACHE_H
#define UCIZIP_SCORE_CACHE_H

#include <stdint.h>

#include "common/common.h"
#include "engine/engine.h"

#define UZ_SCORE_CACHE_BATCH 512

typedef struct uz_score_cache uz_score_cache;

typedef struct uz_score_cache_stats {
    /* rejected: damaged or foreign entries, and lookups a damaged database could not answer */
    uint64_t lookups, hits, misses, rejected;
    uint64_t saved, write_errors;
} uz_score_cache_stats;

/* Opens (creating it if needed) the cache file at path (LMDB adds PATH-lock beside it).
 * Errors: UZ_ERR_IO with the reason. */
uz_result uz_score_cache_open(uz_score_cache **out, const char *path, uz_diag *diag);
/* Commits pending entries and closes. NULL is a no-op. */
void uz_score_cache_close(uz_score_cache *c);
/* The store to put in uz_engine_settings.store (valid while c is open). */
const uz_score_store *uz_score_cache_store(uz_score_cache *c);
/* Commits pending entries now. */
uz_result uz_score_cache_flush(uz_score_cache *c, uz_diag *diag);
void uz_score_cache_get_stats(const uz_score_cache *c, uz_score_cache_stats *out);

#endif
