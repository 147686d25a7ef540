/* The member header's body (doc/format.md, "Header"): keyed fields, version 2's and 3's. */
#include <stdio.h>
#include <string.h>

#include "archive_internal.h"

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
    KEY_STRUCT_VERSION = 13,       /* optional: the structure stream's version, absent = 0 */
    KEY_OPENING = 14,              /* optional: opening counts (alpha16, plies), absent = none */
    KEY_BOOK = 15,                 /* optional: the opening book (version, hash_lo, hash_hi), absent = none */
    KEY_TAG_VERSION = 16,          /* optional: the coded tags' version, absent = 1 */
    KEY_COMMENT_REVISION = 17,     /* optional: the coded comments' models, absent = the structure version's */
    KEY_ENGINE_REVISION = 18,      /* optional: the engine comment code's revision, absent = 1 */
    KEY_COMMENT_TEXT = 19,         /* optional: the comments section's framing, absent = strings */
    KEY_FIRST_INFORMATIONAL = 64,
    KEY_SETTINGS_SUMMARY = 64,
    KEY_CREATED_BY = 65,
};

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
uz_result uz__header_encode(uz_buf *b, const uz_archive_header *h)
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
    if (h->book_version && r == UZ_OK) {
        uint64_t book[3] = {h->book_version, h->book_hash_lo, h->book_hash_hi};
        r = put_field_uints(b, KEY_BOOK, book, 3);
    }
    if (h->tag_version > 1)
        U1(KEY_TAG_VERSION, h->tag_version);
    if (h->comment_revision)
        U1(KEY_COMMENT_REVISION, h->comment_revision);
    if (h->engine_revision)
        U1(KEY_ENGINE_REVISION, h->engine_revision);
    if (h->comment_text > UZ_COMMENT_TEXT_STRING)
        U1(KEY_COMMENT_TEXT, h->comment_text);
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

/* A version or revision key (16-19): one varint from 1 (absent means the oldest, so 0 is
 * never written) to the newest this ucizip knows; a higher one is refused as newer (*why). */
static uz_result read_revision(const uint8_t *s, size_t n, uint64_t newest, const char *newer, const char **why,
                               uint32_t *out)
{
    uint64_t v[1] = {0};
    uz_result r = read_uints(s, n, v, 1, UINT32_MAX);
    if (r == UZ_OK && v[0] > newest) {
        *why = newer;
        r = UZ_ERR_CORRUPT;
    }
    if (r == UZ_OK && v[0] == 0)
        r = UZ_ERR_CORRUPT;
    *out = (uint32_t)v[0];
    return r;
}

/* A fingerprint field: version 3's 8 bytes, or version 2's text (the key 2 of a version
 * 2 header may be empty, its key 12 not). */
static uz_result read_fingerprint(bool v3, const uint8_t *s, size_t n, char *out, size_t cap, bool may_be_empty)
{
    if (!v3)
        return n || may_be_empty ? copy_text(out, cap, s, n) : UZ_ERR_CORRUPT;
    if (n != 8)
        return UZ_ERR_CORRUPT;
    fingerprint_from_bytes(s, out);
    return UZ_OK;
}

/* One field (key, its bytes s, n) into h; *why as uz__header_decode's. */
static uz_result decode_field(uz_archive_header *h, uint64_t key, const uint8_t *s, size_t n, bool v3, const char **why)
{
    uint64_t v[1];
    uz_result r = UZ_OK;
    switch (key) {
    case KEY_ENGINE_NAME: r = copy_text(h->engine_name, sizeof h->engine_name, s, n); break;
    case KEY_FINGERPRINT: r = read_fingerprint(v3, s, n, h->fingerprint, sizeof h->fingerprint, true); break;
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
        r = read_fingerprint(v3, s, n, h->chess960_fingerprint, sizeof h->chess960_fingerprint, false);
        break;
    case KEY_STRUCT_VERSION:
        r = read_uints(s, n, v, 1, UINT32_MAX);
        if (r == UZ_OK && v[0] > UZ_STRUCT_VERSION) {
            *why = "structure version from a newer ucizip";
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
    case KEY_BOOK: {
        uint64_t o[3];
        r = read_uints(s, n, o, 3, UINT32_MAX);
        if (r == UZ_OK && o[0] == 0)
            r = UZ_ERR_CORRUPT; /* version 0 is no book: the key is absent then */
        h->book_version = (uint32_t)o[0];
        h->book_hash_lo = (uint32_t)o[1];
        h->book_hash_hi = (uint32_t)o[2];
        break;
    }
    case KEY_TAG_VERSION:
        r = read_revision(s, n, UZ_TAG_VERSION, "tag coding from a newer ucizip", why, &h->tag_version);
        break;
    case KEY_COMMENT_REVISION:
        r = read_revision(s, n, UZ_COMMENT_REVISION, "comment models from a newer ucizip", why, &h->comment_revision);
        break;
    case KEY_ENGINE_REVISION:
        r = read_revision(s, n, UZ_ENGINE_REVISION, "engine comment code from a newer ucizip", why, &h->engine_revision);
        break;
    case KEY_COMMENT_TEXT:
        r = read_revision(s, n, UZ_COMMENT_TEXT_NUL, "comment framing from a newer ucizip", why, &h->comment_text);
        break;
    case KEY_SETTINGS_SUMMARY: r = copy_text(h->settings_summary, sizeof h->settings_summary, s, n); break;
    case KEY_CREATED_BY: r = copy_text(h->created_by, sizeof h->created_by, s, n); break;
    default:
        if (key < KEY_FIRST_INFORMATIONAL)
            return UZ_ERR_CORRUPT; /* a field that matters for decoding, which we don't know */
    }
    return r;
}

/* After the last field (seen: the bit of each key read): every decoding field must be
 * present; the defaults of the fields version 3 may leave out. */
static uz_result check_fields(uz_archive_header *h, unsigned seen, bool v3)
{
    /* Version 3: keys 3 to 8 all or none (none: the profile's default settings); keys
     * 10, 11 and 13 take their defaults when absent. */
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
    if (!(seen & 1u << KEY_TAG_VERSION))
        h->tag_version = 1;
    return (seen & needed) == needed ? UZ_OK : UZ_ERR_CORRUPT;
}

/* *why is set when a field is refused for a reason worth naming (else "malformed header fields"). */
uz_result uz__header_decode(const uint8_t *body, size_t size, unsigned version, uz_archive_header *h, const char **why)
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
        uint64_t key;
        const uint8_t *s;
        size_t n;
        if (uz_cursor_varint(&c, &key) != UZ_OK || key <= last_key || uz_cursor_string(&c, size, &s, &n) != UZ_OK)
            return UZ_ERR_CORRUPT;
        last_key = key;
        uz_result r = decode_field(h, key, s, n, v3, why);
        if (r != UZ_OK)
            return r;
        if (key < 32)
            seen |= 1u << key;
    }
    return check_fields(h, seen, v3);
}
