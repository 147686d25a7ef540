/* The member header keeps the engine settings text whole: a real Stockfish pool's header
 * round-trips exactly, the writer refuses a text too long for its field, and the reader
 * refuses a header whose settings text is longer than the field (as corrupt); a permove
 * member's header is read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "../common/uz_test_engine.h"
#include "archive/archive.h"
#include "gamecode/member.h"
#include "engine/engine.h"
#include "model/move_model.h"

/* The bytes of a member header written by the archive writer for h (writer aborted after). */
static uz_result header_bytes(const uz_archive_header *h, uz_buf *out, uz_diag *diag)
{
    FILE *f = tmpfile();
    if (!f)
        return UZ_ERR_IO;
    uz_archive_writer *w = NULL;
    uz_result r = uz_archive_writer_open(&w, f, h, diag);
    if (r == UZ_OK) {
        fflush(f);
        long n = ftell(f);
        rewind(f);
        uz_buf_reserve(out, (size_t)n);
        out->size = fread(out->data, 1, (size_t)n, f);
        uz_archive_writer_abort(w);
    }
    fclose(f);
    return r;
}

static uz_result read_header_bytes(const uz_buf *bytes, uz_archive_header *h, uz_diag *diag)
{
    FILE *f = tmpfile();
    if (!f)
        return UZ_ERR_IO;
    fwrite(bytes->data, 1, bytes->size, f);
    rewind(f);
    uz_archive_reader *rd = NULL;
    uz_result r = uz_archive_reader_open(&rd, f, "test.ucz");
    if (r == UZ_OK)
        r = uz_archive_read_header(rd, h, diag);
    uz_archive_reader_close(rd);
    fclose(f);
    return r;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The same header with field key's value replaced by value[0..len) (fixed part, body, CRC). */
static void replace_field_n(const uz_buf *in, uint64_t key, const char *value, size_t len, uz_buf *out)
{
    /* version 3: magic, version, then the body's length as a varint */
    uz_cursor lc = {in->data + 10, in->data + in->size};
    uint64_t hlen = 0;
    uz_cursor_varint(&lc, &hlen);
    uz_cursor c = {lc.p, lc.p + hlen};
    uz_buf body = {0};
    while (c.p < c.end) {
        uint64_t k;
        const uint8_t *s;
        size_t n;
        if (uz_cursor_varint(&c, &k) != UZ_OK || uz_cursor_string(&c, hlen, &s, &n) != UZ_OK)
            break;
        uz_buf_put_varint(&body, k);
        if (k == key)
            uz_buf_put_string(&body, value, len);
        else
            uz_buf_put_string(&body, (const char *)s, n);
    }
    uint8_t crc[4];
    put_le32(crc, uz_crc32(0, body.data, body.size));
    out->size = 0;
    uz_buf_append(out, in->data, 10);
    uz_buf_put_varint(out, body.size);
    uz_buf_append(out, body.data, body.size);
    uz_buf_append(out, crc, 4);
    uz_buf_free(&body);
}

static void replace_field(const uz_buf *in, uint64_t key, const char *value, uz_buf *out)
{
    replace_field_n(in, key, value, strlen(value), out);
}

int main(void)
{
    uz_engine_settings s;
    uz_diag d = {0};
    if (!uz_test_stockfish_settings(&s, 1))
        return 1;
    uz_pool *pool = NULL;
    if (uz_pool_create(&pool, &s, 1, &d) != UZ_OK) {
        fprintf(stderr, "stockfish: %s\n", d.message);
        return 1;
    }
    uz_model_params model = uz_model_default_params();
    static uz_archive_header h, back;
    uz_header_fill(&h, pool, &model, UZ_CODER_RANGE, UZ_ARCHIVE_BLOCK_GAMES);
    const char *text = uz_pool_settings_text(pool);

    /* The profile's own settings: the header stores no settings text, the reader says so. */
    uz_buf good = {0}, bad = {0};
    CHECK(h.settings_from_profile, "the stockfish profile's defaults not recognised");
    CHECK(header_bytes(&h, &good, &d) == UZ_OK, "%s", d.message);
    CHECK(read_header_bytes(&good, &back, &d) == UZ_OK, "%s", d.message);
    CHECK(back.settings_from_profile && back.engine_settings_text[0] == '\0' && back.version == UZ_ARCHIVE_VERSION);
    CHECK(strcmp(back.settings_summary, "Stockfish 15.1; the default settings of its profile") == 0, "%s",
          back.settings_summary);
    CHECK(strcmp(back.fingerprint, uz_pool_fingerprint(pool)) == 0);
    CHECK(back.coder == UZ_CODER_RANGE && back.block_games == UZ_ARCHIVE_BLOCK_GAMES &&
          back.struct_version == UZ_STRUCT_VERSION && back.model_kind == h.model_kind);
    CHECK(back.opening_plies == 0 && back.opening_alpha16 == 0, "no key 14: no opening counts");

    /* Opening counts (key 14) round-trip; a field with one varint, plies 0 or plies over
     * 1024 is refused. */
    {
        uz_model_params counted = model;
        counted.opening_alpha16 = 24;
        counted.opening_plies = 32;
        static uz_archive_header hc, bc;
        uz_buf with = {0}, damaged = {0};
        uz_header_fill(&hc, pool, &counted, UZ_CODER_RANGE, UZ_ARCHIVE_BLOCK_GAMES);
        CHECK(header_bytes(&hc, &with, &d) == UZ_OK, "%s", d.message);
        CHECK(with.size == good.size + 4, "key 14 takes 4 bytes (%zu, %zu)", with.size, good.size);
        CHECK(read_header_bytes(&with, &bc, &d) == UZ_OK && bc.opening_alpha16 == 24 && bc.opening_plies == 32);
        const char *bad_values[] = {"\x18", "\x18\x80\x10", "\x18\x20\x01"};
        for (size_t i = 0; i < sizeof bad_values / sizeof *bad_values; i++) {
            replace_field(&with, 14, bad_values[i], &damaged);
            CHECK(read_header_bytes(&damaged, &bc, &d) == UZ_ERR_CORRUPT, "bad key 14 value %zu accepted", i);
        }
        uz_buf_free(&with);
        uz_buf_free(&damaged);
    }

    /* The tag coding (key 16): a new header says the newest version (3 bytes); tag
     * version 1 is the key left out, as in every archive written before it; a version
     * from a newer ucizip, an empty value or two varints are refused. */
    {
        static uz_archive_header hv, bv;
        uz_buf v1 = {0}, damaged = {0};
        CHECK(back.tag_version == UZ_TAG_VERSION && UZ_TAG_VERSION == 5, "tag version %u read back", back.tag_version);
        hv = h;
        hv.tag_version = 1;
        CHECK(header_bytes(&hv, &v1, &d) == UZ_OK, "%s", d.message);
        CHECK(v1.size + 3 == good.size, "key 16 takes 3 bytes (%zu, %zu)", v1.size, good.size);
        CHECK(read_header_bytes(&v1, &bv, &d) == UZ_OK && bv.tag_version == 1, "no key 16: tag version 1");
        const char *bad_values[] = {"\x06", "", "\x02\x02"};
        for (size_t i = 0; i < sizeof bad_values / sizeof *bad_values; i++) {
            replace_field(&good, 16, bad_values[i], &damaged);
            CHECK(read_header_bytes(&damaged, &bv, &d) == UZ_ERR_CORRUPT, "bad key 16 value %zu accepted", i);
        }
        replace_field(&good, 16, "\x06", &damaged);
        CHECK(read_header_bytes(&damaged, &bv, &d) == UZ_ERR_CORRUPT && strstr(d.message, "newer"), "%s", d.message);
        uz_buf_free(&v1);
        uz_buf_free(&damaged);
    }

    /* The engine code's revision (key 18): absent is revision 1 (0, every archive written
     * before the key existed); the newest round-trips in 3 bytes; a revision from a newer
     * ucizip, 0, an empty value or two varints are refused. */
    {
        static uz_archive_header he, be;
        uz_buf with = {0}, damaged = {0};
        CHECK(back.engine_revision == 0, "no key 18 read as revision %u", back.engine_revision);
        he = h;
        he.engine_revision = UZ_ENGINE_REVISION;
        CHECK(header_bytes(&he, &with, &d) == UZ_OK, "%s", d.message);
        CHECK(with.size == good.size + 3, "key 18 takes 3 bytes (%zu, %zu)", with.size, good.size);
        CHECK(read_header_bytes(&with, &be, &d) == UZ_OK && be.engine_revision == UZ_ENGINE_REVISION,
              "key 18 read back as %u", be.engine_revision);
        const char *bad_values[] = {"\x03", "\x00", "", "\x02\x02"};
        for (size_t i = 0; i < sizeof bad_values / sizeof *bad_values; i++) {
            size_t len = i == 1 ? 1 : strlen(bad_values[i]);
            replace_field_n(&with, 18, bad_values[i], len, &damaged);
            CHECK(read_header_bytes(&damaged, &be, &d) == UZ_ERR_CORRUPT, "bad key 18 value %zu accepted", i);
        }
        replace_field(&with, 18, "\x03", &damaged);
        CHECK(read_header_bytes(&damaged, &be, &d) == UZ_ERR_CORRUPT && strstr(d.message, "newer"), "%s", d.message);
        uz_buf_free(&with);
        uz_buf_free(&damaged);
    }

    /* Settings other than the profile's (Hash 2): the text is stored and round-trips; the
     * summary is rebuilt from keys 3-7. */
    uz_engine_settings s2 = s;
    s2.hash_mb = 2;
    uz_pool *pool2 = NULL;
    CHECK(uz_pool_create(&pool2, &s2, 1, &d) == UZ_OK, "%s", d.message);
    if (pool2) {
        uz_header_fill(&h, pool2, &model, UZ_CODER_RANGE, UZ_ARCHIVE_BLOCK_GAMES);
        CHECK(!h.settings_from_profile, "Hash 2 taken for the profile's defaults");
        good.size = 0;
        CHECK(header_bytes(&h, &good, &d) == UZ_OK, "%s", d.message);
        CHECK(read_header_bytes(&good, &back, &d) == UZ_OK, "%s", d.message);
        CHECK(!back.settings_from_profile && strcmp(back.engine_settings_text, uz_pool_settings_text(pool2)) == 0);
        CHECK(strcmp(back.settings_summary, "Stockfish 15.1; depth 1; multipv; Hash 2; Threads 1") == 0, "%s",
              back.settings_summary);
        uz_pool_destroy(pool2);
    }
    /* The rest takes the profile's text, stored (as for settings of the user's). */
    uz_header_fill(&h, pool, &model, UZ_CODER_RANGE, UZ_ARCHIVE_BLOCK_GAMES);
    h.settings_from_profile = false;
    good.size = 0;
    CHECK(header_bytes(&h, &good, &d) == UZ_OK, "%s", d.message);
    CHECK(read_header_bytes(&good, &back, &d) == UZ_OK, "%s", d.message);
    CHECK(strcmp(back.engine_settings_text, text) == 0);

    /* A settings text as long as the pool's buffer holds fits exactly. */
    static uz_archive_header full;
    full = h;
    size_t len = strlen(text), room = sizeof full.engine_settings_text - 1;
    for (size_t i = 0; i < room; i++)
        full.engine_settings_text[i] = text[i % len];
    full.engine_settings_text[room] = '\0';
    good.size = 0;
    CHECK(header_bytes(&full, &good, &d) == UZ_OK, "%s", d.message);
    CHECK(read_header_bytes(&good, &back, &d) == UZ_OK, "%s", d.message);
    CHECK(strlen(back.engine_settings_text) == room);

    /* One that fills the field with no room for its end was cut: the writer refuses it. */
    full.engine_settings_text[room] = 'x';
    d = (uz_diag){0};
    CHECK(header_bytes(&full, &bad, &d) == UZ_ERR_LIMIT);
    CHECK(strstr(d.message, "engine settings text") != NULL, "%s", d.message);

    /* A header whose settings text is longer than the field is corrupt to the reader. */
    char *long_text = malloc(UZ_LIMIT_SETTINGS_TEXT + 1);
    for (size_t i = 0; i < UZ_LIMIT_SETTINGS_TEXT; i++)
        long_text[i] = text[i % len];
    long_text[UZ_LIMIT_SETTINGS_TEXT] = '\0';
    replace_field(&good, 8, long_text, &bad);
    d = (uz_diag){0};
    CHECK(read_header_bytes(&bad, &back, &d) == UZ_ERR_CORRUPT);
    CHECK(strstr(d.message, "engine settings text") != NULL, "%s", d.message);
    /* The same rewrite with the original text is read back (the rewrite itself is sound). */
    replace_field(&good, 8, h.engine_settings_text, &bad);
    CHECK(read_header_bytes(&bad, &back, &d) == UZ_OK, "%s", d.message);
    CHECK(strcmp(back.engine_settings_text, text) == 0);

    /* A permove member's header (mode 2) is read back. */
    uz_pool *permove = NULL;
    s.mode = UZ_MODE_PERMOVE;
    s.depth = 2;
    CHECK(uz_pool_create(&permove, &s, 1, &d) == UZ_OK, "%s", d.message);
    if (permove) {
        uz_header_fill(&h, permove, &model, UZ_CODER_RANGE, UZ_ARCHIVE_BLOCK_GAMES);
        CHECK(!h.settings_from_profile, "permove depth 2 taken for the profile's defaults");
        good.size = 0;
        CHECK(header_bytes(&h, &good, &d) == UZ_OK, "%s", d.message);
        CHECK(read_header_bytes(&good, &back, &d) == UZ_OK, "%s", d.message);
        CHECK(back.mode == UZ_MODE_PERMOVE && strcmp(back.engine_settings_text, uz_pool_settings_text(permove)) == 0);
        uz_pool_destroy(permove);
    }

    free(long_text);
    uz_buf_free(&good);
    uz_buf_free(&bad);
    uz_pool_destroy(pool);
    return test_finish();
}
