/* Shared between the block module's files. */
#ifndef UCIZIP_BLOCK_INTERNAL_H
#define UCIZIP_BLOCK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"

/* What a structure stream's bytes hold, for reports (uz_byte_split). */
enum uz__struct_part { UZ__PART_TAGS, UZ__PART_COMMENTS, UZ__PART_COMMENT_CODE, UZ__PART_STRUCTURE, UZ__PART_ENGINE_CODE,
                       UZ__N_PARTS };
typedef struct uz__struct_span {
    const uint8_t *p;
    size_t n;
    enum uz__struct_part part;
} uz__struct_span;
#define UZ__MAX_STRUCT_SPANS 16
/* Cuts a structure stream of version `version` into its sections (and the section sizes in
 * front, counted as structure), each with its part: tag names, values and coded tags are
 * tags; comments and coded comments are comments; game records and text records are
 * structure; version 2's engine code is its own part. Returns the number of spans (at most UZ__MAX_STRUCT_SPANS), or -1 if the
 * stream's section sizes do not fit it. */
int uz__struct_spans(const uint8_t *data, size_t size, unsigned version, uz__struct_span *out);

/* Checks a text record at c (advanced past it) without the game: for the structure reader. */
uz_result uz__game_text_skip(uz_cursor *c);

#endif
