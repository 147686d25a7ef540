/* Reading the .ucz container: members in order, their blocks checked against the index,
 * and random access from the end of a seekable file (doc/format.md). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive_legacy_v2.h"
#include "archive_read_internal.h"

/* ---- sequential reader ---- */

void uz_archive_reader_set_limits(uz_archive_reader *r, const uz_decode_limits *limits)
{
    r->limits = uz_decode_limits_or_default(limits);
}

uz_result uz__reader_exact(uz_archive_reader *r, void *p, size_t n, uz_diag *diag, const char *what)
{
    size_t got = n ? fread(p, 1, n, r->f) : 0;
    r->offset += got;
    if (got != n) {
        if (ferror(r->f))
            return io_error(diag, "read");
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
        uz_result res = uz__reader_exact(r, buf->data + buf->size, chunk, diag, what);
        if (res != UZ_OK)
            return res;
        buf->size += chunk;
        n -= chunk;
    }
    return UZ_OK;
}

uz_result uz__reader_varint(uz_archive_reader *r, uint64_t *v, uz_buf *raw, uz_diag *diag, const char *what)
{
    uint8_t bytes[10];
    for (int i = 0; i < 10; i++) {
        uz_result res = uz__reader_exact(r, &bytes[i], 1, diag, what);
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
 * from the stream: the body's length (a varint), the body and its crc. */
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
    uz_result res = version == 2 ? uz__v2_header_length(r, start, &hlen, diag)
                                 : uz__reader_varint(r, &hlen, NULL, diag, "header");
    if (res != UZ_OK)
        return res;
    if (hlen > MAX_HEADER_BODY)
        return corrupt(diag, start + HEADER_START, "header too long");
    uz_buf body = {0};
    uint8_t crc[4];
    res = read_into(r, &body, hlen, diag, "header");
    if (res == UZ_OK)
        res = uz__reader_exact(r, crc, 4, diag, "header checksum");
    if (res == UZ_OK && uz_crc32(0, body.data, body.size) != get_le(crc, 4))
        res = corrupt(diag, start, "header checksum mismatch");
    const char *why = "malformed header fields";
    if (res == UZ_OK && uz__header_decode(body.data, body.size, version, h, &why) != UZ_OK)
        res = corrupt(diag, start, why);
    if (res == UZ_OK) {
        r->struct_version = h->struct_version;
        r->tag_version = h->tag_version;
        r->comment_revision = h->comment_revision;
        r->engine_revision = h->engine_revision;
        r->comment_text = h->comment_text;
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
            return io_error(diag, "read");
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

uz_result uz__reader_index_entries(uz_archive_reader *r, uint64_t n, uz_buf *raw, uz_diag *diag)
{
    if (n != r->n_blocks)
        return corrupt(diag, r->offset, "index does not match the blocks");
    uz_result res = UZ_OK;
    uint64_t v[3];
    for (uint64_t i = 0; res == UZ_OK && i < n; i++) {
        for (int k = 0; k < 3 && res == UZ_OK; k++)
            res = uz__reader_varint(r, &v[k], raw, diag, "index");
        if (res == UZ_OK && (v[0] != r->blocks[i].offset || v[1] != r->blocks[i].games || v[2] != r->blocks[i].moves))
            res = corrupt(diag, r->offset, "index does not match the blocks");
    }
    return res;
}

/* The index after its tag, and the length that ends the member. */
static uz_result read_index(uz_archive_reader *r, uz_diag *diag)
{
    uint64_t index_offset = r->offset - 1 - r->member_start, n, stored_offset;
    uz_buf raw = {0};
    static const uint8_t tag = INDEX_TAG;
    uz_result res = uz_buf_append(&raw, &tag, 1) == UZ_OK ? UZ_OK : UZ_ERR_NOMEM;
    if (res == UZ_OK)
        res = uz__reader_varint(r, &n, &raw, diag, "index");
    if (res == UZ_OK)
        res = uz__reader_index_entries(r, n, &raw, diag);
    uint8_t digest[8], crc[4];
    if (res == UZ_OK && n >= DIGEST_MIN_BLOCKS) {
        res = uz__reader_exact(r, digest, 8, diag, "index");
        if (res == UZ_OK)
            res = uz_buf_append(&raw, digest, 8) == UZ_OK ? UZ_OK : UZ_ERR_NOMEM;
        if (res == UZ_OK && get_le(digest, 8) != uz__member_digest(r->blocks, r->n_blocks))
            res = corrupt(diag, r->offset,
                          "the member's blocks do not match its digest (blocks swapped, duplicated or dropped)");
    }
    if (res == UZ_OK && (res = uz__reader_varint(r, &stored_offset, &raw, diag, "index")) == UZ_OK &&
        stored_offset != index_offset)
        res = corrupt(diag, r->offset, "index offset does not match the member");
    if (res == UZ_OK)
        res = uz__reader_exact(r, crc, 4, diag, "index checksum");
    if (res == UZ_OK && get_le(crc, 4) != uz_crc32(0, raw.data, raw.size))
        res = corrupt(diag, r->offset, "index checksum mismatch");
    uint8_t want[10], got[10];
    size_t len_size = reversed_varint(raw.size + 4, want);
    if (res == UZ_OK)
        res = uz__reader_exact(r, got, len_size, diag, "index length");
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

/* The tag that starts a block or the index (version 2: a magic, as the same tag). */
static uz_result read_tag(uz_archive_reader *r, uint8_t *tag, uz_diag *diag, const char *what)
{
    return r->version == 2 ? uz__v2_read_tag(r, tag, diag, what) : uz__reader_exact(r, tag, 1, diag, what);
}

/* Reads a block's body (after its tag) at file offset start into block. */
static uz_result read_block_body(uz_archive_reader *r, uint64_t start, uz_archive_block *block, uz_diag *diag)
{
    uint64_t n_games, n_moves, method, raw_size, zsize, moves_size;
    uint8_t head_bytes[72];
    uz_buf head = {head_bytes, 0, sizeof head_bytes}; /* six varints and the digest fit: never reallocated */
    uz_result res;
    if ((res = uz__reader_varint(r, &n_games, &head, diag, "block header")) || (res = uz__reader_varint(r, &n_moves, &head, diag, "block header")) ||
        (res = uz__reader_varint(r, &method, &head, diag, "block header")) ||
        (res = uz__reader_varint(r, &raw_size, &head, diag, "block header")) ||
        (res = uz__reader_varint(r, &zsize, &head, diag, "block header")) || (res = uz__reader_varint(r, &moves_size, &head, diag, "block header")))
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
    if ((res = uz__reader_exact(r, digest, 8, diag, "block header")))
        return res;
    memcpy(head.data + head.size, digest, 8);
    head.size += 8;
    if ((res = uz__reader_exact(r, crc, 4, diag, "block checksum")) || (res = read_into(r, &r->zbuf, zsize, diag, "block")) ||
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
    block->tag_version = r->tag_version;
    block->comment_revision = r->comment_revision;
    block->engine_revision = r->engine_revision;
    block->comment_text = r->comment_text;
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
    uint8_t tag;
    uz_result res = read_tag(r, &tag, diag, "block or index");
    if (res != UZ_OK)
        return res;
    if (tag == INDEX_TAG)
        return r->version == 2 ? uz__v2_read_index(r, diag) : read_index(r, diag);
    if (tag != BLOCK_TAG)
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

uz_result uz__seek_to(FILE *f, uint64_t offset, uz_diag *diag, const char *name)
{
    (void)name;
    if (fseeko(f, (off_t)offset, SEEK_SET) != 0)
        return io_error(diag, "seek");
    return UZ_OK;
}

/* The member that ends at byte end, from the index length at its end. */
static uz_result map_member_v3(FILE *f, const char *name, uint64_t end, member_map *m, uz_diag *diag)
{
    uint8_t tail[10];
    size_t tlen = end < sizeof tail ? (size_t)end : sizeof tail;
    uz_result res = uz__seek_to(f, end - tlen, diag, name);
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
    if ((res = uz__seek_to(f, index_start, diag, name)) == UZ_OK && fread(buf, 1, (size_t)index_len, f) != index_len)
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

/* The member that ends at byte end: a version 2 member by its footer, else version 3. */
static uz_result map_member(FILE *f, const char *name, uint64_t end, member_map *m, uz_diag *diag)
{
    memset(m, 0, sizeof *m);
    if (end < 16)
        return corrupt(diag, end, "too short for an archive");
    bool v2;
    uz_result res = uz__v2_member_at(f, name, end, &v2, diag);
    if (res != UZ_OK)
        return res;
    return v2 ? uz__v2_map_member(f, name, end, m, diag) : map_member_v3(f, name, end, m, diag);
}

static uz_result file_size(FILE *f, const char *name, uint64_t *size, uz_diag *diag)
{
    (void)name;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) { /* (seeks "work" there) */
        errno = EISDIR;
        return io_error(diag, "read");
    }
    if (fseeko(f, 0, SEEK_END) != 0)
        return io_error(diag, "seek");
    off_t end = ftello(f);
    if (end < 0)
        return io_error(diag, "seek");
    *size = (uint64_t)end;
    return UZ_OK;
}

/* Reads the header of the member starting at start. */
static uz_result read_member_header(FILE *f, const char *name, uint64_t start, unsigned version, uz_archive_header *h,
                                    uz_diag *diag)
{
    uz_result res = uz__seek_to(f, start, diag, name);
    if (res != UZ_OK)
        return res;
    uz_archive_reader rd = {.f = f, .name = name, .offset = start};
    uint8_t fixed[HEADER_START];
    if ((res = uz__reader_exact(&rd, fixed, HEADER_START, diag, "header")) != UZ_OK)
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

/* Reads the block b of member m (whose header is header) into block, checking its game
 * count against the index. */
static uz_result read_block_at(FILE *f, const char *name, const member_map *m, const uz_archive_header *header,
                               size_t b, uz_archive_block *block, uz_diag *diag)
{
    uz_result res = uz__seek_to(f, m->start + m->blocks[b].offset, diag, name);
    if (res != UZ_OK)
        return res;
    uz_archive_reader rd = {.f = f, .name = name, .offset = m->start + m->blocks[b].offset,
                            .struct_version = header->struct_version, .tag_version = header->tag_version,
                            .comment_revision = header->comment_revision, .comment_text = header->comment_text,
                            .engine_revision = header->engine_revision, .version = m->version};
    uint8_t tag;
    uint64_t start = rd.offset;
    res = read_tag(&rd, &tag, diag, "block");
    if (res == UZ_OK && tag != BLOCK_TAG)
        res = corrupt(diag, start, "block expected");
    if (res == UZ_OK)
        res = read_block_body(&rd, start, block, diag);
    if (res == UZ_OK && block->n_games != m->blocks[b].games)
        res = corrupt(diag, rd.offset, "block does not match the index");
    uz_buf_free(&rd.zbuf);
    return res;
}

uz_result uz_archive_seek_game(FILE *f, const char *name, uint64_t game, uz_archive_header *header,
                               uz_archive_block *block, size_t *index_in_block, const uz_archive_block_check *check,
                               uz_diag *diag)
{
    uint64_t end, total = 0;
    uz_result res = file_size(f, name, &end, diag);
    if (res != UZ_OK)
        return res;
    /* First pass: map every member (last first), since numbering starts with the first. */
    member_map *maps = NULL;
    size_t n_maps = 0, cap = 0;
    for (uint64_t e = end; res == UZ_OK && e > 0;) {
        if (n_maps == cap) {
            member_map *grown = realloc(maps, (cap = cap ? 2 * cap : 8) * sizeof *maps);
            if (!grown) {
                uz_diag_set(diag, res = UZ_ERR_NOMEM, 0, 0, "out of memory");
                break;
            }
            maps = grown;
        }
        if ((res = map_member(f, name, e, &maps[n_maps], diag)) != UZ_OK)
            break;
        total += maps[n_maps].games;
        e = maps[n_maps++].start;
    }
    if (res == UZ_OK && (game == 0 || game > total)) {
        uz_diag_set(diag, res = UZ_ERR_ARG, 0, 0, "the archive has %llu games; there is no game %llu",
                    (unsigned long long)total, (unsigned long long)game);
    }
    /* Second pass, in file order: the blocks before the game's are counted by the index;
     * check (when given) confirms each count from the block itself, so that a count
     * raised or lowered behind a rebuilt index cannot make another game this one. */
    uint64_t k = game - 1;
    for (size_t i = n_maps; res == UZ_OK && i-- > 0;) {
        const member_map *m = &maps[i];
        bool here = k < m->games;
        if (!here && !check) {
            k -= m->games;
            continue;
        }
        if ((res = read_member_header(f, name, m->start, m->version, header, diag)) != UZ_OK)
            break;
        size_t b = 0;
        for (; res == UZ_OK && b < m->n_blocks && k >= m->blocks[b].games; b++) {
            k -= m->blocks[b].games;
            if (check && (res = read_block_at(f, name, m, header, b, block, diag)) == UZ_OK)
                res = check->fn(check->user, header, block, diag);
        }
        if (res == UZ_OK && here && b == m->n_blocks)
            res = corrupt(diag, m->start, "the index counts more games than its blocks");
        if (res == UZ_OK && here) {
            res = read_block_at(f, name, m, header, b, block, diag);
            *index_in_block = (size_t)k;
            break;
        }
    }
    for (size_t i = 0; i < n_maps; i++)
        free(maps[i].blocks);
    free(maps);
    return res;
}
