/* The growable byte buffer, bounds-checked cursors, varints and CRC-32 (include/common/buf.h). */
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

uz_result uz_buf_reserve(uz_buf *b, size_t extra)
{
    if (extra <= b->cap - b->size)
        return UZ_OK;
    if (extra > SIZE_MAX / 2 - b->size)
        return UZ_ERR_NOMEM;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->size < extra)
        cap *= 2;
    uint8_t *p = realloc(b->data, cap);
    if (!p)
        return UZ_ERR_NOMEM;
    b->data = p;
    b->cap = cap;
    return UZ_OK;
}

uz_result uz_buf_append(uz_buf *b, const void *data, size_t n)
{
    if (n == 0)
        return UZ_OK;
    uz_result r = uz_buf_reserve(b, n);
    if (r != UZ_OK)
        return r;
    memcpy(b->data + b->size, data, n);
    b->size += n;
    return UZ_OK;
}

uz_result uz_buf_push(uz_buf *b, uint8_t byte)
{
    if (b->size == b->cap) {
        uz_result r = uz_buf_reserve(b, 1);
        if (r != UZ_OK)
            return r;
    }
    b->data[b->size++] = byte;
    return UZ_OK;
}

uz_result uz_buf_put_varint(uz_buf *b, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    do {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        tmp[n++] = byte | (v ? 0x80 : 0);
    } while (v);
    return uz_buf_append(b, tmp, n);
}

uz_result uz_buf_put_string(uz_buf *b, const char *s, size_t n)
{
    uz_result r = uz_buf_put_varint(b, n);
    return r != UZ_OK ? r : uz_buf_append(b, s, n);
}

void uz_buf_free(uz_buf *b)
{
    if (!b)
        return;
    free(b->data);
    b->data = NULL;
    b->size = b->cap = 0;
}

uz_result uz_cursor_varint(uz_cursor *c, uint64_t *v)
{
    uint64_t value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (c->p >= c->end)
            return UZ_ERR_CORRUPT;
        uint8_t byte = *c->p++;
        /* The tenth byte may only carry the top bit of a 64-bit value. */
        if (shift == 63 && byte > 1)
            return UZ_ERR_CORRUPT;
        value |= (uint64_t)(byte & 0x7F) << shift;
        if (!(byte & 0x80)) {
            *v = value;
            return UZ_OK;
        }
    }
    return UZ_ERR_CORRUPT;
}

uz_result uz_cursor_string(uz_cursor *c, size_t max, const uint8_t **s, size_t *n)
{
    uint64_t len;
    if (uz_cursor_varint(c, &len) != UZ_OK || len > max || len > (uint64_t)(c->end - c->p))
        return UZ_ERR_CORRUPT;
    *s = c->p;
    *n = (size_t)len;
    c->p += len;
    return UZ_OK;
}

uint32_t uz_crc32(uint32_t crc, const void *data, size_t n)
{
    /* zlib answers a NULL buffer with the initial value, whatever crc was: an empty
     * piece (an empty move stream's NULL data) must leave the CRC as it is. */
    if (n == 0)
        return crc;
    return (uint32_t)crc32_z(crc, data, n);
}
