/* Tests of the move model: invariants, score normalisation, accuracy of the integer
 * exponential, golden outputs that pin the exact bits of the archive format, and the one
 * interface (uz_model_frequencies of a context) for every kind. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "../codec/test_rng.h"
#include "model/move_model.h"

static uz_model g_model; /* big: keep off the stack */

static uz_model *model_with(uint32_t k_milli, uint32_t floor_q16)
{
    uz_model_params p = {UZ_MODEL_EXP, k_milli, floor_q16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (uz_model_init(&g_model, &p) != UZ_OK) {
        fprintf(stderr, "model init failed for k=%u floor=%u\n", k_milli, floor_q16);
        exit(2);
    }
    return &g_model;
}

static uint64_t fnv1a(uint64_t h, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        h ^= (v >> (8 * i)) & 0xFF;
        h *= 0x100000001B3ull;
    }
    return h;
}

static void random_scores(test_rng *r, int32_t *s, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t kind = rng_below(r, 20);
        if (kind == 0)
            s[i] = UZ_SCORE_MATE - 1 - (int32_t)rng_below(r, 80);
        else if (kind == 1)
            s[i] = -UZ_SCORE_MATE + (int32_t)rng_below(r, 80);
        else if (kind == 2)
            s[i] = (int32_t)rng_below(r, 100001) - 50000;
        else
            s[i] = (int32_t)rng_below(r, 1201) - 600;
    }
}

static void test_params(void)
{
    uz_model m;
    uz_model_params d = uz_model_default_params();
    CHECK(d.kind == UZ_MODEL_RANK && d.k_milli == UZ_MODEL_DEFAULT_K_MILLI && d.floor_q16 == UZ_MODEL_DEFAULT_FLOOR_Q16 &&
          d.rank_q16 == UZ_MODEL_DEFAULT_RANK_Q16 && d.decay_q16 == UZ_MODEL_DEFAULT_DECAY_Q16);
    CHECK(uz_model_param_count(UZ_MODEL_EXP) == 2 && uz_model_param_count(UZ_MODEL_RANK) == 4 &&
          uz_model_param_count((uz_model_kind)9) == 0);
    CHECK(uz_model_init(&m, &d) == UZ_OK);
    uz_model_params bad = d;
    bad.k_milli = 999;
    CHECK(uz_model_init(&m, &bad) == UZ_ERR_ARG);
    bad = d;
    bad.floor_q16 = UZ_MODEL_FLOOR_ONE + 1;
    CHECK(uz_model_init(&m, &bad) == UZ_ERR_ARG);
    bad = d;
    bad.decay_q16 = 0;
    CHECK(uz_model_init(&m, &bad) == UZ_ERR_ARG);
    bad = d;
    bad.decay_q16 = 65536;
    CHECK(uz_model_init(&m, &bad) == UZ_ERR_ARG);
    bad = d;
    bad.rank_q16 = 65537;
    CHECK(uz_model_init(&m, &bad) == UZ_ERR_ARG);
    bad = d;
    bad.kind = (uz_model_kind)7;
    CHECK(uz_model_init(&m, &bad) == UZ_ERR_ARG);
    CHECK(uz_model_init(NULL, &d) == UZ_ERR_ARG);
    CHECK(uz_model_init(&m, NULL) == UZ_ERR_ARG);
    uint32_t f[4];
    int32_t s[4] = {0, 0, 0, 0};
    d.kind = UZ_MODEL_EXP; /* equal scores, equal shares */
    uz_model_init(&m, &d);
    CHECK(uz_model_score_frequencies(&m, s, 0, f) == 0);
    CHECK(uz_model_score_frequencies(&m, s, UZ_MODEL_MAX_MOVES + 1, f) == 0);
    CHECK(uz_model_score_frequencies(&m, NULL, 2, f) == 0);
    CHECK(uz_model_score_frequencies(&m, s, 1, f) == UZ_MODEL_TOTAL && f[0] == UZ_MODEL_TOTAL);
    CHECK(uz_model_score_frequencies(&m, s, 4, f) == UZ_MODEL_TOTAL && f[0] == 16384 && f[3] == 16384);
}

static void test_normalize(void)
{
    CHECK(uz_model_normalize_score(0) == 0);
    CHECK(uz_model_normalize_score(999) == 999);
    CHECK(uz_model_normalize_score(1000) == 1000);
    CHECK(uz_model_normalize_score(1001) == 1000);
    CHECK(uz_model_normalize_score(50000) == 1000);
    CHECK(uz_model_normalize_score(-50000) == -1000);
    CHECK(uz_model_normalize_score(-2000) == -1000);
    CHECK(uz_model_normalize_score(UZ_SCORE_MATE - 1) == 1099);
    CHECK(uz_model_normalize_score(UZ_SCORE_MATE - 2) == 1098);
    CHECK(uz_model_normalize_score(UZ_SCORE_MATE - 50) == 1050);
    CHECK(uz_model_normalize_score(UZ_SCORE_MATE - 70) == 1050);
    CHECK(uz_model_normalize_score(UZ_SCORE_MATE) == 1100);
    CHECK(uz_model_normalize_score(INT32_MAX) == 1100);
    CHECK(uz_model_normalize_score(-UZ_SCORE_MATE) == -1100);
    CHECK(uz_model_normalize_score(-UZ_SCORE_MATE + 1) == -1099);
    CHECK(uz_model_normalize_score(-UZ_SCORE_MATE + 70) == -1050);
    CHECK(uz_model_normalize_score(INT32_MIN) == -1100);
    CHECK(uz_model_normalize_score(50001) == 1050);   /* mate in 49999: capped */
    CHECK(uz_model_normalize_score(-50001) == -1050);

    /* Mates rank beyond any cp: mate in 1 > mate in 2 > +cp > -cp > mated late > mated now. */
    int32_t order[] = {UZ_SCORE_MATE - 1, UZ_SCORE_MATE - 2, UZ_SCORE_MATE - 40, 50000, 300, 0, -300, -50000,
                       -UZ_SCORE_MATE + 30, -UZ_SCORE_MATE + 2, -UZ_SCORE_MATE};
    int n = (int)(sizeof order / sizeof order[0]);
    bool ok = true;
    for (int i = 1; i < n; i++)
        ok = ok && uz_model_normalize_score(order[i - 1]) >= uz_model_normalize_score(order[i]);
    CHECK(ok);
    uz_model *m = model_with(1200, 0);
    uint32_t f[16];
    uz_model_score_frequencies(m, order, n, f);
    ok = true;
    for (int i = 1; i < n; i++)
        ok = ok && f[i - 1] > f[i];
    CHECK(ok);
}

static void test_weights(void)
{
    const uint32_t ks[] = {1000, 1500, 2718, 10000, 80000, 200000, 1000000};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        uz_model *m = model_with(ks[ki], 0);
        double k = ks[ki] / 1000.0;
        double worst = 0;
        bool mono = true;
        for (int d = 0; d <= UZ_MODEL_MAX_DIFF; d++) {
            double exact = ldexp(pow(k, -d / 100.0), 31);
            if (d > 0 && m->weight[d] > m->weight[d - 1])
                mono = false;
            /* Relative error ~2^-23 from the Q31 mantissa, plus the final shift's
             * truncation (at most 1 unit of 2^-31). */
            double err = fabs(m->weight[d] - exact) / (exact * 2e-7 + 1.0);
            if (err > worst)
                worst = err;
        }
        CHECK(m->weight[0] == 1u << 31, "k=%u", ks[ki]);
        CHECK(mono, "k=%u", ks[ki]);
        CHECK(worst <= 1.0, "k=%u worst scaled error %g", ks[ki], worst);
    }
    uz_model *m = model_with(1000, 0);
    bool flat = true;
    for (int d = 0; d <= UZ_MODEL_MAX_DIFF; d++)
        flat = flat && m->weight[d] == 1u << 31;
    CHECK(flat);
}

static void test_invariants(void)
{
    test_rng r = {12345};
    int32_t s[UZ_MODEL_MAX_MOVES];
    uint32_t f[UZ_MODEL_MAX_MOVES];
    const uint32_t ks[] = {1000, 1500, 5000, 80000, 200000, 1000000000};
    const uint32_t floors[] = {0, 1, 655, 3277, 13107, 65535, 65536};
    bool sum_ok = true, pos_ok = true, mono_ok = true;
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        for (size_t fi = 0; fi < sizeof floors / sizeof floors[0]; fi++) {
            uz_model *m = model_with(ks[ki], floors[fi]);
            for (int t = 0; t < 300; t++) {
                int n = 1 + (int)rng_below(&r, UZ_MODEL_MAX_MOVES);
                random_scores(&r, s, n);
                if (uz_model_score_frequencies(m, s, n, f) != UZ_MODEL_TOTAL)
                    sum_ok = false;
                uint64_t sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += f[i];
                    pos_ok = pos_ok && f[i] >= 1;
                }
                sum_ok = sum_ok && sum == UZ_MODEL_TOTAL;
                for (int i = 0; i < n && mono_ok; i++) {
                    for (int j = 0; j < n; j++) {
                        int32_t vi = uz_model_normalize_score(s[i]), vj = uz_model_normalize_score(s[j]);
                        if (vi > vj && f[i] < f[j])
                            mono_ok = false;
                        /* Equal scores, equal frequencies: only the first best move's
                         * leftover may differ. */
                        if (vi == vj && f[i] > f[j] && i > j)
                            mono_ok = false;
                    }
                }
            }
        }
    }
    CHECK(sum_ok);
    CHECK(pos_ok);
    CHECK(mono_ok);
}

static void test_ratios(void)
{
    /* Equal score steps give equal ratios: k = 16, steps of 25 cp -> ratio 2. */
    uz_model *m = model_with(16000, 0);
    int32_t s[6] = {100, 75, 50, 25, 0, -25};
    uint32_t f[6];
    uz_model_score_frequencies(m, s, 6, f);
    bool ok = true;
    for (int i = 2; i < 6; i++) {
        double ratio = (double)f[i - 1] / f[i];
        ok = ok && fabs(ratio - 2.0) < 0.01;
    }
    CHECK(ok, "%u %u %u %u %u %u", f[0], f[1], f[2], f[3], f[4], f[5]);
    /* Shifting every score leaves the frequencies unchanged (only differences matter). */
    int32_t s2[6];
    uint32_t f2[6];
    for (int i = 0; i < 6; i++)
        s2[i] = s[i] - 333;
    uz_model_score_frequencies(m, s2, 6, f2);
    CHECK(memcmp(f, f2, sizeof f) == 0);
    /* Ratio of one pawn is k. */
    m = model_with(10000, 0);
    int32_t s3[2] = {0, -100};
    uz_model_score_frequencies(m, s3, 2, f);
    CHECK(fabs((double)f[0] / f[1] - 10.0) < 0.01, "%u %u", f[0], f[1]);
}

static void test_floor(void)
{
    /* The worst move costs at most about log2(n / eps) bits. */
    test_rng r = {777};
    int32_t s[UZ_MODEL_MAX_MOVES];
    uint32_t f[UZ_MODEL_MAX_MOVES];
    const uint32_t floors[] = {328, 1311, 3277, 6554, 32768};
    bool ok = true;
    for (size_t fi = 0; fi < sizeof floors / sizeof floors[0]; fi++) {
        uz_model *m = model_with(200000, floors[fi]);
        double eps = floors[fi] / 65536.0;
        for (int t = 0; t < 500; t++) {
            int n = 2 + (int)rng_below(&r, UZ_MODEL_MAX_MOVES - 1);
            random_scores(&r, s, n);
            uz_model_score_frequencies(m, s, n, f);
            double bound = log2(n / eps) + 0.1;
            for (int i = 0; i < n; i++) {
                double cost = -log2((double)f[i] / UZ_MODEL_TOTAL);
                if (cost > bound) {
                    ok = false;
                    fprintf(stderr, "floor %u n %d cost %.3f bound %.3f\n", floors[fi], n, cost, bound);
                    break;
                }
            }
        }
    }
    CHECK(ok);
    /* Without a floor every move still gets at least one unit. */
    uz_model *m = model_with(1000000000, 0);
    int32_t s2[3] = {UZ_SCORE_MATE - 1, -UZ_SCORE_MATE, -1000};
    uz_model_score_frequencies(m, s2, 3, f);
    CHECK(f[1] == 1 && f[2] == 1 && f[0] == UZ_MODEL_TOTAL - 2);
    /* With epsilon = 1 the distribution is uniform. */
    m = model_with(80000, UZ_MODEL_FLOOR_ONE);
    uz_model_score_frequencies(m, s2, 3, f);
    CHECK(f[1] == 21845 && f[2] == 21845 && f[0] == 21846);
}

static void test_k_sweep(void)
{
    /* Larger k: the best move gets more, the others less. */
    int32_t s[5] = {40, 10, -30, -200, 15};
    uint32_t f[5];
    uint32_t prev_best = 0, prev_worst = UINT32_MAX;
    bool ok = true;
    for (uint32_t k = 1000; k <= 512000; k *= 2) {
        uz_model *m = model_with(k, 1000);
        uz_model_score_frequencies(m, s, 5, f);
        ok = ok && f[0] >= prev_best && f[3] <= prev_worst;
        prev_best = f[0];
        prev_worst = f[3];
    }
    CHECK(ok);
    CHECK(prev_best > 45000);
    uz_model *m = model_with(1000, 1000);
    uz_model_score_frequencies(m, s, 5, f);
    CHECK(f[0] < 13200 && f[0] > 13000); /* k = 1: uniform */
}

static void test_rank(void)
{
    uz_model *m = model_with(80000, 3277);
    int32_t s[5] = {10, 50, 50, -20, UZ_SCORE_MATE - 3};
    CHECK(uz_model_rank(m, s, 5, 4) == 1);
    CHECK(uz_model_rank(m, s, 5, 1) == 2);
    CHECK(uz_model_rank(m, s, 5, 2) == 3);
    CHECK(uz_model_rank(m, s, 5, 0) == 4);
    CHECK(uz_model_rank(m, s, 5, 3) == 5);
    CHECK(uz_model_rank(m, s, 5, 5) == 0);
    CHECK(uz_model_rank(m, s, 1, 0) == 1);
}

/* The rank model: invariants, the ranking's geometric shares, ties ordered by index. */
static void test_rank_model(void)
{
    static uz_model m;
    uz_model_params p = {UZ_MODEL_RANK, 80000, 3277, 29491, 45875, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(uz_model_init(&m, &p) == UZ_OK);
    test_rng r = {77};
    int32_t s[UZ_MODEL_MAX_MOVES];
    uint32_t f[UZ_MODEL_MAX_MOVES];
    bool ok = true;
    for (int t = 0; t < 2000 && ok; t++) {
        int n = 1 + (int)rng_below(&r, UZ_MODEL_MAX_MOVES);
        random_scores(&r, s, n);
        uint64_t sum = 0;
        ok = uz_model_score_frequencies(&m, s, n, f) == UZ_MODEL_TOTAL;
        for (int i = 0; i < n && ok; i++) {
            sum += f[i];
            ok = f[i] >= 1;
            for (int j = 0; j < n && ok; j++) {
                int32_t vi = uz_model_normalize_score(s[i]), vj = uz_model_normalize_score(s[j]);
                /* a better score, or an equal one earlier in canonical order, never gets less */
                if (vi > vj || (vi == vj && i < j))
                    ok = f[i] >= f[j];
            }
        }
        ok = ok && sum == UZ_MODEL_TOTAL;
    }
    CHECK(ok);
    /* Ranking alone (beta = 1, no floor): equal scores get rho^rank shares by index. */
    uz_model_params only = {UZ_MODEL_RANK, 80000, 0, 65536, 32768, 0, 0, 0, 0, 0, 0, 0, 0};
    uz_model_init(&m, &only);
    int32_t eq[4] = {5, 5, 5, 5};
    uz_model_score_frequencies(&m, eq, 4, f);
    /* T = 65536: one unit each, the other 65532 as 8:4:2:1 of 15, truncated (34950, 17475,
     * 8737, 4368), and the 2 units left over to the best move. */
    CHECK(f[0] == 1 + 34952 && f[1] == 1 + 17475 && f[2] == 1 + 8737 && f[3] == 1 + 4368, "rank shares %u %u %u %u",
           f[0], f[1], f[2], f[3]);
    /* beta = 0 is exactly the exponential model. */
    static uz_model e;
    uz_model_params rank0 = {UZ_MODEL_RANK, 80000, 3277, 0, 45875, 0, 0, 0, 0, 0, 0, 0, 0}, exp = {UZ_MODEL_EXP, 80000, 3277, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    uz_model_init(&m, &rank0);
    uz_model_init(&e, &exp);
    uint32_t g[UZ_MODEL_MAX_MOVES];
    ok = true;
    for (int t = 0; t < 200 && ok; t++) {
        int n = 1 + (int)rng_below(&r, 60);
        random_scores(&r, s, n);
        uz_model_score_frequencies(&m, s, n, f);
        uz_model_score_frequencies(&e, s, n, g);
        ok = memcmp(f, g, (size_t)n * sizeof *f) == 0;
    }
    CHECK(ok);
}

/* Golden outputs. These pin the exact integer model, which is part of the archive format:
 * they must never change unless the archive format version is bumped. */
typedef struct golden_case {
    uint32_t k_milli, floor_q16;
    uint64_t weight_hash; /* FNV-1a of weight[0..UZ_MODEL_MAX_DIFF] */
    uint64_t freq_hash;   /* FNV-1a of the frequencies of 200 pseudo-random positions */
} golden_case;

static const golden_case golden[] = {
    {1000, 0, 0x654DC290F23A84F5ull, 0xFFA4A88398F92DCCull},
    {1500, 3277, 0x6A1ED757E08EAD42ull, 0xC2CFCAA848746271ull},
    {2718, 655, 0x90E958694BD23753ull, 0x6A19D4FDF23D676Bull},
    {10000, 3277, 0x2E017722FFB6E6BCull, 0xD8313111ACB4FDF3ull},
    {80000, 3277, 0x9A4091445454DF5Cull, 0x41CF695EEBD21A8Aull},
    {80000, 0, 0x9A4091445454DF5Cull, 0xA776AE22E06344DFull},
    {200000, 6554, 0x42B6035CAF48D51Eull, 0xBA5ABDB8E2C242BDull},
    {1000000000, 1, 0xCC80E82646972D4Dull, 0x5D9912B39865E65Dull},
};

static const int32_t golden_scores[8] = {35, 12, 12, -80, -400, UZ_SCORE_MATE - 2, -UZ_SCORE_MATE + 4, 1500};
static const uint32_t golden_freq[8] = {
    246, 246, 246, 246, 246, 60610, 246, 3450
};

static void golden_hashes(uint32_t k_milli, uint32_t floor_q16, uint64_t *wh, uint64_t *fh)
{
    uz_model *m = model_with(k_milli, floor_q16);
    uint64_t h = 0xCBF29CE484222325ull;
    for (int d = 0; d <= UZ_MODEL_MAX_DIFF; d++)
        h = fnv1a(h, m->weight[d]);
    *wh = h;
    test_rng r = {2024};
    int32_t s[UZ_MODEL_MAX_MOVES];
    uint32_t f[UZ_MODEL_MAX_MOVES];
    h = 0xCBF29CE484222325ull;
    for (int t = 0; t < 200; t++) {
        int n = 1 + (int)rng_below(&r, 80);
        random_scores(&r, s, n);
        uz_model_score_frequencies(m, s, n, f);
        for (int i = 0; i < n; i++)
            h = fnv1a(h, f[i]);
    }
    *fh = h;
}

static const uint32_t golden_params[][2] = {
    {1000, 0}, {1500, 3277}, {2718, 655}, {10000, 3277}, {80000, 3277}, {80000, 0}, {200000, 6554}, {1000000000, 1},
};

/* FNV-1a of the rank model's frequencies for the same 200 positions, asked through the
 * model's one interface with a context of scores only. */
static uint64_t golden_rank_hash(uint32_t rank_q16, uint32_t decay_q16)
{
    static uz_model m;
    uz_model_params p = {UZ_MODEL_RANK, 80000, 3277, rank_q16, decay_q16, 0, 0, 0, 0, 0, 0, 0, 0};
    uz_model_init(&m, &p);
    test_rng r = {2024};
    int32_t s[UZ_MODEL_MAX_MOVES];
    uint32_t f[UZ_MODEL_MAX_MOVES];
    uint64_t h = 0xCBF29CE484222325ull;
    for (int t = 0; t < 200; t++) {
        int n = 1 + (int)rng_below(&r, 80);
        random_scores(&r, s, n);
        uz_model_context ctx = {.scores = s, .n = n};
        if (uz_model_frequencies(&m, &ctx, f) != UZ_MODEL_TOTAL)
            return 0;
        for (int i = 0; i < n; i++)
            h = fnv1a(h, f[i]);
    }
    return h;
}

static const struct {
    uint32_t rank_q16, decay_q16;
    uint64_t freq_hash;
} golden_rank[] = {
    {29491, 45875, 0xF4003DD8CC7A4F7Full},
    {65536, 1, 0x897914460DB9F795ull},
    {6554, 65535, 0x0B5F25A14EB7E2F4ull},
    {32768, 32768, 0x0139E10DF3DC3E6Aull},
};

static void test_golden(bool print)
{
    size_t np = sizeof golden_params / sizeof golden_params[0];
    uint32_t f[8];
    uz_model *m = model_with(UZ_MODEL_DEFAULT_K_MILLI, UZ_MODEL_DEFAULT_FLOOR_Q16);
    uz_model_score_frequencies(m, golden_scores, 8, f);
    if (print) {
        for (size_t i = 0; i < np; i++) {
            uint64_t wh, fh;
            golden_hashes(golden_params[i][0], golden_params[i][1], &wh, &fh);
            printf("    {%u, %u, 0x%016llXull, 0x%016llXull},\n", golden_params[i][0], golden_params[i][1],
                   (unsigned long long)wh, (unsigned long long)fh);
        }
        for (int i = 0; i < 8; i++)
            printf("%u,%s", f[i], i == 7 ? "\n" : " ");
        static const uint32_t rank_params[][2] = {{29491, 45875}, {65536, 1}, {6554, 65535}, {32768, 32768}};
        for (size_t i = 0; i < 4; i++)
            printf("    {%u, %u, 0x%016llXull},\n", rank_params[i][0], rank_params[i][1],
                   (unsigned long long)golden_rank_hash(rank_params[i][0], rank_params[i][1]));
        return;
    }
    for (size_t i = 0; i < sizeof golden_rank / sizeof golden_rank[0]; i++)
        CHECK(golden_rank_hash(golden_rank[i].rank_q16, golden_rank[i].decay_q16) == golden_rank[i].freq_hash,
               "rank model %u %u", golden_rank[i].rank_q16, golden_rank[i].decay_q16);
    CHECK(sizeof golden / sizeof golden[0] == np);
    for (size_t i = 0; i < np && i < sizeof golden / sizeof golden[0]; i++) {
        uint64_t wh, fh;
        golden_hashes(golden[i].k_milli, golden[i].floor_q16, &wh, &fh);
        CHECK(wh == golden[i].weight_hash, "weights k=%u", golden[i].k_milli);
        CHECK(fh == golden[i].freq_hash, "freqs k=%u floor=%u", golden[i].k_milli, golden[i].floor_q16);
    }
    CHECK(memcmp(f, golden_freq, sizeof f) == 0);
}

/* The interface for every kind on a real position: exp and rank read only the scores
 * (the same bits as uz_model_score_frequencies); the player model needs its weights
 * (uz_model_open) and the position, and prices the moves by more than their scores. */
static void test_interface(void)
{
    static uz_model m;
    uz_position pos;
    uz_move moves[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    uint32_t f[UZ_MAX_MOVES], g[UZ_MAX_MOVES];
    CHECK(uz_position_from_fen(&pos, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", NULL) ==
          UZ_OK);
    int n = uz_generate_legal(&pos, moves);
    CHECK(n == 27);
    test_rng r = {77};
    random_scores(&r, scores, n);
    uz_model_context ctx = {.pos = &pos, .moves = moves, .scores = scores, .n = n};
    uz_pm_game_from_tags(&ctx.game, "1800", "1900", "300+0");
    ctx.history.last = ctx.history.own_last = UZ_MOVE_NONE;

    uz_model_params exp_params = {UZ_MODEL_EXP, 20000, 1966, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    uz_model_params rank = uz_model_default_params();
    const uz_model_params *by_scores[] = {&exp_params, &rank};
    for (int k = 0; k < 2; k++) {
        CHECK(uz_model_open(&m, by_scores[k], NULL) == UZ_OK && m.player == NULL);
        CHECK(uz_model_frequencies(&m, &ctx, f) == UZ_MODEL_TOTAL);
        CHECK(uz_model_score_frequencies(&m, scores, n, g) == UZ_MODEL_TOTAL);
        CHECK(memcmp(f, g, (size_t)n * sizeof *f) == 0, "kind %d: the context's frequencies are the scores'",
              (int)by_scores[k]->kind);
    }

    uz_model_params player = {.kind = UZ_MODEL_PLAYER};
    CHECK(uz_model_init(&m, &player) == UZ_OK);
    CHECK(uz_model_frequencies(&m, &ctx, f) == 0); /* no weights attached */
    CHECK(uz_model_score_frequencies(&m, scores, n, f) == 0);
    CHECK(uz_model_open(&m, &player, NULL) == UZ_OK && m.player != NULL);
    CHECK(m.params.player_version == UZ_PM_DEFAULT_VERSION_ENGINE);
    CHECK(uz_model_frequencies(&m, &ctx, f) == UZ_MODEL_TOTAL);
    uint32_t sum = 0;
    bool all_positive = true;
    for (int i = 0; i < n; i++) {
        sum += f[i];
        all_positive = all_positive && f[i] >= 1;
    }
    CHECK(sum == UZ_MODEL_TOTAL && all_positive);
    uz_model_context no_position = ctx;
    no_position.pos = NULL;
    CHECK(uz_model_frequencies(&m, &no_position, g) == 0);
    /* The same scores with equal moves but different pieces: the player model tells them
     * apart, a model of scores cannot. */
    for (int i = 0; i < n; i++)
        scores[i] = 0;
    CHECK(uz_model_frequencies(&m, &ctx, f) == UZ_MODEL_TOTAL);
    bool differ = false;
    for (int i = 1; i < n; i++)
        differ = differ || f[i] != f[0];
    CHECK(differ, "the player model prices equally scored moves by their features");

    player.player_version = 9999;
    player.player_hash_lo = 1;
    uz_diag diag = {0};
    CHECK(uz_model_open(&m, &player, &diag) == UZ_ERR_MISMATCH && strstr(diag.message, "version 9999"));
    CHECK(uz_model_frequencies(&m, NULL, f) == 0 && uz_model_frequencies(NULL, &ctx, f) == 0);
}

/* What each kind stores in an archive header, and back. */
static void test_stored_params(void)
{
    uz_model_params exp_params = {UZ_MODEL_EXP, 20000, 1966, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    uz_model_params rank = uz_model_default_params();
    uz_model_params player = {.kind = UZ_MODEL_PLAYER, .player_version = 2, .player_hash_lo = 0x89abcdefu,
                              .player_hash_hi = 0x01234567u};
    const uz_model_params *kinds[] = {&exp_params, &rank, &player};
    const uint32_t want[3][UZ_MODEL_MAX_STORED] = {{20000, 1966},
                                                   {UZ_MODEL_DEFAULT_K_MILLI, UZ_MODEL_DEFAULT_FLOOR_Q16,
                                                    UZ_MODEL_DEFAULT_RANK_Q16, UZ_MODEL_DEFAULT_DECAY_Q16},
                                                   {2, 0x89abcdefu, 0x01234567u}};
    for (int k = 0; k < 3; k++) {
        uint32_t v[UZ_MODEL_MAX_STORED] = {0};
        int n = uz_model_params_store(kinds[k], v);
        CHECK(n == uz_model_param_count(kinds[k]->kind) && memcmp(v, want[k], sizeof v) == 0, "kind %d stores",
              (int)kinds[k]->kind);
        uz_model_params back;
        CHECK(uz_model_params_load(&back, kinds[k]->kind, v, (uint32_t)n) == UZ_OK);
        CHECK(memcmp(&back, kinds[k], sizeof back) == 0, "kind %d loads back", (int)kinds[k]->kind);
        CHECK(uz_model_params_load(&back, kinds[k]->kind, v, (uint32_t)n + 1) == UZ_ERR_UNSUPPORTED &&
              back.kind == kinds[k]->kind && back.k_milli == 0 && back.player_version == 0);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--print-golden") == 0) {
        test_golden(true);
        return 0;
    }
    test_params();
    test_normalize();
    test_weights();
    test_invariants();
    test_ratios();
    test_floor();
    test_k_sweep();
    test_rank();
    test_rank_model();
    test_golden(false);
    test_interface();
    test_stored_params();
    return test_finish();
}
