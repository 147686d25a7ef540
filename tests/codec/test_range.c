/* Tests of the range coder: long round trips, cost against the ideal entropy, near-certain
 * symbols, minimal flush, argument checks, and damaged input (run it under ASan). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "test_rng.h"
#include "codec/coder.h"
#include "model/move_model.h"

enum { DISTS = 128 };

typedef struct dist_set {
    uint32_t freq[DISTS][UZ_CODER_MAX_SYMBOLS];
    int n[DISTS];
    uint32_t total[DISTS];
} dist_set;

static int draw(test_rng *r, const uint32_t *freq, uint32_t total)
{
    uint32_t x = rng_below(r, total), c = 0;
    int s = 0;
    while (c + freq[s] <= x)
        c += freq[s++];
    return s;
}

/* Mixed distributions: model-made ones (the real use), flat, spiky and random ones with
 * zero entries, and single-symbol positions. */
static void make_dists(dist_set *ds, test_rng *r)
{
    static uz_model m;
    uz_model_params p = {UZ_MODEL_EXP, 30000, 1000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    uz_model_init(&m, &p);
    for (int k = 0; k < DISTS; k++) {
        int n = 1 + (int)rng_below(r, k % 2 ? 60 : UZ_CODER_MAX_SYMBOLS);
        if (k % 16 == 0)
            n = 1;
        uint32_t *f = ds->freq[k];
        int kind = k % 4;
        if (kind == 0) {
            int32_t s[UZ_CODER_MAX_SYMBOLS];
            for (int i = 0; i < n; i++)
                s[i] = (int32_t)rng_below(r, 600) - 300;
            uz_model_score_frequencies(&m, s, n, f);
        } else {
            uint32_t budget = UZ_RANGE_MAX_TOTAL - (uint32_t)n;
            uint64_t sum = 0;
            for (int i = 0; i < n; i++) {
                f[i] = kind == 1 ? 1 : kind == 2 ? (rng_below(r, 3) == 0 ? 0 : 1 + rng_below(r, 200)) : 1 + rng_below(r, 50);
                sum += f[i];
            }
            if (kind == 1)
                f[rng_below(r, (uint32_t)n)] += budget; /* one near-certain symbol */
            else if (sum == 0)
                f[0] = 1;
            if (kind != 1) {
                /* Scale up so the totals vary but stay within the coder's limit. */
                uint32_t mul = (uint32_t)(budget / (sum ? sum : 1));
                if (mul > 1)
                    mul = 1 + rng_below(r, mul);
                for (int i = 0; i < n; i++)
                    f[i] *= mul;
            }
        }
        uint64_t total = 0;
        for (int i = 0; i < n; i++)
            total += f[i];
        ds->n[k] = n;
        ds->total[k] = (uint32_t)total;
    }
}

static void test_round_trip(void)
{
    enum { SYMBOLS = 3000000 };
    test_rng r = {8675309};
    dist_set *ds = malloc(sizeof *ds);
    uint8_t *which = malloc(SYMBOLS);
    uint8_t *syms = malloc(SYMBOLS);
    uz_encoder *e = NULL;
    CHECK(ds && which && syms && uz_encoder_create(&e, UZ_CODER_RANGE) == UZ_OK);
    make_dists(ds, &r);
    double ideal = 0;
    bool put_ok = true;
    for (int p = 0; p < SYMBOLS; p++) {
        int k = (int)rng_below(&r, DISTS);
        int s = draw(&r, ds->freq[k], ds->total[k]);
        which[p] = (uint8_t)k;
        syms[p] = (uint8_t)s;
        put_ok = put_ok && uz_encoder_put(e, ds->freq[k], ds->n[k], ds->total[k], s) == UZ_OK;
        ideal += -log2((double)ds->freq[k][s] / ds->total[k]);
    }
    CHECK(put_ok);
    const uint8_t *data;
    size_t size;
    CHECK(uz_encoder_finish(e, &data, &size) == UZ_OK);
    double actual = 8.0 * (double)size;
    printf("range: %d symbols, ideal %.0f bits, actual %.0f bits, overhead %.4f%%\n", SYMBOLS, ideal, actual,
           100.0 * (actual - ideal) / ideal);
    CHECK(actual <= ideal * 1.001 + 32, "ideal %.0f actual %.0f", ideal, actual);
    CHECK(actual >= ideal - 8);

    uz_decoder d;
    CHECK(uz_decoder_init(&d, UZ_CODER_RANGE, data, size) == UZ_OK);
    bool ok = true;
    for (int p = 0; p < SYMBOLS && ok; p++) {
        int k = which[p], s = -1;
        ok = uz_decoder_get(&d, ds->freq[k], ds->n[k], ds->total[k], &s) == UZ_OK && s == syms[p];
        if (!ok)
            fprintf(stderr, "mismatch at symbol %d\n", p);
    }
    CHECK(ok);
    CHECK(uz_decoder_finish(&d) == UZ_OK);

    /* A copy with extra bytes appended is reported by finish. */
    uint8_t *longer = malloc(size + 3);
    memcpy(longer, data, size);
    memcpy(longer + size, "\x01\x02\x03", 3);
    uz_decoder_init(&d, UZ_CODER_RANGE, longer, size + 3);
    for (int p = 0; p < SYMBOLS; p++) {
        int k = which[p], s;
        uz_decoder_get(&d, ds->freq[k], ds->n[k], ds->total[k], &s);
    }
    CHECK(uz_decoder_finish(&d) == UZ_ERR_CORRUPT);

    /* Damage: truncation, bit flips, random bytes. Must never crash or read out of bounds
     * (ASan); results are garbage or UZ_ERR_CORRUPT. Each stream is an exact-size heap
     * copy so an over-read would be caught. */
    int detected = 0, trials = 0;
    for (int t = 0; t < 300; t++) {
        size_t len = t < 100 ? (size_t)rng_below(&r, 64) : (size_t)rng_below(&r, (uint32_t)(size < 4096 ? size : 4096) + 1);
        uint8_t *buf = malloc(len ? len : 1);
        if (t < 100)
            memcpy(buf, data, len < size ? len : size);
        else if (t < 200)
            for (size_t i = 0; i < len; i++)
                buf[i] = (uint8_t)rng_next(&r);
        else {
            memcpy(buf, data, len);
            if (len)
                buf[rng_below(&r, (uint32_t)len)] ^= (uint8_t)(1u << rng_below(&r, 8));
        }
        uz_result res = uz_decoder_init(&d, UZ_CODER_RANGE, buf, len);
        int wrong = 0;
        for (int p = 0; p < 20000 && res == UZ_OK; p++) {
            int k = which[p], s = -1;
            res = uz_decoder_get(&d, ds->freq[k], ds->n[k], ds->total[k], &s);
            if (res == UZ_OK && (s < 0 || s >= ds->n[k] || ds->freq[k][s] == 0))
                wrong = 1; /* a symbol outside the distribution would be a real bug */
        }
        CHECK(!wrong);
        trials++;
        detected += res != UZ_OK;
        free(buf);
    }
    printf("range: garbage streams: %d of %d hit an impossible state while decoding\n", detected, trials);

    /* uz_decoder_finish accepts exactly the encoder's output: extended copies are always
     * rejected. Truncated or damaged copies mostly decode to other symbols without any
     * error (an optimal code has no redundancy; the archive's checksum catches those). */
    enum { SHORT = 3000 };
    uz_encoder_reset(e);
    for (int p = 0; p < SHORT; p++)
        uz_encoder_put(e, ds->freq[which[p]], ds->n[which[p]], ds->total[which[p]], syms[p]);
    uz_encoder_finish(e, &data, &size);
    CHECK(size > 100 && data[size - 1] != 0);
    int caught[4] = {0, 0, 0, 0}, tried[4] = {0, 0, 0, 0};
    for (int t = 0; t < 2000; t++) {
        size_t len = size;
        uint8_t *buf = malloc(size + 8);
        memcpy(buf, data, size);
        int kind = t % 4;
        if (kind == 0) {
            len = rng_below(&r, (uint32_t)size); /* truncated */
        } else if (kind == 1) {
            buf[rng_below(&r, (uint32_t)size)] ^= (uint8_t)(1u << rng_below(&r, 8)); /* bit flip */
        } else if (kind == 2) {
            len = size + 1 + rng_below(&r, 8); /* extended */
            for (size_t i = size; i < len; i++)
                buf[i] = (uint8_t)rng_next(&r);
        } else {
            size_t at = rng_below(&r, (uint32_t)size); /* a byte replaced */
            uint8_t old_byte = buf[at];
            while (buf[at] == old_byte)
                buf[at] = (uint8_t)rng_next(&r);
        }
        uint8_t *exact = malloc(len ? len : 1);
        memcpy(exact, buf, len);
        uz_result res = uz_decoder_init(&d, UZ_CODER_RANGE, exact, len);
        for (int p = 0; p < SHORT && res == UZ_OK; p++) {
            int k = which[p], s = -1;
            res = uz_decoder_get(&d, ds->freq[k], ds->n[k], ds->total[k], &s);
        }
        if (res == UZ_OK)
            res = uz_decoder_finish(&d);
        tried[kind]++;
        caught[kind] += res != UZ_OK;
        free(exact);
        free(buf);
    }
    printf("range: damaged complete streams caught by get+finish: truncated %d/%d, bit flip %d/%d, "
           "extended %d/%d, byte replaced %d/%d\n",
           caught[0], tried[0], caught[1], tried[1], caught[2], tried[2], caught[3], tried[3]);
    CHECK(caught[2] == tried[2]);

    free(longer);
    uz_encoder_destroy(e);
    free(ds);
    free(which);
    free(syms);
}

static void test_near_certain(void)
{
    uz_encoder *e = NULL;
    uz_encoder_create(&e, UZ_CODER_RANGE);
    uint32_t f[2] = {UZ_RANGE_MAX_TOTAL - 1, 1};
    for (int i = 0; i < 100000; i++)
        uz_encoder_put(e, f, 2, UZ_RANGE_MAX_TOTAL, 0);
    const uint8_t *data;
    size_t size;
    uz_encoder_finish(e, &data, &size);
    /* Ideal: 100000 * 2.2e-5 = 2.2 bits. */
    CHECK(size <= 2, "size %zu", size);
    uz_decoder d;
    uz_decoder_init(&d, UZ_CODER_RANGE, data, size);
    bool ok = true;
    for (int i = 0; i < 100000; i++) {
        int s = -1;
        ok = ok && uz_decoder_get(&d, f, 2, UZ_RANGE_MAX_TOTAL, &s) == UZ_OK && s == 0;
    }
    CHECK(ok);
    CHECK(uz_decoder_finish(&d) == UZ_OK);

    /* A typical best move of the exponential model: 40 moves, p ~ 0.9 -> ~0.15 bit each. */
    uz_model m;
    uz_model_params p = {UZ_MODEL_EXP, UZ_MODEL_DEFAULT_K_MILLI, UZ_MODEL_DEFAULT_FLOOR_Q16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    uz_model_init(&m, &p);
    int32_t sc[40];
    uint32_t fr[40];
    for (int i = 0; i < 40; i++)
        sc[i] = i == 0 ? 50 : -100 - 10 * i;
    uz_model_score_frequencies(&m, sc, 40, fr);
    uz_encoder_reset(e);
    for (int i = 0; i < 1000; i++)
        uz_encoder_put(e, fr, 40, UZ_MODEL_TOTAL, 0);
    uz_encoder_finish(e, &data, &size);
    double ideal = 1000 * -log2(fr[0] / 65536.0);
    CHECK(8.0 * (double)size <= ideal + 16, "size %zu ideal %.1f", size, ideal);
    CHECK(ideal / 1000 < 0.2);
    uz_encoder_destroy(e);
}

/* A truncated stream fails within RC_TAIL bytes of its end instead of decoding zeros
 * for ever; and a run of zero bytes the encoder writes is kept, not left to the decoder. */
static void test_no_reading_past_end(void)
{
    uz_encoder *e = NULL;
    const uint8_t *data;
    size_t size;
    uz_decoder d;
    int s = -1;
    uint32_t flat[256];
    for (int i = 0; i < 256; i++)
        flat[i] = 256;
    uz_encoder_create(&e, UZ_CODER_RANGE);
    for (int i = 0; i < 1000; i++)
        uz_encoder_put(e, flat, 256, 65536, 1 + i % 255);
    uz_encoder_finish(e, &data, &size);
    CHECK(size >= 1000, "size %zu", size);
    uz_decoder_init(&d, UZ_CODER_RANGE, data, 10);
    int decoded = 0;
    while (decoded < 1000 && uz_decoder_get(&d, flat, 256, 65536, &s) == UZ_OK)
        decoded++;
    CHECK(decoded <= 10 + 4, "%d symbols decoded from 10 bytes", decoded);

    /* Symbol 0 of a flat alphabet writes a zero byte each: 1000 of them stay in the stream
     * (all but the last 4), and the stream still decodes exactly. */
    uz_encoder_reset(e);
    for (int i = 0; i < 1000; i++)
        uz_encoder_put(e, flat, 256, 65536, 0);
    uz_encoder_finish(e, &data, &size);
    CHECK(size >= 996, "size %zu", size);
    uz_decoder_init(&d, UZ_CODER_RANGE, data, size);
    bool ok = true;
    for (int i = 0; i < 1000; i++)
        ok = ok && uz_decoder_get(&d, flat, 256, 65536, &s) == UZ_OK && s == 0;
    CHECK(ok && uz_decoder_finish(&d) == UZ_OK);
    uz_decoder_init(&d, UZ_CODER_RANGE, data, 0);
    decoded = 0;
    while (decoded < 1000 && uz_decoder_get(&d, flat, 256, 65536, &s) == UZ_OK)
        decoded++;
    CHECK(decoded <= 4, "%d symbols decoded from an empty stream", decoded);
    uz_encoder_destroy(e);
}

static void test_small_streams(void)
{
    uz_encoder *e = NULL;
    const uint8_t *data;
    size_t size;
    uz_decoder d;
    int s;
    uz_encoder_create(&e, UZ_CODER_RANGE);
    /* Empty stream and single-move positions: zero bytes. */
    CHECK(uz_encoder_finish(e, &data, &size) == UZ_OK && size == 0);
    uz_encoder_reset(e);
    uint32_t one[1] = {UZ_MODEL_TOTAL};
    for (int i = 0; i < 1000; i++)
        uz_encoder_put(e, one, 1, UZ_MODEL_TOTAL, 0);
    CHECK(uz_encoder_finish(e, &data, &size) == UZ_OK && size == 0);
    CHECK(uz_decoder_init(&d, UZ_CODER_RANGE, data, size) == UZ_OK);
    CHECK(uz_decoder_get(&d, one, 1, UZ_MODEL_TOTAL, &s) == UZ_OK && s == 0);
    CHECK(uz_decoder_finish(&d) == UZ_OK);

    /* Every symbol of small alphabets alone: at most ceil(bits) + 1 bytes. */
    bool ok = true;
    for (int n = 2; n <= 9; n++) {
        uint32_t f[9];
        uint32_t total = 0;
        for (int i = 0; i < n; i++)
            total += f[i] = (uint32_t)(1 + 7 * i);
        for (int sym = 0; sym < n; sym++) {
            uz_encoder_reset(e);
            uz_encoder_put(e, f, n, total, sym);
            uz_encoder_finish(e, &data, &size);
            double bits = -log2((double)f[sym] / total);
            ok = ok && size <= (size_t)ceil(bits / 8) + 1;
            uz_decoder_init(&d, UZ_CODER_RANGE, data, size);
            ok = ok && uz_decoder_get(&d, f, n, total, &s) == UZ_OK && s == sym && uz_decoder_finish(&d) == UZ_OK;
        }
    }
    CHECK(ok);

    /* A uniform 1/256 symbol repeated: exactly one byte per symbol (+ at most 1). */
    uint32_t flat[256];
    for (int i = 0; i < 256; i++)
        flat[i] = 256;
    uz_encoder_reset(e);
    for (int i = 0; i < 1000; i++)
        uz_encoder_put(e, flat, 256, 65536, (i * 37) & 255);
    uz_encoder_finish(e, &data, &size);
    CHECK(size >= 999 && size <= 1001, "size %zu", size);
    uz_decoder_init(&d, UZ_CODER_RANGE, data, size);
    ok = true;
    for (int i = 0; i < 1000; i++)
        ok = ok && uz_decoder_get(&d, flat, 256, 65536, &s) == UZ_OK && s == ((i * 37) & 255);
    CHECK(ok);
    CHECK(uz_decoder_finish(&d) == UZ_OK);

    /* Carry propagation: symbols at the top of the range push long runs of 0xFF. */
    uint32_t top[2] = {1, 65535};
    uint32_t bot[2] = {65535, 1};
    test_rng r = {5};
    for (int round = 0; round < 50; round++) {
        uz_encoder_reset(e);
        int pattern[3000];
        for (int i = 0; i < 3000; i++) {
            pattern[i] = rng_below(&r, 100) < 3 ? 2 : (int)rng_below(&r, 2);
            if (pattern[i] == 2)
                uz_encoder_put(e, bot, 2, 65536, 1);
            else
                uz_encoder_put(e, top, 2, 65536, pattern[i] ? 1 : 1);
        }
        uz_encoder_finish(e, &data, &size);
        uz_decoder_init(&d, UZ_CODER_RANGE, data, size);
        ok = true;
        for (int i = 0; i < 3000; i++) {
            if (pattern[i] == 2)
                ok = ok && uz_decoder_get(&d, bot, 2, 65536, &s) == UZ_OK && s == 1;
            else
                ok = ok && uz_decoder_get(&d, top, 2, 65536, &s) == UZ_OK && s == 1;
        }
        ok = ok && uz_decoder_finish(&d) == UZ_OK;
        if (!ok)
            break;
    }
    CHECK(ok);
    uz_encoder_destroy(e);
}

static void test_args(void)
{
    uz_encoder *e = NULL;
    uz_encoder_create(&e, UZ_CODER_RANGE);
    uint32_t big[2] = {40000, 40000};
    CHECK(uz_encoder_put(e, big, 2, 80000, 0) == UZ_ERR_ARG); /* total above 2^16 */
    uint32_t f[3] = {5, 0, 3};
    CHECK(uz_encoder_put(e, f, 3, 8, 1) == UZ_ERR_ARG);
    CHECK(uz_encoder_put(e, f, 3, 9, 0) == UZ_ERR_ARG);
    CHECK(uz_encoder_put(e, f, 0, 8, 0) == UZ_ERR_ARG);
    CHECK(uz_encoder_put(e, f, 3, 8, 2) == UZ_OK);
    CHECK(uz_coder_cost_bits(UZ_CODER_RANGE, f, 3, 8, 2) > 1.41 && uz_coder_cost_bits(UZ_CODER_RANGE, f, 3, 8, 2) < 1.42);
    CHECK(uz_coder_cost_bits(UZ_CODER_RANGE, big, 2, 80000, 0) == -1.0);
    CHECK(uz_coder_cost_bits((uz_coder_kind)0, f, 3, 8, 2) == -1.0);
    uz_encoder_destroy(e);
    uz_decoder d;
    uint8_t ff[4] = {0xFF, 0xFF, 0xFF, 0xFF};
    CHECK(uz_decoder_init(&d, UZ_CODER_RANGE, ff, 4) == UZ_ERR_CORRUPT);
    int s;
    CHECK(uz_decoder_get(&d, f, 3, 8, &s) == UZ_ERR_CORRUPT);
    CHECK(uz_decoder_init(&d, UZ_CODER_RANGE, ff, 2) == UZ_OK);
    CHECK(uz_decoder_get(&d, big, 2, 80000, &s) == UZ_ERR_ARG);
}

int main(void)
{
    test_round_trip();
    test_near_certain();
    test_small_streams();
    test_no_reading_past_end();
    test_args();
    return test_finish();
}
