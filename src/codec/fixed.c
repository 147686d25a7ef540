/* Integer fixed-point log2 / exp2: identical bits on every platform, no libm. */
#include "fixed.h"

#include <pthread.h>

/* floor(sqrt(x)), classic digit-by-digit method: exact, no division. */
static uint64_t isqrt64(uint64_t x)
{
    uint64_t r = 0;
    uint64_t bit = (uint64_t)1 << 62;
    while (bit > x)
        bit >>= 2;
    while (bit != 0) {
        if (x >= r + bit) {
            x -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

uint64_t uz__log2_fixed(uint64_t x, unsigned frac_bits)
{
    if (x == 0)
        return 0;
    unsigned ip = 0;
    for (unsigned step = 32; step > 0; step >>= 1) {
        if ((x >> ip) >> step)
            ip += step;
    }
    /* Mantissa in Q31, in [2^31, 2^32): y*y then fits in 64 bits. */
    uint64_t y = ip >= 31 ? x >> (ip - 31) : x << (31 - ip);
    uint64_t frac = 0;
    /* Squaring the mantissa doubles its log; a result >= 2 yields the next bit. */
    for (unsigned i = 0; i < frac_bits; i++) {
        y = (y * y) >> 31;
        frac <<= 1;
        if (y >= ((uint64_t)1 << 32)) {
            y >>= 1;
            frac |= 1;
        }
    }
    return ((uint64_t)ip << frac_bits) | frac;
}

uint64_t uz__log2_q32(uint64_t x) { return uz__log2_fixed(x, 32); }

static uz__exp2_table exp2_table;
static pthread_once_t exp2_once = PTHREAD_ONCE_INIT;

static void exp2_table_init(void)
{
    uz__exp2_table *t = &exp2_table;
    /* c[j] = sqrt(c[j-1]): sqrt of a Q31 value v is isqrt(v << 31) in Q31. */
    t->c[0] = (uint32_t)1 << 30;
    for (int j = 1; j < 32; j++)
        t->c[j] = (uint32_t)isqrt64((uint64_t)t->c[j - 1] << 31);
}

const uz__exp2_table *uz__exp2_constants(void)
{
    pthread_once(&exp2_once, exp2_table_init);
    return &exp2_table;
}

uint32_t uz__exp2_neg_q31(const uz__exp2_table *t, uint32_t frac_q32)
{
    /* 2^-f = prod over set bits j of f (weight 2^-j) of 2^(-2^-j). */
    uint64_t m = (uint64_t)1 << 31;
    /* Set bits from the highest down (j = 1, 2, ...: the product's order fixes its
     * rounding); bit 0 (j = 32) has no constant. */
    for (uint32_t bits = frac_q32 & ~1u; bits != 0;) {
        const int top = 31 - __builtin_clz(bits);
        m = (m * t->c[32 - top] + ((uint64_t)1 << 30)) >> 31;
        bits &= ~((uint32_t)1 << top);
    }
    return (uint32_t)m;
}

uint32_t uz__exp2_q16_round(const uz__exp2_table *t, uint32_t u_q16)
{
    uint32_t ip = u_q16 >> 16;
    uint32_t f = u_q16 & 0xFFFFu;
    if (ip > 30)
        ip = 30;
    if (f == 0)
        return (uint32_t)1 << ip;
    /* 2^(ip + f) = 2^(ip + 1) * 2^-(1 - f) */
    uint64_t m = uz__exp2_neg_q31(t, (uint32_t)(65536u - f) << 16);
    uint64_t v = m << (ip + 1);
    return (uint32_t)((v + ((uint64_t)1 << 30)) >> 31);
}
