/* The built-in oracle: a small chess search inside libucizip that scores every legal
 * move of a position, so that archives made with it decode with no engine installed.
 * doc/builtin.md specifies every version completely.
 *
 * What is frozen is each released version's scores: the same (version, depth, position)
 * gives the same score for every move in every build, forever, since an archive records
 * only the version and the depth. tests/builtin/test_builtin_golden.c pins them. The
 * files are not frozen text: they have had many score-preserving speed-ups, and keep any
 * change that leaves every score as it was; a change that moves one score is a new
 * version beside the old.
 *
 * The files each version's scores depend on (all in src/builtin):
 *   version    search                                evaluation
 *   builtin-1  v1_search.c                           v1_eval.c, v1_tables.c
 *   builtin-2  v2_search.c                           v1_eval.c, v1_tables.c
 *   builtin-3  v2_search.c, v3_eval.c (its root)     v1_eval.c, v1_tables.c, v3_eval.c and
 *                                                    data/eval_net/builtin3-768x512.txt
 *   with each its header (v1_search.h, v2_search.h, v3_eval.h), and every version:
 *   search_node.h and search_node.c (the search they share), v1_eval.h, v1_captures.c (the
 *   quiescence search's captures), and of src/chess the Zobrist keys, the canonical move
 *   order and the unsorted generator (chess/board.h marks them).
 * Not frozen (no score depends on them): builtin.c (the version table and the dispatch:
 * a new version is a new row), builtin_oracle.c (the oracle wrapper) and the thread pool
 * that runs searchers in parallel (src/builtin/builtin_pool.c).
 *
 * Depends on the board of src/chess, src/common and the oracle interface with its score
 * convention (src/oracle/oracle.h). No global state: a searcher is single-threaded,
 * different searchers may run on different threads. */
#ifndef UCIZIP_BUILTIN_H
#define UCIZIP_BUILTIN_H

#include <stdint.h>

#include "chess/board.h"
#include "common/common.h"
#include "oracle/oracle.h"

#define UZ_BUILTIN_LATEST 3   /* newest frozen version */
#define UZ_BUILTIN_DEFAULT 1  /* the version "builtin" (no version) means for new archives */
typedef struct uz_builtin uz_builtin;   /* one searcher (tables + scratch); single-threaded */
/* UZ_ERR_UNSUPPORTED (diag says why) for an unknown version or a depth it does not allow */
uz_result uz_builtin_create(uz_builtin **out, int version, int depth, uz_diag *diag);
void uz_builtin_destroy(uz_builtin *b);
int uz_builtin_default_depth(int version);
/* scores[i] = exact score of moves[i] (pos's legal moves in canonical order, as
 * uz_generate_legal gives them; n >= 1, up to UZ_MAX_MOVES), side to move's view, in the
 * convention of src/oracle/oracle.h (centipawns clamped to +-UZ_SCORE_CP_MAX, mate in n
 * for us = UZ_SCORE_MATE - n, mated in n = -UZ_SCORE_MATE + n). The result depends only on
 * (version, depth, pos, moves): never on earlier calls. */
void uz_builtin_score_moves(uz_builtin *b, const uz_position *pos, const uz_move *moves, int n, int32_t *scores);
/* The oracle (src/oracle/oracle.h) answering every query synchronously with the above.
 * identity: engine_name "ucizip builtin-<version>", fingerprint a fixed lowercase hex
 * string per (version) (e.g. the first 16 hex digits of an XXH64/FNV of the version's
 * defining constants: evaluation parameters and search rules id), settings_text
 * "builtin = <version>\ndepth = <depth>\n". Handles standard and Chess960 positions. */
uz_result uz_builtin_oracle_create(uz_oracle **out, int version, int depth, uz_diag *diag);

/* ---- additions ---- */

/* UZ_OK for a version this program has; else UZ_ERR_UNSUPPORTED, diag saying which it has
 * (the one check of a version number: creating a searcher makes it too). */
uz_result uz_builtin_check_version(int version, uz_diag *diag);

/* Lowest and highest depth a version allows (0, 0 for an unknown version). */
int uz_builtin_min_depth(int version);
int uz_builtin_max_depth(int version);

/* The fingerprint of a version (16 lowercase hex digits: FNV-1a 64 of the version's
 * defining constants, doc/builtin.md), "" for an unknown version. Static storage. */
const char *uz_builtin_fingerprint(int version);

/* Nodes (search and quiescence) visited by the last uz_builtin_score_moves call on b:
 * for benchmarks and tests. */
uint64_t uz_builtin_last_nodes(const uz_builtin *b);

#endif
