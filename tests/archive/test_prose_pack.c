/* Structure-stream method 3, zstd over the prose dictionary (doc/format.md, "Block"), on
 * real annotated games that the dictionary never saw (the held-out games of the club file,
 * tests/data/prose/club_held_out.pgn):
 * - the packer keeps it there, and it is well below zstd and LZMA2 alone;
 * - its bytes are level 19's with data/prose_dict/v1.bin loaded as libzstd loads any
 *   dictionary, and libzstd's one-call decoder reads them with that file: the compiled-in
 *   dictionary is the file the format names;
 * - read as method 1 (no dictionary) it does not give the text back; damaged, it is refused
 *   or decodes to some text (the block's crc32 refuses a damaged block before that);
 * - on text without prose (a Lichess export) the packer still keeps the smallest of the
 *   three, the lower method on a tie. */
#include <zstd.h>

#include "../common/uz_test.h"
#include "archive/packer.h"

static bool same(const uz_buf *a, const uint8_t *b, size_t n)
{
    return a->size == n && memcmp(a->data, b, n) == 0;
}

static uint8_t *read_path(const char *env, const char *file, size_t *n)
{
    char path[4096];
    const char *dir = getenv(env);
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", file);
    uint8_t *data = (uint8_t *)test_slurp(path, n);
    CHECK(data != NULL && *n > 0, "%s", path);
    return data;
}

/* The method uz__pack keeps is the smallest, the lower on a tie; returns it. */
static unsigned check_choice(const uint8_t *text, size_t n, const char *what)
{
    uz_buf kept = {0}, one = {0};
    unsigned method = 0, best = 0;
    size_t best_size = SIZE_MAX;
    CHECK(uz__pack(text, n, &kept, &method) == UZ_OK);
    for (unsigned m = UZ__PACK_ZSTD; m <= UZ__PACK_ZSTD_PROSE; m++) {
        CHECK(uz__pack_with(m, text, n, &one) == UZ_OK);
        printf("%s, %zu bytes: method %u %zu bytes\n", what, n, m, one.size);
        if (one.size < best_size)
            best = m, best_size = one.size;
        if (m == method)
            CHECK(same(&kept, one.data, one.size), "%s: the kept stream is method %u's", what, m);
    }
    CHECK(method == best && kept.size == best_size, "%s: kept method %u, the smallest is %u", what, method, best);
    uz_buf_free(&kept);
    uz_buf_free(&one);
    return method;
}

static void test_prose(const uint8_t *text, size_t n, const uint8_t *dict, size_t dict_n)
{
    CHECK(check_choice(text, n, "held-out club games") == UZ__PACK_ZSTD_PROSE);
    uz_buf z = {0}, l = {0}, p = {0}, back = {0};
    CHECK(uz__pack_with(UZ__PACK_ZSTD, text, n, &z) == UZ_OK && uz__pack_with(UZ__PACK_LZMA2, text, n, &l) == UZ_OK &&
          uz__pack_with(UZ__PACK_ZSTD_PROSE, text, n, &p) == UZ_OK);
    size_t plain = z.size < l.size ? z.size : l.size;
    CHECK(p.size * 100 < plain * 90, "method 3: %zu bytes, at least 10 %% below the others' %zu", p.size, plain);
    CHECK(uz__unpack(UZ__PACK_ZSTD_PROSE, p.data, p.size, &back, n) == UZ_OK && same(&back, text, n));

    /* The same bytes as libzstd makes with the dictionary file, and read back by it. */
    ZSTD_CCtx *c = ZSTD_createCCtx();
    size_t bound = ZSTD_compressBound(n);
    uint8_t *ref = malloc(bound), *out = malloc(n + 1);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 19);
    ZSTD_CCtx_loadDictionary(c, dict, dict_n);
    size_t ref_size = ZSTD_compress2(c, ref, bound, text, n);
    CHECK(!ZSTD_isError(ref_size) && same(&p, ref, ref_size), "method 3: %zu bytes, libzstd with the file: %zu", p.size,
          ref_size);
    ZSTD_DCtx *d = ZSTD_createDCtx();
    size_t got = ZSTD_decompress_usingDict(d, out, n + 1, p.data, p.size, dict, dict_n);
    CHECK(got == n && memcmp(out, text, n) == 0, "libzstd decodes method 3 with data/prose_dict/v1.bin");
    ZSTD_freeDCtx(d);
    ZSTD_freeCCtx(c);
    free(ref);
    free(out);

    /* Without the dictionary, or damaged, it never gives the text back. */
    CHECK(!(uz__unpack(UZ__PACK_ZSTD, p.data, p.size, &back, n) == UZ_OK && same(&back, text, n)),
          "method 3 read as method 1 is not the text");
    /* Damaged, it is refused or decodes to some text (which the block's crc32 then refuses,
     * as for method 1: doc/format.md, "Checksums"), never anything else. */
    size_t refused = 0, other = 0;
    for (size_t i = 0; i < p.size; i++) {
        p.data[i] ^= 0x20;
        uz_result r = uz__unpack(UZ__PACK_ZSTD_PROSE, p.data, p.size, &back, n);
        refused += r == UZ_ERR_CORRUPT;
        other += r != UZ_OK && r != UZ_ERR_CORRUPT;
        p.data[i] ^= 0x20;
    }
    printf("%zu damaged copies: %zu refused\n", p.size, refused);
    CHECK(other == 0 && refused > 0, "damaged: %zu refused, %zu other errors", refused, other);
    uz_buf_free(&z);
    uz_buf_free(&l);
    uz_buf_free(&p);
    uz_buf_free(&back);
}

int main(void)
{
    char path[4096];
    size_t n = 0, dict_n = 0, lichess_n = 0;
    uint8_t *text = read_path("UZ_TEST_DATA", "prose/club_held_out.pgn", &n);
    uint8_t *dict = read_path("UZ_SRC_ROOT", "data/prose_dict/v1.bin", &dict_n);
    if (text && dict)
        test_prose(text, n, dict, dict_n);
    uint8_t *lichess = (uint8_t *)test_slurp(corpus_path("cat1_lichess_rated_blitz_rapid.pgn", path), &lichess_n);
    CHECK(lichess && lichess_n > 65536);
    if (lichess && lichess_n > 65536)
        check_choice(lichess, 65536, "Lichess blitz");
    free(text);
    free(dict);
    free(lichess);
    return test_finish();
}
