/* Writing a member of the .ucz container: header, blocks, index (doc/format.md). */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "archive_internal.h"

uint64_t uz__member_digest(const block_entry *blocks, size_t n)
{
    XXH64_state_t *st = XXH64_createState();
    uint64_t h = 0;
    if (!st)
        return 0;
    XXH64_reset(st, 0);
    for (size_t i = 0; i < n; i++) {
        uint8_t le[8];
        for (int k = 0; k < 8; k++)
            le[k] = (uint8_t)(blocks[i].text_digest >> (8 * k));
        XXH64_update(st, le, 8);
    }
    h = XXH64_digest(st);
    XXH64_freeState(st);
    return h;
}

struct uz_archive_writer {
    FILE *f;
    uint64_t written; /* bytes of this member so far */
    block_entry *blocks;
    size_t n_blocks, cap_blocks;
    uint64_t games;
    uz_buf scratch;
};

static uz_result write_bytes(uz_archive_writer *w, const void *p, size_t n, uz_diag *diag)
{
    if (n && fwrite(p, 1, n, w->f) != n)
        return io_error(diag, "write");
    w->written += n;
    return UZ_OK;
}

uz_result uz_archive_writer_open(uz_archive_writer **out, FILE *f, const uz_archive_header *header, uz_diag *diag)
{
    *out = NULL;
    uz_archive_writer *w = calloc(1, sizeof *w);
    uz_buf body = {0};
    uz_result r = UZ_ERR_NOMEM;
    if (!w)
        goto fail;
    w->f = f;
    /* A settings text that filled its field was cut on the way in: never store it cut. */
    if (strnlen(header->engine_settings_text, sizeof header->engine_settings_text) ==
        sizeof header->engine_settings_text) {
        uz_diag_set(diag, UZ_ERR_LIMIT, 0, 0, "the engine settings text is longer than the %zu bytes an archive header holds",
                    sizeof header->engine_settings_text - 1);
        r = UZ_ERR_LIMIT;
        goto fail;
    }
    if ((r = uz__header_encode(&body, header)) == UZ_ERR_ARG) {
        uz_diag_set(diag, r, 0, 0, "an engine fingerprint (%s, %s) is not 16 hexadecimal digits", header->fingerprint,
                    header->chess960_fingerprint);
        goto fail;
    }
    if (r != UZ_OK)
        goto fail;
    /* magic, version (u16), then the body's length as a varint */
    uz_buf fixed = {0};
    uint8_t version[2];
    put_le(version, UZ_ARCHIVE_VERSION, 2);
    if (uz_buf_append(&fixed, header_magic, 8) || uz_buf_append(&fixed, version, 2) ||
        uz_buf_put_varint(&fixed, body.size)) {
        uz_buf_free(&fixed);
        r = UZ_ERR_NOMEM;
        goto fail;
    }
    uint8_t crc[4];
    put_le(crc, uz_crc32(0, body.data, body.size), 4);
    r = write_bytes(w, fixed.data, fixed.size, diag);
    uz_buf_free(&fixed);
    if (r != UZ_OK || (r = write_bytes(w, body.data, body.size, diag)) != UZ_OK ||
        (r = write_bytes(w, crc, 4, diag)) != UZ_OK)
        goto fail;
    uz_buf_free(&body);
    *out = w;
    return UZ_OK;
fail:
    if (r == UZ_ERR_NOMEM)
        uz_diag_set(diag, r, 0, 0, "out of memory");
    uz_buf_free(&body);
    uz_archive_writer_abort(w);
    return r;
}

void uz_block_bytes_free(uz_block_bytes *b)
{
    uz_buf_free(&b->structure);
    uz_buf_free(&b->packed);
    uz_buf_free(&b->moves);
    memset(b, 0, sizeof *b);
}

uz_result uz_archive_write_block(uz_archive_writer *w, const uz_block_bytes *b, uz_diag *diag)
{
    uz_result r;
    size_t n_games = b->n_games;
    uint64_t n_moves = b->n_moves, text_digest = b->text_digest;
    const uint8_t *moves = b->moves.data;
    size_t moves_size = b->moves.size;
    if (n_games == 0 || n_games > MAX_BLOCK_GAMES) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "a block holds 1 to %u games", MAX_BLOCK_GAMES);
        return UZ_ERR_ARG;
    }
    if (w->n_blocks == w->cap_blocks) {
        size_t cap = w->cap_blocks ? 2 * w->cap_blocks : 64;
        block_entry *blocks = realloc(w->blocks, cap * sizeof *blocks);
        if (!blocks)
            goto nomem;
        w->blocks = blocks;
        w->cap_blocks = cap;
    }
    unsigned method = b->method;
    const uz_buf *packed = &b->packed;
    if (!packed->size) {
        if (uz__pack(b->structure.data, b->structure.size, &w->scratch, &method) != UZ_OK)
            goto nomem;
        packed = &w->scratch;
    }
    size_t zsize = packed->size;
    uz_buf head = {0};
    static const uint8_t tag = BLOCK_TAG;
    if (uz_buf_append(&head, &tag, 1) || uz_buf_put_varint(&head, n_games) ||
        uz_buf_put_varint(&head, n_moves) || uz_buf_put_varint(&head, method) ||
        uz_buf_put_varint(&head, b->structure.size) || uz_buf_put_varint(&head, zsize) ||
        uz_buf_put_varint(&head, moves_size) || uz_buf_reserve(&head, 8)) {
        uz_buf_free(&head);
        goto nomem;
    }
    put_le(head.data + head.size, text_digest, 8);
    head.size += 8;
    /* The crc covers the block's sizes too, so that no single damaged byte goes unseen. */
    uint32_t crc = uz_crc32(uz_crc32(uz_crc32(0, head.data + 1, head.size - 1), packed->data, zsize), moves, moves_size);
    uint8_t crc_bytes[4];
    put_le(crc_bytes, crc, 4);
    uint64_t offset = w->written;
    r = write_bytes(w, head.data, head.size, diag);
    uz_buf_free(&head);
    if (r == UZ_OK)
        r = write_bytes(w, crc_bytes, 4, diag);
    if (r == UZ_OK)
        r = write_bytes(w, packed->data, zsize, diag);
    if (r == UZ_OK)
        r = write_bytes(w, moves, moves_size, diag);
    if (r != UZ_OK)
        return r;
    w->blocks[w->n_blocks++] = (block_entry){offset, n_games, n_moves, text_digest};
    w->games += n_games;
    return UZ_OK;
nomem:
    uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
    return UZ_ERR_NOMEM;
}

uz_result uz_archive_writer_finish(uz_archive_writer *w, uz_diag *diag)
{
    uz_buf body = {0};
    uz_result r = UZ_ERR_NOMEM;
    uint64_t index_offset = w->written;
    static const uint8_t tag = INDEX_TAG;
    if (uz_buf_append(&body, &tag, 1) || uz_buf_put_varint(&body, w->n_blocks))
        goto out;
    for (size_t i = 0; i < w->n_blocks; i++)
        if (uz_buf_put_varint(&body, w->blocks[i].offset) || uz_buf_put_varint(&body, w->blocks[i].games) ||
            uz_buf_put_varint(&body, w->blocks[i].moves))
            goto out;
    if (w->n_blocks >= DIGEST_MIN_BLOCKS) {
        if (uz_buf_reserve(&body, 8))
            goto out;
        put_le(body.data + body.size, uz__member_digest(w->blocks, w->n_blocks), 8);
        body.size += 8;
    }
    if (uz_buf_put_varint(&body, index_offset) || uz_buf_reserve(&body, 4))
        goto out;
    put_le(body.data + body.size, uz_crc32(0, body.data, body.size), 4);
    body.size += 4;
    uint8_t len[10];
    size_t len_size = reversed_varint(body.size, len);
    if ((r = write_bytes(w, body.data, body.size, diag)) == UZ_OK)
        r = write_bytes(w, len, len_size, diag);
out:
    if (r == UZ_ERR_NOMEM)
        uz_diag_set(diag, r, 0, 0, "out of memory");
    uz_buf_free(&body);
    uz_archive_writer_abort(w);
    return r;
}

void uz_archive_writer_abort(uz_archive_writer *w)
{
    if (!w)
        return;
    free(w->blocks);
    uz_buf_free(&w->scratch);
    free(w);
}
