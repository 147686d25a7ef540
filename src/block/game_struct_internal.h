/* Shared between the structure stream's writer (game_struct_write.c) and reader
 * (game_struct.c): each structure version's sections, flags and limits (doc/format.md, "Structure
 * stream"). */
#ifndef UCIZIP_GAME_STRUCT_INTERNAL_H
#define UCIZIP_GAME_STRUCT_INTERNAL_H

#include <stdint.h>

#include "common/buf.h"
#include "common/common.h"
#include "common/limits.h"

/* The writer refuses what the reader would refuse: both use limits.h. */
#define MAX_TEXT UZ_LIMIT_TEXT   /* one tag value or comment */
#define MAX_COUNT UZ_LIMIT_LIST  /* tag names, tags, comments, NAGs or variations in one list */
#define MAX_DEPTH UZ_LIMIT_DEPTH /* nesting of variations */

enum node_flag { NODE_NULL = 1, NODE_NAGS = 2, NODE_COMMENTS = 4, NODE_VARIATIONS = 8, NODE_ORDER = 16 };
enum game_flag { GAME_HAS_FEN = 1, GAME_RESULT_SHIFT = 1, GAME_VERBATIM = 8, GAME_CHESS960 = 16, GAME_TEXT_ONLY = 32 };
/* Structure version 0 has the first five sections; structure version 1 adds the coded comments and tags;
 * structure version 2 the engine-comment code, whatever follows the seventh section (no size of its
 * own: a block without engine comments is the same as in structure version 1). */
enum section { SEC_NAMES, SEC_RECORDS, SEC_VALUES, SEC_COMMENTS, SEC_TEXT, SEC_COMMENT_CODE, SEC_TAG_CODE, SEC_ENGINE_CODE,
               N_SECTIONS };
enum { N_SECTIONS_V0 = SEC_TEXT + 1 };

/* The sections whose sizes lead the stream. */
static inline int sections_of(unsigned version) { return version == 0 ? N_SECTIONS_V0 : SEC_TAG_CODE + 1; }

/* The comment-code section (code) split (comment_sections.c): from comment revision 4 a non-empty
 * section starts with the clock code's number of clocks, size and bytes (*clocks), the comment
 * coder's stream after them (*comments); before revision 4 all of it is the comment coder's.
 * UZ_ERR_CORRUPT when the head does not read. */
uz_result uz__split_comment_code(uz_cursor code, unsigned revision, uz_cursor *clocks, uint64_t *n_clocks,
                                 uz_cursor *comments);

#endif
