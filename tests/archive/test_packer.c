/* The structure stream's packers on real text (the TCEC file of engine comments, 5.3 MB):
 * - a stream within the encoders' window packs exactly as zstd level 19 and LZMA2 preset
 *   9e do with the format's dictionary (the bytes of every archive written so far);
 * - a longer stream, which repeats its first MiB more than 4 MiB later, packs with at
 *   most a 4 MiB window: it decodes with decoders limited to 4 MiB (an encoder with a
 *   larger window would reach back to the repeat and fail them), and with the format's
 *   decoder (uz__unpack) to the same bytes;
 * - threads packing at once (under the encoders' memory budget) give the same bytes. */
#include <lzma.h>
#include <pthread.h>
#include <zstd.h>

#include "../common/uz_test.h"
#include "archive/packer.h"

#define WINDOW ((size_t)4 << 20)
#define THREADS 4

static bool same(const uz_buf *a, const uint8_t *b, size_t n)
{
    return a->size == n && memcmp(a->data, b, n) == 0;
}

/* LZMA2 raw decoding with a given dictionary: true when it gives exactly raw. */
static bool lzma2_decodes(const uz_buf *packed, uint32_t dict_size, const uint8_t *raw, size_t n)
{
    lzma_options_lzma opt;
    lzma_lzma_preset(&opt, 9 | LZMA_PRESET_EXTREME);
    opt.dict_size = dict_size;
    lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, NULL}};
    uint8_t *out = malloc(n + 1);
    size_t in_pos = 0, out_pos = 0;
    lzma_ret r = lzma_raw_buffer_decode(filters, NULL, packed->data, &in_pos, packed->size, out, &out_pos, n + 1);
    bool ok = r == LZMA_OK && in_pos == packed->size && out_pos == n && memcmp(out, raw, n) == 0;
    free(out);
    return ok;
}

/* zstd decoding that refuses windows above 2^window_log: true when it gives exactly raw.
 * The input is fed in pieces, as the format's decoder may, since a whole frame in one
 * piece is decoded at once without a window to check. */
static bool zstd_decodes(const uz_buf *packed, int window_log, const uint8_t *raw, size_t n)
{
    ZSTD_DCtx *d = ZSTD_createDCtx();
    ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, window_log);
    uint8_t *out = malloc(n + 1);
    ZSTD_outBuffer o = {out, n + 1, 0};
    size_t left = 1, fed = 0;
    while (left && !ZSTD_isError(left) && fed < packed->size) {
        size_t piece = packed->size - fed < 65536 ? packed->size - fed : 65536;
        ZSTD_inBuffer in = {packed->data + fed, piece, 0};
        while (in.pos < in.size && left && !ZSTD_isError(left))
            left = ZSTD_decompressStream(d, &o, &in);
        fed += in.pos;
        if (in.pos < in.size)
            break;
    }
    bool ok = left == 0 && fed == packed->size && o.pos == n && memcmp(out, raw, n) == 0;
    free(out);
    ZSTD_freeDCtx(d);
    return ok;
}

static void test_within_window(const uint8_t *text, size_t n)
{
    uz_buf z = {0}, l = {0}, back = {0};
    CHECK(uz__pack_with(UZ__PACK_ZSTD, text, n, &z) == UZ_OK);
    size_t bound = ZSTD_compressBound(n);
    uint8_t *ref = malloc(bound);
    size_t ref_size = ZSTD_compress(ref, bound, text, n, 19);
    CHECK(!ZSTD_isError(ref_size) && same(&z, ref, ref_size), "zstd: %zu bytes, level 19 alone: %zu", z.size, ref_size);
    free(ref);

    CHECK(uz__pack_with(UZ__PACK_LZMA2, text, n, &l) == UZ_OK);
    lzma_options_lzma opt;
    lzma_lzma_preset(&opt, 9 | LZMA_PRESET_EXTREME);
    opt.dict_size = 4096;
    while (opt.dict_size < n)
        opt.dict_size <<= 1;
    lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, NULL}};
    bound = n + n / 16 + 1024;
    ref = malloc(bound);
    ref_size = 0;
    CHECK(lzma_raw_buffer_encode(filters, NULL, text, n, ref, &ref_size, bound) == LZMA_OK);
    CHECK(same(&l, ref, ref_size), "LZMA2: %zu bytes, preset 9e alone: %zu", l.size, ref_size);
    free(ref);

    CHECK(uz__unpack(UZ__PACK_LZMA2, l.data, l.size, &back, n) == UZ_OK && same(&back, text, n));
    uz_buf_free(&z);
    uz_buf_free(&l);
    uz_buf_free(&back);
}

static void test_past_window(const uint8_t *text, size_t n)
{
    uz_buf z = {0}, l = {0}, back = {0};
    CHECK(uz__pack_with(UZ__PACK_ZSTD, text, n, &z) == UZ_OK);
    CHECK(zstd_decodes(&z, 22, text, n), "zstd needs a window above 4 MiB");
    CHECK(uz__unpack(UZ__PACK_ZSTD, z.data, z.size, &back, n) == UZ_OK && same(&back, text, n));

    CHECK(uz__pack_with(UZ__PACK_LZMA2, text, n, &l) == UZ_OK);
    CHECK(lzma2_decodes(&l, (uint32_t)WINDOW, text, n), "LZMA2 needs a dictionary above 4 MiB");
    CHECK(uz__unpack(UZ__PACK_LZMA2, l.data, l.size, &back, n) == UZ_OK && same(&back, text, n));
    /* The repeat costs little even out of the window: the text repeats itself nearer. */
    printf("%zu bytes: zstd %zu, LZMA2 %zu\n", n, z.size, l.size);
    uz_buf_free(&z);
    uz_buf_free(&l);
    uz_buf_free(&back);
}

typedef struct pack_job {
    const uint8_t *src;
    size_t n;
    uz_buf out;
    unsigned method;
    uz_result r;
} pack_job;

static void *pack_main(void *arg)
{
    pack_job *j = arg;
    j->r = uz__pack(j->src, j->n, &j->out, &j->method);
    return NULL;
}

static void test_threads(const uint8_t *text, size_t n)
{
    pack_job alone = {text, n, {0}, 0, UZ_OK}, jobs[THREADS];
    pthread_t threads[THREADS];
    pack_main(&alone);
    CHECK(alone.r == UZ_OK);
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (pack_job){text, n, {0}, 0, UZ_OK};
        CHECK(pthread_create(&threads[t], NULL, pack_main, &jobs[t]) == 0);
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK(jobs[t].r == UZ_OK && jobs[t].method == alone.method && same(&jobs[t].out, alone.out.data, alone.out.size),
              "thread %d", t);
        uz_buf_free(&jobs[t].out);
    }
    uz_buf_free(&alone.out);
}

int main(void)
{
    char path[4096];
    size_t n = 0;
    uint8_t *text = (uint8_t *)test_slurp(corpus_path("cat3_tcec_engine_games_full_comments.pgn", path), &n);
    CHECK(text && n > WINDOW + ((size_t)1 << 20), "%s: %zu bytes", path, n);
    if (!text || n <= WINDOW + ((size_t)1 << 20))
        return test_finish();
    /* UZ_TEST_SHORT (CI's sanitizer run): the packers' own time is the libraries' (not
     * instrumented), so a smaller text through the same calls, and the window test (6 MB
     * through zstd -19 and LZMA2 9e) in the plain run only. */
    bool short_run = getenv("UZ_TEST_SHORT") != NULL;
    test_within_window(text, short_run ? (size_t)1 << 20 : (size_t)3 << 20);
    test_threads(text, short_run ? (size_t)1 << 18 : (size_t)1 << 20);
    if (short_run) {
        free(text);
        return test_finish();
    }

    size_t repeat = (size_t)1 << 20, total = n + repeat;
    uint8_t *longer = malloc(total);
    memcpy(longer, text, n);
    memcpy(longer + n, text, repeat);
    test_past_window(longer, total);
    free(longer);
    free(text);
    return test_finish();
}
