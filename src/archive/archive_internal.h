/* Shared between the archive container's files: the format's fixed bytes and limits,
 * little-endian helpers, the block list of a member, the header body's coding. */
#ifndef UCIZIP_ARCHIVE_INTERNAL_H
#define UCIZIP_ARCHIVE_INTERNAL_H

#include <errno.h>
#include <string.h>

#include "archive/archive.h"
#include "archive/packer.h"

static const uint8_t header_magic[8] = {0x89, 'U', 'C', 'Z', '\r', '\n', 0x1A, '\n'};
/* The byte that starts a block, and the index (version 2's magics: archive_legacy_v2.c). */
#define BLOCK_TAG 'B'
#define INDEX_TAG 'I'
/* Version 3: the member digest is stored only for a member of at least this many blocks
 * (it guards their order; one block's own digest covers it). */
#define DIGEST_MIN_BLOCKS 2

/* Sanity limits a decoder enforces before allocating anything. */
#define MAX_HEADER_BODY (1u << 20)
#define TEXT_OF_(x) #x
#define TEXT_OF(x) TEXT_OF_(x) /* a limit's value in a message */
#define MAX_BLOCK_GAMES (1u << 16)
#define MAX_BLOCK_BYTES ((uint64_t)1 << 30)
#define MAX_BLOCKS ((uint64_t)1 << 32)
#define HEADER_START 10 /* magic and version: the bytes every version begins with */

static inline void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t get_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static inline uz_result corrupt(uz_diag *diag, uint64_t offset, const char *what)
{
    uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "corrupt or truncated archive at byte %llu: %s",
                (unsigned long long)offset, what);
    return UZ_ERR_CORRUPT;
}

/* what: "read", "seek" or "write". The file's name is not repeated: whoever reports the
 * error names the file (as for corrupt). */
static inline uz_result io_error(uz_diag *diag, const char *what)
{
    uz_diag_set(diag, UZ_ERR_IO, 0, 0, "%s error: %s", what, strerror(errno));
    return UZ_ERR_IO;
}

/* Version 3's index length at the very end of a member: a varint with its bytes in
 * reverse order, so that a reader coming from the end meets the low bits first. */
static inline size_t reversed_varint(uint64_t v, uint8_t out[10])
{
    uint8_t fwd[10];
    size_t n = 0;
    do {
        fwd[n] = (uint8_t)(v & 0x7F);
        v >>= 7;
        if (v)
            fwd[n] |= 0x80;
        n++;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = fwd[n - 1 - i];
    return n;
}

/* A block as the index lists it. */
typedef struct block_entry {
    uint64_t offset;
    uint64_t games;
    uint64_t moves;
    uint64_t text_digest; /* XXH64 of the block's original text */
} block_entry;

/* The member digest: XXH64 of the blocks' text digests (little-endian u64 each) in order,
 * so a block swapped, duplicated or dropped shows even with a rebuilt index. */
uint64_t uz__member_digest(const block_entry *blocks, size_t n);

/* The header body (doc/format.md, "Header"): version 3's fields, the writer's usual values
 * left out. UZ_ERR_ARG for a field that cannot be stored (a fingerprint that is not 16
 * lowercase hex digits). */
uz_result uz__header_encode(uz_buf *b, const uz_archive_header *h);
/* Parses a header body of format version into h. UZ_ERR_CORRUPT; *why is set when a field
 * is refused for a reason worth naming (else "malformed header fields"). */
uz_result uz__header_decode(const uint8_t *body, size_t size, unsigned version, uz_archive_header *h, const char **why);

#endif
