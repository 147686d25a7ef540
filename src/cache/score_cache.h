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

#include <stdbool.h>
#include <stddef.h>
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
 * Before LMDB sees them, the data file and PATH-lock must each be absent or a regular
 * file owned by the user (not a symbolic link), and the data file's meta pages must
 * agree with its size (a truncated file would fault once mapped). Every message names
 * the file. A lock file this call created is removed when it fails.
 * Errors: UZ_ERR_ARG refused (link, not a regular file, another user's, not a cache);
 * UZ_ERR_CORRUPT unusable but harmless: damaged, unreadable or read-only (the caller
 * runs without a cache, with a warning); UZ_ERR_IO other failures. */
uz_result uz_score_cache_open(uz_score_cache **out, const char *path, uz_diag *diag);
/* Commits pending entries and closes. NULL is a no-op. */
void uz_score_cache_close(uz_score_cache *c);
/* The store to put in uz_engine_settings.store (valid while c is open). */
const uz_score_store *uz_score_cache_store(uz_score_cache *c);
/* Commits pending entries now. */
uz_result uz_score_cache_flush(uz_score_cache *c, uz_diag *diag);
void uz_score_cache_get_stats(const uz_score_cache *c, uz_score_cache_stats *out);

/* The validators, exposed for the fuzz target: */
/* Checks the start of an LMDB data file (head: its first head_len bytes, at least two
 * pages where the file has them) against its size: both meta pages well formed, and
 * every page they can reach inside the file. A size of 0 (a new file) is fine.
 * UZ_ERR_ARG for a file with no LMDB meta page at all (not a cache), UZ_ERR_CORRUPT for
 * a damaged or truncated one, each with the reason. */
uz_result uz_score_cache_check_file(const uint8_t *head, size_t head_len, uint64_t file_size, uz_diag *diag);
/* Decodes a stored value for key and the position's moves[0..n): true, with scores
 * filled, only for a well-formed entry whose checksum and moves match. */
bool uz_score_cache_entry_decode(const uint8_t *v, size_t len, const char *key, size_t key_len, const uz_move *moves,
                                 int n, int32_t *scores);

#endif
