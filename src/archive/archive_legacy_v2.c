/* Reading container format version 2 (archive_legacy_v2.h), for old archives only:
 * the framing that version 3 replaced. Nothing writes it. */
#include <stdlib.h>
#include <string.h>

#include "archive_legacy_v2.h"

/* Version 3 starts blocks and the index with one byte (BLOCK_TAG, INDEX_TAG). */
static const uint8_t block_magic[4] = {'U', 'C', 'Z', 'B'};
static const uint8_t index_magic[4] = {'U', 'C', 'Z', 'I'};
static const uint8_t footer_magic[4] = {'U', 'C', 'Z', 'F'};

uz_result uz__v2_header_length(uz_archive_reader *r, uint64_t start, uint64_t *length, uz_diag *diag)
{
    uint8_t rest[6]; /* flags (u16), then the length (u32) */
    uz_result res = uz__reader_exact(r, rest, sizeof rest, diag, "header");
    if (res != UZ_OK)
        return res;
    if (get_le(rest, 2) != 0)
        return corrupt(diag, start + HEADER_START, "unknown header flags");
    *length = get_le(rest + 2, 4);
    return UZ_OK;
}

uz_result uz__v2_read_tag(uz_archive_reader *r, uint8_t *tag, uz_diag *diag, const char *what)
{
    uint8_t magic[4];
    uz_result res = uz__reader_exact(r, magic, sizeof magic, diag, what);
    if (res != UZ_OK)
        return res;
    *tag = memcmp(magic, block_magic, 4) == 0 ? BLOCK_TAG : memcmp(magic, index_magic, 4) == 0 ? INDEX_TAG : 0;
    return UZ_OK;
}

/* The footer: its magic, the index's offset, the member's length and games, its crc. */
static bool footer_valid(const uint8_t footer[UZ_V2_FOOTER_SIZE])
{
    return memcmp(footer, footer_magic, 4) == 0 && get_le(footer + 28, 4) == uz_crc32(0, footer, 28);
}

uz_result uz__v2_read_index(uz_archive_reader *r, uz_diag *diag)
{
    uint64_t index_offset = r->offset - 4 - r->member_start;
    uz_buf raw = {0};
    uint64_t n;
    uz_result res = uz__reader_varint(r, &n, &raw, diag, "index");
    if (res == UZ_OK)
        res = uz__reader_index_entries(r, n, &raw, diag);
    uint8_t digest[8], crc[4], footer[UZ_V2_FOOTER_SIZE];
    if (res == UZ_OK)
        res = uz__reader_exact(r, digest, 8, diag, "index");
    if (res == UZ_OK)
        res = uz_buf_append(&raw, digest, 8) == UZ_OK ? UZ_OK : UZ_ERR_NOMEM;
    if (res == UZ_OK && get_le(digest, 8) != uz__member_digest(r->blocks, r->n_blocks))
        res = corrupt(diag, r->offset, "the member's blocks do not match its digest (blocks swapped, duplicated or dropped)");
    if (res == UZ_OK)
        res = uz__reader_exact(r, crc, 4, diag, "index checksum");
    if (res == UZ_OK && get_le(crc, 4) != uz_crc32(0, raw.data, raw.size))
        res = corrupt(diag, r->offset, "index checksum mismatch");
    uz_buf_free(&raw);
    if (res == UZ_OK)
        res = uz__reader_exact(r, footer, sizeof footer, diag, "footer");
    if (res != UZ_OK)
        return res;
    if (!footer_valid(footer) || get_le(footer + 4, 8) != index_offset ||
        get_le(footer + 12, 8) != r->offset - r->member_start || get_le(footer + 20, 8) != r->games)
        return corrupt(diag, r->offset - UZ_V2_FOOTER_SIZE, "bad footer");
    r->in_member = false;
    return UZ_DONE;
}

/* Reads the footer of a member ending at end into footer; *valid when it is one. */
static uz_result read_footer(FILE *f, const char *name, uint64_t end, uint8_t footer[UZ_V2_FOOTER_SIZE], bool *valid,
                             uz_diag *diag)
{
    *valid = false;
    if (end < 16 + UZ_V2_FOOTER_SIZE)
        return UZ_OK;
    uz_result res = uz__seek_to(f, end - UZ_V2_FOOTER_SIZE, diag, name);
    if (res != UZ_OK)
        return res;
    if (fread(footer, 1, UZ_V2_FOOTER_SIZE, f) != UZ_V2_FOOTER_SIZE)
        return corrupt(diag, end, "truncated footer");
    *valid = footer_valid(footer);
    return UZ_OK;
}

uz_result uz__v2_member_at(FILE *f, const char *name, uint64_t end, bool *is_v2, uz_diag *diag)
{
    uint8_t footer[UZ_V2_FOOTER_SIZE];
    return read_footer(f, name, end, footer, is_v2, diag);
}

/* The index's entries after its count n, into m (each checked against the index's
 * offset and its predecessor), kept in raw for the checksum; *games sums them. */
static uz_result map_entries(uz_archive_reader *rd, uint64_t n, uint64_t index_offset, member_map *m, uz_buf *raw,
                             uint64_t *games, uz_diag *diag)
{
    uz_result res = UZ_OK;
    for (uint64_t i = 0; res == UZ_OK && i < n; i++) {
        block_entry *e = &m->blocks[i];
        res = uz__reader_varint(rd, &e->offset, raw, diag, "index");
        if (res == UZ_OK)
            res = uz__reader_varint(rd, &e->games, raw, diag, "index");
        if (res == UZ_OK)
            res = uz__reader_varint(rd, &e->moves, raw, diag, "index");
        if (res == UZ_OK && (e->offset >= index_offset || e->games == 0 || e->games > MAX_BLOCK_GAMES ||
                             (i && e->offset <= m->blocks[i - 1].offset)))
            res = corrupt(diag, rd->offset, "index entry out of range");
        *games += res == UZ_OK ? e->games : 0;
        m->n_blocks = (size_t)i + 1;
    }
    return res;
}

uz_result uz__v2_map_member(FILE *f, const char *name, uint64_t end, member_map *m, uz_diag *diag)
{
    uint8_t footer[UZ_V2_FOOTER_SIZE];
    bool valid;
    uz_result res = read_footer(f, name, end, footer, &valid, diag);
    if (res == UZ_OK && !valid)
        res = corrupt(diag, end, "no version 2 footer");
    if (res != UZ_OK)
        return res;
    m->version = 2;
    uint64_t index_offset = get_le(footer + 4, 8);
    m->length = get_le(footer + 12, 8);
    m->games = get_le(footer + 20, 8);
    if (m->length > end || index_offset + 4 + UZ_V2_FOOTER_SIZE > m->length)
        return corrupt(diag, end - UZ_V2_FOOTER_SIZE, "footer sizes out of range");
    m->start = end - m->length;
    uz_archive_reader rd = {.f = f, .name = name, .offset = m->start + index_offset};
    if ((res = uz__seek_to(f, rd.offset, diag, name)) != UZ_OK)
        return res;
    uint8_t tag;
    if ((res = uz__v2_read_tag(&rd, &tag, diag, "index")) != UZ_OK)
        return res;
    if (tag != INDEX_TAG)
        return corrupt(diag, rd.offset - 4, "index expected");
    uz_buf raw = {0};
    uint64_t n, games = 0;
    res = uz__reader_varint(&rd, &n, &raw, diag, "index");
    if (res == UZ_OK && (n > MAX_BLOCKS || n > m->length))
        res = corrupt(diag, rd.offset, "index too long");
    if (res == UZ_OK && !(m->blocks = calloc(n ? n : 1, sizeof *m->blocks)))
        res = UZ_ERR_NOMEM;
    if (res == UZ_OK)
        res = map_entries(&rd, n, index_offset, m, &raw, &games, diag);
    uint8_t digest[8], crc[4];
    if (res == UZ_OK && (res = uz__reader_exact(&rd, digest, 8, diag, "index")) == UZ_OK)
        res = uz_buf_append(&raw, digest, 8) == UZ_OK ? UZ_OK : UZ_ERR_NOMEM;
    if (res == UZ_OK)
        res = uz__reader_exact(&rd, crc, 4, diag, "index checksum");
    if (res == UZ_OK && (get_le(crc, 4) != uz_crc32(0, raw.data, raw.size) || games != m->games))
        res = corrupt(diag, rd.offset, "index checksum mismatch");
    if (res == UZ_ERR_NOMEM)
        uz_diag_set(diag, res, 0, 0, "out of memory");
    uz_buf_free(&raw);
    if (res != UZ_OK) {
        free(m->blocks);
        m->blocks = NULL;
    }
    return res;
}
