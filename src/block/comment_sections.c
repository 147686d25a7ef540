/* The comment-code section of the structure stream from comment revision 4: the clock code
 * (block/clock_code.h) ahead of the comment coder's stream (doc/format.md, "Clock code"). */
#include "block/block_internal.h"
#include "block/comment_code.h"
#include "block/game_struct.h"
#include "block/game_struct_internal.h"

uz_result uz__split_comment_code(uz_cursor code, unsigned revision, uz_cursor *clocks, uint64_t *n_clocks,
                                 uz_cursor *comments)
{
    uint64_t len = 0;
    *n_clocks = 0;
    if (revision >= 4 && code.p != code.end &&
        (uz_cursor_varint(&code, n_clocks) != UZ_OK || uz_cursor_varint(&code, &len) != UZ_OK ||
         len > (uint64_t)(code.end - code.p) || (len == 0) != (*n_clocks == 0)))
        return UZ_ERR_CORRUPT;
    *clocks = (uz_cursor){code.p, code.p + len};
    *comments = (uz_cursor){code.p + len, code.end};
    return UZ_OK;
}

uz_result uz_block_struct_clock_code(const uint8_t *data, size_t size, unsigned version, unsigned comment_revision,
                                     const uint8_t **code, size_t *len, uint64_t *n_clocks)
{
    uz__struct_span spans[UZ__MAX_STRUCT_SPANS];
    *code = NULL;
    *len = 0;
    *n_clocks = 0;
    if (!data || version < 1 || uz_comment_revision(version, comment_revision) < 4)
        return UZ_OK;
    int k = uz__struct_spans(data, size, version, spans);
    if (k < 1 + SEC_COMMENT_CODE + 1)
        return UZ_ERR_CORRUPT;
    const uz__struct_span *sec = &spans[1 + SEC_COMMENT_CODE];
    uz_cursor clocks, comments;
    if (uz__split_comment_code((uz_cursor){sec->p, sec->p + sec->n}, 4, &clocks, n_clocks, &comments) != UZ_OK)
        return UZ_ERR_CORRUPT;
    *code = clocks.p;
    *len = (size_t)(clocks.end - clocks.p);
    return UZ_OK;
}
