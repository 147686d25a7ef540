/* A compact difference between two texts: what turns a game's rendering with its layout
 * into the game's exact bytes. Internal to the block module. */
#ifndef UZ_TEXT_PATCH_H
#define UZ_TEXT_PATCH_H

#include <stddef.h>

#include "common/buf.h"

/* Most edit operations a patch may need before the caller should rather keep the text
 * itself (bounds the diff's time and memory: O(n * UZ_PATCH_MAX_EDITS)). */
#define UZ_PATCH_MAX_EDITS 512

/* Appends to patch the edits that turn from[0..from_len) into to[0..to_len):
 *   patch = n_ops:varint (copy:varint delete:varint insert:string)*n_ops
 * each op copies `copy` bytes of from, skips `delete` bytes of it and inserts the string;
 * after the last op the rest of from is copied. Equal texts give the one byte 0.
 * The diff runs over words and runs of whitespace (Myers' O(ND) algorithm), so typical
 * differences (a line end, a spelling) cost a few bytes. Returns UZ_OK, UZ_ERR_LIMIT when
 * the texts need more than UZ_PATCH_MAX_EDITS edits (nothing appended), or UZ_ERR_NOMEM. */
uz_result uz_patch_make(const char *from, size_t from_len, const char *to, size_t to_len, uz_buf *patch);

/* Applies a patch read from c to from, appending the result to out (at most max_out bytes,
 * else UZ_ERR_CORRUPT). UZ_ERR_CORRUPT when the patch does not fit from. */
uz_result uz_patch_apply(const char *from, size_t from_len, uz_cursor *c, size_t max_out, uz_buf *out);

#endif
