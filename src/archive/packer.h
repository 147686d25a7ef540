/* The packers of a block's structure stream (the block header's method field): zstd,
 * LZMA2 and zstd over a frozen prose dictionary, the smallest kept. Shared with the block module, which compresses sections on
 * their own to choose a tag coding and to share out a block's bytes for reports. */
#ifndef UCIZIP_PACKER_H
#define UCIZIP_PACKER_H

#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"

/* How a block's structure stream is compressed (the block header's method field). */
enum uz__pack_method {
    UZ__PACK_ZSTD = 1, /* one zstd frame, level 19 */
    UZ__PACK_LZMA2 = 2, /* raw LZMA2, preset 9e, dictionary = raw size rounded up to a power of two (>= 4 KiB) */
    UZ__PACK_ZSTD_PROSE = 3 /* one zstd frame, level 19, over the prose dictionary (archive/prose_dict.h) */
};

/* Compresses src with every method and keeps the smallest in dst (replaced). */
uz_result uz__pack(const uint8_t *src, size_t n, uz_buf *dst, unsigned *method);
/* Compresses src with the given method into dst (replaced), as uz__pack would with it. */
uz_result uz__pack_with(unsigned method, const uint8_t *src, size_t n, uz_buf *dst);
/* Decompresses exactly raw_size bytes into dst (replaced; grown as output arrives);
 * UZ_ERR_CORRUPT unless the input is one complete stream of exactly that size. */
uz_result uz__unpack(unsigned method, const uint8_t *src, size_t n, uz_buf *dst, size_t raw_size);

#endif
