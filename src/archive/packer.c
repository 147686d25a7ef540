/* Compression of the structure stream: zstd and LZMA2 (liblzma) both tried, the smaller
 * kept. Text-heavy blocks (engine comments, long tag sets) differ by several percent. */
#include <lzma.h>
#include <string.h>
#include <zstd.h>

#include "archive_internal.h"

#define ZSTD_LEVEL 19

static uint32_t lzma_dict_size(size_t raw_size)
{
    uint32_t d = 4096;
    while (d < raw_size && d < (1u << 30))
        d <<= 1;
    return d;
}

static bool lzma_filters(size_t raw_size, lzma_options_lzma *opt, lzma_filter filters[2])
{
    if (lzma_lzma_preset(opt, 9 | LZMA_PRESET_EXTREME))
        return false;
    opt->dict_size = lzma_dict_size(raw_size);
    filters[0] = (lzma_filter){LZMA_FILTER_LZMA2, opt};
    filters[1] = (lzma_filter){LZMA_VLI_UNKNOWN, NULL};
    return true;
}

uz_result uz__pack(const uint8_t *src, size_t n, uz_buf *dst, unsigned *method)
{
    dst->size = 0;
    size_t zbound = ZSTD_compressBound(n), lbound = n + n / 16 + 1024;
    if (uz_buf_reserve(dst, zbound + lbound) != UZ_OK)
        return UZ_ERR_NOMEM;
    size_t zsize = ZSTD_compress(dst->data, zbound, src, n, ZSTD_LEVEL);
    if (ZSTD_isError(zsize))
        return UZ_ERR_NOMEM;
    lzma_options_lzma opt;
    lzma_filter filters[2];
    size_t lsize = 0;
    uint8_t *lout = dst->data + zbound;
    if (lzma_filters(n, &opt, filters) &&
        lzma_raw_buffer_encode(filters, NULL, src, n, lout, &lsize, lbound) == LZMA_OK && lsize < zsize) {
        memmove(dst->data, lout, lsize);
        dst->size = lsize;
        *method = UZ__PACK_LZMA2;
    } else {
        dst->size = zsize;
        *method = UZ__PACK_ZSTD;
    }
    return UZ_OK;
}

uz_result uz__unpack(unsigned method, const uint8_t *src, size_t n, uint8_t *dst, size_t raw_size)
{
    if (method == UZ__PACK_ZSTD) {
        if (ZSTD_getFrameContentSize(src, n) != raw_size)
            return UZ_ERR_CORRUPT;
        size_t got = ZSTD_decompress(dst, raw_size + 1, src, n);
        return !ZSTD_isError(got) && got == raw_size ? UZ_OK : UZ_ERR_CORRUPT;
    }
    if (method == UZ__PACK_LZMA2) {
        lzma_options_lzma opt;
        lzma_filter filters[2];
        size_t in_pos = 0, out_pos = 0;
        if (!lzma_filters(raw_size, &opt, filters))
            return UZ_ERR_CORRUPT;
        lzma_ret ret = lzma_raw_buffer_decode(filters, NULL, src, &in_pos, n, dst, &out_pos, raw_size + 1);
        return (ret == LZMA_OK || ret == LZMA_STREAM_END) && in_pos == n && out_pos == raw_size ? UZ_OK
                                                                                                : UZ_ERR_CORRUPT;
    }
    return UZ_ERR_CORRUPT;
}
