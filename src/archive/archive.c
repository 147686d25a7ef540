/* Reading the .ucz container: members in order, their blocks checked against the index,
 * and random access from the end of a seekable file (doc/format.md). */
#include <stdlib.h>
#include <string.h>

#include "archive_internal.h"

/* ---- sequential reader ---- */

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
    unsigned version;        /* format version of the current member */
};

void uz_archive_reader_set_limits(uz_archive_reader *r, const uz_decode_limits *limits)
{
    r->limits = uz_decode_limits_or_default(limits);
}

/* Reads exactly n bytes or reports truncation. */
static uz_result read_exact(uz_archive_reader *r, void *p, size_t n, uz_diag *diag, const char *what)
{
    size_t got = n ? fread(p, 1, n, r->f) : 0;
    r->offset += got;
    if (got != n) {
        if (ferror(r->f))
            return io_error(diag, r->name);
        return corrupt(diag, r->offset, what);
    }
    return UZ_OK;
}

/* Reads n bytes into buf, growing it as data arrives so that a corrupt size cannot make
 * us allocate more than the file holds plus one chunk. */
static uz_result read_into(uz_archive_reader *r, uz_buf *buf, uint64_t n, uz_diag *diag, const char *what)
{
    buf->size = 0;
    while (n) {
        size_t chunk = n < (1u << 20) ? (size_t)n : (1u << 20);
        if (uz_buf_reserve(buf, chunk) != UZ_OK) {
            uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
            return UZ_ERR_NOMEM;
        }
        uz_result res = read_exact(r, buf->data + buf->size, chunk, diag, what);
        if (res != UZ_OK)
            return res;
        buf->size += chunk;
        n -= chunk;
    }
    return UZ_OK;
}

/* A varint from the file; raw (optional) receives its bytes, for checksums. */
static uz_result read_varint(uz_archive_reader *r, uint64_t *v, uz_buf *raw, uz_diag *diag, const char *what)
{
    uint8_t bytes[10];
    for (int i = 0; i < 10; i++) {
        uz_result res = read_exact(r, &bytes[i], 1, diag, what);
        if (res != UZ_OK)
            return res;
        if (!(bytes[i] & 0x80)) {
            uz_cursor c = {bytes, bytes + i + 1};
            if (uz_cursor_varint(&c, v) != UZ_OK)
                return corrupt(diag, r->offset, what);
            if (raw && uz_buf_append(raw, bytes, i + 1) != UZ_OK) {
                uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
                return UZ_ERR_NOMEM;
            }
            return UZ_OK;
        }
    }
    return corrupt(diag, r->offset, what);
}

uz_result uz_archive_reader_open(uz_archive_reader **out, FILE *f, const char *name)
{
    uz_archive_reader *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return UZ_ERR_NOMEM;
    r->f = f;
    r->name = name;
    r->limits = uz_decode_limits_or_default(NULL);
    return UZ_OK;
}

void uz_archive_reader_close(uz_archive_reader *r)
{
    if (!r)
        return;
    free(r->blocks);
    uz_buf_free(&r->zbuf);
    free(r);
}

uint64_t uz_archive_reader_offset(const uz_archive_reader *r)
{
    return r->offset;
}

/* Parses the header after its first HEADER_START bytes (in fixed), reading the rest
 * from the stream: flags and a u32 length (version 2) or a varint length (version 3),
 * the body and its crc. */
static uz_result read_header_from(uz_archive_reader *r, const uint8_t fixed[HEADER_START], uz_archive_header *h,
                                  uz_diag *diag)
{
    uint64_t start = r->offset - HEADER_START;
    if (memcmp(fixed, header_magic, 8) != 0)
        return corrupt(diag, start, "not a ucizip archive (bad magic)");
    unsigned version = (unsigned)get_le(fixed + 8, 2);
    if (version < UZ_ARCHIVE_MIN_VERSION || version > UZ_ARCHIVE_VERSION) {
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0,
                    "archive format version %u is not supported (this ucizip reads versions %u to %u)", version,
                    UZ_ARCHIVE_MIN_VERSION, UZ_ARCHIVE_VERSION);
        return UZ_ERR_UNSUPPORTED;
    }
    uint64_t hlen;
    uz_result res;
    if (version == 2) {
        uint8_t rest[6];
        if ((res = read_exact(r, rest, 6, diag, "header")) != UZ_OK)
            return res;
        if (get_le(rest, 2) != 0)
            return corrupt(diag, start + 10, "unknown header flags");
        hlen = get_le(rest + 2, 4);
    } else if ((res = read_varint(r, &hlen, NULL, diag, "header")) != UZ_OK) {
        return res;
    }
    if (hlen > MAX_HEADER_BODY)
        return corrupt(diag, start + HEADER_START, "header too long");
    uz_buf body = {0};
    uint8_t crc[4];
    res = read_into(r, &body, hlen, diag, "header");
    if (res == UZ_OK)
        res = read_exact(r, crc, 4, diag, "header checksum");
    if (res == UZ_OK && uz_crc32(0, body.data, body.size) != get_le(crc, 4))
        res = corrupt(diag, start, "header checksum mismatch");
    const char *why = "malformed header fields";
    if (res == UZ_OK && uz__header_decode(body.data, body.size, version, h, &why) != UZ_OK)
        res = corrupt(diag, start, why);
    if (res == UZ_OK) {
        r->struct_version = h->struct_version;
        r->version = version;
    }
    uz_buf_free(&body);
    return res;
}

uz_result uz_archive_read_header(uz_archive_reader *r, uz_archive_header *header, uz_diag *diag)
{
    uint8_t fixed[HEADER_START];
    size_t got = fread(fixed, 1, HEADER_START, r->f);
    r->offset += got;
    if (got == 0 && !ferror(r->f) && r->offset > 0)
        return UZ_DONE; /* clean end after a complete member */
    if (got != HEADER_START) {
        if (ferror(r->f))
            return io_error(diag, r->name);
        return corrupt(diag, r->offset, got == 0 ? "empty file" : "truncated header");
    }
    r->member_start = r->offset - HEADER_START;
    r->n_blocks = 0;
    r->games = 0;
    uz_result res = read_header_from(r, fixed, header, diag);
    if (res == UZ_OK)
        r->in_member = true;
    return res;
}

/* The index's n entries (block offset, games, moves; both versions), kept in raw for the
 * checksum and checked against the blocks read. */
static uz_result read_index_entries(uz_archive_reader *r, uint64_t n, uz_buf *raw, uz_diag *diag)
{
    if (n != r->n_blocks)
        return corrupt(diag, r->offset, "index does not match the blocks");
    uz_result res = UZ_OK;
    uint64_t v[3];
    for (uint64_t i = 0; res == UZ_OK && i < n; i++) {
        for (int k = 0; k < 3 && res == UZ_OK; k++)
            res = read_varint(r, &v[k], raw, diag, "index");
        if (res == UZ_OK && (v[0] != r->blocks[i].offset || v[1] != r->blocks[i].games || v[2] != r->blocks[i].moves))
            res = corrupt(diag, r->offset, "index does not match the blocks");
    }
    return res;
}

static uz_result read_index_and_footer(uz_archive_reader *r, uz_diag *diag)
{
    uint64_t index_offset = r->offset - 4 - r->member_start;
    uz_buf raw = {0};
    uint64_t n;
    uz_result res = read_varint(r, &n, &raw, diag, "index");
    if (res == UZ_OK)
        res = read_index_entries(r, n, &raw, diag);
    uint8_t digest[8], crc[4], footer[UZ_ARCHIVE_FOOTER_SIZE];
    if (res == UZ_OK)
        res = read_exact(r, digest, 8, diag, "index");
    if (res == UZ_OK)
        res = uz_buf_append(&raw, digest, 8) == UZ_OK ? UZ_OK : UZ_ERR_NOMEM;
    if (res == UZ_OK && get_le(digest, 8) != uz__member_digest(r->blocks, r->n_blocks))
        res = corrupt(diag, r->offset, "the member's blocks do not match its digest (blocks swapped, duplicated or dropped)");
    if (res == UZ_OK)
        res = read_exact(r, crc, 4, diag, "index checksum");
    if (res == UZ_OK && get_le(crc, 4) != uz_crc32(0, raw.data, raw.size))
        res = corrupt(diag, r->offset, "index checksum mismatch");
    uz_buf_free(&raw);
    if (res == UZ_OK)
        res = read_exact(r, footer, sizeof footer, diag, "footer");
    if (res != UZ_OK)
        return res;
    if (memcmp(footer, footer_magic, 4) != 0 || get_le(footer + 28, 4) != uz_crc32(0, footer, 28) ||
        get_le(footer + 4, 8) != index_offset || get_le(footer + 12, 8) != r->offset - r->member_start ||
        get_le(footer + 20, 8) != r->games)
        return corrupt(diag, r->offset - UZ_ARCHIVE_FOOTER_SIZE, "bad footer");
    r->in_member = false;
    return UZ_DONE;
}

/* Version 3: the index after its tag, and the length that ends the member. */
static uz_result read_index_v3(uz_archive_reader *r, uz_diag *diag)
{
    uint64_t index_offset = r->offset - 1 - r->member_start, n, stored_offset;
    uz_buf raw = {0};
    static const uint8_t tag = INDEX_TAG;
    uz_result res = uz_buf_append(&raw, &tag, 1) == UZ_OK ? UZ_OK : UZ_ERR_NOMEM;
    if (res == UZ_OK)
        res = read_varint(r, &n, &raw, diag, "index");
    if (res == UZ_OK)
        res = read_index_entries(r, n, &raw, diag);
    uint8_t digest[8], crc[4];
    if (res == UZ_OK && n >= DIGEST_MIN_BLOCKS) {
        res = read_exact(r, digest, 8, diag, "index");
        if (res == UZ_OK)
            res = uz_buf_append(&raw, digest, 8) == UZ_OK ? UZ_OK : UZ_ERR_NOMEM;
        if (res == UZ_OK && get_le(digest, 8) != uz__member_digest(r->blocks, r->n_blocks))
            res = corrupt(diag, r->offset,
                          "the member's blocks do not match its digest (blocks swapped, duplicated or dropped)");
    }
    if (res == UZ_OK && (res = read_varint(r, &stored_offset, &raw, diag, "index")) == UZ_OK &&
        stored_offset != index_offset)
        res = corrupt(diag, r->offset, "index offset does not match the member");
    if (res == UZ_OK)
        res = read_exact(r, crc, 4, diag, "index checksum");
    if (res == UZ_OK && get_le(crc, 4) != uz_crc32(0, raw.data, raw.size))
        res = corrupt(diag, r->offset, "index checksum mismatch");
    uint8_t want[10], got[10];
    size_t len_size = reversed_varint(raw.size + 4, want);
    if (res == UZ_OK)
        res = read_exact(r, got, len_size, diag, "index length");
    if (res == UZ_OK && memcmp(got, want, len_size) != 0)
        res = corrupt(diag, r->offset - len_size, "index length does not match the index");
    if (res == UZ_ERR_NOMEM)
        uz_diag_set(diag, res, 0, 0, "out of memory");
    uz_buf_free(&raw);
    if (res != UZ_OK)
        return res;
    r->in_member = false;
    return UZ_DONE;
}

/* Reads a block's body (after its magic) at file offset start into block. */
static uz_result read_block_body(uz_archive_reader *r, uint64_t start, uz_archive_block *block, uz_diag *diag)
{
    uint64_t n_games, n_moves, method, raw_size, zsize, moves_size;
    uint8_t head_bytes[72];
    uz_buf head = {head_bytes, 0, sizeof head_bytes}; /* six varints and the digest fit: never reallocated */
    uz_result res;
    if ((res = read_varint(r, &n_games, &head, diag, "block header")) || (res = read_varint(r, &n_moves, &head, diag, "block header")) ||
        (res = read_varint(r, &method, &head, diag, "block header")) ||
        (res = read_varint(r, &raw_size, &head, diag, "block header")) ||
        (res = read_varint(r, &zsize, &head, diag, "block header")) || (res = read_varint(r, &moves_size, &head, diag, "block header")))
        return res;
    if (n_games == 0 || n_games > MAX_BLOCK_GAMES || raw_size > MAX_BLOCK_BYTES || zsize > MAX_BLOCK_BYTES ||
        moves_size > MAX_BLOCK_BYTES)
        return corrupt(diag, start, "impossible block sizes");
    /* Decoder limits, before anything is read into memory for the block. */
    uz_decode_limits lim = uz_decode_limits_or_default(&r->limits);
    if (raw_size > lim.block_struct_bytes || n_moves > lim.block_nodes) {
        uz_diag_set(diag, UZ_ERR_LIMIT, 0, 0,
                    "block at byte %llu needs %llu bytes of structure and %llu moves, over the decoder's limits "
                    "(%llu bytes, %llu moves)",
                    (unsigned long long)start, (unsigned long long)raw_size, (unsigned long long)n_moves,
                    (unsigned long long)lim.block_struct_bytes, (unsigned long long)lim.block_nodes);
        return UZ_ERR_LIMIT;
    }
    uint8_t crc[4], digest[8];
    if ((res = read_exact(r, digest, 8, diag, "block header")))
        return res;
    memcpy(head.data + head.size, digest, 8);
    head.size += 8;
    if ((res = read_exact(r, crc, 4, diag, "block checksum")) || (res = read_into(r, &r->zbuf, zsize, diag, "block")) ||
        (res = read_into(r, &block->moves, moves_size, diag, "block")))
        return res;
    uint32_t expect = uz_crc32(uz_crc32(uz_crc32(0, head.data, head.size), r->zbuf.data, r->zbuf.size), block->moves.data,
                               block->moves.size);
    if (expect != get_le(crc, 4))
        return corrupt(diag, start, "block checksum mismatch");
    res = uz__unpack((unsigned)method, r->zbuf.data, r->zbuf.size, &block->structure, (size_t)raw_size);
    if (res == UZ_ERR_NOMEM) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    if (res != UZ_OK)
        return corrupt(diag, start, "structure stream does not decompress");
    block->n_games = (size_t)n_games;
    block->tree_moves = n_moves;
    block->text_digest = get_le(digest, 8);
    block->struct_stored = zsize;
    block->struct_method = (unsigned)method;
    block->struct_version = r->struct_version;
    block->offset = start;
    block->stored_size = r->offset - start;
    return UZ_OK;
}

uz_result uz_archive_read_block(uz_archive_reader *r, uz_archive_block *block, uz_diag *diag)
{
    if (!r->in_member) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "no member header read");
        return UZ_ERR_ARG;
    }
    uint64_t start = r->offset;
    uint8_t magic[4];
    bool v2 = r->version == 2;
    uz_result res = read_exact(r, magic, v2 ? 4 : 1, diag, "block or index");
    if (res != UZ_OK)
        return res;
    if (v2 ? memcmp(magic, index_magic, 4) == 0 : magic[0] == INDEX_TAG)
        return v2 ? read_index_and_footer(r, diag) : read_index_v3(r, diag);
    if (v2 ? memcmp(magic, block_magic, 4) != 0 : magic[0] != BLOCK_TAG)
        return corrupt(diag, start, "expected a block or the index");
    res = read_block_body(r, start, block, diag);
    if (res != UZ_OK)
        return res;
    if (r->n_blocks == r->cap_blocks) {
        size_t cap = r->cap_blocks ? 2 * r->cap_blocks : 64;
        block_entry *b = realloc(r->blocks, cap * sizeof *b);
        if (!b) {
            uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
            return UZ_ERR_NOMEM;
        }
        r->blocks = b;
        r->cap_blocks = cap;
    }
    r->blocks[r->n_blocks++] = (block_entry){start - r->member_start, block->n_games, block->tree_moves, block->text_digest};
    r->games += block->n_games;
    return UZ_OK;
}

void uz_archive_block_free(uz_archive_block *b)
{
    if (!b)
        return;
    uz_buf_free(&b->structure);
    uz_buf_free(&b->moves);
    memset(b, 0, sizeof *b);
}

/* ---- random access ---- */

/* A member found from its footer: where it starts and its block list. */
typedef struct member_map {
    uint64_t start, length, games;
    block_entry *blocks;
    size_t n_blocks;
    unsigned version; /* 2 (found by its footer) or 3 */
} member_map;

static uz_result seek_to(FILE *f, uint64_t offset, uz_diag *diag, const char *name)
{
    if (fseeko(f, (off_t)offset, SEEK_SET) != 0)
        return io_error(diag, name);
    return UZ_OK;
}

/* Reads the member that ends at byte end: its footer and index. */
/* Version 3: the member that ends at byte end, from the index length at its end. */
static uz_result map_member_v3(FILE *f, const char *name, uint64_t end, member_map *m, uz_diag *diag)
{
    uint8_t tail[10];
    size_t tlen = end < sizeof tail ? (size_t)end : sizeof tail;
    uz_result res = seek_to(f, end - tlen, diag, name);
    if (res != UZ_OK)
        return res;
    if (fread(tail, 1, tlen, f) != tlen)
        return corrupt(diag, end, "truncated index length");
    /* The reversed varint: the last byte holds the low bits. */
    uint64_t index_len = 0;
    size_t len_size = 0;
    for (;;) {
        if (len_size == tlen || len_size == 10)
            return corrupt(diag, end, "no valid index at the end (truncated archive?)");
        uint8_t b = tail[tlen - 1 - len_size];
        index_len |= (uint64_t)(b & 0x7F) << (7 * len_size);
        len_size++;
        if (!(b & 0x80))
            break;
    }
    if (index_len < 7 || index_len > end - len_size)
        return corrupt(diag, end, "no valid index at the end (truncated archive?)");
    uint64_t index_start = end - len_size - index_len;
    uint8_t *buf = malloc((size_t)index_len);
    if (!buf) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    if ((res = seek_to(f, index_start, diag, name)) == UZ_OK && fread(buf, 1, (size_t)index_len, f) != index_len)
        res = corrupt(diag, index_start, "truncated index");
    if (res == UZ_OK && (buf[0] != INDEX_TAG || get_le(buf + index_len - 4, 4) != uz_crc32(0, buf, (size_t)index_len - 4)))
        res = corrupt(diag, index_start, "no valid index at the end (truncated archive?)");
    uz_cursor c = {buf + 1, buf + index_len - 4};
    uint64_t n = 0, index_offset = 0;
    if (res == UZ_OK && (uz_cursor_varint(&c, &n) != UZ_OK || n > MAX_BLOCKS || n > index_len))
        res = corrupt(diag, index_start, "index too long");
    if (res == UZ_OK && !(m->blocks = calloc(n ? n : 1, sizeof *m->blocks)))
        res = UZ_ERR_NOMEM;
    for (uint64_t i = 0; res == UZ_OK && i < n; i++) {
        block_entry *e = &m->blocks[i];
        if (uz_cursor_varint(&c, &e->offset) || uz_cursor_varint(&c, &e->games) || uz_cursor_varint(&c, &e->moves) ||
            e->games == 0 || e->games > MAX_BLOCK_GAMES || (i && e->offset <= m->blocks[i - 1].offset))
            res = corrupt(diag, index_start, "index entry out of range");
        m->games += res == UZ_OK ? e->games : 0;
        m->n_blocks = (size_t)i + 1;
    }
    if (res == UZ_OK && n >= DIGEST_MIN_BLOCKS)
        c.p = (size_t)(c.end - c.p) >= 8 ? c.p + 8 : c.end + 1; /* the digest: checked when the blocks are read */
    if (res == UZ_OK && (c.p > c.end || uz_cursor_varint(&c, &index_offset) != UZ_OK || c.p != c.end ||
                         index_offset > index_start || (n && m->blocks[n - 1].offset >= index_offset)))
        res = corrupt(diag, index_start, "index sizes out of range");
    free(buf);
    if (res == UZ_ERR_NOMEM)
        uz_diag_set(diag, res, 0, 0, "out of memory");
    if (res != UZ_OK) {
        free(m->blocks);
        m->blocks = NULL;
        return res;
    }
    m->version = 3;
    m->start = index_start - index_offset;
    m->length = end - m->start;
    return UZ_OK;
}

static uz_result map_member(FILE *f, const char *name, uint64_t end, member_map *m, uz_diag *diag)
{
    memset(m, 0, sizeof *m);
    uint8_t footer[UZ_ARCHIVE_FOOTER_SIZE];
    uz_result res;
    if (end < 16)
        return corrupt(diag, end, "too short for an archive");
    /* A version 2 member ends with its fixed footer; anything else is version 3. */
    bool v2 = false;
    if (end >= 16 + UZ_ARCHIVE_FOOTER_SIZE) {
        if ((res = seek_to(f, end - UZ_ARCHIVE_FOOTER_SIZE, diag, name)) != UZ_OK)
            return res;
        if (fread(footer, 1, sizeof footer, f) != sizeof footer)
            return corrupt(diag, end, "truncated footer");
        v2 = memcmp(footer, footer_magic, 4) == 0 && get_le(footer + 28, 4) == uz_crc32(0, footer, 28);
    }
    if (!v2)
        return map_member_v3(f, name, end, m, diag);
    m->version = 2;
    uint64_t index_offset = get_le(footer + 4, 8);
    m->length = get_le(footer + 12, 8);
    m->games = get_le(footer + 20, 8);
    if (m->length > end || index_offset + 4 + UZ_ARCHIVE_FOOTER_SIZE > m->length)
        return corrupt(diag, end - UZ_ARCHIVE_FOOTER_SIZE, "footer sizes out of range");
    m->start = end - m->length;
    uz_archive_reader rd = {.f = f, .name = name, .offset = m->start + index_offset};
    if ((res = seek_to(f, rd.offset, diag, name)) != UZ_OK)
        return res;
    uint8_t magic[4];
    if ((res = read_exact(&rd, magic, 4, diag, "index")) != UZ_OK)
        return res;
    if (memcmp(magic, index_magic, 4) != 0)
        return corrupt(diag, rd.offset - 4, "index expected");
    uz_buf raw = {0};
    uint64_t n, games = 0;
    res = read_varint(&rd, &n, &raw, diag, "index");
    if (res == UZ_OK && (n > MAX_BLOCKS || n > m->length))
        res = corrupt(diag, rd.offset, "index too long");
    if (res == UZ_OK && !(m->blocks = calloc(n ? n : 1, sizeof *m->blocks)))
        res = UZ_ERR_NOMEM;
    for (uint64_t i = 0; res == UZ_OK && i < n; i++) {
        res = read_varint(&rd, &m->blocks[i].offset, &raw, diag, "index");
        if (res == UZ_OK)
            res = read_varint(&rd, &m->blocks[i].games, &raw, diag, "index");
        if (res == UZ_OK)
            res = read_varint(&rd, &m->blocks[i].moves, &raw, diag, "index");
        if (res == UZ_OK && (m->blocks[i].offset >= index_offset || m->blocks[i].games == 0 ||
                             m->blocks[i].games > MAX_BLOCK_GAMES || (i && m->blocks[i].offset <= m->blocks[i - 1].offset)))
            res = corrupt(diag, rd.offset, "index entry out of range");
        games += res == UZ_OK ? m->blocks[i].games : 0;
        m->n_blocks = (size_t)i + 1;
    }
    uint8_t digest[8], crc[4];
    if (res == UZ_OK && (res = read_exact(&rd, digest, 8, diag, "index")) == UZ_OK)
        res = uz_buf_append(&raw, digest, 8) == UZ_OK ? UZ_OK : UZ_ERR_NOMEM;
    if (res == UZ_OK)
        res = read_exact(&rd, crc, 4, diag, "index checksum");
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

static uz_result file_size(FILE *f, const char *name, uint64_t *size, uz_diag *diag)
{
    if (fseeko(f, 0, SEEK_END) != 0)
        return io_error(diag, name);
    off_t end = ftello(f);
    if (end < 0)
        return io_error(diag, name);
    *size = (uint64_t)end;
    return UZ_OK;
}

/* Reads the header of the member starting at start. */
static uz_result read_member_header(FILE *f, const char *name, uint64_t start, unsigned version, uz_archive_header *h,
                                    uz_diag *diag)
{
    uz_result res = seek_to(f, start, diag, name);
    if (res != UZ_OK)
        return res;
    uz_archive_reader rd = {.f = f, .name = name, .offset = start};
    uint8_t fixed[HEADER_START];
    if ((res = read_exact(&rd, fixed, HEADER_START, diag, "header")) != UZ_OK)
        return res;
    if ((res = read_header_from(&rd, fixed, h, diag)) == UZ_OK && h->version != version)
        res = corrupt(diag, start, "the member's header and its end are of different format versions");
    return res;
}

uz_result uz_archive_list_members(FILE *f, const char *name, uz_archive_member_info *out, size_t cap, size_t *n,
                                  uz_diag *diag)
{
    uint64_t end;
    uz_result res = file_size(f, name, &end, diag);
    size_t count = 0;
    while (res == UZ_OK && end > 0) {
        member_map m;
        if ((res = map_member(f, name, end, &m, diag)) != UZ_OK)
            break;
        if (count < cap) {
            /* Shift to keep file order: members are found last first. */
            memmove(out + 1, out, (count < cap - 1 ? count : cap - 1) * sizeof *out);
            out[0].offset = m.start;
            out[0].length = m.length;
            out[0].games = m.games;
            out[0].blocks = m.n_blocks;
            out[0].moves = 0;
            for (size_t b = 0; b < m.n_blocks; b++)
                out[0].moves += m.blocks[b].moves;
            res = read_member_header(f, name, m.start, m.version, &out[0].header, diag);
        }
        count++;
        end = m.start;
        free(m.blocks);
    }
    *n = count;
    return res;
}

uz_result uz_archive_seek_game(FILE *f, const char *name, uint64_t game, uz_archive_header *header,
                               uz_archive_block *block, size_t *index_in_block, uz_diag *diag)
{
    uint64_t end, total = 0;
    uz_result res = file_size(f, name, &end, diag);
    if (res != UZ_OK)
        return res;
    /* First pass: count all games, since numbering starts with the first member. */
    uint64_t e = end;
    while (e > 0) {
        member_map m;
        if ((res = map_member(f, name, e, &m, diag)) != UZ_OK)
            return res;
        total += m.games;
        e = m.start;
        free(m.blocks);
    }
    if (game == 0 || game > total) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "the archive has %llu games; there is no game %llu",
                    (unsigned long long)total, (unsigned long long)game);
        return UZ_ERR_ARG;
    }
    /* Second pass: find the member holding the game, counting from the back. */
    uint64_t after = total; /* games in this member and the ones before it */
    e = end;
    for (;;) {
        member_map m;
        if ((res = map_member(f, name, e, &m, diag)) != UZ_OK)
            return res;
        uint64_t first = after - m.games + 1;
        if (game >= first) {
            uint64_t k = game - first;
            size_t b = 0;
            while (b < m.n_blocks && k >= m.blocks[b].games)
                k -= m.blocks[b++].games;
            res = read_member_header(f, name, m.start, m.version, header, diag);
            if (res == UZ_OK)
                res = seek_to(f, m.start + m.blocks[b].offset, diag, name);
            if (res == UZ_OK) {
                uz_archive_reader rd = {.f = f, .name = name, .offset = m.start + m.blocks[b].offset,
                                        .struct_version = header->struct_version};
                uint8_t magic[4];
                size_t mlen = m.version == 2 ? 4 : 1;
                res = read_exact(&rd, magic, mlen, diag, "block");
                if (res == UZ_OK && (m.version == 2 ? memcmp(magic, block_magic, 4) != 0 : magic[0] != BLOCK_TAG))
                    res = corrupt(diag, rd.offset - mlen, "block expected");
                if (res == UZ_OK)
                    res = read_block_body(&rd, rd.offset - mlen, block, diag);
                if (res == UZ_OK && block->n_games != m.blocks[b].games)
                    res = corrupt(diag, rd.offset, "block does not match the index");
                uz_buf_free(&rd.zbuf);
            }
            *index_in_block = (size_t)k;
            free(m.blocks);
            return res;
        }
        after -= m.games;
        e = m.start;
        free(m.blocks);
    }
}
