/* How a member header records the builtin oracle (src/builtin/builtin_pool.h), the checks
 * of a header that claims it, and the player weights its archives get (doc/format.md,
 * "The built-in oracle"). Stockfish archives never pass here. */
#ifndef UCIZIP_BUILTIN_MEMBER_H
#define UCIZIP_BUILTIN_MEMBER_H

#include <stdbool.h>
#include <stdint.h>

#include "archive/archive.h"
#include "builtin/builtin_pool.h"
#include "codec/coder.h"
#include "model/move_model.h"

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

/* The player weights of a new archive of builtin-version (0: the default version) at depth
 * (0: the version's default): params of a player model that name no weight set yet get the set trained on
 * that version's scores at that depth (UZ_PM_DEFAULT_VERSION_BUILTIN1 and _BUILTIN2 at
 * depth 1, the _DEEP sets from depth 2 on). */
void uz_builtin_model_params(uz_model_params *params, int version, int depth);

#endif
