/* Throughput of the model and both coders on model-made distributions (n = 40). */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "../common/uz_test.h"
#include "test_rng.h"
#include "codec/coder.h"
#include "model/move_model.h"

enum { DISTS = 256, N = 40, SYMBOLS = 2000000 };

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint32_t freq[DISTS][N];
static int32_t scores[DISTS][N];
static uint16_t which[SYMBOLS];
static uint8_t syms[SYMBOLS];
static uz_model model;

static void bench_coder(uz_coder_kind kind, const char *name, double ideal)
{
    uz_encoder *e = NULL;
    const uint8_t *data;
    size_t size;
    uz_encoder_create(&e, kind);
    double t0 = now();
    for (int p = 0; p < SYMBOLS; p++)
        uz_encoder_put(e, freq[which[p]], N, UZ_MODEL_TOTAL, syms[p]);
    uz_encoder_finish(e, &data, &size);
    double t1 = now();
    uz_decoder d;
    uz_decoder_init(&d, kind, data, size);
    int bad = 0;
    for (int p = 0; p < SYMBOLS; p++) {
        int s;
        if (uz_decoder_get(&d, freq[which[p]], N, UZ_MODEL_TOTAL, &s) != UZ_OK || s != syms[p])
            bad++;
    }
    bad += uz_decoder_finish(&d) != UZ_OK;
    double t2 = now();
    printf("%-8s encode %6.2f M symbols/s, decode %6.2f M symbols/s, %.4f bits/symbol (ideal %.4f, +%.3f%%)%s\n",
           name, SYMBOLS / (t1 - t0) / 1e6, SYMBOLS / (t2 - t1) / 1e6, 8.0 * size / SYMBOLS, ideal / SYMBOLS,
           100.0 * (8.0 * size - ideal) / ideal, bad ? "  ROUND TRIP FAILED" : "");
    uz_encoder_destroy(e);
}

int main(void)
{
    test_rng r = {1};
    uz_model_params p = uz_model_default_params();
    p.k_milli = 8000;
    uz_model_init(&model, &p);
    for (int k = 0; k < DISTS; k++) {
        for (int i = 0; i < N; i++)
            scores[k][i] = (int32_t)rng_below(&r, 200) - (i == 0 ? 0 : (int32_t)rng_below(&r, 500));
        uz_model_score_frequencies(&model, scores[k], N, freq[k]);
    }
    double ideal = 0;
    for (int p2 = 0; p2 < SYMBOLS; p2++) {
        int k = (int)rng_below(&r, DISTS);
        uint32_t x = rng_below(&r, UZ_MODEL_TOTAL), c = 0;
        int s = 0;
        while (c + freq[k][s] <= x)
            c += freq[k][s++];
        which[p2] = (uint16_t)k;
        syms[p2] = (uint8_t)s;
        ideal += -log2(freq[k][s] / 65536.0);
    }

    enum { BUILDS = 200000 };
    uint8_t len[N];
    uint32_t codes[N];
    unsigned sink = 0;
    double t0 = now();
    for (int i = 0; i < BUILDS; i++) {
        uz_huffman_code(freq[i % DISTS], N, len, codes);
        sink += len[i % N];
    }
    double t1 = now();
    uint32_t f[N];
    for (int i = 0; i < BUILDS; i++) {
        uz_model_score_frequencies(&model, scores[i % DISTS], N, f);
        sink += f[i % N];
    }
    double t2 = now();
    printf("huffman  %.2f M code builds/s at n = %d (%.2f us each)\n", BUILDS / (t1 - t0) / 1e6, N,
           (t1 - t0) / BUILDS * 1e6);
    printf("model    %.2f M frequency vectors/s at n = %d (%.2f us each)\n", BUILDS / (t2 - t1) / 1e6, N,
           (t2 - t1) / BUILDS * 1e6);
    bench_coder(UZ_CODER_RANGE, "range", ideal);
    bench_coder(UZ_CODER_HUFFMAN, "huffman", ideal);
    return sink == 12345 ? 1 : 0;
}
