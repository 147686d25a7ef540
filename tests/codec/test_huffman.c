/* Tests of the per-position Huffman code: Kraft equality, optimality, tie-breaks, the
 * length limit, and encode/decode round trips through the public coder interface. */
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "test_rng.h"
#include "codec/coder.h"

/* Optimal total cost sum(f * len) by the textbook O(n^2) Huffman merge, no length limit. */
static uint64_t reference_cost(const uint32_t *freq, int n)
{
    uint64_t w[UZ_CODER_MAX_SYMBOLS];
    int m = 0;
    for (int i = 0; i < n; i++)
        if (freq[i])
            w[m++] = freq[i];
    uint64_t cost = 0;
    while (m > 1) {
        int a = 0;
        for (int i = 1; i < m; i++)
            if (w[i] < w[a])
                a = i;
        uint64_t wa = w[a];
        w[a] = w[--m];
        int b = 0;
        for (int i = 1; i < m; i++)
            if (w[i] < w[b])
                b = i;
        w[b] += wa;
        cost += w[b];
    }
    return cost;
}

static uint64_t code_cost(const uint32_t *freq, const uint8_t *len, int n)
{
    uint64_t c = 0;
    for (int i = 0; i < n; i++)
        c += (uint64_t)freq[i] * len[i];
    return c;
}

/* Kraft sum in units of 2^-32 (exactly 2^32 for a complete code). */
static uint64_t kraft(const uint8_t *len, int n)
{
    uint64_t k = 0;
    for (int i = 0; i < n; i++)
        if (len[i])
            k += (uint64_t)1 << (32 - len[i]);
    return k;
}

/* Prefix-free and canonical: codes of equal length increase with the index, and no code
 * is a prefix of another. */
static bool prefix_free(const uint8_t *len, const uint32_t *code, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            if (i == j || !len[i] || !len[j] || len[i] > len[j])
                continue;
            if ((code[j] >> (len[j] - len[i])) == code[i])
                return false;
        }
    }
    return true;
}

static void test_known(void)
{
    uint8_t len[8];
    uint32_t code[8];
    {
        uint32_t f[4] = {1, 1, 2, 4};
        CHECK(uz_huffman_code(f, 4, len, code) == 3);
        CHECK(len[0] == 3 && len[1] == 3 && len[2] == 2 && len[3] == 1);
        CHECK(code[3] == 0 && code[2] == 2 && code[0] == 6 && code[1] == 7);
    }
    {
        /* Ties: the lower index gets the shorter code. */
        uint32_t f[3] = {1, 1, 1};
        CHECK(uz_huffman_code(f, 3, len, code) == 2);
        CHECK(len[0] == 1 && len[1] == 2 && len[2] == 2);
        CHECK(code[0] == 0 && code[1] == 2 && code[2] == 3);
    }
    {
        uint32_t f[4] = {5, 5, 5, 5};
        CHECK(uz_huffman_code(f, 4, len, code) == 2);
        CHECK(len[0] == 2 && len[1] == 2 && len[2] == 2 && len[3] == 2);
        CHECK(code[0] == 0 && code[1] == 1 && code[2] == 2 && code[3] == 3);
    }
    {
        /* Leaf-before-node tie rule: {2,1,1} merges 1+1 = 2, then the leaf 2 and node 2
         * tie; both choices cost the same, the rule fixes the shape. */
        uint32_t f[5] = {2, 1, 1, 4, 8};
        CHECK(uz_huffman_code(f, 5, len, code) == 4);
        CHECK(len[4] == 1 && len[3] == 2 && len[0] == 3 && len[1] == 4 && len[2] == 4);
    }
    {
        uint32_t f[1] = {7};
        CHECK(uz_huffman_code(f, 1, len, code) == 0 && len[0] == 0);
        uint32_t g[3] = {0, 9, 0};
        CHECK(uz_huffman_code(g, 3, len, code) == 0 && len[0] == 0 && len[1] == 0 && len[2] == 0);
        uint32_t z[2] = {0, 0};
        CHECK(uz_huffman_code(z, 2, len, code) == UZ_ERR_ARG);
        CHECK(uz_huffman_code(z, 0, len, code) == UZ_ERR_ARG);
        CHECK(uz_huffman_code(z, UZ_CODER_MAX_SYMBOLS + 1, len, code) == UZ_ERR_ARG);
        uint32_t h[3] = {0, 3, 5};
        CHECK(uz_huffman_code(h, 3, len, code) == 1 && len[0] == 0 && len[1] == 1 && len[2] == 1);
        CHECK(code[1] == 0 && code[2] == 1);
    }
}

/* Exhaustive check for tiny alphabets: every vector of lengths with a complete Kraft sum
 * is tried, and Huffman must match the best one. */
static uint64_t brute_best(const uint32_t *f, int n, uint8_t *len, int i, uint64_t kraft_left)
{
    if (i == n)
        return kraft_left == 0 ? 0 : UINT64_MAX;
    uint64_t best = UINT64_MAX;
    for (int l = 1; l <= 8; l++) {
        uint64_t unit = (uint64_t)1 << (8 - l);
        if (unit > kraft_left)
            continue;
        len[i] = (uint8_t)l;
        uint64_t rest = brute_best(f, n, len, i + 1, kraft_left - unit);
        if (rest != UINT64_MAX && rest + (uint64_t)f[i] * l < best)
            best = rest + (uint64_t)f[i] * l;
    }
    return best;
}

static void test_brute(void)
{
    test_rng r = {99};
    bool ok = true;
    for (int t = 0; t < 300; t++) {
        int n = 2 + (int)rng_below(&r, 5);
        uint32_t f[8];
        uint8_t len[8], tmp[8];
        uint32_t code[8];
        for (int i = 0; i < n; i++)
            f[i] = 1 + rng_below(&r, t % 2 ? 10 : 1000);
        uz_huffman_code(f, n, len, code);
        uint64_t best = brute_best(f, n, tmp, 0, 256);
        if (code_cost(f, len, n) != best)
            ok = false;
    }
    CHECK(ok);
}

static void test_random_codes(void)
{
    test_rng r = {4242};
    bool kraft_ok = true, opt_ok = true, pf_ok = true, det_ok = true, order_ok = true;
    for (int t = 0; t < 3000; t++) {
        int n = 1 + (int)rng_below(&r, UZ_CODER_MAX_SYMBOLS);
        uint32_t f[UZ_CODER_MAX_SYMBOLS];
        uint32_t maxf = t % 3 == 0 ? 4 : t % 3 == 1 ? 65536 : 1u << 24;
        int nonzero = 0;
        for (int i = 0; i < n; i++) {
            f[i] = rng_below(&r, 10) == 0 ? 0 : 1 + rng_below(&r, maxf);
            nonzero += f[i] > 0;
        }
        if (nonzero == 0) {
            f[0] = 1;
            nonzero = 1;
        }
        uint8_t len[UZ_CODER_MAX_SYMBOLS], len2[UZ_CODER_MAX_SYMBOLS];
        uint32_t code[UZ_CODER_MAX_SYMBOLS], code2[UZ_CODER_MAX_SYMBOLS];
        int ml = uz_huffman_code(f, n, len, code);
        uz_huffman_code(f, n, len2, code2);
        det_ok = det_ok && memcmp(len, len2, (size_t)n) == 0 && memcmp(code, code2, (size_t)n * 4) == 0;
        if (nonzero >= 2) {
            kraft_ok = kraft_ok && kraft(len, n) == (uint64_t)1 << 32 && ml <= UZ_HUFFMAN_MAX_BITS;
            opt_ok = opt_ok && code_cost(f, len, n) == reference_cost(f, n);
            pf_ok = pf_ok && prefix_free(len, code, n);
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (f[i] && f[j] && (f[i] > f[j] || (f[i] == f[j] && i < j)) && len[i] > len[j])
                    order_ok = false;
    }
    CHECK(kraft_ok);
    CHECK(opt_ok);
    CHECK(pf_ok);
    CHECK(det_ok);
    CHECK(order_ok);
}

static void test_length_limit(void)
{
    /* Fibonacci frequencies give a degenerate tree of depth n - 1 without the limit. */
    uint32_t f[UZ_CODER_MAX_SYMBOLS];
    uint8_t len[UZ_CODER_MAX_SYMBOLS];
    uint32_t code[UZ_CODER_MAX_SYMBOLS];
    int n = 45;
    uint64_t a = 1, b = 1, sum = 0;
    for (int i = 0; i < n; i++) {
        f[i] = (uint32_t)a;
        sum += a;
        uint64_t c = a + b;
        a = b;
        b = c;
    }
    CHECK(sum < ((uint64_t)1 << 32));
    int ml = uz_huffman_code(f, n, len, code);
    CHECK(ml == UZ_HUFFMAN_MAX_BITS);
    CHECK(kraft(len, n) == (uint64_t)1 << 32);
    CHECK(prefix_free(len, code, n));
    uint64_t opt = reference_cost(f, n), got = code_cost(f, len, n);
    CHECK(got >= opt && (double)got <= (double)opt * 1.0001, "opt %llu got %llu", (unsigned long long)opt,
           (unsigned long long)got);

    /* Reversed order and all 256 symbols with powers of two. */
    uint32_t g[UZ_CODER_MAX_SYMBOLS];
    for (int i = 0; i < UZ_CODER_MAX_SYMBOLS; i++)
        g[i] = i < 200 ? 1 : 1u << (i - 200 < 31 ? i - 200 : 31) >> 8;
    for (int i = 0; i < UZ_CODER_MAX_SYMBOLS; i++)
        if (g[i] == 0)
            g[i] = 1;
    ml = uz_huffman_code(g, UZ_CODER_MAX_SYMBOLS, len, code);
    CHECK(ml <= UZ_HUFFMAN_MAX_BITS && kraft(len, UZ_CODER_MAX_SYMBOLS) == (uint64_t)1 << 32);
    CHECK(prefix_free(len, code, UZ_CODER_MAX_SYMBOLS));

    /* The Fibonacci case still round-trips through the coder (total fits uint32). */
    uz_encoder *e = NULL;
    CHECK(uz_encoder_create(&e, UZ_CODER_HUFFMAN) == UZ_OK);
    for (int s = 0; s < n; s++)
        CHECK(uz_encoder_put(e, f, n, (uint32_t)sum, s) == UZ_OK);
    const uint8_t *data;
    size_t size;
    CHECK(uz_encoder_finish(e, &data, &size) == UZ_OK);
    uz_decoder d;
    CHECK(uz_decoder_init(&d, UZ_CODER_HUFFMAN, data, size) == UZ_OK);
    bool ok = true;
    for (int s = 0; s < n; s++) {
        int got_s = -1;
        ok = ok && uz_decoder_get(&d, f, n, (uint32_t)sum, &got_s) == UZ_OK && got_s == s;
    }
    CHECK(ok);
    CHECK(uz_decoder_finish(&d) == UZ_OK);
    uz_encoder_destroy(e);
}

static void test_round_trip(void)
{
    test_rng r = {31337};
    enum { POSITIONS = 200000 };
    uint32_t(*freqs)[UZ_CODER_MAX_SYMBOLS] = malloc(sizeof *freqs * 64);
    int ns[64];
    uint32_t totals[64];
    int *syms = malloc(sizeof *syms * POSITIONS);
    int *which = malloc(sizeof *which * POSITIONS);
    uz_encoder *e = NULL;
    CHECK(freqs && syms && which && uz_encoder_create(&e, UZ_CODER_HUFFMAN) == UZ_OK);
    for (int k = 0; k < 64; k++) {
        int n = k < 4 ? 1 : 1 + (int)rng_below(&r, UZ_CODER_MAX_SYMBOLS);
        uint64_t sum = 0;
        for (int i = 0; i < n; i++) {
            uint32_t shape = rng_below(&r, 4);
            freqs[k][i] = shape == 0 ? 0 : shape == 1 ? 1 + rng_below(&r, 3) : 1 + rng_below(&r, 1u << (k % 20 + 1));
            sum += freqs[k][i];
        }
        if (sum == 0) {
            freqs[k][0] = 1;
            sum = 1;
        }
        ns[k] = n;
        totals[k] = (uint32_t)sum;
    }
    double bits = 0;
    bool put_ok = true;
    for (int p = 0; p < POSITIONS; p++) {
        int k = (int)rng_below(&r, 64);
        /* Draw the symbol from the distribution itself. */
        uint32_t x = rng_below(&r, totals[k]), c = 0;
        int s = 0;
        while (c + freqs[k][s] <= x)
            c += freqs[k][s++];
        which[p] = k;
        syms[p] = s;
        put_ok = put_ok && uz_encoder_put(e, freqs[k], ns[k], totals[k], s) == UZ_OK;
        bits += uz_coder_cost_bits(UZ_CODER_HUFFMAN, freqs[k], ns[k], totals[k], s);
    }
    CHECK(put_ok);
    const uint8_t *data;
    size_t size;
    CHECK(uz_encoder_finish(e, &data, &size) == UZ_OK);
    CHECK(size == (size_t)((bits + 7) / 8), "size %zu bits %.0f", size, bits);
    uz_decoder d;
    CHECK(uz_decoder_init(&d, UZ_CODER_HUFFMAN, data, size) == UZ_OK);
    bool ok = true;
    for (int p = 0; p < POSITIONS && ok; p++) {
        int k = which[p], s = -1;
        ok = uz_decoder_get(&d, freqs[k], ns[k], totals[k], &s) == UZ_OK && s == syms[p];
    }
    CHECK(ok);
    CHECK(uz_decoder_finish(&d) == UZ_OK);

    /* Truncation is detected (running out of bits), never a crash. */
    bool trunc_ok = true;
    for (size_t cut = 0; cut < 64 && cut < size; cut++) {
        uz_decoder_init(&d, UZ_CODER_HUFFMAN, data, cut);
        uz_result res = UZ_OK;
        for (int p = 0; p < POSITIONS && res == UZ_OK; p++) {
            int k = which[p], s;
            res = uz_decoder_get(&d, freqs[k], ns[k], totals[k], &s);
        }
        trunc_ok = trunc_ok && res == UZ_ERR_CORRUPT;
    }
    CHECK(trunc_ok);

    /* Trailing garbage is detected by finish. */
    uint8_t *longer = malloc(size + 1);
    memcpy(longer, data, size);
    longer[size] = 0x80;
    uz_decoder_init(&d, UZ_CODER_HUFFMAN, longer, size + 1);
    for (int p = 0; p < POSITIONS; p++) {
        int k = which[p], s;
        uz_decoder_get(&d, freqs[k], ns[k], totals[k], &s);
    }
    CHECK(uz_decoder_finish(&d) == UZ_ERR_CORRUPT);
    free(longer);

    /* Reset reuses the encoder; single-symbol positions cost nothing. */
    uz_encoder_reset(e);
    uint32_t one[1] = {UZ_RANGE_MAX_TOTAL};
    for (int i = 0; i < 1000; i++)
        CHECK(uz_encoder_put(e, one, 1, UZ_RANGE_MAX_TOTAL, 0) == UZ_OK);
    CHECK(uz_encoder_finish(e, &data, &size) == UZ_OK && size == 0);
    CHECK(uz_encoder_put(e, one, 1, UZ_RANGE_MAX_TOTAL, 0) == UZ_ERR_ARG); /* finished */
    uz_decoder_init(&d, UZ_CODER_HUFFMAN, data, size);
    int s = -1;
    CHECK(uz_decoder_get(&d, one, 1, UZ_RANGE_MAX_TOTAL, &s) == UZ_OK && s == 0);
    CHECK(uz_decoder_finish(&d) == UZ_OK);

    uz_encoder_destroy(e);
    free(freqs);
    free(syms);
    free(which);
}

static void test_args(void)
{
    uz_encoder *e = NULL;
    CHECK(uz_encoder_create(&e, (uz_coder_kind)9) == UZ_ERR_ARG && e == NULL);
    CHECK(uz_encoder_create(NULL, UZ_CODER_HUFFMAN) == UZ_ERR_ARG);
    CHECK(uz_encoder_create(&e, UZ_CODER_HUFFMAN) == UZ_OK);
    uint32_t f[3] = {1, 0, 3};
    CHECK(uz_encoder_put(e, f, 3, 4, 1) == UZ_ERR_ARG); /* zero frequency */
    CHECK(uz_encoder_put(e, f, 3, 5, 0) == UZ_ERR_ARG); /* wrong total */
    CHECK(uz_encoder_put(e, f, 3, 4, 3) == UZ_ERR_ARG); /* symbol out of range */
    CHECK(uz_encoder_put(e, f, 3, 4, -1) == UZ_ERR_ARG);
    CHECK(uz_encoder_put(e, NULL, 3, 4, 0) == UZ_ERR_ARG);
    CHECK(uz_encoder_put(e, f, 3, 4, 2) == UZ_OK);
    CHECK(uz_coder_cost_bits(UZ_CODER_HUFFMAN, f, 3, 4, 2) == 1.0);
    CHECK(uz_coder_cost_bits(UZ_CODER_HUFFMAN, f, 3, 4, 1) == -1.0);
    uz_encoder_destroy(e);
    uz_encoder_destroy(NULL);
    uz_decoder d;
    CHECK(uz_decoder_init(&d, UZ_CODER_HUFFMAN, NULL, 0) == UZ_OK);
    int s;
    CHECK(uz_decoder_get(&d, f, 3, 4, &s) == UZ_ERR_CORRUPT);
    CHECK(uz_decoder_init(&d, UZ_CODER_HUFFMAN, NULL, 3) == UZ_ERR_ARG);
    CHECK(uz_decoder_init(NULL, UZ_CODER_HUFFMAN, NULL, 0) == UZ_ERR_ARG);
}

int main(void)
{
    test_known();
    test_brute();
    test_random_codes();
    test_length_limit();
    test_round_trip();
    test_args();
    return test_finish();
}
