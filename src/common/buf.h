/* The one growable byte buffer, a bounds-checked cursor over bytes, varints and CRC-32:
 * what the archive, the structure stream, the coders and the PGN writer all build on. */
#ifndef UCIZIP_BUF_H
#define UCIZIP_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "common/common.h"

/* A growable byte buffer: size bytes in use out of cap. {0} is an empty buffer. */
typedef struct uz_buf {
    uint8_t *data;
    size_t size;
    size_t cap;
} uz_buf;

/* Makes room for extra more bytes (cap - size >= extra), growing geometrically. */
uz_result uz_buf_reserve(uz_buf *b, size_t extra);
uz_result uz_buf_append(uz_buf *b, const void *data, size_t n);
uz_result uz_buf_push(uz_buf *b, uint8_t byte);
uz_result uz_buf_put_varint(uz_buf *b, uint64_t v);
uz_result uz_buf_put_string(uz_buf *b, const char *s, size_t n);
void uz_buf_free(uz_buf *b);

/* A bounds-checked reader over bytes: every get fails with UZ_ERR_CORRUPT rather than
 * read past the end. */
typedef struct uz_cursor {
    const uint8_t *p;
    const uint8_t *end;
} uz_cursor;

uz_result uz_cursor_varint(uz_cursor *c, uint64_t *v);
/* A string of at most max bytes; *s points into the cursor's bytes (not terminated). */
uz_result uz_cursor_string(uz_cursor *c, size_t max, const uint8_t **s, size_t *n);

/* zlib's CRC-32 (reflected polynomial 0xEDB88320): crc is 0 or the value so far. */
uint32_t uz_crc32(uint32_t crc, const void *data, size_t n);

#endif
