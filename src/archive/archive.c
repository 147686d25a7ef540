/* The .ucz container: member header, blocks, index and footer (doc/format.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "archive_internal.h"

static const uint8_t header_magic[8] = {0x89, 'U', 'C', 'Z', '\r', '\n', 0x1A, '\n'};
/* Version 2 starts blocks and the index with these; version 3 with one byte. */
static const uint8_t block_magic[4] = {'U', 'C', 'Z', 'B'};
static const uint8_t index_magic[4] = {'U', 'C', 'Z', 'I'};
static const uint8_t footer_magic[4] = {'U', 'C', 'Z', 'F'};
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

/* Version 3 leaves out keys 10, 11 and 13 when they hold these values. */
#define DEFAULT_CODER 2               /* range */
#define DEFAULT_STRUCT_VERSION_V3 1   /* a version 3 member without key 13 */

enum header_key {
    KEY_ENGINE_NAME = 1,
    KEY_FINGERPRINT = 2,
    KEY_DEPTH = 3,
    KEY_NODES = 4,
    KEY_MODE = 5,
    KEY_HASH = 6,
    KEY_THREADS = 7,
    KEY_ENGINE_SETTINGS_TEXT = 8,
    KEY_MODEL = 9,
    KEY_CODER = 10,
    KEY_BLOCK_GAMES = 11,
    KEY_CHESS960_FINGERPRINT = 12, /* optional: Chess960 games are engine-coded */
    KEY_STRUCT_VERSION = 13,       /* optional: the structure stream's layout, absent = 0 */
    KEY_OPENING = 14,              /* optional: opening counts (alpha16, plies), absent = none */
    KEY_FIRST_INFORMATIONAL = 64,
    KEY_SETTINGS_SUMMARY = 64,
    KEY_CREATED_BY = 65,
};

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static uz_result corrupt(uz_diag *diag, uint64_t offset, const char *what)
{
    uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "corrupt or truncated archive at byte %llu: %s",
                (unsigned long long)offset, what);
    return UZ_ERR_CORRUPT;
}

static uz_result io_error(uz_diag *diag, const char *what)
{
    uz_diag_set(diag, UZ_ERR_IO, 0, 0, "%s: %s", what, strerror(errno));
    return UZ_ERR_IO;
}

/* ---- header body ---- */

static uz_result put_field_str(uz_buf *b, unsigned key, const char *s)
{
    uz_result r = uz_buf_put_varint(b, key);
    return r ? r : uz_buf_put_string(b, s, strlen(s));
}

static uz_result put_field_uints(uz_buf *b, unsigned key, const uint64_t *v, int n)
{
    uz_buf tmp = {0};
    uz_result r = UZ_OK;
    for (int i = 0; i < n && r == UZ_OK; i++)
        r = uz_buf_put_varint(&tmp, v[i]);
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, key);
    if (r == UZ_OK)
        r = uz_buf_put_string(b, (const char *)tmp.data, tmp.size);
    uz_buf_free(&tmp);
    return r;
}

/* The fingerprint's 16 hex digits as the 8 bytes version 3 stores (big-endian: the
 * digits in order); UZ_ERR_ARG if it is not 16 lowercase hex digits. */
static uz_result fingerprint_to_bytes(const char *hex, uint8_t out[8])
{
    if (strlen(hex) != 16)
        return UZ_ERR_ARG;
    for (int i = 0; i < 16; i++) {
        char c = hex[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return UZ_ERR_ARG;
        out[i / 2] = (uint8_t)(i % 2 ? (out[i / 2] << 4) | d : d);
    }
    return UZ_OK;
}

static void fingerprint_from_bytes(const uint8_t *b, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 8; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[16] = '\0';
}

static uz_result put_field_fingerprint(uz_buf *b, unsigned key, const char *hex)
{
    uint8_t raw[8];
    uz_result r = fingerprint_to_bytes(hex, raw);
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, key);
    return r ? r : uz_buf_put_string(b, (const char *)raw, 8);
}

/* The header body of format version 3 (doc/format.md, "Header"): only what decoding
 * needs, with the writer's usual values left out (they are the reader's defaults). */
static uz_result header_encode(uz_buf *b, const uz_archive_header *h)
{
    uz_result r = UZ_OK;
#define U1(key, v)                                      \
    do {                                                \
        uint64_t one_ = (v);                            \
        if (r == UZ_OK)                                 \
            r = put_field_uints(b, key, &one_, 1);      \
    } while (0)
#define S1(key, s)                                      \
    do {                                                \
        if (r == UZ_OK)                                 \
            r = put_field_str(b, key, s);               \
    } while (0)
    S1(KEY_ENGINE_NAME, h->engine_name);
    if (r == UZ_OK)
        r = put_field_fingerprint(b, KEY_FINGERPRINT, h->fingerprint);
    if (!h->settings_from_profile) {
        U1(KEY_DEPTH, h->depth);
        U1(KEY_NODES, h->nodes);
        U1(KEY_MODE, h->mode);
        U1(KEY_HASH, h->hash_mb);
        U1(KEY_THREADS, h->threads);
        S1(KEY_ENGINE_SETTINGS_TEXT, h->engine_settings_text);
    }
    uint64_t model[1 + UZ_ARCHIVE_MAX_MODEL_PARAMS] = {h->model_kind};
    for (uint32_t i = 0; i < h->n_model_params && i < UZ_ARCHIVE_MAX_MODEL_PARAMS; i++)
        model[1 + i] = h->model_params[i];
    if (r == UZ_OK)
        r = put_field_uints(b, KEY_MODEL, model, 1 + (int)h->n_model_params);
    if (h->coder != DEFAULT_CODER)
        U1(KEY_CODER, h->coder);
    if (h->block_games != UZ_ARCHIVE_BLOCK_GAMES)
        U1(KEY_BLOCK_GAMES, h->block_games);
    if (h->chess960_fingerprint[0] && r == UZ_OK)
        r = put_field_fingerprint(b, KEY_CHESS960_FINGERPRINT, h->chess960_fingerprint);
    if (h->struct_version != DEFAULT_STRUCT_VERSION_V3)
        U1(KEY_STRUCT_VERSION, h->struct_version);
    if (h->opening_plies && r == UZ_OK) {
        uint64_t opening[2] = {h->opening_alpha16, h->opening_plies};
        r = put_field_uints(b, KEY_OPENING, opening, 2);
    }
#undef U1
#undef S1
    return r;
}

/* The one-line summary of a version 3 header, which does not store it. */
static void header_summary(uz_archive_header *h)
{
    static const char *const modes[] = {"multipv", "searchmoves", "permove"};
    if (h->settings_from_profile) {
        snprintf(h->settings_summary, sizeof h->settings_summary, "%s" UZ_PROFILE_SUMMARY_SUFFIX, h->engine_name);
        return;
    }
    int n = snprintf(h->settings_summary, sizeof h->settings_summary, "%s; depth %u", h->engine_name, h->depth);
    if (h->nodes && n >= 0 && (size_t)n < sizeof h->settings_summary)
        n += snprintf(h->settings_summary + n, sizeof h->settings_summary - (size_t)n, "; nodes %llu",
                      (unsigned long long)h->nodes);
    if (n >= 0 && (size_t)n < sizeof h->settings_summary)
        snprintf(h->settings_summary + n, sizeof h->settings_summary - (size_t)n, "; %s; Hash %u; Threads %u",
                 modes[h->mode <= 2 ? h->mode : 0], h->hash_mb, h->threads);
}

static uz_result copy_text(char *dst, size_t cap, const uint8_t *s, size_t n)
{
    if (n >= cap || memchr(s, 0, n))
        return UZ_ERR_CORRUPT;
    memcpy(dst, s, n);
    dst[n] = 0;
    return UZ_OK;
}

static uz_result read_uints(const uint8_t *s, size_t n, uint64_t *v, int count, uint64_t max)
{
    uz_cursor c = {s, s + n};
    for (int i = 0; i < count; i++)
        if (uz_cursor_varint(&c, &v[i]) != UZ_OK || v[i] > max)
            return UZ_ERR_CORRUPT;
    return c.p == c.end ? UZ_OK : UZ_ERR_CORRUPT;
}

/* *why is set when a field is refused for a reason worth naming (else "malformed header fields"). */
static uz_result header_decode(const uint8_t *body, size_t size, unsigned version, uz_archive_header *h,
                                const char **why)
{
    if (size == 0)
        return UZ_ERR_CORRUPT; /* (and body may be NULL) */
    uz_cursor c = {body, body + size};
    uint64_t last_key = 0;
    unsigned seen = 0;
    bool v3 = version >= 3;
    memset(h, 0, sizeof *h);
    h->version = (uint16_t)version;
    while (c.p < c.end) {
        uint64_t key, v[1];
        const uint8_t *s;
        size_t n;
        if (uz_cursor_varint(&c, &key) != UZ_OK || key <= last_key || uz_cursor_string(&c, size, &s, &n) != UZ_OK)
            return UZ_ERR_CORRUPT;
        last_key = key;
        uz_result r = UZ_OK;
        switch (key) {
        case KEY_ENGINE_NAME: r = copy_text(h->engine_name, sizeof h->engine_name, s, n); break;
        case KEY_FINGERPRINT:
            if (v3 && n == 8)
                fingerprint_from_bytes(s, h->fingerprint);
            else
                r = v3 ? UZ_ERR_CORRUPT : copy_text(h->fingerprint, sizeof h->fingerprint, s, n);
            break;
        case KEY_DEPTH: r = read_uints(s, n, v, 1, 1000); h->depth = (uint32_t)v[0]; break;
        case KEY_NODES: r = read_uints(s, n, v, 1, UINT64_MAX); h->nodes = v[0]; break;
        case KEY_MODE: r = read_uints(s, n, v, 1, 2); h->mode = (uint32_t)v[0]; break; /* 2: permove */
        case KEY_HASH: r = read_uints(s, n, v, 1, UINT32_MAX); h->hash_mb = (uint32_t)v[0]; break;
        case KEY_THREADS: r = read_uints(s, n, v, 1, UINT32_MAX); h->threads = (uint32_t)v[0]; break;
        case KEY_ENGINE_SETTINGS_TEXT:
            if (n >= sizeof h->engine_settings_text)
                *why = "engine settings text of " TEXT_OF(UZ_LIMIT_SETTINGS_TEXT) " bytes or more";
            r = copy_text(h->engine_settings_text, sizeof h->engine_settings_text, s, n);
            break;
        case KEY_MODEL: {
            /* The kind, then as many parameters as the field holds (the model checks). */
            uz_cursor mc = {s, s + n};
            uint64_t x;
            h->n_model_params = 0;
            r = uz_cursor_varint(&mc, &x) == UZ_OK && x <= UINT32_MAX ? UZ_OK : UZ_ERR_CORRUPT;
            h->model_kind = (uint32_t)x;
            while (r == UZ_OK && mc.p < mc.end) {
                if (h->n_model_params == UZ_ARCHIVE_MAX_MODEL_PARAMS || uz_cursor_varint(&mc, &x) != UZ_OK ||
                    x > UINT32_MAX)
                    r = UZ_ERR_CORRUPT;
                else
                    h->model_params[h->n_model_params++] = (uint32_t)x;
            }
            break;
        }
        case KEY_CODER: r = read_uints(s, n, v, 1, 255); h->coder = (uint32_t)v[0]; break;
        case KEY_BLOCK_GAMES: r = read_uints(s, n, v, 1, MAX_BLOCK_GAMES); h->block_games = (uint32_t)v[0]; break;
        case KEY_CHESS960_FINGERPRINT:
            if (v3 && n == 8)
                fingerprint_from_bytes(s, h->chess960_fingerprint);
            else
                r = n && !v3 ? copy_text(h->chess960_fingerprint, sizeof h->chess960_fingerprint, s, n) : UZ_ERR_CORRUPT;
            break;
        case KEY_STRUCT_VERSION:
            r = read_uints(s, n, v, 1, UINT32_MAX);
            if (r == UZ_OK && v[0] > UZ_STRUCT_VERSION) {
                *why = "structure layout from a newer ucizip";
                r = UZ_ERR_CORRUPT;
            }
            if (r == UZ_OK && v[0] == 0 && !v3)
                r = UZ_ERR_CORRUPT; /* version 2 writes it only when not 0 (version 3: not 1) */
            h->struct_version = (uint32_t)v[0];
            break;
        case KEY_OPENING: {
            uint64_t o[2];
            r = read_uints(s, n, o, 2, 65536);
            if (r == UZ_OK && (o[0] == 0 || o[1] == 0 || o[1] > 1024))
                r = UZ_ERR_CORRUPT; /* alpha 1..65536 sixteenths, plies 1..1024 */
            h->opening_alpha16 = (uint32_t)o[0];
            h->opening_plies = (uint32_t)o[1];
            break;
        }
        case KEY_SETTINGS_SUMMARY: r = copy_text(h->settings_summary, sizeof h->settings_summary, s, n); break;
        case KEY_CREATED_BY: r = copy_text(h->created_by, sizeof h->created_by, s, n); break;
        default:
            if (key < KEY_FIRST_INFORMATIONAL)
                return UZ_ERR_CORRUPT; /* a field that matters for decoding, which we don't know */
        }
        if (r != UZ_OK)
            return r;
        if (key < 32)
            seen |= 1u << key;
    }
    /* Every decoding field must be present. Version 3: keys 3 to 8 all or none (none: the
     * profile's default settings); keys 10, 11 and 13 take their defaults when absent. */
    unsigned needed = 0, settings = 0;
    for (unsigned k = KEY_ENGINE_NAME; k <= KEY_BLOCK_GAMES; k++)
        needed |= 1u << k;
    for (unsigned k = KEY_DEPTH; k <= KEY_ENGINE_SETTINGS_TEXT; k++)
        settings |= 1u << k;
    if (v3) {
        needed = 1u << KEY_ENGINE_NAME | 1u << KEY_FINGERPRINT | 1u << KEY_MODEL;
        if ((seen & settings) != settings && (seen & settings) != 0)
            return UZ_ERR_CORRUPT;
        h->settings_from_profile = (seen & settings) == 0;
        if (!(seen & 1u << KEY_CODER))
            h->coder = DEFAULT_CODER;
        if (!(seen & 1u << KEY_BLOCK_GAMES))
            h->block_games = UZ_ARCHIVE_BLOCK_GAMES;
        if (!(seen & 1u << KEY_STRUCT_VERSION))
            h->struct_version = DEFAULT_STRUCT_VERSION_V3;
        if (!h->settings_summary[0])
            header_summary(h);
    }
    return (seen & needed) == needed ? UZ_OK : UZ_ERR_CORRUPT;
}

/* ---- writer ---- */

typedef struct block_entry {
    uint64_t offset;
    uint64_t games;
    uint64_t moves;
    uint64_t text_digest; /* XXH64 of the block's original text */
} block_entry;

/* The member digest: XXH64 of the blocks' text digests (little-endian u64 each) in order,
 * so a block swapped, duplicated or dropped shows even with a rebuilt index. */
static uint64_t member_digest(const block_entry *blocks, size_t n)
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
    if ((r = header_encode(&body, header)) == UZ_ERR_ARG) {
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

uz_result uz_archive_write_block(uz_archive_writer *w, size_t n_games, uint64_t n_moves, uint64_t text_digest,
                                 const uz_buf *structure, const uint8_t *moves, size_t moves_size, uz_diag *diag)
{
    uz_result r;
    if (n_games == 0 || n_games > MAX_BLOCK_GAMES) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "a block holds 1 to %u games", MAX_BLOCK_GAMES);
        return UZ_ERR_ARG;
    }
    if (w->n_blocks == w->cap_blocks) {
        size_t cap = w->cap_blocks ? 2 * w->cap_blocks : 64;
        block_entry *b = realloc(w->blocks, cap * sizeof *b);
        if (!b)
            goto nomem;
        w->blocks = b;
        w->cap_blocks = cap;
    }
    unsigned method;
    if (uz__pack(structure->data, structure->size, &w->scratch, &method) != UZ_OK)
        goto nomem;
    size_t zsize = w->scratch.size;
    uz_buf head = {0};
    static const uint8_t tag = BLOCK_TAG;
    if (uz_buf_append(&head, &tag, 1) || uz_buf_put_varint(&head, n_games) ||
        uz_buf_put_varint(&head, n_moves) || uz_buf_put_varint(&head, method) ||
        uz_buf_put_varint(&head, structure->size) || uz_buf_put_varint(&head, zsize) ||
        uz_buf_put_varint(&head, moves_size) || uz_buf_reserve(&head, 8)) {
        uz_buf_free(&head);
        goto nomem;
    }
    put_le(head.data + head.size, text_digest, 8);
    head.size += 8;
    /* The crc covers the block's sizes too, so that no single damaged byte goes unseen. */
    uint32_t crc = uz_crc32(uz_crc32(uz_crc32(0, head.data + 1, head.size - 1), w->scratch.data, zsize), moves, moves_size);
    uint8_t crc_bytes[4];
    put_le(crc_bytes, crc, 4);
    uint64_t offset = w->written;
    r = write_bytes(w, head.data, head.size, diag);
    uz_buf_free(&head);
    if (r == UZ_OK)
        r = write_bytes(w, crc_bytes, 4, diag);
    if (r == UZ_OK)
        r = write_bytes(w, w->scratch.data, zsize, diag);
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

/* Version 3's index length at the very end of a member: a varint with its bytes in
 * reverse order, so that a reader coming from the end meets the low bits first. */
static size_t reversed_varint(uint64_t v, uint8_t out[10])
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
        put_le(body.data + body.size, member_digest(w->blocks, w->n_blocks), 8);
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

#define HEADER_START 10 /* magic and version: the bytes every version begins with */

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
    if (res == UZ_OK && header_decode(body.data, body.size, version, h, &why) != UZ_OK)
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
    if (res == UZ_OK && get_le(digest, 8) != member_digest(r->blocks, r->n_blocks))
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
        if (res == UZ_OK && get_le(digest, 8) != member_digest(r->blocks, r->n_blocks))
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
