/* Shared by the container's readers, the current one (archive.c) and version 2's
 * (archive_legacy_v2.c): the sequential reader's state and its primitives. */
#ifndef UCIZIP_ARCHIVE_READ_INTERNAL_H
#define UCIZIP_ARCHIVE_READ_INTERNAL_H

#include "archive_internal.h"

struct uz_archive_reader {
    FILE *f;
    const char *name;
    uint64_t offset;        /* bytes consumed from f */
    uint64_t member_start;
    bool in_member;
    block_entry *blocks;    /* blocks seen in the current member, checked against its index */
    size_t n_blocks, cap_blocks;
    uint64_t games;
    uz_buf zbuf;
    uz_decode_limits limits;
    uint32_t struct_version; /* of the current member */
    uint32_t tag_version;
    uint32_t comment_revision; /* of the current member (0: the structure version's) */
    uint32_t engine_revision;  /* of the current member (0: absent, revision 1) */
    uint32_t comment_text;     /* of the current member (0: strings) */
    unsigned version;        /* format version of the current member */
};

/* A member found from its end: where it starts and its block list. */
typedef struct member_map {
    uint64_t start, length, games;
    block_entry *blocks;
    size_t n_blocks;
    unsigned version;
} member_map;

/* Reads exactly n bytes or reports truncation (what names the part, for the message). */
uz_result uz__reader_exact(uz_archive_reader *r, void *p, size_t n, uz_diag *diag, const char *what);
/* A varint from the file; raw (optional) receives its bytes, for checksums. */
uz_result uz__reader_varint(uz_archive_reader *r, uint64_t *v, uz_buf *raw, uz_diag *diag, const char *what);
/* The index's n entries (block offset, games, moves), kept in raw for the checksum and
 * checked against the blocks the reader has read. */
uz_result uz__reader_index_entries(uz_archive_reader *r, uint64_t n, uz_buf *raw, uz_diag *diag);
uz_result uz__seek_to(FILE *f, uint64_t offset, uz_diag *diag, const char *name);

#endif
