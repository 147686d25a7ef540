/* Adaptive binary models and gamma codes: see bit_code.h. */
#include "block/bit_code.h"

#include <pthread.h>
#include <string.h>

#include "codec/fixed.h"

/* -log2(f / 4096) in Q16 for f = 1..4095, what a coded bit of frequency f adds to its
 * cost: taken from uz__log2_q32 once, since that logarithm (32 squarings) cost as much as
 * coding the bit. */
static uint32_t bit_cost[4096];
static pthread_once_t bit_cost_once = PTHREAD_ONCE_INIT;

static void bit_cost_init(void)
{
    for (uint32_t f = 1; f < 4096; f++)
        bit_cost[f] = (uint32_t)(((12ull << 32) - uz__log2_q32(f)) >> 16);
}

void uz_bit_models_init(uz_bit_model *m, size_t count, uint8_t cap)
{
    if (count == 0)
        return;
    m[0] = (uz_bit_model){32768, 0, cap};
    /* Copies of what is done, doubling: readers set up tens of thousands of models a block,
     * and a copy is one checked range under the sanitizers where a loop is one a model. */
    for (size_t done = 1; done < count; done *= 2)
        memcpy(m + done, m, (done < count - done ? done : count - done) * sizeof *m);
}

unsigned uz_bit_length(uint64_t v)
{
    unsigned n = 0;
    for (; v; v >>= 1)
        n++;
    return n;
}

uz_result uz_bit_code(uz_bit_coder *c, uz_bit_model *m, unsigned *bit)
{
    uint32_t p = m->p >> 4;
    p = p < 1 ? 1 : p > 4095 ? 4095 : p;
    uint32_t freq[2] = {4096 - p, p};
    uz_result r;
    if (c->enc) {
        r = uz_encoder_put(c->enc, freq, 2, 4096, (int)*bit);
    } else {
        int s = 0;
        r = uz_decoder_get(&c->dec, freq, 2, 4096, &s) == UZ_OK ? UZ_OK : UZ_ERR_CORRUPT;
        *bit = (unsigned)s;
    }
    if (r != UZ_OK)
        return r;
    pthread_once(&bit_cost_once, bit_cost_init);
    *c->cost += bit_cost[freq[*bit]];
    int32_t target = *bit ? 65536 : 0;
    m->p = (uint16_t)(m->p + (target - (int32_t)m->p) * 2 / (2 * (int32_t)m->n + 3));
    if (m->n < m->cap)
        m->n++;
    return UZ_OK;
}

uz_result uz_gamma_code(uz_bit_coder *c, uz_bit_model *len_models, uz_bit_model (*top)[4],
                        uz_bit_model (*low)[UZ_GAMMA_MAX], uint64_t *v)
{
    unsigned len = c->enc ? uz_bit_length(*v) : 0, k;
    uz_result r;
    for (k = 1;; k++) {
        unsigned more = len > k;
        if ((r = uz_bit_code(c, &len_models[k], &more)) != UZ_OK)
            return r;
        if (!more)
            break;
        if (k + 1 >= UZ_GAMMA_MAX)
            return UZ_ERR_CORRUPT;
    }
    uint64_t x = 1;
    for (unsigned i = 1; i < k; i++) {
        unsigned b = c->enc ? (unsigned)(*v >> (k - 1 - i)) & 1 : 0;
        if ((r = uz_bit_code(c, i <= 2 ? &top[k][x] : &low[k][i], &b)) != UZ_OK)
            return r;
        x = 2 * x + b;
    }
    *v = x;
    return UZ_OK;
}

uz_result uz_signed_code(uz_bit_coder *c, uz_gamma_set24 *g, unsigned extra, unsigned n_extra, uint64_t *prev_v,
                         int64_t *s)
{
    unsigned lctx = uz_bit_length(*prev_v) / 2;
    unsigned cap = UZ_GAMMA_SET24_CTX / n_extra - 1;
    uint64_t v = uz_zigzag1(*s);
    uz_result r = uz_gamma_code(c, g->len[(lctx < cap ? lctx : cap) * n_extra + extra], g->top, g->low, &v);
    if (r != UZ_OK)
        return r;
    *s = uz_unzigzag1(v);
    *prev_v = v;
    return UZ_OK;
}
