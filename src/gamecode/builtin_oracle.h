/* The built-in search (src/builtin) as the oracle that codes an archive: the names that
 * select it, its searchers on several threads as one oracle, and how a member header
 * records it (doc/format.md, "The built-in oracle"). Stockfish archives never pass here. */
#ifndef UCIZIP_BUILTIN_ORACLE_H
#define UCIZIP_BUILTIN_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#include "archive/archive.h"
#include "codec/coder.h"
#include "model/move_model.h"
#include "engine/oracle.h"


/* Whether spec (an "--engine" argument, uz_options.engine) names the builtin: "builtin"
 * (*version = UZ_BUILTIN_DEFAULT) or "builtin-N" (*version = N, which need not exist:
 * uz_builtin_pool_create refuses an unknown one). */
bool uz_builtin_spec(const char *spec, int *version);

/* ---- the searchers as one oracle ---- */

typedef struct uz_builtin_pool uz_builtin_pool;

/* threads (>= 1) searchers of the version at depth (0: the version's default), each on
 * its own thread (1: none started, the caller's thread searches). Scores depend on the
 * position alone, so the answers are the same for any number of threads. Errors:
 * UZ_ERR_UNSUPPORTED for an unknown version or a depth it does not allow (diag says
 * which exist), UZ_ERR_NOMEM. */
uz_result uz_builtin_pool_create(uz_builtin_pool **out, int version, int depth, int threads, uz_diag *diag);
/* NULL: no-op. Not while a run is under way. */
void uz_builtin_pool_destroy(uz_builtin_pool *p);
/* The pool as an oracle (engine/oracle.h): answers standard and Chess960 positions, its
 * identity is the builtin's ("ucizip builtin-V", the version's fingerprint, "builtin =
 * V\ndepth = D\n"). Owned by the pool; valid until uz_builtin_pool_destroy. */
uz_oracle *uz_builtin_pool_oracle(uz_builtin_pool *p);
int uz_builtin_pool_version(const uz_builtin_pool *p);
int uz_builtin_pool_depth(const uz_builtin_pool *p);
int uz_builtin_pool_threads(const uz_builtin_pool *p);
/* Positions scored so far (queries with two or more legal moves). */
uint64_t uz_builtin_pool_positions(const uz_builtin_pool *p);
/* "ucizip builtin-1; depth 1" */
void uz_builtin_pool_describe(const uz_builtin_pool *p, char *out, size_t cap);

/* ---- member headers ---- */

/* Fills h for a member coded with the pool's builtin: keys 1-8 from its identity (depth,
 * no node limit, multipv, no Hash, no Threads; the settings text stored), key 12 left
 * "" (uz_header_builtin_chess960 sets it), the model and coder as uz_header_fill. */
void uz_header_fill_builtin(uz_archive_header *h, const uz_builtin_pool *p, const uz_model_params *model,
                            uz_coder_kind coder, uint32_t block_games);
/* Marks h as coding Chess960 games too (with the same oracle: key 12 = key 2). */
void uz_header_builtin_chess960(uz_archive_header *h);

/* The version and depth a builtin member's header records, checked as untrusted input:
 * the engine name, the settings text (exactly "builtin = V\ndepth = D\n") and key 3
 * agree, the version is one this program has (else UZ_ERR_UNSUPPORTED: "made with
 * builtin-V, which this ucizip does not have; a newer ucizip decodes it"), the depth is
 * one it allows, and the fingerprint is the version's (else UZ_ERR_MISMATCH). A
 * malformed header is UZ_ERR_CORRUPT. */
uz_result uz_header_builtin(const uz_archive_header *h, int *version, int *depth, uz_diag *diag);

/* The player weights of a new archive of builtin-version at depth (0: the version's
 * default): params of a player model that name no weight set yet get the set trained on
 * that version's scores at that depth (UZ_PM_DEFAULT_VERSION_BUILTIN1 and _BUILTIN2 at
 * depth 1, the _DEEP sets from depth 2 on). */
void uz_builtin_model_params(uz_model_params *params, int version, int depth);

#endif
