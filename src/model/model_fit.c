/* Analysis helpers of the move model: ideal costs and fitting the exp and rank kinds'
 * parameters (off the coded path). */
#include "model/move_model.h"

#include <stdlib.h>

#include "codec/fixed.h"

double uz_cost_bits(uint32_t freq, uint32_t total)
{
    if (freq == 0 || freq > total)
        return -1.0;
    /* Integer log2 keeps reported costs identical across machines (no libm). */
    uint64_t diff = uz__log2_q32(total) - uz__log2_q32(freq);
    return (double)diff / 4294967296.0;
}

double uz_model_total_cost(const uz_model *m, const uz_fit_sample *samples, size_t count)
{
    uint32_t freq[UZ_MODEL_MAX_MOVES];
    double bits = 0.0;
    if (!m || (!samples && count > 0))
        return -1.0;
    for (size_t i = 0; i < count; i++) {
        const uz_fit_sample *s = &samples[i];
        if (!s->scores || s->played < 0 || s->played >= s->n)
            return -1.0;
        uint32_t total = uz_model_score_frequencies(m, s->scores, s->n, freq);
        if (total == 0)
            return -1.0;
        bits += uz_cost_bits(freq[s->played], total);
    }
    return bits;
}

/* What the search varies: log2(k_milli) or log2(floor_q16) (log scales), or beta or rho
 * of UZ_MODEL_RANK (linear). */
typedef enum fit_axis { AXIS_K, AXIS_FLOOR, AXIS_RANK, AXIS_DECAY } fit_axis;

typedef struct fit_ctx {
    const uz_fit_sample *samples;
    size_t count;
    uz_model model; /* scratch; large, so it lives here rather than on each frame */
    double cost[UZ_MODEL_TOTAL + 1]; /* uz_cost_bits(f, UZ_MODEL_TOTAL), computed once */
} fit_ctx;

static uz_model_params with_coord(uz_model_params p, fit_axis axis, double u)
{
    uint32_t uq = (uint32_t)(u * 65536.0 + 0.5);
    if (axis == AXIS_RANK || axis == AXIS_DECAY) {
        if (axis == AXIS_RANK)
            p.rank_q16 = uq;
        else
            p.decay_q16 = uq < 1 ? 1 : uq > 65535 ? 65535 : uq;
        return p;
    }
    uint32_t v = uz__exp2_q16_round(uz__exp2_constants(), uq);
    if (axis == AXIS_K)
        p.k_milli = v < UZ_MODEL_K_MILLI_MIN ? UZ_MODEL_K_MILLI_MIN : v;
    else
        p.floor_q16 = v > UZ_MODEL_FLOOR_ONE ? UZ_MODEL_FLOOR_ONE : v;
    return p;
}

/* Same sum as uz_model_total_cost (samples already validated), from the cost table. */
static double eval_params(fit_ctx *c, const uz_model_params *p)
{
    uint32_t freq[UZ_MODEL_MAX_MOVES];
    if (uz_model_init(&c->model, p) != UZ_OK)
        return 1e300;
    double bits = 0.0;
    for (size_t i = 0; i < c->count; i++) {
        const uz_fit_sample *s = &c->samples[i];
        uz_model_score_frequencies(&c->model, s->scores, s->n, freq);
        bits += c->cost[freq[s->played]];
    }
    return bits;
}

static double to_log2(uint32_t x)
{
    return (double)uz__log2_q32(x) / 4294967296.0;
}

/* Golden-section search of one coordinate in [lo, hi] (log2 units); updates *p and *bits
 * if it finds something better than *bits. The cost is piecewise constant in the
 * integer parameter, so this finds a local minimum to within the bracket resolution. */
static void golden(fit_ctx *c, uz_model_params *p, double *bits, fit_axis axis, double lo, double hi)
{
    const double g = 0.6180339887498949;
    double a = lo, b = hi;
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    uz_model_params p1 = with_coord(*p, axis, x1), p2 = with_coord(*p, axis, x2);
    double f1 = eval_params(c, &p1), f2 = eval_params(c, &p2);
    for (int it = 0; it < 40 && b - a > 1e-3; it++) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            p2 = p1;
            f2 = f1;
            x1 = b - g * (b - a);
            p1 = with_coord(*p, axis, x1);
            f1 = eval_params(c, &p1);
        } else {
            a = x1;
            x1 = x2;
            p1 = p2;
            f1 = f2;
            x2 = a + g * (b - a);
            p2 = with_coord(*p, axis, x2);
            f2 = eval_params(c, &p2);
        }
    }
    if (f1 < *bits || f2 < *bits) {
        *p = f1 <= f2 ? p1 : p2;
        *bits = f1 <= f2 ? f1 : f2;
    }
}

uz_result uz_model_fit(const uz_fit_sample *samples, size_t count, const uz_model_params *start,
                       bool fit_floor, uz_model_params *best, double *best_bits)
{
    uz_result res = UZ_OK;
    fit_ctx *c = NULL;
    if (!samples || count == 0 || !start || !best)
        return UZ_ERR_ARG;

    c = malloc(sizeof *c);
    if (!c)
        return UZ_ERR_NOMEM;
    c->samples = samples;
    c->count = count;
    c->cost[0] = 0.0;
    for (uint32_t f = 1; f <= UZ_MODEL_TOTAL; f++)
        c->cost[f] = uz_cost_bits(f, UZ_MODEL_TOTAL);

    uz_model_params p = *start;
    if (uz_model_init(&c->model, &p) != UZ_OK) {
        res = UZ_ERR_ARG;
        goto cleanup;
    }
    double bits = uz_model_total_cost(&c->model, samples, count);
    if (bits < 0) {
        res = UZ_ERR_ARG;
        goto cleanup;
    }
    double k_lo = to_log2(1500), k_hi = to_log2(1000000);
    double f_lo = 0.0, f_hi = 15.0; /* floor_q16 in [1, 32768] */
    /* Coordinate descent: alternate the two searches until neither moves (at most 4 rounds). */
    int rounds = fit_floor ? 4 : 1;
    bool rank = p.kind == UZ_MODEL_RANK;
    if (rank)
        rounds = 4;
    for (int r = 0; r < rounds; r++) {
        uz_model_params before = p;
        golden(c, &p, &bits, AXIS_K, k_lo, k_hi);
        if (fit_floor)
            golden(c, &p, &bits, AXIS_FLOOR, f_lo, f_hi);
        if (rank) {
            golden(c, &p, &bits, AXIS_RANK, 0.0, 0.95);
            golden(c, &p, &bits, AXIS_DECAY, 0.05, 0.98);
        }
        if (r > 0 && p.k_milli == before.k_milli && p.floor_q16 == before.floor_q16 && p.rank_q16 == before.rank_q16 &&
            p.decay_q16 == before.decay_q16)
            break;
    }
    *best = p;
    if (best_bits)
        *best_bits = bits;

cleanup:
    free(c);
    return res;
}
