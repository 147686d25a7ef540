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
/* Decompresses exactly raw_size bytes into dst (replaced; grown as output arrives);
 * UZ_ERR_CORRUPT unless the input is one complete stream of exactly that size. */
uz_result uz__unpack(unsigned method, const uint8_t *src, size_t n, uz_buf *dst, size_t raw_size);

#endif
