/* Shared between the archive container's files. */
#ifndef UCIZIP_ARCHIVE_INTERNAL_H
#define UCIZIP_ARCHIVE_INTERNAL_H

#include "archive/archive.h"

/* How a block's structure stream is compressed (the block header's method field). */
enum uz__pack_method {
    UZ__PACK_ZSTD = 1, /* one zstd frame, level 19 */
    UZ__PACK_LZMA2 = 2 /* raw LZMA2, preset 9e, dictionary = raw size rounded up to a power of two (>= 4 KiB) */
};

/* Compresses src with every method and keeps the smallest in dst (replaced). */
uz_result uz__pack(const uint8_t *src, size_t n, uz_buf *dst, unsigned *method);
/* Compresses src with the given method into dst (replaced), as uz__pack would with it. */
uz_result uz__pack_with(unsigned method, const uint8_t *src, size_t n, uz_buf *dst);
/* Decompresses exactly raw_size bytes into dst (replaced; grown as output arrives);
 * UZ_ERR_CORRUPT unless the input is one complete stream of exactly that size. */
uz_result uz__unpack(unsigned method, const uint8_t *src, size_t n, uz_buf *dst, size_t raw_size);

/* What a structure stream's bytes hold, for reports (uz_byte_split). */
enum uz__struct_part { UZ__PART_TAGS, UZ__PART_COMMENTS, UZ__PART_COMMENT_CODE, UZ__PART_STRUCTURE, UZ__PART_ENGINE_CODE,
                       UZ__N_PARTS };
typedef struct uz__struct_span {
    const uint8_t *p;
    size_t n;
    enum uz__struct_part part;
} uz__struct_span;
#define UZ__MAX_STRUCT_SPANS 16
/* Cuts a structure stream of layout version into its sections (and the section sizes in
 * front, counted as structure), each with its part: tag names, values and coded tags are
 * tags; comments and coded comments are comments; game records and text records are
 * structure; layout 2's engine code is its own part. Returns the number of spans (at most UZ__MAX_STRUCT_SPANS), or -1 if the
 * stream's section sizes do not fit it. */
int uz__struct_spans(const uint8_t *data, size_t size, unsigned version, uz__struct_span *out);

#endif
