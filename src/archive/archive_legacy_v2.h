/* Container format version 2 (doc/format.md), kept only so that old archives still
 * decode: nothing writes it. Version 2 differs from version 3 in its framing alone (a
 * fixed-size header length, 4-byte block and index magics, a 32-byte footer); the
 * header's keyed fields are read by archive_header.c for both versions. */
#ifndef UCIZIP_ARCHIVE_LEGACY_V2_H
#define UCIZIP_ARCHIVE_LEGACY_V2_H

#include "archive_read_internal.h"

#define UZ_V2_FOOTER_SIZE 32

/* After the header's magic and version (start: where the member begins): its flags,
 * which must be 0, and the body's length. */
uz_result uz__v2_header_length(uz_archive_reader *r, uint64_t start, uint64_t *length, uz_diag *diag);

/* The magic that starts a block or the index, as version 3's one-byte tag: BLOCK_TAG,
 * INDEX_TAG, or 0 for anything else. */
uz_result uz__v2_read_tag(uz_archive_reader *r, uint8_t *tag, uz_diag *diag, const char *what);

/* The index after its magic, its checks against the blocks read, and the footer that
 * ends the member: UZ_DONE when all match. */
uz_result uz__v2_read_index(uz_archive_reader *r, uz_diag *diag);

/* Whether the member that ends at byte end of f ends with a valid version 2 footer
 * (a member of version 3 has none). */
uz_result uz__v2_member_at(FILE *f, const char *name, uint64_t end, bool *is_v2, uz_diag *diag);

/* The version 2 member that ends at byte end (uz__v2_member_at said so): its footer
 * and index, into m (m->blocks is allocated; NULL on error). */
uz_result uz__v2_map_member(FILE *f, const char *name, uint64_t end, member_map *m, uz_diag *diag);

#endif
