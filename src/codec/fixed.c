/* Integer fixed-point log2 / exp2: identical bits on every platform, no libm. */
#include "fixed.h"

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

uint64_t uz__log2_q32(uint64_t x)
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
    for (int i = 0; i < 32; i++) {
        y = (y * y) >> 31;
        frac <<= 1;
        if (y >= ((uint64_t)1 << 32)) {
            y >>= 1;
            frac |= 1;
        }
    }
    return ((uint64_t)ip << 32) | frac;
}

void uz__exp2_table_init(uz__exp2_table *t)
{
    /* c[j] = sqrt(c[j-1]): sqrt of a Q31 value v is isqrt(v << 31) in Q31. */
    t->c[0] = (uint32_t)1 << 30;
    for (int j = 1; j < 32; j++)
        t->c[j] = (uint32_t)isqrt64((uint64_t)t->c[j - 1] << 31);
}

uint32_t uz__exp2_neg_q31(const uz__exp2_table *t, uint32_t frac_q32)
{
    /* 2^-f = prod over set bits j of f (weight 2^-j) of 2^(-2^-j). */
    uint64_t m = (uint64_t)1 << 31;
    for (int j = 1; j < 32; j++) {
        if ((frac_q32 >> (32 - j)) & 1u)
            m = (m * t->c[j] + ((uint64_t)1 << 30)) >> 31;
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
