/* The builtin's searchers on several threads as one oracle (oracle/oracle.h): what codes
 * an archive with the built-in search, standard and Chess960 positions alike. */
#ifndef UCIZIP_BUILTIN_POOL_H
#define UCIZIP_BUILTIN_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "common/common.h"
#include "oracle/oracle.h"

typedef struct uz_builtin_pool uz_builtin_pool;

/* threads (>= 1) searchers of the version (0: UZ_BUILTIN_DEFAULT, what "builtin" without a
 * number means) at depth (0: the version's default), each on its own thread (1: none
 * started, the caller's thread searches). Scores depend on the position alone, so the
 * answers are the same for any number of threads. Errors: UZ_ERR_UNSUPPORTED for an
 * unknown version (uz_builtin_check_version) or a depth it does not allow (diag says which
 * exist), UZ_ERR_NOMEM. */
uz_result uz_builtin_pool_create(uz_builtin_pool **out, int version, int depth, int threads, uz_diag *diag);
/* NULL: no-op. Not while a run is under way. */
void uz_builtin_pool_destroy(uz_builtin_pool *p);
/* The pool as an oracle (oracle/oracle.h): answers standard and Chess960 positions, its
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

#endif
